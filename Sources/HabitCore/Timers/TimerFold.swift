/// What a timer event does. The start is the timer itself (its id is the start's);
/// the others name the start they act on.
package enum TimerAction: Int32, Sendable, CaseIterable {
    case start = 1
    case pause = 2
    case resume = 3
    case stop = 4
    /// A timer started by mistake: it ends and adds nothing.
    case discard = 5

    package var name: String {
        switch self {
        case .start: return "start"
        case .pause: return "pause"
        case .resume: return "resume"
        case .stop: return "stop"
        case .discard: return "discard"
        }
    }

    package init(name: String) throws(HabitError) {
        guard let action = TimerAction.allCases.first(where: { $0.name == name }) else {
            throw .invalid("timer action '\(name.prefix(40))' is not one of start, pause, resume, stop, discard")
        }
        self = action
    }
}

/// Where a timer stands.
package enum TimerState: Int32, Sendable, CaseIterable {
    case running = 1
    case paused = 2
    case stopped = 3
    case discarded = 4

    package var name: String {
        switch self {
        case .running: return "running"
        case .paused: return "paused"
        case .stopped: return "stopped"
        case .discarded: return "discarded"
        }
    }

    /// Whether the timer ended (nothing more changes it).
    package var ended: Bool { self == .stopped || self == .discarded }
}

/// One event after a timer's start: an action at an instant.
package struct TimerEvent: Equatable, Hashable, Sendable {
    package var action: TimerAction
    package var atMs: Int64

    package init(action: TimerAction, atMs: Int64) {
        self.action = action
        self.atMs = atMs
    }
}

/// A timer as its start made it: the habit, the day it counts to, the instant and
/// whether it completes itself.
package struct TimerStart: Equatable, Sendable {
    package var id: Int64
    package var habitId: Int64
    /// The habit day its time counts to: the day of the start, in the starting store's
    /// zone and day start (carried with the start, so every replica counts it there).
    package var day: Int32
    package var atMs: Int64
    package var autoComplete: Bool

    package init(id: Int64, habitId: Int64, day: Int32, atMs: Int64, autoComplete: Bool) {
        self.id = id
        self.habitId = habitId
        self.day = day
        self.atMs = atMs
        self.autoComplete = autoComplete
    }
}

/// A timer folded at an instant.
package struct TimerStatus: Equatable, Sendable {
    package var start: TimerStart
    package var state: TimerState
    /// Running milliseconds: up to `now` while it runs, up to its end once ended
    /// (0 for a discarded timer).
    package var elapsedMs: Int64
    /// When it ended (stop, discard or auto-complete); nil while it runs or is paused.
    package var endedAtMs: Int64?
    /// Whether it ended by reaching its target (auto-complete), not by an event.
    package var completedByTarget: Bool
}

/// Every rule of a timer. A timer is a set of append-only events, never a mutable
/// row; its state is a fold of them ordered by instant, then by action (pause,
/// resume, stop, discard), never by arrival: every replica given the same events, in
/// any order, settles on the same state.
///
/// - Events before the start are ignored; so is a pause while paused, a resume while
///   running, and every event after the end. The earliest stop or discard ends it:
///   two devices stopping one timer stop it once.
/// - With auto-complete and a target in force on its day (the target of a duration
///   habit is seconds), it ends itself at the instant its own running time reaches the
///   target: the day's other entries do not move that instant, so every replica
///   computes the same one.
/// - Elapsed time is the sum of instants' differences (never wall-clock arithmetic):
///   a DST change or a zone change moves nothing.
/// - A stopped timer counts its running seconds (whole seconds, rounded down) once,
///   as an amount on its start's day; a running, paused or discarded one counts nothing.
package enum TimerRules {
    /// How many events one timer may hold (a start, then pauses and resumes).
    package static let maxEvents = 10_000

    /// The fold of a timer's events at `nowMs` (events dated later have not happened
    /// yet). `targetMs` is the auto-complete target (nil: none, or the timer does not
    /// complete itself).
    package static func fold(_ start: TimerStart, events: [TimerEvent], targetMs: Int64?, nowMs: Int64) -> TimerStatus {
        let ordered = events.filter { $0.atMs >= start.atMs && $0.atMs <= nowMs && $0.action != .start }.sorted { a, b in
            a.atMs != b.atMs ? a.atMs < b.atMs : a.action.rawValue < b.action.rawValue
        }
        var elapsed: Int64 = 0
        var runningSince: Int64? = start.atMs
        let target = start.autoComplete ? targetMs.flatMap { $0 > 0 ? $0 : nil } : nil

        func status(_ state: TimerState, end: Int64?, byTarget: Bool = false) -> TimerStatus {
            TimerStatus(
                start: start, state: state, elapsedMs: state == .discarded ? 0 : elapsed, endedAtMs: end, completedByTarget: byTarget)
        }
        /// Runs the clock from its mark to `instant`; returns the auto-complete instant when the target falls before it.
        func run(to instant: Int64) -> Int64? {
            guard let since = runningSince else { return nil }
            let span = instant.subtractingSaturating(since)
            if let target, elapsed.addingSaturating(span) >= target {
                let reached = since.addingSaturating(target - elapsed)
                elapsed = target
                return reached
            }
            elapsed = elapsed.addingSaturating(span)
            runningSince = instant
            return nil
        }

        for event in ordered {
            if let reached = run(to: event.atMs) { return status(.stopped, end: reached, byTarget: true) }
            switch event.action {
            case .start: break
            case .pause: runningSince = nil
            case .resume: if runningSince == nil { runningSince = event.atMs }
            case .stop: return status(.stopped, end: event.atMs)
            case .discard: return status(.discarded, end: event.atMs)
            }
        }
        if runningSince != nil {
            if let reached = run(to: max(nowMs, runningSince ?? nowMs)), reached <= nowMs {
                return status(.stopped, end: reached, byTarget: true)
            }
            return status(.running, end: nil)
        }
        return status(.paused, end: nil)
    }

    /// The instant to fold at for every timer as its known events and its target will
    /// end it. The fold is a scan by instant, so a timer folded here ends where the fold
    /// at any later instant ends it: its amount entry (recordedAtMs: its end) is counted
    /// by the fold at an instant t exactly when that end is at or before t. What reads
    /// instants (the shield plan) folds once here and compares ends with the instant asked.
    package static let foreseeing = Int64.max

    /// The instant a running auto-complete timer will end by itself, if nothing else
    /// happens (nil: it has ended, is paused, or does not complete itself).
    package static func completesAt(_ status: TimerStatus, targetMs: Int64?, nowMs: Int64) -> Int64? {
        guard status.state == .running, status.start.autoComplete, let targetMs, targetMs > 0 else { return nil }
        return nowMs.addingSaturating(targetMs.subtractingSaturating(status.elapsedMs))
    }

    /// The next instant after `nowMs` at which the fold of an open timer can change by
    /// time alone: its auto-complete instant, or an event dated later (another
    /// device's clock ahead); nil when none.
    package static func nextChange(_ status: TimerStatus, events: [TimerEvent], targetMs: Int64?, nowMs: Int64) -> Int64? {
        guard !status.state.ended else { return nil }
        let later = events.lazy.filter { $0.atMs > nowMs }.map(\.atMs).min()
        let completes = completesAt(status, targetMs: targetMs, nowMs: nowMs)
        return [later, completes].compactMap { $0 }.min()
    }

    /// The seconds a timer adds to its day: a stopped timer's whole running seconds.
    package static func seconds(_ status: TimerStatus) -> Int64 {
        status.state == .stopped ? status.elapsedMs / 1000 : 0
    }

    /// The auto-complete target of a habit on a day, in ms: its target in force that day
    /// (duration targets are seconds); nil when none is set.
    package static func targetMs(_ spec: HabitSpec, versions: [SettingsVersion], day: Int32) -> Int64? {
        let target = versions.spec(spec, on: day).target
        guard target.isFinite, target > 0, target < 1e12 else { return nil }
        return Int64((target * 1000).rounded(.up))
    }

    /// How long after its latest event a habit's timer can still change by time alone:
    /// an event changes it at its own instant, and an auto-completion comes no later
    /// than the last start or resume plus the target, so the largest target the habit
    /// has on any day (0: none). A store that settled every change up to an instant can
    /// skip the timers whose latest event is earlier than that instant less this.
    package static func changeWindowMs(_ spec: HabitSpec, versions: [SettingsVersion]) -> Int64 {
        ([CivilDate.minDay] + versions.map(\.fromDay)).compactMap { targetMs(spec, versions: versions, day: $0) }.max() ?? 0
    }

    /// The amounts stopped timers add to a habit's days, as ledger entries the day fold
    /// reads: one amount per stopped timer, on its start's day, with the negated timer
    /// id as its id (no entry has one; nothing can undo it).
    package static func amountEntries(_ statuses: [TimerStatus]) -> [Entry] {
        statuses.compactMap { status in
            let seconds = seconds(status)
            guard seconds > 0, let end = status.endedAtMs else { return nil }
            return Entry(
                id: -status.start.id, habitId: status.start.habitId, day: status.start.day, kind: .amount, value: Double(seconds),
                recordedAtMs: end, source: .manual, undoes: nil, note: nil)
        }
    }

    /// Checks a local event against the timer's state now: the instant comes no earlier
    /// than the start, and the action can act (a pause on a running timer, a resume on
    /// a paused one, a stop or discard on one not ended).
    package static func check(_ action: TimerAction, atMs: Int64, on status: TimerStatus) throws(HabitError) {
        guard atMs >= status.start.atMs else { throw .invalid("the time is before the timer's start") }
        if status.state.ended { throw HabitError(.conflict, "the timer is already \(status.state.name)") }
        switch action {
        case .start: throw .invalid("a timer starts once")
        case .pause: guard status.state == .running else { throw HabitError(.conflict, "the timer is already paused") }
        case .resume: guard status.state == .paused else { throw HabitError(.conflict, "the timer is already running") }
        case .stop, .discard: break
        }
    }
}

extension Int64 {
    fileprivate func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
    fileprivate func subtractingSaturating(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
