import Foundation
import XCTest

/// habitctl run as a script runs it, on a store of the test's own, with JSON
/// read back as a document carrying schema_version 1.
class HabitctlTestCase: XCTestCase {
    var db = ""

    override func setUpWithError() throws {
        db = try temporaryDirectory() + "/cli.db"
    }

    @discardableResult
    func habitctl(_ args: String...) throws -> ProcessResult {
        try runProcess([Paths.habitctl, "--db", db] + args, environment: ["NO_COLOR": "1"])
    }

    /// The document a --json command printed; the command must have succeeded.
    func json(_ result: ProcessResult) throws -> [String: Any] {
        XCTAssertSucceeded(result, "habitctl")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let document = try XCTUnwrap(object, result.stdout)
        XCTAssertEqual(document["schema_version"] as? Int, 1)
        return document
    }
}
