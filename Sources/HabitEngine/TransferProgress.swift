import HabitPlatform
import HabitCore

/// A caller's progress report for a long export or import: (done, total), and
/// true to cancel.
package typealias TransferProgress = (_ done: Int64, _ total: Int64) -> Bool

/// Paces a TransferProgress: at the start, at the end, and between them at most
/// once per interval (the clock is read every `stride` steps, so pacing costs
/// nothing per record). A cancel becomes HabitError .cancelled.
struct ProgressGate {
    private let report: TransferProgress?
    private let total: Int64
    private var done: Int64 = 0
    private var untilCheck = ProgressGate.stride
    private var lastReportNs: Int64 = 0

    /// About 50 reports a second at most: a terminal line redrawn smoothly, a callback
    /// that never costs the transfer anything measurable.
    static let intervalNs: Int64 = 20_000_000
    static let stride = 512

    init(_ report: TransferProgress?, total: Int64) {
        self.report = report
        self.total = max(0, total)
    }

    mutating func start() throws(HabitError) { try call() }

    /// One more unit done.
    mutating func step() throws(HabitError) {
        guard report != nil else { return }
        done += 1
        untilCheck -= 1
        guard untilCheck <= 0 else { return }
        untilCheck = Self.stride
        if MonotonicClock.nanoseconds() &- lastReportNs >= Self.intervalNs { try call() }
    }

    /// Done so far, when units come in batches (bytes of a file read).
    mutating func advance(to newDone: Int64) throws(HabitError) {
        guard report != nil else { return }
        done = newDone
        if MonotonicClock.nanoseconds() &- lastReportNs >= Self.intervalNs { try call() }
    }

    /// The last report (done == total), once everything is done: too late to cancel,
    /// so its answer is not asked.
    mutating func finish() {
        done = total
        _ = report?(total, total)
    }

    private mutating func call() throws(HabitError) {
        guard let report else { return }
        lastReportNs = MonotonicClock.nanoseconds()
        if report(min(done, total), total) { throw HabitError(.cancelled, "cancelled by the progress callback; nothing was written") }
    }
}
