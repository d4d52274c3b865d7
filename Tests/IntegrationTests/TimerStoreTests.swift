import CHabitCore
import Foundation
import HabitCore
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

    /// A running auto-complete timer completes at an instant known in advance, so the
    /// shield plan holds its lift: hc_shield_state gives it as the next change and
    /// hc_shield_transitions lists it, on the whole minute at or after it (instants that
    /// lift round up: 10:10:20 lifts at 10:11), caused by a completion. A pause written
    /// before it moves the revision and takes the lift out of the plan. Tomorrow (the
    /// store in UTC), so the timer still runs whatever the clock says.
    func testARunningAutoCompleteTimersCompletionIsInTheShieldPlan() {
        let habit = createHabit(store, "Practice", kind: HC_KIND_DURATION, target: 600, start: date(today - 10))
        let rule = addRule([habit], start: 6 * 60, end: 22 * 60, fromDay: today - 5)
        let dayMs = Int64(today + 1) * 86_400_000
        let started = dayMs + 10 * 60 * minute + 20_000  // 10:00:20
        let completes = started + 10 * minute  // 10:10:20
        let lift = dayMs + 10 * 60 * minute + 11 * minute  // 10:11:00
        let timer = start(habit, at: started, flags: HC_TIMER_AUTO_COMPLETE)
        XCTAssertEqual(status(timer, at: completes).ended_at_ms, completes)
        XCTAssertEqual(status(timer, at: 0).state, HC_TIMER_RUNNING, "the timer runs now: the plan must foresee it")

        let atStart = states(at: started).1[0]
        XCTAssertEqual(atStart.reason, HC_SHIELD_WINDOW_OPEN)
        XCTAssertEqual(atStart.next, lift, "the plan missed the timer's completion")
        XCTAssertEqual(atStart.nextCause, HC_SHIELD_CAUSE_COMPLETION)
        let plan = transitions(from: dayMs, to: dayMs + 86_400_000).1.filter { $0.rule_id == rule }
        XCTAssertEqual(plan.map(\.at_ms), [dayMs + 6 * 60 * minute, lift])
        XCTAssertEqual(plan.map(\.shielded), [1, 0])
        XCTAssertEqual(plan.last?.cause, HC_SHIELD_CAUSE_COMPLETION)
        XCTAssertEqual(plan.last?.to_reason, HC_SHIELD_COMPLETED)
        for asked in [completes - 1, completes, lift - 1] {
            XCTAssertEqual(states(at: asked).1[0].reason, HC_SHIELD_WINDOW_OPEN, "lifted before the whole minute after the completion: \(asked - dayMs)")
        }
        for asked in [lift, lift + 60 * minute] {
            let lifted = states(at: asked).1[0]
            XCTAssertEqual(lifted.reason, HC_SHIELD_COMPLETED, "not lifted after the completion: \(asked - dayMs)")
            XCTAssertEqual(lifted.sinceMs, lift)
        }

        let before = revision()
        ok(act(timer, HC_TIMER_ACTION_PAUSE, at: started + 5 * minute))
        XCTAssertNotEqual(revision(), before, "a timer's pause left the shield revision")
        let paused = states(at: started).1[0]
        XCTAssertEqual(paused.next, dayMs + 22 * 60 * minute, "a paused timer still lifts in the plan")
        XCTAssertEqual(paused.nextCause, HC_SHIELD_CAUSE_CUTOFF)
        let replanned = transitions(from: dayMs, to: dayMs + 86_400_000).1.filter { $0.rule_id == rule }
        XCTAssertEqual(replanned.map(\.cause), [HC_SHIELD_CAUSE_WINDOW_START, HC_SHIELD_CAUSE_CUTOFF])
        XCTAssertEqual(states(at: lift).1[0].reason, HC_SHIELD_WINDOW_OPEN)
    }

    /// The shield at an instant counts a timer from its stop on, whenever the stop was
    /// written: asked for an instant before it, the timer has lifted nothing (though the
    /// day's other entry came earlier), and asked after a stop dated later than now, it has.
    func testAShieldAskedBeforeATimersStopIsNotLiftedByIt() {
        let habit = createHabit(store, "Study", kind: HC_KIND_DURATION, target: 1800, start: date(today - 10))
        addRule([habit], start: 6 * 60, end: 22 * 60, fromDay: today - 5)
        // Yesterday: 20 minutes entered at 08:00, then a 10-minute timer stopped at 09:10.
        let yesterday = Int64(today - 1) * 86_400_000
        ok(append(store, habit, HC_ENTRY_AMOUNT, value: 1200, on: date(today - 1), atMs: yesterday + 8 * 60 * minute).0)
        ok(act(start(habit, at: yesterday + 9 * 60 * minute), HC_TIMER_ACTION_STOP, at: yesterday + 9 * 60 * minute + 10 * minute))
        XCTAssertEqual(states(at: yesterday + 8 * 60 * minute + 30 * minute).1[0].reason, HC_SHIELD_WINDOW_OPEN, "lifted before the stop")
        XCTAssertEqual(states(at: yesterday + 9 * 60 * minute + 10 * minute).1[0].sinceMs, yesterday + 9 * 60 * minute + 10 * minute)
        // Tomorrow: a 40-minute timer whose stop is written now.
        let tomorrow = Int64(today + 1) * 86_400_000
        let timer = start(habit, at: tomorrow + 10 * 60 * minute)
        ok(act(timer, HC_TIMER_ACTION_STOP, at: tomorrow + 10 * 60 * minute + 40 * minute))
        XCTAssertEqual(states(at: tomorrow + 10 * 60 * minute + 20 * minute).1[0].reason, HC_SHIELD_WINDOW_OPEN, "lifted before the stop")
        let after = states(at: tomorrow + 10 * 60 * minute + 40 * minute).1[0]
        XCTAssertEqual(after.reason, HC_SHIELD_COMPLETED, "a stop dated after now lifted nothing after it")
        XCTAssertEqual(after.sinceMs, tomorrow + 10 * 60 * minute + 40 * minute)
    }

    /// Seeded: timers (auto-complete or not, paused, resumed, stopped, discarded, dated
    /// before and after now) and entries on two duration habits, each lifting a 06:00-22:00
    /// rule. At every instant asked inside a window, shielded is "the day not done at
    /// the start of that minute", the day's total read the plain way: its entries recorded
    /// by then plus each timer's seconds as hc_timer_status_get folds it then. The
    /// transitions of a range are those of its two halves, the states are what they
    /// imply, and the next change is the first transition after.
    func testTheShieldReadsTimersAsFoldedAtTheInstantAsked() throws {
        var random = SplitMix(seed: 0x7153_1E1D)
        var doneByTimers = 0
        for round in 0..<6 {
            let s = try open("round\(round).db")
            defer { hc_store_close(s) }
            var habits: [(id: Int64, target: Int64, rule: Int64)] = []
            for index in 0..<2 {
                let target = Int64(random.int(10...40) * 60)
                let id = createHabit(s, "Focus \(index)", kind: HC_KIND_DURATION, target: Double(target), start: date(today - 10))
                habits.append((id, target, addRule([id], start: 6 * 60, end: 22 * 60, name: "r\(index)", store: s, fromDay: today - 5)))
            }
            var entries: [(habit: Int64, day: Int32, atMs: Int64, seconds: Int64)] = []
            var timers: [(habit: Int64, day: Int32, id: Int64)] = []
            for day in (today - 2)...(today + 2) {
                let dayMs = Int64(day) * 86_400_000
                for habit in habits {
                    if day < today, random.bool() {
                        let at = dayMs + Int64(random.int(5 * 60...21 * 60)) * minute + Int64(random.int(0...59_999))
                        let seconds = Int64(random.int(1...15) * 60)
                        ok(append(s, habit.id, HC_ENTRY_AMOUNT, value: Double(seconds), on: date(day), atMs: at).0)
                        entries.append((habit.id, day, at, seconds))
                    }
                    for _ in 0..<random.int(0...2) {
                        var at = dayMs + Int64(random.int(5 * 60...21 * 60)) * minute + Int64(random.int(0...59_999))
                        let id = start(habit.id, at: at, flags: random.bool() ? HC_TIMER_AUTO_COMPLETE : 0, store: s)
                        timers.append((habit.id, day, id))
                        var running = true
                        for _ in 0..<random.int(0...4) {
                            at += Int64(random.int(1...30)) * minute + Int64(random.int(0...59_999))
                            let action =
                                random.chance(0.2)
                                ? (random.chance(0.8) ? HC_TIMER_ACTION_STOP : HC_TIMER_ACTION_DISCARD)
                                : (running ? HC_TIMER_ACTION_PAUSE : HC_TIMER_ACTION_RESUME)
                            let status = act(id, action, at: at, store: s)
                            // An auto-complete timer may have completed itself by then.
                            XCTAssertTrue(status == HC_OK || status == HC_E_CONFLICT, "round \(round): \(status)")
                            if status != HC_OK || action == HC_TIMER_ACTION_STOP || action == HC_TIMER_ACTION_DISCARD { break }
                            running.toggle()
                        }
                    }
                }
            }
            func done(_ habit: (id: Int64, target: Int64, rule: Int64), day: Int32, at ms: Int64) -> Bool {
                let entered = entries.filter { $0.habit == habit.id && $0.day == day && $0.atMs <= ms }.map(\.seconds).reduce(0, +)
                var total = entered
                for timer in timers where timer.habit == habit.id && timer.day == day { total += status(timer.id, at: ms, store: s).seconds }
                if total >= habit.target && entered < habit.target { doneByTimers += 1 }
                return total >= habit.target
            }
            let a = Int64(today - 2) * 86_400_000, c = Int64(today + 3) * 86_400_000
            let b = a + Int64(random.int(0...(5 * 1440))) * minute + Int64(random.int(0...59_999))
            let all = transitions(from: a, to: c, store: s).1
            let halves = transitions(from: a, to: b, store: s).1 + transitions(from: b, to: c, store: s).1
            func key(_ t: hc_shield_transition) -> [Int64] {
                [t.at_ms, t.rule_id, Int64(t.shielded), Int64(t.cause), Int64(t.from_reason), Int64(t.to_reason)]
            }
            XCTAssertEqual(all.map(key), halves.map(key), "round \(round): split at \(b)")
            let initial = states(at: a, store: s).1
            for _ in 0..<60 {
                let day = today - 2 + Int32(random.int(0...4))
                let t = Int64(day) * 86_400_000 + Int64(random.int(6 * 60...(22 * 60 - 1))) * minute + Int64(random.int(0...59_999))
                let asked = states(at: t, store: s).1
                for (index, habit) in habits.enumerated() {
                    let minuteStart = t - t % minute
                    XCTAssertEqual(asked[index].shielded, !done(habit, day: day, at: minuteStart), "round \(round) habit \(index) at \(t - a)")
                    let mine = all.filter { $0.rule_id == habit.rule }
                    XCTAssertEqual(asked[index].shielded, mine.last { $0.at_ms <= t }.map { $0.shielded == 1 } ?? initial[index].shielded)
                    if let next = mine.first(where: { $0.at_ms > t }) {
                        XCTAssertEqual(asked[index].next, next.at_ms, "round \(round) habit \(index): the next change after \(t - a)")
                        XCTAssertEqual(asked[index].nextCause, next.cause)
                    }
                }
            }
        }
        XCTAssertGreaterThan(doneByTimers, 40, "the instants asked hold days that timers made done")
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
