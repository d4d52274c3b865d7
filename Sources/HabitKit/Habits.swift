import CHabitCore

/// A new habit, as hc_habit_options describes it; the defaults are the library's
/// (hc_habit_options_init), schedules are the header's text ("daily", "days:mon,wed").
public struct HabitOptions: Sendable {
    /// 1..200 bytes, unique among active habits (ASCII case ignored).
    public var name: String
    /// What it counts.
    public var kind: HabitKind
    /// The daily target (checkmarks: 1).
    public var target: Double
    /// At least or at most the target.
    public var direction: Direction
    /// Anytime, morning, day or evening.
    public var routine: Routine
    /// An optional group name.
    public var group: String?
    /// An optional unit label.
    public var unit: String?
    /// The schedule text; nil means "daily".
    public var schedule: String?
    /// The first day it counts; nil means today.
    public var startDay: Day?
    /// Whether a day needs an approved proof.
    public var proofRequired: Bool
    /// Display fields a frontend shows; the engine decides nothing by them.
    public var description: String?
    /// The question asked each day.
    public var question: String?
    /// "#RRGGBB".
    public var colour: String?
    /// The app's icon name or an emoji.
    public var icon: String?
    /// The app's order of habits, smaller first.
    public var position: Int64

    /// A habit named name with the library's defaults for everything else.
    public init(name: String, kind: HabitKind = .checkmark) {
        var defaults = hc_habit_options()
        // Cannot fail for our own size; the zeroed struct is the fallback.
        _ = hc_habit_options_init(&defaults, UInt32(MemoryLayout<hc_habit_options>.size))
        self.name = name
        self.kind = kind
        target = defaults.target
        direction = Direction(rawValue: defaults.direction)
        routine = Routine(rawValue: defaults.routine)
        schedule = nil
        startDay = defaults.start_day == noDay ? nil : Day(rawValue: defaults.start_day)
        proofRequired = defaults.proof_required != 0
        position = defaults.position
    }
}

/// A habit as stored, copied out of the library.
public struct Habit: Sendable, Hashable, Identifiable {
    /// Stable, never reused.
    public var id: HabitID
    /// Its name.
    public var name: String
    /// What it counts.
    public var kind: HabitKind
    /// The daily target.
    public var target: Double
    /// At least or at most the target.
    public var direction: Direction
    /// The part of the day it belongs to.
    public var routine: Routine
    /// Its group, if any.
    public var group: String?
    /// Its unit, if any.
    public var unit: String?
    /// The schedule in force today, as canonical text.
    public var schedule: String
    /// The first day it counts.
    public var startDay: Day
    /// Whether a day needs an approved proof.
    public var proofRequired: Bool
    /// The day it was archived from; nil while active.
    public var archivedDay: Day?
    /// When it was created (UTC ms).
    public var createdAtMs: Int64
    /// Display fields (nil from a library older than 1.1).
    public var description: String?
    /// The question asked each day.
    public var question: String?
    /// "#RRGGBB".
    public var colour: String?
    /// The app's icon name or an emoji.
    public var icon: String?
    /// The app's order of habits.
    public var position: Int64

    init(_ h: hc_habit) {
        id = HabitID(h.id)
        name = copied(h.name) ?? ""
        kind = HabitKind(rawValue: h.kind)
        target = h.target
        direction = Direction(rawValue: h.direction)
        routine = Routine(rawValue: h.routine)
        group = copied(h.group_name)
        unit = copied(h.unit)
        schedule = copied(h.schedule) ?? "daily"
        startDay = Day(rawValue: h.start_day)
        proofRequired = h.proof_required != 0
        archivedDay = h.archived_day == noDay ? nil : Day(rawValue: h.archived_day)
        createdAtMs = h.created_at_ms
        // The 1.1 fields exist only when the library's struct reaches them.
        let end = (MemoryLayout<hc_habit>.offset(of: \hc_habit.position) ?? Int.max) + MemoryLayout<Int64>.size
        let has11 = Int(h.struct_size) >= end
        description = has11 ? copied(h.description) : nil
        question = has11 ? copied(h.question) : nil
        colour = has11 ? copied(h.colour) : nil
        icon = has11 ? copied(h.icon) : nil
        position = has11 ? h.position : 0
    }
}

/// An entry to append (hc_entry_input).
public struct EntryInput: Sendable {
    /// The habit it belongs to.
    public var habitID: HabitID
    /// What it records.
    public var kind: EntryKind
    /// Its day; nil: the day of atMs (or of now).
    public var day: Day?
    /// HC_SOURCE_*: manual (1), import, health, proof.
    public var source: Int32
    /// The amount or total.
    public var value: Double
    /// When it happened (UTC ms); 0 means now.
    public var atMs: Int64
    /// An optional note, up to 4096 bytes.
    public var note: String?
    /// An optional retry key: appending again with it appends nothing and gives the first id.
    public var key: String?

    /// An entry of this kind for the habit, with the library's defaults for the rest.
    public init(habitID: HabitID, kind: EntryKind = .done, value: Double = 0, day: Day? = nil) {
        var defaults = hc_entry_input()
        _ = hc_entry_input_init(&defaults, UInt32(MemoryLayout<hc_entry_input>.size))
        self.habitID = habitID
        self.kind = kind
        self.day = day
        source = defaults.source
        self.value = value
        atMs = defaults.at_ms
    }
}

/// An entry as stored, copied out of the library.
public struct Entry: Sendable, Hashable, Identifiable {
    /// Increasing in append order.
    public var id: EntryID
    /// The habit it belongs to.
    public var habitID: HabitID
    /// What it records.
    public var kind: EntryKind
    /// The day it counts for.
    public var day: Day
    /// HC_SOURCE_*.
    public var source: Int32
    /// The amount or total.
    public var value: Double
    /// When it happened (UTC ms).
    public var recordedAtMs: Int64
    /// For undo entries: the id they cancel.
    public var undoes: EntryID?
    /// The undo entry that cancelled this one, if any.
    public var undoneBy: EntryID?
    /// Its note, if any.
    public var note: String?

    init(_ e: hc_entry) {
        id = EntryID(e.id)
        habitID = HabitID(e.habit_id)
        kind = EntryKind(rawValue: e.kind)
        day = Day(rawValue: e.day)
        source = e.source
        value = e.value
        recordedAtMs = e.recorded_at_ms
        undoes = EntryID(nonZero: e.undoes)
        undoneBy = EntryID(nonZero: e.undone_by)
        note = copied(e.note)
    }
}

/// A run of kept occurrences (hc_streak); length 0 means none.
public struct Streak: Sendable, Hashable {
    /// First day of its first occurrence.
    public var firstDay: Day
    /// Last day of its last kept occurrence.
    public var lastDay: Day
    /// Kept occurrences.
    public var length: Int32
    /// Excused days it spans.
    public var excusedDays: Int32

    init(_ s: hc_streak) {
        firstDay = Day(rawValue: s.first_day)
        lastDay = Day(rawValue: s.last_day)
        length = s.length
        excusedDays = s.excused_days
    }
}

/// A habit's streaks as of a day (hc_streak_result).
public struct Streaks: Sendable, Hashable {
    /// What the schedule in force counts.
    public var unit: StreakUnit
    /// Still going; length 0 if the last judged occurrence was missed.
    public var current: Streak
    /// The longest.
    public var longest: Streak
    /// The longest runs, longest first (the more recent first among equals), as many
    /// as were asked for.
    public var best: [Streak]

    /// The most runs `best` copies out, so that no count asked for allocates past reason.
    public static let maxBest = 100_000

    /// A buffer size for `best` runs, within 0...maxBest.
    static func capacity(_ best: Int) -> Int { min(max(best, 0), maxBest) }

    init(_ result: hc_streak_result, best: [hc_streak] = []) {
        unit = StreakUnit(rawValue: result.unit)
        current = Streak(result.current)
        longest = Streak(result.longest)
        self.best = best.map(Streak.init)
    }
}

/// options as hc_habit_options, its strings owned by strings.
private func cOptions(_ options: HabitOptions, _ strings: CStrings) throws(HabitError) -> hc_habit_options {
    var c = hc_habit_options()
    try check(hc_habit_options_init(&c, UInt32(MemoryLayout<hc_habit_options>.size)))
    c.name = try strings(options.name, "name")
    c.kind = options.kind.rawValue
    c.target = options.target
    c.direction = options.direction.rawValue
    c.routine = options.routine.rawValue
    c.group_name = try strings(options.group, "group")
    c.unit = try strings(options.unit, "unit")
    c.schedule = try strings(options.schedule, "schedule")
    c.start_day = options.startDay?.rawValue ?? noDay
    c.proof_required = options.proofRequired ? 1 : 0
    c.description = try strings(options.description, "description")
    c.question = try strings(options.question, "question")
    c.colour = try strings(options.colour, "colour")
    c.icon = try strings(options.icon, "icon")
    c.position = options.position
    return c
}

extension Store {
    /// Creates a habit and gives its id (hc_habit_create). Throws .invalid naming the
    /// field, .conflict (name taken), .readOnly, .io, .busy.
    public func createHabit(_ options: HabitOptions) throws(HabitError) -> HabitID {
        let strings = CStrings()
        var c = try cOptions(options, strings)
        return try withExtendedLifetime(strings) { () throws(HabitError) -> HabitID in
            try withHandle { store throws(HabitError) in
                var id: Int64 = 0
                try check(hc_habit_create(&id, store, &c))
                return HabitID(id)
            }
        }
    }

    /// Changes the fields of a habit that fields names, taking their values from
    /// options; its kind never changes (hc_habit_update). Throws .invalid naming the
    /// field, .notFound, .conflict (name taken), .readOnly.
    public func updateHabit(id: HabitID, _ options: HabitOptions, fields: HabitFields) throws(HabitError) {
        let strings = CStrings()
        var c = try cOptions(options, strings)
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { store throws(HabitError) in try check(hc_habit_update(store, id.rawValue, &c, fields.rawValue)) }
        }
    }

    /// updateHabit with the effective-dated settings (schedule, target and direction,
    /// group, proof) changed from a day on, nil meaning today (hc_habit_update_from):
    /// the days before it keep their versions. Gives the days re-judged (from that day
    /// through today), nil when nothing that judges a day changed. Throws .invalid for
    /// a day after today, and as updateHabit.
    @discardableResult
    public func updateHabit(id: HabitID, _ options: HabitOptions, fields: HabitFields, from: Day?) throws(HabitError) -> ClosedRange<Day>? {
        let strings = CStrings()
        var c = try cOptions(options, strings)
        var first = noDay, last = noDay
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { store throws(HabitError) in
                try check(hc_habit_update_from(store, id.rawValue, &c, fields.rawValue, from?.rawValue ?? noDay, &first, &last))
            }
        }
        return Self.rejudged(first, last)
    }

    private static func rejudged(_ first: Int32, _ last: Int32) -> ClosedRange<Day>? {
        first == noDay || last < first ? nil : Day(rawValue: first)...Day(rawValue: last)
    }

    /// The habit with this id, active or archived (hc_habit_get). Throws .notFound.
    public func habit(id: HabitID) throws(HabitError) -> Habit {
        try withHandle { store throws(HabitError) in
            var found: UnsafeMutablePointer<hc_habit>?
            try check(hc_habit_get(&found, store, id.rawValue))
            defer { hc_habit_free(found) }
            guard let found else { throw HabitError(code: .internal, message: "hc_habit_get gave HC_OK and no habit") }
            return Habit(found.pointee)
        }
    }

    /// The active habit with this name, ASCII case ignored (hc_habit_find). Throws .notFound.
    public func habit(named name: String) throws(HabitError) -> Habit {
        try withHandle { store throws(HabitError) in
            var found: UnsafeMutablePointer<hc_habit>?
            try check(hc_habit_find(&found, store, name))
            defer { hc_habit_free(found) }
            guard let found else { throw HabitError(code: .internal, message: "hc_habit_find gave HC_OK and no habit") }
            return Habit(found.pointee)
        }
    }

    /// The habits ordered by id, copied out of one snapshot (hc_habit_list_open).
    public func habits(includingArchived: Bool = false) throws(HabitError) -> [Habit] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_habit_list_open(&list, store, includingArchived ? HC_LIST_INCLUDE_ARCHIVED : 0))
            defer { hc_habit_list_free(list) }
            return try elements(of: list, { hc_habit_list_count($0, $1) }, { hc_habit_list_get($0, $1, $2) }, Habit.init)
        }
    }

    /// Archives a habit from today, or restores it (hc_habit_archive).
    public func setArchived(_ archived: Bool, habitID: HabitID) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_habit_archive(store, habitID.rawValue, archived ? 1 : 0)) }
    }

    /// Archives a habit, or restores it, from a day on, nil meaning today
    /// (hc_habit_archive_from); a stretch archived and then restored is excused. Gives
    /// the days re-judged, nil when none.
    @discardableResult
    public func setArchived(_ archived: Bool, habitID: HabitID, from: Day?) throws(HabitError) -> ClosedRange<Day>? {
        var first = noDay, last = noDay
        try withHandle { store throws(HabitError) in
            try check(hc_habit_archive_from(store, habitID.rawValue, archived ? 1 : 0, from?.rawValue ?? noDay, &first, &last))
        }
        return Self.rejudged(first, last)
    }

    /// Appends an entry and gives its id (hc_entry_append); committed when this returns.
    /// Throws .invalid naming the field, .notFound (habit), .conflict (archived habit).
    @discardableResult
    public func append(_ entry: EntryInput) throws(HabitError) -> EntryID {
        let strings = CStrings()
        var c = hc_entry_input()
        try check(hc_entry_input_init(&c, UInt32(MemoryLayout<hc_entry_input>.size)))
        c.kind = entry.kind.rawValue
        c.habit_id = entry.habitID.rawValue
        c.day = entry.day?.rawValue ?? noDay
        c.source = entry.source
        c.value = entry.value
        c.at_ms = entry.atMs
        c.note = try strings(entry.note, "note")
        c.key = try strings(entry.key, "key")
        return try withExtendedLifetime(strings) { () throws(HabitError) -> EntryID in
            try withHandle { store throws(HabitError) in
                var id: Int64 = 0
                try check(hc_entry_append(&id, store, &c))
                return EntryID(id)
            }
        }
    }

    /// Cancels an entry by appending an undo entry; gives the undo's id (hc_entry_undo).
    /// Throws .notFound, .conflict (already undone, or itself an undo).
    @discardableResult
    public func undo(entryID: EntryID) throws(HabitError) -> EntryID {
        try withHandle { store throws(HabitError) in
            var id: Int64 = 0
            try check(hc_entry_undo(&id, store, entryID.rawValue))
            return EntryID(id)
        }
    }

    /// Cancels the most recent standing entry of the habit on a day (nil: today); gives
    /// the undo's id (hc_entry_undo_last). Throws .notFound when there is none.
    @discardableResult
    public func undoLast(habitID: HabitID, day: Day? = nil) throws(HabitError) -> EntryID {
        try withHandle { store throws(HabitError) in
            var id: Int64 = 0
            try check(hc_entry_undo_last(&id, store, habitID.rawValue, day?.rawValue ?? noDay))
            return EntryID(id)
        }
    }

    /// Entries of a habit (nil: all) between two days inclusive, in append order,
    /// undo entries included (hc_entry_list_open).
    public func entries(habitID: HabitID?, from: Day, through: Day) throws(HabitError) -> [Entry] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_entry_list_open(&list, store, habitID.rawValueOrZero(), from.rawValue, through.rawValue))
            defer { hc_entry_list_free(list) }
            return try elements(of: list, { hc_entry_list_count($0, $1) }, { hc_entry_list_get($0, $1, $2) }, Entry.init)
        }
    }

    /// A habit's value on a day: the fold of the day's standing entries
    /// (hc_habit_day_total).
    public func dayTotal(habitID: HabitID, day: Day) throws(HabitError) -> Double {
        try withHandle { store throws(HabitError) in
            var total = 0.0
            try check(hc_habit_day_total(&total, store, habitID.rawValue, day.rawValue))
            return total
        }
    }

    /// A habit's current and longest streak as of a day (nil: today), and up to `best`
    /// (at most Streaks.maxBest) of its longest runs (hc_habit_streaks). Throws .invalid, .notFound.
    public func streaks(habitID: HabitID, asOf day: Day? = nil, best: Int = 0) throws(HabitError) -> Streaks {
        try withHandle { store throws(HabitError) in
            var result = hc_streak_result()
            try check(hc_streak_result_init(&result, UInt32(MemoryLayout<hc_streak_result>.size)))
            var runs = [hc_streak](repeating: hc_streak(), count: Streaks.capacity(best))
            var total: Int64 = 0
            try check(
                runs.withUnsafeMutableBufferPointer { buffer in
                    hc_habit_streaks(
                        &result, buffer.isEmpty ? nil : buffer.baseAddress, Int64(buffer.count), &total, store, habitID.rawValue,
                        day?.rawValue ?? noDay)
                })
            return Streaks(result, best: Array(runs.prefix(Int(min(max(total, 0), Int64(runs.count))))))
        }
    }
}
