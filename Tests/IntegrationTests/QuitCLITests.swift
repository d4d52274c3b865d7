import Foundation
import XCTest

/// habitctl relapse and habitctl quit: a quit habit from the shell, human and --json.
final class QuitCLITests: HabitctlTestCase {
    func testRelapseLogsAnEntryAndQuitShowsWhereTheHabitStands() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "UTC"), "init")
        XCTAssertSucceeded(
            try habitctl("habit", "add", "Smoking", "--kind", "quit", "--schedule", "weekly:2", "--target", "8.5", "--unit", "EUR", "--start", "2026-01-05"),
            "add")
        let logged = try json(try habitctl("--json", "relapse", "Smoking", "--note", "party", "--amount", "3"))
        let entry = try XCTUnwrap(logged["entry"] as? [String: Any])
        XCTAssertEqual(entry["kind"] as? String, "relapse")
        XCTAssertEqual(entry["note"] as? String, "party")
        XCTAssertEqual(entry["value"] as? Double, 3)
        let afterRelapse = try XCTUnwrap(logged["quit"] as? [String: Any])
        XCTAssertEqual(afterRelapse["days_since"] as? Int, 0)
        XCTAssertEqual(afterRelapse["relapses"] as? Int, 1)
        XCTAssertEqual(afterRelapse["period"] as? String, "week")
        XCTAssertEqual(afterRelapse["allowance"] as? Int, 2)
        XCTAssertEqual(afterRelapse["over_allowance"] as? Bool, false)

        // The status at an instant: three days on, one relapse this week's allowance holds.
        let at = (afterRelapse["at_ms"] as? NSNumber)?.int64Value ?? 0
        let later = try json(try habitctl("--json", "quit", "Smoking", "--at-ms", String(at + 3 * 86_400_000)))
        let status = try XCTUnwrap(later["quit"] as? [String: Any])
        XCTAssertEqual(status["days_since"] as? Int, 3)
        XCTAssertEqual(status["current_clean_days"] as? Int, 3)
        XCTAssertEqual(status["last_relapse_id"] as? Int, entry["id"] as? Int)
        XCTAssertEqual((later["habit"] as? [String: Any])?["kind"] as? String, "quit")
        let human = try habitctl("quit", "Smoking")
        XCTAssertSucceeded(human, "quit")
        XCTAssertTrue(human.stdout.contains("Smoking: 0 days since the last relapse"), human.stdout)
        XCTAssertTrue(human.stdout.contains("of 2 allowed"), human.stdout)

        // A retry with the same key logs nothing more.
        let keyed = try json(try habitctl("--json", "relapse", "Smoking", "--key", "tap-1"))
        let again = try json(try habitctl("--json", "relapse", "Smoking", "--key", "tap-1"))
        XCTAssertEqual((keyed["entry"] as? [String: Any])?["id"] as? Int, (again["entry"] as? [String: Any])?["id"] as? Int)
        XCTAssertEqual((again["quit"] as? [String: Any])?["relapses"] as? Int, 2)
        XCTAssertSucceeded(try habitctl("undo", "--entry", String((keyed["entry"] as? [String: Any])?["id"] as? Int ?? 0)), "undo keyed")

        // Undo takes the relapse back like any entry.
        XCTAssertSucceeded(try habitctl("undo", "--entry", String(entry["id"] as? Int ?? 0)), "undo")
        let undone = try json(try habitctl("--json", "quit", "Smoking"))
        XCTAssertEqual((undone["quit"] as? [String: Any])?["relapses"] as? Int, 0)

        // today: a quit habit's row says whether the day is clean so far or how many relapses it holds.
        XCTAssertSucceeded(try habitctl("habit", "add", "Sugar", "--kind", "quit"), "add Sugar")
        XCTAssertSucceeded(try habitctl("relapse", "Smoking"), "relapse")
        XCTAssertSucceeded(try habitctl("relapse", "Smoking"), "relapse")
        let today = try habitctl("today")
        XCTAssertSucceeded(today, "today")
        XCTAssertTrue(today.stdout.contains("  [ ] Smoking  2 relapses\n"), today.stdout)
        XCTAssertTrue(today.stdout.contains("  [x] Sugar  clean so far"), today.stdout)

        // Mistakes: a relapse of a habit that is not quit, a quit status of one, a bad amount.
        XCTAssertSucceeded(try habitctl("habit", "add", "Read"), "add Read")
        for args in [["relapse", "Read"], ["quit", "Read"], ["relapse", "Smoking", "--amount", "-2"], ["quit", "Smoking", "--at-ms", "soon"]] {
            let result = try runProcess([Paths.habitctl, "--db", db] + args, environment: ["NO_COLOR": "1"])
            XCTAssertNotEqual(result.status, 0, "\(args)")
            XCTAssertFalse(result.stderr.isEmpty, "\(args)")
            XCTAssertTrue(result.stdout.isEmpty, "\(args): \(result.stdout)")
        }
    }
}
