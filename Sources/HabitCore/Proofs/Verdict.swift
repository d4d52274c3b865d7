/// What a verifier, the policy or a reviewer said about a proof. The raw values
/// are the HC_OUTCOME_* constants.
package enum Outcome: Int32, Sendable, CaseIterable {
    case approved = 1
    case rejected = 2
    case needsReview = 3
    case error = 4

    package var name: String {
        switch self {
        case .approved: return "approved"
        case .rejected: return "rejected"
        case .needsReview: return "needs_review"
        case .error: return "error"
        }
    }

    package init?(name: String) {
        guard let outcome = Outcome.allCases.first(where: { $0.name == name }) else { return nil }
        self = outcome
    }
}

/// One verdict as the ledger keeps it. Nothing is overwritten: a proof's state is
/// its latest decision or review.
package struct Verdict: Equatable, Sendable {
    /// Who spoke. The raw values are the HC_STAGE_* constants.
    package enum Stage: Int32, Sendable {
        /// A verifier (built-in check, callback, shared object, executable).
        case verifier = 1
        /// The policy combining the verifiers' verdicts.
        case decision = 2
        /// A person, by hand.
        case review = 3
    }

    package var id: Int64 = 0
    package var proofId: Int64 = 0
    package var stage: Stage
    package var verifierId: String
    package var verifierVersion: String
    package var outcome: Outcome
    package var confidence: Double
    package var reasonCode: String
    package var message: String
    /// Named findings ("exif_missing", "screenshot", ...).
    package var signals: [String]
    package var durationUs: Int64
    package var atMs: Int64 = 0
    package var reviewer: String?
    /// The completion a decision or review appended.
    package var entryId: Int64?

    package init(
        stage: Stage, verifierId: String, verifierVersion: String, outcome: Outcome, confidence: Double, reasonCode: String,
        message: String, signals: [String] = [], durationUs: Int64 = 0
    ) {
        self.stage = stage
        self.verifierId = verifierId
        self.verifierVersion = verifierVersion
        self.outcome = outcome
        self.confidence = confidence
        self.reasonCode = reasonCode
        self.message = message
        self.signals = signals
        self.durationUs = durationUs
    }

    /// A verifier's error: never approves.
    package static func error(_ verifierId: String, _ version: String, _ reason: String, _ message: String, durationUs: Int64 = 0) -> Verdict {
        Verdict(
            stage: .verifier, verifierId: verifierId, verifierVersion: version, outcome: .error, confidence: 0, reasonCode: reason,
            message: message, durationUs: durationUs)
    }

    /// What a plugin may say, made safe to keep: confidence in 0...1 (NaN is 0),
    /// reason a short code, message and signals bounded.
    package func sanitized() -> Verdict {
        var copy = self
        copy.confidence = confidence.isNaN ? 0 : min(max(confidence, 0), 1)
        copy.reasonCode = Self.code(reasonCode, fallback: outcome.name)
        copy.message = String(message.unicodeScalars.prefix(500).map(Character.init))
        copy.signals = signals.prefix(32).map { Self.code($0, fallback: "signal") }
        return copy
    }

    /// A machine-readable code: lowercase letters, digits, '_', '.', '-'; at most 64.
    private static func code(_ text: String, fallback: String) -> String {
        let kept = text.lowercased().unicodeScalars.filter { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || "_.-".unicodeScalars.contains($0) }
        let result = String(String.UnicodeScalarView(kept.prefix(64)))
        return result.isEmpty ? fallback : result
    }
}
