import CHabitCore
import Foundation
import XCTest

/// Streaks, scores and due lists from a real store, through the C functions.
final class ProgressStoreTests: StoreTestCase {
    func streaks(_ store: OpaquePointer, _ habit: Int64, asOf: String, best: Int32 = 0) -> (hc_streak_result, [hc_streak]) {
        var result = defaults(hc_streak_result_init)
        var runs = [hc_streak](repeating: hc_streak(), count: Int(max(best, 1)))
        var count: Int64 = 0
        ok(hc_habit_streaks(&result, &runs, Int64(best), &count, store, habit, day(asOf)))
        return (result, Array(runs.prefix(Int(min(count, Int64(best))))))
    }

    /// Milliseconds of a local wall-clock time in New York (EST before 2026-03-08 02:00, EDT after).
    func newYork(_ date: String, hour: Int64, minute: Int64, dst: Bool) -> Int64 {
        (Int64(day(date)) * 86_400 + (hour + (dst ? 4 : 5)) * 3600 + minute * 60) * 1000
    }

    func testDailyHabitAcrossBothNewYorkDSTWeeks() throws {
        let store = try open()
        ok(hc_store_set_timezone(store, "America/New_York"))
        let habit = createHabit(store, "Evening walk", start: "2026-03-02")
        // Logged at 23:30 local time every evening, with no date given: the engine derives it.
        for offset in 0..<14 {
            let date = day("2026-03-02") + Int32(offset)
            let text = String(format: "2026-03-%02d", offset + 2)
            ok(append(store, habit, atMs: newYork(text, hour: 23, minute: 30, dst: date >= day("2026-03-08"))).0)
        }
        XCTAssertEqual(streaks(store, habit, asOf: "2026-03-15").0.current.length, 14, "one entry on each local day, none skipped or doubled")
        // The autumn week: 00:30 local every night with a 01:00 day start counts for the evening before
        // (00:30 on November 1 is still daylight time: the clocks go back at 02:00).
        ok(hc_store_set_day_start(store, 60))
        let autumn = createHabit(store, "Journal", start: "2026-10-26")
        for offset in 0..<14 {
            let evening = day("2026-10-26") + Int32(offset)
            let next = try XCTUnwrap(formatDay(evening + 1))
            ok(append(store, autumn, atMs: newYork(next, hour: 0, minute: 30, dst: evening + 1 <= day("2026-11-01"))).0)
        }
        let (result, _) = streaks(store, autumn, asOf: "2026-11-08")
        XCTAssertEqual(result.current.length, 14)
        XCTAssertEqual(result.current.first_day, day("2026-10-26"))
        ok(hc_store_close(store))
    }

    func formatDay(_ value: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 11)
        guard hc_date_format(&buffer, 11, value) == HC_OK else { return nil }
        return String(decoding: buffer.prefix(10).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func testAnEntryLoggedWhileTravellingKeepsTheStreak() throws {
        let store = try open()
        ok(hc_store_set_timezone(store, "America/New_York"))
        let habit = createHabit(store, "Read", start: "2026-05-01")
        for offset in [0, 1, 3, 4] { ok(append(store, habit, on: formatDay(day("2026-05-01") + Int32(offset))).0) }
        // In Tokyo on May 4 at 08:00 local, it is still May 3 in New York: the app sends its local date.
        let tokyoMorning: Int64 = (Int64(day("2026-05-03")) * 86_400 + 23 * 3600) * 1000
        ok(append(store, habit, on: "2026-05-04", atMs: tokyoMorning).0)
        ok(append(store, habit, on: "2026-05-03", atMs: tokyoMorning - 3_600_000).0)
        XCTAssertEqual(streaks(store, habit, asOf: "2026-05-05").0.current.length, 5)
        ok(hc_store_close(store))
    }

    func testVacationsAndSkipsThroughTheStore() throws {
        let store = try open()
        let habit = createHabit(store, "Swim", start: "2026-07-01")
        for offset in 0..<20 where !(8..<15).contains(offset) {
            ok(append(store, habit, on: formatDay(day("2026-07-01") + Int32(offset))).0)
        }
        XCTAssertEqual(streaks(store, habit, asOf: "2026-07-21").0.current.length, 5)
        var vacation: Int64 = 0
        ok(hc_vacation_add(&vacation, store, 0, day("2026-07-09"), day("2026-07-15")))
        let (result, best) = streaks(store, habit, asOf: "2026-07-21", best: 3)
        XCTAssertEqual(result.current.length, 13)
        XCTAssertEqual(result.current.excused_days, 7)
        XCTAssertEqual(best.map(\.length), [13])
        var listed = [hc_vacation](repeating: hc_vacation(), count: 2)
        var count: Int64 = 0
        ok(hc_vacation_list(&listed, 2, &count, store))
        XCTAssertEqual(count, 1)
        XCTAssertEqual(listed[0].from_day, day("2026-07-09"))
        ok(hc_vacation_remove(store, vacation))
        XCTAssertEqual(streaks(store, habit, asOf: "2026-07-21").0.current.length, 5)
        XCTAssertEqual(hc_vacation_remove(store, vacation), HC_E_NOT_FOUND)
        ok(hc_store_close(store))
    }

    /// The pure call, fed the store's own day states, gives what the store-backed call gives.
    func testPureAndStoreBackedCallsAgree() throws {
        let store = try open()
        let schedules = ["daily", "days:mon,wed,fri", "every:3", "monthdays:1,15,31", "weekly:3", "monthly:8", "times:2/3", "times:5/30"]
        var random = SystemRandomNumberGenerator()
        let start = day("2026-01-01"), asOf = day("2026-06-30")
        for (index, schedule) in schedules.enumerated() {
            for round in 0..<3 {
                let habit = createHabit(store, "h\(index)-\(round)", schedule: schedule, start: "2026-01-01")
                var day = start
                while day <= asOf {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<6: ok(append(store, habit, on: formatDay(day)).0)
                    case 6: ok(append(store, habit, HC_ENTRY_SKIP, on: formatDay(day)).0)
                    default: break
                    }
                    day += 1
                }
                let (stored, storedBest) = streaks(store, habit, asOf: "2026-06-30", best: 5)
                let length = Int(asOf - start + 1)
                var states = [hc_day_state](repeating: hc_day_state(), count: length)
                var count: Int64 = 0
                ok(hc_habit_day_states(&states, Int64(length), &count, store, habit, start, asOf))
                var rules = defaults(hc_habit_rules_init)
                rules.kind = HC_KIND_CHECKMARK
                rules.target = 1
                rules.direction = HC_DIRECTION_AT_LEAST
                rules.start_day = start
                rules.week_start = 1
                var pure = defaults(hc_streak_result_init)
                var pureBest = [hc_streak](repeating: hc_streak(), count: 5)
                var pureCount: Int64 = 0
                schedule.withCString { text in
                    rules.schedule = text
                    ok(hc_streak_compute(&pure, &pureBest, 5, &pureCount, &rules, states, count, asOf))
                }
                XCTAssertEqual(pure.current.length, stored.current.length, schedule)
                XCTAssertEqual(pure.current.first_day, stored.current.first_day, schedule)
                XCTAssertEqual(pure.longest.length, stored.longest.length, schedule)
                XCTAssertEqual(pure.unit, stored.unit, schedule)
                XCTAssertEqual(pureBest.prefix(Int(min(pureCount, 5))).map(\.length), storedBest.map(\.length), schedule)
                XCTAssertGreaterThanOrEqual(stored.longest.length, stored.current.length)
                // The store's open day is today, so every day up to asOf is over; the pure
                // call's open day is to_day, so it is asked one day further.
                var strength = [Double](repeating: 0, count: length), pureStrength = [Double](repeating: 0, count: length + 1)
                var n: Int64 = 0
                ok(hc_habit_strength(&strength, Int64(length), &n, store, habit, start, asOf))
                schedule.withCString { text in
                    rules.schedule = text
                    ok(hc_strength_compute(&pureStrength, Int64(length + 1), &n, &rules, states, count, start, asOf + 1))
                }
                XCTAssertEqual(strength, Array(pureStrength.prefix(length)), schedule)
            }
        }
        XCTAssertEqual(streaks(store, createHabit(store, "weekly", schedule: "weekly:2"), asOf: "2026-06-30").0.unit, HC_STREAK_UNIT_WEEKS)
        XCTAssertEqual(streaks(store, createHabit(store, "two in three", schedule: "times:2/3"), asOf: "2026-06-30").0.unit, HC_STREAK_UNIT_PERIODS)
        ok(hc_store_close(store))
    }

    func testScoresDueListGroupsAndMeasurements() throws {
        let store = try open()
        func habit(_ name: String, routine: Int32, group: String?, kind: Int32 = HC_KIND_CHECKMARK, target: Double = 1) -> Int64 {
            var options = defaults(hc_habit_options_init)
            options.kind = kind
            options.target = target
            options.direction = HC_DIRECTION_AT_LEAST
            options.routine = routine
            options.start_day = day("2026-09-01")
            var id: Int64 = 0
            name.withCString { n in
                withOptionalCString(group) { g in
                    options.name = n
                    options.group_name = g
                    ok(hc_habit_create(&id, store, &options))
                }
            }
            return id
        }
        let run = habit("Run", routine: HC_ROUTINE_MORNING, group: "Hybrid Athlete")
        let lift = habit("Lift", routine: HC_ROUTINE_EVENING, group: "hybrid athlete")
        let water = habit("Water", routine: HC_ROUTINE_DAY, group: nil, kind: HC_KIND_COUNTER, target: 8)
        let weight = habit("Weight", routine: HC_ROUTINE_MORNING, group: nil, kind: HC_KIND_MEASUREMENT)
        ok(append(store, run, on: "2026-09-01").0)
        ok(append(store, lift, on: "2026-09-01").0)
        ok(append(store, water, HC_ENTRY_AMOUNT, value: 8, on: "2026-09-01").0)
        ok(append(store, run, on: "2026-09-02").0)
        ok(append(store, water, HC_ENTRY_AMOUNT, value: 3, on: "2026-09-02").0)
        ok(append(store, lift, HC_ENTRY_SKIP, on: "2026-09-02").0)
        for (date, kg) in [("2026-09-01", 81.0), ("2026-09-02", 80.2), ("2026-09-03", 80.6)] {
            ok(append(store, weight, HC_ENTRY_AMOUNT, value: kg, on: date).0)
        }
        var scores = [hc_day_score](repeating: hc_day_score(), count: 3)
        var count: Int64 = 0
        ok(hc_store_day_scores(&scores, 3, &count, store, day("2026-08-31"), day("2026-09-02")))
        XCTAssertEqual(scores.map(\.score), [-1, 1, 0.5], "none due before the start; all three; run of run and water")
        XCTAssertEqual(scores.map(\.excused), [0, 0, 1])

        var due = [hc_due_item](repeating: hc_due_item(), count: 5)
        ok(hc_store_due(&due, 5, &count, store, day("2026-09-02")))
        XCTAssertEqual(count, 3, "the measurement is never due")
        XCTAssertEqual(due.prefix(3).map(\.habit_id), [run, water, lift], "morning, day, evening")
        XCTAssertEqual(due.prefix(3).map(\.state), [HC_DUE_DONE, HC_DUE_PENDING, HC_DUE_EXCUSED])
        XCTAssertEqual(due[1].value, 3)
        XCTAssertEqual(due[1].target, 8)

        var today = defaults(hc_completion_init), window = defaults(hc_completion_init)
        ok(hc_group_completion(&today, &window, store, "HYBRID ATHLETE", day("2026-09-02"), day("2026-09-01"), day("2026-09-02")))
        XCTAssertEqual(today.kept, 1)
        XCTAssertEqual(today.judged, 1)
        XCTAssertEqual(window.kept, 3)
        XCTAssertEqual(window.judged, 3)
        XCTAssertEqual(window.excused, 1)

        var stats = defaults(hc_measurement_stats_init)
        ok(hc_habit_measurements(&stats, store, weight, day("2026-09-01"), day("2026-09-30")))
        XCTAssertEqual(stats.count, 3)
        XCTAssertEqual(stats.latest, 80.6)
        XCTAssertEqual(stats.best, 81.0, "at least: higher is better")
        XCTAssertEqual(stats.best_day, day("2026-09-01"))
        XCTAssertEqual(stats.change, 80.6 - 81.0, accuracy: 1e-9)

        var completion = defaults(hc_completion_init)
        ok(hc_habit_completion(&completion, store, water, day("2026-09-01"), day("2026-09-02")))
        XCTAssertEqual(completion.rate, 0.5)
        ok(hc_store_close(store))
    }

    /// A group ("system") with a daily habit and a weekly:3 one, on Wednesday
    /// 2026-09-02 (weeks start Monday): Numu's day rate leaves the quota habit out and
    /// gives its progress; the current reading counts it due until its quota is met.
    func testAGroupDayReadBothWaysWithQuotaProgress() throws {
        let store = try open()
        func habit(_ name: String, schedule: String, group: String) -> Int64 {
            var options = defaults(hc_habit_options_init)
            options.start_day = day("2026-08-24")
            var id: Int64 = 0
            name.withCString { n in
                schedule.withCString { s in
                    group.withCString { g in
                        options.name = n
                        options.schedule = s
                        options.group_name = g
                        ok(hc_habit_create(&id, store, &options))
                    }
                }
            }
            return id
        }
        let read = habit("Read", schedule: "daily", group: "Scholar")
        let run = habit("Run", schedule: "weekly:3", group: "scholar")
        let other = habit("Walk", schedule: "daily", group: "Walker")
        for date in ["2026-08-31", "2026-09-01"] { ok(append(store, run, on: date).0) }
        ok(append(store, read, on: "2026-09-02").0)
        func reading(_ group: String?, _ date: String) -> (hc_group_day, [hc_quota_progress]) {
            var out = defaults(hc_group_day_init)
            var quota = [hc_quota_progress](repeating: hc_quota_progress(), count: 4)
            var count: Int64 = 0
            let status = withOptionalCString(group) { hc_group_day_rates(&out, &quota, 4, &count, store, $0, day(date)) }
            XCTAssertEqual(status, HC_OK, String(cString: hc_last_error_message()))
            return (out, Array(quota.prefix(Int(count))))
        }
        var (wednesday, quota) = reading("SCHOLAR", "2026-09-02")
        XCTAssertEqual([wednesday.due, wednesday.done, wednesday.excused], [1, 1, 0], "the day rate counts Read only")
        XCTAssertEqual(wednesday.rate, 1)
        XCTAssertEqual([wednesday.quota_habits, wednesday.quota_met], [1, 0])
        XCTAssertEqual(
            quota.map { [Int64($0.habit_id), Int64($0.period_first), Int64($0.done), Int64($0.required), Int64($0.met)] },
            [[run, Int64(day("2026-08-31")), 2, 3, 0]], "Run: 2 of 3 since Monday")
        XCTAssertEqual([wednesday.all_due, wednesday.all_done], [2, 1], "due until met: Run is due on Wednesday, not done")
        XCTAssertEqual(wednesday.all_rate, 0.5)
        var today = defaults(hc_completion_init), window = defaults(hc_completion_init)
        ok(hc_group_completion(&today, &window, store, "Scholar", day("2026-09-02"), day("2026-09-02"), day("2026-09-02")))
        XCTAssertEqual([today.kept, today.judged], [wednesday.all_done, wednesday.all_due], "the current reading is hc_group_completion's")
        // Run done on Wednesday too: met, and from then on not due that week.
        ok(append(store, run, on: "2026-09-02").0)
        (wednesday, quota) = reading("Scholar", "2026-09-02")
        XCTAssertEqual(quota.map(\.done), [3])
        XCTAssertEqual(quota.map(\.met), [1])
        XCTAssertEqual([wednesday.all_due, wednesday.all_done, wednesday.quota_met], [2, 2, 1])
        let thursday = reading("Scholar", "2026-09-03")
        XCTAssertEqual([thursday.0.due, thursday.0.done, thursday.0.all_due], [1, 0, 1], "a met quota is not due on Thursday")
        XCTAssertEqual(thursday.1.map(\.done), [3], "the week's progress as of Thursday")
        // Every habit (group NULL): Walk joins the day-based habits.
        let all = reading(nil, "2026-09-02").0
        XCTAssertEqual([all.due, all.done, all.quota_habits], [2, 1, 1], "Walk (\(other)) joins the day-based habits")
        // Asking the total alone, and an unknown group.
        var out = defaults(hc_group_day_init)
        var count: Int64 = -1
        ok(hc_group_day_rates(&out, nil, 0, &count, store, "scholar", day("2026-09-02")))
        XCTAssertEqual(count, 1)
        XCTAssertEqual(hc_group_day_rates(&out, nil, 0, &count, store, "nobody", Int32.min), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_group_day_rates(&out, nil, 0, nil, store, "scholar", Int32.min), HC_E_INVALID, "out_quota_count is required")
        ok(hc_store_close(store))
    }

    /// A habit's completion leaves the current week out and gives it beside the rate
    /// as a fraction; a caller with the 1.0 struct gets the 1.0 fields only.
    func testTheCurrentPeriodCountsAsAFractionBesideTheRate() throws {
        let store = try open()
        var today: Int32 = 0
        ok(hc_store_today(&today, store))
        let run = createHabit(store, "Run", schedule: "weekly:3", start: date(today - 35))
        let read = createHabit(store, "Read", start: date(today - 35))
        var options = defaults(hc_habit_options_init)
        options.kind = HC_KIND_DURATION
        options.target = 60
        options.direction = HC_DIRECTION_AT_MOST
        options.start_day = today - 35
        var limit: Int64 = 0
        "Screen".withCString {
            options.name = $0; ok(hc_habit_create(&limit, store, &options))
        }
        ok(append(store, run, on: date(today)).0)
        var completion = defaults(hc_completion_init)
        ok(hc_habit_completion(&completion, store, run, today - 35, today))
        XCTAssertEqual([completion.current_kept, completion.current_required], [1, 3], "this week: 1 of 3 so far")
        XCTAssertEqual(completion.rate_with_current, Double(completion.kept + 1) / Double(completion.judged + 3), accuracy: 1e-12)
        XCTAssertLessThan(completion.judged, 20, "the current week is not among the judged ones")
        ok(hc_habit_completion(&completion, store, read, today - 6, today))
        XCTAssertEqual(
            [completion.kept, completion.judged, completion.current_kept, completion.current_required], [0, 6, 0, 1],
            "today, not done yet: 0 of 1 beside six missed days")
        XCTAssertEqual(completion.rate_with_current, 0)
        ok(append(store, read, on: date(today)).0)
        ok(hc_habit_completion(&completion, store, read, today - 6, today))
        XCTAssertEqual([completion.kept, completion.judged, completion.current_required], [1, 7, 0], "done today: kept, nothing open")
        XCTAssertEqual(completion.rate_with_current, completion.rate)
        // A caller built against 1.0 passes 24 bytes: nothing past them is written.
        var old = [UInt8](repeating: 0xAB, count: MemoryLayout<hc_completion>.size)
        old.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(24), as: UInt32.self)
            ok(hc_habit_completion(raw.baseAddress?.assumingMemoryBound(to: hc_completion.self), store, run, today - 35, today))
        }
        XCTAssertEqual(Array(old[24...]), [UInt8](repeating: 0xAB, count: old.count - 24))
        // An at-most day is judged once it ends: today is not given as a fraction.
        ok(hc_habit_completion(&completion, store, limit, today - 6, today))
        XCTAssertEqual([completion.kept, completion.judged, completion.current_kept, completion.current_required], [6, 6, 0, 0])
        ok(hc_store_close(store))
    }

    func testASchemaOneStoreIsMigratedForward() throws {
        let store = try open()
        let habit = createHabit(store, "Old habit")
        ok(append(store, habit, on: "2026-01-02").0)
        ok(hc_store_close(store))
        // Turn the file back into what schema 1 wrote.
        XCTAssertSucceeded(
            try runProcess([
                "sqlite3", dir + "/store.db",
                dropHabitDisplaySQL + dropShieldsSQL + """
                    DROP TABLE entry_keys; DROP TABLE session_ends; DROP TABLE streak_policies;
                    DROP TABLE reminder_deliveries; DROP TABLE reminder_snoozes; DROP TABLE quiet_hours; DROP TABLE reminder_rule_versions;
                    DROP TABLE reminder_rules; DROP TABLE proof_runs;
                    DROP TABLE proof_fingerprints; DROP TABLE proof_verdicts; DROP TABLE proofs; DROP TABLE proof_policies; DROP TABLE plugins;
                    DROP TABLE event_acks; DROP TABLE events; DROP TABLE referral_redemptions; DROP TABLE award_unlocks; DROP TABLE award_rules;
                    DROP TABLE vacations; DROP TABLE unlock_sessions; DROP TABLE credit_steps; DROP TABLE credit_entries;
                    DROP TABLE credit_rules; DROP TABLE credit_accounts; PRAGMA user_version = 1;
                    """,
            ]), "downgrade")
        let reopened = try open()
        var version: Int32 = 0
        ok(hc_store_schema_version(&version, reopened))
        XCTAssertEqual(version, latestSchemaVersion)
        var awards: OpaquePointer?
        ok(hc_award_list_open_progress(&awards, reopened, Int32.min))
        var count: Int64 = 0
        ok(hc_award_list_count(&count, awards))
        hc_award_list_free(awards)
        XCTAssertEqual(count, 23, "the migration writes the built-in catalogue")
        var id: Int64 = 0
        ok(hc_vacation_add(&id, reopened, habit, day("2026-01-03"), day("2026-01-04")))
        XCTAssertEqual(total(reopened, habit, "2026-01-02"), 1, "the ledger survives the migration")
        ok(hc_store_close(reopened))
    }
}
