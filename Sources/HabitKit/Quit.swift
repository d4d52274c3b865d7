import CHabitCore

/// Where a quit habit stands (hc_quit_status): days since the last relapse, clean
/// runs, the allowance of the period holding the day, and what the clean days saved.
public struct QuitStatus: Sendable, Hashable {
    /// The day answered for, and the instant.
    public var asOf: Day
    public var atMs: Int64
    /// The last standing relapse's entry id, instant and day; nil when none.
    public var lastRelapseID: EntryID?
    public var lastRelapseMs: Int64?
    public var lastRelapseDay: Day?
    /// Calendar days from the last relapse's day (none: the start day).
    public var daysSince: Int32
    /// Milliseconds since the last relapse (none: the start day's first instant).
    public var sinceMs: Int64
    /// Clean days in a row through asOf, and the longest run with its days (nil when 0).
    public var currentCleanDays: Int32
    public var bestCleanDays: Int32
    public var bestCleanFirst: Day?
    public var bestCleanLast: Day?
    /// Clean days from the first day to asOf.
    public var cleanDays: Int32
    /// The allowance's period holding asOf, its days, its relapses and what it allows.
    public var period: QuitPeriod
    public var periodFirst: Day
    public var periodLast: Day
    public var periodRelapses: Int32
    public var allowance: Int32
    public var overAllowance: Bool
    /// Periods in a row within their allowance.
    public var periodsWithin: Int32
    /// Relapses in the week and the calendar month holding asOf.
    public var weekRelapses: Int32
    public var monthRelapses: Int32
    /// Standing relapses on or before asOf, and their amounts summed.
    public var relapses: Int64
    public var relapseAmount: Double
    /// What the clean days saved, in the habit's unit.
    public var saved: Double

    init(_ c: hc_quit_status) {
        asOf = Day(rawValue: c.as_of)
        atMs = c.at_ms
        let relapsed = c.last_relapse_id != 0
        lastRelapseID = relapsed ? EntryID(c.last_relapse_id) : nil
        lastRelapseMs = relapsed ? c.last_relapse_ms : nil
        lastRelapseDay = relapsed ? Day(rawValue: c.last_relapse_day) : nil
        daysSince = c.days_since
        sinceMs = c.since_ms
        currentCleanDays = c.current_clean_days
        bestCleanDays = c.best_clean_days
        bestCleanFirst = c.best_clean_days > 0 ? Day(rawValue: c.best_clean_first) : nil
        bestCleanLast = c.best_clean_days > 0 ? Day(rawValue: c.best_clean_last) : nil
        cleanDays = c.clean_days
        period = QuitPeriod(rawValue: c.period)
        periodFirst = Day(rawValue: c.period_first)
        periodLast = Day(rawValue: c.period_last)
        periodRelapses = c.period_relapses
        allowance = c.allowance
        overAllowance = c.over_allowance != 0
        periodsWithin = c.periods_within
        weekRelapses = c.week_relapses
        monthRelapses = c.month_relapses
        relapses = c.relapses
        relapseAmount = c.relapse_amount
        saved = c.saved
    }
}

extension Store {
    /// Where the quit habit stands at atMs (0: now) (hc_quit_status_get). Throws .invalid
    /// (not a quit habit), .notFound.
    public func quitStatus(habitID: HabitID, atMs: Int64 = 0) throws(HabitError) -> QuitStatus {
        try withHandle { store throws(HabitError) in
            var out = hc_quit_status()
            try check(hc_quit_status_init(&out, UInt32(MemoryLayout<hc_quit_status>.size)))
            try check(hc_quit_status_get(&out, store, habitID.rawValue, atMs))
            return QuitStatus(out)
        }
    }

    /// Logs a relapse of a quit habit at atMs (0: now), with an optional note, amount and
    /// retry key (an HC_ENTRY_RELAPSE entry); returns its id.
    public func relapse(habitID: HabitID, note: String? = nil, amount: Double = 0, atMs: Int64 = 0, key: String? = nil) throws(HabitError)
        -> EntryID
    {
        var entry = EntryInput(habitID: habitID, kind: .relapse, value: amount)
        entry.note = note
        entry.atMs = atMs
        entry.key = key
        return try append(entry)
    }
}
