import CHabitCore
import Foundation
import XCTest

/// examples/c/hub_leaderboard.c, compiled against both headers and libraries and run
/// against the test server as the service role: it materialises each opted-in user's
/// store from the hub and ranks their streaks with the engine.
final class HubExampleTests: HubTestCase {
    /// Built and run as README.md's Install says: against the installed ~/.local, found
    /// through habitcore_hub.pc and LD_LIBRARY_PATH as its exports set them.
    func testLeaderboardRanksOptedInUsersFromTheHub() throws {
        let environment = try InstalledPrefix.environment()
        let program = dir + "/hub_leaderboard"
        let build = try XCTUnwrap(try ReadmeInstall.builds.first { $0.contains("hub_leaderboard") })
            .replacingOccurrences(of: "examples/", with: Paths.root + "/examples/")
        let compiled = try runProcess(["bash", "-c", "set -e\n" + build], environment: environment, currentDirectory: dir)
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        let strict = try runProcess(
            [
                "bash", "-c",
                "cc -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE '\(Paths.root)/examples/c/hub_leaderboard.c' "
                    + "$(pkg-config --cflags --libs habitcore_hub) -o /dev/null",
            ], environment: environment)
        XCTAssertEqual(strict.status, 0, strict.stderr)
        let linked = try runProcess(["ldd", program], environment: environment)
        XCTAssertTrue(linked.stdout.contains("libhabitcore_hub.so.1 => \(try InstalledPrefix.path())/lib/"), linked.stdout)

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
        let run = try runProcess([program, service, "2026-04-07", "bob", "alice"], environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "1 alice current 3 longest 3", run.stdout)
        XCTAssertEqual(lines.dropFirst().first, "2 bob current 1 longest 1", run.stdout)
        // A device role is not a service: acting for others reaches nothing.
        let asBob = try runProcess([program, try server.conninfo("bob", Self.passwords["bob"] ?? ""), "2026-04-07", "alice"], environment: environment)
        XCTAssertEqual(asBob.stdout, "1 alice current 0 longest 0\n", asBob.stderr)
    }
}
