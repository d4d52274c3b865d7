import CHabitCore
import Foundation
import HabitKit
import XCTest

/// The reminders commands' own arithmetic on the instants a user gives: past the range
/// of instants it is invalid input (exit 5), never a trap.
final class ReminderInstantRangeTests: HabitctlTestCase {
    func testInstantsAtTheEndOfTheRangeAreInvalidInputNotATrap() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Read"), "add")
        XCTAssertSucceeded(try habitctl("reminders", "add", "Read", "--at", "07:00"), "reminder")
        let last = String(Int64.max)
        let next = try habitctl("reminders", "next", "--from", last)
        XCTAssertEqual(next.status, 5, next.stderr)
        XCTAssertTrue(next.stderr.contains("--from is too late"), next.stderr)
        let snooze = try habitctl("reminders", "snooze", "1", "2026-11-21", last, "--minutes", "10")
        XCTAssertEqual(snooze.status, 5, snooze.stderr)
        XCTAssertTrue(snooze.stderr.contains("AT is too late"), snooze.stderr)
    }
}
