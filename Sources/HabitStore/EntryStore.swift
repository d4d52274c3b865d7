import HabitCore

/// The completion ledger: entries (append-only) and their retry keys.
extension Store {
    static let entryColumns = "id, habit_id, day, kind, value, recorded_at_ms, source, undoes, note"

    package func insertEntry(
        habitId: Int64, day: Int32, kind: EntryKind, value: Double, recordedAtMs: Int64,
        source: EntrySource, undoes: Int64?, note: String?
    ) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeEntry(
                habitId: habitId, day: day, kind: kind, value: value, recordedAtMs: recordedAtMs, source: source, undoes: undoes, note: note)
            try logEntry(
                Entry(id: id, habitId: habitId, day: day, kind: kind, value: value, recordedAtMs: recordedAtMs, source: source, undoes: undoes, note: note))
            return id
        }
    }

    func writeEntry(
        habitId: Int64, day: Int32, kind: EntryKind, value: Double, recordedAtMs: Int64,
        source: EntrySource, undoes: Int64?, note: String?
    ) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO entries(habit_id, day, kind, value, recorded_at_ms, source, undoes, note)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(day))
        statement.bind(3, Int64(kind.rawValue))
        statement.bind(4, value)
        statement.bind(5, recordedAtMs)
        statement.bind(6, Int64(source.rawValue))
        statement.bind(7, undoes)
        statement.bind(8, note)
        try statement.run()
        return db.lastInsertRowId
    }

    /// The entry a retry key first appended, if any.
    package func entryId(forKey key: String) throws(HabitError) -> Int64? {
        let statement = try db.statement("SELECT entry_id FROM entry_keys WHERE key = ?1")
        statement.bind(1, key)
        return try statement.one { $0.int(0) }
    }

    /// The retry key an entry was appended with, if any.
    package func key(ofEntry entryId: Int64) throws(HabitError) -> String? {
        let statement = try db.statement("SELECT key FROM entry_keys WHERE entry_id = ?1")
        statement.bind(1, entryId)
        return try statement.one { $0.text(0) } ?? nil
    }

    /// Every retry key, by the entry it appended.
    package func entryKeys() throws(HabitError) -> [Int64: String] {
        var keys: [Int64: String] = [:]
        for (id, key) in try db.statement("SELECT entry_id, key FROM entry_keys").all({ ($0.int(0), $0.text(1) ?? "") }) { keys[id] = key }
        return keys
    }

    package func insertEntryKey(_ key: String, entryId: Int64) throws(HabitError) {
        let statement = try db.statement("INSERT INTO entry_keys(key, entry_id) VALUES(?1, ?2)")
        statement.bind(1, key)
        statement.bind(2, entryId)
        try statement.run()
    }

    // MARK: An import's entry ids

    /// Starts an import's map from a document's entry ids to the ones written, empty. It
    /// is a temporary table (spilled to a temporary file as it grows, never whole in
    /// memory), written inside the import's transaction and rolled back with it.
    package func beginImportedEntries() throws(HabitError) {
        try db.statement("CREATE TEMP TABLE IF NOT EXISTS imported_entries(document_id INTEGER PRIMARY KEY, entry_id INTEGER NOT NULL)").run()
        try db.statement("DELETE FROM temp.imported_entries").run()
    }

    /// Maps a document's entry id to the entry written for it: false when the document
    /// named that id before.
    package func mapImportedEntry(documentId: Int64, entryId: Int64) throws(HabitError) -> Bool {
        let statement = try db.statement("INSERT OR IGNORE INTO temp.imported_entries(document_id, entry_id) VALUES(?1, ?2)")
        statement.bind(1, documentId)
        statement.bind(2, entryId)
        try statement.run()
        return db.changes == 1
    }

    /// The entry written for a document's entry id, if the document named it before.
    package func importedEntry(documentId: Int64) throws(HabitError) -> Int64? {
        let statement = try db.statement("SELECT entry_id FROM temp.imported_entries WHERE document_id = ?1")
        statement.bind(1, documentId)
        return try statement.one { $0.int(0) }
    }

    package func endImportedEntries() throws(HabitError) {
        try db.statement("DELETE FROM temp.imported_entries").run()
    }

    package func entry(id: Int64) throws(HabitError) -> Entry? {
        let statement = try db.statement(text: "SELECT \(Store.entryColumns) FROM entries WHERE id = ?1")
        statement.bind(1, id)
        return try statement.one(readEntry)
    }

    /// The ids of the first `limit` entries after `id`, in order.
    package func entryIds(after id: Int64, limit: Int64) throws(HabitError) -> [Int64] {
        let statement = try db.statement("SELECT id FROM entries WHERE id > ?1 ORDER BY id LIMIT ?2")
        statement.bind(1, id)
        statement.bind(2, limit)
        return try statement.all { $0.int(0) }
    }

    /// The id of the undo entry that cancelled entryId, if any.
    package func undoOf(entryId: Int64) throws(HabitError) -> Int64? {
        let statement = try db.statement("SELECT id FROM entries WHERE undoes = ?1")
        statement.bind(1, entryId)
        return try statement.one { $0.int(0) }
    }

    /// Every entry in id order, one at a time (an export of a million entries holds one).
    package func eachEntry(_ body: (Entry) throws(HabitError) -> Void) throws(HabitError) {
        try db.statement(text: "SELECT \(Store.entryColumns) FROM entries ORDER BY id").each { (row) throws(HabitError) in try body(try readEntry(row)) }
    }

    package func entryCount() throws(HabitError) -> Int64 {
        try db.statement("SELECT count(*) FROM entries").one { $0.int(0) } ?? 0
    }

    /// Entries of one habit (or all, when habitId is nil) with from <= day <= to, in append order.
    package func entries(habitId: Int64?, from: Int32, to: Int32) throws(HabitError) -> [Entry] {
        let statement: Statement
        if let habitId {
            statement = try db.statement(text: "SELECT \(Store.entryColumns) FROM entries WHERE habit_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY id")
            statement.bind(1, habitId)
        } else {
            statement = try db.statement(text: "SELECT \(Store.entryColumns) FROM entries WHERE day BETWEEN ?2 AND ?3 ORDER BY id")
        }
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        return try statement.all(readEntry)
    }

    /// Entries of one habit with from <= day <= to by day, each day's in append order:
    /// the entries_fold index's own order, so SQLite sorts nothing (a cold reader's
    /// ask reads a few days of each habit a rule names this way). What a shield reads:
    /// as foldEntries, with recordedAtMs (when a day was done); note is not read (nil).
    package func entriesByDay(habitId: Int64, from: Int32, to: Int32) throws(HabitError) -> [Entry] {
        let statement = try db.statement(
            """
            SELECT id, day, kind, value, source, undoes, recorded_at_ms FROM entries
            WHERE habit_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day, id
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        return try statement.all { (s) throws(HabitError) -> Entry in
            var entry = try readFoldEntry(s, habitId: habitId)
            entry.recordedAtMs = s.int(6)
            return entry
        }
    }

    /// What the day fold reads of one habit's entries with from <= day <= to, in
    /// (day, append) order, straight from the entries_fold index: no table row, no
    /// text. recordedAtMs and note are not read (0 and nil).
    package func foldEntries(habitId: Int64, from: Int32, to: Int32) throws(HabitError) -> [Entry] {
        let statement = try db.statement(
            """
            SELECT id, day, kind, value, source, undoes FROM entries INDEXED BY entries_fold
            WHERE habit_id = ?1 AND day BETWEEN ?2 AND ?3 ORDER BY day, id
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(from))
        statement.bind(3, Int64(to))
        return try statement.all { (s) throws(HabitError) -> Entry in try readFoldEntry(s, habitId: habitId) }
    }

    /// A row of (id, day, kind, value, source, undoes, ...) as an entry of `habitId`
    /// without its instant (0) or note (nil).
    private func readFoldEntry(_ s: Statement, habitId: Int64) throws(HabitError) -> Entry {
        let id = s.int(0)
        guard let day = Int32(exactly: s.int(1)), let kind = EntryKind(rawValue: Int32(clamping: s.int(2))),
            let source = EntrySource(rawValue: Int32(clamping: s.int(4)))
        else { throw .corrupt("entry \(id): a stored field is out of range") }
        return Entry(
            id: id, habitId: habitId, day: day, kind: kind, value: s.double(3), recordedAtMs: 0,
            source: source, undoes: s.optionalInt(5), note: nil)
    }

    func readEntry(_ s: Statement) throws(HabitError) -> Entry {
        let id = s.int(0)
        guard let day = Int32(exactly: s.int(2)), let kind = EntryKind(rawValue: Int32(clamping: s.int(3))),
            let source = EntrySource(rawValue: Int32(clamping: s.int(6)))
        else { throw .corrupt("entry \(id): a stored field is out of range") }
        return Entry(
            id: id, habitId: s.int(1), day: day, kind: kind, value: s.double(4), recordedAtMs: s.int(5),
            source: source, undoes: s.optionalInt(7), note: s.text(8))
    }
}
