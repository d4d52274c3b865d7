import HabitCore

/// Vacations: excused days of a habit or of every habit.
extension Store {
    package func insertVacation(habitId: Int64?, from: Int32, to: Int32) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeVacation(habitId: habitId, from: from, to: to)
            try logLocal(
                .vacationAdd(habit: try habitId.map { (h) throws(HabitError) in try requireGlobalId(.habit, h) }, first: from, last: to),
                creates: .vacation, localId: id)
            return id
        }
    }

    func writeVacation(habitId: Int64?, from: Int32, to: Int32) throws(HabitError) -> Int64 {
        let statement = try db.statement("INSERT INTO vacations(habit_id, from_day, to_day) VALUES(?1, ?2, ?3)")
        statement.bind(1, habitId)
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        try statement.run()
        return db.lastInsertRowId
    }

    /// Removes a vacation; false when there was none with that id.
    package func deleteVacation(id: Int64) throws(HabitError) -> Bool {
        try atomically { () throws(HabitError) -> Bool in
            let global = try globalId(.vacation, id)
            guard try removeVacationRow(id: id) else { return false }
            // Observed-remove: the removal names the add it saw, so a concurrent add of another vacation survives.
            if let global {
                try tombstone(global)
                try logLocal(.vacationRemove(vacation: global))
            }
            return true
        }
    }

    func removeVacationRow(id: Int64) throws(HabitError) -> Bool {
        let statement = try db.statement("DELETE FROM vacations WHERE id = ?1")
        statement.bind(1, id)
        try statement.run()
        guard db.changes > 0 else { return false }
        // Its local id may be taken again; its global id stays removed (sync_removed).
        try db.statement("UPDATE sync_ops SET local_id = NULL WHERE kind = 5 AND local_id = ?1").binding(id).run()
        return true
    }

    package func vacations() throws(HabitError) -> [Vacation] {
        try db.statement("SELECT id, habit_id, from_day, to_day FROM vacations ORDER BY from_day, id").all { (row) throws(HabitError) -> Vacation in
            guard let from = Int32(exactly: row.int(2)), let to = Int32(exactly: row.int(3)) else { throw .corrupt("vacation \(row.int(0)) is out of range") }
            return Vacation(id: row.int(0), habitId: row.optionalInt(1), first: from, last: to)
        }
    }
}
