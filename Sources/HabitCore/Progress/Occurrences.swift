/// How a habit's history is judged: which days are due, and whether each
/// occurrence (a due day, or a quota period) was kept, missed, excused, or is
/// still open. Every streak, score and rate is computed from these.
///
/// Rules (stated in the header and the README too):
/// - Nothing is due before the start day or from the archive day on.
/// - Each day is judged by the schedule in force on it; a schedule change never
///   rewrites the days before it.
/// - Day-based schedules (daily, days:, every:, monthdays:) make each due day
///   an occurrence. every:N counts from the first day its schedule governed.
///   monthdays:31 falls on a shorter month's last day.
/// - Quota schedules (weekly:N, monthly:N) make each period an occurrence: a
///   week starting on the store's first weekday, or a calendar month, cut to the
///   days the schedule governs. Its quota is min(N, the period's days that are
///   not excused); a period whose days are all excused is excused.
/// - Excused (skipped or vacation) days are neither kept nor missed.
/// - The occurrence holding `asOf` is open while not yet kept: it never breaks
///   anything. At-most habits are judged only once the day is over.
package struct Occurrence: Equatable, Sendable {
    package enum Verdict: Equatable, Sendable {
        case kept, missed, excused, open
    }

    package var first: Int32
    package var last: Int32
    package var verdict: Verdict
    /// Excused days inside [first, last].
    package var excusedDays: Int32
    /// Done days counted towards it, and what was required (1 for a due day).
    package var doneDays: Int32
    package var required: Int32
}

/// A habit with its history, as streaks need it. Day states are kept densely
/// from the start day on (days before it are never judged); a day without a
/// state has no entries.
package struct HabitHistory: Sendable {
    package var spec: HabitSpec
    package var schedules: [ScheduleSpan]
    package var archivedDay: Int32?
    private var states: [DayState] = []
    /// The day of states[0].
    private var base: Int32

    package init(spec: HabitSpec, schedules: [ScheduleSpan], archivedDay: Int32?, days: [DayState]) {
        self.spec = spec
        self.schedules = schedules.isEmpty ? [ScheduleSpan(fromDay: spec.startDay, schedule: spec.schedule)] : schedules
        self.archivedDay = archivedDay
        base = spec.startDay
        var last = Int32.min
        for state in days where state.day >= base { last = max(last, state.day) }
        guard last >= base else { return }
        // Filled with one template (its day field is not read: state(_:) is looked up by index).
        states = [DayState](repeating: emptyState(base), count: Int(last - base) + 1)
        for state in days where state.day >= base { states[Int(state.day - base)] = state }
    }

    /// Records a day's state (days before the start are ignored).
    package mutating func record(_ state: DayState) {
        guard state.day >= base else { return }
        let index = Int(state.day - base)
        if states.count <= index { states += [DayState](repeating: emptyState(base), count: index - states.count + 1) }
        states[index] = state
    }

    private func emptyState(_ day: Int32) -> DayState {
        // A counter kept at most is within its limit on a day with nothing logged.
        DayState(day: day, value: 0, done: spec.direction == .atMost && (spec.kind == .counter || spec.kind == .duration),
                 skipped: false, entryCount: 0)
    }

    /// The last day anything can be due, up to asOf.
    package func lastActiveDay(asOf: Int32) -> Int32 {
        min(asOf, (archivedDay ?? Int32.max) &- 1)
    }

    /// The schedule span governing a day (the first one also governs days before it).
    package func span(on day: Int32) -> (index: Int, span: ScheduleSpan) {
        var chosen = 0
        for (index, span) in schedules.enumerated() where span.fromDay <= day { chosen = index }
        return (chosen, schedules[chosen])
    }

    /// The stretches of [first, last] each governed by one schedule, in order.
    /// `anchor` is where an every:N schedule counts from; `governedEnd` the last day
    /// the schedule governs at all (beyond `last`, for quota periods).
    struct Segment {
        var first: Int32
        var last: Int32
        var schedule: Schedule
        var anchor: Int32
        var governedEnd: Int32

        /// Whether a day-based schedule falls on `day` (whose weekday the caller steps along).
        @inline(__always)
        func isDue(_ day: Int32, weekday: Int) -> Bool {
            switch schedule {
            case .weekdays(let bits): return bits & (1 << weekday) != 0
            case .everyNDays(let n): return (Int(day) - Int(anchor)) % n == 0
            case .monthDays: return schedule.falls(on: day, anchor: anchor)
            case .daily, .timesPerWeek, .timesPerMonth: return true
            }
        }
    }

    func segments(from first: Int32, through last: Int32) -> [Segment] {
        var result: [Segment] = []
        let archiveEnd = (archivedDay ?? Int32.max) &- 1
        for (index, span) in schedules.enumerated() {
            let next = index + 1 < schedules.count ? schedules[index + 1].fromDay &- 1 : Int32.max
            let segmentFirst = index == 0 ? first : max(first, span.fromDay)
            let segmentLast = min(last, next)
            guard segmentFirst <= segmentLast else { continue }
            result.append(Segment(first: segmentFirst, last: segmentLast, schedule: span.schedule,
                                  anchor: index == 0 ? min(span.fromDay, first) : span.fromDay, governedEnd: min(next, archiveEnd)))
        }
        return result
    }

    @inline(__always)
    package func state(_ day: Int32) -> DayState {
        let index = Int(day) - Int(base)
        return index >= 0 && index < states.count ? states[index] : emptyState(day)
    }

    /// Done for judging: at-most days count only once over.
    @inline(__always)
    package func isDone(_ day: Int32, asOf: Int32) -> Bool {
        if spec.direction == .atMost, spec.kind == .counter || spec.kind == .duration, day >= asOf { return false }
        return state(day).done
    }

    /// Excused: skipped and not done, or on vacation.
    @inline(__always)
    func isExcused(_ day: Int32, asOf: Int32, vacation: ExcusedDays) -> Bool {
        vacation.contains(day) || (state(day).skipped && !isDone(day, asOf: asOf))
    }
}

/// Vacation days as a mask over a range, for lookups in the judging loops.
struct ExcusedDays {
    private var base: Int32 = 0
    private var mask: [Bool] = []

    init(_ ranges: [ClosedRange<Int32>], from: Int32, to: Int32) {
        guard !ranges.isEmpty, from <= to else { return }
        base = from
        mask = [Bool](repeating: false, count: Int(to - from) + 1)
        for range in ranges where range.upperBound >= from && range.lowerBound <= to {
            for day in max(range.lowerBound, from)...min(range.upperBound, to) { mask[Int(day - from)] = true }
        }
    }

    @inline(__always)
    func contains(_ day: Int32) -> Bool {
        guard !mask.isEmpty else { return false }
        let index = Int(day) - Int(base)
        return index >= 0 && index < mask.count && mask[index]
    }
}

/// Days excused for every habit or for one, on top of skip entries.
package struct Vacation: Equatable, Sendable {
    package var id: Int64
    package var habitId: Int64?
    package var first: Int32
    package var last: Int32

    package init(id: Int64, habitId: Int64?, first: Int32, last: Int32) {
        self.id = id
        self.habitId = habitId
        self.first = first
        self.last = last
    }

    package func covers(_ day: Int32, habitId: Int64) -> Bool {
        day >= first && day <= last && (self.habitId == nil || self.habitId == habitId)
    }

    /// The day ranges that excuse one habit: its own vacations and those of all habits.
    package static func ranges(_ vacations: [Vacation], habitId: Int64) -> [ClosedRange<Int32>] {
        vacations.filter { $0.habitId == nil || $0.habitId == habitId }.map { $0.first...$0.last }
    }
}

extension Schedule {
    package var isQuota: Bool {
        switch self {
        case .timesPerWeek, .timesPerMonth: return true
        default: return false
        }
    }

    /// Whether a day-based schedule falls on `day`; `anchor` is the first day it governed.
    package func falls(on day: Int32, anchor: Int32) -> Bool {
        switch self {
        case .daily, .timesPerWeek, .timesPerMonth: return true
        case .weekdays(let bits): return bits & (1 << CivilDate.weekday(day)) != 0
        case .everyNDays(let n):
            let distance = Int64(day) - Int64(anchor)
            return distance >= 0 && distance % Int64(n) == 0
        case .monthDays(let days):
            guard let date = try? CivilDate(dayNumber: day) else { return false }
            if days.contains(date.day) { return true }
            let last = CivilDate.daysInMonth(year: date.year, month: date.month)
            return date.day == last && days.contains { $0 > last }
        }
    }

    /// Occurrences per day, for the strength formula.
    package var frequency: Double {
        switch self {
        case .daily: return 1
        case .weekdays(let bits): return Double(bits.nonzeroBitCount) / 7
        case .everyNDays(let n): return 1 / Double(n)
        case .monthDays(let days): return Double(days.count) * 12 / 365.25
        case .timesPerWeek(let n): return Double(n) / 7
        case .timesPerMonth(let n): return Double(n) * 12 / 365.25
        }
    }
}

package enum Judge {
    /// The first day of the quota period holding `day`.
    static func periodStart(_ schedule: Schedule, day: Int32, weekStart: Int) -> Int32 {
        if case .timesPerMonth = schedule, let date = try? CivilDate(dayNumber: day) {
            return day - Int32(date.day - 1)
        }
        return day - Int32((CivilDate.weekday(day) - weekStart + 7) % 7)
    }

    static func periodEnd(_ schedule: Schedule, start: Int32) -> Int32 {
        if case .timesPerMonth = schedule, let date = try? CivilDate(dayNumber: start) {
            return start + Int32(CivilDate.daysInMonth(year: date.year, month: date.month) - 1)
        }
        return start + 6
    }

    /// Every occurrence from the start day up to asOf, in order.
    /// - Parameter vacations: day ranges excused on top of the history's skip entries.
    package static func occurrences(_ history: HabitHistory, asOf: Int32, weekStart: Int,
                                    vacations: [ClosedRange<Int32>] = []) -> [Occurrence] {
        let first = history.spec.startDay
        let last = history.lastActiveDay(asOf: asOf)
        guard first <= last else { return [] }
        // Quota periods look up to a month past `last` for their quota.
        let excused = ExcusedDays(vacations, from: first, to: last &+ 31)
        var result: [Occurrence] = []
        result.reserveCapacity(Int(last - first) + 1)
        for segment in history.segments(from: first, through: last) {
            if segment.schedule.isQuota {
                periods(segment, history, asOf: asOf, last: last, weekStart: weekStart, excused: excused, into: &result)
            } else {
                dueDays(segment, history, asOf: asOf, excused: excused, into: &result)
            }
        }
        return result
    }

    /// Day-based schedules: each due day is an occurrence.
    private static func dueDays(_ segment: HabitHistory.Segment, _ history: HabitHistory, asOf: Int32, excused: ExcusedDays,
                                into result: inout [Occurrence]) {
        var weekday = CivilDate.weekday(segment.first)
        var day = segment.first
        while day <= segment.last {
            if segment.isDue(day, weekday: weekday) {
                let verdict: Occurrence.Verdict
                if history.isDone(day, asOf: asOf) {
                    verdict = .kept
                } else if history.isExcused(day, asOf: asOf, vacation: excused) {
                    verdict = .excused
                } else {
                    verdict = day >= asOf ? .open : .missed
                }
                result.append(Occurrence(first: day, last: day, verdict: verdict, excusedDays: verdict == .excused ? 1 : 0,
                                         doneDays: verdict == .kept ? 1 : 0, required: 1))
            }
            day += 1
            weekday = weekday == 6 ? 0 : weekday + 1
        }
    }

    /// Quota schedules: each period (cut to the segment) is an occurrence.
    private static func periods(_ segment: HabitHistory.Segment, _ history: HabitHistory, asOf: Int32, last: Int32, weekStart: Int,
                                excused: ExcusedDays, into result: inout [Occurrence]) {
        let quota: Int32
        switch segment.schedule {
        case .timesPerWeek(let n), .timesPerMonth(let n): quota = Int32(n)
        default: quota = 1
        }
        var day = segment.first
        while day <= segment.last {
            let start = periodStart(segment.schedule, day: day, weekStart: weekStart)
            // The whole period as the schedule governs it (asOf does not shorten the quota) ...
            let fullLast = min(periodEnd(segment.schedule, start: start), segment.governedEnd)
            // ... and the part of it judged so far.
            let periodLast = min(fullLast, last)
            var done: Int32 = 0, excusedCount: Int32 = 0
            var cursor = day
            while cursor <= fullLast {
                if cursor <= periodLast, history.isDone(cursor, asOf: asOf) {
                    done += 1
                } else if history.isExcused(cursor, asOf: asOf, vacation: excused) {
                    excusedCount += 1
                }
                cursor += 1
            }
            let required = min(quota, (fullLast - day + 1) - excusedCount)
            let verdict: Occurrence.Verdict
            if required <= 0 {
                verdict = .excused
            } else if done >= required {
                verdict = .kept
            } else {
                verdict = fullLast >= asOf ? .open : .missed
            }
            result.append(Occurrence(first: day, last: periodLast, verdict: verdict, excusedDays: excusedCount,
                                     doneDays: done, required: max(required, 0)))
            day = periodLast + 1
        }
    }
}
