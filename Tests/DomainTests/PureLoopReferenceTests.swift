import Testing

@testable import HabitCore

/// The optimised judging loops (streaks and strength) against plain reference folds
/// written here day by day, over random histories: day-based schedules (daily,
/// days:, every:N, monthdays:) and weekly quotas for strength, done, skipped and
/// vacation days, at-most counters judged at the day's end, as-of days inside,
/// before and after the history, and streak policies.
struct PureLoopReferenceTests {
    static let start: Int32 = 20_000

    struct Case: CustomStringConvertible {
        var spec: HabitSpec
        var states: [DayState]
        var vacations: [ClosedRange<Int32>]
        var asOf: Int32
        var policy: StreakPolicy

        var history: HabitHistory { HabitHistory(spec: spec, versions: [], archivedDay: nil, days: states) }
        var description: String {
            "\(spec.kind) \(spec.direction) \(spec.schedule) asOf +\(asOf - start) \(states.count) states \(vacations) \(policy)"
        }
    }

    static func randomCase(seed: UInt64, quotas: Bool) -> Case {
        var random = SplitMix(seed: seed)
        var schedules: [Schedule] = [
            .daily, .daily, .weekdays(UInt8.random(in: 1...0x7F, using: &random)),
            .everyNDays(Int.random(in: 1...9, using: &random)), .monthDays([1, 15, 31]),
        ]
        if quotas { schedules += [.timesPerWeek(Int.random(in: 1...7, using: &random)), .timesInDays(2, 5), .timesPerMonth(8)] }
        let schedule = schedules[Int.random(in: 0..<schedules.count, using: &random)]
        let kinds: [(HabitKind, Direction)] = [(.checkmark, .atLeast), (.checkmark, .atLeast), (.counter, .atLeast), (.counter, .atMost)]
        let (kind, direction) = kinds[Int.random(in: 0..<kinds.count, using: &random)]
        let target: Double = kind == .checkmark ? 1 : 3
        let spec = HabitSpec(
            name: "r", kind: kind, target: target, direction: direction, group: nil, unit: nil, routine: .anytime,
            proofRequired: false, startDay: start, schedule: schedule)
        let length = Int32.random(in: 1...400, using: &random)
        let doneShare = Int.random(in: 30...98, using: &random)
        var states: [DayState] = []
        for offset in 0..<length where Int.random(in: 0..<100, using: &random) < 90 {
            let roll = Int.random(in: 0..<100, using: &random)
            let value = kind == .checkmark ? (roll < doneShare ? 1 : 0) : Double(Int.random(in: 0...6, using: &random))
            let done = kind == .checkmark ? value == 1 : (direction == .atLeast ? value >= target : value <= target)
            let skipped = !done && roll % 7 == 0
            states.append(DayState(day: start + offset, value: value, done: done, skipped: skipped, entryCount: 1))
        }
        var vacations: [ClosedRange<Int32>] = []
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let first = start + Int32.random(in: -5...length, using: &random)
            vacations.append(first...(first + Int32.random(in: 0...20, using: &random)))
        }
        let asOf = start + Int32.random(in: -3...(length + 10), using: &random)
        let policy = StreakPolicy(
            missAllowance: Int32.random(in: 0...3, using: &random) == 3 ? 0 : Int32.random(in: 0...2, using: &random),
            openDay: Bool.random(using: &random) ? .previous : .zero, offDays: .skip)
        return Case(spec: spec, states: states, vacations: vacations, asOf: asOf, policy: policy)
    }

    /// The day's mark as kept (done wins over skipped; a day without a record of an
    /// at-most habit is within its limit), before the open day is taken into account.
    static func storedMark(_ c: Case, _ day: Int32) -> (done: Bool, skipped: Bool, value: Double) {
        guard let state = c.states.last(where: { $0.day == day }) else { return (HabitHistory.judgedAtDayEnd(c.spec), false, 0) }
        return (state.done, !state.done && state.skipped, state.value)
    }

    static func onVacation(_ c: Case, _ day: Int32) -> Bool { c.vacations.contains { $0.contains(day) } }

    /// Streaks day by day: every due day from the start through asOf is judged
    /// on its own, then the runs are folded under the policy.
    static func referenceStreaks(_ c: Case) -> (current: Streak?, runs: [Streak]) {
        var runs: [Streak] = []
        var run: Streak?
        var misses: Int32 = 0, pendingExcused: Int32 = 0
        var day = c.spec.startDay
        while day <= c.asOf {
            defer { day += 1 }
            guard c.spec.schedule.falls(on: day, anchor: c.spec.startDay) else { continue }
            let mark = storedMark(c, day)
            // At-most habits: the open day is not done until it is over.
            let done = mark.done && !(HabitHistory.judgedAtDayEnd(c.spec) && day >= c.asOf)
            var verdict: Occurrence.Verdict = done ? .kept : (mark.skipped || onVacation(c, day) ? .excused : (day >= c.asOf ? .open : .missed))
            if verdict == .open && c.policy.openDay == .zero { verdict = .missed }
            switch verdict {
            case .kept:
                if var going = run {
                    going.last = day
                    going.length += 1
                    going.excusedDays += pendingExcused
                    going.forgiven += misses
                    run = going
                } else {
                    run = Streak(first: day, last: day, length: 1, excusedDays: 0)
                }
                misses = 0
                pendingExcused = 0
            case .excused:
                if run != nil { pendingExcused += 1 }
            case .open:
                break
            case .missed:
                if run != nil && misses < c.policy.missAllowance {
                    misses += 1
                } else {
                    if let ended = run { runs.append(ended) }
                    run = nil
                    misses = 0
                    pendingExcused = 0
                }
            }
        }
        // The current run carries its trailing forgiven misses; as a ranked run it does not.
        guard let going = run else { return (nil, runs) }
        var current = going
        current.forgiven += misses
        return (current, runs + [going])
    }

    @Test(arguments: 0..<400)
    func streaksMatchTheDayByDayReference(seed: Int) {
        let c = Self.randomCase(seed: UInt64(seed) &* 7919 &+ 1, quotas: false)
        let summary = Streaks.summary(c.history, asOf: c.asOf, weekStart: 1, vacations: c.vacations, policy: c.policy, best: 1000)
        let reference = Self.referenceStreaks(c)
        let runs = reference.runs
        #expect(summary.current == reference.current, "\(c)")
        #expect(summary.runCount == runs.count, "\(c)")
        let ranked = runs.enumerated().sorted { $0.element.length != $1.element.length ? $0.element.length > $1.element.length : $0.offset > $1.offset }
        #expect(summary.best.map(\.length) == ranked.map(\.element.length), "\(c)")
        #expect(summary.best.map(\.first) == ranked.map(\.element.first), "\(c)")
        #expect(summary.best.map(\.last) == ranked.map(\.element.last), "\(c)")
        #expect(summary.best.map(\.excusedDays) == ranked.map(\.element.excusedDays), "\(c)")
        #expect(summary.best.map(\.forgiven) == ranked.map(\.element.forgiven), "\(c)")
        #expect(summary.longest?.length == ranked.first?.element.length, "\(c)")
        #expect(summary.longest?.first == ranked.first?.element.first, "\(c)")
    }

    /// Strength day by day: each day's window summed afresh from the marks,
    /// and the step taken unless the day is excused or open and not done.
    static func referenceStrength(_ c: Case, from: Int32, to: Int32) -> [Double] {
        let numeric = c.spec.kind == .counter
        let atMost = c.spec.direction == .atMost
        let frequency = Strength.frequency(c.spec.schedule)
        let multiplier = Strength.multiplier(times: frequency.times, days: frequency.days)
        let window = numeric ? frequency : Strength.checkWindow(times: frequency.times, days: frequency.days)
        var strength = Strength.initial(numeric: numeric, atMost: atMost)
        var series: [Double] = []
        for day in min(from, c.spec.startDay)...to {
            if day >= c.spec.startDay {
                var sum: Int64 = 0
                for windowDay in max(c.spec.startDay, day - Int32(window.days) + 1)...day {
                    let mark = storedMark(c, windowDay)
                    if numeric {
                        sum += Strength.thousandths(mark.value) + (mark.skipped ? Strength.skippedNumberThousandths : 0)
                    } else {
                        sum += mark.done ? 1 : 0
                    }
                }
                let mark = storedMark(c, day)
                let done = mark.done && !(HabitHistory.judgedAtDayEnd(c.spec) && day >= c.asOf)
                if !(mark.skipped || onVacation(c, day)) && (day < c.asOf || done) {
                    let value =
                        numeric
                        ? Strength.numberValue(sum: Double(sum) / 1000, target: c.spec.target, atMost: atMost)
                        : Strength.checkValue(doneInWindow: Int(sum), times: window.times)
                    strength = Strength.step(previous: strength, value: value, multiplier: multiplier)
                }
            }
            if day >= from { series.append(day >= c.spec.startDay ? strength : 0) }
        }
        return series
    }

    @Test(arguments: 0..<300)
    func strengthMatchesTheDayByDayReference(seed: Int) {
        let c = Self.randomCase(seed: UInt64(seed) &* 104_729 &+ 3, quotas: true)
        var random = SplitMix(seed: UInt64(seed))
        let from = Self.start + Int32.random(in: -10...30, using: &random)
        let to = max(from, c.asOf) + Int32.random(in: 0...5, using: &random)
        let series = Scores.strengthSeries(c.history, from: from, to: to, asOf: c.asOf, weekStart: 1, vacations: c.vacations)
        #expect(series == Self.referenceStrength(c, from: from, to: to), "\(c) from +\(from - Self.start) to +\(to - Self.start)")
    }
}
