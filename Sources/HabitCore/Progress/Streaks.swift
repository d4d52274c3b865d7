/// A run of kept occurrences.
package struct Streak: Equatable, Sendable {
    package var first: Int32
    package var last: Int32
    /// Kept occurrences: due days, or quota periods.
    package var length: Int32
    /// Excused days the run spans, which neither broke it nor added to it.
    package var excusedDays: Int32
    /// Missed occurrences the miss allowance forgave (a current run counts its
    /// trailing ones too); never part of the length.
    package var forgiven: Int32

    package init(first: Int32, last: Int32, length: Int32, excusedDays: Int32, forgiven: Int32 = 0) {
        self.first = first
        self.last = last
        self.length = length
        self.excusedDays = excusedDays
        self.forgiven = forgiven
    }
}

package struct StreakSummary: Equatable, Sendable {
    /// The run still going at asOf (nil when the last judged occurrence was missed).
    package var current: Streak?
    package var longest: Streak?
    /// The best runs, longest first, the more recent first among equals.
    package var best: [Streak]
    /// How many runs there are in all (best holds the first of them only).
    package var runCount: Int

    package init(current: Streak?, longest: Streak?, best: [Streak], runCount: Int) {
        self.current = current
        self.longest = longest
        self.best = best
        self.runCount = runCount
    }

    package static let none = StreakSummary(current: nil, longest: nil, best: [], runCount: 0)
}

/// The one streak fold: occurrences become runs as they come, read through the
/// policy (StreakPolicy): a miss beyond the allowance ends a run, forgiven
/// misses are counted, excused ones neither end nor extend it, an open one is
/// neutral or a miss. Keeps every run only when the best N are wanted, else just
/// the longest.
struct RunTracker: OccurrenceSink {
    private let keepsRuns: Bool
    private let policy: StreakPolicy
    private(set) var runs: [Streak] = []
    private var runCount = 0
    private var longest: Streak?
    /// The run going on, valid while `running` (kept as plain fields: this is the hot loop).
    private var running = false
    private var run = Streak(first: 0, last: 0, length: 0, excusedDays: 0)
    private var pendingExcused: Int32 = 0
    /// Misses in a row since the run's last kept occurrence, all forgiven so far.
    private var pendingMisses: Int32 = 0

    init(keepsRuns: Bool, policy: StreakPolicy = .standard) {
        self.keepsRuns = keepsRuns
        self.policy = policy
    }

    /// The length of the run going on (0 when none), after the last occurrence taken.
    var runningLength: Int32 { running ? run.length : 0 }

    @inline(__always)
    mutating func take(_ occurrence: Occurrence) {
        switch policy.counted(occurrence.verdict) {
        case .kept:
            // Wrapping adds: lengths and excused days count days of one history, far below Int32.max.
            if running {
                run.last = occurrence.last
                run.length &+= 1
                run.excusedDays &+= pendingExcused &+ occurrence.excusedDays
                run.forgiven &+= pendingMisses
            } else {
                run = Streak(first: occurrence.first, last: occurrence.last, length: 1, excusedDays: occurrence.excusedDays)
                running = true
            }
            pendingExcused = 0
            pendingMisses = 0
        case .excused:
            if running { pendingExcused &+= occurrence.excusedDays }
        case .open:
            break
        case .missed:
            if running && policy.survives(missesInARow: pendingMisses &+ 1) {
                pendingMisses &+= 1
            } else {
                end()
                pendingExcused = 0
                pendingMisses = 0
            }
        }
    }

    /// Kept days in a row: the first as take would, the rest only extend the
    /// run (after a kept occurrence nothing excused or forgiven is pending).
    @inline(__always)
    mutating func takeKeptDays(from first: Int32, count: Int32) {
        guard count > 0 else { return }
        take(Occurrence(first: first, last: first, verdict: .kept, excusedDays: 0, doneDays: 1, required: 1))
        run.last = first &+ (count &- 1)
        run.length &+= count &- 1
    }

    private mutating func end() {
        guard running else { return }
        runCount &+= 1
        if keepsRuns { runs.append(run) }
        // The later of equal runs wins, as in the ranking below.
        if run.length >= (longest?.length ?? 0) { longest = run }
        running = false
    }

    /// The summary once every occurrence is in.
    mutating func summary(best count: Int) -> StreakSummary {
        var current = running ? run : nil
        current?.forgiven &+= pendingMisses
        end()
        guard count > 0 else { return StreakSummary(current: current, longest: longest, best: [], runCount: runCount) }
        let ranked = runs.enumerated().sorted { a, b in
            a.element.length != b.element.length ? a.element.length > b.element.length : a.offset > b.offset
        }.map(\.element)
        return StreakSummary(current: current, longest: longest, best: Array(ranked.prefix(count)), runCount: runCount)
    }
}

package enum Streaks {
    /// Streaks of a habit's history as of a day, judged without keeping its occurrences.
    package static func summary(
        _ history: HabitHistory, asOf: Int32, weekStart: Int, vacations: [ClosedRange<Int32>] = [],
        policy: StreakPolicy = .standard, best count: Int
    ) -> StreakSummary {
        var tracker = RunTracker(keepsRuns: count > 0, policy: policy)
        Judge.judge(history, asOf: asOf, weekStart: weekStart, vacations: vacations, into: &tracker)
        return tracker.summary(best: count)
    }

    /// Streaks of occurrences judged elsewhere (the global perfect and active days).
    package static func summary(_ occurrences: [Occurrence], policy: StreakPolicy = .standard, best count: Int) -> StreakSummary {
        var tracker = RunTracker(keepsRuns: count > 0, policy: policy)
        for occurrence in occurrences { tracker.take(occurrence) }
        return tracker.summary(best: count)
    }
}
