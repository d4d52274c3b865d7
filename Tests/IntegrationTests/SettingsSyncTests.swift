import CHabitCore
import Foundation
import XCTest

/// Settings versions through sync: each replica's change from a day travels as the
/// version of that day, and replicas merge them per habit and day (the later write of
/// one day wins), so both judge every day alike.
final class SettingsSyncTests: StoreTestCase {
    private func target(_ store: OpaquePointer, _ habit: Int64, _ value: Double, from: Int32) -> (Int32, Int32) {
        var options = defaults(hc_habit_options_init)
        options.target = value
        options.direction = HC_DIRECTION_AT_LEAST
        var first: Int32 = 0, last: Int32 = 0
        ok(hc_habit_update_from(store, habit, &options, HC_HABIT_FIELD_TARGET, from, &first, &last))
        return (first, last)
    }

    private func done(_ store: OpaquePointer, _ habit: Int64, from: Int32, to: Int32) -> [Bool] {
        var states = [hc_day_state](repeating: hc_day_state(), count: 16)
        var count: Int64 = 0
        ok(hc_habit_day_states(&states, 16, &count, store, habit, from, to))
        return states.prefix(Int(count)).map { $0.flags & HC_DAY_DONE != 0 }
    }

    func testChangesFromDifferentDaysMergePerDayAndJudgeAlike() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        var today: Int32 = 0
        ok(hc_store_today(&today, a))
        let water = createHabit(a, "Water", kind: HC_KIND_COUNTER, target: 8, start: date(today - 7))
        for offset in 1...7 {
            var entry = defaults(hc_entry_input_init)
            entry.habit_id = water
            entry.kind = HC_ENTRY_AMOUNT
            entry.value = 9
            entry.day = today - Int32(offset)
            ok(hc_entry_append(nil, a, &entry))
        }
        _ = pull(b, from: a)
        let there = habitId(b, "Water")
        // Offline: a raises the target to 10 from four days ago, b to 9 from two days ago.
        XCTAssertEqual(target(a, water, 10, from: today - 4).0, today - 4)
        XCTAssertEqual(target(b, there, 9, from: today - 2).0, today - 2)
        _ = pull(b, from: a)
        _ = pull(a, from: b)
        XCTAssertEqual(canonical(a), canonical(b))
        let expected = [true, true, true, false, false, true, true]
        XCTAssertEqual(done(a, water, from: today - 7, to: today - 1), expected, "days -4 and -3 by 10, -2 and -1 by 9")
        XCTAssertEqual(done(b, there, from: today - 7, to: today - 1), expected)
        // The same day changed on both, b's after it saw a's: the later write wins on both.
        _ = target(a, water, 12, from: today - 2)
        _ = pull(b, from: a)
        _ = target(b, there, 8, from: today - 2)
        _ = pull(a, from: b)
        XCTAssertEqual(canonical(a), canonical(b))
        XCTAssertEqual(done(a, water, from: today - 2, to: today - 1), [true, true], "b's later 8 stands")
        XCTAssertTrue(canonical(a).contains("  settings \(today - 2) daily target=8.0"), canonical(a))
    }
    private func storePolicy(_ store: OpaquePointer) -> hc_streak_policy {
        var policy = defaults(hc_streak_policy_init)
        ok(hc_store_streak_policy(&policy, store))
        return policy
    }

    private func ownPolicy(_ store: OpaquePointer, _ habit: Int64) -> (Int32, Int32) {
        var policy = defaults(hc_streak_policy_init)
        ok(hc_habit_streak_policy(&policy, store, habit, HC_POLICY_OWN))
        return (policy.miss_allowance, policy.open_day)
    }

    private func routineBounds(_ store: OpaquePointer) -> [Int32] {
        var morning: Int32 = 0, day: Int32 = 0, evening: Int32 = 0
        ok(hc_store_routine_bounds(&morning, &day, &evening, store))
        return [morning, day, evening]
    }

    /// The reading rules both tests below set: the store's streak policy (2 misses
    /// allowed, an open day counted as zero, off days break it), the routine bounds, and
    /// the habit's own policy (1 miss). Returns the habit's policy, for a test to change.
    @discardableResult
    private func setReadingRules(_ store: OpaquePointer, _ habit: Int64) -> hc_streak_policy {
        var policy = defaults(hc_streak_policy_init)
        policy.miss_allowance = 2
        policy.open_day = HC_OPEN_DAY_ZERO
        policy.off_days = HC_OFF_DAYS_BREAK
        ok(hc_store_set_streak_policy(store, &policy))
        ok(hc_store_set_routine_bounds(store, 240, 600, 1080))
        var own = defaults(hc_streak_policy_init)
        own.miss_allowance = 1
        own.open_day = 0
        own.off_days = 0
        ok(hc_habit_set_streak_policy(store, habit, &own))
        return own
    }

    /// What a store reads once it holds the rules setReadingRules set.
    private func assertReadingRules(_ store: OpaquePointer, _ habit: Int64, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(storePolicy(store).miss_allowance, 2, file: file, line: line)
        XCTAssertEqual(storePolicy(store).open_day, HC_OPEN_DAY_ZERO, file: file, line: line)
        XCTAssertEqual(storePolicy(store).off_days, HC_OFF_DAYS_BREAK, file: file, line: line)
        XCTAssertEqual(routineBounds(store), [240, 600, 1080], file: file, line: line)
        XCTAssertEqual(ownPolicy(store, habit).0, 1, file: file, line: line)
    }

    /// The reading rules follow the person: the store's streak policy and the routine
    /// bounds as synced settings, a habit's own policy as its fields, each the last
    /// writer's per field, so two devices that set them offline end alike.
    func testStreakPoliciesAndRoutineBoundsTravelAndTheLastWriterWinsPerField() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        let walk = createHabit(a, "Walk")
        _ = pull(b, from: a)
        let there = habitId(b, "Walk")

        var own = setReadingRules(a, walk)
        _ = pull(b, from: a)
        assertReadingRules(b, there)
        XCTAssertEqual(ownPolicy(b, there).1, 0, "the open day follows the store's there too")
        XCTAssertEqual(canonical(a), canonical(b))
        XCTAssertTrue(canonical(b).contains(" miss=1 open_day=-"), canonical(b))

        // Offline on both: a sets the habit's miss allowance, then b its open day and
        // (later) the allowance too; each field ends as its last writer left it.
        own.miss_allowance = 3
        ok(hc_habit_set_streak_policy(a, walk, &own))
        ok(hc_store_set_routine_bounds(a, 300, 660, 1140))
        var theirs = defaults(hc_streak_policy_init)
        theirs.miss_allowance = 1
        theirs.open_day = HC_OPEN_DAY_ZERO
        theirs.off_days = 0
        ok(hc_habit_set_streak_policy(b, there, &theirs))
        _ = pull(b, from: a)
        _ = pull(a, from: b)
        XCTAssertEqual(canonical(a), canonical(b))
        XCTAssertEqual(ownPolicy(a, walk).1, HC_OPEN_DAY_ZERO, "b's open day, the only write of it")
        XCTAssertEqual(ownPolicy(a, walk).0, 3, "a's allowance: b's write left it as it was, so logged none")
        XCTAssertEqual(ownPolicy(b, there).0, 3)
        XCTAssertEqual(routineBounds(b), [300, 660, 1140])
    }

    /// A store whose records were all logged before the reading rules synced (1.0 wrote
    /// them with no op) sends them after its upgrade: a peer that never saw the store
    /// before reads the same policies and bounds.
    func testReadingRulesA10StoreKeptUnloggedTravelAfterTheUpgrade() throws {
        // The rules as 1.1 stores them, set on a store of their own.
        let rules = try open("rules.db")
        let walk = createHabit(rules, "Walk")
        setReadingRules(rules, walk)
        hc_store_close(rules)
        // A store as 1.0 left it: its records logged, then the rules written without an op.
        let old = try open("old.db")
        XCTAssertEqual(createHabit(old, "Walk"), walk)
        hc_store_close(old)
        let written = try runProcess([
            "sqlite3", dir + "/old.db",
            """
            ATTACH '\(dir)/rules.db' AS rules;
            INSERT OR REPLACE INTO settings SELECT * FROM rules.settings
                WHERE key IN ('streak_miss_allowance', 'streak_open_day', 'streak_off_days', 'routine_bounds');
            INSERT INTO streak_policies SELECT * FROM rules.streak_policies;
            PRAGMA user_version = 21;
            """,
        ])
        XCTAssertEqual(written.status, 0, written.stderr)

        let upgraded = try open("old.db"), peer = try open("peer.db")
        defer { hc_store_close(upgraded); hc_store_close(peer) }
        XCTAssertEqual(storePolicy(upgraded).miss_allowance, 2, "the rows the upgrade reads")
        _ = pull(peer, from: upgraded)
        let there = habitId(peer, "Walk")
        assertReadingRules(peer, there)
        XCTAssertEqual(canonical(upgraded), canonical(peer))
    }
}
