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
}
