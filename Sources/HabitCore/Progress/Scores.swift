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
                                       excused vacation: (Int32) -> Bool = { _ in false }) -> [Double] {
        guard from <= to else { return [] }
        var result: [Double] = []
        result.reserveCapacity(Int(to) - Int(from) + 1)
        let spec = history.spec
        guard spec.kind != .measurement else { return Array(repeating: 0, count: Int(to) - Int(from) + 1) }
        var strength = 0.0
        var periodDone: (start: Int32, count: Int32) = (Int32.min, 0)
        let last = history.lastActiveDay(asOf: to)
        var day = min(spec.startDay, from)
        while day <= to {
            if day >= spec.startDay, day <= last {
                let (index, span) = history.span(on: day)
                let schedule = span.schedule
                let anchor = index == 0 ? min(span.fromDay, spec.startDay) : span.fromDay
                let m = pow(0.5, schedule.frequency.squareRoot() / 13)
                let state = history.state(day)
                let done = history.isDone(day, asOf: to)
                let excused = vacation(day) || (state.skipped && !done)
                if schedule.isQuota {
                    let start = Judge.periodStart(schedule, day: day, weekStart: weekStart)
                    if periodDone.start != start { periodDone = (start, 0) }
                    let quota: Int32
                    switch schedule {
                    case .timesPerWeek(let n), .timesPerMonth(let n): quota = Int32(n)
                    default: quota = 1
                    }
                    let metBefore = periodDone.count >= quota
                    if done { periodDone.count += 1 }
                    if !excused && (day < to || done) {
                        let v = metBefore ? 1 : progress(state, spec, done: done)
                        strength = strength * m + v * (1 - m)
                    }
                } else if schedule.falls(on: day, anchor: anchor), !excused, day < to || done {
                    strength = strength * m + progress(state, spec, done: done) * (1 - m)
                }
            }
            if day >= from { result.append(strength) }
            day += 1
        }
        return result
    }

    static func progress(_ state: DayState, _ spec: HabitSpec, done: Bool) -> Double {
        switch spec.kind {
        case .checkmark, .measurement: return done ? 1 : 0
        case .counter, .duration:
            if spec.direction == .atLeast { return done ? 1 : min(max(state.value / spec.target, 0), 1) }
            return state.value <= spec.target ? 1 : spec.target / state.value
        }
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
                                excused vacation: (Int32) -> Bool = { _ in false }) -> [DayDemand] {
        guard from <= to else { return [] }
        var result = [DayDemand](repeating: .notDue, count: Int(to) - Int(from) + 1)
        let occurrences = Judge.occurrences(history, asOf: max(asOf, to), weekStart: weekStart, excused: vacation)
        for occurrence in occurrences where occurrence.last >= from && occurrence.first <= to {
            var day = max(occurrence.first, from)
            var doneSoFar: Int32 = 0
            // Quota periods: count what was done before the window.
            var cursor = occurrence.first
            while cursor < day { if history.isDone(cursor, asOf: asOf) { doneSoFar += 1 }; cursor += 1 }
            while day <= min(occurrence.last, to) {
                let done = history.isDone(day, asOf: asOf)
                let excused = vacation(day) || (history.state(day).skipped && !done)
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
