import CSQLite
import HabitCore
import HabitPlatform

/// One SQLite connection with a cache of prepared statements. Not thread-safe:
/// the engine's owner serialises calls on it.
package final class Database {
    private var db: OpaquePointer?
    /// Room from the start for the statements one ask prepares (a cold shield ask,
    /// about 15), so the cache is not rehashed as it fills.
    private var cache = [String: OpaquePointer](minimumCapacity: 32)
    /// The same, for SQL written in the source: keyed by the literal's address, so a
    /// hot call (each append runs about eight) hashes a pointer, not the whole text.
    private var literalCache = [UnsafeRawPointer: OpaquePointer](minimumCapacity: 64)
    /// How long a statement waits for another connection's lock, and when this wait began.
    package private(set) var busyTimeoutMs: Int32 = 0
    private var busySinceNs: Int64 = 0

    /// Opens the file; `create` makes it when missing. A busy lock is waited for
    /// up to busyTimeoutMs.
    package init(path: String, readOnly: Bool, create: Bool, busyTimeoutMs: Int32) throws(HabitError) {
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        if !readOnly, access(path, F_OK) == 0, access(path, W_OK) != 0 {
            // SQLite would open it read-only anyway and leave a -shm with the file's 0444
            // mode that blocks later opens: refuse before anything is created.
            let reason = String(cString: strerror(errno)).lowercased()
            throw HabitError(.readOnly, "cannot write store '\(path)': \(reason) (commands that only read open it read-only)")
        }
        var target = path
        if readOnly && ReadOnlyAccess.needsImmutableOpen(path) {
            target = ReadOnlyAccess.immutableURI(path)
            flags |= SQLITE_OPEN_URI
        }
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(target, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw Database.error(status, "cannot open store '\(path)': \(message)")
        }
        db = handle
        sqlite3_extended_result_codes(handle, 1)
        self.busyTimeoutMs = busyTimeoutMs
        sqlite3_busy_handler(handle, Database.busyHandler, Unmanaged.passUnretained(self).toOpaque())
    }

    /// How long a statement waits for another connection's lock before SQLITE_BUSY.
    package func setBusyTimeout(_ ms: Int32) {
        busyTimeoutMs = ms
    }

    /// SQLite's own busy handler sleeps 1, 2, 5, 10... ms between tries: a writer
    /// that meets another's commit of a few dozen microseconds (an emergency unlock
    /// from an extension) lost a millisecond or more each time. This one retries
    /// after 50 us, backing off to 1 ms, until the timeout.
    private static let busyHandler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, count in
        guard let context else { return 0 }
        return Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().waitAfterBusy(count) ? 1 : 0
    }

    private func waitAfterBusy(_ count: Int32) -> Bool {
        let nowNs = MonotonicClock.nanoseconds()
        if count == 0 { busySinceNs = nowNs }
        let leftUs = (Int64(busyTimeoutMs) * 1_000_000 - (nowNs - busySinceNs)) / 1000
        guard leftUs > 0 else { return false }
        let stepUs: Int64 = count < 20 ? 50 : (count < 60 ? 200 : 1000)
        usleep(UInt32(min(stepUs, leftUs)))
        return true
    }

    /// Keeps the -wal and -shm files when the last connection closes (SQLite's
    /// persistent WAL), so a reader that may not create them can still open the store.
    package func persistWAL() throws(HabitError) {
        guard let db else { throw HabitError(.misuse, "the store is closed") }
        var on: Int32 = 1
        let status = sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
        // An in-memory database has no files to keep.
        guard status == SQLITE_OK || status == SQLITE_NOTFOUND else { throw lastError(status) }
    }

    /// Rows this connection has inserted, updated or deleted since it opened
    /// (rolled-back ones included): with PRAGMA data_version, which moves on other
    /// connections' commits, a stamp that changes with every write to the file.
    package var totalChanges: Int64 { db.map { sqlite3_total_changes64($0) } ?? 0 }

    deinit { close() }

    package func close() {
        for statement in cache.values { sqlite3_finalize(statement) }
        for statement in literalCache.values { sqlite3_finalize(statement) }
        cache.removeAll()
        literalCache.removeAll()
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    /// Copies the whole database into a new file at path (0600) with SQLite's online
    /// backup API: a consistent copy even while other connections write.
    /// `then`: SQL run on the copy once it is complete (before it is closed).
    package func backup(to path: String, then: String? = nil) throws(HabitError) {
        guard let db else { throw HabitError(.misuse, "the store is closed") }
        let fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw errno == EEXIST
                ? HabitError.conflict("'\(path)' exists: a backup never overwrites a file")
                : errno == ENOENT
                    ? HabitError.notFound("cannot create '\(path)': its folder does not exist")
                    : HabitError(.io, "cannot create '\(path)': \(reason)")
        }
        posixClose(fd)
        var target: OpaquePointer?
        var status = sqlite3_open_v2(path, &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        if status == SQLITE_OK, let target, let backup = sqlite3_backup_init(target, "main", db, "main") {
            repeat {
                status = sqlite3_backup_step(backup, -1)
                if status == SQLITE_BUSY || status == SQLITE_LOCKED { sqlite3_sleep(20) }
            } while status == SQLITE_OK || status == SQLITE_BUSY || status == SQLITE_LOCKED
            sqlite3_backup_finish(backup)
            if status == SQLITE_DONE { status = sqlite3_errcode(target) }
            if status == SQLITE_OK || status == SQLITE_DONE, let then { status = sqlite3_exec(target, then, nil, nil, nil) }
        } else if status == SQLITE_OK {
            status = target.map { sqlite3_errcode($0) } ?? SQLITE_CANTOPEN
        }
        let message = target.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
        sqlite3_close_v2(target)
        guard status == SQLITE_OK || status == SQLITE_DONE else {
            unlink(path)
            throw Database.error(status, "cannot back up to '\(path)': \(message)")
        }
    }

    /// Runs SQL without results (several statements allowed).
    package func execute(_ sql: String) throws(HabitError) {
        guard let db else { throw HabitError(.misuse, "the store is closed") }
        let status = sqlite3_exec(db, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw lastError(status) }
    }

    /// A cached prepared statement of SQL written in the source, reset and with its
    /// bindings cleared.
    package func statement(_ sql: StaticString) throws(HabitError) -> Statement {
        guard sql.hasPointerRepresentation else { return try statement(text: sql.description) }
        let key = UnsafeRawPointer(sql.utf8Start)
        if let cached = literalCache[key] { return try reused(cached) }
        let handle = try prepare(sql.description)
        literalCache[key] = handle
        return Statement(handle: handle, database: self)
    }

    /// A cached prepared statement of SQL built at run time (keyed by its text).
    package func statement(text sql: String) throws(HabitError) -> Statement {
        if let cached = cache[sql] { return try reused(cached) }
        let handle = try prepare(sql)
        cache[sql] = handle
        return Statement(handle: handle, database: self)
    }

    private func reused(_ cached: OpaquePointer) throws(HabitError) -> Statement {
        guard db != nil else { throw HabitError(.misuse, "the store is closed") }
        sqlite3_reset(cached)
        sqlite3_clear_bindings(cached)
        return Statement(handle: cached, database: self)
    }

    private func prepare(_ sql: String) throws(HabitError) -> OpaquePointer {
        guard let db else { throw HabitError(.misuse, "the store is closed") }
        var handle: OpaquePointer?
        let status = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard status == SQLITE_OK, let handle else { throw lastError(status) }
        return handle
    }

    package var lastInsertRowId: Int64 { db.map { sqlite3_last_insert_rowid($0) } ?? 0 }
    package var changes: Int32 { db.map { sqlite3_changes($0) } ?? 0 }
    package var isAutocommit: Bool { db.map { sqlite3_get_autocommit($0) != 0 } ?? true }

    package func lastError(_ status: Int32) -> HabitError {
        var message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
        // An I/O error says which: a full disk, the file size limit (ulimit -f), ...
        if status & 0xFF == SQLITE_IOERR || status & 0xFF == SQLITE_FULL, let db, sqlite3_system_errno(db) != 0 {
            message += " (\(String(cString: strerror(sqlite3_system_errno(db)))))"
        }
        return Database.error(status, "SQLite: \(message)")
    }

    /// Turns SQLite's memory statistics off for the whole process: each of SQLite's
    /// allocations then skips its global memory mutex. Only before SQLite is
    /// initialised (hc_process_disable_sqlite_statistics says who may call it).
    package static func disableMemoryStatistics() throws(HabitError) {
        guard habitcore_sqlite_config_memstatus(0) == SQLITE_OK else {
            throw HabitError(.misuse, "SQLite is already initialised in this process: its memory statistics stay on")
        }
    }

    /// Maps a SQLite result code to ours.
    package static func error(_ status: Int32, _ message: String) -> HabitError {
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return HabitError(.busy, message)
        case SQLITE_READONLY: return HabitError(.readOnly, message)
        case SQLITE_CORRUPT, SQLITE_NOTADB: return HabitError(.corrupt, message)
        case SQLITE_NOMEM: return HabitError(.noMemory, message)
        case SQLITE_CONSTRAINT: return HabitError(.conflict, message)
        case SQLITE_CANTOPEN: return HabitError(.notFound, message)
        case SQLITE_MISUSE: return HabitError(.internal, message)
        default: return HabitError(.io, message)
        }
    }
}

/// A prepared statement in use. Bind with 1-based indices, then step.
package struct Statement {
    let handle: OpaquePointer
    unowned let database: Database

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    package func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    package func bind(_ index: Int32, _ value: Double) {
        sqlite3_bind_double(handle, index, value)
    }

    package func bind(_ index: Int32, _ value: String?) {
        if let value { sqlite3_bind_text(handle, index, value, -1, Statement.transient) } else { sqlite3_bind_null(handle, index) }
    }

    package func bind(_ index: Int32, blob value: [UInt8]?) {
        guard let value else { sqlite3_bind_null(handle, index); return }
        value.withUnsafeBytes { _ = sqlite3_bind_blob64(handle, index, $0.baseAddress, sqlite3_uint64($0.count), Statement.transient) }
    }

    package func binding(blob value: [UInt8]) -> Statement { bind(1, blob: value); return self }
    package func binding(_ value: Int64) -> Statement { bind(1, value); return self }
    package func reset() { sqlite3_reset(handle) }

    /// Steps once: true when a row is ready, false when done.
    package func step() throws(HabitError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.lastError(status)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    package func run() throws(HabitError) {
        _ = try step()
        sqlite3_reset(handle)
    }

    /// The first row read by `read`, or nil. The statement is reset afterwards:
    /// a statement left mid-rows would hold its read snapshot open, and the
    /// connection's next write would fail with SQLITE_BUSY_SNAPSHOT.
    package func one<T>(_ read: (Statement) throws(HabitError) -> T) throws(HabitError) -> T? {
        defer { sqlite3_reset(handle) }
        return try step() ? try read(self) : nil
    }

    /// Every row, read by `read`; the statement is reset afterwards.
    package func all<T>(_ read: (Statement) throws(HabitError) -> T) throws(HabitError) -> [T] {
        defer { sqlite3_reset(handle) }
        var rows: [T] = []
        while try step() { rows.append(try read(self)) }
        return rows
    }

    /// Each row in turn, read by `body`, without gathering them; reset afterwards.
    package func each(_ body: (Statement) throws(HabitError) -> Void) throws(HabitError) {
        defer { sqlite3_reset(handle) }
        while try step() { try body(self) }
    }

    /// Each row in turn while `body` returns true; reset afterwards.
    package func each(while body: (Statement) throws(HabitError) -> Bool) throws(HabitError) {
        defer { sqlite3_reset(handle) }
        while try step(), try body(self) {}
    }

    package func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    package var columnCount: Int32 { sqlite3_column_count(handle) }
    package func columnName(_ column: Int32) -> String { sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "" }
    /// A column's value as JSON: integers, reals, text, null; a blob as {"hex": "..."}.
    package func json(_ column: Int32) -> JSON {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .int(int(column))
        case SQLITE_FLOAT: .double(double(column))
        case SQLITE_TEXT: .string(text(column) ?? "")
        case SQLITE_BLOB: .object([("hex", .string(RunnerProtocol.hex(blob(column))))])
        default: .null
        }
    }
    package func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }

    package func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: pointer)
    }

    /// A blob column's bytes (empty for NULL or an empty blob).
    package func blob(_ column: Int32) -> [UInt8] {
        // sqlite3_column_blob before sqlite3_column_bytes: the order SQLite documents as safe.
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: max(0, count)))
    }
}
