import XCTest

@testable import HabitCore

final class SyncFormatTests: XCTestCase {
    let a = [UInt8](repeating: 0xAA, count: 16)
    let b = [UInt8](repeating: 0xBB, count: 16)

    func testClockTicksAboveLastAndFollowsTheWallClock() {
        var rng = SplitMix(seed: 7)
        var last: Int64 = 0
        for _ in 0..<10_000 {
            let wall = Int64(rng.int(1_700_000_000_000...1_700_000_000_100))
            let next = HybridClock.tick(last: last, nowMs: wall)
            XCTAssertGreaterThan(next, last)
            XCTAssertGreaterThanOrEqual(HybridClock.physical(next), wall)
            last = next
        }
    }

    func testReceiveIsAboveBothClocksWhateverTheWallSays() {
        let remote = HybridClock.tick(last: 0, nowMs: 5_000_000)
        let local = HybridClock.tick(last: 0, nowMs: 1_000)
        let merged = HybridClock.receive(last: local, remote: remote, nowMs: 1_000)
        XCTAssertGreaterThan(merged, remote)
        XCTAssertGreaterThan(merged, local)
        // A later local write stays above what was received, though the wall clock is behind.
        XCTAssertGreaterThan(HybridClock.tick(last: merged, nowMs: 2_000), remote)
        // The counter's end borrows a millisecond instead of overflowing; the end of time stays put.
        let full = (Int64(77) << 16) | 0xFFFF
        XCTAssertEqual(HybridClock.physical(HybridClock.tick(last: full, nowMs: 0)), 78)
        XCTAssertEqual(HybridClock.tick(last: HybridClock.max, nowMs: Int64.max), HybridClock.max)
        XCTAssertEqual(HybridClock.tick(last: -5, nowMs: -5), 1, "negative inputs are clamped, never trap")
    }

    func testLastWriterWinsByStampThenReplica() {
        XCTAssertTrue(SyncMerge.wins(hlc: 10, replica: a, over: nil))
        XCTAssertTrue(SyncMerge.wins(hlc: 11, replica: a, over: (10, b)))
        XCTAssertFalse(SyncMerge.wins(hlc: 9, replica: b, over: (10, a)))
        XCTAssertTrue(SyncMerge.wins(hlc: 10, replica: b, over: (10, a)), "a tie goes to the higher replica id")
        XCTAssertFalse(SyncMerge.wins(hlc: 10, replica: a, over: (10, b)))
        XCTAssertFalse(SyncMerge.wins(hlc: 10, replica: a, over: (10, a)), "the same write does not win over itself")
    }

    func testVersionVectorIsTheContiguousPrefix() {
        XCTAssertEqual(SyncMerge.contiguousPrefix([]), 0)
        XCTAssertEqual(SyncMerge.contiguousPrefix([1, 2, 3]), 3)
        XCTAssertEqual(SyncMerge.contiguousPrefix([1, 2, 4, 5]), 2)
        XCTAssertEqual(SyncMerge.contiguousPrefix([2, 3]), 0)
        let vector = VersionVector([a: 3, b: 0])
        XCTAssertEqual(try VersionVector.decode(vector.encode()), vector)
        XCTAssertEqual(try VersionVector.decode([]), VersionVector())
    }

    func sampleOps() -> [StampedOp] {
        let habit = GlobalId(replica: a, seq: 1)
        let spec = HabitSpec(
            name: "Run", kind: .counter, target: 3, direction: .atLeast, group: "Sport", unit: "km", routine: .morning,
            proofRequired: false, startDay: 20_000, schedule: .timesPerWeek(3))
        return [
            StampedOp(id: habit, hlc: 100, op: .habitCreate(spec: spec, createdAtMs: 1_700_000_000_000)),
            StampedOp(id: GlobalId(replica: a, seq: 2), hlc: 101, op: .schedule(habit: habit, fromDay: 20_000, schedule: .daily)),
            StampedOp(
                id: GlobalId(replica: b, seq: 1), hlc: 102,
                op: .entry(
                    habit: habit, day: 20_001, kind: .amount, value: 2.5,
                    recordedAtMs: 5, source: .manual, note: "ok\n", undoes: nil)),
            StampedOp(
                id: GlobalId(replica: b, seq: 2), hlc: 103,
                op: .entry(
                    habit: habit, day: 20_001, kind: .undo, value: 0, recordedAtMs: 6,
                    source: .manual, note: nil, undoes: GlobalId(replica: b, seq: 1))),
            StampedOp(id: GlobalId(replica: b, seq: 3), hlc: 104, op: .habitField(habit: habit, field: .unit, value: .null)),
            StampedOp(id: GlobalId(replica: b, seq: 4), hlc: 105, op: .habitField(habit: habit, field: .target, value: .double(4))),
            StampedOp(id: GlobalId(replica: a, seq: 3), hlc: 106, op: .vacationAdd(habit: nil, first: 20_010, last: 20_012)),
            StampedOp(id: GlobalId(replica: a, seq: 4), hlc: 107, op: .vacationRemove(vacation: GlobalId(replica: a, seq: 3))),
            StampedOp(id: GlobalId(replica: a, seq: 5), hlc: 108, op: .setting(key: "timezone", value: "Europe/Paris")),
            StampedOp(
                id: GlobalId(replica: a, seq: 6), hlc: 109,
                op: .proof(
                    habit: habit, day: 20_001, sha256: String(repeating: "ab", count: 32),
                    size: 1234, mediaType: "image/png", takenAtMs: nil, receivedAtMs: 7,
                    metadata: "{\"w\":3}")),
            StampedOp(
                id: GlobalId(replica: a, seq: 7), hlc: 110,
                op: .verdict(
                    proof: GlobalId(replica: a, seq: 6),
                    verdict: {
                        var v = Verdict(
                            stage: .review, verifierId: "review", verifierVersion: "", outcome: .approved, confidence: 1,
                            reasonCode: "approved_by_review", message: "seen", signals: ["a", "b"])
                        v.reviewer = "parent"
                        v.atMs = 9
                        return v
                    }(), entry: GlobalId(replica: b, seq: 1))),
            StampedOp(id: GlobalId(replica: b, seq: 5), hlc: 111, op: .creditAccount(name: "Kids", createdAtMs: 12)),
            StampedOp(
                id: GlobalId(replica: b, seq: 6), hlc: 112,
                op: .credit(
                    account: "Kids", kind: .spend, minutes: -15, day: 20_001, atMs: 13,
                    reason: "games")),
            StampedOp(id: GlobalId(replica: b, seq: 7), hlc: 113, op: .steps(account: "default", day: 20_001, steps: 5_450, atMs: 14)),
        ]
    }

    func testChangesetRoundTrips() throws {
        let ops = sampleOps()
        let bytes = Changeset.encode(ops)
        XCTAssertEqual(try Changeset.decode(bytes).map(\.op), ops)
        XCTAssertEqual(try Changeset.decode(Changeset.encode([])).count, 0)
    }

    func testEveryTruncationAndEveryBitFlipIsRefused() {
        let bytes = Changeset.encode(sampleOps())
        for length in 0..<bytes.count {
            XCTAssertThrowsError(try Changeset.decode(Array(bytes.prefix(length))), "truncated to \(length)")
        }
        for index in bytes.indices {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[index] ^= UInt8(1 << bit)
                XCTAssertThrowsError(try Changeset.decode(damaged), "bit \(bit) of byte \(index)")
            }
        }
    }

    /// A changeset whose checksum is right but whose content is hostile: refused with the record named.
    func testHostileRecordsAreNamed() {
        func forged(_ kind: UInt8, _ payload: [UInt8], count: UInt64 = 1) -> [UInt8] {
            var w = SyncWriter()
            w.raw(Changeset.magic); w.byte(Changeset.version); w.byte(0)
            w.uvarint(1); w.raw(a)
            w.uvarint(count)
            w.uvarint(0); w.uvarint(1); w.uvarint(1); w.byte(kind); w.uvarint(UInt64(payload.count)); w.raw(payload)
            w.uint32(CRC32.checksum(w.bytes))
            return w.bytes
        }
        func message(_ bytes: [UInt8]) -> String {
            do { _ = try Changeset.decode(bytes); return "accepted" } catch { return error.message }
        }
        XCTAssertTrue(message(forged(99, [])).contains("record 1"), message(forged(99, [])))
        XCTAssertTrue(message(forged(99, [])).contains("unknown op kind"))
        var setting = SyncWriter(); setting.text("events_scanned_entry"); setting.text("5")
        XCTAssertTrue(message(forged(SyncOp.Kind.setting.rawValue, setting.bytes)).contains("does not sync"))
        var badDay = SyncWriter(); badDay.raw(a); badDay.uvarint(1); badDay.varint(Int64(Int32.max)); badDay.text("daily")
        XCTAssertTrue(message(forged(SyncOp.Kind.schedule.rawValue, badDay.bytes)).contains("day"))
        XCTAssertTrue(message(forged(SyncOp.Kind.vacationRemove.rawValue, Array(a) + [1], count: 1_000_000_000)).contains("op count"))
        var huge = SyncWriter(); huge.uvarint(UInt64.max)
        XCTAssertTrue(message(forged(SyncOp.Kind.setting.rawValue, huge.bytes)).contains("record 1"))
        XCTAssertThrowsError(try Changeset.decode([UInt8](repeating: 0, count: Changeset.maxBytes + 1)))
        // Credit ops: what a local write could not have made is refused.
        func credit(_ account: String, _ kind: UInt8, _ minutes: Int64, _ day: Int64 = 20_000) -> [UInt8] {
            var w = SyncWriter(); w.text(account); w.byte(kind); w.varint(minutes); w.varint(day); w.varint(1); w.optionalText(nil)
            return forged(SyncOp.Kind.credit.rawValue, w.bytes)
        }
        XCTAssertEqual(message(credit("default", 2, -5)), "accepted")
        XCTAssertTrue(message(credit("default", 2, 5)).contains("spend"), message(credit("default", 2, 5)))
        XCTAssertTrue(message(credit("default", 1, 5)).contains("derived"), "an earning is derived, never sent")
        XCTAssertTrue(message(credit("default", 4, -5)).contains("derived"))
        XCTAssertTrue(message(credit("default", 9, 5)).contains("credit kind"))
        XCTAssertTrue(message(credit("default", 3, 0)).contains("minutes"))
        XCTAssertTrue(message(credit("default", 5, CreditLimits.maxMinutes + 1)).contains("minutes"))
        XCTAssertTrue(message(credit("", 2, -5)).contains("account name"), message(credit("", 2, -5)))
        XCTAssertTrue(message(credit("default", 2, -5, Int64(Int32.max))).contains("day"))
        func steps(_ count: Int64) -> [UInt8] {
            var w = SyncWriter(); w.text("default"); w.varint(20_000); w.varint(count); w.varint(1)
            return forged(SyncOp.Kind.steps.rawValue, w.bytes)
        }
        XCTAssertEqual(message(steps(5_000)), "accepted")
        XCTAssertTrue(message(steps(-1)).contains("steps"))
        XCTAssertTrue(message(steps(CreditLimits.maxStepsPerDay + 1)).contains("steps"))
        var account = SyncWriter(); account.text("bad\u{0}name"); account.varint(1)
        XCTAssertTrue(message(forged(SyncOp.Kind.creditAccount.rawValue, account.bytes)).contains("record 1"))
        // Found by scripts/fuzz.sh sync: ops naming a replica of an empty replica list trapped.
        var empty = SyncWriter()
        empty.raw(Changeset.magic); empty.byte(Changeset.version); empty.byte(0)
        empty.uvarint(0); empty.uvarint(1)
        empty.uvarint(0); empty.uvarint(1); empty.uvarint(1); empty.byte(6); empty.uvarint(0)
        empty.uint32(CRC32.checksum(empty.bytes))
        XCTAssertTrue(message(empty.bytes).contains("replica index"), message(empty.bytes))
    }
}
