import HabitCore
import HabitStore

/// The streaks, scores and due lists of the store's habits. Every result comes
/// from the same domain functions the pure C calls use; this only gathers the
/// histories, vacations and settings they need.
extension Engine {
    // MARK: Histories

    /// A habit's history up to asOf, as the domain judges it: the days with
    /// entries from the start day through asOf, folded.
    package func history(of habit: Habit, through asOf: Int32) throws(HabitError) -> HabitHistory {
        let from = min(habit.spec.startDay, asOf)
        guard cachesHistories else {
            // The reference: every entry as stored, grouped by day and folded.
            let entries = try store.entries(habitId: habit.id, from: from, to: asOf) + timerAmounts(habit, from: from, to: asOf).amounts
            return HabitHistory(
                spec: habit.spec, versions: habit.versions, archivedDay: habit.archivedDay,
                days: DayFold.sparseStates(entries, habit: habit.spec, versions: habit.versions))
        }
        try revalidateCaches()
        let folded: HistoryCache.Folded
        if let kept = caches.histories.folded(habit), kept.expiresAtMs.map({ $0 > now() }) ?? true {
            folded = kept
        } else {
            let (days, expiresAtMs) = try coldFold(habit)
            folded = caches.histories.store(habit, days: days, expiresAtMs: expiresAtMs)
        }
        // Nothing logged after asOf: the kept history is exactly the one asked for.
        if asOf >= habit.spec.startDay && (folded.days.last?.day ?? Int32.min) <= asOf { return folded.history }
        let first = HistoryCache.firstIndex(in: folded.days, atOrAfter: from)
        let end = HistoryCache.firstIndex(in: folded.days, atOrAfter: asOf == Int32.max ? asOf : asOf + 1)
        let days = asOf == Int32.max ? folded.days[first...] : folded.days[first..<max(first, end)]
        return HabitHistory(spec: habit.spec, versions: habit.versions, archivedDay: habit.archivedDay, days: Array(days))
    }

    /// A habit's folded days for a handle that keeps none: its saved fold with the
    /// days of the entries added since it was saved folded again from the ledger, or
    /// the whole ledger folded when there is none, its rules differ or too much came
    /// since. Saved again when that folded many days and this handle can write
    /// without waiting; a read-only handle folds in memory only.
    /// A fold holds until a running timer of the habit completes itself (expiresAtMs),
    /// and is not saved before.
    private func coldFold(_ habit: Habit) throws(HabitError) -> (days: [DayState], expiresAtMs: Int64?) {
        let rules = SavedFold.rules(habit.spec, versions: habit.versions)
        let (days, folded, through, expires) = try store.snapshot { () throws(HabitError) -> ([DayState], Int, Int64, Int64?) in
            let through = try store.lastEntryId()
            let timers = try timerAmounts(habit, from: CivilDate.minDay, to: CivilDate.maxDay)
            if let saved = try savedFoldDays(habit, rules: rules, through: through) {
                return (saved.days, saved.folded, through, timers.expiresAtMs)
            }
            let entries = try foldEntries(habit, from: CivilDate.minDay, to: CivilDate.maxDay, amounts: timers.amounts)
            return (DayFold.sortedStates(entries, habit: habit.spec, versions: habit.versions), Int.max, through, timers.expiresAtMs)
        }
        if folded >= Self.resaveAfterDays && expires == nil {
            _ = store.saveFoldWithoutWaiting(
                habitId: habit.id, Store.SavedFoldRow(rules: rules, throughEntry: through, days: SavedFold.encode(days)))
        }
        return (days, expires)
    }

    /// A habit's saved fold with the days of the entries added since it was saved
    /// (ids above its own, up to `through`) folded again from the ledger, and how many
    /// days that folded; nil when it has none, it was folded under other rules, or
    /// more than refoldLimit entries came since. Read inside the caller's snapshot.
    private func savedFoldDays(_ habit: Habit, rules: [UInt8], through: Int64) throws(HabitError) -> (days: [DayState], folded: Int)? {
        guard let saved = try store.savedFold(habitId: habit.id), saved.rules == rules, saved.throughEntry <= through,
            var days = SavedFold.decode(saved.days)
        else { return nil }
        if saved.throughEntry == through { return (days, 0) }
        let added = try store.entryDays(habitId: habit.id, afterEntry: saved.throughEntry, limit: Self.refoldLimit + 1)
        guard added.count <= Self.refoldLimit else { return nil }
        let touched = Set(added)
        for day in touched {
            let entries = try foldEntries(habit, from: day, to: day)
            guard let state = DayFold.sortedStates(entries, habit: habit.spec, versions: habit.versions).first else { continue }
            HistoryCache.put(state, into: &days)
        }
        return (days, touched.count)
    }

    /// Past this many entries added since a fold was saved, the whole ledger is folded.
    static let refoldLimit: Int64 = 4096
    /// A fold brought up to date by this many days or more is saved again.
    static let resaveAfterDays = 32

    /// A caller's day, checked, or today for nil.
    func resolve(_ asOf: Int32?) throws(HabitError) -> Int32 {
        if let asOf {
            guard CivilDate.isValid(asOf) else { throw .invalid("day \(asOf) is outside 0001-01-01...9999-12-31") }
            return asOf
        }
        return try today()
    }

    // MARK: Results

    package func streaks(habitId: Int64, asOf: Int32?, best: Int) throws(HabitError) -> (summary: StreakSummary, schedule: Schedule) {
        let asOf = try resolve(asOf)
        let habit = try habit(id: habitId)
        let history = try history(of: habit, through: asOf)
        let summary = Streaks.summary(
            history, asOf: asOf, weekStart: try weekStart(),
            vacations: Vacation.ranges(try vacations(), habitId: habitId),
            policy: try streakPolicy(habitId: habitId), best: best)
        return (summary, history.schedule(on: asOf))
    }

    package func strength(habitId: Int64, from: Int32, to: Int32) throws(HabitError) -> [Double] {
        try CivilDate.checkRange(from: from, to: to, limit: CivilDate.maxRangeDays)
        let habit = try habit(id: habitId)
        // Today is the open day: a past range is all over, as Loop scores it.
        return Scores.strengthSeries(
            try history(of: habit, through: to), from: from, to: to, asOf: try today(), weekStart: try weekStart(),
            vacations: Vacation.ranges(try vacations(), habitId: habitId))
    }

    package func completion(habitId: Int64, from: Int32, to: Int32) throws(HabitError) -> Scores.Completion {
        try CivilDate.checkRange(from: from, to: to, limit: CivilDate.maxRangeDays)
        // Judged as of today: a past window's last day is over, not open.
        let asOf = try today()
        let habit = try habit(id: habitId)
        let occurrences = Judge.occurrences(
            try history(of: habit, through: asOf), asOf: asOf, weekStart: try weekStart(),
            vacations: Vacation.ranges(try vacations(), habitId: habitId))
        return Scores.completion(occurrences, from: from, to: to, judgedAtDayEnd: HabitHistory.judgedAtDayEnd(habit.spec))
    }

    /// Day tallies across the active habits (or one group) for [from, to].
    package func tallies(from: Int32, to: Int32, group: String? = nil) throws(HabitError) -> [Global.DayTally] {
        try CivilDate.checkRange(from: from, to: to, limit: CivilDate.maxRangeDays)
        let asOf = try today()
        return Global.tally(
            try globalInputs(group: group, through: max(to, asOf)), vacations: try vacations(), from: from, to: to,
            asOf: asOf, weekStart: try weekStart(), group: group)
    }

    /// The histories the store-wide results read: every habit but measurements, or one group's.
    private func globalInputs(group: String?, through last: Int32) throws(HabitError) -> [Global.Input] {
        var inputs: [Global.Input] = []
        for habit in try habits(includeArchived: true) where habit.spec.kind != .measurement {
            // A habit counts in a group on the days its version is in it.
            if let group, !habit.versions.contains(where: { $0.group?.lowercased() == group.lowercased() }),
                habit.spec.group?.lowercased() != group.lowercased()
            {
                continue
            }
            inputs.append(Global.Input(history: try history(of: habit, through: last), habitId: habit.id))
        }
        return inputs
    }

    /// A group some active habit is in, or was in on some day (its versions).
    private func checkGroup(_ group: String) throws(HabitError) {
        guard
            try habits(includeArchived: false).contains(where: {
                $0.versions.contains { $0.group?.lowercased() == group.lowercased() }
                    || $0.spec.group?.lowercased() == group.lowercased()
            })
        else {
            throw .notFound("no active habit is in the group '\(group.prefix(200))'")
        }
    }

    /// One day of a group (nil: every habit) read both ways: quota habits due until
    /// met, and day-based habits only with the quota habits' progress beside them.
    package func dayReadings(group: String?, day: Int32?) throws(HabitError) -> Global.DayReadings {
        if let group { try checkGroup(group) }
        let day = try resolve(day), asOf = try today()
        return Global.dayReadings(
            try globalInputs(group: group, through: max(day, asOf)), vacations: try vacations(), day: day,
            asOf: asOf, weekStart: try weekStart(), group: group)
    }

    /// A group's completion on one day and over a window.
    package func groupCompletion(_ group: String, asOf: Int32?, from: Int32, to: Int32) throws(HabitError)
        -> (day: Scores.Completion, window: Scores.Completion)
    {
        try checkGroup(group)
        let day = try resolve(asOf)
        return (
            Global.completion(try tallies(from: day, to: day, group: group)),
            Global.completion(try tallies(from: from, to: to, group: group))
        )
    }

    package func globalStreaks(asOf: Int32?) throws(HabitError) -> (perfect: StreakSummary, active: StreakSummary) {
        let asOf = try resolve(asOf)
        let habits = try habits(includeArchived: true).filter { $0.spec.kind != .measurement }
        guard let first = habits.map(\.spec.startDay).min(), first <= asOf else {
            return (.none, .none)
        }
        var inputs: [Global.Input] = []
        for habit in habits { inputs.append(Global.Input(history: try history(of: habit, through: asOf), habitId: habit.id)) }
        let tallies = Global.tally(inputs, vacations: try vacations(), from: first, to: asOf, asOf: asOf, weekStart: try weekStart())
        let policy = try storeStreakPolicy()
        return (
            Streaks.summary(Global.perfectDays(tallies, asOf: asOf, policy: policy), policy: policy, best: 0),
            Streaks.summary(Global.activeDays(tallies, asOf: asOf), policy: policy, best: 0)
        )
    }

    package struct DueItem: Equatable, Sendable {
        package enum State: Int32, Sendable { case pending = 1, done = 2, excused = 3 }
        package var habit: Habit
        package var state: State
        package var value: Double
    }

    /// What is due on a day, ordered by routine (morning, day, evening, anytime) then name.
    package func due(on day: Int32?) throws(HabitError) -> [DueItem] {
        let day = try resolve(day)
        let vacations = try vacations()
        let weekStart = try weekStart()
        var items: [DueItem] = []
        for habit in try habits(includeArchived: false) where habit.spec.kind != .measurement {
            let history = try history(of: habit, through: day)
            let demand = Judge.demands(
                history, from: day, to: day, asOf: day, weekStart: weekStart,
                vacations: Vacation.ranges(vacations, habitId: habit.id)
            ).first
            guard let state = Self.dueState(demand, history, day: day) else { continue }
            items.append(DueItem(habit: habit, state: state, value: history.value(on: day)))
        }
        return Self.inDueOrder(items) { $0.habit }
    }

    /// A habit's state in a day's due list; nil: not due that day.
    static func dueState(_ demand: DayDemand?, _ history: HabitHistory, day: Int32) -> DueItem.State? {
        switch demand {
        case .due(let done)?: return done || history.isMarkedDone(day) ? .done : .pending
        case .excused?: return .excused
        case .notDue?, nil: return nil
        }
    }

    /// Items in the due list's order: by routine (morning, day, evening, anytime),
    /// then by name without case. Each item's key is made once, and the sort moves
    /// indices, not the items (a habit is a large value to move at every step).
    static func inDueOrder<Item>(_ items: [Item], habit: (Item) -> Habit) -> [Item] {
        let ranks = items.map { (item) -> Int32 in
            let routine = habit(item).spec.routine
            return routine == .anytime ? Int32.max : routine.rawValue
        }
        let names = items.map { habit($0).spec.name.lowercased() }
        return items.indices.sorted { ranks[$0] != ranks[$1] ? ranks[$0] < ranks[$1] : names[$0] < names[$1] }.map { items[$0] }
    }

    package struct MeasurementStats: Equatable, Sendable {
        package var count: Int
        package var latest: (day: Int32, value: Double)?
        package var best: (day: Int32, value: Double)?
        /// Latest minus first reading in the window; nil with fewer than two.
        package var change: Double?

        package static func == (a: MeasurementStats, b: MeasurementStats) -> Bool {
            a.count == b.count && a.latest?.day == b.latest?.day && a.latest?.value == b.latest?.value && a.best?.day == b.best?.day
                && a.best?.value == b.best?.value && a.change == b.change
        }
    }

    /// Readings in [from, to]: the latest, the best by the habit's direction, and the change.
    package func measurements(habitId: Int64, from: Int32, to: Int32) throws(HabitError) -> MeasurementStats {
        try CivilDate.checkRange(from: from, to: to, limit: CivilDate.maxRangeDays)
        let habit = try habit(id: habitId)
        guard habit.spec.kind == .measurement else { throw .invalid("habit '\(habit.spec.name)' is not a measurement") }
        let readings = DayFold.sparseStates(try store.entries(habitId: habitId, from: from, to: to), habit: habit.spec)
            .filter(\.done).map { (day: $0.day, value: $0.value) }
        let higherIsBetter = habit.spec.direction == .atLeast
        let best = readings.max { higherIsBetter ? $0.value < $1.value : $0.value > $1.value }
        let change: Double? = readings.count >= 2 ? (readings.last?.value ?? 0) - (readings.first?.value ?? 0) : nil
        return MeasurementStats(count: readings.count, latest: readings.last, best: best, change: change)
    }
}

// MARK: The today snapshot

extension Engine {
    /// The today snapshot at an instant (TodaySnapshot) as JSON text, from one
    /// snapshot of the store; works on a store opened read-only.
    package func todaySnapshotText(atMs: Int64) throws(HabitError) -> String {
        try store.snapshot { () throws(HabitError) in
            let revision = try store.revision()
            let clock = try clock()
            let bounds = try routineBounds()
            let today = try clock.localDay(utcMs: atMs)
            let changes = try TodaySnapshot.changes(clock: clock, bounds: bounds, atMs: atMs)
            let tomorrow = today + 1
            let weekStart = try weekStart(), vacations = try vacations(), policies = try streakPolicies()
            let gridFirst = TodaySnapshot.gridFirstDay(today: today, weekStart: weekStart)
            var inputs: (today: [Global.Input], tomorrow: [Global.Input]) = ([], [])
            var lines: (today: [(Habit, TodaySnapshot.Line)], tomorrow: [(Habit, TodaySnapshot.Line)]) = ([], [])
            var grid: [TodaySnapshot.GridRow] = []
            let lastEntry = try store.lastEntryId()
            for habit in try store.habits(includeArchived: true) where habit.spec.kind != .measurement {
                let ranges = Vacation.ranges(vacations, habitId: habit.id)
                let policy = policies.habits[habit.id] ?? policies.store
                // What the snapshot shows of a habit, judged on the histories given.
                typealias Judged = (row: [DayDemand], lines: [(Int32, TodaySnapshot.Line)], runFirsts: [Int32?])
                func judge(_ histories: (today: HabitHistory, tomorrow: HabitHistory)) -> Judged {
                    guard !habit.isArchived else { return ([], [], []) }
                    let demands = Judge.demands(histories.today, from: gridFirst, to: today, asOf: today, weekStart: weekStart, vacations: ranges)
                    let tomorrowDemand = Judge.demands(
                        histories.tomorrow, from: tomorrow, to: tomorrow, asOf: tomorrow, weekStart: weekStart, vacations: ranges
                    ).first
                    var lines: [(Int32, TodaySnapshot.Line)] = [], runFirsts: [Int32?] = []
                    for (day, history, demand) in [(today, histories.today, demands.last), (tomorrow, histories.tomorrow, tomorrowDemand)] {
                        let run = Streaks.summary(history, asOf: day, weekStart: weekStart, vacations: ranges, policy: policy, best: 0).current
                        runFirsts.append(run?.first)
                        guard let state = Self.dueState(demand, history, day: day) else { continue }
                        lines.append(
                            (
                                day,
                                TodaySnapshot.Line(
                                    habitId: habit.id, name: habit.spec.name, routine: habit.spec.routine,
                                    state: state == .done ? .done : state == .excused ? .excused : .pending, value: history.value(on: day),
                                    target: history.spec(on: day).target, streak: run?.length ?? 0)
                            ))
                    }
                    return (demands, lines, runFirsts)
                }
                // Windows that grow with a long current run, then the whole history; the
                // days come from the saved fold when it holds (no row of the ledger read).
                var found: (histories: (today: HabitHistory, tomorrow: HabitHistory), judged: Judged)?
                let saved =
                    todaySnapshotReadsWindows
                    ? try savedFoldDays(habit, rules: SavedFold.rules(habit.spec, versions: habit.versions), through: lastEntry)?.days : nil
                for daysBefore in TodaySnapshot.windowDaysBeforeGrid where todaySnapshotReadsWindows && found == nil {
                    let windowFirst = gridFirst - daysBefore
                    let histories = try windowHistories(habit, from: windowFirst, today: today, saved: saved)
                    let judged = judge(histories)
                    if TodaySnapshot.windowSuffices(
                        habit.spec, versions: habit.versions, windowFirst: windowFirst, runFirsts: judged.runFirsts,
                        missAllowance: policy.missAllowance)
                    {
                        found = (histories, judged)
                    }
                    if habit.spec.startDay >= windowFirst { break }
                }
                let histories: (today: HabitHistory, tomorrow: HabitHistory)
                let judged: Judged
                if let found {
                    (histories, judged) = found
                } else {
                    histories = (try history(of: habit, through: today), try history(of: habit, through: tomorrow))
                    judged = judge(histories)
                }
                inputs.today.append(Global.Input(history: histories.today, habitId: habit.id))
                inputs.tomorrow.append(Global.Input(history: histories.tomorrow, habitId: habit.id))
                guard !habit.isArchived else { continue }
                grid.append(TodaySnapshot.GridRow(habitId: habit.id, demands: judged.row))
                for (day, line) in judged.lines {
                    if day == today { lines.today.append((habit, line)) } else { lines.tomorrow.append((habit, line)) }
                }
            }
            let gridTallies = Global.tally(inputs.today, vacations: vacations, from: gridFirst, to: today, asOf: today, weekStart: weekStart)
            let tomorrowTally = Global.tally(inputs.tomorrow, vacations: vacations, from: tomorrow, to: tomorrow, asOf: tomorrow, weekStart: weekStart)
            let ordered = { (lines: [(Habit, TodaySnapshot.Line)]) in Self.inDueOrder(lines) { $0.0 }.map(\.1) }
            let days = [
                TodaySnapshot.Day(day: today, tally: gridTallies.last ?? Global.DayTally(day: today), lines: ordered(lines.today)),
                TodaySnapshot.Day(day: tomorrow, tally: tomorrowTally.first ?? Global.DayTally(day: tomorrow), lines: ordered(lines.tomorrow)),
            ]
            return try TodaySnapshot.json(
                revision: revision, atMs: atMs, clock: clock, weekStart: weekStart, routine: try bounds.routine(atMs: atMs, clock: clock),
                days: days, changes: changes, gridFirst: gridFirst, grid: grid, gridTallies: gridTallies
            ).text + "\n"
        }
    }

    /// A habit's histories through today and through tomorrow from its days since
    /// `from` only: those of its saved fold (all its folded days, when given), else
    /// one read of a few weeks of entries, where its whole history could be years
    /// (TodaySnapshot.windowSuffices says when they judge as the whole does).
    private func windowHistories(_ habit: Habit, from: Int32, today: Int32, saved: [DayState]?) throws(HabitError) -> (
        today: HabitHistory, tomorrow: HabitHistory
    ) {
        let days: [DayState]
        if let saved {
            days = Array(saved[HistoryCache.firstIndex(in: saved, atOrAfter: from)..<HistoryCache.firstIndex(in: saved, atOrAfter: today + 2)])
        } else {
            // The fold's own read (a covering index, no notes), as the history cache reads.
            days = DayFold.sortedStates(
                try foldEntries(habit, from: from, to: today + 1), habit: habit.spec, versions: habit.versions)
        }
        // Judged as if it started at `from`: the judge walks every day from the start on.
        var spec = habit.spec
        spec.startDay = max(spec.startDay, from)
        let history = { (days: [DayState]) in
            HabitHistory(spec: spec, versions: habit.versions, archivedDay: habit.archivedDay, days: days)
        }
        return (history(days.filter { $0.day <= today }), history(days))
    }

    /// Writes the today snapshot to `path` atomically (as the shield snapshot).
    package func writeTodaySnapshot(path: String, atMs: Int64?) throws(HabitError) {
        try writeSnapshotFile(path: path) { () throws(HabitError) in try todaySnapshotText(atMs: atMs ?? now()) }
    }
}
