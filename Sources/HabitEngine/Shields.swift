import HabitCore
import HabitFiles
import HabitStore

/// What one hc_shield_state read and computed, kept by the handle for the next ask
/// while the store's change stamp is the same.
/// The last hc_shield_state's inputs and evaluation, kept while the store's
/// change stamp holds (it checks the stamp itself: every commit moves it).
struct ShieldCache {
    var last: ShieldInputs?
    /// Off, every hc_shield_state reads and computes afresh.
    var enabled = true
}

/// What a shield evaluation read, and the evaluation.
struct ShieldInputs {
    /// Days of inputs past the instant asked: a week and a day first (a next change
    /// nearly always lies within it: even a once-a-week rule's window), then the
    /// whole 62-day horizon of the next-change search and a week more, so that the
    /// asks of the following week still find their inputs.
    static let aheadDays: [Int64] = [8, 70]

    var stamp: Store.ChangeStamp
    var revision: Int64
    var evaluation: ShieldPlan.Evaluation
    var rules: [ShieldRule]
    var clock: DayClock
    var weekStart: Int
    /// Habit days of each rule's emergency unlocks, from a month before `fromMs` on.
    var emergencyDays: [Int64: [Int32]]
    /// The inputs reach back far enough for instants from this one on.
    var fromMs: Int64
}

/// Shields: rules (each effective from a day on), their state at an instant and
/// the transitions of a range (decided by ShieldPlan from one snapshot of the
/// store), emergency unlocks under a budget, and the store's shield revision.
extension Engine {
    package struct ShieldRuleView: Equatable, Sendable {
        package var id: Int64
        package var fromDay: Int32
        package var settings: ShieldRule.Settings
    }

    package struct ShieldStateView: Sendable {
        package var state: ShieldPlan.State
        package var rule: ShieldRuleView?
        package var next: ShieldPlan.Transition?
        package var earlier: UInt32
        /// Emergency unlocks left in the current period; nil: unlimited.
        package var emergencyLeft: Int32?
    }

    package struct ShieldTransitionView: Sendable {
        package var transition: ShieldPlan.Transition
        package var localDay: Int32
        package var localMinute: Int32
        package var zone: String
        package var offsetSeconds: Int32
    }

    // MARK: Rules

    private func checkHabits(_ settings: ShieldRule.Settings) throws(HabitError) {
        for id in settings.habits {
            guard id > 0 else { throw .notFound("no habit with id \(id)") }
            _ = try habit(id: id)
        }
    }

    /// Adds a rule, in effect from a day on (nil: today).
    package func addShieldRule(_ settings: ShieldRule.Settings, fromDay: Int32?) throws(HabitError) -> Int64 {
        let settings = try settings.validated()
        let day = try resolve(fromDay)
        let at = now()
        return try store.atomically { () throws(HabitError) in
            try checkHabits(settings)
            let id = try store.insertShieldRule(createdAtMs: at)
            try store.setShieldVersion(ruleId: id, fromDay: day, settings: settings)
            return id
        }
    }

    /// Changes a rule (settings) or removes it (nil) from a day on: today or later.
    package func changeShieldRule(id: Int64, _ settings: ShieldRule.Settings?, fromDay: Int32?) throws(HabitError) {
        let settings = try settings?.validated()
        let day = try EffectiveDay.fromTodayOn(try resolve(fromDay), today: try today(), "a shield rule changes")
        try store.atomically { () throws(HabitError) in
            guard id > 0, try store.shieldRuleExists(id: id) else { throw .notFound("no shield rule with id \(id)") }
            if let settings { try checkHabits(settings) }
            try store.setShieldVersion(ruleId: id, fromDay: day, settings: settings)
        }
    }

    /// The rules in force on a day (nil: today), by id.
    package func shieldRules(on day: Int32?) throws(HabitError) -> [ShieldRuleView] {
        let day = try resolve(day)
        return try store.shieldRules().compactMap { view($0, on: day) }
    }

    private func view(_ rule: ShieldRule, on day: Int32) -> ShieldRuleView? {
        guard let settings = rule.settings(on: day) else { return nil }
        let fromDay = rule.versions.last { $0.fromDay <= day }?.fromDay ?? day
        return ShieldRuleView(id: rule.id, fromDay: fromDay, settings: settings)
    }

    package func shieldRevision() throws(HabitError) -> Int64 {
        try store.shieldRevision()
    }

    // MARK: State and transitions

    /// Every rule's state at an instant, with its next time-driven change, from one
    /// snapshot. While the store is unchanged (the change stamp: other connections'
    /// commits, this handle's writes) a later ask reuses what the last one read and
    /// computed; any write drops it, so the ledger stays the truth. The read
    /// transaction covers only the reads, not the evaluation: a busy reader holds
    /// up a writer's checkpoint as briefly as it can.
    package func shieldStates(atMs: Int64?) throws(HabitError) -> (revision: Int64, states: [ShieldStateView]) {
        let atMs = atMs ?? now()
        if caches.shields.enabled, var cache = caches.shields.last, atMs >= cache.fromMs, try store.changeStamp() == cache.stamp {
            caches.shields.last = nil  // mutated in place below, not copied
            let answers = try? cache.evaluation.statesWithNext(atMs: atMs)
            if let answers = answers ?? nil {
                caches.shields.last = cache
                return (cache.revision, try stateViews(answers, cache, atMs: atMs))
            }
        }
        for aheadDays in ShieldInputs.aheadDays {
            var cache = try store.snapshot { () throws(HabitError) in try loadShieldInputs(atMs: atMs, aheadDays: aheadDays) }
            guard let answers = try cache.evaluation.statesWithNext(atMs: atMs) else { continue }
            if caches.shields.enabled { caches.shields.last = cache }
            return (cache.revision, try stateViews(answers, cache, atMs: atMs))
        }
        throw HabitError(.internal, "the shield inputs did not reach the search horizon")
    }

    /// Off, every hc_shield_state reads and computes afresh (the reference the
    /// cached path is tested against).
    package var cachesShieldStates: Bool {
        get { caches.shields.enabled }
        set { caches.shields = ShieldCache(last: nil, enabled: newValue) }
    }

    private func statesInSnapshot(atMs: Int64) throws(HabitError) -> (revision: Int64, states: [ShieldStateView]) {
        for aheadDays in ShieldInputs.aheadDays {
            var cache = try loadShieldInputs(atMs: atMs, aheadDays: aheadDays)
            guard let answers = try cache.evaluation.statesWithNext(atMs: atMs) else { continue }
            return (cache.revision, try stateViews(answers, cache, atMs: atMs))
        }
        throw HabitError(.internal, "the shield inputs did not reach the search horizon")
    }

    /// Reads what states from atMs on need, for `aheadDays` of next-change search.
    private func loadShieldInputs(atMs: Int64, aheadDays: Int64) throws(HabitError) -> ShieldInputs {
        let stamp = try store.changeStamp()
        let revision = try store.shieldRevision()
        let inputs = try shieldInputs(fromMs: atMs, toMs: atMs, ahead: aheadDays)
        let clock = try clock()
        // Budgets count a week or a calendar month back from the day asked.
        let firstDay = try clock.localDay(utcMs: atMs) - 32
        var emergencyDays: [Int64: [Int32]] = [:]
        for (rule, day) in try store.emergencyDays(fromDay: firstDay) { emergencyDays[rule, default: []].append(day) }
        return ShieldInputs(
            stamp: stamp, revision: revision, evaluation: ShieldPlan.Evaluation(inputs, dataEndMs: atMs + aheadDays * 86_400_000 + 1),
            rules: inputs.rules, clock: clock, weekStart: try weekStart(), emergencyDays: emergencyDays, fromMs: atMs)
    }

    private func stateViews(_ answers: [(ShieldPlan.State, ShieldPlan.Transition?)], _ cache: ShieldInputs, atMs: Int64) throws(HabitError) -> [ShieldStateView]
    {
        let today = try cache.clock.localDay(utcMs: atMs)
        var result: [ShieldStateView] = []
        result.reserveCapacity(answers.count)
        for (index, (state, next)) in answers.enumerated() where index < cache.rules.count {
            let rule = cache.rules[index]
            let ruleView = view(rule, on: state.windowDay != 0 ? state.windowDay : today)
            var left: Int32?
            if let settings = ruleView?.settings {
                left = EmergencyBudget.remaining(settings, day: today, usedDays: cache.emergencyDays[rule.id] ?? [], weekStart: cache.weekStart)
            }
            result.append(
                ShieldStateView(
                    state: state, rule: ruleView, next: next,
                    earlier: ShieldPlan.earlier(state, settings: ruleView?.settings, emergencyLeft: left), emergencyLeft: left))
        }
        return result
    }

    /// Every change of a rule's shielded state in [fromMs, toMs), from one snapshot.
    package func shieldTransitions(fromMs: Int64, toMs: Int64) throws(HabitError) -> (revision: Int64, transitions: [ShieldTransitionView]) {
        guard fromMs <= toMs else { throw .invalid("the range \(fromMs)...\(toMs) ms is reversed: from must not be after to") }
        return try store.snapshot { () throws(HabitError) in try transitionsInSnapshot(fromMs: fromMs, toMs: toMs) }
    }

    private func transitionsInSnapshot(fromMs: Int64, toMs: Int64) throws(HabitError) -> (revision: Int64, transitions: [ShieldTransitionView]) {
        do {
            let revision = try store.shieldRevision()
            let inputs = try shieldInputs(fromMs: fromMs, toMs: toMs, ahead: 2)
            let dayStart = inputs.dayStartMinutes
            return (
                revision,
                try ShieldPlan.transitions(inputs, fromMs: fromMs, toMs: toMs).map { (t) throws(HabitError) in
                    let zone = inputs.zones.zone(at: t.atMs)
                    let clock = DayClock(zone: zone, dayStartMinutes: dayStart)
                    let offset = try clock.utcOffsetSeconds(utcMs: t.atMs)
                    let local = floorDiv(t.atMs / 1000 + Int64(offset), 60)
                    return ShieldTransitionView(
                        transition: t, localDay: Int32(clamping: floorDiv(local, 1440)),
                        localMinute: Int32(clamping: local - floorDiv(local, 1440) * 1440), zone: zone.name, offsetSeconds: offset)
                }
            )
        }
    }

    private func emergencyLeft(_ ruleId: Int64, _ settings: ShieldRule.Settings, day: Int32, weekStart: Int) throws(HabitError) -> Int32? {
        guard let period = EmergencyBudget.period(settings.budgetPeriod, day: day, weekStart: weekStart) else { return nil }
        let used = try store.emergencyDays(ruleId: ruleId, from: period.lowerBound, to: period.upperBound)
        return EmergencyBudget.remaining(settings, day: day, usedDays: used, weekStart: weekStart)
    }

    /// What the plan needs for [fromMs, toMs] and `ahead` days after.
    private func shieldInputs(fromMs: Int64, toMs: Int64, ahead: Int64) throws(HabitError) -> ShieldPlan.Inputs {
        let clock = try clock()
        let rules = try store.shieldRules()
        let margin: Int64 = 4 * 86_400_000
        let (low, lowOverflow) = fromMs.subtractingReportingOverflow(margin)
        let (high, highOverflow) = toMs.addingReportingOverflow(ahead * 86_400_000 + margin)
        guard !lowOverflow, !highOverflow else { throw .invalid("instant out of range") }
        let firstDay = try clock.localDay(utcMs: low), lastDay = try clock.localDay(utcMs: high)
        var habits: [Int64: ShieldPlan.HabitDays] = [:]
        let ids = Set(rules.flatMap { $0.versions.flatMap { $0.settings?.habits ?? [] } })
        let vacations = ids.isEmpty ? [] : try vacations()
        for id in ids.sorted() {
            // A habit a rule names that this store does not hold lifts nothing.
            guard let habit = try store.habitFoldSpec(id: id) else { continue }
            // Timers folded as they will end, not at now: each amount carries its end (a
            // stop, or an auto-complete still to come), and the plan counts it from there
            // on, for whatever instant is asked.
            let timers = try timerAmounts(
                habitId: id, spec: habit.spec, versions: habit.versions, from: firstDay, to: lastDay, atMs: TimerRules.foreseeing)
            habits[id] = ShieldPlan.habitDays(
                try store.entriesByDay(habitId: id, from: firstDay, to: lastDay), timerAmounts: timers.amounts, habit: habit.spec,
                versions: habit.versions, vacations: Vacation.ranges(vacations, habitId: id))
        }
        var sessions: [ShieldPlan.Session] = []
        if rules.contains(where: { $0.versions.contains { $0.settings?.sessionLifts == true } }) {
            for (_, purchases) in try store.allSessionPurchases() {
                for run in try UnlockTimeline.runs(purchases) where run.endMs > low && run.startMs < high && run.startMs < run.endMs {
                    sessions.append(ShieldPlan.Session(startMs: run.startMs, endMs: run.endMs))
                }
            }
        }
        let changes = try store.zoneChanges()
        var zones = ShieldPlan.ZoneHistory(clock.zone)
        if let first = changes.first {
            var loaded: [String: ZoneRules] = [clock.zone.name: clock.zone]
            func load(_ name: String) throws(HabitError) -> ZoneRules {
                if let zone = loaded[name] { return zone }
                let zone = try ZoneDatabase.load(name)
                loaded[name] = zone
                return zone
            }
            var list: [(atMs: Int64, zone: ZoneRules)] = []
            for change in changes { list.append((change.atMs, try load(change.to))) }
            zones = ShieldPlan.ZoneHistory(initial: try load(first.from), changes: list)
        }
        return ShieldPlan.Inputs(
            rules: rules, habits: habits, sessions: sessions, emergencies: try store.emergencyUnlocks(fromMs: low),
            zones: zones, dayStartMinutes: clock.dayStartMinutes)
    }

    // MARK: Emergency unlocks

    /// Records an emergency unlock of a rule, now, for `minutes`: one short write
    /// transaction that checks the budget, so unlocks from several processes never
    /// exceed it. INSUFFICIENT past the budget (nothing recorded).
    package func emergencyUnlock(ruleId: Int64, minutes: Int32, reason: String?) throws(HabitError) -> Int64 {
        try EmergencyUnlock.validate(minutes: minutes, reason: reason)
        let at = now()
        return try store.atomically { () throws(HabitError) in
            guard ruleId > 0, try store.shieldRuleExists(id: ruleId) else { throw .notFound("no shield rule with id \(ruleId)") }
            let clock = try clock()
            let day = try clock.localDay(utcMs: at)
            guard let rule = try store.shieldRules().first(where: { $0.id == ruleId }), let settings = rule.settings(on: day) else {
                throw .conflict("shield rule \(ruleId) is not in effect today")
            }
            if let left = try emergencyLeft(ruleId, settings, day: day, weekStart: try weekStart()), left <= 0 {
                throw HabitError(
                    .insufficient, "no emergency unlock left: rule '\(settings.name)' allows \(settings.budgetCount) per \(settings.budgetPeriod.name)")
            }
            return try store.insertEmergencyUnlock(ruleId: ruleId, atMs: at, day: day, minutes: minutes, reason: reason)
        }
    }
}

extension Engine {
    /// The shield snapshot at an instant (state, the next day's transitions, the
    /// revision) as JSON text, from one snapshot of the store.
    package func shieldSnapshotText(atMs: Int64) throws(HabitError) -> String {
        try store.snapshot { () throws(HabitError) in
            let (revision, states) = try statesInSnapshot(atMs: atMs)
            let (_, transitions) = try transitionsInSnapshot(fromMs: atMs, toMs: atMs + 86_400_000)
            let rules = states.map {
                ShieldSnapshot.RuleState(state: $0.state, key: $0.rule?.settings.key, failClosed: $0.rule?.settings.failClosed ?? true, nextMs: $0.next?.atMs)
            }
            return ShieldSnapshot.json(revision: revision, atMs: atMs, rules: rules, transitions: transitions.map(\.transition)).text + "\n"
        }
    }

    /// Writes the snapshot to `path` atomically.
    package func writeShieldSnapshot(path: String, atMs: Int64?) throws(HabitError) {
        try writeSnapshotFile(path: path) { () throws(HabitError) in try shieldSnapshotText(atMs: atMs ?? now()) }
    }

    /// Writes a snapshot file other processes read (shields, today) to `path`
    /// atomically: a temporary file beside it, synced, then renamed over it, so a
    /// reader sees the old file or the new one.
    func writeSnapshotFile(path: String, text: () throws(HabitError) -> String) throws(HabitError) {
        guard !path.isEmpty, path.utf8.count < 4096, !path.utf8.contains(0) else { throw .invalid("path is empty or too long") }
        let text = try text()
        do throws(AtomicOutput.Failure) {
            // 0644: the extension that reads it may run as another user.
            let output = try AtomicOutput(path: path, mode: 0o644)
            try output.write(text)
            try output.commit()
        } catch {
            switch error {
            case .missingFolder: throw HabitError(.io, "cannot write \(path.prefix(300)): no such folder")
            case .failed(let reason): throw HabitError(.io, reason)
            }
        }
    }
}
