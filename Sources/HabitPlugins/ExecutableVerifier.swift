import Glibc
import HabitCore

/// A plugin that is a program: it gets one JSON request on stdin and answers one
/// JSON line on stdout; stderr is its log. The host gives it `timeoutMs`, keeps at
/// most `outputCap` bytes of its output, and kills its process group when it runs
/// over either. A crash, a hang, a non-zero exit or garbage is an error verdict.
package final class ExecutableVerifier: Verifier {
    package let id: String
    package let version = "exec"
    package let path: String
    package let timeoutMs: Int64
    package static let outputCap = 1 << 20
    private static let logCap = 4096

    package init(id: String, path: String, timeoutMs: Int64) {
        self.id = id
        self.path = path
        self.timeoutMs = timeoutMs
    }

    /// An executable has no fingerprint services: it gets the JSON request only.
    package func verify(_ evidence: Evidence, session: VerifierSession) -> Verdict {
        let started = Clock.microseconds()
        func fail(_ reason: String, _ message: String) -> Verdict {
            .error(id, version, reason, message, durationUs: Clock.microseconds() - started)
        }
        switch run(input: evidence.requestJSON + "\n") {
        case .failure(let failure): return fail(failure.reason, failure.message)
        case .success(let output):
            let firstLine = output.prefix { $0 != UInt8(ascii: "\n") }
            do throws(HabitError) {
                return try Evidence.verdict(fromLine: String(decoding: firstLine, as: UTF8.self), verifierId: id, version: version,
                                            durationUs: Clock.microseconds() - started)
            } catch {
                return fail("invalid_output", "the plugin printed no valid verdict line: \(error.message)")
            }
        }
    }

    struct Failure: Error {
        var reason: String
        var message: String
    }

    /// Runs the program to its end (or kills it) and returns its stdout.
    private func run(input: String) -> Result<[UInt8], Failure> {
        // stdin is a socket so a plugin that never reads cannot make us block, and a
        // closed end gives EPIPE, not SIGPIPE (send with MSG_NOSIGNAL).
        var stdinPair: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &stdinPair) == 0 else {
            return .failure(Failure(reason: "spawn_failed", message: "socketpair: \(String(cString: strerror(errno)))"))
        }
        guard Self.pipeCloseOnExec(&stdoutPipe) else {
            close(stdinPair[0]); close(stdinPair[1])
            return .failure(Failure(reason: "spawn_failed", message: "pipe: \(String(cString: strerror(errno)))"))
        }
        guard Self.pipeCloseOnExec(&stderrPipe) else {
            for fd in stdinPair + stdoutPipe { close(fd) }
            return .failure(Failure(reason: "spawn_failed", message: "pipe: \(String(cString: strerror(errno)))"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, stdinPair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        // Its own process group, so a kill reaches whatever it started too.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let status = path.withCString { program -> Int32 in
            var argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
            defer { free(argv[0]) }
            return posix_spawn(&pid, program, &actions, &attributes, &argv, environ)
        }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(stdinPair[1]); close(stdoutPipe[1]); close(stderrPipe[1])
        guard status == 0 else {
            close(stdinPair[0]); close(stdoutPipe[0]); close(stderrPipe[0])
            return .failure(Failure(reason: "spawn_failed", message: "cannot run '\(path)': \(String(cString: strerror(status)))"))
        }
        let bytes = Array(input.utf8)
        _ = bytes.withUnsafeBufferPointer { send(stdinPair[0], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        shutdown(stdinPair[0], Int32(SHUT_WR))
        let outcome = collect(pid: pid, stdout: stdoutPipe[0], stderr: stderrPipe[0])
        close(stdinPair[0]); close(stdoutPipe[0]); close(stderrPipe[0])
        return outcome
    }

    /// A pipe whose ends are not inherited by programs run later (posix_spawn dup2s the child's copy).
    private static func pipeCloseOnExec(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Reads stdout and stderr until both close, the deadline passes or the output is too large; then reaps.
    private func collect(pid: pid_t, stdout: Int32, stderr: Int32) -> Result<[UInt8], Failure> {
        let deadline = Clock.microseconds() + timeoutMs * 1000
        var output: [UInt8] = []
        var log: [UInt8] = []
        var open: Set<Int32> = [stdout, stderr]
        var buffer = [UInt8](repeating: 0, count: 65536)
        var failure: Failure?
        while !open.isEmpty && failure == nil {
            let left = deadline - Clock.microseconds()
            guard left > 0 else {
                failure = Failure(reason: "timeout", message: "no answer within \(timeoutMs) ms; killed")
                break
            }
            var fds = open.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left / 1000 + 1, 1000)))
            if ready < 0 && errno != EINTR { failure = Failure(reason: "io_error", message: String(cString: strerror(errno))); break }
            for entry in fds where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count <= 0 {
                    if count == 0 || (errno != EINTR && errno != EAGAIN) { open.remove(entry.fd) }
                    continue
                }
                if entry.fd == stdout {
                    output += buffer.prefix(count)
                    if output.count > Self.outputCap {
                        failure = Failure(reason: "output_too_large", message: "more than \(Self.outputCap) bytes on stdout; killed")
                    }
                } else if log.count < Self.logCap {
                    log += buffer.prefix(min(count, Self.logCap - log.count))
                }
            }
        }
        if failure != nil { kill(-pid, SIGKILL) }
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
        if let failure { return .failure(failure) }
        let logText = String(decoding: log.suffix(300), as: UTF8.self)
        let signal = waitStatus & 0x7f
        if signal != 0 {
            return .failure(Failure(reason: "crashed", message: "killed by signal \(signal)" + (logText.isEmpty ? "" : "; stderr: \(logText)")))
        }
        let exitCode = (waitStatus >> 8) & 0xff
        if exitCode != 0 {
            return .failure(Failure(reason: "exit_status", message: "exited with status \(exitCode)" + (logText.isEmpty ? "" : "; stderr: \(logText)")))
        }
        return .success(output)
    }
}
