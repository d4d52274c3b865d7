import HabitCore
import HabitStore

/// The apps' own rules as settings: streak policies (the store's, which the global
/// streaks follow, and each habit's own) and the routine boundaries.
extension Engine {
    enum PolicyKey {
        static let missAllowance = "streak_miss_allowance"
        static let openDay = "streak_open_day"
        static let offDays = "streak_off_days"
        static let routineBounds = "routine_bounds"
    }

    // MARK: Streak policies

    /// The store-wide streak policy; a store that never set one has StreakPolicy.standard.
    package func storeStreakPolicy() throws(HabitError) -> StreakPolicy {
        var policy = StreakPolicy.standard
        if let text = try store.setting(PolicyKey.missAllowance) {
            guard let value = Int32(text), (try? StreakPolicy.validate(missAllowance: value)) != nil else {
                throw .corrupt("stored miss allowance '\(text)' is invalid")
            }
            policy.missAllowance = value
        }
        if let text = try store.setting(PolicyKey.openDay) {
            guard let value = StreakPolicy.OpenDay(name: text) else { throw .corrupt("stored open-day rule '\(text)' is invalid") }
            policy.openDay = value
        }
        if let text = try store.setting(PolicyKey.offDays) {
            guard let value = StreakPolicy.OffDays(name: text) else { throw .corrupt("stored off-days rule '\(text)' is invalid") }
            policy.offDays = value
        }
        return policy
    }

    package func setStoreStreakPolicy(_ policy: StreakPolicy) throws(HabitError) {
        try store.atomically { () throws(HabitError) in try writeStoreStreakPolicy(policy) }
    }

    /// Writes the store's policy inside the caller's transaction. Each field is a
    /// synced setting: only those that change are written, so one set to what it
    /// already is logs no op (an import of a store's defaults changes nothing).
    func writeStoreStreakPolicy(_ policy: StreakPolicy) throws(HabitError) {
        try StreakPolicy.validate(missAllowance: policy.missAllowance)
        let current = try storeStreakPolicy()
        if policy.missAllowance != current.missAllowance { try store.setSetting(PolicyKey.missAllowance, String(policy.missAllowance)) }
        if policy.openDay != current.openDay { try store.setSetting(PolicyKey.openDay, policy.openDay.name) }
        if policy.offDays != current.offDays { try store.setSetting(PolicyKey.offDays, policy.offDays.name) }
    }

    /// A habit's own policy fields (nil: the store's).
    package func habitStreakPolicyOverride(habitId: Int64) throws(HabitError) -> StreakPolicy.Override {
        _ = try habit(id: habitId)
        return try store.habitStreakPolicy(habitId: habitId)
    }

    package func setHabitStreakPolicy(habitId: Int64, _ policy: StreakPolicy.Override) throws(HabitError) {
        if let allowance = policy.missAllowance { try StreakPolicy.validate(missAllowance: allowance) }
        _ = try habit(id: habitId)
        try store.setHabitStreakPolicy(habitId: habitId, policy)
    }

    /// The policy a habit's streaks follow: its own fields over the store's.
    package func streakPolicy(habitId: Int64) throws(HabitError) -> StreakPolicy {
        try store.habitStreakPolicy(habitId: habitId).over(try storeStreakPolicy())
    }

    /// Every habit's policy at once (one read of each table), for the whole-store passes.
    package func streakPolicies() throws(HabitError) -> (store: StreakPolicy, habits: [Int64: StreakPolicy]) {
        let base = try storeStreakPolicy()
        return (base, try store.habitStreakPolicies().mapValues { $0.over(base) })
    }

    // MARK: Routines

    package func routineBounds() throws(HabitError) -> RoutineBounds {
        guard let text = try store.setting(PolicyKey.routineBounds) else { return .standard }
        guard let bounds = RoutineBounds(text: text) else { throw .corrupt("stored routine bounds '\(text)' are invalid") }
        return bounds
    }

    /// A synced setting: bounds set to what they already are log no op.
    package func setRoutineBounds(_ bounds: RoutineBounds) throws(HabitError) {
        let bounds = try bounds.validated()
        try store.atomically { () throws(HabitError) in
            if try routineBounds() != bounds { try store.setSetting(PolicyKey.routineBounds, bounds.text) }
        }
    }

    /// The routine at an instant (nil: now), in the home zone after the day start.
    package func routine(atMs: Int64?) throws(HabitError) -> RoutineTime {
        try routineBounds().routine(atMs: atMs ?? now(), clock: try clock())
    }
}
