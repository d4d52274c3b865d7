import Foundation
import XCTest

@testable import HabitCore

final class CivilDateTests: XCTestCase {
    func testDayNumbersRoundTripAcrossTheWholeRange() throws {
        var day = CivilDate.minDay
        var previous: CivilDate?
        while day <= CivilDate.maxDay {
            let date = try CivilDate(dayNumber: day)
            XCTAssertEqual(date.dayNumber, day)
            if let previous { XCTAssertTrue(previous.year < date.year || previous.month < date.month || previous.day < date.day) }
            previous = date
            day += 97  // a stride that visits every month and weekday over the range
        }
        XCTAssertEqual(try CivilDate(parsing: "1970-01-01").dayNumber, 0)
        XCTAssertEqual(try CivilDate(parsing: "0001-01-01").dayNumber, CivilDate.minDay)
        XCTAssertEqual(try CivilDate(parsing: "9999-12-31").dayNumber, CivilDate.maxDay)
        XCTAssertEqual(try CivilDate(dayNumber: 20_779).description, "2026-11-22")
    }

    func testImpossibleDatesAreRefusedWithTheirReason() {
        for text in [
            "2026-02-30", "2026-02-29", "2025-13-01", "2026-00-10", "2026-04-31", "0000-12-31", "2026-1-1",
            "2026/01/01", "", "２０２６-01-01", "2026-01-01T00:00",
        ] {
            XCTAssertThrowsError(try CivilDate(parsing: text), text)
        }
        XCTAssertNoThrow(try CivilDate(parsing: "2024-02-29"))
        XCTAssertNoThrow(try CivilDate(parsing: "2000-02-29"))
        XCTAssertThrowsError(try CivilDate(parsing: "1900-02-29"))
        XCTAssertThrowsError(try CivilDate(dayNumber: Int32.max))
        do {
            _ = try CivilDate(parsing: "2026-02-30")
        } catch {
            XCTAssertEqual(error.code, .invalid)
            XCTAssertTrue(error.message.contains("28 days"), error.message)
        }
    }

    func testWeekdays() throws {
        XCTAssertEqual(CivilDate.weekday(0), 4)  // 1970-01-01, a Thursday
        XCTAssertEqual(CivilDate.weekday(try CivilDate.parseDay("2026-11-22")), 0)  // a Sunday
        XCTAssertEqual(CivilDate.weekday(try CivilDate.parseDay("1969-12-31")), 3)
        XCTAssertEqual(CivilDate.weekday(CivilDate.minDay), 1)  // 0001-01-01, a Monday
    }
}
