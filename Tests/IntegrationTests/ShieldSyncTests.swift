import CHabitCore
import Foundation
import HabitCore
import XCTest

/// Shield rules and emergency unlocks between a person's devices, through the C
/// functions on real store files: rules merge as schedules do (last writer wins per
/// rule and effective day), emergency unlocks are a union of records and every
/// device's budget counts them all.
final class ShieldSyncTests: OpenStoreTestCase {
    var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
    /// Every rule's state, without the local habit ids of what is outstanding.
    func comparable(_ store: OpaquePointer, at ms: Int64, file: StaticString = #filePath, line: UInt = #line) -> [Status] {
        states(at: ms, store: store, file: file, line: line).1.map {
            var s = $0; s.outstanding = []; return s
        }
    }

    /// The names of the rules in force on a day.
    func ruleNames(_ store: OpaquePointer, on day: Int32) -> [String] {
        var list: OpaquePointer?
        ok(hc_shield_rule_list_open(&list, store, day))
        defer { hc_shield_rule_list_free(list) }
        var count: Int64 = 0
        ok(hc_shield_rule_list_count(&count, list))
        return (0..<count).map { index in
            var rule: UnsafePointer<hc_shield_rule>?
            ok(hc_shield_rule_list_get(&rule, list, index))
            return rule.flatMap { $0.pointee.name.map { String(cString: $0) } } ?? ""
        }
    }

    func ruleId(_ store: OpaquePointer, on day: Int32) -> Int64 {
        var list: OpaquePointer?
        ok(hc_shield_rule_list_open(&list, store, day))
        defer { hc_shield_rule_list_free(list) }
        var rule: UnsafePointer<hc_shield_rule>?
        ok(hc_shield_rule_list_get(&rule, list, 0))
        return rule?.pointee.id ?? 0
    }

    func exchange(_ a: OpaquePointer, _ b: OpaquePointer) {
        pull(b, from: a)
        pull(a, from: b)
    }

    /// A whole-day window is open now whatever the hour.
    func testARuleMadeOnOneDeviceAnswersTheSameOnAnother() throws {
        let phone = try open("phone.db"), tablet = try open("tablet.db")
        defer { hc_store_close(phone); hc_store_close(tablet) }
        let walk = createHabit(phone, "Walk", start: date(today - 10))
        addRule([walk], budget: (HC_SHIELD_BUDGET_WEEK, 2), store: phone, fromDay: today - 5)
        let before = revision(tablet)
        let summary = pull(tablet, from: phone)
        XCTAssertEqual(summary.ops_waiting, 0)
        XCTAssertGreaterThan(revision(tablet), before, "the merge moved the shield revision")
        XCTAssertEqual(ruleNames(tablet, on: today), ["morning"])
        let now = nowMs
        let there = comparable(tablet, at: now)
        XCTAssertEqual(there.count, 1)
        XCTAssertEqual(there.first?.shielded, true)
        XCTAssertEqual(there.first?.emergencyLeft, 2)
        XCTAssertEqual(there, comparable(phone, at: now))
        XCTAssertEqual(states(at: now, store: tablet).1.first?.outstanding, [habitId(tablet, "Walk")], "the rule names the habit by its local id there")
        XCTAssertEqual(canonical(phone), canonical(tablet))
        XCTAssertTrue(canonical(tablet).contains("\nshield "), canonical(tablet))
        // The habit done on the tablet lifts the shield on the phone too.
        append(tablet, habitId(tablet, "Walk"), on: date(today))
        pull(phone, from: tablet)
        // (A completion lifts from the next whole minute: never early.)
        let after = nowMs + 61_000
        if after / 86_400_000 == Int64(today) {  // (tomorrow's window would be open again)
            XCTAssertEqual(comparable(phone, at: after).first?.shielded, false)
        }
        XCTAssertEqual(comparable(phone, at: after), comparable(tablet, at: after))
    }

    func testRuleEditsOnTwoDevicesConvergeLaterWinsPerDay() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        let walk = createHabit(a, "Walk", start: date(today - 10))
        let rule = addRule([walk], store: a, fromDay: today - 5)
        pull(b, from: a)
        let ruleThere = ruleId(b, on: today), walkThere = habitId(b, "Walk")
        // Offline: both change the rule from tomorrow on (b later); a alone from the day after.
        ok(withRule([walk], end: 12 * 60, name: "a-edit") { hc_shield_rule_update(a, rule, $0, today + 1) })
        ok(withRule([walk], name: "a-later") { hc_shield_rule_update(a, rule, $0, today + 2) })
        usleep(5_000)
        ok(withRule([walkThere], end: 9 * 60, name: "b-edit") { hc_shield_rule_update(b, ruleThere, $0, today + 1) })
        exchange(a, b)
        XCTAssertEqual(canonical(a), canonical(b))
        for store in [a, b] {
            XCTAssertEqual(ruleNames(store, on: today), ["morning"])
            XCTAssertEqual(ruleNames(store, on: today + 1), ["b-edit"], "the later writer wins the day they both changed")
            XCTAssertEqual(ruleNames(store, on: today + 2), ["a-later"], "a day only one changed keeps its change")
        }
        let tomorrow = Int64(today + 1) * 86_400_000 + 600_000
        XCTAssertEqual(comparable(a, at: tomorrow), comparable(b, at: tomorrow))
        // A removal travels the same way, and the earlier edit of that day loses to it.
        ok(hc_shield_rule_remove(b, ruleThere, today + 3))
        exchange(a, b)
        XCTAssertEqual(ruleNames(a, on: today + 3), [])
        XCTAssertEqual(ruleNames(a, on: today + 2), ["a-later"])
        XCTAssertEqual(canonical(a), canonical(b))
        let later = Int64(today + 3) * 86_400_000 + 600_000
        XCTAssertEqual(comparable(a, at: later), comparable(b, at: later))
    }

    /// Two devices each grant the last unlocks the budget allows, offline: both are
    /// kept, and each device's budget then counts them all.
    func testUnlocksGrantedOfflineOnTwoDevicesAreAllKeptAndCounted() throws {
        let a = try open("a.db"), b = try open("b.db")
        defer { hc_store_close(a); hc_store_close(b) }
        let walk = createHabit(a, "Walk", start: date(today - 10))
        let rule = addRule([walk], budget: (HC_SHIELD_BUDGET_WEEK, 2), store: a, fromDay: today - 5)
        pull(b, from: a)
        let ruleThere = ruleId(b, on: today)
        ok(hc_shield_emergency_unlock(nil, a, rule, 5, "on a"))
        ok(hc_shield_emergency_unlock(nil, b, ruleThere, 7, "on b"))
        XCTAssertEqual(comparable(a, at: nowMs).first?.emergencyLeft, 1)
        XCTAssertEqual(comparable(b, at: nowMs).first?.emergencyLeft, 1)
        let before = revision(b)
        exchange(a, b)
        XCTAssertGreaterThan(revision(b), before, "an unlock received moved the revision")
        XCTAssertEqual(comparable(a, at: nowMs).first?.emergencyLeft, 0, "a counts b's unlock")
        XCTAssertEqual(comparable(b, at: nowMs).first?.emergencyLeft, 0, "b counts a's unlock")
        XCTAssertEqual(hc_shield_emergency_unlock(nil, a, rule, 5, nil), HC_E_INSUFFICIENT)
        XCTAssertEqual(hc_shield_emergency_unlock(nil, b, ruleThere, 5, nil), HC_E_INSUFFICIENT)
        // A budget of 3 leaves one: both devices grant it offline; the merge keeps both.
        ok(withRule([walk], budget: (HC_SHIELD_BUDGET_WEEK, 3)) { hc_shield_rule_update(a, rule, $0, today) })
        exchange(a, b)
        ok(hc_shield_emergency_unlock(nil, a, rule, 3, "last on a"))
        ok(hc_shield_emergency_unlock(nil, b, ruleThere, 4, "last on b"))
        exchange(a, b)
        XCTAssertEqual(canonical(a), canonical(b))
        XCTAssertEqual(canonical(a).components(separatedBy: "\nemergency ").count - 1, 4, "no unlock dropped, even past the budget")
        XCTAssertEqual(comparable(a, at: nowMs).first?.emergencyLeft, 0)
        XCTAssertEqual(comparable(a, at: nowMs + 1000), comparable(b, at: nowMs + 1000))
        XCTAssertEqual(hc_shield_emergency_unlock(nil, b, ruleThere, 5, nil), HC_E_INSUFFICIENT)
    }

    func testAnOlderStoresRulesAndUnlocksGetGlobalIds() throws {
        let old = try open("old.db")
        let walk = createHabit(old, "Walk", start: date(today - 10))
        let rule = addRule([walk], budget: (HC_SHIELD_BUDGET_MONTH, 3), store: old, fromDay: today - 5)
        ok(withRule([walk], end: 20 * 60, name: "evening") { hc_shield_rule_update(old, rule, $0, today + 1) })
        ok(hc_shield_emergency_unlock(nil, old, rule, 10, "old"))
        hc_store_close(old)
        XCTAssertSucceeded(try runProcess(["sqlite3", dir + "/old.db", dropSyncSQL + dropHabitDisplaySQL + "PRAGMA user_version = 12;"]), "back to 12")
        let reopened = try open("old.db"), fresh = try open("fresh.db")
        defer { hc_store_close(reopened); hc_store_close(fresh) }
        let summary = pull(fresh, from: reopened)
        XCTAssertEqual(summary.ops_waiting, 0)
        XCTAssertEqual(canonical(fresh), canonical(reopened))
        let text = canonical(fresh)
        XCTAssertEqual(text.components(separatedBy: "\n  version ").count - 1, 2, text)
        XCTAssertEqual(text.components(separatedBy: "\nemergency ").count - 1, 1, text)
        XCTAssertEqual(ruleNames(fresh, on: today + 1), ["evening"])
        XCTAssertEqual(comparable(fresh, at: nowMs), comparable(reopened, at: nowMs))
        XCTAssertEqual(comparable(fresh, at: nowMs).first?.emergencyLeft, 2)
    }

    /// Hostile shield ops are refused whole, naming the record, and write nothing.
    func testBadShieldOpsAreRefusedAndWriteNothing() throws {
        let b = try open("b.db")
        defer { hc_store_close(b) }
        let replica = [UInt8](repeating: 7, count: 16)
        let rule = GlobalId(replica: replica, seq: 1), habit = GlobalId(replica: replica, seq: 2)
        let good = ShieldRule.Settings(
            name: "m", key: "k", days: .daily, startMinute: nil, endMinute: 600, habits: [], lift: .all, sessionLifts: false,
            cutoffLifts: true, excusedLifts: false, failClosed: true, budgetPeriod: .week, budgetCount: 1)
        func changeset(_ ops: [SyncOp]) -> [UInt8] {
            Changeset.encode(
                ops.enumerated().map { StampedOp(id: GlobalId(replica: replica, seq: Int64($0.offset + 1)), hlc: 1000 + Int64($0.offset), op: $0.element) })
        }
        func version(_ change: (inout ShieldRule.Settings) -> Void, habits: [GlobalId] = [habit]) -> SyncOp {
            var settings = good
            change(&settings)
            return .shieldVersion(rule: rule, fromDay: today, settings: settings, habits: habits)
        }
        let bad: [(String, SyncOp)] = [
            ("an empty window", version { $0.startMinute = 600 }),
            ("a cutoff past 23:59", version { $0.endMinute = 1440 }),
            ("a negative budget", version { $0.budgetCount = -1 }),
            ("no name", version { $0.name = "" }),
            ("a quota schedule", version { $0.days = .timesPerWeek(3) }),
            ("no habit", version({ _ in }, habits: [])),
            ("a habit twice", version({ _ in }, habits: [habit, habit])),
            ("an unlock of 0 minutes", .emergencyUnlock(rule: rule, atMs: 1, day: today, minutes: 0, reason: nil)),
            ("an unlock of a day and more", .emergencyUnlock(rule: rule, atMs: 1, day: today, minutes: 1441, reason: nil)),
            ("a reason too long", .emergencyUnlock(rule: rule, atMs: 1, day: today, minutes: 5, reason: String(repeating: "x", count: 501))),
            ("an invalid day", .emergencyUnlock(rule: rule, atMs: 1, day: Int32.max, minutes: 5, reason: nil)),
        ]
        let before = state(b), revisionBefore = revision(b), text = canonical(b)
        for (what, op) in bad {
            let bytes = changeset([.shieldRule(createdAtMs: 1), op])
            apply(bytes, to: b, expect: HC_E_INVALID)
            XCTAssertTrue(String(cString: hc_last_error_message()).contains("record 2"), "\(what): \(String(cString: hc_last_error_message()))")
        }
        // Bytes that no encoder writes: an unknown lift, flags out of range, bytes left over.
        var raw = version { _ in }.encodePayload()
        let liftAt = raw.count - 4  // lift, flags, period, then a one-byte budget count
        for (what, index, value) in [("lift", liftAt, UInt8(9)), ("flags", liftAt + 1, UInt8(16)), ("period", liftAt + 2, UInt8(3))] {
            var forged = raw
            forged[index] = value
            let bytes = Changeset.encode(raw: [
                RawOp(id: rule, hlc: 1000, kind: SyncOp.Kind.shieldRule.rawValue, payload: SyncOp.shieldRule(createdAtMs: 1).encodePayload()),
                RawOp(id: habit, hlc: 1001, kind: SyncOp.Kind.shieldVersion.rawValue, payload: forged),
            ])
            apply(bytes, to: b, expect: HC_E_INVALID)
            XCTAssertTrue(String(cString: hc_last_error_message()).contains("record 2"), "\(what): \(String(cString: hc_last_error_message()))")
        }
        raw.append(0)
        apply(Changeset.encode(raw: [RawOp(id: habit, hlc: 1001, kind: SyncOp.Kind.shieldVersion.rawValue, payload: raw)]), to: b, expect: HC_E_INVALID)
        XCTAssertEqual(state(b), before, "nothing logged")
        XCTAssertEqual(revision(b), revisionBefore, "no shield row written")
        XCTAssertEqual(canonical(b), text)
        // The same ops, well formed, are accepted: the version waits for its habit.
        let accepted = apply(
            changeset([
                .shieldRule(createdAtMs: 1), .emergencyUnlock(rule: rule, atMs: 1, day: today, minutes: 5, reason: nil),
                version { _ in },
            ]), to: b)
        XCTAssertEqual(accepted.ops_applied, 2)
        XCTAssertEqual(accepted.ops_waiting, 1)
        XCTAssertGreaterThan(revision(b), revisionBefore)
    }
}
