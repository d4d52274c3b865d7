import XCTest

@testable import HabitCore

final class ScheduleTests: XCTestCase {
    func testCanonicalTextRoundTrips() throws {
        let cases = [
            ("daily", "daily"), ("DAYS:fri,mon,wed", "days:mon,wed,fri"), ("days:sun", "days:sun"),
            ("every:3", "every:3"), ("monthdays:31,1,15", "monthdays:1,15,31"), ("weekly:3", "weekly:3"),
            ("monthly:5", "monthly:5"), ("TIMES:2/3", "times:2/3"), ("times:1/365", "times:1/365"),
            ("times:7/7", "times:7/7"),
        ]
        for (input, canonical) in cases {
            let schedule = try Schedule(parsing: input)
            XCTAssertEqual(schedule.description, canonical)
            XCTAssertEqual(try Schedule(parsing: canonical), schedule)
        }
    }

    func testInvalidSchedulesNameTheProblem() {
        for bad in [
            "", "daily:2", "days:", "days:mon,,tue", "days:mon,mon", "every:0", "every:366", "every:x",
            "monthdays:0", "monthdays:1,1", "weekly:0", "weekly:8", "monthly:32", "fortnightly",
            "times:", "times:2", "times:2/", "times:/3", "times:0/3", "times:4/3", "times:1/366", "times:1/0",
            "times:2/3/4", "times:a/b", "times:-1/3", "DÄILY", "days:mön", "days:mon\u{301}", "every:\u{0663}",
        ] {
            XCTAssertThrowsError(try Schedule(parsing: bad), bad) { error in
                XCTAssertEqual((error as? HabitError)?.code, .invalid)
            }
        }
    }
}
