import Foundation
import XCTest

@testable import HabitCore

/// Strength is Loop Habit Tracker's score. Loop's own tables (uhabits-core
/// ScoreListTest: YesNo, NumericalAtLeast(WithSkip), NumericalAtMost), ported day by
/// day; its convergence properties; and generated histories against a reference
/// written here from Loop's rules, independently of Strength.swift.
final class StrengthTests: XCTestCase {
    /// Loop's entry values: a check, a skip; numbers are thousandths.
    static let yes = 2, skip = 3
    enum LoopType { case yesNo, atLeast, atMost }

    /// The history a Loop habit's entries make here: offsets back from `today`,
    /// starting at the oldest entry (Loop's first day of history).
    func history(
        _ type: LoopType, schedule: Schedule, target: Double = 2, today: Int32,
        entries: [Int: Int]
    ) -> HabitHistory {
        let start = today - Int32(entries.keys.max() ?? 0)
        let kind: HabitKind = type == .yesNo ? .checkmark : .counter
        let spec = HabitSpec(
            name: "h", kind: kind, target: type == .yesNo ? 1 : target,
            direction: type == .atMost ? .atMost : .atLeast, group: nil, unit: nil,
            routine: .anytime, proofRequired: false, startDay: start, schedule: schedule)
        var states: [DayState] = []
        for (offset, value) in entries {
            let day = today - Int32(offset)
            let isSkip = value == Self.skip
            switch type {
            case .yesNo:
                states.append(
                    DayState(
                        day: day, value: value == Self.yes ? 1 : 0, done: value == Self.yes,
                        skipped: isSkip, entryCount: 1))
            case .atLeast, .atMost:
                // As DayFold decides a day: an at-most skip within the limit is done.
                let amount = isSkip ? 0 : Double(max(0, value)) / 1000
                let done = type == .atLeast ? !isSkip && amount >= target : amount <= target
                states.append(DayState(day: day, value: amount, done: done, skipped: isSkip && !done, entryCount: 1))
            }
        }
        return HabitHistory(spec: spec, versions: [], archivedDay: nil, days: states)
    }

    /// Strength for the days today - (count - 1) ... today, newest first as Loop's
    /// tables list them, every day over (the open day is tomorrow).
    func table(_ h: HabitHistory, today: Int32, count: Int) -> [Double] {
        Scores.strengthSeries(h, from: today - Int32(count - 1), to: today, asOf: today + 1, weekStart: 1).reversed()
    }

    func assertTable(_ actual: [Double], _ expected: [Double], _ label: String, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, label, line: line)
        for (index, (a, e)) in zip(actual, expected).enumerated() {
            XCTAssertEqual(a, e, accuracy: 1e-6, "\(label): day today-\(index)", line: line)
        }
    }

    func entries(_ offsets: Range<Int>, _ value: Int) -> [Int: Int] {
        Dictionary(uniqueKeysWithValues: offsets.map { ($0, value) })
    }

    let today: Int32 = 20_000
    let twenty = [
        0.655747, 0.636894, 0.617008, 0.596033, 0.573910, 0.550574, 0.525961, 0.500000, 0.472617, 0.443734,
        0.413270, 0.381137, 0.347244, 0.311495, 0.273788, 0.234017, 0.192067, 0.147820, 0.101149, 0.051922,
        0.000000, 0.000000, 0.000000,
    ]

    // MARK: The step

    func testTheStepAndItsMultiplier() {
        let m = Strength.multiplier(times: 1, days: 1)
        XCTAssertEqual(m, pow(0.5, 1.0 / 13), accuracy: 1e-15)
        XCTAssertEqual(Strength.step(previous: 0, value: 1, multiplier: m), 1 - m, accuracy: 1e-15)
        XCTAssertEqual(Strength.step(previous: 0.5, value: 0.5, multiplier: m), 0.5, accuracy: 1e-15, "a fixed point")
        XCTAssertEqual(Strength.multiplier(times: 3, days: 8), pow(0.5, (3.0 / 8).squareRoot() / 13), accuracy: 1e-15)
        XCTAssertEqual(Strength.checkWindow(times: 2, days: 3).days, 6, "below once a day: doubled")
        XCTAssertEqual(Strength.checkWindow(times: 3, days: 3).days, 3)
        XCTAssertEqual(Strength.numberValue(sum: 5, target: 2, atMost: true), 0, "1 - (5 - 2) / 2 is below 0")
        XCTAssertEqual(Strength.numberValue(sum: 3, target: 2, atMost: true), 0.5)
        XCTAssertEqual(Strength.numberValue(sum: 1, target: 2, atMost: true), 1, "under the limit: 1")
        XCTAssertEqual(Strength.numberValue(sum: 1, target: 2, atMost: false), 0.5)
        XCTAssertEqual(Strength.numberValue(sum: 0, target: 0, atMost: true), 1)
        XCTAssertEqual(Strength.numberValue(sum: 1, target: 0, atMost: true), 0)
        XCTAssertEqual(Strength.numberValue(sum: 1, target: 0, atMost: false), 1)
    }

    // MARK: Loop's tables, day by day

    func testYesNoTables() {
        let daily = history(.yesNo, schedule: .daily, today: today, entries: entries(0..<20, Self.yes))
        assertTable(table(daily, today: today, count: 23), twenty, "test_getValue")

        var withSkips = entries(0..<20, Self.yes)
        for offset in [5, 10, 11] { withSkips[offset] = Self.skip }
        assertTable(
            table(history(.yesNo, schedule: .daily, today: today, entries: withSkips), today: today, count: 23),
            [
                0.596033, 0.573910, 0.550574, 0.525961, 0.500000, 0.472617, 0.472617, 0.443734, 0.413270, 0.381137,
                0.347244, 0.347244, 0.347244, 0.311495, 0.273788, 0.234017, 0.192067, 0.147820, 0.101149, 0.051922,
                0.000000, 0.000000, 0.000000,
            ], "test_getValueWithSkip")

        assertTable(
            table(history(.yesNo, schedule: .daily, today: today, entries: [5: Self.yes, 4: Self.skip]), today: today, count: 7),
            [0.041949, 0.044247, 0.046670, 0.049226, 0.051922, 0.051922, 0.0], "test_getValueWithSkip2")

        let two = history(.yesNo, schedule: .daily, today: today, entries: entries(0..<2, Self.yes))
        XCTAssertEqual(table(two, today: today, count: 1)[0], 0.101149, accuracy: 1e-6, "test_recompute")
        var everyOther = two
        everyOther.spec.schedule = .timesInDays(1, 2)
        XCTAssertEqual(table(everyOther, today: today, count: 1)[0], 0.054816, accuracy: 1e-6, "test_recompute 1/2")
        XCTAssertEqual(
            table(history(.yesNo, schedule: .daily, today: today, entries: [0: Self.yes]), today: today, count: 1)[0],
            0.051922, accuracy: 1e-6, "test_addThenRemove")
        XCTAssertEqual(
            table(history(.yesNo, schedule: .daily, today: today, entries: [:]), today: today, count: 1)[0], 0,
            "no entries: 0")
    }

    func testNumericalAtLeastTables() {
        let run = history(.atLeast, schedule: .daily, today: today, entries: entries(0..<20, 2000))
        assertTable(table(run, today: today, count: 23), twenty, "NumericalAtLeast test_getValue")

        var skips = entries(0..<20, 2000)
        skips[10] = Self.skip
        skips[15] = Self.skip
        assertTable(
            table(history(.atLeast, schedule: .daily, today: today, entries: skips), today: today, count: 23),
            [
                0.617008, 0.596033, 0.573910, 0.550574, 0.525961, 0.500000, 0.472617, 0.443734, 0.413270, 0.381137,
                0.347244, 0.347244, 0.311495, 0.273788, 0.234017, 0.192067, 0.192067, 0.147820, 0.101149, 0.051922,
                0.000000, 0.000000, 0.000000,
            ], "NumericalAtLeastScoreListWithSkipTest test_getValue")

        let two = history(.atLeast, schedule: .daily, today: today, entries: entries(0..<2, 2000))
        XCTAssertEqual(table(two, today: today, count: 1)[0], 0.101149, accuracy: 1e-6)
        var everyOther = two
        everyOther.spec.schedule = .timesInDays(1, 2)
        XCTAssertEqual(table(everyOther, today: today, count: 1)[0], 0.072631, accuracy: 1e-6, "test_recompute 1/2")
    }

    func testNumericalAtMostTables() {
        var entries = entries(0..<20, 5000)
        entries[20] = 1000
        assertTable(
            table(history(.atMost, schedule: .daily, today: today, entries: entries), today: today, count: 23),
            [
                0.344253, 0.363106, 0.382992, 0.403967, 0.426090, 0.449426, 0.474039, 0.500000, 0.527383, 0.556266,
                0.586730, 0.618863, 0.652756, 0.688505, 0.726212, 0.765983, 0.807933, 0.852180, 0.898851, 0.948078,
                1.0, 0.0, 0.0,
            ], "NumericalAtMost test_getValue")

        XCTAssertEqual(
            table(history(.atMost, schedule: .daily, today: today, entries: [:]), today: today, count: 1)[0], 1,
            accuracy: 1e-6, "nothing logged: 1")
        let two = history(.atMost, schedule: .daily, today: today, entries: self.entries(0..<2, 5000))
        XCTAssertEqual(table(two, today: today, count: 1)[0], 0.898850, accuracy: 1e-6)
        var everyOther = two
        everyOther.spec.schedule = .timesInDays(1, 2)
        XCTAssertEqual(table(everyOther, today: today, count: 1)[0], 0.927369, accuracy: 1e-6, "test_recompute 1/2")
        XCTAssertEqual(
            table(history(.atMost, schedule: .daily, today: today, entries: [1: 10_000_000]), today: today, count: 1)[0],
            0.950773, accuracy: 1e-6, "undereachievingIsntRelevant")
        for yesterday in [0, 1000] {
            XCTAssertEqual(
                table(
                    history(.atMost, schedule: .daily, today: today, entries: [0: 5000, 1: yesterday]),
                    today: today, count: 1)[0], 0.948077, accuracy: 1e-6, "overeachievingIsntRelevant")
        }
    }

    // MARK: Convergence (Loop's properties)

    func testNonDailyHabitsConvergeToTheirShare() {
        // 3 a week, done 2 of each 7 days: 2/3; 4 a week with the same days: 1/2.
        let pattern = Dictionary(uniqueKeysWithValues: (0..<700).filter { $0 % 7 < 2 }.map { ($0, Self.yes) })
        XCTAssertEqual(
            table(history(.yesNo, schedule: .timesInDays(3, 7), today: today, entries: pattern), today: today, count: 1)[0],
            2.0 / 3, accuracy: 1e-6)
        XCTAssertEqual(
            table(history(.yesNo, schedule: .timesPerWeek(4), today: today, entries: pattern), today: today, count: 1)[0],
            0.5, accuracy: 1e-6, "weekly:4 is Loop's 4/7")
        // Once a week on different weekdays still converges to 1.
        var irregular: [Int: Int] = [:]
        for k in 0..<100 { irregular[14 * k] = Self.yes; irregular[14 * k + 13] = Self.yes }
        XCTAssertEqual(
            table(history(.yesNo, schedule: .timesInDays(1, 7), today: today, entries: irregular), today: today, count: 1)[0],
            1, accuracy: 1e-3)
    }

    func testHighScoresInReasonableTime() {
        for type in [LoopType.yesNo, .atLeast] {
            let value = type == .yesNo ? Self.yes : 2000
            let daily = Dictionary(uniqueKeysWithValues: (0..<90).map { ($0, value) })
            XCTAssertGreaterThan(table(history(type, schedule: .daily, today: today, entries: daily), today: today, count: 1)[0], 0.99)
            var weekly = Dictionary(uniqueKeysWithValues: (0..<39).map { (7 * $0, value) })
            XCTAssertGreaterThan(table(history(type, schedule: .timesInDays(1, 7), today: today, entries: weekly), today: today, count: 1)[0], 0.99)
            for i in 0..<18 { weekly[30 * i] = value }
            XCTAssertGreaterThan(table(history(type, schedule: .timesInDays(1, 30), today: today, entries: weekly), today: today, count: 1)[0], 0.99)
        }
    }

    func testProgressSkipsAndOverAchieving() {
        XCTAssertEqual(
            table(history(.atLeast, schedule: .daily, today: today, entries: entries(0..<500, 1000)), today: today, count: 1)[0],
            0.5, accuracy: 1e-6)
        XCTAssertEqual(
            table(history(.atLeast, schedule: .daily, today: today, entries: entries(0..<500, 500)), today: today, count: 1)[0],
            0.25, accuracy: 1e-6)
        XCTAssertEqual(
            table(history(.atMost, schedule: .daily, today: today, entries: entries(0..<500, 3000)), today: today, count: 1)[0],
            0.5, accuracy: 1e-6)
        XCTAssertEqual(
            table(history(.atMost, schedule: .daily, today: today, entries: entries(0..<500, 3500)), today: today, count: 1)[0],
            0.25, accuracy: 1e-6)
        XCTAssertEqual(
            table(history(.atLeast, schedule: .daily, today: today, entries: [0: 10_000_000]), today: today, count: 1)[0],
            0.051922, accuracy: 1e-6, "overeachievingIsntRelevant")
        // Skips keep the value: 500 skipped days before, or 200 in the middle, change nothing.
        let plain = table(history(.atLeast, schedule: .daily, today: today, entries: entries(0..<500, 1000)), today: today, count: 1)[0]
        var before = entries(0..<500, 1000)
        for offset in 500..<1000 { before[offset] = Self.skip }
        XCTAssertEqual(table(history(.atLeast, schedule: .daily, today: today, entries: before), today: today, count: 1)[0], plain, accuracy: 1e-6)
        var middle = entries(0..<300, 1000)
        for offset in 300..<500 { middle[offset] = Self.skip }
        for offset in 500..<700 { middle[offset] = 1000 }
        XCTAssertEqual(table(history(.atLeast, schedule: .daily, today: today, entries: middle), today: today, count: 1)[0], plain, accuracy: 1e-6)
        // A perfect yes/no habit with skips converges to 1.
        var perfect = Dictionary(uniqueKeysWithValues: (0..<400).map { ($0, $0 % 5 == 2 ? Self.skip : Self.yes) })
        perfect[401] = Self.yes
        XCTAssertEqual(table(history(.yesNo, schedule: .daily, today: today, entries: perfect), today: today, count: 1)[0], 1, accuracy: 1e-6)
    }

    func testZeroTargetsStayFinite() {
        for type in [LoopType.atLeast, .atMost] {
            var h = history(type, schedule: .daily, target: 2, today: today, entries: [0: 100, 1: 200, 3: 300, 5: 400, 7: 500, 8: 600])
            h.spec.target = 0
            let series = Scores.strengthSeries(h, from: today - 10, to: today, asOf: today + 1, weekStart: 1)
            XCTAssertTrue(series.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }, "\(type): \(series)")
        }
    }

    // MARK: Our one difference: the open day

    func testTheOpenDayMovesOnlyOnceDone() {
        let done = history(.yesNo, schedule: .daily, today: today, entries: entries(0..<5, Self.yes))
        let closed = Scores.strengthSeries(done, from: today - 1, to: today, asOf: today + 1, weekStart: 1)
        XCTAssertEqual(Scores.strengthSeries(done, from: today - 1, to: today, asOf: today, weekStart: 1), closed, "done today: Loop's")
        let notYet = history(.yesNo, schedule: .daily, today: today, entries: entries(1..<5, Self.yes))
        let open = Scores.strengthSeries(notYet, from: today - 1, to: today, asOf: today, weekStart: 1)
        XCTAssertEqual(open[1], open[0], "today not done: yesterday's value")
        XCTAssertLessThan(
            Scores.strengthSeries(notYet, from: today, to: today, asOf: today + 1, weekStart: 1)[0], open[0],
            "once over, the miss counts")
        // An at-most day is over only at its end.
        let limit = history(.atMost, schedule: .daily, today: today, entries: [1: 1000, 0: 1000])
        let atMost = Scores.strengthSeries(limit, from: today - 1, to: today, asOf: today, weekStart: 1)
        XCTAssertEqual(atMost[1], atMost[0])
    }

    // MARK: Generated histories against a reference of Loop's rules

    /// Loop's score as its ScoreList computes it, written from its rules: `values`
    /// holds Loop's entry per day, oldest first (-1 unknown, 0 no, 2 yes, 3 skip;
    /// numbers in thousandths); the first day is the first of its history.
    static func loopReference(values: [Int], numerator: Int, denominator: Int, type: LoopType, target: Double) -> [Double] {
        let frequency = Double(numerator) / Double(denominator)
        let keep = pow(0.5, frequency.squareRoot() / 13)
        var need = numerator, span = denominator
        if type == .yesNo && frequency < 1 { need *= 2; span *= 2 }
        // Window sums from prefix sums of whole numbers: exact.
        var prefix = [Int](repeating: 0, count: values.count + 1)
        for (i, v) in values.enumerated() {
            prefix[i + 1] = prefix[i] + (type == .yesNo ? (v == yes ? 1 : 0) : max(0, v))
        }
        var score = type == .atMost ? 1.0 : 0.0
        var out: [Double] = []
        for i in values.indices {
            if values[i] != skip {
                let inWindow = prefix[i + 1] - prefix[max(0, i + 1 - span)]
                let share: Double
                switch type {
                case .yesNo: share = min(1, Double(inWindow) / Double(need))
                case .atLeast: share = target > 0 ? min(1, Double(inWindow) / 1000 / target) : 1
                case .atMost:
                    let total = Double(inWindow) / 1000
                    share = target > 0 ? max(0, min(1, 1 - (total - target) / target)) : (total > 0 ? 0 : 1)
                }
                score = score * keep + share * (1 - keep)
            }
            out.append(score)
        }
        return out
    }

    func testGeneratedHistoriesMatchLoopForEveryFrequencyAndType() {
        var random = SplitMix(seed: 18)
        let length = 2000
        var worst = 0.0, compared = 0
        for d in 1...31 {
            for n in 1...d {
                for type in [LoopType.yesNo, .atLeast, .atMost] {
                    let target = type == .yesNo ? 1 : Double(1 + random.below(5 * n)) / 2
                    // Each history has its own habits of doing: how often, how much.
                    let doneChance = 1 + random.below(10), skipChance = random.below(3)
                    var values: [Int] = []
                    for _ in 0..<length {
                        let roll = random.below(10)
                        // At-most days are never skips: a skip within the limit is a done day here.
                        if roll < skipChance && type != .atMost { values.append(Self.skip); continue }
                        switch type {
                        case .yesNo: values.append(roll < doneChance ? Self.yes : (random.below(2) == 0 ? 0 : -1))
                        case .atLeast, .atMost:
                            // 3 thousandths is Loop's skip, never an amount.
                            let amount = random.below(Int(target * 2000) + 1)
                            values.append(roll < doneChance ? (amount == Self.skip ? 4 : amount) : (random.below(2) == 0 ? 0 : -1))
                        }
                    }
                    values[0] = type == .yesNo ? Self.yes : 1000  // the first day of history holds an entry
                    let expected = Self.loopReference(values: values, numerator: n, denominator: d, type: type, target: target)
                    let entries = Dictionary(
                        uniqueKeysWithValues: values.enumerated().compactMap { i, v in
                            v == -1 ? nil : (length - 1 - i, v)
                        })
                    let schedule: Schedule = n == 1 && d == 1 ? .daily : .timesInDays(n, d)
                    let h = history(type, schedule: schedule, target: target, today: today, entries: entries)
                    let actual = Scores.strengthSeries(h, from: today - Int32(length - 1), to: today, asOf: today + 1, weekStart: 1)
                    for (a, e) in zip(actual, expected) { worst = max(worst, abs(a - e)) }
                    compared += 1
                    XCTAssertEqual(actual.count, expected.count)
                    if let bad = actual.indices.first(where: { abs(actual[$0] - expected[$0]) > 1e-6 }) {
                        XCTFail(
                            "\(n)/\(d) \(type) target \(target): day \(bad) is \(actual[bad]), Loop \(expected[bad]); values \(values[max(0, bad - 3)...bad]), ours before \(actual[max(0, bad - 3)...bad]), Loop's \(expected[max(0, bad - 3)...bad])"
                        )
                        return
                    }
                }
            }
        }
        XCTAssertEqual(compared, 496 * 3)
        XCTAssertLessThan(worst, 1e-9)
    }

    func testOurSchedulesUseTheFrequencyTheyAmountTo() {
        var random = SplitMix(seed: 7)
        let length = 1500
        let cases: [(Schedule, Int, Int)] = [
            (.weekdays(0b0101010), 3, 7), (.everyNDays(3), 1, 3), (.monthDays([1, 15]), 2, 30),
            (.timesPerWeek(3), 3, 7), (.timesPerMonth(5), 5, 30), (.daily, 1, 1),
        ]
        for (schedule, n, d) in cases {
            let values = (0..<length).map { i in i == 0 ? Self.yes : [Self.yes, 0, -1, Self.skip][random.below(4)] }
            let expected = Self.loopReference(values: values, numerator: n, denominator: d, type: .yesNo, target: 1)
            let entries = Dictionary(uniqueKeysWithValues: values.enumerated().compactMap { i, v in v == -1 ? nil : (length - 1 - i, v) })
            let actual = Scores.strengthSeries(
                history(.yesNo, schedule: schedule, today: today, entries: entries),
                from: today - Int32(length - 1), to: today, asOf: today + 1, weekStart: 1)
            XCTAssertEqual(actual.count, expected.count)
            XCTAssertTrue(zip(actual, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(schedule) as \(n)/\(d)")
        }
    }
}
