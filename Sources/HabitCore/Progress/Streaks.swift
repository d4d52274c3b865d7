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

package enum Streaks {
    /// Runs of kept occurrences: a missed one ends a run; excused and open ones
    /// neither end nor extend it.
    package static func runs(_ occurrences: [Occurrence]) -> (runs: [Streak], currentIsAlive: Bool) {
        var runs: [Streak] = []
        var running: Streak?
        var pendingExcused: Int32 = 0
        for occurrence in occurrences {
            switch occurrence.verdict {
            case .kept:
                if var run = running {
                    run.last = occurrence.last
                    run.length += 1
                    run.excusedDays += pendingExcused + occurrence.excusedDays
                    running = run
                } else {
                    running = Streak(first: occurrence.first, last: occurrence.last, length: 1, excusedDays: occurrence.excusedDays)
                }
                pendingExcused = 0
            case .excused:
                if running != nil { pendingExcused += occurrence.excusedDays }
            case .open:
                break
            case .missed:
                if let run = running { runs.append(run) }
                running = nil
                pendingExcused = 0
            }
        }
        if let run = running { runs.append(run) }
        return (runs, running != nil)
    }

    package static func summary(_ occurrences: [Occurrence], best count: Int) -> StreakSummary {
        let (runs, alive) = runs(occurrences)
        if count <= 0 {
            // Only the longest: the last of the longest runs, found without sorting.
            var longest: Streak?
            for run in runs where run.length >= (longest?.length ?? 0) { longest = run }
            return StreakSummary(current: alive ? runs.last : nil, longest: longest, best: [])
        }
        let ranked = runs.enumerated().sorted { a, b in
            a.element.length != b.element.length ? a.element.length > b.element.length : a.offset > b.offset
        }.map(\.element)
        return StreakSummary(current: alive ? runs.last : nil, longest: ranked.first, best: Array(ranked.prefix(max(count, 0))))
    }
}
