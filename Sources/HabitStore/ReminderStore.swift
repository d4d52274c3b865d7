import HabitCore

/// Reminder rows: rules and their versions, quiet hours, snoozes, deliveries.
/// Snoozes and deliveries are append-only; a delivery is unique per rule, day
/// and instant, so inserting one is how a process claims it.
extension Store {
    // MARK: Rules

    package func insertReminderRule(habitId: Int64, createdAtMs: Int64) throws(HabitError) -> Int64 {
        let statement = try db.statement("INSERT INTO reminder_rules(habit_id, created_at_ms) VALUES(?1, ?2)")
        statement.bind(1, habitId)
        statement.bind(2, createdAtMs)
        try statement.run()
        return db.lastInsertRowId
    }

    /// Records what a rule says from a day on (replacing a version of the same day); nil removes it.
    package func setReminderVersion(ruleId: Int64, fromDay: Int32, settings: ReminderRule.Settings?) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT INTO reminder_rule_versions(rule_id, from_day, minute, weekdays, message, quiet) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT(rule_id, from_day) DO UPDATE SET minute = excluded.minute, weekdays = excluded.weekdays,
                message = excluded.message, quiet = excluded.quiet
            """)
        statement.bind(1, ruleId)
        statement.bind(2, Int64(fromDay))
        statement.bind(3, settings.map { Int64($0.minute) })
        statement.bind(4, Int64(settings?.weekdays ?? 0))
        statement.bind(5, settings?.message)
        statement.bind(6, Int64(settings?.quiet.rawValue ?? ReminderRule.QuietMode.deferToEnd.rawValue))
        try statement.run()
    }

    /// Every rule with its versions, of one habit or (nil) all, by id.
    package func reminderRules(habitId: Int64?) throws(HabitError) -> [ReminderRule] {
        let statement = try db.statement(
            """
            SELECT r.id, r.habit_id, v.from_day, v.minute, v.weekdays, v.message, v.quiet
            FROM reminder_rules r JOIN reminder_rule_versions v ON v.rule_id = r.id
            WHERE ?1 IS NULL OR r.habit_id = ?1 ORDER BY r.id, v.from_day
            """)
        statement.bind(1, habitId)
        var rules: [ReminderRule] = []
        var spans: [DatedSpans<ReminderRule.Settings?>.Span] = []
        func close() {
            if !spans.isEmpty, var last = rules.popLast() {
                last.versions = DatedSpans(spans)
                rules.append(last)
            }
            spans = []
        }
        _ = try statement.all { (s) throws(HabitError) -> Void in
            let id = s.int(0)
            if rules.last?.id != id {
                close()
                rules.append(ReminderRule(id: id, habitId: s.int(1), versions: DatedSpans([])))
            }
            guard let day = Int32(exactly: s.int(2)), let weekdays = UInt8(exactly: s.int(4)),
                let quiet = ReminderRule.QuietMode(rawValue: Int32(clamping: s.int(6)))
            else { throw .corrupt("reminder rule \(id) holds a value out of range") }
            var settings: ReminderRule.Settings?
            if let minute = s.optionalInt(3) {
                // The ranges the plan relies on; the message was checked when written.
                guard let minute = Int32(exactly: minute), (0..<1440).contains(minute), weekdays & 0x80 == 0 else {
                    throw .corrupt("reminder rule \(id) holds a value out of range")
                }
                settings = ReminderRule.Settings(minute: minute, weekdays: weekdays, message: s.text(5), quiet: quiet)
            }
            spans.append(.init(fromDay: day, value: settings))
        }
        close()
        return rules
    }

    /// Entries with from <= day <= to of the habits that have reminder rules, by
    /// habit and day, each day's in append order: one statement, each habit read
    /// through its (habit, day) index, in that index's order.
    package func entriesOfRemindedHabits(from: Int32, to: Int32) throws(HabitError) -> [Entry] {
        let statement = try db.statement(
            text:
                """
                SELECT \(Store.entryColumns) FROM entries
                WHERE habit_id IN (SELECT DISTINCT habit_id FROM reminder_rules) AND day BETWEEN ?1 AND ?2 ORDER BY habit_id, day, id
                """)
        statement.bind(1, Int64(from))
        statement.bind(2, Int64(to))
        return try statement.all(readEntry)
    }

    /// Entries with from <= day <= to of the habits listed, by habit and day, each
    /// day's in append order: one statement however many habits.
    package func entries(habitIds: [Int64], from: Int32, to: Int32) throws(HabitError) -> [Entry] {
        guard !habitIds.isEmpty else { return [] }
        let statement = try db.statement(
            text:
                """
                SELECT \(Store.entryColumns) FROM entries
                WHERE habit_id IN (SELECT value FROM json_each(?3)) AND day BETWEEN ?1 AND ?2 ORDER BY habit_id, day, id
                """)
        statement.bind(1, Int64(from))
        statement.bind(2, Int64(to))
        statement.bind(3, "[" + habitIds.map(String.init).joined(separator: ",") + "]")
        return try statement.all(readEntry)
    }

    package func reminderRuleHabit(ruleId: Int64) throws(HabitError) -> Int64? {
        let statement = try db.statement("SELECT habit_id FROM reminder_rules WHERE id = ?1")
        statement.bind(1, ruleId)
        return try statement.one { $0.int(0) }
    }

    // MARK: Quiet hours

    package func setQuietHours(fromDay: Int32, _ hours: QuietHours?) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT INTO quiet_hours(from_day, start_minute, end_minute) VALUES(?1, ?2, ?3)
            ON CONFLICT(from_day) DO UPDATE SET start_minute = excluded.start_minute, end_minute = excluded.end_minute
            """)
        statement.bind(1, Int64(fromDay))
        statement.bind(2, hours.map { Int64($0.start) })
        statement.bind(3, hours.map { Int64($0.end) })
        try statement.run()
    }

    package func quietHours() throws(HabitError) -> DatedSpans<QuietHours?> {
        DatedSpans(
            try db.statement("SELECT from_day, start_minute, end_minute FROM quiet_hours ORDER BY from_day").all {
                (s) throws(HabitError) -> DatedSpans<QuietHours?>.Span in
                guard let day = Int32(exactly: s.int(0)) else { throw .corrupt("quiet hours hold a day out of range") }
                guard let start = s.optionalInt(1), let end = s.optionalInt(2) else { return .init(fromDay: day, value: nil) }
                do throws(HabitError) {
                    return .init(fromDay: day, value: try QuietHours(start: Int32(clamping: start), end: Int32(clamping: end)))
                } catch {
                    throw .corrupt("stored quiet hours: \(error.message)")
                }
            })
    }

    // MARK: Snoozes and deliveries

    /// Records a snooze; false when the same one was recorded already.
    package func insertReminderSnooze(_ snooze: ReminderPlan.Snooze, recordedAtMs: Int64) throws(HabitError) -> Bool {
        let statement = try db.statement(
            """
            INSERT INTO reminder_snoozes(rule_id, day, from_ms, at_ms, recorded_at_ms) VALUES(?1, ?2, ?3, ?4, ?5)
            ON CONFLICT(rule_id, day, at_ms) DO NOTHING
            """)
        statement.bind(1, snooze.ruleId)
        statement.bind(2, Int64(snooze.day))
        statement.bind(3, snooze.fromMs)
        statement.bind(4, snooze.atMs)
        statement.bind(5, recordedAtMs)
        try statement.run()
        return db.changes > 0
    }

    /// Snoozes whose new instant lies in [fromMs, toMs).
    package func reminderSnoozes(fromMs: Int64, toMs: Int64) throws(HabitError) -> [ReminderPlan.Snooze] {
        let statement = try db.statement("SELECT rule_id, day, from_ms, at_ms FROM reminder_snoozes WHERE at_ms >= ?1 AND at_ms < ?2 ORDER BY id")
        statement.bind(1, fromMs)
        statement.bind(2, toMs)
        return try statement.all { (s) throws(HabitError) -> ReminderPlan.Snooze in
            guard let day = Int32(exactly: s.int(1)) else { throw .corrupt("a snooze holds a day out of range") }
            return ReminderPlan.Snooze(ruleId: s.int(0), day: day, fromMs: s.int(2), atMs: s.int(3))
        }
    }

    /// Records a delivery; false when it was recorded already (by this or another process).
    package func insertReminderDelivery(_ key: ReminderPlan.Key, firedAtMs: Int64) throws(HabitError) -> Bool {
        let statement = try db.statement(
            """
            INSERT INTO reminder_deliveries(rule_id, day, at_ms, fired_at_ms) VALUES(?1, ?2, ?3, ?4)
            ON CONFLICT(rule_id, day, at_ms) DO NOTHING
            """)
        statement.bind(1, key.ruleId)
        statement.bind(2, Int64(key.day))
        statement.bind(3, key.atMs)
        statement.bind(4, firedAtMs)
        try statement.run()
        return db.changes > 0
    }

    /// The deliveries of instants in [fromMs, toMs).
    package func reminderDeliveries(fromMs: Int64, toMs: Int64) throws(HabitError) -> Set<ReminderPlan.Key> {
        let statement = try db.statement("SELECT rule_id, day, at_ms FROM reminder_deliveries WHERE at_ms >= ?1 AND at_ms < ?2")
        statement.bind(1, fromMs)
        statement.bind(2, toMs)
        return Set(
            try statement.all { (s) throws(HabitError) -> ReminderPlan.Key in
                guard let day = Int32(exactly: s.int(1)) else { throw .corrupt("a reminder delivery holds a day out of range") }
                return ReminderPlan.Key(ruleId: s.int(0), day: day, atMs: s.int(2))
            })
    }
}
