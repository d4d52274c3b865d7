import HabitCore

/// Each habit's folded days, kept per handle so that a query after an append
/// re-folds one day instead of re-reading years of the ledger. The ledger stays
/// the truth: an entry is only a copy of what folding the ledger gives, dropped
/// whenever another connection commits entries (PRAGMA data_version moves and an
/// entry id appears that this handle did not append), when the habit's rules
/// change, and on rollback; this handle's own appends re-fold the day they touch.
struct HistoryCache {
    struct Folded {
        /// The habit as it was when folded: its spec decides the fold, its
        /// schedules and archive day are part of the history.
        var habit: Habit
        /// Every day of the habit that has entries, by day (DayFold.sortedStates).
        var days: [DayState]
        /// The history of all days from the start day on, built once and kept
        /// in step by the same record calls a fresh build makes.
        var history: HabitHistory
    }

    private(set) var byHabit: [Int64: Folded] = [:]
    /// Off, every call folds from the ledger (the reference the tests compare with).
    var enabled = true

    mutating func removeAll() { byHabit.removeAll(keepingCapacity: true) }
    mutating func remove(habitId: Int64) { byHabit[habitId] = nil }

    /// The folded days of `habit` if they were folded under the same habit row.
    func folded(_ habit: Habit) -> Folded? {
        guard enabled, let folded = byHabit[habit.id], folded.habit == habit else { return nil }
        return folded
    }

    mutating func store(_ habit: Habit, days: [DayState]) -> Folded {
        let fromStart = days[Self.firstIndex(in: days, atOrAfter: habit.spec.startDay)...]
        let folded = Folded(
            habit: habit, days: days,
            history: HabitHistory(
                spec: habit.spec, versions: habit.versions, archivedDay: habit.archivedDay,
                days: Array(fromStart)))
        if enabled { byHabit[habit.id] = folded }
        return folded
    }

    /// Replaces one day's state after this handle appended to it.
    mutating func update(habitId: Int64, with state: DayState) {
        guard var folded = byHabit[habitId] else { return }
        byHabit[habitId] = nil  // no copy-on-write of the arrays below
        let index = Self.firstIndex(in: folded.days, atOrAfter: state.day)
        if index < folded.days.count && folded.days[index].day == state.day {
            folded.days[index] = state
        } else {
            folded.days.insert(state, at: index)
        }
        folded.history.record(state)
        byHabit[habitId] = folded
    }

    /// The index of the first day at or after `day` in days sorted by day.
    static func firstIndex(in days: [DayState], atOrAfter day: Int32) -> Int {
        var low = 0, high = days.count
        while low < high {
            let middle = (low + high) / 2
            if days[middle].day < day { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
