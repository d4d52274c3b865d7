import Foundation
import XCTest

/// The credit commands from the shell: credits end refunds and refuses a second end.
final class CreditCLITests: HabitctlTestCase {
    func testCreditsEndRefundsAndRefusesASecondEnd() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "UTC"), "init")
        XCTAssertSucceeded(try habitctl("credits", "sync-steps", "--steps", "3000"), "sync")
        let spent = try json(try habitctl("--json", "credits", "spend", "10"))
        let session = try XCTUnwrap(spent["running_session_id"] as? Int)
        let ended = try json(try habitctl("--json", "credits", "end", String(session)))
        XCTAssertEqual(ended["refunded"] as? Int, 10, "ended at once: all ten minutes back")
        XCTAssertEqual(ended["unlocked"] as? Bool, false)
        let again = try habitctl("credits", "end", String(session))
        XCTAssertEqual(again.status, 4, again.stderr)
        XCTAssertTrue(again.stderr.contains("already been ended"), again.stderr)
        XCTAssertEqual(try habitctl("credits", "end", "99").status, 3)
        let day = try json(try habitctl("--json", "credits", "day"))
        XCTAssertEqual(day["refunded"] as? Int, 10)
        XCTAssertEqual(day["available"] as? Int, 30)
    }
}
