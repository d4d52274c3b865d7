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
        let imported = try runProcess([Paths.habitctl, "--db", db, "import", "--loop",
                                       Self.export + "/Habits.csv", Self.export + "/Checkmarks.csv"])
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

/// Loop's zip as Loop hands it over, written here by Python's zipfile (deflated, as
/// Java's ZipOutputStream writes, and stored), from the fixture's files.
final class LoopZipTests: StoreTestCase {
    /// Zips `files` (archive path -> text) into dir/name with the given zipfile method.
    func zip(_ name: String, _ files: [String: String], method: String = "ZIP_DEFLATED") throws -> String {
        let path = dir + "/" + name
        let manifest = dir + "/" + name + ".json"
        try JSONSerialization.data(withJSONObject: files).write(to: URL(fileURLWithPath: manifest))
        let script = "import json, sys, zipfile\n" +
            "files = json.load(open(sys.argv[1]))\n" +
            "with zipfile.ZipFile(sys.argv[2], 'w', compression=zipfile.\(method)) as z:\n" +
            "    for arcname in sorted(files): z.writestr(arcname, files[arcname])\n"
        XCTAssertSucceeded(try runProcess(["python3", "-c", script, manifest, path]), "python3 zipfile")
        return path
    }

    func fixtureFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        let root = LoopImportTests.export
        for relative in ["Habits.csv", "Checkmarks.csv", "Scores.csv", "001 Meditate/Checkmarks.csv", "001 Meditate/Scores.csv",
                         "002 Wake up early/Checkmarks.csv", "002 Wake up early/Scores.csv"] {
            files[relative] = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
        }
        return files
    }

    func strength(_ store: OpaquePointer, _ name: String, _ date: String) -> Double {
        var pointer: UnsafeMutablePointer<hc_habit>?
        ok(hc_habit_find(&pointer, store, name))
        let id = pointer?.pointee.id ?? 0
        hc_habit_free(pointer)
        var value = [-1.0]
        var count: Int64 = 0
        ok(hc_habit_strength(&value, 1, &count, store, id, day(date), day(date)))
        return value[0]
    }

    func testLoopsZipImportsAsItIsDeflatedOrStored() throws {
        for method in ["ZIP_DEFLATED", "ZIP_STORED"] {
            let path = try zip("Loop Habits CSV 2015-01-25 \(method).zip", try fixtureFiles(), method: method)
            let db = dir + "/\(method).db"
            XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "import", "--loop", path]), "import --loop zip")
            let store = try open("\(method).db")
            XCTAssertEqual(strength(store, "Wake up early", "2015-01-20"), 0.0995, accuracy: 0.00005, method)
            XCTAssertEqual(strength(store, "Wake up early", "2015-01-25"), 0.2557, accuracy: 0.00005, method)
            ok(hc_store_close(store))
        }
    }

    func testNotesComeWithTheirEntriesAndBadArchivesWriteNothing() throws {
        var files = try fixtureFiles()
        // Loop's per-habit file quotes notes with commas and quotes (CSVWriter).
        files["002 Wake up early/Checkmarks.csv"] = "Date,Value,Notes\n2015-01-25,YES_MANUAL,\"Up at 5:40, \"\"early\"\"\"\n" +
            "2015-01-24,NO,Sick\n2015-01-16,YES_MANUAL,\n"
        let store = try open()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try zip("notes.zip", files))))
        ok(hc_store_import_loop_zip(store, bytes, Int64(bytes.count)))
        var exported: UnsafeMutablePointer<CChar>?
        ok(hc_store_export(&exported, store, HC_FORMAT_JSONL))
        let text = exported.map { String(cString: $0) } ?? ""
        hc_free(exported)
        XCTAssertTrue(text.contains(#"Up at 5:40, \"early\""#), text)
        XCTAssertFalse(text.contains("Sick"), "a NO day has no entry to carry its note")

        // A damaged archive: one byte of the first entry's deflated data changed fails
        // inflating or its CRC-32; nothing is written.
        let other = try open("other.db")
        var damaged = bytes
        let dataStart = 30 + Int(bytes[26]) + Int(bytes[27]) << 8 + Int(bytes[28]) + Int(bytes[29]) << 8
        damaged[dataStart + 2] ^= 0x55
        let status = hc_store_import_loop_zip(other, damaged, Int64(damaged.count))
        XCTAssertTrue(status == HC_E_CORRUPT || status == HC_E_INVALID, "\(status)")
        XCTAssertTrue(String(cString: hc_store_errmsg(other)).contains("zip"), String(cString: hc_store_errmsg(other)))
        // A bad row names the entry and the line.
        files["Checkmarks.csv"] = (files["Checkmarks.csv"] ?? "") + "2015-02-30,UNKNOWN,YES_MANUAL,\n"
        let bad = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try zip("bad.zip", files))))
        XCTAssertEqual(hc_store_import_loop_zip(other, bad, Int64(bad.count)), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(other)).hasPrefix("Checkmarks.csv line 12:"), String(cString: hc_store_errmsg(other)))
        XCTAssertEqual(eachHabit(other) { $0.id }, [], "nothing written")
        ok(hc_store_close(other))
        ok(hc_store_close(store))
    }
}

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
        let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try runProcess(
            [Paths.habitctl, "--db", db, "--json", "habit", "show", "Wake up early"]).stdout.utf8)) as? [String: Any])["habit"] as? [String: Any]
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
            "Count \(index)".withCString { name in "km".withCString { unit in
                options.name = name
                options.unit = unit
                ok(hc_habit_create(&id, store, &options))
            } }
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
        "Read, then \"write\"?".withCString { question in "line one\nline two".withCString { description in "#aaaaaa".withCString { colour in
            options.question = question
            options.description = description
            options.colour = colour
            options.position = 5
            ok(hc_habit_update(store, 2, &options, HC_HABIT_FIELD_QUESTION | HC_HABIT_FIELD_DESCRIPTION | HC_HABIT_FIELD_COLOUR | HC_HABIT_FIELD_POSITION))
        } } }
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
        for (csv, line) in [(header + "Run,,Fitness,2022-01-01,1,\nRun,,Fitness,13/45/2022,1,\n", "line 3"),
                            (header + "Run,,Fitness,2022-01-01,lots,\n", "line 2"),
                            ("Name,Date\nRun,2022-01-01\n", "line 1"),
                            (header + ",,Fitness,2022-01-01,1,\n", "line 2")] {
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

/// Loop's full backup (its SQLite database): Loop's own test backups (schema 12, 21,
/// 22) and one made here for every version of Loop's migrations, 9 to 25.
final class LoopBackupTests: StoreTestCase {
    static let folder = Paths.root + "/Tests/fixtures/loop/databases"

    func habits(_ store: OpaquePointer) -> [(id: Int64, name: String, kind: Int32, schedule: String, archived: Bool, target: Double, direction: Int32)] {
        eachHabit(store) { h in
            (h.id, String(cString: h.name), h.kind, String(cString: h.schedule), h.archived_day != HC_DAY_NONE, h.target, h.direction)
        }
    }

    func doneDays(_ store: OpaquePointer, _ habit: Int64, from: String, to: String) -> [String] {
        let first = day(from), last = day(to)
        var states = [hc_day_state](repeating: hc_day_state(), count: Int(last - first + 1))
        var count: Int64 = 0
        ok(hc_habit_day_states(&states, Int64(states.count), &count, store, habit, first, last))
        return states.filter { $0.flags & HC_DAY_DONE != 0 }.map { date($0.day) }
    }

    /// The reminder rules in force today of one habit (0: every habit), through the C API,
    /// as "minute weekdays quiet from_day message".
    func rules(_ store: OpaquePointer, _ habit: Int64) -> [String] {
        var list: OpaquePointer?
        ok(hc_reminder_rule_list_open(&list, store, habit, Int32(HC_DAY_NONE)))
        defer { hc_reminder_rule_list_free(list) }
        var count: Int64 = 0
        ok(hc_reminder_rule_list_count(&count, list))
        return (0..<max(count, 0)).map { index in
            var item: UnsafePointer<hc_reminder_rule>?
            ok(hc_reminder_rule_list_get(&item, list, index))
            guard let rule = item?.pointee else { return "missing" }
            return "\(rule.minute) \(rule.weekdays) \(rule.quiet) \(date(rule.from_day)) \(rule.message.map { String(cString: $0) } ?? "-")"
        }
    }

    /// Rows of a database, read by Python's sqlite3 (not by the code under test).
    func query(_ path: String, _ sql: String) throws -> [String] {
        let result = try runProcess(["python3", "-c", "import sqlite3, sys\nfor r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print('|'.join(map(str, r)))", path, sql])
        XCTAssertSucceeded(result, sql)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    func testLoopsOwnBackups() throws {
        let store = try open()
        ok(hc_store_import_loop_db(store, Self.folder + "/loop.db"))
        let imported = habits(store)
        // Loop's test backup has three pairs of names; each habit comes, in Loop's order.
        XCTAssertEqual(imported.map(\.name), ["Wake up early", "brush teeth", "Sleep early", "Vegan", "Sport", "I love you",
                                              "Vegan (2)", "Sport (2)", "I love you (2)"])
        XCTAssertEqual(imported.map(\.schedule), ["times:3/7", "times:3/7", "times:1/5", "daily", "daily", "daily", "daily", "daily", "daily"])
        // Schema 12 stores colours as ARGB integers (-16742021 is 0xFF00897B) and the
        // question in the description column.
        let shown = displays(store)
        XCTAssertEqual(shown[0].display, Display(colour: "#00897B", position: 0))
        XCTAssertEqual(shown[1].display, Display(question: "I want to have beautiful teeth!", colour: "#00897B", position: 1))
        XCTAssertEqual(shown[6].display, Display(question: "Ate no animal products", colour: "#E64A19", position: 6))
        let wake = imported[0].id
        let done = doneDays(store, wake, from: "2016-03-14", to: "2016-03-17")
        XCTAssertEqual(done, ["2016-03-14", "2016-03-16"], "as Loop's ImportTest")
        // Schema 12: every habit's reminder_hour and reminder_min are NULL, so none has a rule.
        XCTAssertEqual(try query(Self.folder + "/loop.db", "select count(*) from habits where reminder_hour is not null or reminder_min is not null"), ["0"])
        XCTAssertEqual(rules(store, 0), [])
        // Every repetition of the file is a done day, and nothing else is.
        let ids = try query(Self.folder + "/loop.db", "select id from habits order by position").compactMap { Int64($0) }
        for (index, loopId) in ids.enumerated() {
            let expected = try query(Self.folder + "/loop.db",
                                     "select distinct date(timestamp / 1000, 'unixepoch') from repetitions where habit = \(loopId) order by 1")
            XCTAssertEqual(doneDays(store, imported[index].id, from: "2015-01-01", to: "2016-12-31"), expected, imported[index].name)
        }
        ok(hc_store_close(store))

        for file in ["021.db", "022.db"] {
            let other = try open(file + ".store")
            ok(hc_store_import_loop_db(other, Self.folder + "/" + file))
            let names = try query(Self.folder + "/" + file, "select name from habits order by position")
            XCTAssertEqual(habits(other).map(\.name), names, file)
            // Palette colour 8 (teal) in both; 022's first habit asks its question (in description before 23).
            XCTAssertEqual(displays(other).map(\.display.colour), names.map { _ in "#00897B" }, file)
            if file == "022.db" { XCTAssertEqual(displays(other)[0].display.question, "Did you work out?") }
            // 022's "Work out" reminds at 18:00 on Loop's days 113 (bits 0, 4, 5, 6: Saturday,
            // Wednesday, Thursday, Friday), here Wednesday to Saturday (bits 3-6 = 120);
            // its "Test" and 021's habit have NULL hour and minute: no rule.
            XCTAssertEqual(try query(Self.folder + "/" + file, "select name, reminder_hour, reminder_min, reminder_days from habits order by position"),
                           file == "022.db" ? ["Work out|18|0|113", "Test|None|None|0"] : ["Hello world|None|None|0"])
            // The rule's first version is on the habit's first day.
            let starts = eachHabit(other) { ($0.id, date($0.start_day)) }
            XCTAssertEqual(starts.count, names.count, file)
            for (index, (id, start)) in starts.enumerated() {
                let expected = file == "022.db" && index == 0 ? ["1080 120 \(HC_QUIET_DEFER) \(start) -"] : []
                XCTAssertEqual(rules(other, id), expected, "\(file) habit \(index)")
            }
            if file == "022.db", let workOut = starts.first?.0 {
                // And the rule nudges: in the two weeks after today, at 18:00 on Wednesday to Saturday only.
                var today: Int32 = 0
                ok(hc_store_today(&today, other))
                let days = (today + 2)...(today + 15) // 14 habit days, read in a window a day wider each side (any zone)
                var list: OpaquePointer?
                ok(hc_reminder_list_open(&list, other, Int64(days.lowerBound - 1) * 86_400_000, Int64(days.upperBound + 2) * 86_400_000, 0))
                var count: Int64 = 0
                ok(hc_reminder_list_count(&count, list))
                var weekdays: [Int32] = [], minutes = Set<Int32>()
                for index in 0..<max(count, 0) {
                    var item: UnsafePointer<hc_reminder>?
                    ok(hc_reminder_list_get(&item, list, index))
                    guard let nudge = item?.pointee, nudge.habit_id == workOut, days.contains(nudge.day) else { continue }
                    weekdays.append(((nudge.day % 7) + 11) % 7) // 1970-01-01 (day 0) was a Thursday; 0 = Sunday
                    minutes.insert(nudge.local_minute)
                }
                hc_reminder_list_free(list)
                XCTAssertEqual(weekdays.sorted(), [3, 3, 4, 4, 5, 5, 6, 6], "Wednesday to Saturday, twice")
                XCTAssertEqual(minutes, [1080])
            }
            ok(hc_store_close(other))
        }
    }

    /// A backup with the columns of schema `version`, written by Python's sqlite3.
    func backup(version: Int) throws -> String {
        let path = dir + "/loop-\(version).db"
        let script = """
        import os, sqlite3, sys
        v = int(sys.argv[2])
        if os.path.exists(sys.argv[1]): os.remove(sys.argv[1])
        db = sqlite3.connect(sys.argv[1])
        habit = ["id integer primary key autoincrement", "archived integer", "color integer", "description text",
                 "freq_den integer", "freq_num integer", "highlight integer", "name text", "position integer",
                 "reminder_hour integer", "reminder_min integer"]
        if v >= 11: habit.append("reminder_days integer not null default 127")
        if v >= 16: habit.append("type integer not null default 0")
        if v >= 18: habit += ["target_type integer not null default 0", "target_value real not null default 0", "unit text not null default ''"]
        if v >= 23: habit.append("question text")
        if v >= 24: habit.append("uuid text")
        rep = ["id integer primary key autoincrement", "habit integer references habits(id)", "timestamp integer"]
        if v >= 16: rep.append("value integer not null default 2")
        if v >= 25: rep.append("notes text")
        db.execute("create table Habits (%s)" % ", ".join(habit))
        db.execute("create table Repetitions (%s)" % ", ".join(rep))
        def add_habit(**f): db.execute("insert into Habits (%s) values (%s)" % (", ".join(f), ", ".join("?" * len(f))), list(f.values()))
        # Read reminds at 07:30, from 11 on Loop's days 113 (Saturday, Wednesday, Thursday, Friday;
        # before 11 there is no reminder_days column: every day); Old walk has an hour but no minute.
        remind = dict(reminder_hour=7, reminder_min=30, **({"reminder_days": 113} if v >= 11 else {}))
        if v >= 23: add_habit(id=1, name="Read", freq_num=2, freq_den=3, archived=0, position=1, color=3, description="Twenty pages", question="Did you read?", **remind)
        else: add_habit(id=1, name="Read", freq_num=2, freq_den=3, archived=0, position=1, color=3, description="Did you read?", **remind)
        add_habit(id=2, name="Old walk", freq_num=1, freq_den=1, archived=1, position=2, reminder_hour=8)
        if v >= 18: add_habit(id=3, name="Coffee", freq_num=1, freq_den=1, archived=0, position=0, type=1, target_type=1, target_value=2.0, unit="cups")
        day = 86400000 * 20454  # 2026-01-01
        def rep_row(**f): db.execute("insert into Repetitions (%s) values (%s)" % (", ".join(f), ", ".join("?" * len(f))), list(f.values()))
        for d in (0, 1, 3): rep_row(habit=1, timestamp=day + d * 86400000, **({"value": 2} if v >= 16 else {}))
        rep_row(habit=1, timestamp=day + 0 * 86400000, **({"value": 2} if v >= 16 else {}))  # a second row of one day
        rep_row(habit=99, timestamp=day)  # a habit that is not there
        rep_row(habit=2, timestamp=day + 2 * 86400000, **({"value": 2} if v >= 16 else {}))
        if v >= 16: rep_row(habit=1, timestamp=day + 4 * 86400000, value=3)
        if v >= 18:
            for d, value in ((0, 1500), (1, 3000), (2, 3)): rep_row(habit=3, timestamp=day + d * 86400000, value=value)
        if v >= 25: db.execute("update Repetitions set notes = 'slow, but \\"done\\"' where habit = 1 and timestamp = ?", (day + 86400000,))
        db.execute("pragma user_version = %d" % v)
        db.commit()
        """
        XCTAssertSucceeded(try runProcess(["python3", "-c", script, path, String(version)]), "backup \(version)")
        return path
    }

    func testEverySchemaVersionOfLoopsMigrations() throws {
        for version in 9...25 {
            let store = try open("v\(version).db")
            ok(hc_store_import_loop_db(store, try backup(version: version)))
            let imported = habits(store)
            let expectedNames = version >= 18 ? ["Coffee", "Read", "Old walk"] : ["Read", "Old walk"]
            XCTAssertEqual(imported.map(\.name), expectedNames, "version \(version)")
            guard let read = imported.first(where: { $0.name == "Read" }), let walk = imported.first(where: { $0.name == "Old walk" }) else { continue }
            XCTAssertEqual(read.schedule, "times:2/3")
            XCTAssertTrue(walk.archived)
            // Read's reminder: 07:30 (minute 450) on Wednesday to Saturday (bits 3-6 = 120), or
            // every day (127) before reminder_days (11); from its first day, 2026-01-01.
            XCTAssertEqual(rules(store, read.id), ["450 \(version >= 11 ? 120 : 127) \(HC_QUIET_DEFER) 2026-01-01 -"], "version \(version)")
            XCTAssertEqual(rules(store, walk.id), [], "an hour without a minute is no reminder (version \(version))")
            XCTAssertEqual(rules(store, 0).count, 1, "only Read has one (version \(version))")
            // Colour 3 of Loop's palette as its CSV writes it; before 23 the description held the question.
            let shown = displays(store)
            XCTAssertEqual(shown.first { $0.name == "Read" }?.display,
                           Display(description: version >= 23 ? "Twenty pages" : nil, question: "Did you read?", colour: "#FF8F00", position: 1),
                           "version \(version)")
            XCTAssertEqual(shown.first { $0.name == "Old walk" }?.display, Display(position: 2), "version \(version)")
            XCTAssertEqual(doneDays(store, read.id, from: "2026-01-01", to: "2026-01-05"), ["2026-01-01", "2026-01-02", "2026-01-04"], "version \(version)")
            var states = [hc_day_state](repeating: hc_day_state(), count: 1)
            var count: Int64 = 0
            ok(hc_habit_day_states(&states, 1, &count, store, read.id, day("2026-01-05"), day("2026-01-05")))
            XCTAssertEqual(states[0].flags & HC_DAY_SKIPPED != 0, version >= 16, "a skip needs the value column (16)")
            if let coffee = imported.first(where: { $0.name == "Coffee" }) {
                XCTAssertEqual(coffee.kind, HC_KIND_COUNTER)
                XCTAssertEqual(coffee.direction, HC_DIRECTION_AT_MOST)
                XCTAssertEqual(coffee.target, 2)
                XCTAssertEqual(total(store, coffee.id, "2026-01-01"), 1.5)
                XCTAssertEqual(total(store, coffee.id, "2026-01-02"), 3)
            }
            XCTAssertEqual(export(store, HC_FORMAT_JSONL).contains(#"slow, but \"done\""#), version >= 25, "notes from 25")
            ok(hc_store_close(store))
        }
    }

    func testWhatIsNotALoopBackupWritesNothing() throws {
        let store = try open()
        let newer = try backup(version: 25)
        XCTAssertSucceeded(try runProcess(["python3", "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('pragma user_version = 26'); db.commit()", newer]), "v26")
        XCTAssertEqual(hc_store_import_loop_db(store, newer), HC_E_TOO_NEW)
        XCTAssertEqual(hc_store_import_loop_db(store, LoopImportTests.export + "/Habits.csv"), HC_E_INVALID)
        XCTAssertEqual(hc_store_import_loop_db(store, dir + "/missing.db"), HC_E_IO)
        XCTAssertEqual(hc_store_import_loop_db(store, dir + "/store.db"), HC_E_INVALID, "a habitcore store is not a Loop backup")
        let bad = try backup(version: 22)
        XCTAssertSucceeded(try runProcess(["python3", "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('update habits set freq_num = 5 where id = 1'); db.commit()", bad]), "bad row")
        XCTAssertEqual(hc_store_import_loop_db(store, bad), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(store)).hasPrefix("Habits row id 1:"), String(cString: hc_store_errmsg(store)))
        XCTAssertEqual(habits(store).count, 0, "nothing written")
        // Reminder values Loop never writes refuse the import, naming the row; nothing is written.
        for (sql, message) in [("update habits set reminder_hour = 25, reminder_min = 0 where id = 2", "Habits row id 2: reminder_hour 25 is not an hour"),
                               ("update habits set reminder_min = 75 where id = 1", "Habits row id 1: reminder_min 75 is not a minute"),
                               ("update habits set reminder_days = 200 where id = 1", "Habits row id 1: reminder_days 200 is not a mask")] {
            let hostile = try backup(version: 22)
            XCTAssertSucceeded(try runProcess(["python3", "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute(sys.argv[2]); db.commit()", hostile, sql]), sql)
            XCTAssertEqual(hc_store_import_loop_db(store, hostile), HC_E_INVALID, sql)
            XCTAssertTrue(String(cString: hc_store_errmsg(store)).hasPrefix(message), String(cString: hc_store_errmsg(store)))
            XCTAssertEqual(habits(store).count, 0, "nothing written: \(sql)")
            XCTAssertEqual(rules(store, 0), [], sql)
        }
        // A habit refused by the store after Read and its rule were written: the rule goes too.
        let later = try backup(version: 22)
        XCTAssertSucceeded(try runProcess(["python3", "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute(\"insert into habits (id, name, freq_num, freq_den, archived, position) values (4, 'Taken', 1, 1, 0, 5)\"); db.commit()", later]), "Taken")
        let taken = createHabit(store, "Taken")
        XCTAssertEqual(hc_store_import_loop_db(store, later), HC_E_CONFLICT)
        XCTAssertEqual(habits(store).map(\.id), [taken], "nothing written")
        XCTAssertEqual(rules(store, 0), [], "Read's rule rolled back with the rest")
        // From the shell: import --loop takes the .db as it takes the zip.
        let db = dir + "/shell.db"
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "import", "--loop", Self.folder + "/loop.db"]), "import --loop loop.db")
        ok(hc_store_close(store))
    }
}
