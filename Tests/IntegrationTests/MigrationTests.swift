import CHabitCore
import Foundation
import XCTest

/// A store written by habitcore 0.2.0 (schema 6), opened by this one: it migrates
/// and reads exactly as before (miss allowance 0, open day previous, off days
/// skipped), and the new calls work on its old rows.
///
/// Tests/fixtures/store-0.2.0.db was made by habitctl built from commit 3d75049
/// (version 0.2.0), then compacted by sqlite3 (journal mode DELETE, page size 1024, VACUUM):
///   init --timezone Europe/Berlin --week-start mon
///   habit add Read --start 2026-03-01 --routine evening          (done Mar 1-7 and 9)
///   habit add Walk|Stretch --schedule days:mon,tue,wed,thu,fri --start 2026-03-02
///                                         --routine morning|day  (done Mar 2-6 and 9)
///   habit add Gym --schedule weekly:2 --start 2026-03-02         (done Mar 3, 5, 17, 18, 24)
///   credits sync-steps --steps 5000; credits spend 10; credits spend 5 (queued after the first)
/// The expected figures below are what that 0.2.0 habitctl printed for the same questions.
final class MigrationTests: StoreTestCase {
    func fixture() throws -> OpaquePointer {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures/store-0.2.0.db")
        try FileManager.default.copyItem(atPath: source.path, toPath: dir + "/old.db")
        return try open("old.db")
    }

    func streak(_ store: OpaquePointer, _ habit: Int64, _ date: String) -> (Int32, Int32) {
        var result = defaults(hc_streak_result_init)
        var count: Int64 = 0
        ok(hc_habit_streaks(&result, nil, 0, &count, store, habit, day(date)))
        return (result.current.length, result.longest.length)
    }

    func testAStoreFrom020MigratesAndReadsAsBefore() throws {
        let store = try fixture()
        defer { hc_store_close(store) }
        var version: Int32 = 0
        ok(hc_store_schema_version(&version, store))
        XCTAssertEqual(version, latestSchemaVersion)

        var policy = defaults(hc_streak_policy_init)
        ok(hc_store_streak_policy(&policy, store))
        XCTAssertEqual([policy.miss_allowance, policy.open_day, policy.off_days], [0, HC_OPEN_DAY_PREVIOUS, HC_OFF_DAYS_SKIP])
        var morning: Int32 = 0, dayBound: Int32 = 0, evening: Int32 = 0
        ok(hc_store_routine_bounds(&morning, &dayBound, &evening, store))
        XCTAssertEqual([morning, dayBound, evening], [300, 660, 1080])

        // Habits 1 Read, 2 Walk, 4 Gym: (current, longest) as 0.2.0 answered.
        let rows: [(habit: Int64, date: String, current: Int32, longest: Int32)] = [
            (1, "2026-03-08", 7, 7), (1, "2026-03-10", 1, 7), (1, "2026-03-11", 0, 7), (1, "2026-03-25", 0, 7),
            (2, "2026-03-08", 5, 5), (2, "2026-03-10", 6, 6), (2, "2026-03-11", 0, 6), (2, "2026-03-25", 0, 6),
            (4, "2026-03-08", 1, 1), (4, "2026-03-10", 1, 1), (4, "2026-03-11", 1, 1), (4, "2026-03-25", 1, 1),
        ]
        for row in rows {
            let (current, longest) = streak(store, row.habit, row.date)
            XCTAssertEqual(current, row.current, "habit \(row.habit) current as of \(row.date)")
            XCTAssertEqual(longest, row.longest, "habit \(row.habit) longest as of \(row.date)")
            var own = policy
            ok(hc_habit_streak_policy(&own, store, row.habit, HC_POLICY_OWN))
            XCTAssertEqual([own.miss_allowance, own.open_day], [HC_POLICY_INHERIT, 0], "no habit has a policy of its own")
        }
        let global: [(date: String, perfect: Int32, active: Int32)] = [
            ("2026-03-07", 3, 7), ("2026-03-08", 3, 7), ("2026-03-09", 0, 1), ("2026-03-10", 0, 1),
        ]
        for row in global {
            var perfect = defaults(hc_streak_result_init), active = defaults(hc_streak_result_init)
            ok(hc_store_streaks(&perfect, &active, store, day(row.date)))
            XCTAssertEqual(perfect.current.length, row.perfect, "perfect days as of \(row.date)")
            XCTAssertEqual(active.current.length, row.active, "active days as of \(row.date)")
        }
        var due = [hc_due_item](repeating: hc_due_item(), count: 8)
        var count: Int64 = 0
        ok(hc_store_due(&due, 8, &count, store, day("2026-03-10")))
        XCTAssertEqual(due.prefix(Int(count)).map(\.habit_id), [2, 3, 1, 4], "by routine, as before")
    }

    /// Every judging setting's current value becomes its first version: each schedule row
    /// takes the habit's target, direction, proof and group, and an archived habit is
    /// archived from its archive day on; the answers stay those of before.
    func testEverySettingsCurrentValueBecomesItsFirstVersion() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures/store-0.2.0.db")
        try FileManager.default.copyItem(atPath: source.path, toPath: dir + "/old.db")
        // In the old schema: Stretch archived on 2026-03-20, Walk in a group, and a counter of 8 required with proof.
        XCTAssertSucceeded(
            try runProcess([
                "sqlite3", dir + "/old.db",
                """
                UPDATE habits SET archived_day = 20532 WHERE id = 3; UPDATE habits SET group_name = 'Health' WHERE id = 2;
                INSERT INTO habits(id, name, kind, target, direction, group_name, unit, routine, proof_required, start_day, archived_day, created_at_ms)
                VALUES(5, 'Water', 2, 8.0, 2, NULL, NULL, 0, 1, 20514, NULL, 0);
                INSERT INTO habit_schedules(habit_id, from_day, schedule) VALUES(5, 20514, 'daily'), (5, 20520, 'weekly:3');
                """,
            ]), "old rows")
        let migrated = try open("old.db")
        let walk = streak(migrated, 2, "2026-03-10")
        hc_store_close(migrated)
        let rows = try runProcess([
            "sqlite3", dir + "/old.db",
            "SELECT habit_id, from_day, schedule, target, direction, proof_required, group_name, archived FROM habit_versions ORDER BY 1, 2",
        ])
        XCTAssertSucceeded(rows, "read the versions")
        XCTAssertEqual(
            rows.stdout.split(separator: "\n").map(String.init),
            [
                "1|20513|daily|1.0|1|0||0",
                "2|20514|days:mon,tue,wed,thu,fri|1.0|1|0|Health|0",
                "3|20514|days:mon,tue,wed,thu,fri|1.0|1|0||0",
                "3|20532|days:mon,tue,wed,thu,fri|1.0|1|0||1",
                "4|20514|weekly:2|1.0|1|0||0",
                "5|20514|daily|8.0|2|1||0",
                "5|20520|weekly:3|8.0|2|1||0",
            ])
        XCTAssertEqual([walk.0, walk.1], [6, 6], "Walk reads as before")
    }

    func testAnOldSessionEndsEarlyAndTheOldQueueMovesUp() throws {
        let store = try fixture()
        defer { hc_store_close(store) }
        // Session 1 (10 min) and session 2 (5 min, queued after it), both bought in 0.2.0.
        let start1: Int64 = 1_795_420_324_169
        var state = defaults(hc_unlock_state_init)
        ok(hc_credit_unlock_state(&state, store, 0, start1 + 1))
        XCTAssertEqual([state.session_id, state.start_ms, state.until_ms], [1, start1, start1 + 900_000])
        var before: Int64 = 0
        ok(hc_credit_balance(&before, store, 0))
        var refund: Int64 = 0
        ok(hc_credit_session_end(&refund, store, 1, start1 + 60_000))
        XCTAssertEqual(refund, 9)
        var after: Int64 = 0
        ok(hc_credit_balance(&after, store, 0))
        XCTAssertEqual(after, before + 9, "reported late, the refund still counts today")
        ok(hc_credit_unlock_state(&state, store, 0, start1 + 60_001))
        XCTAssertEqual([state.session_id, state.start_ms, state.until_ms], [2, start1 + 60_000, start1 + 360_000])
        XCTAssertEqual(hc_credit_session_end(nil, store, 1, 0), HC_E_CONFLICT)
    }

    /// A store of schema 19 (before saved folds) migrates, answers as it did, and saves
    /// a habit's fold at its first cold read; a read-only handle of 1.0 and a writer of
    /// this version then both answer from it alike.
    func testAStoreBeforeSavedFoldsMigratesAndSavesAFoldAtItsFirstColdRead() throws {
        let store = try open()
        let habit = createHabit(store, "Read", start: "2026-01-01")
        for date in ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-05", "2026-01-06"] { ok(append(store, habit, on: date).0) }
        let before = streak(store, habit, "2026-01-06")
        ok(hc_store_close(store))
        XCTAssertSucceeded(
            try runProcess(["sqlite3", dir + "/store.db", "DROP TABLE saved_folds; PRAGMA user_version = 19;"]), "back to 19")
        let reopened = try open()
        defer { hc_store_close(reopened) }
        var version: Int32 = 0
        ok(hc_store_schema_version(&version, reopened))
        XCTAssertEqual(version, latestSchemaVersion)
        let after = streak(reopened, habit, "2026-01-06")
        XCTAssertEqual([after.0, after.1], [before.0, before.1])
        XCTAssertEqual([before.0, before.1], [2, 3])
        let saved = try runProcess(["sqlite3", dir + "/store.db", "SELECT habit_id, through_entry FROM saved_folds"])
        XCTAssertEqual(saved.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(habit)|5", "saved at the first cold read")
    }

    /// A store of schema 22 (before timers) migrates to one that times a duration habit;
    /// set back to 22 and opened again, its timers stay (the migration runs again and
    /// keeps the table's rows).
    func testAStoreBeforeTimersMigratesAndKeepsItsTimersWhenTheMigrationRunsAgain() throws {
        let store = try open()
        let habit = createHabit(store, "Read", kind: HC_KIND_DURATION, target: 600, start: "2026-01-01")
        ok(hc_store_close(store))
        XCTAssertSucceeded(try runProcess(["sqlite3", dir + "/store.db", "DROP TABLE timer_events; PRAGMA user_version = 22;"]), "back to 22")
        let migrated = try open()
        var version: Int32 = 0
        ok(hc_store_schema_version(&version, migrated))
        XCTAssertEqual(version, latestSchemaVersion)
        let startMs = Int64(day("2026-01-05")) * 86_400_000 + 3_600_000
        var timer: Int64 = 0
        ok(hc_timer_start(&timer, migrated, habit, 0, startMs))
        ok(hc_timer_act(migrated, timer, HC_TIMER_ACTION_STOP, startMs + 900_000))
        ok(hc_store_close(migrated))
        XCTAssertSucceeded(try runProcess(["sqlite3", dir + "/store.db", "PRAGMA user_version = 22;"]), "set back to 22")
        let again = try open()
        defer { hc_store_close(again) }
        XCTAssertEqual(total(again, habit, "2026-01-05"), 900)
        let update = try runProcess(["sqlite3", dir + "/store.db", "UPDATE timer_events SET at_ms = 0"])
        XCTAssertTrue(update.stderr.contains("timer events are append-only"), update.stderr)
    }
}
