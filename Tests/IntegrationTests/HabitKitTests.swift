import CHabitCore
import Foundation
import HabitKit
import XCTest

/// HabitKit, the Swift API over include/habitcore.h, on real store files.
final class HabitKitTests: XCTestCase {
    func testVersionsAndDays() throws {
        XCTAssertEqual(HabitKitVersion.built, HC_ABI_VERSION)
        XCTAssertGreaterThanOrEqual(HabitKitVersion.running, HabitKitVersion.built)
        XCTAssertEqual(HabitKitVersion.runningString, HabitKitVersion.string)
        XCTAssertEqual(HabitKitVersion.runningNumber, HC_VERSION_MAJOR * 1_000_000 + HC_VERSION_MINOR * 1_000 + HC_VERSION_PATCH)
        let day = try Day("2026-03-01")
        XCTAssertEqual(day.description, "2026-03-01")
        XCTAssertEqual(day.adding(-1)?.description, "2026-02-28")
        XCTAssertNil(Day(rawValue: .max).adding(1))
        expect(.invalid) { _ = try Day("2026-02-30") }
        XCTAssertEqual(HabitError.Code.notFound.description, String(cString: hc_status_string(HC_E_NOT_FOUND)))
        // A code this HabitKit has no name for still arrives, with the library's words.
        XCTAssertEqual(HabitError.Code(rawValue: 999).rawValue, 999)
    }

    func testLocalTimeAndTheRawHandle() throws {
        let (store, _) = try freshStore()
        try store.setTimeZone("Europe/Berlin")
        let day = try Day("2026-03-29")  // the spring-forward day: 02:00 to 03:00 is skipped
        let halfPastTwo = try store.utcMs(day: day, minute: 150)
        XCTAssertEqual(try store.utcMs(day: day, minute: 180), halfPastTwo, "a skipped time reads as the first minute after the gap")
        XCTAssertEqual(try store.localDay(atMs: halfPastTwo), day)
        XCTAssertEqual(try store.localDay(atMs: halfPastTwo - 4 * 3_600_000), day.adding(-1))
        expect(.invalid) { _ = try store.utcMs(day: day, minute: 1440) }
        // The escape hatch reaches the same store as the Swift calls.
        let zone = try store.withUnsafeHandle { handle throws(HabitError) -> String in
            var name: UnsafeMutablePointer<CChar>?
            guard hc_store_timezone(&name, handle) == HC_OK, let name else { throw HabitError(code: .internal, message: "no zone") }
            defer { hc_free(name) }
            return String(cString: name)
        }
        XCTAssertEqual(zone, "Europe/Berlin")
        try store.close()
        expect(.misuse) { _ = try store.localDay(atMs: 0) }
        expect(.misuse) { try store.withUnsafeHandle { _ in XCTFail("called on a closed store") } }
    }

    func testHabitsEntriesAndStreaks() throws {
        let (store, _) = try freshStore()
        let today = try store.today()
        var options = HabitOptions(name: "Walk")
        options.startDay = today.adding(-3)
        options.colour = "#00AA55"
        let walk = try store.createHabit(options)
        let habit = try store.habit(id: walk)
        XCTAssertEqual(habit.name, "Walk")
        XCTAssertEqual(habit.kind, .checkmark)
        XCTAssertEqual(habit.schedule, "daily")
        XCTAssertEqual(habit.colour, "#00AA55")
        XCTAssertNil(habit.archivedDay)
        XCTAssertEqual(try store.habit(named: "walk").id, walk)
        XCTAssertEqual(try store.habits().map(\.id), [walk])

        var ids: [EntryID] = []
        for back in [Int32(-3), -2, -1, 0] {
            ids.append(try store.append(EntryInput(habitID: walk, day: today.adding(back))))
        }
        XCTAssertEqual(try store.streaks(habitID: walk).current.length, 4)
        XCTAssertEqual(try store.dayTotal(habitID: walk, day: today), 1)
        expect(.invalid) { _ = try store.dayTotal(habitID: walk, day: Day(rawValue: Int32.min)) }
        let undo = try store.undo(entryID: ids[1])
        let entries = try store.entries(habitID: walk, from: try XCTUnwrap(today.adding(-3)), through: today)
        XCTAssertEqual(entries.count, 5)
        XCTAssertEqual(entries.first { $0.id == ids[1] }?.undoneBy, undo)
        XCTAssertEqual(entries.last?.kind, .undo)
        XCTAssertEqual(entries.last?.undoes, ids[1])
        let streaks = try store.streaks(habitID: walk)
        XCTAssertEqual(streaks.current.length, 2)
        XCTAssertEqual(streaks.current.lastDay, today)
        XCTAssertEqual(streaks.longest.length, 2)

        let undoneToday = try store.undoLast(habitID: walk)
        XCTAssertEqual(try store.streaks(habitID: walk).current.length, 1, "today is still open: yesterday's run stands")
        expect(.conflict) { try store.undo(entryID: undoneToday) }
        try store.setArchived(true, habitID: walk)
        XCTAssertEqual(try store.habits().count, 0)
        XCTAssertEqual(try store.habits(includingArchived: true).first?.archivedDay, today)

        // A transaction that throws leaves nothing behind.
        let before = try store.habits(includingArchived: true).count
        expect(.conflict) {
            try store.transaction { () throws(HabitError) in
                _ = try store.createHabit(HabitOptions(name: "Read"))
                _ = try store.createHabit(HabitOptions(name: "read"))
            }
        }
        XCTAssertEqual(try store.habits(includingArchived: true).count, before)
        try store.transaction { () throws(HabitError) in _ = try store.createHabit(HabitOptions(name: "Read")) }
        XCTAssertEqual(try store.habits().map(\.name), ["Read"])
    }

    /// A group's day both ways, and the current week beside a completion rate.
    func testGroupDayAndTheCurrentPeriodThroughHabitKit() throws {
        let (store, _) = try freshStore()
        let start = try Day("2026-08-24")
        var read = HabitOptions(name: "Read")
        read.startDay = start
        read.group = "Scholar"
        var run = HabitOptions(name: "Run")
        run.startDay = start
        run.group = "Scholar"
        run.schedule = "weekly:3"
        let readID = try store.createHabit(read), runID = try store.createHabit(run)
        for text in ["2026-08-31", "2026-09-01"] { _ = try store.append(EntryInput(habitID: runID, day: try Day(text))) }
        let wednesday = try Day("2026-09-02")
        _ = try store.append(EntryInput(habitID: readID, day: wednesday))
        let day = try store.groupDay(group: "scholar", on: wednesday)
        XCTAssertEqual([day.due, day.done], [1, 1])
        XCTAssertEqual(day.rate, 1)
        XCTAssertEqual(day.quota.map(\.habitID), [runID])
        XCTAssertEqual(day.quota.first.map { [$0.done, $0.required] }, [2, 3])
        XCTAssertEqual(day.quota.first?.periodFirst, try Day("2026-08-31"))
        XCTAssertEqual(day.allRate, 0.5)
        XCTAssertEqual(try store.groupDay(on: wednesday).quota.count, 1, "every habit: the same here")
        expect(.notFound) { _ = try store.groupDay(group: "nobody") }
        let today = try store.today()
        _ = try store.append(EntryInput(habitID: runID, day: today))
        let completion = try store.completion(habitID: runID, from: start, through: today)
        XCTAssertEqual([completion.currentKept, completion.currentRequired], [1, 3])
        XCTAssertEqual(try XCTUnwrap(completion.rateWithCurrent), Double(completion.kept + 1) / Double(completion.judged + 3), accuracy: 1e-12)
    }

    /// Routine and EntrySource name the header's values, and a store keeps them.
    func testRoutinesAndSourcesAreTheHeadersValues() throws {
        XCTAssertEqual(
            [Routine.anytime, Routine.morning, Routine.day, Routine.evening].map(\.rawValue),
            [HC_ROUTINE_ANYTIME, HC_ROUTINE_MORNING, HC_ROUTINE_DAY, HC_ROUTINE_EVENING])
        XCTAssertEqual(
            [EntrySource.manual, EntrySource.imported, EntrySource.health, EntrySource.proof],
            [HC_SOURCE_MANUAL, HC_SOURCE_IMPORT, HC_SOURCE_HEALTH, HC_SOURCE_PROOF])
        let (store, _) = try freshStore()
        let today = try store.today()
        var options = HabitOptions(name: "Stretch")
        options.routine = Routine.evening
        let stretch = try store.createHabit(options)
        XCTAssertEqual(try store.habit(id: stretch).routine, Routine.evening)
        var input = EntryInput(habitID: stretch)
        XCTAssertEqual(input.source, EntrySource.manual, "the library's default")
        input.source = EntrySource.health
        let entry = try store.append(input)
        XCTAssertEqual(
            try store.entries(habitID: stretch, from: today, through: today).first { $0.id == entry }?.source,
            EntrySource.health)
    }

    func testCredits() throws {
        let (store, _) = try freshStore()
        XCTAssertEqual(try store.timeZone(), "UTC")
        try store.setTimeZone("Europe/Berlin")
        XCTAssertEqual(try store.timeZone(), "Europe/Berlin")
        XCTAssertEqual(try store.dayStart(), 0)
        try store.setDayStart(minutes: 180)
        XCTAssertEqual(try store.dayStart(), 180)
        expect(.invalid) { try store.setDayStart(minutes: 1440) }
        try store.setBusyTimeout(milliseconds: 1_000)
        expect(.invalid) { try store.setBusyTimeout(milliseconds: -1) }
        let sync = try store.syncSteps(6_000)
        XCTAssertEqual(sync.earnedNow, 60)
        XCTAssertEqual(try store.syncSteps(5_000).earnedNow, 0)  // only a higher total earns
        XCTAssertFalse(try store.unlockState().active)
        let spend = try store.spend(15, reason: "unlock", unlock: true)
        XCTAssertGreaterThan(spend, 0)
        let unlocked = try store.unlockState()
        XCTAssertTrue(unlocked.active)
        XCTAssertEqual(unlocked.untilMs - unlocked.startMs, 15 * 60_000)
        let session = try XCTUnwrap(unlocked.sessionID)
        let refund = try store.endSession(session, atMs: unlocked.startMs + 5 * 60_000)
        XCTAssertEqual(refund, 10)
        expect(.conflict) { try store.endSession(session) }
        XCTAssertFalse(try store.unlockState(atMs: unlocked.startMs + 6 * 60_000).active)
        try store.spend(10, reason: "the refund, spent again")
        try store.adjust(-5, reason: nil)
        XCTAssertEqual(try store.balance(), 40)
        let day = try store.creditDay()
        XCTAssertEqual(day.earned, 60)
        XCTAssertEqual(day.spent, 25)
        XCTAssertEqual(day.refunded, 10)
        XCTAssertEqual(day.adjusted, -5)
        XCTAssertEqual(day.available, 40)
        let savings = try store.createAccount(named: "savings")
        XCTAssertEqual(try store.account(named: "savings"), savings)
        try store.setStepsPerMinute(50, account: savings)
        XCTAssertEqual(try store.syncSteps(1_000, account: savings).earnedNow, 20)
        let read = try store.createHabit(HabitOptions(name: "Read"))
        try store.setMinutesPerCompletion(7, habitID: read, account: savings)
        try store.append(EntryInput(habitID: read))
        XCTAssertEqual(try store.balance(account: savings), 27)
        expect(.invalid) { try store.setStepsPerMinute(0) }
        expect(.insufficient) { try store.spend(41) }
        XCTAssertEqual(try store.balance(), 40, "a refused spend writes nothing")
        expect(.notFound) { _ = try store.balance(account: 999) }
    }

    /// Every error a call can give arrives as HabitError with the code the same call
    /// gives in C, and the message read on this thread.
    func testErrorsCarryTheCCodes() throws {
        let (store, path) = try freshStore()
        expect(.invalid) { _ = try store.createHabit(HabitOptions(name: "")) }
        expect(.invalid) { _ = try store.createHabit(HabitOptions(name: "a\u{0}b")) }
        _ = try store.createHabit(HabitOptions(name: "Walk"))
        expect(.conflict) { _ = try store.createHabit(HabitOptions(name: "WALK")) }
        expect(.notFound) { _ = try store.habit(id: 424_242) }
        // The same calls in C give the same codes.
        var missing: UnsafeMutablePointer<hc_habit>?
        var raw: OpaquePointer?
        XCTAssertEqual(hc_store_open(&raw, path, 0), HC_OK)
        XCTAssertEqual(hc_habit_get(&missing, raw, 424_242), HabitError.Code.notFound.rawValue)
        var options = hc_habit_options()
        XCTAssertEqual(hc_habit_options_init(&options, UInt32(MemoryLayout<hc_habit_options>.size)), HC_OK)
        var id: Int64 = 0
        let conflict = "WALK".withCString { name in
            options.name = name
            return hc_habit_create(&id, raw, &options)
        }
        XCTAssertEqual(conflict, HabitError.Code.conflict.rawValue)
        XCTAssertEqual(hc_store_close(raw), HC_OK)

        let readOnly = try HabitKit.Store(path: path, options: .readOnly)
        expect(.readOnly) { _ = try readOnly.createHabit(HabitOptions(name: "Swim")) }
        try readOnly.close()
        expect(.notFound) { _ = try HabitKit.Store(path: path + ".absent", options: .noCreate) }
        let junk = path + ".junk"
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: junk))
        expect(.corrupt) { _ = try HabitKit.Store(path: junk) }

        try store.close()
        try store.close()  // closing again does nothing
        expect(.misuse) { _ = try store.today() }
        // The file is free again once closed.
        XCTAssertEqual(try HabitKit.Store(path: path).habits().map(\.name), ["Walk"])
    }

    func testAVerifierClosureJudgesAndWhatItThrowsBecomesAnErrorVerdict() throws {
        let (store, _) = try freshStore()
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        try store.registerVerifier(id: "model", version: "2") { evidence in
            XCTAssertEqual(evidence.habitName, "Walk")
            XCTAssertEqual(evidence.sha256?.count, 64)
            return VerifierVerdict(
                outcome: .approved, confidence: 0.9, reasonCode: "looks_right",
                message: "fine", signals: "bytes_\(evidence.bytes.count)")
        }
        try store.setProofPolicy(ProofPolicy(verifiers: ["model"]), habitID: walk)
        let approved = try store.submitProof(ProofInput(habitID: walk, bytes: [0x89, 0x50, 0x4E, 0x47, 1]))
        XCTAssertEqual(approved.outcome, .approved, approved.message)
        XCTAssertNotNil(approved.entryID)
        XCTAssertEqual(try store.streaks(habitID: walk).current.length, 1)
        let verdict = try XCTUnwrap(store.verdicts(proofID: approved.proofID).first { $0.verifierID == "model" })
        XCTAssertEqual(verdict.reasonCode, "looks_right")
        XCTAssertEqual(verdict.signals, "bytes_5")

        struct ModelUnavailable: Error, CustomStringConvertible { var description: String { "the model is not loaded" } }
        let read = try store.createHabit(HabitOptions(name: "Read"))
        try store.registerVerifier(id: "model") { _ in throw ModelUnavailable() }
        try store.setProofPolicy(ProofPolicy(verifiers: ["model"]), habitID: read)
        let failed = try store.submitProof(ProofInput(habitID: read, bytes: [0x89, 0x50, 0x4E, 0x47, 2]))
        XCTAssertEqual(failed.outcome, .error)
        let thrown = try XCTUnwrap(store.verdicts(proofID: failed.proofID).first { $0.verifierID == "model" })
        XCTAssertEqual(thrown.outcome, .error)
        XCTAssertEqual(thrown.reasonCode, "verifier_threw")
        XCTAssertEqual(thrown.message, "the model is not loaded")
        expect(.invalid) { try store.registerVerifier(id: "Not An Id") { _ in VerifierVerdict(outcome: .approved, confidence: 1, reasonCode: "x") } }
    }

    /// A verdict between the thresholds waits for a person; a proof from a file; the schema.
    func testReviewsProofFilesAndTheSchema() throws {
        let (store, path) = try freshStore()
        XCTAssertGreaterThan(try store.schemaVersion(), 0)
        let synced = try HabitKit.Store(path: path + ".sync", options: .syncFull)
        XCTAssertEqual(try synced.schemaVersion(), try store.schemaVersion())
        try synced.close()
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        try store.registerVerifier(id: "unsure") { _ in VerifierVerdict(outcome: .approved, confidence: 0.6, reasonCode: "maybe") }
        var policy = ProofPolicy(verifiers: ["unsure"])
        XCTAssertEqual(policy.approveThreshold, 0.8)  // the library's defaults
        XCTAssertEqual(policy.reviewThreshold, 0.5)
        policy.onePerDay = true
        try store.setProofPolicy(policy)
        let file = path + ".png"
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7]).write(to: URL(fileURLWithPath: file))
        let waiting = try store.submitProof(ProofInput(habitID: walk, path: file))
        XCTAssertEqual(waiting.outcome, .needsReview, waiting.message)
        XCTAssertNil(waiting.entryID)
        let entry = try store.review(proofID: waiting.proofID, approve: true, reviewer: "parent", reason: "saw it")
        XCTAssertNotNil(entry)
        XCTAssertEqual(try store.streaks(habitID: walk).current.length, 1)
        expect(.conflict) { try store.review(proofID: waiting.proofID, approve: false, reviewer: "parent", reason: "no") }
        let review = try XCTUnwrap(store.verdicts(habitID: walk).last)
        XCTAssertEqual(review.stage, .review)
        XCTAssertEqual(review.reviewer, "parent")
        XCTAssertEqual(review.entryID, entry)
        expect(.notFound) { _ = try store.submitProof(ProofInput(habitID: walk, path: path + ".absent")) }
        expect(.invalid) { try store.setProofPolicy(ProofPolicy(verifiers: ["Not An Id"])) }
    }

    /// Each closure is released exactly once (replaced, removed, store closed or
    /// dropped), never on a refused registration, and never called after.
    func testVerifierClosuresAreReleasedExactlyOnceAndNeverCalledAfter() throws {
        final class Tracked: @unchecked Sendable {
            let releases: Locked<[String]>
            let name: String
            init(_ name: String, _ releases: Locked<[String]>) { self.name = name; self.releases = releases }
            deinit { let name = self.name; releases.update { $0.append(name) } }
        }
        let releases = Locked<[String]>([])
        let calls = Locked<[String]>([])
        func judge(_ name: String) -> @Sendable (Evidence) throws -> VerifierVerdict {
            let tracked = Tracked(name, releases)
            return { _ in
                calls.update { $0.append(tracked.name) }
                return VerifierVerdict(outcome: .rejected, confidence: 1, reasonCode: "counted")
            }
        }
        let (store, path) = try freshStore()
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        try store.setProofPolicy(ProofPolicy(verifiers: ["counter"]))
        var seed: UInt8 = 0
        func submit(_ on: HabitKit.Store) throws {
            seed += 1
            _ = try on.submitProof(ProofInput(habitID: walk, bytes: [0x89, 0x50, 0x4E, 0x47, seed]))
        }

        expect(.invalid) { try store.registerVerifier(id: "Bad Id", judge("refused")) }
        XCTAssertEqual(releases.value, ["refused"], "a refused registration's closure is ours to drop, at once")
        try store.registerVerifier(id: "counter", judge("first"))
        try submit(store)
        try store.registerVerifier(id: "counter", judge("second"))
        XCTAssertEqual(releases.value, ["refused", "first"])
        try submit(store)
        try store.removeVerifier(id: "counter")
        XCTAssertEqual(releases.value, ["refused", "first", "second"])
        try submit(store)  // nobody is called: the verifier is unknown now
        try store.registerVerifier(id: "counter", judge("third"))
        try submit(store)
        try store.close()
        XCTAssertEqual(releases.value, ["refused", "first", "second", "third"])
        XCTAssertEqual(calls.value, ["first", "second", "third"])

        // A store dropped without close() releases its closures too.
        do {
            let dropped = try HabitKit.Store(path: path)
            try dropped.registerVerifier(id: "counter", judge("dropped"))
            try submit(dropped)
        }
        XCTAssertEqual(releases.value.last, "dropped")
        XCTAssertEqual(releases.value.count, 5)
        XCTAssertEqual(calls.value, ["first", "second", "third", "dropped"])
    }

    /// A closure the store is running (a verifier, export and import progress) that calls
    /// the same store gets .misuse at once, naming the rule, and the outer call goes on with
    /// its answer; another Store on the same file works there. Run on a thread of its own
    /// with a deadline, so a deadlock fails the test instead of hanging the suite.
    func testCallsOnTheStoreFromInsideItsOwnClosuresThrowMisuse() throws {
        let (store, path) = try freshStore()
        let second = try HabitKit.Store(path: path)
        let target = try HabitKit.Store(path: path + ".imported")
        let seen = Locked<[String]>([])
        // What one call from inside a closure gave: "refused" (.misuse naming the rule), "ok" or the error.
        @Sendable func attempt(_ what: String, _ body: () throws(HabitError) -> Void) {
            let outcome: String
            do throws(HabitError) {
                try body()
                outcome = "ok"
            } catch  where error.code == .misuse && error.message.contains("from inside a callback the store is running is refused") {
                outcome = "refused"
            } catch {
                outcome = "\(error.code.rawValue): \(error.message)"
            }
            seen.update { $0.append(what + " " + outcome) }
        }
        @Sendable func callBackIn(_ running: HabitKit.Store, _ other: HabitKit.Store, _ label: String) {
            attempt(label + " same") { () throws(HabitError) in _ = try running.schemaVersion() }
            attempt(label + " other") { () throws(HabitError) in _ = try other.dayStart() }
        }
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        try store.setProofPolicy(ProofPolicy(verifiers: ["reentrant"]))
        try store.registerVerifier(id: "reentrant") { _ in
            callBackIn(store, second, "verifier")
            return VerifierVerdict(outcome: .approved, confidence: 1, reasonCode: "reentered")
        }
        let file = path + ".jsonl"
        let results = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                let proof = try store.submitProof(ProofInput(habitID: walk, bytes: [0x89, 0x50, 0x4E, 0x47, 1]))
                results.update { $0.append("proof \(proof.outcome == .approved) \(proof.reasonCode)") }
                try store.export(to: file, format: .jsonLines) { done, total in
                    if done == total { callBackIn(store, second, "export") }
                    return false
                }
                try target.importFile(file) { done, total in
                    if done == total { callBackIn(target, store, "import") }
                    return false
                }
                results.update { $0.append("done") }
            } catch {
                results.update { $0.append("\(error)") }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + 60) == .success else {
            return XCTFail("a call from inside a closure did not return: deadlocked (seen so far: \(seen.value))")
        }
        XCTAssertEqual(results.value, ["proof true reentered", "done"])
        XCTAssertEqual(
            seen.value,
            [
                "verifier same refused", "verifier other ok", "export same refused", "export other ok",
                "import same refused", "import other ok",
            ])
        XCTAssertEqual(try target.habit(named: "Walk").name, "Walk")
        XCTAssertGreaterThan(try store.schemaVersion(), 0)  // usable again outside
        try target.close()
        try second.close()
        try store.close()
    }
}

extension XCTestCase {
    /// A new store file in a folder of its own, removed after the test; and its path.
    func freshStore(_ name: String = "kit.db") throws -> (HabitKit.Store, String) {
        let dir = try temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/" + name
        return (try HabitKit.Store(path: path), path)
    }

    /// Runs body, which must throw a HabitError with this code and a message.
    func expect(
        _ code: HabitError.Code, file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            XCTFail("no error; expected \(code)", file: file, line: line)
        } catch let error as HabitError {
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, "\(code) came without a message", file: file, line: line)
        } catch {
            XCTFail("\(error) is not a HabitError", file: file, line: line)
        }
    }
}
