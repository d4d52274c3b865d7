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
    /// The sync clock as the open write transaction moved it, written at its commit
    /// (saveClock). Kept through a savepoint's rollback (a stamp given and rolled back
    /// is never given again), dropped with the transaction's.
    var unsavedClock: Int64?
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
            if !options.readOnly {
                try Schema.installWriterTriggers(db)
            }
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
        unsavedClock = nil
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
        unsavedClock = nil
    }

    package func commit() throws(HabitError) {
        guard inExplicitTransaction else { throw HabitError(.misuse, "no transaction is open on this store") }
        try saveClock()
        try db.execute("COMMIT")
        inExplicitTransaction = false
        writeTail = WriteTail()
    }

    package func rollback() throws(HabitError) {
        guard inExplicitTransaction else { throw HabitError(.misuse, "no transaction is open on this store") }
        inExplicitTransaction = false
        writeTail = WriteTail()
        unsavedClock = nil
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
        if !nested {
            writeTail = WriteTail()
            unsavedClock = nil
        }
        atomicDepth += 1
        defer { atomicDepth -= 1 }
        do throws(HabitError) {
            let result = try body()
            if !nested { try saveClock() }
            try db.statement(nested ? "RELEASE hc_op" : "COMMIT").run()
            if !nested { writeTail = WriteTail() }
            return result
        } catch {
            try? db.execute(nested ? "ROLLBACK TO hc_op; RELEASE hc_op" : "ROLLBACK")
            writeTail = WriteTail()  // what it knew may have been rolled back
            if !nested { unsavedClock = nil }
            throw error
        }
    }

    /// Whether a transaction is open on this connection (explicit, or one of atomically's).
    package var inTransaction: Bool { !db.isAutocommit }

    /// Whether the open transaction ends in a commit that calls saveClock first: an
    /// explicit one or atomically's (a snapshot's BEGIN, for reads, does not).
    var commitSavesClock: Bool { inExplicitTransaction || atomicDepth > 0 }

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

}
