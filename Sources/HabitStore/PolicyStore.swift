import HabitCore

/// Each habit's own streak policy: a row only for habits that set one; a NULL
/// field follows the store's policy (kept in settings).
extension Store {
    package func habitStreakPolicies() throws(HabitError) -> [Int64: StreakPolicy.Override] {
        let statement = try db.statement("SELECT habit_id, miss_allowance, open_day FROM streak_policies")
        var result: [Int64: StreakPolicy.Override] = [:]
        for (id, policy) in try statement.all({ (s) throws(HabitError) -> (Int64, StreakPolicy.Override) in
            (s.int(0), try readPolicy(s, habitId: s.int(0)))
        }) { result[id] = policy }
        return result
    }

    package func habitStreakPolicy(habitId: Int64) throws(HabitError) -> StreakPolicy.Override {
        let statement = try db.statement("SELECT miss_allowance, open_day FROM streak_policies WHERE habit_id = ?1")
        statement.bind(1, habitId)
        return try statement.one { (s) throws(HabitError) in
            try readPolicy(s, habitId: habitId, offset: 0)
        } ?? .none
    }

    private func readPolicy(_ s: Statement, habitId: Int64, offset: Int32 = 1) throws(HabitError) -> StreakPolicy.Override {
        var policy = StreakPolicy.Override.none
        if let allowance = s.optionalInt(offset) {
            guard let value = Int32(exactly: allowance), (try? StreakPolicy.validate(missAllowance: value)) != nil else {
                throw .corrupt("habit \(habitId)'s stored miss allowance \(allowance) is invalid")
            }
            policy.missAllowance = value
        }
        if let raw = s.optionalInt(offset + 1) {
            guard let openDay = StreakPolicy.OpenDay(rawValue: Int32(clamping: raw)) else {
                throw .corrupt("habit \(habitId)'s stored open-day rule \(raw) is invalid")
            }
            policy.openDay = openDay
        }
        return policy
    }

    /// Sets a habit's own policy and logs each field that changed (HabitField: they
    /// sync, last writer wins per field, as the habit's other fields).
    package func setHabitStreakPolicy(habitId: Int64, _ policy: StreakPolicy.Override) throws(HabitError) {
        try atomically { () throws(HabitError) in
            let old = try habitStreakPolicy(habitId: habitId)
            try writeHabitStreakPolicy(habitId: habitId, policy)
            let changes = HabitField.streakPolicyChanges(from: old, to: policy)
            guard !changes.isEmpty else { return }
            let habit = try habitGlobalId(habitId)
            for (field, value) in changes {
                try logRegister(.habitField(habit: habit, field: field, value: value), target: Self.fieldTarget(habit, field))
            }
        }
    }

    func writeHabitStreakPolicy(habitId: Int64, _ policy: StreakPolicy.Override) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT INTO streak_policies(habit_id, miss_allowance, open_day) VALUES(?1, ?2, ?3)
            ON CONFLICT(habit_id) DO UPDATE SET miss_allowance = excluded.miss_allowance, open_day = excluded.open_day
            """)
        statement.bind(1, habitId)
        statement.bind(2, policy.missAllowance.map(Int64.init))
        statement.bind(3, policy.openDay.map { Int64($0.rawValue) })
        try statement.run()
    }
}
