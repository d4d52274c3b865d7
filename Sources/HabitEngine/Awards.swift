import HabitCore
import HabitStore

/// Awards, referrals and events. The rules are judged by the domain
/// (AwardEvaluation) over facts gathered here; unlocks and events are written
/// in one write transaction, so two processes evaluating at once record each
/// award once.
extension Engine {
    private enum AwardKey {
        static let referralCode = "referral_code"
        /// The last entry id whose days were looked at for events.
        static let eventsScanned = "events_scanned_entry"
    }

    // MARK: The catalogue

    package func awardCatalogue() throws(HabitError) -> [AwardRule] {
        try store.awardRules()
    }

    /// Replaces the catalogue with one read from JSON; unlocks already recorded stay.
    package func loadAwardCatalogue(json: String) throws(HabitError) {
        try store.atomically { () throws(HabitError) in
            let rules = try AwardCatalogue.decode(json) { (reference) throws(HabitError) -> Int64 in
                switch reference {
                case .id(let id): return try habit(id: id).id
                case .name(let name): return try habit(named: name).id
                }
            }
            try store.replaceAwardRules(rules)
        }
    }

    package func resetAwardCatalogue() throws(HabitError) {
        try store.atomically { () throws(HabitError) in try store.replaceAwardRules(AwardCatalogue.builtIn) }
    }

    // MARK: Evaluation

    /// Judges the catalogue as of a day and records the awards newly crossed.
    package func evaluateAwards(asOf: Int32?) throws(HabitError) -> [AwardUnlock] {
        let asOf = try resolve(asOf)
        let at = now()
        return try store.atomically { () throws(HabitError) in try recordUnlocks(asOf: asOf, atMs: at) }
    }

    package func awardUnlocks() throws(HabitError) -> [AwardUnlock] {
        try store.awardUnlocks()
    }

    package struct AwardProgress: Equatable, Sendable {
        package var rule: AwardRule
        /// The metric as of the day asked.
        package var value: Int64
        package var unlock: AwardUnlock?
    }

    /// Every award of the catalogue with its metric's value as of a day and its unlock, if recorded.
    package func awardProgress(asOf: Int32?) throws(HabitError) -> [AwardProgress] {
        let asOf = try resolve(asOf)
        return try store.snapshot { () throws(HabitError) in
            let rules = try store.awardRules()
            var unlocks: [String: AwardUnlock] = [:]
            for unlock in try store.awardUnlocks() { unlocks[unlock.rule.id] = unlock }
            return AwardEvaluation.standings(rules, facts: try awardFacts(for: rules, asOf: asOf), asOf: asOf).map {
                AwardProgress(rule: $0.rule, value: $0.value, unlock: unlocks[$0.rule.id])
            }
        }
    }

    /// Inside a write transaction: records each award of the catalogue not yet
    /// unlocked whose threshold was crossed, with an event for each.
    private func recordUnlocks(asOf: Int32, atMs: Int64) throws(HabitError) -> [AwardUnlock] {
        let unlocked = Set(try store.awardUnlocks().map(\.rule.id))
        let pending = try store.awardRules().filter { !unlocked.contains($0.id) }
        guard !pending.isEmpty else { return [] }
        var result: [AwardUnlock] = []
        for standing in AwardEvaluation.standings(pending, facts: try awardFacts(for: pending, asOf: asOf), asOf: asOf) {
            guard let crossing = standing.crossing else { continue }
            let cause = try resolveCause(crossing.cause)
            var unlock = AwardUnlock(
                id: 0, rule: standing.rule, day: crossing.day, atMs: atMs, causeKind: cause.kind, causeId: cause.id,
                causeHabitId: cause.habitId)
            unlock.id = try store.insertAwardUnlock(unlock)
            try announce(unlock)
            result.append(unlock)
        }
        return result
    }

    /// Records the event of an award unlocked here or merged from another device, once
    /// per award on this device (the event's key is the award's): an award this device
    /// already announced is never announced again.
    func announce(_ unlock: AwardUnlock) throws(HabitError) {
        _ = try store.insertEvent(
            HabitEvent(
                id: 0, kind: .awardUnlocked, day: unlock.day, atMs: unlock.atMs, habitId: unlock.causeHabitId,
                entryId: unlock.causeKind == .habitEntry ? unlock.causeId : nil, awardId: unlock.rule.id,
                value: Double(unlock.rule.threshold), acknowledged: false),
            key: "award:\(unlock.rule.id)")
    }

    /// What the rules need to be judged, read once: histories only when a rule
    /// looks at habits' days, credits and referrals only when one counts them.
    private func awardFacts(for rules: [AwardRule], asOf: Int32) throws(HabitError) -> AwardFacts {
        let metrics = Set(rules.map(\.metric))
        let needsDays = !metrics.isDisjoint(with: [
            .currentStreak, .longestStreak, .totalCompletions, .perfectDays, .activeDayStreak,
            .verifiedProofs,
        ])
        let clock = try clock()
        let policies = try streakPolicies()
        var habits: [AwardFacts.HabitFacts] = []
        for habit in try store.habits(includeArchived: true) {
            let timers = needsDays || metrics.contains(.focusedSeconds) ? try timerAmounts(habit, from: CivilDate.minDay, to: asOf).amounts : []
            let entries = needsDays ? try store.entries(habitId: habit.id, from: min(habit.spec.startDay, asOf), to: asOf) + timers : []
            let cancelled = DayFold.cancelledIds(in: entries)
            let proofs = entries.filter { $0.source == .proof && $0.kind != .undo && $0.kind != .skip && !cancelled.contains($0.id) }
                .map { AwardFacts.Counted(day: $0.day, id: $0.id) }
            let history = HabitHistory(
                spec: habit.spec, versions: habit.versions, archivedDay: habit.archivedDay,
                days: DayFold.sparseStates(entries, habit: habit.spec, versions: habit.versions))
            let createdDay = (try? clock.localDay(utcMs: habit.createdAtMs)) ?? habit.spec.startDay
            habits.append(
                AwardFacts.HabitFacts(
                    id: habit.id, history: history, createdDay: createdDay, proofs: proofs,
                    policy: policies.habits[habit.id] ?? policies.store,
                    focused: timers.map { AwardFacts.Counted(day: $0.day, id: -$0.id, amount: Int64($0.value)) }))
        }
        return AwardFacts(
            habits: habits, vacations: needsDays ? try vacations() : [],
            creditsEarned: metrics.contains(.creditsEarned) ? try store.creditEarnings() : [],
            referrals: metrics.contains(.referralsRedeemed) ? try store.referralRedemptions() : [],
            weekStart: try weekStart(), storePolicy: policies.store)
    }

    /// The row behind a crossing: for a day, the latest entry standing on it.
    private func resolveCause(_ cause: AwardCrossing.Cause) throws(HabitError)
        -> (kind: AwardUnlock.CauseKind, id: Int64?, habitId: Int64?)
    {
        switch cause {
        case .habitDay(let habitId, let day):
            return (try latestStanding(habitId: habitId, day: day)).map { (.habitEntry, $0.id, habitId) } ?? (.none, nil, habitId)
        case .storeDay(let day):
            return (try latestStanding(habitId: nil, day: day)).map { (.habitEntry, $0.id, $0.habitId) } ?? (.none, nil, nil)
        case .habitEntry(let id):
            return (.habitEntry, id, try store.entry(id: id)?.habitId)
        case .creditEntry(let id): return (.creditEntry, id, nil)
        case .habitCreated(let id): return (.habitCreated, id, id)
        case .referral(let id): return (.referral, id, nil)
        }
    }

    /// The last entry of a day (of one habit, or any) that logs something and still stands.
    private func latestStanding(habitId: Int64?, day: Int32) throws(HabitError) -> Entry? {
        Self.latestStanding(in: try store.entries(habitId: habitId, from: day, to: day))
    }

    private static func latestStanding(in entries: [Entry]) -> Entry? {
        let cancelled = DayFold.cancelledIds(in: entries)
        return entries.last { $0.kind != .undo && $0.kind != .skip && !cancelled.contains($0.id) }
    }

    // MARK: Referrals

    /// This store's code, made on first use.
    package func referralCode() throws(HabitError) -> String {
        if let code = try store.setting(AwardKey.referralCode) { return code }
        var random = SystemRandomNumberGenerator()
        let fresh = ReferralCode.make(using: &random)
        return try store.atomically { () throws(HabitError) in
            // Another process may have made one since the read above.
            if let code = try store.setting(AwardKey.referralCode) { return code }
            try store.setSetting(AwardKey.referralCode, fresh)
            return fresh
        }
    }

    /// Records a code redeemed from someone else; each code counts once.
    package func redeemReferral(_ text: String) throws(HabitError) -> Int64 {
        let code = try ReferralCode.normalized(text)
        let at = now()
        let day = try localDay(utcMs: at)
        return try store.atomically { () throws(HabitError) in
            if try store.setting(AwardKey.referralCode) == code { throw .conflict("\(code) is this store's own referral code") }
            return try store.insertReferralRedemption(code: code, day: day, atMs: at)
        }
    }

    // MARK: Events

    /// Events after a cursor, oldest first. First records what happened since the
    /// last look (awards crossed as of today, daily targets reached today or
    /// yesterday, streak milestones of the runs going on). With `acknowledge`,
    /// only events no reader has acknowledged, acknowledged in the same
    /// transaction: each is handed to exactly one reader.
    package func events(after cursor: Int64, limit: Int64, acknowledge: Bool) throws(HabitError) -> [HabitEvent] {
        guard cursor >= 0 else { throw .invalid("the cursor \(cursor) is negative") }
        guard (1...10_000).contains(limit) else { throw .invalid("limit \(limit) is outside 1...10000") }
        if store.readOnly {
            guard !acknowledge else { throw HabitError(.readOnly, "the store was opened read-only: events cannot be acknowledged") }
            return try store.events(after: cursor, limit: limit, unacknowledgedOnly: false)
        }
        let today = try today()
        let at = now()
        return try store.atomically { () throws(HabitError) in
            try recordEvents(today: today, atMs: at)
            var events = try store.events(after: cursor, limit: limit, unacknowledgedOnly: acknowledge)
            if acknowledge {
                for index in events.indices {
                    try store.acknowledgeEvent(id: events[index].id, atMs: at)
                    events[index].acknowledged = true
                }
            }
            return events
        }
    }

    private func recordEvents(today: Int32, atMs: Int64) throws(HabitError) {
        _ = try recordUnlocks(asOf: today, atMs: atMs)
        let scanned =
            try store.setting(AwardKey.eventsScanned).map { (text) throws(HabitError) -> Int64 in
                guard let id = Int64(text) else { throw .corrupt("stored event cursor '\(text)' is invalid") }
                return id
            } ?? 0
        let last = try store.lastEntryId()
        guard last > scanned else { return }
        let touched = try store.daysTouched(afterEntry: scanned, fromDay: CivilDate.minDay)
        // Notifying about days long past is noise: targets of today and yesterday only.
        for (habitId, day) in touched where day >= today - 1 {
            try recordTargetReached(habit: try habit(id: habitId), day: day)
        }
        let weekStart = try weekStart()
        let vacations = try vacations()
        for habitId in Set(touched.map(\.habitId)).sorted() {
            try recordMilestone(habit: try habit(id: habitId), today: today, weekStart: weekStart, vacations: vacations, atMs: atMs)
        }
        try store.setSetting(AwardKey.eventsScanned, String(last))
    }

    private func recordTargetReached(habit: Habit, day: Int32) throws(HabitError) {
        guard habit.spec.kind != .measurement, habit.spec(on: day).direction == .atLeast, day >= habit.spec.startDay else { return }
        // One read of the day serves both its state and the entry that made it.
        let entries = try store.entries(habitId: habit.id, from: day, to: day)
        let state = DayFold.states(entries, from: day, to: day, habit: habit.spec, versions: habit.versions)[0]
        guard state.done, let entry = Self.latestStanding(in: entries) else { return }
        _ = try store.insertEvent(
            HabitEvent(
                id: 0, kind: .targetReached, day: day, atMs: entry.recordedAtMs, habitId: habit.id,
                entryId: entry.id, awardId: nil, value: state.value, acknowledged: false),
            key: "target:\(habit.id):\(day)")
    }

    /// The highest milestone the habit's current run has reached, once per run.
    private func recordMilestone(habit: Habit, today: Int32, weekStart: Int, vacations: [Vacation], atMs: Int64) throws(HabitError) {
        guard habit.spec.kind != .measurement else { return }
        let summary = Streaks.summary(
            try history(of: habit, through: today), asOf: today, weekStart: weekStart,
            vacations: Vacation.ranges(vacations, habitId: habit.id),
            policy: try streakPolicy(habitId: habit.id), best: 0)
        guard let run = summary.current, let milestone = Milestones.reached(by: Int64(run.length)),
            !(try store.hasMilestone(habitId: habit.id, atLeast: milestone, since: run.first))
        else { return }
        let entry = try latestStanding(habitId: habit.id, day: run.last)
        _ = try store.insertEvent(
            HabitEvent(
                id: 0, kind: .streakMilestone, day: run.last, atMs: entry?.recordedAtMs ?? atMs,
                habitId: habit.id, entryId: entry?.id, awardId: nil, value: Double(milestone),
                acknowledged: false),
            key: "streak:\(habit.id):\(run.first):\(milestone)")
    }
}
