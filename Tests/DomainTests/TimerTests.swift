import HabitCore
import XCTest

/// TimerRules: a timer's state is the fold of its events by instant, the same in any
/// delivery order, against a millisecond-by-millisecond reference.
final class TimerTests: XCTestCase {
    let start = TimerStart(id: 7, habitId: 3, day: 20_000, atMs: 1_000, autoComplete: false)

    func fold(_ events: [TimerEvent], auto target: Int64? = nil, now: Int64 = 10_000) -> TimerStatus {
        var start = start
        start.autoComplete = target != nil
        return TimerRules.fold(start, events: events, targetMs: target, nowMs: now)
    }

    func testTwoStopsStopItOnceAtTheEarliest() {
        let status = fold([.init(action: .stop, atMs: 4_000), .init(action: .stop, atMs: 3_000)])
        XCTAssertEqual(status.state, .stopped)
        XCTAssertEqual(status.endedAtMs, 3_000)
        XCTAssertEqual(status.elapsedMs, 2_000)
        XCTAssertEqual(TimerRules.seconds(status), 2)
    }

    func testRepeatedPausesAndResumesAreIgnoredAndEventsBeforeTheStartToo() {
        let status = fold([
            .init(action: .stop, atMs: 500),  // before the start: ignored
            .init(action: .pause, atMs: 2_000), .init(action: .pause, atMs: 2_500),  // the second changes nothing
            .init(action: .resume, atMs: 3_000), .init(action: .resume, atMs: 3_200),
            .init(action: .stop, atMs: 5_000), .init(action: .resume, atMs: 6_000),  // after the end: ignored
        ])
        XCTAssertEqual(status.state, .stopped)
        XCTAssertEqual(status.elapsedMs, 1_000 + 2_000)
    }

    func testARunningOrPausedTimerShowsItsElapsedTimeAndAddsNothing() {
        let running = fold([], now: 4_500)
        XCTAssertEqual(running.state, .running)
        XCTAssertEqual(running.elapsedMs, 3_500)
        XCTAssertEqual(TimerRules.seconds(running), 0)
        let paused = fold([.init(action: .pause, atMs: 2_000)], now: 9_000)
        XCTAssertEqual(paused.state, .paused)
        XCTAssertEqual(paused.elapsedMs, 1_000)
        XCTAssertTrue(TimerRules.amountEntries([running, paused]).isEmpty)
    }

    func testADiscardedTimerAddsNothing() {
        let status = fold([.init(action: .discard, atMs: 3_000), .init(action: .stop, atMs: 4_000)])
        XCTAssertEqual(status.state, .discarded)
        XCTAssertEqual(status.elapsedMs, 0)
        XCTAssertTrue(TimerRules.amountEntries([status]).isEmpty)
    }

    func testAutoCompleteStopsAtTheInstantItsRunningTimeReachesTheTarget() {
        // 1 s run, 2 s pause, then 1.5 s more reaches 2.5 s at 5 500.
        let events: [TimerEvent] = [.init(action: .pause, atMs: 2_000), .init(action: .resume, atMs: 4_000)]
        let done = fold(events, auto: 2_500, now: 9_000)
        XCTAssertEqual(done.state, .stopped)
        XCTAssertTrue(done.completedByTarget)
        XCTAssertEqual(done.endedAtMs, 5_500)
        XCTAssertEqual(done.elapsedMs, 2_500)
        // Before that instant it runs, and says when it will end.
        let before = fold(events, auto: 2_500, now: 5_000)
        XCTAssertEqual(before.state, .running)
        XCTAssertEqual(TimerRules.completesAt(before, targetMs: 2_500, nowMs: 5_000), 5_500)
        // A later stop changes nothing; an earlier one wins.
        XCTAssertEqual(fold(events + [.init(action: .stop, atMs: 7_000)], auto: 2_500).endedAtMs, 5_500)
        let early = fold(events + [.init(action: .stop, atMs: 4_500)], auto: 2_500)
        XCTAssertEqual(early.endedAtMs, 4_500)
        XCTAssertFalse(early.completedByTarget)
    }

    func testALocalEventIsCheckedAgainstWhereTheTimerStands() {
        let running = fold([], now: 2_000)
        XCTAssertThrowsError(try TimerRules.check(.resume, atMs: 2_000, on: running))
        XCTAssertThrowsError(try TimerRules.check(.pause, atMs: 999, on: running))
        XCTAssertNoThrow(try TimerRules.check(.pause, atMs: 2_000, on: running))
        let stopped = fold([.init(action: .stop, atMs: 1_500)])
        for action in [TimerAction.pause, .resume, .stop, .discard] {
            XCTAssertThrowsError(try TimerRules.check(action, atMs: 3_000, on: stopped)) { error in
                XCTAssertEqual((error as? HabitError)?.code, .conflict)
            }
        }
    }

    /// The reference: walks every millisecond from the start, applying the instant's
    /// events in action order, counting running milliseconds.
    func reference(_ events: [TimerEvent], target: Int64?, now: Int64) -> (TimerState, Int64, Int64?) {
        var state = TimerState.running
        var elapsed: Int64 = 0
        var t = start.atMs
        while t <= now {
            for action in TimerAction.allCases where events.contains(TimerEvent(action: action, atMs: t)) {
                switch (action, state) {
                case (.pause, .running): state = .paused
                case (.resume, .paused): state = .running
                case (.stop, .running), (.stop, .paused): return (.stopped, elapsed, t)
                case (.discard, .running), (.discard, .paused): return (.discarded, 0, t)
                default: break
                }
            }
            if t == now { break }
            if state == .running {
                elapsed += 1
                if let target, elapsed == target { return (.stopped, elapsed, t + 1) }
            }
            t += 1
        }
        return (state, elapsed, nil)
    }

    func testAnyDeliveryOrderGivesTheReferenceState() {
        var random = SplitMix(seed: 0x7133_E2)
        for round in 0..<400 {
            var events: [TimerEvent] = []
            for _ in 0..<random.int(0...12) {
                let action = [TimerAction.pause, .resume, .pause, .resume, .stop, .discard][random.below(6)]
                events.append(TimerEvent(action: action, atMs: Int64(random.int(900...1_400))))
            }
            let target: Int64? = random.below(3) == 0 ? Int64(random.int(1...300)) : nil
            let now = Int64(random.int(1_000...1_500))
            let expected = reference(events, target: target, now: now)
            let first = fold(events, auto: target, now: now)
            XCTAssertEqual(first.state, expected.0, "round \(round): \(events) target \(String(describing: target)) now \(now)")
            XCTAssertEqual(first.elapsedMs, expected.1, "round \(round): \(events) target \(String(describing: target)) now \(now)")
            XCTAssertEqual(first.endedAtMs, expected.2, "round \(round)")
            for _ in 0..<5 {
                var shuffled = events
                shuffled.shuffle(using: &random)
                // A replica that received some events twice folds the same.
                if !shuffled.isEmpty { shuffled.append(shuffled[random.below(shuffled.count)]) }
                XCTAssertEqual(fold(shuffled, auto: target, now: now), first, "round \(round)")
            }
        }
    }

    /// Folded once at TimerRules.foreseeing, a timer's amount entry (its end as its
    /// instant) is counted at an instant exactly when the fold at that instant counts it:
    /// what lets the shield plan fold timers once and answer for any instant.
    func testTheForeseenFoldCountsAtEachInstantWhatThatInstantsFoldCounts() {
        var random = SplitMix(seed: 0x7133_E3)
        var ended = 0
        for round in 0..<400 {
            var events: [TimerEvent] = []
            for _ in 0..<random.int(0...8) {
                let action = [TimerAction.pause, .resume, .pause, .resume, .stop, .discard][random.below(6)]
                events.append(TimerEvent(action: action, atMs: Int64(random.int(900...40_000))))
            }
            let target: Int64? = random.bool() ? Int64(random.int(1_000...30_000)) : nil
            let foreseen = TimerRules.amountEntries([fold(events, auto: target, now: TimerRules.foreseeing)])
            ended += foreseen.count
            for _ in 0..<30 {
                let now = Int64(random.int(900...45_000))
                XCTAssertEqual(
                    TimerRules.amountEntries([fold(events, auto: target, now: now)]), foreseen.filter { $0.recordedAtMs <= now },
                    "round \(round): \(events) target \(String(describing: target)) at \(now)")
            }
        }
        XCTAssertGreaterThan(ended, 100, "the rounds hold timers that end")
    }
}
