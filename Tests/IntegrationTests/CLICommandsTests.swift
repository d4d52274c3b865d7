import Foundation
import XCTest

/// habitctl's help as a command, the unlock session a spend opens, shield rules named
/// by name, and the one way every command shows an instant: local time with its offset
/// in text, UTC under --json.
final class CLICommandsTests: HabitctlTestCase {
    /// habitctl in a zone of the test's choosing (TZ), as a person's shell runs it.
    func habitctl(zone: String, _ args: String...) throws -> ProcessResult {
        try habitctl(zone: zone, args)
    }

    func testHelpCommandPrintsWhatHelpOptionPrints() throws {
        for words in [["log"], ["habit", "add"], ["credits"], ["shield"], ["reminders"], ["demo"]] {
            let asCommand = try runProcess([Paths.habitctl, "help"] + words)
            let asOption = try runProcess([Paths.habitctl] + words + ["--help"])
            XCTAssertSucceeded(asCommand, "help \(words)")
            XCTAssertEqual(asCommand.stdout, asOption.stdout, "help \(words.joined(separator: " "))")
            XCTAssertFalse(asCommand.stdout.isEmpty)
        }
        XCTAssertTrue(try runProcess([Paths.habitctl, "help", "shield"]).stdout.contains("habitctl shield emergency RULE"))
        XCTAssertEqual(try runProcess([Paths.habitctl, "help"]).stdout, try runProcess([Paths.habitctl, "--help"]).stdout)
        let unknown = try runProcess([Paths.habitctl, "help", "lgo"])
        XCTAssertEqual(unknown.status, 2, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("unknown command 'lgo'") && unknown.stderr.contains("log"), unknown.stderr)
        // The completions offer it like any command.
        XCTAssertTrue(try runProcess([Paths.habitctl, "completions", "bash"]).stdout.contains("help"))
    }

    func testSpendPrintsTheSessionThatEndTakes() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("credits", "sync-steps", "--steps", "6000"), "steps")
        let first = try json(try habitctl("--json", "credits", "spend", "10", "--reason", "games"))
        let session = try XCTUnwrap(first["session_id"] as? Int64, "\(first)")
        // A second spend queues a session of its own, after the first.
        let second = try habitctl("credits", "spend", "5")
        XCTAssertSucceeded(second, "spend")
        let secondSession = try XCTUnwrap(second.stdout.firstMatch(of: /unlock session (\d+)/).flatMap { Int64($0.1) }, second.stdout)
        XCTAssertNotEqual(secondSession, session)
        // Each id is what `credits end` takes: ending the queued one refunds all of it.
        let ended = try json(try habitctl("--json", "credits", "end", String(secondSession)))
        XCTAssertEqual(ended["refunded"] as? Int64, 5)
        XCTAssertEqual(try json(try habitctl("--json", "credits", "end", String(session)))["session_id"] as? Int64, session)
        // Without an unlock there is no session.
        let plain = try json(try habitctl("--json", "credits", "spend", "1", "--no-unlock"))
        XCTAssertTrue(plain["session_id"] is NSNull, "\(plain)")
    }

    func testShieldEmergencyTakesARuleIdOrName() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Journal", "--start", "2026-01-01"), "add")
        for name in ["Night", "Morning", "1"] {
            XCTAssertSucceeded(try habitctl("shield", "add", name, "--habits", "Journal", "--effective", "2026-01-01"), "shield add \(name)")
        }
        let byName = try json(try habitctl("--json", "shield", "emergency", "Morning", "--minutes", "5"))
        XCTAssertEqual(byName["rule_id"] as? Int64, 2)
        XCTAssertEqual(try json(try habitctl("--json", "shield", "emergency", "#1"))["rule_id"] as? Int64, 1)
        // "1" is rule #1 and the name of rule #3: refused, naming both.
        let ambiguous = try habitctl("shield", "emergency", "1")
        XCTAssertEqual(ambiguous.status, 4, ambiguous.stderr)
        XCTAssertTrue(ambiguous.stderr.contains("#1") && ambiguous.stderr.contains("#3"), ambiguous.stderr)
        let unknown = try habitctl("shield", "emergency", "Nigth")
        XCTAssertEqual(unknown.status, 3, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("Night"), "a near name is suggested: \(unknown.stderr)")
        XCTAssertEqual(try habitctl("shield", "emergency", "9").status, 3)
    }

    /// Shield, reminder and credit commands print each instant the same way: local time
    /// with its offset as text (+05:30 in Kolkata, no summer time), UTC under --json,
    /// and what they print is taken back as input.
    func testInstantsAreLocalWithOffsetInTextAndUTCInJSON() throws {
        let zone = "Asia/Kolkata"
        XCTAssertSucceeded(try habitctl(zone: zone, "init", "--timezone", zone), "init")
        XCTAssertSucceeded(try habitctl(zone: zone, "habit", "add", "Journal", "--start", "2026-01-01"), "add")
        XCTAssertSucceeded(
            try habitctl(
                zone: zone, "shield", "add", "Night", "--habits", "Journal", "--start", "21:00",
                "--effective", "2026-01-01"), "shield add")
        XCTAssertSucceeded(try habitctl(zone: zone, "reminders", "add", "Journal", "--at", "07:00"), "reminders add")
        XCTAssertSucceeded(try habitctl(zone: zone, "credits", "sync-steps", "--steps", "3000"), "steps")
        let local = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30/, utc = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/
        let commands: [[String]] = [
            ["shield", "state", "--at", "2026-06-05T22:00"], ["shield", "next", "--at", "2026-06-05T12:00"],
            ["reminders", "next"], ["credits", "spend", "10"], ["credits", "balance"],
        ]
        for command in commands {
            let text = try habitctl(zone: zone, command)
            XCTAssertSucceeded(text, command.joined(separator: " "))
            XCTAssertNotNil(text.stdout.firstMatch(of: local), "\(command): \(text.stdout)")
            XCTAssertNil(text.stdout.firstMatch(of: utc), "\(command): \(text.stdout)")
            let document = try habitctl(zone: zone, ["--json"] + command)
            XCTAssertSucceeded(document, "--json " + command.joined(separator: " "))
            XCTAssertNotNil(document.stdout.firstMatch(of: utc), "\(command): \(document.stdout)")
            XCTAssertNil(document.stdout.firstMatch(of: local), "\(command): \(document.stdout)")
        }
        // 22:00 in Kolkata is 16:30 UTC; the window closes at midnight, 18:30 UTC.
        let state = try habitctl(zone: zone, "shield", "state", "--at", "2026-06-05T22:00")
        XCTAssertTrue(state.stdout.contains("next change 2026-06-06T00:00:00+05:30"), state.stdout)
        let stateJSON = try json(try habitctl(zone: zone, "--json", "shield", "state", "--at", "2026-06-05T22:00"))
        XCTAssertEqual(stateJSON["at"] as? String, "2026-06-05T16:30:00Z")
        XCTAssertEqual((stateJSON["rules"] as? [[String: Any]])?.first?["next_change"] as? String, "2026-06-05T18:30:00Z")
        // A reminder's instant as `next` prints it is the AT that `fired` takes.
        let next = try habitctl(zone: zone, "reminders", "next", "--from", "2026-06-05T00:00Z", "--to", "2026-06-06T00:00Z")
        let at = try XCTUnwrap(next.stdout.firstMatch(of: local).map { String($0.0) }, next.stdout)
        XCTAssertEqual(at, "2026-06-05T07:00:00+05:30")
        XCTAssertSucceeded(try habitctl(zone: zone, "reminders", "fired", "1", "2026-06-05", at), "fired AT")
    }

    private func habitctl(zone: String, _ args: [String]) throws -> ProcessResult {
        try runProcess([Paths.habitctl, "--db", db] + args, environment: ["NO_COLOR": "1", "TZ": zone])
    }
}
