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

/// A habit with its history, as streaks need it. `days` may be sparse; a day
/// missing from it has no entries.
package struct HabitHistory: Sendable {
    package var spec: HabitSpec
    package var schedules: [ScheduleSpan]
    package var archivedDay: Int32?
    package var days: [Int32: DayState]

    package init(spec: HabitSpec, schedules: [ScheduleSpan], archivedDay: Int32?, days: [DayState]) {
        self.spec = spec
        self.schedules = schedules.isEmpty ? [ScheduleSpan(fromDay: spec.startDay, schedule: spec.schedule)] : schedules
        self.archivedDay = archivedDay
        var byDay: [Int32: DayState] = [:]
        for state in days { byDay[state.day] = state }
        self.days = byDay
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

    package func state(_ day: Int32) -> DayState {
        days[day] ?? DayState(day: day, value: 0, done: spec.kind == .counter || spec.kind == .duration ? spec.direction == .atMost : false,
                              skipped: false, entryCount: 0)
    }

    /// Done for judging: at-most days count only once over.
    package func isDone(_ day: Int32, asOf: Int32) -> Bool {
        if spec.direction == .atMost, spec.kind == .counter || spec.kind == .duration, day >= asOf { return false }
        return state(day).done
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
    /// - Parameter excused: whether a day is excused by a vacation (skip entries are in the history).
    package static func occurrences(_ history: HabitHistory, asOf: Int32, weekStart: Int,
                                    excused vacation: (Int32) -> Bool = { _ in false }) -> [Occurrence] {
        let first = history.spec.startDay
        let last = history.lastActiveDay(asOf: asOf)
        guard first <= last else { return [] }
        func isExcused(_ day: Int32) -> Bool {
            vacation(day) || (history.state(day).skipped && !history.isDone(day, asOf: asOf))
        }
        var result: [Occurrence] = []
        var day = first
        while day <= last {
            let (index, span) = history.span(on: day)
            let schedule = span.schedule
            let anchor = index == 0 ? min(span.fromDay, first) : span.fromDay
            if !schedule.isQuota {
                if schedule.falls(on: day, anchor: anchor) {
                    let verdict: Occurrence.Verdict
                    if history.isDone(day, asOf: asOf) { verdict = .kept } else if isExcused(day) { verdict = .excused } else if day >= asOf { verdict = .open } else { verdict = .missed }
                    result.append(Occurrence(first: day, last: day, verdict: verdict, excusedDays: verdict == .excused ? 1 : 0,
                                             doneDays: verdict == .kept ? 1 : 0, required: 1))
                }
                day += 1
                continue
            }
            let quota: Int32
            switch schedule {
            case .timesPerWeek(let n), .timesPerMonth(let n): quota = Int32(n)
            default: quota = 1
            }
            let start = periodStart(schedule, day: day, weekStart: weekStart)
            let periodFirst = max(start, day)
            // The whole period as the schedule governs it (asOf does not shorten the quota) ...
            let governedEnd = index + 1 < history.schedules.count ? history.schedules[index + 1].fromDay - 1 : Int32.max
            let fullLast = min(periodEnd(schedule, start: start), governedEnd, (history.archivedDay ?? Int32.max) &- 1)
            // ... and the part of it judged so far.
            let periodLast = min(fullLast, last)
            var done: Int32 = 0, excusedCount: Int32 = 0
            var cursor = periodFirst
            while cursor <= fullLast {
                if cursor <= periodLast, history.isDone(cursor, asOf: asOf) { done += 1 } else if isExcused(cursor) { excusedCount += 1 }
                cursor += 1
            }
            let required = min(quota, (fullLast - periodFirst + 1) - excusedCount)
            let verdict: Occurrence.Verdict
            if required <= 0 { verdict = .excused } else if done >= required { verdict = .kept } else if fullLast >= asOf { verdict = .open } else { verdict = .missed }
            result.append(Occurrence(first: periodFirst, last: periodLast, verdict: verdict, excusedDays: excusedCount,
                                     doneDays: done, required: max(required, 0)))
            day = periodLast + 1
        }
        return result
    }
}
