import Foundation
import HabitCore
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
        // Called directly, or handed to a macro that calls it (HOSTILE_INIT).
        let missing = try HeaderContractTests.declaredFunctions().filter { !text.contains($0 + "(") && !text.contains($0 + ")") }
        XCTAssertEqual(missing.sorted(), [], "functions hostile.c does not call")
    }

    /// hc_verifier_register_v2 releases each user_data exactly once (replaced, removed,
    /// store closed), never on a failed registration, and never calls it after.
    func testVerifierUserDataIsReleasedExactlyOnce() throws {
        let dir = try temporaryDirectory()
        try compileC([sources + "/release.c"], output: dir + "/release")
        let result = try runProcess([dir + "/release", dir + "/release.db"])
        XCTAssertSucceeded(result, "release")
        XCTAssertEqual(result.stdout, "ok released 1 1 1 calls 1 1 1\n")
    }

    /// A call on a store from inside a callback it runs (verifier, release, export and
    /// import progress) is HC_E_MISUSE at once, never a deadlock (the program's alarm
    /// makes one a failure); a second handle works; another thread waits (Tests/c/reentry.c).
    func testCallsFromInsideCallbacksOnTheRunningHandleAreRefused() throws {
        let dir = try temporaryDirectory()
        try compileC([sources + "/reentry.c"], output: dir + "/reentry")
        let result = try runProcess([dir + "/reentry", dir])
        XCTAssertSucceeded(result, "reentry")
        XCTAssertTrue(result.stdout.hasPrefix("ok verifier 2 export "), result.stdout)
    }

    /// The header's one rule for caller buffers, on every call that takes one, and
    /// each hc_<struct>_init against its macro (Tests/c/buffers.c).
    func testEveryCallerBufferFollowsTheOneRule() throws {
        let dir = try temporaryDirectory()
        try compileC([sources + "/buffers.c"], output: dir + "/buffers")
        let result = try runProcess([dir + "/buffers", dir])
        XCTAssertSucceeded(result, "buffers")
        XCTAssertTrue(result.stdout.contains("every caller buffer follows the one rule"), result.stdout)
        // Every prototype with a capacity, and every initialiser, is walked there.
        let header = try String(contentsOfFile: Paths.header, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let prototype = try NSRegularExpression(pattern: #"\b(hc_[a-z0-9_]+)\(([^;]*)\);"#)
        let buffered = prototype.matches(in: header, range: NSRange(header.startIndex..., in: header)).compactMap { match -> String? in
            guard let name = Range(match.range(at: 1), in: header), let parameters = Range(match.range(at: 2), in: header),
                header[parameters].contains("capacity")
            else { return nil }
            return String(header[name])
        }
        XCTAssertGreaterThanOrEqual(buffered.count, 10)
        let walked = try String(contentsOfFile: sources + "/buffers.c", encoding: .utf8)
        let initialisers = try HeaderContractTests.declaredFunctions().filter { $0.hasSuffix("_init") }
        XCTAssertGreaterThanOrEqual(initialisers.count, 14)
        let missing = (buffered + initialisers).filter { !walked.contains($0) }
        XCTAssertEqual(missing.sorted(), [], "calls buffers.c does not walk")
    }

    /// Crash consistency: two processes write at once (entries, undos, step syncs, spends,
    /// proofs, award evaluations) and are SIGKILLed at random moments, 100 times; after
    /// each kill the store passes PRAGMA integrity_check, holds every write whose call
    /// returned HC_OK, its balance equals the fold of its credit ledger, and no award was
    /// unlocked or announced twice (Tests/c/crashloop.c).
    func testMixedWritersSurviveAHundredSIGKILLs() throws {
        let dir = try temporaryDirectory()
        try compileC([sources + "/crashloop.c"], output: dir + "/crashloop", extra: ["-lsqlite3"])
        let store = dir + "/crash.db"
        XCTAssertSucceeded(try runProcess([dir + "/crashloop", "setup", store]), "setup")
        let acks = [dir + "/acks-0.txt", dir + "/acks-1.txt"]
        for ack in acks { FileManager.default.createFile(atPath: ack, contents: nil) }
        var random = SplitMix(seed: 0xC4A5_410C)
        var summary = ""
        for round in 0..<100 {
            var writers: [(Process, String)] = []
            for (slot, ack) in acks.enumerated() {
                let writer = Process()
                writer.executableURL = URL(fileURLWithPath: dir + "/crashloop")
                writer.arguments = ["write", store, String(round * 2 + slot + 1)]
                let out = try XCTUnwrap(FileHandle(forWritingAtPath: ack))
                out.seekToEndOfFile()
                writer.standardOutput = out
                let errors = dir + "/errors-\(slot).txt"
                FileManager.default.createFile(atPath: errors, contents: nil)
                writer.standardError = try XCTUnwrap(FileHandle(forWritingAtPath: errors))
                try writer.run()
                writers.append((writer, errors))
            }
            // Kill at a random moment, the two writers apart.
            usleep(useconds_t(20_000 + random.below(180_000)))
            kill(writers[0].0.processIdentifier, SIGKILL)
            usleep(useconds_t(random.below(30_000)))
            kill(writers[1].0.processIdentifier, SIGKILL)
            for (writer, errors) in writers {
                writer.waitUntilExit()
                let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                XCTAssertEqual(writer.terminationReason, .uncaughtSignal, "round \(round): a writer stopped by itself: \(said)")
            }
            let verify = try runProcess([dir + "/crashloop", "verify", store] + acks)
            XCTAssertSucceeded(verify, "verify after round \(round)")
            summary = verify.stdout
            if verify.status != 0 { break }
        }
        // The writers did write: some of every kind was acknowledged over the rounds.
        let written = try acks.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
        for kind in ["E ", "U ", "C ", "P "] {
            XCTAssertTrue(written.contains("\n" + kind) || written.hasPrefix(kind), "no acknowledged '\(kind)' write: \(summary)")
        }
        XCTAssertTrue(summary.contains("lost 0") && summary.contains("breaches 0"), summary)
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
