import HabitCore

/// The rows of the tables a person's history lives in besides habits and entries, as
/// a whole export carries them and a restore writes them back with their ids.
///
/// Every table of the schema is in exactly one of three lists: carried in the habit and
/// entry records, carried as rows (historyTables), or left out (tablesLeftOut, each with
/// its reason). WholeExportTests walks a new store's tables and fails on one in none, so
/// a new table is never left out of a backup by forgetting it.
extension Store {
    /// Tables whose rows travel inside the habit records (schedules, streak policies)
    /// and entry records (retry keys).
    package static let recordTables = ["habits", "habit_versions", "streak_policies", "entries", "entry_keys"]

    /// Restore order (what a row refers to comes first).
    package static let historyTables = [
        "settings", "vacations", "credit_accounts", "credit_rules", "credit_steps", "unlock_sessions", "credit_entries", "session_ends",
        "award_rules", "award_unlocks", "referral_redemptions", "events", "event_acks",
        "proofs", "proof_copies", "proof_verdicts", "proof_fingerprints", "proof_policies",
        "reminder_rules", "reminder_rule_versions", "quiet_hours", "reminder_snoozes", "reminder_deliveries",
        "shield_rules", "shield_rule_versions", "shield_emergencies", "zone_changes", "timer_events",
    ]

    /// Why a table is left out of an export.
    package enum LeftOut: Sendable {
        /// Recomputed from the records an export carries.
        case derived
        /// Belongs to this device or this file, not to the person's history.
        case local
    }

    /// The tables an export leaves out, each with why.
    package static let tablesLeftOut: [(table: String, kind: LeftOut, reason: String)] = [
        ("saved_folds", .derived, "each habit's folded days, a copy of what folding its entries gives, folded again where missing"),
        ("shield_revision", .derived, "a counter every write that can change a shield moves; a restore's own writes move it"),
        ("plugins", .local, "paths to programs on this machine: a backup restored elsewhere must not run code from a path nobody chose there"),
        ("proof_runs", .local, "verifications under way in a process of this machine"),
        ("sync_replica", .local, "this file's replica id and clock: a restored store is a new replica"),
        ("sync_replicas", .local, "the replicas this file has exchanged with, and how far"),
        ("sync_ops", .local, "this file's op log: a restore logs the restored records afresh, as its own"),
        ("sync_lww", .local, "the op log's last-writer registers, rebuilt with it"),
        ("sync_removed", .local, "the op log's removed records, rebuilt with it"),
        ("sync_moves", .local, "the forked replicas' moved ops the op log names, rebuilt with it"),
        ("change_log", .local, "the order this file logged its ops in: the store revision, rebuilt with the op log"),
    ]

    /// What the document's rows are given in place of their ids: zone changes, which
    /// nothing refers to by id, are appended after any the store recorded before the
    /// restore (a zone set before it), and read by instant as sync merges them.
    private static let renumberedOnRestore: Set<String> = ["zone_changes"]

    private static let replacedOnRestore: Set<String> = ["award_rules"]

    /// Every row of a history table as a JSON object of its columns, in rowid order.
    package func tableRows(_ table: String) throws(HabitError) -> [JSON] {
        guard Self.historyTables.contains(table) else { throw .invalid("'\(table.prefix(64))' is not a table a backup carries") }
        let statement = try db.statement(text: "SELECT * FROM \(table) ORDER BY rowid")
        return try statement.all { (s) throws(HabitError) -> JSON in
            .object((0..<s.columnCount).map { (s.columnName($0), s.json($0)) })
        }
    }

    /// Writes rows back, ids and all (settings replace what the store has). Each row
    /// names only the table's own columns; SQLite's STRICT types and the foreign keys
    /// (checked at commit: call inside a transaction) refuse the rest. A table's rows
    /// may come in several calls: `first` is the position of rows[0] among them.
    package func insertRows(_ table: String, _ rows: [JSON], first: Int = 0) throws(HabitError) {
        guard Self.historyTables.contains(table) else { throw .invalid("'\(table.prefix(64))' is not a table a backup carries") }
        let info = try db.statement("SELECT name FROM pragma_table_info(?1)")
        info.bind(1, table)
        let columns = Set(try info.all { (s) throws(HabitError) -> String in s.text(0) ?? "" })
        try db.execute("PRAGMA defer_foreign_keys = ON")
        // What a new store starts with (its award catalogue) gives way to the document's.
        if first == 0, Self.replacedOnRestore.contains(table) { try db.execute("DELETE FROM \(table)") }
        for (index, row) in zip(first..., rows) {
            guard case .object(let all) = row else { throw .invalid("\(table)[\(index)] is not an object of columns") }
            for (name, _) in all where !columns.contains(name) {
                throw .invalid("\(table)[\(index)]: '\(name.prefix(64))' is not a column of \(table)")
            }
            let kept = Self.renumberedOnRestore.contains(table) ? all.filter { $0.0 != "id" } : all
            guard !kept.isEmpty else { throw .invalid("\(table)[\(index)] is not an object of columns") }
            let names = kept.map(\.0)
            // Settings and the default credit account exist in a new store: the document's win.
            let verb = table == "settings" || table == "credit_accounts" ? "INSERT OR REPLACE" : "INSERT"
            let sql = "\(verb) INTO \(table)(\(names.joined(separator: ", "))) VALUES(\((1...names.count).map { "?\($0)" }.joined(separator: ", ")))"
            let statement = try db.statement(text: sql)
            for (offset, (_, value)) in kept.enumerated() {
                let position = Int32(offset + 1)
                switch value {
                case .null: statement.bind(position, nil as Int64?)
                case .bool(let flag): statement.bind(position, Int64(flag ? 1 : 0))
                case .int(let number): statement.bind(position, number)
                case .double(let number): statement.bind(position, number)
                case .string(let text): statement.bind(position, text)
                case .object where value["hex"] != nil:
                    guard case .string(let hex)? = value["hex"], let bytes = RunnerProtocol.unhex(hex) else {
                        throw .invalid("\(table)[\(index)]: a blob is {\"hex\": \"...\"}")
                    }
                    statement.bind(position, blob: bytes)
                default: throw .invalid("\(table)[\(index)]: a column's value is a number, text, null or {\"hex\": ...}")
                }
            }
            do throws(HabitError) { try statement.run() } catch { throw error.prefixed("\(table)[\(index)]") }
        }
        if !rows.isEmpty, Schema.appendOnlyShieldTables.contains(table) { try bumpShieldRevision() }
    }

    /// A consistent copy of the whole store in a new file (see Database.backup).
    package func backup(to path: String) throws(HabitError) {
        guard !path.isEmpty else { throw .invalid("the backup path is empty") }
        try db.backup(to: path, then: Self.renewReplicaSQL)
    }
}
