import Foundation
import XCTest

/// habitctl shield as a shell script sees it: rules, the state at a local time
/// across the Friday-night window, the next changes across Berlin's spring gap,
/// emergency unlocks past the budget, the snapshot file, and bad input refused
/// with its exit code and nothing written.
final class ShieldCLITests: HabitctlTestCase {
    func testRulesStateNextEmergencyAndSnapshot() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "Europe/Berlin"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Journal", "--start", "2026-01-01"), "add")
        let added = try json(
            try habitctl(
                "--json", "shield", "add", "Night", "--habits", "Journal", "--start", "21:00", "--cutoff", "05:00",
                "--days", "days:fri", "--budget", "1/week", "--effective", "2026-01-01"))
        let rule = try XCTUnwrap(added["rule"] as? [String: Any])
        XCTAssertEqual(rule["days"] as? String, "days:fri")
        XCTAssertEqual(rule["emergency_budget"] as? String, "1/week")
        // Saturday 00:30 is inside Friday's window.
        let saturday = try json(try habitctl("--json", "shield", "state", "--at", "2026-06-06T00:30"))
        let state = try XCTUnwrap((saturday["rules"] as? [[String: Any]])?.first)
        XCTAssertEqual(state["shielded"] as? Bool, true)
        XCTAssertEqual(state["reason"] as? String, "window_open")
        XCTAssertEqual(state["next_change"] as? String, "2026-06-06T03:00:00Z", "05:00 CEST")
        let sunday = try json(try habitctl("--json", "shield", "state", "--at", "2026-06-07T00:30"))
        XCTAssertEqual((sunday["rules"] as? [[String: Any]])?.first?["shielded"] as? Bool, false)
        // A window starting 02:30 on the night of the spring change: read 03:30, flagged.
        XCTAssertSucceeded(
            try habitctl(
                "shield", "add", "Early", "--habits", "Journal", "--start", "02:30", "--cutoff", "06:00",
                "--effective", "2026-01-01"), "add early")
        let next = try json(try habitctl("--json", "shield", "next", "--at", "2026-03-29T00:00", "--hours", "12"))
        let changes = try XCTUnwrap(next["transitions"] as? [[String: Any]])
        XCTAssertEqual(changes.first?["local"] as? String, "2026-03-29T03:30")
        XCTAssertEqual(changes.first?["moved"] as? [String], ["gap"])
        XCTAssertEqual(changes.first?["at"] as? String, "2026-03-29T01:30:00Z")
        // The budget: one a week, the second refused with exit 7.
        XCTAssertSucceeded(try habitctl("shield", "emergency", "1", "--minutes", "10", "--reason", "call"), "emergency")
        let refused = try habitctl("shield", "emergency", "1")
        XCTAssertEqual(refused.status, 7, refused.stderr)
        // The snapshot file, written atomically, with the revision.
        let path = db + ".shields.json"
        let written = try json(try habitctl("--json", "shield", "snapshot", path))
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        XCTAssertEqual(file?["format"] as? String, "habitcore-shields")
        XCTAssertEqual(file?["revision"] as? Int64, written["revision"] as? Int64)
        XCTAssertEqual((file?["rules"] as? [[String: Any]])?.count, 2)
        let listed = try json(try habitctl("--json", "shield", "list"))
        XCTAssertEqual((listed["rules"] as? [[String: Any]])?.count, 2)
    }

    func testBadInputIsRefusedAndWritesNothing() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Journal"), "add")
        let cases: [([String], Int32)] = [
            (["--habits", "Nobody"], 3),  // an unknown habit
            (["--habits", "Journal", "--start", "25:00"], 5),  // 25:00
            (["--habits", ","], 5),  // an empty list
            (["--habits", "Journal", "--budget", "-1/week"], 5),  // a negative budget
            (["--habits", "Journal", "--start", "09:00", "--cutoff", "09:00"], 5),  // start == end
            (["--habits", "Journal", "--days", "weekly:3"], 5),  // a quota is not a set of days
        ]
        for (extra, code) in cases {
            let result = try runProcess([Paths.habitctl, "--db", db, "shield", "add", "Bad"] + extra)
            XCTAssertEqual(result.status, code, "\(extra): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty, "\(extra): a message says why")
        }
        let listed = try json(try habitctl("--json", "shield", "list"))
        XCTAssertEqual((listed["rules"] as? [[String: Any]])?.count, 0, "nothing was written")
        XCTAssertEqual(try habitctl("shield", "emergency", "9").status, 3)
        XCTAssertEqual(try habitctl("shield", "state", "--at", "yesterday").status, 5)
    }
}
