/// A run of kept occurrences.
package struct Streak: Equatable, Sendable {
    package var first: Int32
    package var last: Int32
    /// Kept occurrences: due days, or quota periods.
    package var length: Int32
    /// Excused days the run spans, which neither broke it nor added to it.
    package var excusedDays: Int32

    package init(first: Int32, last: Int32, length: Int32, excusedDays: Int32) {
        self.first = first
        self.last = last
        self.length = length
        self.excusedDays = excusedDays
    }
}

package struct StreakSummary: Equatable, Sendable {
    /// The run still going at asOf (nil when the last judged occurrence was missed).
    package var current: Streak?
    package var longest: Streak?
    /// The best runs, longest first, the more recent first among equals.
    package var best: [Streak]

    package static let none = StreakSummary(current: nil, longest: nil, best: [])
}

/// Folds occurrences into runs as they come: a missed one ends a run; excused
/// and open ones neither end nor extend it. Keeps every run only when the best
/// N are wanted, else just the longest.
struct RunTracker: OccurrenceSink {
    private let keepsRuns: Bool
    private(set) var runs: [Streak] = []
    private var longest: Streak?
    /// The run going on, valid while `running` (kept as plain fields: this is the hot loop).
    private var running = false
    private var run = Streak(first: 0, last: 0, length: 0, excusedDays: 0)
    private var pendingExcused: Int32 = 0

    init(keepsRuns: Bool) { self.keepsRuns = keepsRuns }

    @inline(__always)
    mutating func take(_ occurrence: Occurrence) {
        switch occurrence.verdict {
        case .kept:
            // Wrapping adds: lengths and excused days count days of one history, far below Int32.max.
            if running {
                run.last = occurrence.last
                run.length &+= 1
                run.excusedDays &+= pendingExcused &+ occurrence.excusedDays
            } else {
                run = Streak(first: occurrence.first, last: occurrence.last, length: 1, excusedDays: occurrence.excusedDays)
                running = true
            }
            pendingExcused = 0
        case .excused:
            if running { pendingExcused &+= occurrence.excusedDays }
        case .open:
            break
        case .missed:
            end()
            pendingExcused = 0
        }
    }

    private mutating func end() {
        guard running else { return }
        if keepsRuns { runs.append(run) }
        // The later of equal runs wins, as in the ranking below.
        if run.length >= (longest?.length ?? 0) { longest = run }
        running = false
    }

    /// The summary once every occurrence is in.
    mutating func summary(best count: Int) -> StreakSummary {
        let current = running ? run : nil
        end()
        guard count > 0 else { return StreakSummary(current: current, longest: longest, best: []) }
        let ranked = runs.enumerated().sorted { a, b in
            a.element.length != b.element.length ? a.element.length > b.element.length : a.offset > b.offset
        }.map(\.element)
        return StreakSummary(current: current, longest: longest, best: Array(ranked.prefix(count)))
    }
}

package enum Streaks {
    /// Streaks of a habit's history as of a day, judged without keeping its occurrences.
    package static func summary(_ history: HabitHistory, asOf: Int32, weekStart: Int, vacations: [ClosedRange<Int32>] = [],
                                best count: Int) -> StreakSummary {
        var tracker = RunTracker(keepsRuns: count > 0)
        Judge.judge(history, asOf: asOf, weekStart: weekStart, vacations: vacations, into: &tracker)
        return tracker.summary(best: count)
    }

    /// Streaks of occurrences judged elsewhere (the global perfect and active days).
    package static func summary(_ occurrences: [Occurrence], best count: Int) -> StreakSummary {
        var tracker = RunTracker(keepsRuns: count > 0)
        for occurrence in occurrences { tracker.take(occurrence) }
        return tracker.summary(best: count)
    }
}
