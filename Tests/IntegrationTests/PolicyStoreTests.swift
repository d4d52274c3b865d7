import CHabitCore
import Foundation
import XCTest

/// The streak policies and routine bounds, through the C functions on a real
/// store: streak policies per habit and for the store, and the routine by the
/// clock. March 2026: the 1st is a Sunday.
final class PolicyStoreTests: OpenStoreTestCase {
    func march(_ date: Int) -> Int32 { day("2026-03-01") + Int32(date - 1) }

    func policy(_ allowance: Int32, _ openDay: Int32, _ offDays: Int32) -> hc_streak_policy {
        var policy = defaults(hc_streak_policy_init)
        policy.miss_allowance = allowance
        policy.open_day = openDay
        policy.off_days = offDays
        return policy
    }

    func streak(_ habit: Int64, asOf: Int32) -> hc_streak_result {
        var result = defaults(hc_streak_result_init)
        var count: Int64 = 0
        ok(hc_habit_streaks(&result, nil, 0, &count, store, habit, asOf))
        return result
    }

    func globalPerfect(asOf: Int32) -> hc_streak_result {
        var perfect = defaults(hc_streak_result_init), active = defaults(hc_streak_result_init)
        ok(hc_store_streaks(&perfect, &active, store, asOf))
        return perfect
    }

    func done(_ habit: Int64, _ dates: [Int]) {
        for date in dates { ok(append(store, habit, on: self.date(march(date))).0) }
    }

    // MARK: Streak policies

    func testNeverMissTwiceRowsOnAStoredHabit() {
        let rows: [(name: String, schedule: String?, done: [Int], asOf: Int, current: Int32, forgiven: Int32)] = [
            ("daily, done Mar 1-10", nil, Array(1...10), 10, 10, 0),
            ("done Mar 1-9, today open", nil, Array(1...9), 10, 9, 1),
            ("done Mar 1-8 only, as of Mar 10", nil, Array(1...8), 10, 0, 0),
            ("one miss on Mar 8", nil, (1...10).filter { $0 != 8 }, 10, 9, 1),
            ("misses on Mar 7 and 8", nil, (1...10).filter { $0 != 7 && $0 != 8 }, 10, 2, 0),
            ("even dates only", nil, [2, 4, 6, 8, 10], 10, 5, 4),
            ("Mon/Wed/Fri as of Thursday the 12th", "days:mon,wed,fri", [2, 4, 6, 9, 11], 12, 5, 0),
            ("the same with a Saturday entry", "days:mon,wed,fri", [2, 4, 6, 7, 9, 11], 12, 5, 0),
        ]
        var numu = policy(1, HC_OPEN_DAY_ZERO, 0)
        for (index, row) in rows.enumerated() {
            let habit = createHabit(store, "habit \(index)", schedule: row.schedule, start: "2026-03-01")
            ok(hc_habit_set_streak_policy(store, habit, &numu))
            done(habit, row.done)
            let result = streak(habit, asOf: march(row.asOf))
            XCTAssertEqual(result.current.length, row.current, row.name)
            XCTAssertEqual(result.current_forgiven, row.forgiven, "forgiven: " + row.name)
        }
    }

    func testThePureCallAppliesThePolicyAndAnOldResultSizeStillWorks() {
        var rules = defaults(hc_habit_rules_init)
        rules.kind = HC_KIND_CHECKMARK
        rules.target = 1
        rules.direction = HC_DIRECTION_AT_LEAST
        rules.start_day = march(1)
        rules.week_start = 1
        let days = (1...9).map { hc_day_state(day: march($0), flags: HC_DAY_DONE, value: 1, entry_count: 1, reserved: 0) }
        var numu = policy(1, HC_OPEN_DAY_ZERO, HC_OFF_DAYS_SKIP)
        var result = defaults(hc_streak_result_init)
        var count: Int64 = 0
        ok(hc_streak_compute_with_policy(&result, nil, 0, &count, &rules, &numu, days, Int64(days.count), march(10)))
        XCTAssertEqual(result.current.length, 9)
        XCTAssertEqual(result.current_forgiven, 1, "today is the forgiven miss")
        var zero = policy(0, HC_OPEN_DAY_ZERO, HC_OFF_DAYS_SKIP)
        ok(hc_streak_compute_with_policy(&result, nil, 0, &count, &rules, &zero, days, Int64(days.count), march(10)))
        XCTAssertEqual(result.current.length, 0)
        ok(hc_streak_compute_with_policy(&result, nil, 0, &count, &rules, nil, days, Int64(days.count), march(10)))
        XCTAssertEqual(result.current.length, 9, "NULL: the defaults")
        var bad = policy(32, HC_OPEN_DAY_ZERO, HC_OFF_DAYS_SKIP)
        XCTAssertEqual(hc_streak_compute_with_policy(&result, nil, 0, &count, &rules, &bad, days, Int64(days.count), march(10)), HC_E_INVALID)

        // A caller built against 0.2.0 passes the old struct_size: the library writes no further.
        var old = hc_streak_result()
        old.struct_size = 40
        old.current_forgiven = 77
        old.longest_forgiven = 78
        ok(hc_streak_compute(&old, nil, 0, &count, &rules, days, Int64(days.count), march(10)))
        XCTAssertEqual(old.current.length, 9)
        XCTAssertEqual(old.struct_size, 40)
        XCTAssertEqual(old.current_forgiven, 77, "past the caller's size: untouched")
        XCTAssertEqual(old.longest_forgiven, 78)
        old.struct_size = 44
        XCTAssertEqual(hc_streak_compute(&old, nil, 0, &count, &rules, days, Int64(days.count), march(10)), HC_E_INVALID)
    }

    func testHabitsFollowTheStoresPolicyUnlessTheySetTheirOwn() {
        var read = policy(-5, -5, -5)
        ok(hc_store_streak_policy(&read, store))
        XCTAssertEqual([read.miss_allowance, read.open_day, read.off_days], [0, HC_OPEN_DAY_PREVIOUS, HC_OFF_DAYS_SKIP], "the defaults")
        let habit = createHabit(store, "Read", start: "2026-03-01")
        done(habit, Array(1...9))
        XCTAssertEqual(streak(habit, asOf: march(10)).current.length, 9)

        var storeWide = policy(0, HC_OPEN_DAY_ZERO, HC_OFF_DAYS_BREAK)
        ok(hc_store_set_streak_policy(store, &storeWide))
        XCTAssertEqual(streak(habit, asOf: march(10)).current.length, 0, "the store's open day 0")
        ok(hc_habit_streak_policy(&read, store, habit, 0))
        XCTAssertEqual([read.miss_allowance, read.open_day, read.off_days], [0, HC_OPEN_DAY_ZERO, HC_OFF_DAYS_BREAK])
        ok(hc_habit_streak_policy(&read, store, habit, HC_POLICY_OWN))
        XCTAssertEqual([read.miss_allowance, read.open_day, read.off_days], [HC_POLICY_INHERIT, 0, 0], "nothing of its own")

        var own = policy(HC_POLICY_INHERIT, HC_OPEN_DAY_PREVIOUS, 0)
        ok(hc_habit_set_streak_policy(store, habit, &own))
        XCTAssertEqual(streak(habit, asOf: march(10)).current.length, 9, "its own open day")
        ok(hc_habit_streak_policy(&read, store, habit, HC_POLICY_OWN))
        XCTAssertEqual([read.miss_allowance, read.open_day], [HC_POLICY_INHERIT, HC_OPEN_DAY_PREVIOUS])
        var inherit = policy(HC_POLICY_INHERIT, 0, 0)
        ok(hc_habit_set_streak_policy(store, habit, &inherit))
        XCTAssertEqual(streak(habit, asOf: march(10)).current.length, 0, "back to the store's")

        for var bad in [policy(32, 0, 0), policy(-2, 0, 0), policy(0, 3, 0), policy(0, 0, HC_OFF_DAYS_SKIP)] {
            XCTAssertEqual(hc_habit_set_streak_policy(store, habit, &bad), HC_E_INVALID)
        }
        for var bad in [policy(HC_POLICY_INHERIT, 1, 1), policy(0, 0, 1), policy(0, 1, 0), policy(0, 1, 3)] {
            XCTAssertEqual(hc_store_set_streak_policy(store, &bad), HC_E_INVALID)
        }
        var unsized = policy(0, 1, 1)
        unsized.struct_size = 8
        XCTAssertEqual(hc_store_set_streak_policy(store, &unsized), HC_E_INVALID)
        XCTAssertEqual(hc_habit_set_streak_policy(store, 999, &own), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_habit_streak_policy(&read, store, 999, 0), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_habit_streak_policy(&read, store, habit, 0x8), HC_E_INVALID)
        XCTAssertEqual(hc_store_set_streak_policy(store, nil), HC_E_INVALID)
    }

    /// Two Mon-Fri habits done every weekday from Monday the 2nd to Monday the 9th.
    func weekdayHabits() -> [Int64] {
        (0..<2).map { index in
            let habit = createHabit(store, "weekday \(index)", schedule: "days:mon,tue,wed,thu,fri", start: "2026-03-02")
            done(habit, [2, 3, 4, 5, 6, 9])
            return habit
        }
    }

    func testOffDaysSkipOrBreakOverAWeekendOnPerHabitAndGlobalStreaks() {
        let habits = weekdayHabits()
        let rows: [(name: String, policy: hc_streak_policy, asOf: Int, global: Int32, forgiven: Int32, perHabit: Int32)] = [
            ("skip", policy(0, HC_OPEN_DAY_PREVIOUS, HC_OFF_DAYS_SKIP), 9, 6, 0, 6),
            ("break", policy(0, HC_OPEN_DAY_PREVIOUS, HC_OFF_DAYS_BREAK), 9, 1, 0, 6),
            ("break, allowance 2", policy(2, HC_OPEN_DAY_PREVIOUS, HC_OFF_DAYS_BREAK), 9, 6, 2, 6),
            ("break, Saturday is today", policy(0, HC_OPEN_DAY_PREVIOUS, HC_OFF_DAYS_BREAK), 7, 5, 0, 5),
            ("break, Saturday is over", policy(0, HC_OPEN_DAY_PREVIOUS, HC_OFF_DAYS_BREAK), 8, 0, 0, 5),
        ]
        for row in rows {
            var p = row.policy
            ok(hc_store_set_streak_policy(store, &p))
            let perfect = globalPerfect(asOf: march(row.asOf))
            XCTAssertEqual(perfect.current.length, row.global, "global: " + row.name)
            XCTAssertEqual(perfect.current_forgiven, row.forgiven, "global forgiven: " + row.name)
            XCTAssertEqual(streak(habits[0], asOf: march(row.asOf)).current.length, row.perHabit, "per habit: " + row.name)
        }
    }

    func testOpenDayZeroVersusPreviousOnPerHabitAndGlobalStreaks() {
        let habits = weekdayHabits()
        // Tuesday the 10th, nothing done yet.
        var previous = policy(0, HC_OPEN_DAY_PREVIOUS, HC_OFF_DAYS_SKIP), zero = policy(0, HC_OPEN_DAY_ZERO, HC_OFF_DAYS_SKIP)
        ok(hc_store_set_streak_policy(store, &previous))
        XCTAssertEqual(globalPerfect(asOf: march(10)).current.length, 6)
        XCTAssertEqual(streak(habits[0], asOf: march(10)).current.length, 6)
        ok(hc_store_set_streak_policy(store, &zero))
        XCTAssertEqual(globalPerfect(asOf: march(10)).current.length, 0)
        XCTAssertEqual(globalPerfect(asOf: march(10)).longest.length, 6)
        XCTAssertEqual(streak(habits[0], asOf: march(10)).current.length, 0)
        var own = policy(HC_POLICY_INHERIT, HC_OPEN_DAY_PREVIOUS, 0)
        ok(hc_habit_set_streak_policy(store, habits[0], &own))
        XCTAssertEqual(streak(habits[0], asOf: march(10)).current.length, 6, "the habit keeps its own rule")
        XCTAssertEqual(streak(habits[1], asOf: march(10)).current.length, 0)
        done(habits[0], [10])
        done(habits[1], [10])
        XCTAssertEqual(globalPerfect(asOf: march(10)).current.length, 7, "kept today: every rule agrees")
    }

    func testAWeeklyQuotaHonoursTheAllowanceAndTheStoredWeekStart() {
        // weekly:2; weeks from Monday: Mar 2-8 met, 9-15 missed, 16-22 met; the 23rd's week open.
        let habit = createHabit(store, "Gym", schedule: "weekly:2", start: "2026-03-02")
        done(habit, [3, 5, 17, 18, 24])
        XCTAssertEqual(streak(habit, asOf: march(25)).current.length, 1)
        var allowance = policy(1, 0, 0)
        ok(hc_habit_set_streak_policy(store, habit, &allowance))
        let result = streak(habit, asOf: march(25))
        XCTAssertEqual(result.unit, HC_STREAK_UNIT_WEEKS)
        XCTAssertEqual(result.current.length, 2)
        XCTAssertEqual(result.current_forgiven, 1)
        // From Sunday: Mar 1-7 met (3, 5), 8-14 missed, 15-21 met (17, 18), 22-28 open.
        ok(hc_store_set_week_start(store, 0))
        XCTAssertEqual(streak(habit, asOf: march(25)).current.length, 2)
    }

    // MARK: Routines

    func routine(at text: String) -> Int32 {
        let parts = text.split(separator: " ")
        let clock = parts[1].split(separator: ":").compactMap { Int64($0) }
        let ms = (Int64(day(String(parts[0]))) * 86_400 + clock[0] * 3600 + clock[1] * 60) * 1000
        var value: Int32 = -1
        ok(hc_store_routine_at(&value, store, ms))
        return value
    }

    func testTheRoutineNowWithTheDefaultsAndADayStartOfThree() {
        ok(hc_store_set_timezone(store, "UTC"))
        let rows: [(time: String, routine: Int32)] = [
            ("2026-03-10 04:59", HC_ROUTINE_EVENING), ("2026-03-10 05:00", HC_ROUTINE_MORNING), ("2026-03-10 10:59", HC_ROUTINE_MORNING),
            ("2026-03-10 11:00", HC_ROUTINE_DAY), ("2026-03-10 17:59", HC_ROUTINE_DAY), ("2026-03-10 18:00", HC_ROUTINE_EVENING),
            ("2026-03-10 00:30", HC_ROUTINE_EVENING),
        ]
        for row in rows { XCTAssertEqual(routine(at: row.time), row.routine, row.time) }
        ok(hc_store_set_day_start(store, 180))
        let shifted: [(time: String, routine: Int32)] = [
            ("2026-03-10 05:00", HC_ROUTINE_EVENING), ("2026-03-10 07:59", HC_ROUTINE_EVENING), ("2026-03-10 08:00", HC_ROUTINE_MORNING),
            ("2026-03-10 13:59", HC_ROUTINE_MORNING), ("2026-03-10 14:00", HC_ROUTINE_DAY), ("2026-03-10 20:59", HC_ROUTINE_DAY),
            ("2026-03-10 21:00", HC_ROUTINE_EVENING), ("2026-03-10 02:30", HC_ROUTINE_EVENING),
        ]
        for row in shifted { XCTAssertEqual(routine(at: row.time), row.routine, "day start 03:00: " + row.time) }
        // In a zone: 05:00 in Berlin (UTC+1 in March) is 04:00 UTC.
        ok(hc_store_set_day_start(store, 0))
        ok(hc_store_set_timezone(store, "Europe/Berlin"))
        XCTAssertEqual(routine(at: "2026-03-10 04:00"), HC_ROUTINE_MORNING)
        XCTAssertEqual(routine(at: "2026-03-10 03:59"), HC_ROUTINE_EVENING)
    }

    func testRoutineBoundsAreAStoreSetting() {
        var morning: Int32 = 0, dayStart: Int32 = 0, evening: Int32 = 0
        ok(hc_store_routine_bounds(&morning, nil, nil, store))
        ok(hc_store_routine_bounds(nil, &dayStart, &evening, store))
        XCTAssertEqual([morning, dayStart, evening], [300, 660, 1080])
        ok(hc_store_set_timezone(store, "UTC"))
        ok(hc_store_set_routine_bounds(store, 360, 720, 1200))
        XCTAssertEqual(routine(at: "2026-03-10 05:30"), HC_ROUTINE_EVENING)
        XCTAssertEqual(routine(at: "2026-03-10 06:00"), HC_ROUTINE_MORNING)
        XCTAssertEqual(routine(at: "2026-03-10 19:59"), HC_ROUTINE_DAY)
        for (m, d, e) in [(720, 360, 1200), (0, 0, 1), (-1, 10, 20), (10, 20, 1440)] as [(Int32, Int32, Int32)] {
            XCTAssertEqual(hc_store_set_routine_bounds(store, m, d, e), HC_E_INVALID, "\(m) \(d) \(e)")
        }
        var value: Int32 = 0
        XCTAssertEqual(hc_store_routine_at(&value, store, -1), HC_E_INVALID)
        XCTAssertEqual(hc_store_routine_at(nil, store, 0), HC_E_INVALID)
        ok(hc_store_routine_at(&value, store, 0))
        XCTAssertTrue([HC_ROUTINE_MORNING, HC_ROUTINE_DAY, HC_ROUTINE_EVENING].contains(value))
    }
}
