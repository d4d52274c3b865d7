import CHabitCore

/// A habit's day (hc_day_state).
public struct DayState: Sendable, Hashable {
    /// The day.
    public var day: Day
    /// What it came to.
    public var flags: DayFlags
    /// Checkmark: 1 if done; counter, duration: the day's total; measurement: the latest reading.
    public var value: Double
    /// Standing entries that day.
    public var entryCount: Int32

    /// A day state, as a frontend that keeps its own data gives Streaks.compute.
    public init(day: Day, flags: DayFlags, value: Double = 0, entryCount: Int32 = 0) {
        self.day = day
        self.flags = flags
        self.value = value
        self.entryCount = entryCount
    }

    init(_ c: hc_day_state) {
        self.init(day: Day(rawValue: c.day), flags: DayFlags(rawValue: c.flags), value: c.value, entryCount: c.entry_count)
    }

    var c: hc_day_state { hc_day_state(day: day.rawValue, flags: flags.rawValue, value: value, entry_count: entryCount, reserved: 0) }
}

/// One day across all habits (hc_day_score).
public struct DayScore: Sendable, Hashable {
    /// The day.
    public var day: Day
    /// Habits due, excused ones left out.
    public var due: Int32
    /// Of those, done.
    public var done: Int32
    /// Habits excused that day.
    public var excused: Int32
    /// done / due, 0...1; nil when nothing is due.
    public var score: Double?

    init(_ c: hc_day_score) {
        day = Day(rawValue: c.day)
        due = c.due
        done = c.done
        excused = c.excused
        score = c.score < 0 ? nil : c.score
    }
}

/// Kept occurrences against judged ones (hc_completion).
public struct Completion: Sendable, Hashable {
    /// Kept occurrences (quota periods: done days up to the quota).
    public var kept: Int32
    /// Occurrences over (quota periods: their quotas); open and excused left out.
    public var judged: Int32
    /// Excused occurrences.
    public var excused: Int32
    /// kept / judged, 0...1; nil when nothing was judged.
    public var rate: Double?
    /// The current, unfinished occurrence in the range (this week of a weekly
    /// quota, today): done so far up to its quota, and its quota (0 when none).
    public var currentKept: Int32
    public var currentRequired: Int32
    /// The rate with the current occurrence counted as that fraction; nil when nothing counts.
    public var rateWithCurrent: Double?

    init(_ c: hc_completion) {
        kept = c.kept
        judged = c.judged
        excused = c.excused
        rate = c.rate < 0 ? nil : c.rate
        currentKept = c.current_kept
        currentRequired = c.current_required
        rateWithCurrent = c.rate_with_current < 0 ? nil : c.rate_with_current
    }
}

/// A quota habit's period holding a day, as of that day (hc_quota_progress).
public struct QuotaProgress: Sendable, Hashable {
    /// The habit.
    public var habitID: HabitID
    /// The period's first day.
    public var periodFirst: Day
    /// Done days from periodFirst to the day, and the period's quota.
    public var done: Int32
    public var required: Int32
    /// Whether the quota is met by the day.
    public var met: Bool

    init(_ c: hc_quota_progress) {
        habitID = HabitID(c.habit_id)
        periodFirst = Day(rawValue: c.period_first)
        done = c.done
        required = c.required
        met = c.met != 0
    }
}

/// One day of a group read both ways (hc_group_day, hc_group_day_rates): day-based
/// habits only, with the quota habits' progress beside them (Numu's day rate), and
/// every habit with quota habits due until met (the daily score).
public struct GroupDay: Sendable, Hashable {
    /// The day.
    public var day: Day
    /// Day-based habits due (excused left out), done, excused; done / due (nil: none due).
    public var due: Int32
    public var done: Int32
    public var excused: Int32
    public var rate: Double?
    /// Each quota habit's period progress, by habit id.
    public var quota: [QuotaProgress]
    /// Quota habits due until met: every habit's due, done and excused; the rate (nil: none due).
    public var allDue: Int32
    public var allDone: Int32
    public var allExcused: Int32
    public var allRate: Double?

    init(_ c: hc_group_day, quota: [QuotaProgress]) {
        day = Day(rawValue: c.day)
        due = c.due
        done = c.done
        excused = c.excused
        rate = c.rate < 0 ? nil : c.rate
        self.quota = quota
        allDue = c.all_due
        allDone = c.all_done
        allExcused = c.all_excused
        allRate = c.all_rate < 0 ? nil : c.all_rate
    }
}

/// A habit due on a day (hc_due_item).
public struct DueItem: Sendable, Hashable {
    /// The habit.
    public var habitID: HabitID
    /// The part of the day it belongs to.
    public var routine: Routine
    /// Where it stands.
    public var state: DueState
    /// The day's value so far.
    public var value: Double
    /// Its target.
    public var target: Double

    init(_ c: hc_due_item) {
        habitID = HabitID(c.habit_id)
        routine = Routine(rawValue: c.routine)
        state = DueState(rawValue: c.state)
        value = c.value
        target = c.target
    }
}

/// A measurement habit's readings over a window (hc_measurement_stats).
public struct MeasurementStats: Sendable, Hashable {
    /// Days with a reading in the window.
    public var count: Int32
    /// The day of the latest reading; nil when there is none.
    public var latestDay: Day?
    /// The latest reading.
    public var latest: Double
    /// The day of the best reading by the habit's direction; nil when there is none.
    public var bestDay: Day?
    /// The best reading.
    public var best: Double
    /// The latest minus the window's first reading; 0 with fewer than two.
    public var change: Double

    init(_ c: hc_measurement_stats) {
        count = c.count
        latestDay = c.count > 0 ? Day(rawValue: c.latest_day) : nil
        latest = c.latest
        bestDay = c.count > 0 ? Day(rawValue: c.best_day) : nil
        best = c.best
        change = c.change
    }
}

/// The store-wide streaks (hc_store_streaks).
public struct StoreStreaks: Sendable, Hashable {
    /// Days with something due and every due habit done.
    public var perfectDays: Streaks
    /// Days with at least one habit done.
    public var activeDays: Streaks
}

/// What the pure streak and strength calls need of a habit (hc_habit_rules); the
/// defaults are the library's (hc_habit_rules_init).
public struct HabitRules: Sendable, Hashable {
    /// What it counts (for the strength of numbers).
    public var kind: HabitKind
    /// The daily target.
    public var target: Double
    /// At least or at most the target.
    public var direction: Direction
    /// The first day it counts.
    public var startDay: Day
    /// The schedule text; nil means "daily".
    public var schedule: String?
    /// The first day of the week, 0 = Sunday ... 6 = Saturday.
    public var weekStart: Int32

    /// The library's defaults, from startDay on.
    public init(startDay: Day, schedule: String? = nil) {
        var c = hc_habit_rules()
        // Cannot fail for our own size; the zeroed struct is the fallback.
        _ = hc_habit_rules_init(&c, UInt32(MemoryLayout<hc_habit_rules>.size))
        kind = HabitKind(rawValue: c.kind)
        target = c.target
        direction = Direction(rawValue: c.direction)
        self.startDay = startDay
        self.schedule = schedule
        weekStart = c.week_start
    }

    /// Runs body with these rules as hc_habit_rules, valid during body.
    func withC<T>(_ body: (UnsafePointer<hc_habit_rules>) throws(HabitError) -> T) throws(HabitError) -> T {
        let strings = CStrings()
        var c = hc_habit_rules()
        try check(hc_habit_rules_init(&c, UInt32(MemoryLayout<hc_habit_rules>.size)))
        c.kind = kind.rawValue
        c.target = target
        c.direction = direction.rawValue
        c.start_day = startDay.rawValue
        c.schedule = try strings(schedule, "schedule")
        c.week_start = weekStart
        return try withExtendedLifetime(strings) { () throws(HabitError) -> T in try body(&c) }
    }
}

extension Streaks {
    /// A habit's streaks from day states a frontend keeps itself, without a store:
    /// the same fold as Store.streaks (hc_streak_compute, or
    /// hc_streak_compute_with_policy when a policy is given; its offDays is not read).
    /// Days may come in any order; days without entries may be left out; up to `best`
    /// (at most Streaks.maxBest) of the longest runs are copied out. Throws .invalid.
    public static func compute(
        days: [DayState], rules: HabitRules, policy: StreakPolicy? = nil, asOf: Day,
        best: Int = 0
    ) throws(HabitError) -> Streaks {
        let states = days.map(\.c)
        var result = hc_streak_result()
        try check(hc_streak_result_init(&result, UInt32(MemoryLayout<hc_streak_result>.size)))
        var runs = [hc_streak](repeating: hc_streak(), count: Streaks.capacity(best))
        var total: Int64 = 0
        try rules.withC { rules throws(HabitError) in
            try check(
                states.withUnsafeBufferPointer { days in
                    runs.withUnsafeMutableBufferPointer { buffer in
                        let out = buffer.isEmpty ? nil : buffer.baseAddress
                        guard let policy else {
                            return hc_streak_compute(
                                &result, out, Int64(buffer.count), &total, rules, days.baseAddress,
                                Int64(days.count), asOf.rawValue)
                        }
                        var c = defaultPolicy()
                        c.miss_allowance = policy.missAllowance
                        c.open_day = policy.openDay.rawValue
                        c.off_days = policy.offDays.rawValue
                        return hc_streak_compute_with_policy(
                            &result, out, Int64(buffer.count), &total, rules, &c, days.baseAddress,
                            Int64(days.count), asOf.rawValue)
                    }
                })
        }
        return Streaks(result, best: Array(runs.prefix(Int(min(max(total, 0), Int64(runs.count))))))
    }
}

/// Habit strength without a store (Loop Habit Tracker's score).
public enum Strength {
    /// The strength at the end of each day from one day through another, from day
    /// states a frontend keeps itself: the same rule as Store.strength
    /// (hc_strength_compute). Throws .invalid.
    public static func compute(days: [DayState], rules: HabitRules, from: Day, through: Day) throws(HabitError) -> [Double] {
        let states = days.map(\.c)
        return try rules.withC { rules throws(HabitError) in
            try states.withUnsafeBufferPointer { (days) throws(HabitError) -> [Double] in
                try buffered(0.0, guess: rangeLength(from, through)) {
                    hc_strength_compute($0, $1, $2, rules, days.baseAddress, Int64(days.count), from.rawValue, through.rawValue)
                }
            }
        }
    }
}

/// Days from one day through another, both included.
func rangeLength(_ from: Day, _ through: Day) -> Int64 { Int64(through.rawValue) - Int64(from.rawValue) + 1 }

/// hc_completion with the library's defaults (hc_completion_init).
private func newCompletion() -> hc_completion {
    var c = hc_completion()
    _ = hc_completion_init(&c, UInt32(MemoryLayout<hc_completion>.size))
    return c
}

extension Store {
    /// A habit's state on every day from one day through another (at most 100000),
    /// oldest first (hc_habit_day_states). Throws .invalid, .notFound.
    public func dayStates(habitID: HabitID, from: Day, through: Day) throws(HabitError) -> [DayState] {
        try withHandle { store throws(HabitError) in
            try buffered(hc_day_state(), guess: rangeLength(from, through)) {
                hc_habit_day_states($0, $1, $2, store, habitID.rawValue, from.rawValue, through.rawValue)
            }.map(DayState.init)
        }
    }

    /// The store-wide perfect-day and active-day streaks as of a day (nil: today),
    /// under the store's streak policy (hc_store_streaks).
    public func storeStreaks(asOf day: Day? = nil) throws(HabitError) -> StoreStreaks {
        try withHandle { store throws(HabitError) in
            var perfect = hc_streak_result(), active = hc_streak_result()
            try check(hc_streak_result_init(&perfect, UInt32(MemoryLayout<hc_streak_result>.size)))
            try check(hc_streak_result_init(&active, UInt32(MemoryLayout<hc_streak_result>.size)))
            try check(hc_store_streaks(&perfect, &active, store, day?.rawValue ?? noDay))
            return StoreStreaks(perfectDays: Streaks(perfect), activeDays: Streaks(active))
        }
    }

    /// The score of every day from one day through another (at most 100000) across
    /// all habits (hc_store_day_scores). Throws .invalid.
    public func dayScores(from: Day, through: Day) throws(HabitError) -> [DayScore] {
        try withHandle { store throws(HabitError) in
            try buffered(hc_day_score(), guess: rangeLength(from, through)) {
                hc_store_day_scores($0, $1, $2, store, from.rawValue, through.rawValue)
            }.map(DayScore.init)
        }
    }

    /// A habit's strength (Loop Habit Tracker's score, 0...1) at the end of each day
    /// from one day through another (hc_habit_strength). Throws .invalid, .notFound.
    public func strength(habitID: HabitID, from: Day, through: Day) throws(HabitError) -> [Double] {
        try withHandle { store throws(HabitError) in
            try buffered(0.0, guess: rangeLength(from, through)) {
                hc_habit_strength($0, $1, $2, store, habitID.rawValue, from.rawValue, through.rawValue)
            }
        }
    }

    /// A habit's completion over the occurrences within two days (hc_habit_completion).
    /// Throws .invalid, .notFound.
    public func completion(habitID: HabitID, from: Day, through: Day) throws(HabitError) -> Completion {
        try withHandle { store throws(HabitError) in
            var out = newCompletion()
            try check(hc_habit_completion(&out, store, habitID.rawValue, from.rawValue, through.rawValue))
            return Completion(out)
        }
    }

    /// A group's completion on a day (nil: today), counting due habits, and over a
    /// window, counting due habit-days; group names ignore ASCII case
    /// (hc_group_completion). Throws .invalid, .notFound (no such group).
    public func groupCompletion(
        group: String, asOf day: Day? = nil, from: Day,
        through: Day
    ) throws(HabitError) -> (day: Completion, window: Completion) {
        try withHandle { store throws(HabitError) in
            var onDay = newCompletion(), window = newCompletion()
            try check(hc_group_completion(&onDay, &window, store, group, day?.rawValue ?? noDay, from.rawValue, through.rawValue))
            return (Completion(onDay), Completion(window))
        }
    }

    /// A group's day (nil group: every habit; nil day: today) read both ways, with
    /// each quota habit's period progress (hc_group_day_rates). Throws .invalid,
    /// .notFound (no such group).
    public func groupDay(group: String? = nil, on day: Day? = nil) throws(HabitError) -> GroupDay {
        try withHandle { store throws(HabitError) in
            var out = hc_group_day()
            try check(hc_group_day_init(&out, UInt32(MemoryLayout<hc_group_day>.size)))
            let quota = try buffered(hc_quota_progress()) { buffer, capacity, total in
                let ask = { (name: UnsafePointer<CChar>?) in hc_group_day_rates(&out, buffer, capacity, total, store, name, day?.rawValue ?? noDay) }
                return group.map { $0.withCString(ask) } ?? ask(nil)
            }
            return GroupDay(out, quota: quota.map(QuotaProgress.init))
        }
    }

    /// What is due on a day (nil: today), grouped by routine (morning, day, evening,
    /// anytime) and by name within one (hc_store_due). Throws .invalid.
    public func due(on day: Day? = nil) throws(HabitError) -> [DueItem] {
        try withHandle { store throws(HabitError) in
            try buffered(hc_due_item()) { hc_store_due($0, $1, $2, store, day?.rawValue ?? noDay) }.map(DueItem.init)
        }
    }

    /// Writes the today snapshot JSON file a widget reads (docs/FORMATS.md), atomically,
    /// for an instant (UTC ms; 0: now) (hc_today_snapshot_write). Works on a read-only
    /// store. Throws .invalid (empty path, bad instant), .io (cannot write).
    public func writeTodaySnapshot(to path: String, atMs: Int64 = 0) throws(HabitError) {
        let strings = CStrings()
        let cPath = try strings(path, "path")
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { store throws(HabitError) in try check(hc_today_snapshot_write(store, cPath, atMs)) }
        }
    }

    /// A measurement habit's readings from one day through another
    /// (hc_habit_measurements). Throws .invalid (not a measurement habit), .notFound.
    public func measurements(habitID: HabitID, from: Day, through: Day) throws(HabitError) -> MeasurementStats {
        try withHandle { store throws(HabitError) in
            var out = hc_measurement_stats()
            try check(hc_measurement_stats_init(&out, UInt32(MemoryLayout<hc_measurement_stats>.size)))
            try check(hc_habit_measurements(&out, store, habitID.rawValue, from.rawValue, through.rawValue))
            return MeasurementStats(out)
        }
    }
}
