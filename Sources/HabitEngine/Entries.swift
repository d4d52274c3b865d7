import HabitCore
import HabitStore

/// The ledger: appends, undos, and the entries and day states read back.
extension Engine {
    // MARK: The ledger

    package struct NewEntry: Sendable {
        package var habitId: Int64
        package var kind: EntryKind
        package var day: Int32?  // nil: the local day of `atMs`
        package var value: Double
        package var atMs: Int64?  // nil: now
        package var source: EntrySource
        package var note: String?
        package var key: String?  // a retry key: the same key appends once
        package init(
            habitId: Int64, kind: EntryKind, day: Int32?, value: Double, atMs: Int64?, source: EntrySource, note: String?,
            key: String? = nil
        ) {
            self.key = key
            self.habitId = habitId
            self.kind = kind
            self.day = day
            self.value = value
            self.atMs = atMs
            self.source = source
            self.note = note
        }
    }

    /// Appends an entry; with a key, the entry that key first appended when there is one
    /// (for the same habit; another habit's key is a conflict), so a retry appends once.
    package func append(_ new: NewEntry) throws(HabitError) -> Int64 {
        try EntryRules.validateAppended(kind: new.kind)
        guard let key = new.key else { return try appendOnce(new) }
        try EntryRules.validate(key: key)
        // One write transaction: two processes retrying with one key append once.
        return try store.atomically { () throws(HabitError) -> Int64 in
            if let existing = try store.entryId(forKey: key) {
                guard let entry = try store.entry(id: existing), entry.habitId == new.habitId else {
                    throw .conflict("key '\(key)' already appended entry #\(existing) for another habit")
                }
                return existing
            }
            let id = try appendOnce(new)
            try store.insertEntryKey(key, entryId: id)
            return id
        }
    }

    private func appendOnce(_ new: NewEntry) throws(HabitError) -> Int64 {
        let clock = try clock()
        let at = new.atMs ?? now()
        try EntryRules.validate(utcMs: at, field: "at_ms")
        let atDay = try clock.localDay(utcMs: at)
        let today = try clock.localDay(utcMs: now())
        let day = new.day ?? atDay
        try EntryRules.validate(day: day, today: today)
        let habit = try habit(id: new.habitId)
        guard !habit.isArchived else { throw .conflict("habit '\(habit.spec.name)' is archived; restore it to log") }
        try EntryRules.validate(kind: new.kind, for: habit.spec)
        let value = try EntryRules.checked(kind: new.kind, value: new.value, day: day, recordedAtMs: at, note: new.note)
        let insert = { () throws(HabitError) -> Int64 in
            try self.store.insertEntry(
                habitId: habit.id, day: day, kind: new.kind, value: value,
                recordedAtMs: at, source: new.source, undoes: nil, note: new.note)
        }
        // One insert is atomic by itself; a habit that earns credits writes two tables.
        let id: Int64
        if try earnsCredits(habit.id) {
            id = try store.atomically { () throws(HabitError) in
                let id = try insert()
                try settleHabitWrite(habit: habit, day: day, causeEntryId: id, why: .entry(new.kind))
                return id
            }
        } else {
            id = try insert()
        }
        refold(habit: habit, day: day, entryId: id)
        return id
    }

    /// Appends an undo entry cancelling entryId.
    package func undo(entryId: Int64) throws(HabitError) -> Int64 {
        let at = now()
        let (id, undone, day) = try store.atomically { () throws(HabitError) -> (Int64, Habit, Int32) in
            guard entryId > 0, let target = try store.entry(id: entryId) else { throw .notFound("no entry with id \(entryId)") }
            let habit = try habit(id: target.habitId)
            guard !habit.isArchived else { throw .conflict("habit '\(habit.spec.name)' is archived; restore it to undo") }
            try EntryRules.validateUndo(of: target, named: entryId, alreadyUndone: try store.undoOf(entryId: entryId) != nil)
            let id = try store.insertEntry(
                habitId: target.habitId, day: target.day, kind: .undo, value: 0, recordedAtMs: at,
                source: .manual, undoes: target.id, note: nil)
            try settleHabitWrite(habit: habit, day: target.day, causeEntryId: id, why: .entry(.undo))
            return (id, habit, target.day)
        }
        refold(habit: undone, day: day, entryId: id)
        return id
    }

    /// Undoes the most recent entry of a habit on a day that still stands.
    package func undoLast(habitId: Int64, day: Int32?) throws(HabitError) -> Int64 {
        let day = try resolve(day)
        let entries = try store.entries(habitId: try habit(id: habitId).id, from: day, to: day)
        let cancelled = DayFold.cancelledIds(in: entries)
        guard let last = entries.last(where: { $0.kind != .undo && !cancelled.contains($0.id) }) else {
            throw .notFound("nothing to undo for habit \(habitId) on \((try? CivilDate.format(day)) ?? String(day))")
        }
        return try undo(entryId: last.id)
    }

    /// Entries in append order, each with the id of the undo that cancelled it.
    package func entries(habitId: Int64?, from: Int32, to: Int32) throws(HabitError) -> [(entry: Entry, undoneBy: Int64?)] {
        try CivilDate.checkRange(from: from, to: to, limit: nil)
        if let habitId { _ = try habit(id: habitId) }
        let entries = try store.entries(habitId: habitId, from: from, to: to)
        // An undo always has its target's habit and day, so it is in the same list.
        var undoneBy: [Int64: Int64] = [:]
        for entry in entries where entry.kind == .undo { if let target = entry.undoes { undoneBy[target] = entry.id } }
        return entries.map { ($0, undoneBy[$0.id]) }
    }

    package func dayStates(habitId: Int64, from: Int32, to: Int32) throws(HabitError) -> [DayState] {
        try CivilDate.checkRange(from: from, to: to, limit: CivilDate.maxRangeDays)
        let habit = try habit(id: habitId)
        return DayFold.states(
            try withTimers(
                try store.entries(habitId: habitId, from: from, to: to), habitId: habitId, spec: habit.spec, versions: habit.versions, from: from, to: to),
            from: from, to: to, habit: habit.spec, versions: habit.versions)
    }

    package func dayTotal(habitId: Int64, day: Int32) throws(HabitError) -> Double {
        try dayStates(habitId: habitId, from: day, to: day)[0].value
    }

    /// Re-folds the one day this handle just wrote to, in a habit whose history
    /// is cached. On failure the habit's cache goes: the write itself stands.
    private func refold(habit: Habit, day: Int32, entryId: Int64) {
        let habitId = habit.id
        caches.histories.noteOwnAppend(entryId: entryId)
        guard caches.histories.byHabit[habitId] != nil else { return }
        guard let entries = try? foldEntries(habit, from: day, to: day),
            let state = DayFold.sortedStates(entries, habit: habit.spec, versions: habit.versions).first
        else { caches.histories.remove(habitId: habitId); return }
        caches.histories.update(habitId: habitId, with: state)
    }
}
