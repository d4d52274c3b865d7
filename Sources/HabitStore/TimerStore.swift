import HabitCore

/// Timer rows: append-only events (timer_events). A start is the timer (its id is the
/// timer's); the other events name it. The store keeps them; TimerRules folds them.
extension Store {
    /// A timer's start and every event after it, as stored.
    package struct TimerRecord: Sendable {
        package var start: TimerStart
        package var events: [TimerEvent]
    }

    /// Records a start (and logs it for sync, in the same transaction).
    package func insertTimerStart(habitId: Int64, day: Int32, atMs: Int64, autoComplete: Bool) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeTimerStart(habitId: habitId, day: day, atMs: atMs, autoComplete: autoComplete)
            try logLocal(
                .timerEvent(action: .start, subject: try requireGlobalId(.habit, habitId), day: day, autoComplete: autoComplete, atMs: atMs),
                creates: .timer, localId: id)
            return id
        }
    }

    /// Records a pause, resume, stop or discard of a timer (and logs it for sync).
    package func insertTimerEvent(timerId: Int64, action: TimerAction, atMs: Int64) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeTimerEvent(timerId: timerId, action: action, atMs: atMs)
            try logLocal(
                .timerEvent(action: action, subject: try requireGlobalId(.timer, timerId), day: 0, autoComplete: false, atMs: atMs),
                creates: .timer, localId: id)
            return id
        }
    }

    func writeTimerStart(habitId: Int64, day: Int32, atMs: Int64, autoComplete: Bool) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            "INSERT INTO timer_events(timer_id, habit_id, action, at_ms, day, auto_complete) VALUES(NULL, ?1, ?2, ?3, ?4, ?5)")
        statement.bind(1, habitId)
        statement.bind(2, Int64(TimerAction.start.rawValue))
        statement.bind(3, atMs)
        statement.bind(4, Int64(day))
        statement.bind(5, autoComplete ? 1 : 0)
        try statement.run()
        let id = db.lastInsertRowId
        try forgetSavedFold(habitId: habitId)
        return id
    }

    /// Writes an event of a known timer (its habit is the start's).
    func writeTimerEvent(timerId: Int64, action: TimerAction, atMs: Int64) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO timer_events(timer_id, habit_id, action, at_ms)
            SELECT id, habit_id, ?2, ?3 FROM timer_events WHERE id = ?1 AND timer_id IS NULL
            """)
        statement.bind(1, timerId)
        statement.bind(2, Int64(action.rawValue))
        statement.bind(3, atMs)
        try statement.run()
        guard db.changes == 1 else { throw HabitError(.notFound, "no timer \(timerId)") }
        let id = db.lastInsertRowId
        if let habitId = try db.statement("SELECT habit_id FROM timer_events WHERE id = ?1").binding(timerId).one({ $0.int(0) }) {
            try forgetSavedFold(habitId: habitId)
        }
        return id
    }

    /// A timer's events change its habit's days: the saved fold goes (the next cold
    /// read folds again), as an entry's day is folded again.
    private func forgetSavedFold(habitId: Int64) throws(HabitError) {
        try db.statement("DELETE FROM saved_folds WHERE habit_id = ?1").binding(habitId).run()
    }

    /// The largest timer event id (0: none): another connection's timer write moves it.
    package func lastTimerEventId() throws(HabitError) -> Int64 {
        try db.statement("SELECT coalesce(max(id), 0) FROM timer_events").one { $0.int(0) } ?? 0
    }

    /// One timer with its events; nil when no start has that id.
    package func timer(id: Int64) throws(HabitError) -> TimerRecord? {
        try timers(where: "s.id = ?1", id).first
    }

    /// A habit's timers whose day lies in [from, to], by id.
    package func timers(habitId: Int64, from: Int32, to: Int32) throws(HabitError) -> [TimerRecord] {
        try timers(where: "s.habit_id = ?1 AND s.day BETWEEN ?2 AND ?3", habitId, Int64(from), Int64(to))
    }

    /// Timers not ended by an event (running or paused, or ended by their target).
    package func openTimers() throws(HabitError) -> [TimerRecord] {
        try timers(
            where: "NOT EXISTS (SELECT 1 FROM timer_events e WHERE e.timer_id = s.id AND e.action IN (?1, ?2))",
            Int64(TimerAction.stop.rawValue), Int64(TimerAction.discard.rawValue))
    }

    /// A habit's timers whose latest event (its start included) is dated after an instant:
    /// those with any event after it, found by instant (timer_events_habit_at) and then by
    /// id, not by reading every timer the habit has. (Every event carries its start's
    /// habit, so the starts need no habit condition, which would lead SQLite to scan them.)
    package func timers(habitId: Int64, lastEventAfter instant: Int64) throws(HabitError) -> [TimerRecord] {
        try timers(where: "s.id IN (SELECT coalesce(e.timer_id, e.id) FROM timer_events e WHERE e.habit_id = ?1 AND e.at_ms > ?2)", habitId, instant)
    }

    /// The habit and day a timer's time counts to (its start's); nil when no start has that id.
    package func timerDay(id: Int64) throws(HabitError) -> (habitId: Int64, day: Int32)? {
        try db.statement("SELECT habit_id, day FROM timer_events WHERE id = ?1 AND timer_id IS NULL").binding(id).one { (s) throws(HabitError) in
            guard let day = Int32(exactly: s.int(1)) else { throw .corrupt("timer \(id) is damaged") }
            return (s.int(0), day)
        }
    }

    /// Every timer, by id (what sync, backups and exports carry).
    package func allTimers() throws(HabitError) -> [TimerRecord] { try timers(where: "1", nil) }

    /// Every timer event as (id, timer id or nil for a start), by id.
    package func allTimerEventIds() throws(HabitError) -> [(id: Int64, timerId: Int64?)] {
        try db.statement("SELECT id, timer_id FROM timer_events ORDER BY id").all { ($0.int(0), $0.optionalInt(1)) }
    }

    /// One timer event: its timer (nil for a start), action and instant.
    package func timerEvent(id: Int64) throws(HabitError) -> (timerId: Int64?, action: TimerAction, atMs: Int64)? {
        try db.statement("SELECT timer_id, action, at_ms FROM timer_events WHERE id = ?1").binding(id).one { (s) throws(HabitError) in
            guard let action = TimerAction(rawValue: Int32(clamping: s.int(1))) else { throw .corrupt("timer event \(id) is damaged") }
            return (s.optionalInt(0), action, s.int(2))
        }
    }

    private func timers(where condition: String, _ values: Int64?...) throws(HabitError) -> [TimerRecord] {
        let starts = try db.statement(
            text: "SELECT s.id, s.habit_id, s.day, s.at_ms, s.auto_complete FROM timer_events s WHERE s.timer_id IS NULL AND \(condition) ORDER BY s.id")
        for (index, value) in values.enumerated() { if let value { starts.bind(Int32(index + 1), value) } }
        var records = try starts.all { (s) throws(HabitError) -> TimerRecord in
            guard let day = Int32(exactly: s.int(2)) else { throw .corrupt("timer \(s.int(0)) is damaged") }
            return TimerRecord(
                start: TimerStart(id: s.int(0), habitId: s.int(1), day: day, atMs: s.int(3), autoComplete: s.int(4) != 0), events: [])
        }
        let events = try db.statement("SELECT action, at_ms FROM timer_events WHERE timer_id = ?1 ORDER BY id")
        for index in records.indices {
            events.reset()
            events.bind(1, records[index].start.id)
            records[index].events = try events.all { (s) throws(HabitError) in
                guard let action = TimerAction(rawValue: Int32(clamping: s.int(0))) else { throw .corrupt("a timer event is damaged") }
                return TimerEvent(action: action, atMs: s.int(1))
            }
        }
        return records
    }
}
