import CHabitCore

/// Something an app tells its user about, recorded once in the store (hc_event).
public struct Event: Sendable, Hashable, Identifiable {
    /// Increasing: a reader keeps the last one it handled as its cursor.
    public var id: EventID
    /// What it announces.
    public var kind: EventKind
    /// When the entry that caused it was recorded (UTC ms).
    public var atMs: Int64
    /// The day it is about.
    public var day: Day
    /// A reader acknowledged it.
    public var acknowledged: Bool
    /// Its habit; nil when none.
    public var habitID: HabitID?
    /// Its entry; nil when none.
    public var entryID: EntryID?
    /// The kind's figure: a threshold, a length, a total or an outcome.
    public var value: Double
    /// .awardUnlocked: the award.
    public var awardID: String?

    init(_ e: hc_event) {
        id = EventID(e.id)
        kind = EventKind(rawValue: e.kind)
        atMs = e.at_ms
        day = Day(rawValue: e.day)
        acknowledged = e.acknowledged != 0
        habitID = HabitID(nonZero: e.habit_id)
        entryID = EntryID(nonZero: e.entry_id)
        value = e.value
        awardID = copied(e.award_id)
    }
}

extension Store {
    /// Events with an id after afterID (nil: from the first), oldest first, at most limit (1...10000),
    /// recording the new ones first; with acknowledge, only events no reader has
    /// acknowledged, acknowledged in the same transaction so each goes to exactly
    /// one reader (hc_event_list_read). Throws .invalid, .readOnly (acknowledge on a
    /// read-only store).
    public func events(after afterID: EventID? = nil, limit: Int64 = 100, acknowledge: Bool = false) throws(HabitError) -> [Event] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_event_list_read(&list, store, afterID.rawValueOrZero(), limit, acknowledge ? HC_EVENTS_ACK : 0))
            defer { hc_event_list_free(list) }
            return try elements(of: list, { hc_event_list_count($0, $1) }, { hc_event_list_get($0, $1, $2) }, Event.init)
        }
    }
}
