import CHabitCore
import Foundation
import XCTest

/// Shared-object plugins run isolated in habitcore-plugin-runner: real .so files built
/// from C that crash, abort and hang, the host (this test process, and habitctl) going on.
final class PluginIsolationTests: ProofTestCase {
    /// A plugin whose verify does what `body` says, built with cc.
    func buildPlugin(_ id: String, verify body: String) throws -> String {
        let source = dir + "/\(id).c", output = dir + "/\(id).so"
        try """
        #include <habitcore_plugin.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        #include <stdio.h>
        static int32_t verify(const hc_plugin_evidence *evidence, hc_plugin_verdict *out, void *user_data) {
            (void)user_data; (void)evidence; (void)out;
            \(body)
        }
        /* The runner destroys the plugin after its verify: leave a mark to show it. */
        static void destroy(void *user_data) {
            (void)user_data;
            FILE *mark = fopen("\(dir)/\(id).destroyed", "a");
            if (mark) { fputs("destroyed\\n", mark); fclose(mark); }
        }
        const hc_plugin hc_plugin_entry = { HC_PLUGIN_ABI_VERSION, 0, "\(id)", "1.0", "a test plugin", 0, verify, destroy };
        """.write(toFile: source, atomically: true, encoding: .utf8)
        XCTAssertSucceeded(try runProcess(["cc", "-shared", "-fPIC", "-std=c99", "-I", Paths.include, source, "-o", output]), "build \(id)")
        return output
    }

    static let crashes = "volatile int *nothing = NULL; return *nothing;"

    func firstVerdict(_ proofId: Int64) -> (reason: String, message: String, outcome: Int32)? {
        var list: OpaquePointer?
        ok(hc_verdict_list_open(&list, store, 0, proofId))
        defer { hc_verdict_list_free(list) }
        var verdict: UnsafePointer<hc_verdict>?
        guard hc_verdict_list_get(&verdict, list, 0) == HC_OK, let v = verdict?.pointee else { return nil }
        return (String(cString: v.reason_code), String(cString: v.message), v.outcome)
    }

    func testACrashAnAbortAndAHangInIsolatedPluginsAreErrorVerdictsNamingTheSignal() throws {
        let cases: [(id: String, body: String, reason: String, named: String)] = [
            ("segv", Self.crashes, "crashed", "SIGSEGV"),
            ("aborts", "abort();", "crashed", "SIGABRT"),
            ("hangs", "for (;;) sleep(1);", "timeout", "killed"),
        ]
        let photos = ["bed-morning.jpg", "bed-evening.jpg", "bed.png"]
        for (plugin, photo) in zip(cases, photos) {
            ok(addPlugin(HC_PLUGIN_SHARED_OBJECT, try buildPlugin(plugin.id, verify: plugin.body), timeoutMs: 1500))
            let habit = createHabit(store, "Habit " + plugin.id, start: date(today))
            policy(habit, plugin.id)
            let result = submit(habit, photo)
            XCTAssertEqual(result.outcome, HC_OUTCOME_ERROR, plugin.id)
            XCTAssertEqual(result.entryId, 0, plugin.id)
            let verdict = try XCTUnwrap(firstVerdict(result.proofId), plugin.id)
            XCTAssertEqual(verdict.reason, plugin.reason, plugin.id)
            XCTAssertTrue(verdict.message.contains(plugin.named), "\(plugin.id): \(verdict.message)")
            XCTAssertEqual(verdict.outcome, HC_OUTCOME_ERROR)
        }
        // And the host is still here and the store still works.
        let habit = createHabit(store, "After the crashes", start: date(today))
        append(store, habit)
        XCTAssertEqual(currentStreak(habit), 1)
    }

    func testIsolatedAndInProcessSharedObjectsJudgeAlikeAndTheListSaysWhichIsWhich() throws {
        let approves = "out->outcome = HC_OUTCOME_APPROVED; out->confidence = 0.9; strcpy(out->reason_code, \"looks_fine\"); return 0;"
        let isolated = try buildPlugin("approves", verify: approves)
        ok(addPlugin(HC_PLUGIN_SHARED_OBJECT, isolated))
        ok(addPlugin(HC_PLUGIN_SHARED_OBJECT_IN_PROCESS, try buildPlugin("approves-here", verify: approves)))
        XCTAssertEqual(addPlugin(HC_PLUGIN_SHARED_OBJECT_IN_PROCESS, isolated, timeoutMs: 100), HC_E_INVALID, "in-process takes no timeout")
        var json: UnsafeMutablePointer<CChar>?
        ok(hc_plugin_list_json(&json, store))
        let list = json.map { String(cString: $0) } ?? ""
        hc_free(json)
        XCTAssertTrue(list.contains("\"id\":\"approves\",\"kind\":\"shared_object\""), list)
        XCTAssertTrue(list.contains("\"id\":\"approves-here\",\"kind\":\"shared_object_in_process\""), list)
        for id in ["approves", "approves-here"] {
            let habit = createHabit(store, "Habit " + id, start: date(today))
            policy(habit, id)
            let result = submit(habit, id == "approves" ? "bed-morning.jpg" : "bed-evening.jpg")
            XCTAssertEqual(result.outcome, HC_OUTCOME_APPROVED, "\(id): \(result.message)")
            XCTAssertEqual(firstVerdict(result.proofId)?.reason, "looks_fine", id)
        }
        // The runner destroys the isolated plugin after each run (describe at add, then
        // verify); the host keeps the in-process one for its whole life.
        let marks = (try? String(contentsOfFile: dir + "/approves.destroyed", encoding: .utf8)) ?? ""
        XCTAssertEqual(marks.components(separatedBy: "destroyed").count - 1, 2, marks)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/approves-here.destroyed"))
    }

    func testAMissingRunnerIsNamedWhenRegisteringAnIsolatedPlugin() throws {
        let plugin = try buildPlugin("lonely", verify: "return 0;")
        setenv("HABITCORE_PLUGIN_RUNNER", dir + "/no-such-runner", 1)
        defer { unsetenv("HABITCORE_PLUGIN_RUNNER") }
        XCTAssertNotEqual(addPlugin(HC_PLUGIN_SHARED_OBJECT, plugin), HC_OK)
        XCTAssertTrue(String(cString: hc_store_errmsg(store)).contains("no-such-runner"), String(cString: hc_store_errmsg(store)))
    }

    /// The report, through habitctl: exit 3 (an error verdict), SIGSEGV named, the proof listed.
    func testHabitctlSurvivesACrashingPluginAndListsTheProof() throws {
        let db = dir + "/cli.db"
        func habitctl(_ args: String...) throws -> ProcessResult {
            try runProcess([Paths.habitctl, "--db", db] + args, environment: ["NO_COLOR": "1"])
        }
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Make the bed"), "habit add")
        XCTAssertSucceeded(try habitctl("plugin", "add", "--so", try buildPlugin("segv", verify: Self.crashes)), "plugin add")
        XCTAssertSucceeded(try habitctl("proof", "policy", "Make the bed", "--verifiers", "segv"), "policy")
        let submitted = try habitctl("--json", "proof", "submit", "Make the bed", Self.fixtures + "/bed-morning.jpg")
        XCTAssertFalse(submitted.signaled, submitted.stderr)
        // The issue asks for "exit code 3", the error verdict's code when it was written;
        // verdicts now have codes of their own (12: error), apart from 3 (not found).
        XCTAssertEqual(submitted.status, 12, submitted.stdout + submitted.stderr)
        XCTAssertTrue(submitted.stdout.contains("\"outcome\":\"error\"") || submitted.stdout.contains("\"outcome\" : \"error\""), submitted.stdout)
        let listed = try habitctl("proof", "list")
        XCTAssertSucceeded(listed, "proof list")
        XCTAssertTrue(listed.stdout.contains("proof #1") && listed.stdout.contains("segv: error") && listed.stdout.contains("crashed"), listed.stdout)
        let json = try habitctl("--json", "proof", "list")
        XCTAssertTrue(json.stdout.contains("SIGSEGV"), json.stdout)

        // A trusted plugin may be loaded into habitctl itself; --in-process is for shared objects only.
        let trusted = try buildPlugin("trusted", verify: "out->outcome = HC_OUTCOME_APPROVED; out->confidence = 1; return 0;")
        XCTAssertEqual(try habitctl("plugin", "add", "--exec", "/bin/true", "--in-process").status, 2)
        XCTAssertSucceeded(try habitctl("plugin", "add", "--so", trusted, "--in-process"), "plugin add --in-process")
        XCTAssertTrue(try habitctl("--json", "plugin", "list").stdout.contains("shared_object_in_process"))
        XCTAssertSucceeded(try habitctl("plugin", "test", "trusted", Self.fixtures + "/bed.png"), "plugin test")
    }

    /// A process killed while its verifiers run leaves the proof; the next writable open
    /// decides it as an error saying why.
    func testAProofWhoseSubmitterWasKilledIsMarkedAnErrorAtTheNextOpen() throws {
        let db = dir + "/killed.db"
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "init"]), "init")
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "habit", "add", "Read"]), "habit add")
        let slow = dir + "/slow.sh"
        try "#!/bin/sh\nexec sleep 3\n".write(toFile: slow, atomically: true, encoding: .utf8)
        chmod(slow, 0o755)
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "plugin", "add", "--exec", slow, "--id", "slow"]), "plugin add")
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "proof", "policy", "--verifiers", "slow"]), "policy")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.habitctl)
        process.arguments = ["--db", db, "proof", "submit", "Read", Self.fixtures + "/bed.png"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the proof is recorded and its verifier runs, then kill the submitter.
        var running = false
        for _ in 0..<100 where !running {
            usleep(50_000)
            running = (try? runProcess(["sqlite3", db, "SELECT count(*) FROM proof_runs"]))?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
        XCTAssertTrue(running, "the proof was recorded before its verifier ran")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        // A read-only look sees the proof without a decision and changes nothing.
        let before = try runProcess(["sqlite3", db, "SELECT count(*) FROM proofs; SELECT count(*) FROM proof_verdicts"])
        XCTAssertEqual(before.stdout.split(separator: "\n"), ["1", "0"])

        let reopened = try open("killed.db")
        defer { hc_store_close(reopened) }
        var list: OpaquePointer?
        ok(hc_verdict_list_open(&list, reopened, 0, 1))
        defer { hc_verdict_list_free(list) }
        var count: Int64 = 0
        ok(hc_verdict_list_count(&count, list))
        XCTAssertEqual(count, 1)
        var verdict: UnsafePointer<hc_verdict>?
        ok(hc_verdict_list_get(&verdict, list, 0))
        XCTAssertEqual(verdict?.pointee.outcome, HC_OUTCOME_ERROR)
        XCTAssertEqual(verdict.map { String(cString: $0.pointee.reason_code) }, "interrupted")
        XCTAssertTrue(verdict.map { String(cString: $0.pointee.message) }?.contains("pid \(process.processIdentifier)") ?? false)
        let after = try runProcess(["sqlite3", db, "SELECT count(*) FROM proof_runs"])
        XCTAssertEqual(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0")
    }
}
