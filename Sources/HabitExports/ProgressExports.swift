import CHabitCore
import HabitCore
import HabitEngine

// Schedules, streaks and scores: store-backed calls and the pure ones, both
// through the same domain functions.

enum CProgress {
    static func streak(_ streak: Streak?) -> hc_streak {
        guard let streak else { return hc_streak() }
        return hc_streak(first_day: streak.first, last_day: streak.last, length: streak.length, excused_days: streak.excusedDays)
    }

    static func unit(_ schedule: Schedule) -> Int32 {
        switch schedule {
        case .timesPerWeek: return HC_STREAK_UNIT_WEEKS
        case .timesPerMonth: return HC_STREAK_UNIT_MONTHS
        case .timesInDays: return HC_STREAK_UNIT_PERIODS
        default: return HC_STREAK_UNIT_DAYS
        }
    }

    /// hc_streak_result's sizes: 0.2.0's (without the forgiven counts), then today's.
    static let streakResultSizes = [40, MemoryLayout<hc_streak_result>.size]

    static func streakResult(_ out: UnsafeMutablePointer<hc_streak_result>?, _ name: String) throws(HabitError) -> Convert.GrownResult<hc_streak_result> {
        try Convert.grownResult(out, name, sizes: streakResultSizes)
    }

    static func writeStreaks(
        _ summary: StreakSummary, schedule: Schedule, out: Convert.GrownResult<hc_streak_result>,
        best: UnsafeMutableBufferPointer<hc_streak>, bestCount: UnsafeMutablePointer<Int64>?
    ) {
        out.write(
            hc_streak_result(
                struct_size: UInt32(MemoryLayout<hc_streak_result>.size), unit: unit(schedule),
                current: streak(summary.current), longest: streak(summary.longest),
                current_forgiven: summary.current?.forgiven ?? 0, longest_forgiven: summary.longest?.forgiven ?? 0))
        for (index, run) in summary.best.prefix(best.count).enumerated() { best[index] = streak(run) }
        bestCount?.pointee = Int64(summary.runCount)
    }

    /// A habit history from the pure calls' rules and day states, up to `lastDay`
    /// (later days are checked but cannot change a result up to it).
    static func history(
        _ rules: UnsafePointer<hc_habit_rules>?, _ days: UnsafePointer<hc_day_state>?,
        _ count: Int64, through lastDay: Int32
    ) throws(HabitError) -> HabitHistory {
        let rules = try Convert.options(rules, "rules")
        guard count >= 0, count <= 10_000_000 else { throw .invalid("day_count \(count) is outside 0...10000000") }
        guard count == 0 || days != nil else { throw .invalid("days is NULL with day_count \(count)") }
        guard CivilDate.isValid(rules.start_day) else { throw .invalid("start_day \(rules.start_day) is not a valid day") }
        let spec = try HabitSpec(
            name: "rules", kind: try CHabit.kind(rules.kind), target: rules.target,
            direction: try CHabit.direction(rules.direction), group: nil, unit: nil, routine: .anytime,
            proofRequired: false, startDay: rules.start_day, schedule: try CHabit.schedule(rules.schedule)
        ).validatedRules()
        guard CivilDate.isValid(lastDay) else { throw .invalid("last day \(lastDay) is not a valid day") }
        // The days placed straight into the history's arrays, each record checked
        // as it is read: the pure calls spend about half their time here.
        let start = spec.startDay
        let length = lastDay >= start ? Int(lastDay) - Int(start) + 1 : 0
        var marks = [UInt8](repeating: HabitHistory.Mark.empty(for: spec), count: length)
        var values = [Double](repeating: 0, count: HabitHistory.keepsValues(spec) ? length : 0)
        let states = UnsafeBufferPointer(start: days, count: Int(count))
        // The domain's mark for each of the four done/skipped combinations, a byte
        // each: one shift per day state instead of a call into the domain.
        var markTable: UInt32 = 0
        for flags in 0..<UInt32(4) {
            let mark = HabitHistory.Mark.recorded(done: flags & HC_DAY_DONE != 0, skipped: flags & HC_DAY_SKIPPED != 0)
            markTable |= UInt32(mark) << (flags * 8)
        }
        try marks.withUnsafeMutableBufferPointer { (markSlots) throws(HabitError) in
            for state in states {
                let index = Int(state.day) - Int(start)
                // A day within start...lastDay is a valid day, as both ends are.
                // (One unsigned comparison: a negative index is a huge UInt.)
                let placed = UInt(bitPattern: index) < UInt(length)
                guard isAllowed(state, dayChecked: placed) else { throw rejection(of: state) }
                // Days outside are checked but cannot change a result up to lastDay.
                guard placed else { continue }
                markSlots[index] = UInt8(truncatingIfNeeded: markTable >> ((state.flags & (HC_DAY_DONE | HC_DAY_SKIPPED)) * 8))
            }
        }
        // Numbers in a second pass, for the kinds that keep them: the first stays
        // short for checkmarks, the common case. (Every record is checked by now.)
        if !values.isEmpty {
            values.withUnsafeMutableBufferPointer { valueSlots in
                for state in states {
                    let index = Int(state.day) - Int(start)
                    if UInt(bitPattern: index) < UInt(length) { valueSlots[index] = state.value }
                }
            }
        }
        return HabitHistory(spec: spec, versions: [], archivedDay: nil, marks: marks, values: values)
    }

    /// The flags hc_day_state may carry.
    static var knownDayFlags: UInt32 { HC_DAY_DONE | HC_DAY_SKIPPED | HC_DAY_HAS_ENTRIES }

    /// A day state as the header allows it: a valid day, known flags, a finite value.
    @inline(__always)
    static func isAllowed(_ state: hc_day_state, dayChecked: Bool) -> Bool {
        (dayChecked || CivilDate.isValid(state.day)) && state.flags & ~knownDayFlags == 0 && state.value.isFinite
    }

    /// Why isAllowed refused a day state (kept out of the placing loop).
    @inline(never)
    static func rejection(of state: hc_day_state) -> HabitError {
        guard CivilDate.isValid(state.day) else { return .invalid("days holds day \(state.day), outside 0001-01-01...9999-12-31") }
        guard state.flags & ~knownDayFlags == 0 else {
            return .invalid("days holds unknown flags 0x\(String(state.flags, radix: 16))")
        }
        return .invalid("days holds a value that is not finite")
    }

    /// The rules' first weekday, checked.
    static func weekStart(_ rules: UnsafePointer<hc_habit_rules>?) throws(HabitError) -> Int {
        let weekday = try Convert.options(rules, "rules").week_start
        try DayClock.validateWeekStart(Int64(weekday))
        return Int(weekday)
    }

    static func day(_ value: Int32, _ name: String) throws(HabitError) -> Int32 {
        guard CivilDate.isValid(value) else { throw .invalid("\(name) \(value) is not a day within 0001-01-01...9999-12-31") }
        return value
    }

    /// A day range for a series (its length is the total of a caller buffer).
    static func series(_ from: Int32, _ to: Int32) throws(HabitError) {
        try CivilDate.checkRange(from: from, to: to, limit: CivilDate.maxRangeDays)
    }

    static func completion(_ value: Scores.Completion) -> hc_completion {
        hc_completion(
            struct_size: UInt32(MemoryLayout<hc_completion>.size), kept: value.kept, judged: value.judged,
            excused: value.excused, rate: value.rate ?? -1, current_kept: value.currentKept,
            current_required: value.currentRequired, rate_with_current: value.rateWithCurrent ?? -1)
    }

    /// hc_completion's sizes: 1.0's (without the current occurrence), then today's.
    static func completionResult(_ out: UnsafeMutablePointer<hc_completion>?, _ name: String) throws(HabitError)
        -> Convert.GrownResult<hc_completion>
    {
        try Convert.grownResult(out, name, sizes: [24, MemoryLayout<hc_completion>.size])
    }

    static func groupDay(_ r: Global.DayReadings) -> hc_group_day {
        hc_group_day(
            struct_size: UInt32(MemoryLayout<hc_group_day>.size), day: r.dayBased.day, due: r.dayBased.due,
            done: r.dayBased.done, excused: r.dayBased.excused, quota_habits: Int32(clamping: r.quota.count),
            rate: r.dayBased.score ?? -1, quota_met: Int32(clamping: r.quota.filter(\.met).count),
            all_due: r.dueUntilMet.due, all_done: r.dueUntilMet.done, all_excused: r.dueUntilMet.excused,
            all_rate: r.dueUntilMet.score ?? -1)
    }
}

@c @implementation
public func hc_store_set_week_start(_ store: OpaquePointer?, _ weekday: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.setWeekStart(weekday) }
}

@c @implementation
public func hc_store_week_start(_ out_weekday: UnsafeMutablePointer<Int32>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_weekday, "out_weekday")
        out.pointee = Int32(try engine.weekStart())
    }
}

@c @implementation
public func hc_habit_streaks(
    _ out: UnsafeMutablePointer<hc_streak_result>?, _ best: UnsafeMutablePointer<hc_streak>?,
    _ best_capacity: Int64, _ out_best_count: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?,
    _ habit_id: Int64, _ as_of: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try CProgress.streakResult(out, "out")
        let bestBuffer = try Convert.array(best, best_capacity, "best")
        let bestCount = try Convert.out(out_best_count, "out_best_count")
        let (summary, schedule) = try engine.streaks(habitId: habit_id, asOf: try Convert.day(as_of, "as_of"), best: bestBuffer.count)
        CProgress.writeStreaks(summary, schedule: schedule, out: result, best: bestBuffer, bestCount: bestCount)
    }
}

@c @implementation
public func hc_streak_compute(
    _ out: UnsafeMutablePointer<hc_streak_result>?, _ best: UnsafeMutablePointer<hc_streak>?,
    _ best_capacity: Int64, _ out_best_count: UnsafeMutablePointer<Int64>?,
    _ rules: UnsafePointer<hc_habit_rules>?, _ days: UnsafePointer<hc_day_state>?, _ day_count: Int64,
    _ as_of: Int32
) -> Int32 {
    CProgress.computeStreaks(out, best, best_capacity, out_best_count, rules, nil, days, day_count, as_of)
}

@c @implementation
public func hc_streak_compute_with_policy(
    _ out: UnsafeMutablePointer<hc_streak_result>?, _ best: UnsafeMutablePointer<hc_streak>?,
    _ best_capacity: Int64, _ out_best_count: UnsafeMutablePointer<Int64>?,
    _ rules: UnsafePointer<hc_habit_rules>?, _ policy: UnsafePointer<hc_streak_policy>?,
    _ days: UnsafePointer<hc_day_state>?, _ day_count: Int64, _ as_of: Int32
) -> Int32 {
    CProgress.computeStreaks(out, best, best_capacity, out_best_count, rules, policy, days, day_count, as_of)
}

extension CProgress {
    /// The pure streak calls, with or without a policy.
    static func computeStreaks(
        _ out: UnsafeMutablePointer<hc_streak_result>?, _ best: UnsafeMutablePointer<hc_streak>?,
        _ best_capacity: Int64, _ out_best_count: UnsafeMutablePointer<Int64>?,
        _ rules: UnsafePointer<hc_habit_rules>?, _ policy: UnsafePointer<hc_streak_policy>?,
        _ days: UnsafePointer<hc_day_state>?, _ day_count: Int64, _ as_of: Int32
    ) -> Int32 {
        call { () throws(HabitError) in
            let result = try CProgress.streakResult(out, "out")
            let bestBuffer = try Convert.array(best, best_capacity, "best")
            let bestCount = try Convert.out(out_best_count, "out_best_count")
            let asOf = try CProgress.day(as_of, "as_of")
            let streakPolicy = try policy.map { (pointer) throws(HabitError) in try CPolicy.policy(pointer) } ?? .standard
            let history = try CProgress.history(rules, days, day_count, through: asOf)
            let summary = Streaks.summary(
                history, asOf: asOf, weekStart: try CProgress.weekStart(rules), policy: streakPolicy,
                best: bestBuffer.count)
            CProgress.writeStreaks(summary, schedule: history.spec.schedule, out: result, best: bestBuffer, bestCount: bestCount)
        }
    }
}

@c @implementation
public func hc_store_streaks(
    _ out_perfect: UnsafeMutablePointer<hc_streak_result>?, _ out_active: UnsafeMutablePointer<hc_streak_result>?,
    _ store: OpaquePointer?, _ as_of: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let perfect = try CProgress.streakResult(out_perfect, "out_perfect")
        let active = try CProgress.streakResult(out_active, "out_active")
        let (perfectDays, activeDays) = try engine.globalStreaks(asOf: try Convert.day(as_of, "as_of"))
        let empty = UnsafeMutableBufferPointer<hc_streak>(start: nil, count: 0)
        CProgress.writeStreaks(perfectDays, schedule: .daily, out: perfect, best: empty, bestCount: nil)
        CProgress.writeStreaks(activeDays, schedule: .daily, out: active, best: empty, bestCount: nil)
    }
}

@c @implementation
public func hc_store_day_scores(
    _ out: UnsafeMutablePointer<hc_day_score>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?, _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let buffer = try Convert.array(out, capacity, "out")
        let count = try Convert.out(out_count, "out_count")
        try CProgress.series(from_day, to_day)
        Convert.copy(try engine.tallies(from: from_day, to: to_day), into: buffer, count: count) { tally in
            hc_day_score(day: tally.day, due: tally.due, done: tally.done, excused: tally.excused, score: tally.score ?? -1)
        }
    }
}

@c @implementation
public func hc_habit_strength(
    _ out: UnsafeMutablePointer<Double>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?, _ habit_id: Int64, _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let buffer = try Convert.array(out, capacity, "out")
        let count = try Convert.out(out_count, "out_count")
        try CProgress.series(from_day, to_day)
        Convert.copy(try engine.strength(habitId: habit_id, from: from_day, to: to_day), into: buffer, count: count) { $0 }
    }
}

@c @implementation
public func hc_strength_compute(
    _ out: UnsafeMutablePointer<Double>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ rules: UnsafePointer<hc_habit_rules>?, _ days: UnsafePointer<hc_day_state>?, _ day_count: Int64,
    _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    call { () throws(HabitError) in
        let buffer = try Convert.array(out, capacity, "out")
        let count = try Convert.out(out_count, "out_count")
        try CProgress.series(from_day, to_day)
        let history = try CProgress.history(rules, days, day_count, through: to_day)
        // No clock here: to_day is the open day.
        Convert.copy(
            Scores.strengthSeries(history, from: from_day, to: to_day, asOf: to_day, weekStart: try CProgress.weekStart(rules)),
            into: buffer, count: count
        ) { $0 }
    }
}

@c @implementation
public func hc_habit_completion(
    _ out: UnsafeMutablePointer<hc_completion>?, _ store: OpaquePointer?, _ habit_id: Int64,
    _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try CProgress.completionResult(out, "out")
        result.write(CProgress.completion(try engine.completion(habitId: habit_id, from: from_day, to: to_day)))
    }
}

@c @implementation
public func hc_group_completion(
    _ out_day: UnsafeMutablePointer<hc_completion>?, _ out_window: UnsafeMutablePointer<hc_completion>?,
    _ store: OpaquePointer?, _ group: UnsafePointer<CChar>?, _ as_of: Int32,
    _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let dayResult = try CProgress.completionResult(out_day, "out_day")
        let windowResult = try CProgress.completionResult(out_window, "out_window")
        let (day, window) = try engine.groupCompletion(
            try Convert.string(group, "group"), asOf: try Convert.day(as_of, "as_of"),
            from: from_day, to: to_day)
        dayResult.write(CProgress.completion(day))
        windowResult.write(CProgress.completion(window))
    }
}

@c @implementation
public func hc_group_day_rates(
    _ out: UnsafeMutablePointer<hc_group_day>?, _ quota: UnsafeMutablePointer<hc_quota_progress>?,
    _ quota_capacity: Int64, _ out_quota_count: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?,
    _ group: UnsafePointer<CChar>?, _ day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        let buffer = try Convert.array(quota, quota_capacity, "quota")
        let count = try Convert.out(out_quota_count, "out_quota_count")
        let readings = try engine.dayReadings(group: try Convert.optionalString(group, "group"), day: try Convert.day(day, "day"))
        result.pointee = CProgress.groupDay(readings)
        for (index, progress) in readings.quota.prefix(buffer.count).enumerated() {
            buffer[index] = hc_quota_progress(
                habit_id: progress.habitId, period_first: progress.first, done: progress.done,
                required: progress.required, met: progress.met ? 1 : 0)
        }
        count.pointee = Int64(readings.quota.count)
    }
}

@c @implementation
public func hc_store_due(
    _ out: UnsafeMutablePointer<hc_due_item>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?, _ day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let buffer = try Convert.array(out, capacity, "out")
        let count = try Convert.out(out_count, "out_count")
        Convert.copy(try engine.due(on: try Convert.day(day, "day")), into: buffer, count: count) { item in
            hc_due_item(
                habit_id: item.habit.id, routine: item.habit.spec.routine.rawValue, state: item.state.rawValue,
                value: item.value, target: item.habit.spec.target)
        }
    }
}

@c @implementation
public func hc_habit_measurements(
    _ out: UnsafeMutablePointer<hc_measurement_stats>?, _ store: OpaquePointer?, _ habit_id: Int64,
    _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        let stats = try engine.measurements(habitId: habit_id, from: from_day, to: to_day)
        result.pointee = hc_measurement_stats(
            struct_size: UInt32(MemoryLayout<hc_measurement_stats>.size), count: Int32(clamping: stats.count),
            latest_day: stats.latest?.day ?? dayNone, latest: stats.latest?.value ?? 0,
            best_day: stats.best?.day ?? dayNone, best: stats.best?.value ?? 0, change: stats.change ?? 0)
    }
}

@c @implementation
public func hc_today_snapshot_write(_ store: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ at_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let path = try Convert.string(path, "path")
        try engine.writeTodaySnapshot(path: path, atMs: Convert.instant(at_ms))
    }
}
