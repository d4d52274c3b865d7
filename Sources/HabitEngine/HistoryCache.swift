import HabitCore
import HabitStore

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
        /// When a running timer of the habit completes itself (its time then counts): the fold holds until then.
        var expiresAtMs: Int64?
    }

    private(set) var byHabit: [Int64: Folded] = [:]
    /// Off, every call folds from the ledger (the reference the tests compare with).
    var enabled = true

    /// The highest entry id when the store was last looked at (nil: unknown), and
    /// the entries this handle appended since (its histories hold them already).
    private var seenLastEntryId: Int64?
    private var ownEntryIds: Set<Int64> = []
    /// The highest timer event id when last looked at: another connection's timer event drops every history.
    private var seenLastTimerEventId: Int64?

    mutating func drop() {
        byHabit.removeAll(keepingCapacity: true)
        seenLastEntryId = nil
        ownEntryIds.removeAll()
    }

    /// After another connection committed (data_version moved). Entries are
    /// append-only (the schema refuses updates and deletes): when every entry added
    /// since the last look is one this handle appended (and re-folded), no other
    /// connection added one and each folded history still holds (folded(_:) also
    /// checks the habit row), so a busy writer beside an extension granting
    /// emergency unlocks does not re-fold years of history after each of their
    /// commits. Otherwise every history goes. The next look starts after the last
    /// id checked here, so an entry committed meanwhile is checked then.
    mutating func revalidate(_ store: Store) throws(HabitError) {
        var kept: Int64?
        if let seen = seenLastEntryId {
            let added = try store.entryIds(after: seen, limit: 257)
            if added.count < 257 && added.allSatisfy(ownEntryIds.contains) { kept = added.last ?? seen }
        }
        let timers = try store.lastTimerEventId()
        if timers != seenLastTimerEventId { kept = nil }
        seenLastTimerEventId = timers
        if kept == nil { drop() }
        // A read-only handle appends nothing, so it never keeps a history on this
        // ground: it need not look up the last entry (a query at each cold ask).
        seenLastEntryId = if let kept { kept } else if store.readOnly { nil } else { try store.lastEntryId() }
        ownEntryIds.removeAll(keepingCapacity: true)
    }

    /// Records an entry this handle appended (its day is re-folded by the caller).
    mutating func noteOwnAppend(entryId: Int64) {
        guard seenLastEntryId != nil else { return }
        // Bounded: past it, the next foreign commit drops the histories (safe).
        if ownEntryIds.count < 4096 { ownEntryIds.insert(entryId) } else { seenLastEntryId = nil; ownEntryIds.removeAll() }
    }

    mutating func remove(habitId: Int64) { byHabit[habitId] = nil }

    /// The folded days of `habit` if they were folded under the same habit row.
    func folded(_ habit: Habit) -> Folded? {
        guard enabled, let folded = byHabit[habit.id], folded.habit == habit else { return nil }
        return folded
    }

    mutating func store(_ habit: Habit, days: [DayState], expiresAtMs: Int64? = nil) -> Folded {
        let fromStart = days[Self.firstIndex(in: days, atOrAfter: habit.spec.startDay)...]
        let folded = Folded(
            habit: habit, days: days,
            history: HabitHistory(
                spec: habit.spec, versions: habit.versions, archivedDay: habit.archivedDay,
                days: Array(fromStart)), expiresAtMs: expiresAtMs)
        if enabled { byHabit[habit.id] = folded }
        return folded
    }

    /// Replaces one day's state after this handle appended to it.
    mutating func update(habitId: Int64, with state: DayState) {
        guard var folded = byHabit[habitId] else { return }
        byHabit[habitId] = nil  // no copy-on-write of the arrays below
        Self.put(state, into: &folded.days)
        folded.history.record(state)
        byHabit[habitId] = folded
    }

    /// Puts a day's state into days sorted by day, in place of the day's old one.
    static func put(_ state: DayState, into days: inout [DayState]) {
        let index = firstIndex(in: days, atOrAfter: state.day)
        if index < days.count && days[index].day == state.day { days[index] = state } else { days.insert(state, at: index) }
    }

    /// The index of the first day at or after `day` in days sorted by day.
    static func firstIndex(in days: [DayState], atOrAfter day: Int32) -> Int {
        days.partitionPoint { $0.day >= day }
    }
}
