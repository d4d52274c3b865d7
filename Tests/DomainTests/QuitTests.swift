import HabitCore
import XCTest

/// QuitStatus.fold: the rules of a quit habit, values in and out.
final class QuitTests: XCTestCase {
    func day(_ text: String) -> Int32 { (try? CivilDate.parseDay(text)) ?? 0 }

    func spec(_ schedule: Schedule = .daily, target: Double = 0, start: String = "2026-03-02") -> HabitSpec {
        HabitSpec(
            name: "Smoking", kind: .quit, target: target, direction: .atMost, group: nil, unit: nil, routine: .anytime,
            proofRequired: false, startDay: day(start), schedule: schedule)
    }

    func relapses(_ days: [String]) -> [Relapse] {
        days.enumerated().map { Relapse(id: Int64($0.offset + 1), day: day($0.element), atMs: Int64(day($0.element)) * 86_400_000, amount: 1) }
    }

    func fold(_ spec: HabitSpec, versions: [SettingsVersion] = [], _ days: [String], asOf: String, weekStart: Int = 1) -> QuitStatus {
        let asOf = day(asOf)
        return QuitStatus.fold(
            spec: spec, versions: versions, relapses: relapses(days), asOf: asOf, atMs: Int64(asOf) * 86_400_000 + 1000,
            startMs: Int64(spec.startDay) * 86_400_000, weekStart: weekStart)
    }

    func testTwoRelapsesOnOneDayAreOneDayOfTheRunsAndTwoOfTheAllowance() {
        let s = fold(spec(.timesPerWeek(1)), ["2026-03-04", "2026-03-04"], asOf: "2026-03-06")
        XCTAssertEqual(s.currentClean, 2)
        XCTAssertEqual(s.bestClean, 2)
        XCTAssertEqual(s.cleanDays, 4)
        XCTAssertEqual(s.periodRelapses, 2)
        XCTAssertTrue(s.isOver)
        XCTAssertEqual(s.lastRelapse?.id, 2, "the later of a day's relapses")
    }

    func testARelapseBeforeTheStartDayOpensTheHistoryAndOneAfterAsOfIsNotCountedYet() {
        let s = fold(spec(), ["2026-02-27", "2026-03-10"], asOf: "2026-03-05")
        XCTAssertEqual(s.relapses, 1)
        XCTAssertEqual(s.lastRelapse?.day, day("2026-02-27"))
        XCTAssertEqual(s.currentClean, 6, "02-28 through 03-05")
        XCTAssertEqual(s.cleanDays, 6)
        XCTAssertEqual(s.daysSince, 6)
    }

    func testAStartAfterAsOfHasNothingToCount() {
        let s = fold(spec(target: 5, start: "2026-04-01"), [], asOf: "2026-03-05")
        XCTAssertEqual(s.cleanDays, 0)
        XCTAssertEqual(s.currentClean, 0)
        XCTAssertEqual(s.saved, 0)
        XCTAssertEqual(s.sinceMs, 0, "the clock does not run before the start")
    }

    func testAVersionFromMidWeekCutsThePeriodAndJudgesEachPartByItsOwnAllowance() {
        // One a week until Wednesday 03-11, three from then; the week starts on Monday.
        let versions = [
            SettingsVersion(fromDay: day("2026-03-02"), schedule: .timesPerWeek(1), target: 2, direction: .atMost),
            SettingsVersion(fromDay: day("2026-03-11"), schedule: .timesPerWeek(3), target: 3, direction: .atMost),
        ]
        let s = fold(spec(.timesPerWeek(3)), versions: versions, ["2026-03-10", "2026-03-12", "2026-03-13"], asOf: "2026-03-14")
        XCTAssertEqual(s.periodFirst, day("2026-03-11"))
        XCTAssertEqual(s.periodLast, day("2026-03-15"))
        XCTAssertEqual(s.periodRelapses, 2)
        XCTAssertEqual(s.allowed, 3)
        // 03-11..03-15 within three; 03-09..03-10 within one; 03-02..03-08 within one.
        XCTAssertEqual(s.periodsWithin, 3)
        // Clean days: 03-02..03-09 at 2 (8 days), 03-11 and 03-14 at 3.
        XCTAssertEqual(s.saved, 8 * 2 + 2 * 3)
    }

    func testAMonthlyAllowanceJudgesCalendarMonths() {
        let s = fold(spec(.timesPerMonth(2), start: "2026-01-10"), ["2026-01-12", "2026-02-03", "2026-02-20", "2026-02-21"], asOf: "2026-03-02")
        XCTAssertEqual(s.period, .month)
        XCTAssertEqual(s.periodFirst, day("2026-03-01"))
        XCTAssertEqual(s.periodLast, day("2026-03-31"))
        XCTAssertEqual(s.periodRelapses, 0)
        XCTAssertEqual(s.periodsWithin, 1, "February had three against two")
        XCTAssertEqual(s.monthRelapses, 0)
    }

    func testTheJudgesReadAQuitHabitAsDaily() {
        let (judged, versions) = QuitRules.judgedDaily(
            spec(.timesPerWeek(2)), versions: [SettingsVersion(fromDay: day("2026-03-02"), schedule: .timesPerMonth(4))])
        XCTAssertEqual(judged.schedule, .daily)
        XCTAssertEqual(versions.map(\.schedule), [.daily])
        XCTAssertThrowsError(try spec(.everyNDays(2)).validatedRules())
        XCTAssertEqual(try spec(.timesPerWeek(2), target: 4).validatedRules().direction, .atMost)
    }
}
