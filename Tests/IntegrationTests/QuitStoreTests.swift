import CHabitCore
import Foundation
import HabitCore
import XCTest

/// Quit habits through the C functions on real store files: relapses are entries,
/// hc_quit_status_get folds them in the store's zone and day start.
final class QuitStoreTests: OpenStoreTestCase {
    func status(_ store: OpaquePointer, _ habit: Int64, at ms: Int64, file: StaticString = #filePath, line: UInt = #line) -> hc_quit_status {
        var out = defaults(hc_quit_status_init)
        XCTAssertEqual(hc_quit_status_get(&out, store, habit, ms), HC_OK, String(cString: hc_last_error_message()), file: file, line: line)
        return out
    }

    func relapse(_ store: OpaquePointer, _ habit: Int64, at ms: Int64, on date: String? = nil, amount: Double = 0) -> Int64 {
        let (status, id) = append(store, habit, HC_ENTRY_RELAPSE, value: amount, on: date, atMs: ms)
        XCTAssertEqual(status, HC_OK, String(cString: hc_last_error_message()))
        return id
    }

    func testDaysSinceAndCleanRunsAcrossADSTChangeWithADayStart() throws {
        let zone = "Europe/Berlin"
        ok(hc_store_set_timezone(store, zone))
        ok(hc_store_set_day_start(store, 4 * 60))
        let quit = createHabit(store, "Smoking", kind: HC_KIND_QUIT, target: 8.5, start: "2026-03-20")
        // 23:30 on the 28th, then 02:30 local after the spring-forward night: before the
        // 04:00 day start, so it belongs to the 29th.
        relapse(store, quit, at: instant("2026-03-28", 23 * 60 + 30, in: zone))
        let second = instant("2026-03-30", 2 * 60 + 30, in: zone)
        let secondId = relapse(store, quit, at: second)
        let at = instant("2026-04-02", 12 * 60, in: zone)
        let s = status(store, quit, at: at)
        XCTAssertEqual(s.as_of, day("2026-04-02"))
        XCTAssertEqual(s.last_relapse_id, secondId)
        XCTAssertEqual(s.last_relapse_day, day("2026-03-29"))
        XCTAssertEqual(s.last_relapse_ms, second)
        XCTAssertEqual(s.days_since, 4)
        XCTAssertEqual(s.since_ms, at - second)
        // 03-29 02:30 CEST to 04-02 12:00 CEST is 3 days 9.5 hours of real time.
        XCTAssertEqual(s.since_ms, ((3 * 24 + 9) * 60 + 30) * 60_000)
        XCTAssertEqual(s.current_clean_days, 4, "03-30 through 04-02")
        XCTAssertEqual(s.best_clean_days, 8, "03-20 through 03-27")
        XCTAssertEqual(s.best_clean_first, day("2026-03-20"))
        XCTAssertEqual(s.best_clean_last, day("2026-03-27"))
        XCTAssertEqual(s.clean_days, 12)
        XCTAssertEqual(s.relapses, 2)
        XCTAssertEqual(s.saved, 12 * 8.5, accuracy: 1e-9)
        // The day judges read the same clean days: the streak is the current clean run.
        var streaks = defaults(hc_streak_result_init)
        var bestCount: Int64 = 0
        ok(hc_habit_streaks(&streaks, nil, 0, &bestCount, store, quit, day("2026-04-02")))
        XCTAssertEqual(streaks.unit, HC_STREAK_UNIT_DAYS)
        XCTAssertEqual(streaks.longest.length, 8)
        XCTAssertEqual(streaks.longest.first_day, day("2026-03-20"))
        var states = [hc_day_state](repeating: hc_day_state(), count: 2)
        var count: Int64 = 0
        ok(hc_habit_day_states(&states, 2, &count, store, quit, day("2026-03-28"), day("2026-03-29")))
        XCTAssertEqual(states.map(\.value), [1, 1])
        XCTAssertEqual(states.map { $0.flags & HC_DAY_DONE }, [0, 0])
        // Undo the last relapse: the clean run reaches back to the first one.
        var undo: Int64 = 0
        ok(hc_entry_undo(&undo, store, secondId))
        let after = status(store, quit, at: at)
        XCTAssertEqual(after.last_relapse_day, day("2026-03-28"))
        XCTAssertEqual(after.current_clean_days, 5)
        XCTAssertEqual(after.relapses, 1)
    }

    func testATravelZoneChangeKeepsARelapsesDay() throws {
        var zone = "America/New_York"
        ok(hc_store_set_timezone(store, zone))
        let quit = createHabit(store, "Sugar", kind: HC_KIND_QUIT, start: "2026-06-01")
        // 22:00 in New York on the 10th is 02:00Z on the 11th.
        let first = instant("2026-06-10", 22 * 60, in: zone)
        relapse(store, quit, at: first)
        // The person flies to Tokyo: the store's zone changes, the relapse keeps its day.
        zone = "Asia/Tokyo"
        ok(hc_store_set_timezone(store, zone))
        let at = instant("2026-06-12", 10 * 60, in: zone)
        var s = status(store, quit, at: at)
        XCTAssertEqual(s.last_relapse_day, day("2026-06-10"))
        XCTAssertEqual(s.as_of, day("2026-06-12"))
        XCTAssertEqual(s.days_since, 2)
        XCTAssertEqual(s.since_ms, at - first)
        XCTAssertEqual(s.best_clean_days, 9, "06-01 through 06-09")
        // A relapse logged there counts for Tokyo's day.
        relapse(store, quit, at: instant("2026-06-12", 9 * 60, in: zone))
        s = status(store, quit, at: at)
        XCTAssertEqual(s.last_relapse_day, day("2026-06-12"))
        XCTAssertEqual(s.days_since, 0)
        XCTAssertEqual(s.current_clean_days, 0)
        XCTAssertEqual(s.clean_days, 12 - 2)
    }

    /// A quit habit with a weekly or monthly allowance, the store's week start and
    /// random relapse logs, against a plain reference that walks the days one by one.
    func testAllowancesAndCleanRunsMatchAReferenceOverSeededRandomLogs() throws {
        var random = SplitMix(seed: 0x5175_4954)
        let start = day("2026-01-05")
        for round in 0..<30 {
            let weekStart = Int32(random.next() % 7)
            ok(hc_store_set_week_start(store, weekStart))
            let kind = Int(random.next() % 3)
            let allowed = kind == 0 ? 0 : Int(random.next() % 3) + 1
            let schedule = ["daily", "weekly:\(allowed)", "monthly:\(allowed)"][kind]
            let quit = createHabit(store, "Quit \(round)", kind: HC_KIND_QUIT, target: 2, schedule: schedule, start: "2026-01-05")
            let span = Int32(random.next() % 90) + 1
            var relapses: [Int32] = []
            for _ in 0..<Int(random.next() % 12) {
                let d = start + Int32(random.next() % UInt64(span))
                relapses.append(d)
                _ = relapse(store, quit, at: Int64(d) * 86_400_000 + 43_200_000, on: date(d))
            }
            let asOf = start + Int32(random.next() % UInt64(span + 10))
            ok(hc_store_set_timezone(store, "UTC"))
            let s = status(store, quit, at: Int64(asOf) * 86_400_000 + 50_000_000)
            XCTAssertEqual(s.as_of, asOf)

            // The reference: walk the days.
            let counted = relapses.filter { $0 <= asOf }
            let relapseDays = Set(counted)
            func weekFirst(_ d: Int32) -> Int32 {
                var first = d
                while Int32(CivilDate.weekday(first)) != weekStart { first -= 1 }
                return first
            }
            func monthFirst(_ d: Int32) -> Int32 {
                var first = d
                while (try? CivilDate(dayNumber: first).day) != 1 { first -= 1 }
                return first
            }
            func bounds(_ d: Int32) -> ClosedRange<Int32> {
                switch kind {
                case 0: return d...d
                case 1: return weekFirst(d)...(weekFirst(d) + 6)
                default:
                    var last = d
                    while (try? CivilDate(dayNumber: last + 1).day) != 1 { last += 1 }
                    return monthFirst(d)...last
                }
            }
            let first = min(start, counted.min() ?? start)
            var run = 0, best = 0, clean = 0
            var d = first
            while d <= asOf {
                if relapseDays.contains(d) { run = 0 } else { run += 1; clean += 1; best = max(best, run) }
                d += 1
            }
            func inRange(_ r: ClosedRange<Int32>) -> Int32 { Int32(counted.filter { r.contains($0) }.count) }
            var within: Int32 = 0
            var period = bounds(asOf)
            while true {
                let cut = max(period.lowerBound, first)...period.upperBound
                guard inRange(cut) <= Int32(allowed) else { break }
                within += 1
                guard cut.lowerBound > first else { break }
                period = bounds(cut.lowerBound - 1)
            }
            let current = bounds(asOf)
            let context = "round \(round): \(schedule), week start \(weekStart), relapses \(relapses.map(date)), as of \(date(asOf))"
            XCTAssertEqual(s.period, [HC_QUIT_PERIOD_DAY, HC_QUIT_PERIOD_WEEK, HC_QUIT_PERIOD_MONTH][kind], context)
            XCTAssertEqual(s.period_first, max(current.lowerBound, first), context)
            XCTAssertEqual(s.period_last, current.upperBound, context)
            XCTAssertEqual(s.period_relapses, inRange(current), context)
            XCTAssertEqual(s.allowance, Int32(allowed), context)
            XCTAssertEqual(s.over_allowance, inRange(current) > Int32(allowed) ? 1 : 0, context)
            XCTAssertEqual(s.periods_within, within, context)
            XCTAssertEqual(s.week_relapses, inRange(weekFirst(asOf)...(weekFirst(asOf) + 6)), context)
            XCTAssertEqual(s.current_clean_days, Int32(run), context)
            XCTAssertEqual(s.best_clean_days, Int32(best), context)
            XCTAssertEqual(s.clean_days, Int32(clean), context)
            XCTAssertEqual(s.relapses, Int64(counted.count), context)
            XCTAssertEqual(s.saved, Double(clean) * 2, accuracy: 1e-9, context)
        }
    }

    func testTheAllowanceAndTheSavingAreVersionedByTheDayTheyApplyFrom() throws {
        ok(hc_store_set_timezone(store, "UTC"))
        ok(hc_store_set_week_start(store, 1))
        let quit = createHabit(store, "Drinks", kind: HC_KIND_QUIT, target: 5, schedule: "weekly:1", start: "2026-01-05")
        // Two relapses in the week of Monday 01-05 (over one a week), two in the week of 01-12.
        for d in ["2026-01-06", "2026-01-07", "2026-01-13", "2026-01-14"] {
            _ = relapse(store, quit, at: Int64(day(d)) * 86_400_000 + 3_600_000, on: d)
        }
        let at = Int64(day("2026-01-16")) * 86_400_000 + 3_600_000
        XCTAssertEqual(status(store, quit, at: at).over_allowance, 1)
        // From Monday 01-12 on, three a week and a saving of 7: the week before keeps its verdict.
        var options = defaults(hc_habit_options_init)
        options.target = 7
        var first: Int32 = 0, last: Int32 = 0
        "weekly:3".withCString {
            options.schedule = $0
            XCTAssertEqual(
                hc_habit_update_from(store, quit, &options, HC_HABIT_FIELD_SCHEDULE | HC_HABIT_FIELD_TARGET, day("2026-01-12"), &first, &last),
                HC_OK, String(cString: hc_last_error_message()))
        }
        let s = status(store, quit, at: at)
        XCTAssertEqual(s.period, HC_QUIT_PERIOD_WEEK)
        XCTAssertEqual(s.allowance, 3)
        XCTAssertEqual(s.period_relapses, 2)
        XCTAssertEqual(s.over_allowance, 0)
        XCTAssertEqual(s.periods_within, 1, "this week is within; the week before was over its allowance of one")
        // Clean days: 01-05, 01-08..01-11 at 5; 01-12, 01-15, 01-16 at 7.
        XCTAssertEqual(s.saved, 5 * 5 + 3 * 7, accuracy: 1e-9)
    }

    func testBadInputIsRefusedWithAClearMessage() throws {
        let quit = createHabit(store, "Nails", kind: HC_KIND_QUIT, start: "2026-01-01")
        let check = createHabit(store, "Read", start: "2026-01-01")
        var out = defaults(hc_quit_status_init)
        XCTAssertEqual(hc_quit_status_get(&out, store, check, 0), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_last_error_message()).contains("not a quit habit"))
        XCTAssertEqual(hc_quit_status_get(&out, store, 999, 0), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_quit_status_get(nil, store, quit, 0), HC_E_INVALID)
        XCTAssertEqual(hc_quit_status_get(&out, nil, quit, 0), HC_E_MISUSE)
        XCTAssertEqual(hc_quit_status_get(&out, store, quit, Int64.max), HC_E_INVALID)
        out.struct_size = 8
        XCTAssertEqual(hc_quit_status_get(&out, store, quit, 0), HC_E_INVALID)
        // Relapses belong to quit habits only, and their amount is not negative.
        XCTAssertEqual(append(store, check, HC_ENTRY_RELAPSE).0, HC_E_INVALID)
        XCTAssertEqual(append(store, quit, HC_ENTRY_DONE).0, HC_E_INVALID)
        XCTAssertEqual(append(store, quit, HC_ENTRY_RELAPSE, value: -1).0, HC_E_INVALID)
        XCTAssertEqual(append(store, quit, HC_ENTRY_RELAPSE, value: .nan).0, HC_E_INVALID)
        // A quit habit's schedule is its allowance.
        var options = defaults(hc_habit_options_init)
        options.kind = HC_KIND_QUIT
        "Biting".withCString { name in
            "days:mon".withCString {
                options.name = name
                options.schedule = $0
                var id: Int64 = 0
                XCTAssertEqual(hc_habit_create(&id, store, &options), HC_E_INVALID)
            }
        }
        XCTAssertTrue(String(cString: hc_last_error_message()).contains("allowance"))
        // No relapse: the clock runs from the start day's first instant.
        let s = status(store, quit, at: 0)
        XCTAssertEqual(s.last_relapse_id, 0)
        XCTAssertEqual(s.last_relapse_day, Int32(HC_DAY_NONE))
        XCTAssertEqual(s.days_since, today - day("2026-01-01"))
        XCTAssertEqual(s.current_clean_days, today - day("2026-01-01") + 1)
        XCTAssertEqual(s.best_clean_days, s.current_clean_days)
    }

    /// Loop has no quit habit: one goes out as a daily numeric habit of its relapses, at
    /// most 0, and Loop's CSV brought back in is that at-most counter.
    func testAQuitHabitExportsToLoopAsADailyAtMostNumberOfRelapses() throws {
        ok(hc_store_set_timezone(store, "UTC"))
        let quit = createHabit(store, "Smoking", kind: HC_KIND_QUIT, target: 8.5, schedule: "weekly:2", start: "2026-03-01")
        for d in ["2026-03-03", "2026-03-03", "2026-03-05"] {
            _ = relapse(store, quit, at: Int64(day(d)) * 86_400_000 + 3_600_000, on: d)
        }
        var habits: UnsafeMutablePointer<CChar>?, checkmarks: UnsafeMutablePointer<CChar>?
        ok(hc_store_export_loop_csv(&habits, &checkmarks, store, day("2026-03-06")))
        defer { hc_free(habits); hc_free(checkmarks) }
        let habitsCSV = habits.map { String(cString: $0) } ?? "", checkmarksCSV = checkmarks.map { String(cString: $0) } ?? ""
        let row = try XCTUnwrap(habitsCSV.split(separator: "\n").dropFirst().first.map(String.init))
        XCTAssertEqual(row, "001,Smoking,NUMERICAL,,,1,1,,relapses,AT_MOST,0.0,false")
        // Relapses a day in thousandths, as Loop keeps numbers.
        XCTAssertTrue(checkmarksCSV.contains("2026-03-03,2000,"), checkmarksCSV)
        XCTAssertTrue(checkmarksCSV.contains("2026-03-05,1000,"), checkmarksCSV)
        let copy = try open("loop.db")
        defer { hc_store_close(copy) }
        ok(hc_store_import_loop_csv(copy, habitsCSV, checkmarksCSV))
        eachHabit(copy) {
            XCTAssertEqual($0.kind, HC_KIND_COUNTER)
            XCTAssertEqual($0.direction, HC_DIRECTION_AT_MOST)
        }
        var clean = hc_day_state(), relapsed = hc_day_state()
        var count: Int64 = 0
        let copied = eachHabit(copy) { $0.id }[0]
        ok(hc_habit_day_states(&clean, 1, &count, copy, copied, day("2026-03-04"), day("2026-03-04")))
        ok(hc_habit_day_states(&relapsed, 1, &count, copy, copied, day("2026-03-03"), day("2026-03-03")))
        XCTAssertEqual(clean.flags & HC_DAY_DONE, HC_DAY_DONE)
        XCTAssertEqual(relapsed.value, 2)
        XCTAssertEqual(relapsed.flags & HC_DAY_DONE, 0)
    }
}
