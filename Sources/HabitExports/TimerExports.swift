import CHabitCore
import HabitCore
import HabitEngine

// Timers: events that time a duration habit (the rules are TimerRules').

/// What an hc_timer_list pointer stands for.
typealias TimerListBox = OwnedArray<hc_timer_status>

extension Convert {
    static func timerStatus(_ status: TimerStatus, atMs: Int64) -> hc_timer_status {
        hc_timer_status(
            struct_size: UInt32(MemoryLayout<hc_timer_status>.size), state: status.state.rawValue, id: status.start.id,
            habit_id: status.start.habitId, at_ms: atMs, started_at_ms: status.start.atMs, elapsed_ms: status.elapsedMs,
            ended_at_ms: status.endedAtMs ?? 0, seconds: TimerRules.seconds(status), day: status.start.day,
            flags: status.start.autoComplete ? HC_TIMER_AUTO_COMPLETE : 0, completed: status.completedByTarget ? 1 : 0)
    }
}

@c @implementation
public func hc_timer_start(_ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ habit_id: Int64, _ flags: UInt32, _ at_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try Convert.flags(flags, known: HC_TIMER_AUTO_COMPLETE)
        let id = try engine.startTimer(habitId: habit_id, autoComplete: flags & HC_TIMER_AUTO_COMPLETE != 0, atMs: Convert.instant(at_ms))
        out_id?.pointee = id
    }
}

@c @implementation
public func hc_timer_act(_ store: OpaquePointer?, _ timer_id: Int64, _ action: Int32, _ at_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        guard let action = TimerAction(rawValue: action), action != .start else {
            throw .invalid("timer action \(action) is not one of HC_TIMER_ACTION_PAUSE, _RESUME, _STOP, _DISCARD")
        }
        _ = try engine.actOnTimer(timer_id, action, atMs: Convert.instant(at_ms))
    }
}

@c @implementation
public func hc_timer_status_get(_ out: UnsafeMutablePointer<hc_timer_status>?, _ store: OpaquePointer?, _ timer_id: Int64, _ at_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        let atMs = Convert.instant(at_ms) ?? engine.now()
        result.pointee = Convert.timerStatus(try engine.timerStatus(timer_id, atMs: atMs), atMs: atMs)
    }
}

@c @implementation
public func hc_timer_list_open(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ at_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        let atMs = Convert.instant(at_ms) ?? engine.now()
        let box = try TimerListBox(
            try engine.openTimers(atMs: atMs),
            fill: { (target, status) throws(HabitError) in target.initialize(to: Convert.timerStatus(status, atMs: atMs)) },
            clear: { _ in })
        out.pointee = Registry.retain(box, .timerList)
    }
}

@c @implementation
public func hc_timer_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .timerList, "timer list: NULL, freed, or not from hc_timer_list_open", as: hc_timer_status.self)
}

@c @implementation
public func hc_timer_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_timer_status>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .timerList, "timer list: NULL, freed, or not from hc_timer_list_open")
}

@c @implementation
public func hc_timer_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .timerList, as: hc_timer_status.self)
}
