import CHabitCore
import Foundation
import HabitCore
import XCTest

/// Leaving is as easy as arriving: Loop's CSV format written back.
final class LoopExportTests: StoreTestCase {
    func export(_ store: OpaquePointer, to: String) -> (habits: String, checkmarks: String) {
        var habits: UnsafeMutablePointer<CChar>?, checkmarks: UnsafeMutablePointer<CChar>?
        ok(hc_store_export_loop_csv(&habits, &checkmarks, store, day(to)))
        defer { hc_free(habits); hc_free(checkmarks) }
        return (habits.map { String(cString: $0) } ?? "", checkmarks.map { String(cString: $0) } ?? "")
    }

    func testLoopsExportImportedAndExportedAgainIsTheSameTable() throws {
        let root = LoopImportTests.export
        let habits = try String(contentsOfFile: root + "/Habits.csv", encoding: .utf8)
        let checkmarks = try String(contentsOfFile: root + "/Checkmarks.csv", encoding: .utf8)
        let db = dir + "/loop.db"
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "import", "--loop", root + "/Habits.csv", root + "/Checkmarks.csv"]), "import")
        let out = dir + "/out"
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "export", "--loop", "--output", out, "--date", "2015-01-25"]), "export --loop")
        let again = try String(contentsOfFile: out + "/Checkmarks.csv", encoding: .utf8)
        // Every cell as Loop wrote it (its YES_AUTO days derived by Loop's rule), but for
        // the one explicit NO, which has no entry here.
        XCTAssertEqual(again, checkmarks.replacingOccurrences(of: "2015-01-24,UNKNOWN,NO,", with: "2015-01-24,UNKNOWN,UNKNOWN,"))
        // Habits.csv: the same table, Question and Color included.
        let habitsAgain = try String(contentsOfFile: out + "/Habits.csv", encoding: .utf8)
        XCTAssertEqual(habitsAgain, habits)
        XCTAssertTrue(habits.contains("Did you meditate this morning?") && habits.contains("#00897B"), "the fixture has them to keep")
        let shown =
            try XCTUnwrap(
                try JSONSerialization.jsonObject(
                    with: Data(
                        try runProcess(
                            [Paths.habitctl, "--db", db, "--json", "habit", "show", "Wake up early"]).stdout.utf8)) as? [String: Any])["habit"]
            as? [String: Any]
        XCTAssertEqual(shown?["question"] as? String, "Did you wake up before 6am?")
        XCTAssertEqual(shown?["colour"] as? String, "#00897B")
        XCTAssertEqual(shown?["position"] as? Int, 2, "Loop's Position 002")
    }

    func testOurExportSurvivesItsOwnRoundTrip() throws {
        let store = try open()
        var random = SplitMix(seed: 18)
        let start = day("2026-01-01"), end = day("2026-04-30")
        let schedules = ["daily", "times:2/3", "times:3/7", "times:1/30", "times:5/31", "days:mon,wed,fri", "every:4", "weekly:2"]
        for (index, schedule) in schedules.enumerated() {
            let name = index == 1 ? "Read, then write" : "Habit \(index)"
            let habit = createHabit(store, name, schedule: schedule, start: "2026-01-01")
            var d = start
            while d <= end {
                switch random.below(10) {
                case 0..<5: ok(append(store, habit, on: date(d)).0)
                case 5: ok(append(store, habit, HC_ENTRY_SKIP, on: date(d)).0)
                default: break
                }
                d += 1
            }
        }
        for (index, direction) in [HC_DIRECTION_AT_LEAST, HC_DIRECTION_AT_MOST].enumerated() {
            var options = defaults(hc_habit_options_init)
            options.kind = HC_KIND_COUNTER
            options.target = 2.5
            options.direction = direction
            options.start_day = start
            var id: Int64 = 0
            "Count \(index)".withCString { name in
                "km".withCString { unit in
                    options.name = name
                    options.unit = unit
                    ok(hc_habit_create(&id, store, &options))
                }
            }
            var d = start
            while d <= end {
                switch random.below(6) {
                case 0..<3: ok(append(store, id, HC_ENTRY_AMOUNT, value: Double(random.below(5000)) / 1000, on: date(d)).0)
                case 3: ok(append(store, id, HC_ENTRY_SKIP, on: date(d)).0)
                default: break
                }
                d += 1
            }
        }
        // Display fields go to Question, Description and Color, and position orders the rows:
        // "Read, then write" (habit 2) to the end but for Habit 0 after it.
        var options = defaults(hc_habit_options_init)
        "Read, then \"write\"?".withCString { question in
            "line one\nline two".withCString { description in
                "#aaaaaa".withCString { colour in
                    options.question = question
                    options.description = description
                    options.colour = colour
                    options.position = 5
                    ok(
                        hc_habit_update(
                            store, 2, &options, HC_HABIT_FIELD_QUESTION | HC_HABIT_FIELD_DESCRIPTION | HC_HABIT_FIELD_COLOUR | HC_HABIT_FIELD_POSITION))
                }
            }
        }
        options.position = 9
        ok(hc_habit_update(store, 1, &options, HC_HABIT_FIELD_POSITION))
        let first = export(store, to: "2026-05-02")
        func row(_ name: String) -> String.Index? { first.habits.range(of: "," + name + ",")?.lowerBound }
        let read = try XCTUnwrap(row("\"Read, then write\"")), count = try XCTUnwrap(row("Count 1")), zero = try XCTUnwrap(row("Habit 0"))
        XCTAssertTrue(count < read && read < zero, first.habits)
        XCTAssertTrue(first.habits.contains("\"Read, then write\",YES_NO,\"Read, then \"\"write\"\"?\",\"line one\nline two\",2,3,#aaaaaa,"), first.habits)
        XCTAssertTrue(first.checkmarks.hasPrefix("Date,Habit 2,"), "Checkmarks.csv's columns in the same order")
        XCTAssertTrue(first.checkmarks.contains("YES_AUTO"), "Loop's filled days are written")
        XCTAssertTrue(first.habits.contains("\"Read, then write\""), first.habits)
        let other = try open("other.db")
        ok(hc_store_import_loop_csv(other, first.habits, first.checkmarks))
        let second = export(other, to: "2026-05-02")
        XCTAssertEqual(second.habits, first.habits)
        XCTAssertEqual(second.checkmarks, first.checkmarks)
        XCTAssertEqual(second.checkmarks.split(separator: "\n").count, Int(day("2026-05-02") - start) + 2, "a row per day and the header")
        // Bad input: a NULL out, a day outside the calendar; both outs stay NULL.
        var habits: UnsafeMutablePointer<CChar>? = nil, checkmarks: UnsafeMutablePointer<CChar>? = nil
        XCTAssertEqual(hc_store_export_loop_csv(nil, &checkmarks, store, day("2026-05-02")), HC_E_INVALID)
        XCTAssertEqual(hc_store_export_loop_csv(&habits, &checkmarks, store, Int32.max), HC_E_INVALID)
        XCTAssertNil(habits)
        XCTAssertNil(checkmarks)
        ok(hc_store_close(other))
        ok(hc_store_close(store))
    }
}
