import CHabitCore
import Foundation
import HabitCore
import XCTest

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
        let result = try runProcess([
            "python3", "-c", "import sqlite3, sys\nfor r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print('|'.join(map(str, r)))", path, sql,
        ])
        XCTAssertSucceeded(result, sql)
        return result.stdout.split(separator: "\n").map(String.init)
    }

    func testLoopsOwnBackups() throws {
        let store = try open()
        ok(hc_store_import_loop_db(store, Self.folder + "/loop.db"))
        let imported = habits(store)
        // Loop's test backup has three pairs of names; each habit comes, in Loop's order.
        XCTAssertEqual(
            imported.map(\.name),
            [
                "Wake up early", "brush teeth", "Sleep early", "Vegan", "Sport", "I love you",
                "Vegan (2)", "Sport (2)", "I love you (2)",
            ])
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
            let expected = try query(
                Self.folder + "/loop.db",
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
            XCTAssertEqual(
                try query(Self.folder + "/" + file, "select name, reminder_hour, reminder_min, reminder_days from habits order by position"),
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
                let days = (today + 2)...(today + 15)  // 14 habit days, read in a window a day wider each side (any zone)
                var list: OpaquePointer?
                ok(hc_reminder_list_open(&list, other, Int64(days.lowerBound - 1) * 86_400_000, Int64(days.upperBound + 2) * 86_400_000, 0))
                var count: Int64 = 0
                ok(hc_reminder_list_count(&count, list))
                var weekdays: [Int32] = [], minutes = Set<Int32>()
                for index in 0..<max(count, 0) {
                    var item: UnsafePointer<hc_reminder>?
                    ok(hc_reminder_list_get(&item, list, index))
                    guard let nudge = item?.pointee, nudge.habit_id == workOut, days.contains(nudge.day) else { continue }
                    weekdays.append(((nudge.day % 7) + 11) % 7)  // 1970-01-01 (day 0) was a Thursday; 0 = Sunday
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
            XCTAssertEqual(
                shown.first { $0.name == "Read" }?.display,
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
        XCTAssertSucceeded(
            try runProcess([
                "python3", "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('pragma user_version = 26'); db.commit()", newer,
            ]), "v26")
        XCTAssertEqual(hc_store_import_loop_db(store, newer), HC_E_TOO_NEW)
        XCTAssertEqual(hc_store_import_loop_db(store, LoopImportTests.export + "/Habits.csv"), HC_E_INVALID)
        XCTAssertEqual(hc_store_import_loop_db(store, dir + "/missing.db"), HC_E_IO)
        XCTAssertEqual(hc_store_import_loop_db(store, dir + "/store.db"), HC_E_INVALID, "a habitcore store is not a Loop backup")
        let bad = try backup(version: 22)
        XCTAssertSucceeded(
            try runProcess([
                "python3", "-c",
                "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('update habits set freq_num = 5 where id = 1'); db.commit()", bad,
            ]), "bad row")
        XCTAssertEqual(hc_store_import_loop_db(store, bad), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(store)).hasPrefix("Habits row id 1:"), String(cString: hc_store_errmsg(store)))
        XCTAssertEqual(habits(store).count, 0, "nothing written")
        // Reminder values Loop never writes refuse the import, naming the row; nothing is written.
        for (sql, message) in [
            ("update habits set reminder_hour = 25, reminder_min = 0 where id = 2", "Habits row id 2: reminder_hour 25 is not an hour"),
            ("update habits set reminder_min = 75 where id = 1", "Habits row id 1: reminder_min 75 is not a minute"),
            ("update habits set reminder_days = 200 where id = 1", "Habits row id 1: reminder_days 200 is not a mask"),
        ] {
            let hostile = try backup(version: 22)
            XCTAssertSucceeded(
                try runProcess(["python3", "-c", "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute(sys.argv[2]); db.commit()", hostile, sql]),
                sql)
            XCTAssertEqual(hc_store_import_loop_db(store, hostile), HC_E_INVALID, sql)
            XCTAssertTrue(String(cString: hc_store_errmsg(store)).hasPrefix(message), String(cString: hc_store_errmsg(store)))
            XCTAssertEqual(habits(store).count, 0, "nothing written: \(sql)")
            XCTAssertEqual(rules(store, 0), [], sql)
        }
        // A habit refused by the store after Read and its rule were written: the rule goes too.
        let later = try backup(version: 22)
        XCTAssertSucceeded(
            try runProcess([
                "python3", "-c",
                "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute(\"insert into habits (id, name, freq_num, freq_den, archived, position) values (4, 'Taken', 1, 1, 0, 5)\"); db.commit()",
                later,
            ]), "Taken")
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
