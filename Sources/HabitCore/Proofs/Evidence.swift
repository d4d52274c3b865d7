/// A proof's evidence as verifiers see it.
package struct Evidence: Sendable {
    /// The largest evidence a proof takes (and a changeset carries).
    package static let maxBytes = 64 << 20

    package var bytes: [UInt8]
    /// A file holding the bytes (the caller's, or one the engine wrote).
    package var path: String
    package var mediaType: String
    package var sha256: String
    package var takenAtMs: Int64?
    package var receivedAtMs: Int64
    package var habitId: Int64
    package var habitName: String
    /// A JSON object, or nil.
    package var metadataJSON: String?
    /// 0 when only testing a verifier.
    package var proofId: Int64 = 0
    /// The store's day the proof counts for, its UTC offset at receipt and its day start.
    package var day: Int32 = 0
    package var utcOffsetSeconds: Int32 = 0
    package var dayStartMinutes: Int32 = 0
    /// The verifier's settings in this store (a JSON object), or nil.
    package var configJSON: String?

    package init(
        bytes: [UInt8], path: String, mediaType: String, sha256: String, takenAtMs: Int64?, receivedAtMs: Int64, habitId: Int64,
        habitName: String, metadataJSON: String?
    ) {
        self.bytes = bytes
        self.path = path
        self.mediaType = mediaType
        self.sha256 = sha256
        self.takenAtMs = takenAtMs
        self.receivedAtMs = receivedAtMs
        self.habitId = habitId
        self.habitName = habitName
        self.metadataJSON = metadataJSON
    }

    /// The request an executable plugin reads on stdin (one line).
    package var requestJSON: String {
        var evidence: [(String, JSON)] = [
            ("path", .string(path)), ("media_type", .string(mediaType)), ("size", .int(Int64(bytes.count))),
            ("sha256", .string(sha256)), ("taken_at_ms", takenAtMs.map(JSON.int) ?? .null), ("received_at_ms", .int(receivedAtMs)),
        ]
        evidence.append(("metadata", (metadataJSON.flatMap { try? JSON.parse($0) }) ?? .null))
        return JSON.object([
            ("habitcore_plugin", .int(1)), ("evidence", .object(evidence)),
            ("habit", .object([("id", .int(habitId)), ("name", .string(habitName))])),
            (
                "proof",
                .object([
                    ("id", .int(proofId)), ("day", .string((try? CivilDate.format(day)) ?? "")),
                    ("utc_offset_s", .int(Int64(utcOffsetSeconds))), ("day_start_minutes", .int(Int64(dayStartMinutes))),
                ])
            ),
            ("config", (configJSON.flatMap { try? JSON.parse($0) }) ?? .null),
        ]).text
    }

    /// Reads an executable plugin's answer: one JSON object on its first line.
    package static func verdict(fromLine line: String, verifierId: String, version: String, durationUs: Int64) throws(HabitError) -> Verdict {
        let object = try JSON.parse(line)
        guard case .object = object else { throw .invalid("the answer is not a JSON object") }
        guard let outcome = Outcome(name: try object.string("outcome")) else {
            throw .invalid("'outcome' must be approved, rejected, needs_review or error")
        }
        var signals: [String] = []
        if object["signals"] != nil {
            for item in try object.array("signals") {
                guard case .string(let name) = item else { throw .invalid("'signals' must be an array of strings") }
                signals.append(name)
            }
        }
        let confidence = object["confidence"] == nil ? (outcome == .approved ? 1 : 0) : try object.number("confidence")
        return Verdict(
            stage: .verifier, verifierId: verifierId, verifierVersion: version, outcome: outcome, confidence: confidence,
            reasonCode: try object.optionalString("reason") ?? outcome.name, message: try object.optionalString("message") ?? "",
            signals: signals, durationUs: durationUs
        ).sanitized()
    }
}
