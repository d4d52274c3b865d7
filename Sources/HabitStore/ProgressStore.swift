import HabitCore

/// Each habit's saved fold (SavedFold): a copy of its folded days, with the judging
/// rules it was folded under and the highest entry id of the store when folded.
extension Store {
    package struct SavedFoldRow: Sendable {
        package var rules: [UInt8]
        package var throughEntry: Int64
        package var days: [UInt8]
        package init(rules: [UInt8], throughEntry: Int64, days: [UInt8]) {
            self.rules = rules
            self.throughEntry = throughEntry
            self.days = days
        }
    }

    package func savedFold(habitId: Int64) throws(HabitError) -> SavedFoldRow? {
        let statement = try db.statement("SELECT rules, through_entry, days FROM saved_folds WHERE habit_id = ?1")
        statement.bind(1, habitId)
        return try statement.one { SavedFoldRow(rules: $0.blob(0), throughEntry: $0.int(1), days: $0.blob(2)) }
    }

    package func saveFold(habitId: Int64, _ row: SavedFoldRow) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT INTO saved_folds(habit_id, rules, through_entry, days) VALUES(?1, ?2, ?3, ?4)
            ON CONFLICT(habit_id) DO UPDATE SET rules = excluded.rules, through_entry = excluded.through_entry, days = excluded.days
            """)
        statement.bind(1, habitId)
        statement.bind(2, blob: row.rules)
        statement.bind(3, row.throughEntry)
        statement.bind(4, blob: row.days)
        try statement.run()
    }

    /// The days of a habit's entries with ids above `id`, at most `limit` of them
    /// (entries are append-only: these are every entry added since `id` was the last).
    /// Read along the rowid from `id` on, never through the habit's index (years of rows).
    package func entryDays(habitId: Int64, afterEntry id: Int64, limit: Int64) throws(HabitError) -> [Int32] {
        let statement = try db.statement("SELECT day FROM entries NOT INDEXED WHERE id > ?1 AND habit_id = ?2 LIMIT ?3")
        statement.bind(1, id)
        statement.bind(2, habitId)
        statement.bind(3, limit)
        return try statement.all { Int32(clamping: $0.int(0)) }
    }

    /// Saves a fold if this handle can take the write lock at once, outside any
    /// transaction: a read that saves what it folded never waits for a writer.
    /// Returns whether it was saved.
    package func saveFoldWithoutWaiting(habitId: Int64, _ row: SavedFoldRow) -> Bool {
        guard !readOnly, !inTransaction else { return false }
        let timeout = db.busyTimeoutMs
        db.setBusyTimeout(0)
        defer { db.setBusyTimeout(timeout) }
        do {
            try atomically { () throws(HabitError) in try saveFold(habitId: habitId, row) }
            return true
        } catch {
            return false
        }
    }
}
