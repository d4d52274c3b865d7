import HabitCore

/// proofcheck's verdict on one photo, from what was found: a file it cannot decode
/// or too small is rejected; a near-duplicate of an earlier proof is rejected
/// `reused_evidence`; any signal sends it to review; otherwise it is approved, as
/// far as proofcheck can tell (what the photo shows is for other verifiers).
package struct Assessment: Equatable, Sendable {
    package var outcome: Outcome
    package var confidence: Double
    package var reason: String
    package var message: String
    package var signals: [String]

    /// Why a photo could not be judged at all.
    package enum Refusal: Equatable, Sendable {
        case unsupported(String)
        case undecodable(String)
        case tooSmall(width: Int, height: Int)
    }

    package static func refused(_ refusal: Refusal, minSide: Int) -> Assessment {
        switch refusal {
        case .unsupported(let what):
            return Assessment(outcome: .rejected, confidence: 1, reason: "unsupported_format", message: "not a JPEG or PNG: \(what)", signals: [])
        case .undecodable(let why):
            return Assessment(outcome: .rejected, confidence: 1, reason: "undecodable", message: "the image cannot be decoded: \(why)", signals: [])
        case .tooSmall(let width, let height):
            return Assessment(
                outcome: .rejected, confidence: 1, reason: "too_small",
                message: "\(width)x\(height) is below the \(minSide) pixels the shorter side needs", signals: [])
        }
    }

    package static func judge(match: FingerprintMatch?, hashQuality: Int, signals: [Signal], config: ProofcheckConfig) -> Assessment {
        var signals = signals
        if hashQuality < config.minHashQuality {
            signals.append(Signal(name: "low_detail", message: "too flat or dark to compare with earlier proofs (PDQ quality \(hashQuality))"))
        }
        let names = signals.map(\.name)
        if let match {
            return Assessment(
                outcome: .rejected, confidence: 1, reason: "reused_evidence",
                message: "the same photo as proof #\(match.proofId) (\(match.orientation.name), PDQ distance \(match.distance))",
                signals: names)
        }
        if let first = signals.first {
            return Assessment(
                outcome: .needsReview, confidence: 0.5, reason: first.name,
                message: signals.map(\.message).joined(separator: "; "), signals: names)
        }
        return Assessment(
            outcome: .approved, confidence: 0.9, reason: "no_findings",
            message: "not seen before; nothing in its metadata suggests a screenshot, an edit or another day", signals: [])
    }
}
