/// What the host and habitcore-plugin-runner say to each other when a shared-object
/// plugin runs in its own process: the executable-plugin request (Evidence.requestJSON)
/// plus the plugin's path and the fingerprints it kept with earlier proofs, and the
/// executable-plugin answer line plus the fingerprints it keeps with this proof.
package enum RunnerProtocol {
    package typealias Fingerprint = (kind: String, proofId: Int64, bytes: [UInt8])

    package struct Request {
        package var pluginPath: String
        package var evidence: Evidence
        /// Every fingerprint the plugin kept with the store's other proofs, oldest first.
        package var fingerprints: [Fingerprint]
    }

    package static func request(pluginPath: String, evidence: Evidence, fingerprints: [Fingerprint]) -> String {
        var object = (try? JSON.parse(evidence.requestJSON)) ?? .object([])
        if case .object(var members) = object {
            members.append(("shared_object", .string(pluginPath)))
            members.append(
                (
                    "fingerprints",
                    .array(
                        fingerprints.map {
                            .object([("kind", .string($0.kind)), ("proof_id", .int($0.proofId)), ("hex", .string(hex($0.bytes)))])
                        })
                ))
            object = .object(members)
        }
        return object.text
    }

    /// The inverse of request (the evidence bytes are read from its path by the runner).
    package static func parseRequest(_ text: String) throws(HabitError) -> Request {
        let object = try JSON.parse(text)
        guard case .object = object, let evidence = object["evidence"], let habit = object["habit"], let proof = object["proof"] else {
            throw .invalid("the request needs evidence, habit and proof objects")
        }
        var parsed = Evidence(
            bytes: [], path: try evidence.string("path"), mediaType: try evidence.string("media_type"),
            sha256: try evidence.string("sha256"), takenAtMs: try evidence.optionalInt("taken_at_ms"),
            receivedAtMs: try evidence.int("received_at_ms"), habitId: try habit.int("id"), habitName: try habit.string("name"),
            metadataJSON: evidence["metadata"].flatMap { $0 == .null ? nil : $0.text })
        parsed.proofId = try proof.int("id")
        let day = try proof.string("day")
        parsed.day = day.isEmpty ? 0 : try CivilDate.parseDay(day)
        guard let offset = Int32(exactly: try proof.int("utc_offset_s")), let start = Int32(exactly: try proof.int("day_start_minutes")) else {
            throw .invalid("utc_offset_s or day_start_minutes is out of range")
        }
        parsed.utcOffsetSeconds = offset
        parsed.dayStartMinutes = start
        parsed.configJSON = object["config"].flatMap { $0 == .null ? nil : $0.text }
        var fingerprints: [Fingerprint] = []
        if object["fingerprints"] != nil {
            for item in try object.array("fingerprints") {
                guard let bytes = unhex(try item.string("hex")) else { throw .invalid("a fingerprint's hex is not hexadecimal") }
                fingerprints.append((try item.string("kind"), try item.int("proof_id"), bytes))
            }
        }
        return Request(pluginPath: try object.string("shared_object"), evidence: parsed, fingerprints: fingerprints)
    }

    /// The runner's answer: the executable-plugin verdict line plus "keep".
    package static func reply(_ verdict: Verdict, kept: [(kind: String, bytes: [UInt8])]) -> String {
        JSON.object([
            ("outcome", .string(verdict.outcome.name)), ("confidence", .double(verdict.confidence)), ("reason", .string(verdict.reasonCode)),
            ("message", .string(verdict.message)), ("signals", .array(verdict.signals.map(JSON.string))),
            ("keep", .array(kept.map { .object([("kind", .string($0.kind)), ("hex", .string(hex($0.bytes)))]) })),
        ]).text
    }

    /// The runner's answer read back: the verdict and what the plugin keeps.
    package static func parseReply(
        _ line: String, verifierId: String, version: String,
        durationUs: Int64
    ) throws(HabitError) -> (verdict: Verdict, kept: [(kind: String, bytes: [UInt8])]) {
        let verdict = try Evidence.verdict(fromLine: line, verifierId: verifierId, version: version, durationUs: durationUs)
        let object = try JSON.parse(line)
        var kept: [(kind: String, bytes: [UInt8])] = []
        if object["keep"] != nil {
            for item in try object.array("keep") {
                guard let bytes = unhex(try item.string("hex")) else { throw .invalid("a kept fingerprint's hex is not hexadecimal") }
                kept.append((try item.string("kind"), bytes))
            }
        }
        return (verdict, kept)
    }

    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func unhex(_ text: String) -> [UInt8]? {
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            case 65...70: c - 55
            default: nil
            }
        }
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
