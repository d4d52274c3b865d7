import Testing

@testable import HabitCore

/// Properties of streaks and scores over random histories (Swift Testing).
struct StreakProperties {
    static let schedules: [Schedule] = [
        .daily, .weekdays(0b0101010), .everyNDays(3), .monthDays([1, 15, 31]),
        .timesPerWeek(3), .timesPerMonth(8),
    ]

    static func randomHistory(seed: UInt64, schedule: Schedule, kind: HabitKind = .checkmark) -> HabitHistory {
        var random = SplitMix(seed: seed)
        let spec = HabitSpec(
            name: "p", kind: kind, target: kind == .checkmark ? 1 : 4, direction: .atLeast, group: nil, unit: nil,
            routine: .anytime, proofRequired: false, startDay: 20_000, schedule: schedule)
        var states: [DayState] = []
        for offset in 0..<120 where Int.random(in: 0..<10, using: &random) < 7 {
            let skipped = Int.random(in: 0..<12, using: &random) == 0
            states.append(DayState(day: 20_000 + Int32(offset), value: skipped ? 0 : 1, done: !skipped, skipped: skipped, entryCount: 1))
        }
        return HabitHistory(spec: spec, versions: [], archivedDay: nil, days: states)
    }

    @Test(arguments: 0..<6, 1...15)
    func longestIsAtLeastTheCurrentStreak(scheduleIndex: Int, seed: Int) {
        let history = Self.randomHistory(seed: UInt64(seed * 31 + scheduleIndex), schedule: Self.schedules[scheduleIndex])
        let summary = Streaks.summary(Judge.occurrences(history, asOf: 20_119, weekStart: 1), best: 5)
        #expect((summary.longest?.length ?? 0) >= (summary.current?.length ?? 0))
        #expect(summary.best.map(\.length) == summary.best.map(\.length).sorted(by: >))
    }

    @Test(arguments: 0..<6, 1...15)
    func addingACompletionNeverShortensAStreak(scheduleIndex: Int, seed: Int) {
        var history = Self.randomHistory(seed: UInt64(seed * 17 + scheduleIndex), schedule: Self.schedules[scheduleIndex])
        let before = Streaks.summary(Judge.occurrences(history, asOf: 20_119, weekStart: 1), best: 1)
        var random = SplitMix(seed: UInt64(seed))
        let day = 20_000 + Int32.random(in: 0..<120, using: &random)
        history.record(DayState(day: day, value: 1, done: true, skipped: false, entryCount: 1))
        let after = Streaks.summary(Judge.occurrences(history, asOf: 20_119, weekStart: 1), best: 1)
        #expect((after.longest?.length ?? 0) >= (before.longest?.length ?? 0))
        #expect((after.current?.length ?? 0) >= (before.current?.length ?? 0))
    }

    @Test(arguments: 1...20)
    func dailyScoresStayInZeroToOneOrNil(seed: Int) {
        let habits = Self.schedules.enumerated().map { index, schedule in
            Global.Input(history: Self.randomHistory(seed: UInt64(seed * 7 + index), schedule: schedule), habitId: Int64(index + 1))
        }
        let vacation = Vacation(id: 1, habitId: nil, first: 20_050, last: 20_056)
        let tallies = Global.tally(habits, vacations: [vacation], from: 19_990, to: 20_119, asOf: 20_119, weekStart: 1)
        for tally in tallies {
            if let score = tally.score { #expect(score >= 0 && score <= 1) } else { #expect(tally.due == 0) }
        }
        #expect(tallies.filter { $0.day < 20_000 }.allSatisfy { $0.score == nil }, "nothing is due before the start")
        #expect(tallies.filter { (20_050...20_056).contains($0.day) }.allSatisfy { $0.due == 0 }, "a vacation for all excuses all")
    }
}
