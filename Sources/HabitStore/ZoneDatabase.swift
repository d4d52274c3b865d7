import HabitPlatform
import HabitCore
import HabitFiles

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
        switch WholeFile.read(path, maxBytes: maxFileBytes) {
        case .success(let bytes): return bytes
        case .failure(.missing): throw .notFound("unknown time zone '\(zone)' (no file \(path))")
        case .failure(.notRegular): throw .notFound("unknown time zone '\(zone)'")
        case .failure(.tooLarge): throw .corrupt("time zone file \(path) is too large")
        case .failure(.unreadable): throw HabitError(.io, "cannot read \(path)")
        }
    }
}
