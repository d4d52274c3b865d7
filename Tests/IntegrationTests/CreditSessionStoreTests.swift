import CHabitCore
import Foundation
import XCTest

/// Unlock sessions ended early, through the C functions on a real store: the refund
/// of the unused whole minutes, a second end refused, the queue moving up.
final class CreditSessionStoreTests: OpenStoreTestCase {
    func sync(_ steps: Int64) {
        var result = defaults(hc_step_sync_init)
        ok(hc_credit_sync_steps(&result, store, 0, Int32.min, steps))
    }

    func unlock(at ms: Int64) -> hc_unlock_state {
        var state = defaults(hc_unlock_state_init)
        ok(hc_credit_unlock_state(&state, store, 0, ms))
        return state
    }

    /// Buys a session and answers its id and start (the last in the queue).
    func buy(_ minutes: Int64) -> (id: Int64, start: Int64) {
        ok(hc_credit_spend(nil, store, 0, minutes, "apps", HC_SPEND_UNLOCK))
        let queueEnd = unlock(at: 0).until_ms
        let last = unlock(at: queueEnd - 1)
        return (last.session_id, last.start_ms)
    }

    func testRefundsOfTheUnusedWholeMinutesRoundedUp() {
        // The sessions end up to 12 minutes from now, and a refund counts for the day its
        // session ends on: a zone whose local time is about noon keeps them on today
        // (run at 23:55 in UTC, the last refund fell on tomorrow, out of today's balance).
        let utcHour = Int(Date().timeIntervalSince1970 / 3600) % 24
        let offset = 12 - utcHour
        ok(hc_store_set_timezone(store, String(format: "%@%02d:00", offset < 0 ? "-" : "+", abs(offset))))
        sync(10_000)
        let rows: [(afterMs: Int64, refund: Int64)] = [(30_000, 10), (61_000, 9), (599_000, 1), (600_000, 0)]
        for row in rows {
            let session = buy(10)
            var refund: Int64 = -1
            ok(hc_credit_session_end(&refund, store, session.id, session.start + row.afterMs))
            XCTAssertEqual(refund, row.refund, "ended \(row.afterMs) ms in")
            let entry = creditEntries().last
            if row.refund > 0 {
                XCTAssertEqual(entry?.kind, HC_CREDIT_REFUND)
                XCTAssertEqual(entry?.minutes, row.refund)
                XCTAssertEqual(entry?.cause, HC_CAUSE_SESSION)
                XCTAssertEqual(entry?.cause_id, session.id, "the refund names its session")
            } else {
                XCTAssertEqual(entry?.kind, HC_CREDIT_SPEND, "nothing to refund: no entry")
            }
        }
        var balance: Int64 = 0
        ok(hc_credit_balance(&balance, store, 0))
        XCTAssertEqual(balance, 100 - 40 + 20)
    }

    func testEndingTwiceOrAfterTheEndIsRefusedAndWritesNothing() {
        sync(10_000)
        let session = buy(10)
        ok(hc_credit_session_end(nil, store, session.id, session.start + 30_000))
        let written = creditEntries().count
        var refund: Int64 = -1
        XCTAssertEqual(hc_credit_session_end(&refund, store, session.id, session.start + 40_000), HC_E_CONFLICT)
        XCTAssertEqual(hc_credit_session_end(&refund, store, session.id, 0), HC_E_CONFLICT)
        XCTAssertEqual(refund, -1)
        XCTAssertEqual(creditEntries().count, written)

        let over = buy(1)
        XCTAssertEqual(hc_credit_session_end(nil, store, over.id, over.start + 60_001), HC_E_CONFLICT, "it had ended by itself")
        XCTAssertEqual(hc_credit_session_end(nil, store, 999, 0), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_credit_session_end(nil, store, over.id, 1), HC_E_INVALID, "before it was bought")
        XCTAssertEqual(hc_credit_session_end(nil, store, over.id, -5), HC_E_INVALID)
        XCTAssertEqual(creditEntries().count, written + 1, "only the second spend")
    }

    func testAQueuedSessionStartsWhenTheRunningOneEndsEarly() {
        sync(10_000)
        let first = buy(10)
        let second = buy(5)
        XCTAssertEqual(second.start, first.start + 600_000, "queued after the first")
        ok(hc_credit_session_end(nil, store, first.id, first.start + 60_000))
        let now = unlock(at: first.start + 60_000)
        XCTAssertEqual(now.session_id, second.id, "moved up")
        XCTAssertEqual(now.start_ms, first.start + 60_000)
        XCTAssertEqual(now.until_ms, first.start + 60_000 + 300_000)
        XCTAssertEqual(unlock(at: first.start + 360_001).active, 0)
        let third = buy(2)
        XCTAssertGreaterThanOrEqual(third.start, first.start + 360_000, "a new one queues after the moved-up end")
        XCTAssertLessThan(third.start, first.start + 600_000)
    }

    func testASessionFromBeforeMidnightRefundsToTheNewDay() throws {
        // A fixed zone in which it is now 23:55 (whatever the clock says), daily expiry.
        let nowMinute = Int64(Date().timeIntervalSince1970) / 60 % 1440
        var offset = ((23 * 60 + 55 - nowMinute) % 1440 + 1440) % 1440
        if offset > 720 { offset -= 1440 }
        func zone(_ minutes: Int64) -> String {
            String(format: "%@%02d:%02d", minutes < 0 ? "-" : "+", Int(abs(minutes) / 60), Int(abs(minutes) % 60))
        }
        ok(hc_store_set_timezone(store, zone(offset)))
        var before: Int32 = 0
        ok(hc_store_today(&before, store))
        sync(2_000)
        let session = buy(10)
        var startDay: Int32 = 0
        ok(hc_store_local_day(&startDay, store, session.start))
        XCTAssertEqual(startDay, before, "bought before midnight")
        var endDay: Int32 = 0
        ok(hc_store_local_day(&endDay, store, session.start + 360_000))
        XCTAssertEqual(endDay, before + 1, "ended after it")
        var refund: Int64 = 0
        ok(hc_credit_session_end(&refund, store, session.id, session.start + 360_000))
        XCTAssertEqual(refund, 4)
        XCTAssertEqual(creditEntries().last?.day, before + 1, "credited to the day the session ended")

        // Seven minutes later by the zone: it is past midnight, the day before is over.
        ok(hc_store_set_timezone(store, zone(offset + 7)))
        var after: Int32 = 0
        ok(hc_store_today(&after, store))
        XCTAssertEqual(after, before + 1)
        var balance: Int64 = 0
        ok(hc_credit_balance(&balance, store, 0))
        XCTAssertEqual(balance, 4, "the day's 10 left over expired; the refund did not")
        var summary = defaults(hc_credit_day_init)
        ok(hc_credit_day_summary(&summary, store, 0, after))
        XCTAssertEqual(summary.refunded, 4)
        ok(hc_credit_spend(nil, store, 0, 4, "after midnight", 0))
        XCTAssertEqual(hc_credit_spend(nil, store, 0, 1, nil, 0), HC_E_INSUFFICIENT)

        // A 0.2.0 caller's hc_credit_day (no `refunded`) still works and is not written past.
        var old = hc_credit_day()
        old.struct_size = 64
        old.refunded = 99
        ok(hc_credit_day_summary(&old, store, 0, after))
        XCTAssertEqual(old.available, 0)
        XCTAssertEqual(old.refunded, 99)
    }
}
