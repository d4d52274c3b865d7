/// Completion rates and daily scores (strength: Strength.swift). Rules:
/// - Completion rate: kept / judged occurrences (open and excused ones left out);
///   quota periods count their done days up to the quota against the quota.
/// - The current occurrence (the one holding asOf, still open: this week of a
///   weekly:3, today) is left out of that rate and given beside it as a fraction:
///   its done days so far, up to its quota, against its quota (2 of 3 on a
///   Wednesday; today not done yet is 0 of 1). An at-most habit's open day is not
///   judged before it ends, so it is not given.
package enum Scores {
    package struct Completion: Equatable, Sendable {
        package var kept: Int32
        package var judged: Int32
        package var excused: Int32
        /// The current, unfinished occurrence: done so far (up to its quota) and its quota.
        package var currentKept: Int32
        package var currentRequired: Int32

        package init(kept: Int32, judged: Int32, excused: Int32, currentKept: Int32 = 0, currentRequired: Int32 = 0) {
            self.kept = kept
            self.judged = judged
            self.excused = excused
            self.currentKept = currentKept
            self.currentRequired = currentRequired
        }

        /// nil when nothing was judged.
        package var rate: Double? { judged > 0 ? Double(kept) / Double(judged) : nil }
        /// The rate with the current occurrence counted as its fraction; nil when nothing counts.
        package var rateWithCurrent: Double? {
            let required = judged + currentRequired
            return required > 0 ? Double(kept + currentKept) / Double(required) : nil
        }
    }

    /// Completion over the occurrences that lie within [from, to]. `judgedAtDayEnd`
    /// (at-most habits): an open occurrence cannot be given as a fraction.
    package static func completion(_ occurrences: [Occurrence], from: Int32, to: Int32, judgedAtDayEnd: Bool = false) -> Completion {
        var result = Completion(kept: 0, judged: 0, excused: 0)
        for occurrence in occurrences where occurrence.first >= from && occurrence.last <= to {
            switch occurrence.verdict {
            case .kept, .missed:
                result.kept += min(occurrence.doneDays, occurrence.required)
                result.judged += occurrence.required
            case .excused: result.excused += 1
            case .open:
                guard !judgedAtDayEnd else { break }
                result.currentKept += min(occurrence.doneDays, occurrence.required)
                result.currentRequired += occurrence.required
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
    package static func demands(
        _ history: HabitHistory, from: Int32, to: Int32, asOf: Int32, weekStart: Int,
        vacations: [ClosedRange<Int32>] = []
    ) -> [DayDemand] {
        guard from <= to else { return [] }
        var result = [DayDemand](repeating: .notDue, count: Int(to) - Int(from) + 1)
        let occurrences = Judge.occurrences(history, asOf: max(asOf, to), weekStart: weekStart, vacations: vacations)
        let excusedDays = ExcusedDays(history.excusedRanges(vacations), from: from, to: to)
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
