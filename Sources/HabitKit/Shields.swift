import CHabitCore

/// What a shield rule says (hc_shield_rule); the defaults are the library's
/// (hc_shield_rule_init). The header's Shields section states what each field does.
public struct ShieldRule: Sendable, Hashable {
    /// Up to 200 bytes.
    public var name: String
    /// The app's set of blocked apps, opaque to the engine; up to 500 bytes.
    public var key: String
    /// Schedule text selecting the dates ("days:mon,fri"); nil: daily. Listed rules
    /// give the canonical text ("daily").
    public var days: String?
    /// The habits whose completion lifts it (1...16).
    public var habitIDs: [HabitID]
    /// Local minute the window opens (0...1439); nil: the store's day start (HC_SHIELD_DAY_START).
    public var startMinute: Int32?
    /// Local minute of the cutoff (0...1439); nil: the next local midnight (HC_SHIELD_MIDNIGHT).
    public var endMinute: Int32?
    /// All habits or any one.
    public var lift: ShieldLift
    /// A running credit unlock session lifts it.
    public var sessionLifts: Bool
    /// The cutoff ends it; false keeps it until done.
    public var cutoffLifts: Bool
    /// An excused day (vacation, skip) lifts it.
    public var excusedLifts: Bool
    /// An app that cannot read the store shields.
    public var failClosed: Bool
    /// The period the emergency budget counts over.
    public var budgetPeriod: ShieldBudgetPeriod
    /// Emergency unlocks per period (0: none).
    public var budgetCount: Int32

    /// A rule named name that blocks the apps key names until these habits are done,
    /// with the library's defaults for the rest.
    public init(name: String, key: String, habitIDs: [HabitID]) {
        var defaults = hc_shield_rule()
        // Cannot fail for our own size; the zeroed struct is the fallback.
        _ = hc_shield_rule_init(&defaults, UInt32(MemoryLayout<hc_shield_rule>.size))
        self.init(defaults, name: name, key: key, habitIDs: habitIDs)
    }

    init(_ r: hc_shield_rule, name: String, key: String, habitIDs: [HabitID]) {
        self.name = name
        self.key = key
        self.habitIDs = habitIDs
        days = copied(r.days)
        startMinute = r.start_minute == HC_SHIELD_DAY_START ? nil : r.start_minute
        endMinute = r.end_minute == HC_SHIELD_MIDNIGHT ? nil : r.end_minute
        lift = ShieldLift(rawValue: r.lift)
        sessionLifts = r.session_lifts != 0
        cutoffLifts = r.cutoff_lifts != 0
        excusedLifts = r.excused_lifts != 0
        failClosed = r.fail_closed != 0
        budgetPeriod = ShieldBudgetPeriod(rawValue: r.budget_period)
        budgetCount = r.budget_count
    }

    /// Runs body with this rule as the C struct, its strings and habit ids alive until body returns.
    func withC<T>(_ body: (inout hc_shield_rule) throws(HabitError) -> T) throws(HabitError) -> T {
        let strings = CStrings()
        var c = hc_shield_rule()
        try check(hc_shield_rule_init(&c, UInt32(MemoryLayout<hc_shield_rule>.size)))
        c.name = try strings(name, "name")
        c.key = try strings(key, "key")
        c.days = try strings(days, "days")
        c.start_minute = startMinute ?? HC_SHIELD_DAY_START
        c.end_minute = endMinute ?? HC_SHIELD_MIDNIGHT
        c.lift = lift.rawValue
        c.session_lifts = sessionLifts ? 1 : 0
        c.cutoff_lifts = cutoffLifts ? 1 : 0
        c.excused_lifts = excusedLifts ? 1 : 0
        c.fail_closed = failClosed ? 1 : 0
        c.budget_period = budgetPeriod.rawValue
        c.budget_count = budgetCount
        c.habit_count = Int64(habitIDs.count)
        return try withExtendedLifetime(strings) { () throws(HabitError) -> T in
            try habitIDs.map(\.rawValue).withUnsafeBufferPointer { (ids) throws(HabitError) -> T in
                c.habit_ids = ids.baseAddress
                return try body(&c)
            }
        }
    }
}

/// A shield rule as stored: the version in force on the day asked.
public struct StoredShieldRule: Sendable, Hashable, Identifiable {
    /// The rule; stable, never reused.
    public var id: ShieldRuleID
    /// The first day of this version.
    public var fromDay: Day
    /// What this version says.
    public var rule: ShieldRule

    init(_ r: hc_shield_rule) {
        id = ShieldRuleID(r.id)
        fromDay = Day(rawValue: r.from_day)
        // A rule names at most HC_SHIELD_MAX_HABITS habits: never read past that.
        let count = Int(min(max(r.habit_count, 0), Int64(HC_SHIELD_MAX_HABITS)))
        let habits = r.habit_ids.map { UnsafeBufferPointer(start: $0, count: count).map(HabitID.init(rawValue:)) } ?? []
        rule = ShieldRule(r, name: copied(r.name) ?? "", key: copied(r.key) ?? "", habitIDs: habits)
    }
}

/// One rule's state at an instant (hc_shield_status).
public struct ShieldStatus: Sendable, Hashable {
    /// The rule.
    public var ruleID: ShieldRuleID
    /// Whether its apps are blocked.
    public var shielded: Bool
    /// Why (not).
    public var reason: ShieldReason
    /// The rule's choice for an app that cannot read the store.
    public var failClosed: Bool
    /// The start date of the window concerned; nil: none.
    public var windowDay: Day?
    /// The habit day whose completions lift it; nil: none.
    public var habitDay: Day?
    /// The window concerned (UTC ms); nil: none.
    public var windowStartMs: Int64?
    /// Its end (UTC ms); nil: none.
    public var windowEndMs: Int64?
    /// .completed, .excused: lifted at (UTC ms).
    public var sinceMs: Int64?
    /// .session, .emergency: lifted until (UTC ms).
    public var untilMs: Int64?
    /// The next time-driven change (UTC ms); nil: none within 62 days.
    public var nextChangeMs: Int64?
    /// What causes that change; nil: none.
    public var nextCause: ShieldCause?
    /// Events that could end the state sooner.
    public var earlier: ShieldEarlier
    /// Emergency unlocks left this period; nil: unlimited.
    public var emergencyLeft: Int32?
    /// The habits not done for habitDay.
    public var outstanding: [HabitID]

    init(_ s: hc_shield_status) {
        ruleID = ShieldRuleID(s.rule_id)
        shielded = s.shielded != 0
        reason = ShieldReason(rawValue: s.reason)
        failClosed = s.fail_closed != 0
        windowDay = s.window_day == 0 ? nil : Day(rawValue: s.window_day)
        habitDay = s.habit_day == 0 ? nil : Day(rawValue: s.habit_day)
        windowStartMs = s.window_start_ms == 0 ? nil : s.window_start_ms
        windowEndMs = s.window_end_ms == 0 ? nil : s.window_end_ms
        sinceMs = s.since_ms == 0 ? nil : s.since_ms
        untilMs = s.until_ms == 0 ? nil : s.until_ms
        nextChangeMs = s.next_change_ms == 0 ? nil : s.next_change_ms
        nextCause = s.next_cause == 0 ? nil : ShieldCause(rawValue: s.next_cause)
        earlier = ShieldEarlier(rawValue: s.earlier)
        emergencyLeft = s.emergency_left < 0 ? nil : s.emergency_left
        let count = Int(min(max(s.outstanding_count, 0), HC_SHIELD_MAX_HABITS))
        outstanding = withUnsafeBytes(of: s.outstanding) { $0.bindMemory(to: Int64.self).prefix(count).map(HabitID.init(rawValue:)) }
    }
}

/// Every rule's state at an instant, and the shield revision read with it (hc_shield_state).
public struct ShieldState: Sendable, Hashable {
    /// The store's shield revision in the same snapshot.
    public var revision: Int64
    /// Each rule's state, by rule id.
    public var rules: [ShieldStatus]
}

/// One change of a rule's state (hc_shield_transition).
public struct ShieldTransition: Sendable, Hashable {
    /// The rule.
    public var ruleID: ShieldRuleID
    /// The state from atMs on.
    public var shielded: Bool
    /// When (UTC ms, a whole minute).
    public var atMs: Int64
    /// The local date at atMs, in the zone then in force.
    public var localDay: Day
    /// The local minute at atMs.
    public var localMinute: Int32
    /// The zone's UTC offset at atMs.
    public var offsetSeconds: Int32
    /// How a clock change placed it.
    public var moved: ShieldMoved
    /// The reason just before atMs.
    public var fromReason: ShieldReason
    /// The reason from atMs on.
    public var toReason: ShieldReason
    /// What caused it.
    public var cause: ShieldCause
    /// The zone's name.
    public var zone: String

    init(_ t: hc_shield_transition) {
        ruleID = ShieldRuleID(t.rule_id)
        shielded = t.shielded != 0
        atMs = t.at_ms
        localDay = Day(rawValue: t.local_day)
        localMinute = t.local_minute
        offsetSeconds = t.offset_seconds
        moved = ShieldMoved(rawValue: t.moved)
        fromReason = ShieldReason(rawValue: t.from_reason)
        toReason = ShieldReason(rawValue: t.to_reason)
        cause = ShieldCause(rawValue: t.cause)
        zone = copied(tuple: t.zone)
    }
}

/// The transitions in a span, and the shield revision read with them (hc_shield_transitions).
public struct ShieldTransitions: Sendable, Hashable {
    /// The store's shield revision in the same snapshot.
    public var revision: Int64
    /// Every flip, by instant then rule.
    public var transitions: [ShieldTransition]
}

extension Store {
    /// Adds a shield rule in effect from a day on (nil: today) and gives its id
    /// (hc_shield_rule_add). Throws .invalid (a bad field), .notFound (a habit),
    /// .readOnly; nothing is written on error.
    @discardableResult
    public func addShieldRule(_ rule: ShieldRule, from day: Day? = nil) throws(HabitError) -> ShieldRuleID {
        try rule.withC { (c) throws(HabitError) -> ShieldRuleID in
            try withHandle { store throws(HabitError) in
                var id: Int64 = 0
                try check(hc_shield_rule_add(&id, store, &c, day?.rawValue ?? noDay))
                return ShieldRuleID(id)
            }
        }
    }

    /// Changes a shield rule from a day on, today or later (nil: today)
    /// (hc_shield_rule_update). Throws as addShieldRule, and .notFound for an unknown rule.
    public func updateShieldRule(id: ShieldRuleID, _ rule: ShieldRule, from day: Day? = nil) throws(HabitError) {
        try rule.withC { (c) throws(HabitError) in
            try withHandle { store throws(HabitError) in
                try check(hc_shield_rule_update(store, id.rawValue, &c, day?.rawValue ?? noDay))
            }
        }
    }

    /// Removes a shield rule from a day on, today or later (nil: today)
    /// (hc_shield_rule_remove). Throws .notFound, .invalid.
    public func removeShieldRule(id: ShieldRuleID, from day: Day? = nil) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_shield_rule_remove(store, id.rawValue, day?.rawValue ?? noDay)) }
    }

    /// The shield rules in force on a day (nil: today), by id (hc_shield_rule_list_open).
    public func shieldRules(on day: Day? = nil) throws(HabitError) -> [StoredShieldRule] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_shield_rule_list_open(&list, store, day?.rawValue ?? noDay))
            defer { hc_shield_rule_list_free(list) }
            return try elements(of: list, { hc_shield_rule_list_count($0, $1) }, { hc_shield_rule_list_get($0, $1, $2) }, StoredShieldRule.init)
        }
    }

    /// Every rule's state at an instant (UTC ms; 0: now) and the revision, from one
    /// snapshot (hc_shield_state). Works on a read-only store.
    public func shieldState(atMs: Int64 = 0) throws(HabitError) -> ShieldState {
        try withHandle { store throws(HabitError) in
            var revision: Int64 = 0
            let rules = try buffered(hc_shield_status()) { out, capacity, total in
                hc_shield_state(out, capacity, total, &revision, store, atMs)
            }
            return ShieldState(revision: revision, rules: rules.map(ShieldStatus.init))
        }
    }

    /// Every instant in [fromMs, toMs) (at most 92 days) where a rule's state flips,
    /// and the revision, from one snapshot (hc_shield_transitions). Throws .invalid
    /// for a span that is empty or too long.
    public func shieldTransitions(fromMs: Int64, toMs: Int64) throws(HabitError) -> ShieldTransitions {
        try withHandle { store throws(HabitError) in
            var revision: Int64 = 0
            let list = try buffered(hc_shield_transition()) { out, capacity, total in
                hc_shield_transitions(out, capacity, total, &revision, store, fromMs, toMs)
            }
            return ShieldTransitions(revision: revision, transitions: list.map(ShieldTransition.init))
        }
    }

    /// The store's shield revision: it changes with every write that can change a
    /// shield, from any process (hc_shield_revision).
    public func shieldRevision() throws(HabitError) -> Int64 {
        try withHandle { store throws(HabitError) in
            var revision: Int64 = 0
            try check(hc_shield_revision(&revision, store))
            return revision
        }
    }

    /// Records an emergency unlock of a rule now, for 1...1440 minutes, and gives its
    /// id (hc_shield_emergency_unlock). Throws .insufficient past the budget (nothing
    /// recorded), .notFound, .conflict (rule not in effect today), .invalid.
    @discardableResult
    public func emergencyUnlock(ruleID: ShieldRuleID, minutes: Int32, reason: String? = nil) throws(HabitError) -> EmergencyUnlockID {
        let strings = CStrings()
        let text = try strings(reason, "reason")
        return try withExtendedLifetime(strings) { () throws(HabitError) -> EmergencyUnlockID in
            try withHandle { store throws(HabitError) in
                var id: Int64 = 0
                try check(hc_shield_emergency_unlock(&id, store, ruleID.rawValue, minutes, text))
                return EmergencyUnlockID(id)
            }
        }
    }

    /// Writes the shield snapshot JSON file an extension reads, atomically, for an
    /// instant (UTC ms; 0: now) (hc_shield_snapshot_write). Throws .invalid (empty
    /// path), .io (cannot write).
    public func writeShieldSnapshot(to path: String, atMs: Int64 = 0) throws(HabitError) {
        let strings = CStrings()
        let cPath = try strings(path, "path")
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { store throws(HabitError) in try check(hc_shield_snapshot_write(store, cPath, atMs)) }
        }
    }
}
