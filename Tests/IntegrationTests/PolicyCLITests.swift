import Foundation
import XCTest

/// The streak policy and routine commands from the shell: streak rules per habit and
/// for the store, today --at with the current routine first.
final class PolicyCLITests: XCTestCase {
    var db = ""

    override func setUpWithError() throws {
        db = try temporaryDirectory() + "/rules.db"
    }

    @discardableResult
    func habitctl(_ args: String..., stdin: String? = nil) throws -> ProcessResult {
        try runProcess([Paths.habitctl, "--db", db] + args, environment: ["NO_COLOR": "1"], stdin: stdin)
    }

    func json(_ result: ProcessResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(object, result.stdout + result.stderr)
    }

    func testStreakRulesPerHabitAndForTheStore() throws {
        let store = try json(try habitctl("--json", "init", "--timezone", "UTC", "--off-days", "break"))
        XCTAssertEqual((store["streaks"] as? [String: Any])?["off_days"] as? String, "break")
        let added = try json(
            try habitctl(
                "--json", "habit", "add", "Read", "--start", "2026-03-01", "--miss-allowance", "1",
                "--open-day", "zero"))
        let policy = try XCTUnwrap(added["streak_policy"] as? [String: Any])
        XCTAssertEqual(policy["miss_allowance"] as? Int, 1)
        XCTAssertEqual(policy["open_day"] as? String, "zero")
        for date in 1...9 where date != 8 { XCTAssertSucceeded(try habitctl("log", "Read", "--date", String(format: "2026-03-%02d", date)), "log") }
        let streak = try json(try habitctl("--json", "streak", "Read", "--date", "2026-03-10"))
        let current = try XCTUnwrap((streak["streaks"] as? [String: Any])?["current"] as? [String: Any])
        XCTAssertEqual(current["length"] as? Int, 8, "Mar 8 and today forgiven, each alone")

        XCTAssertSucceeded(try habitctl("habit", "edit", "Read", "--miss-allowance", "store"), "edit")
        let edited = try json(try habitctl("--json", "habit", "show", "Read"))
        XCTAssertEqual((edited["streak_policy"] as? [String: Any])?["miss_allowance"] as? Int, 0)
        XCTAssertEqual((edited["streak_policy"] as? [String: Any])?["own_miss_allowance"] as? Bool, false)
        XCTAssertEqual((edited["streak_policy"] as? [String: Any])?["own_open_day"] as? Bool, true)
        let human = try habitctl("habit", "show", "Read")
        XCTAssertTrue(human.stdout.contains("streaks: miss allowance 0, open day zero"), human.stdout)

        for (args, code) in [
            (["habit", "edit", "Read", "--miss-allowance", "32"], Int32(5)), (["habit", "edit", "Read", "--open-day", "never"], 2),
            (["init", "--off-days", "sometimes"], 2), (["habit", "add", "X", "--miss-allowance", "many"], 2),
        ] {
            let result = try runProcess([Paths.habitctl, "--db", db] + args)
            XCTAssertEqual(result.status, code, "\(args): \(result.stderr)")
        }
        XCTAssertEqual(try json(try habitctl("--json", "habit", "list"))["habits"].map { ($0 as? [Any])?.count }, 1, "the refused add wrote nothing")

        // Export carries the rules; a new store takes them.
        let exported = try habitctl("export")
        let copy = db + ".copy"
        let imported = try runProcess([Paths.habitctl, "--db", copy, "import", "-"], stdin: exported.stdout)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let copied = try json(try runProcess([Paths.habitctl, "--db", copy, "--json", "habit", "show", "Read"]))
        XCTAssertEqual((copied["streak_policy"] as? [String: Any])?["open_day"] as? String, "zero")
        let copiedStore = try json(try runProcess([Paths.habitctl, "--db", copy, "--json", "init"]))
        XCTAssertEqual((copiedStore["streaks"] as? [String: Any])?["off_days"] as? String, "break")
    }

    func testTodayListsTheCurrentRoutineFirst() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "UTC"), "init")
        for (name, routine) in [("Run", "morning"), ("Lunch walk", "day"), ("Read", "evening"), ("Water", "anytime")] {
            XCTAssertSucceeded(try habitctl("habit", "add", name, "--routine", routine, "--start", "2026-03-01"), "add")
        }
        let rows: [(at: String, order: [String])] = [
            ("2026-03-10T06:00Z", ["Run", "Lunch walk", "Read", "Water"]),
            ("2026-03-10T12:00Z", ["Lunch walk", "Run", "Read", "Water"]),
            ("2026-03-10T19:00Z", ["Read", "Run", "Lunch walk", "Water"]),
            ("2026-03-10T00:30Z", ["Read", "Run", "Lunch walk", "Water"]),
        ]
        for row in rows {
            let today = try json(try habitctl("--json", "today", "--at", row.at))
            XCTAssertEqual(today["date"] as? String, "2026-03-10")
            XCTAssertEqual((today["due"] as? [[String: Any]])?.map { $0["name"] as? String ?? "" }, row.order, row.at)
        }
        let human = try habitctl("today", "--date", "2026-03-10", "--at", "12:00")
        XCTAssertTrue(human.stdout.hasPrefix("due on 2026-03-10\nday (now)\n  [ ] Lunch walk\nmorning"), human.stdout)
        XCTAssertEqual(try habitctl("today", "--at", "25:00").status, 5)
    }
}
