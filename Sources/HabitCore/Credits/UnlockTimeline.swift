/// Unlock sessions as they actually run, folded from what was bought and what
/// was ended early; nothing stored is ever rewritten.
///
/// Rules (stated in the header too):
/// - Sessions run one after another in the order they were bought: each starts
///   when it was bought or when the one before it ends, whichever is later, and
///   lasts its minutes.
/// - A session ended early stops at that instant (a queued one ended before it
///   started never runs); the sessions queued after it move up.
/// - The refund is the unused time in whole minutes, rounded up in the person's
///   favour (Zeno): 30 s into 10 minutes refunds 10, 61 s refunds 9, 9 min 59 s
///   refunds 1, at its end 0.
package enum UnlockTimeline {
    /// A session as bought, and when it was ended early (nil: it runs its course).
    package struct Purchase: Equatable, Sendable {
        package var id: Int64
        package var minutes: Int64
        package var boughtAtMs: Int64
        package var endedAtMs: Int64?

        package init(id: Int64, minutes: Int64, boughtAtMs: Int64, endedAtMs: Int64?) {
            self.id = id
            self.minutes = minutes
            self.boughtAtMs = boughtAtMs
            self.endedAtMs = endedAtMs
        }
    }

    /// When a session runs: [startMs, endMs); empty when it never ran.
    package struct Run: Equatable, Sendable {
        package var id: Int64
        package var startMs: Int64
        package var endMs: Int64
        /// When it would have ended had it not been ended early.
        package var plannedEndMs: Int64
        package var endedEarly: Bool

        package func isRunning(at ms: Int64) -> Bool { startMs <= ms && ms < endMs }
    }

    /// The runs of an account's sessions, in the order bought (by id).
    package static func runs(_ purchases: [Purchase]) throws(HabitError) -> [Run] {
        var result: [Run] = []
        result.reserveCapacity(purchases.count)
        var previousEnd = Int64.min
        for purchase in purchases.sorted(by: { $0.id < $1.id }) {
            let start = max(purchase.boughtAtMs, previousEnd)
            let planned = try end(start: start, minutes: purchase.minutes)
            var end = planned
            if let ended = purchase.endedAtMs { end = min(planned, max(ended, start)) }
            result.append(Run(id: purchase.id, startMs: start, endMs: end, plannedEndMs: planned, endedEarly: purchase.endedAtMs != nil))
            previousEnd = max(previousEnd, end)
        }
        return result
    }

    /// Where a session bought at `boughtAtMs` would start: now, or when the last one still to end does.
    package static func queuedStart(_ runs: [Run], boughtAtMs: Int64) -> Int64 {
        runs.reduce(boughtAtMs) { max($0, $1.endMs) }
    }

    /// The end of `minutes` from `start`, checked.
    package static func end(start: Int64, minutes: Int64) throws(HabitError) -> Int64 {
        let (length, overflow) = minutes.multipliedReportingOverflow(by: 60_000)
        let (end, overflowEnd) = start.addingReportingOverflow(length)
        guard !overflow, !overflowEnd, minutes >= 0 else { throw .invalid("the session would end beyond the clock's range") }
        return end
    }

    /// Whole minutes not used when a run is ended at `atMs`, rounded up: the
    /// time from `atMs` (or from its start, if it had not started) to its end.
    package static func refundMinutes(_ run: Run, endedAtMs atMs: Int64) -> Int64 {
        let unused = run.endMs - max(atMs, run.startMs)
        guard unused > 0 else { return 0 }
        return (unused + 59_999) / 60_000
    }
}
