import CHabitCore
import Foundation
import HabitEngine
import HabitStore
import XCTest

/// Shields through the C functions on a real store: completions, accepted and
/// rejected proofs, day start, vacations, sessions, emergency unlocks under a
/// budget, zone changes, the revision, and readers in other processes.
final class ShieldStoreTests: ProofTestCase {
    var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
    func proofHabit(_ name: String) -> Int64 {
        var options = defaults(hc_habit_options_init)
        options.kind = HC_KIND_CHECKMARK
        options.target = 1
        options.direction = HC_DIRECTION_AT_LEAST
        options.start_day = today - 10
        options.proof_required = 1
        var id: Int64 = 0
        name.withCString {
            options.name = $0; ok(hc_habit_create(&id, store, &options))
        }
        return id
    }

    /// A whole-day window (00:00 to midnight) is open now whatever the hour: the
    /// rows below are decided by what was recorded, not by the clock.
    func testAcceptedProofLiftsARejectedOneAndAManualEntryDoNot() {
        let bed = proofHabit("Make the bed")
        addRule([bed])
        XCTAssertEqual(states(at: nowMs).1.first?.reason, HC_SHIELD_WINDOW_OPEN)
        XCTAssertEqual(states(at: nowMs).1.first?.outstanding, [bed])
        // A manual tick does not count for a habit that requires proof.
        ok(append(store, bed).0)
        XCTAssertEqual(states(at: nowMs).1.first?.reason, HC_SHIELD_WINDOW_OPEN, "a manual entry lifted a proof habit")
        // A proof outside its window is rejected, and lifts nothing.
        let minute = Int32((time(nil) % 86_400) / 60), start = (minute + 120) % 1380
        policy(bed, "", window: (start, start + 60))
        XCTAssertEqual(submit(bed, "bed-evening.jpg").outcome, HC_OUTCOME_REJECTED)
        XCTAssertEqual(states(at: nowMs).1.first?.shielded, true, "a rejected proof lifted the shield")
        let before = revision()
        policy(bed, "")
        let pending = submit(bed, "bed-morning.jpg")
        XCTAssertEqual(pending.outcome, HC_OUTCOME_NEEDS_REVIEW, pending.message)
        XCTAssertEqual(states(at: nowMs + 60_000).1.first?.shielded, true, "a proof awaiting review lifted the shield")
        var entry: Int64 = 0
        ok(hc_proof_review(&entry, store, pending.proofId, HC_OUTCOME_APPROVED, "sam", "the bed is made"))
        let after = states(at: nowMs + 60_000)
        XCTAssertEqual(after.1.first?.reason, HC_SHIELD_COMPLETED)
        XCTAssertGreaterThan(after.revision, before, "the proof's entry bumps the revision")
        XCTAssertEqual((after.1.first?.sinceMs ?? 0) % 60_000, 0, "lifted on a whole minute")
    }

    func testAnyVersusAllAndTheDayStart() {
        ok(hc_store_set_day_start(store, 240))
        let a = createHabit(store, "A", start: date(today - 10)), b = createHabit(store, "B", start: date(today - 10))
        let all = addRule([a, b], start: 0, end: 9 * 60, fromDay: today - 5)
        let any = addRule([a, b], start: 0, end: 9 * 60, lift: HC_SHIELD_LIFT_ANY, fromDay: today - 5)
        XCTAssertGreaterThan(any, all)
        // Yesterday's calendar date D: A done at 03:30 on D counts for D-1 (day start 04:00).
        let d = today - 1
        let dayMs = Int64(d) * 86_400_000
        ok(append(store, a, on: date(d - 1), atMs: dayMs + 210 * 60_000).0)
        var (_, s) = states(at: dayMs + 300 * 60_000)
        XCTAssertEqual(s.map(\.reason), [HC_SHIELD_WINDOW_OPEN, HC_SHIELD_WINDOW_OPEN], "03:30 counts for the day before")
        XCTAssertEqual(s[0].next, dayMs + 9 * 3_600_000)
        ok(append(store, a, on: date(d), atMs: dayMs + 330 * 60_000).0)  // 05:30
        (_, s) = states(at: dayMs + 360 * 60_000)
        XCTAssertEqual(s.map(\.reason), [HC_SHIELD_WINDOW_OPEN, HC_SHIELD_COMPLETED])
        XCTAssertEqual(s[0].outstanding, [b])
        XCTAssertEqual(s[1].sinceMs, dayMs + 330 * 60_000)
        XCTAssertEqual(s[0].earlier & HC_SHIELD_EARLIER_COMPLETION, HC_SHIELD_EARLIER_COMPLETION)
    }

    func testAVacationLiftsAndTheCutoffPasses() {
        let walk = createHabit(store, "Walk", start: date(today - 10))
        addRule([walk], start: 6 * 60, end: 9 * 60, fromDay: today - 5)
        var id: Int64 = 0
        ok(hc_vacation_add(&id, store, walk, today - 2, today - 2))
        let vacationDay = Int64(today - 2) * 86_400_000, dayBefore = Int64(today - 3) * 86_400_000
        XCTAssertEqual(states(at: vacationDay + 7 * 3_600_000).1[0].reason, HC_SHIELD_EXCUSED)
        XCTAssertEqual(states(at: dayBefore + 7 * 3_600_000).1[0].reason, HC_SHIELD_WINDOW_OPEN)
        XCTAssertEqual(states(at: dayBefore + 10 * 3_600_000).1[0].reason, HC_SHIELD_CUTOFF_PASSED)
    }

    /// Bed done at 08:59:10 with a 09:00 cutoff: shielded to 09:00 (rounding never
    /// unshields early), then completed, never "cutoff passed" with nothing left.
    /// Done at 09:00:00 is past the cutoff, and the cutoff names the habit it found.
    func testACompletionInTheLastMinuteLiftsAsCompleted() {
        let bed = createHabit(store, "Bed", start: date(today - 10))
        let rule = addRule([bed], start: 6 * 60, end: 9 * 60, fromDay: today - 5)
        let inTime = Int64(today - 2) * 86_400_000, late = Int64(today - 3) * 86_400_000
        let cutoff = 9 * 3_600_000 as Int64
        ok(append(store, bed, on: date(today - 2), atMs: inTime + cutoff - 50_000).0)  // 08:59:10
        ok(append(store, bed, on: date(today - 3), atMs: late + cutoff).0)  // 09:00:00
        let before = states(at: inTime + cutoff - 1).1[0]
        XCTAssertEqual(before.reason, HC_SHIELD_WINDOW_OPEN, "lifted before the minute it was done in ended")
        XCTAssertEqual(before.next, inTime + cutoff)
        for asked in [inTime + cutoff, inTime + cutoff + 3_600_000] {
            let s = states(at: asked).1[0]
            XCTAssertEqual(s.reason, HC_SHIELD_COMPLETED, "done at 08:59:10 read as a passed cutoff")
            XCTAssertEqual(s.sinceMs, inTime + cutoff, "lifted at the next whole minute")
            XCTAssertEqual(s.outstanding, [])
        }
        var count: Int64 = 0
        var flips = [hc_shield_transition](repeating: hc_shield_transition(), count: 8)
        ok(hc_shield_transitions(&flips, 8, &count, nil, store, inTime, inTime + 86_400_000))
        let lift = flips.prefix(Int(count)).first { $0.rule_id == rule && $0.shielded == 0 }
        XCTAssertEqual(lift?.at_ms, inTime + cutoff)
        XCTAssertEqual(lift?.to_reason, HC_SHIELD_COMPLETED)
        XCTAssertEqual(lift?.cause, HC_SHIELD_CAUSE_COMPLETION)
        for asked in [late + cutoff, late + cutoff + 3_600_000] {
            let s = states(at: asked).1[0]
            XCTAssertEqual(s.reason, HC_SHIELD_CUTOFF_PASSED, "done at 09:00:00 is past a 09:00 cutoff")
            XCTAssertEqual(s.outstanding, [bed], "the cutoff passed with Bed outstanding")
        }
    }

    /// at_ms = 0 is now for the state, as for the snapshot and the unlock state; a
    /// window open all day reads today's window, not one of 1970-01-01.
    func testAtZeroIsNowForTheStateTheSnapshotAndTheUnlockState() throws {
        let walk = createHabit(store, "Walk", start: date(today - 10))
        addRule([walk])
        let before = nowMs
        var count: Int64 = 0
        var zero = [hc_shield_status](repeating: hc_shield_status(), count: 1)
        ok(hc_shield_state(&zero, 1, &count, nil, store, 0))
        let after = nowMs
        XCTAssertEqual(zero[0].reason, HC_SHIELD_WINDOW_OPEN, "at_ms 0 answered for another instant than now")
        XCTAssertEqual(zero[0].window_day, today)
        XCTAssertEqual(zero[0].next_change_ms, states(at: after).1[0].next, "the next change as asked for now")
        XCTAssertEqual(zero[0].window_start_ms, Int64(today) * 86_400_000)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shields-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        ok(hc_shield_snapshot_write(store, path, 0))
        let snapshot = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        XCTAssertTrue((before...nowMs).contains((snapshot["at_ms"] as? NSNumber)?.int64Value ?? 0), "the snapshot's at_ms is now")
        XCTAssertEqual(((snapshot["rules"] as? [[String: Any]])?.first?["shielded"] as? NSNumber)?.boolValue, true)
        var unlock = defaults(hc_unlock_state_init)
        ok(hc_credit_unlock_state(&unlock, store, 1, 0))
        XCTAssertEqual(unlock.active, 0)
    }

    func testASessionLiftsWhileItRuns() {
        let walk = createHabit(store, "Walk", start: date(today - 10))
        addRule([walk])
        ok(hc_credit_adjust(nil, store, 1, 30, "steps"))
        ok(hc_credit_spend(nil, store, 1, 10, "break", HC_SPEND_UNLOCK))
        // A session bought at hh:mm:ss lifts from the next whole minute.
        let s = states(at: nowMs + 60_000).1[0]
        XCTAssertEqual(s.reason, HC_SHIELD_SESSION)
        XCTAssertEqual(s.next, s.untilMs, "the shield returns when the session ends")
        XCTAssertEqual(s.earlier, HC_SHIELD_EARLIER_SESSION_END)
        XCTAssertLessThanOrEqual(s.untilMs, nowMs + 10 * 60_000, "its end rounded down")
    }

    /// A shield ask reads every account's sessions in one statement: the same
    /// purchases, in the same order, as reading each account's own.
    func testEverySessionReadAtOnceIsEachAccountsOwn() throws {
        var second: Int64 = 0
        ok(hc_credit_account_create(&second, store, "reading"))
        for account in [Int64(1), second] { ok(hc_credit_adjust(nil, store, account, 60, "steps")) }
        ok(hc_credit_spend(nil, store, 1, 10, "break", HC_SPEND_UNLOCK))
        ok(hc_credit_spend(nil, store, second, 5, "chapter", HC_SPEND_UNLOCK))
        ok(hc_credit_spend(nil, store, 1, 15, "queued after the first", HC_SPEND_UNLOCK))
        ok(hc_credit_spend(nil, store, second, 20, "ended early", HC_SPEND_UNLOCK))
        var refund: Int64 = 0
        ok(hc_credit_session_end(&refund, store, 4, nowMs + 60_000))
        let reader = try HabitStore.Store(path: dir + "/store.db", options: .init(readOnly: true))
        defer { reader.close() }
        let all = try reader.allSessionPurchases()
        XCTAssertEqual(Set(all.keys), [1, second])
        for account in [Int64(1), second] {
            let own = try reader.sessionPurchases(accountId: account)
            XCTAssertEqual(own.count, 2)
            XCTAssertEqual(all[account]?.map(\.id), own.map(\.id), "account \(account)")
            XCTAssertEqual(all[account]?.map(\.boughtAtMs), own.map(\.boughtAtMs))
            XCTAssertEqual(all[account]?.map(\.endedAtMs), own.map(\.endedAtMs))
            XCTAssertEqual(all[account]?.map(\.minutes), own.map(\.minutes))
        }
        XCTAssertNotNil(all[second]?.last?.endedAtMs, "the early end is read")
    }

    func testEmergencyUnlocksStopAtTheBudgetAndRecordNothingPast() {
        let walk = createHabit(store, "Walk", start: date(today - 10))
        let rule = addRule([walk], budget: (HC_SHIELD_BUDGET_WEEK, 2))
        XCTAssertEqual(states(at: nowMs).1[0].emergencyLeft, 2)
        ok(hc_shield_emergency_unlock(nil, store, rule, 15, "late train"))
        let s = states(at: nowMs + 60_000).1[0]
        XCTAssertEqual(s.reason, HC_SHIELD_EMERGENCY)
        XCTAssertEqual(s.emergencyLeft, 1)
        ok(hc_shield_emergency_unlock(nil, store, rule, 5, nil))
        let before = revision()
        XCTAssertEqual(hc_shield_emergency_unlock(nil, store, rule, 5, nil), HC_E_INSUFFICIENT)
        XCTAssertEqual(revision(), before, "a refused unlock writes nothing")
        let rows = try? runProcess(["sqlite3", dir + "/store.db", "SELECT count(*), sum(minutes) FROM shield_emergencies"])
        XCTAssertEqual(rows?.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "2|20")
        // Append-only: the database itself refuses to change one.
        let update = try? runProcess(["sqlite3", dir + "/store.db", "UPDATE shield_emergencies SET minutes = 1"])
        XCTAssertNotEqual(update?.status, 0)
    }

    /// The revision's triggers live on writers' connections, not in the file (a reader
    /// would parse them at its first statement): every writer still moves it, a
    /// reader sees it move, and writes that cannot change a shield do not.
    func testEveryWriterMovesTheRevisionAndTheFileHoldsNoRevisionTrigger() throws {
        let walk = createHabit(store, "Walk", start: date(today - 10))
        addRule([walk])
        let schema = try runProcess([
            "sqlite3", dir + "/store.db", "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name LIKE '%\\_shield\\_%' ESCAPE '\\'",
        ])
        XCTAssertEqual(schema.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0", schema.stderr)
        let second = try open(), reader = try open(flags: UInt32(HC_OPEN_READONLY))
        defer { hc_store_close(second); hc_store_close(reader) }
        var revisions = [revision(reader)]
        ok(append(second, walk).0)  // an entry, from the second writer
        revisions.append(revision(reader))
        ok(hc_vacation_add(nil, store, 0, today + 3, today + 4))  // a vacation, from the first
        revisions.append(revision(reader))
        var vacations = [hc_vacation](repeating: hc_vacation(), count: 4)
        var count: Int64 = 0
        ok(hc_vacation_list(&vacations, 4, &count, second))
        ok(hc_vacation_remove(second, vacations[0].id))  // a row deleted
        revisions.append(revision(reader))
        ok(hc_store_set_week_start(second, 1))  // a setting updated
        revisions.append(revision(reader))
        // Credits alone cannot change a shield: the revision stays.
        ok(hc_credit_adjust(nil, second, 1, 30, "gift"))
        XCTAssertEqual(revision(reader), revisions.last)
        ok(hc_credit_spend(nil, store, 1, 10, "break", HC_SPEND_UNLOCK))  // an unlock session
        revisions.append(revision(reader))
        ok(hc_store_set_timezone(second, "Asia/Tokyo"))  // a zone change
        revisions.append(revision(reader))
        XCTAssertEqual(revisions, revisions.sorted(), "the revision went back")
        XCTAssertEqual(Set(revisions).count, revisions.count, "a write that can change a shield left the revision: \(revisions)")
    }

    func testAZoneChangeIsRecordedAndEndsTheWindowOnTheNewWallClock() {
        ok(hc_store_set_timezone(store, "Europe/Berlin"))
        let walk = createHabit(store, "Walk", start: date(today - 10))
        addRule([walk], start: 0, end: 12 * 60, fromDay: today - 5)
        let before = revision()
        ok(hc_store_set_timezone(store, "Asia/Tokyo"))
        XCTAssertGreaterThan(revision(), before)
        var count: Int64 = 0
        var transitions = [hc_shield_transition](repeating: hc_shield_transition(), count: 16)
        let from = Int64(today + 1) * 86_400_000
        ok(hc_shield_transitions(&transitions, 16, &count, nil, store, from, from + 86_400_000))
        XCTAssertEqual(count, 2)
        // Tomorrow's windows are Tokyo's (+09:00): one ends at 12:00, the next opens at 00:00.
        XCTAssertEqual(transitions[0].at_ms, from + 3 * 3_600_000)
        XCTAssertEqual(transitions[0].cause, HC_SHIELD_CAUSE_CUTOFF)
        XCTAssertEqual(transitions[0].local_minute, 12 * 60)
        XCTAssertEqual(transitions[1].at_ms, from + 15 * 3_600_000)
        XCTAssertEqual(transitions[1].offset_seconds, 9 * 3600)
        XCTAssertEqual(transitions[1].local_minute, 0)
        XCTAssertEqual(transitions[1].shielded, 1)
        XCTAssertEqual(withUnsafeBytes(of: &transitions[1].zone) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }, "Asia/Tokyo")
    }

    func testARuleTakesEffectFromItsDayAndBadRulesWriteNothing() {
        let walk = createHabit(store, "Walk", start: date(today - 10))
        let before = revision()
        addRule([walk], start: 25 * 60, expect: HC_E_INVALID)
        addRule([walk], start: 9 * 60, end: 9 * 60, expect: HC_E_INVALID)
        addRule([], expect: HC_E_INVALID)
        addRule([walk], budget: (HC_SHIELD_BUDGET_WEEK, -1), expect: HC_E_INVALID)
        addRule([walk, 999_999], expect: HC_E_NOT_FOUND)
        XCTAssertEqual(revision(), before, "refused rules write nothing")
        addRule([walk], fromDay: today + 2)
        let s = states(at: nowMs).1[0]
        XCTAssertEqual(s.reason, HC_SHIELD_NOT_IN_EFFECT)
        XCTAssertEqual(s.next, Int64(today + 2) * 86_400_000)
    }

    /// A reader opened read-only answers what the writer does, and still works
    /// once the writer has closed.
    func testAReadOnlyReaderAnswersTheSameAfterTheWriterCloses() throws {
        let walk = createHabit(store, "Walk", start: date(today - 10))
        addRule([walk], start: 6 * 60, end: 9 * 60, fromDay: today - 5)
        ok(append(store, walk, on: date(today - 1), atMs: Int64(today - 1) * 86_400_000 + 7 * 3_600_000).0)
        let at = Int64(today - 1) * 86_400_000 + 8 * 3_600_000
        let written = states(at: at)
        let reader = try open(flags: HC_OPEN_READONLY)
        let read = states(at: at, store: reader)
        XCTAssertEqual(read.revision, written.revision)
        XCTAssertEqual(read.1.map(\.reason), written.1.map(\.reason))
        XCTAssertEqual(read.1[0].reason, HC_SHIELD_COMPLETED)
        hc_store_close(reader)
        hc_store_close(store)
        store = nil
        let late = try open(flags: HC_OPEN_READONLY)
        defer { hc_store_close(late) }
        XCTAssertEqual(states(at: at, store: late).1.map(\.reason), written.1.map(\.reason))
    }

    /// A writer toggles which of two habits is done in each transaction, a reader
    /// (read-only, another process) asks thousands of times, and a third process
    /// grants emergency unlocks: every answer holds exactly one lifted rule (never
    /// a mix of two transactions), no call fails or waits past its bound, and the
    /// budget is never exceeded.
    func testThreeProcessesWriterReaderAndGranter() throws {
        ok(hc_store_set_timezone(store, "UTC"))
        let a = createHabit(store, "A", start: date(today - 10)), b = createHabit(store, "B", start: date(today - 10))
        addRule([a])
        addRule([b])
        let granted = addRule([a, b], budget: (HC_SHIELD_BUDGET_WEEK, 5))
        ok(append(store, a).0)
        hc_store_close(store)
        store = nil
        try compileC([Paths.root + "/Tests/c/shields.c"], output: dir + "/shields")
        let path = dir + "/store.db", go = dir + "/go"
        func start(_ arguments: [String]) throws -> (Process, URL) {
            let process = Process(), output = URL(fileURLWithPath: dir + "/" + arguments[0] + ".out")
            FileManager.default.createFile(atPath: output.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: dir + "/shields")
            process.arguments = arguments
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.environment = ["SWIFT_BACKTRACE": "enable=no"]
            try process.run()
            return (process, output)
        }
        let writer = try start(["writer", path, "300", go, String(a), String(b)])
        let reader = try start(["reader", path, "10000", go])
        let granter = try start(["granter", path, "40", go, String(granted)])
        FileManager.default.createFile(atPath: go, contents: nil)
        for (process, _) in [writer, reader, granter] { process.waitUntilExit() }
        let outputs = try [writer, reader, granter].map { try String(contentsOf: $0.1, encoding: .utf8) }
        XCTAssertEqual(writer.0.terminationStatus, 0, outputs[0])
        XCTAssertEqual(reader.0.terminationStatus, 0, outputs[1])
        XCTAssertEqual(granter.0.terminationStatus, 0, outputs[2])
        XCTAssertTrue(outputs[1].contains("asked 10000 mixed 0 errors 0"), outputs[1])
        XCTAssertTrue(outputs[2].contains("granted 5 refused 35 errors 0"), outputs[2])
        let rows = try runProcess(["sqlite3", path, "SELECT count(*) FROM shield_emergencies"])
        XCTAssertEqual(rows.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "5")
        print(outputs.joined())
    }

    // MARK: What a handle keeps, readers after the writer, busy waits

    /// A handle keeps what its last hc_shield_state read and computed while the store
    /// is unchanged; its answers are those of a handle that has never asked, at every
    /// instant, and after writes from another handle, another process and itself.
    /// An extension's first call turns SQLite's memory statistics off for its
    /// process; once SQLite is in use the call is refused and changes nothing.
    func testSQLiteStatisticsTurnOffOnlyBeforeSQLiteIsUsed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try compileC([Paths.root + "/Tests/c/sqlite_statistics.c"], output: dir + "/statistics", extra: ["-lsqlite3"])
        for mode in ["first", "late"] {
            XCTAssertSucceeded(try runProcess([dir + "/statistics", mode, dir + "/" + mode + ".db"]), "statistics \(mode)")
        }
    }

    func testAKeptAnswerIsTheFreshAnswerAfterWritesFromAnyWhere() throws {
        ok(hc_store_set_timezone(store, "UTC"))
        let walk = createHabit(store, "Walk", start: date(today - 10)), read = createHabit(store, "Read", start: date(today - 10))
        let morning = addRule([walk], start: 6 * 60, end: 9 * 60, budget: (HC_SHIELD_BUDGET_WEEK, 3), fromDay: today - 5)
        addRule([walk, read], start: 21 * 60, end: 5 * 60, lift: HC_SHIELD_LIFT_ANY, days: "days:fri", fromDay: today - 5)
        ok(append(store, read, on: date(today - 1), atMs: Int64(today - 1) * 86_400_000 + 7 * 3_600_000).0)
        let reader = try open(flags: HC_OPEN_READONLY)
        defer { hc_store_close(reader) }
        func fresh(_ ms: Int64) throws -> (Int64, [Status]) {
            let handle = try open(flags: HC_OPEN_READONLY)
            defer { hc_store_close(handle) }
            return states(at: ms, store: handle)
        }
        func same(_ ms: Int64, _ what: String, line: UInt = #line) throws -> (Int64, [Status]) {
            let kept = states(at: ms, store: reader), reference = try fresh(ms)
            XCTAssertEqual(kept.0, reference.0, "revision, \(what)", line: line)
            XCTAssertEqual(kept.1, reference.1, what, line: line)
            return kept
        }
        let day = Int64(today) * 86_400_000
        // Every 37 minutes over four days, forwards, then a few backwards.
        for minute in stride(from: Int64(-2 * 1440), to: 2 * 1440, by: 37) { _ = try same(day + minute * 60_000, "minute \(minute)") }
        for minute in [Int64(1000), 400, -900] { _ = try same(day + minute * 60_000, "back to minute \(minute)") }
        let at = day + 7 * 3_600_000
        let before = try same(at, "before the writes")
        // Another handle appends: the walk lifts the morning window.
        let other = try open()
        ok(append(other, walk, on: date(today), atMs: day + 6 * 3_600_000 + 30 * 60_000).0)
        hc_store_close(other)
        let afterEntry = try same(at, "after another handle's entry")
        XCTAssertEqual(afterEntry.1[0].reason, HC_SHIELD_COMPLETED)
        XCTAssertNotEqual(afterEntry.1, before.1)
        // Another process records an emergency unlock: the budget left moves.
        XCTAssertSucceeded(
            try runProcess([Paths.habitctl, "--db", dir + "/store.db", "shield", "emergency", String(morning), "--minutes", "10"]),
            "emergency")
        let afterUnlock = try same(at, "after another process's unlock")
        XCTAssertEqual(afterUnlock.1[0].emergencyLeft, 2)
        // The writer's own handle: it asks, writes, asks again.
        _ = states(at: at)
        var id: Int64 = 0
        ok(hc_vacation_add(&id, store, walk, today, today))
        XCTAssertEqual(states(at: at).1, try fresh(at).1, "the writer's own write")
        ok(hc_store_begin(store))
        ok(hc_store_set_timezone(store, "Asia/Tokyo"))
        let inside = states(at: at)
        ok(hc_store_commit(store))
        XCTAssertEqual(inside.1, try fresh(at).1, "inside the writer's transaction it sees its own write")
        _ = try same(at, "after a zone change")
    }

    /// The writer keeps its -wal (emptied) and -shm when it closes (persistent WAL):
    /// a read-only open afterwards works, and so does one by a user who may write
    /// neither the folder nor those files, without creating anything.
    func testAReadOnlyOpenAfterTheWriterClosedWorksWithoutWritingTheFolder() throws {
        ok(hc_store_set_timezone(store, "UTC"))
        let walk = createHabit(store, "Walk", start: date(today - 10))
        addRule([walk], start: 6 * 60, end: 9 * 60, fromDay: today - 5)
        let at = Int64(today - 1) * 86_400_000 + 8 * 3_600_000
        ok(append(store, walk, on: date(today - 1), atMs: at - 3_600_000).0)
        let written = states(at: at)
        hc_store_close(store)
        store = nil
        let path = dir + "/store.db"
        var wal = stat(), shm = stat()
        XCTAssertEqual(stat(path + "-wal", &wal), 0, "the -wal is kept")
        XCTAssertEqual(wal.st_size, 0, "and emptied: everything is in the store file")
        XCTAssertEqual(stat(path + "-shm", &shm), 0, "the -shm is kept")
        let reader = try open(flags: HC_OPEN_READONLY)
        XCTAssertEqual(states(at: at, store: reader).1, written.1)
        XCTAssertEqual(states(at: at, store: reader).1[0].reason, HC_SHIELD_COMPLETED)
        hc_store_close(reader)
        guard getuid() == 0 else { return }  // the rest needs root to become user 65534
        chmod(dir, 0o755)
        for file in [path, path + "-wal", path + "-shm"] { chmod(file, 0o644) }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let result = try runProcess([
            "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", Paths.habitctl, "--db", path, "--json",
            "shield", "state", "--at", date(today - 1) + "T08:00",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\"completed\""), result.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), files, "the reader created nothing")
    }

    /// A read-only handle waits for a lock only briefly (100 ms), a writer 5 s, and
    /// hc_store_set_busy_timeout sets what SQLite uses. Under a held write lock a
    /// reader answers at once (WAL), and a writer whose wait is short gets HC_E_BUSY
    /// and records nothing.
    func testBusyWaitsAreShortForReadersSettableAndRespected() throws {
        let path = dir + "/store.db"
        let writer = try Engine(path: path, options: StoreOptions())
        let reader = try Engine(path: path, options: StoreOptions(readOnly: true))
        XCTAssertEqual(writer.store.connectionBusyTimeoutMs, 5000)
        XCTAssertEqual(reader.store.connectionBusyTimeoutMs, 100)
        try reader.store.setBusyTimeout(40)
        XCTAssertEqual(reader.store.connectionBusyTimeoutMs, 40, "what the connection's busy handler applies")
        XCTAssertThrowsError(try reader.store.setBusyTimeout(-1))
        XCTAssertEqual(reader.store.connectionBusyTimeoutMs, 40, "a refused value changes nothing")
        writer.close()
        reader.close()

        let walk = createHabit(store, "Walk", start: date(today - 10))
        let rule = addRule([walk], budget: (HC_SHIELD_BUDGET_WEEK, 3))
        ok(hc_store_begin(store))  // holds the write lock
        ok(append(store, walk).0)
        let readOnly = try open(flags: HC_OPEN_READONLY), granter = try open()
        defer { hc_store_close(readOnly); hc_store_close(granter) }
        XCTAssertEqual(states(at: nowMs, store: readOnly).1.count, 1, "a reader does not wait for a writer")
        ok(hc_store_set_busy_timeout(granter, 50))
        let started = Date()
        XCTAssertEqual(hc_shield_emergency_unlock(nil, granter, rule, 5, nil), HC_E_BUSY)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5, "bounded by its 50 ms, far below the default 5 s")
        ok(hc_store_rollback(store))
        let rows = try runProcess(["sqlite3", path, "SELECT count(*) FROM shield_emergencies"])
        XCTAssertEqual(rows.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "0", "the refused unlock recorded nothing")
    }
}
