import Foundation
import XCTest

/// habitctl reminders as a shell script sees it: rules, quiet hours, the instants
/// (human and --json), delivery once, snoozes, and exit codes.
final class ReminderCLITests: HabitctlTestCase {
    func testRulesNextAcrossTheSpringGapDeliveryAndSnooze() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "America/New_York"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Stretch", "--start", "2026-01-01"), "add")
        let added = try json(try habitctl("--json", "reminders", "add", "Stretch", "--at", "02:30", "--message", "up!"))
        let rule = try XCTUnwrap(added["rule"] as? [String: Any])
        XCTAssertEqual(rule["at"] as? String, "02:30")
        XCTAssertEqual(rule["days"] as? String, "due")
        XCTAssertSucceeded(try habitctl("reminders", "add", "Stretch", "--at", "08:00", "--days", "sun,sat", "--quiet", "drop"), "add 2")

        let next = try json(try habitctl("--json", "reminders", "next", "--from", "2026-03-08T00:00Z", "--to", "2026-03-09T00:00Z"))
        let rows = try XCTUnwrap(next["reminders"] as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["at"] as? String }, ["2026-03-08T07:00:00Z", "2026-03-08T12:00:00Z"], "02:30 is skipped: 03:00 EDT")
        XCTAssertEqual(rows.map { $0["local_time"] as? String }, ["03:00", "08:00"])
        XCTAssertEqual(rows.first?["message"] as? String, "up!")
        XCTAssertEqual(rows.first?["date"] as? String, "2026-03-08")
        // Text shows the instant in the local time of the shell (TZ) with its offset.
        let human = try runProcess(
            [Paths.habitctl, "--db", db, "reminders", "next", "--from", "2026-03-08T00:00Z", "--to", "2026-03-09T00:00Z"],
            environment: ["TZ": "America/New_York"])
        XCTAssertTrue(human.stdout.contains("2026-03-08 03:00  Stretch  (rule #1, 2026-03-08T03:00:00-04:00)  up!"), human.stdout)

        // Delivered once; a snooze is a new instant of the same reminder.
        XCTAssertEqual(try habitctl("reminders", "fired", "1", "2026-03-08", "2026-03-08T07:00Z").stdout, "recorded\n")
        XCTAssertEqual(try habitctl("reminders", "fired", "1", "2026-03-08", "2026-03-08T07:00Z").stdout, "already delivered\n")
        XCTAssertSucceeded(try habitctl("reminders", "snooze", "2", "2026-03-08", "2026-03-08T12:00Z", "--until", "2026-03-08T12:30Z"), "snooze")
        let claimed = try json(try habitctl("--json", "reminders", "next", "--from", "2026-03-08T00:00Z", "--to", "2026-03-09T00:00Z", "--claim"))
        XCTAssertEqual((claimed["reminders"] as? [[String: Any]])?.map { $0["kind"] as? String }, ["snoozed"], "only the snooze was pending")
        let again = try json(try habitctl("--json", "reminders", "next", "--from", "2026-03-08T00:00Z", "--to", "2026-03-09T00:00Z", "--pending"))
        XCTAssertEqual((again["reminders"] as? [[String: Any]])?.count, 0)

        // Quiet hours drop the 08:00 weekend rule from today on; the listing says so.
        XCTAssertSucceeded(try habitctl("reminders", "quiet", "07:30-09:00"), "quiet")
        let list = try json(try habitctl("--json", "reminders", "list", "Stretch"))
        XCTAssertEqual((list["quiet_hours"] as? [String: Any])?["start"] as? String, "07:30")
        XCTAssertEqual((list["rules"] as? [[String: Any]])?.map { $0["quiet"] as? String }, ["defer", "drop"])
        XCTAssertSucceeded(try habitctl("reminders", "remove", "2"), "remove")
        XCTAssertEqual((try json(try habitctl("--json", "reminders", "list")))["rules"].map { ($0 as? [Any])?.count }, 1)
    }

    func testBadInputExitsWithItsCode() throws {
        XCTAssertSucceeded(try habitctl("habit", "add", "Read"), "add")
        let cases: [([String], Int32)] = [
            (["reminders", "frob"], 2), (["reminders", "add", "Read"], 2), (["reminders", "add", "Read", "--at", "7"], 5),
            (["reminders", "add", "Read", "--at", "07:00", "--days", "funday"], 2), (["reminders", "add", "Nobody", "--at", "07:00"], 3),
            (["reminders", "remove", "99"], 3), (["reminders", "next", "--from", "yesterday"], 5),
            (["reminders", "next", "--from", "now", "--to", "+100d"], 5), (["reminders", "quiet", "09:00-09:00"], 5),
            (["reminders", "remove", "1", "--from", "2020-01-01"], 5), (["reminders", "fired", "1", "2026-01-01"], 2),
        ]
        for (args, code) in cases {
            let result = try runProcess([Paths.habitctl, "--db", db] + args)
            XCTAssertEqual(result.status, code, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stdout.isEmpty, "\(args) printed to stdout: \(result.stdout)")
            XCTAssertTrue(result.stderr.hasPrefix("habitctl: "), "\(args): \(result.stderr)")
        }
    }
}
