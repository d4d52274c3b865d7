import Foundation
import XCTest

/// habitctl timer: start, pause, resume, stop and status from the shell, human and --json.
final class TimerCLITests: HabitctlTestCase {
    func testATimerStartedPausedResumedAndStoppedCountsToItsDay() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "UTC"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Piano", "--kind", "duration", "--target", "600", "--start", "2026-01-01"), "add")
        let t0: Int64 = 1_780_000_000_000
        let started = try json(try habitctl("--json", "timer", "start", "Piano", "--at-ms", String(t0)))
        let timer = try XCTUnwrap(started["timer"] as? [String: Any])
        let id = try XCTUnwrap(timer["id"] as? Int)
        XCTAssertEqual(timer["state"] as? String, "running")
        XCTAssertEqual(timer["started_at_ms"] as? Int64 ?? (timer["started_at_ms"] as? NSNumber)?.int64Value, t0)
        XCTAssertSucceeded(try habitctl("timer", "pause", "Piano", "--at-ms", String(t0 + 300_000)), "pause by habit name")
        let paused = try json(try habitctl("--json", "timer", "status", String(id), "--at-ms", String(t0 + 400_000)))
        XCTAssertEqual((paused["timer"] as? [String: Any])?["state"] as? String, "paused")
        XCTAssertEqual((paused["timer"] as? [String: Any])?["elapsed_ms"] as? Int, 300_000)
        XCTAssertSucceeded(try habitctl("timer", "resume", "#\(id)", "--at-ms", String(t0 + 600_000)), "resume by id")
        let listed = try json(try habitctl("--json", "timer", "status", "--at-ms", String(t0 + 700_000)))
        XCTAssertEqual((listed["timers"] as? [[String: Any]])?.map { $0["elapsed_ms"] as? Int }, [400_000])
        let stopped = try json(try habitctl("--json", "timer", "stop", String(id), "--at-ms", String(t0 + 1_200_000)))
        let done = try XCTUnwrap(stopped["timer"] as? [String: Any])
        XCTAssertEqual(done["state"] as? String, "stopped")
        XCTAssertEqual(done["seconds"] as? Int, 900)
        let date = try XCTUnwrap(done["date"] as? String)
        let days = try habitctl("days", "Piano", "--from", date, "--to", date)
        XCTAssertSucceeded(days, "days")
        XCTAssertTrue(days.stdout.contains("done     15:00"), days.stdout)
        let human = try habitctl("timer", "status", String(id))
        XCTAssertTrue(human.stdout.contains("timer #\(id) Piano: stopped 0:15:00, 900 s counted to \(date)"), human.stdout)
        XCTAssertTrue(try habitctl("timer", "status").stdout.contains("no timer running"))

        // Mistakes: a second stop, a timer on a checkmark habit, a habit with no timer, an unknown id.
        XCTAssertSucceeded(try habitctl("habit", "add", "Floss"), "add Floss")
        for args in [
            ["timer", "stop", String(id)], ["timer", "start", "Floss"], ["timer", "stop", "Piano"], ["timer", "status", "999"], ["timer", "wind"],
        ] {
            let result = try runProcess([Paths.habitctl, "--db", db] + args, environment: ["NO_COLOR": "1"])
            XCTAssertNotEqual(result.status, 0, "\(args)")
            XCTAssertFalse(result.stderr.isEmpty, "\(args)")
            XCTAssertTrue(result.stdout.isEmpty, "\(args): \(result.stdout)")
        }
    }
}
