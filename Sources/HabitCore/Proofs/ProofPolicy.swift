/// How a habit's proofs are judged (or the store's, for habits without their own).
///
/// Rules (stated in the header too):
/// - Built-in checks run first: evidence whose bytes (SHA-256) match any earlier
///   proof of the store is rejected as `reused_evidence`; a proof received outside
///   the window (local time of receipt, not what the photo claims) is rejected as
///   `outside_window`; with one per day, a habit day that already has an approved
///   proof rejects the next as `already_verified`.
/// - Each verifier's verdict is classed: approved with confidence >= the approval
///   threshold approves; approved between the review threshold and it goes to
///   review; approved below it rejects (`low_confidence`); needs_review, rejected
///   and error stand as they are.
/// - all: any rejection rejects; else any error is an error; else any review goes
///   to review; else approved. any: any approval approves; else any review goes to
///   review; else any rejection rejects; else error.
/// - No verifier named, or none that ran: needs review. Nothing approves by default.
package struct ProofPolicy: Equatable, Sendable {
    package enum Mode: Int32, Sendable {
        case all = 1
        case any = 2
    }

    package var verifiers: [String] = []
    package var mode: Mode = .all
    package var approveThreshold = 0.80
    package var reviewThreshold = 0.50
    /// Minutes after local midnight: receipt must fall in [start, end); nil: any time.
    package var window: (start: Int32, end: Int32)?
    package var onePerDay = true

    package init() {}

    package static func == (a: ProofPolicy, b: ProofPolicy) -> Bool {
        a.verifiers == b.verifiers && a.mode == b.mode && a.approveThreshold == b.approveThreshold && a.reviewThreshold == b.reviewThreshold
            && a.window?.start == b.window?.start && a.window?.end == b.window?.end && a.onePerDay == b.onePerDay
    }

    package func validate() throws(HabitError) {
        guard approveThreshold.isFinite, (0...1).contains(approveThreshold) else { throw .invalid("approve_threshold must be within 0...1") }
        guard reviewThreshold.isFinite, (0...approveThreshold).contains(reviewThreshold) else {
            throw .invalid("review_threshold must be within 0...approve_threshold")
        }
        if let window {
            guard (0..<1440).contains(window.start), (1...1440).contains(window.end), window.start != window.end else {
                throw .invalid("the window must be two different times of day, in minutes 0...1440")
            }
        }
        guard verifiers.count <= 16 else { throw .invalid("at most 16 verifiers") }
        for id in verifiers { try Self.validateVerifierId(id) }
    }

    package static func validateVerifierId(_ id: String) throws(HabitError) {
        guard (1...64).contains(id.utf8.count),
            id.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 46 || $0 == 95 })
        else {
            throw .invalid("verifier id '\(id.prefix(64))' must be 1 to 64 characters of a-z, 0-9, '-', '_' or '.'")
        }
    }

    /// The one-per-day rule, for submit (before and after the verifiers) and review
    /// alike: another proof of a day may be approved unless the policy allows one a
    /// day and the day already has one.
    package func admitsAnotherApproval(dayHasApprovedProof: Bool) -> Bool {
        !(onePerDay && dayHasApprovedProof)
    }

    /// Whether a receipt at this local minute of the day is inside the window
    /// (a window may wrap past midnight: 22:00-02:00).
    package func admits(minuteOfDay: Int32) -> Bool {
        guard let window else { return true }
        return window.start < window.end
            ? (minuteOfDay >= window.start && minuteOfDay < window.end)
            : (minuteOfDay >= window.start || minuteOfDay < window.end)
    }

    /// The decision over the verifiers' verdicts.
    package func decide(_ verdicts: [Verdict]) -> (outcome: Outcome, confidence: Double, reason: String, message: String) {
        guard !verdicts.isEmpty else { return (.needsReview, 0, "no_verifier", "no verifier ran: a person decides") }
        let classed = verdicts.map { verdict -> (Outcome, Verdict) in
            guard verdict.outcome == .approved else { return (verdict.outcome, verdict) }
            if verdict.confidence >= approveThreshold { return (.approved, verdict) }
            return (verdict.confidence >= reviewThreshold ? .needsReview : .rejected, verdict)
        }
        func first(_ outcome: Outcome) -> Verdict? { classed.first { $0.0 == outcome }?.1 }
        let order: [Outcome] = mode == .all ? [.rejected, .error, .needsReview, .approved] : [.approved, .needsReview, .rejected, .error]
        for outcome in order {
            guard let verdict = first(outcome) else { continue }
            let lowered = outcome != verdict.outcome
            let reason = lowered ? (outcome == .rejected ? "low_confidence" : "uncertain") : verdict.reasonCode
            let confidence = mode == .all && outcome == .approved ? classed.map(\.1.confidence).min() ?? 0 : verdict.confidence
            return (outcome, confidence, reason, "\(verdict.verifierId): \(verdict.message)")
        }
        return (.error, 0, "no_verdict", "no verdict")
    }
}
