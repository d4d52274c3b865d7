import HabitCore

/// Shield rows: rules and their versions, emergency unlocks (append-only), the
/// store's zone changes (append-only) and the shield revision the triggers keep.
extension Store {
    /// Adds a rule (and logs it for sync, in the same transaction).
    package func insertShieldRule(createdAtMs: Int64) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeShieldRule(createdAtMs: createdAtMs)
            try logLocal(.shieldRule(createdAtMs: createdAtMs), creates: .shieldRule, localId: id)
            return id
        }
    }

    func writeShieldRule(createdAtMs: Int64) throws(HabitError) -> Int64 {
        let statement = try db.statement("INSERT INTO shield_rules(created_at_ms) VALUES(?1)")
        statement.bind(1, createdAtMs)
        try statement.run()
        return db.lastInsertRowId
    }

    package func shieldRuleExists(id: Int64) throws(HabitError) -> Bool {
        let statement = try db.statement("SELECT 1 FROM shield_rules WHERE id = ?1")
        statement.bind(1, id)
        return try statement.one { _ in true } ?? false
    }

    /// Records what a rule says from a day on (replacing a version of the same day); nil removes it.
    /// Logged for sync as the last writer of the rule's version on that day.
    package func setShieldVersion(ruleId: Int64, fromDay: Int32, settings: ShieldRule.Settings?) throws(HabitError) {
        try atomically { () throws(HabitError) in
            try writeShieldVersion(ruleId: ruleId, fromDay: fromDay, settings: settings)
            try logShieldVersion(ruleId: ruleId, fromDay: fromDay, settings: settings)
        }
    }

    /// Logs a rule's version, naming the rule and its habits by global id.
    func logShieldVersion(ruleId: Int64, fromDay: Int32, settings: ShieldRule.Settings?) throws(HabitError) {
        let rule = try requireGlobalId(.shieldRule, ruleId)
        var habits: [GlobalId] = []
        for habit in settings?.habits ?? [] { habits.append(try requireGlobalId(.habit, habit)) }
        var carried = settings
        carried?.habits = []
        try logRegister(.shieldVersion(rule: rule, fromDay: fromDay, settings: carried, habits: habits), target: Self.shieldVersionTarget(rule, fromDay))
    }

    func writeShieldVersion(ruleId: Int64, fromDay: Int32, settings: ShieldRule.Settings?) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT OR REPLACE INTO shield_rule_versions(rule_id, from_day, name, key, days, start_minute, end_minute, habits, lift,
                session_lifts, cutoff_lifts, excused_lifts, fail_closed, budget_period, budget_count)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
            """)
        statement.bind(1, ruleId)
        statement.bind(2, Int64(fromDay))
        statement.bind(3, settings?.name)
        statement.bind(4, settings?.key ?? "")
        statement.bind(5, settings?.days.description ?? "daily")
        statement.bind(6, settings?.startMinute.map(Int64.init))
        statement.bind(7, settings?.endMinute.map(Int64.init))
        statement.bind(8, (settings?.habits ?? []).map(String.init).joined(separator: ","))
        statement.bind(9, Int64(settings?.lift.rawValue ?? 1))
        statement.bind(10, Int64(settings?.sessionLifts == true ? 1 : 0))
        statement.bind(11, Int64(settings?.cutoffLifts == true ? 1 : 0))
        statement.bind(12, Int64(settings?.excusedLifts == true ? 1 : 0))
        statement.bind(13, Int64(settings?.failClosed == true ? 1 : 0))
        statement.bind(14, Int64(settings?.budgetPeriod.rawValue ?? 0))
        statement.bind(15, Int64(settings?.budgetCount ?? 0))
        try statement.run()
    }

    /// Every rule with its versions, by id.
    package func shieldRules() throws(HabitError) -> [ShieldRule] {
        let statement = try db.statement(
            """
            SELECT rule_id, from_day, name, key, days, start_minute, end_minute, habits, lift, session_lifts, cutoff_lifts,
                   excused_lifts, fail_closed, budget_period, budget_count
            FROM shield_rule_versions ORDER BY rule_id, from_day
            """)
        var rules: [ShieldRule] = []
        _ = try statement.all { (s) throws(HabitError) -> Void in
            let id = s.int(0)
            var corrupt: HabitError { .corrupt("shield rule \(id) holds a value out of range") }
            guard let day = Int32(exactly: s.int(1)) else { throw corrupt }
            var settings: ShieldRule.Settings?
            if let name = s.text(2) {
                func minute(_ column: Int32) throws(HabitError) -> Int32? {
                    guard let value = s.optionalInt(column) else { return nil }
                    guard let minute = Int32(exactly: value), (0..<1440).contains(minute) else { throw corrupt }
                    return minute
                }
                var habits: [Int64] = []
                for item in (s.text(7) ?? "").unicodeScalars.split(separator: ",") {
                    guard let habit = Int64(String(item)) else { throw corrupt }
                    habits.append(habit)
                }
                guard let lift = ShieldRule.Lift(rawValue: Int32(clamping: s.int(8))),
                    let period = ShieldRule.BudgetPeriod(rawValue: Int32(clamping: s.int(13))),
                    let count = Int32(exactly: s.int(14)), count >= 0
                else { throw corrupt }
                settings = ShieldRule.Settings(
                    name: name, key: s.text(3) ?? "", days: try Schedule(parsing: s.text(4) ?? ""),
                    startMinute: try minute(5), endMinute: try minute(6), habits: habits, lift: lift,
                    sessionLifts: s.int(9) != 0, cutoffLifts: s.int(10) != 0, excusedLifts: s.int(11) != 0,
                    failClosed: s.int(12) != 0, budgetPeriod: period, budgetCount: count)
            }
            if rules.last?.id == id {
                rules[rules.count - 1].versions.append((day, settings))
            } else {
                rules.append(ShieldRule(id: id, versions: [(day, settings)]))
            }
        }
        return rules
    }

    // MARK: Emergency unlocks

    /// Records an emergency unlock (and logs it for sync, in the same transaction).
    package func insertEmergencyUnlock(ruleId: Int64, atMs: Int64, day: Int32, minutes: Int32, reason: String?) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeEmergencyUnlock(ruleId: ruleId, atMs: atMs, day: day, minutes: minutes, reason: reason)
            try logLocal(
                .emergencyUnlock(rule: try requireGlobalId(.shieldRule, ruleId), atMs: atMs, day: day, minutes: minutes, reason: reason),
                creates: .emergency, localId: id)
            return id
        }
    }

    func writeEmergencyUnlock(ruleId: Int64, atMs: Int64, day: Int32, minutes: Int32, reason: String?) throws(HabitError) -> Int64 {
        let statement = try db.statement("INSERT INTO shield_emergencies(rule_id, at_ms, day, minutes, reason) VALUES(?1, ?2, ?3, ?4, ?5)")
        statement.bind(1, ruleId)
        statement.bind(2, atMs)
        statement.bind(3, Int64(day))
        statement.bind(4, Int64(minutes))
        statement.bind(5, reason)
        try statement.run()
        return db.lastInsertRowId
    }

    /// The habit days of a rule's emergency unlocks within [from, to].
    package func emergencyDays(ruleId: Int64, from: Int32, to: Int32) throws(HabitError) -> [Int32] {
        let statement = try db.statement("SELECT day FROM shield_emergencies WHERE rule_id = ?1 AND day BETWEEN ?2 AND ?3")
        statement.bind(1, ruleId)
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        return try statement.all { Int32(clamping: $0.int(0)) }
    }

    /// (rule, habit day) of every emergency unlock on `fromDay` or later.
    package func emergencyDays(fromDay: Int32) throws(HabitError) -> [(Int64, Int32)] {
        let statement = try db.statement("SELECT rule_id, day FROM shield_emergencies WHERE day >= ?1")
        statement.bind(1, Int64(fromDay))
        return try statement.all { ($0.int(0), Int32(clamping: $0.int(1))) }
    }

    /// Emergency unlocks that can still run at or after `fromMs` (none lasts over a day).
    package func emergencyUnlocks(fromMs: Int64) throws(HabitError) -> [EmergencyUnlock] {
        let statement = try db.statement("SELECT id, rule_id, at_ms, minutes, reason FROM shield_emergencies WHERE at_ms >= ?1 ORDER BY id")
        statement.bind(1, fromMs &- 86_400_000)
        return try statement.all {
            EmergencyUnlock(id: $0.int(0), ruleId: $0.int(1), atMs: $0.int(2), minutes: Int32(clamping: $0.int(3)), reason: $0.text(4))
        }
    }

    /// Every emergency unlock with its habit day, by id (what sync carries).
    package func allEmergencyUnlocks() throws(HabitError) -> [(unlock: EmergencyUnlock, day: Int32)] {
        try db.statement("SELECT id, rule_id, at_ms, minutes, reason, day FROM shield_emergencies ORDER BY id").all { (s) throws(HabitError) in
            guard let minutes = Int32(exactly: s.int(3)), let day = Int32(exactly: s.int(5)) else { throw .corrupt("emergency unlock \(s.int(0)) is damaged") }
            return (EmergencyUnlock(id: s.int(0), ruleId: s.int(1), atMs: s.int(2), minutes: minutes, reason: s.text(4)), day)
        }
    }

    /// Every rule's creation instant, by id.
    package func shieldRuleCreations() throws(HabitError) -> [(id: Int64, createdAtMs: Int64)] {
        try db.statement("SELECT id, created_at_ms FROM shield_rules ORDER BY id").all { ($0.int(0), $0.int(1)) }
    }

    // MARK: Zone changes and the revision

    /// Records a change of zone made here and logs it for sync.
    package func insertZoneChange(atMs: Int64, from: String, to: String) throws(HabitError) {
        let id = try writeZoneChange(atMs: atMs, from: from, to: to)
        try logLocal(.zoneChange(atMs: atMs, from: from, to: to), creates: .zoneChange, localId: id)
    }

    func writeZoneChange(atMs: Int64, from: String, to: String) throws(HabitError) -> Int64 {
        let statement = try db.statement("INSERT INTO zone_changes(at_ms, from_zone, to_zone) VALUES(?1, ?2, ?3)")
        statement.bind(1, atMs)
        statement.bind(2, from)
        statement.bind(3, to)
        try statement.run()
        return db.lastInsertRowId
    }

    /// The zone's history by instant (changes merged from other devices fall in place;
    /// equal instants in one fixed order, so every replica reads the same history).
    package func zoneChanges() throws(HabitError) -> [(atMs: Int64, from: String, to: String)] {
        try zoneChangeRows().map { ($0.atMs, $0.from, $0.to) }
    }

    package func zoneChangeRows() throws(HabitError) -> [(id: Int64, atMs: Int64, from: String, to: String)] {
        try db.statement("SELECT id, at_ms, from_zone, to_zone FROM zone_changes ORDER BY at_ms, from_zone, to_zone, id").all {
            ($0.int(0), $0.int(1), $0.text(2) ?? "UTC", $0.text(3) ?? "UTC")
        }
    }

    /// The counter the writers' triggers bump plus the largest rowid of each append-only
    /// table that decides a shield: it grows with every such write, and no trigger fires
    /// on the ledger's appends (Schema.appendOnlyShieldTables). The parts come back as
    /// columns and are added here, wrapping: SQLite would turn an overflowing sum into
    /// a real, and the number need only change, never trap.
    package func shieldRevision() throws(HabitError) -> Int64 {
        let revision = try db.statement(text: Self.shieldRevisionQuery).one { (s) -> Int64 in
            (0...Int32(Schema.appendOnlyShieldTables.count)).reduce(0) { $0 &+ (s.optionalInt($1) ?? 0) }
        }
        guard let revision else { throw .corrupt("the shield revision's counter row is missing") }
        return revision
    }

    // One row of columns, no coalesce: a third less for SQLite to prepare, which a
    // cold reader does at every ask.
    private static let shieldRevisionQuery =
        "SELECT value"
        + Schema.appendOnlyShieldTables.map { ", (SELECT max(rowid) FROM \($0))" }.joined() + " FROM shield_revision WHERE id = 1"

    /// Moves the revision by hand, for rows written with their own ids (a restore),
    /// which need not raise a table's largest rowid.
    package func bumpShieldRevision() throws(HabitError) {
        try db.execute("UPDATE shield_revision SET value = value + 1")
    }
}
