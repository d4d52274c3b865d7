import Foundation
import XCTest

/// The built library, driven by C programs: hostile input, crashes, contention.
final class CLibraryTests: XCTestCase {
    let sources = Paths.root + "/Tests/c"

    func testEveryExportSurvivesHostileInput() throws {
        let dir = try temporaryDirectory()
        try compileC([sources + "/hostile.c"], output: dir + "/hostile", extra: ["-lm"])
        let result = try runProcess([dir + "/hostile", dir])
        XCTAssertSucceeded(result, "hostile")
        XCTAssertTrue(result.stdout.contains("all hostile-input checks passed"))
        // Every function the header declares is exercised there.
        let text = try String(contentsOfFile: sources + "/hostile.c", encoding: .utf8)
        let missing = try HeaderContractTests.declaredFunctions().filter { !text.contains($0 + "(") }
        XCTAssertEqual(missing.sorted(), [], "functions hostile.c does not call")
    }

    func testSigkillDuringAppendsLosesNoAcknowledgedEntry() throws {
        let dir = try temporaryDirectory()
        try compileC([sources + "/writer.c"], output: dir + "/writer")
        let store = dir + "/durable.db", ids = dir + "/ids.txt"
        FileManager.default.createFile(atPath: ids, contents: nil)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: dir + "/writer")
        writer.arguments = ["append", store]
        writer.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: ids))
        try writer.run()
        // Let it write a while, then kill it mid-append.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: ids)[.size] as? Int) ?? 0
            if size > 20_000 { break }
            usleep(20_000)
        }
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        XCTAssertEqual(writer.terminationReason, .uncaughtSignal)
        // Only whole lines count as acknowledged.
        var text = try String(contentsOfFile: ids, encoding: .utf8)
        if !text.hasSuffix("\n"), let cut = text.lastIndex(of: "\n") { text = String(text[...cut]) }
        try text.write(toFile: ids, atomically: true, encoding: .utf8)
        let verify = try runProcess([dir + "/writer", "verify", store, ids])
        XCTAssertSucceeded(verify, "verify")
        XCTAssertTrue(verify.stdout.contains("lost 0"), verify.stdout)
        let integrity = try runProcess(["sqlite3", store, "PRAGMA integrity_check"])
        XCTAssertEqual(integrity.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "ok")
    }

    func testThreadsAndProcessesAppendWithoutBusyErrors() throws {
        let dir = try temporaryDirectory()
        try compileC([sources + "/contention.c"], output: dir + "/contention")
        let store = dir + "/shared.db"
        // Create the file first so both processes race on appends, not on creation.
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", store, "init"]), "init")
        let second = Process()
        second.executableURL = URL(fileURLWithPath: dir + "/contention")
        second.arguments = [store, "second", "4", "150"]
        second.environment = ["SWIFT_BACKTRACE": "enable=no"]
        try second.run()
        let first = try runProcess([dir + "/contention", store, "first", "4", "150"])
        second.waitUntilExit()
        XCTAssertSucceeded(first, "first process")
        XCTAssertEqual(second.terminationStatus, 0, "second process")
        let integrity = try runProcess(["sqlite3", store, "PRAGMA integrity_check"])
        XCTAssertEqual(integrity.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "ok")
    }
}
