import HabitCore

/// proofcheck's settings, given per store as a JSON object (hc_plugin_configure);
/// every key optional, unknown keys refused so a typo is not silently ignored.
package struct ProofcheckConfig: Equatable, Sendable {
    /// Photos whose shorter side is below this are rejected `too_small`.
    package var minSide = 240
    /// PDQ distance at or below which two photos are the same evidence.
    package var maxDistance = 31
    /// PDQ hashes below this quality are not compared.
    package var minHashQuality = 50
    /// A JPEG without EXIF below this estimated quality looks re-encoded by a messenger.
    package var lowJPEGQuality = 85
    /// How far after its receipt a photo's capture time may be (camera clocks drift).
    package var clockSkewMinutes = 10

    package init() {}

    nonisolated(unsafe) private static let keys: [(String, WritableKeyPath<ProofcheckConfig, Int>, ClosedRange<Int64>)] = [
        ("min_side", \.minSide, 1...100_000), ("max_distance", \.maxDistance, 0...128),
        ("min_hash_quality", \.minHashQuality, 0...100), ("low_jpeg_quality", \.lowJPEGQuality, 0...100),
        ("clock_skew_minutes", \.clockSkewMinutes, 0...1440),
    ]

    package init(json text: String?) throws(HabitError) {
        guard let text else { return }
        let object = try JSON.parse(text)
        guard case .object(let members) = object else { throw .invalid("proofcheck's configuration must be a JSON object") }
        for (key, _) in members where !Self.keys.contains(where: { $0.0 == key }) {
            throw .invalid("proofcheck has no setting '\(key.prefix(64))' (known: \(Self.keys.map(\.0).joined(separator: ", ")))")
        }
        for (key, path, range) in Self.keys where object[key] != nil {
            let value = try object.int(key)
            guard range.contains(value) else { throw .invalid("'\(key)' \(value) is outside \(range.lowerBound)...\(range.upperBound)") }
            self[keyPath: path] = Int(value)
        }
    }
}
