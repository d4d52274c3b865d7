/// A shield rule: when a person's apps are blocked, and what lifts the block.
/// A rule keeps every version it ever had, each from a day on (as credit rules
/// do); before its first version a rule is not in effect.
package struct ShieldRule: Equatable, Sendable {
    /// The most habits a rule lists: the header's HC_SHIELD_MAX_HABITS, the length of
    /// a shield state's outstanding array (HeaderContractTests holds the two equal).
    package static let maxHabits = 16

    /// Which of the rule's habits must be done to lift the shield.
    package enum Lift: Int32, Sendable, CaseIterable {
        case all = 1
        case any = 2
        package var name: String { self == .all ? "all" : "any" }
    }

    /// The period an emergency budget counts over.
    package enum BudgetPeriod: Int32, Sendable, CaseIterable {
        /// No budget: emergency unlocks are not limited.
        case unlimited = 0
        case week = 1
        case month = 2
        package var name: String { ["unlimited", "week", "month"][Int(rawValue)] }
    }

    /// What a rule says from its version's first day on.
    package struct Settings: Equatable, Sendable {
        package var name: String
        /// Opaque to the engine: the app maps it to its own set of blocked apps.
        package var key: String
        /// The start dates the rule shields (quota schedules are refused).
        package var days: Schedule
        /// Local minute the window opens; nil: the store's day start.
        package var startMinute: Int32?
        /// Local minute of the cutoff; nil: the next local midnight.
        package var endMinute: Int32?
        package var habits: [Int64]
        package var lift: Lift
        /// A running credit unlock session lifts the shield while it runs.
        package var sessionLifts: Bool
        /// true: the cutoff ends the shield; false: it stays until done (or the
        /// end of the window's habit day).
        package var cutoffLifts: Bool
        /// An excused habit day (vacation, skip) counts as done from the window's start.
        package var excusedLifts: Bool
        /// What an app should do when it cannot read the store: stay shielded (true) or not.
        package var failClosed: Bool
        package var budgetPeriod: BudgetPeriod
        /// Emergency unlocks allowed per period (ignored when unlimited; 0: none).
        package var budgetCount: Int32

        package init(
            name: String, key: String, days: Schedule, startMinute: Int32?, endMinute: Int32?, habits: [Int64], lift: Lift,
            sessionLifts: Bool, cutoffLifts: Bool, excusedLifts: Bool, failClosed: Bool, budgetPeriod: BudgetPeriod,
            budgetCount: Int32
        ) {
            self.name = name
            self.key = key
            self.days = days
            self.startMinute = startMinute
            self.endMinute = endMinute
            self.habits = habits
            self.lift = lift
            self.sessionLifts = sessionLifts
            self.cutoffLifts = cutoffLifts
            self.excusedLifts = excusedLifts
            self.failClosed = failClosed
            self.budgetPeriod = budgetPeriod
            self.budgetCount = budgetCount
        }

        package func validated() throws(HabitError) -> Settings {
            try TextRules.validate(name, field: "name", maxBytes: 200)
            guard !name.isEmpty else { throw .invalid("a shield rule needs a name") }
            try TextRules.validate(key, field: "key", maxBytes: 500)
            if let startMinute, !(0..<1440).contains(startMinute) {
                throw .invalid("start \(startMinute) is not a time of day: minutes 0...1439 (00:00-23:59)")
            }
            if let endMinute, !(0..<1440).contains(endMinute) {
                throw .invalid("cutoff \(endMinute) is not a time of day: minutes 0...1439 (00:00-23:59)")
            }
            if let startMinute, let endMinute, startMinute == endMinute {
                throw .invalid("the window \(ClockText.hhmm(startMinute))-\(ClockText.hhmm(endMinute)) is empty: start and cutoff must differ")
            }
            switch days {
            case .timesPerWeek, .timesPerMonth, .timesInDays:
                throw .invalid("a shield's days are fixed days (daily, days:, every:, monthdays:), not a quota")
            default: break
            }
            guard !habits.isEmpty else { throw .invalid("a shield rule needs at least one habit whose completion lifts it") }
            guard habits.count <= ShieldRule.maxHabits else { throw .invalid("a shield rule lists at most \(ShieldRule.maxHabits) habits") }
            guard Set(habits).count == habits.count else { throw .invalid("a shield rule lists a habit twice") }
            guard budgetCount >= 0, budgetCount <= 1000 else { throw .invalid("emergency budget \(budgetCount) is not a count in 0...1000") }
            return self
        }
    }

    package var id: Int64
    /// Every version, oldest first; a nil settings removes the rule from its day on.
    package var versions: [(fromDay: Int32, settings: Settings?)]

    package init(id: Int64, versions: [(fromDay: Int32, settings: Settings?)]) {
        self.id = id
        self.versions = versions.sorted { $0.fromDay < $1.fromDay }
    }

    package static func == (a: ShieldRule, b: ShieldRule) -> Bool {
        a.id == b.id && a.versions.map(\.fromDay) == b.versions.map(\.fromDay) && a.versions.map(\.settings) == b.versions.map(\.settings)
    }

    /// The index of the version for a window starting on a calendar date; nil before
    /// the first version. (An index, not the settings: a lookup copies nothing.)
    package func versionIndex(on day: Int32) -> Int? {
        var chosen: Int?
        for index in versions.indices {
            guard versions[index].fromDay <= day else { break }
            chosen = index
        }
        return chosen
    }

    /// What the rule says for a window starting on a calendar date; nil before its
    /// first version or after it was removed.
    package func settings(on day: Int32) -> Settings? {
        versionIndex(on: day).flatMap { versions[$0].settings }
    }

    /// The first day the rule is in effect, if ever.
    package var firstDay: Int32? {
        versions.indices.first { versions[$0].settings != nil }.map { versions[$0].fromDay }
    }

}

extension Schedule {
    /// Whether a fixed-day schedule selects a date; `anchor` is where every:N counts from.
    package func selects(_ day: Int32, anchor: Int32) -> Bool {
        switch self {
        case .daily: return true
        case .weekdays(let bits): return bits & (1 << CivilDate.weekday(day)) != 0
        case .everyNDays(let n):
            let distance = Int64(day) - Int64(anchor)
            return n > 0 && distance >= 0 && distance % Int64(n) == 0
        case .monthDays(let days):
            guard let date = try? CivilDate(dayNumber: day) else { return false }
            return days.contains(date.day)
        case .timesPerWeek, .timesPerMonth, .timesInDays: return false
        }
    }
}

/// One emergency unlock as recorded (append-only).
package struct EmergencyUnlock: Equatable, Sendable {
    package var id: Int64
    package var ruleId: Int64
    package var atMs: Int64
    package var minutes: Int32
    package var reason: String?

    package init(id: Int64, ruleId: Int64, atMs: Int64, minutes: Int32, reason: String?) {
        self.id = id
        self.ruleId = ruleId
        self.atMs = atMs
        self.minutes = minutes
        self.reason = reason
    }

    package static func validate(minutes: Int32, reason: String?) throws(HabitError) {
        guard (1...1440).contains(minutes) else { throw .invalid("an emergency unlock lasts 1...1440 minutes, not \(minutes)") }
        if let reason { try TextRules.validate(reason, field: "reason", maxBytes: 500) }
    }
}

/// The emergency budget: how many unlocks a rule allows in the period holding a day.
package enum EmergencyBudget {
    /// The first and last habit day of the budget period holding `day`; nil when unlimited.
    package static func period(_ period: ShieldRule.BudgetPeriod, day: Int32, weekStart: Int) -> ClosedRange<Int32>? {
        switch period {
        case .unlimited: return nil
        case .week:
            let start = Judge.periodStart(.timesPerWeek(1), day: day, weekStart: weekStart, anchor: day)
            return start...(start + 6)
        case .month:
            let start = Judge.periodStart(.timesPerMonth(1), day: day, weekStart: weekStart, anchor: day)
            return start...Judge.periodEnd(.timesPerMonth(1), start: start)
        }
    }

    /// Unlocks left in the period of `day` (nil: unlimited), given the habit days of those used.
    package static func remaining(_ settings: ShieldRule.Settings, day: Int32, usedDays: [Int32], weekStart: Int) -> Int32? {
        guard let period = period(settings.budgetPeriod, day: day, weekStart: weekStart) else { return nil }
        let used = usedDays.reduce(0) { period.contains($1) ? $0 + 1 : $0 }
        return max(0, settings.budgetCount - Int32(clamping: used))
    }
}
