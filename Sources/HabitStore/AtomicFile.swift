import HabitPlatform
import HabitCore

/// Writing a small file so that readers see the old contents or the new, never a mix.
package enum AtomicFile {
    package static func write(_ bytes: [UInt8], to path: String) throws(HabitError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw HabitError(.io, "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        let ok: Bool = bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            while written < raw.count {
                let n = posixWrite(fd, base + written, raw.count - written)
                if n < 0 { if errno == EINTR { continue }; return false }
                written += n
            }
            return true
        }
        let synced = ok && fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw HabitError(.io, "cannot write \(path): \(reason)")
        }
    }
}
