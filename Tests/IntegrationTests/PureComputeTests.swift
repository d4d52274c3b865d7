import CHabitCore
import HabitCore
import XCTest

/// hc_streak_compute and hc_strength_compute place the caller's day states into
/// the history themselves (one pass, no domain call per day). Over random inputs
/// as callers pass them (any order, repeated days where the last one wins, days
/// before the start and after as_of, every flag combination) they answer exactly
/// as the domain does over a history built day by day with HabitHistory.record.
final class PureComputeTests: XCTestCase {
    func testPureCallsAnswerAsTheDomainOverRecordedDays() {
        var random = SplitMix(seed: 2026)
        let schedules: [(String?, Schedule)] = [
            (nil, .daily), ("days:mon,wed,fri", .weekdays(0b0101010)), ("every:3", .everyNDays(3)),
            ("weekly:3", .timesPerWeek(3)),
        ]
        for round in 0..<300 {
            let (text, schedule) = schedules[round % schedules.count]
            let counter = round % 3 == 2
            let atMost = counter && round % 2 == 0
            let start: Int32 = 20_000
            let length = Int32.random(in: 1...500, using: &random)
            var states: [hc_day_state] = []
            for _ in 0..<Int.random(in: 0...Int(length) + 20, using: &random) {
                let flags = UInt32.random(in: 0...7, using: &random)
                states.append(
                    hc_day_state(
                        day: start + Int32.random(in: -10...(length + 10), using: &random), flags: flags,
                        value: Double(Int.random(in: 0...5, using: &random)), entry_count: 1, reserved: 0))
            }
            let asOf = start + Int32.random(in: -2...length, using: &random)
            let spec = HabitSpec(
                name: "rules", kind: counter ? .counter : .checkmark, target: counter ? 3 : 1,
                direction: atMost ? .atMost : .atLeast, group: nil, unit: nil, routine: .anytime,
                proofRequired: false, startDay: start, schedule: schedule)
            let policy = StreakPolicy(missAllowance: Int32(round % 3), openDay: round % 5 == 0 ? .zero : .previous, offDays: .skip)
            let message = "round \(round): \(schedule) counter \(counter) at most \(atMost) as of +\(asOf - start)"

            // The domain over the same states recorded one by one, in the caller's order.
            func recorded(through last: Int32) -> HabitHistory {
                var history = HabitHistory(spec: spec, versions: [], archivedDay: nil, through: last)
                for state in states where state.day <= last {
                    history.record(
                        day: state.day, value: state.value, done: state.flags & HC_DAY_DONE != 0,
                        skipped: state.flags & HC_DAY_SKIPPED != 0)
                }
                return history
            }

            text.withOptionalCString { schedulePointer in
                var rules = defaults(hc_habit_rules_init)
                rules.kind = counter ? HC_KIND_COUNTER : HC_KIND_CHECKMARK
                rules.target = counter ? 3 : 1
                rules.direction = atMost ? HC_DIRECTION_AT_MOST : HC_DIRECTION_AT_LEAST
                rules.start_day = start
                rules.schedule = schedulePointer
                var cPolicy = defaults(hc_streak_policy_init)
                cPolicy.miss_allowance = policy.missAllowance
                cPolicy.open_day = policy.openDay.rawValue

                var result = defaults(hc_streak_result_init)
                var best = [hc_streak](repeating: hc_streak(), count: 8)
                var bestCount: Int64 = 0
                XCTAssertEqual(
                    hc_streak_compute_with_policy(&result, &best, 8, &bestCount, &rules, &cPolicy, states, Int64(states.count), asOf),
                    HC_OK, message)
                let summary = Streaks.summary(recorded(through: asOf), asOf: asOf, weekStart: 1, policy: policy, best: 8)
                XCTAssertEqual(result.current.length, summary.current?.length ?? 0, message)
                XCTAssertEqual(result.current.first_day, summary.current?.first ?? 0, message)
                XCTAssertEqual(result.current_forgiven, summary.current?.forgiven ?? 0, message)
                XCTAssertEqual(result.longest.length, summary.longest?.length ?? 0, message)
                XCTAssertEqual(result.longest.last_day, summary.longest?.last ?? 0, message)
                XCTAssertEqual(bestCount, Int64(summary.runCount), message)
                XCTAssertEqual(best.prefix(summary.best.count).map(\.length), summary.best.map(\.length), message)
                XCTAssertEqual(best.prefix(summary.best.count).map(\.excused_days), summary.best.map(\.excusedDays), message)

                let from = start + Int32.random(in: -5...5, using: &random)
                let to = max(from, asOf)
                var series = [Double](repeating: -1, count: Int(to - from) + 1)
                var count: Int64 = 0
                XCTAssertEqual(
                    hc_strength_compute(&series, Int64(series.count), &count, &rules, states, Int64(states.count), from, to),
                    HC_OK, message)
                XCTAssertEqual(series, Scores.strengthSeries(recorded(through: to), from: from, to: to, asOf: to, weekStart: 1), message)
            }
        }
    }

    func testABadRecordAnywhereIsRefusedWhereverItsDayFalls() {
        var rules = defaults(hc_habit_rules_init)
        rules.start_day = 20_000
        var result = defaults(hc_streak_result_init)
        var count: Int64 = 0
        for (day, flags, value) in [
            (Int32(20_005), UInt32(8), 1.0), (20_005, 1, Double.nan), (19_000, 1, .infinity), (30_000, 16, 0),
            (Int32.min, 1, 1),
        ] {
            let states = [
                hc_day_state(day: 20_001, flags: 1, value: 1, entry_count: 1, reserved: 0),
                hc_day_state(day: day, flags: flags, value: value, entry_count: 1, reserved: 0),
            ]
            XCTAssertEqual(hc_streak_compute(&result, nil, 0, &count, &rules, states, 2, 20_010), HC_E_INVALID, "\(day) \(flags) \(value)")
            var out = [Double](repeating: 0, count: 11)
            XCTAssertEqual(hc_strength_compute(&out, 11, &count, &rules, states, 2, 20_000, 20_010), HC_E_INVALID, "\(day) \(flags) \(value)")
        }
    }
}

private extension Optional where Wrapped == String {
    /// The string as a C string for the call, or NULL.
    func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let self else { return body(nil) }
        return self.withCString { body($0) }
    }
}
