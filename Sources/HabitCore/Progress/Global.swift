/// Results across habits. Rules:
/// - Daily score: done due habits / due habits, excused ones left out; nil when
///   nothing is due.
/// - Perfect day: at least one habit due and every due habit done. Days with nothing
///   due neither break nor extend the streak (off days `skip`), or count as a miss
///   (off days `break`); an all-excused day is excused.
/// - Active day: at least one habit done (due or not). Every day from the first
///   habit's start counts; a day with none done breaks it.
/// - Today never breaks either streak while it is not over.
package enum Global {
    package struct DayTally: Equatable, Sendable {
        package var day: Int32
        package var due: Int32 = 0
        package var done: Int32 = 0
        package var excused: Int32 = 0
        /// Habits done that day, due or not.
        package var anyDone: Int32 = 0
        /// Habits active that day (started, not archived).
        package var active: Int32 = 0
        /// Quota habits with nothing due that day because their period's quota was met:
        /// such a day is not an off day.
        package var quotaMet: Int32 = 0

        package var score: Double? { due > 0 ? Double(done) / Double(due) : nil }

        package init(day: Int32) { self.day = day }
    }

    package struct Input: Sendable {
        package var history: HabitHistory
        package var habitId: Int64
        package init(history: HabitHistory, habitId: Int64) {
            self.history = history
            self.habitId = habitId
        }
    }

    /// With a group, a habit counts on the days its version is in that group (names
    /// compared case-insensitively). A day a habit was archived on is not counted at all.
    package static func tally(
        _ habits: [Input], vacations: [Vacation], from: Int32, to: Int32, asOf: Int32,
        weekStart: Int, group: String? = nil
    ) -> [DayTally] {
        guard from <= to else { return [] }
        var result = (from...to).map { DayTally(day: $0) }
        for habit in habits {
            let demands = Judge.demands(
                habit.history, from: from, to: to, asOf: asOf, weekStart: weekStart,
                vacations: Vacation.ranges(vacations, habitId: habit.habitId))
            let lastActive = habit.history.lastActiveDay(asOf: to)
            let hasQuota = habit.history.spec.schedule.isQuota || habit.history.versions.contains { $0.schedule.isQuota }
            let perDay = group != nil || habit.history.versions.contains(where: \.archived)
            for (index, demand) in demands.enumerated() {
                let day = from + Int32(index)
                if perDay {
                    let version = habit.history.spec(on: day)
                    if let group, version.group?.lowercased() != group.lowercased() { continue }
                    if habit.history.versions.version(on: day)?.archived == true { continue }
                }
                switch demand {
                case .notDue:
                    // A quota schedule governs every day of its periods: nothing due means met.
                    if hasQuota, day >= habit.history.spec.startDay, day <= lastActive, habit.history.schedule(on: day).isQuota {
                        result[index].quotaMet += 1
                    }
                case .excused: result[index].excused += 1
                case .due(let done):
                    result[index].due += 1
                    if done { result[index].done += 1 }
                }
                if day >= habit.history.spec.startDay, day <= lastActive {
                    result[index].active += 1
                    // Done as logged so far, today included (an at-most day counts once within its limit).
                    if habit.history.isMarkedDone(day) {
                        result[index].anyDone += 1
                    }
                }
            }
        }
        return result
    }

    package static func perfectDays(_ tallies: [DayTally], asOf: Int32, policy: StreakPolicy = .standard) -> [Occurrence] {
        tallies.compactMap { t -> Occurrence? in
            if t.due == 0 {
                if t.excused > 0 { return Occurrence(first: t.day, last: t.day, verdict: .excused, excusedDays: 1, doneDays: 0, required: 0) }
                // Before any habit is active there is no day to judge; a met quota is not an off day.
                return t.active > 0 && t.quotaMet == 0 ? policy.offDay(t.day, asOf: asOf) : nil
            }
            let verdict: Occurrence.Verdict = t.done == t.due ? .kept : (t.day >= asOf ? .open : .missed)
            return Occurrence(first: t.day, last: t.day, verdict: verdict, excusedDays: 0, doneDays: t.done, required: t.due)
        }
    }

    package static func activeDays(_ tallies: [DayTally], asOf: Int32) -> [Occurrence] {
        tallies.compactMap { t -> Occurrence? in
            guard t.active > 0 else { return nil }
            let verdict: Occurrence.Verdict
            if t.anyDone > 0 {
                verdict = .kept
            } else if t.excused == t.active {
                verdict = .excused
            } else if t.day >= asOf {
                verdict = .open
            } else {
                verdict = .missed
            }
            return Occurrence(
                first: t.day, last: t.day, verdict: verdict, excusedDays: verdict == .excused ? 1 : 0,
                doneDays: t.anyDone, required: 1)
        }
    }

    /// A quota habit's period holding a day, as of that day.
    package struct QuotaProgress: Equatable, Sendable {
        package var habitId: Int64
        /// The period's first day (as the schedule governs it).
        package var first: Int32
        /// Done days from `first` to the day, and the period's quota.
        package var done: Int32
        package var required: Int32
        package var met: Bool { done >= required }
    }

    /// One day of a set of habits read both ways apps read it (the quota rule):
    /// - `dueUntilMet` (the daily score, hc_group_completion's day): a quota habit is
    ///   due on every day of its period until its quota is met, as the tallies count;
    /// - `dayBased` (Numu's day rate): quota habits left out, only habits whose
    ///   schedule names days (daily, days:, every:, monthdays:) counted, and each
    ///   quota habit's period progress as of the day in `quota`, by habit id. A
    ///   period all excused is left out of both.
    package struct DayReadings: Equatable, Sendable {
        package var dueUntilMet: DayTally
        package var dayBased: DayTally
        package var quota: [QuotaProgress]
    }

    package static func dayReadings(
        _ habits: [Input], vacations: [Vacation], day: Int32, asOf: Int32, weekStart: Int,
        group: String? = nil
    ) -> DayReadings {
        let dueUntilMet =
            tally(habits, vacations: vacations, from: day, to: day, asOf: asOf, weekStart: weekStart, group: group).first
            ?? DayTally(day: day)
        var dayBased = DayTally(day: day)
        var quota: [QuotaProgress] = []
        for habit in habits.sorted(by: { $0.habitId < $1.habitId }) {
            let history = habit.history
            guard day >= history.spec.startDay, day <= history.lastActiveDay(asOf: day) else { continue }
            // As tally: a habit counts on the days its version is in the group and not archived.
            if let group, history.spec(on: day).group?.lowercased() != group.lowercased() { continue }
            if history.versions.version(on: day)?.archived == true { continue }
            let excused = Vacation.ranges(vacations, habitId: habit.habitId)
            if history.schedule(on: day).isQuota {
                // Judged as of the day: the period holding it ends there, its done days counted up to it.
                let holding = Judge.occurrences(history, asOf: day, weekStart: weekStart, vacations: excused).last
                guard let holding, holding.first <= day, day <= holding.last, holding.verdict != .excused else { continue }
                quota.append(QuotaProgress(habitId: habit.habitId, first: holding.first, done: holding.doneDays, required: holding.required))
            } else {
                switch Judge.demands(history, from: day, to: day, asOf: asOf, weekStart: weekStart, vacations: excused).first {
                case .excused: dayBased.excused += 1
                case .due(let done):
                    dayBased.due += 1
                    if done { dayBased.done += 1 }
                case .notDue, nil: break
                }
            }
        }
        return DayReadings(dueUntilMet: dueUntilMet, dayBased: dayBased, quota: quota)
    }

    /// Due habit-days kept over due habit-days, for a group or the whole store.
    package static func completion(_ tallies: [DayTally]) -> Scores.Completion {
        Scores.Completion(
            kept: tallies.reduce(0) { $0 + $1.done }, judged: tallies.reduce(0) { $0 + $1.due },
            excused: tallies.reduce(0) { $0 + $1.excused })
    }
}
