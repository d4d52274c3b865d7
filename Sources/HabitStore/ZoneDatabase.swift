import Glibc
import HabitCore

/// Reads time zones from the system's tz database ($TZDIR, else /usr/share/zoneinfo).
/// The parsing is the domain's; this only finds and reads the file.
package enum ZoneDatabase {
    private static let maxFileBytes = 1 << 20

    package static func load(_ name: String) throws(HabitError) -> ZoneRules {
        switch try ZoneRules.classify(name) {
        case .utc: return .utc
        case .fixed(let seconds, let canonical): return .fixed(name: canonical, offsetSeconds: seconds)
        case .tzdb(let name):
            let directory = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
            let bytes = try readFile(directory + "/" + name, zone: name)
            return try ZoneRules.parseTZif(name: name, bytes: bytes)
        }
    }

    private static func readFile(_ path: String, zone: String) throws(HabitError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .notFound("unknown time zone '\(zone)' (no file \(path))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw .notFound("unknown time zone '\(zone)'") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { throw HabitError(.io, "cannot read \(path)") }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maxFileBytes else { throw .corrupt("time zone file \(path) is too large") }
        }
        return bytes
    }
}
