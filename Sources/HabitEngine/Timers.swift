import HabitCore
import HabitStore

extension Engine {
    /// Starts a timer on a duration habit at an instant (nil: now); its time counts to
    /// that instant's day in the store's zone and day start. Returns the timer's id.
    package func startTimer(habitId: Int64, autoComplete: Bool, atMs: Int64?) throws(HabitError) -> Int64 {
        let atMs = atMs ?? now()
        try EntryRules.validate(utcMs: atMs, field: "at_ms")
        let habit = try habit(id: habitId)
        guard habit.spec.kind == .duration else {
            throw .invalid("habit '\(habit.spec.name)' is a \(habit.spec.kind.name) habit; timers run on duration habits")
        }
        let day = try localDay(utcMs: atMs)
        if let archived = habit.archivedDay, archived <= day { throw .invalid("habit '\(habit.spec.name)' is archived") }
        let id = try store.atomically { () throws(HabitError) -> Int64 in
            let id = try store.insertTimerStart(habitId: habitId, day: day, atMs: atMs, autoComplete: autoComplete)
            try settleHabitWrite(habit: habit, day: day, causeEntryId: nil, why: .timer)
            return id
        }
        caches.histories.remove(habitId: habitId)
        return id
    }

    /// Pauses, resumes, stops or discards a timer at an instant (nil: now), checked
    /// against where it stands; returns where it stands after.
    package func actOnTimer(_ timerId: Int64, _ action: TimerAction, atMs: Int64?) throws(HabitError) -> TimerStatus {
        let atMs = atMs ?? now()
        try EntryRules.validate(utcMs: atMs, field: "at_ms")
        guard action != .start else { throw .invalid("a timer is started with its habit, not by its id") }
        let before = try timerStatus(timerId, atMs: atMs)
        try TimerRules.check(action, atMs: atMs, on: before)
        try store.atomically { () throws(HabitError) in
            _ = try store.insertTimerEvent(timerId: timerId, action: action, atMs: atMs)
            try settleHabitWrite(habit: try habit(id: before.start.habitId), day: before.start.day, causeEntryId: nil, why: .timer)
        }
        caches.histories.remove(habitId: before.start.habitId)
        return try timerStatus(timerId, atMs: atMs)
    }

    /// Where a timer stands at an instant (nil: now).
    package func timerStatus(_ timerId: Int64, atMs: Int64?) throws(HabitError) -> TimerStatus {
        let atMs = atMs ?? now()
        try EntryRules.validate(utcMs: atMs, field: "at_ms")
        guard let record = try store.timer(id: timerId) else { throw HabitError(.notFound, "no timer \(timerId)") }
        return try fold(record, habit: habit(id: record.start.habitId), atMs: atMs)
    }

    /// The timers running or paused at an instant (nil: now), oldest first.
    package func openTimers(atMs: Int64?) throws(HabitError) -> [TimerStatus] {
        let atMs = atMs ?? now()
        try EntryRules.validate(utcMs: atMs, field: "at_ms")
        var open: [TimerStatus] = []
        for record in try store.openTimers() {
            let status = try fold(record, habit: habit(id: record.start.habitId), atMs: atMs)
            if !status.state.ended { open.append(status) }
        }
        return open
    }

    func fold(_ record: Store.TimerRecord, habit: Habit, atMs: Int64) -> TimerStatus {
        TimerRules.fold(
            record.start, events: record.events, targetMs: TimerRules.targetMs(habit.spec, versions: habit.versions, day: record.start.day),
            nowMs: atMs)
    }

    /// What the day fold reads of a habit's days in [from, to]: its entries, and the
    /// amount of each of its timers stopped by now, on the timer's day (the one history
    /// read: the cache, saved folds, the snapshot and the reference all fold this).
    func foldEntries(_ habit: Habit, from: Int32, to: Int32) throws(HabitError) -> [Entry] {
        try withTimers(
            try store.foldEntries(habitId: habit.id, from: from, to: to), habitId: habit.id, spec: habit.spec, versions: habit.versions, from: from, to: to)
    }

    /// foldEntries with the timers' amounts already read (a cold fold reads them once,
    /// for its expiry too).
    func foldEntries(_ habit: Habit, from: Int32, to: Int32, amounts: [Entry]) throws(HabitError) -> [Entry] {
        Self.merged(try store.foldEntries(habitId: habit.id, from: from, to: to), amounts: amounts)
    }

    /// A habit's entries read for days in [from, to] (in day order), with its stopped
    /// timers' amounts in those days after each day's entries: every read that judges a
    /// day (day states, shields, reminders, Loop's export) reads a day through this.
    func withTimers(_ entries: [Entry], habitId: Int64, spec: HabitSpec, versions: [SettingsVersion], from: Int32, to: Int32) throws(HabitError)
        -> [Entry]
    {
        Self.merged(entries, amounts: try timerAmounts(habitId: habitId, spec: spec, versions: versions, from: from, to: to).amounts)
    }

    /// Entries in day order with timers' amounts put after each day's entries.
    private static func merged(_ entries: [Entry], amounts: [Entry]) -> [Entry] {
        guard !amounts.isEmpty else { return entries }
        return (entries + amounts).enumerated().sorted { a, b in
            a.element.day != b.element.day ? a.element.day < b.element.day : a.offset < b.offset
        }.map(\.element)
    }

    func timerAmounts(_ habit: Habit, from: Int32, to: Int32) throws(HabitError) -> (amounts: [Entry], expiresAtMs: Int64?) {
        try timerAmounts(habitId: habit.id, spec: habit.spec, versions: habit.versions, from: from, to: to)
    }

    /// The amounts a habit's timers on days in [from, to] add, folded at an instant (nil:
    /// now; TimerRules.foreseeing: as they will end) (TimerRules.amountEntries), and the
    /// first instant one of them still open can change by time alone.
    func timerAmounts(habitId: Int64, spec: HabitSpec, versions: [SettingsVersion], from: Int32, to: Int32, atMs: Int64? = nil) throws(HabitError)
        -> (amounts: [Entry], expiresAtMs: Int64?)
    {
        guard spec.kind == .duration else { return ([], nil) }
        let records = try store.timers(habitId: habitId, from: from, to: to)
        guard !records.isEmpty else { return ([], nil) }
        let nowMs = atMs ?? now()
        var expires: Int64?
        let statuses = records.map { record in
            let target = TimerRules.targetMs(spec, versions: versions, day: record.start.day)
            let status = TimerRules.fold(record.start, events: record.events, targetMs: target, nowMs: nowMs)
            if let next = TimerRules.nextChange(status, events: record.events, targetMs: target, nowMs: nowMs) { expires = min(expires ?? next, next) }
            return status
        }
        return (TimerRules.amountEntries(statuses), expires)
    }

    /// The timers part of the canonical text: each timer by global id, with its fold
    /// now (state and the seconds it adds), then its events by (instant, action, id).
    func timerCanonicalLines(_ habitIds: [Int64: GlobalId]) throws(HabitError) -> [String] {
        let nowMs = now()
        var blocks: [(GlobalId, [String])] = []
        var eventIds: [Int64: [(TimerEvent, GlobalId)]] = [:]
        for event in try store.allTimerEventIds() {
            guard let timerId = event.timerId, let id = try store.globalId(.timer, event.id),
                let row = try store.timerEvent(id: event.id)
            else { continue }
            eventIds[timerId, default: []].append((TimerEvent(action: row.action, atMs: row.atMs), id))
        }
        for record in try store.allTimers() {
            guard let id = try store.globalId(.timer, record.start.id), let habit = habitIds[record.start.habitId] else { continue }
            let status = fold(record, habit: try self.habit(id: record.start.habitId), atMs: nowMs)
            var block = [
                "timer \(id.text) habit=\(habit.text) day=\(record.start.day) at=\(record.start.atMs) auto=\(record.start.autoComplete ? 1 : 0)"
                    + " state=\(status.state.name) seconds=\(TimerRules.seconds(status))"
            ]
            let events = (eventIds[record.start.id] ?? []).sorted { a, b in
                (a.0.atMs, a.0.action.rawValue) != (b.0.atMs, b.0.action.rawValue)
                    ? (a.0.atMs, a.0.action.rawValue) < (b.0.atMs, b.0.action.rawValue) : a.1 < b.1
            }
            block += events.map { "  \($0.0.action.name) \($0.1.text) at=\($0.0.atMs)" }
            blocks.append((id, block))
        }
        return blocks.sorted { $0.0 < $1.0 }.flatMap(\.1)
    }
}
