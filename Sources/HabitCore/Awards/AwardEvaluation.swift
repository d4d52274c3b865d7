/// What awards are judged on, gathered by the engine as of a day.
package struct AwardFacts: Sendable {
    /// Something counted: its day, its row id, and how much it adds (1 for a count).
    package struct Counted: Equatable, Sendable {
        package var day: Int32
        package var id: Int64
        package var amount: Int64
        package init(day: Int32, id: Int64, amount: Int64 = 1) {
            self.day = day
            self.id = id
            self.amount = amount
        }
    }

    package struct HabitFacts: Sendable {
        package var id: Int64
        package var history: HabitHistory
        package var createdDay: Int32
        /// Proof entries still standing (not undone), by day then id.
        package var proofs: [Counted]
        /// The habit's streak policy (its own, or the store's).
        package var policy: StreakPolicy
        /// Stopped timers' seconds, each on its timer's day (its id the timer's), by day then id.
        package var focused: [Counted]
        package init(
            id: Int64, history: HabitHistory, createdDay: Int32, proofs: [Counted], policy: StreakPolicy = .standard, focused: [Counted] = []
        ) {
            self.focused = focused.sorted { ($0.day, $0.id) < ($1.day, $1.id) }
            self.id = id
            self.history = history
            self.createdDay = createdDay
            self.proofs = proofs
            self.policy = policy
        }
    }

    /// Every habit, archived ones too, by id.
    package var habits: [HabitFacts]
    package var vacations: [Vacation]
    /// Credit earn entries, by day then id.
    package var creditsEarned: [Counted]
    /// Referral redemptions, by day then id.
    package var referrals: [Counted]
    package var weekStart: Int
    /// The store-wide streak policy: the global streaks follow it.
    package var storePolicy: StreakPolicy

    package init(
        habits: [HabitFacts], vacations: [Vacation], creditsEarned: [Counted], referrals: [Counted], weekStart: Int,
        storePolicy: StreakPolicy = .standard
    ) {
        self.storePolicy = storePolicy
        self.habits = habits.sorted { $0.id < $1.id }
        self.vacations = vacations
        self.creditsEarned = creditsEarned.sorted { ($0.day, $0.id) < ($1.day, $1.id) }
        self.referrals = referrals.sorted { ($0.day, $0.id) < ($1.day, $1.id) }
        self.weekStart = weekStart
    }
}

/// Where an award's threshold was crossed: the day, and what crossed it.
package struct AwardCrossing: Equatable, Sendable {
    package enum Cause: Equatable, Sendable {
        /// The entries of a habit's day (the engine names the one that made it done).
        case habitDay(habitId: Int64, day: Int32)
        /// The entries of a day across habits (perfect and active days).
        case storeDay(Int32)
        case habitEntry(Int64)
        case creditEntry(Int64)
        case habitCreated(Int64)
        case referral(Int64)
    }

    package var day: Int32
    package var cause: Cause
}

/// An award's standing as of a day: its metric's value, and where (if ever) it
/// reached the threshold.
package struct AwardStanding: Equatable, Sendable {
    package var rule: AwardRule
    package var value: Int64
    package var crossing: AwardCrossing?
}

/// Awards judged over the history as it stands. Rules (stated in the header too):
/// - An award's threshold is crossed on the first day, up to asOf, on which its
///   metric reached it. Streak awards look at every run, not only the current
///   one, so evaluating after every event or once at the end finds the same day.
/// - Streaks count occurrences as the streaks rules judge them; current_streak and
///   longest_streak differ only in the value shown as progress.
/// - Scope any: the habit that got there first; all: the streak of perfect days,
///   or the sum of the habits' counts.
/// - Completions are the days a habit was done (an at-most day once it is over).
/// - Habits created count archived ones too; active habits count, on each day,
///   those created by then and not archived (a habit archived on day A is inactive
///   from A on). The value is the count on asOf; the crossing is the first day the
///   count reached the threshold, caused by the creation that brought it there.
package enum AwardEvaluation {
    package static func standings(_ rules: [AwardRule], facts: AwardFacts, asOf: Int32) -> [AwardStanding] {
        var judge = Judgement(
            facts: facts, asOf: asOf,
            streakThresholds: Set(rules.filter(\.metric.isStreak).map(\.threshold)),
            activeThresholds: Set(rules.filter { $0.metric == .activeDayStreak }.map(\.threshold)))
        return rules.map { judge.standing($0) }
    }
}

extension AwardMetric {
    var isStreak: Bool { self == .currentStreak || self == .longestStreak }
}

/// Streak lengths as occurrences come, noting the day each threshold was first reached.
private struct CrossingTracker: OccurrenceSink {
    private var runs: RunTracker
    private let thresholds: [Int64]
    private let keptDay: (Occurrence) -> Int32
    /// The day thresholds[i] was reached, for the first crossings.count thresholds.
    private(set) var crossings: [Int32] = []

    init(thresholds: [Int64], policy: StreakPolicy, keptDay: @escaping (Occurrence) -> Int32) {
        self.thresholds = thresholds
        self.keptDay = keptDay
        runs = RunTracker(keepsRuns: false, policy: policy)
    }

    mutating func take(_ occurrence: Occurrence) {
        // The streak fold decides the length; this only notes when it crosses a threshold.
        runs.take(occurrence)
        guard occurrence.verdict == .kept else { return }
        let length = Int64(runs.runningLength)
        while crossings.count < thresholds.count && length >= thresholds[crossings.count] { crossings.append(keptDay(occurrence)) }
    }

    mutating func finish() -> Streaks {
        let summary = runs.summary(best: 0)
        var crossed: [Int64: Int32] = [:]
        for (index, day) in crossings.enumerated() { crossed[thresholds[index]] = day }
        return Streaks(current: Int64(summary.current?.length ?? 0), longest: Int64(summary.longest?.length ?? 0), crossed: crossed)
    }

    struct Streaks {
        var current: Int64
        var longest: Int64
        /// Threshold -> the day a run first reached it.
        var crossed: [Int64: Int32]
    }
}

/// One evaluation: what each habit and the store add up to, computed once and
/// only when a rule asks.
private struct Judgement {
    let facts: AwardFacts
    let asOf: Int32
    let streakThresholds: [Int64]
    let activeThresholds: [Int64]
    private var habitStreaks: [Int64: CrossingTracker.Streaks] = [:]
    private var habitDoneDays: [Int64: [Int32]] = [:]
    private var storeOccurrences: (perfect: [Occurrence], active: [Occurrence])?
    private var perfectStreaks: CrossingTracker.Streaks?
    private var activeStreaks: CrossingTracker.Streaks?

    init(facts: AwardFacts, asOf: Int32, streakThresholds: Set<Int64>, activeThresholds: Set<Int64>) {
        self.facts = facts
        self.asOf = asOf
        self.streakThresholds = streakThresholds.sorted()
        self.activeThresholds = activeThresholds.sorted()
    }

    mutating func standing(_ rule: AwardRule) -> AwardStanding {
        let (value, crossing) = measure(rule)
        return AwardStanding(rule: rule, value: value, crossing: crossing)
    }

    private mutating func measure(_ rule: AwardRule) -> (Int64, AwardCrossing?) {
        let n = rule.threshold
        switch rule.metric {
        case .currentStreak, .longestStreak:
            let current = rule.metric == .currentStreak
            switch rule.scope {
            case .allHabits:
                let streaks = perfect()
                return (current ? streaks.current : streaks.longest, streaks.crossed[n].map { AwardCrossing(day: $0, cause: .storeDay($0)) })
            case .habit, .anyHabit:
                return perHabit(rule.scope) { (judge, habit) in
                    let streaks = judge.streaks(habit)
                    return (
                        current ? streaks.current : streaks.longest,
                        streaks.crossed[n].map { AwardCrossing(day: $0, cause: .habitDay(habitId: habit.id, day: $0)) }
                    )
                }
            }
        case .totalCompletions:
            if rule.scope == .allHabits {
                var all: [(day: Int32, habitId: Int64)] = []
                for habit in facts.habits { all += doneDays(habit).map { ($0, habit.id) } }
                all.sort { ($0.day, $0.habitId) < ($1.day, $1.habitId) }
                let crossing = Self.nth(all, n).map { AwardCrossing(day: $0.day, cause: .habitDay(habitId: $0.habitId, day: $0.day)) }
                return (Int64(all.count), crossing)
            }
            return perHabit(rule.scope) { (judge, habit) in
                let days = judge.doneDays(habit)
                return (Int64(days.count), Self.nth(days, n).map { AwardCrossing(day: $0, cause: .habitDay(habitId: habit.id, day: $0)) })
            }
        case .verifiedProofs:
            if rule.scope == .allHabits {
                return count(facts.habits.flatMap(proofs).sorted { ($0.day, $0.id) < ($1.day, $1.id) }, n, cause: AwardCrossing.Cause.habitEntry)
            }
            return perHabit(rule.scope) { (judge, habit) in judge.count(judge.proofs(habit), n, cause: AwardCrossing.Cause.habitEntry) }
        case .focusedSeconds:
            // A habit's seconds, the best habit's, or all habits' summed; crossed on the day of the timer that reached it.
            let asOf = asOf
            func focused(_ habit: AwardFacts.HabitFacts) -> [AwardFacts.Counted] { habit.focused.filter { $0.day <= asOf } }
            if rule.scope == .allHabits {
                let all = facts.habits.flatMap { habit in focused(habit).map { (habit.id, $0) } }.sorted { ($0.1.day, $0.1.id) < ($1.1.day, $1.1.id) }
                return Self.summed(all, n)
            }
            return perHabit(rule.scope) { (_, habit) in Self.summed(focused(habit).map { (habit.id, $0) }, n) }
        case .perfectDays:
            let kept = store().perfect.filter { $0.verdict == .kept }.map(\.first)
            return (Int64(kept.count), Self.nth(kept, n).map { AwardCrossing(day: $0, cause: .storeDay($0)) })
        case .activeDayStreak:
            let streaks = active()
            return (streaks.current, streaks.crossed[n].map { AwardCrossing(day: $0, cause: .storeDay($0)) })
        case .habitsCreated:
            let created = facts.habits.filter { $0.createdDay <= asOf }.map { AwardFacts.Counted(day: $0.createdDay, id: $0.id) }
                .sorted { ($0.day, $0.id) < ($1.day, $1.id) }
            return count(created, n, cause: AwardCrossing.Cause.habitCreated)
        case .activeHabits:
            return activeHabits(n)
        case .creditsEarned:
            return count(facts.creditsEarned.filter { $0.day <= asOf }, n, cause: AwardCrossing.Cause.creditEntry)
        case .referralsRedeemed:
            return count(facts.referrals.filter { $0.day <= asOf }, n, cause: AwardCrossing.Cause.referral)
        }
    }

    /// One habit's measure, or (scope any) the highest value and the earliest
    /// crossing, the lower habit id first among equal days.
    private mutating func perHabit(_ scope: AwardScope, _ measure: (inout Judgement, AwardFacts.HabitFacts) -> (Int64, AwardCrossing?))
        -> (Int64, AwardCrossing?)
    {
        var best: Int64 = 0
        var first: AwardCrossing?
        for habit in facts.habits {
            if let only = scope.habitId, habit.id != only { continue }
            let (value, crossing) = measure(&self, habit)
            best = max(best, value)
            if let crossing, crossing.day < first?.day ?? Int32.max { first = crossing }
        }
        return (best, first)
    }

    /// Sums amounts in order; the crossing is the item that brought the sum to n.
    private func count(_ items: [AwardFacts.Counted], _ n: Int64, cause: (Int64) -> AwardCrossing.Cause) -> (Int64, AwardCrossing?) {
        var sum: Int64 = 0
        var crossing: AwardCrossing?
        for item in items {
            let (next, overflow) = sum.addingReportingOverflow(item.amount)
            sum = overflow ? Int64.max : next
            if crossing == nil && sum >= n { crossing = AwardCrossing(day: item.day, cause: cause(item.id)) }
        }
        return (sum, crossing)
    }

    /// Sums (habit, amount) items in order; the crossing is the habit's day that brought the sum to n.
    private static func summed(_ items: [(Int64, AwardFacts.Counted)], _ n: Int64) -> (Int64, AwardCrossing?) {
        var sum: Int64 = 0
        var crossing: AwardCrossing?
        for (habitId, item) in items {
            let (next, overflow) = sum.addingReportingOverflow(item.amount)
            sum = overflow ? Int64.max : next
            if crossing == nil && sum >= n { crossing = AwardCrossing(day: item.day, cause: .habitDay(habitId: habitId, day: item.day)) }
        }
        return (sum, crossing)
    }

    /// The active-habit count on asOf, and the first day it reached n. Each habit is
    /// active over [created, archived); a day's archivings are counted before its
    /// creations, so a crossing is read on the day's count, not on a passing peak.
    private func activeHabits(_ n: Int64) -> (Int64, AwardCrossing?) {
        var changes: [(day: Int32, delta: Int64, id: Int64)] = []
        for habit in facts.habits where habit.createdDay <= asOf {
            let archived = habit.history.archivedDay ?? Int32.max
            guard habit.createdDay < archived else { continue }
            changes.append((habit.createdDay, 1, habit.id))
            if archived <= asOf { changes.append((archived, -1, habit.id)) }
        }
        changes.sort { ($0.day, $0.delta, $0.id) < ($1.day, $1.delta, $1.id) }
        var active: Int64 = 0
        var crossing: AwardCrossing?
        for change in changes {
            active += change.delta
            if crossing == nil, change.delta > 0, active >= n { crossing = AwardCrossing(day: change.day, cause: .habitCreated(change.id)) }
        }
        return (active, crossing)
    }

    private static func nth<T>(_ items: [T], _ n: Int64) -> T? {
        n >= 1 && n <= Int64(items.count) ? items[Int(n - 1)] : nil
    }

    private func proofs(_ habit: AwardFacts.HabitFacts) -> [AwardFacts.Counted] {
        habit.proofs.filter { $0.day <= asOf }
    }

    // MARK: Per habit

    private mutating func streaks(_ habit: AwardFacts.HabitFacts) -> CrossingTracker.Streaks {
        if let known = habitStreaks[habit.id] { return known }
        let history = habit.history
        var tracker = CrossingTracker(thresholds: streakThresholds, policy: habit.policy) { occurrence in Self.keptDay(occurrence, history) }
        Judge.judge(
            history, asOf: asOf, weekStart: facts.weekStart, vacations: Vacation.ranges(facts.vacations, habitId: habit.id),
            into: &tracker)
        let streaks = tracker.finish()
        habitStreaks[habit.id] = streaks
        return streaks
    }

    /// The day a kept occurrence was kept: its day, or in a quota period the day
    /// the quota was met.
    private static func keptDay(_ occurrence: Occurrence, _ history: HabitHistory) -> Int32 {
        guard occurrence.first < occurrence.last else { return occurrence.first }
        var done: Int32 = 0
        for day in occurrence.first...occurrence.last where history.isMarkedDone(day) {
            done += 1
            if done >= occurrence.required { return day }
        }
        return occurrence.last
    }

    private mutating func doneDays(_ habit: AwardFacts.HabitFacts) -> [Int32] {
        if let known = habitDoneDays[habit.id] { return known }
        let history = habit.history
        let judged = history.judged(asOf: asOf)
        let last = history.lastActiveDay(asOf: asOf)
        var days: [Int32] = []
        if history.spec.startDay <= last {
            for day in history.spec.startDay...last where judged.isDone(day) { days.append(day) }
        }
        habitDoneDays[habit.id] = days
        return days
    }

    // MARK: The whole store

    private mutating func store() -> (perfect: [Occurrence], active: [Occurrence]) {
        if let storeOccurrences { return storeOccurrences }
        let habits = facts.habits.filter { $0.history.spec.kind != .measurement }
        var result: (perfect: [Occurrence], active: [Occurrence]) = ([], [])
        if let first = habits.map(\.history.spec.startDay).min(), first <= asOf {
            let tallies = Global.tally(
                habits.map { Global.Input(history: $0.history, habitId: $0.id) }, vacations: facts.vacations,
                from: first, to: asOf, asOf: asOf, weekStart: facts.weekStart)
            result = (Global.perfectDays(tallies, asOf: asOf, policy: facts.storePolicy), Global.activeDays(tallies, asOf: asOf))
        }
        storeOccurrences = result
        return result
    }

    private mutating func perfect() -> CrossingTracker.Streaks {
        if let perfectStreaks { return perfectStreaks }
        let streaks = Self.track(store().perfect, streakThresholds, facts.storePolicy)
        perfectStreaks = streaks
        return streaks
    }

    private mutating func active() -> CrossingTracker.Streaks {
        if let activeStreaks { return activeStreaks }
        let streaks = Self.track(store().active, activeThresholds, facts.storePolicy)
        activeStreaks = streaks
        return streaks
    }

    private static func track(_ occurrences: [Occurrence], _ thresholds: [Int64], _ policy: StreakPolicy) -> CrossingTracker.Streaks {
        var tracker = CrossingTracker(thresholds: thresholds, policy: policy) { $0.first }
        for occurrence in occurrences { tracker.take(occurrence) }
        return tracker.finish()
    }
}
