import HabitPlatform

/// Reads a whole file: the one reader of outside files (evidence, time zones, the
/// process's own /proc maps). Reads until the end rather than trusting st_size (/proc
/// files report 0), retries reads a signal interrupted, and stops past a limit.
package enum WholeFile {
    package enum Failure: Error, Equatable {
        case missing  // no such file
        case notRegular  // a folder, a device, a socket
        case tooLarge  // more than the caller's limit
        case unreadable(Int32)  // open or read failed: errno
    }

    package static func read(_ path: String, maxBytes: Int) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        guard info.st_size <= maxBytes else { return .failure(.tooLarge) }
        // A read past st_size finds the end (or what a /proc file really holds).
        return read(descriptor: fd, maxBytes: maxBytes, sizeHint: Int(info.st_size))
    }

    /// Reads a descriptor to its end (a pipe, standard input), stopping past maxBytes.
    package static func read(descriptor fd: Int32, maxBytes: Int, sizeHint: Int = 0) -> Result<[UInt8], Failure> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(sizeHint, maxBytes))
        var chunk = [UInt8](repeating: 0, count: max(4096, min(65_536, sizeHint + 1)))
        while true {
            let count = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return .failure(.unreadable(errno)) }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maxBytes { return .failure(.tooLarge) }
        }
    }
}
