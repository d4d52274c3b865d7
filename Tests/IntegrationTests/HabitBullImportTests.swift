import CHabitCore
import Foundation
import HabitCore
import XCTest

/// HabitBull's CSV export, with the four files Loop Habit Tracker tests its importer on
/// (Tests/fixtures/loop/habitbull), asserting what Loop's ImportTest asserts.
final class HabitBullImportTests: StoreTestCase {
    static let folder = Paths.root + "/Tests/fixtures/loop/habitbull"

    func importFile(_ name: String) throws -> OpaquePointer {
        let store = try open(name + ".db")
        let csv = try String(contentsOfFile: Self.folder + "/" + name + ".csv", encoding: .utf8)
        ok(hc_store_import_habitbull_csv(store, csv))
        return store
    }

    func habits(_ store: OpaquePointer) -> [(id: Int64, name: String, kind: Int32, group: String?, schedule: String)] {
        eachHabit(store) { h in (h.id, String(cString: h.name), h.kind, h.group_name.map { String(cString: $0) }, String(cString: h.schedule)) }
    }

    func isDone(_ store: OpaquePointer, _ habit: Int64, _ date: String) -> Bool {
        var states = [hc_day_state()]
        var count: Int64 = 0
        ok(hc_habit_day_states(&states, 1, &count, store, habit, day(date), day(date)))
        return states[0].flags & HC_DAY_DONE != 0
    }

    func notes(_ store: OpaquePointer) -> String { export(store, HC_FORMAT_JSONL) }

    func testLoopsHabitBullFiles() throws {
        let first = try importFile("habitbull")
        let h1 = habits(first)
        XCTAssertEqual(h1.map(\.name), ["Breed dragons", "Reduce sleep", "No-arms pushup", "Grow spiritually"])
        XCTAssertEqual(h1[0].group, "Diet & Food")
        XCTAssertEqual(h1[0].schedule, "daily")
        XCTAssertEqual(h1.map(\.kind), [HC_KIND_CHECKMARK, HC_KIND_CHECKMARK, HC_KIND_CHECKMARK, HC_KIND_CHECKMARK])
        XCTAssertTrue(isDone(first, h1[0].id, "2016-03-18"))
        XCTAssertTrue(isDone(first, h1[0].id, "2016-03-19"))
        XCTAssertFalse(isDone(first, h1[0].id, "2016-03-20"))
        XCTAssertTrue(notes(first).contains("\"note\":\"text\""), notes(first))
        XCTAssertEqual(displays(first)[0].display, Display(description: "with love and fire"), "HabitDescription")
        XCTAssertEqual(displays(first)[1].display, Display(description: "only 2 hours per day"))
        ok(hc_store_close(first))

        let second = try importFile("habitbull2")
        let h2 = habits(second)
        XCTAssertEqual(h2.count, 6)
        XCTAssertEqual(h2[2].name, "H3")
        XCTAssertTrue(isDone(second, h2[2].id, "2019-04-11"))
        XCTAssertTrue(isDone(second, h2[2].id, "2019-05-07"))
        XCTAssertFalse(isDone(second, h2[2].id, "2019-06-14"))
        XCTAssertTrue(notes(second).contains("\"note\":\"text\""))
        XCTAssertFalse(notes(second).contains("Habit 3 notes"), "a 0 day has no entry to carry its note")
        ok(hc_store_close(second))

        let third = try importFile("habitbull3")
        let h3 = habits(third)
        XCTAssertEqual(h3.map(\.name), ["Pushups", "run"])
        XCTAssertEqual(h3.map(\.kind), [HC_KIND_COUNTER, HC_KIND_CHECKMARK])
        XCTAssertEqual(total(third, h3[0].id, "2021-09-01"), 30)
        XCTAssertEqual(total(third, h3[0].id, "2022-01-08"), 100)
        for date in ["2022-01-03", "2022-01-18", "2022-01-19"] { XCTAssertTrue(isDone(third, h3[1].id, date), date) }
        ok(hc_store_close(third))

        let fourth = try importFile("habitbull4")
        let h4 = habits(fourth)
        XCTAssertEqual(h4.map(\.name), ["Caffeine"])
        XCTAssertEqual(h4[0].kind, HC_KIND_COUNTER)
        XCTAssertEqual(total(fourth, h4[0].id, "2022-11-21"), 80)
        XCTAssertEqual(total(fourth, h4[0].id, "2022-11-22"), 80)
        ok(hc_store_close(fourth))
    }

    func testHabitBullFromTheShellAndBadRows() throws {
        let db = dir + "/shell.db"
        let result = try runProcess([Paths.habitctl, "--db", db, "--json", "import", "--habitbull", Self.folder + "/habitbull3.csv"])
        XCTAssertSucceeded(result, "import --habitbull")
        XCTAssertTrue(result.stdout.contains("\"habits\":2") || result.stdout.contains("\"habits\" : 2"), result.stdout)
        let store = try open("bad.db")
        let header = "HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText\n"
        for (csv, line) in [
            (header + "Run,,Fitness,2022-01-01,1,\nRun,,Fitness,13/45/2022,1,\n", "line 3"),
            (header + "Run,,Fitness,2022-01-01,lots,\n", "line 2"),
            ("Name,Date\nRun,2022-01-01\n", "line 1"),
            (header + ",,Fitness,2022-01-01,1,\n", "line 2"),
        ] {
            XCTAssertEqual(hc_store_import_habitbull_csv(store, csv), HC_E_INVALID, csv)
            XCTAssertTrue(String(cString: hc_store_errmsg(store)).hasPrefix("HabitBull CSV \(line)"), String(cString: hc_store_errmsg(store)))
        }
        XCTAssertEqual(habits(store).count, 0, "nothing written")
        // Names equal under case folding are both kept.
        ok(hc_store_import_habitbull_csv(store, header + "Run,,,2022-01-01,1,\nrun,,,2022-01-02,1,\n"))
        XCTAssertEqual(habits(store).map(\.name), ["Run", "run (2)"])
        ok(hc_store_close(store))
    }
}
