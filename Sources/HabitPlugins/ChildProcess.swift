import HabitCore
import HabitPlatform

/// Runs a program that reads its input on stdin and answers on stdout, with a time
/// limit and an output cap: how executable plugins and isolated shared objects run.
/// The program gets its own process group, so a kill reaches whatever it started.
package enum ChildProcess {
    package static let outputCap = 1 << 20
    private static let logCap = 4096

    package struct Failure: Error {
        package var reason: String
        package var message: String
    }

    /// Runs the program to its end (or kills it) and returns its stdout. The whole input
    /// is written as the program reads it; a program that never reads cannot block us.
    package static func run(
        path: String, arguments: [String], input: [UInt8], timeoutMs: Int64,
        environment extra: [String] = []
    ) -> Result<[UInt8], Failure> {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            // posix_spawn and fork are unavailable there: say so as the verdict's reason.
            return .failure(
                Failure(
                    reason: "unsupported_platform",
                    message: "\(platformName) starts no child processes: only callback verifiers run there"))
        #else
            return spawn(path: path, arguments: arguments, input: input, timeoutMs: timeoutMs, environment: extra)
        #endif
    }

    #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
        private static func spawn(
            path: String, arguments: [String], input: [UInt8], timeoutMs: Int64,
            environment extra: [String] = []
        ) -> Result<[UInt8], Failure> {
            // stdin is a socket so a closed end gives EPIPE, not SIGPIPE (HabitPlatform says how).
            var stdinPair: [Int32] = [-1, -1]
            var stdoutPipe: [Int32] = [-1, -1]
            var stderrPipe: [Int32] = [-1, -1]
            guard streamSocketPairCloseOnExec(&stdinPair) else {
                return .failure(Failure(reason: "spawn_failed", message: "socketpair: \(String(cString: strerror(errno)))"))
            }
            guard pipeCloseOnExec(&stdoutPipe) else {
                close(stdinPair[0]); close(stdinPair[1])
                return .failure(Failure(reason: "spawn_failed", message: "pipe: \(String(cString: strerror(errno)))"))
            }
            guard pipeCloseOnExec(&stderrPipe) else {
                for fd in stdinPair + stdoutPipe { close(fd) }
                return .failure(Failure(reason: "spawn_failed", message: "pipe: \(String(cString: strerror(errno)))"))
            }
            var actions = newSpawnFileActions()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_adddup2(&actions, stdinPair[1], 0)
            posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
            var attributes = newSpawnAttributes()
            posix_spawnattr_init(&attributes)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
            var pid: pid_t = 0
            var environment: [UnsafeMutablePointer<CChar>?] = []
            if !extra.isEmpty {
                // Ours first: getenv takes the first of a name.
                for entry in extra { environment.append(strdup(entry)) }
                var index = 0
                while let inherited = processEnvironment, let entry = inherited[index] { environment.append(strdup(entry)); index += 1 }
                environment.append(nil)
            }
            defer { for entry in environment { free(entry) } }
            var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
            defer { for entry in argv { free(entry) } }
            let status =
                environment.isEmpty
                ? posix_spawn(&pid, path, &actions, &attributes, &argv, processEnvironment)
                : posix_spawn(&pid, path, &actions, &attributes, &argv, &environment)
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
            close(stdinPair[1]); close(stdoutPipe[1]); close(stderrPipe[1])
            guard status == 0 else {
                close(stdinPair[0]); close(stdoutPipe[0]); close(stderrPipe[0])
                return .failure(Failure(reason: "spawn_failed", message: "cannot run '\(path)': \(String(cString: strerror(status)))"))
            }
            _ = fcntl(stdinPair[0], F_SETFL, fcntl(stdinPair[0], F_GETFL) | O_NONBLOCK)
            let outcome = collect(pid: pid, input: input, stdin: stdinPair[0], stdout: stdoutPipe[0], stderr: stderrPipe[0], timeoutMs: timeoutMs)
            close(stdinPair[0]); close(stdoutPipe[0]); close(stderrPipe[0])
            return outcome
        }
    #endif

    /// A pipe whose ends are not inherited by programs run later (posix_spawn dup2s the child's copy).
    private static func pipeCloseOnExec(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Writes the input and reads stdout and stderr until both close, the deadline passes or
    /// the output is too large; then reaps.
    private static func collect(
        pid: pid_t, input: [UInt8], stdin: Int32, stdout: Int32, stderr: Int32,
        timeoutMs: Int64
    ) -> Result<[UInt8], Failure> {
        let deadline = MonotonicClock.microseconds() + timeoutMs * 1000
        var output: [UInt8] = []
        var log: [UInt8] = []
        var open: Set<Int32> = [stdout, stderr]
        var sent = 0
        var writing = true
        if input.isEmpty { shutdown(stdin, Int32(SHUT_WR)); writing = false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var failure: Failure?
        while !open.isEmpty && failure == nil {
            let left = deadline - MonotonicClock.microseconds()
            guard left > 0 else {
                failure = Failure(reason: "timeout", message: "no answer within \(timeoutMs) ms; killed")
                break
            }
            var fds = open.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if writing { fds.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left / 1000 + 1, 1000)))
            if ready < 0 && errno != EINTR { failure = Failure(reason: "io_error", message: String(cString: strerror(errno))); break }
            for entry in fds where entry.revents != 0 {
                if entry.fd == stdin {
                    let count = input.withUnsafeBytes {
                        send(stdin, $0.baseAddress.map { $0 + sent }, $0.count - sent, sendWithoutSignal | Int32(MSG_DONTWAIT))
                    }
                    if count > 0 { sent += count }
                    // Done, or the program closed its stdin: it gets no more.
                    if sent >= input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        shutdown(stdin, Int32(SHUT_WR))
                        writing = false
                    }
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count <= 0 {
                    if count == 0 || (errno != EINTR && errno != EAGAIN) { open.remove(entry.fd) }
                    continue
                }
                if entry.fd == stdout {
                    output += buffer.prefix(count)
                    if output.count > outputCap {
                        failure = Failure(reason: "output_too_large", message: "more than \(outputCap) bytes on stdout; killed")
                    }
                } else if log.count < logCap {
                    log += buffer.prefix(min(count, logCap - log.count))
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
            return .failure(
                Failure(reason: "crashed", message: "killed by \(signalName(signal)) (signal \(signal))" + (logText.isEmpty ? "" : "; stderr: \(logText)")))
        }
        let exitCode = (waitStatus >> 8) & 0xff
        if exitCode != 0 {
            return .failure(Failure(reason: "exit_status", message: "exited with status \(exitCode)" + (logText.isEmpty ? "" : "; stderr: \(logText)")))
        }
        return .success(output)
    }

    /// A signal's name as people search for it ("SIGSEGV"); Linux numbering.
    package static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
            10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 24: "SIGXCPU", 25: "SIGXFSZ", 31: "SIGSYS",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
