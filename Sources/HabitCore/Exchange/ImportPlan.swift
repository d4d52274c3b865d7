/// What an import will write, checked in full before anything is written.
/// Habits and entries refer to each other by position, so the store can give
/// them fresh ids inside one transaction.
package struct ImportPlan: Equatable, Sendable {
    package struct HabitItem: Equatable, Sendable {
        package var spec: HabitSpec
        /// The judging settings' versions, oldest first (the last one's are the spec's).
        package var versions: [SettingsVersion]
        package var archivedDay: Int32?
        package var createdAtMs: Int64
        /// The habit's own streak policy fields.
        package var streakPolicy: StreakPolicy.Override = .none
        /// Reminder rules to add to the habit (checked settings), each with its first
        /// version on the habit's start day.
        package var reminders: [ReminderRule.Settings] = []
    }

    package struct EntryItem: Equatable, Sendable {
        package var habitIndex: Int
        package var day: Int32
        package var kind: EntryKind
        package var value: Double
        package var recordedAtMs: Int64
        package var source: EntrySource
        /// For undo entries: the position of the entry they cancel.
        package var undoesIndex: Int?
        package var note: String?
        /// The retry key the entry was appended with, if any.
        package var key: String? = nil
    }

    package struct Settings: Equatable, Sendable {
        package var timezone: String
        package var dayStartMinutes: Int32
        /// Absent from documents written before they were exported: the store keeps its own.
        package var weekStart: Int? = nil
        package var streakPolicy: StreakPolicy? = nil
        package var routineBounds: RoutineBounds? = nil
    }

    package var settings: Settings?
    package var habits: [HabitItem] = []
    package var entries: [EntryItem] = []
    /// A whole export's other tables, in the order written (a restore into an empty
    /// store writes them back, ids and all), and the document's own habit and entry ids.
    package var tables: [Table] = []
    package var habitIds: [Int64] = []
    package var entryIds: [Int64] = []

    package struct Table: Equatable, Sendable {
        package var name: String
        package var rows: [JSON]
        package init(name: String, rows: [JSON]) {
            self.name = name
            self.rows = rows
        }
    }

    private var keys = Set<String>()

    package init() {}

    /// Adds an entry after checking it against its habit and the entries before it,
    /// with the rules every entry meets (EntryRules.checked: no limit by this store's
    /// today, as a peer's changeset has none) and the habit's kinds, as an append.
    mutating func append(_ item: EntryItem, undone: inout Set<Int>) throws(HabitError) {
        guard habits.indices.contains(item.habitIndex) else { throw .invalid("entry refers to an unknown habit") }
        var item = item
        item.value = try EntryRules.checked(kind: item.kind, value: item.value, day: item.day, recordedAtMs: item.recordedAtMs, note: item.note)
        if let key = item.key {
            try EntryRules.validate(key: key)
            guard keys.insert(key).inserted else { throw .conflict("key '\(key.prefix(200))' appears twice") }
        }
        let habit = habits[item.habitIndex].spec
        if item.kind == .undo {
            guard let target = item.undoesIndex, entries.indices.contains(target) else {
                throw .invalid("undo refers to an entry that does not come before it")
            }
            let cancelled = entries[target]
            guard cancelled.habitIndex == item.habitIndex, cancelled.day == item.day else {
                throw .invalid("undo must have the habit and date of the entry it cancels")
            }
            guard cancelled.kind != .undo, undone.insert(target).inserted else {
                throw .conflict("entry is undone twice, or an undo is undone")
            }
        } else {
            guard item.undoesIndex == nil else { throw .invalid("only undo entries may name an entry they cancel") }
            try EntryRules.validate(kind: item.kind, for: habit)
        }
        entries.append(item)
    }

    /// Apps that allow two habits of one name (Loop; HabitBull's "Run" and "run"):
    /// the later active ones become "Name (2)", "Name (3)", under full case folding.
    package mutating func makeNamesUnique() {
        var taken = Set<String>()
        for index in habits.indices where habits[index].archivedDay == nil {
            let name = habits[index].spec.name
            var candidate = name, suffix = 1
            while taken.contains(HabitName.key(candidate)) {
                suffix += 1
                candidate = "\(name) (\(suffix))"
            }
            taken.insert(HabitName.key(candidate))
            habits[index].spec.name = candidate
        }
    }

    /// Names must be unique among the plan's active habits (the store checks its own).
    func checkNames() throws(HabitError) {
        var seen = Set<String>()
        for (index, habit) in habits.enumerated() where habit.archivedDay == nil {
            guard seen.insert(HabitName.key(habit.spec.name)).inserted else {
                throw .conflict("habit \(index + 1): the name '\(habit.spec.name)' appears twice")
            }
        }
    }
}
