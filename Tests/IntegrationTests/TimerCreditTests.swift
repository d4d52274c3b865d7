import CHabitCore
import Foundation
import HabitCore
import XCTest

/// Completion credits of days timers fill, through the C functions on real store files:
/// a day is owed its reward by the one merged history (entries and stopped timers'
/// amounts), whether a local stop, a stop that arrives by sync, or the timer's own
/// completion by its target made it done.
final class TimerCreditTests: StoreTestCase {
    let minute: Int64 = 60_000
    var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// A store in a fixed-offset zone where it is now about noon, so "now less a few
    /// hours" is still today whenever the test runs (rewards start today).
    func middayStore(_ name: String) throws -> (OpaquePointer, Int32) {
        let store = try open(name)
        let utcHour = Int((nowMs / 3_600_000) % 24)
        let offset = 12 - utcHour  // hours east of UTC; Etc/GMT's sign is the other way
        ok(hc_store_set_timezone(store, offset == 0 ? "Etc/GMT" : offset > 0 ? "Etc/GMT-\(offset)" : "Etc/GMT+\(-offset)"))
        var today: Int32 = 0
        ok(hc_store_today(&today, store))
        return (store, today)
    }

    func reward(_ store: OpaquePointer, _ habit: Int64, _ minutes: Int64) {
        ok(hc_credit_rule_set(nil, store, 0, HC_RULE_HABIT_MINUTES, habit, minutes, Int32.min))
    }

    func balance(_ store: OpaquePointer) -> Int64 {
        var value: Int64 = 0
        ok(hc_credit_balance(&value, store, 0))
        return value
    }

    func start(_ store: OpaquePointer, _ habit: Int64, at ms: Int64, flags: UInt32 = 0, file: StaticString = #filePath, line: UInt = #line) -> Int64 {
        var id: Int64 = 0
        XCTAssertEqual(hc_timer_start(&id, store, habit, flags, ms), HC_OK, String(cString: hc_last_error_message()), file: file, line: line)
        return id
    }

    /// A credit entry with its reason copied out of the list that borrowed it.
    struct Credit {
        var kind: Int32
        var minutes: Int64
        var day: Int32
        var cause: Int32
        var causeId: Int64
        var habitId: Int64
        var reason: String
    }

    /// An account's whole credit ledger, in the order it was written.
    func ledger(_ store: OpaquePointer) -> [Credit] {
        creditEntries(store) { e in
            Credit(
                kind: e.kind, minutes: e.minutes, day: e.day, cause: e.cause, causeId: e.cause_id, habitId: e.habit_id,
                reason: e.reason.map { String(cString: $0) } ?? "")
        }
    }

    /// The completion credit a store's ledger holds for a habit's day (its earn net of corrections).
    func held(_ store: OpaquePointer, _ habit: Int64, _ day: Int32) -> Int64 {
        ledger(store).filter { $0.habitId == habit && $0.day == day && $0.cause == HC_CAUSE_HABIT_ENTRY }.reduce(0) { $0 + $1.minutes }
    }

    /// Whether the merged history (the store's own day fold) says the habit's day is done.
    func done(_ store: OpaquePointer, _ habit: Int64, _ day: Int32) -> Bool {
        var state = hc_day_state()
        var count: Int64 = 0
        ok(hc_habit_day_states(&state, 1, &count, store, habit, day, day))
        return state.flags & HC_DAY_DONE != 0
    }

    /// A write of the account that changes nothing else (a step report of 0).
    func touchAccount(_ store: OpaquePointer) {
        var result = defaults(hc_step_sync_init)
        ok(hc_credit_sync_steps(&result, store, 0, Int32.min, 0))
    }

    func testAStopThatCompletesARewardedDayEarnsOnceInItsOwnWrite() throws {
        let (store, today) = try middayStore("store.db")
        defer { hc_store_close(store) }
        let habit = createHabit(store, "Focus", kind: HC_KIND_DURATION, target: 600, start: date(today - 3))
        reward(store, habit, 15)
        let t0 = nowMs - 30 * minute
        let timer = start(store, habit, at: t0)
        XCTAssertEqual(balance(store), 0, "a running timer earns nothing yet")
        ok(hc_timer_act(store, timer, HC_TIMER_ACTION_STOP, t0 + 15 * minute))
        let entries = ledger(store)
        XCTAssertEqual(entries.count, 1, "written by the stop itself: \(entries.map(\.reason))")
        let earn = try XCTUnwrap(entries.first)
        XCTAssertEqual(earn.kind, HC_CREDIT_EARN)
        XCTAssertEqual(earn.minutes, 15)
        XCTAssertEqual(earn.day, today)
        XCTAssertEqual(earn.habitId, habit)
        XCTAssertEqual(earn.cause, HC_CAUSE_HABIT_ENTRY)
        XCTAssertEqual(earn.causeId, 0, "a timer's stop names no ledger entry")
        XCTAssertEqual(earn.reason, "completed 'Focus'")
        XCTAssertEqual(balance(store), 15)
        XCTAssertEqual(hc_timer_act(store, timer, HC_TIMER_ACTION_STOP, t0 + 20 * minute), HC_E_CONFLICT)
        XCTAssertEqual(ledger(store).count, 1, "a refused stop earns nothing")
        // A second timer on the done day adds time and no second reward.
        let more = start(store, habit, at: t0 + 16 * minute)
        ok(hc_timer_act(store, more, HC_TIMER_ACTION_STOP, t0 + 18 * minute))
        XCTAssertEqual(ledger(store).count, 1)
        XCTAssertEqual(balance(store), 15)
        // A reward changed for the day recounts a day only a timer filled.
        reward(store, habit, 20)
        XCTAssertEqual(ledger(store).map(\.minutes), [15, 5])
        XCTAssertEqual(ledger(store).last?.reason, "reward for 'Focus' recounted")
    }

    /// Started on the phone, stopped offline on both at different instants, exchanged both
    /// ways. Focus: both stops pass the target, so each replica earns once and keeps it.
    /// Read: only the phone's later stop passes it; the watch's earlier stop arrives, ends
    /// the timer sooner, and the phone gives the reward back.
    func testStopsOnTwoReplicasEarnTheRewardOnceAndAnEarlierStopTakesItBack() throws {
        let (phone, today) = try middayStore("phone.db")
        let watch = try open("watch.db")
        defer { hc_store_close(phone); hc_store_close(watch) }
        let focus = createHabit(phone, "Focus", kind: HC_KIND_DURATION, target: 600, start: date(today - 3))
        let read = createHabit(phone, "Read", kind: HC_KIND_DURATION, target: 1500, start: date(today - 3))
        reward(phone, focus, 10)
        reward(phone, read, 7)
        let t0 = nowMs - 60 * minute
        let focusTimer = start(phone, focus, at: t0), readTimer = start(phone, read, at: t0)
        pull(watch, from: phone)
        let there = (focus: habitId(watch, "Focus"), read: habitId(watch, "Read"))
        XCTAssertEqual(balance(watch), 0)
        // Offline: the watch stops both at +20 min, the phone at +30 min.
        for (watchHabit, phoneTimer) in [(there.focus, focusTimer), (there.read, readTimer)] {
            let onWatch = try XCTUnwrap(timerId(watch, startedAt: t0, habit: watchHabit))
            ok(hc_timer_act(watch, onWatch, HC_TIMER_ACTION_STOP, t0 + 20 * minute))
            ok(hc_timer_act(phone, phoneTimer, HC_TIMER_ACTION_STOP, t0 + 30 * minute))
        }
        XCTAssertEqual(held(phone, focus, today), 10)
        XCTAssertEqual(held(phone, read, today), 7, "30 minutes pass Read's 25")
        XCTAssertEqual(held(watch, there.focus, today), 10)
        XCTAssertEqual(held(watch, there.read, today), 0, "20 minutes fall short of Read's 25")
        pull(phone, from: watch)
        pull(watch, from: phone)
        pull(phone, from: watch)
        for (store, focusHere, readHere) in [(phone, focus, read), (watch, there.focus, there.read)] {
            let focusEntries = ledger(store).filter { $0.habitId == focusHere }
            XCTAssertEqual(focusEntries.map(\.kind), [HC_CREDIT_EARN], "Focus earned once, and kept")
            XCTAssertEqual(held(store, focusHere, today), 10)
            XCTAssertEqual(held(store, readHere, today), 0, "the earliest stop ends Read short of its target")
            XCTAssertEqual(balance(store), 10)
        }
        let readOnPhone = ledger(phone).filter { $0.habitId == read }
        XCTAssertEqual(readOnPhone.map(\.kind), [HC_CREDIT_EARN, HC_CREDIT_ADJUST], "taken back, as an undo does")
        XCTAssertEqual(readOnPhone.last?.minutes, -7)
        XCTAssertEqual(readOnPhone.last?.reason, "'Read' no longer done after a timer's stop")
        XCTAssertTrue(ledger(watch).filter { $0.habitId == there.read }.isEmpty, "the watch never earned Read")
        XCTAssertEqual(canonical(phone), canonical(watch))
    }

    /// The local id of the timer of `habit` that started at `ms` (ids differ per replica).
    func timerId(_ store: OpaquePointer, startedAt ms: Int64, habit: Int64) -> Int64? {
        for id in Int64(1)...10_000 {
            var out = defaults(hc_timer_status_init)
            let status = hc_timer_status_get(&out, store, id, 0)
            if status == HC_E_NOT_FOUND, id > 1_000 { return nil }
            if status == HC_OK, out.id == id, out.started_at_ms == ms, out.habit_id == habit { return id }
        }
        return nil
    }

    /// An auto-complete timer ends itself with no event: every replica holding its start
    /// counts the reward from the completion instant on, and the first write of the
    /// account (a step report, a spend, a sync that brings the account's spend) or of
    /// the habit (an entry on another day) records it, once.
    func testAnAutoCompletedDayIsCountedFromItsInstantAndWrittenOnceByTheNextWrite() throws {
        let (phone, today) = try middayStore("phone.db")
        let watch = try open("watch.db"), tablet = try open("tablet.db"), laptop = try open("laptop.db")
        defer { [phone, watch, tablet, laptop].forEach { hc_store_close($0) } }
        let stores = [phone, watch, tablet, laptop]
        let habit = createHabit(phone, "Stretch", kind: HC_KIND_DURATION, target: 2, start: date(today - 3))
        reward(phone, habit, 5)
        let timer = start(phone, habit, at: nowMs, flags: HC_TIMER_AUTO_COMPLETE)
        pull(watch, from: phone)
        pull(tablet, from: phone)
        pull(laptop, from: phone)
        for store in stores {
            XCTAssertEqual(balance(store), 0, "before the completion instant")
            var summary = defaults(hc_credit_day_init)
            ok(hc_credit_day_summary(&summary, store, 0, today))
            XCTAssertEqual(summary.earned, 0)
        }
        usleep(2_300_000)
        var status = defaults(hc_timer_status_init)
        ok(hc_timer_status_get(&status, phone, timer, 0))
        XCTAssertEqual(status.completed, 1)
        for store in stores {
            XCTAssertEqual(balance(store), 5, "counted from the completion instant, written or not")
            var summary = defaults(hc_credit_day_init)
            ok(hc_credit_day_summary(&summary, store, 0, today))
            XCTAssertEqual(summary.earned, 5)
            XCTAssertTrue(ledger(store).isEmpty, "no write yet: nothing recorded")
        }
        XCTAssertEqual(canonical(phone), canonical(watch))
        // The phone's next write of the account records it; a second write writes nothing.
        touchAccount(phone)
        touchAccount(phone)
        let written = ledger(phone)
        XCTAssertEqual(written.map(\.kind), [HC_CREDIT_EARN])
        XCTAssertEqual(written.first?.minutes, 5)
        XCTAssertEqual(written.first?.habitId, habit)
        XCTAssertEqual(written.first?.day, today)
        XCTAssertEqual(written.first?.reason, "completed 'Stretch'")
        XCTAssertEqual(balance(phone), 5, "written, not counted twice")
        XCTAssertEqual(canonical(phone), canonical(watch), "written on one replica, counted on the other")
        // The watch spends it: the spend's check counts it and records it first.
        var spend: Int64 = 0
        ok(hc_credit_spend(&spend, watch, 0, 5, "video", 0))
        XCTAssertEqual(ledger(watch).map(\.minutes), [5, -5])
        // The laptop hears of the spend: the sync writes the reward too, before the spend it brings is folded.
        pull(laptop, from: watch)
        XCTAssertEqual(ledger(laptop).map(\.minutes).sorted(), [-5, 5])
        XCTAssertEqual(balance(laptop), 0)
        // The tablet's next write of the habit, on another day, records it there.
        ok(append(tablet, habitId(tablet, "Stretch"), HC_ENTRY_AMOUNT, value: 1, on: date(today - 1)).0)
        XCTAssertEqual(ledger(tablet).filter { $0.kind == HC_CREDIT_EARN }.map(\.day), [today])
        for _ in 0..<2 { for a in stores { for b in stores where a != b { pull(a, from: b) } } }
        for store in stores {
            XCTAssertEqual(ledger(store).filter { $0.kind == HC_CREDIT_EARN }.count, 1, "each replica records it once")
            XCTAssertEqual(balance(store), 0, "earned once and spent once")
        }
        XCTAssertEqual(canonical(phone), canonical(watch))
        XCTAssertEqual(canonical(phone), canonical(tablet))
    }

    /// A stop dated ahead of the clock (a device whose clock runs ahead, or a stop set in
    /// advance) changes the day when it comes due, by time alone: counted from then,
    /// written by the next write.
    func testAStopDatedAheadEarnsWhenItComesDue() throws {
        let (store, today) = try middayStore("store.db")
        defer { hc_store_close(store) }
        let habit = createHabit(store, "Focus", kind: HC_KIND_DURATION, target: 60, start: date(today - 1))
        reward(store, habit, 4)
        let stopAt = nowMs + 1_500
        let timer = start(store, habit, at: stopAt - 2 * minute)
        ok(hc_timer_act(store, timer, HC_TIMER_ACTION_STOP, stopAt))
        XCTAssertEqual(balance(store), 0, "the stop has not come due")
        XCTAssertTrue(ledger(store).isEmpty)
        usleep(useconds_t(max(stopAt + 300 - nowMs, 0) * 1000))
        XCTAssertEqual(balance(store), 4, "due: counted without a write")
        touchAccount(store)
        touchAccount(store)
        XCTAssertEqual(ledger(store).map(\.minutes), [4], "written once")
        XCTAssertEqual(balance(store), 4)
    }

    /// An auto-complete timer started late, already past its target, earns in its start's write.
    func testAnAutoCompleteStartAlreadyPastItsTargetEarnsInItsOwnWrite() throws {
        let (store, today) = try middayStore("store.db")
        defer { hc_store_close(store) }
        let habit = createHabit(store, "Breathe", kind: HC_KIND_DURATION, target: 1, start: date(today - 1))
        reward(store, habit, 3)
        _ = start(store, habit, at: nowMs - 5_000, flags: HC_TIMER_AUTO_COMPLETE)
        XCTAssertEqual(ledger(store).map(\.kind), [HC_CREDIT_EARN])
        XCTAssertEqual(balance(store), 3)
    }

    /// Three replicas write random timer events (auto-complete ones too), amounts and
    /// undos on three rewarded duration habits, and exchange in random pairs. Focus and
    /// Read are timed in the past hours; Breathe's one-second timers run now, so some
    /// complete themselves after the last write. Once everyone has heard from everyone
    /// and every timer that will complete has, on every replica each habit's day is held
    /// what the merged history says it is owed: counted by the balance at once, written
    /// by the next write, and a second write settles nothing more.
    func testRandomTimerEventsLeaveEveryReplicaHoldingWhatEachDayIsOwed() throws {
        var tally = (done: 0, notDone: 0, unwritten: 0, takenBack: 0)
        for seed in [UInt64(0xC4ED_0001), 0xC4ED_0002, 0xC4ED_0003, 0xC4ED_0004, 0xC4ED_0005, 0xC4ED_0006] {
            var random = SplitMix(seed: seed)
            let (first, today) = try middayStore("r\(seed)-0.db")
            let stores = [first] + (try (1..<3).map { try open("r\(seed)-\($0).db") })
            defer { stores.forEach { hc_store_close($0) } }
            let habits = [("Focus", 3600.0, Int64(10)), ("Read", 2400.0, Int64(4)), ("Breathe", 1.0, Int64(3))]
            for (name, target, minutes) in habits {
                reward(first, createHabit(first, name, kind: HC_KIND_DURATION, target: target, start: date(today - 3)), minutes)
            }
            for store in stores.dropFirst() { pull(store, from: first) }
            let base = nowMs - 4 * 60 * minute
            var starts: [(Int64, String)] = []
            var lastNow: Int64 = 0
            for _ in 0..<60 {
                let r = random.below(3)
                let store = stores[r]
                let name = habits[random.below(3)].0
                let live = name == "Breathe"
                switch random.below(6) {
                case 0:
                    let at = live ? nowMs : base + Int64(random.int(0...150)) * minute + Int64(random.int(0...59_999))
                    if live { lastNow = at }
                    var id: Int64 = 0
                    let flags: UInt32 = live || random.below(2) == 0 ? HC_TIMER_AUTO_COMPLETE : 0
                    if hc_timer_start(&id, store, habitId(store, name), flags, at) == HC_OK, !starts.contains(where: { $0 == (at, name) }) {
                        starts.append((at, name))
                    }
                case 1, 2:
                    guard let (at, timerHabit) = starts.randomElement(using: &random),
                        let id = timerId(store, startedAt: at, habit: habitId(store, timerHabit))
                    else { continue }
                    let action = [HC_TIMER_ACTION_PAUSE, HC_TIMER_ACTION_RESUME, HC_TIMER_ACTION_STOP, HC_TIMER_ACTION_DISCARD][random.below(4)]
                    let when = timerHabit == "Breathe" ? nowMs : min(at + Int64(random.int(1...70)) * minute, nowMs)
                    _ = hc_timer_act(store, id, action, when)
                case 3:
                    if random.below(3) == 0 {
                        var undo: Int64 = 0
                        _ = hc_entry_undo_last(&undo, store, habitId(store, name), Int32.min)
                    } else if !live {
                        ok(append(store, habitId(store, name), HC_ENTRY_AMOUNT, value: Double(random.int(60...900))).0)
                    }
                default:
                    pull(store, from: stores[(r + 1 + random.below(2)) % 3])
                }
            }
            for _ in 0..<2 { for a in 0..<3 { for b in 0..<3 where a != b { pull(stores[a], from: stores[b]) } } }
            // Every Breathe timer still running completes itself now, with no write after it.
            let wait = lastNow + 1_300 - nowMs
            if wait > 0 { usleep(useconds_t(wait * 1000)) }
            var owedTotals: [Int64] = []
            for store in stores {
                var owed: Int64 = 0
                for (name, _, minutes) in habits where done(store, habitId(store, name), today) { owed += minutes }
                XCTAssertEqual(balance(store), owed, "seed \(seed): the balance counts what the days are owed, written or not")
                let written = ledger(store).reduce(0) { $0 + $1.minutes }
                if written != owed { tally.unwritten += 1 }
                touchAccount(store)
                for (name, _, minutes) in habits {
                    let habit = habitId(store, name)
                    let isDone = done(store, habit, today)
                    XCTAssertEqual(held(store, habit, today), isDone ? minutes : 0, "seed \(seed): \(name)")
                    if isDone { tally.done += 1 } else { tally.notDone += 1 }
                }
                tally.takenBack += ledger(store).filter { $0.kind == HC_CREDIT_ADJUST }.count
                XCTAssertEqual(balance(store), owed, "seed \(seed)")
                let before = ledger(store).count
                touchAccount(store)
                XCTAssertEqual(ledger(store).count, before, "seed \(seed): a second write settles nothing more")
                owedTotals.append(owed)
            }
            XCTAssertEqual(Set(owedTotals).count, 1, "seed \(seed): the replicas agree")
        }
        // The seeds reach every case the property is about.
        XCTAssertGreaterThan(tally.done, 0)
        XCTAssertGreaterThan(tally.notDone, 0)
        XCTAssertGreaterThan(tally.unwritten, 0, "no replica held an auto-completion unwritten at the end")
        XCTAssertGreaterThan(tally.takenBack, 0, "no reward was taken back")
        print("timer credit property: \(tally)")
    }
}
