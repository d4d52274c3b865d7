/// How a habit's history is judged: which days are due, and whether each
/// occurrence (a due day, or a quota period) was kept, missed, excused, or is
/// still open. Every streak, score and rate is computed from these.
///
/// Rules (stated in the header and the README too):
/// - Nothing is due before the start day or from the archive day on; a stretch
///   archived and later unarchived is excused.
/// - Each day is judged by the settings in force on it (SettingsVersion: schedule,
///   target, direction, proof, group, archive); a change never rewrites the days
///   before it.
/// - Day-based schedules (daily, days:, every:, monthdays:) make each due day
///   an occurrence. every:N counts from the first day its schedule governed.
///   monthdays:31 falls on a shorter month's last day.
/// - Quota schedules (weekly:N, monthly:N, times:N/M) make each period an
///   occurrence: a week starting on the store's first weekday, a calendar month,
///   or a block of M days counted from the first day the schedule governed (as
///   every:N counts), cut to the days the schedule governs. Its quota is min(N, the period's days that are
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

    /// No day excused.
    var isEmpty: Bool { mask.isEmpty }

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
        case .timesPerWeek, .timesPerMonth, .timesInDays: return true
        default: return false
        }
    }

    /// Whether a day-based schedule falls on `day`; `anchor` is the first day it governed.
    package func falls(on day: Int32, anchor: Int32) -> Bool {
        switch self {
        case .daily, .timesPerWeek, .timesPerMonth, .timesInDays: return true
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
        case .timesInDays(let n, let m): return Double(n) / Double(m)
        }
    }
}

/// What takes the judged occurrences one by one: an array, or a streak counter.
protocol OccurrenceSink {
    mutating func take(_ occurrence: Occurrence)
    /// `count` due days in a row from `first`, each kept: what most days of a
    /// kept habit are, so a fold may take them at once.
    mutating func takeKeptDays(from first: Int32, count: Int32)
}

extension OccurrenceSink {
    /// The days one by one.
    mutating func takeKeptDays(from first: Int32, count: Int32) {
        var day = first
        for _ in 0..<max(count, 0) {
            take(Occurrence(first: day, last: day, verdict: .kept, excusedDays: 0, doneDays: 1, required: 1))
            day &+= 1
        }
    }
}

extension Array: OccurrenceSink where Element == Occurrence {
    mutating func take(_ occurrence: Occurrence) { append(occurrence) }
}

package enum Judge {
    /// The first day of the quota period holding `day`; `anchor` is the first day
    /// the schedule governed (times:N/M counts its blocks of M days from it).
    static func periodStart(_ schedule: Schedule, day: Int32, weekStart: Int, anchor: Int32) -> Int32 {
        switch schedule {
        case .timesPerMonth:
            if let date = try? CivilDate(dayNumber: day) { return day - Int32(date.day - 1) }
        case .timesInDays(_, let m):
            // Floor division, so a day before the anchor falls in the block before it.
            let distance = Int64(day) - Int64(anchor)
            let blocks = distance >= 0 ? distance / Int64(m) : -((-distance + Int64(m) - 1) / Int64(m))
            return Int32(clamping: Int64(anchor) + blocks * Int64(m))
        default: break
        }
        return day - Int32((CivilDate.weekday(day) - weekStart + 7) % 7)
    }

    static func periodEnd(_ schedule: Schedule, start: Int32) -> Int32 {
        switch schedule {
        case .timesPerMonth:
            if let date = try? CivilDate(dayNumber: start) {
                return start + Int32(CivilDate.daysInMonth(year: date.year, month: date.month) - 1)
            }
        case .timesInDays(_, let m): return start &+ Int32(m - 1)
        default: break
        }
        return start + 6
    }

    /// Every occurrence from the start day up to asOf, in order.
    /// - Parameter vacations: day ranges excused on top of the history's skip entries.
    package static func occurrences(
        _ history: HabitHistory, asOf: Int32, weekStart: Int,
        vacations: [ClosedRange<Int32>] = []
    ) -> [Occurrence] {
        var result: [Occurrence] = []
        result.reserveCapacity(max(0, Int(history.lastActiveDay(asOf: asOf)) - Int(history.spec.startDay) + 1))
        judge(history, asOf: asOf, weekStart: weekStart, vacations: vacations, into: &result)
        return result
    }

    /// Hands every occurrence from the start day up to asOf to `sink`, in order,
    /// so a caller that only folds them (streaks) needs no array of them.
    static func judge<Sink: OccurrenceSink>(
        _ history: HabitHistory, asOf: Int32, weekStart: Int,
        vacations: [ClosedRange<Int32>], into sink: inout Sink
    ) {
        let first = history.spec.startDay
        let last = history.lastActiveDay(asOf: asOf)
        guard first <= last else { return }
        // Quota periods look up to a block (times:N/365) past `last` for their quota.
        let excused = ExcusedDays(history.excusedRanges(vacations), from: first, to: last &+ 366)
        history.forEachSegment(from: first, through: last) { segment in
            if segment.schedule.isQuota {
                periods(segment, history, asOf: asOf, last: last, weekStart: weekStart, excused: excused, into: &sink)
            } else {
                dueDays(segment, history, asOf: asOf, excused: excused, into: &sink)
            }
        }
    }

    /// Day-based schedules: each due day is an occurrence.
    @inline(__always)
    private static func dueDays<Sink: OccurrenceSink>(
        _ segment: HabitHistory.Segment, _ history: HabitHistory, asOf: Int32,
        excused: ExcusedDays, into sink: inout Sink
    ) {
        let days = history.judged(asOf: asOf)
        var day = segment.first
        if segment.isEveryDay {
            // The days before asOf are over (never open) and all due: read in one
            // sweep, kept days in a row handed over together.
            let overLast = min(segment.last, asOf &- 1)
            var keptCount: Int32 = 0
            days.forEachMark(from: day, through: overLast) { day, mark in
                if mark & HabitHistory.Mark.done != 0 {
                    keptCount &+= 1
                } else {
                    sink.takeKeptDays(from: day &- keptCount, count: keptCount)
                    keptCount = 0
                    sink.take(dueDay(day, mark: mark, onVacation: excused.contains(day), open: false))
                }
            }
            if overLast >= day {
                sink.takeKeptDays(from: overLast &- keptCount &+ 1, count: keptCount)
                day = overLast &+ 1
            }
        }
        var weekday = CivilDate.weekday(day)
        while day <= segment.last {
            if segment.isDue(day, weekday: weekday) {
                sink.take(dueDay(day, mark: days.mark(day), onVacation: excused.contains(day), open: day >= asOf))
            }
            day += 1
            weekday = weekday == 6 ? 0 : weekday + 1
        }
    }

    /// A due day's occurrence: kept when done, else excused when skipped or on
    /// vacation, else open (the day holding asOf) or missed.
    @inline(__always)
    static func dueDay(_ day: Int32, mark: UInt8, onVacation: @autoclosure () -> Bool, open: Bool) -> Occurrence {
        let verdict: Occurrence.Verdict
        if mark & HabitHistory.Mark.done != 0 {
            verdict = .kept
        } else if mark & HabitHistory.Mark.skipped != 0 || onVacation() {
            verdict = .excused
        } else {
            verdict = open ? .open : .missed
        }
        return Occurrence(
            first: day, last: day, verdict: verdict, excusedDays: verdict == .excused ? 1 : 0,
            doneDays: verdict == .kept ? 1 : 0, required: 1)
    }

    /// Quota schedules: each period (cut to the segment) is an occurrence.
    private static func periods<Sink: OccurrenceSink>(
        _ segment: HabitHistory.Segment, _ history: HabitHistory, asOf: Int32,
        last: Int32, weekStart: Int, excused: ExcusedDays, into sink: inout Sink
    ) {
        let quota: Int32
        switch segment.schedule {
        case .timesPerWeek(let n), .timesPerMonth(let n), .timesInDays(let n, _): quota = Int32(n)
        default: quota = 1
        }
        let days = history.judged(asOf: asOf)
        var day = segment.first
        while day <= segment.last {
            let start = periodStart(segment.schedule, day: day, weekStart: weekStart, anchor: segment.anchor)
            // The whole period as the schedule governs it (asOf does not shorten the quota) ...
            let fullLast = min(periodEnd(segment.schedule, start: start), segment.governedEnd)
            // ... and the part of it judged so far.
            let periodLast = min(fullLast, last)
            var done: Int32 = 0, excusedCount: Int32 = 0
            var cursor = day
            while cursor <= fullLast {
                if cursor <= periodLast, days.isDone(cursor) {
                    done += 1
                } else if days.isExcused(cursor, vacation: excused) {
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
            sink.take(
                Occurrence(
                    first: day, last: periodLast, verdict: verdict, excusedDays: excusedCount,
                    doneDays: done, required: max(required, 0)))
            day = periodLast + 1
        }
    }
}
