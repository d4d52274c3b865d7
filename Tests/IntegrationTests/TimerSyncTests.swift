import CHabitCore
import Foundation
import HabitCore
import XCTest

/// Timers between a person's devices, through the C functions on real store files:
/// events are a union, folded by instant, so every replica settles on one state and
/// one amount whatever the order the events arrive in.
final class TimerSyncTests: StoreTestCase {
    let minute: Int64 = 60_000

    func status(_ store: OpaquePointer, _ timer: Int64) -> hc_timer_status {
        var out = defaults(hc_timer_status_init)
        ok(hc_timer_status_get(&out, store, timer, 0))
        return out
    }

    /// The local id of the timer that started at `ms` on a store (ids differ per replica).
    func timer(_ store: OpaquePointer, startedAt ms: Int64) -> Int64? {
        var id: Int64 = 1
        while true {
            var out = defaults(hc_timer_status_init)
            guard hc_timer_status_get(&out, store, id, 0) != HC_E_NOT_FOUND else { return nil }
            if out.id == id, out.started_at_ms == ms { return id }
            id += 1
            if id > 10_000 { return nil }
        }
    }

    func testStartedOnOneReplicaStoppedOnBothExchangedBothWaysCountsOnce() throws {
        let phone = try open("phone.db"), watch = try open("watch.db")
        defer { hc_store_close(phone); hc_store_close(watch) }
        ok(hc_store_set_timezone(phone, "UTC"))
        var today: Int32 = 0
        ok(hc_store_today(&today, phone))
        let habit = createHabit(phone, "Focus", kind: HC_KIND_DURATION, target: 3600, start: date(today - 3))
        let t0 = Int64(today - 1) * 86_400_000 + 9 * 60 * minute
        var onPhone: Int64 = 0
        ok(hc_timer_start(&onPhone, phone, habit, 0, t0))
        pull(watch, from: phone)
        let onWatch = try XCTUnwrap(timer(watch, startedAt: t0))
        let day = date(today - 1)
        let habitThere = habitId(watch, "Focus")
        XCTAssertEqual(status(watch, onWatch).state, HC_TIMER_RUNNING)
        // Offline, both stop it: the watch at 09:20, the phone at 09:25.
        ok(hc_timer_act(watch, onWatch, HC_TIMER_ACTION_STOP, t0 + 20 * minute))
        ok(hc_timer_act(phone, onPhone, HC_TIMER_ACTION_STOP, t0 + 25 * minute))
        XCTAssertEqual(total(phone, habit, day), 1500, "the phone's own stop, before it hears of the watch's")
        pull(phone, from: watch)
        pull(watch, from: phone)
        for (store, id, h) in [(phone, onPhone, habit), (watch, onWatch, habitThere)] {
            let s = status(store, id)
            XCTAssertEqual(s.state, HC_TIMER_STOPPED)
            XCTAssertEqual(s.ended_at_ms, t0 + 20 * minute, "the earliest stop ends it")
            XCTAssertEqual(s.seconds, 1200)
            XCTAssertEqual(total(store, h, day), 1200, "one amount, not two, and the kept history moved with the sync")
        }
        XCTAssertEqual(canonical(phone), canonical(watch))
        XCTAssertTrue(canonical(phone).contains("state=stopped seconds=1200"), canonical(phone))
        // A backup of either holds the same; the histories the two fold agree.
        var phoneStates = [hc_day_state](repeating: hc_day_state(), count: 3)
        var watchStates = phoneStates
        var count: Int64 = 0
        ok(hc_habit_day_states(&phoneStates, 3, &count, phone, habit, today - 2, today))
        ok(hc_habit_day_states(&watchStates, 3, &count, watch, habitThere, today - 2, today))
        XCTAssertEqual(phoneStates.map(\.value), watchStates.map(\.value))
        XCTAssertEqual(phoneStates.map(\.value), [0, 1200, 0])
    }

    func currentStreak(_ store: OpaquePointer, _ habit: Int64, asOf: Int32) -> Int32 {
        var streaks = defaults(hc_streak_result_init)
        var bestCount: Int64 = 0
        ok(hc_habit_streaks(&streaks, nil, 0, &bestCount, store, habit, asOf))
        return streaks.current.length
    }

    func savedFolds(_ path: String) throws -> String {
        let result = try runProcess(["sqlite3", path, "SELECT count(*) FROM saved_folds"])
        XCTAssertSucceeded(result, "sqlite3")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A habit's folded days, kept by the handle and saved in the file, do not go stale
    /// when a timer's stop arrives by sync: the day it fills joins the streak at once, in
    /// the handle that kept the history and in a fresh one that reads the file.
    func testATimerArrivingBySyncMovesKeptAndSavedHistories() throws {
        var phone = try open("phone.db")
        let watch = try open("watch.db")
        defer { hc_store_close(watch) }
        ok(hc_store_set_timezone(phone, "UTC"))
        var today: Int32 = 0
        ok(hc_store_today(&today, phone))
        let habit = createHabit(phone, "Focus", kind: HC_KIND_DURATION, target: 60, start: date(today - 50))
        for offset in 1...45 where offset != 10 { ok(append(phone, habit, HC_ENTRY_AMOUNT, value: 60, on: date(today - Int32(offset))).0) }
        pull(watch, from: phone)
        ok(hc_store_close(phone))
        phone = try open("phone.db")
        defer { hc_store_close(phone) }
        XCTAssertEqual(currentStreak(phone, habit, asOf: today), 9, "the gap ten days ago")
        XCTAssertEqual(try savedFolds(dir + "/phone.db"), "1", "the first cold read saved the fold")
        // On the watch, a two-minute timer fills the gap.
        let there = habitId(watch, "Focus")
        var timer: Int64 = 0
        let at = Int64(today - 10) * 86_400_000 + 9 * 3_600_000
        ok(hc_timer_start(&timer, watch, there, 0, at))
        ok(hc_timer_act(watch, timer, HC_TIMER_ACTION_STOP, at + 120_000))
        pull(phone, from: watch)
        XCTAssertEqual(currentStreak(phone, habit, asOf: today), 45, "the handle's kept history moved")
        let fresh = try open("phone.db")
        defer { hc_store_close(fresh) }
        XCTAssertEqual(currentStreak(fresh, habit, asOf: today), 45, "the saved fold moved")
    }

    /// Three replicas write timer events at random instants and exchange in random
    /// pairs; once everyone has heard from everyone, they agree on every timer and
    /// every day's amount (seeded: a failing seed replays).
    func testRandomTimerEventsOnThreeReplicasConverge() throws {
        for seed in [UInt64(0x71AE_0001), 0x71AE_0002, 0x71AE_0003] {
            var random = SplitMix(seed: seed)
            let stores = try (0..<3).map { try open("r\(seed)-\($0).db") }
            defer { stores.forEach { hc_store_close($0) } }
            ok(hc_store_set_timezone(stores[0], "UTC"))
            var today: Int32 = 0
            ok(hc_store_today(&today, stores[0]))
            _ = createHabit(stores[0], "Focus", kind: HC_KIND_DURATION, target: 1800, start: date(today - 5))
            for store in stores.dropFirst() { pull(store, from: stores[0]) }
            let base = Int64(today - 2) * 86_400_000
            var starts: [Int64] = []
            for _ in 0..<40 {
                let r = random.below(3)
                let store = stores[r]
                switch random.below(4) {
                case 0:
                    let at = base + Int64(random.int(0...600)) * minute
                    var id: Int64 = 0
                    let flags: UInt32 = random.below(3) == 0 ? HC_TIMER_AUTO_COMPLETE : 0
                    if hc_timer_start(&id, store, habitId(store, "Focus"), flags, at) == HC_OK, !starts.contains(at) { starts.append(at) }
                case 1, 2:
                    guard let at = starts.randomElement(using: &random), let id = timer(store, startedAt: at) else { continue }
                    let action = [HC_TIMER_ACTION_PAUSE, HC_TIMER_ACTION_RESUME, HC_TIMER_ACTION_STOP, HC_TIMER_ACTION_DISCARD][random.below(4)]
                    // Refused locally when it cannot act (already stopped here): the others may still take theirs.
                    _ = hc_timer_act(store, id, action, at + Int64(random.int(1...90)) * minute)
                default:
                    let other = (r + 1 + random.below(2)) % 3
                    pull(store, from: stores[other])
                }
            }
            for _ in 0..<2 { for a in 0..<3 { for b in 0..<3 where a != b { pull(stores[a], from: stores[b]) } } }
            let texts = stores.map(canonical)
            XCTAssertEqual(texts[0], texts[1], "seed \(seed)")
            XCTAssertEqual(texts[0], texts[2], "seed \(seed)")
            let totals = stores.map { store -> [Double] in
                let local = habitId(store, "Focus")
                var states = [hc_day_state](repeating: hc_day_state(), count: 4)
                var count: Int64 = 0
                ok(hc_habit_day_states(&states, 4, &count, store, local, today - 3, today))
                return states.map(\.value)
            }
            XCTAssertEqual(totals[0], totals[1], "seed \(seed)")
            XCTAssertEqual(totals[0], totals[2], "seed \(seed)")
            XCTAssertGreaterThan(texts[0].components(separatedBy: "\ntimer ").count, 1, "seed \(seed): no timer was started")
        }
    }
}
