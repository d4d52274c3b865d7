import Foundation
import XCTest

@testable import HabitCore

/// When to nudge, as pure table tests: local minutes to instants across clock
/// changes, quiet hours, and which days silence a reminder.
final class ReminderTests: XCTestCase {
    func zone(_ name: String) throws -> ZoneRules {
        let data = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name))
        return try ZoneRules.parseTZif(name: name, bytes: Array(data))
    }

    func day(_ text: String) throws -> Int32 { try CivilDate.parseDay(text) }

    /// "2026-03-08T07:00Z" as UTC ms.
    func utc(_ text: String) throws -> Int64 {
        let parts = text.dropLast().split(separator: "T")
        let clock = parts[1].split(separator: ":").compactMap { Int64($0) }
        return (Int64(try day(String(parts[0]))) * 86_400 + clock[0] * 3600 + clock[1] * 60) * 1000
    }

    // MARK: Local minutes to instants

    func testLocalMinutesBecomeInstantsAcrossBothClockChanges() throws {
        // zone, date, local time, the instant it fires (UTC)
        let rows: [(String, String, String, String)] = [
            ("America/New_York", "2026-03-07", "08:00", "2026-03-07T13:00Z"),  // EST
            ("America/New_York", "2026-03-08", "01:59", "2026-03-08T06:59Z"),  // before the gap
            ("America/New_York", "2026-03-08", "02:00", "2026-03-08T07:00Z"),  // skipped: the first minute after the gap (03:00 EDT)
            ("America/New_York", "2026-03-08", "02:30", "2026-03-08T07:00Z"),
            ("America/New_York", "2026-03-08", "03:00", "2026-03-08T07:00Z"),
            ("America/New_York", "2026-03-08", "03:01", "2026-03-08T07:01Z"),
            ("America/New_York", "2026-03-08", "08:00", "2026-03-08T12:00Z"),  // EDT
            ("America/New_York", "2026-11-01", "00:59", "2026-11-01T04:59Z"),
            ("America/New_York", "2026-11-01", "01:00", "2026-11-01T05:00Z"),  // read twice: the first (EDT)
            ("America/New_York", "2026-11-01", "01:30", "2026-11-01T05:30Z"),
            ("America/New_York", "2026-11-01", "02:00", "2026-11-01T07:00Z"),  // EST
            ("America/New_York", "2026-11-01", "08:00", "2026-11-01T13:00Z"),
            ("Europe/Berlin", "2026-03-29", "01:59", "2026-03-29T00:59Z"),
            ("Europe/Berlin", "2026-03-29", "02:15", "2026-03-29T01:00Z"),  // skipped: 03:00 CEST
            ("Europe/Berlin", "2026-03-29", "03:00", "2026-03-29T01:00Z"),
            ("Europe/Berlin", "2026-03-29", "20:00", "2026-03-29T18:00Z"),
            ("Europe/Berlin", "2026-10-25", "02:30", "2026-10-25T00:30Z"),  // read twice: the first (CEST)
            ("Europe/Berlin", "2026-10-25", "03:00", "2026-10-25T02:00Z"),
            ("Europe/Berlin", "2026-10-25", "20:00", "2026-10-25T19:00Z"),
            ("Australia/Lord_Howe", "2026-10-04", "02:10", "2026-10-03T15:30Z"),  // a half-hour gap: 02:30 (+11)
            ("UTC", "2026-06-01", "00:00", "2026-06-01T00:00Z"),
        ]
        for (name, date, time, expected) in rows {
            let clock = DayClock(zone: try zone(name), dayStartMinutes: 0)
            let minute = Int32(time.prefix(2))! * 60 + Int32(time.suffix(2))!
            XCTAssertEqual(try clock.utcMs(civilDay: try day(date), minute: minute), try utc(expected), "\(name) \(date) \(time)")
        }
    }

    func testAMinuteBeforeTheDayStartIsTheNightAfterTheDay() throws {
        let clock = DayClock(zone: try zone("Europe/Berlin"), dayStartMinutes: 180)
        let monday = try day("2026-06-01")
        let at = try clock.utcMs(day: monday, minute: 90)  // 01:30 of Monday's day: Tuesday 01:30 CEST
        XCTAssertEqual(at, try utc("2026-06-01T23:30Z"))
        XCTAssertEqual(try clock.localDay(utcMs: at), monday)
        XCTAssertEqual(try clock.utcMs(day: monday, minute: 180), try utc("2026-06-01T01:00Z"), "03:00 is the day's first minute")
    }

    func testOutOfRangeLocalTimesAreRefused() throws {
        let clock = DayClock(zone: .utc, dayStartMinutes: 0)
        XCTAssertThrowsError(try clock.utcMs(civilDay: CivilDate.maxDay + 1, minute: 0))
        XCTAssertThrowsError(try clock.utcMs(civilDay: 0, minute: 1440))
        XCTAssertThrowsError(try clock.utcMs(civilDay: 0, minute: -1))
        XCTAssertThrowsError(try DayClock(zone: .utc, dayStartMinutes: 60).utcMs(day: CivilDate.maxDay, minute: 0), "the night after the last day")
    }

    // MARK: Quiet hours

    func testQuietHoursMoveOrDropAndNeverPushPastTheDay() throws {
        let clock = DayClock(zone: try zone("Europe/Berlin"), dayStartMinutes: 0)
        let monday = try day("2026-06-01")
        func settings(_ minute: Int32, _ quiet: ReminderRule.QuietMode) -> ReminderRule.Settings {
            ReminderRule.Settings(minute: minute, weekdays: 0, message: nil, quiet: quiet)
        }
        let night = try QuietHours(start: 22 * 60, end: 7 * 60)
        let lunch = try QuietHours(start: 12 * 60, end: 13 * 60)
        // minute, quiet hours, mode, expected (UTC) or nil when dropped
        let rows: [(Int32, QuietHours?, ReminderRule.QuietMode, String?)] = [
            (6 * 60, night, .deferToEnd, "2026-06-01T05:00Z"),  // 06:00 moves to 07:00 CEST
            (6 * 60, night, .drop, nil),
            (7 * 60, night, .deferToEnd, "2026-06-01T05:00Z"),  // the end is outside the window
            (21 * 60 + 59, night, .deferToEnd, "2026-06-01T19:59Z"),
            (23 * 60, night, .deferToEnd, nil),  // 07:00 tomorrow is another day
            (12 * 60 + 30, lunch, .deferToEnd, "2026-06-01T11:00Z"),
            (12 * 60 + 30, nil, .deferToEnd, "2026-06-01T10:30Z"),
        ]
        for (minute, quiet, mode, expected) in rows {
            let timing = try ReminderPlan.instant(day: monday, settings: settings(minute, mode), quiet: quiet, clock: clock)
            XCTAssertEqual(timing?.atMs, try expected.map(utc), "\(minute) \(String(describing: quiet)) \(mode)")
            if let timing { XCTAssertEqual(timing.originalMs, try clock.utcMs(civilDay: monday, minute: minute)) }
        }
        XCTAssertTrue(night.contains(minute: 0) && night.contains(minute: 22 * 60) && !night.contains(minute: 7 * 60))
        XCTAssertThrowsError(try QuietHours(start: 60, end: 60))
        XCTAssertThrowsError(try QuietHours(start: -1, end: 60))
        XCTAssertThrowsError(try QuietHours(start: 0, end: 1440))
    }

    // MARK: Which days want a nudge

    func plan(
        _ spec: HabitSpec, days: [DayState] = [], vacations: [ClosedRange<Int32>] = [], weekdays: UInt8 = 0, minute: Int32 = 20 * 60,
        archivedDay: Int32? = nil, from: String, to: String
    ) throws -> [Int32] {
        let history = HabitHistory(spec: spec, versions: [], archivedDay: archivedDay, days: days)
        let rule = ReminderRule(
            id: 1, habitId: 1,
            versions: DatedSpans([
                .init(
                    fromDay: spec.startDay,
                    value: .init(minute: minute, weekdays: weekdays, message: nil, quiet: .drop))
            ]))
        let input = ReminderPlan.HabitInput(habitId: 1, history: history, vacations: vacations, rules: [rule])
        return try ReminderPlan.reminders(
            [input], quietHours: DatedSpans([]), snoozes: [], clock: DayClock(zone: .utc, dayStartMinutes: 0),
            fromMs: try utc(from + "T00:00Z"), toMs: try utc(to + "T00:00Z"), weekStart: 1
        ).map(\.day)
    }

    func spec(_ schedule: Schedule, start: String = "2026-05-01", kind: HabitKind = .checkmark, direction: Direction = .atLeast) throws -> HabitSpec {
        HabitSpec(
            name: "x", kind: kind, target: kind == .checkmark ? 1 : 3, direction: direction, group: nil, unit: nil, routine: .anytime,
            proofRequired: false, startDay: try day(start), schedule: schedule)
    }

    func state(_ date: String, done: Bool = true, skipped: Bool = false, value: Double = 1) throws -> DayState {
        DayState(day: try day(date), value: value, done: done, skipped: skipped, entryCount: 1)
    }

    func testDaysDoneExcusedNotDueOrOutsideTheHabitAreSilent() throws {
        let week = (1...7).map { try! day(String(format: "2026-06-%02d", $0)) }  // Monday 1 ... Sunday 7
        XCTAssertEqual(try plan(try spec(.daily), from: "2026-06-01", to: "2026-06-08"), week)
        XCTAssertEqual(
            try plan(try spec(.daily), days: [try state("2026-06-02")], from: "2026-06-01", to: "2026-06-08"),
            week.filter { $0 != week[1] }, "done")
        XCTAssertEqual(
            try plan(try spec(.daily), days: [try state("2026-06-03", done: false, skipped: true)], from: "2026-06-01", to: "2026-06-08"),
            week.filter { $0 != week[2] }, "skipped")
        XCTAssertEqual(
            try plan(try spec(.daily), vacations: [week[3]...week[4]], from: "2026-06-01", to: "2026-06-08"),
            [week[0], week[1], week[2], week[5], week[6]], "vacation")
        XCTAssertEqual(try plan(try spec(.weekdays(0b0100010)), from: "2026-06-01", to: "2026-06-08"), [week[0], week[4]], "days:mon,fri")
        XCTAssertEqual(try plan(try spec(.daily), weekdays: 0b1000001, from: "2026-06-01", to: "2026-06-08"), [week[5], week[6]], "rule on weekends")
        XCTAssertEqual(
            try plan(try spec(.weekdays(0b0000010)), weekdays: 0b0000100, from: "2026-06-01", to: "2026-06-08"), [],
            "a rule's weekday the habit is not due on")
        XCTAssertEqual(try plan(try spec(.daily, start: "2026-06-04"), from: "2026-06-01", to: "2026-06-08"), Array(week[3...]), "before start")
        XCTAssertEqual(try plan(try spec(.daily), archivedDay: week[2], from: "2026-06-01", to: "2026-06-08"), Array(week[..<2]), "archived")
    }

    func testAMetQuotaSilencesTheRestOfItsPeriod() throws {
        let weekly = try spec(.timesPerWeek(2))
        // Done Monday (in the window) and, for the second week, twice before the window opens.
        let done = [try state("2026-06-01"), try state("2026-06-03"), try state("2026-06-08"), try state("2026-06-09")]
        let days = try plan(weekly, days: done, from: "2026-06-01", to: "2026-06-15")
        XCTAssertEqual(days, [try day("2026-06-02")], "Tuesday only: Monday and Wednesday are done, and the quota is met from Wednesday on")
        XCTAssertEqual(try plan(weekly, days: done, from: "2026-06-10", to: "2026-06-15"), [], "met before the window")
        let monthly = try spec(.timesPerMonth(1))
        XCTAssertEqual(try plan(monthly, days: [try state("2026-06-05")], from: "2026-06-04", to: "2026-06-08"), [try day("2026-06-04")])
    }

    func testAtMostHabitsAreRemindedWhileWithinTheirLimit() throws {
        let coffee = try spec(.daily, kind: .counter, direction: .atMost)
        XCTAssertEqual(try plan(coffee, days: [try state("2026-06-01", value: 1)], from: "2026-06-01", to: "2026-06-03").count, 2)
    }

    func testSnoozesAreNewInstantsSilencedLikeTheirReminder() throws {
        let spec = try spec(.daily)
        let monday = try day("2026-06-01")
        let rule = ReminderRule(
            id: 7, habitId: 1, versions: DatedSpans([.init(fromDay: monday, value: .init(minute: 480, weekdays: 0, message: "go", quiet: .drop))]))
        let snooze = ReminderPlan.Snooze(ruleId: 7, day: monday, fromMs: try utc("2026-06-01T08:00Z"), atMs: try utc("2026-06-01T08:10Z"))
        func run(_ days: [DayState]) throws -> [ReminderPlan.Reminder] {
            try ReminderPlan.reminders(
                [
                    .init(
                        habitId: 1, history: HabitHistory(spec: spec, versions: [], archivedDay: nil, days: days), vacations: [],
                        rules: [rule])
                ],
                quietHours: DatedSpans([.init(fromDay: monday, value: try QuietHours(start: 0, end: 60 * 9))]),
                snoozes: [snooze], clock: DayClock(zone: .utc, dayStartMinutes: 0),
                fromMs: try utc("2026-06-01T08:05Z"), toMs: try utc("2026-06-01T09:00Z"), weekStart: 1)
        }
        let open = try run([])
        XCTAssertEqual(open.map(\.kind), [.snoozed], "the rule's 08:00 is dropped by quiet hours; the snooze is not")
        XCTAssertEqual(open.first?.originalMs, snooze.fromMs)
        XCTAssertEqual(open.first?.message, "go")
        XCTAssertEqual(try run([try state("2026-06-01")]), [], "done silences the snooze too")
    }

    func testEffectiveDatedSpansGovernDaysBeforeTheFirstAndKeepOnePerDay() {
        let spans = DatedSpans<Int>([.init(fromDay: 10, value: 1), .init(fromDay: 20, value: 2), .init(fromDay: 20, value: 3), .init(fromDay: 5, value: 0)])
        XCTAssertEqual(spans.spans.map(\.value), [0, 1, 3])
        XCTAssertEqual([0, 5, 9, 10, 19, 20, 99].map { spans.value(on: $0) }, [0, 0, 0, 1, 1, 3, 3])
        XCTAssertNil(DatedSpans<Int>([]).value(on: 0))
    }

    /// The engine judges a window from a truncated history (ReminderPlan.windowHistory
    /// fed the entries from firstDayRead on): it must decide exactly as the whole
    /// history does, for every schedule, start, archive, vacation and rule.
    func testAWindowJudgedFromItsFirstDayReadDecidesAsTheWholeHistory() throws {
        var seed: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let schedules: [Schedule] = [.daily, .weekdays(0b0101010), .everyNDays(3), .monthDays([1, 15, 31]), .timesPerWeek(3), .timesPerMonth(5)]
        let clock = DayClock(zone: try zone("Europe/Berlin"), dayStartMinutes: 180)
        let base = try day("2026-01-01")
        for round in 0..<300 {
            let start = base + Int32(next(120))
            let first = schedules[next(schedules.count)]
            // The first schedule from the start, or from after it (a start moved earlier), or before it (moved later).
            var spans = [SettingsVersion(fromDay: start + Int32(next(3) - 1) * 10, schedule: first)]
            if next(3) == 0 { spans.append(SettingsVersion(fromDay: start + Int32(next(150)), schedule: schedules[next(schedules.count)])) }
            let spec = HabitSpec(
                name: "h", kind: .checkmark, target: 1, direction: .atLeast, group: nil, unit: nil, routine: .anytime,
                proofRequired: false, startDay: start, schedule: spans.last!.schedule)
            let archived: Int32? = next(4) == 0 ? start + Int32(next(250)) : nil
            let habit = Habit(id: 1, spec: spec, archivedDay: archived, createdAtMs: 0, versions: spans)
            var states: [DayState] = []
            for offset in 0..<300 where next(10) < 6 {
                states.append(DayState(day: start + Int32(offset), value: 1, done: next(5) > 0, skipped: next(5) == 0, entryCount: 1))
            }
            let vacations: [ClosedRange<Int32>] = next(2) == 0 ? [(start + 40)...(start + 40 + Int32(next(20)))] : []
            let rule = ReminderRule(
                id: 9, habitId: 1,
                versions: DatedSpans([
                    .init(
                        fromDay: start,
                        value: .init(
                            minute: Int32(next(1440)),
                            weekdays: next(2) == 0 ? 0 : UInt8(next(127) + 1), message: nil, quiet: .deferToEnd))
                ]))
            let windowStart = start + Int32(next(260)) - 30
            let fromMs = Int64(windowStart) * 86_400_000 + Int64(next(86_400_000))
            let toMs = fromMs + Int64(1 + next(20 * 86_400_000))
            let window = try ReminderPlan.days(fromMs: fromMs, toMs: toMs, clock: clock)
            let whole = HabitHistory(spec: spec, versions: spans, archivedDay: archived, days: states)
            let readFrom = ReminderPlan.firstDayRead(habit, days: window, weekStart: 1)
            let cut = ReminderPlan.windowHistory(habit, from: readFrom, states: states.filter { $0.day >= readFrom })
            func plan(_ history: HabitHistory) throws -> [ReminderPlan.Reminder] {
                try ReminderPlan.reminders(
                    [.init(habitId: 1, history: history, vacations: vacations, rules: [rule])],
                    quietHours: DatedSpans([.init(fromDay: start, value: try QuietHours(start: 1320, end: 420))]),
                    snoozes: [], clock: clock, fromMs: fromMs, toMs: toMs, weekStart: 1)
            }
            XCTAssertEqual(try plan(cut), try plan(whole), "round \(round): \(spans) from \(readFrom)")
        }
    }

    func testWindowsAreCheckedBeforeAnyArithmetic() {
        let clock = DayClock(zone: .utc, dayStartMinutes: 0)
        XCTAssertThrowsError(try ReminderPlan.days(fromMs: 10, toMs: 10, clock: clock))
        XCTAssertThrowsError(try ReminderPlan.days(fromMs: Int64.min, toMs: Int64.max, clock: clock))
        XCTAssertThrowsError(try ReminderPlan.days(fromMs: 0, toMs: ReminderPlan.maxWindowMs + 1, clock: clock))
        XCTAssertThrowsError(try ReminderPlan.days(fromMs: Int64.max - 10, toMs: Int64.max, clock: clock))
        XCTAssertNoThrow(try ReminderPlan.days(fromMs: 0, toMs: ReminderPlan.maxWindowMs, clock: clock))
    }
}
