import HabitPlatform

/// A file written in pieces that appears at its path whole or not at all: the
/// bytes go to a temporary file beside the target (same folder, so the rename
/// cannot cross file systems), which commit() syncs and renames over the path.
/// Dropped without commit(), the temporary file is removed.
package final class AtomicOutput {
    package let path: String
    private let temporary: String
    private var fd: Int32

    package enum Failure: Error, Equatable {
        case missingFolder      // the folder of path does not exist
        case failed(String)     // what failed, with strerror's words
    }

    /// Creates the temporary file with `mode` (0600 by default: an export is a
    /// person's history; a file other processes read asks for more). The mode is
    /// set as given, not narrowed by the process's umask.
    package init(path: String, mode: mode_t = 0o600) throws(Failure) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((folder + "." + name + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        // Not inherited by the children plugins run as.
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .missingFolder }
            throw .failed("cannot create a file beside \(path): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard mode == 0o600 || fchmod(fd, mode) == 0 else {
            let reason = String(cString: strerror(errno))
            abandon()
            throw .failed("cannot set the mode of \(temporary): \(reason)")
        }
    }

    deinit { abandon() }

    /// Appends text's UTF-8 bytes.
    package func write(_ text: String) throws(Failure) {
        var text = text
        let written: Bool = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let n = posixWrite(fd, base + offset, bytes.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        guard written else { throw .failed("cannot write \(temporary): \(String(cString: strerror(errno)))") }
    }

    /// Syncs the bytes and puts the file at path, replacing what was there.
    package func commit() throws(Failure) {
        guard fd >= 0 else { throw .failed("\(path) was already committed or abandoned") }
        let synced = fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        fd = -1
        guard synced else { unlink(temporary); throw .failed("cannot write \(temporary): \(reason)") }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .failed("cannot put the file at \(path): \(reason)")
        }
    }

    /// Removes the temporary file; path is left as it was.
    package func abandon() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(temporary)
    }
}
