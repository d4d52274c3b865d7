import CHabitCore
import Foundation
import XCTest

/// Proofs through the C functions, on a real SQLite file, with real images
/// (Tests/fixtures), the example plugins built and run for real, and hostile
/// plugins that hang, crash, flood or lie.
final class ProofStoreTests: ProofTestCase {
    static let examples = Paths.root + "/examples/plugins"

    /// The example shared-object verifier, built from examples/plugins with gcc.
    func buildImageSizePlugin() throws -> String {
        let output = dir + "/image_size.so"
        let result = try runProcess([
            "cc", "-shared", "-fPIC", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", Paths.include,
            Self.examples + "/image_size.c", "-o", output,
        ])
        XCTAssertSucceeded(result, "building the example plugin")
        return output
    }

    func script(_ name: String, _ body: String) throws -> String {
        let path = dir + "/" + name
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(path, 0o755), 0)
        return path
    }

    // MARK: The proof rules, with the example verifiers

    func testAnApprovedPhotoExtendsTheStreakARejectedOneDoesNotAndAReusedOneIsCaught() throws {
        ok(addPlugin(HC_PLUGIN_SHARED_OBJECT, try buildImageSizePlugin()))
        ok(addPlugin(HC_PLUGIN_EXECUTABLE, Self.examples + "/decode_check.py"))
        ok(addPlugin(HC_PLUGIN_EXECUTABLE, Self.examples + "/min_size.sh"))
        policy(0, "image-size,decode_check,min_size")
        let bed = createHabit(store, "Make the bed", start: date(today - 10))
        let desk = createHabit(store, "Clear the desk", start: date(today - 10))
        for habit in [bed, desk] { for offset in [2, 1] { append(store, habit, on: date(today - Int32(offset))) } }
        XCTAssertEqual(currentStreak(bed), 2)

        let approved = submit(bed, "bed-morning.jpg")
        XCTAssertEqual(approved.outcome, HC_OUTCOME_APPROVED, approved.message)
        XCTAssertGreaterThan(approved.entryId, 0)
        XCTAssertEqual(currentStreak(bed), 3, "the verified completion extends the streak")

        let small = submit(desk, "tiny.png")
        XCTAssertEqual(small.outcome, HC_OUTCOME_REJECTED)
        XCTAssertEqual(small.reason, "too_small")
        XCTAssertEqual(small.entryId, 0)
        XCTAssertEqual(currentStreak(desk), 2, "a rejected proof logs nothing")

        let reused = submit(desk, "bed-morning.jpg")
        XCTAssertEqual(reused.outcome, HC_OUTCOME_REJECTED)
        XCTAssertEqual(reused.reason, "reused_evidence")
        XCTAssertTrue(reused.message.contains("#\(approved.proofId)"), reused.message)

        // Every verdict is in the ledger, with who said it.
        var list: OpaquePointer?
        ok(hc_verdict_list_open(&list, store, 0, approved.proofId))
        defer { hc_verdict_list_free(list) }
        var count: Int64 = 0
        ok(hc_verdict_list_count(&count, list))
        var said: [String] = []
        for index in 0..<count {
            var verdict: UnsafePointer<hc_verdict>?
            ok(hc_verdict_list_get(&verdict, list, index))
            if let v = verdict?.pointee { said.append("\(String(cString: v.verifier_id)):\(v.outcome)") }
        }
        XCTAssertEqual(said, ["image-size:1", "decode_check:1", "min_size:1", "policy:1"])
    }

    func testAProofOutsideTheWindowIsRejectedByReceiptTime() {
        let habit = createHabit(store, "Morning pages", start: date(today - 1))
        // A one-hour window two hours from now (the store's zone is UTC).
        let minute = Int32((time(nil) % 86_400) / 60)
        let start = (minute + 120) % 1380
        policy(habit, "", window: (start, start + 60))
        let result = submit(habit, "bed-evening.jpg")
        XCTAssertEqual(result.outcome, HC_OUTCOME_REJECTED)
        XCTAssertEqual(result.reason, "outside_window")
        XCTAssertEqual(currentStreak(habit), 0)
    }

    /// A callback verifier, as an app's own model would plug in: it approves with
    /// the confidence user_data points at.
    static let confidenceVerifier: hc_verify_callback = { evidence, out, userData in
        guard let out, let evidence, let userData else { return 1 }
        out.pointee.outcome = HC_OUTCOME_APPROVED
        out.pointee.confidence = userData.load(as: Double.self)
        let size = evidence.pointee.size
        withUnsafeMutableBytes(of: &out.pointee.message) { raw in
            let text = Array("looked at \(size) bytes".utf8.prefix(raw.count - 1)) + [0]
            raw.copyBytes(from: text)
        }
        return 0
    }

    func testNeedsReviewThenApprovedByReviewCountsFromThen() {
        let confidence = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        defer { confidence.deallocate() }
        confidence.pointee = 0.6
        ok(hc_verifier_register(store, "app-model", "2.1", Self.confidenceVerifier, confidence))
        policy(0, "app-model")
        let habit = createHabit(store, "Make the bed", start: date(today - 3))
        let unsure = submit(habit, "bed-evening.jpg")
        XCTAssertEqual(unsure.outcome, HC_OUTCOME_NEEDS_REVIEW, "0.6 is between the review band and the threshold")
        XCTAssertEqual(unsure.entryId, 0)
        XCTAssertEqual(currentStreak(habit), 0)
        var entry: Int64 = 0
        ok(hc_proof_review(&entry, store, unsure.proofId, HC_OUTCOME_APPROVED, "sam", "the bed is made, the light was poor"))
        XCTAssertGreaterThan(entry, 0)
        XCTAssertEqual(currentStreak(habit), 1, "counts once reviewed")
        XCTAssertEqual(hc_proof_review(nil, store, unsure.proofId, HC_OUTCOME_REJECTED, "sam", "changed my mind"), HC_E_CONFLICT)
        // The app hears of both decisions: the policy's (review) and the person's (approved).
        var events: OpaquePointer?
        ok(hc_event_list_read(&events, store, 0, 100, 0))
        var eventCount: Int64 = 0
        ok(hc_event_list_count(&eventCount, events))
        var verdictEvents: [Double] = []
        for index in 0..<eventCount {
            var event: UnsafePointer<hc_event>?
            ok(hc_event_list_get(&event, events, index))
            if let e = event?.pointee, e.kind == HC_EVENT_PROOF_VERDICT { verdictEvents.append(e.value) }
        }
        hc_event_list_free(events)
        XCTAssertEqual(verdictEvents, [Double(HC_OUTCOME_NEEDS_REVIEW), Double(HC_OUTCOME_APPROVED)])

        var list: OpaquePointer?
        ok(hc_verdict_list_open(&list, store, habit, 0))
        defer { hc_verdict_list_free(list) }
        var last: UnsafePointer<hc_verdict>?
        var count: Int64 = 0
        ok(hc_verdict_list_count(&count, list))
        ok(hc_verdict_list_get(&last, list, count - 1))
        XCTAssertEqual(last?.pointee.stage, HC_STAGE_REVIEW)
        XCTAssertEqual(last.map { String(cString: $0.pointee.reviewer) }, "sam")
        XCTAssertEqual(last.map { String(cString: $0.pointee.message) }, "the bed is made, the light was poor")
        XCTAssertEqual(last?.pointee.entry_id, entry)
        var first: UnsafePointer<hc_verdict>?
        ok(hc_verdict_list_get(&first, list, 0))
        XCTAssertEqual(first.map { String(cString: $0.pointee.verifier_version) }, "2.1")
        XCTAssertEqual(first.map { String(cString: $0.pointee.message) }, "looked at 1356 bytes")

        confidence.pointee = 0.2
        let doubtful = submit(createHabit(store, "Stretch", start: date(today)), "bed.png")
        XCTAssertEqual(doubtful.outcome, HC_OUTCOME_REJECTED)
        XCTAssertEqual(doubtful.reason, "low_confidence")
    }

    /// Submit and review share the one-per-day rule: with many a day allowed, review
    /// approves a second proof of a day; with one a day, it refuses it.
    func testReviewApprovesASecondProofOfADayOnlyWhenThePolicyAllowsMany() {
        let confidence = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        defer { confidence.deallocate() }
        ok(hc_verifier_register(store, "app-model", "2.1", Self.confidenceVerifier, confidence))
        for onePerDay in [false, true] {
            let habit = createHabit(store, onePerDay ? "Once a day" : "Many a day", start: date(today))
            policy(habit, "app-model", onePerDay: onePerDay)
            confidence.pointee = 0.6
            let unsure = submit(habit, onePerDay ? "bed.png" : "tiny.png")
            XCTAssertEqual(unsure.outcome, HC_OUTCOME_NEEDS_REVIEW, unsure.message)
            confidence.pointee = 0.95
            let sure = submit(habit, onePerDay ? "bed-morning.jpg" : "bed-evening.jpg")
            XCTAssertEqual(sure.outcome, HC_OUTCOME_APPROVED, sure.message)
            var entry: Int64 = 0
            let status = hc_proof_review(&entry, store, unsure.proofId, HC_OUTCOME_APPROVED, "sam", "a second walk")
            if onePerDay {
                XCTAssertEqual(status, HC_E_CONFLICT)
                XCTAssertEqual(entry, 0)
            } else {
                ok(status)
                XCTAssertGreaterThan(entry, 0, "the second proof of the day logs its own entry")
            }
        }
    }

    // MARK: Hostile plugins

    /// Each executable misbehaves its own way: the host survives, records an error
    /// verdict with the reason, and approves nothing.
    func testHostileExecutablePluginsGiveErrorVerdictsAndApproveNothing() throws {
        // The sleeper's seconds name this test process, so the check below finds its own
        // sleeper and not another run's on the same machine.
        let sleep = "sleep 1000.\(getpid())"
        let cases: [(String, String, String)] = [
            ("sleeper", sleep, "timeout"),
            ("crasher", "kill -SEGV $$", "crashed"),
            ("flooder", "head -c 100000000 /dev/zero", "output_too_large"),
            ("liar", "echo '{\"outcome\": approved'", "invalid_output"),
            ("quitter", "echo '{\"outcome\":\"approved\"}'; exit 3", "exit_status"),
            ("approver-of-nothing", "echo '{\"outcome\":\"maybe\",\"confidence\":1}'", "invalid_output"),
        ]
        let photos = ["bed-morning.jpg", "bed-evening.jpg", "bed.png", "tiny.png", Self.fixtures + "/make.py", Self.fixtures + "/README.md"]
        for ((id, body, reason), photo) in zip(cases, photos) {
            ok(addPlugin(HC_PLUGIN_EXECUTABLE, try script(id + ".sh", body), id: id, timeoutMs: 700))
            let habit = createHabit(store, "Habit " + id, start: date(today))
            policy(habit, id)
            let started = Date()
            let result = submit(habit, photo)
            XCTAssertEqual(result.outcome, HC_OUTCOME_ERROR, id)
            XCTAssertEqual(result.entryId, 0, id)
            XCTAssertLessThan(Date().timeIntervalSince(started), 10, "\(id) was stopped in time")
            var list: OpaquePointer?
            ok(hc_verdict_list_open(&list, store, 0, result.proofId))
            var verdict: UnsafePointer<hc_verdict>?
            ok(hc_verdict_list_get(&verdict, list, 0))
            XCTAssertEqual(verdict.map { String(cString: $0.pointee.reason_code) }, reason, id)
            XCTAssertEqual(verdict?.pointee.outcome, HC_OUTCOME_ERROR, id)
            hc_verdict_list_free(list)
            XCTAssertEqual(currentStreak(habit), 0, id)
        }
        // The sleeper's process group was killed, not left behind.
        let left = try runProcess(["pgrep", "-f", "-x", sleep])
        XCTAssertNotEqual(left.status, 0, "no sleeper left running: \(left.stdout)")
    }

    func testSharedObjectsWithTheWrongABIOrNoneAtAllAreRefusedWithPathAndReason() throws {
        let source = dir + "/old.c"
        try """
        #include <habitcore_plugin.h>
        static int32_t verify(const hc_plugin_evidence *e, hc_plugin_verdict *o, void *u) { (void)u; (void)e; o->outcome = 1; o->confidence = 1; return 0; }
        /* Built for habitcore 0.x: plugin ABI version 1. */
        const hc_plugin hc_plugin_entry = { 1, 0, "old", "0.1", "", 0, verify, 0 };
        """.write(toFile: source, atomically: true, encoding: .utf8)
        XCTAssertSucceeded(try runProcess(["cc", "-shared", "-fPIC", "-I", Paths.include, source, "-o", dir + "/old.so"]), "build")
        XCTAssertEqual(addPlugin(HC_PLUGIN_SHARED_OBJECT, dir + "/old.so"), HC_E_INVALID)
        var message = String(cString: hc_store_errmsg(store))
        XCTAssertTrue(message.contains(dir + "/old.so") && message.contains("plugin ABI version 1;") && message.contains("speaks 2"), message)

        try "this is not an ELF file".write(toFile: dir + "/text.so", atomically: true, encoding: .utf8)
        XCTAssertEqual(addPlugin(HC_PLUGIN_SHARED_OBJECT, dir + "/text.so"), HC_E_INVALID)
        message = String(cString: hc_store_errmsg(store))
        XCTAssertTrue(message.contains(dir + "/text.so") && message.contains("not a loadable shared object"), message)

        let noEntry = dir + "/none.c"
        try "int unrelated(void) { return 1; }\n".write(toFile: noEntry, atomically: true, encoding: .utf8)
        XCTAssertSucceeded(try runProcess(["cc", "-shared", "-fPIC", noEntry, "-o", dir + "/none.so"]), "build")
        XCTAssertEqual(addPlugin(HC_PLUGIN_SHARED_OBJECT, dir + "/none.so"), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(store)).contains("hc_plugin_entry"))

        var json: UnsafeMutablePointer<CChar>?
        ok(hc_plugin_list_json(&json, store))
        XCTAssertEqual(json.map { String(cString: $0) }, "[]", "nothing refused was registered")
        hc_free(json)
    }
}
