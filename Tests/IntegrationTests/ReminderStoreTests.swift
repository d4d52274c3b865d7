import CHabitCore
import Foundation
import XCTest

/// Reminders through the C functions on a real store: instants across both clock
/// changes in New York and Berlin, the day start, every way a day is silenced,
/// effective-dated rules and quiet hours, snoozes, and deliveries recorded once.
final class ReminderStoreTests: OpenStoreTestCase {
    struct Nudge: Equatable, CustomStringConvertible {
        var habit: Int64
        var rule: Int64
        var day: Int32
        var atMs: Int64
        var minute: Int32
        var kind: Int32
        var originalMs: Int64
        var deferred: Bool
        var fired: Bool
        var message: String?
        var description: String { "rule \(rule) day \(day) at \(ReminderStoreTests.iso(atMs))" }
    }

    /// "2026-03-08T07:00Z" as UTC ms.
    func utc(_ text: String) -> Int64 {
        let day = day(String(text.prefix(10)))
        let hours = Int64(text.dropFirst(11).prefix(2)) ?? 0, minutes = Int64(text.dropFirst(14).prefix(2)) ?? 0
        return (Int64(day) * 86_400 + hours * 3600 + minutes * 60) * 1000
    }

    static func iso(_ ms: Int64) -> String {
        var seconds = time_t(ms / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min))
    }

    var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    @discardableResult
    func addRule(
        _ habit: Int64, _ time: String, weekdays: Int32 = 0, quiet: Int32 = HC_QUIET_DEFER, message: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Int64 {
        var rule = defaults(hc_reminder_rule_init)
        rule.habit_id = habit
        rule.minute = (Int32(time.prefix(2)) ?? 0) * 60 + (Int32(time.suffix(2)) ?? 0)
        rule.weekdays = weekdays
        rule.quiet = quiet
        var id: Int64 = 0
        withOptionalCString(message) { text in
            rule.message = text
            ok(hc_reminder_rule_add(&id, store, &rule), file: file, line: line)
        }
        return id
    }

    func next(_ from: Int64, _ to: Int64, flags: UInt32 = 0, store: OpaquePointer? = nil, file: StaticString = #filePath, line: UInt = #line) -> [Nudge] {
        var list: OpaquePointer?
        ok(hc_reminder_list_open(&list, store ?? self.store, from, to, flags), file: file, line: line)
        defer { hc_reminder_list_free(list) }
        var count: Int64 = 0
        ok(hc_reminder_list_count(&count, list), file: file, line: line)
        let nudges: [Nudge] = (0..<count).compactMap { index in
            var item: UnsafePointer<hc_reminder>?
            ok(hc_reminder_list_get(&item, list, index), file: file, line: line)
            guard let r = item?.pointee else { return nil }
            XCTAssertEqual(r.struct_size, UInt32(MemoryLayout<hc_reminder>.size))
            return Nudge(
                habit: r.habit_id, rule: r.rule_id, day: r.day, atMs: r.at_ms, minute: r.local_minute, kind: r.kind,
                originalMs: r.original_ms, deferred: r.deferred != 0, fired: r.fired != 0, message: r.message.map { String(cString: $0) })
        }
        let order = nudges.map { [$0.atMs, $0.habit, $0.rule, Int64($0.kind)] }
        XCTAssertEqual(order, order.sorted { $0.lexicographicallyPrecedes($1) }, "ordered by instant, habit, rule", file: file, line: line)
        return nudges
    }

    func next(_ from: String, _ to: String, flags: UInt32 = 0) -> [Nudge] { next(utc(from), utc(to), flags: flags) }

    /// The reminders of the days around today (the last three weeks up to now).
    func recent(flags: UInt32 = 0) -> [Nudge] { next(nowMs - 21 * 86_400_000, nowMs, flags: flags) }

    // MARK: Clock changes and the day start

    func testNewYorkAcrossBothClockChanges() {
        ok(hc_store_set_timezone(store, "America/New_York"))
        let habit = createHabit(store, "Stretch", start: "2026-01-01")
        let night = addRule(habit, "01:30"), gap = addRule(habit, "02:30"), morning = addRule(habit, "08:00")
        let spring = next("2026-03-07T00:00Z", "2026-03-10T00:00Z")
        let expected: [(Int64, String, String)] = [
            (night, "2026-03-07", "2026-03-07T06:30Z"), (gap, "2026-03-07", "2026-03-07T07:30Z"), (morning, "2026-03-07", "2026-03-07T13:00Z"),
            (night, "2026-03-08", "2026-03-08T06:30Z"),
            (gap, "2026-03-08", "2026-03-08T07:00Z"),  // 02:30 does not exist: 03:00 EDT, the first minute after the gap
            (morning, "2026-03-08", "2026-03-08T12:00Z"),
            (night, "2026-03-09", "2026-03-09T05:30Z"), (gap, "2026-03-09", "2026-03-09T06:30Z"), (morning, "2026-03-09", "2026-03-09T12:00Z"),
        ]
        XCTAssertEqual(spring.map { "\($0.rule) \(date($0.day)) \(Self.iso($0.atMs))" }, expected.map { "\($0.0) \($0.1) \($0.2)" })
        XCTAssertEqual(spring.first { $0.rule == gap && $0.day == day("2026-03-08") }?.minute, 180, "it reads 03:00 on the wall")

        let fall = next("2026-10-31T16:00Z", "2026-11-02T12:00Z")
        XCTAssertEqual(
            fall.map { "\($0.rule) \(date($0.day)) \(Self.iso($0.atMs))" },
            [
                "\(night) 2026-11-01 2026-11-01T05:30Z",  // 01:30 happens twice: once, the first time (EDT)
                "\(gap) 2026-11-01 2026-11-01T07:30Z",
                "\(morning) 2026-11-01 2026-11-01T13:00Z",
                "\(night) 2026-11-02 2026-11-02T06:30Z",
                "\(gap) 2026-11-02 2026-11-02T07:30Z",
            ])
        XCTAssertEqual(fall.filter { $0.minute == 90 }.count, 2, "01:30 fires on each day once")
    }

    func testBerlinAcrossBothClockChanges() {
        ok(hc_store_set_timezone(store, "Europe/Berlin"))
        let habit = createHabit(store, "Walk", start: "2026-01-01")
        let gap = addRule(habit, "02:30"), evening = addRule(habit, "20:00")
        let lines = { (nudges: [Nudge]) in nudges.map { "\($0.rule) \(self.date($0.day)) \(Self.iso($0.atMs)) \($0.minute)" } }
        XCTAssertEqual(
            lines(next("2026-03-28T00:00Z", "2026-03-30T00:00Z")),
            [
                "\(gap) 2026-03-28 2026-03-28T01:30Z 150",
                "\(evening) 2026-03-28 2026-03-28T19:00Z 1200",
                "\(gap) 2026-03-29 2026-03-29T01:00Z 180",  // skipped: 03:00 CEST
                "\(evening) 2026-03-29 2026-03-29T18:00Z 1200",
            ])
        XCTAssertEqual(
            lines(next("2026-10-24T00:00Z", "2026-10-26T00:00Z")),
            [
                "\(gap) 2026-10-24 2026-10-24T00:30Z 150",
                "\(evening) 2026-10-24 2026-10-24T18:00Z 1200",
                "\(gap) 2026-10-25 2026-10-25T00:30Z 150",  // read twice: once, in summer time
                "\(evening) 2026-10-25 2026-10-25T19:00Z 1200",
            ])
    }

    func testWithADayStartOf0300A0130ReminderBelongsToTheDayBefore() {
        ok(hc_store_set_timezone(store, "Europe/Berlin"))
        ok(hc_store_set_day_start(store, 180))
        let habit = createHabit(store, "Journal", start: "2026-01-01")
        let late = addRule(habit, "01:30"), early = addRule(habit, "03:00")
        let nudges = next("2026-06-01T00:00Z", "2026-06-03T00:00Z")
        XCTAssertEqual(
            nudges.map { "\($0.rule) \(date($0.day)) \(Self.iso($0.atMs))" },
            [
                "\(early) 2026-06-01 2026-06-01T01:00Z",
                "\(late) 2026-06-01 2026-06-01T23:30Z",  // Tuesday 01:30: still Monday's day
                "\(early) 2026-06-02 2026-06-02T01:00Z",
                "\(late) 2026-06-02 2026-06-02T23:30Z",
            ])
        // Monday done (logged late on Monday's day, at Tuesday 01:00): Monday's 01:30 goes quiet, Tuesday's stays.
        ok(append(store, habit, atMs: utc("2026-06-01T23:00Z")).0)
        XCTAssertEqual(next("2026-06-01T12:00Z", "2026-06-03T00:00Z").map { date($0.day) }, ["2026-06-02", "2026-06-02"])
    }

    // MARK: What silences a day

    func testDoneAt0700SilencesThe2000Reminder() {
        ok(hc_store_set_timezone(store, "America/New_York"))
        let habit = createHabit(store, "Floss", start: date(today - 30))
        let morning = addRule(habit, "07:00"), evening = addRule(habit, "20:00", message: "floss!")
        let target = today - 2
        let before = recent().filter { $0.day == target }
        XCTAssertEqual(before.map(\.rule), [morning, evening])
        XCTAssertEqual(before.last?.message, "floss!")
        XCTAssertEqual(before.last?.minute, 1200)
        // Done at 07:00 local of that day (the day comes from the instant).
        let (status, entry) = append(store, habit, atMs: before[0].atMs)
        ok(status)
        let after = recent()
        XCTAssertEqual(after.filter { $0.day == target }, [], "done: both go quiet")
        XCTAssertEqual(after.filter { $0.day == target - 1 }.count, 2, "the day before still rings")
        ok(hc_entry_undo(nil, store, entry))
        XCTAssertEqual(recent().filter { $0.day == target }.map(\.rule), [morning, evening], "undone: they are back")
    }

    func testAVacationASkipAndAMetWeeklyQuotaEachSilence() {
        let daily = createHabit(store, "Read", start: date(today - 40))
        addRule(daily, "20:00")
        var vacation: Int64 = 0
        ok(hc_vacation_add(&vacation, store, daily, today - 5, today - 4))
        ok(append(store, daily, HC_ENTRY_SKIP, on: date(today - 2)).0)
        let days = Set(recent().filter { $0.habit == daily }.map(\.day))
        XCTAssertFalse(days.contains(today - 5) || days.contains(today - 4), "vacation")
        XCTAssertFalse(days.contains(today - 2), "skip")
        XCTAssertTrue(days.contains(today - 3) && days.contains(today - 1) && days.contains(today - 6), "the other days ring")

        // weekly:2, weeks from Monday: last week met on Monday and Tuesday; the week before, nothing.
        let gym = createHabit(store, "Gym", schedule: "weekly:2", start: date(today - 40))
        addRule(gym, "18:00")
        let weekday = Int32((Int(today) % 7 + 11) % 7)  // 0 = Sunday; 1970-01-01 was a Thursday
        let monday = today - (weekday + 6) % 7 - 7
        ok(append(store, gym, on: date(monday)).0)
        ok(append(store, gym, on: date(monday + 1)).0)
        let gymDays = Set(recent().filter { $0.habit == gym }.map(\.day))
        XCTAssertEqual((monday...(monday + 6)).filter { gymDays.contains($0) }, [], "met on Tuesday: the rest of the week is quiet")
        XCTAssertEqual(((monday - 7)...(monday - 1)).filter { gymDays.contains($0) }.count, 7, "not met: every day rings")
    }

    func testNothingBeforeTheStartOrFromTheArchiveDayOnAndOnlyOnTheRulesWeekdays() {
        let later = createHabit(store, "Later", start: date(today - 3))
        addRule(later, "12:00")
        XCTAssertEqual(Set(recent().map(\.day)).subtracting([today]), [today - 3, today - 2, today - 1], "nothing before the start")
        ok(hc_habit_archive(store, later, 1))
        XCTAssertEqual(recent().filter { $0.day >= today }, [], "archived today: nothing from today on")
        XCTAssertEqual(recent().map(\.day).min(), today - 3, "the days before keep theirs")

        let weekends = createHabit(store, "Weekend", start: date(today - 30))
        addRule(weekends, "10:00", weekdays: 1 << 0 | 1 << 6)
        let weekdays = Set(recent().filter { $0.habit == weekends }.map { Int32((Int($0.day) % 7 + 11) % 7) })
        XCTAssertEqual(weekdays, [0, 6])
    }

    // MARK: Rules and quiet hours over time

    func testChangesTakeEffectFromTheirDayAndNeverRewriteThePast() {
        ok(hc_store_set_timezone(store, "UTC"))
        let habit = createHabit(store, "Water", start: date(today - 10))
        let rule = addRule(habit, "20:00", quiet: HC_QUIET_DEFER)
        var changed = defaults(hc_reminder_rule_init)
        changed.minute = 21 * 60
        changed.quiet = HC_QUIET_DROP
        XCTAssertEqual(hc_reminder_rule_update(store, rule, &changed, today - 1), HC_E_INVALID, "not from a day already lived")
        ok(hc_reminder_rule_update(store, rule, &changed, today + 1))
        ok(hc_reminder_rule_remove(store, rule, today + 3))
        let window = next(Int64(today - 2) * 86_400_000, Int64(today + 5) * 86_400_000)
        XCTAssertEqual(window.map { "\($0.day - today) \($0.minute)" }, ["-2 1200", "-1 1200", "0 1200", "1 1260", "2 1260"])

        // Quiet hours: the first setting governs every day before it too; a later one from its day.
        ok(hc_store_set_quiet_hours(store, 19 * 60 + 30, 20 * 60 + 30, Int32.min))
        ok(hc_store_set_quiet_hours(store, -1, -1, today + 2))
        var start: Int32 = 0, end: Int32 = 0
        ok(hc_store_quiet_hours(&start, &end, store, today))
        XCTAssertEqual([start, end], [1170, 1230])
        ok(hc_store_quiet_hours(&start, &end, store, today + 2))
        XCTAssertEqual([start, end], [-1, -1])
        let quiet = next(Int64(today - 1) * 86_400_000, Int64(today + 3) * 86_400_000)
        XCTAssertEqual(
            quiet.map { "\($0.day - today) \($0.minute) \($0.deferred)" }, ["-1 1230 true", "0 1230 true", "1 1260 false", "2 1260 false"],
            "20:00 moves to 20:30 (defer); 21:00 is outside them")
        XCTAssertEqual(quiet.first?.originalMs, Int64(today - 1) * 86_400_000 + 20 * 3_600_000)
        XCTAssertEqual(hc_store_set_quiet_hours(store, 600, 600, Int32.min), HC_E_INVALID)
        XCTAssertEqual(hc_store_set_quiet_hours(store, 600, 700, today - 1), HC_E_INVALID)

        var list: OpaquePointer?
        ok(hc_reminder_rule_list_open(&list, store, habit, today + 1))
        var count: Int64 = 0
        ok(hc_reminder_rule_list_count(&count, list))
        var item: UnsafePointer<hc_reminder_rule>?
        ok(hc_reminder_rule_list_get(&item, list, 0))
        XCTAssertEqual(count, 1)
        XCTAssertEqual(item?.pointee.minute, 1260)
        XCTAssertEqual(item?.pointee.quiet, HC_QUIET_DROP)
        XCTAssertEqual(item?.pointee.from_day, today + 1)
        XCTAssertEqual(item?.pointee.id, rule)
        hc_reminder_rule_list_free(list)
        ok(hc_reminder_rule_list_open(&list, store, 0, today + 3))
        ok(hc_reminder_rule_list_count(&count, list))
        XCTAssertEqual(count, 0, "removed from that day on")
        hc_reminder_rule_list_free(list)
    }

    // MARK: Delivery

    func testFiredAndSnoozedRemindersAreRecordedOnce() throws {
        let habit = createHabit(store, "Meditate", start: date(today - 10))
        let rule = addRule(habit, "09:00")
        let reminder = try XCTUnwrap(recent().last { $0.day == today - 1 })
        var recorded: Int32 = -1
        ok(hc_reminder_fired(&recorded, store, rule, reminder.day, reminder.atMs))
        XCTAssertEqual(recorded, 1)
        ok(hc_reminder_fired(&recorded, store, rule, reminder.day, reminder.atMs))
        XCTAssertEqual(recorded, 0, "already delivered")
        XCTAssertEqual(recent().first { $0.day == today - 1 }?.fired, true)
        XCTAssertFalse(recent(flags: HC_REMINDERS_PENDING).contains { $0.day == today - 1 }, "pending leaves it out")
        XCTAssertEqual(hc_reminder_fired(&recorded, store, rule, reminder.day, reminder.atMs + 60_000), HC_E_NOT_FOUND, "no such instant")
        XCTAssertEqual(hc_reminder_fired(&recorded, store, rule + 99, reminder.day, reminder.atMs), HC_E_NOT_FOUND)

        // Snooze the day before's by ten minutes: a new instant, the first counts as delivered.
        let earlier = try XCTUnwrap(recent().first { $0.day == today - 2 })
        ok(hc_reminder_snooze(store, rule, earlier.day, earlier.atMs, earlier.atMs + 600_000))
        ok(hc_reminder_snooze(store, rule, earlier.day, earlier.atMs, earlier.atMs + 600_000))  // again: nothing new
        let two = recent().filter { $0.day == today - 2 }
        XCTAssertEqual(two.map(\.kind), [HC_REMINDER_SCHEDULED, HC_REMINDER_SNOOZED])
        XCTAssertEqual(two.map(\.fired), [true, false])
        XCTAssertEqual(two.last?.originalMs, earlier.atMs)
        XCTAssertEqual(two.last?.atMs, earlier.atMs + 600_000)
        ok(hc_reminder_fired(&recorded, store, rule, earlier.day, earlier.atMs + 600_000))
        XCTAssertEqual(recorded, 1)
        XCTAssertEqual(hc_reminder_snooze(store, rule, earlier.day, earlier.atMs, earlier.atMs + 86_400_001), HC_E_INVALID, "more than a day")
        XCTAssertEqual(hc_reminder_snooze(store, rule, earlier.day, earlier.atMs, earlier.atMs), HC_E_INVALID, "not forward")
        XCTAssertEqual(hc_reminder_snooze(store, rule, earlier.day, Int64.min, Int64.max), HC_E_INVALID)
        // A snoozed reminder of a day since done goes quiet, and cannot be fired any more.
        let third = try XCTUnwrap(recent().first { $0.day == today - 3 })
        ok(hc_reminder_snooze(store, rule, third.day, third.atMs, third.atMs + 60_000))
        ok(append(store, habit, on: date(today - 3)).0)
        XCTAssertEqual(recent().filter { $0.day == today - 3 }, [])
        XCTAssertEqual(hc_reminder_fired(&recorded, store, rule, third.day, third.atMs + 60_000), HC_E_NOT_FOUND)

        // CLAIM hands out what is pending, once.
        let claimed = recent(flags: HC_REMINDERS_CLAIM)
        XCTAssertFalse(claimed.isEmpty)
        XCTAssertTrue(claimed.allSatisfy(\.fired))
        XCTAssertEqual(recent(flags: HC_REMINDERS_CLAIM), [], "nothing left to claim")
        XCTAssertTrue(recent().allSatisfy(\.fired))
    }

    func testBadArgumentsAreRefusedWithCodes() throws {
        let habit = createHabit(store, "Nap")
        var rule = defaults(hc_reminder_rule_init)
        rule.habit_id = habit
        rule.quiet = HC_QUIET_DEFER
        rule.minute = 1440
        XCTAssertEqual(hc_reminder_rule_add(nil, store, &rule), HC_E_INVALID)
        rule.minute = 60
        rule.weekdays = 1 << 7
        XCTAssertEqual(hc_reminder_rule_add(nil, store, &rule), HC_E_INVALID)
        rule.weekdays = 0
        rule.quiet = 3
        XCTAssertEqual(hc_reminder_rule_add(nil, store, &rule), HC_E_INVALID)
        rule.quiet = HC_QUIET_DROP
        rule.struct_size = 8
        XCTAssertEqual(hc_reminder_rule_add(nil, store, &rule), HC_E_INVALID)
        rule.struct_size = defaults(hc_reminder_rule_init).struct_size
        rule.habit_id = 999
        XCTAssertEqual(hc_reminder_rule_add(nil, store, &rule), HC_E_NOT_FOUND)
        rule.habit_id = habit
        ok(hc_reminder_rule_add(nil, store, &rule))
        var list: OpaquePointer?
        XCTAssertEqual(hc_reminder_list_open(&list, store, 10, 10, 0), HC_E_INVALID, "empty window")
        XCTAssertEqual(hc_reminder_list_open(&list, store, 0, 93 * 86_400_000, 0), HC_E_INVALID, "longer than 92 days")
        XCTAssertEqual(hc_reminder_list_open(&list, store, Int64.min, Int64.max, 0), HC_E_INVALID)
        XCTAssertEqual(hc_reminder_list_open(&list, store, 0, 1000, 0x4), HC_E_INVALID, "unknown flag")
        XCTAssertEqual(hc_reminder_list_open(nil, store, 0, 1000, 0), HC_E_INVALID)
        XCTAssertEqual(hc_reminder_rule_update(store, 12345, &rule, Int32.min), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_reminder_rule_remove(store, 12345, Int32.min), HC_E_NOT_FOUND)
        ok(hc_habit_archive(store, habit, 1))
        XCTAssertEqual(hc_reminder_rule_add(nil, store, &rule), HC_E_CONFLICT, "archived")
        ok(hc_store_close(store))
        store = try open(flags: HC_OPEN_READONLY)
        XCTAssertEqual(hc_reminder_list_open(&list, store, 0, 1000, HC_REMINDERS_CLAIM), HC_E_READONLY)
        ok(hc_reminder_list_open(&list, store, 0, 1000, HC_REMINDERS_PENDING))
        hc_reminder_list_free(list)
    }

    // MARK: Processes

    /// Two processes at once, each holding every pending reminder, each with two
    /// threads on handles of their own: one claims with HC_REMINDERS_CLAIM window
    /// by window, the other fires what was listed with hc_reminder_fired. Every
    /// instant is delivered exactly once.
    func testTwoProcessesAskingAtOnceDeliverEachInstantOnce() throws {
        for index in 0..<25 {
            let habit = createHabit(store, "Habit \(index)", start: date(today - 40))
            for time in ["07:00", "12:30", "21:15"] { addRule(habit, time) }
        }
        let everything = recent()
        XCTAssertGreaterThan(everything.count, 25 * 3 * 19)
        try compileC([Paths.root + "/Tests/c/reminders.c"], output: dir + "/reminders")
        let go = dir + "/go"
        let from = nowMs - 21 * 86_400_000, to = nowMs
        func start() throws -> (Process, Pipe) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: dir + "/reminders")
            process.arguments = [dir + "/store.db", String(from), String(to), String(6 * 3_600_000), "2", go, "2"]
            process.environment = ["SWIFT_BACKTRACE": "enable=no"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        let (first, firstOutput) = try start()
        let (second, secondOutput) = try start()
        FileManager.default.createFile(atPath: go, contents: nil)
        let firstText = String(decoding: firstOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let secondText = String(decoding: secondOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        first.waitUntilExit()
        second.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0, "first process")
        XCTAssertEqual(second.terminationStatus, 0, "second process")
        let lines = (firstText + secondText).split(separator: "\n").map(String.init)
        let delivered = lines.filter { !$0.hasPrefix("#") }
        XCTAssertEqual(delivered.count, Set(delivered).count, "an instant delivered twice")
        let expected = Set(everything.map { "\($0.rule) \($0.day) \($0.atMs)" })
        XCTAssertTrue(
            Set(delivered) == expected,
            "every instant delivered: \(expected.subtracting(delivered).count) missing, \(Set(delivered).subtracting(expected).count) unknown")
        XCTAssertTrue(recent().allSatisfy(\.fired))
        // Both processes held every reminder while the other delivered: the race was real.
        // (How the deliveries split is up to SQLite's lock; one process may take nearly all.)
        let listed = lines.filter { $0.hasPrefix("# listed ") }.compactMap { Int($0.dropFirst(9)) }
        XCTAssertEqual(listed.count, 2)
        XCTAssertEqual(listed, [everything.count, everything.count], "each process held every reminder before any was delivered")
    }

    // MARK: Migration

    func testASchemaSixStoreMigratesAndAnswersAsBefore() throws {
        let habit = createHabit(store, "Old", start: date(today - 20))
        for offset in [1, 2, 3, 5] { ok(append(store, habit, on: date(today - Int32(offset))).0) }
        func answers(_ store: OpaquePointer) -> [Int32] {
            var result = defaults(hc_streak_result_init)
            var bestCount: Int64 = 0
            ok(hc_habit_streaks(&result, nil, 0, &bestCount, store, habit, Int32.min))
            var due = [hc_due_item](repeating: hc_due_item(), count: 4)
            var count: Int64 = 0
            ok(hc_store_due(&due, 4, &count, store, Int32.min))
            return [result.current.length, result.longest.length, Int32(count), due[0].state]
        }
        let before = answers(store)
        ok(hc_store_close(store))
        XCTAssertSucceeded(
            try runProcess([
                "sqlite3", dir + "/store.db",
                dropHabitDisplaySQL + dropShieldsSQL + """
                    DROP TABLE reminder_deliveries; DROP TABLE reminder_snoozes; DROP TABLE quiet_hours; DROP TABLE reminder_rule_versions;
                    DROP TABLE reminder_rules; DROP TABLE entry_keys; DROP TABLE session_ends; DROP TABLE streak_policies; DROP TABLE proof_runs;
                    DROP INDEX credit_entries_session; PRAGMA user_version = 6;
                    """,
            ]), "downgrade to 6")
        store = try open()
        var version: Int32 = 0
        ok(hc_store_schema_version(&version, store))
        XCTAssertEqual(version, latestSchemaVersion)
        XCTAssertEqual(answers(store), before)
        addRule(habit, "20:00")
        XCTAssertEqual(recent().map(\.day).contains(today - 4), true, "a migrated store reminds")
    }
}
