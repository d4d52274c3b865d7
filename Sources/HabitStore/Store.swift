import HabitCore
import HabitPlatform

/// The durable store: a SQLite file holding settings, habits and the ledger.
/// Rows in, domain values out; it decides no rule. Not thread-safe: one caller at a time.
package final class Store {
    package struct Options: Sendable {
        package var readOnly = false
        package var create = true
        package var syncFull = false
        /// How long to wait for another connection's lock; nil: the default for the mode.
        package var busyTimeoutMs: Int32?
        package init(readOnly: Bool = false, create: Bool = true, syncFull: Bool = false, busyTimeoutMs: Int32? = nil) {
            self.readOnly = readOnly
            self.create = create
            self.syncFull = syncFull
            self.busyTimeoutMs = busyTimeoutMs
        }

        /// A writer waits for other writers up to 5 s; a reader (a widget, a
        /// screen-time extension that must answer quickly) only briefly: in WAL mode
        /// only a recovery or a closing writer's checkpoint makes it wait at all.
        package static let writerBusyTimeoutMs: Int32 = 5000
        package static let readerBusyTimeoutMs: Int32 = 100
        package var effectiveBusyTimeoutMs: Int32 { busyTimeoutMs ?? (readOnly ? Options.readerBusyTimeoutMs : Options.writerBusyTimeoutMs) }
    }

    /// The longest busy wait hc_store_set_busy_timeout accepts: ten minutes.
    package static let maxBusyTimeoutMs: Int32 = 600_000

    let db: Database
    package let readOnly: Bool
    /// The busy timeout in force, in ms.
    package private(set) var busyTimeoutMs: Int32
    /// True between begin() and commit()/rollback().
    package private(set) var inExplicitTransaction = false
    /// How many atomically bodies are running.
    private var atomicDepth = 0
    /// This store's replica id, once read.
    var cachedReplica: [UInt8]?
    /// Replica numbers and local ids found during one sync apply (inside its transaction).
    var syncCache = SyncCache()
    /// What logging a local op reads, kept for the rest of one write transaction (WriteTail).
    var writeTail = WriteTail()
    /// The wall clock the sync clock follows, in UTC milliseconds (the engine's clock).
    package var syncNow: () -> Int64 = { Int64(time(nil)) * 1000 }

    package init(path: String, options: Options) throws(HabitError) {
        guard !path.isEmpty else { throw .invalid("the store path is empty") }
        if (options.readOnly || !options.create) && access(path, F_OK) != 0 {
            throw .notFound("no store at '\(path)'")
        }
        if path != ":memory:" { try Self.prepareFile(path, create: options.create && !options.readOnly) }
        db = try Database(path: path, readOnly: options.readOnly, create: options.create, busyTimeoutMs: options.effectiveBusyTimeoutMs)
        readOnly = options.readOnly
        busyTimeoutMs = options.effectiveBusyTimeoutMs
        do throws(HabitError) {
            if !options.readOnly {
                try Schema.refuseForeign(db)
                try db.execute("PRAGMA journal_mode = WAL")
                try db.execute("PRAGMA synchronous = \(options.syncFull ? "FULL" : "NORMAL")")
                // The -wal and -shm stay when the writer closes (the -wal emptied: a
                // journal_size_limit makes the last close truncate it), so readers that
                // may not create them still open the store.
                try db.persistWAL()
                try db.execute("PRAGMA journal_size_limit = 4194304")
                if path != ":memory:" { Self.matchCompanionModes(path) }
                // Foreign keys guard writes; a reader has nothing for them to check.
                try db.execute("PRAGMA foreign_keys = ON")
            }
            try Schema.migrate(db, readOnly: options.readOnly)
            if !options.readOnly { try Schema.installWriterTriggers(db) }
            try logUnsyncedRecords()
        } catch {
            db.close()
            throw error
        }
    }

    /// Refuses with the reason a path that cannot be a store (a directory, an unreadable
    /// file), and creates a new store's file owner-only (0600): SQLite gives the -wal and
    /// -shm it creates the database file's mode, so they are private too. Habits, health
    /// figures and proof hashes are nobody else's business.
    private static func prepareFile(_ path: String, create: Bool) throws(HabitError) {
        func reason() -> String { String(cString: strerror(errno)) }
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw HabitError(.io, "cannot open store '\(path)': it is a directory") }
            if access(path, R_OK) != 0 { throw HabitError(.io, "cannot read store '\(path)': \(reason())") }
            return
        }
        guard create, errno == ENOENT else { return }
        var fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        // A symbolic link to a file not made yet (O_EXCL does not follow it): the file it
        // names is made owner-only too, not left for SQLite to make with the umask's mode.
        var link = stat()
        if fd < 0, errno == EEXIST, lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK { fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600) }
        if fd >= 0 { posixClose(fd); return }
        switch errno {
        case EEXIST: return  // another process made it first
        case ENOENT: throw .notFound("cannot create store '\(path)': its folder does not exist")
        default: throw HabitError(.io, "cannot create store '\(path)': \(reason())")
        }
    }

    /// Kept -wal and -shm files keep the mode they were made with; SQLite gives new
    /// ones the store file's mode, and so do we to kept ones, so a store whose mode
    /// was changed (shared with a group, say) is readable through them as before.
    private static func matchCompanionModes(_ path: String) {
        var store = stat()
        guard stat(path, &store) == 0 else { return }
        for suffix in ["-wal", "-shm"] {
            var file = stat()
            if stat(path + suffix, &file) == 0, file.st_mode & 0o777 != store.st_mode & 0o777 {
                _ = chmod(path + suffix, store.st_mode & 0o777)  // best effort: not ours to change, it stays
            }
        }
    }

    package func close() {
        if inExplicitTransaction { try? db.execute("ROLLBACK") }
        inExplicitTransaction = false
        db.close()
    }

    package var schemaVersion: Int32 {
        get throws(HabitError) { Int32(clamping: try Schema.pragmaInt(db, "user_version")) }
    }

    /// Changes whenever another connection commits to the file: the signal to drop caches.
    package func dataVersion() throws(HabitError) -> Int64 {
        try db.statement("PRAGMA data_version").one { $0.int(0) } ?? 0
    }

    /// What the file held when a cache was filled: equal stamps, equal contents.
    package struct ChangeStamp: Equatable, Sendable {
        var dataVersion: Int64
        var ownChanges: Int64
    }

    /// Changes with every commit of another connection (PRAGMA data_version) and
    /// every row this connection writes, committed or not (sqlite3_total_changes).
    package func changeStamp() throws(HabitError) -> ChangeStamp {
        ChangeStamp(dataVersion: try dataVersion(), ownChanges: db.totalChanges)
    }

    /// Sets how long this handle waits for another connection's lock (0...maxBusyTimeoutMs).
    package func setBusyTimeout(_ ms: Int32) throws(HabitError) {
        guard (0...Store.maxBusyTimeoutMs).contains(ms) else {
            throw .invalid("busy timeout \(ms) ms is not in 0...\(Store.maxBusyTimeoutMs)")
        }
        db.setBusyTimeout(ms)
        busyTimeoutMs = ms
    }

    /// The busy timeout the connection's busy handler applies (the one SQLite calls).
    package var connectionBusyTimeoutMs: Int32 { db.busyTimeoutMs }

    // MARK: Transactions

    package func begin() throws(HabitError) {
        guard !inExplicitTransaction else { throw HabitError(.misuse, "a transaction is already open on this store") }
        try requireWritable()
        try db.execute("BEGIN IMMEDIATE")
        inExplicitTransaction = true
        writeTail = WriteTail()
    }

    package func commit() throws(HabitError) {
        guard inExplicitTransaction else { throw HabitError(.misuse, "no transaction is open on this store") }
        try db.execute("COMMIT")
        inExplicitTransaction = false
        writeTail = WriteTail()
    }

    package func rollback() throws(HabitError) {
        guard inExplicitTransaction else { throw HabitError(.misuse, "no transaction is open on this store") }
        inExplicitTransaction = false
        writeTail = WriteTail()
        try db.execute("ROLLBACK")
    }

    /// Runs body so that all of its writes land or none do: in its own write
    /// transaction, or in a savepoint inside the caller's explicit transaction.
    package func atomically<T>(_ body: () throws(HabitError) -> T) throws(HabitError) -> T {
        try requireWritable()
        // Nested in the caller's transaction or in another atomically (an approved proof
        // appends an entry, which settles credits atomically too): a savepoint.
        // Prepared once per handle: sqlite3_exec parsed them on every append (a sixth of one).
        let nested = inExplicitTransaction || atomicDepth > 0
        try db.statement(nested ? "SAVEPOINT hc_op" : "BEGIN IMMEDIATE").run()
        if !nested { writeTail = WriteTail() }
        atomicDepth += 1
        defer { atomicDepth -= 1 }
        do throws(HabitError) {
            let result = try body()
            try db.statement(nested ? "RELEASE hc_op" : "COMMIT").run()
            if !nested { writeTail = WriteTail() }
            return result
        } catch {
            try? db.execute(nested ? "ROLLBACK TO hc_op; RELEASE hc_op" : "ROLLBACK")
            writeTail = WriteTail()  // what it knew may have been rolled back
            throw error
        }
    }

    /// Whether a transaction is open on this connection (explicit, or one of atomically's).
    package var inTransaction: Bool { !db.isAutocommit }

    /// Runs several reads against one consistent snapshot of the file.
    package func snapshot<T>(_ body: () throws(HabitError) -> T) throws(HabitError) -> T {
        if inTransaction { return try body() }  // the open transaction is the snapshot
        // Prepared once per handle (sqlite3_exec would parse them on every call).
        try db.statement("BEGIN").run()
        defer { try? db.statement("COMMIT").run() }
        return try body()
    }

    private func requireWritable() throws(HabitError) {
        if readOnly { throw HabitError(.readOnly, "the store was opened read-only") }
    }

    // MARK: Settings

    package func setting(_ key: String) throws(HabitError) -> String? {
        let statement = try db.statement("SELECT value FROM settings WHERE key = ?1")
        statement.bind(1, key)
        return try statement.one { $0.text(0) } ?? nil
    }

    package func setSetting(_ key: String, _ value: String) throws(HabitError) {
        try requireWritable()
        guard SyncOp.syncedSettings.contains(key) else { return try writeSetting(key, value) }
        try atomically { () throws(HabitError) in
            try writeSetting(key, value)
            try logRegister(.setting(key: key, value: value), target: Self.settingTarget(key))
        }
    }

    func writeSetting(_ key: String, _ value: String) throws(HabitError) {
        let statement = try db.statement("INSERT INTO settings(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        statement.bind(1, key)
        statement.bind(2, value)
        try statement.run()
    }

    // MARK: Habits

    private static let habitColumns =
        "id, name, kind, target, direction, group_name, unit, routine, proof_required, start_day, archived_day, created_at_ms, "
        + "description, question, colour, icon, position"
    // Built once, not at every call.
    private static let habitByIdQuery = "SELECT \(habitColumns) FROM habits WHERE id = ?1"

    package func insertHabit(_ spec: HabitSpec, versions: [SettingsVersion], archivedDay: Int32?, createdAtMs: Int64) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO habits(name, kind, target, direction, group_name, unit, routine, proof_required, start_day, archived_day, created_at_ms,
                               description, question, colour, icon, position)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
            """)
        bindSpec(statement, spec)
        statement.bind(10, archivedDay.map(Int64.init))
        statement.bind(11, createdAtMs)
        return try atomically { () throws(HabitError) -> Int64 in
            try mapNameConflict(spec.name) { () throws(HabitError) in try statement.run() }
            let id = db.lastInsertRowId
            let (global, _) = try logLocal(.habitCreate(spec: spec, createdAtMs: createdAtMs), creates: .habit, localId: id)
            try logDisplay(of: global, from: .none, to: spec.display)
            for version in versions { try setVersion(habitId: id, version) }
            if let archivedDay {
                try logRegister(
                    .habitField(habit: global, field: .archivedDay, value: .int(Int64(archivedDay))), target: Self.fieldTarget(global, .archivedDay))
            }
            return id
        }
    }

    package func updateHabit(id: Int64, spec: HabitSpec) throws(HabitError) {
        let statement = try db.statement(
            """
            UPDATE habits SET name = ?1, kind = ?2, target = ?3, direction = ?4, group_name = ?5, unit = ?6,
            routine = ?7, proof_required = ?8, start_day = ?9, description = ?12, question = ?13, colour = ?14, icon = ?15,
            position = ?16 WHERE id = ?10
            """)
        try atomically { () throws(HabitError) in
            guard let current = try habit(id: id) else { throw .notFound("no habit with id \(id)") }
            bindSpec(statement, spec)
            statement.bind(10, id)
            try mapNameConflict(spec.name) { () throws(HabitError) in try statement.run() }
            let global = try requireGlobalId(.habit, id)
            let old = current.spec
            var changed: [(HabitField, SyncValue)] = []
            if old.name != spec.name { changed.append((.name, .text(spec.name))) }
            if old.target != spec.target { changed.append((.target, .double(spec.target))) }
            if old.direction != spec.direction { changed.append((.direction, .int(Int64(spec.direction.rawValue)))) }
            if old.group != spec.group { changed.append((.group, spec.group.map(SyncValue.text) ?? .null)) }
            if old.unit != spec.unit { changed.append((.unit, spec.unit.map(SyncValue.text) ?? .null)) }
            if old.routine != spec.routine { changed.append((.routine, .int(Int64(spec.routine.rawValue)))) }
            if old.proofRequired != spec.proofRequired { changed.append((.proofRequired, .int(spec.proofRequired ? 1 : 0))) }
            if old.startDay != spec.startDay { changed.append((.startDay, .int(Int64(spec.startDay)))) }
            for (field, value) in changed {
                try logRegister(.habitField(habit: global, field: field, value: value), target: Self.fieldTarget(global, field))
            }
            try logDisplay(of: global, from: old.display, to: spec.display)
        }
    }

    package func setArchived(id: Int64, day: Int32?, name: String) throws(HabitError) {
        let statement = try db.statement("UPDATE habits SET archived_day = ?1 WHERE id = ?2")
        statement.bind(1, day.map(Int64.init))
        statement.bind(2, id)
        try atomically { () throws(HabitError) in
            try mapNameConflict(name) { () throws(HabitError) in try statement.run() }
            let global = try requireGlobalId(.habit, id)
            try logRegister(
                .habitField(habit: global, field: .archivedDay, value: day.map { .int(Int64($0)) } ?? .null),
                target: Self.fieldTarget(global, .archivedDay))
        }
    }

    /// Records the judging settings in force from version.fromDay on (replacing the
    /// version set for the same day), logged for sync as one register per habit and day.
    package func setVersion(habitId: Int64, _ version: SettingsVersion) throws(HabitError) {
        try atomically { () throws(HabitError) in
            try writeVersion(habitId: habitId, version)
            let global = try requireGlobalId(.habit, habitId)
            try logRegister(.settingsVersion(habit: global, version: version), target: Self.versionTarget(global, version.fromDay))
        }
    }

    func writeVersion(habitId: Int64, _ version: SettingsVersion) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT INTO habit_versions(habit_id, from_day, schedule, target, direction, proof_required, group_name, archived)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT(habit_id, from_day) DO UPDATE SET schedule = excluded.schedule, target = excluded.target,
            direction = excluded.direction, proof_required = excluded.proof_required, group_name = excluded.group_name,
            archived = excluded.archived
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(version.fromDay))
        statement.bind(3, version.schedule.description)
        statement.bind(4, version.target)
        statement.bind(5, Int64(version.direction.rawValue))
        statement.bind(6, Int64(version.proofRequired ? 1 : 0))
        statement.bind(7, version.group)
        statement.bind(8, Int64(version.archived ? 1 : 0))
        try statement.run()
    }

    package func habit(id: Int64) throws(HabitError) -> Habit? {
        try withVersions(try habitRow(id: id))
    }

    private func habitRow(id: Int64) throws(HabitError) -> Habit? {
        let statement = try db.statement(text: Self.habitByIdQuery)
        statement.bind(1, id)
        return try statement.one(readHabitRow)
    }

    /// What folding a habit's entries into days reads of it (kind, target, direction,
    /// proof required, routine, start day, and the versions of target, direction and
    /// proof), for a caller that decides nothing by its schedule, text or display (a
    /// shield ask): name reads "", group, unit and the display nil, the schedule
    /// .daily. Whatever asks whether a day is due reads habit(id:). A cold reader's
    /// ask reads a few such rows, so it prepares and decodes no column it does not use.
    package func habitFoldSpec(id: Int64) throws(HabitError) -> (spec: HabitSpec, versions: [SettingsVersion])? {
        guard let spec = try habitFoldRow(id: id) else { return nil }
        return (spec, try versions(habitId: id))
    }

    private func habitFoldRow(id: Int64) throws(HabitError) -> HabitSpec? {
        let statement = try db.statement("SELECT kind, target, direction, routine, proof_required, start_day FROM habits WHERE id = ?1")
        statement.bind(1, id)
        return try statement.one { (s) throws(HabitError) -> HabitSpec in
            guard let kind = HabitKind(rawValue: Int32(clamping: s.int(0))),
                let direction = Direction(rawValue: Int32(clamping: s.int(2))),
                let routine = RoutineTime(rawValue: Int32(clamping: s.int(3))),
                let startDay = Int32(exactly: s.int(5))
            else { throw .corrupt("habit \(id): a stored field is out of range") }
            return HabitSpec(
                name: "", kind: kind, target: s.double(1), direction: direction, group: nil, unit: nil,
                routine: routine, proofRequired: s.int(4) != 0, startDay: startDay, schedule: .daily)
        }
    }

    package func activeHabit(named name: String) throws(HabitError) -> Habit? {
        let statement = try db.statement(text: "SELECT \(Store.habitColumns) FROM habits WHERE name = ?1 COLLATE NOCASE AND archived_day IS NULL")
        statement.bind(1, name)
        return try withVersions(try statement.one(readHabitRow))
    }

    package func habits(includeArchived: Bool) throws(HabitError) -> [Habit] {
        let filter = includeArchived ? "" : " WHERE archived_day IS NULL"
        let statement = try db.statement(text: "SELECT \(Store.habitColumns) FROM habits\(filter) ORDER BY id")
        var result: [Habit] = []
        // Versions come from a second statement, once the first is done.
        for habit in try statement.all(readHabitRow) {
            if let complete = try withVersions(habit) { result.append(complete) }
        }
        return result
    }

    /// A habit's versions of its judging settings, oldest first.
    package func versions(habitId: Int64) throws(HabitError) -> [SettingsVersion] {
        let statement = try db.statement(
            """
            SELECT from_day, schedule, target, direction, proof_required, group_name, archived FROM habit_versions
            WHERE habit_id = ?1 ORDER BY from_day
            """)
        statement.bind(1, habitId)
        return try statement.all { (row) throws(HabitError) -> SettingsVersion in
            guard let day = Int32(exactly: row.int(0)), let text = row.text(1),
                let direction = Direction(rawValue: Int32(clamping: row.int(3)))
            else { throw .corrupt("habit \(habitId): bad settings version row") }
            do throws(HabitError) {
                return SettingsVersion(
                    fromDay: day, schedule: try Schedule(parsing: text), target: row.double(2), direction: direction,
                    proofRequired: row.int(4) != 0, group: row.text(5), archived: row.int(6) != 0)
            } catch {
                throw .corrupt("habit \(habitId): stored schedule is invalid: \(error.message)")
            }
        }
    }

    func bindSpec(_ statement: Statement, _ spec: HabitSpec) {
        statement.bind(1, spec.name)
        statement.bind(2, Int64(spec.kind.rawValue))
        statement.bind(3, spec.target)
        statement.bind(4, Int64(spec.direction.rawValue))
        statement.bind(5, spec.group)
        statement.bind(6, spec.unit)
        statement.bind(7, Int64(spec.routine.rawValue))
        statement.bind(8, Int64(spec.proofRequired ? 1 : 0))
        statement.bind(9, Int64(spec.startDay))
        // 10 and 11 are the caller's; the display fields follow them.
        statement.bind(12, spec.display.description)
        statement.bind(13, spec.display.question)
        statement.bind(14, spec.display.colour)
        statement.bind(15, spec.display.icon)
        statement.bind(16, spec.display.position)
    }

    private func mapNameConflict(_ name: String, _ body: () throws(HabitError) -> Void) throws(HabitError) {
        do throws(HabitError) { try body() } catch  where error.code == .conflict {
            throw .conflict("an active habit is already named '\(name)'")
        }
    }

    /// The habit with its versions, the last one being the settings in force: its
    /// judging fields are the spec's (the row's own copies are what it was created with
    /// and last edited to; the versions decide).
    private func withVersions(_ row: Habit?) throws(HabitError) -> Habit? {
        guard var habit = row else { return nil }
        habit.versions = try versions(habitId: habit.id)
        if let current = habit.versions.last { habit.spec = habit.spec.judged(by: current) }
        return habit
    }

    /// A habit row without its versions (the caller reads those).
    private func readHabitRow(_ s: Statement) throws(HabitError) -> Habit {
        let id = s.int(0)
        guard let kind = HabitKind(rawValue: Int32(clamping: s.int(2))),
            let direction = Direction(rawValue: Int32(clamping: s.int(4))),
            let routine = RoutineTime(rawValue: Int32(clamping: s.int(7))),
            let startDay = Int32(exactly: s.int(9)), let name = s.text(1)
        else { throw .corrupt("habit \(id): a stored field is out of range") }
        let spec = HabitSpec(
            name: name, kind: kind, target: s.double(3), direction: direction, group: s.text(5), unit: s.text(6),
            routine: routine, proofRequired: s.int(8) != 0, startDay: startDay, schedule: .daily,
            display: HabitDisplay(
                description: s.text(12), question: s.text(13), colour: s.text(14), icon: s.text(15),
                position: s.int(16)))
        let archived = s.optionalInt(10).flatMap { Int32(exactly: $0) }
        return Habit(id: id, spec: spec, archivedDay: archived, createdAtMs: s.int(11), versions: [])
    }

    // MARK: Vacations

    package func insertVacation(habitId: Int64?, from: Int32, to: Int32) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeVacation(habitId: habitId, from: from, to: to)
            try logLocal(
                .vacationAdd(habit: try habitId.map { (h) throws(HabitError) in try requireGlobalId(.habit, h) }, first: from, last: to),
                creates: .vacation, localId: id)
            return id
        }
    }

    func writeVacation(habitId: Int64?, from: Int32, to: Int32) throws(HabitError) -> Int64 {
        let statement = try db.statement("INSERT INTO vacations(habit_id, from_day, to_day) VALUES(?1, ?2, ?3)")
        statement.bind(1, habitId)
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        try statement.run()
        return db.lastInsertRowId
    }

    /// Removes a vacation; false when there was none with that id.
    package func deleteVacation(id: Int64) throws(HabitError) -> Bool {
        try atomically { () throws(HabitError) -> Bool in
            let global = try globalId(.vacation, id)
            guard try removeVacationRow(id: id) else { return false }
            // Observed-remove: the removal names the add it saw, so a concurrent add of another vacation survives.
            if let global {
                try tombstone(global)
                try logLocal(.vacationRemove(vacation: global))
            }
            return true
        }
    }

    func removeVacationRow(id: Int64) throws(HabitError) -> Bool {
        let statement = try db.statement("DELETE FROM vacations WHERE id = ?1")
        statement.bind(1, id)
        try statement.run()
        guard db.changes > 0 else { return false }
        // Its local id may be taken again; its global id stays removed (sync_removed).
        try db.statement("UPDATE sync_ops SET local_id = NULL WHERE kind = 5 AND local_id = ?1").binding(id).run()
        return true
    }

    package func vacations() throws(HabitError) -> [Vacation] {
        try db.statement("SELECT id, habit_id, from_day, to_day FROM vacations ORDER BY from_day, id").all { (row) throws(HabitError) -> Vacation in
            guard let from = Int32(exactly: row.int(2)), let to = Int32(exactly: row.int(3)) else { throw .corrupt("vacation \(row.int(0)) is out of range") }
            return Vacation(id: row.int(0), habitId: row.optionalInt(1), first: from, last: to)
        }
    }

    // MARK: Entries

    static let entryColumns = "id, habit_id, day, kind, value, recorded_at_ms, source, undoes, note"

    package func insertEntry(
        habitId: Int64, day: Int32, kind: EntryKind, value: Double, recordedAtMs: Int64,
        source: EntrySource, undoes: Int64?, note: String?
    ) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeEntry(
                habitId: habitId, day: day, kind: kind, value: value, recordedAtMs: recordedAtMs, source: source, undoes: undoes, note: note)
            try logEntry(
                Entry(id: id, habitId: habitId, day: day, kind: kind, value: value, recordedAtMs: recordedAtMs, source: source, undoes: undoes, note: note))
            return id
        }
    }

    func writeEntry(
        habitId: Int64, day: Int32, kind: EntryKind, value: Double, recordedAtMs: Int64,
        source: EntrySource, undoes: Int64?, note: String?
    ) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO entries(habit_id, day, kind, value, recorded_at_ms, source, undoes, note)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(day))
        statement.bind(3, Int64(kind.rawValue))
        statement.bind(4, value)
        statement.bind(5, recordedAtMs)
        statement.bind(6, Int64(source.rawValue))
        statement.bind(7, undoes)
        statement.bind(8, note)
        try statement.run()
        return db.lastInsertRowId
    }

    /// The entry a retry key first appended, if any.
    package func entryId(forKey key: String) throws(HabitError) -> Int64? {
        let statement = try db.statement("SELECT entry_id FROM entry_keys WHERE key = ?1")
        statement.bind(1, key)
        return try statement.one { $0.int(0) }
    }

    /// The retry key an entry was appended with, if any.
    package func key(ofEntry entryId: Int64) throws(HabitError) -> String? {
        let statement = try db.statement("SELECT key FROM entry_keys WHERE entry_id = ?1")
        statement.bind(1, entryId)
        return try statement.one { $0.text(0) } ?? nil
    }

    /// Every retry key, by the entry it appended.
    package func entryKeys() throws(HabitError) -> [Int64: String] {
        var keys: [Int64: String] = [:]
        for (id, key) in try db.statement("SELECT entry_id, key FROM entry_keys").all({ ($0.int(0), $0.text(1) ?? "") }) { keys[id] = key }
        return keys
    }

    package func insertEntryKey(_ key: String, entryId: Int64) throws(HabitError) {
        let statement = try db.statement("INSERT INTO entry_keys(key, entry_id) VALUES(?1, ?2)")
        statement.bind(1, key)
        statement.bind(2, entryId)
        try statement.run()
    }

    package func entry(id: Int64) throws(HabitError) -> Entry? {
        let statement = try db.statement(text: "SELECT \(Store.entryColumns) FROM entries WHERE id = ?1")
        statement.bind(1, id)
        return try statement.one(readEntry)
    }

    /// The ids of the first `limit` entries after `id`, in order.
    package func entryIds(after id: Int64, limit: Int64) throws(HabitError) -> [Int64] {
        let statement = try db.statement("SELECT id FROM entries WHERE id > ?1 ORDER BY id LIMIT ?2")
        statement.bind(1, id)
        statement.bind(2, limit)
        return try statement.all { $0.int(0) }
    }

    /// The id of the undo entry that cancelled entryId, if any.
    package func undoOf(entryId: Int64) throws(HabitError) -> Int64? {
        let statement = try db.statement("SELECT id FROM entries WHERE undoes = ?1")
        statement.bind(1, entryId)
        return try statement.one { $0.int(0) }
    }

    /// Every entry in id order, one at a time (an export of a million entries holds one).
    package func eachEntry(_ body: (Entry) throws(HabitError) -> Void) throws(HabitError) {
        try db.statement(text: "SELECT \(Store.entryColumns) FROM entries ORDER BY id").each { (row) throws(HabitError) in try body(try readEntry(row)) }
    }

    package func entryCount() throws(HabitError) -> Int64 {
        try db.statement("SELECT count(*) FROM entries").one { $0.int(0) } ?? 0
    }

    /// Entries of one habit (or all, when habitId is nil) with from <= day <= to, in append order.
    package func entries(habitId: Int64?, from: Int32, to: Int32) throws(HabitError) -> [Entry] {
        let statement: Statement
        if let habitId {
            statement = try db.statement(text: "SELECT \(Store.entryColumns) FROM entries WHERE habit_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY id")
            statement.bind(1, habitId)
        } else {
            statement = try db.statement(text: "SELECT \(Store.entryColumns) FROM entries WHERE day BETWEEN ?2 AND ?3 ORDER BY id")
        }
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        return try statement.all(readEntry)
    }

    /// Entries of one habit with from <= day <= to by day, each day's in append order:
    /// the entries_fold index's own order, so SQLite sorts nothing (a cold reader's
    /// ask reads a few days of each habit a rule names this way). What a shield reads:
    /// as foldEntries, with recordedAtMs (when a day was done); note is not read (nil).
    package func entriesByDay(habitId: Int64, from: Int32, to: Int32) throws(HabitError) -> [Entry] {
        let statement = try db.statement(
            """
            SELECT id, day, kind, value, source, undoes, recorded_at_ms FROM entries
            WHERE habit_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day, id
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        return try statement.all { (s) throws(HabitError) -> Entry in
            var entry = try readFoldEntry(s, habitId: habitId)
            entry.recordedAtMs = s.int(6)
            return entry
        }
    }

    /// What the day fold reads of one habit's entries with from <= day <= to, in
    /// (day, append) order, straight from the entries_fold index: no table row, no
    /// text. recordedAtMs and note are not read (0 and nil).
    package func foldEntries(habitId: Int64, from: Int32, to: Int32) throws(HabitError) -> [Entry] {
        let statement = try db.statement(
            """
            SELECT id, day, kind, value, source, undoes FROM entries INDEXED BY entries_fold
            WHERE habit_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day, id
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        return try statement.all { (s) throws(HabitError) -> Entry in try readFoldEntry(s, habitId: habitId) }
    }

    /// A row of (id, day, kind, value, source, undoes, ...) as an entry of `habitId`
    /// without its instant (0) or note (nil).
    private func readFoldEntry(_ s: Statement, habitId: Int64) throws(HabitError) -> Entry {
        let id = s.int(0)
        guard let day = Int32(exactly: s.int(1)), let kind = EntryKind(rawValue: Int32(clamping: s.int(2))),
            let source = EntrySource(rawValue: Int32(clamping: s.int(4)))
        else { throw .corrupt("entry \(id): a stored field is out of range") }
        return Entry(
            id: id, habitId: habitId, day: day, kind: kind, value: s.double(3), recordedAtMs: 0,
            source: source, undoes: s.optionalInt(5), note: nil)
    }

    func readEntry(_ s: Statement) throws(HabitError) -> Entry {
        let id = s.int(0)
        guard let day = Int32(exactly: s.int(2)), let kind = EntryKind(rawValue: Int32(clamping: s.int(3))),
            let source = EntrySource(rawValue: Int32(clamping: s.int(6)))
        else { throw .corrupt("entry \(id): a stored field is out of range") }
        return Entry(
            id: id, habitId: s.int(1), day: day, kind: kind, value: s.double(4), recordedAtMs: s.int(5),
            source: source, undoes: s.optionalInt(7), note: s.text(8))
    }
}
