import CHabitCore
import Foundation
import XCTest

/// examples/c/hub_leaderboard.c, compiled against both headers and libraries and run
/// against the test server as the service role: it materialises each opted-in user's
/// store from the hub and ranks their streaks with the engine.
final class HubExampleTests: HubTestCase {
    func testLeaderboardRanksOptedInUsersFromTheHub() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        var build = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: build.path + "/libhabitcore_hub.so"), build.path != "/" { build = build.deletingLastPathComponent() }
        let program = dir + "/hub_leaderboard"
        let compiled = try runProcess(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-D_DEFAULT_SOURCE", "-I", root + "/include",
                                       root + "/examples/c/hub_leaderboard.c", "-o", program, "-L", build.path,
                                       "-lhabitcore_hub", "-lhabitcore", "-Wl,-rpath," + build.path])
        XCTAssertEqual(compiled.status, 0, compiled.stderr)

        for (user, days) in [("alice", 3), ("bob", 1)] {
            let store = try open("\(user)-phone.db")
            let device = try hub(user)
            let habit = createHabit(store, "\(user)-walk")
            for day in 0..<days { markDone(store, habit, "2026-04-0\(8 - days + day)") }
            sync(device, store)
            _ = hc_hub_close(device)
            _ = hc_store_close(store)
        }
        let service = try server.conninfo("app", Self.passwords["app"] ?? "")
        let run = try runProcess([program, service, "2026-04-07", "bob", "alice"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "1 alice current 3 longest 3", run.stdout)
        XCTAssertEqual(lines.dropFirst().first, "2 bob current 1 longest 1", run.stdout)
        // A device role is not a service: acting for others reaches nothing.
        let asBob = try runProcess([program, try server.conninfo("bob", Self.passwords["bob"] ?? ""), "2026-04-07", "alice"])
        XCTAssertEqual(asBob.stdout, "1 alice current 0 longest 0\n", asBob.stderr)
    }
}
