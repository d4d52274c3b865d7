/// Waits, without spinning, for a write to named files of one folder: inotify on
/// Linux; elsewhere (no inotify) each wait just sleeps for its timeout, so the caller,
/// which checks what it waits for after every wake, polls on that timer instead.
package final class FolderWatch {
    private let fd: Int32
    private let names: Set<String>

    /// Watches folder for writes to, creations of and renames onto the given names.
    /// Without inotify (or when the watch cannot be set), waits are timed sleeps.
    package init(folder: String, names: Set<String>) {
        self.names = names
        #if os(Linux) || os(Android)
            let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            if fd >= 0, inotify_add_watch(fd, folder, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)) < 0 {
                posixClose(fd)
                self.fd = -1
            } else {
                self.fd = fd
            }
        #else
            fd = -1
        #endif
    }

    deinit { if fd >= 0 { posixClose(fd) } }

    /// Whether waits wake on writes (inotify) or only on their timeout.
    package var wakesOnWrite: Bool { fd >= 0 }

    /// Blocks until one of the names is written (true) or timeoutMs passes (false).
    package func wait(timeoutMs: Int32) -> Bool {
        guard fd >= 0 else {
            usleep(UInt32(max(timeoutMs, 0)) * 1000)
            return false
        }
        let deadline = MonotonicClock.nanoseconds() &+ Int64(timeoutMs) * 1_000_000
        while true {
            let left = (deadline &- MonotonicClock.nanoseconds()) / 1_000_000
            guard left > 0 else { return false }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: left))
            if ready < 0 && errno != EINTR { return false }
            if ready > 0 && drainNamesWritten() { return true }
        }
    }

    /// Reads every queued event; whether one named a watched file.
    private func drainNamesWritten() -> Bool {
        #if os(Linux) || os(Android)
            var hit = false
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { return hit }
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                    let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }
                    if names.contains(String(decoding: nameBytes, as: UTF8.self)) { hit = true }
                    offset += header + length
                }
            }
        #else
            return false
        #endif
    }
}
