/// Whether a rule shields at an instant, and every instant that changes it. Pure:
/// the engine gathers rules, habit days, sessions, emergency unlocks and the zone's
/// history; this decides. The conventions (stated in the header too):
/// - A window opens on a calendar date D (the rule's days select D) at its start
///   and ends at its cutoff; a cutoff not after the start is on D+1 ("crosses
///   midnight"), no cutoff is D+1 00:00. The whole window belongs to D.
/// - The habit day whose completions lift a window is the one holding its last
///   minute (the cutoff's, with day start 04:00 a 00:00-09:00 window on D is lifted
///   by D's completions, not by one at 03:30 that counts for D-1).
/// - A local time the clocks skip is moved forward by the gap (02:30 -> 03:30, as
///   DeviceActivity does); one they read twice is its first occurrence. A time
///   skipped by a zone change is the instant of the change.
/// - Windows follow the zone in force; a window's end is its wall-clock end read
///   in the zone in force then (or the change itself, if that had passed).
/// - The state is the shielded bit; transitions are where it flips, so adjacent
///   shielded stretches merge. Instants that lift round up to the minute, those
///   that shield round down: rounding never unshields early. Whether habits were
///   done before the cutoff is read on the recorded instants, before rounding: one
///   done at 08:59:10 with a 09:00 cutoff lifts at 09:00 as completed.
package enum ShieldPlan {
    // MARK: Inputs

    /// One habit's days as the rules see them.
    package struct HabitDays: Sendable {
        /// Habit day -> the instant it became (and stayed) done.
        package var doneAtMs: [Int32: Int64]
        /// Skipped days.
        package var skipped: Set<Int32>
        /// Vacation ranges covering this habit.
        package var vacations: [ClosedRange<Int32>]

        package init(doneAtMs: [Int32: Int64] = [:], skipped: Set<Int32> = [], vacations: [ClosedRange<Int32>] = []) {
            self.doneAtMs = doneAtMs
            self.skipped = skipped
            self.vacations = vacations
        }

        package func excused(_ day: Int32) -> Bool { skipped.contains(day) || vacations.contains { $0.contains(day) } }
    }

    /// The store's zone over time: the first segment reaches back forever.
    package struct ZoneHistory: Sendable {
        package struct Segment: Sendable {
            package var fromMs: Int64
            package var zone: ZoneRules
        }
        package private(set) var segments: [Segment]

        package init(_ zone: ZoneRules) { segments = [Segment(fromMs: Int64.min, zone: zone)] }

        /// Changes (instant, zone) in any order; instants are floored to the minute.
        package init(initial: ZoneRules, changes: [(atMs: Int64, zone: ZoneRules)]) {
            var segments = [Segment(fromMs: Int64.min, zone: initial)]
            for change in changes.sorted(by: { $0.atMs < $1.atMs }) {
                let at = floorMinute(change.atMs)
                if segments.last?.fromMs == at {
                    segments[segments.count - 1].zone = change.zone
                } else {
                    segments.append(Segment(fromMs: at, zone: change.zone))
                }
            }
            self.segments = segments
        }

        /// The last segment starting at or before `ms`; the first for an instant before them all.
        package func segment(at ms: Int64) -> Int {
            max(segments.partitionPoint { $0.fromMs > ms } - 1, 0)
        }

        package func zone(at ms: Int64) -> ZoneRules { segments[segment(at: ms)].zone }
    }

    /// A credit unlock session as it runs: [startMs, endMs).
    package struct Session: Sendable {
        package var startMs: Int64
        package var endMs: Int64
        package init(startMs: Int64, endMs: Int64) {
            self.startMs = startMs
            self.endMs = endMs
        }
    }

    package struct Inputs: Sendable {
        package var rules: [ShieldRule]
        package var habits: [Int64: HabitDays]
        package var sessions: [Session]
        package var emergencies: [EmergencyUnlock]
        package var zones: ZoneHistory
        package var dayStartMinutes: Int32

        package init(
            rules: [ShieldRule], habits: [Int64: HabitDays], sessions: [Session], emergencies: [EmergencyUnlock],
            zones: ZoneHistory, dayStartMinutes: Int32
        ) {
            self.rules = rules
            self.habits = habits
            self.sessions = sessions
            self.emergencies = emergencies
            self.zones = zones
            self.dayStartMinutes = dayStartMinutes
        }
    }

    // MARK: Outputs

    package enum Reason: Int32, Sendable {
        /// Shielded: the window is open and its habits are outstanding.
        case windowOpen = 1
        /// Shielded: past the cutoff, the rule keeps the shield until done.
        case untilDone = 2
        /// Not shielded: outside any window of the rule.
        case outsideWindow = 3
        /// Not shielded: the window's habits were done (at `sinceMs`).
        case completed = 4
        /// Not shielded: a credit unlock session runs (until `untilMs`).
        case session = 5
        /// Not shielded: an emergency unlock runs (until `untilMs`).
        case emergency = 6
        /// Not shielded: the cutoff passed with the habits outstanding.
        case cutoffPassed = 7
        /// Not shielded: the habit day is excused (vacation, skip).
        case excused = 8
        /// Not shielded: the rule has no version in effect.
        case notInEffect = 9

        package var shielded: Bool { self == .windowOpen || self == .untilDone }
    }

    /// Events that could end a state before its next time-driven change.
    package enum Earlier {
        package static let completion: UInt32 = 1
        package static let session: UInt32 = 2
        package static let emergency: UInt32 = 4
        package static let sessionEnd: UInt32 = 8
    }

    package struct State: Equatable, Sendable {
        package var ruleId: Int64
        package var reason: Reason
        package var shielded: Bool { reason.shielded }
        /// The start date of the window concerned (0 when none).
        package var windowDay: Int32
        /// The habit day whose completions lift it (0 when no window).
        package var habitDay: Int32
        /// The window's start and end (0 when none).
        package var windowStartMs: Int64
        package var windowEndMs: Int64
        /// completed: when; session/emergency: until when (else 0).
        package var sinceMs: Int64
        package var untilMs: Int64
        /// Habits of the rule not done (nor excused, when that lifts) for the window's habit day.
        package var outstanding: [Int64]
    }

    /// Flags on a transition's instant.
    package enum Moved {
        /// A local time in the spring-forward gap, moved forward by the gap.
        package static let gap: UInt32 = 1
        /// A local time read twice (clocks set back); its first occurrence.
        package static let repeated: UInt32 = 2
        /// A local time skipped by a change of the store's zone: the change itself.
        package static let zoneChange: UInt32 = 4
    }

    package enum Cause: Int32, Sendable {
        case windowStart = 1, cutoff = 2, completion = 3, sessionStart = 4, sessionEnd = 5, emergencyStart = 6, emergencyEnd = 7,
            excused = 8, ruleChange = 9, dayEnd = 10
    }

    package struct Transition: Equatable, Sendable {
        package var ruleId: Int64
        package var atMs: Int64
        package var from: Reason
        package var to: Reason
        package var cause: Cause
        package var moved: UInt32
    }

    // MARK: Time

    static func floorMinute(_ ms: Int64) -> Int64 {
        let r = ms % 60_000
        return r < 0 ? ms - r - 60_000 : ms - r
    }

    static func ceilMinute(_ ms: Int64) -> Int64 {
        let floor = floorMinute(ms)
        return floor == ms || floor > Int64.max - 60_000 ? floor : floor + 60_000
    }

    /// The instant a local wall-clock minute of a calendar date reads in one zone,
    /// as DeviceActivity reads it: a gap time moves forward by the gap; a repeated
    /// time is its first occurrence.
    package static func resolve(_ zone: ZoneRules, civilDay: Int32, minute: Int32) -> (ms: Int64, moved: UInt32) {
        let local = Int64(civilDay) * 86_400 + Int64(minute) * 60
        // Most days one offset holds from the day before to the day after: the time
        // then reads once, at local - offset (what the general reading below finds).
        let around = zone.offsetStretch(atUTC: local - 86_400)
        let plain = local - Int64(around.offset)
        if around.last >= local + 86_400, around.first <= plain, plain <= around.last { return (plain * 1000, 0) }
        let before = Int64(around.offset), after = Int64(zone.utcOffset(atUTC: local + 86_400))
        let early = local - max(before, after), late = local - min(before, after)
        let earlyReads = early + Int64(zone.utcOffset(atUTC: early)) == local
        let lateReads = late + Int64(zone.utcOffset(atUTC: late)) == local
        if earlyReads { return (early * 1000, lateReads && early != late ? Moved.repeated : 0) }
        if lateReads { return (late * 1000, 0) }
        // In the gap: read with the offset before it, which lands after the gap by its length.
        let offsetBefore = Int64(zone.utcOffset(atUTC: early))
        return ((local - offsetBefore) * 1000, Moved.gap)
    }

    /// A local minute of a calendar date across the zone's history: the first
    /// segment where it falls inside the segment; a time jumped over by a change
    /// of zone is the change.
    static func resolve(_ zones: ZoneHistory, civilDay: Int32, minute: Int32) -> (ms: Int64, moved: UInt32) {
        let segments = zones.segments
        for index in segments.indices {
            let candidate = resolve(segments[index].zone, civilDay: civilDay, minute: minute)
            if index > 0, candidate.ms < segments[index].fromMs { return (segments[index].fromMs, Moved.zoneChange) }
            if index == segments.count - 1 || candidate.ms < segments[index + 1].fromMs { return candidate }
        }
        return resolve(segments[0].zone, civilDay: civilDay, minute: minute)
    }

    /// The local calendar day of an instant in the zone in force then.
    static func civilDay(_ zones: ZoneHistory, ms: Int64) -> Int32 {
        let seconds = floorDiv(ms, 1000)
        let local = seconds + Int64(zones.zone(at: ms).utcOffset(atUTC: seconds))
        return Int32(clamping: floorDiv(local, 86_400))
    }

    // MARK: Windows

    /// One window of a rule, with what lifts it. A class, built once and then only
    /// read: a search looks windows up at every candidate instant, and handing out a
    /// reference costs one retain where a struct's copy costs one per field it holds.
    final class Window {
        let day: Int32
        let habitDay: Int32
        let startMs: Int64
        let endMs: Int64
        /// Where the shield ends if nothing lifts it: the cutoff, or the end of the habit day.
        let spanEndMs: Int64
        let startMoved: UInt32
        let endMoved: UInt32
        let spanEndMoved: UInt32
        /// When its habits lift it (rounded up), and whether that is an excused day.
        let liftMs: Int64?
        let liftExcused: Bool
        /// Whether its habits were done (or excused) before the span's end, read
        /// on the instants recorded: a completion at 08:59:10 with a 09:00 cutoff
        /// lifts at 09:00, the cutoff itself, and the window counts as completed.
        let liftedInTime: Bool
        let outstanding: [Int64]
        /// The habits not done (nor excused, when that lifts) before the span's end:
        /// what a passed cutoff left outstanding.
        let outstandingAtEnd: [Int64]
        /// What the rule's settings for the window's day say (kept alone: copying the
        /// settings' strings and arrays at every lookup cost more than the rest).
        let cutoffLifts: Bool
        let sessionLifts: Bool

        init(
            day: Int32, habitDay: Int32, startMs: Int64, endMs: Int64, spanEndMs: Int64, startMoved: UInt32, endMoved: UInt32,
            spanEndMoved: UInt32, liftMs: Int64?, liftExcused: Bool, liftedInTime: Bool, outstanding: [Int64], outstandingAtEnd: [Int64],
            cutoffLifts: Bool, sessionLifts: Bool
        ) {
            self.day = day
            self.habitDay = habitDay
            self.startMs = startMs
            self.endMs = endMs
            self.spanEndMs = spanEndMs
            self.startMoved = startMoved
            self.endMoved = endMoved
            self.spanEndMoved = spanEndMoved
            self.liftMs = liftMs
            self.liftExcused = liftExcused
            self.liftedInTime = liftedInTime
            self.outstanding = outstanding
            self.outstandingAtEnd = outstandingAtEnd
            self.cutoffLifts = cutoffLifts
            self.sessionLifts = sessionLifts
        }
    }

    /// Days the evaluator can reach: years 1...9999 with a margin.
    static let dayRange: ClosedRange<Int32> = (CivilDate.minDay + 3)...(CivilDate.maxDay - 3)

    /// One version's settings of a rule, boxed: an evaluator reads them in place (a
    /// class's constant), where reading them out of the rule's array, or passing
    /// them by value, copied their strings and arrays at every window.
    final class RuleVersion {
        let settings: ShieldRule.Settings

        init(_ settings: ShieldRule.Settings) { self.settings = settings }

        /// The window opening on a calendar date under these settings, if they select
        /// it. `firstDay` is the rule's (where every:N counts from).
        func window(day: Int32, firstDay: Int32?, inputs: Inputs) -> Window? {
            guard dayRange.contains(day), settings.days.selects(day, anchor: firstDay ?? day) else { return nil }
            let dayStart = inputs.dayStartMinutes
            let startMinute = settings.startMinute ?? dayStart
            let endDay: Int32, endMinute: Int32
            if let cutoff = settings.endMinute {
                (endDay, endMinute) = cutoff > startMinute ? (day, cutoff) : (day + 1, cutoff)
            } else {
                (endDay, endMinute) = (day + 1, 0)
            }
            // The habit day holding the window's last minute.
            let (lastDay, lastMinute) = endMinute == 0 ? (endDay - 1, Int32(1439)) : (endDay, endMinute - 1)
            let habitDay = lastMinute < dayStart ? lastDay - 1 : lastDay
            let start = resolve(inputs.zones, civilDay: day, minute: startMinute)
            let end = resolve(inputs.zones, civilDay: endDay, minute: endMinute)
            guard start.ms < end.ms else { return nil }  // a zone change jumped over the whole window
            var spanEnd = end
            if !settings.cutoffLifts {
                let dayEnd = resolve(inputs.zones, civilDay: habitDay + 1, minute: dayStart)
                if dayEnd.ms > end.ms { spanEnd = dayEnd }
            }
            // What each habit says: done at T, excused from the start, or outstanding.
            // Folded as they come: all lift at the latest (excused if every one is); any
            // at the earliest (excused if one at that instant is). `recorded` is the
            // instant before rounding up, which decides whether it came before the end.
            var lift: (ms: Int64, recorded: Int64, excused: Bool)?
            var outstanding: [Int64] = []
            var outstandingAtEnd: [Int64] = []
            for habitId in settings.habits {
                let days = inputs.habits[habitId]
                let habitLift: (ms: Int64, recorded: Int64, excused: Bool)
                if settings.excusedLifts, let days, days.excused(habitDay) {
                    habitLift = (start.ms, start.ms, true)
                } else if let done = days?.doneAtMs[habitDay] {
                    habitLift = (max(start.ms, ceilMinute(done)), max(start.ms, done), false)
                } else {
                    outstanding.append(habitId)
                    outstandingAtEnd.append(habitId)
                    continue
                }
                if habitLift.recorded >= spanEnd.ms { outstandingAtEnd.append(habitId) }
                guard let sofar = lift else {
                    lift = habitLift
                    continue
                }
                switch settings.lift {
                case .all:
                    lift = (max(sofar.ms, habitLift.ms), max(sofar.recorded, habitLift.recorded), sofar.excused && habitLift.excused)
                case .any:
                    lift =
                        sofar.ms == habitLift.ms
                        ? (sofar.ms, min(sofar.recorded, habitLift.recorded), sofar.excused || habitLift.excused)
                        : (sofar.ms < habitLift.ms ? sofar : habitLift)
                }
            }
            switch settings.lift {
            case .all: if !outstanding.isEmpty { lift = nil }
            case .any: if lift != nil { outstanding = [] }
            }
            let liftedInTime = lift.map { $0.recorded < spanEnd.ms } ?? false
            return Window(
                day: day, habitDay: habitDay, startMs: start.ms, endMs: end.ms, spanEndMs: spanEnd.ms, startMoved: start.moved,
                endMoved: end.moved, spanEndMoved: spanEnd.moved, liftMs: lift?.ms, liftExcused: lift?.excused ?? false,
                liftedInTime: liftedInTime, outstanding: outstanding, outstandingAtEnd: liftedInTime ? [] : outstandingAtEnd,
                cutoffLifts: settings.cutoffLifts, sessionLifts: settings.sessionLifts)
        }
    }

    /// The longest stretch a window can cover: a day to its cutoff, a day more until done.
    static let maxSpanDays: Int32 = 3

    // MARK: Evaluation

    /// A stretch [startMs, endMs) something lifts a shield.
    struct Span {
        var startMs: Int64
        var endMs: Int64

        /// Sorted, with overlapping and touching spans joined; empty ones dropped.
        static func merged(_ spans: [Span]) -> [Span] {
            var result: [Span] = []
            for span in spans.filter({ $0.startMs < $0.endMs }).sorted(by: { $0.startMs < $1.startMs }) {
                if let last = result.last, span.startMs <= last.endMs {
                    result[result.count - 1].endMs = max(last.endMs, span.endMs)
                } else {
                    result.append(span)
                }
            }
            return result
        }

        /// The index of the first span ending after `ms` (spans.count if none).
        static func first(of spans: [Span], endingAfter ms: Int64) -> Int {
            spans.partitionPoint { $0.endMs > ms }
        }

        /// The end of the span holding `ms`, if one does.
        static func end(of spans: [Span], containing ms: Int64) -> Int64? {
            let index = first(of: spans, endingAfter: ms)
            return index < spans.count && spans[index].startMs <= ms ? spans[index].endMs : nil
        }
    }

    /// Evaluates one rule at instants; caches its windows by day.
    struct RuleEvaluator {
        let rule: ShieldRule
        /// rule.firstDay, read once.
        let firstDay: Int32?
        /// The rule's versions (same order; nil: removed), boxed once: reading one out
        /// of an array is then a retain, where reading the rule's (day, settings)
        /// pairs copied every string and array they hold, at every window and every
        /// state outside one.
        private let versions: [RuleVersion?]
        let inputs: Inputs
        /// Sessions and this rule's emergency unlocks as sorted, merged spans:
        /// back-to-back ones lift as one stretch, and a lookup is a binary search.
        let sessions: [Span]
        let emergencies: [Span]
        /// The inputs' sessions as spans, rounded the way that never unshields early:
        /// starts up, ends down.
        static func sessionSpans(_ inputs: Inputs) -> [Span] {
            Span.merged(inputs.sessions.map { Span(startMs: ceilMinute($0.startMs), endMs: floorMinute($0.endMs)) })
        }

        /// Windows computed so far by day, from firstCachedDay on (nil: not yet
        /// computed). The days a search asks lie close together, and an array index
        /// costs a search's many lookups less than hashing the day.
        private var cachedWindows: [CachedWindow?] = []
        private var firstCachedDay: Int32 = 0
        private struct CachedWindow { let window: Window? }
        /// Days the cache spans at most before it starts over.
        private static let cacheSpanLimit = 4096

        /// `sessions` is sessionSpans(inputs), made once for all the rules.
        init(rule: ShieldRule, inputs: Inputs, sessions: [Span]) {
            self.rule = rule
            firstDay = rule.firstDay
            versions = rule.versions.map { $0.settings.map(RuleVersion.init) }
            self.inputs = inputs
            self.sessions = sessions
            // Rounded the way that never unshields early: starts up, ends down.
            emergencies = Span.merged(
                inputs.emergencies.filter { $0.ruleId == rule.id }.map { unlock in
                    let start = ceilMinute(unlock.atMs)
                    return Span(startMs: start, endMs: start &+ Int64(unlock.minutes) * 60_000)
                })
        }

        mutating func window(_ day: Int32) -> Window? {
            let offset = Int(day) - Int(firstCachedDay)
            if cachedWindows.indices.contains(offset), let cached = cachedWindows[offset] { return cached.window }
            let computed = uncachedWindow(day)
            keep(computed, day: day)
            return computed
        }

        private func uncachedWindow(_ day: Int32) -> Window? {
            version(on: day)?.window(day: day, firstDay: firstDay, inputs: inputs)
        }

        /// The rule's version for windows starting on `day`; nil when not in effect.
        private func version(on day: Int32) -> RuleVersion? {
            rule.versionIndex(on: day).flatMap { versions[$0] }
        }

        /// Days the cache makes room for beyond the day it keeps, when it grows: a
        /// state walks five days down and a search days up, and growing a day at a
        /// time cost more than the lookups.
        private static let cacheGrowth = 16

        private mutating func keep(_ window: Window?, day: Int32) {
            let growth = Self.cacheGrowth
            var offset = Int(day) - Int(firstCachedDay)
            let span = max(cachedWindows.count, offset + 1) - min(0, offset)
            if cachedWindows.isEmpty || span + growth > Self.cacheSpanLimit {
                cachedWindows = Array(repeating: nil, count: 2 * growth + 1)
                firstCachedDay = day - Int32(growth)
                offset = growth
            } else if offset < 0 {
                cachedWindows.insert(contentsOf: repeatElement(nil, count: growth - offset), at: 0)
                firstCachedDay = day - Int32(growth)
                offset = growth
            } else if offset >= cachedWindows.count {
                cachedWindows.append(contentsOf: repeatElement(nil, count: offset - cachedWindows.count + 1 + growth))
            }
            cachedWindows[offset] = CachedWindow(window: window)
        }

        /// The windows whose span can hold an instant, latest start first.
        mutating func windows(around ms: Int64) -> [Window] {
            let day = ShieldPlan.civilDay(inputs.zones, ms: ms)
            var result: [Window] = []
            var d = day + 1
            while d >= day - maxSpanDays {
                if let w = window(d) { result.append(w) }
                d -= 1
            }
            return result
        }

        mutating func state(at ms: Int64) -> State {
            // The windows whose span can hold ms, latest start first (as windows(around:)),
            // walked without building a list: this runs at every candidate of a search.
            let day = ShieldPlan.civilDay(inputs.zones, ms: ms)
            var best: State?
            var last: Window?
            var d = day + 1
            while d >= day - maxSpanDays {
                defer { d -= 1 }
                guard let w = window(d) else { continue }
                if w.startMs <= ms && ms < w.spanEndMs {
                    let state = stateInside(w, at: ms)
                    if state.shielded { return state }
                    if best == nil { best = state }
                } else if w.spanEndMs <= ms, last.map({ w.startMs > $0.startMs }) ?? true {
                    last = w
                }
            }
            if let best { return best }
            var state = State(
                ruleId: rule.id, reason: .outsideWindow, windowDay: 0, habitDay: 0, windowStartMs: 0, windowEndMs: 0,
                sinceMs: 0, untilMs: 0, outstanding: [])
            // The latest window ended before: whether its cutoff passed or it was lifted.
            if let last, ms - last.spanEndMs < 12 * 3_600_000 {
                state.windowDay = last.day
                state.habitDay = last.habitDay
                state.windowStartMs = last.startMs
                state.windowEndMs = last.endMs
                if let lift = last.liftMs, last.liftedInTime {
                    state.reason = last.liftExcused ? .excused : .completed
                    state.sinceMs = lift
                } else if last.cutoffLifts {
                    state.reason = .cutoffPassed
                    state.outstanding = last.outstandingAtEnd
                }
            }
            // (No window holds ms here: one that did would have answered above.)
            if state.reason == .outsideWindow, version(on: day) == nil {
                state.reason = .notInEffect
            }
            return state
        }

        private func stateInside(_ w: Window, at ms: Int64) -> State {
            var state = State(
                ruleId: rule.id, reason: ms < w.endMs ? .windowOpen : .untilDone, windowDay: w.day, habitDay: w.habitDay,
                windowStartMs: w.startMs, windowEndMs: w.endMs, sinceMs: 0, untilMs: 0, outstanding: w.outstanding)
            if let lift = w.liftMs, lift <= ms {
                state.reason = w.liftExcused ? .excused : .completed
                state.sinceMs = lift
                state.outstanding = []
                return state
            }
            if let end = Span.end(of: emergencies, containing: ms) {
                state.reason = .emergency
                state.untilMs = end
                return state
            }
            if w.sessionLifts, let end = Span.end(of: sessions, containing: ms) {
                state.reason = .session
                state.untilMs = end
                return state
            }
            return state
        }

        /// Instants in [fromMs, toMs) where the state may change, with their DST flags.
        mutating func candidates(fromMs: Int64, toMs: Int64) -> [(ms: Int64, moved: UInt32)] {
            var result: [(ms: Int64, moved: UInt32)] = []
            func add(_ ms: Int64, _ moved: UInt32 = 0) { if ms >= fromMs && ms < toMs { result.append((ms, moved)) } }
            let first = ShieldPlan.civilDay(inputs.zones, ms: fromMs) - maxSpanDays - 1
            let last = ShieldPlan.civilDay(inputs.zones, ms: toMs &- 1) + 1
            result.reserveCapacity(4 * max(0, Int(last) - Int(first) + 1) + 8)  // four instants a window, a few spans
            var d = first
            while d <= last {
                if let w = window(d) {
                    add(w.startMs, w.startMoved)
                    add(w.endMs, w.endMoved)
                    add(w.spanEndMs, w.spanEndMoved)
                    if let lift = w.liftMs { add(lift) }
                }
                d += 1
            }
            for spans in [sessions, emergencies] {
                for span in spans[Span.first(of: spans, endingAfter: fromMs)...] {
                    if span.startMs >= toMs { break }
                    add(span.startMs)
                    add(span.endMs)
                }
            }
            result.sort { $0.ms < $1.ms }
            return result
        }
    }

    // MARK: Answers

    /// Each rule's state at an instant.
    package static func states(_ inputs: Inputs, atMs: Int64) throws(HabitError) -> [State] {
        try checkInstant(atMs)
        let sessions = RuleEvaluator.sessionSpans(inputs)
        return inputs.rules.map { rule in
            var evaluator = RuleEvaluator(rule: rule, inputs: inputs, sessions: sessions)
            return evaluator.state(at: atMs)
        }
    }

    /// The longest range one transitions call covers.
    package static let maxRangeMs: Int64 = 92 * 86_400_000

    static func checkInstant(_ ms: Int64) throws(HabitError) {
        // Years 1...9999 less the margin windows need on each side.
        let low = Int64(dayRange.lowerBound + maxSpanDays + 2) * 86_400_000, high = Int64(dayRange.upperBound - maxSpanDays - 2) * 86_400_000
        guard ms >= low, ms <= high else { throw .invalid("instant \(ms) ms is outside the years the shields cover (0001...9999)") }
    }

    /// Every instant in [fromMs, toMs) where a rule's shielded bit flips, by instant
    /// then rule; at most `limit` per rule (nil: all).
    package static func transitions(_ inputs: Inputs, fromMs: Int64, toMs: Int64, limit: Int? = nil) throws(HabitError) -> [Transition] {
        try checkInstant(fromMs)
        try checkInstant(toMs)
        guard fromMs <= toMs else { throw .invalid("the range \(fromMs)...\(toMs) ms is reversed: from must not be after to") }
        guard toMs - fromMs <= maxRangeMs else { throw .invalid("the range is longer than 92 days") }
        var result: [Transition] = []
        let sessions = RuleEvaluator.sessionSpans(inputs)
        for rule in inputs.rules {
            var evaluator = RuleEvaluator(rule: rule, inputs: inputs, sessions: sessions)
            result += ruleTransitions(&evaluator, fromMs: fromMs, toMs: toMs, limit: limit)
        }
        result.sort { ($0.atMs, $0.ruleId) < ($1.atMs, $1.ruleId) }
        return result
    }

    static func ruleTransitions(_ evaluator: inout RuleEvaluator, fromMs: Int64, toMs: Int64, limit: Int?) -> [Transition] {
        var result: [Transition] = []
        var previous = evaluator.state(at: fromMs - 1)
        var candidates = evaluator.candidates(fromMs: fromMs, toMs: toMs)
        if candidates.first?.ms != fromMs { candidates.insert((fromMs, 0), at: 0) }
        var index = 0
        while index < candidates.count {
            let ms = candidates[index].ms
            var moved: UInt32 = 0
            while index < candidates.count && candidates[index].ms == ms {
                moved |= candidates[index].moved
                index += 1
            }
            let state = evaluator.state(at: ms)
            if state.shielded != previous.shielded {
                // The state just before, not at the previous candidate: a reason can
                // change without the shielded bit flipping (a cutoff passed long ago).
                let before = evaluator.state(at: ms - 1)
                result.append(
                    Transition(
                        ruleId: evaluator.rule.id, atMs: ms, from: before.reason, to: state.reason,
                        cause: cause(from: before, to: state, atMs: ms), moved: moved))
                if let limit, result.count >= limit { return result }
            }
            previous = state
        }
        return result
    }

    static func cause(from: State, to: State, atMs: Int64) -> Cause {
        switch to.reason {
        case .windowOpen, .untilDone:
            switch from.reason {
            case .session: return .sessionEnd
            case .emergency: return .emergencyEnd
            case .notInEffect: return .ruleChange
            default: return .windowStart
            }
        case .completed: return .completion
        case .session: return .sessionStart
        case .emergency: return .emergencyStart
        case .excused: return .excused
        case .cutoffPassed: return .cutoff
        case .notInEffect: return .ruleChange
        case .outsideWindow: return from.reason == .untilDone ? .dayEnd : .cutoff
        }
    }

    /// Each rule's state at an instant with its next change: one evaluator per rule,
    /// so the windows computed for the state serve the search too.
    package static func statesWithNext(_ inputs: Inputs, atMs: Int64, horizonDays: Int = 62) throws(HabitError) -> [(State, Transition?)] {
        try checkInstant(atMs)
        let sessions = RuleEvaluator.sessionSpans(inputs)
        return inputs.rules.map { rule in
            var evaluator = RuleEvaluator(rule: rule, inputs: inputs, sessions: sessions)
            let state = evaluator.state(at: atMs)
            return (state, next(&evaluator, atMs: atMs, horizonDays: horizonDays))
        }
    }

    /// The first transition of one rule after `atMs` (strictly), searched a day at a
    /// time up to `horizonDays` ahead; nil when there is none in that horizon.
    package static func nextChange(_ inputs: Inputs, ruleIndex: Int, atMs: Int64, horizonDays: Int = 62) throws(HabitError) -> Transition? {
        try checkInstant(atMs)
        guard inputs.rules.indices.contains(ruleIndex) else { return nil }
        var evaluator = RuleEvaluator(rule: inputs.rules[ruleIndex], inputs: inputs, sessions: RuleEvaluator.sessionSpans(inputs))
        return next(&evaluator, atMs: atMs, horizonDays: horizonDays)
    }

    static func next(_ evaluator: inout RuleEvaluator, atMs: Int64, horizonDays: Int) -> Transition? {
        search(&evaluator, fromMs: atMs + 1, toMs: atMs + 1 + Int64(horizonDays) * 86_400_000, dataEndMs: Int64.max).next
    }

    /// The first transition of one rule in [fromMs, toMs), searched a day first (the
    /// usual answer), then a week, then the rest. searchedToMs is where the search
    /// ended without finding one: toMs, or dataEndMs (where the inputs end) if that
    /// comes first. A range past the years the shields cover is searched up to them.
    static func search(_ evaluator: inout RuleEvaluator, fromMs: Int64, toMs: Int64, dataEndMs: Int64) -> (next: Transition?, searchedToMs: Int64) {
        var from = fromMs
        for bound in [fromMs + 86_400_000, fromMs + 8 * 86_400_000, toMs] {
            var to = min(bound, toMs)
            guard from < to else { continue }
            guard (try? checkInstant(to)) != nil else { return (nil, toMs) }
            let cut = to > dataEndMs
            if cut { to = dataEndMs }
            if from < to, let found = ruleTransitions(&evaluator, fromMs: from, toMs: to, limit: 1).first { return (found, to) }
            if cut { return (nil, max(from, to)) }
            from = to
        }
        return (nil, toMs)
    }

    /// Every rule's evaluator, kept across asks while the store is unchanged (the
    /// engine drops it on any write): each window is computed once, and what each
    /// rule's last search found is remembered: the first transition from an instant
    /// on stays the answer for every later instant before it, and a stretch found
    /// without one need not be searched again.
    package struct Evaluation {
        var evaluators: [RuleEvaluator]
        /// From fromMs on, the first transition is next; none lies in [fromMs, searchedToMs) if next is nil.
        struct Known {
            var fromMs: Int64
            var next: Transition?
            var searchedToMs: Int64
        }
        var remembered: [Known?]
        /// The inputs hold what every window and span before this instant needs.
        package let dataEndMs: Int64

        package init(_ inputs: Inputs, dataEndMs: Int64) {
            let sessions = RuleEvaluator.sessionSpans(inputs)
            evaluators = inputs.rules.map { RuleEvaluator(rule: $0, inputs: inputs, sessions: sessions) }
            remembered = Array(repeating: nil, count: inputs.rules.count)
            self.dataEndMs = dataEndMs
        }

        /// Each rule's state at atMs and its next change (as statesWithNext); nil when
        /// the search for one would need inputs past dataEndMs.
        package mutating func statesWithNext(atMs: Int64, horizonDays: Int = 62) throws(HabitError) -> [(State, Transition?)]? {
            try checkInstant(atMs)
            guard atMs < dataEndMs else { return nil }
            let start = atMs + 1, end = start + Int64(horizonDays) * 86_400_000
            var result: [(State, Transition?)] = []
            result.reserveCapacity(evaluators.count)
            for index in evaluators.indices {
                let state = evaluators[index].state(at: atMs)
                var from = start, knownFrom = start
                if let known = remembered[index], known.fromMs <= start {
                    if let next = known.next {
                        if atMs < next.atMs {
                            result.append((state, next))
                            continue
                        }
                    } else if known.searchedToMs >= end {
                        result.append((state, nil))
                        continue
                    } else {
                        // Nothing before searchedToMs: search on from there.
                        from = known.searchedToMs
                        knownFrom = known.fromMs
                    }
                }
                let (next, searchedTo) = search(&evaluators[index], fromMs: from, toMs: end, dataEndMs: dataEndMs)
                if next == nil && searchedTo < end { return nil }
                remembered[index] = Known(fromMs: knownFrom, next: next, searchedToMs: searchedTo)
                result.append((state, next))
            }
            return result
        }
    }

    /// What could end a state before its next time-driven change.
    package static func earlier(_ state: State, settings: ShieldRule.Settings?, emergencyLeft: Int32?) -> UInt32 {
        guard let settings else { return 0 }
        switch state.reason {
        case .windowOpen, .untilDone:
            var flags = Earlier.completion
            if settings.sessionLifts { flags |= Earlier.session }
            if emergencyLeft.map({ $0 > 0 }) ?? true { flags |= Earlier.emergency }
            return flags
        case .session: return Earlier.sessionEnd
        default: return 0
        }
    }
}

extension ShieldPlan {
    /// A habit's days as shields read them, from its entries and its timers' amounts:
    /// when each day became done and stayed done (an undo can take a completion back),
    /// and which days were skipped. A habit that requires proof on a day counts only
    /// entries an accepted proof appended. Each day is judged by the version in force on it.
    ///
    /// A day's ledger entries arrive in append order; a timer's amount (TimerRules.amountEntries,
    /// folded for every instant at once: its recordedAtMs is its end, by an event or by its
    /// target) arrives at that instant among them. The day is done from the arrival after
    /// which it stayed done, so a timer stopped, or completing itself, after the instant
    /// asked lifts nothing yet, and lifts from its end on.
    package static func habitDays(
        _ entries: [Entry], timerAmounts: [Entry] = [], habit: HabitSpec, versions: [SettingsVersion] = [],
        vacations: [ClosedRange<Int32>]
    ) -> HabitDays {
        var days = HabitDays(vacations: vacations)
        let proofVaries = versions.contains { $0.proofRequired != habit.proofRequired }
        func counts(_ entry: Entry) -> Bool {
            entry.source == .proof || entry.kind == .undo || !versions.spec(habit, on: entry.day).proofRequired
        }
        var counted = habit.proofRequired || proofVaries ? entries.filter(counts) : entries
        // Each day's entries in append order, days one after another: the store reads
        // them so (by day, then id), and anything else is sorted here.
        if !zip(counted, counted.dropFirst()).allSatisfy({ ($0.day, $0.id) < ($1.day, $1.id) }) {
            counted.sort { ($0.day, $0.id) < ($1.day, $1.id) }
        }
        var timers = Dictionary(grouping: habit.proofRequired || proofVaries ? timerAmounts.filter(counts) : timerAmounts, by: \.day)

        func judge(_ day: Int32, _ ledger: ArraySlice<Entry>, _ timers: [Entry]) {
            let timers = timers.count < 2 ? timers : timers.sorted { ($0.recordedAtMs, $0.id) < ($1.recordedAtMs, $1.id) }
            // With timers' amounts, the arrivals merged by instant (ledger entries first on
            // a tie): how many of each are there after each one, and when. Without (most
            // days), arrival i is the ledger's entry i, and no list is made.
            var merged: [(ledger: Int, timers: Int, atMs: Int64)] = []
            if !timers.isEmpty {
                merged.reserveCapacity(ledger.count + timers.count)
                var l = ledger.startIndex, t = 0
                while l < ledger.endIndex || t < timers.count {
                    if t == timers.count || (l < ledger.endIndex && ledger[l].recordedAtMs <= timers[t].recordedAtMs) {
                        merged.append((l + 1 - ledger.startIndex, t, ledger[l].recordedAtMs))
                        l += 1
                    } else {
                        merged.append((l - ledger.startIndex, t + 1, timers[t].recordedAtMs))
                        t += 1
                    }
                }
            }
            func arrival(_ index: Int) -> (ledger: Int, timers: Int, atMs: Int64) {
                timers.isEmpty ? (index + 1, 0, ledger[ledger.startIndex + index].recordedAtMs) : merged[index]
            }
            let spec = versions.spec(habit, on: day)
            func state(after index: Int) -> DayState {
                let (entryCount, amountCount, _) = arrival(index)
                let present =
                    amountCount == 0 ? ledger.prefix(entryCount) : (Array(ledger.prefix(entryCount)) + timers.prefix(amountCount))[...]
                return DayFold.fold(present, day: day, habit: spec, cancelled: DayFold.cancelledIds(in: present))
            }
            let last = ledger.count + timers.count - 1
            guard last >= 0 else { return }
            let final = state(after: last)
            if final.skipped { days.skipped.insert(day) }
            guard final.done else { return }
            // Back from the end while the day was already done: the arrival that made it done for good.
            var from = last
            while from > 0 && state(after: from - 1).done { from -= 1 }
            days.doneAtMs[day] = arrival(from).atMs
        }

        var first = counted.startIndex
        while first < counted.endIndex {
            let day = counted[first].day
            var last = first
            while last + 1 < counted.endIndex && counted[last + 1].day == day { last += 1 }
            // (Most habits have no timers: no lookup then.)
            judge(day, counted[first...last], timers.isEmpty ? [] : timers.removeValue(forKey: day) ?? [])
            first = last + 1
        }
        for (day, amounts) in timers { judge(day, [], amounts) }
        return days
    }
}
