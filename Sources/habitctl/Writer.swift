import HabitPlatform

/// Every byte habitctl writes goes through here: unbuffered write(2) calls whose results
/// are checked. Foundation's FileHandle.write traps on a full disk or a closed descriptor,
/// and print() buffers in stdio where a failed flush at exit is never seen.
///
/// A failed write to stdout is remembered and ends the command with exit code 8 (see
/// `Writer.exitCode`), whatever the command did before; the reason goes to stderr if
/// stderr can be written. A failed write to stderr is ignored: there is nowhere left to
/// say it. SIGPIPE keeps its default action, so `habitctl ... | head` ends quietly as
/// every other tool on the pipe does.
enum Writer {
    /// The exit code of a command whose output could not be written.
    static let exitCode: Int32 = 8

    /// Why the first failed stdout write failed (nil while every write succeeded).
    nonisolated(unsafe) private(set) static var outputFailure: String?

    /// Fills closed standard descriptors before anything is opened, so no file the
    /// command opens can become "stdout". A closed stdout gets /dev/null opened for
    /// reading, where every write fails (the output is lost, and the exit code says so);
    /// a closed stderr gets /dev/null for writing.
    static func guardStandardDescriptors() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            _ = open("/dev/null", fd == STDERR_FILENO ? O_WRONLY : O_RDONLY)
        }
        // Past a file size limit (ulimit -f), a write fails with EFBIG instead of the
        // process dying by SIGXFSZ with no word: before the commit the store reports it
        // (nothing committed, exit 6), after it the output does (exit 8).
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Ends habitctl with code, or with `exitCode` when output was lost: every exit of a
    /// command that ran goes through here, so lost output is never reported as success.
    static func finish(_ code: Int32) -> Never {
        if let outputFailure {
            standardError("habitctl: the output could not be written: \(outputFailure)\n")
            exit(exitCode)
        }
        exit(code)
    }

    /// Ends habitctl after a failed command: its own code wins over lost output, since
    /// it already says the command did not do its work.
    static func fail(_ code: Int32) -> Never {
        exit(code)
    }

    /// Whether a write to stdout failed (a follower stops there).
    static var outputFailed: Bool { outputFailure != nil }

    /// Writes text to stdout; a failure is recorded and ends the command with `exitCode`.
    static func standardOutput(_ text: String) {
        guard outputFailure == nil else { return }  // the rest would be missing a part
        if let error = writeAll(text, to: STDOUT_FILENO) { outputFailure = error }
    }

    /// Writes bytes (a sync state or changeset) to stdout, as standardOutput does text.
    static func standardOutput(bytes: [UInt8]) {
        guard outputFailure == nil else { return }
        if let error = writeAll(bytes, to: STDOUT_FILENO) { outputFailure = error }
    }

    /// Writes text to stderr, best effort.
    static func standardError(_ text: String) {
        _ = writeAll(text, to: STDERR_FILENO)
    }

    /// Writes every byte of text to fd, retrying on EINTR and short writes; returns the
    /// reason on failure.
    static func writeAll(_ text: String, to fd: Int32) -> String? {
        writeAll(Array(text.utf8), to: fd)
    }

    static func writeAll(_ data: [UInt8], to fd: Int32) -> String? {
        var bytes = data
        if bytes.isEmpty { return nil }
        return bytes.withUnsafeMutableBytes { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                if written == 0 { return "nothing could be written" }
                offset += written
            }
            return nil
        }
    }
}

/// print() in habitctl goes through the checked writer (this shadows Swift.print for the
/// whole module, so a command written with print() gets the same guarantee).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Writer.standardOutput(items.map { "\($0)" }.joined(separator: separator) + terminator)
}
