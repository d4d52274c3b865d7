import HabitCore
import HabitFiles
import HabitPlatform

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
            let path = directory + "/" + name
            let identity = FileIdentity(path: path)
            if let identity, let rules = parsed.rules(path: path, identity: identity) { return rules }
            let rules = try ZoneRules.parseTZif(name: name, bytes: try readFile(path, zone: name))
            if let identity { parsed.keep(rules, path: path, identity: identity) }
            return rules
        }
    }

    /// Zones this process has read, each with the identity of its file: a store opened
    /// again (a widget's or an extension's cold ask) does not read and parse its zone
    /// again, and a replaced file (a tzdata update) is read anew.
    private static let parsed = ParsedZones()

    private final class ParsedZones: @unchecked Sendable {
        private static let limit = 64
        private let lock = Lock()
        private var zones: [String: (identity: FileIdentity, rules: ZoneRules)] = [:]

        func rules(path: String, identity: FileIdentity) -> ZoneRules? {
            lock.locked { zones[path].flatMap { $0.identity == identity ? $0.rules : nil } }
        }

        func keep(_ rules: ZoneRules, path: String, identity: FileIdentity) {
            lock.locked {
                if zones.count >= Self.limit { zones.removeAll() }
                zones[path] = (identity, rules)
            }
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
