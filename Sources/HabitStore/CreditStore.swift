import HabitCore

/// The credit ledger's rows: accounts, rules, entries, step reports and unlock
/// sessions. Every table but the accounts is append-only (triggers refuse the rest).
extension Store {
    /// The instant through which every change time alone made to a rewarded habit's
    /// timers has been settled (Engine.settleTimeChangedCredits): a local setting, which
    /// no shield reads, so its writes leave the shield revision (installWriterTriggers).
    package static let timerCreditsSettledKey = "timer_credits_settled_ms"

    package struct CreditAccount: Equatable, Sendable {
        package var id: Int64
        package var name: String
    }

    package struct UnlockSession: Equatable, Sendable {
        package var id: Int64
        package var accountId: Int64
        package var minutes: Int64
        package var startMs: Int64
        package var endMs: Int64
        package var reason: String?
    }

    // MARK: Accounts

    package func insertCreditAccount(name: String, createdAtMs: Int64) throws(HabitError) -> Int64 {
        let id = try writeCreditAccount(name: name, createdAtMs: createdAtMs)
        try logLocal(.creditAccount(name: name, createdAtMs: createdAtMs), creates: .creditAccount, localId: id)
        return id
    }

    func writeCreditAccount(name: String, createdAtMs: Int64) throws(HabitError) -> Int64 {
        let statement = try db.statement("INSERT INTO credit_accounts(name, created_at_ms) VALUES(?1, ?2)")
        statement.bind(1, name)
        statement.bind(2, createdAtMs)
        do throws(HabitError) { try statement.run() } catch  where error.code == .conflict {
            throw .conflict("an account is already named '\(name)'")
        }
        return db.lastInsertRowId
    }

    package func creditAccount(id: Int64) throws(HabitError) -> CreditAccount? {
        let statement = try db.statement("SELECT id, name FROM credit_accounts WHERE id = ?1")
        statement.bind(1, id)
        return try statement.one(readAccount)
    }

    package func creditAccount(named name: String) throws(HabitError) -> CreditAccount? {
        let statement = try db.statement("SELECT id, name FROM credit_accounts WHERE name = ?1 COLLATE NOCASE")
        statement.bind(1, name)
        return try statement.one(readAccount)
    }

    private func readAccount(_ s: Statement) throws(HabitError) -> CreditAccount {
        guard let name = s.text(1) else { throw .corrupt("credit account \(s.int(0)) has no name") }
        return CreditAccount(id: s.int(0), name: name)
    }

    // MARK: Rules

    /// Records a rule and logs it for sync (the last writer wins per account, kind, habit and day).
    package func insertCreditRule(
        accountId: Int64, kind: CreditRule.Kind, habitId: Int64?, value: Int64, fromDay: Int32,
        recordedAtMs: Int64
    ) throws(HabitError) -> Int64 {
        let id = try writeCreditRule(accountId: accountId, kind: kind, habitId: habitId, value: value, fromDay: fromDay, recordedAtMs: recordedAtMs)
        try logCreditRule(CreditRule(id: id, accountId: accountId, kind: kind, habitId: habitId, value: value, fromDay: fromDay), recordedAtMs: recordedAtMs)
        return id
    }

    func writeCreditRule(
        accountId: Int64, kind: CreditRule.Kind, habitId: Int64?, value: Int64, fromDay: Int32,
        recordedAtMs: Int64
    ) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO credit_rules(account_id, kind, habit_id, value, from_day, recorded_at_ms) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
            """)
        statement.bind(1, accountId)
        statement.bind(2, Int64(kind.rawValue))
        statement.bind(3, habitId)
        statement.bind(4, value)
        statement.bind(5, Int64(fromDay))
        statement.bind(6, recordedAtMs)
        try statement.run()
        return db.lastInsertRowId
    }

    /// Every rule of an account with when it was recorded, in id order.
    package func creditRulesRecorded(accountId: Int64) throws(HabitError) -> [(rule: CreditRule, recordedAtMs: Int64)] {
        let statement = try db.statement("SELECT id, recorded_at_ms FROM credit_rules WHERE account_id = ?1 ORDER BY id")
        statement.bind(1, accountId)
        var recorded: [Int64: Int64] = [:]
        _ = try statement.all { (s) throws(HabitError) -> Void in recorded[s.int(0)] = s.int(1) }
        return try creditRules(accountId: accountId).map { ($0, recorded[$0.id] ?? 0) }
    }

    /// The days of a habit that hold an entry or a timer, from a day on (what a changed
    /// reward re-settles).
    package func recordedDays(habitId: Int64, from: Int32) throws(HabitError) -> [Int32] {
        let statement = try db.statement(
            """
            SELECT day FROM entries WHERE habit_id = ?1 AND day >= ?2
            UNION SELECT day FROM timer_events WHERE timer_id IS NULL AND habit_id = ?1 AND day >= ?2 ORDER BY day
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(from))
        return try statement.all { (s) throws(HabitError) -> Int32 in
            guard let day = Int32(exactly: s.int(0)) else { throw .corrupt("a stored day is out of range") }
            return day
        }
    }

    package func creditRules(accountId: Int64) throws(HabitError) -> [CreditRule] {
        let statement = try db.statement("SELECT id, account_id, kind, habit_id, value, from_day FROM credit_rules WHERE account_id = ?1 ORDER BY id")
        statement.bind(1, accountId)
        return try statement.all { (s) throws(HabitError) -> CreditRule in
            guard let kind = CreditRule.Kind(rawValue: Int32(clamping: s.int(2))), let day = Int32(exactly: s.int(5)) else {
                throw .corrupt("credit rule \(s.int(0)) is out of range")
            }
            return CreditRule(id: s.int(0), accountId: s.int(1), kind: kind, habitId: s.optionalInt(3), value: s.int(4), fromDay: day)
        }
    }

    /// The habits any account rewards, and for one habit the accounts that do.
    package func rewardedHabitIds() throws(HabitError) -> Set<Int64> {
        let statement = try db.statement("SELECT DISTINCT habit_id FROM credit_rules WHERE kind = ?1 AND habit_id IS NOT NULL")
        statement.bind(1, Int64(CreditRule.Kind.habitMinutes.rawValue))
        return Set(try statement.all { $0.int(0) })
    }

    /// The habits any account rewards that have a timer (what time alone can change).
    package func rewardedTimedHabitIds() throws(HabitError) -> [Int64] {
        let statement = try db.statement(
            """
            SELECT DISTINCT r.habit_id FROM credit_rules r
            WHERE r.kind = ?1 AND EXISTS (SELECT 1 FROM timer_events t WHERE t.habit_id = r.habit_id AND t.timer_id IS NULL)
            ORDER BY r.habit_id
            """)
        statement.bind(1, Int64(CreditRule.Kind.habitMinutes.rawValue))
        return try statement.all { $0.int(0) }
    }

    package func accountsRewarding(habitId: Int64, day: Int32) throws(HabitError) -> [Int64] {
        let statement = try db.statement(
            """
            SELECT account_id FROM credit_rules WHERE kind = ?1 AND habit_id = ?2
            UNION SELECT account_id FROM credit_entries WHERE habit_id = ?2 AND day = ?3
            """)
        statement.bind(1, Int64(CreditRule.Kind.habitMinutes.rawValue))
        statement.bind(2, habitId)
        statement.bind(3, Int64(day))
        return try statement.all { $0.int(0) }
    }

    // MARK: Entries

    private static let creditColumns = "id, account_id, kind, minutes, day, at_ms, reason, cause, cause_id, habit_id, steps"

    /// Appends an entry; a fact (CreditEntry.isFact) is logged for sync too.
    package func insertCreditEntry(_ entry: CreditEntry) throws(HabitError) -> Int64 {
        let id = try writeCreditEntry(entry)
        if entry.isFact {
            guard let account = try creditAccount(id: entry.accountId) else { throw .notFound("no credit account with id \(entry.accountId)") }
            try logLocal(
                .credit(account: account.name, kind: entry.kind, minutes: entry.minutes, day: entry.day, atMs: entry.atMs, reason: entry.reason),
                creates: .credit, localId: id)
        }
        return id
    }

    func writeCreditEntry(_ entry: CreditEntry) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO credit_entries(account_id, kind, minutes, day, at_ms, reason, cause, cause_id, habit_id, steps)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            """)
        statement.bind(1, entry.accountId)
        statement.bind(2, Int64(entry.kind.rawValue))
        statement.bind(3, entry.minutes)
        statement.bind(4, Int64(entry.day))
        statement.bind(5, entry.atMs)
        statement.bind(6, entry.reason)
        statement.bind(7, Int64(entry.cause.rawValue))
        statement.bind(8, entry.causeId)
        statement.bind(9, entry.habitId)
        statement.bind(10, entry.steps)
        try statement.run()
        return db.lastInsertRowId
    }

    /// An account's entries with from <= day <= to, in append order.
    package func creditEntries(accountId: Int64, from: Int32 = CivilDate.minDay, to: Int32 = CivilDate.maxDay) throws(HabitError) -> [CreditEntry] {
        let statement = try db.statement(
            text:
                """
                SELECT \(Store.creditColumns) FROM credit_entries WHERE account_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY id
                """)
        statement.bind(1, accountId)
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        return try statement.all { (s) throws(HabitError) -> CreditEntry in
            guard let kind = CreditKind(rawValue: Int32(clamping: s.int(2))), let cause = CreditCause(rawValue: Int32(clamping: s.int(7))),
                let day = Int32(exactly: s.int(4))
            else { throw .corrupt("credit entry \(s.int(0)) is out of range") }
            return CreditEntry(
                id: s.int(0), accountId: s.int(1), kind: kind, minutes: s.int(3), day: day, atMs: s.int(5), reason: s.text(6),
                cause: cause, causeId: s.optionalInt(8), habitId: s.optionalInt(9), steps: s.optionalInt(10))
        }
    }

    /// Minutes an account holds for one habit's day (its earn minus its reversals).
    package func habitCredit(accountId: Int64, habitId: Int64, day: Int32) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            SELECT coalesce(sum(minutes), 0) FROM credit_entries WHERE account_id = ?1 AND habit_id = ?2 AND day = ?3 AND cause = ?4
            """)
        statement.bind(1, accountId)
        statement.bind(2, habitId)
        statement.bind(3, Int64(day))
        statement.bind(4, Int64(CreditCause.habitEntry.rawValue))
        return try statement.one { $0.int(0) } ?? 0
    }

    /// Minutes an account earned from steps on a day.
    package func stepCredit(accountId: Int64, day: Int32) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            SELECT coalesce(sum(minutes), 0) FROM credit_entries WHERE account_id = ?1 AND day = ?2 AND cause = ?3
            """)
        statement.bind(1, accountId)
        statement.bind(2, Int64(day))
        statement.bind(3, Int64(CreditCause.steps.rawValue))
        return try statement.one { $0.int(0) } ?? 0
    }

    // MARK: Step reports

    /// Appends a step report and logs it for sync.
    package func insertStepReport(accountId: Int64, day: Int32, steps: Int64, atMs: Int64) throws(HabitError) {
        let id = try writeStepReport(accountId: accountId, day: day, steps: steps, atMs: atMs)
        guard let account = try creditAccount(id: accountId) else { throw .notFound("no credit account with id \(accountId)") }
        try logLocal(.steps(account: account.name, day: day, steps: steps, atMs: atMs), creates: .steps, localId: id)
    }

    func writeStepReport(accountId: Int64, day: Int32, steps: Int64, atMs: Int64) throws(HabitError) -> Int64 {
        let statement = try db.statement("INSERT INTO credit_steps(account_id, day, steps, at_ms) VALUES(?1, ?2, ?3, ?4)")
        statement.bind(1, accountId)
        statement.bind(2, Int64(day))
        statement.bind(3, steps)
        statement.bind(4, atMs)
        try statement.run()
        return db.lastInsertRowId
    }

    /// An account's step reports, in id order.
    package func stepReports(accountId: Int64) throws(HabitError) -> [(id: Int64, day: Int32, steps: Int64, atMs: Int64)] {
        let statement = try db.statement("SELECT id, day, steps, at_ms FROM credit_steps WHERE account_id = ?1 ORDER BY id")
        statement.bind(1, accountId)
        return try statement.all { (s) throws(HabitError) in
            guard let day = Int32(exactly: s.int(1)) else { throw .corrupt("step report \(s.int(0)) is out of range") }
            return (s.int(0), day, s.int(2), s.int(3))
        }
    }

    /// Every credit account, in id order.
    package func creditAccounts() throws(HabitError) -> [CreditAccount] {
        try db.statement("SELECT id, name FROM credit_accounts ORDER BY id").all(readAccount)
    }

    /// The highest step total reported for each day in [from, to].
    package func stepTotals(accountId: Int64, from: Int32, to: Int32) throws(HabitError) -> [Int32: Int64] {
        let statement = try db.statement(
            """
            SELECT day, max(steps) FROM credit_steps WHERE account_id = ?1 AND day BETWEEN ?2 AND ?3 GROUP BY day
            """)
        statement.bind(1, accountId)
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        var result: [Int32: Int64] = [:]
        for (day, steps) in try statement.all({ ($0.int(0), $0.int(1)) }) {
            guard let day = Int32(exactly: day) else { throw .corrupt("a step report's day is out of range") }
            result[day] = steps
        }
        return result
    }

    // MARK: Unlock sessions

    package func insertSession(accountId: Int64, minutes: Int64, startMs: Int64, endMs: Int64, reason: String?) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO unlock_sessions(account_id, minutes, start_ms, end_ms, reason) VALUES(?1, ?2, ?3, ?4, ?5)
            """)
        statement.bind(1, accountId)
        statement.bind(2, minutes)
        statement.bind(3, startMs)
        statement.bind(4, endMs)
        statement.bind(5, reason)
        try statement.run()
        return db.lastInsertRowId
    }
}

extension Store {
    /// An account's sessions as bought (the time of their spend), with their early
    /// ends, in the order bought: what UnlockTimeline folds.
    package func sessionPurchases(accountId: Int64) throws(HabitError) -> [UnlockTimeline.Purchase] {
        let statement = try db.statement(text: Self.accountPurchasesQuery)
        statement.bind(1, accountId)
        return try statement.all(Self.readPurchase)
    }

    /// Every account's session purchases, each account's in the order bought: one
    /// statement for all of them (a shield ask reads every account's sessions).
    package func allSessionPurchases() throws(HabitError) -> [Int64: [UnlockTimeline.Purchase]] {
        var result: [Int64: [UnlockTimeline.Purchase]] = [:]
        _ = try db.statement(text: Self.allPurchasesQuery).all { (s) -> Void in result[s.int(4), default: []].append(Self.readPurchase(s)) }
        return result
    }

    // A queued session was bought before its stored start: its spend entry says when.
    // The cause is written out so that the partial index credit_entries_session serves the lookup.
    private static let purchasesQuery = """
        SELECT s.id, s.minutes, min(s.start_ms, coalesce((SELECT min(e.at_ms) FROM credit_entries e
                                                          WHERE e.cause = \(CreditCause.session.rawValue) AND e.cause_id = s.id
                                                          AND e.kind = \(CreditKind.spend.rawValue)), s.start_ms)),
               x.ended_at_ms, s.account_id
        FROM unlock_sessions s LEFT JOIN session_ends x ON x.session_id = s.id
        """
    private static let accountPurchasesQuery = purchasesQuery + " WHERE s.account_id = ?1 ORDER BY s.id"
    private static let allPurchasesQuery = purchasesQuery + " ORDER BY s.account_id, s.id"

    private static func readPurchase(_ s: Statement) -> UnlockTimeline.Purchase {
        UnlockTimeline.Purchase(id: s.int(0), minutes: s.int(1), boughtAtMs: s.int(2), endedAtMs: s.optionalInt(3))
    }

    package func session(id: Int64) throws(HabitError) -> UnlockSession? {
        let statement = try db.statement("SELECT id, account_id, minutes, start_ms, end_ms, reason FROM unlock_sessions WHERE id = ?1")
        statement.bind(1, id)
        return try statement.one {
            UnlockSession(id: $0.int(0), accountId: $0.int(1), minutes: $0.int(2), startMs: $0.int(3), endMs: $0.int(4), reason: $0.text(5))
        }
    }

    /// Records that a session ended early; a second end of one session is refused.
    package func insertSessionEnd(sessionId: Int64, endedAtMs: Int64, recordedAtMs: Int64, refundMinutes: Int64) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT INTO session_ends(session_id, ended_at_ms, recorded_at_ms, refund_minutes) VALUES(?1, ?2, ?3, ?4)
            """)
        statement.bind(1, sessionId)
        statement.bind(2, endedAtMs)
        statement.bind(3, recordedAtMs)
        statement.bind(4, refundMinutes)
        do throws(HabitError) { try statement.run() } catch  where error.code == .conflict {
            throw .conflict("session \(sessionId) has already been ended")
        }
    }
}
