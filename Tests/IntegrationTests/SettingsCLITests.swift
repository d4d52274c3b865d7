import Foundation
import XCTest

/// habitctl habit edit and habit archive take the day a change applies from (--from)
/// and name the days they re-judge; the days before keep their settings.
final class SettingsCLITests: HabitctlTestCase {
    private func date(_ offset: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: calendar.date(byAdding: .day, value: offset, to: Date()) ?? Date())
    }

    func testEditFromADayReJudgesFromThereAndSaysSo() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "UTC"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Water", "--kind", "counter", "--target", "8", "--start", date(-7)), "add")
        for offset in -7 ... -1 { XCTAssertSucceeded(try habitctl("log", "Water", "8", "--date", date(offset)), "log") }
        let raised = try habitctl("habit", "edit", "Water", "--target", "10")
        XCTAssertSucceeded(raised, "edit from today")
        XCTAssertTrue(raised.stdout.contains("re-judged \(date(0))"), raised.stdout)
        XCTAssertTrue(try habitctl("streak", "Water").stdout.contains("7 days since \(date(-7))"), "the past week stays kept")
        let earlier = try json(try habitctl("--json", "habit", "edit", "Water", "--target", "12", "--from", date(-2)))
        XCTAssertEqual(earlier["rejudged"] as? [String: String], ["from": date(-2), "to": date(0)])
        XCTAssertTrue(try habitctl("streak", "Water").stdout.contains("no streak, longest 5 days"), "the last two days by 12")
        let renamed = try json(try habitctl("--json", "habit", "edit", "Water", "--name", "Drink", "--from", date(-2)))
        XCTAssertTrue(renamed["rejudged"] is NSNull, "a name judges no day")
        let future = try habitctl("habit", "edit", "Drink", "--target", "9", "--from", date(1))
        XCTAssertNotEqual(future.status, 0)
        XCTAssertTrue(future.stderr.contains("today or an earlier day"), future.stderr)
        let archived = try json(try habitctl("--json", "habit", "archive", "Drink", "--from", date(-1)))
        XCTAssertEqual(archived["rejudged"] as? [String: String], ["from": date(-1), "to": date(0)])
    }
}
