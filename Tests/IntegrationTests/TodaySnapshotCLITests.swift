import Foundation
import XCTest

/// habitctl snapshot today: the file a widget reads, written from a read-only open.
final class TodaySnapshotCLITests: HabitctlTestCase {
    func testSnapshotTodayWritesTheFileFromAReadOnlyStore() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "Europe/Berlin"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Journal", "--start", "2026-01-01"), "add")
        // The store file read-only: the command only reads it.
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        let path = db + ".today.json"
        let written = try json(try habitctl("--json", "snapshot", "today", path, "--at", "2026-06-05T07:30"))
        XCTAssertEqual(written["path"] as? String, path)
        XCTAssertEqual(written["at"] as? String, "2026-06-05T05:30:00Z")
        let file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        XCTAssertEqual(file["format"] as? String, "habitcore-today")
        XCTAssertEqual((file["at_ms"] as? NSNumber)?.int64Value, 1_780_637_400_000)
        let today = try XCTUnwrap((file["days"] as? [[String: Any]])?.first)
        XCTAssertEqual(today["date"] as? String, "2026-06-05")
        XCTAssertEqual((today["habits"] as? [[String: Any]])?.map { $0["name"] as? String }, ["Journal"])
        XCTAssertEqual((file["now"] as? [String: Any])?["routine"] as? String, "morning")
        let wrong = try habitctl("snapshot", "tomorrow", path)
        XCTAssertEqual(wrong.status, 2, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("unknown snapshot subcommand"), wrong.stderr)
    }
}
