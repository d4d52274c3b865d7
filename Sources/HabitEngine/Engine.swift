import HabitCore
import HabitPlatform
import HabitPlugins
import HabitStore

/// The use cases of habitcore: each call validates with the domain, reads or
/// writes through the store, and answers with domain values. Not thread-safe:
/// the ABI layer serialises calls on one engine.
package typealias StoreOptions = Store.Options

package final class Engine {
    package let store: Store
    /// The clock, in UTC milliseconds; tests may replace it.
    package var now: () -> Int64 = Engine.systemNowMs
    /// How many received ops this store keeps waiting (Changeset.maxWaiting); tests may lower it.
    package var maxWaitingOps = Changeset.maxWaiting
    private var zoneCache: ZoneRules = .utc
    /// Settings and habits as last read. Dropped when this engine changes them
    /// and when another connection commits (PRAGMA data_version moves). Inside an
    /// explicit transaction nobody else can write, so no check is needed there.
    private var cachedClock: DayClock?
    private var cachedHabits: [Int64: Habit] = [:]
    private var seenDataVersion: Int64 = -1
    /// The highest entry id when seenDataVersion was read (nil: unknown), and the
    /// entries this handle appended since (its histories hold them already).
    private var seenLastEntryId: Int64?
    private var ownEntryIds: Set<Int64> = []
    /// Habits some credit account rewards (nil: not read yet); appends to other
    /// habits skip the credit bookkeeping.
    var rewardedHabits: Set<Int64>?
    /// Each habit's folded days (see HistoryCache), under the same rules as the caches above.
    var historyCache = HistoryCache()
    /// Every reminder rule as last read (nil: not read yet); dropped with the others.
    var cachedReminderRules: [ReminderRule]?
    /// The last hc_shield_state's inputs and evaluation, while the change stamp holds.
    var shieldCache: ShieldCache?
    var shieldCacheDisabled = false
    /// Verifier callbacks registered on this handle, by id.
    var callbackVerifiers: [String: any Verifier] = [:]

    /// The schema version of the open store file.
    package var schemaVersion: Int32 {
        get throws(HabitError) { try store.schemaVersion }
    }

    package init(path: String, options: Store.Options) throws(HabitError) {
        store = try Store(path: path, options: options)
        store.syncNow = { [unowned self] in self.now() }
        // Best effort: a busy store leaves them for the next open.
        if !options.readOnly { try? recoverInterruptedProofs() }
    }

    /// Closes the file and drops the handle's callback verifiers now (their release
    /// functions run here), not whenever the last reference to the handle goes.
    package func close() {
        store.close()
        callbackVerifiers.removeAll()
    }

    func revalidateCaches(insideTransaction: Bool = false) throws(HabitError) {
        guard insideTransaction || !store.inExplicitTransaction else { return }
        let version = try store.dataVersion()
        if version != seenDataVersion {
            // Entries are append-only (the schema refuses updates and deletes): when
            // every entry added since the last look is one this handle appended (and
            // re-folded), no other connection added one and each folded history still
            // holds (folded(_:) also checks the habit row). A busy writer beside an
            // extension granting emergency unlocks no longer re-folds years of
            // history after each of their commits.
            // (The next look starts after the last id checked here, so an entry
            // committed meanwhile is checked then: data_version will have moved.)
            var kept: Int64?
            if let seen = seenLastEntryId {
                let added = try store.entryIds(after: seen, limit: 257)
                if added.count < 257 && added.allSatisfy(ownEntryIds.contains) { kept = added.last ?? seen }
            }
            dropCaches(keepingHistories: kept != nil)
            seenDataVersion = version
            // A read-only handle appends nothing, so it never keeps a history on this
            // ground: it need not look up the last entry (a query at each cold ask).
            if let kept { seenLastEntryId = kept } else { seenLastEntryId = store.readOnly ? nil : try store.lastEntryId() }
            ownEntryIds.removeAll(keepingCapacity: true)
        }
    }

    func dropCaches(keepingHistories: Bool = false) {
        // Another connection's sync may have moved this store's own branch (SyncFork).
        store.forgetReplicaId()
        cachedClock = nil
        cachedHabits.removeAll(keepingCapacity: true)
        rewardedHabits = nil
        cachedReminderRules = nil
        if !keepingHistories {
            historyCache.removeAll()
            seenLastEntryId = nil
            ownEntryIds.removeAll()
        }
    }

    /// Off, progress calls fold every history from the ledger as it stands (no
    /// cache): the reference the cached path is tested against.
    package var cachesHistories: Bool {
        get { historyCache.enabled }
        set { historyCache.enabled = newValue; historyCache.removeAll() }
    }

    /// The folded days this handle keeps for a habit, if any (for tests that
    /// compare them with a fresh fold).
    package func cachedDays(habitId: Int64) -> [DayState]? { historyCache.byHabit[habitId]?.days }

    /// Re-folds the one day this handle just wrote to, in a habit whose history
    /// is cached. On failure the habit's cache goes: the write itself stands.
    private func refold(habit: Habit, day: Int32, entryId: Int64) {
        let habitId = habit.id
        if seenLastEntryId != nil {
            // Bounded: past it, the next foreign commit drops the histories (safe).
            if ownEntryIds.count < 4096 { ownEntryIds.insert(entryId) } else { seenLastEntryId = nil; ownEntryIds.removeAll() }
        }
        guard historyCache.byHabit[habitId] != nil else { return }
        guard let entries = try? store.foldEntries(habitId: habitId, from: day, to: day),
            let state = DayFold.sortedStates(entries, habit: habit.spec, versions: habit.versions).first
        else { historyCache.remove(habitId: habitId); return }
        historyCache.update(habitId: habitId, with: state)
    }

    // MARK: Transactions

    package func begin() throws(HabitError) {
        try store.begin()
        // What others committed before we took the write lock must be seen.
        try revalidateCaches(insideTransaction: true)
    }

    package func commit() throws(HabitError) { try store.commit() }

    package func rollback() throws(HabitError) {
        defer { dropCaches() }  // what the transaction wrote is gone
        try store.rollback()
    }

    package static func systemNowMs() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    // MARK: Settings and the clock

    enum SettingKey {
        static let timezone = "timezone"
        static let dayStart = "day_start_minutes"
    }

    package func timezoneName() throws(HabitError) -> String {
        try store.setting(SettingKey.timezone) ?? "UTC"
    }

    /// Process-wide, before any store opens: see hc_process_disable_sqlite_statistics.
    package static func disableSQLiteMemoryStatistics() throws(HabitError) {
        try Database.disableMemoryStatistics()
    }

    /// The zone and day start in force now (re-read each time: another process may change them).
    package func clock() throws(HabitError) -> DayClock {
        try revalidateCaches()
        if let cachedClock { return cachedClock }
        let name = try timezoneName()
        if zoneCache.name != name { zoneCache = try ZoneDatabase.load(name) }
        let clock = DayClock(zone: zoneCache, dayStartMinutes: try dayStart())
        cachedClock = clock
        return clock
    }

    package func setTimezone(_ name: String) throws(HabitError) {
        let zone = try ZoneDatabase.load(name)
        let previous = try store.setting(SettingKey.timezone)
        let at = now()
        // Shields read the zone's history: a window in progress ends on the new zone's wall clock.
        // (No transaction of its own here: an import calls this inside one.)
        let store = self.store
        let write = { () throws(HabitError) in
            try store.setSetting(SettingKey.timezone, zone.name)
            if let previous, previous != zone.name { try store.insertZoneChange(atMs: at, from: previous, to: zone.name) }
        }
        if store.inTransaction { try write() } else { try store.atomically(write) }
        zoneCache = zone
        cachedClock = nil
    }

    package func dayStart() throws(HabitError) -> Int32 {
        guard let text = try store.setting(SettingKey.dayStart) else { return 0 }
        guard let minutes = Int32(text), (0..<1440).contains(minutes) else { throw .corrupt("stored day start '\(text)' is invalid") }
        return minutes
    }

    package func setDayStart(_ minutes: Int32) throws(HabitError) {
        try DayClock.validateDayStart(minutes)
        try store.setSetting(SettingKey.dayStart, String(minutes))
        cachedClock = nil
    }

    package func localDay(utcMs: Int64) throws(HabitError) -> Int32 {
        try clock().localDay(utcMs: utcMs)
    }

    /// The instant of a local minute of a habit day in the home zone.
    package func utcMs(day: Int32, minute: Int32) throws(HabitError) -> Int64 {
        try clock().utcMs(day: day, minute: minute)
    }

    package func today() throws(HabitError) -> Int32 {
        try localDay(utcMs: now())
    }

    // MARK: Habits

    /// Creates a habit; a nil start day means today.
    package func createHabit(_ draft: HabitSpec, startDay: Int32?) throws(HabitError) -> Int64 {
        var spec = draft
        spec.startDay = if let startDay { startDay } else { try today() }
        spec = try spec.validated()
        let versions = [SettingsVersion(fromDay: spec.startDay, spec: spec)]
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
        if let cached = cachedHabits[id] { return cached }
        guard id > 0, let habit = try store.habit(id: id) else { throw .notFound("no habit with id \(id)") }
        cachedHabits[id] = habit
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
            cachedHabits[id] = nil
            historyCache.remove(habitId: id)
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
            cachedHabits[id] = nil
            historyCache.remove(habitId: id)
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
        let versions = habit.versions.isEmpty ? [SettingsVersion(fromDay: habit.spec.startDay, spec: habit.spec)] : habit.versions
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
        cachedHabits[habit.id] = nil
        historyCache.remove(habitId: habit.id)
        guard !written.isEmpty else { return nil }
        for version in written { try store.setVersion(habitId: habit.id, version) }
        if try earnsCredits(habit.id) { try settleHabitCredits(habitId: habit.id, from: first, why: .rejudged(from: first)) }
        return first <= today ? first...today : nil
    }

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
                try settleHabitCredits(habit: habit, day: day, causeEntryId: id, why: .entry(new.kind))
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
            try EntryRules.validateUndo(of: target, alreadyUndone: try store.undoOf(entryId: entryId) != nil)
            let id = try store.insertEntry(
                habitId: target.habitId, day: target.day, kind: .undo, value: 0, recordedAtMs: at,
                source: .manual, undoes: target.id, note: nil)
            try settleHabitCredits(habit: habit, day: target.day, causeEntryId: id, why: .entry(.undo))
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
            try store.entries(habitId: habitId, from: from, to: to), from: from, to: to, habit: habit.spec,
            versions: habit.versions)
    }

    package func dayTotal(habitId: Int64, day: Int32) throws(HabitError) -> Double {
        try dayStates(habitId: habitId, from: day, to: day)[0].value
    }
}
