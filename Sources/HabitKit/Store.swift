import CHabitCore
import HabitPlatform

/// A habitcore store: one SQLite file, opened through include/habitcore.h. It closes
/// itself when the last reference goes; call close() to release the file now.
/// Several threads may share one Store (the library serialises calls on a handle);
/// a call on this Store from inside a closure it is running (a verifier, a progress
/// report) throws .misuse at once (the header's "Re-entrant calls").
public final class Store: @unchecked Sendable {
    /// How to open a store.
    public struct OpenOptions: OptionSet, Sendable {
        /// HC_OPEN_* bits.
        public let rawValue: UInt32
        /// Options with these HC_OPEN_* bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Never write; the file must exist (HC_OPEN_READONLY).
        public static let readOnly = OpenOptions(rawValue: HC_OPEN_READONLY)
        /// Fail with .notFound when the file does not exist (HC_OPEN_NOCREATE).
        public static let noCreate = OpenOptions(rawValue: HC_OPEN_NOCREATE)
        /// fsync every commit: survives power loss, slower (HC_OPEN_SYNC_FULL).
        public static let syncFull = OpenOptions(rawValue: HC_OPEN_SYNC_FULL)
    }

    /// Guards handle: close may come from any thread.
    private let lock = Lock()
    private var handle: OpaquePointer?
    /// The file this store was opened on.
    public let path: String

    /// Opens (and on first use creates) the store at path, migrating its schema forward
    /// (hc_store_open). Checks once per process that the running library speaks this
    /// HabitKit's ABI. Throws .invalid, .notFound, .io, .corrupt, .tooNew, .busy.
    public init(path: String, options: OpenOptions = []) throws(HabitError) {
        try HabitKitVersion.compatibility.get()
        var opened: OpaquePointer?
        try check(hc_store_open(&opened, path, options.rawValue))
        guard let opened else { throw HabitError(code: .internal, message: "hc_store_open gave HC_OK and no handle") }
        handle = opened
        self.path = path
    }

    deinit {
        if let handle { hc_store_close(handle) }
    }

    /// For a process whose SQLite serves habitcore alone (an extension, a widget):
    /// turns off SQLite's memory statistics process-wide, before any SQLite use, so
    /// cold opens and asks run faster (hc_process_disable_sqlite_statistics).
    /// Throws .misuse once SQLite is initialised in this process (nothing changed).
    public static func disableSQLiteStatistics() throws(HabitError) {
        try HabitKitVersion.compatibility.get()
        try check(hc_process_disable_sqlite_statistics())
    }

    /// Closes the file now (hc_store_close): an open transaction rolls back and the
    /// store's verifier closures are released. Later calls throw .misuse; closing
    /// again does nothing.
    public func close() throws(HabitError) {
        guard
            let closing = lock.locked({ () -> OpaquePointer? in
                defer { handle = nil }
                return handle
            })
        else { return }
        try check(hc_store_close(closing))
    }

    /// Runs body with the open handle, this Store kept alive until body returns (the
    /// optimiser may otherwise end it before the handle's last use).
    func withHandle<T>(_ body: (OpaquePointer) throws(HabitError) -> T) throws(HabitError) -> T {
        try withExtendedLifetime(self) { () throws(HabitError) -> T in
            guard let open = lock.locked({ handle }) else {
                throw HabitError(code: .misuse, message: "the store at \(path) is closed")
            }
            return try body(open)
        }
    }

    /// Runs body with the store's raw `hc_store *`, for a header function HabitKit does
    /// not bind: the handle is valid only inside body (the Store stays alive until it
    /// returns) and must not be closed there. Throws .misuse once the store is closed.
    public func withUnsafeHandle<T>(_ body: (OpaquePointer) throws(HabitError) -> T) throws(HabitError) -> T {
        try withHandle(body)
    }

    /// Today's day in the store's home zone, after its day start (hc_store_today).
    public func today() throws(HabitError) -> Day {
        try withHandle { store throws(HabitError) in
            var day: Int32 = 0
            try check(hc_store_today(&day, store))
            return Day(rawValue: day)
        }
    }

    /// The local day an instant (ms since 1970 UTC) falls on in the home zone, after
    /// the day start (hc_store_local_day).
    public func localDay(atMs utcMs: Int64) throws(HabitError) -> Day {
        try withHandle { store throws(HabitError) in
            var day: Int32 = 0
            try check(hc_store_local_day(&day, store, utcMs))
            return Day(rawValue: day)
        }
    }

    /// The UTC instant (ms) of a local wall time, `minute` minutes after midnight
    /// (0...1439) of `day` in the home zone: the inverse of localDay (hc_store_utc_ms,
    /// whose header comment says how skipped and repeated times read).
    public func utcMs(day: Day, minute: Int32) throws(HabitError) -> Int64 {
        try withHandle { store throws(HabitError) in
            var ms: Int64 = 0
            try check(hc_store_utc_ms(&ms, store, day.rawValue, minute))
            return ms
        }
    }

    /// The store's schema version (hc_store_schema_version).
    public func schemaVersion() throws(HabitError) -> Int32 {
        try withHandle { store throws(HabitError) in
            var version: Int32 = 0
            try check(hc_store_schema_version(&version, store))
            return version
        }
    }

    /// Sets the home time zone (an IANA name such as "Europe/Berlin") that decides
    /// which day an instant falls on (hc_store_set_timezone).
    public func setTimeZone(_ name: String) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_store_set_timezone(store, name)) }
    }

    /// The home time zone's name; "UTC" until set (hc_store_timezone).
    public func timeZone() throws(HabitError) -> String {
        try withHandle { store throws(HabitError) in
            var name: UnsafeMutablePointer<CChar>?
            try check(hc_store_timezone(&name, store))
            defer { hc_free(name) }
            return name.map { String(cString: $0) } ?? ""
        }
    }

    /// Sets when the day begins, in minutes after local midnight (0...1439): with 180,
    /// something done at 01:30 counts for the day before (hc_store_set_day_start).
    public func setDayStart(minutes: Int32) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_store_set_day_start(store, minutes)) }
    }

    /// When the day begins, in minutes after local midnight (hc_store_day_start).
    public func dayStart() throws(HabitError) -> Int32 {
        try withHandle { store throws(HabitError) in
            var minutes: Int32 = 0
            try check(hc_store_day_start(&minutes, store))
            return minutes
        }
    }

    /// How long calls wait for another connection's lock before .busy, in
    /// milliseconds, 0...600000 (hc_store_set_busy_timeout).
    public func setBusyTimeout(milliseconds: Int32) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_store_set_busy_timeout(store, milliseconds)) }
    }

    /// Runs body inside one transaction (hc_store_begin, then hc_store_commit, or
    /// hc_store_rollback when body throws).
    public func transaction<T>(_ body: () throws(HabitError) -> T) throws(HabitError) -> T {
        try withHandle { store throws(HabitError) in try check(hc_store_begin(store)) }
        do throws(HabitError) {
            let result = try body()
            try withHandle { store throws(HabitError) in try check(hc_store_commit(store)) }
            return result
        } catch {
            _ = try? withHandle { store throws(HabitError) in try check(hc_store_rollback(store)) }
            throw error
        }
    }
}

/// C strings that live as long as the arena: for structs with several string fields.
final class CStrings {
    private var owned: [UnsafeMutablePointer<CChar>] = []

    deinit { owned.forEach { free($0) } }

    /// A copy of text for the call, or NULL for nil. Text with a NUL byte is refused
    /// (C would see only what comes before it).
    func callAsFunction(_ text: String?, _ field: String) throws(HabitError) -> UnsafePointer<CChar>? {
        guard let text else { return nil }
        guard !text.utf8.contains(0) else { throw HabitError(code: .invalid, message: "\(field) holds a NUL byte") }
        guard let copy = strdup(text) else { throw HabitError(code: .noMemory, message: "no memory for \(field)") }
        owned.append(copy)
        return UnsafePointer(copy)
    }
}
