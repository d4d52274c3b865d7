import XCTest

@testable import HabitCore

/// The credit fold's rules, with today moved at will.
final class CreditFoldTests: XCTestCase {
    var nextId: Int64 = 0

    func entry(_ kind: CreditKind, _ minutes: Int64, on day: Int32) -> CreditEntry {
        nextId += 1
        return CreditEntry(
            id: nextId, accountId: 1, kind: kind, minutes: minutes, day: day, atMs: 0, reason: nil, cause: .manual,
            causeId: nil, habitId: nil, steps: nil)
    }

    let carry = CreditRules([
        CreditRule(
            id: 1, accountId: 1, kind: .expiry, habitId: nil, value: Int64(ExpiryPolicy.carryOver.rawValue),
            fromDay: 0)
    ])

    func testEndOfDayExpiresWhatIsLeftOnceTheDayIsOver() throws {
        let entries = [entry(.earn, 54, on: 100), entry(.spend, -20, on: 100)]
        XCTAssertEqual(try CreditFold.available(entries, rules: CreditRules([]), on: 100, today: 100), 34, "today is not over")
        let days = try CreditFold.days(entries, rules: CreditRules([]), through: 101, today: 101)
        XCTAssertEqual(days.first?.expired, 34)
        XCTAssertEqual(days.last?.available, 0)
        XCTAssertEqual(
            try CreditFold.unwrittenExpiries(in: try CreditFold.days(entries, rules: CreditRules([]), through: 101, today: 101), entries: entries).map(
                \.minutes), [34])
        let written = entries + [entry(.expire, -34, on: 100)]
        XCTAssertTrue(
            try CreditFold.unwrittenExpiries(in: try CreditFold.days(written, rules: CreditRules([]), through: 101, today: 101), entries: written).isEmpty,
            "written once")
        XCTAssertEqual(try CreditFold.available(written, rules: CreditRules([]), on: 101, today: 101), 0, "the same balance either way")
    }

    func testCarryOverKeepsMinutesAcrossDays() throws {
        let entries = [entry(.earn, 54, on: 100), entry(.earn, 10, on: 102), entry(.spend, -30, on: 103)]
        let days = try CreditFold.days(entries, rules: carry, through: 103, today: 103).filter { $0.day >= 100 }
        XCTAssertEqual(days.map(\.available), [54, 64, 34])
        XCTAssertEqual(days.last?.carriedIn, 64)
        XCTAssertTrue(try CreditFold.unwrittenExpiries(in: try CreditFold.days(entries, rules: carry, through: 110, today: 110), entries: entries).isEmpty)
    }

    func testADebtNeverExpiresAndLaterEarningsPayItBack() throws {
        let entries = [entry(.earn, 15, on: 100), entry(.spend, -15, on: 100), entry(.adjust, -15, on: 100), entry(.earn, 20, on: 101)]
        let days = try CreditFold.days(entries, rules: CreditRules([]), through: 101, today: 101)
        XCTAssertEqual(days.first?.available, -15)
        XCTAssertEqual(days.first?.expired, 0)
        XCTAssertEqual(days.last?.available, 5)
    }

    func testASwitchToEndOfDayExpiresTheCarriedBalanceAtTheEndOfItsFirstDay() throws {
        let rules = CreditRules([
            CreditRule(id: 1, accountId: 1, kind: .expiry, habitId: nil, value: 2, fromDay: 0),
            CreditRule(id: 2, accountId: 1, kind: .expiry, habitId: nil, value: 1, fromDay: 105),
        ])
        let entries = [entry(.earn, 40, on: 100)]
        XCTAssertEqual(try CreditFold.available(entries, rules: rules, on: 105, today: 105), 40)
        let days = try CreditFold.days(entries, rules: rules, through: 106, today: 106)
        XCTAssertEqual(days.first { $0.day == 105 }?.expired, 40)
        XCTAssertEqual(days.last?.available, 0)
    }

    func testRulesApplyFromTheirDayAndTheLaterOfTwoForOneDayWins() {
        let rules = CreditRules([
            CreditRule(id: 1, accountId: 1, kind: .stepsPerMinute, habitId: nil, value: 50, fromDay: 200),
            CreditRule(id: 2, accountId: 1, kind: .stepsPerMinute, habitId: nil, value: 40, fromDay: 200),
            CreditRule(id: 3, accountId: 1, kind: .habitMinutes, habitId: 7, value: 15, fromDay: 150),
        ])
        XCTAssertEqual(rules.minutes(forSteps: 5_450, on: 199), 54)
        XCTAssertEqual(rules.minutes(forSteps: 5_450, on: 200), 136)
        XCTAssertEqual(rules.habitMinutes(habitId: 7, on: 149), 0)
        XCTAssertEqual(rules.habitMinutes(habitId: 7, on: 150), 15)
        XCTAssertEqual(rules.habitMinutes(habitId: 8, on: 150), 0)
        XCTAssertEqual(rules.expiry(on: 0), .endOfDay)
    }

    func testSumsThatWouldOverflowAreReportedNotTrapped() {
        let entries = [entry(.earn, Int64.max, on: 100), entry(.earn, 1, on: 100)]
        XCTAssertThrowsError(try CreditFold.available(entries, rules: carry, on: 100, today: 100)) { error in
            XCTAssertEqual((error as? HabitError)?.code, .corrupt)
        }
    }

    /// After a merge: a day's step earnings are topped up to what its highest total
    /// earns, and the written expiries corrected to the fold of every other entry.
    func testDerivationsAfterAMergeGiveTheLedgerOfAStoreThatHadEveryFact() throws {
        var steps = entry(.earn, 50, on: 100)
        steps.cause = .steps
        XCTAssertEqual(
            try CreditDerivation.stepCorrections(totals: [100: 7_000, 99: 4_999], entries: [steps], rules: CreditRules([])).map {
                [Int64($0.day), $0.minutes, $0.steps]
            },
            [[99, 49, 4_999], [100, 20, 7_000]], "a lower total than the one held earns nothing; a higher one tops up once")
        XCTAssertTrue(try CreditDerivation.stepCorrections(totals: [100: 5_000], entries: [steps], rules: CreditRules([])).isEmpty)
        // A rate raised for the day after it earned (merged from another device): the day is recounted down.
        let raised = CreditRules([CreditRule(id: 1, accountId: 1, kind: .stepsPerMinute, habitId: nil, value: 200, fromDay: 100)])
        XCTAssertEqual(
            try CreditDerivation.stepCorrections(totals: [100: 5_000], entries: [steps], rules: raised).map { [Int64($0.day), $0.minutes] },
            [[100, -25]])
        // This device wrote day 100's expiry, then a spend of day 100 made on another device arrived.
        let here = [entry(.earn, 50, on: 100), entry(.expire, -50, on: 100)]
        XCTAssertTrue(try CreditDerivation.expiryCorrections(here, rules: CreditRules([]), today: 101).isEmpty, "nothing to correct")
        let merged = here + [entry(.spend, -30, on: 100)]
        let corrections = try CreditDerivation.expiryCorrections(merged, rules: CreditRules([]), today: 101)
        XCTAssertEqual(corrections.map { [Int64($0.day), $0.minutes] }, [[100, 30]], "30 of the 50 were spent, not expired")
        let corrected = merged + corrections.map { entry(.expire, $0.minutes, on: $0.day) }
        let direct = [entry(.earn, 50, on: 100), entry(.spend, -30, on: 100)]
        XCTAssertEqual(
            try CreditFold.days(corrected, rules: CreditRules([]), through: 101, today: 101),
            try CreditFold.days(direct, rules: CreditRules([]), through: 101, today: 101))
        XCTAssertTrue(try CreditDerivation.expiryCorrections(corrected, rules: CreditRules([]), today: 101).isEmpty, "corrected once")
        XCTAssertEqual(
            try CreditFold.available(merged, rules: CreditRules([]), on: 101, today: 101), 0,
            "a written expiry made wrong by a late spend never changes the balance, corrected or not")
        XCTAssertEqual(
            try CreditFold.available(here + [entry(.expire, -9, on: 101)], rules: CreditRules([]), on: 101, today: 101), 0,
            "nor does one written for a day that came back (today is not over)")
        XCTAssertEqual(try CreditFold.available([entry(.earn, 9, on: 101), entry(.expire, -9, on: 101)], rules: CreditRules([]), on: 101, today: 101), 9)
        // Two spends made offline overdraw: nothing expires, the debt shows.
        let overdrawn = here + [entry(.spend, -40, on: 100), entry(.spend, -30, on: 100)]
        let fix = try CreditDerivation.expiryCorrections(overdrawn, rules: CreditRules([]), today: 101)
        XCTAssertEqual(fix.map { [Int64($0.day), $0.minutes] }, [[100, 50]])
        XCTAssertEqual(
            try CreditFold.available(overdrawn + fix.map { entry(.expire, $0.minutes, on: $0.day) }, rules: CreditRules([]), on: 101, today: 101), -20)
    }

    func testOnlyFactsTravel() throws {
        XCTAssertTrue(entry(.spend, -5, on: 1).isFact)
        var earned = entry(.earn, 5, on: 1)
        earned.cause = .steps
        XCTAssertFalse(earned.isFact)
        XCTAssertNoThrow(try CreditEntry.validateFact(kind: .spend, minutes: -5))
        XCTAssertThrowsError(try CreditEntry.validateFact(kind: .spend, minutes: 5))
        XCTAssertThrowsError(try CreditEntry.validateFact(kind: .adjust, minutes: 0))
        XCTAssertThrowsError(try CreditEntry.validateFact(kind: .refund, minutes: -1))
        XCTAssertThrowsError(try CreditEntry.validateFact(kind: .earn, minutes: 5))
        XCTAssertThrowsError(try CreditEntry.validateFact(kind: .expire, minutes: -5))
    }

    /// A habit day's completion credits: owed its reward when done, nothing when not;
    /// what it holds is brought to that, whichever path the ledger took.
    func testAHabitDaysRewardIsBroughtToWhatItIsOwed() {
        XCTAssertEqual(CreditDerivation.habitReward(owed: 5, done: true, held: 0).map { "\($0.kind) \($0.minutes)" }, "earn 5")
        XCTAssertNil(CreditDerivation.habitReward(owed: 5, done: true, held: 5))
        XCTAssertEqual(CreditDerivation.habitReward(owed: 5, done: false, held: 5).map { "\($0.kind) \($0.minutes)" }, "adjust -5", "an undo takes it back")
        XCTAssertEqual(
            CreditDerivation.habitReward(owed: 10, done: true, held: 5).map { "\($0.kind) \($0.minutes)" }, "adjust 5", "a changed reward is recounted")
        XCTAssertEqual(CreditDerivation.habitReward(owed: 0, done: true, held: 5).map { "\($0.kind) \($0.minutes)" }, "adjust -5")
        XCTAssertNil(CreditDerivation.habitReward(owed: 0, done: true, held: 0))
        XCTAssertNil(CreditDerivation.habitReward(owed: 5, done: false, held: 0))
        XCTAssertNil(CreditDerivation.habitReward(owed: 5, done: true, held: .min), "an overflowing difference writes nothing")
    }

    /// Corrections of derived earnings count as earned, as the earnings do; adjustments by hand do not.
    func testCorrectionsOfEarningsCountAsEarned() throws {
        var undone = entry(.adjust, -5, on: 100)
        undone.cause = .habitEntry
        let byHand = entry(.adjust, 3, on: 100)
        var earned = entry(.earn, 5, on: 100)
        earned.cause = .habitEntry
        let day = try CreditFold.days([earned, undone, byHand], rules: CreditRules([]), through: 100, today: 100).last
        XCTAssertEqual(day?.earned, 0)
        XCTAssertEqual(day?.adjusted, 3)
    }
}
