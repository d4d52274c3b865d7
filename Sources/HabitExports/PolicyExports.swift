import CHabitCore
import HabitCore
import HabitEngine

// Each app's own rules as settings: streak policies and routine boundaries.

enum CPolicy {
    /// A whole policy (the store's, or for the pure calls), checked.
    static func policy(_ pointer: UnsafePointer<hc_streak_policy>?) throws(HabitError) -> StreakPolicy {
        let value = try Convert.options(pointer, "policy")
        try StreakPolicy.validate(missAllowance: value.miss_allowance)
        guard let offDays = StreakPolicy.OffDays(rawValue: value.off_days) else {
            throw .invalid("off_days \(value.off_days) is not an HC_OFF_DAYS_* constant")
        }
        return StreakPolicy(missAllowance: value.miss_allowance, openDay: try openDay(value.open_day), offDays: offDays)
    }

    /// A habit's own fields, checked: HC_POLICY_INHERIT and 0 follow the store; off_days must be 0.
    static func habitFields(_ pointer: UnsafePointer<hc_streak_policy>?) throws(HabitError) -> StreakPolicy.Override {
        let value = try Convert.options(pointer, "policy")
        guard value.off_days == 0 else { throw .invalid("off_days is the store's policy: 0 for a habit") }
        var own = StreakPolicy.Override.none
        if value.miss_allowance != HC_POLICY_INHERIT {
            try StreakPolicy.validate(missAllowance: value.miss_allowance)
            own.missAllowance = value.miss_allowance
        }
        if value.open_day != 0 { own.openDay = try openDay(value.open_day) }
        return own
    }

    private static func openDay(_ value: Int32) throws(HabitError) -> StreakPolicy.OpenDay {
        guard let openDay = StreakPolicy.OpenDay(rawValue: value) else { throw .invalid("open_day \(value) is not an HC_OPEN_DAY_* constant") }
        return openDay
    }

    static func write(_ out: UnsafeMutablePointer<hc_streak_policy>, missAllowance: Int32, openDay: Int32, offDays: Int32) {
        out.pointee = hc_streak_policy(
            struct_size: UInt32(MemoryLayout<hc_streak_policy>.size), miss_allowance: missAllowance,
            open_day: openDay, off_days: offDays)
    }
}

@c @implementation
public func hc_store_set_streak_policy(_ store: OpaquePointer?, _ policy: UnsafePointer<hc_streak_policy>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.setStoreStreakPolicy(try CPolicy.policy(policy))
    }
}

@c @implementation
public func hc_store_streak_policy(_ out: UnsafeMutablePointer<hc_streak_policy>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        let policy = try engine.storeStreakPolicy()
        CPolicy.write(result, missAllowance: policy.missAllowance, openDay: policy.openDay.rawValue, offDays: policy.offDays.rawValue)
    }
}

@c @implementation
public func hc_habit_set_streak_policy(_ store: OpaquePointer?, _ habit_id: Int64, _ policy: UnsafePointer<hc_streak_policy>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.setHabitStreakPolicy(habitId: habit_id, try CPolicy.habitFields(policy))
    }
}

@c @implementation
public func hc_habit_streak_policy(
    _ out: UnsafeMutablePointer<hc_streak_policy>?, _ store: OpaquePointer?, _ habit_id: Int64,
    _ flags: UInt32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        try Convert.flags(flags, known: HC_POLICY_OWN)
        if flags & HC_POLICY_OWN != 0 {
            let own = try engine.habitStreakPolicyOverride(habitId: habit_id)
            CPolicy.write(result, missAllowance: own.missAllowance ?? HC_POLICY_INHERIT, openDay: own.openDay?.rawValue ?? 0, offDays: 0)
        } else {
            _ = try engine.habit(id: habit_id)
            let policy = try engine.streakPolicy(habitId: habit_id)
            CPolicy.write(result, missAllowance: policy.missAllowance, openDay: policy.openDay.rawValue, offDays: policy.offDays.rawValue)
        }
    }
}

@c @implementation
public func hc_store_set_routine_bounds(_ store: OpaquePointer?, _ morning: Int32, _ day: Int32, _ evening: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.setRoutineBounds(RoutineBounds(morning: morning, day: day, evening: evening))
    }
}

@c @implementation
public func hc_store_routine_bounds(
    _ out_morning: UnsafeMutablePointer<Int32>?, _ out_day: UnsafeMutablePointer<Int32>?,
    _ out_evening: UnsafeMutablePointer<Int32>?, _ store: OpaquePointer?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let bounds = try engine.routineBounds()
        out_morning?.pointee = bounds.morning
        out_day?.pointee = bounds.day
        out_evening?.pointee = bounds.evening
    }
}

@c @implementation
public func hc_store_routine_at(_ out_routine: UnsafeMutablePointer<Int32>?, _ store: OpaquePointer?, _ at_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_routine, "out_routine")
        guard at_ms >= 0 else { throw .invalid("at_ms \(at_ms) is negative") }
        out.pointee = try engine.routine(atMs: Convert.instant(at_ms)).rawValue
    }
}
