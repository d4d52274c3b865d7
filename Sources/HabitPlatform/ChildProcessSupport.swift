// What starting a child process needs from the platform, decided here: Linux marks a
// socket close-on-exec as it is made and says "no SIGPIPE" per send; Darwin does both
// per descriptor, names its spawn handles as optional pointers, and reaches environ
// through a function. iOS and its siblings start no child processes at all
// (HabitPlugins/ChildProcess.swift says so with an error).

/// A connected pair of stream sockets that programs started later do not inherit and
/// whose sends never raise SIGPIPE when the other end has gone (send with
/// `sendWithoutSignal`). False with errno set when the system refuses.
package func streamSocketPairCloseOnExec(_ fds: inout [Int32]) -> Bool {
    #if canImport(Darwin)
        guard socketpair(AF_UNIX, SOCK_STREAM, 0, &fds) == 0 else { return false }
        var on: Int32 = 1
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        return true
    #elseif canImport(Glibc)
        return socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0
    #else
        return socketpair(AF_UNIX, Int32(SOCK_STREAM) | Int32(SOCK_CLOEXEC), 0, &fds) == 0
    #endif
}

/// The send(2) flags for a socket from streamSocketPairCloseOnExec: MSG_NOSIGNAL where
/// it exists (Darwin set SO_NOSIGPIPE on the socket instead).
package var sendWithoutSignal: Int32 {
    #if canImport(Darwin)
        0
    #else
        Int32(MSG_NOSIGNAL)
    #endif
}

#if canImport(Darwin)
    /// posix_spawn's file actions and attributes, as this platform's C library names them.
    package typealias SpawnFileActions = posix_spawn_file_actions_t?
    package typealias SpawnAttributes = posix_spawnattr_t?
    package func newSpawnFileActions() -> SpawnFileActions { nil }
    package func newSpawnAttributes() -> SpawnAttributes { nil }
    /// This process's environment (environ), for a child that inherits it.
    package var processEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { _NSGetEnviron()?.pointee }
#else
    /// posix_spawn's file actions and attributes, as this platform's C library names them.
    package typealias SpawnFileActions = posix_spawn_file_actions_t
    package typealias SpawnAttributes = posix_spawnattr_t
    package func newSpawnFileActions() -> SpawnFileActions { posix_spawn_file_actions_t() }
    package func newSpawnAttributes() -> SpawnAttributes { posix_spawnattr_t() }
    /// This process's environment (environ), for a child that inherits it.
    package var processEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { environ }
#endif

/// The path of the loaded image (library or executable) that holds address, where the
/// platform answers without reading files (Darwin's dladdr); nil elsewhere, where
/// Linux's /proc/self/maps answers (Glibc's module offers no dladdr without _GNU_SOURCE).
package func loadedImagePath(containing address: UnsafeRawPointer) -> String? {
    #if canImport(Darwin)
        var info = Dl_info()
        guard dladdr(address, &info) != 0, let name = info.dli_fname else { return nil }
        return String(cString: name)
    #else
        return nil
    #endif
}
