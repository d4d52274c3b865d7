/// Credits are whole minutes of app time. Minutes are what the apps show and
/// sell ("15 minutes of Instagram"); a finer unit would only add rounding
/// questions at every screen. Steps that do not make a whole minute on their day
/// earn nothing (5,450 steps at 100 per minute earn 54).
package enum CreditKind: Int32, Sendable, CaseIterable {
    case earn = 1
    case spend = 2
    case adjust = 3
    case expire = 4
    /// Unused minutes of an unlock session ended early, given back (cause: the session).
    case refund = 5

    package var name: String {
        switch self {
        case .earn: return "earn"
        case .spend: return "spend"
        case .adjust: return "adjust"
        case .expire: return "expire"
        case .refund: return "refund"
        }
    }
}

/// What caused a credit entry.
package enum CreditCause: Int32, Sendable {
    /// A step sync: `steps` holds the day's total that was reported.
    case steps = 1
    /// A habit's day became done (earn) or stopped being done (adjust back):
    /// `causeId` is the habit entry, `habitId` the habit.
    case habitEntry = 2
    /// A spend that opened an unlock session, or the refund of one ended early: `causeId` is the session.
    case session = 3
    /// By hand (spends without a session, adjustments).
    case manual = 4
    /// The end of a day under the daily expiry policy.
    case expiry = 5

    package var name: String {
        switch self {
        case .steps: return "steps"
        case .habitEntry: return "habit_entry"
        case .session: return "session"
        case .manual: return "manual"
        case .expiry: return "expiry"
        }
    }
}

/// One line of an account's ledger. `minutes` is signed as it moves the
/// balance: earn > 0, spend < 0, expire < 0, refund > 0, adjust either way.
package struct CreditEntry: Equatable, Sendable {
    package var id: Int64
    package var accountId: Int64
    package var kind: CreditKind
    package var minutes: Int64
    /// The local day it counts for.
    package var day: Int32
    package var atMs: Int64
    package var reason: String?
    package var cause: CreditCause
    package var causeId: Int64?
    package var habitId: Int64?
    package var steps: Int64?

    package init(
        id: Int64, accountId: Int64, kind: CreditKind, minutes: Int64, day: Int32, atMs: Int64, reason: String?,
        cause: CreditCause, causeId: Int64?, habitId: Int64?, steps: Int64?
    ) {
        self.id = id
        self.accountId = accountId
        self.kind = kind
        self.minutes = minutes
        self.day = day
        self.atMs = atMs
        self.reason = reason
        self.cause = cause
        self.causeId = causeId
        self.habitId = habitId
        self.steps = steps
    }
}

/// The bounds every user value is checked against before any arithmetic.
package enum CreditLimits {
    /// A day's step total: about 700 km of walking; more is a sensor error.
    package static let maxStepsPerDay: Int64 = 1_000_000
    /// One spend or adjustment: a year of minutes.
    package static let maxMinutes: Int64 = 525_600
    package static let stepsPerMinute: ClosedRange<Int64> = 1...100_000
    /// Minutes one completion of a habit may earn: a whole day at most.
    package static let habitMinutes: ClosedRange<Int64> = 0...1_440

    package static func steps(_ steps: Int64) throws(HabitError) {
        guard steps >= 0, steps <= maxStepsPerDay else {
            throw .invalid("steps \(steps) is outside 0...\(maxStepsPerDay) for one day")
        }
    }

    package static func minutes(_ minutes: Int64, allowNegative: Bool = false) throws(HabitError) {
        let low: Int64 = allowNegative ? -maxMinutes : 1
        guard minutes >= low, minutes <= maxMinutes, minutes != 0 else {
            throw .invalid("minutes \(minutes) is outside \(low)...\(maxMinutes)\(allowNegative ? " (and not 0)" : "")")
        }
    }

    package static func reason(_ reason: String?) throws(HabitError) {
        if let reason { try TextRules.validate(reason, field: "reason", maxBytes: 500, allowEmpty: true) }
    }
}

extension CreditEntry {
    /// A fact is what a person did (a spend, an adjustment by hand, a refund of a
    /// session ended early): it travels to the other devices as a record. Earnings
    /// (from steps and habits), their reversals and expiries are derived from facts
    /// and are never sent: each replica writes them itself (CreditFold.derivations).
    package var isFact: Bool { cause == .manual || cause == .session }

    /// Part of what a day earned: an earning, or a correction of a derived one (a
    /// completion undone, a habit reward or step rate recounted), so that two replicas
    /// that reached one ledger by different paths show the same earnings.
    package var isEarning: Bool { kind == .earn || (kind == .adjust && (cause == .habitEntry || cause == .steps)) }

    /// Checks a received fact: a spend takes 1...max minutes, a refund gives 1...max
    /// back, an adjustment moves either way (not 0); earnings and expiries are not facts.
    package static func validateFact(kind: CreditKind, minutes: Int64) throws(HabitError) {
        switch kind {
        case .spend:
            guard minutes < 0, minutes >= -CreditLimits.maxMinutes else {
                throw .invalid("spend of \(minutes) minutes is outside -\(CreditLimits.maxMinutes)...-1")
            }
        case .refund: try CreditLimits.minutes(minutes)
        case .adjust: try CreditLimits.minutes(minutes, allowNegative: true)
        case .earn, .expire: throw .invalid("credit kind \(kind.name) is derived, not sent")
        }
    }
}
