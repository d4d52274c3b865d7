import HabitCore

/// The awards' rows: the catalogue, unlocks, referral redemptions, events and
/// their acknowledgements. Only the catalogue is ever replaced; the rest is
/// append-only (triggers refuse changes).
extension Store {
    // MARK: The catalogue

    /// Replaces the catalogue (inside the caller's transaction).
    static func writeAwardRules(_ rules: [AwardRule], into db: Database) throws(HabitError) {
        try db.execute("DELETE FROM award_rules")
        let statement = try db.statement(
            """
            INSERT INTO award_rules(position, id, title, description, icon, tier, metric, scope, habit_id, threshold)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            """)
        for (position, rule) in rules.enumerated() {
            statement.bind(1, Int64(position + 1))
            bindRule(statement, rule, from: 2)
            try statement.run()
        }
    }

    package func replaceAwardRules(_ rules: [AwardRule]) throws(HabitError) {
        try Store.writeAwardRules(rules, into: db)
    }

    package func awardRules() throws(HabitError) -> [AwardRule] {
        try db.statement(
            """
            SELECT id, title, description, icon, tier, metric, scope, habit_id, threshold FROM award_rules ORDER BY position
            """
        ).all { (s) throws(HabitError) -> AwardRule in try Store.readRule(s, from: 0) }
    }

    /// Binds id, title, description, icon, tier, metric, scope, habit_id, threshold from `first` on.
    private static func bindRule(_ statement: Statement, _ rule: AwardRule, from first: Int32) {
        statement.bind(first, rule.id)
        statement.bind(first + 1, rule.title)
        statement.bind(first + 2, rule.description)
        statement.bind(first + 3, rule.icon)
        statement.bind(first + 4, Int64(rule.tier))
        statement.bind(first + 5, Int64(rule.metric.rawValue))
        statement.bind(first + 6, Int64(rule.scope.code))
        statement.bind(first + 7, rule.scope.habitId)
        statement.bind(first + 8, rule.threshold)
    }

    private static func readRule(_ s: Statement, from first: Int32) throws(HabitError) -> AwardRule {
        guard let id = s.text(first), let title = s.text(first + 1), let tier = Int32(exactly: s.int(first + 4)),
            let metric = AwardMetric(rawValue: Int32(clamping: s.int(first + 5))),
            let scope = AwardScope(code: Int32(clamping: s.int(first + 6)), habitId: s.optionalInt(first + 7))
        else { throw .corrupt("an award rule holds a value out of range") }
        return AwardRule(
            id: id, title: title, description: s.text(first + 2) ?? "", icon: s.text(first + 3) ?? "", tier: tier,
            metric: metric, scope: scope, threshold: s.int(first + 8))
    }

    // MARK: Unlocks

    /// Records an unlock made here and logs it for sync.
    package func insertAwardUnlock(_ unlock: AwardUnlock) throws(HabitError) -> Int64 {
        let id = try writeAwardUnlock(unlock)
        try logAwardUnlock(unlock, id: id)
        return id
    }

    func writeAwardUnlock(_ unlock: AwardUnlock) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO award_unlocks(rule_id, title, description, icon, tier, metric, scope, habit_id, threshold,
                                      day, at_ms, cause_kind, cause_id, cause_habit_id)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
            """)
        Store.bindRule(statement, unlock.rule, from: 1)
        statement.bind(10, Int64(unlock.day))
        statement.bind(11, unlock.atMs)
        statement.bind(12, Int64(unlock.causeKind.rawValue))
        statement.bind(13, unlock.causeId)
        statement.bind(14, unlock.causeHabitId)
        try statement.run()
        return db.lastInsertRowId
    }

    /// Every award's unlock that stands, in the order they were recorded. A replica
    /// holds every device's unlock of an award (sync keeps them all); the one that
    /// stands is the one SyncMerge.standsOver picks: the earliest crossing day.
    package func awardUnlocks() throws(HabitError) -> [AwardUnlock] {
        Self.standing(try allAwardUnlocks())
    }

    /// Of unlock rows (allAwardUnlocks), the one that stands per award, in id order.
    package static func standing(_ rows: [(unlock: AwardUnlock, id: GlobalId?)]) -> [AwardUnlock] {
        var standing: [String: (unlock: AwardUnlock, id: GlobalId?)] = [:]
        for row in rows {
            if let held = standing[row.unlock.rule.id],
                !SyncMerge.standsOver(day: row.unlock.day, id: row.id, over: (held.unlock.day, held.id))
            {
                continue
            }
            standing[row.unlock.rule.id] = row
        }
        return standing.values.map(\.unlock).sorted { $0.id < $1.id }
    }

    /// Every unlock row with its global id (nil before an older store's backfill), in id order.
    package func allAwardUnlocks() throws(HabitError) -> [(unlock: AwardUnlock, id: GlobalId?)] {
        let statement = try db.statement(
            """
            SELECT u.rule_id, u.title, u.description, u.icon, u.tier, u.metric, u.scope, u.habit_id, u.threshold,
                   u.id, u.day, u.at_ms, u.cause_kind, u.cause_id, u.cause_habit_id, r.replica, o.seq
            FROM award_unlocks u LEFT JOIN sync_ops o ON o.kind = ?1 AND o.local_id = u.id LEFT JOIN sync_replicas r ON r.num = o.rep
            ORDER BY u.id
            """)
        statement.bind(1, SyncKind.awardUnlock.rawValue)
        return try statement.all { (s) throws(HabitError) -> (unlock: AwardUnlock, id: GlobalId?) in
            guard let day = Int32(exactly: s.int(10)), let cause = AwardUnlock.CauseKind(rawValue: Int32(clamping: s.int(12))) else {
                throw .corrupt("award unlock \(s.int(9)) holds a value out of range")
            }
            let unlock = AwardUnlock(
                id: s.int(9), rule: try Store.readRule(s, from: 0), day: day, atMs: s.int(11), causeKind: cause,
                causeId: s.optionalInt(13), causeHabitId: s.optionalInt(14))
            return (unlock, s.optionalInt(16) == nil ? nil : GlobalId(replica: s.blob(15), seq: s.int(16)))
        }
    }

    // MARK: What awards count

    /// Every credit earning of every account (CreditEntry.isEarning), as (day, id, minutes).
    package func creditEarnings() throws(HabitError) -> [AwardFacts.Counted] {
        var result: [AwardFacts.Counted] = []
        for account in try creditAccounts() {
            for entry in try creditEntries(accountId: account.id) where entry.isEarning {
                result.append(AwardFacts.Counted(day: entry.day, id: entry.id, amount: entry.minutes))
            }
        }
        return result
    }

    package func referralRedemptions() throws(HabitError) -> [AwardFacts.Counted] {
        try db.statement("SELECT day, id, 1 FROM referral_redemptions ORDER BY day, id").all(Store.readCounted)
    }

    private static func readCounted(_ s: Statement) throws(HabitError) -> AwardFacts.Counted {
        guard let day = Int32(exactly: s.int(0)) else { throw .corrupt("a stored day is out of range") }
        return AwardFacts.Counted(day: day, id: s.int(1), amount: s.int(2))
    }

    /// Records a redeemed code; a code already redeemed is a conflict.
    package func insertReferralRedemption(code: String, day: Int32, atMs: Int64) throws(HabitError) -> Int64 {
        let statement = try db.statement("INSERT INTO referral_redemptions(code, day, at_ms) VALUES(?1, ?2, ?3)")
        statement.bind(1, code)
        statement.bind(2, Int64(day))
        statement.bind(3, atMs)
        do throws(HabitError) { try statement.run() } catch  where error.code == .conflict {
            throw .conflict("the code \(code) was already redeemed")
        }
        return db.lastInsertRowId
    }

    // MARK: Events

    /// Records an event unless one with the same key exists; true when it was recorded.
    package func insertEvent(_ event: HabitEvent, key: String) throws(HabitError) -> Bool {
        let statement = try db.statement(
            """
            INSERT INTO events(kind, key, day, at_ms, habit_id, entry_id, award_id, value) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT(key) DO NOTHING
            """)
        statement.bind(1, Int64(event.kind.rawValue))
        statement.bind(2, key)
        statement.bind(3, Int64(event.day))
        statement.bind(4, event.atMs)
        statement.bind(5, event.habitId)
        statement.bind(6, event.entryId)
        statement.bind(7, event.awardId)
        statement.bind(8, event.value)
        try statement.run()
        return db.changes > 0
    }

    /// Events with id > afterId, oldest first, at most `limit`; only those no
    /// reader acknowledged when `unacknowledgedOnly`.
    package func events(after afterId: Int64, limit: Int64, unacknowledgedOnly: Bool) throws(HabitError) -> [HabitEvent] {
        let statement = try db.statement(
            """
            SELECT e.id, e.kind, e.day, e.at_ms, e.habit_id, e.entry_id, e.award_id, e.value, a.event_id IS NOT NULL
            FROM events e LEFT JOIN event_acks a ON a.event_id = e.id
            WHERE e.id > ?1 AND (?2 = 0 OR a.event_id IS NULL) ORDER BY e.id LIMIT ?3
            """)
        statement.bind(1, afterId)
        statement.bind(2, unacknowledgedOnly ? 1 : 0)
        statement.bind(3, limit)
        return try statement.all { (s) throws(HabitError) -> HabitEvent in
            guard let kind = HabitEvent.Kind(rawValue: Int32(clamping: s.int(1))), let day = Int32(exactly: s.int(2)) else {
                throw .corrupt("event \(s.int(0)) holds a value out of range")
            }
            return HabitEvent(
                id: s.int(0), kind: kind, day: day, atMs: s.int(3), habitId: s.optionalInt(4), entryId: s.optionalInt(5),
                awardId: s.text(6), value: s.double(7), acknowledged: s.int(8) != 0)
        }
    }

    package func acknowledgeEvent(id: Int64, atMs: Int64) throws(HabitError) {
        let statement = try db.statement("INSERT INTO event_acks(event_id, at_ms) VALUES(?1, ?2)")
        statement.bind(1, id)
        statement.bind(2, atMs)
        try statement.run()
    }

    /// Whether a habit has a milestone event of at least `length` on or after `day`
    /// (that run already announced it).
    package func hasMilestone(habitId: Int64, atLeast length: Int64, since day: Int32) throws(HabitError) -> Bool {
        let statement = try db.statement("SELECT 1 FROM events WHERE habit_id = ?1 AND kind = ?2 AND value >= ?3 AND day >= ?4 LIMIT 1")
        statement.bind(1, habitId)
        statement.bind(2, Int64(HabitEvent.Kind.streakMilestone.rawValue))
        statement.bind(3, Double(length))
        statement.bind(4, Int64(day))
        return try statement.one { _ in true } ?? false
    }

    /// The habits and days entries after `afterId` were appended to, days >= fromDay.
    package func daysTouched(afterEntry afterId: Int64, fromDay: Int32) throws(HabitError) -> [(habitId: Int64, day: Int32)] {
        let statement = try db.statement("SELECT DISTINCT habit_id, day FROM entries WHERE id > ?1 AND day >= ?2 ORDER BY habit_id, day")
        statement.bind(1, afterId)
        statement.bind(2, Int64(fromDay))
        return try statement.all { (s) throws(HabitError) -> (habitId: Int64, day: Int32) in
            guard let day = Int32(exactly: s.int(1)) else { throw .corrupt("an entry's day is out of range") }
            return (s.int(0), day)
        }
    }

    package func lastEntryId() throws(HabitError) -> Int64 {
        try db.statement("SELECT coalesce(max(id), 0) FROM entries").one { $0.int(0) } ?? 0
    }
}
