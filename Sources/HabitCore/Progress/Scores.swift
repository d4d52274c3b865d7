import Glibc // pow: maths only, no I/O

/// Strength, completion rates and daily scores. Rules:
/// - Strength (compatible with Loop Habit Tracker): s = s_prev * m + v * (1 - m),
///   m = 0.5 ^ (sqrt(f) / 13), f the schedule's occurrences per day. It starts at 0 on
///   the start day and moves once per occurrence day: every due day for day-based
///   schedules; every day for quota schedules, where a day counts as 1 once the
///   period's quota is met (as Loop fills such days). Excused and non-due days keep
///   the value; today moves it only once done. v: 1 or 0 for checkmarks; for
///   numbers the progress: at least, min(value / target, 1); at most, 1 when within
///   the target, else target / value. Measurements have no strength.
/// - Completion rate: kept / judged occurrences (open and excused ones left out);
///   quota periods count their done days up to the quota against the quota.
package enum Scores {
    package static func strengthSeries(_ history: HabitHistory, from: Int32, to: Int32, weekStart: Int,
                                       vacations: [ClosedRange<Int32>] = []) -> [Double] {
        guard from <= to else { return [] }
        var result = [Double](repeating: 0, count: Int(to) - Int(from) + 1)
        let spec = history.spec
        guard spec.kind != .measurement else { return result }
        let last = history.lastActiveDay(asOf: to)
        let excused = ExcusedDays(vacations, from: spec.startDay, to: last)
        let days = history.judged(asOf: to)
        // A day not done still moves a number part of the way (a checkmark: none).
        let numeric = spec.kind == .counter || spec.kind == .duration
        @inline(__always) func partial(_ day: Int32) -> Double { numeric ? partialProgress(history, day) : 0 }
        // The loop writes through the buffer: an array store per day would check
        // the array's uniqueness through a runtime call each time.
        result.withUnsafeMutableBufferPointer { out in
            var strength = 0.0
            history.forEachSegment(from: spec.startDay, through: last) { segment in
                let m = pow(0.5, segment.schedule.frequency.squareRoot() / 13)
                var quota: Int32 = 0
                switch segment.schedule {
                case .timesPerWeek(let n), .timesPerMonth(let n): quota = Int32(n)
                default: break
                }
                var periodEnd = Int32.min
                var periodDone: Int32 = 0
                var weekday = CivilDate.weekday(segment.first)
                var day = segment.first
                while day <= segment.last {
                    let mark = days.mark(day)
                    let done = mark & HabitHistory.Mark.done != 0
                    let counts = !(mark & HabitHistory.Mark.skipped != 0 || excused.contains(day)) && (day < to || done)
                    if quota > 0 {
                        if day > periodEnd {
                            periodEnd = Judge.periodEnd(segment.schedule,
                                                        start: Judge.periodStart(segment.schedule, day: day, weekStart: weekStart))
                            periodDone = 0
                        }
                        let metBefore = periodDone >= quota
                        if done { periodDone += 1 }
                        if counts { strength = strength * m + (metBefore || done ? 1 : partial(day)) * (1 - m) }
                    } else if counts && segment.isDue(day, weekday: weekday) {
                        strength = strength * m + (done ? 1 : partial(day)) * (1 - m)
                    }
                    if day >= from { out[Int(day - from)] = strength }
                    day += 1
                    weekday = weekday == 6 ? 0 : weekday + 1
                }
            }
            // After the last active day (archived) the value stays.
            var day = max(last &+ 1, from)
            while day <= to { out[Int(day - from)] = strength; day += 1 }
        }
        return result
    }

    /// How far a counter or duration got on a day it was not done: at least,
    /// value / target; at most (over the limit), target / value.
    @inline(__always)
    static func partialProgress(_ history: HabitHistory, _ day: Int32) -> Double {
        let spec = history.spec
        let value = history.value(on: day)
        if spec.direction == .atLeast { return min(max(value / spec.target, 0), 1) }
        return value <= spec.target ? 1 : spec.target / value
    }

    package struct Completion: Equatable, Sendable {
        package var kept: Int32
        package var judged: Int32
        package var excused: Int32

        package init(kept: Int32, judged: Int32, excused: Int32) {
            self.kept = kept
            self.judged = judged
            self.excused = excused
        }

        /// nil when nothing was judged.
        package var rate: Double? { judged > 0 ? Double(kept) / Double(judged) : nil }
    }

    /// Completion over the occurrences that lie within [from, to].
    package static func completion(_ occurrences: [Occurrence], from: Int32, to: Int32) -> Completion {
        var result = Completion(kept: 0, judged: 0, excused: 0)
        for occurrence in occurrences where occurrence.first >= from && occurrence.last <= to {
            switch occurrence.verdict {
            case .kept, .missed:
                result.kept += min(occurrence.doneDays, occurrence.required)
                result.judged += occurrence.required
            case .excused: result.excused += 1
            case .open: break
            }
        }
        return result
    }
}

/// What each habit asks of one day, for daily scores, perfect days and today's list.
package enum DayDemand: Equatable, Sendable {
    case notDue
    case excused
    case due(done: Bool)
}

extension Judge {
    /// What a habit asks of each day in [from, to]: day-based schedules on their
    /// due days; quota schedules on every day of a period until its quota is met
    /// (a day done is due and done; once met, later days are not due).
    package static func demands(_ history: HabitHistory, from: Int32, to: Int32, asOf: Int32, weekStart: Int,
                                vacations: [ClosedRange<Int32>] = []) -> [DayDemand] {
        guard from <= to else { return [] }
        var result = [DayDemand](repeating: .notDue, count: Int(to) - Int(from) + 1)
        let occurrences = Judge.occurrences(history, asOf: max(asOf, to), weekStart: weekStart, vacations: vacations)
        let excusedDays = ExcusedDays(vacations, from: from, to: to)
        let days = history.judged(asOf: asOf)
        for occurrence in occurrences where occurrence.last >= from && occurrence.first <= to {
            var day = max(occurrence.first, from)
            var doneSoFar: Int32 = 0
            // Quota periods: count what was done before the window.
            var cursor = occurrence.first
            while cursor < day { if days.isDone(cursor) { doneSoFar += 1 }; cursor += 1 }
            while day <= min(occurrence.last, to) {
                let done = days.isDone(day)
                let excused = days.isExcused(day, vacation: excusedDays)
                let index = Int(day - from)
                if occurrence.first == occurrence.last {
                    result[index] = excused ? .excused : .due(done: done)
                } else if excused {
                    result[index] = .excused
                } else if done || doneSoFar < occurrence.required {
                    result[index] = .due(done: done)
                }
                if done { doneSoFar += 1 }
                day += 1
            }
        }
        return result
    }
}
