import CHabitCore
import Foundation
import XCTest

/// Timers through the C functions on real store files: events appended, folded by
/// instant, a stopped timer counted once on the day it started.
final class TimerStoreTests: OpenStoreTestCase {
    let minute: Int64 = 60_000
    var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    @discardableResult
    func start(_ habit: Int64, at ms: Int64, flags: UInt32 = 0, store: OpaquePointer? = nil, file: StaticString = #filePath, line: UInt = #line) -> Int64 {
        var id: Int64 = 0
        XCTAssertEqual(hc_timer_start(&id, store ?? self.store, habit, flags, ms), HC_OK, String(cString: hc_last_error_message()), file: file, line: line)
        return id
    }

    func act(_ timer: Int64, _ action: Int32, at ms: Int64, store: OpaquePointer? = nil) -> Int32 {
        hc_timer_act(store ?? self.store, timer, action, ms)
    }

    func status(_ timer: Int64, at ms: Int64, store: OpaquePointer? = nil, file: StaticString = #filePath, line: UInt = #line) -> hc_timer_status {
        var out = defaults(hc_timer_status_init)
        XCTAssertEqual(hc_timer_status_get(&out, store ?? self.store, timer, ms), HC_OK, String(cString: hc_last_error_message()), file: file, line: line)
        return out
    }

    func running(at ms: Int64, store: OpaquePointer? = nil) -> [hc_timer_status] {
        var list: OpaquePointer?
        ok(hc_timer_list_open(&list, store ?? self.store, ms))
        defer { hc_timer_list_free(list) }
        var count: Int64 = 0
        ok(hc_timer_list_count(&count, list))
        return (0..<count).compactMap { index in
            var item: UnsafePointer<hc_timer_status>?
            ok(hc_timer_list_get(&item, list, index))
            return item?.pointee
        }
    }

    func entryCount(_ habit: Int64) -> Int64 {
        var list: OpaquePointer?
        ok(hc_entry_list_open(&list, store, habit, day("2000-01-01"), day("2100-01-01")))
        defer { hc_entry_list_free(list) }
        var count: Int64 = 0
        ok(hc_entry_list_count(&count, list))
        return count
    }

    func testATimerKilledMidRunIsStoppedInAnotherProcessWithItsElapsedTimeCountedOnce() throws {
        let habit = createHabit(store, "Focus", kind: HC_KIND_DURATION, target: 3600, start: date(today - 5))
        hc_store_close(store)
        store = nil
        let bin = dir + "/timer_child"
        try compileC([Paths.root + "/Tests/c/timer_child.c"], output: bin)
        let startedAt = nowMs - 25 * minute
        let child = Process()
        child.executableURL = URL(fileURLWithPath: bin)
        child.arguments = [dir + "/store.db", String(habit), String(startedAt)]
        let pipe = Pipe()
        child.standardOutput = pipe
        try child.run()
        // The id is printed once the start is committed; then the child dies mid-run.
        var line = Data()
        while !line.contains(10) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal)
        let timer = try XCTUnwrap(Int64(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        store = try open()
        let at = startedAt + 20 * minute
        let alive = status(timer, at: at)
        XCTAssertEqual(alive.state, HC_TIMER_RUNNING)
        XCTAssertEqual(alive.elapsed_ms, 20 * minute)
        XCTAssertEqual(alive.started_at_ms, startedAt)
        XCTAssertEqual(alive.habit_id, habit)
        XCTAssertEqual(running(at: at).map(\.id), [timer])
        ok(act(timer, HC_TIMER_ACTION_STOP, at: startedAt + 23 * minute + 500))
        let stopped = status(timer, at: 0)
        XCTAssertEqual(stopped.state, HC_TIMER_STOPPED)
        XCTAssertEqual(stopped.elapsed_ms, 23 * minute + 500)
        XCTAssertEqual(stopped.seconds, 23 * 60)
        XCTAssertEqual(total(store, habit, date(stopped.day)), Double(23 * 60))
        XCTAssertEqual(running(at: 0).count, 0)
        XCTAssertEqual(entryCount(habit), 0, "the amount is the timer's, not a second record")
        // A second stop is refused; the day still counts the timer once.
        XCTAssertEqual(act(timer, HC_TIMER_ACTION_STOP, at: 0), HC_E_CONFLICT)
        XCTAssertEqual(total(store, habit, date(stopped.day)), Double(23 * 60))
    }

    /// A handle keeps each habit's folded days; another connection's timer stop (no entry
    /// written) still reaches it at its next read.
    func testAnotherConnectionsTimerStopReachesAHandlesKeptHistory() throws {
        let habit = createHabit(store, "Focus", kind: HC_KIND_DURATION, target: 60, start: date(today - 10))
        for offset in 1...5 where offset != 3 { ok(append(store, habit, HC_ENTRY_AMOUNT, value: 60, on: date(today - Int32(offset))).0) }
        func streak() -> Int32 {
            var streaks = defaults(hc_streak_result_init)
            var bestCount: Int64 = 0
            ok(hc_habit_streaks(&streaks, nil, 0, &bestCount, store, habit, today))
            return streaks.current.length
        }
        XCTAssertEqual(streak(), 2)
        let other = try open()
        defer { hc_store_close(other) }
        let at = Int64(today - 3) * 86_400_000 + 9 * 3_600_000
        ok(hc_store_set_timezone(other, "UTC"))
        XCTAssertEqual(streak(), 2)
        ok(act(start(habit, at: at, store: other), HC_TIMER_ACTION_STOP, at: at + 61_000, store: other))
        XCTAssertEqual(streak(), 5, "the kept history missed the other connection's timer")
    }

    func testATimerAcrossTheDayStartCountsToTheDayItStarted() {
        let zone = "Europe/Berlin"
        ok(hc_store_set_timezone(store, zone))
        ok(hc_store_set_day_start(store, 4 * 60))
        let habit = createHabit(store, "Read", kind: HC_KIND_DURATION, target: 1800, start: "2026-06-01")
        // 03:30 to 04:30 on the 10th: it starts before the 04:00 day start, so on the 9th.
        let timer = start(habit, at: instant("2026-06-10", 3 * 60 + 30, in: zone))
        ok(act(timer, HC_TIMER_ACTION_STOP, at: instant("2026-06-10", 4 * 60 + 30, in: zone)))
        XCTAssertEqual(status(timer, at: 0).day, day("2026-06-09"))
        XCTAssertEqual(total(store, habit, "2026-06-09"), 3600)
        XCTAssertEqual(total(store, habit, "2026-06-10"), 0)
        var states = [hc_day_state](repeating: hc_day_state(), count: 2)
        var count: Int64 = 0
        ok(hc_habit_day_states(&states, 2, &count, store, habit, day("2026-06-09"), day("2026-06-10")))
        XCTAssertEqual(states.map { $0.flags & HC_DAY_DONE }, [HC_DAY_DONE, 0])
    }

    func testATimerAcrossTheSpringForwardNightCountsItsRealTime() {
        let zone = "Europe/Berlin"
        ok(hc_store_set_timezone(store, zone))
        let habit = createHabit(store, "Night shift", kind: HC_KIND_DURATION, target: 60, start: "2026-03-01")
        // 01:30 CET to 03:30 CEST on 03-29 is one hour of real time, not two on the clock.
        let from = instant("2026-03-29", 1 * 60 + 30, in: zone), to = instant("2026-03-29", 3 * 60 + 30, in: zone)
        XCTAssertEqual(to - from, 60 * minute)
        let timer = start(habit, at: from)
        ok(act(timer, HC_TIMER_ACTION_PAUSE, at: from + 10 * minute))
        ok(act(timer, HC_TIMER_ACTION_RESUME, at: from + 20 * minute))
        ok(act(timer, HC_TIMER_ACTION_STOP, at: to))
        XCTAssertEqual(status(timer, at: 0).elapsed_ms, 50 * minute)
        XCTAssertEqual(total(store, habit, "2026-03-29"), 3000)
    }

    func testSeveralTimersRunAtOnceOnOneHabitAndOnSeveral() {
        let read = createHabit(store, "Read", kind: HC_KIND_DURATION, target: 600, start: date(today - 2))
        let piano = createHabit(store, "Piano", kind: HC_KIND_DURATION, target: 600, start: date(today - 2))
        let t0 = nowMs - 30 * minute
        let a = start(read, at: t0), b = start(piano, at: t0 + minute), c = start(read, at: t0 + 2 * minute)
        ok(act(b, HC_TIMER_ACTION_PAUSE, at: t0 + 5 * minute))
        let open = running(at: t0 + 10 * minute)
        XCTAssertEqual(open.map(\.id), [a, b, c])
        XCTAssertEqual(open.map(\.state), [HC_TIMER_RUNNING, HC_TIMER_PAUSED, HC_TIMER_RUNNING])
        XCTAssertEqual(open.map(\.elapsed_ms), [10 * minute, 4 * minute, 8 * minute])
        ok(act(a, HC_TIMER_ACTION_STOP, at: t0 + 10 * minute))
        ok(act(c, HC_TIMER_ACTION_STOP, at: t0 + 12 * minute))
        ok(act(b, HC_TIMER_ACTION_DISCARD, at: t0 + 12 * minute))
        XCTAssertEqual(running(at: 0).count, 0)
        let readDay = date(status(a, at: 0).day)
        XCTAssertEqual(total(store, read, readDay), Double(10 * 60 + 10 * 60), "both timers of one habit add up")
        XCTAssertEqual(total(store, piano, date(status(b, at: 0).day)), 0, "a discarded timer adds nothing")
    }

    func testAutoCompleteStopsAtTheTargetWithoutAnEvent() {
        let habit = createHabit(store, "Meditate", kind: HC_KIND_DURATION, target: 600, start: date(today - 2))
        let t0 = nowMs - 30 * minute
        let timer = start(habit, at: t0, flags: HC_TIMER_AUTO_COMPLETE)
        let before = status(timer, at: t0 + 5 * minute)
        XCTAssertEqual(before.state, HC_TIMER_RUNNING)
        XCTAssertEqual(before.flags, HC_TIMER_AUTO_COMPLETE)
        let after = status(timer, at: t0 + 20 * minute)
        XCTAssertEqual(after.state, HC_TIMER_STOPPED)
        XCTAssertEqual(after.completed, 1)
        XCTAssertEqual(after.ended_at_ms, t0 + 10 * minute)
        XCTAssertEqual(after.seconds, 600)
        XCTAssertEqual(total(store, habit, date(after.day)), 600)
        XCTAssertEqual(act(timer, HC_TIMER_ACTION_STOP, at: 0), HC_E_CONFLICT, "it completed itself already")
        XCTAssertEqual(running(at: 0).count, 0)
    }

    func testAHistoryReadWhileAnAutoCompleteTimerRunsIsReadAgainOnceItCompletes() throws {
        let habit = createHabit(store, "Stretch", kind: HC_KIND_DURATION, target: 2, start: date(today - 2))
        let timer = start(habit, at: nowMs, flags: HC_TIMER_AUTO_COMPLETE)
        let day = date(status(timer, at: 0).day)
        XCTAssertEqual(total(store, habit, day), 0, "running: nothing counted yet (and the handle keeps that history)")
        usleep(2_300_000)
        XCTAssertEqual(total(store, habit, day), 2, "completed by its target: the kept history did not hold past it")
    }

    /// A shield over yesterday's early hours (the store in UTC): a timer lifts it at the
    /// instant it stops, or completes itself, and not while it runs.
    func testARunningTimerLiftsNoShieldUntilItStopsOrCompletes() {
        let habit = createHabit(store, "Study", kind: HC_KIND_DURATION, target: 600, start: date(today - 10))
        addRule([habit], start: 0, end: 22 * 60, fromDay: today - 5)
        let dayMs = Int64(today - 1) * 86_400_000
        let timer = start(habit, at: dayMs + 60 * minute)
        XCTAssertEqual(states(at: dayMs + 75 * minute).1.first?.reason, HC_SHIELD_WINDOW_OPEN, "a running timer lifted the shield")
        ok(act(timer, HC_TIMER_ACTION_PAUSE, at: dayMs + 80 * minute))
        XCTAssertEqual(states(at: dayMs + 85 * minute).1.first?.reason, HC_SHIELD_WINDOW_OPEN, "a paused timer lifted the shield")
        ok(act(timer, HC_TIMER_ACTION_STOP, at: dayMs + 90 * minute))
        let lifted = states(at: dayMs + 95 * minute).1.first
        XCTAssertEqual(lifted?.reason, HC_SHIELD_COMPLETED, "a stopped timer past the target kept the shield")
        XCTAssertEqual(lifted?.sinceMs, dayMs + 90 * minute, "lifted at the stop")
        XCTAssertEqual(states(at: dayMs + 85 * minute).1.first?.reason, HC_SHIELD_WINDOW_OPEN, "lifted before the stop")
    }

    func testAnAutoCompletedTimerLiftsTheShieldAtTheInstantItReachesTheTarget() {
        let habit = createHabit(store, "Practice", kind: HC_KIND_DURATION, target: 600, start: date(today - 10))
        addRule([habit], start: 0, end: 22 * 60, fromDay: today - 5)
        let dayMs = Int64(today - 1) * 86_400_000
        start(habit, at: dayMs + 60 * minute, flags: HC_TIMER_AUTO_COMPLETE)
        XCTAssertEqual(states(at: dayMs + 65 * minute).1.first?.reason, HC_SHIELD_WINDOW_OPEN)
        let lifted = states(at: dayMs + 75 * minute).1.first
        XCTAssertEqual(lifted?.reason, HC_SHIELD_COMPLETED)
        XCTAssertEqual(lifted?.sinceMs, dayMs + 70 * minute)
    }

    func testFocusedSecondsAwardSumsStoppedTimers() {
        let json =
            #"{"format":"habitcore-awards","version":1,"rules":[{"id":"focus-1h","title":"An hour of focus","metric":"focused_seconds","scope":"all","threshold":3600}]}"#
        ok(hc_award_catalog_load(store, json))
        let read = createHabit(store, "Read", kind: HC_KIND_DURATION, target: 600, start: date(today - 5))
        let piano = createHabit(store, "Piano", kind: HC_KIND_DURATION, target: 600, start: date(today - 5))
        let t0 = nowMs - 3 * 60 * minute
        ok(act(start(read, at: t0), HC_TIMER_ACTION_STOP, at: t0 + 40 * minute))
        let running = start(piano, at: t0 + 50 * minute)  // running: not counted yet
        func focus() -> (Int64, Int32) {
            var list: OpaquePointer?
            ok(hc_award_evaluate(&list, store, Int32.min))
            hc_award_list_free(list)
            ok(hc_award_list_open_progress(&list, store, Int32.min))
            defer { hc_award_list_free(list) }
            var award: UnsafePointer<hc_award>?
            ok(hc_award_list_get(&award, list, 0))
            return (award?.pointee.value ?? -1, award?.pointee.unlocked ?? -1)
        }
        XCTAssertEqual(focus().0, 40 * 60)
        XCTAssertEqual(focus().1, 0)
        ok(act(running, HC_TIMER_ACTION_STOP, at: t0 + 75 * minute))
        XCTAssertEqual(focus().0, 65 * 60)
        XCTAssertEqual(focus().1, 1)
    }

    func testBadInputGetsAClearCode() {
        let check = createHabit(store, "Floss", start: date(today - 2))
        let habit = createHabit(store, "Read", kind: HC_KIND_DURATION, target: 600, start: date(today - 2))
        var id: Int64 = 0
        XCTAssertEqual(hc_timer_start(&id, store, check, 0, 0), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(store)).contains("duration"))
        XCTAssertEqual(hc_timer_start(&id, store, 999, 0, 0), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_timer_start(&id, store, habit, 0x80, 0), HC_E_INVALID)
        XCTAssertEqual(hc_timer_start(&id, store, habit, 0, Int64.max), HC_E_INVALID)
        let t0 = nowMs - 10 * minute
        let timer = start(habit, at: t0)
        XCTAssertEqual(act(timer, HC_TIMER_ACTION_PAUSE, at: t0 - 1), HC_E_INVALID, "before the start")
        XCTAssertEqual(act(timer, HC_TIMER_ACTION_RESUME, at: 0), HC_E_CONFLICT, "already running")
        XCTAssertEqual(act(timer, HC_TIMER_ACTION_START, at: 0), HC_E_INVALID)
        XCTAssertEqual(act(timer, 99, at: 0), HC_E_INVALID)
        XCTAssertEqual(act(12_345, HC_TIMER_ACTION_STOP, at: 0), HC_E_NOT_FOUND)
        var out = defaults(hc_timer_status_init)
        XCTAssertEqual(hc_timer_status_get(&out, store, 12_345, 0), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_timer_status_get(nil, store, timer, 0), HC_E_INVALID)
        ok(act(timer, HC_TIMER_ACTION_STOP, at: 0))
        XCTAssertEqual(act(timer, HC_TIMER_ACTION_PAUSE, at: 0), HC_E_CONFLICT, "already stopped")
        ok(hc_habit_archive(store, habit, 1))
        XCTAssertEqual(hc_timer_start(&id, store, habit, 0, 0), HC_E_INVALID, "archived")
    }

    func testABackupAndAWholeExportKeepTimers() throws {
        let habit = createHabit(store, "Read", kind: HC_KIND_DURATION, target: 600, start: date(today - 2))
        let t0 = nowMs - 30 * minute
        let stopped = start(habit, at: t0)
        ok(act(stopped, HC_TIMER_ACTION_STOP, at: t0 + 12 * minute))
        let paused = start(habit, at: t0 + 13 * minute)
        ok(act(paused, HC_TIMER_ACTION_PAUSE, at: t0 + 14 * minute))
        let day = date(status(stopped, at: 0).day)
        ok(hc_store_backup(store, dir + "/backup.db"))
        let backup = try open("backup.db")
        defer { hc_store_close(backup) }
        XCTAssertEqual(total(backup, habit, day), 720)
        XCTAssertEqual(running(at: 0, store: backup).map(\.id), [paused])
        XCTAssertEqual(status(paused, at: 0, store: backup).elapsed_ms, minute)
        // Export, import into an empty store, export again: the same document.
        let exported = export(store, HC_FORMAT_JSON)
        XCTAssertTrue(exported.contains("\"timer_events\""), exported)
        let copy = try open("copy.db")
        defer { hc_store_close(copy) }
        ok(hc_store_import(copy, exported, HC_FORMAT_JSON))
        XCTAssertEqual(total(copy, habit, day), 720)
        XCTAssertEqual(running(at: 0, store: copy).map(\.elapsed_ms), [minute])
        XCTAssertEqual(export(copy, HC_FORMAT_JSON), exported)
        // The restored timer goes on: resumed and stopped there, it counts there.
        ok(act(paused, HC_TIMER_ACTION_RESUME, at: t0 + 20 * minute, store: copy))
        ok(act(paused, HC_TIMER_ACTION_STOP, at: t0 + 21 * minute, store: copy))
        XCTAssertEqual(total(copy, habit, day), 720 + 120)
    }
}
