/// What an award counts. The raw values are the HC_METRIC_* constants.
package enum AwardMetric: Int32, CaseIterable, Sendable {
    case currentStreak = 1
    case longestStreak = 2
    case totalCompletions = 3
    case perfectDays = 4
    case activeDayStreak = 5
    case verifiedProofs = 6
    case habitsCreated = 7
    case creditsEarned = 8
    case referralsRedeemed = 9
    case activeHabits = 10
    /// Stopped timers' seconds (TimerRules.seconds), on their days.
    case focusedSeconds = 11

    package var name: String {
        switch self {
        case .currentStreak: return "current_streak"
        case .longestStreak: return "longest_streak"
        case .totalCompletions: return "total_completions"
        case .perfectDays: return "perfect_days"
        case .activeDayStreak: return "active_day_streak"
        case .verifiedProofs: return "verified_proofs"
        case .habitsCreated: return "habits_created"
        case .creditsEarned: return "credits_earned"
        case .referralsRedeemed: return "referrals_redeemed"
        case .activeHabits: return "active_habits"
        case .focusedSeconds: return "focused_seconds"
        }
    }

    package init?(name: String) {
        guard let metric = AwardMetric.allCases.first(where: { $0.name == name }) else { return nil }
        self = metric
    }

    /// Counted per habit, so one habit or any habit can be its scope; the
    /// others count the whole store and take scope all only.
    package var isPerHabit: Bool {
        switch self {
        case .currentStreak, .longestStreak, .totalCompletions, .verifiedProofs, .focusedSeconds: return true
        case .perfectDays, .activeDayStreak, .habitsCreated, .creditsEarned, .referralsRedeemed, .activeHabits: return false
        }
    }
}

/// Whose metric: one habit's, the best single habit's, or all habits' together.
package enum AwardScope: Equatable, Sendable {
    case habit(Int64)
    case anyHabit
    case allHabits

    /// The HC_SCOPE_* constant.
    package var code: Int32 {
        switch self {
        case .habit: return 1
        case .anyHabit: return 2
        case .allHabits: return 3
        }
    }

    package var name: String {
        switch self {
        case .habit: return "habit"
        case .anyHabit: return "any"
        case .allHabits: return "all"
        }
    }

    package var habitId: Int64? {
        if case .habit(let id) = self { return id }
        return nil
    }

    package init?(code: Int32, habitId: Int64?) {
        switch (code, habitId) {
        case (1, let id?) where id > 0: self = .habit(id)
        case (2, nil): self = .anyHabit
        case (3, nil): self = .allHabits
        default: return nil
        }
    }
}

/// One award of a catalogue: unlocked once its metric, over its scope, reaches
/// the threshold. An award is its id: the same id is never unlocked twice.
package struct AwardRule: Equatable, Sendable {
    package var id: String
    package var title: String
    package var description: String
    package var icon: String
    /// 1 (first steps) ... 10; apps map tiers to their own badge art.
    package var tier: Int32
    package var metric: AwardMetric
    package var scope: AwardScope
    package var threshold: Int64

    package init(
        id: String, title: String, description: String, icon: String, tier: Int32, metric: AwardMetric, scope: AwardScope,
        threshold: Int64
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.icon = icon
        self.tier = tier
        self.metric = metric
        self.scope = scope
        self.threshold = threshold
    }

    package static let maxThreshold: Int64 = 1_000_000_000
    package static let tiers: ClosedRange<Int32> = 1...10

    /// Checks every field; the error names the rule and the field.
    package func validate() throws(HabitError) {
        let label = id.isEmpty ? "a rule" : "rule '\(id.prefix(64))'"
        func fail(_ field: String, _ why: String) -> HabitError { .invalid("\(label): field '\(field)': \(why)") }
        guard (1...64).contains(id.utf8.count),
            id.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 46 || $0 == 95 })
        else {
            throw fail("id", "1 to 64 characters of a-z, 0-9, '-', '_' or '.'")
        }
        guard (1...200).contains(title.utf8.count) else { throw fail("title", "1 to 200 bytes") }
        guard description.utf8.count <= 1000 else { throw fail("description", "at most 1000 bytes") }
        guard icon.utf8.count <= 100 else { throw fail("icon", "at most 100 bytes") }
        guard Self.tiers.contains(tier) else { throw fail("tier", "\(tier) is outside 1...10") }
        guard (1...Self.maxThreshold).contains(threshold) else { throw fail("threshold", "\(threshold) is outside 1...\(Self.maxThreshold)") }
        if !metric.isPerHabit && scope != .allHabits {
            throw fail("scope", "metric '\(metric.name)' counts the whole store, so its scope is 'all'")
        }
        if case .habit(let habitId) = scope, habitId <= 0 { throw fail("habit", "habit id \(habitId) is not positive") }
    }
}
