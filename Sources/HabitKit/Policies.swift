import CHabitCore

/// A streak policy in force (hc_streak_policy): the store's, or the one a habit's
/// streaks follow. The defaults are the library's (hc_streak_policy_init).
public struct StreakPolicy: Sendable, Hashable {
    /// Missed occurrences a streak survives, 0...31.
    public var missAllowance: Int32
    /// What an open occurrence does.
    public var openDay: OpenDay
    /// What a day with nothing due does to the perfect-day streak (the store's only).
    public var offDays: OffDays

    /// The library's defaults.
    public init() {
        self.init(defaultPolicy())
    }

    /// A policy with these fields.
    public init(missAllowance: Int32, openDay: OpenDay, offDays: OffDays) {
        self.missAllowance = missAllowance
        self.openDay = openDay
        self.offDays = offDays
    }

    init(_ c: hc_streak_policy) {
        missAllowance = c.miss_allowance
        openDay = OpenDay(rawValue: c.open_day)
        offDays = OffDays(rawValue: c.off_days)
    }
}

/// A habit's own streak policy fields (hc_streak_policy of one habit): nil follows
/// the store's.
public struct HabitStreakPolicy: Sendable, Hashable {
    /// The habit's own miss allowance, 0...31; nil: the store's (HC_POLICY_INHERIT).
    public var missAllowance: Int32?
    /// The habit's own open-day rule; nil: the store's (0).
    public var openDay: OpenDay?

    /// A policy with these own fields; by default none, so everything follows the store.
    public init(missAllowance: Int32? = nil, openDay: OpenDay? = nil) {
        self.missAllowance = missAllowance
        self.openDay = openDay
    }
}

/// When the routines begin, in minutes after the day start (hc_store_routine_bounds).
public struct RoutineBounds: Sendable, Hashable {
    /// The morning's start.
    public var morning: Int32
    /// The day's start.
    public var day: Int32
    /// The evening's start.
    public var evening: Int32

    /// Bounds with these starts.
    public init(morning: Int32, day: Int32, evening: Int32) {
        self.morning = morning
        self.day = day
        self.evening = evening
    }
}

/// hc_streak_policy with the library's defaults (hc_streak_policy_init).
func defaultPolicy() -> hc_streak_policy {
    var c = hc_streak_policy()
    // Cannot fail for our own size; the zeroed struct is the fallback.
    _ = hc_streak_policy_init(&c, UInt32(MemoryLayout<hc_streak_policy>.size))
    return c
}

extension Store {
    /// Sets the first day of the week for weekly quotas, 0 = Sunday ... 6 = Saturday
    /// (hc_store_set_week_start). Throws .invalid, .readOnly.
    public func setWeekStart(_ weekday: Int32) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_store_set_week_start(store, weekday)) }
    }

    /// The first day of the week, 0 = Sunday ... 6 = Saturday (hc_store_week_start).
    public func weekStart() throws(HabitError) -> Int32 {
        try withHandle { store throws(HabitError) in
            var weekday: Int32 = 0
            try check(hc_store_week_start(&weekday, store))
            return weekday
        }
    }

    /// Sets the store-wide streak policy, every field (hc_store_set_streak_policy).
    /// Throws .invalid naming the field, .readOnly.
    public func setStreakPolicy(_ policy: StreakPolicy) throws(HabitError) {
        var c = defaultPolicy()
        c.miss_allowance = policy.missAllowance
        c.open_day = policy.openDay.rawValue
        c.off_days = policy.offDays.rawValue
        try withHandle { store throws(HabitError) in try check(hc_store_set_streak_policy(store, &c)) }
    }

    /// The store-wide streak policy (hc_store_streak_policy).
    public func streakPolicy() throws(HabitError) -> StreakPolicy {
        try withHandle { store throws(HabitError) in
            var c = defaultPolicy()
            try check(hc_store_streak_policy(&c, store))
            return StreakPolicy(c)
        }
    }

    /// Sets a habit's own streak policy fields; nil fields follow the store's. It
    /// applies to every day, past ones too (hc_habit_set_streak_policy). Throws
    /// .invalid, .notFound.
    public func setStreakPolicy(_ policy: HabitStreakPolicy, habitID: HabitID) throws(HabitError) {
        var c = defaultPolicy()
        c.miss_allowance = policy.missAllowance ?? HC_POLICY_INHERIT
        c.open_day = policy.openDay?.rawValue ?? 0
        c.off_days = 0
        try withHandle { store throws(HabitError) in try check(hc_habit_set_streak_policy(store, habitID.rawValue, &c)) }
    }

    /// The policy a habit's streaks follow: its own fields over the store's
    /// (hc_habit_streak_policy). Throws .notFound.
    public func streakPolicy(habitID: HabitID) throws(HabitError) -> StreakPolicy {
        try withHandle { store throws(HabitError) in
            var c = defaultPolicy()
            try check(hc_habit_streak_policy(&c, store, habitID.rawValue, 0))
            return StreakPolicy(c)
        }
    }

    /// A habit's own streak policy fields, nil where it follows the store
    /// (hc_habit_streak_policy with HC_POLICY_OWN). Throws .notFound.
    public func ownStreakPolicy(habitID: HabitID) throws(HabitError) -> HabitStreakPolicy {
        try withHandle { store throws(HabitError) in
            var c = defaultPolicy()
            try check(hc_habit_streak_policy(&c, store, habitID.rawValue, HC_POLICY_OWN))
            return HabitStreakPolicy(
                missAllowance: c.miss_allowance == HC_POLICY_INHERIT ? nil : c.miss_allowance,
                openDay: c.open_day == 0 ? nil : OpenDay(rawValue: c.open_day))
        }
    }

    /// Sets when the morning, day and evening routines begin, in minutes after the day
    /// start (hc_store_set_routine_bounds). Throws .invalid, .readOnly.
    public func setRoutineBounds(_ bounds: RoutineBounds) throws(HabitError) {
        try withHandle { store throws(HabitError) in
            try check(hc_store_set_routine_bounds(store, bounds.morning, bounds.day, bounds.evening))
        }
    }

    /// When the routines begin (hc_store_routine_bounds).
    public func routineBounds() throws(HabitError) -> RoutineBounds {
        try withHandle { store throws(HabitError) in
            var morning: Int32 = 0, day: Int32 = 0, evening: Int32 = 0
            try check(hc_store_routine_bounds(&morning, &day, &evening, store))
            return RoutineBounds(morning: morning, day: day, evening: evening)
        }
    }

    /// The routine (morning, day or evening) at an instant (UTC ms; 0: now) in the
    /// home zone (hc_store_routine_at). Throws .invalid.
    public func routine(atMs utcMs: Int64 = 0) throws(HabitError) -> Routine {
        try withHandle { store throws(HabitError) in
            var routine: Int32 = 0
            try check(hc_store_routine_at(&routine, store, utcMs))
            return Routine(rawValue: routine)
        }
    }
}
