import HabitPlatform

/// A file written in pieces that appears at its path whole or not at all: the
/// bytes go to a temporary file beside the target (same folder, so the rename
/// cannot cross file systems), which commit() syncs and renames over the path.
/// Dropped without commit(), the temporary file is removed.
///
/// The output goes where the path points, as the shell's `>` and `cp` send it:
/// - a symbolic link is followed (a chain of them too), and its target gets the
///   write-then-rename, so the link stays a link; a dangling link gets the file it
///   names created;
/// - a path that is neither a regular file nor missing (a character or block device
///   such as /dev/null, a FIFO, a socket) is written through: opened for writing,
///   never created, truncated or replaced. Opening a FIFO waits until a reader opens
///   it, as `>` does. There nothing is atomic: what was written before an abandon()
///   or a failure has been written, and commit() only closes.
package final class AtomicOutput {
    package let path: String
    /// The temporary file renamed over `target` on commit(); nil when written through.
    private let temporary: String?
    /// The file that gets the bytes: path with its symbolic links followed.
    private let target: String
    private var fd: Int32

    package enum Failure: Error, Equatable {
        case missingFolder  // the folder of path does not exist
        case failed(String)  // what failed, with strerror's words
    }

    /// Creates the temporary file with `mode` (0600 by default: an export is a
    /// person's history; a file other processes read asks for more). The mode is
    /// set as given, not narrowed by the process's umask. A path written through
    /// keeps its own mode.
    package init(path: String, mode: mode_t = 0o600) throws(Failure) {
        self.path = path
        let (target, kind) = try Self.resolve(path)
        self.target = target
        // A folder takes the usual way, whose rename refuses it.
        if let kind, kind != S_IFREG, kind != S_IFDIR {
            // No O_CREAT or O_TRUNC: the path exists and is not ours to replace.
            let fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else { throw .failed("cannot open \(target): \(String(cString: strerror(errno)))") }
            // It could have been replaced by a regular file since the lstat.
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFREG else {
                close(fd)
                throw .failed("\(target) changed while it was opened")
            }
            self.fd = fd
            temporary = nil
            return
        }
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var template = Array((folder + "." + name + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        // Not inherited by the children plugins run as.
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .missingFolder }
            throw .failed("cannot create a file beside \(target): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.temporary = temporary
        guard mode == 0o600 || fchmod(fd, mode) == 0 else {
            let reason = String(cString: strerror(errno))
            abandon()
            throw .failed("cannot set the mode of \(temporary): \(reason)")
        }
    }

    /// Path with its symbolic links followed, link by link (realpath cannot follow
    /// a dangling one), and the type (S_IFMT bits) of what is there, nil if nothing.
    private static func resolve(_ path: String) throws(Failure) -> (String, mode_t?) {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            // Missing (or unreachable: mkstemp beside it reports why).
            guard lstat(current, &info) == 0 else { return (current, nil) }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFLNK else { return (current, kind) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw .failed("cannot read the link \(current): \(String(cString: strerror(errno)))") }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A relative link is relative to the folder holding it.
            let folder = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
            current = link.hasPrefix("/") ? link : folder + link
        }
        throw .failed("cannot follow \(path): \(String(cString: strerror(ELOOP)))")
    }

    deinit { abandon() }

    /// Appends text's UTF-8 bytes.
    package func write(_ text: String) throws(Failure) {
        var text = text
        guard text.withUTF8({ writeAll(UnsafeRawBufferPointer($0)) }) else { throw writeFailure() }
    }

    /// Appends bytes.
    package func write(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.withUnsafeBytes(writeAll) else { throw writeFailure() }
    }

    /// False when a write failed (errno says why).
    private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let n = posixWrite(fd, base + offset, bytes.count - offset)
            if n < 0 { if errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }

    private func writeFailure() -> Failure {
        .failed("cannot write \(temporary ?? target): \(String(cString: strerror(errno)))")
    }

    /// Syncs the bytes and puts the file at path, replacing what was there; a path
    /// written through is closed.
    package func commit() throws(Failure) {
        guard fd >= 0 else { throw .failed("\(path) was already committed or abandoned") }
        guard let temporary else {
            // Devices and FIFOs have nothing to sync (fsync fails with EINVAL on them).
            let closed = close(fd) == 0
            fd = -1
            guard closed else { throw .failed("cannot write \(target): \(String(cString: strerror(errno)))") }
            return
        }
        let synced = fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        fd = -1
        guard synced else { unlink(temporary); throw .failed("cannot write \(temporary): \(reason)") }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .failed("cannot put the file at \(target): \(reason)")
        }
    }

    /// Removes the temporary file; path is left as it was (a path written through
    /// keeps what was written to it).
    package func abandon() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        if let temporary { unlink(temporary) }
    }
}
