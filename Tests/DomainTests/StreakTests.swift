import XCTest

@testable import HabitCore

/// Each streak and score rule, as a case with its expected numbers.
final class StreakTests: XCTestCase {
    func day(_ text: String) -> Int32 { (try? CivilDate.parseDay(text)) ?? 0 }

    func history(
        _ kind: HabitKind = .checkmark, target: Double = 1, direction: Direction = .atLeast,
        schedule: Schedule = .daily, start: String, schedules: [SettingsVersion] = [],
        done: [Int32] = [], skipped: [Int32] = [], values: [Int32: Double] = [:]
    ) -> HabitHistory {
        let spec = HabitSpec(
            name: "h", kind: kind, target: target, direction: direction, group: nil, unit: nil,
            routine: .anytime, proofRequired: false, startDay: day(start), schedule: schedule)
        var states: [DayState] = []
        for d in Set(done).union(skipped).union(values.keys) {
            let value = values[d] ?? (done.contains(d) ? 1 : 0)
            let isDone: Bool
            switch kind {
            case .checkmark: isDone = done.contains(d)
            case .counter, .duration: isDone = direction == .atLeast ? value >= target : value <= target
            case .measurement: isDone = true
            case .quit: isDone = value == 0
            }
            states.append(DayState(day: d, value: value, done: isDone, skipped: skipped.contains(d) && !isDone, entryCount: 1))
        }
        return HabitHistory(spec: spec, versions: schedules, archivedDay: nil, days: states)
    }

    func summary(_ h: HabitHistory, asOf: String, weekStart: Int = 1, vacation: ClosedRange<Int32>? = nil) -> StreakSummary {
        let occurrences = Judge.occurrences(h, asOf: day(asOf), weekStart: weekStart, vacations: vacation.map { [$0] } ?? [])
        return Streaks.summary(occurrences, best: 3)
    }

    func testMonWedFriDoneOnEveryDueDayForFourWeeks() {
        // 2026-11-02 is a Monday.
        let start = day("2026-11-02")
        let due = (0..<28).map { start + Int32($0) }.filter { [1, 3, 5].contains(CivilDate.weekday($0)) }
        XCTAssertEqual(due.count, 12)
        let h = history(schedule: .weekdays(0b0101010), start: "2026-11-02", done: due)
        let result = summary(h, asOf: "2026-11-29")  // a Sunday: not due, breaks nothing
        XCTAssertEqual(result.current?.length, 12)
        XCTAssertEqual(result.current?.first, start)
        XCTAssertEqual(result.current?.last, day("2026-11-27"))
        XCTAssertEqual(result.longest?.length, 12)
        XCTAssertEqual(summary(h, asOf: "2026-11-30").current?.length, 12, "Monday the 30th is today: open, not missed")
        XCTAssertNil(summary(h, asOf: "2026-12-01").current, "once over, missing Monday the 30th ends it")
        XCTAssertEqual(summary(h, asOf: "2026-12-01").longest?.length, 12)
    }

    func testTodayNeverBreaksTheStreak() {
        let start = day("2026-03-01")
        let h = history(start: "2026-03-01", done: (0..<9).map { start + Int32($0) })
        XCTAssertEqual(summary(h, asOf: "2026-03-10").current?.length, 9, "today, not done yet, leaves yesterday's streak")
        XCTAssertEqual(summary(h, asOf: "2026-03-11").current, nil, "a day over and missed breaks it")
        XCTAssertEqual(summary(h, asOf: "2026-03-11").longest?.length, 9)
    }

    func testAVacationWeekInsideADailyStreak() {
        let start = day("2026-06-01")
        let done = (0..<10).map { start + Int32($0) } + (17..<25).map { start + Int32($0) }
        let h = history(start: "2026-06-01", done: done)
        let vacation = (start + 10)...(start + 16)
        let result = summary(h, asOf: "2026-06-25", vacation: vacation)
        XCTAssertEqual(result.current?.length, 18, "excused days neither break nor add")
        XCTAssertEqual(result.current?.excusedDays, 7)
        XCTAssertEqual(result.current?.first, start)
        XCTAssertEqual(summary(h, asOf: "2026-06-25").current?.length, 8, "without the vacation the week breaks it")
        XCTAssertEqual(summary(h, asOf: "2026-06-25").current?.first, start + 17)
        // A skip entry excuses one day the same way.
        let skipped = history(start: "2026-06-01", done: [start, start + 2], skipped: [start + 1])
        XCTAssertEqual(summary(skipped, asOf: "2026-06-04").current, Streak(first: start, last: start + 2, length: 2, excusedDays: 1))
    }

    func testTimesInDaysCountsBlocksFromItsFirstDay() {
        // times:2/3 from Wednesday 2026-11-04: blocks 4-6, 7-9, 10-12, 13-15 (not weeks).
        let start = day("2026-11-04")
        let done = [0, 2, 3, 4, 6, 9].map { start + Int32($0) }  // 2, 2, 1 (missed), 1 so far
        let h = history(schedule: .timesInDays(2, 3), start: "2026-11-04", done: done)
        let occurrences = Judge.occurrences(h, asOf: start + 10, weekStart: 1)
        XCTAssertEqual(occurrences.map(\.first), [start, start + 3, start + 6, start + 9])
        XCTAssertEqual(occurrences.map(\.verdict), [.kept, .kept, .missed, .open], "the open block neither adds nor breaks")
        XCTAssertNil(summary(h, asOf: "2026-11-14").current, "the missed block ended it")
        XCTAssertEqual(summary(h, asOf: "2026-11-14").best.map(\.length), [2])
        // The blocks count from the day the schedule began governing, also mid-history.
        let changed = history(
            schedule: .daily, start: "2026-11-01",
            schedules: [
                SettingsVersion(fromDay: day("2026-11-01"), schedule: .daily),
                SettingsVersion(fromDay: start, schedule: .timesInDays(2, 3)),
            ], done: done)
        XCTAssertEqual(
            Array(Judge.occurrences(changed, asOf: start + 11, weekStart: 1).map(\.first).suffix(4)),
            [start, start + 3, start + 6, start + 9])
        XCTAssertEqual(
            Judge.periodStart(.timesInDays(2, 3), day: start - 1, weekStart: 1, anchor: start), start - 3,
            "a day before the anchor falls in the block before it")
        XCTAssertEqual(Judge.periodEnd(.timesInDays(1, 365), start: start), start + 364)
        // A skipped day lowers the block's quota, as for weekly quotas.
        let skipped = history(schedule: .timesInDays(3, 3), start: "2026-11-04", done: [start, start + 1], skipped: [start + 2])
        XCTAssertEqual(Judge.occurrences(skipped, asOf: start + 5, weekStart: 1).first?.verdict, .kept)
    }

    func testThreeTimesPerWeekCountsWeeksInARow() {
        // Weeks start on Monday; 2026-11-02 is a Monday.
        let monday = day("2026-11-02")
        var done: [Int32] = []
        for week in 0..<4 { done += [0, 2, 4].map { monday + Int32(week * 7 + $0) } }
        done += [monday + 28]  // week 5 open: one so far
        let h = history(schedule: .timesPerWeek(3), start: "2026-11-02", done: done)
        let result = summary(h, asOf: "2026-12-01")
        XCTAssertEqual(result.current?.length, 4, "four weeks met; the open fifth week neither adds nor breaks")
        XCTAssertEqual(result.current?.first, monday)
        // A week with two is missed once it is over.
        let short = history(schedule: .timesPerWeek(3), start: "2026-11-02", done: done.filter { $0 != monday + 9 })
        XCTAssertEqual(summary(short, asOf: "2026-12-01").current?.length, 2)
        XCTAssertEqual(summary(short, asOf: "2026-12-01").best.map(\.length), [2, 1])
        // A habit starting on a Saturday: its first week has two days, so two are enough.
        let late = history(schedule: .timesPerWeek(3), start: "2026-11-07", done: [monday + 5, monday + 6])
        XCTAssertEqual(summary(late, asOf: "2026-11-09").current?.length, 1)
        // Sunday-first weeks move the boundary.
        XCTAssertEqual(Judge.periodStart(.timesPerWeek(3), day: monday, weekStart: 0, anchor: monday), monday - 1)
    }

    func testAtMostHabitsAreJudgedOnceTheDayIsOver() {
        let start = day("2026-02-01")
        let values: [Int32: Double] = [start: 1, start + 1: 2, start + 2: 3, start + 3: 0, start + 4: 5]
        let h = history(.counter, target: 2, direction: .atMost, start: "2026-02-01", values: values)
        // Day 3 (3 coffees) broke it; day 4 had none (kept); day 5 is today with 5 so far: open.
        let result = summary(h, asOf: "2026-02-05")
        XCTAssertEqual(result.current?.length, 1)
        XCTAssertEqual(result.longest?.length, 2)
        XCTAssertEqual(summary(h, asOf: "2026-02-06").current, nil, "once over, five is over the limit")
    }

    func testAScheduleChangeMidHistoryJudgesEachDayByItsOwnSchedule() {
        let start = day("2026-01-05")  // a Monday
        let spans = [SettingsVersion(fromDay: start, schedule: .daily), SettingsVersion(fromDay: start + 7, schedule: .weekdays(0b0000010))]
        // Daily for a week, then Mondays only: done every day of week one and on the next two Mondays.
        let h = history(start: "2026-01-05", schedules: spans, done: (0..<7).map { start + Int32($0) } + [start + 7, start + 14])
        let result = summary(h, asOf: "2026-01-20")
        XCTAssertEqual(result.current?.length, 9, "the Tuesdays after the change are not due")
        let unchanged = history(start: "2026-01-05", done: (0..<7).map { start + Int32($0) } + [start + 7, start + 14])
        XCTAssertEqual(summary(unchanged, asOf: "2026-01-20").current?.length, 1, "under the old daily schedule it broke and restarted")
    }

    func testEveryNDaysAndMonthDays() {
        let start = day("2026-01-01")
        XCTAssertTrue(Schedule.everyNDays(3).falls(on: start + 6, anchor: start))
        XCTAssertFalse(Schedule.everyNDays(3).falls(on: start + 7, anchor: start))
        let monthEnd = Schedule.monthDays([31])
        XCTAssertTrue(monthEnd.falls(on: day("2026-02-28"), anchor: start), "31 falls on a short month's last day")
        XCTAssertFalse(monthEnd.falls(on: day("2026-02-27"), anchor: start))
        XCTAssertTrue(Schedule.monthDays([29, 30]).falls(on: day("2026-02-28"), anchor: start))
        let h = history(schedule: .everyNDays(3), start: "2026-01-01", done: [start, start + 3, start + 6])
        XCTAssertEqual(summary(h, asOf: "2026-01-09").current?.length, 3)
    }

    func testNothingIsDueBeforeTheStartOrAfterArchiving() {
        let start = day("2026-05-10")
        var h = history(start: "2026-05-10", done: [start - 3, start, start + 1])
        h.archivedDay = start + 2
        let occurrences = Judge.occurrences(h, asOf: start + 30, weekStart: 1)
        XCTAssertEqual(occurrences.map(\.first), [start, start + 1])
        XCTAssertEqual(Streaks.summary(occurrences, best: 1).current?.length, 2, "an archived habit keeps its last streak")
    }

    func testStrengthOfADailyHabitDoneTwentyDays() {
        let start = day("2026-01-01")
        let h = history(start: "2026-01-01", done: (0..<20).map { start + Int32($0) })
        let series = Scores.strengthSeries(h, from: start, to: start + 19, asOf: start + 19, weekStart: 1)
        XCTAssertEqual(series.count, 20)
        // 0.65574764: the 0.655747 is it to six decimals, truncated.
        XCTAssertEqual((series[19] * 1_000_000).rounded(.down) / 1_000_000, 0.655747)
        XCTAssertEqual(series[19], 1 - pow(0.5, 20.0 / 13), accuracy: 1e-12)
        // A skipped day keeps the value; a missed one lowers it.
        let skipped = history(start: "2026-01-01", done: [start, start + 2], skipped: [start + 1])
        let kept = Scores.strengthSeries(skipped, from: start, to: start + 2, asOf: start + 2, weekStart: 1)
        XCTAssertEqual(kept[1], kept[0])
        let missed = history(start: "2026-01-01", done: [start, start + 2])
        XCTAssertLessThan(Scores.strengthSeries(missed, from: start, to: start + 2, asOf: start + 2, weekStart: 1)[1], kept[0])
        // Numbers count their progress: half the target is v = 0.5.
        let half = history(.counter, target: 8, start: "2026-01-01", values: [start: 4])
        let m = pow(0.5, 1.0 / 13)
        XCTAssertEqual(Scores.strengthSeries(half, from: start, to: start, asOf: start, weekStart: 1)[0], 0, "today moves it only once done")
        XCTAssertEqual(Scores.strengthSeries(half, from: start, to: start + 1, asOf: start + 1, weekStart: 1)[0], 0.5 * (1 - m), accuracy: 1e-12)
        // Over the limit of an at-most number: Loop's 1 - (value - target) / target from a start at 1.
        let coffee = history(.counter, target: 2, direction: .atMost, start: "2026-01-01", values: [start: 3])
        XCTAssertEqual(
            Scores.strengthSeries(coffee, from: start, to: start, asOf: start + 1, weekStart: 1)[0],
            m + 0.5 * (1 - m), accuracy: 1e-12)
        // A quota habit fills a rolling window (Loop's n/d, doubled below once a day): 2 of 3 days is 1.
        let twoInThree = history(schedule: .timesInDays(2, 3), start: "2026-01-01", done: [start, start + 2])
        let m23 = pow(0.5, (2.0 / 3).squareRoot() / 13)
        let window = Scores.strengthSeries(twoInThree, from: start, to: start + 2, asOf: start + 3, weekStart: 1)
        XCTAssertEqual(window[0], 0.25 * (1 - m23), accuracy: 1e-12, "1 of the 4 the 6-day window asks")
        XCTAssertEqual(window[2], (window[1]) * m23 + 0.5 * (1 - m23), accuracy: 1e-12)
    }

    func testCompletionRateAndDemands() {
        let start = day("2026-11-02")  // Monday
        let h = history(schedule: .weekdays(0b0101010), start: "2026-11-02", done: [start, start + 4, start + 7], skipped: [start + 2])
        let occurrences = Judge.occurrences(h, asOf: start + 13, weekStart: 1)
        let completion = Scores.completion(occurrences, from: start, to: start + 13)
        // Due: Mon 2 (done), Wed 4 (skipped), Fri 6 (done), Mon 9 (done), Wed 11 and Fri 13 (missed; Sunday 15 is today).
        XCTAssertEqual(completion.kept, 3)
        XCTAssertEqual(completion.judged, 5)
        XCTAssertEqual(completion.excused, 1)
        XCTAssertEqual(completion.rate ?? -1, 0.6, accuracy: 1e-12)
        let demands = Judge.demands(h, from: start, to: start + 6, asOf: start + 13, weekStart: 1)
        XCTAssertEqual(demands, [.due(done: true), .notDue, .excused, .notDue, .due(done: true), .notDue, .notDue])
        // A 2-per-week habit is due until met, then not.
        let quota = history(schedule: .timesPerWeek(2), start: "2026-11-02", done: [start + 1, start + 3])
        XCTAssertEqual(
            Judge.demands(quota, from: start, to: start + 6, asOf: start + 6, weekStart: 1),
            [.due(done: false), .due(done: true), .due(done: false), .due(done: true), .notDue, .notDue, .notDue])
    }

    func testPerfectDayAndActiveDayStreaks() {
        let start = day("2026-04-01")
        let bed = history(start: "2026-04-01", done: (0..<7).map { start + Int32($0) })
        // Run on Mondays, Wednesdays, Fridays (2026-04-01 is a Wednesday), missed on Monday the 6th.
        let run = history(schedule: .weekdays(0b0101010), start: "2026-04-01", done: [start, start + 2])
        let habits = [Global.Input(history: bed, habitId: 1), Global.Input(history: run, habitId: 2)]
        let tallies = Global.tally(habits, vacations: [], from: start, to: start + 7, asOf: start + 7, weekStart: 1)
        XCTAssertEqual(tallies.map(\.due), [2, 1, 2, 1, 1, 2, 1, 2])
        XCTAssertEqual(tallies.map(\.score), [1, 1, 1, 1, 1, 0.5, 1, 0])
        let perfect = Streaks.summary(Global.perfectDays(tallies, asOf: start + 7), best: 2)
        XCTAssertEqual(perfect.current?.length, 1, "broken on the 6th, the 7th was perfect, the 8th is today")
        XCTAssertEqual(perfect.longest, Streak(first: start, last: start + 4, length: 5, excusedDays: 0))
        let active = Streaks.summary(Global.activeDays(tallies, asOf: start + 7), best: 1)
        XCTAssertEqual(active.current?.length, 7, "something was done every day; today is still open")
    }
}
