import CHabitCore
import Foundation
import XCTest

/// hc_today_snapshot_write on a real store: the same bytes for the same state,
/// from a read-only open too; the day's list, score, streaks and grid; the next
/// changes across DST, day starts and zone changes; and a reader that does not
/// link the library.
final class TodaySnapshotTests: OpenStoreTestCase {
    private func text(_ handle: OpaquePointer? = nil, at: Int64) throws -> String {
        let path = dir + "/today-\(UUID().uuidString).json"
        ok(hc_today_snapshot_write(handle ?? store, path, at))
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    private func snapshot(_ handle: OpaquePointer? = nil, at: Int64) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text(handle, at: at).utf8)) as? [String: Any])
    }

    private func ms(_ iso: String) -> Int64 {
        Int64((ISO8601DateFormatter().date(from: iso)?.timeIntervalSince1970 ?? 0) * 1000)
    }

    private func iso(_ ms: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    private func int(_ value: Any?) -> Int64 { (value as? NSNumber)?.int64Value ?? Int64.min }

    /// The timeline as "instant cause routine day" lines.
    private func next(_ snapshot: [String: Any]) -> [String] {
        (snapshot["next"] as? [[String: Any]] ?? []).map {
            "\(iso(int($0["at_ms"]))) \($0["cause"] ?? "") \($0["routine"] ?? "") \(int($0["day"]))"
        }
    }

    private func days(_ snapshot: [String: Any]) -> [[String: Any]] { snapshot["days"] as? [[String: Any]] ?? [] }

    /// A day's habits as "name state value target streak".
    private func lines(_ day: [String: Any]) -> [String] {
        (day["habits"] as? [[String: Any]] ?? []).map {
            "\($0["name"] ?? "") \($0["state"] ?? "") \(($0["value"] as? NSNumber)?.doubleValue ?? -1) \(($0["target"] as? NSNumber)?.doubleValue ?? -1) \(int($0["streak"]))"
        }
    }

    private func utcMs(day: Int32, minute: Int32) -> Int64 {
        var out: Int64 = 0
        ok(hc_store_utc_ms(&out, store, day, minute))
        return out
    }

    private func makeHabits() -> (read: Int64, water: Int64) {
        let start = date(today - 30)
        let read = createHabit(store, "Read", start: start)
        let water = createHabit(store, "Water", kind: HC_KIND_COUNTER, target: 8, start: start)
        ok(append(store, read, on: date(today - 1)).0)
        ok(append(store, read, on: date(today)).0)
        ok(append(store, water, HC_ENTRY_AMOUNT, value: 3, on: date(today)).0)
        return (read, water)
    }

    func testTheSameStateGivesTheSameBytesFromAReadOnlyOpenToo() throws {
        let habits = makeHabits()
        let at = utcMs(day: today, minute: 720)
        let first = try text(at: at)
        XCTAssertEqual(try text(at: at), first, "the same state and instant, other bytes")
        let reader = try open(flags: HC_OPEN_READONLY)
        defer { hc_store_close(reader) }
        XCTAssertEqual(try text(reader, at: at), first, "a read-only open wrote other bytes")
        let before = try snapshot(reader, at: at)
        ok(append(store, habits.water, HC_ENTRY_AMOUNT, value: 2, on: date(today)).0)
        let after = try snapshot(reader, at: at)
        XCTAssertNotEqual(try text(reader, at: at), first, "a new entry left the snapshot as it was")
        XCTAssertGreaterThan(int(after["revision"]), int(before["revision"]), "the revision did not move with a write")
        XCTAssertEqual(lines(days(after)[0]).last, "Water pending 5.0 8.0 0")
    }

    /// The file records the store revision: after every write a reader sees in it
    /// (an entry, the store's and a habit's streak policy, the routine bounds), its
    /// revision is hc_store_revision's, and moved.
    func testTheRevisionIsTheStoreRevisionAfterEveryWriteItShows() throws {
        let habits = makeHabits()
        let at = utcMs(day: today, minute: 720)
        let reader = try open(flags: HC_OPEN_READONLY)
        defer { hc_store_close(reader) }
        var policy = defaults(hc_streak_policy_init)
        policy.miss_allowance = 1
        var own = defaults(hc_streak_policy_init)
        own.miss_allowance = 2
        own.open_day = HC_OPEN_DAY_ZERO
        own.off_days = 0
        let writes: [(String, () -> Int32)] = [
            ("entry", { self.append(self.store, habits.water, HC_ENTRY_AMOUNT, value: 1, on: self.date(self.today)).0 }),
            ("store streak policy", { hc_store_set_streak_policy(self.store, &policy) }),
            ("habit streak policy", { hc_habit_set_streak_policy(self.store, habits.read, &own) }),
            ("routine bounds", { hc_store_set_routine_bounds(self.store, 240, 600, 1080) }),
        ]
        var last = int(try snapshot(reader, at: at)["revision"])
        for (name, write) in writes {
            ok(write())
            var revision: Int64 = 0
            ok(hc_store_revision(&revision, reader))
            let recorded = int(try snapshot(reader, at: at)["revision"])
            XCTAssertEqual(recorded, revision, "after the \(name)")
            XCTAssertGreaterThan(recorded, last, "the \(name) did not move the revision")
            last = recorded
        }
    }

    func testTodaysListScoreStreaksAndGrid() throws {
        let habits = makeHabits()
        let snapshot = try snapshot(at: utcMs(day: today, minute: 720))
        XCTAssertEqual(snapshot["format"] as? String, "habitcore-today")
        XCTAssertEqual(int(snapshot["version"]), 1)
        var revision: Int64 = 0
        ok(hc_store_revision(&revision, store))
        XCTAssertEqual(int(snapshot["revision"]), revision)
        let today = days(snapshot)[0]
        XCTAssertEqual(today["date"] as? String, date(self.today))
        XCTAssertEqual(lines(today), ["Read done 1.0 1.0 2", "Water pending 3.0 8.0 0"])
        XCTAssertEqual([int(today["due"]), int(today["done"]), int(today["excused"])], [2, 1, 0])
        XCTAssertEqual((today["score"] as? NSNumber)?.doubleValue, 0.5)
        // The same day score hc_store_day_scores gives.
        var scores = [hc_day_score](repeating: hc_day_score(), count: 1)
        var count: Int64 = 0
        ok(hc_store_day_scores(&scores, 1, &count, store, self.today, self.today))
        XCTAssertEqual(scores[0].score, 0.5)
        // After the day start: tomorrow's list, Read's run still going, Water's day over and missed.
        let tomorrow = days(snapshot)[1]
        XCTAssertEqual(tomorrow["date"] as? String, date(self.today + 1))
        XCTAssertEqual(lines(tomorrow), ["Read pending 0.0 1.0 2", "Water pending 0.0 8.0 0"])
        XCTAssertEqual((tomorrow["score"] as? NSNumber)?.doubleValue, 0)
        let grid = try XCTUnwrap(snapshot["grid"] as? [String: Any])
        XCTAssertEqual(grid["last"] as? String, date(self.today))
        let first = day(try XCTUnwrap(grid["first"] as? String))
        var weekStart: Int32 = 0
        ok(hc_store_week_start(&weekStart, store))
        XCTAssertEqual((Int(first) + 4) % 7, Int(weekStart), "the grid starts on the first day of a week")
        XCTAssertEqual(Int(self.today - first) / 7, 7, "the week of today and seven before it")
        let rows = try XCTUnwrap(grid["habits"] as? [[String: Any]])
        XCTAssertEqual(rows.map { int($0["habit_id"]) }, [habits.read, habits.water])
        let cells = rows.map { $0["cells"] as? String ?? "" }
        XCTAssertEqual(cells.map(\.count), [Int(self.today - first) + 1, Int(self.today - first) + 1])
        XCTAssertEqual(String(cells[0].suffix(3)), ".xx")
        XCTAssertEqual(String(cells[1].suffix(2)), "..")
        XCTAssertEqual((grid["percent"] as? [NSNumber])?.suffix(3).map(\.intValue), [0, 50, 50])
    }

    /// A missed day after a run: today open keeps the run (the store's policy), and
    /// from the next day start on it is broken.
    func testTheStateAfterTheDayStartJudgesTodayAsOver() throws {
        let read = createHabit(store, "Read", start: date(today - 10))
        for offset in 1...3 { ok(append(store, read, on: date(today - Int32(offset))).0) }
        let snapshot = try snapshot(at: utcMs(day: today, minute: 600))
        XCTAssertEqual(lines(days(snapshot)[0]), ["Read pending 0.0 1.0 3"])
        XCTAssertEqual(lines(days(snapshot)[1]), ["Read pending 0.0 1.0 0"])
    }

    /// Clocks go back at 03:00 in Berlin on 2026-10-25: 02:00-02:59 is read twice,
    /// and routine bounds at 02:00 and 02:30 are crossed twice each.
    func testRoutineBoundsInARepeatedHourAreCrossedTwice() throws {
        ok(hc_store_set_timezone(store, "Europe/Berlin"))
        ok(hc_store_set_routine_bounds(store, 120, 150, 1080))
        let snapshot = try snapshot(at: ms("2026-10-24T22:30:00Z"))
        XCTAssertEqual((snapshot["now"] as? [String: Any])?["routine"] as? String, "evening")
        XCTAssertEqual(days(snapshot)[0]["date"] as? String, "2026-10-25")
        XCTAssertEqual(int(snapshot["offset_seconds"]), 7200)
        XCTAssertEqual(
            next(snapshot),
            [
                "2026-10-25T00:00:00Z routine morning 0", "2026-10-25T00:30:00Z routine day 0", "2026-10-25T01:00:00Z routine morning 0",
                "2026-10-25T01:30:00Z routine day 0", "2026-10-25T17:00:00Z routine evening 0", "2026-10-25T23:00:00Z day_start evening 1",
            ])
    }

    /// Clocks go forward at 02:00 in Berlin on 2026-03-29: a morning bound at 02:30
    /// is never read, so the morning starts with the jump.
    func testARoutineBoundInASkippedHourStartsAtTheJump() throws {
        ok(hc_store_set_timezone(store, "Europe/Berlin"))
        ok(hc_store_set_routine_bounds(store, 150, 200, 1080))
        let snapshot = try snapshot(at: ms("2026-03-28T23:30:00Z"))
        XCTAssertEqual(
            next(snapshot),
            [
                "2026-03-29T01:00:00Z routine morning 0", "2026-03-29T01:20:00Z routine day 0", "2026-03-29T16:00:00Z routine evening 0",
                "2026-03-29T22:00:00Z day_start evening 1",
            ])
    }

    /// A day start and a zone change move the day and the next changes; the revision moves with them.
    func testADayStartAndAZoneChangeMoveTheNextChanges() throws {
        let at = ms("2026-06-05T01:30:00Z")
        var snapshot = try snapshot(at: at)
        XCTAssertEqual(days(snapshot)[0]["date"] as? String, "2026-06-05")
        XCTAssertEqual(next(snapshot).last, "2026-06-06T00:00:00Z day_start evening 1")
        let revision = int(snapshot["revision"])
        ok(hc_store_set_day_start(store, 180))
        snapshot = try self.snapshot(at: at)
        XCTAssertEqual(days(snapshot)[0]["date"] as? String, "2026-06-04", "01:30 is the night of the day before")
        XCTAssertEqual(next(snapshot).last, "2026-06-05T03:00:00Z day_start evening 1")
        XCTAssertGreaterThan(int(snapshot["revision"]), revision)
        ok(hc_store_set_timezone(store, "America/New_York"))
        snapshot = try self.snapshot(at: at)
        XCTAssertEqual(snapshot["zone"] as? String, "America/New_York")
        XCTAssertEqual(int(snapshot["offset_seconds"]), -4 * 3600)
        XCTAssertEqual(days(snapshot)[0]["date"] as? String, "2026-06-04", "21:30 on June 4 in New York")
        XCTAssertEqual(next(snapshot), ["2026-06-05T07:00:00Z day_start evening 1"])
    }

    /// For random instants, zones, day starts and routine bounds (seeded): the routine
    /// at every quarter hour up to the next day start is the one the timeline says,
    /// each change is one (hc_store_routine_at), and the day start starts the next day.
    func testTheTimelineAgreesWithTheRoutineAndTheDayAtEveryQuarterHour() throws {
        var seed: UInt64 = 0x7d0a_2026
        func random(_ range: ClosedRange<Int64>) -> Int64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int64((seed >> 33) % UInt64(range.upperBound - range.lowerBound + 1))
        }
        func routine(_ ms: Int64) -> String {
            var value: Int32 = 0
            ok(hc_store_routine_at(&value, store, ms))
            return ["anytime", "morning", "day", "evening"][Int(value)]
        }
        func localDay(_ ms: Int64) -> Int32 {
            var value: Int32 = 0
            ok(hc_store_local_day(&value, store, ms))
            return value
        }
        for zone in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"] {
            ok(hc_store_set_timezone(store, zone))
            for _ in 0..<12 {
                let morning = Int32(random(0...600)), dayBound = morning + Int32(random(1...400))
                let evening = dayBound + Int32(random(1...Int64(1439 - dayBound)))
                ok(hc_store_set_routine_bounds(store, morning, dayBound, evening))
                ok(hc_store_set_day_start(store, Int32(random(0...1439))))
                // Around the year's DST changes as often as not.
                let at =
                    random(0...1) == 0
                    ? random(ms("2026-01-01T00:00:00Z")...ms("2026-12-31T00:00:00Z")) : random(ms("2026-03-27T00:00:00Z")...ms("2026-04-06T00:00:00Z"))
                let snapshot = try snapshot(at: at)
                let today = localDay(at)
                XCTAssertEqual(days(snapshot)[0]["date"] as? String, date(today))
                var timeline = [(at, (snapshot["now"] as? [String: Any])?["routine"] as? String ?? "")]
                for change in snapshot["next"] as? [[String: Any]] ?? [] {
                    let instant = int(change["at_ms"]), name = change["routine"] as? String ?? ""
                    XCTAssertEqual(routine(instant), name, "\(zone) \(iso(instant))")
                    if change["cause"] as? String == "routine" {
                        XCTAssertNotEqual(routine(instant - 1), name, "\(zone) \(iso(instant)) is no change")
                    } else {
                        XCTAssertEqual(localDay(instant), today + 1, "\(zone) \(iso(instant))")
                        XCTAssertEqual(localDay(instant - 1), today, "\(zone) \(iso(instant))")
                    }
                    timeline.append((instant, name))
                }
                let end = timeline.last?.0 ?? at
                var t = at
                while t < end {
                    let expected = timeline.last { $0.0 <= t }?.1
                    XCTAssertEqual(routine(t), expected, "\(zone) at \(iso(t)) from \(iso(at))")
                    t += 15 * 60_000
                }
            }
        }
    }

    /// A reader in C that knows only the documented format (no header, no library)
    /// reads every value the way a full JSON parser does.
    func testAReaderThatDoesNotLinkTheLibraryReadsEveryValue() throws {
        _ = makeHabits()
        ok(hc_store_set_timezone(store, "Europe/Berlin"))
        let path = dir + "/today.json"
        ok(hc_today_snapshot_write(store, path, 0))
        let reader = dir + "/today_reader"
        let compiled = try runProcess(["cc", "-Wall", "-Wextra", "-Werror", "-O1", Paths.root + "/Tests/c/today_reader.c", "-o", reader])
        XCTAssertSucceeded(compiled, "compiling today_reader.c")
        let needed = try runProcess(["readelf", "-d", reader])
        XCTAssertFalse(needed.stdout.contains("habitcore"), "the reader links the library")
        let read = try runProcess([reader, path])
        XCTAssertSucceeded(read, "today_reader")
        let parsed = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        var expected: [String] = []
        flatten(parsed, "", into: &expected)
        XCTAssertEqual(read.stdout.split(separator: "\n").map(String.init).sorted(), expected.sorted())
        XCTAssertTrue(expected.contains("days[0].habits[0].name=Read"))
        // Another format is refused.
        try #"{"format":"habitcore-shields","version":1}"#.write(toFile: dir + "/other.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(try runProcess([reader, dir + "/other.json"]).status, 2)
    }

    private func flatten(_ value: Any, _ path: String, into out: inout [String]) {
        switch value {
        case let object as [String: Any]:
            for (key, member) in object { flatten(member, path.isEmpty ? key : path + "." + key, into: &out) }
        case let array as [Any]:
            for (index, element) in array.enumerated() { flatten(element, path + "[\(index)]", into: &out) }
        case let text as String: out.append("\(path)=\(text)")
        case let number as NSNumber: out.append("\(path)=" + String(format: "%.17g", number.doubleValue))
        default: out.append("\(path)=null")
        }
    }
}
