import XCTest

@testable import HabitCore

/// The streak policies, one table per rule and one row per case the
/// apps' own rules give. March 2026: the 1st is a Sunday, the 12th a Thursday.
final class StreakPolicyTests: XCTestCase {
    func day(_ text: String) -> Int32 { (try? CivilDate.parseDay(text)) ?? 0 }
    func march(_ date: Int) -> Int32 { day("2026-03-01") + Int32(date - 1) }

    static let numu = StreakPolicy(missAllowance: 1, openDay: .zero, offDays: .skip)
    static let monWedFri = Schedule.weekdays(0b0101010)
    static let monToFri = Schedule.weekdays(0b0111110)

    func history(_ schedule: Schedule = .daily, start: Int32, done: [Int32]) -> HabitHistory {
        let spec = HabitSpec(
            name: "h", kind: .checkmark, target: 1, direction: .atLeast, group: nil, unit: nil,
            routine: .anytime, proofRequired: false, startDay: start, schedule: schedule)
        return HabitHistory(
            spec: spec, versions: [], archivedDay: nil,
            days: done.map { DayState(day: $0, value: 1, done: true, skipped: false, entryCount: 1) })
    }

    func streaks(_ h: HabitHistory, asOf: Int32, _ policy: StreakPolicy, weekStart: Int = 1) -> StreakSummary {
        Streaks.summary(h, asOf: asOf, weekStart: weekStart, policy: policy, best: 3)
    }

    // MARK: Each rule alone

    func testAnOpenOccurrenceCountsAsTheOpenDayRuleSays() {
        let rows: [(StreakPolicy.OpenDay, Occurrence.Verdict, Occurrence.Verdict)] = [
            (.previous, .open, .open), (.zero, .open, .missed),
            (.previous, .kept, .kept), (.zero, .kept, .kept),
            (.previous, .missed, .missed), (.zero, .missed, .missed),
            (.previous, .excused, .excused), (.zero, .excused, .excused),
        ]
        for (openDay, verdict, expected) in rows {
            let policy = StreakPolicy(missAllowance: 0, openDay: openDay, offDays: .skip)
            XCTAssertEqual(policy.counted(verdict), expected, "\(openDay) \(verdict)")
        }
    }

    func testARunSurvivesUpToTheAllowanceOfMissesInARow() {
        let rows: [(allowance: Int32, misses: Int32, survives: Bool)] = [
            (0, 1, false), (1, 1, true), (1, 2, false), (2, 2, true), (2, 3, false), (31, 31, true), (31, 32, false),
        ]
        for row in rows {
            let policy = StreakPolicy(missAllowance: row.allowance, openDay: .previous, offDays: .skip)
            XCTAssertEqual(policy.survives(missesInARow: row.misses), row.survives, "allowance \(row.allowance), \(row.misses) misses")
        }
    }

    func testADayWithNothingDueIsSkippedOrAMiss() {
        let today = march(10)
        let rows: [(StreakPolicy.OffDays, Int32, Occurrence.Verdict?)] = [
            (.skip, march(8), nil), (.skip, today, nil),
            (.breaks, march(8), .missed), (.breaks, today, .open),
        ]
        for (offDays, day, expected) in rows {
            let policy = StreakPolicy(missAllowance: 0, openDay: .previous, offDays: offDays)
            XCTAssertEqual(policy.offDay(day, asOf: today)?.verdict, expected, "\(offDays) day \(day)")
        }
    }

    func testAHabitsOwnFieldsGoOverTheStores() {
        let store = StreakPolicy(missAllowance: 2, openDay: .zero, offDays: .breaks)
        let rows: [(StreakPolicy.Override, StreakPolicy)] = [
            (.none, store),
            (.init(missAllowance: 0, openDay: nil), StreakPolicy(missAllowance: 0, openDay: .zero, offDays: .breaks)),
            (.init(missAllowance: nil, openDay: .previous), StreakPolicy(missAllowance: 2, openDay: .previous, offDays: .breaks)),
            (.init(missAllowance: 1, openDay: .previous), StreakPolicy(missAllowance: 1, openDay: .previous, offDays: .breaks)),
        ]
        for (own, expected) in rows { XCTAssertEqual(own.over(store), expected, "\(own)") }
    }

    func testMissAllowanceIsChecked() {
        XCTAssertNoThrow(try StreakPolicy.validate(missAllowance: 0))
        XCTAssertNoThrow(try StreakPolicy.validate(missAllowance: 31))
        XCTAssertThrowsError(try StreakPolicy.validate(missAllowance: -1))
        XCTAssertThrowsError(try StreakPolicy.validate(missAllowance: 32))
    }

    // MARK: Numu's "never miss twice", row by row

    func testNeverMissTwice() {
        let all = (1...10).map(march)
        let rows: [(name: String, schedule: Schedule, done: [Int32], asOf: Int32, current: Int32, forgiven: Int32, standard: Int32)] = [
            ("daily, done Mar 1-10", .daily, all, march(10), 10, 0, 10),
            ("done Mar 1-9, today open: today is the forgiven miss", .daily, Array(all.prefix(9)), march(10), 9, 1, 9),
            ("done Mar 1-8 only, as of Mar 10: two misses", .daily, Array(all.prefix(8)), march(10), 0, 0, 0),
            ("one miss on Mar 8", .daily, all.filter { $0 != march(8) }, march(10), 9, 1, 2),
            ("misses on Mar 7 and 8", .daily, all.filter { $0 != march(7) && $0 != march(8) }, march(10), 2, 0, 2),
            ("done on even dates only", .daily, [2, 4, 6, 8, 10].map(march), march(10), 5, 4, 1),
            ("Mon/Wed/Fri done on every due day, as of Thursday the 12th", Self.monWedFri, [2, 4, 6, 9, 11].map(march), march(12), 5, 0, 5),
            ("the same with a Saturday entry, which adds nothing", Self.monWedFri, [2, 4, 6, 7, 9, 11].map(march), march(12), 5, 0, 5),
        ]
        for row in rows {
            let h = history(row.schedule, start: march(1), done: row.done)
            let numu = streaks(h, asOf: row.asOf, Self.numu)
            XCTAssertEqual(numu.current?.length ?? 0, row.current, row.name)
            XCTAssertEqual(numu.current?.forgiven ?? 0, row.forgiven, "forgiven: " + row.name)
            XCTAssertEqual(streaks(h, asOf: row.asOf, .standard).current?.length ?? 0, row.standard, "standard: " + row.name)
        }
    }

    func testForgivenMissesAreCountedInsideARunNotOnItsEdges() {
        // Done 1-3, missed 4, done 5-6, missed 7 and 8 (the run ends), done 9-10.
        let h = history(start: march(1), done: [1, 2, 3, 5, 6, 9, 10].map(march))
        let result = streaks(h, asOf: march(10), StreakPolicy(missAllowance: 1, openDay: .previous, offDays: .skip))
        XCTAssertEqual(result.longest, Streak(first: march(1), last: march(6), length: 5, excusedDays: 0, forgiven: 1))
        XCTAssertEqual(result.current, Streak(first: march(9), last: march(10), length: 2, excusedDays: 0, forgiven: 0))
        XCTAssertEqual(result.best.map(\.length), [5, 2])
    }

    // MARK: Open day, per habit

    func testOpenDayZeroVersusPrevious() {
        let h = history(start: march(1), done: (1...9).map(march))
        let rows: [(StreakPolicy, Int32, Int32)] = [
            (.standard, march(10), 9),
            (StreakPolicy(missAllowance: 0, openDay: .zero, offDays: .skip), march(10), 0),
            (StreakPolicy(missAllowance: 0, openDay: .zero, offDays: .skip), march(9), 9),
            (StreakPolicy(missAllowance: 1, openDay: .previous, offDays: .skip), march(10), 9),
        ]
        for (policy, asOf, expected) in rows {
            XCTAssertEqual(streaks(h, asOf: asOf, policy).current?.length ?? 0, expected, "\(policy) as of \(asOf)")
        }
        XCTAssertEqual(
            streaks(h, asOf: march(10), StreakPolicy(missAllowance: 0, openDay: .zero, offDays: .skip)).longest?.length, 9,
            "the run the open day interrupts is still the longest")
    }

    // MARK: Quotas

    func testWeeklyAndMonthlyQuotasHonourThePolicies() {
        // weekly:2 from Monday Mar 2 (weeks from Monday): met, missed, met, and the week of the 23rd open with one done.
        let weekly = history(.timesPerWeek(2), start: march(2), done: [3, 5, 17, 18, 24].map(march))
        let monthly = history(
            .timesPerMonth(3), start: day("2026-01-01"),
            done: [
                day("2026-01-05"), day("2026-01-06"), day("2026-01-07"), day("2026-02-02"),
                day("2026-03-02"), day("2026-03-03"), day("2026-03-04"),
            ])
        let rows: [(name: String, h: HabitHistory, asOf: Int32, policy: StreakPolicy, current: Int32, forgiven: Int32)] = [
            ("weekly, standard", weekly, march(25), .standard, 1, 0),
            ("weekly, allowance 1", weekly, march(25), StreakPolicy(missAllowance: 1, openDay: .previous, offDays: .skip), 2, 1),
            ("weekly, open week as a miss", weekly, march(25), StreakPolicy(missAllowance: 0, openDay: .zero, offDays: .skip), 0, 0),
            ("weekly, Numu", weekly, march(25), Self.numu, 2, 2),
            ("monthly, standard", monthly, day("2026-04-10"), .standard, 1, 0),
            ("monthly, allowance 1", monthly, day("2026-04-10"), StreakPolicy(missAllowance: 1, openDay: .previous, offDays: .skip), 2, 1),
            ("monthly, Numu", monthly, day("2026-04-10"), Self.numu, 2, 2),
        ]
        for row in rows {
            let result = streaks(row.h, asOf: row.asOf, row.policy)
            XCTAssertEqual(result.current?.length ?? 0, row.current, row.name)
            XCTAssertEqual(result.current?.forgiven ?? 0, row.forgiven, "forgiven: " + row.name)
        }
        // The stored week start decides the periods: from Sunday, the 8th and 9th fall in one week (met).
        let straddling = history(.timesPerWeek(2), start: march(1), done: [march(8), march(9)])
        XCTAssertEqual(streaks(straddling, asOf: march(15), .standard, weekStart: 0).current?.length, 1)
        XCTAssertNil(streaks(straddling, asOf: march(16), .standard, weekStart: 1).current, "from Monday, neither week was met")
    }

    // MARK: Off days and the open day, on per-habit and global streaks

    /// Two Mon-Fri habits done every weekday from Monday the 2nd to Monday the 9th.
    func weekdayHabits(through last: Int) -> [Global.Input] {
        let done = (2...last).map(march).filter { Self.monToFri.falls(on: $0, anchor: march(2)) }
        return [
            Global.Input(history: history(Self.monToFri, start: march(2), done: done), habitId: 1),
            Global.Input(history: history(Self.monToFri, start: march(2), done: done), habitId: 2),
        ]
    }

    func perfect(_ habits: [Global.Input], asOf: Int32, _ policy: StreakPolicy) -> StreakSummary {
        let tallies = Global.tally(habits, vacations: [], from: march(2), to: asOf, asOf: asOf, weekStart: 1)
        return Streaks.summary(Global.perfectDays(tallies, asOf: asOf, policy: policy), policy: policy, best: 0)
    }

    func testOffDaysSkipOrBreakOverAWeekend() {
        let skip = StreakPolicy.standard
        let breaks = StreakPolicy(missAllowance: 0, openDay: .previous, offDays: .breaks)
        let breaksForgivingTwo = StreakPolicy(missAllowance: 2, openDay: .previous, offDays: .breaks)
        let habits = weekdayHabits(through: 9)
        let rows: [(name: String, asOf: Int32, policy: StreakPolicy, global: Int32, perHabit: Int32)] = [
            ("skip, Monday the 9th", march(9), skip, 6, 6),
            ("break, Monday the 9th: the weekend broke the perfect days", march(9), breaks, 1, 6),
            ("break with allowance 2: the weekend is forgiven", march(9), breaksForgivingTwo, 6, 6),
            ("break, Saturday the 7th is today: open, not yet a miss", march(7), breaks, 5, 5),
            ("break, Sunday the 8th: Saturday is over", march(8), breaks, 0, 5),
            ("skip, Sunday the 8th", march(8), skip, 5, 5),
        ]
        for row in rows {
            XCTAssertEqual(perfect(habits, asOf: row.asOf, row.policy).current?.length ?? 0, row.global, "global: " + row.name)
            XCTAssertEqual(
                streaks(habits[0].history, asOf: row.asOf, row.policy).current?.length ?? 0, row.perHabit,
                "per habit (its schedule leaves the weekend free): " + row.name)
        }
    }

    func testAMetWeeklyQuotaIsNotAnOffDay() {
        // weekly:2 met on Monday the 2nd and Tuesday the 3rd: nothing is due for the rest of the week.
        let gym = [Global.Input(history: history(.timesPerWeek(2), start: march(2), done: [march(2), march(3)]), habitId: 1)]
        let breaks = StreakPolicy(missAllowance: 0, openDay: .previous, offDays: .breaks)
        let tallies = Global.tally(gym, vacations: [], from: march(2), to: march(8), asOf: march(8), weekStart: 1)
        XCTAssertEqual(tallies.map(\.due), [1, 1, 0, 0, 0, 0, 0])
        XCTAssertEqual(tallies.map(\.quotaMet), [0, 0, 1, 1, 1, 1, 1])
        XCTAssertEqual(perfect(gym, asOf: march(8), breaks).current?.length, 2, "the rest of a met week breaks nothing")
    }

    func testOpenDayOnGlobalStreaks() {
        // Tuesday the 10th, nothing done yet.
        let habits = weekdayHabits(through: 9)
        let rows: [(name: String, policy: StreakPolicy, global: Int32, perHabit: Int32)] = [
            ("previous", .standard, 6, 6),
            ("zero", StreakPolicy(missAllowance: 0, openDay: .zero, offDays: .skip), 0, 0),
            ("zero with allowance 1", StreakPolicy(missAllowance: 1, openDay: .zero, offDays: .skip), 6, 6),
        ]
        for row in rows {
            XCTAssertEqual(perfect(habits, asOf: march(10), row.policy).current?.length ?? 0, row.global, "global: " + row.name)
            XCTAssertEqual(streaks(habits[0].history, asOf: march(10), row.policy).current?.length ?? 0, row.perHabit, "per habit: " + row.name)
        }
    }
}
