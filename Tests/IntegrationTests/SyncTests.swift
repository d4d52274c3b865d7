import CHabitCore
import Foundation
import HabitExports
import XCTest

/// Sync through the C functions, on real store files: two or three devices that write
/// offline, exchange changesets and agree; each merge rule on its own.
final class SyncTests: StoreTestCase {
    func testTwoDevicesLogOfflineAndAgree() throws {
        let phone = try open("phone.db"), laptop = try open("laptop.db")
        defer { hc_store_close(phone); hc_store_close(laptop) }
        let read = createHabit(phone, "Read")
        pull(laptop, from: phone)
        let readThere = habitId(laptop, "Read")
        XCTAssertGreaterThan(readThere, 0)
        // Offline, each logs a different day; the laptop also makes a habit of its own.
        append(phone, read, on: "2026-01-02")
        append(laptop, readThere, on: "2026-01-03")
        _ = createHabit(laptop, "Walk")
        XCTAssertNotEqual(canonical(phone), canonical(laptop))
        let toLaptop = pull(laptop, from: phone)
        XCTAssertEqual(toLaptop.entries_added, 1)
        let toPhone = pull(phone, from: laptop)
        XCTAssertEqual(toPhone.entries_added, 1)
        XCTAssertGreaterThanOrEqual(toPhone.habits_changed, 1, "the new habit and its schedule")
        XCTAssertEqual(canonical(phone), canonical(laptop))
        XCTAssertEqual(state(phone), state(laptop))
        XCTAssertEqual(total(phone, read, "2026-01-03"), 1)
        XCTAssertEqual(total(laptop, readThere, "2026-01-02"), 1)
        XCTAssertGreaterThan(habitId(phone, "Walk"), 0)
        // Nothing more to send either way; applying everything again changes nothing.
        XCTAssertEqual(pull(phone, from: laptop).ops_received, 0)
        let again = apply(changes(laptop, for: []), to: phone)
        XCTAssertGreaterThan(again.ops_received, 0)
        XCTAssertEqual(again.ops_new, 0)
        XCTAssertEqual(again.ops_applied, 0)
        XCTAssertEqual(canonical(phone), canonical(laptop))
    }

    /// hc_sync_state_replicas lists what a state names: each replica with how far its
    /// store holds it, in id order, under the caller buffer rules; bytes that are not a
    /// state are HC_E_INVALID, never read past.
    func testAStateNamesItsReplicasAndHowFarEachIsHeld() throws {
        let phone = try open("phone.db"), laptop = try open("laptop.db")
        defer { hc_store_close(phone); hc_store_close(laptop) }
        func replica(_ store: OpaquePointer) -> [UInt8] {
            var id = [UInt8](repeating: 0, count: 16)
            var count: Int64 = 0
            ok(hc_sync_replica(&id, 16, &count, store))
            return id
        }
        func known(_ state: [UInt8]) -> [(replica: [UInt8], seen: Int64)] {
            var count: Int64 = -1
            ok(hc_sync_state_replicas(nil, nil, 0, &count, state, Int64(state.count)))
            var ids = [UInt8](repeating: 0, count: Int(count) * 16), seqs = [Int64](repeating: 0, count: Int(count))
            ok(hc_sync_state_replicas(&ids, &seqs, count, &count, state, Int64(state.count)))
            return (0..<Int(count)).map { (Array(ids[$0 * 16..<$0 * 16 + 16]), seqs[$0]) }
        }
        XCTAssertTrue(known(state(phone)).isEmpty, "a new store has seen nothing")
        XCTAssertTrue(known([]).isEmpty, "the empty state")
        let read = createHabit(phone, "Read")
        for day in ["2026-01-02", "2026-01-03", "2026-01-04"] { append(phone, read, on: day) }
        _ = createHabit(laptop, "Walk")
        pull(laptop, from: phone)
        pull(phone, from: laptop)
        let listed = known(state(laptop))
        XCTAssertEqual(listed.map(\.replica), [replica(phone), replica(laptop)].sorted { $0.lexicographicallyPrecedes($1) })
        // How far each is held: every op its own store wrote (the laptop holds all of both).
        for (id, seen) in listed {
            let store = id == replica(phone) ? phone : laptop
            XCTAssertEqual(seen, known(state(store)).first { $0.replica == id }?.seen, "replica \(id)")
            XCTAssertGreaterThanOrEqual(seen, store == phone ? 5 : 2)
        }
        // A short buffer takes what fits and says how many there are.
        let bytes = state(laptop)
        var one = [UInt8](repeating: 0, count: 16), seq: Int64 = 0, count: Int64 = 0
        ok(hc_sync_state_replicas(&one, &seq, 1, &count, bytes, Int64(bytes.count)))
        XCTAssertEqual(count, 2)
        XCTAssertEqual(one, listed[0].replica)
        XCTAssertEqual(seq, listed[0].seen)
        // Refused: a capacity without buffers, a negative size, and every truncation and
        // single-byte change of a real state (its checksum).
        XCTAssertEqual(hc_sync_state_replicas(nil, nil, 1, &count, bytes, Int64(bytes.count)), HC_E_INVALID)
        XCTAssertEqual(hc_sync_state_replicas(nil, nil, 0, &count, bytes, -1), HC_E_INVALID)
        XCTAssertEqual(hc_sync_state_replicas(nil, nil, 0, nil, bytes, Int64(bytes.count)), HC_E_INVALID)
        for cut in 1..<bytes.count {
            XCTAssertEqual(hc_sync_state_replicas(nil, nil, 0, &count, bytes, Int64(cut)), HC_E_INVALID, "\(cut) bytes")
        }
        for index in bytes.indices {
            var damaged = bytes
            damaged[index] ^= 0x40
            XCTAssertEqual(hc_sync_state_replicas(nil, nil, 0, &count, damaged, Int64(damaged.count)), HC_E_INVALID, "byte \(index)")
        }
    }

    func testUndoOfARemoteEntryAndAnUndoThatWaitsForItsEntry() throws {
        let a = try open("a.db"), b = try open("b.db"), c = try open("c.db")
        defer { hc_store_close(a); hc_store_close(b); hc_store_close(c) }
        let habit = createHabit(a, "Run")
        pull(b, from: a)
        pull(c, from: a)
        let (_, entry) = append(a, habit, on: "2026-01-05")
        pull(c, from: a)
        // C undoes A's entry. B gets C's undo before A's entry: it waits.
        var undo: Int64 = 0
        let entryOnC = try XCTUnwrap(entries(c, habitId(c, "Run")).first)
        ok(hc_entry_undo(&undo, c, entryOnC))
        // What A has seen is everything but C's own writes: the undo alone.
        let onlyTheUndo = changes(c, for: state(a))
        let waiting = apply(onlyTheUndo, to: b)
        XCTAssertEqual(waiting.ops_new, 1)
        XCTAssertEqual(waiting.ops_waiting, 1, "the undo waits for its entry")
        XCTAssertEqual(total(b, habitId(b, "Run"), "2026-01-05"), 0)
        let arrived = pull(b, from: a)
        XCTAssertEqual(arrived.entries_added, 2, "the entry, then the undo that waited")
        XCTAssertEqual(arrived.ops_waiting, 0)
        XCTAssertEqual(total(b, habitId(b, "Run"), "2026-01-05"), 0, "cancelled")
        // A undoes its own entry too, offline: cancelled once everywhere.
        ok(hc_entry_undo(&undo, a, entry))
        for _ in 0..<2 { for (x, y) in [(a, b), (b, c), (c, a), (a, c), (b, a), (c, b)] { pull(x, from: y) } }
        XCTAssertEqual(canonical(a), canonical(b))
        XCTAssertEqual(canonical(b), canonical(c))
        XCTAssertEqual(total(a, habit, "2026-01-05"), 0)
        XCTAssertTrue(canonical(a).contains("undone=1"))
    }

    func entries(_ store: OpaquePointer, _ habit: Int64) -> [Int64] {
        var list: OpaquePointer?
        ok(hc_entry_list_open(&list, store, habit, day("2026-01-01"), day("2026-12-31")))
        defer { hc_entry_list_free(list) }
        var count: Int64 = 0
        ok(hc_entry_list_count(&count, list))
        return (0..<count).compactMap { index in
            var entry: UnsafePointer<hc_entry>?
            ok(hc_entry_list_get(&entry, list, index))
            return entry?.pointee.id
        }
    }

    func testHabitFieldsMergeLastWriterWinsPerField() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        let habit = createHabit(a, "Pages", kind: HC_KIND_COUNTER, target: 10)
        pull(b, from: a)
        let there = habitId(b, "Pages")
        // A changes the target, then B (later) the unit and the target: per field, the later write wins.
        var options = defaults(hc_habit_options_init)
        options.target = 20
        options.direction = HC_DIRECTION_AT_LEAST
        ok(hc_habit_update(a, habit, &options, HC_HABIT_FIELD_TARGET))
        usleep(5_000)
        "pp".withCString { unit in
            options.unit = unit
            options.target = 30
            ok(hc_habit_update(b, there, &options, HC_HABIT_FIELD_TARGET | HC_HABIT_FIELD_UNIT))
        }
        usleep(5_000)
        "Reading".withCString { name in
            options.name = name
            ok(hc_habit_update(a, habit, &options, HC_HABIT_FIELD_NAME))
        }
        pull(a, from: b)
        pull(b, from: a)
        XCTAssertEqual(canonical(a), canonical(b))
        let text = canonical(a)
        XCTAssertTrue(text.contains("name=\"Reading\""), text)
        XCTAssertTrue(text.contains("target=30.0"), text)
        XCTAssertTrue(text.contains("unit=\"pp\""), text)
        // Archived on one device: archived on both.
        ok(hc_habit_archive(b, there, 1))
        pull(a, from: b)
        XCTAssertEqual(canonical(a), canonical(b))
        XCTAssertFalse(canonical(a).contains("archived=-"))
    }

    /// The display fields as store reads them back through the C header.
    func display(_ store: OpaquePointer, _ name: String) -> [String] {
        var habit: UnsafeMutablePointer<hc_habit>?
        ok(hc_habit_find(&habit, store, name))
        defer { hc_habit_free(habit) }
        guard let h = habit?.pointee else { return [] }
        func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "-" }
        return [text(h.description), text(h.question), text(h.colour), text(h.icon), String(h.position)]
    }

    func testDisplayFieldsTravelAndMergeLastWriterWinsPerField() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        var options = defaults(hc_habit_options_init)
        options.direction = HC_DIRECTION_AT_LEAST
        options.target = 1
        options.start_day = day("2026-01-01")
        var habit: Int64 = 0
        "Sit".withCString { name in
            "Ten minutes".withCString { description in
                "#8E24AA".withCString { colour in
                    options.name = name
                    options.description = description
                    options.colour = colour
                    ok(hc_habit_create(&habit, a, &options))
                }
            }
        }
        pull(b, from: a)
        XCTAssertEqual(display(b, "Sit"), ["Ten minutes", "-", "#8E24AA", "-", "0"], "a new habit's display fields travel with it")
        let there = habitId(b, "Sit")
        // A recolours it; later B recolours it and asks a question; later still A moves it.
        options = defaults(hc_habit_options_init)
        "#00897B".withCString {
            options.colour = $0; ok(hc_habit_update(a, habit, &options, HC_HABIT_FIELD_COLOUR))
        }
        usleep(5_000)
        "#D32F2F".withCString { colour in
            "Sat?".withCString { question in
                options.colour = colour
                options.question = question
                ok(hc_habit_update(b, there, &options, HC_HABIT_FIELD_COLOUR | HC_HABIT_FIELD_QUESTION))
            }
        }
        usleep(5_000)
        options = defaults(hc_habit_options_init)
        options.position = 3
        ok(hc_habit_update(a, habit, &options, HC_HABIT_FIELD_POSITION))
        pull(a, from: b)
        pull(b, from: a)
        XCTAssertEqual(display(a, "Sit"), ["Ten minutes", "Sat?", "#D32F2F", "-", "3"])
        XCTAssertEqual(display(b, "Sit"), display(a, "Sit"))
        XCTAssertEqual(canonical(a), canonical(b))
        // Cleared on one device: cleared on both.
        "".withCString {
            options.description = $0; ok(hc_habit_update(b, there, &options, HC_HABIT_FIELD_DESCRIPTION))
        }
        pull(a, from: b)
        XCTAssertEqual(display(a, "Sit")[0], "-")
        XCTAssertEqual(canonical(a), canonical(b))
    }

    func testTwoHabitsCreatedWithOneNameKeepBoth() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        _ = createHabit(a, "Run")
        _ = createHabit(b, "Run")
        pull(a, from: b)
        pull(b, from: a)
        XCTAssertEqual(canonical(a), canonical(b))
        XCTAssertEqual(eachHabit(a) { _ in 1 }.count, 2)
        let names = eachHabit(a) { String(cString: $0.name) }.sorted()
        XCTAssertEqual(names.filter { $0 == "Run" }.count, 1, "\(names)")
        XCTAssertTrue(names.contains { $0.hasPrefix("Run (") }, "\(names)")
    }

    func testVacationsAreAnObservedRemoveSet() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        var first: Int64 = 0, second: Int64 = 0
        ok(hc_vacation_add(&first, a, 0, day("2026-02-01"), day("2026-02-07")))
        pull(b, from: a)
        // A removes the vacation it has; B, offline, adds another with the same days.
        ok(hc_vacation_remove(a, first))
        ok(hc_vacation_add(&second, b, 0, day("2026-02-01"), day("2026-02-07")))
        pull(a, from: b)
        pull(b, from: a)
        XCTAssertEqual(canonical(a), canonical(b))
        XCTAssertEqual(canonical(a).components(separatedBy: "\nvacation ").count - 1, 1, "the removal cancels only the vacation it saw")
    }

    func testSettingsFollowThePerson() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        ok(hc_store_set_timezone(a, "Europe/Paris"))
        ok(hc_store_set_week_start(b, 0))
        pull(a, from: b)
        pull(b, from: a)
        XCTAssertEqual(canonical(a), canonical(b))
        var zone: UnsafeMutablePointer<CChar>?
        ok(hc_store_timezone(&zone, b))
        XCTAssertEqual(zone.map { String(cString: $0) }, "Europe/Paris")
        hc_free(zone)
    }

    func balance(_ store: OpaquePointer, _ account: Int64 = 0) -> Int64 {
        var available: Int64 = 0
        ok(hc_credit_balance(&available, store, account))
        return available
    }

    @discardableResult
    func steps(_ store: OpaquePointer, _ count: Int64, day: Int32 = Int32.min) -> hc_step_sync {
        var out = defaults(hc_step_sync_init)
        ok(hc_credit_sync_steps(&out, store, 0, day, count))
        return out
    }

    func creditDay(_ store: OpaquePointer, _ day: Int32 = Int32.min) -> hc_credit_day {
        var out = defaults(hc_credit_day_init)
        ok(hc_credit_day_summary(&out, store, 0, day))
        return out
    }

    func exchange(_ a: OpaquePointer, _ b: OpaquePointer) {
        pull(b, from: a)
        pull(a, from: b)
    }

    /// Spends made offline on two devices are both kept, though together they
    /// overdraw: the balance shows the debt, and later earnings pay it back.
    func testOfflineSpendsOnTwoDevicesAreBothKeptAndShowTheDebt() throws {
        let phone = try open("phone.db"), tablet = try open("tablet.db")
        defer { hc_store_close(phone); hc_store_close(tablet) }
        steps(phone, 5_000)
        let first = pull(tablet, from: phone)
        XCTAssertEqual(first.credits_changed, 1, "one step report")
        XCTAssertEqual(balance(tablet), 50, "the step report travels; the tablet derives its earning")
        // Offline, each spends what it sees.
        ok(hc_credit_spend(nil, phone, 0, 40, "games", 0))
        ok(hc_credit_spend(nil, tablet, 0, 30, "video", HC_SPEND_UNLOCK))
        XCTAssertEqual(balance(phone), 10)
        XCTAssertEqual(balance(tablet), 20)
        exchange(phone, tablet)
        XCTAssertEqual(balance(phone), -20, "both spends kept: a debt of 20")
        XCTAssertEqual(balance(tablet), -20)
        XCTAssertEqual(creditDay(phone).spent, 70)
        XCTAssertEqual(canonical(phone), canonical(tablet))
        XCTAssertEqual(canonical(phone).components(separatedBy: "kind=spend").count - 1, 2, canonical(phone))
        XCTAssertEqual(hc_credit_spend(nil, phone, 0, 1, nil, 0), HC_E_INSUFFICIENT, "nothing to spend while in debt")
        // A later, higher report earns 40 more on one device: both see the debt paid back.
        steps(tablet, 9_000)
        exchange(phone, tablet)
        XCTAssertEqual(balance(phone), 20)
        XCTAssertEqual(balance(tablet), 20)
        XCTAssertEqual(creditDay(phone).earned, 90)
        XCTAssertEqual(canonical(phone), canonical(tablet))
        // The same again changes nothing.
        let again = apply(changes(tablet, for: []), to: phone)
        XCTAssertEqual(again.ops_applied, 0)
        XCTAssertEqual(balance(phone), 20)
        // A store that received every record directly holds the same.
        let fresh = try open("fresh.db")
        defer { hc_store_close(fresh) }
        apply(changes(phone, for: []), to: fresh)
        XCTAssertEqual(balance(fresh), 20)
        XCTAssertEqual(canonical(fresh), canonical(phone))
    }

    /// Step reports from two devices for one day: the highest total earns, once.
    func testStepReportsOfOneDayFromTwoDevicesEarnTheHighestOnce() throws {
        let watch = try open("watch.db"), phone = try open("phone.db")
        defer { hc_store_close(watch); hc_store_close(phone) }
        steps(watch, 5_000)
        steps(phone, 7_000)
        let yesterday = creditDay(watch).day - 1
        steps(watch, 3_000, day: yesterday)
        steps(phone, 2_000, day: yesterday)
        exchange(watch, phone)
        for store in [watch, phone] {
            XCTAssertEqual(creditDay(store).steps, 7_000)
            XCTAssertEqual(creditDay(store).earned, 70, "not 50 + 70")
            XCTAssertEqual(balance(store), 70)
            let past = creditDay(store, yesterday)
            XCTAssertEqual([past.steps, past.earned, past.expired, past.available], [3_000, 30, 30, 0], "yesterday's minutes expired")
        }
        XCTAssertEqual(canonical(watch), canonical(phone))
        // A lower report later changes nothing anywhere.
        let lower = steps(watch, 6_000)
        XCTAssertEqual(lower.earned_now, 0)
        exchange(watch, phone)
        XCTAssertEqual(balance(phone), 70)
        XCTAssertEqual(canonical(watch), canonical(phone))
    }

    func testDamagedChangesetsAreRefusedAndWriteNothing() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        let habit = createHabit(a, "Run")
        for date in ["2026-01-02", "2026-01-03"] { append(a, habit, on: date) }
        let good = changes(a, for: [])
        let before = canonical(b), stateBefore = state(b)
        for length in stride(from: 0, to: good.count, by: 3) {
            apply(Array(good.prefix(length)), to: b, expect: HC_E_INVALID)
        }
        for index in stride(from: 0, to: good.count, by: 2) {
            var damaged = good
            damaged[index] ^= 0x04
            apply(damaged, to: b, expect: HC_E_INVALID)
        }
        apply(good + [0], to: b, expect: HC_E_INVALID)
        XCTAssertEqual(hc_sync_apply(nil, b, good, 256 << 20 + 1), HC_E_INVALID, "above the size limit, refused before it is read")
        XCTAssertEqual(canonical(b), before)
        XCTAssertEqual(state(b), stateBefore)
        // The error names where: the changeset, and for a bad record which one.
        apply(Array(good.prefix(good.count - 1)), to: b, expect: HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_last_error_message()).hasPrefix("changeset"))
        apply(good, to: b)
        XCTAssertEqual(canonical(b), canonical(a))
    }

    func testProofsAndVerdictsTravelWithoutTheirPhotos() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        let result = submitKeptPhoto(a)
        XCTAssertGreaterThan(result.proof_id, 0)
        if result.outcome != HC_OUTCOME_APPROVED {
            var entry: Int64 = 0
            ok(hc_proof_review(&entry, a, result.proof_id, HC_OUTCOME_APPROVED, "parent", "seen it"))
        }
        let summary = pull(b, from: a)
        XCTAssertGreaterThanOrEqual(summary.proofs_changed, 2, "the proof and its verdicts")
        XCTAssertEqual(summary.ops_waiting, 0)
        let text = canonical(b)
        XCTAssertEqual(text, canonical(a))
        XCTAssertTrue(text.contains("\nproof ") && text.contains("\nverdict "), text)
        XCTAssertTrue(text.contains("source=proof"), "the completion the approval appended travels too")
        // The photo itself stayed on a.
        XCTAssertSucceeded(try runProcess(["sqlite3", dir + "/a.db", "SELECT count(*) FROM proofs WHERE copy IS NOT NULL"]), "a")
        let copies = try runProcess(["sqlite3", dir + "/b.db", "SELECT count(*) FROM proofs WHERE copy IS NOT NULL; SELECT count(*) FROM proofs"])
        XCTAssertEqual(copies.stdout, "0\n1\n")
    }

    /// Evidence travels only when asked for (HC_SYNC_EVIDENCE), is kept for its proof
    /// only when it hashes to the proof's sha256, and reads back with hc_proof_evidence.
    func testEvidenceTravelsWhenAskedForAndOnlyWhenItMatches() throws {
        let a = try open("a.db"), b = try open("b.db"), c = try open("c.db")
        defer { hc_store_close(a); hc_store_close(b); hc_store_close(c) }
        let result = submitKeptPhoto(a)
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ProofTestCase.fixtures + "/bed.png")))
        func evidence(_ store: OpaquePointer, _ proof: Int64) -> (Int32, [UInt8]) {
            var count: Int64 = 0
            let status = hc_proof_evidence(nil, 0, &count, store, proof)
            guard status == HC_OK else { return (status, []) }
            var bytes = [UInt8](repeating: 0, count: Int(count))
            ok(hc_proof_evidence(&bytes, count, &count, store, proof))
            return (HC_OK, bytes)
        }
        XCTAssertEqual(evidence(a, result.proof_id).1, photo, "the kept copy reads back")
        func changesWithEvidence(_ from: OpaquePointer, for peer: [UInt8]) -> [UInt8] {
            var out: UnsafeMutablePointer<UInt8>?
            var size: Int64 = 0
            ok(hc_sync_changes_v2(&out, &size, from, peer, Int64(peer.count), HC_SYNC_EVIDENCE))
            defer { hc_free(out) }
            return out.map { Array(UnsafeBufferPointer(start: $0, count: Int(size))) } ?? []
        }
        // Without the flag the photo stays; with it, it arrives and reads back the same.
        let plain = changes(a, for: state(c))
        let full = changesWithEvidence(a, for: state(c))
        XCTAssertGreaterThan(full.count, plain.count + photo.count - 1)
        apply(plain, to: c)
        let proofOnC = try XCTUnwrap(
            try runProcess(["sqlite3", dir + "/c.db", "SELECT id FROM proofs"]).stdout.split(separator: "\n").first.flatMap { Int64($0) })
        XCTAssertEqual(evidence(c, proofOnC).0, HC_E_NOT_FOUND, "no evidence kept")
        let summary = apply(full, to: c)
        XCTAssertEqual(summary.ops_new, 0, "evidence is not an op of the log")
        XCTAssertEqual(summary.proofs_changed, 1, "the photo kept for the proof already held")
        XCTAssertEqual(evidence(c, proofOnC).1, photo)
        XCTAssertEqual(canonical(c), canonical(a))
        // Relayed on: c keeps it now, so c's changeset with evidence carries it to b.
        apply(changesWithEvidence(c, for: state(b)), to: b)
        let proofOnB = try XCTUnwrap(
            try runProcess(["sqlite3", dir + "/b.db", "SELECT id FROM proofs"]).stdout.split(separator: "\n").first.flatMap { Int64($0) })
        XCTAssertEqual(evidence(b, proofOnB).1, photo)
        // Bytes that do not hash to the sha256 they claim are refused whole, writing nothing.
        var damaged = full
        let at = try XCTUnwrap(damaged.indices.first { damaged[$0...].starts(with: photo.prefix(64)) }) + 40
        damaged[at] ^= 0x01
        let d = try open("d.db")
        defer { hc_store_close(d) }
        let before = canonical(d)
        var body = Array(damaged.dropLast(4))
        let crc = crc32(body)
        for k in 0..<4 { body.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k)))) }
        apply(body, to: d, expect: HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_last_error_message()).contains("sha256"), String(cString: hc_last_error_message()))
        XCTAssertEqual(canonical(d), before)
        var out: UnsafeMutablePointer<UInt8>?
        var size: Int64 = 0
        XCTAssertEqual(hc_sync_changes_v2(&out, &size, a, nil, 0, 0x80), HC_E_INVALID, "unknown flags")
        XCTAssertEqual(evidence(a, 999).0, HC_E_NOT_FOUND)
    }

    /// A habit "Make the bed" and a proof of it (bed.png) whose photo the store keeps.
    func submitKeptPhoto(_ store: OpaquePointer) -> hc_proof_result {
        let habit = createHabit(store, "Make the bed", start: "2020-01-01")
        var input = defaults(hc_proof_input_init)
        input.habit_id = habit
        input.flags = HC_PROOF_KEEP_COPY
        var result = defaults(hc_proof_result_init)
        (ProofTestCase.fixtures + "/bed.png").withCString {
            input.path = $0; ok(hc_proof_submit(&result, store, &input))
        }
        return result
    }

    func testABackupIsAReplicaOfItsOwn() throws {
        let a = try open("a.db")
        defer { hc_store_close(a) }
        let habit = createHabit(a, "Read")
        append(a, habit, on: "2026-01-02")
        ok(hc_store_backup(a, dir + "/copy.db"))
        let copy = try open("copy.db")
        defer { hc_store_close(copy) }
        var mine = [UInt8](repeating: 0, count: 16), theirs = mine
        var n: Int64 = 0
        ok(hc_sync_replica(&mine, 16, &n, a))
        ok(hc_sync_replica(&theirs, 16, &n, copy))
        XCTAssertNotEqual(mine, theirs)
        XCTAssertEqual(canonical(a), canonical(copy), "the same records, under the same global ids")
        // Both write on: nothing collides, and they merge.
        append(a, habit, on: "2026-01-03")
        append(copy, habitId(copy, "Read"), on: "2026-01-04")
        pull(a, from: copy)
        pull(copy, from: a)
        XCTAssertEqual(canonical(a), canonical(copy))
        XCTAssertEqual(canonical(a).components(separatedBy: "\nentry ").count - 1, 3)
    }

    /// Thousands of mutated changesets, resealed with a valid checksum so they reach the
    /// record parser, through hc_sync_apply on a real store: each is applied or refused
    /// with HC_E_INVALID, nothing crashes, and a refused one writes nothing.
    func testMutatedChangesetsNeverCrashAndRefusalsWriteNothing() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        let habit = createHabit(a, "Pages", kind: HC_KIND_COUNTER, target: 10)
        append(a, habit, HC_ENTRY_AMOUNT, value: 3, on: "2026-01-02")
        let (_, entry) = append(a, habit, on: "2026-01-03")
        var undo: Int64 = 0
        ok(hc_entry_undo(&undo, a, entry))
        var vacation: Int64 = 0
        ok(hc_vacation_add(&vacation, a, habit, day("2026-01-05"), day("2026-01-06")))
        ok(hc_vacation_remove(a, vacation))
        ok(hc_store_set_week_start(a, 0))
        let good = changes(a, for: [])
        var random: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random >> 33) % UInt64(max(n, 1)))
        }
        var outcomes: [Int32: Int] = [:]
        for _ in 0..<3000 {
            var body = Array(good.dropLast(4))
            for _ in 0...next(4) {
                switch next(4) {
                case 0: body[next(body.count)] = UInt8(truncatingIfNeeded: next(256))
                case 1: body[next(body.count)] ^= UInt8(1 << next(8))
                case 2: body.insert(UInt8(truncatingIfNeeded: next(256)), at: next(body.count))
                default: if body.count > 8 { body.remove(at: next(body.count)) }
                }
            }
            let crc = crc32(body)
            for k in 0..<4 { body.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k)))) }
            let before = state(b)
            var summary = defaults(hc_sync_summary_init)
            let status = hc_sync_apply(&summary, b, body, Int64(body.count))
            outcomes[status, default: 0] += 1
            XCTAssertTrue(status == HC_OK || status == HC_E_INVALID, "status \(status): \(String(cString: hc_last_error_message()))")
            if status != HC_OK { XCTAssertEqual(state(b), before, "a refused changeset wrote nothing") }
        }
        print("mutated changesets: " + outcomes.sorted { $0.key < $1.key }.map { "status \($0.key): \($0.value)" }.joined(separator: ", "))
        XCTAssertGreaterThan(outcomes[HC_E_INVALID] ?? 0, 0)
        // The store still works. The true changeset merges, or, where a forged op took
        // one of its ids, is refused naming that record (never half applied).
        let status = hc_sync_apply(nil, b, good, Int64(good.count))
        XCTAssertTrue(
            status == HC_OK || String(cString: hc_last_error_message()).contains("different op under the same id"),
            String(cString: hc_last_error_message()))
        _ = createHabit(b, "Still writable")
        XCTAssertTrue(canonical(b).contains("Still writable"))
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The clock's row is written once a transaction, at its commit: two handles on one
    /// file taking turns (explicit transactions, single appends, a rolled-back batch)
    /// still give this replica's ops stamps that rise with their sequence numbers, the
    /// row holds the last stamp given, and every op is in the change log once.
    func testTheClockRowHoldsTheLastStampOfEveryCommitAcrossHandles() throws {
        let first = try open(), second = try open()
        defer { hc_store_close(first); hc_store_close(second) }
        let habit = createHabit(first, "Read")
        var date = day("2026-01-01")
        func appendSome(_ store: OpaquePointer, _ count: Int) {
            for _ in 0..<count {
                var input = defaults(hc_entry_input_init)
                input.habit_id = habit
                input.kind = HC_ENTRY_DONE
                input.day = date
                input.source = HC_SOURCE_MANUAL
                ok(hc_entry_append(nil, store, &input))
                date += 1
            }
        }
        for round in 0..<6 {
            let store = round % 2 == 0 ? first : second
            ok(hc_store_begin(store))
            appendSome(store, 20)
            ok(hc_store_commit(store))
            appendSome(store == first ? second : first, 3)
            ok(hc_store_begin(store))
            appendSome(store, 5)
            ok(hc_store_rollback(store))
        }
        let rows = try runProcess([
            "sqlite3", dir + "/store.db",
            """
            SELECT (SELECT count(*) FROM sync_ops a JOIN sync_ops b ON b.rep = a.rep AND b.seq = a.seq + 1 WHERE a.rep = 1 AND b.hlc <= a.hlc),
                   (SELECT hlc FROM sync_replica) = (SELECT max(hlc) FROM sync_ops WHERE rep = 1),
                   (SELECT count(*) FROM sync_ops WHERE rep = 1 AND kind = 4),
                   (SELECT count(*) FROM change_log) = (SELECT count(*) FROM sync_ops),
                   (SELECT count(*) FROM sync_ops o WHERE NOT EXISTS (SELECT 1 FROM change_log c WHERE c.rep = o.rep AND c.seq = o.seq)),
                   (SELECT count(*) FROM sync_ops);
            """,
        ])
        XCTAssertSucceeded(rows, "read the log")
        let fields = rows.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").map(String.init)
        XCTAssertEqual(fields.prefix(5), ["0", "1", String(6 * (20 + 3)), "1", "0"])
        var revision: Int64 = 0
        ok(hc_store_revision(&revision, second))
        XCTAssertEqual(String(revision), fields.last)
    }

    func testAnOlderStoreGetsGlobalIdsForWhatItHad() throws {
        let old = try open("old.db")
        let habit = createHabit(old, "Read")
        append(old, habit, on: "2026-01-02")
        var vacation: Int64 = 0
        ok(hc_vacation_add(&vacation, old, habit, day("2026-01-10"), day("2026-01-12")))
        hc_store_close(old)
        // Back to schema 12, as a store written by habitcore 1.0.
        XCTAssertSucceeded(try runProcess(["sqlite3", dir + "/old.db", dropSyncSQL + dropHabitDisplaySQL + "PRAGMA user_version = 12;"]), "back to 12")
        let reopened = try open("old.db"), fresh = try open("fresh.db")
        defer { hc_store_close(reopened); hc_store_close(fresh) }
        var version: Int32 = 0
        ok(hc_store_schema_version(&version, reopened))
        XCTAssertEqual(version, latestSchemaVersion)
        let summary = pull(fresh, from: reopened)
        XCTAssertEqual(summary.entries_added, 1)
        XCTAssertEqual(summary.vacations_changed, 1)
        XCTAssertEqual(canonical(fresh), canonical(reopened))
        XCTAssertEqual(total(fresh, habitId(fresh, "Read"), "2026-01-02"), 1)
    }
}
