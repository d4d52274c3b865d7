import XCTest
@testable import HabitCore

/// The credit fold's rules, with today moved at will.
final class CreditFoldTests: XCTestCase {
    var nextId: Int64 = 0

    func entry(_ kind: CreditKind, _ minutes: Int64, on day: Int32) -> CreditEntry {
        nextId += 1
        return CreditEntry(id: nextId, accountId: 1, kind: kind, minutes: minutes, day: day, atMs: 0, reason: nil, cause: .manual,
                           causeId: nil, habitId: nil, steps: nil)
    }

    let carry = CreditRules([CreditRule(id: 1, accountId: 1, kind: .expiry, habitId: nil, value: Int64(ExpiryPolicy.carryOver.rawValue),
                                        fromDay: 0)])

    func testEndOfDayExpiresWhatIsLeftOnceTheDayIsOver() throws {
        let entries = [entry(.earn, 54, on: 100), entry(.spend, -20, on: 100)]
        XCTAssertEqual(try CreditFold.available(entries, rules: CreditRules([]), on: 100, today: 100), 34, "today is not over")
        let days = try CreditFold.days(entries, rules: CreditRules([]), through: 101, today: 101)
        XCTAssertEqual(days.first?.expired, 34)
        XCTAssertEqual(days.last?.available, 0)
        XCTAssertEqual(try CreditFold.unwrittenExpiries(in: try CreditFold.days(entries, rules: CreditRules([]), through: 101, today: 101), entries: entries).map(\.minutes), [34])
        let written = entries + [entry(.expire, -34, on: 100)]
        XCTAssertTrue(try CreditFold.unwrittenExpiries(in: try CreditFold.days(written, rules: CreditRules([]), through: 101, today: 101), entries: written).isEmpty, "written once")
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
        let rules = CreditRules([CreditRule(id: 1, accountId: 1, kind: .expiry, habitId: nil, value: 2, fromDay: 0),
                                 CreditRule(id: 2, accountId: 1, kind: .expiry, habitId: nil, value: 1, fromDay: 105)])
        let entries = [entry(.earn, 40, on: 100)]
        XCTAssertEqual(try CreditFold.available(entries, rules: rules, on: 105, today: 105), 40)
        let days = try CreditFold.days(entries, rules: rules, through: 106, today: 106)
        XCTAssertEqual(days.first { $0.day == 105 }?.expired, 40)
        XCTAssertEqual(days.last?.available, 0)
    }

    func testRulesApplyFromTheirDayAndTheLaterOfTwoForOneDayWins() {
        let rules = CreditRules([CreditRule(id: 1, accountId: 1, kind: .stepsPerMinute, habitId: nil, value: 50, fromDay: 200),
                                 CreditRule(id: 2, accountId: 1, kind: .stepsPerMinute, habitId: nil, value: 40, fromDay: 200),
                                 CreditRule(id: 3, accountId: 1, kind: .habitMinutes, habitId: 7, value: 15, fromDay: 150)])
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
}
