import XCTest

@testable import HabitCore

/// Routine by the clock (Void) and unlock sessions ended early (Zeno), one row per case.
final class RoutineAndSessionTests: XCTestCase {
    func testRoutineAtEachBoundary() {
        let rows: [(time: String, dayStart: Int32, routine: RoutineTime)] = [
            ("04:59", 0, .evening), ("05:00", 0, .morning), ("10:59", 0, .morning), ("11:00", 0, .day),
            ("17:59", 0, .day), ("18:00", 0, .evening), ("00:30", 0, .evening), ("23:59", 0, .evening),
            // A day start of 03:00 shifts every bound three hours later.
            ("05:00", 180, .evening), ("07:59", 180, .evening), ("08:00", 180, .morning), ("13:59", 180, .morning),
            ("14:00", 180, .day), ("20:59", 180, .day), ("21:00", 180, .evening), ("02:30", 180, .evening), ("03:00", 180, .evening),
        ]
        for row in rows {
            let parts = row.time.split(separator: ":").compactMap { Int32($0) }
            let minute = RoutineBounds.minuteOfDay(wallClock: parts[0] * 60 + parts[1], dayStart: row.dayStart)
            XCTAssertEqual(RoutineBounds.standard.routine(atMinuteOfDay: minute), row.routine, "\(row.time), day start \(row.dayStart)")
        }
    }

    func testRoutineBoundsAreCheckedAndReadBack() {
        XCTAssertEqual(RoutineBounds(text: "300,660,1080"), .standard)
        XCTAssertEqual(RoutineBounds(text: " 0, 1, 1439"), RoutineBounds(morning: 0, day: 1, evening: 1439))
        for bad in ["660,300,1080", "300,660", "300,660,1440", "-1,660,1080", "a,b,c", "300,300,1080"] {
            XCTAssertNil(RoutineBounds(text: bad), bad)
        }
        XCTAssertThrowsError(try RoutineBounds(morning: 300, day: 1080, evening: 660).validated())
    }

    func testRefundsRoundUpInThePersonsFavour() throws {
        let bought: Int64 = 1_000_000_000
        let rows: [(afterMs: Int64, refund: Int64)] = [
            (0, 10), (30_000, 10), (60_000, 9), (61_000, 9), (599_000, 1), (599_999, 1), (600_000, 0),
        ]
        for row in rows {
            let run = try XCTUnwrap(UnlockTimeline.runs([.init(id: 1, minutes: 10, boughtAtMs: bought, endedAtMs: nil)]).first)
            XCTAssertEqual(UnlockTimeline.refundMinutes(run, endedAtMs: bought + row.afterMs), row.refund, "\(row.afterMs) ms in")
        }
    }

    func testQueuedSessionsMoveUpWhenOneEndsEarly() throws {
        let t: Int64 = 1_000_000_000
        // A: 10 minutes at t; B: 5 minutes bought a minute later, queued after A; C: 3 minutes bought later still.
        var purchases = [
            UnlockTimeline.Purchase(id: 1, minutes: 10, boughtAtMs: t, endedAtMs: nil),
            UnlockTimeline.Purchase(id: 2, minutes: 5, boughtAtMs: t + 60_000, endedAtMs: nil),
            UnlockTimeline.Purchase(id: 3, minutes: 3, boughtAtMs: t + 120_000, endedAtMs: nil),
        ]
        let planned = try UnlockTimeline.runs(purchases)
        XCTAssertEqual(planned.map(\.startMs), [t, t + 600_000, t + 900_000])
        XCTAssertEqual(UnlockTimeline.queuedStart(planned, boughtAtMs: t + 180_000), t + 1_080_000)

        purchases[0].endedAtMs = t + 120_000
        let moved = try UnlockTimeline.runs(purchases)
        XCTAssertEqual(moved.map(\.startMs), [t, t + 120_000, t + 420_000], "B and C move up")
        XCTAssertEqual(moved.map(\.endMs), [t + 120_000, t + 420_000, t + 600_000])
        XCTAssertEqual(moved.map(\.plannedEndMs), [t + 600_000, t + 420_000, t + 600_000])
        XCTAssertTrue(moved[1].isRunning(at: t + 120_000))

        // Ending the queued C before it starts: it never runs and refunds all its minutes.
        purchases[2].endedAtMs = t + 200_000
        let cancelled = try UnlockTimeline.runs(purchases)
        XCTAssertEqual(cancelled[2].startMs, cancelled[2].endMs)
        XCTAssertEqual(
            UnlockTimeline.refundMinutes(
                try UnlockTimeline.runs(
                    Array(purchases.prefix(2)) + [
                        .init(id: 3, minutes: 3, boughtAtMs: t + 120_000, endedAtMs: nil)
                    ])[2], endedAtMs: t + 200_000), 3)
        // A session bought after everything ended starts when bought.
        XCTAssertEqual(UnlockTimeline.queuedStart(cancelled, boughtAtMs: t + 3_600_000), t + 3_600_000)
    }

    func testARefundAfterMidnightIsSpendableTheNewDay() throws {
        // Day d: 30 earned, a 10-minute session bought at 23:55; ended at 00:01 of d+1, refunding 4 to d+1.
        let d: Int32 = 20_000
        let entries = [
            CreditEntry(id: 1, accountId: 1, kind: .earn, minutes: 30, day: d, atMs: 0, reason: nil, cause: .steps, causeId: nil, habitId: nil, steps: 3_000),
            CreditEntry(id: 2, accountId: 1, kind: .spend, minutes: -10, day: d, atMs: 0, reason: nil, cause: .session, causeId: 1, habitId: nil, steps: nil),
            CreditEntry(
                id: 3, accountId: 1, kind: .refund, minutes: 4, day: d + 1, atMs: 0, reason: nil, cause: .session, causeId: 1, habitId: nil, steps: nil),
        ]
        let days = try CreditFold.days(entries, rules: CreditRules([]), through: d + 1, today: d + 1)
        XCTAssertEqual(days.first?.expired, 20, "what was left on day d expires with it")
        XCTAssertEqual(days.last?.refunded, 4)
        XCTAssertEqual(days.last?.available, 4, "the refund is spendable after midnight")
        // Credited to day d instead, it would have been lost.
        var lost = entries
        lost[2].day = d
        XCTAssertEqual(try CreditFold.available(lost, rules: CreditRules([]), on: d + 1, today: d + 1), 0)
    }
}
