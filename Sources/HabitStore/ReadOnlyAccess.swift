import HabitPlatform

/// Reading a store one may not write. SQLite in WAL mode reads through a -shm file it
/// creates beside the store; in a read-only folder it cannot, and for a 0444 store it
/// would leave a 0444 -shm behind that blocks every later open once the mode is restored.
/// A store closed cleanly has an empty -wal (writers keep it: SQLite's persistent WAL,
/// truncated on the last close) or, from older versions, none: everything is in the
/// main file, which can then be read as immutable (no -shm, no lock files, nothing
/// created). When the -wal holds frames a writer is at work, so the ordinary read-only
/// open is used (SQLite reads a -shm it may not write through its read-only path).
/// (-wal and -shm that SQLite does create take the store file's own permissions.)
enum ReadOnlyAccess {
    /// Whether a read-only open of path should read the file as immutable: its -wal
    /// is missing or empty, and this process may not write the file or its folder.
    static func needsImmutableOpen(_ path: String) -> Bool {
        guard access(path, R_OK) == 0 else { return false }
        var wal = stat()
        if stat(path + "-wal", &wal) == 0 && wal.st_size > 0 { return false }
        return access(path, W_OK) != 0 || access(folder(of: path), W_OK) != 0
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A SQLite URI naming path with immutable=1; bytes outside the unreserved set are
    /// %-escaped, so a path holding '?', '#' or '%' names the same file.
    static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                uri += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        return uri + "?immutable=1"
    }
}
