import Foundation
import HabitHub
import XCTest

/// habitctl hub, the real binary (which loads libhabitcore_hub.so.1 from beside it):
/// an admin adds a user, two of the user's stores sync through the hub.
final class HubCLITests: HubTestCase {
    var habitctl: String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.path + "/habitctl"), dir.path != "/" { dir = dir.deletingLastPathComponent() }
        return dir.path + "/habitctl"
    }

    func testAdminAddsAUserWhoseStoresSyncThroughTheHub() throws {
        let server = try server
        let added = try runProcess([habitctl, "hub", "user", "add", "carol", "--hub", server.adminConninfo], stdin: "carol-pw\n")
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try runProcess([habitctl, "hub", "user", "add", "carol", "--hub", server.adminConninfo], stdin: "x\n").status, 4, "exists: conflict")
        let hub = server.conninfo("carol", "carol-pw")
        let initAgain = try runProcess([habitctl, "--json", "hub", "init", "--hub", server.adminConninfo])
        XCTAssertTrue(initAgain.stdout.contains("\"hub_schema_version\":\(HubSchema.version)"), initAgain.stdout + initAgain.stderr)
        let first = dir + "/first.db", second = dir + "/second.db"
        XCTAssertEqual(try runProcess([habitctl, "--db", first, "habit", "add", "Read"]).status, 0)
        XCTAssertEqual(try runProcess([habitctl, "--db", first, "log", "Read"]).status, 0)
        let pushed = try runProcess([habitctl, "--db", first, "--json", "hub", "sync"], environment: ["HABITCORE_HUB": hub])
        XCTAssertEqual(pushed.status, 0, pushed.stderr)
        XCTAssertTrue(pushed.stdout.contains("\"pulled\":0"), pushed.stdout)
        let pulled = try runProcess([habitctl, "--db", second, "hub", "sync", "--hub", hub])
        XCTAssertEqual(pulled.status, 0, pulled.stderr)
        XCTAssertTrue(pulled.stdout.hasPrefix("pushed 0 records, pulled "), pulled.stdout)
        let list = try runProcess([habitctl, "--db", second, "habit", "list"])
        XCTAssertTrue(list.stdout.contains("Read"), list.stdout)
        let status = try runProcess([habitctl, "--json", "hub", "status", "--hub", hub])
        XCTAssertTrue(status.stdout.contains("\"replicas\":1"), status.stdout + status.stderr)
        let refused = try runProcess([habitctl, "hub", "user", "add", "dave", "--hub", hub], stdin: "pw\n")
        XCTAssertEqual(refused.status, 6, "a device role cannot create roles: \(refused.stderr)")
        XCTAssertEqual(try runProcess([habitctl, "hub", "status"], environment: ["HABITCORE_HUB": ""]).status, 2, "no hub given")
    }
}
