import HabitPlatform

/// Reads a file a line at a time through one buffer: memory is the longest line,
/// not the file. Lines are split at "\n" (a "\r" before it is left to the caller).
package final class LineReader {
    package enum Failure: Error, Equatable {
        case missing  // no such file
        case notRegular  // a folder, a device
        case lineTooLong(Int)  // a line longer than the limit (its number)
        case unreadable(String)  // open or read failed: strerror's words
    }

    /// The file's size when opened, and the bytes handed out so far (lines and their "\n").
    package let size: Int64
    package private(set) var consumed: Int64 = 0
    private let fd: Int32
    private let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0

    package init(path: String, maxLineBytes: Int) throws(Failure) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .missing }
            throw .unreadable(String(cString: strerror(errno)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { close(fd); throw .unreadable(String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { close(fd); throw .notRegular }
        self.fd = fd
        self.size = Int64(info.st_size)
        self.maxLineBytes = maxLineBytes
    }

    deinit { close(fd) }

    /// The next line without its "\n" (a last line without one counts), or nil at the end.
    /// The slice is valid until the next call.
    package func next() throws(Failure) -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<newline]
                consumed += Int64(newline - start + 1)
                start = newline + 1
                lineNumber += 1
                return line
            }
            if buffer.count - start > maxLineBytes { throw .lineTooLong(lineNumber + 1) }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                consumed += Int64(line.count)
                start = buffer.count
                lineNumber += 1
                return line
            }
            try fill()
        }
    }

    /// Drops the lines handed out and reads the next piece of the file after the rest.
    private func fill() throws(Failure) {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let piece = 256 * 1024
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: piece))
        var count = 0
        while true {
            count = buffer.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress.map { $0 + old }, piece) }
            if count < 0 && errno == EINTR { continue }
            break
        }
        let failure = errno
        buffer.removeLast(piece - max(0, count))
        if count < 0 { throw .unreadable(String(cString: strerror(failure))) }
        if count == 0 { atEnd = true }
    }
}
