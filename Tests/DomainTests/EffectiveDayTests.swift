import XCTest

@testable import HabitCore

/// Which days a change to a day-versioned setting may reach.
final class EffectiveDayTests: XCTestCase {
    func testARuleActingAheadChangesFromTodayOnOnly() throws {
        let today = try CivilDate.parseDay("2026-03-10")
        XCTAssertEqual(try EffectiveDay.fromTodayOn(today, today: today, "a rule changes"), today)
        XCTAssertEqual(try EffectiveDay.fromTodayOn(today + 5, today: today, "a rule changes"), today + 5)
        XCTAssertThrowsError(try EffectiveDay.fromTodayOn(today - 1, today: today, "a shield rule changes")) { error in
            XCTAssertEqual((error as? HabitError)?.message, "a shield rule changes from today on, not from a day already lived")
        }
    }

    func testAHabitsSettingsChangeFromTodayOrAnEarlierDay() throws {
        let today = try CivilDate.parseDay("2026-03-10")
        XCTAssertEqual(try EffectiveDay.fromTodayBack(nil, today: today), today)
        XCTAssertEqual(try EffectiveDay.fromTodayBack(today - 30, today: today), today - 30)
        XCTAssertThrowsError(try EffectiveDay.fromTodayBack(today + 1, today: today)) { error in
            XCTAssertEqual((error as? HabitError)?.message, "a change applies from today or an earlier day, not 2026-03-11")
        }
        XCTAssertThrowsError(try EffectiveDay.fromTodayBack(Int32.max, today: today))
    }
}
