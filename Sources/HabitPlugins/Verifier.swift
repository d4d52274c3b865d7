import CHabitCore
import HabitCore
import HabitPlatform

/// Something that judges a proof's evidence: a callback, a shared object or an
/// executable. A verifier never throws and never approves by default: whatever
/// goes wrong becomes an error verdict with the reason.
package protocol Verifier: AnyObject {
    var id: String { get }
    var version: String { get }
    func verify(_ evidence: Evidence, session: VerifierSession) -> Verdict
}

/// The C side of verifiers that run in-process (callbacks and shared objects):
/// the evidence as an hc_plugin_evidence, the answer read back from an hc_plugin_verdict.
enum CVerdict {
    /// Calls body with the evidence as C sees it, valid for the call.
    static func withEvidence<T>(_ evidence: Evidence, session: VerifierSession, _ body: (UnsafePointer<hc_plugin_evidence>) -> T) -> T {
        var c = hc_plugin_evidence()
        c.struct_size = UInt32(MemoryLayout<hc_plugin_evidence>.size)
        c.size = Int64(evidence.bytes.count)
        c.taken_at_ms = evidence.takenAtMs ?? 0
        c.received_at_ms = evidence.receivedAtMs
        c.habit_id = evidence.habitId
        c.proof_id = evidence.proofId
        c.day = evidence.day
        c.utc_offset_s = evidence.utcOffsetSeconds
        c.day_start_minutes = evidence.dayStartMinutes
        return evidence.path.withCString { path in
            evidence.mediaType.withCString { media in
                evidence.sha256.withCString { sha in
                    evidence.habitName.withCString { name in
                        withOptionalCString(evidence.metadataJSON) { metadata in
                            withOptionalCString(evidence.configJSON) { config in
                                evidence.bytes.withUnsafeBufferPointer { bytes in
                                    (c.path, c.media_type, c.sha256, c.habit_name) = (path, media, sha, name)
                                    (c.metadata_json, c.config_json, c.bytes) = (metadata, config, bytes.baseAddress)
                                    return session.whileLive { address in
                                        c.session = address
                                        return withUnsafePointer(to: &c) { body($0) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Runs a C verify function and reads its answer, timed.
    static func run(
        id: String, version: String, _ evidence: Evidence, session: VerifierSession,
        _ call: (UnsafePointer<hc_plugin_evidence>, UnsafeMutablePointer<hc_plugin_verdict>) -> Int32
    ) -> Verdict {
        var out = hc_plugin_verdict()
        out.struct_size = UInt32(MemoryLayout<hc_plugin_verdict>.size)
        out.outcome = HC_OUTCOME_ERROR
        let started = MonotonicClock.microseconds()
        let status = withEvidence(evidence, session: session) { call($0, &out) }
        let duration = MonotonicClock.microseconds() - started
        guard status == 0 else { return .error(id, version, "plugin_failed", "verify returned \(status)", durationUs: duration) }
        guard let outcome = Outcome(rawValue: out.outcome) else {
            return .error(id, version, "invalid_output", "outcome \(out.outcome) is not an HC_VERDICT_* value", durationUs: duration)
        }
        let signals = text(&out.signals).split(separator: ",").map { TextRules.trimmingSpaces($0) }.filter { !$0.isEmpty }
        return Verdict(
            stage: .verifier, verifierId: id, verifierVersion: version, outcome: outcome, confidence: out.confidence,
            reasonCode: text(&out.reason_code), message: text(&out.message), signals: signals, durationUs: duration
        ).sanitized()
    }

    /// A fixed C buffer as text, up to its first NUL or its end (a plugin may fill it all).
    private static func text<Buffer>(_ buffer: inout Buffer) -> String {
        withUnsafeBytes(of: &buffer) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }
}
