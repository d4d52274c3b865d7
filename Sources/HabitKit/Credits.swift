import CHabitCore

/// What a step report did (hc_step_sync).
public struct StepSync: Sendable, Hashable {
    /// The day reported.
    public var day: Day
    /// The day's highest total so far, this report included.
    public var steps: Int64
    /// Minutes this report earned.
    public var earnedNow: Int64
    /// Minutes the day's steps earned in all.
    public var dayEarned: Int64
}

/// A day of a credit account (hc_credit_day), in minutes.
public struct CreditDay: Sendable, Hashable {
    /// The day.
    public var day: Day
    /// The highest step total reported.
    public var steps: Int64
    /// The balance the day started with.
    public var carriedIn: Int64
    /// Earned that day.
    public var earned: Int64
    /// Spent that day (a positive number).
    public var spent: Int64
    /// Corrections by hand (+ or -).
    public var adjusted: Int64
    /// Expired that day (a positive number).
    public var expired: Int64
    /// Given back by sessions ended early (0 from a library that predates the field: it
    /// writes no further than the size HabitKit passes, and the init left it 0).
    public var refunded: Int64
    /// At the end of the day; for today, now.
    public var available: Int64
}

/// Whether spent minutes keep apps unlocked at an instant (hc_unlock_state).
public struct UnlockState: Sendable, Hashable {
    /// A session runs at the asked time.
    public var active: Bool
    /// The running session, if any.
    public var sessionID: CreditSessionID?
    /// When the running session started (UTC ms), or 0.
    public var startMs: Int64
    /// When the last queued session ends (UTC ms), or 0.
    public var untilMs: Int64
}

extension Store {
    /// The unlock state of an account at an instant (UTC ms; 0: now)
    /// (hc_credit_unlock_state).
    public func unlockState(account: CreditAccountID = Store.defaultAccount, atMs: Int64 = 0) throws(HabitError) -> UnlockState {
        try withHandle { store throws(HabitError) in
            var out = hc_unlock_state()
            try check(hc_unlock_state_init(&out, UInt32(MemoryLayout<hc_unlock_state>.size)))
            try check(hc_credit_unlock_state(&out, store, account.rawValue, atMs))
            return UnlockState(
                active: out.active != 0, sessionID: CreditSessionID(nonZero: out.session_id),
                startMs: out.start_ms, untilMs: out.until_ms)
        }
    }

    /// Ends an unlock session early at an instant (UTC ms; 0: now); gives the unused
    /// minutes refunded (hc_credit_session_end). Throws .conflict when it was over already.
    @discardableResult
    public func endSession(_ sessionID: CreditSessionID, atMs: Int64 = 0) throws(HabitError) -> Int64 {
        try withHandle { store throws(HabitError) in
            var refund: Int64 = 0
            try check(hc_credit_session_end(&refund, store, sessionID.rawValue, atMs))
            return refund
        }
    }
}

extension Store {
    /// The account HC_ACCOUNT_DEFAULT, which every store has.
    public static let defaultAccount = CreditAccountID(Int64(HC_ACCOUNT_DEFAULT))

    /// Creates a named credit account and gives its id (hc_credit_account_create).
    /// Throws .invalid, .conflict (name taken).
    public func createAccount(named name: String) throws(HabitError) -> CreditAccountID {
        try withHandle { store throws(HabitError) in
            var id: Int64 = 0
            try check(hc_credit_account_create(&id, store, name))
            return CreditAccountID(id)
        }
    }

    /// Steps that earn one minute, from a day on (nil: today; never earlier), so a
    /// change never re-rates a day already lived (hc_credit_rule_set, HC_RULE_STEPS_PER_MINUTE).
    public func setStepsPerMinute(_ steps: Int64, account: CreditAccountID = Store.defaultAccount, from day: Day? = nil) throws(HabitError) {
        try withHandle { store throws(HabitError) in
            try check(hc_credit_rule_set(nil, store, account.rawValue, HC_RULE_STEPS_PER_MINUTE, 0, steps, day?.rawValue ?? noDay))
        }
    }

    /// Minutes one completed day of a habit earns, from a day on (nil: today)
    /// (hc_credit_rule_set, HC_RULE_HABIT_MINUTES).
    public func setMinutesPerCompletion(
        _ minutes: Int64, habitID: HabitID, account: CreditAccountID = Store.defaultAccount,
        from day: Day? = nil
    ) throws(HabitError) {
        try withHandle { store throws(HabitError) in
            try check(hc_credit_rule_set(nil, store, account.rawValue, HC_RULE_HABIT_MINUTES, habitID.rawValue, minutes, day?.rawValue ?? noDay))
        }
    }

    /// The account with this name (hc_credit_account_find). Throws .notFound.
    public func account(named name: String) throws(HabitError) -> CreditAccountID {
        try withHandle { store throws(HabitError) in
            var id: Int64 = 0
            try check(hc_credit_account_find(&id, store, name))
            return CreditAccountID(id)
        }
    }

    /// Reports a day's cumulative step total (nil: today); only a higher total earns
    /// (hc_credit_sync_steps).
    @discardableResult
    public func syncSteps(_ steps: Int64, account: CreditAccountID = Store.defaultAccount, day: Day? = nil) throws(HabitError) -> StepSync {
        try withHandle { store throws(HabitError) in
            var out = hc_step_sync()
            try check(hc_step_sync_init(&out, UInt32(MemoryLayout<hc_step_sync>.size)))
            try check(hc_credit_sync_steps(&out, store, account.rawValue, day?.rawValue ?? noDay, steps))
            return StepSync(day: Day(rawValue: out.day), steps: out.steps, earnedNow: out.earned_now, dayEarned: out.day_earned)
        }
    }

    /// Spends minutes now, checking the balance in the same transaction; with unlock,
    /// opens an unlock session of that many minutes. Gives the spend entry's id
    /// (hc_credit_spend). Throws .insufficient (nothing written), .invalid, .notFound.
    @discardableResult
    public func spend(
        _ minutes: Int64, account: CreditAccountID = Store.defaultAccount, reason: String? = nil,
        unlock: Bool = false
    ) throws(HabitError) -> CreditEntryID {
        try withHandle { store throws(HabitError) in
            var id: Int64 = 0
            let flags: UInt32 = unlock ? HC_SPEND_UNLOCK : 0
            if let reason {
                try check(hc_credit_spend(&id, store, account.rawValue, minutes, reason, flags))
            } else {
                try check(hc_credit_spend(&id, store, account.rawValue, minutes, nil, flags))
            }
            return CreditEntryID(id)
        }
    }

    /// A correction by hand: minutes > 0 adds, < 0 removes (hc_credit_adjust).
    @discardableResult
    public func adjust(_ minutes: Int64, account: CreditAccountID = Store.defaultAccount, reason: String? = nil) throws(HabitError) -> CreditEntryID {
        try withHandle { store throws(HabitError) in
            var id: Int64 = 0
            if let reason {
                try check(hc_credit_adjust(&id, store, account.rawValue, minutes, reason))
            } else {
                try check(hc_credit_adjust(&id, store, account.rawValue, minutes, nil))
            }
            return CreditEntryID(id)
        }
    }

    /// The minutes that can be spent now; negative is a debt (hc_credit_balance).
    public func balance(account: CreditAccountID = Store.defaultAccount) throws(HabitError) -> Int64 {
        try withHandle { store throws(HabitError) in
            var available: Int64 = 0
            try check(hc_credit_balance(&available, store, account.rawValue))
            return available
        }
    }

    /// A day of the account (nil: today) (hc_credit_day_summary).
    public func creditDay(account: CreditAccountID = Store.defaultAccount, day: Day? = nil) throws(HabitError) -> CreditDay {
        try withHandle { store throws(HabitError) in
            var out = hc_credit_day()
            try check(hc_credit_day_init(&out, UInt32(MemoryLayout<hc_credit_day>.size)))
            try check(hc_credit_day_summary(&out, store, account.rawValue, day?.rawValue ?? noDay))
            return CreditDay(
                day: Day(rawValue: out.day), steps: out.steps, carriedIn: out.carried_in, earned: out.earned,
                spent: out.spent, adjusted: out.adjusted, expired: out.expired,
                refunded: out.refunded, available: out.available)
        }
    }
}

/// When credits expire (HC_EXPIRY_*), the value of an expiry rule.
public struct CreditExpiry: RawRepresentable, Hashable, Sendable {
    /// The HC_EXPIRY_* value.
    public let rawValue: Int64
    /// The policy with this HC_EXPIRY_* value.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// At the end of the day they were earned (the default).
    public static let endOfDay = CreditExpiry(rawValue: Int64(HC_EXPIRY_END_OF_DAY))
    /// Never: the balance carries over.
    public static let carryOver = CreditExpiry(rawValue: Int64(HC_EXPIRY_CARRY_OVER))
}

/// An entry of a credit account (hc_credit_entry), copied out of the library.
public struct CreditEntry: Sendable, Hashable, Identifiable {
    /// Increasing in append order.
    public var id: CreditEntryID
    /// What it did.
    public var kind: CreditEntryKind
    /// Its account.
    public var accountID: CreditAccountID
    /// Signed as it moves the balance.
    public var minutes: Int64
    /// The day it counts for.
    public var day: Day
    /// Why it was written.
    public var cause: CreditCause
    /// When (UTC ms).
    public var atMs: Int64
    /// The entry or session that caused it, if any (which of them: `cause`); a bare
    /// number, since its kind depends on `cause`.
    public var causeID: Int64?
    /// The habit, if any.
    public var habitID: HabitID?
    /// For a step sync: the reported total; else 0.
    public var steps: Int64
    /// The reason given, if any.
    public var reason: String?

    init(_ c: hc_credit_entry) {
        id = CreditEntryID(c.id)
        kind = CreditEntryKind(rawValue: c.kind)
        accountID = CreditAccountID(c.account_id)
        minutes = c.minutes
        day = Day(rawValue: c.day)
        cause = CreditCause(rawValue: c.cause)
        atMs = c.at_ms
        causeID = c.cause_id == 0 ? nil : c.cause_id
        habitID = HabitID(nonZero: c.habit_id)
        steps = c.steps
        reason = copied(c.reason)
    }
}

/// A credit rule as recorded (hc_credit_rule).
public struct CreditRule: Sendable, Hashable, Identifiable {
    /// Its id.
    public var id: CreditRuleID
    /// What it sets.
    public var kind: CreditRuleKind
    /// Its account.
    public var accountID: CreditAccountID
    /// For habitMinutes: the habit.
    public var habitID: HabitID?
    /// The value it sets.
    public var value: Int64
    /// The day it applies from.
    public var from: Day

    init(_ c: hc_credit_rule) {
        id = CreditRuleID(c.id)
        kind = CreditRuleKind(rawValue: c.kind)
        accountID = CreditAccountID(c.account_id)
        habitID = HabitID(nonZero: c.habit_id)
        value = c.value
        from = Day(rawValue: c.from_day)
    }
}

extension Store {
    /// Records a credit rule of an account from a day on (nil: today; never earlier),
    /// so a change never re-rates a day already lived; habitID only for habitMinutes.
    /// Gives the rule's id (hc_credit_rule_set). Throws .invalid, .notFound (account or habit).
    @discardableResult
    public func setCreditRule(
        _ kind: CreditRuleKind, value: Int64, habitID: HabitID? = nil, account: CreditAccountID = Store.defaultAccount,
        from day: Day? = nil
    ) throws(HabitError) -> CreditRuleID {
        try withHandle { store throws(HabitError) in
            var id: Int64 = 0
            try check(hc_credit_rule_set(&id, store, account.rawValue, kind.rawValue, habitID.rawValueOrZero(), value, day?.rawValue ?? noDay))
            return CreditRuleID(id)
        }
    }

    /// The credit rules of an account, as recorded (hc_credit_rule_list). Throws .notFound.
    public func creditRules(account: CreditAccountID = Store.defaultAccount) throws(HabitError) -> [CreditRule] {
        try withHandle { store throws(HabitError) in
            try buffered(hc_credit_rule()) { hc_credit_rule_list($0, $1, $2, store, account.rawValue) }.map(CreditRule.init)
        }
    }

    /// The entries of an account from one day through another, in append order,
    /// copied out of one snapshot (hc_credit_list_open). Throws .invalid, .notFound.
    public func creditEntries(account: CreditAccountID = Store.defaultAccount, from: Day, through: Day) throws(HabitError) -> [CreditEntry] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_credit_list_open(&list, store, account.rawValue, from.rawValue, through.rawValue))
            defer { hc_credit_list_free(list) }
            return try elements(of: list, { hc_credit_list_count($0, $1) }, { hc_credit_list_get($0, $1, $2) }, CreditEntry.init)
        }
    }
}
