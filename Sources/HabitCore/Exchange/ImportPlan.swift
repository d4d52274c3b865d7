/// What an import of another app's data will write, checked in full before anything
/// is written. Entries refer to their habits by position, so the store can give them
/// fresh ids inside one transaction. (A store document is not read into a plan: its
/// records are written as read, StoreDocument.Sink.)
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
        package var note: String?
    }

    package var habits: [HabitItem] = []
    package var entries: [EntryItem] = []

    package init() {}

    /// Adds an entry after checking it against its habit (checkedValue).
    mutating func append(_ item: EntryItem) throws(HabitError) {
        guard habits.indices.contains(item.habitIndex) else { throw .invalid("entry refers to an unknown habit") }
        var item = item
        item.value = try Self.checkedValue(
            kind: item.kind, value: item.value, day: item.day, recordedAtMs: item.recordedAtMs, note: item.note, key: nil,
            undoes: false, habit: habits[item.habitIndex].spec)
        entries.append(item)
    }

    /// Starts each habit on its first entry's day (today for one without entries, never
    /// after today), its one settings version with it: for apps that keep no start day,
    /// whose habits begin where their history does.
    package mutating func startHabitsOnTheirFirstEntry(today: Int32) {
        var firstDay = [Int32?](repeating: nil, count: habits.count)
        for entry in entries { firstDay[entry.habitIndex] = min(firstDay[entry.habitIndex] ?? entry.day, entry.day) }
        for index in habits.indices {
            habits[index].spec.startDay = min(firstDay[index] ?? today, today)
            habits[index].versions = [.first(of: habits[index].spec)]
        }
    }

    /// The rules every imported entry meets on its own and against its habit, as an
    /// append: EntryRules.checked (no limit by this store's today, as a peer's changeset
    /// has none), a well-formed retry key, and a kind the habit takes; an undo, and only
    /// an undo, names an entry it cancels. Answers the value as stored.
    package static func checkedValue(
        kind: EntryKind, value: Double, day: Int32, recordedAtMs: Int64, note: String?, key: String?, undoes: Bool, habit: HabitSpec
    ) throws(HabitError) -> Double {
        let checked = try EntryRules.checked(kind: kind, value: value, day: day, recordedAtMs: recordedAtMs, note: note)
        if let key { try EntryRules.validate(key: key) }
        if kind == .undo {
            guard undoes else { throw .invalid("undo refers to an entry that does not come before it") }
        } else {
            guard !undoes else { throw .invalid("only undo entries may name an entry they cancel") }
            try EntryRules.validate(kind: kind, for: habit)
        }
        return checked
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
}
