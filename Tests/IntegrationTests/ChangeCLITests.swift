import Foundation
import XCTest

/// `habitctl changes` and `--follow` as a pipe into a notifier sees them: one process
/// writes while another follows; every change arrives once and in order, and a new
/// follower resumes from a cursor.
final class ChangeCLITests: HabitctlTestCase {
    /// A habitctl left running, its stdout read line by line as it comes.
    private final class Follower {
        let process = Process()
        private let lines = Locked<[String]>([])
        private let pending = Locked<String>("")

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: Paths.habitctl)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            pipe.fileHandleForReading.readabilityHandler = { [lines, pending] handle in
                let text = String(decoding: handle.availableData, as: UTF8.self)
                pending.update { buffer in
                    buffer += text
                    while let newline = buffer.firstIndex(of: "\n") {
                        let line = String(buffer[..<newline])
                        lines.update { $0.append(line) }
                        buffer.removeSubrange(...newline)
                    }
                }
            }
            try process.run()
        }

        /// The JSON lines printed so far, once at least count arrived (or 10 s passed).
        func objects(atLeast count: Int) -> [[String: Any]] {
            let deadline = Date().addingTimeInterval(10)
            while lines.value.count < count && Date() < deadline { usleep(5_000) }
            return lines.value.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        /// Ends it as a shell's kill does; gives how it ended.
        func terminate() -> (Process.TerminationReason, Int32) {
            process.terminate()
            process.waitUntilExit()
            return (process.terminationReason, process.terminationStatus)
        }
    }

    func testFollowersSeeEveryChangeOnceInOrderAndResumeFromACursor() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "UTC"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Walk"), "add")
        let start = try XCTUnwrap(try json(try habitctl("--json", "changes"))["cursor"] as? Int)
        let follower = try Follower(["--db", db, "changes", "--follow", "--after", "\(start)"])
        defer { if follower.process.isRunning { _ = follower.terminate() } }
        let events = try Follower(["--db", db, "events", "--follow"])
        defer { if events.process.isRunning { _ = events.terminate() } }

        // The writer: another process per entry, some idle time between.
        let dates = (1...12).map { String(format: "2026-03-%02d", $0) }
        for (index, date) in dates.enumerated() {
            XCTAssertSucceeded(try habitctl("log", "Walk", "--date", date), "log \(date)")
            if index % 4 == 0 { usleep(150_000) }
        }
        let entries = follower.objects(atLeast: dates.count).filter { $0["area"] as? String == "entry" }
        XCTAssertEqual(entries.map { $0["first_date"] as? String }, dates, "every entry once, in order")
        let revisions = follower.objects(atLeast: 0).compactMap { $0["revision"] as? Int }
        XCTAssertEqual(revisions, Array(Set(revisions)).sorted(), "revisions only grow: no change twice")
        XCTAssertTrue(follower.objects(atLeast: 0).allSatisfy { $0["schema_version"] as? Int == 1 })
        XCTAssertTrue(follower.process.isRunning, "a follower keeps following")
        let (reason, status) = follower.terminate()
        XCTAssertEqual(reason, .uncaughtSignal, "SIGTERM ends it")
        XCTAssertEqual(status, SIGTERM)

        // Resuming after the sixth entry's revision prints the rest, each once.
        let sixth = try XCTUnwrap(entries[5]["revision"] as? Int)
        let resumed = try Follower(["--db", db, "changes", "--follow", "--after", "\(sixth)"])
        defer { if resumed.process.isRunning { _ = resumed.terminate() } }
        XCTAssertSucceeded(try habitctl("log", "Walk", "--date", "2026-03-20"), "log after resuming")
        let rest = resumed.objects(atLeast: 7).filter { $0["area"] as? String == "entry" }.map { $0["first_date"] as? String }
        XCTAssertEqual(rest, Array(dates[6...]) + ["2026-03-20"])

        // The events follower heard the target days (today and yesterday are the ones
        // that raise target events) and the first award, each once.
        let ids = events.objects(atLeast: 1).compactMap { $0["id"] as? Int }
        XCTAssertFalse(ids.isEmpty)
        XCTAssertEqual(ids, Array(Set(ids)).sorted(), "each event once, in order")
    }

    func testChangesListsAndFollowsItsPipeUntilItCloses() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "UTC"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Walk"), "add")
        XCTAssertSucceeded(try habitctl("log", "Walk", "--date", "2026-03-01"), "log")
        XCTAssertSucceeded(try habitctl("log", "Walk", "--date", "2026-03-02"), "log")
        let listed = try json(try habitctl("--json", "changes", "--merged"))
        let rows = try XCTUnwrap(listed["changes"] as? [[String: Any]])
        let entryRows = rows.filter { $0["area"] as? String == "entry" }
        XCTAssertEqual(entryRows.count, 1, "merged: the two touching days are one change")
        XCTAssertEqual(entryRows.first?["first_date"] as? String, "2026-03-01")
        XCTAssertEqual(entryRows.first?["last_date"] as? String, "2026-03-02")
        XCTAssertEqual(listed["cursor"] as? Int, rows.compactMap { $0["revision"] as? Int }.max())
        XCTAssertTrue(try habitctl("changes").stdout.contains("entry habit 1 2026-03-02"))
        let bad = try habitctl("changes", "--after", "x")
        XCTAssertNotEqual(bad.status, 0)

        // `| head -1`: the follower ends by SIGPIPE when its reader has gone.
        let piped = try runProcess(["/bin/sh", "-c", "'\(Paths.habitctl)' --db '\(db)' changes --follow | head -1"])
        XCTAssertSucceeded(piped, "follow | head")
        XCTAssertEqual(piped.stdout.split(separator: "\n").count, 1)
    }
}
