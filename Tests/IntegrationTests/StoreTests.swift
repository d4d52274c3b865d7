import CHabitCore
import Foundation
import HabitExports
import XCTest

/// Store behaviour through the C functions (linked statically here; the .so is
/// what the C, Python and Rust tests load).
final class StoreTests: StoreTestCase {
    func testCreatesSchemaAndRefusesNewerOrForeignFiles() throws {
        let store = try open()
        var version: Int32 = 0
        ok(hc_store_schema_version(&version, store))
        XCTAssertEqual(version, latestSchemaVersion)
        ok(hc_store_close(store))
        let journal = try runProcess(["sqlite3", dir + "/store.db", "PRAGMA journal_mode"])
        XCTAssertEqual(journal.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "wal")
        // A store written by a future habitcore is refused, untouched.
        XCTAssertSucceeded(try runProcess(["sqlite3", dir + "/store.db", "PRAGMA user_version = 99"]), "set version")
        var handle: OpaquePointer?
        XCTAssertEqual(hc_store_open(&handle, dir + "/store.db", 0), HC_E_TOO_NEW)
        XCTAssertTrue(String(cString: hc_last_error_message()).contains("schema version 99"))
        // Another application's SQLite file is not ours.
        XCTAssertSucceeded(try runProcess(["sqlite3", dir + "/other.db", "CREATE TABLE notes(x)"]), "foreign db")
        let before = try XCTUnwrap(FileManager.default.contents(atPath: dir + "/other.db"))
        XCTAssertEqual(hc_store_open(&handle, dir + "/other.db", 0), HC_E_CORRUPT)
        // Refused before anything is written to it: still in its own journal mode, byte for byte.
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/other.db"), before)
        XCTAssertEqual(try runProcess(["sqlite3", dir + "/other.db", "PRAGMA journal_mode"]).stdout, "delete\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/other.db-wal"))
        // Not SQLite at all.
        try "hello, not a database, just text that is long enough to look like a header".write(toFile: dir + "/text.db", atomically: true, encoding: .utf8)
        XCTAssertEqual(hc_store_open(&handle, dir + "/text.db", 0), HC_E_CORRUPT)
        XCTAssertEqual(hc_store_open(&handle, dir + "/missing.db", HC_OPEN_READONLY), HC_E_NOT_FOUND)
    }

    func testLedgerIsAppendOnlyEvenForSQLiteItself() throws {
        let store = try open()
        let habit = createHabit(store, "Read")
        append(store, habit, on: "2026-01-02")
        ok(hc_store_close(store))
        let update = try runProcess(["sqlite3", dir + "/store.db", "UPDATE entries SET day = 0"])
        XCTAssertNotEqual(update.status, 0)
        XCTAssertTrue(update.stderr.contains("append-only"), update.stderr)
        let delete = try runProcess(["sqlite3", dir + "/store.db", "DELETE FROM entries"])
        XCTAssertNotEqual(delete.status, 0)
    }

    func testEntriesKeepTheirDateWhenTheZoneChanges() throws {
        let store = try open()
        let habit = createHabit(store, "Stretch")
        ok(hc_store_set_timezone(store, "Asia/Tokyo"))
        // 2026-06-01T16:00Z is 01:00 on June 2 in Tokyo, still June 1 in New York.
        let instant: Int64 = (Int64(day("2026-06-01")) * 86_400 + 16 * 3600) * 1000
        let (status, _) = append(store, habit, atMs: instant)
        ok(status)
        // A traveller logging with their own local date keeps that date.
        append(store, habit, on: "2026-06-05", atMs: instant)
        ok(hc_store_set_timezone(store, "America/New_York"))
        var localDay: Int32 = 0
        ok(hc_store_local_day(&localDay, store, instant))
        XCTAssertEqual(localDay, day("2026-06-01"))
        var states = [hc_day_state](repeating: hc_day_state(), count: 5)
        var count: Int64 = 0
        ok(hc_habit_day_states(&states, 5, &count, store, habit, day("2026-06-01"), day("2026-06-05")))
        XCTAssertEqual(
            states.map { $0.flags & HC_DAY_DONE != 0 }, [false, true, false, false, true],
            "entries stay on June 2 (Tokyo) and June 5 (as given) after the zone moves")
        var name: UnsafeMutablePointer<CChar>?
        ok(hc_store_timezone(&name, store))
        XCTAssertEqual(name.map { String(cString: $0) }, "America/New_York")
        hc_free(name)
        ok(hc_store_close(store))
    }

    func testDayStartDecidesWhichDayANightCheckCountsFor() throws {
        let store = try open()
        ok(hc_store_set_timezone(store, "America/New_York"))
        ok(hc_store_set_day_start(store, 180))
        let habit = createHabit(store, "Journal")
        // 01:30 EST on 2026-01-16 is 06:30 UTC: it counts for January 15.
        let instant: Int64 = (Int64(day("2026-01-16")) * 86_400 + 6 * 3600 + 1800) * 1000
        let (status, id) = append(store, habit, atMs: instant)
        ok(status)
        var list: OpaquePointer?
        ok(hc_entry_list_open(&list, store, habit, day("2026-01-15"), day("2026-01-16")))
        var entry: UnsafePointer<hc_entry>?
        ok(hc_entry_list_get(&entry, list, 0))
        XCTAssertEqual(entry?.pointee.id, id)
        XCTAssertEqual(entry?.pointee.day, day("2026-01-15"))
        XCTAssertEqual(entry?.pointee.recorded_at_ms, instant)
        hc_entry_list_free(list)
        ok(hc_store_close(store))
    }

    /// hc_store_utc_ms, the inverse of hc_store_local_day: a local minute of a habit
    /// day as an instant, across both of Berlin's 2026 clock changes and a day start.
    func testLocalMinutesOfADayBecomeInstants() throws {
        let store = try open()
        ok(hc_store_set_timezone(store, "Europe/Berlin"))
        func utc(_ date: String, _ minute: Int32) -> Int64 {
            var ms: Int64 = 0
            ok(hc_store_utc_ms(&ms, store, day(date), minute))
            return ms
        }
        func at(_ date: String, _ hour: Int64, _ minute: Int64 = 0) -> Int64 { (Int64(day(date)) * 86_400 + hour * 3600 + minute * 60) * 1000 }
        XCTAssertEqual(utc("2026-01-16", 7 * 60 + 30), at("2026-01-16", 6, 30), "winter: UTC+1")
        XCTAssertEqual(utc("2026-07-16", 7 * 60 + 30), at("2026-07-16", 5, 30), "summer: UTC+2")
        // 02:30 does not exist on 2026-03-29: the first minute after the gap, 03:00 CEST.
        XCTAssertEqual(utc("2026-03-29", 2 * 60 + 30), at("2026-03-29", 1))
        // 02:30 happens twice on 2026-10-25: the first time, still CEST.
        XCTAssertEqual(utc("2026-10-25", 2 * 60 + 30), at("2026-10-25", 0, 30))
        // With a 03:00 day start, 01:30 of a day is the night after it, and reads back as that day.
        ok(hc_store_set_day_start(store, 180))
        let night = utc("2026-01-15", 90)
        XCTAssertEqual(night, at("2026-01-16", 0, 30))
        var back: Int32 = 0
        ok(hc_store_local_day(&back, store, night))
        XCTAssertEqual(back, day("2026-01-15"))
        var ms: Int64 = 0
        XCTAssertEqual(hc_store_utc_ms(&ms, store, day("2026-01-15"), 1440), HC_E_INVALID)
        XCTAssertEqual(hc_store_utc_ms(&ms, store, Int32.max, 0), HC_E_INVALID)
        ok(hc_store_close(store))
    }

    func testTotalsAreIdempotentAndUndoLastCancelsTheNewest() throws {
        let store = try open()
        let steps = createHabit(store, "Steps", kind: HC_KIND_COUNTER, target: 6000)
        for value in [3000.0, 5400, 5400, 4000] { ok(append(store, steps, HC_ENTRY_TOTAL, value: value, on: "2026-03-08").0) }
        XCTAssertEqual(total(store, steps, "2026-03-08"), 5400)
        ok(append(store, steps, HC_ENTRY_AMOUNT, value: 700, on: "2026-03-08").0)
        XCTAssertEqual(total(store, steps, "2026-03-08"), 6100)
        var undo: Int64 = 0
        ok(hc_entry_undo_last(&undo, store, steps, day("2026-03-08")))
        XCTAssertEqual(total(store, steps, "2026-03-08"), 5400)
        ok(hc_entry_undo_last(&undo, store, steps, day("2026-03-08")))  // the 4000 report: no change
        XCTAssertEqual(total(store, steps, "2026-03-08"), 5400)
        ok(hc_store_close(store))
    }

    func testScheduleChangesKeepHistoryAndArchiveFreesTheName() throws {
        let store = try open()
        let habit = createHabit(store, "Gym", schedule: "days:mon,wed,fri", start: "2026-01-05")
        var options = defaults(hc_habit_options_init)
        "weekly:3".withCString {
            options.schedule = $0; ok(hc_habit_update(store, habit, &options, HC_HABIT_FIELD_SCHEDULE))
        }
        var pointer: UnsafeMutablePointer<hc_habit>?
        ok(hc_habit_get(&pointer, store, habit))
        XCTAssertEqual(pointer.map { String(cString: $0.pointee.schedule) }, "weekly:3")
        hc_habit_free(pointer)
        let document = export(store, HC_FORMAT_JSON)
        XCTAssertTrue(document.contains(#"{"from":"2026-01-05","schedule":"days:mon,wed,fri","target":1,"#), document)
        XCTAssertTrue(document.contains(#""schedule":"weekly:3","target":1,"#), document)

        ok(hc_habit_archive(store, habit, 1))
        XCTAssertEqual(append(store, habit, on: "2026-01-06").0, HC_E_CONFLICT)
        let again = createHabit(store, "gym")  // the name is free again, in any case
        XCTAssertNotEqual(again, habit)
        XCTAssertEqual(hc_habit_archive(store, habit, 0), HC_E_CONFLICT)
        var list: OpaquePointer?
        ok(hc_habit_list_open(&list, store, 0))
        var count: Int64 = 0
        ok(hc_habit_list_count(&count, list))
        XCTAssertEqual(count, 1)
        hc_habit_list_free(list)
        ok(hc_habit_list_open(&list, store, HC_LIST_INCLUDE_ARCHIVED))
        ok(hc_habit_list_count(&count, list))
        XCTAssertEqual(count, 2)
        hc_habit_list_free(list)
        ok(hc_store_close(store))
    }

    func testExportImportRoundTripsAndImportIsAllOrNothing() throws {
        let source = try open("source.db")
        ok(hc_store_set_timezone(source, "Europe/Berlin"))
        let water = createHabit(source, "Water", kind: HC_KIND_COUNTER, target: 8)
        let bed = createHabit(source, "Bed")
        for offset in 0..<20 {
            let date = String(format: "2026-02-%02d", offset + 1)
            ok(append(source, water, HC_ENTRY_AMOUNT, value: Double(offset % 9), on: date).0)
            if offset % 3 != 0 { ok(append(source, bed, on: date).0) }
        }
        var undo: Int64 = 0
        ok(hc_entry_undo_last(&undo, source, water, day("2026-02-05")))
        for format in [HC_FORMAT_JSON, HC_FORMAT_JSONL] {
            let text = export(source, format)
            let target = try open("target-\(format).db")
            ok(hc_store_import(target, text, format))
            var name: UnsafeMutablePointer<CChar>?
            ok(hc_store_timezone(&name, target))
            XCTAssertEqual(name.map { String(cString: $0) }, "Europe/Berlin", "an empty store takes the settings")
            hc_free(name)
            XCTAssertEqual(export(target, format), text, "a second export is identical")
            // Importing again clashes on names: nothing of it is written.
            XCTAssertEqual(hc_store_import(target, text, format), HC_E_CONFLICT)
            XCTAssertEqual(export(target, format), text)
            ok(hc_store_close(target))
        }
        // A bad line is named, and nothing is written.
        var lines = export(source, HC_FORMAT_JSONL).split(separator: "\n").map(String.init)
        lines[30] = lines[30].replacingOccurrences(of: "\"date\":\"2026-02-", with: "\"date\":\"2026-02-3")
        let target = try open("partial.db")
        XCTAssertEqual(hc_store_import(target, lines.joined(separator: "\n"), HC_FORMAT_JSONL), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(target)).hasPrefix("line 31:"), String(cString: hc_store_errmsg(target)))
        var list: OpaquePointer?
        ok(hc_habit_list_open(&list, target, HC_LIST_INCLUDE_ARCHIVED))
        var count: Int64 = -1
        ok(hc_habit_list_count(&count, list))
        XCTAssertEqual(count, 0)
        hc_habit_list_free(list)
        ok(hc_store_close(target))
        ok(hc_store_close(source))
    }

    func testLoopHabitTrackerImport() throws {
        let store = try open()
        let habits = """
            Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
            001,Meditate,YES_NO,Did you meditate?,,1,1,#FF8F00,,,,false
            002,Run,NUMERICAL,How many miles?,,3,7,#E64A19,miles,AT_LEAST,2.0,false
            """
        let checkmarks = "Date,Meditate,Run\n2026-01-03,2,3500\n2026-01-02,1,0\n2026-01-01,3,2000\n"  // numbers: thousandths, as Loop writes them
        ok(hc_store_import_loop_csv(store, habits, checkmarks))
        var pointer: UnsafeMutablePointer<hc_habit>?
        ok(hc_habit_find(&pointer, store, "Run"))
        let run = pointer?.pointee.id ?? 0
        XCTAssertEqual(pointer.map { String(cString: $0.pointee.schedule) }, "times:3/7")
        XCTAssertEqual(pointer?.pointee.start_day, day("2026-01-01"))
        hc_habit_free(pointer)
        XCTAssertEqual(total(store, run, "2026-01-03"), 3.5)
        XCTAssertEqual(total(store, run, "2026-01-01"), 2)
        ok(hc_habit_find(&pointer, store, "Meditate"))
        let meditate = pointer?.pointee.id ?? 0
        hc_habit_free(pointer)
        var states = [hc_day_state](repeating: hc_day_state(), count: 3)
        var count: Int64 = 0
        ok(hc_habit_day_states(&states, 3, &count, store, meditate, day("2026-01-01"), day("2026-01-03")))
        XCTAssertEqual(states.map(\.flags), [HC_DAY_SKIPPED | HC_DAY_HAS_ENTRIES, 0, HC_DAY_DONE | HC_DAY_HAS_ENTRIES])
        XCTAssertEqual(
            hc_store_import_loop_csv(store, habits, "Date,Meditate\n2026-01-04,2\n"), HC_E_CONFLICT,
            "the habits exist already")
        XCTAssertEqual(
            hc_store_import_loop_csv(store, habits, "Date,Meditate\n2026-01-04,maybe\n"), HC_E_INVALID,
            "the whole file is checked before anything is written")
        XCTAssertTrue(String(cString: hc_store_errmsg(store)).hasPrefix("Checkmarks.csv line 2:"))
        ok(hc_store_close(store))
    }

    /// Each handle caches settings and habits; a change made through another
    /// handle (as by another process) must be seen at once.
    func testChangesThroughAnotherHandleAreSeen() throws {
        let first = try open(), second = try open()
        let habit = createHabit(first, "Floss")
        let instant: Int64 = (Int64(day("2026-06-01")) * 86_400 + 2 * 3600) * 1000
        var local: Int32 = 0
        ok(hc_store_local_day(&local, first, instant))
        XCTAssertEqual(local, day("2026-06-01"))
        ok(append(first, habit, on: "2026-06-01").0)
        ok(hc_store_set_timezone(second, "America/Los_Angeles"))
        ok(hc_store_local_day(&local, first, instant))
        XCTAssertEqual(local, day("2026-05-31"), "the first handle sees the zone the second one set")
        ok(hc_habit_archive(second, habit, 1))
        XCTAssertEqual(append(first, habit, on: "2026-06-02").0, HC_E_CONFLICT, "and sees the habit archived")
        ok(hc_habit_archive(second, habit, 0))
        ok(hc_store_begin(first))
        ok(append(first, habit, on: "2026-06-02").0)
        ok(hc_store_rollback(first))
        XCTAssertEqual(total(first, habit, "2026-06-02"), 0)
        ok(hc_store_close(second))
        ok(hc_store_close(first))
    }

    func testSeveralThreadsShareOneHandle() throws {
        let store = try open()
        let habit = createHabit(store, "Pushups", kind: HC_KIND_COUNTER, target: 100)
        let handle = UInt(bitPattern: store)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let shared = OpaquePointer(bitPattern: handle)
            for _ in 0..<50 {
                var input = defaults(hc_entry_input_init)
                input.habit_id = habit
                input.kind = HC_ENTRY_AMOUNT
                input.value = 1
                input.day = 20_000
                input.source = HC_SOURCE_MANUAL
                XCTAssertEqual(hc_entry_append(nil, shared, &input), HC_OK)
            }
        }
        var value = 0.0
        ok(hc_habit_day_total(&value, store, habit, 20_000))
        XCTAssertEqual(value, 400)
        ok(hc_store_close(store))
    }
}
