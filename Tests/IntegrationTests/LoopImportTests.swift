import CHabitCore
import Foundation
import HabitCore
import XCTest

/// Loop Habit Tracker's own CSV export (uhabits-core/assets/test/csv_export, in
/// Tests/fixtures/loop) imported as a person would, and Loop's CSV as its exporter
/// really writes it: numbers in thousandths, unquoted names, duplicate names.
final class LoopImportTests: StoreTestCase {
    static let export = Paths.root + "/Tests/fixtures/loop/csv_export"

    /// Loop's Scores.csv: date -> score per habit column.
    func scores(_ path: String) throws -> [(date: String, values: [String: Double])] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            var values: [String: Double] = [:]
            for (index, name) in header.enumerated().dropFirst() where !name.isEmpty && index < cells.count {
                values[name] = Double(cells[index])
            }
            return (cells[0], values)
        }
    }

    func testHabitctlImportOfLoopsExportGivesLoopsScoresDayByDay() throws {
        let db = dir + "/loop.db"
        let imported = try runProcess([
            Paths.habitctl, "--db", db, "import", "--loop",
            Self.export + "/Habits.csv", Self.export + "/Checkmarks.csv",
        ])
        XCTAssertSucceeded(imported, "import --loop")
        let table = try scores(Self.export + "/Scores.csv")
        XCTAssertEqual(table.count, 10)
        var compared = 0
        for row in table {
            for (name, expected) in row.values {
                let stats = try runProcess([Paths.habitctl, "--db", db, "--json", "stats", name, "--date", row.date])
                XCTAssertSucceeded(stats, "stats \(name) \(row.date)")
                let document = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
                let strength = try XCTUnwrap(document?["strength"] as? Double, stats.stdout)
                // Loop writes four decimals.
                XCTAssertEqual(strength, expected, accuracy: 0.00005 + 1e-12, "\(name) on \(row.date)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 20)
        let habit = try runProcess([Paths.habitctl, "--db", db, "--json", "habit", "list"])
        XCTAssertTrue(habit.stdout.contains("times:2/3"), habit.stdout)
        // Its streaks count blocks of 3 days from its first: 01-16..18 and 19..21 hold 2 checks,
        // 22..24 one (missed), 25..27 is open.
        let streak = try runProcess([Paths.habitctl, "--db", db, "--json", "stats", "Wake up early", "--date", "2015-01-25"])
        let streaks = (try JSONSerialization.jsonObject(with: Data(streak.stdout.utf8)) as? [String: Any])?["streaks"] as? [String: Any]
        XCTAssertEqual(streaks?["unit"] as? String, "periods", streak.stdout)
        XCTAssertEqual((streaks?["current"] as? [String: Any])?["length"] as? Int, 0, streak.stdout)
        XCTAssertEqual((streaks?["longest"] as? [String: Any])?["length"] as? Int, 2, streak.stdout)
    }

    func testEachHabitsScoresFileMatchesThroughTheCHeader() throws {
        let store = try open()
        let habits = try String(contentsOfFile: Self.export + "/Habits.csv", encoding: .utf8)
        let checkmarks = try String(contentsOfFile: Self.export + "/Checkmarks.csv", encoding: .utf8)
        ok(hc_store_import_loop_csv(store, habits, checkmarks))
        for (folder, name) in [("001 Meditate", "Meditate"), ("002 Wake up early", "Wake up early")] {
            let table = try scores(Self.export + "/" + folder + "/Scores.csv")
            var pointer: UnsafeMutablePointer<hc_habit>?
            ok(hc_habit_find(&pointer, store, name))
            let id = pointer?.pointee.id ?? 0
            hc_habit_free(pointer)
            let days = table.map { day($0.date) }
            guard let first = days.min(), let last = days.max() else { return XCTFail("empty \(folder)") }
            var series = [Double](repeating: -1, count: Int(last - first + 1))
            var count: Int64 = 0
            ok(hc_habit_strength(&series, Int64(series.count), &count, store, id, first, last))
            for (row, day) in zip(table, days) {
                XCTAssertEqual(series[Int(day - first)], row.values["Score"] ?? -1, accuracy: 0.00005 + 1e-12, "\(name) \(row.date)")
            }
        }
        ok(hc_store_close(store))
    }

    func testNumbersAsLoopWritesThemDuplicateNamesAndCommas() throws {
        let store = try open()
        // Loop quotes a name with a comma in Habits.csv but not in Checkmarks.csv's header,
        // and allows two habits of one name.
        let habits = """
            Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
            001,"Read, then write",YES_NO,,,1,1,#FF8F00,,,,false
            002,Run,NUMERICAL,How far?,,1,7,#E64A19,km,AT_LEAST,5.0,false
            003,Run,YES_NO,,,2,3,#E64A19,,,,false
            004,Coffee,NUMERICAL,,,1,1,#000000,cups,AT_MOST,2.0,false
            """
        let checkmarks = """
            Date,Read, then write,Run,Run,Coffee,
            2026-01-03,YES_MANUAL,2500,YES_MANUAL,3000,
            2026-01-02,NO,SKIP,UNKNOWN,YES_MANUAL,
            2026-01-01,YES_AUTO,YES_MANUAL,YES_MANUAL,NO,

            """
        ok(hc_store_import_loop_csv(store, habits, checkmarks))
        func find(_ name: String) -> (id: Int64, schedule: String) {
            var pointer: UnsafeMutablePointer<hc_habit>?
            ok(hc_habit_find(&pointer, store, name))
            defer { hc_habit_free(pointer) }
            return (pointer?.pointee.id ?? 0, pointer.map { String(cString: $0.pointee.schedule) } ?? "")
        }
        let read = find("Read, then write"), run = find("Run"), runAgain = find("Run (2)"), coffee = find("Coffee")
        XCTAssertEqual([read.schedule, run.schedule, runAgain.schedule, coffee.schedule], ["daily", "times:1/7", "times:2/3", "daily"])
        XCTAssertEqual(total(store, run.id, "2026-01-03"), 2.5, "2500 thousandths")
        XCTAssertEqual(total(store, run.id, "2026-01-01"), 0.002, accuracy: 1e-12, "2 thousandths, written as YES_MANUAL")
        XCTAssertEqual(total(store, coffee.id, "2026-01-03"), 3)
        var states = [hc_day_state](repeating: hc_day_state(), count: 3)
        var count: Int64 = 0
        ok(hc_habit_day_states(&states, 3, &count, store, run.id, day("2026-01-01"), day("2026-01-03")))
        XCTAssertEqual(states[1].flags & HC_DAY_SKIPPED, HC_DAY_SKIPPED, "a number's SKIP is a skip")
        ok(hc_habit_day_states(&states, 3, &count, store, read.id, day("2026-01-01"), day("2026-01-03")))
        XCTAssertEqual(states.map { $0.flags & HC_DAY_DONE }, [0, 0, HC_DAY_DONE], "YES_AUTO is Loop's inference, not an entry")
        ok(hc_habit_day_states(&states, 3, &count, store, runAgain.id, day("2026-01-01"), day("2026-01-03")))
        XCTAssertEqual(states.map { $0.flags & HC_DAY_DONE }, [HC_DAY_DONE, 0, HC_DAY_DONE], "the second Run's own column")

        // All or nothing, naming the line: a decimal is not what Loop writes.
        let other = try open("other.db")
        XCTAssertEqual(hc_store_import_loop_csv(other, habits, checkmarks.replacingOccurrences(of: "2500", with: "2.5")), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(other)).hasPrefix("Checkmarks.csv line 2:"), String(cString: hc_store_errmsg(other)))
        XCTAssertEqual(hc_store_import_loop_csv(other, habits, "Date,Read, then write,Walk\n"), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(other)).contains("'Walk'"), String(cString: hc_store_errmsg(other)))
        XCTAssertEqual(eachHabit(other) { $0.id }, [], "nothing written")
        ok(hc_store_close(other))
        ok(hc_store_close(store))
    }
}
