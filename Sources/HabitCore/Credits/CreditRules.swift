/// When earned minutes stop being spendable.
package enum ExpiryPolicy: Int32, Sendable {
    /// Zeno's daily ledger: what is left at the end of a day expires (the default).
    case endOfDay = 1
    /// Minutes carry over from day to day.
    case carryOver = 2

    package var name: String { self == .endOfDay ? "day" : "carry" }

    package init?(name: String) {
        switch name.lowercased() {
        case "day", "end-of-day", "daily": self = .endOfDay
        case "carry", "carry-over", "never": self = .carryOver
        default: return nil
        }
    }
}

/// An account's earning and expiry rules, each effective from a day on. A rule
/// never applies to days before its `fromDay`, so a change never rewrites the
/// past; the engine only accepts rules from today on.
package struct CreditRule: Equatable, Sendable {
    package enum Kind: Int32, Sendable {
        /// Steps that earn one minute (default 100, as Zeno's StepCreditsCalculator).
        case stepsPerMinute = 1
        /// Minutes one completed day of `habitId` earns (default 0: none).
        case habitMinutes = 2
        /// The expiry policy (value: an ExpiryPolicy raw value; default end of day).
        case expiry = 3

        package var name: String {
            switch self {
            case .stepsPerMinute: return "steps_per_minute"
            case .habitMinutes: return "habit_minutes"
            case .expiry: return "expiry"
            }
        }
    }

    package var id: Int64
    package var accountId: Int64
    package var kind: Kind
    package var habitId: Int64?
    package var value: Int64
    package var fromDay: Int32

    package init(id: Int64, accountId: Int64, kind: Kind, habitId: Int64?, value: Int64, fromDay: Int32) {
        self.id = id
        self.accountId = accountId
        self.kind = kind
        self.habitId = habitId
        self.value = value
        self.fromDay = fromDay
    }

    /// Checks a new rule's value for its kind.
    package static func validate(kind: Kind, value: Int64, habitId: Int64?) throws(HabitError) {
        switch kind {
        case .stepsPerMinute:
            guard CreditLimits.stepsPerMinute.contains(value) else {
                throw .invalid("steps per minute \(value) is outside \(CreditLimits.stepsPerMinute)")
            }
        case .habitMinutes:
            guard habitId != nil else { throw .invalid("a habit reward names its habit") }
            guard CreditLimits.habitMinutes.contains(value) else {
                throw .invalid("minutes per completion \(value) is outside \(CreditLimits.habitMinutes)")
            }
        case .expiry:
            guard ExpiryPolicy(rawValue: Int32(clamping: value)) != nil else { throw .invalid("expiry policy \(value) is not day (1) or carry (2)") }
        }
    }
}

/// The rules of one account, answering "what applied on day D".
package struct CreditRules: Sendable {
    package static let defaultStepsPerMinute: Int64 = 100

    package let rules: [CreditRule]

    /// `rules`: in the order they were recorded; a later rule for the same day wins.
    package init(_ rules: [CreditRule]) {
        self.rules = rules.sorted { ($0.fromDay, $0.id) < ($1.fromDay, $1.id) }
    }

    private func value(_ kind: CreditRule.Kind, habitId: Int64? = nil, on day: Int32) -> Int64? {
        var found: Int64?
        for rule in rules where rule.kind == kind && rule.habitId == habitId && rule.fromDay <= day { found = rule.value }
        return found
    }

    package func stepsPerMinute(on day: Int32) -> Int64 {
        value(.stepsPerMinute, on: day) ?? CreditRules.defaultStepsPerMinute
    }

    package func habitMinutes(habitId: Int64, on day: Int32) -> Int64 {
        value(.habitMinutes, habitId: habitId, on: day) ?? 0
    }

    package func expiry(on day: Int32) -> ExpiryPolicy {
        value(.expiry, on: day).flatMap { ExpiryPolicy(rawValue: Int32(clamping: $0)) } ?? .endOfDay
    }

    /// The days on which the expiry policy changes.
    var expiryChangeDays: [Int32] { rules.filter { $0.kind == .expiry }.map(\.fromDay) }

    /// Minutes a day's step total earns: whole minutes only.
    package func minutes(forSteps steps: Int64, on day: Int32) -> Int64 {
        steps / max(stepsPerMinute(on: day), 1)
    }
}
