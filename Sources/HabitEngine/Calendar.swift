import HabitCore
import HabitStore

/// The zone and day start as last read. The zone's rules are kept by name
/// across drops (loading them reads a file); the clock is read again.
struct CalendarCache {
    var zone: ZoneRules = .utc
    var clock: DayClock?
    mutating func drop() { clock = nil }
}

/// The store's home zone, day start and week start, and the local days they give.
extension Engine {
    // MARK: Settings and the clock

    enum SettingKey {
        static let timezone = "timezone"
        static let dayStart = "day_start_minutes"
        static let weekStart = "week_start"
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
        if let cached = caches.calendar.clock { return cached }
        let name = try timezoneName()
        if caches.calendar.zone.name != name { caches.calendar.zone = try ZoneDatabase.load(name) }
        let clock = DayClock(zone: caches.calendar.zone, dayStartMinutes: try dayStart())
        caches.calendar.clock = clock
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
        caches.calendar.zone = zone
        caches.calendar.drop()
    }

    package func dayStart() throws(HabitError) -> Int32 {
        guard let text = try store.setting(SettingKey.dayStart) else { return 0 }
        guard let minutes = Int32(text), (try? DayClock.validateDayStart(minutes)) != nil else {
            throw .corrupt("stored day start '\(text)' is invalid")
        }
        return minutes
    }

    package func setDayStart(_ minutes: Int32) throws(HabitError) {
        try DayClock.validateDayStart(minutes)
        try store.setSetting(SettingKey.dayStart, String(minutes))
        caches.calendar.drop()
    }

    /// The first day of a week: 0 = Sunday ... 6 = Saturday; Monday by default.
    package func weekStart() throws(HabitError) -> Int {
        guard let text = try store.setting(SettingKey.weekStart) else { return 1 }
        guard let weekday = Int64(text), (try? DayClock.validateWeekStart(weekday)) != nil else {
            throw .corrupt("stored week start '\(text)' is invalid")
        }
        return Int(weekday)
    }

    package func setWeekStart(_ weekday: Int32) throws(HabitError) {
        try DayClock.validateWeekStart(Int64(weekday))
        try store.setSetting(SettingKey.weekStart, String(weekday))
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
}
