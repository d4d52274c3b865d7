import HabitCore
import HabitStore

/// Habits as last read, by id.
struct HabitCache {
    var byId: [Int64: Habit] = [:]
    mutating func drop() { byId.removeAll(keepingCapacity: true) }
}

/// Habits: create, read, change; judging settings versioned by the day they apply from.
extension Engine {
    // MARK: Habits

    /// Creates a habit; a nil start day means today.
    package func createHabit(_ draft: HabitSpec, startDay: Int32?) throws(HabitError) -> Int64 {
        var spec = draft
        spec.startDay = if let startDay { startDay } else { try today() }
        spec = try spec.validated()
        let versions = [SettingsVersion.first(of: spec)]
        let createdAt = now()
        return try store.atomically { () throws(HabitError) in
            try requireNameFree(spec.name, except: nil)
            return try store.insertHabit(spec, versions: versions, archivedDay: nil, createdAtMs: createdAt)
        }
    }

    /// Refuses a name an active habit already has, as HabitName compares names.
    func requireNameFree(_ name: String, except id: Int64?) throws(HabitError) {
        if let holder = try activeHabit(named: name), holder.id != id {
            throw .conflict("the name '\(name.prefix(200))' is taken by habit #\(holder.id) '\(holder.spec.name)'")
        }
    }

    /// The active habit whose name is the same as name under HabitName.key.
    private func activeHabit(named name: String) throws(HabitError) -> Habit? {
        if let exact = try store.activeHabit(named: HabitName.nfc(name)) { return exact }
        let key = HabitName.key(name)
        return try store.habits(includeArchived: false).first { HabitName.key($0.spec.name) == key }
    }

    package func habit(id: Int64) throws(HabitError) -> Habit {
        try revalidateCaches()
        if let cached = caches.habits.byId[id] { return cached }
        guard id > 0, let habit = try store.habit(id: id) else { throw .notFound("no habit with id \(id)") }
        caches.habits.byId[id] = habit
        return habit
    }

    package func habit(named name: String) throws(HabitError) -> Habit {
        guard let habit = try activeHabit(named: name) else { throw .notFound("no active habit named '\(name.prefix(200))'") }
        return habit
    }

    package func habits(includeArchived: Bool) throws(HabitError) -> [Habit] {
        try store.snapshot { () throws(HabitError) in try store.habits(includeArchived: includeArchived) }
    }

    /// Which fields an update changes; nil leaves a field as it is.
    package struct HabitChanges: Sendable {
        package var name: String?
        package var target: (value: Double, direction: Direction)?
        package var group: String??
        package var unit: String??
        package var routine: RoutineTime?
        package var proofRequired: Bool?
        package var schedule: Schedule?
        package var startDay: Int32?
        package var description: String??
        package var question: String??
        package var colour: String??
        package var icon: String??
        package var position: Int64?
        package init() {}
    }

    /// The days a settings change re-judges: from the day it applies from through
    /// today (nil: it changed nothing that judges a day).
    package typealias Rejudged = ClosedRange<Int32>?

    /// Changes a habit's fields. The judging settings (target and direction, group,
    /// proof, schedule) change from `from` on (nil: today; an earlier day is allowed,
    /// a later one is not): every day before it keeps the version it had, and every
    /// version from it on takes the new values. The other fields (name, unit, routine,
    /// start day, display) are whole-history. The completion credits of the re-judged
    /// days are settled in the same transaction. Returns the days re-judged.
    @discardableResult
    package func updateHabit(id: Int64, _ changes: HabitChanges, from: Int32? = nil) throws(HabitError) -> Rejudged {
        let today = try today()
        let day = try EffectiveDay.fromTodayBack(from, today: today)
        return try store.atomically { () throws(HabitError) -> Rejudged in
            let current = try habit(id: id)
            var spec = current.spec
            if let name = changes.name { spec.name = name }
            if let target = changes.target { spec.target = target.value; spec.direction = target.direction }
            if let group = changes.group { spec.group = group }
            if let unit = changes.unit { spec.unit = unit }
            if let routine = changes.routine { spec.routine = routine }
            if let proof = changes.proofRequired { spec.proofRequired = proof }
            if let start = changes.startDay { spec.startDay = start }
            if let schedule = changes.schedule { spec.schedule = schedule }
            if let description = changes.description { spec.display.description = description }
            if let question = changes.question { spec.display.question = question }
            if let colour = changes.colour { spec.display.colour = colour }
            if let icon = changes.icon { spec.display.icon = icon }
            if let position = changes.position { spec.display.position = position }
            spec = try spec.validated()
            if changes.name != nil && !current.isArchived { try requireNameFree(spec.name, except: id) }
            caches.habits.byId[id] = nil
            caches.histories.remove(habitId: id)
            try store.updateHabit(id: id, spec: spec)
            return try changeVersions(of: current, from: day, today: today) { version in
                if let target = changes.target { version.target = spec.target; version.direction = target.direction }
                if changes.group != nil { version.group = spec.group }
                if changes.proofRequired != nil { version.proofRequired = spec.proofRequired }
                if changes.schedule != nil { version.schedule = spec.schedule }
            }
        }
    }

    /// Archives (no day is due from `from` on) or restores (days are due again from
    /// `from` on; the stretch archived before stays excused) a habit; nil: today.
    @discardableResult
    package func archiveHabit(id: Int64, archived: Bool, from: Int32? = nil) throws(HabitError) -> Rejudged {
        let today = try today()
        let day = try EffectiveDay.fromTodayBack(from, today: today)
        return try store.atomically { () throws(HabitError) -> Rejudged in
            let current = try habit(id: id)
            guard current.isArchived != archived else { return nil }
            if !archived { try requireNameFree(current.spec.name, except: id) }
            caches.habits.byId[id] = nil
            caches.histories.remove(habitId: id)
            try store.setArchived(id: id, day: archived ? max(day, current.spec.startDay) : nil, name: current.spec.name)
            return try changeVersions(of: current, from: day, today: today) { $0.archived = archived }
        }
    }

    /// Applies `change` to the judging settings from `day` on (never before the start
    /// day): the version in force on it, changed, from that day, and every later version
    /// changed the same way. Settles the re-judged days' credits; the caller's
    /// transaction holds it all. Returns the days re-judged.
    private func changeVersions(
        of habit: Habit, from day: Int32, today: Int32,
        _ change: (inout SettingsVersion) -> Void
    ) throws(HabitError) -> Rejudged {
        let first = max(day, habit.spec.startDay)
        let versions = habit.versions.orFirst(of: habit.spec)
        var written: [SettingsVersion] = []
        let before = versions.version(on: first) ?? SettingsVersion(fromDay: first, spec: habit.spec)
        var atFirst = before
        atFirst.fromDay = first
        change(&atFirst)
        if !atFirst.judgesAlike(before) { written.append(atFirst) }
        for version in versions where version.fromDay > first {
            var changed = version
            change(&changed)
            if changed != version { written.append(changed) }
        }
        caches.habits.byId[habit.id] = nil
        caches.histories.remove(habitId: habit.id)
        guard !written.isEmpty else { return nil }
        for version in written { try store.setVersion(habitId: habit.id, version) }
        if try earnsCredits(habit.id) { try settleHabitCredits(habitId: habit.id, from: first, why: .rejudged(from: first)) }
        return first <= today ? first...today : nil
    }
}
