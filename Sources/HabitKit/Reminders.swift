import CHabitCore

/// Weekdays a reminder rule applies on (bit 1 << 0 is Sunday ... 1 << 6 Saturday);
/// empty: every day the habit is due.
public struct Weekdays: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: Int32
    /// These bits.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Sunday.
    public static let sunday = Weekdays(rawValue: 1 << 0)
    /// Monday.
    public static let monday = Weekdays(rawValue: 1 << 1)
    /// Tuesday.
    public static let tuesday = Weekdays(rawValue: 1 << 2)
    /// Wednesday.
    public static let wednesday = Weekdays(rawValue: 1 << 3)
    /// Thursday.
    public static let thursday = Weekdays(rawValue: 1 << 4)
    /// Friday.
    public static let friday = Weekdays(rawValue: 1 << 5)
    /// Saturday.
    public static let saturday = Weekdays(rawValue: 1 << 6)
}

/// What a reminder rule says (hc_reminder_rule); the defaults are the library's
/// (hc_reminder_rule_init). The header's Reminders section states when it nudges.
public struct ReminderRule: Sendable, Hashable {
    /// The habit it reminds of (read by addReminderRule only).
    public var habitID: HabitID
    /// Local time of day, 0...1439.
    public var minute: Int32
    /// The weekdays it applies; empty: every due day.
    public var weekdays: Weekdays
    /// What quiet hours do to it.
    public var quiet: QuietPolicy
    /// Up to 500 bytes.
    public var message: String?

    /// A rule for the habit at a local minute, with the library's defaults for the rest.
    public init(habitID: HabitID, minute: Int32) {
        var defaults = hc_reminder_rule()
        // Cannot fail for our own size; the zeroed struct is the fallback.
        _ = hc_reminder_rule_init(&defaults, UInt32(MemoryLayout<hc_reminder_rule>.size))
        self.habitID = habitID
        self.minute = minute
        weekdays = Weekdays(rawValue: defaults.weekdays)
        quiet = QuietPolicy(rawValue: defaults.quiet)
    }

    init(_ r: hc_reminder_rule) {
        habitID = HabitID(r.habit_id)
        minute = r.minute
        weekdays = Weekdays(rawValue: r.weekdays)
        quiet = QuietPolicy(rawValue: r.quiet)
        message = copied(r.message)
    }

    /// Runs body with this rule as the C struct, its message alive until body returns.
    func withC<T>(_ body: (inout hc_reminder_rule) throws(HabitError) -> T) throws(HabitError) -> T {
        let strings = CStrings()
        var c = hc_reminder_rule()
        try check(hc_reminder_rule_init(&c, UInt32(MemoryLayout<hc_reminder_rule>.size)))
        c.habit_id = habitID.rawValue
        c.minute = minute
        c.weekdays = weekdays.rawValue
        c.quiet = quiet.rawValue
        c.message = try strings(message, "message")
        return try withExtendedLifetime(strings) { () throws(HabitError) -> T in try body(&c) }
    }
}

/// A reminder rule as stored: the version in force on the day asked.
public struct StoredReminderRule: Sendable, Hashable, Identifiable {
    /// The rule; stable, never reused.
    public var id: ReminderRuleID
    /// The first day of this version.
    public var fromDay: Day
    /// What this version says.
    public var rule: ReminderRule

    init(_ r: hc_reminder_rule) {
        id = ReminderRuleID(r.id)
        fromDay = Day(rawValue: r.from_day)
        rule = ReminderRule(r)
    }
}

/// A window of local minutes [start, end), wrapping past midnight when start > end.
public struct QuietHours: Sendable, Hashable {
    /// 0...1439.
    public var start: Int32
    /// 0...1439, not start.
    public var end: Int32

    /// Quiet from start until end (local minutes).
    public init(start: Int32, end: Int32) {
        self.start = start
        self.end = end
    }
}

/// One reminder instant (hc_reminder), named by its rule, day and atMs.
public struct Reminder: Sendable, Hashable {
    /// The rule's own or a snooze's.
    public var kind: ReminderKind
    /// When to nudge (UTC ms).
    public var atMs: Int64
    /// The habit.
    public var habitID: HabitID
    /// The rule.
    public var ruleID: ReminderRuleID
    /// The habit day it is about.
    public var day: Day
    /// The local wall-clock minute of atMs.
    public var localMinute: Int32
    /// Before quiet hours moved it, or the instant snoozed; else atMs.
    public var originalMs: Int64
    /// Quiet hours moved it.
    public var deferred: Bool
    /// Its delivery is recorded.
    public var fired: Bool
    /// The rule's message.
    public var message: String?

    init(_ r: hc_reminder) {
        kind = ReminderKind(rawValue: r.kind)
        atMs = r.at_ms
        habitID = HabitID(r.habit_id)
        ruleID = ReminderRuleID(r.rule_id)
        day = Day(rawValue: r.day)
        localMinute = r.local_minute
        originalMs = r.original_ms
        deferred = r.deferred != 0
        fired = r.fired != 0
        message = copied(r.message)
    }
}

extension Store {
    /// Adds a reminder rule to rule.habitID, from today on and for the days before,
    /// and gives its id (hc_reminder_rule_add). Throws .invalid, .notFound (habit),
    /// .conflict (archived habit).
    @discardableResult
    public func addReminderRule(_ rule: ReminderRule) throws(HabitError) -> ReminderRuleID {
        try rule.withC { (c) throws(HabitError) -> ReminderRuleID in
            try withHandle { store throws(HabitError) in
                var id: Int64 = 0
                try check(hc_reminder_rule_add(&id, store, &c))
                return ReminderRuleID(id)
            }
        }
    }

    /// Changes a rule's minute, weekdays, quiet policy and message (not its habit)
    /// from a day on, today or later (nil: today) (hc_reminder_rule_update). Throws
    /// .invalid (an earlier day), .notFound.
    public func updateReminderRule(id: ReminderRuleID, _ rule: ReminderRule, from day: Day? = nil) throws(HabitError) {
        try rule.withC { (c) throws(HabitError) in
            try withHandle { store throws(HabitError) in
                try check(hc_reminder_rule_update(store, id.rawValue, &c, day?.rawValue ?? noDay))
            }
        }
    }

    /// Removes a rule from a day on (nil: today); days before keep it
    /// (hc_reminder_rule_remove). Throws .notFound, .invalid.
    public func removeReminderRule(id: ReminderRuleID, from day: Day? = nil) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_reminder_rule_remove(store, id.rawValue, day?.rawValue ?? noDay)) }
    }

    /// The rules in force on a day (nil: today) of a habit (nil: every habit), by id
    /// (hc_reminder_rule_list_open). Throws .notFound for an unknown habit.
    public func reminderRules(habitID: HabitID? = nil, on day: Day? = nil) throws(HabitError) -> [StoredReminderRule] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_reminder_rule_list_open(&list, store, habitID.rawValueOrZero(), day?.rawValue ?? noDay))
            defer { hc_reminder_rule_list_free(list) }
            return try elements(of: list, { hc_reminder_rule_list_count($0, $1) }, { hc_reminder_rule_list_get($0, $1, $2) }, StoredReminderRule.init)
        }
    }

    /// Sets the store's quiet hours (nil: none) from a day on, today or later (nil:
    /// today) (hc_store_set_quiet_hours). Throws .invalid.
    public func setQuietHours(_ hours: QuietHours?, from day: Day? = nil) throws(HabitError) {
        try withHandle { store throws(HabitError) in
            try check(hc_store_set_quiet_hours(store, hours?.start ?? -1, hours?.end ?? -1, day?.rawValue ?? noDay))
        }
    }

    /// The quiet hours in force on a day (nil: today); nil when none (hc_store_quiet_hours).
    public func quietHours(on day: Day? = nil) throws(HabitError) -> QuietHours? {
        try withHandle { store throws(HabitError) in
            var start: Int32 = -1, end: Int32 = -1
            try check(hc_store_quiet_hours(&start, &end, store, day?.rawValue ?? noDay))
            return start < 0 ? nil : QuietHours(start: start, end: end)
        }
    }

    /// Every reminder instant in [fromMs, toMs) (UTC ms, at most 92 days), by instant,
    /// habit, rule (hc_reminder_list_open). Throws .invalid, .readOnly (.claim on a
    /// read-only store).
    public func reminders(fromMs: Int64, toMs: Int64, options: ReminderListOptions = []) throws(HabitError) -> [Reminder] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_reminder_list_open(&list, store, fromMs, toMs, options.rawValue))
            defer { hc_reminder_list_free(list) }
            return try elements(of: list, { hc_reminder_list_count($0, $1) }, { hc_reminder_list_get($0, $1, $2) }, Reminder.init)
        }
    }

    /// Records that the reminder (rule, day, atMs) was delivered: true when this call
    /// recorded it, false when it had been already; deliver only on true
    /// (hc_reminder_fired). Throws .notFound when it is no longer due.
    @discardableResult
    public func reminderFired(ruleID: ReminderRuleID, day: Day, atMs: Int64) throws(HabitError) -> Bool {
        try withHandle { store throws(HabitError) in
            var recorded: Int32 = 0
            try check(hc_reminder_fired(&recorded, store, ruleID.rawValue, day.rawValue, atMs))
            return recorded != 0
        }
    }

    /// Snoozes the reminder (rule, day, atMs) to untilMs, after atMs and at most a day
    /// later (hc_reminder_snooze). Throws .invalid, .notFound (no longer due).
    public func snoozeReminder(ruleID: ReminderRuleID, day: Day, atMs: Int64, untilMs: Int64) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_reminder_snooze(store, ruleID.rawValue, day.rawValue, atMs, untilMs)) }
    }
}
