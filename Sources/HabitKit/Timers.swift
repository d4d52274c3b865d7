import CHabitCore

/// Where a timer stands at an instant (hc_timer_status): its state, its running time,
/// and what it adds to its day once stopped.
public struct TimerStatus: Sendable, Hashable {
    public var id: TimerID
    public var habitID: HabitID
    public var state: TimerState
    /// The instant answered for.
    public var atMs: Int64
    public var startedAtMs: Int64
    /// Running milliseconds: through atMs while it runs or is paused, through its end once ended.
    public var elapsedMs: Int64
    /// When it stopped, completed itself or was discarded; nil while it runs or is paused.
    public var endedAtMs: Int64?
    /// What it adds to its day: whole seconds once stopped, else 0.
    public var seconds: Int64
    /// The day its time counts to (the day of its start).
    public var day: Day
    /// Started to stop itself at the day's target, and whether it did.
    public var autoComplete: Bool
    public var completed: Bool

    init(_ c: hc_timer_status) {
        id = TimerID(c.id)
        habitID = HabitID(c.habit_id)
        state = TimerState(rawValue: c.state)
        atMs = c.at_ms
        startedAtMs = c.started_at_ms
        elapsedMs = c.elapsed_ms
        endedAtMs = c.ended_at_ms != 0 ? c.ended_at_ms : nil
        seconds = c.seconds
        day = Day(rawValue: c.day)
        autoComplete = c.flags & HC_TIMER_AUTO_COMPLETE != 0
        completed = c.completed != 0
    }
}

extension Store {
    /// Starts a timer on a duration habit at atMs (0: now) (hc_timer_start); with
    /// autoComplete it stops itself when its running time reaches the day's target.
    /// Throws .invalid (not a duration habit, archived), .notFound.
    public func startTimer(habitID: HabitID, autoComplete: Bool = false, atMs: Int64 = 0) throws(HabitError) -> TimerID {
        try withHandle { store throws(HabitError) in
            var id: Int64 = 0
            try check(hc_timer_start(&id, store, habitID.rawValue, autoComplete ? HC_TIMER_AUTO_COMPLETE : 0, atMs))
            return TimerID(id)
        }
    }

    /// Pauses, resumes, stops or discards a timer at atMs (0: now) (hc_timer_act).
    /// Throws .invalid (a start, a time before the start), .notFound, .conflict (already
    /// paused, running, stopped or discarded).
    public func actOnTimer(_ id: TimerID, _ action: TimerAction, atMs: Int64 = 0) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_timer_act(store, id.rawValue, action.rawValue, atMs)) }
    }

    /// Where a timer stands at atMs (0: now) (hc_timer_status_get). Throws .notFound.
    public func timerStatus(_ id: TimerID, atMs: Int64 = 0) throws(HabitError) -> TimerStatus {
        try withHandle { store throws(HabitError) in
            var out = hc_timer_status()
            try check(hc_timer_status_init(&out, UInt32(MemoryLayout<hc_timer_status>.size)))
            try check(hc_timer_status_get(&out, store, id.rawValue, atMs))
            return TimerStatus(out)
        }
    }

    /// The timers running or paused at atMs (0: now), oldest first (hc_timer_list_open).
    public func runningTimers(atMs: Int64 = 0) throws(HabitError) -> [TimerStatus] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_timer_list_open(&list, store, atMs))
            defer { hc_timer_list_free(list) }
            return try elements(of: list, { hc_timer_list_count($0, $1) }, { hc_timer_list_get($0, $1, $2) }, TimerStatus.init)
        }
    }
}
