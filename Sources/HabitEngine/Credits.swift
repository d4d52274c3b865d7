import HabitCore
import HabitStore

/// The credit ledger: steps and habits earn minutes, spends unlock apps. Every
/// write runs in one write transaction (BEGIN IMMEDIATE), so two processes
/// spending at once are serialised by SQLite: the check and the spend see the
/// same balance. The arithmetic is in the domain (CreditFold, CreditRules).
/// What credits keep between calls: the habits some account rewards (nil: not
/// read yet), so appends to other habits skip the credit bookkeeping.
struct CreditCache {
    var rewardedHabits: Set<Int64>?
    mutating func drop() { rewardedHabits = nil }
}

extension Engine {
    package static let defaultAccountId: Int64 = 1

    package struct StepSync: Equatable, Sendable {
        package var day: Int32
        /// The day's highest reported total, this report included.
        package var steps: Int64
        /// Minutes this report earned (0 when it was not higher than before).
        package var earnedNow: Int64
        /// Minutes the day's steps have earned in all.
        package var dayEarned: Int64
    }

    package struct UnlockState: Equatable, Sendable {
        /// A session running at the asked time.
        package var active: Bool
        package var sessionId: Int64
        package var startMs: Int64
        /// When the last queued session ends (apps shielded again).
        package var untilMs: Int64
    }

    // MARK: Accounts and rules

    /// The account for a caller's id: 0 is the default account.
    package func creditAccount(_ id: Int64) throws(HabitError) -> Store.CreditAccount {
        let id = id == 0 ? Engine.defaultAccountId : id
        guard id > 0, let account = try store.creditAccount(id: id) else { throw .notFound("no credit account with id \(id)") }
        return account
    }

    package func createCreditAccount(name: String) throws(HabitError) -> Int64 {
        try TextRules.validate(name, field: "account name", maxBytes: 200)
        let at = now()
        return try store.atomically { () throws(HabitError) in try store.insertCreditAccount(name: name, createdAtMs: at) }
    }

    package func creditAccount(named name: String) throws(HabitError) -> Store.CreditAccount {
        guard let account = try store.creditAccount(named: name) else { throw .notFound("no credit account named '\(name.prefix(200))'") }
        return account
    }

    /// Records a rule effective from a day (nil: today). Rules only apply from today
    /// on, so no day already lived is ever re-rated.
    package func setCreditRule(accountId: Int64, kind: CreditRule.Kind, habitId: Int64?, value: Int64, fromDay: Int32?) throws(HabitError) -> Int64 {
        try CreditRule.validate(kind: kind, value: value, habitId: habitId)
        if let habitId { _ = try habit(id: habitId) }
        if let fromDay { guard CivilDate.isValid(fromDay) else { throw .invalid("from day \(fromDay) is outside 0001-01-01...9999-12-31") } }
        // Days before the change are settled (their expiries written) under the old rules first.
        let id = try writingCredits(accountId) { (write) throws(HabitError) in
            let from = try EffectiveDay.fromTodayOn(fromDay ?? write.today, today: write.today, "a credit rule takes effect")
            let id = try store.insertCreditRule(
                accountId: write.account.id, kind: kind, habitId: habitId, value: value, fromDay: from,
                recordedAtMs: write.at)
            // Completions already logged for the days it covers (today's) earn by it, as
            // they will on every device that receives both.
            caches.credits.drop()
            if kind == .habitMinutes, let habitId {
                try settleHabitCredits(habitId: habitId, from: from)
            } else {
                try deriveCredits(accountId: write.account.id)
            }
            return id
        }
        caches.credits.drop()
        return id
    }

    package func creditRules(accountId: Int64) throws(HabitError) -> [CreditRule] {
        try store.creditRules(accountId: try creditAccount(accountId).id)
    }

    // MARK: Earning and spending

    /// Records a health source's cumulative step total for a day (nil: today).
    /// The day earns from its highest total: the same or a lower report earns
    /// nothing and takes nothing back.
    package func syncSteps(accountId: Int64, day: Int32?, steps: Int64) throws(HabitError) -> StepSync {
        try CreditLimits.steps(steps)
        if let day { guard CivilDate.isValid(day) else { throw .invalid("day \(day) is outside 0001-01-01...9999-12-31") } }
        return try writingCredits(accountId) { (write) throws(HabitError) in
            let (account, at) = (write.account, write.at)
            let day = day ?? write.today
            guard day <= write.today else { throw .invalid("steps cannot be reported for a day after today") }
            let reported = try store.stepTotals(accountId: account.id, from: day, to: day)[day] ?? 0
            if steps > reported { try store.insertStepReport(accountId: account.id, day: day, steps: steps, atMs: at) }
            let best = max(steps, reported)
            let due = write.rules.minutes(forSteps: best, on: day)
            let have = try store.stepCredit(accountId: account.id, day: day)
            let earned = max(due - have, 0)
            if earned > 0 {
                _ = try store.insertCreditEntry(
                    CreditEntry(
                        id: 0, accountId: account.id, kind: .earn, minutes: earned, day: day, atMs: at,
                        reason: "\(best) steps", cause: .steps, causeId: nil, habitId: nil, steps: best))
            }
            return StepSync(day: day, steps: best, earnedNow: earned, dayEarned: have + earned)
        }
    }

    /// Spends minutes if the balance allows, atomically; with `unlock`, opens an
    /// unlock session that starts now, or when the running ones end.
    /// Returns the spend entry's id.
    package func spend(accountId: Int64, minutes: Int64, reason: String?, unlock: Bool) throws(HabitError) -> Int64 {
        try CreditLimits.minutes(minutes)
        try CreditLimits.reason(reason)
        return try writingCredits(accountId) { (write) throws(HabitError) in
            let (account, today, at, available) = (write.account, write.today, write.at, write.available)
            guard minutes <= available else {
                throw HabitError(.insufficient, "not enough credits: spending \(minutes) minutes, \(max(available, 0)) available")
            }
            var cause = CreditCause.manual
            var sessionId: Int64?
            if unlock {
                let runs = try UnlockTimeline.runs(try store.sessionPurchases(accountId: account.id))
                let start = UnlockTimeline.queuedStart(runs, boughtAtMs: at)
                let end = try UnlockTimeline.end(start: start, minutes: minutes)
                sessionId = try store.insertSession(accountId: account.id, minutes: minutes, startMs: start, endMs: end, reason: reason)
                cause = .session
            }
            return try store.insertCreditEntry(
                CreditEntry(
                    id: 0, accountId: account.id, kind: .spend, minutes: -minutes, day: today, atMs: at,
                    reason: reason, cause: cause, causeId: sessionId, habitId: nil, steps: nil))
        }
    }

    /// A correction by hand, up or down (a balance may go below zero this way).
    package func adjustCredits(accountId: Int64, minutes: Int64, reason: String?) throws(HabitError) -> Int64 {
        try CreditLimits.minutes(minutes, allowNegative: true)
        try CreditLimits.reason(reason)
        return try writingCredits(accountId) { (write) throws(HabitError) in
            try store.insertCreditEntry(
                CreditEntry(
                    id: 0, accountId: write.account.id, kind: .adjust, minutes: minutes, day: write.today,
                    atMs: write.at,
                    reason: reason, cause: .manual, causeId: nil, habitId: nil, steps: nil))
        }
    }

    // MARK: Reading

    /// A day's summary (nil: today): steps, earned, spent, expired, available.
    package func creditDay(accountId: Int64, day: Int32?) throws(HabitError) -> CreditDay {
        let account = try creditAccount(accountId)
        let today = try today()
        let day = day ?? today
        guard CivilDate.isValid(day) else { throw .invalid("day \(day) is outside 0001-01-01...9999-12-31") }
        return try store.snapshot { () throws(HabitError) in
            let steps = try store.stepTotals(accountId: account.id, from: day, to: day)
            let days = try CreditFold.days(
                try creditEntriesCounted(accountId: account.id), rules: try rules(account.id), through: day,
                today: today, steps: steps)
            return days.last ?? CreditDay(day: day)
        }
    }

    /// What can be spent now.
    package func creditBalance(accountId: Int64) throws(HabitError) -> Int64 {
        let account = try creditAccount(accountId)
        let today = try today()
        return try store.snapshot { () throws(HabitError) in
            try CreditFold.available(try creditEntriesCounted(accountId: account.id), rules: try rules(account.id), on: today, today: today)
        }
    }

    package func creditHistory(accountId: Int64, from: Int32, to: Int32) throws(HabitError) -> [CreditEntry] {
        try CivilDate.checkRange(from: from, to: to, limit: nil)
        return try store.creditEntries(accountId: try creditAccount(accountId).id, from: from, to: to)
    }

    /// Whether apps are unlocked at a time (nil: now), and until when.
    package func unlockState(accountId: Int64, atMs: Int64?) throws(HabitError) -> UnlockState {
        let account = try creditAccount(accountId)
        let at = atMs ?? now()
        return try store.snapshot { () throws(HabitError) in
            let runs = try UnlockTimeline.runs(try store.sessionPurchases(accountId: account.id))
            guard let session = runs.last(where: { $0.isRunning(at: at) }) else {
                return UnlockState(active: false, sessionId: 0, startMs: 0, untilMs: 0)
            }
            // Sessions bought while one runs are queued right after it.
            return UnlockState(
                active: true, sessionId: session.id, startMs: session.startMs,
                untilMs: UnlockTimeline.queuedStart(runs, boughtAtMs: at))
        }
    }

    package struct SessionEnd: Equatable, Sendable {
        package var sessionId: Int64
        package var accountId: Int64
        package var endedAtMs: Int64
        package var refundMinutes: Int64
        /// The refund's ledger entry (nil when nothing was left to refund).
        package var refundEntryId: Int64?
        /// The day the refund counts for.
        package var day: Int32
    }

    /// Ends an unlock session early at `atMs` (nil: now) and refunds its unused
    /// whole minutes, rounded up (UnlockTimeline). The refund counts for the day
    /// the session ends on, or today if that day is already over, so that under
    /// daily expiry it can always be spent. The sessions queued after it move up.
    package func endSession(id: Int64, atMs: Int64?) throws(HabitError) -> SessionEnd {
        guard id > 0, let session = try store.session(id: id) else { throw .notFound("no unlock session with id \(id)") }
        if let atMs { _ = try localDay(utcMs: atMs) }
        return try writingCredits(session.accountId) { (write) throws(HabitError) in
            let at = atMs ?? write.at
            let purchases = try store.sessionPurchases(accountId: session.accountId)
            guard let purchase = purchases.first(where: { $0.id == id }),
                let run = try UnlockTimeline.runs(purchases).first(where: { $0.id == id })
            else {
                throw .notFound("no unlock session with id \(id)")
            }
            guard !run.endedEarly else { throw .conflict("session \(id) has already been ended") }
            guard at >= purchase.boughtAtMs else { throw .invalid("session \(id) cannot end before it was bought") }
            guard at <= run.endMs else { throw .conflict("session \(id) already ended by itself, before the time given") }
            let refund = UnlockTimeline.refundMinutes(run, endedAtMs: at)
            let day = max(try localDay(utcMs: at), write.today)
            try store.insertSessionEnd(sessionId: id, endedAtMs: at, recordedAtMs: write.at, refundMinutes: refund)
            var entryId: Int64?
            if refund > 0 {
                entryId = try store.insertCreditEntry(
                    CreditEntry(
                        id: 0, accountId: session.accountId, kind: .refund, minutes: refund, day: day,
                        atMs: write.at, reason: "unused minutes of session \(id)", cause: .session,
                        causeId: id, habitId: nil, steps: nil))
            }
            return SessionEnd(sessionId: id, accountId: session.accountId, endedAtMs: at, refundMinutes: refund, refundEntryId: entryId, day: day)
        }
    }

    // MARK: Internals

    /// What an account write knows once its transaction is open.
    private struct CreditWrite {
        var account: Store.CreditAccount
        var today: Int32
        var at: Int64
        var rules: CreditRules
        /// What the account holds now, before this write.
        var available: Int64
    }

    /// Runs a write on an account in one write transaction, after writing the
    /// completion credits time alone changed and the expiries the fold already applies.
    private func writingCredits<T>(_ accountId: Int64, _ body: (CreditWrite) throws(HabitError) -> T) throws(HabitError) -> T {
        let account = try creditAccount(accountId)
        let today = try today()
        let at = now()
        return try store.atomically { () throws(HabitError) in
            try settleTimeChangedCredits()
            let (rules, available) = try writeExpiries(accountId: account.id, today: today, at: at)
            return try body(CreditWrite(account: account, today: today, at: at, rules: rules, available: available))
        }
    }

    func rules(_ accountId: Int64) throws(HabitError) -> CreditRules {
        CreditRules(try store.creditRules(accountId: accountId))
    }

    /// Writes the `expire` entries the fold already applies to days before today,
    /// so the ledger sums to the balance. Runs inside the caller's write; one read
    /// and one fold also give the account's rules and balance (expiry written or not).
    private func writeExpiries(accountId: Int64, today: Int32, at: Int64) throws(HabitError) -> (rules: CreditRules, available: Int64) {
        let entries = try store.creditEntries(accountId: accountId)
        let rules = try rules(accountId)
        let days = try CreditFold.days(entries, rules: rules, through: today, today: today)
        for (day, minutes) in try CreditFold.unwrittenExpiries(in: days, entries: entries) {
            _ = try store.insertCreditEntry(
                CreditEntry(
                    id: 0, accountId: accountId, kind: .expire, minutes: -minutes, day: day, atMs: at,
                    reason: "unspent at the end of the day", cause: .expiry, causeId: nil, habitId: nil,
                    steps: nil))
        }
        return (rules, days.last?.available ?? 0)
    }

    /// After facts or rules of an account arrived from another device, or its rules
    /// changed here (inside the write's transaction): writes the step earnings its
    /// step reports now owe (a recount when the rate changed) and corrects
    /// its written expiries to what the fold of its entries gives (CreditDerivation),
    /// so its ledger is the one a store that had every fact directly would hold.
    func deriveCredits(accountId: Int64) throws(HabitError) {
        let today = try today()
        let at = now()
        let rules = try rules(accountId)
        let totals = try store.stepTotals(accountId: accountId, from: CivilDate.minDay, to: CivilDate.maxDay)
        for (day, minutes, steps) in try CreditDerivation.stepCorrections(totals: totals, entries: try store.creditEntries(accountId: accountId), rules: rules)
        {
            _ = try store.insertCreditEntry(
                CreditEntry(
                    id: 0, accountId: accountId, kind: minutes > 0 ? .earn : .adjust, minutes: minutes, day: day,
                    atMs: at, reason: minutes > 0 ? "\(steps) steps" : "step rate recounted for \(steps) steps",
                    cause: .steps, causeId: nil, habitId: nil, steps: steps))
        }
        for (day, minutes) in try CreditDerivation.expiryCorrections(try store.creditEntries(accountId: accountId), rules: rules, today: today) {
            _ = try store.insertCreditEntry(
                CreditEntry(
                    id: 0, accountId: accountId, kind: .expire, minutes: minutes, day: day, atMs: at,
                    reason: minutes < 0 ? "unspent at the end of the day" : "expiry recounted after sync",
                    cause: .expiry, causeId: nil, habitId: nil, steps: nil))
        }
    }

    /// Whether any account rewards the habit (the set is cached with the habits).
    func earnsCredits(_ habitId: Int64) throws(HabitError) -> Bool {
        if caches.credits.rewardedHabits == nil { caches.credits.rewardedHabits = try store.rewardedHabitIds() }
        return caches.credits.rewardedHabits?.contains(habitId) == true
    }

    /// Completion credits follow the completion ledger. Called inside the write
    /// that changed a habit's day (an append, a timer event, a merge, a changed reward):
    /// the day's completion credits are brought to what the day is owed now
    /// (CreditDerivation.habitReward: its reward when done, else nothing). A day that
    /// became done earns each rewarding account its minutes; one that stopped being done
    /// (an undo, an earlier stop that shortened a timer) gives them back with an `adjust`
    /// entry, even when they were already spent (the balance then shows the debt); a
    /// reward changed for the day is recounted. The day is judged by the one merged
    /// history (foldEntries: its entries and its stopped timers' amounts), so every
    /// replica that holds the same entries, timer events and rules holds the same credits.
    ///
    /// A day a settings change re-judges (SettingsVersion) is settled the same way, in
    /// the change's transaction: minutes earned on a day that is no longer done are
    /// taken back, and a day that became done earns them, each with a reason that says
    /// the day was re-judged.
    func settleHabitCredits(habit: Habit, day: Int32, causeEntryId: Int64?, why: CreditSettlement = .entry(nil)) throws(HabitError) {
        guard try earnsCredits(habit.id) else { return }
        let at = now()
        let today = try today()
        for owed in try owedHabitCredits(habit: habit, day: day, causeEntryId: causeEntryId, why: why, at: at) {
            _ = try writeExpiries(accountId: owed.accountId, today: today, at: at)
            _ = try store.insertCreditEntry(owed)
        }
    }

    /// A write to a habit's day (an entry, an undo, a timer event) settles that day and,
    /// as a write of a rewarded habit, the days time alone changed (timeChangedDays).
    func settleHabitWrite(habit: Habit, day: Int32, causeEntryId: Int64?, why: CreditSettlement) throws(HabitError) {
        guard try earnsCredits(habit.id) else { return }
        try settleHabitCredits(habit: habit, day: day, causeEntryId: causeEntryId, why: why)
        try settleTimeChangedCredits()
    }

    /// The entries that bring a habit day's completion credits to what the day is owed
    /// now, one per rewarding account (only `account`, when given) whose credit differs.
    private func owedHabitCredits(
        habit: Habit, day: Int32, causeEntryId: Int64?, why: CreditSettlement, at: Int64, account: Int64? = nil
    ) throws(HabitError) -> [CreditEntry] {
        let ledger = try store.foldEntries(habitId: habit.id, from: day, to: day)
        let entries = try withTimers(ledger, habitId: habit.id, spec: habit.spec, versions: habit.versions, from: day, to: day)
        let done = DayFold.states(entries, from: day, to: day, habit: habit.spec, versions: habit.versions).first?.done ?? false
        let cause = why.namesEntry ? causeEntryId ?? ledger.last?.id : nil
        var owed: [CreditEntry] = []
        for accountId in try store.accountsRewarding(habitId: habit.id, day: day) where account == nil || account == accountId {
            let held = try store.habitCredit(accountId: accountId, habitId: habit.id, day: day)
            let reward = try rules(accountId).habitMinutes(habitId: habit.id, on: day)
            guard let (kind, minutes) = CreditDerivation.habitReward(owed: reward, done: done, held: held) else { continue }
            owed.append(
                CreditEntry(
                    id: 0, accountId: accountId, kind: kind, minutes: minutes, day: day, atMs: at,
                    reason: why.reason(kind: kind, done: done, habit: habit.spec.name), cause: .habitEntry, causeId: cause,
                    habitId: habit.id, steps: nil))
        }
        return owed
    }

    /// The store's timer-credit mark (Store.timerCreditsSettledKey); nil: none yet.
    private func timerCreditsSettledMs() throws(HabitError) -> Int64? {
        try store.setting(Store.timerCreditsSettledKey).flatMap { Int64($0) }
    }

    /// The days of rewarded habits whose timers' amounts changed by time alone between
    /// the store's last such settlement and `nowMs`: an auto-complete timer completed
    /// (no event records it), or an event dated ahead of the clock that wrote or received
    /// it came due. No write settled those days at that instant.
    private func timeChangedDays(settledMs mark: Int64?, nowMs: Int64) throws(HabitError) -> [(habit: Habit, days: [Int32])] {
        let settled = mark ?? Int64.min
        var result: [(habit: Habit, days: [Int32])] = []
        for habitId in try store.rewardedTimedHabitIds() {
            guard let habit = try store.habit(id: habitId) else { continue }
            // A clock set back reads from where it is now.
            let (since, overflow) = min(settled, nowMs).subtractingReportingOverflow(TimerRules.changeWindowMs(habit.spec, versions: habit.versions))
            var days = Set<Int32>()
            for record in try store.timers(habitId: habit.id, lastEventAfter: overflow ? Int64.min : since)
            where TimerRules.seconds(fold(record, habit: habit, atMs: settled)) != TimerRules.seconds(fold(record, habit: habit, atMs: nowMs)) {
                days.insert(record.start.day)
            }
            if !days.isEmpty { result.append((habit, days.sorted())) }
        }
        return result
    }

    /// Writes the completion credits time alone changed (the days rewarded habits'
    /// timers changed on since the last settlement) and moves the mark to now: what the
    /// next write of a rewarded habit or of a credit account, or a sync apply, does,
    /// once; the balance counts them before (creditEntriesCounted).
    func settleTimeChangedCredits() throws(HabitError) {
        let nowMs = now()
        let mark = try timerCreditsSettledMs()
        let changed = try timeChangedDays(settledMs: mark, nowMs: nowMs)
        // Written when a settlement found a change, and once on a store that has none:
        // without a mark every timer is folded again on every balance read and rewarded write.
        guard !changed.isEmpty || mark == nil else { return }
        for (habit, days) in changed {
            for day in days { try settleHabitCredits(habit: habit, day: day, causeEntryId: nil, why: .timer) }
        }
        try store.setSetting(Store.timerCreditsSettledKey, String(nowMs))
    }

    /// An account's entries as every balance folds them: the written ones, then the
    /// corrections of the completion credits time alone changed that no write has
    /// recorded yet (as expiries are counted before they are written). Every replica
    /// holding the same events counts the same at the same instant, written or not.
    func creditEntriesCounted(accountId: Int64) throws(HabitError) -> [CreditEntry] {
        let nowMs = now()
        var entries = try store.creditEntries(accountId: accountId)
        for (habit, days) in try timeChangedDays(settledMs: try timerCreditsSettledMs(), nowMs: nowMs) {
            for day in days {
                entries += try owedHabitCredits(habit: habit, day: day, causeEntryId: nil, why: .timer, at: nowMs, account: accountId)
            }
        }
        return entries
    }

    /// After a reward or the settings of a habit changed from a day on: its days from
    /// then are re-settled (only days with entries or timers can hold completion credits).
    func settleHabitCredits(habitId: Int64, from day: Int32, why: CreditSettlement = .rewardChanged) throws(HabitError) {
        guard let habit = try store.habit(id: habitId) else { return }
        for recordedDay in try store.recordedDays(habitId: habitId, from: day) {
            try settleHabitCredits(habit: habit, day: recordedDay, causeEntryId: nil, why: why)
        }
    }
}

/// Why a habit day's completion credits are settled again: what the entry's reason says.
enum CreditSettlement {
    /// An entry appended to the day (its kind; nil: not known here).
    case entry(EntryKind?)
    /// The reward of the habit changed.
    case rewardChanged
    /// The habit's judging settings changed from a day on.
    case rejudged(from: Int32)
    /// A timer's event, or its completion by its target (which names no entry).
    case timer

    /// Whether the credit entry names the day's entry that caused it.
    var namesEntry: Bool {
        if case .timer = self { return false }
        return true
    }

    func reason(kind: CreditKind, done: Bool, habit name: String) -> String {
        switch self {
        case .rejudged(let from):
            let since = (try? CivilDate.format(from)) ?? String(from)
            if kind == .earn { return "'\(name)' done under its settings from \(since)" }
            return done ? "reward for '\(name)' recounted" : "'\(name)' re-judged not done by its settings from \(since)"
        case .entry(let entryKind):
            if kind == .earn { return "completed '\(name)'" }
            if done { return "reward for '\(name)' recounted" }
            return entryKind == .undo ? "completion of '\(name)' undone" : "'\(name)' no longer done after a new entry"
        case .timer:
            if kind == .earn { return "completed '\(name)'" }
            return done ? "reward for '\(name)' recounted" : "'\(name)' no longer done after a timer's stop"
        case .rewardChanged:
            if kind == .earn { return "completed '\(name)'" }
            return done ? "reward for '\(name)' recounted" : "'\(name)' not done"
        }
    }
}
