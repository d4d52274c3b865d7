import HabitCore
import HabitPlatform  // fopen: the first bytes, before SQLite opens a file that may not be a database

/// Reads Loop Habit Tracker's backup database (read-only) into LoopBackup rows, by
/// the columns its schema version has (LoopBackup states them).
package enum LoopDatabase {
    package static func read(path: String) throws(HabitError) -> LoopBackup {
        let header = try readHeader(path)
        guard header.starts(with: Array("SQLite format 3".utf8)) else {
            throw .invalid("'\(path.prefix(200))' is not a SQLite database (Loop's full backup is one)")
        }
        let db = try Database(path: path, readOnly: true, create: false, busyTimeoutMs: Store.Options.writerBusyTimeoutMs)
        defer { db.close() }
        let version = try db.statement("PRAGMA user_version").one { $0.int(0) } ?? 0
        let tables = Set(try db.statement("SELECT lower(name) FROM sqlite_master WHERE type = 'table'").all { $0.text(0) ?? "" })
        guard tables.contains("habits"), tables.contains("repetitions") else {
            throw .invalid("'\(path.prefix(200))' has no Habits and Repetitions tables: not a Loop Habit Tracker backup")
        }
        guard version <= LoopBackup.versions.upperBound else {
            throw HabitError(.tooNew, "Loop database version \(version) is newer than \(LoopBackup.versions.upperBound), the latest this library reads")
        }
        guard version >= LoopBackup.versions.lowerBound else {
            throw .invalid("Loop database version \(version) is older than \(LoopBackup.versions.lowerBound), the first Loop's migrations know")
        }
        func columns(_ table: String) throws(HabitError) -> Set<String> {
            Set(try db.statement(text: "SELECT lower(name) FROM pragma_table_info('\(table)')").all { $0.text(0) ?? "" })
        }
        let habitColumns = try columns("Habits"), repetitionColumns = try columns("Repetitions")
        func column(_ name: String, in present: Set<String>, or fallback: String) -> String { present.contains(name) ? name : fallback }
        let habitSQL =
            "SELECT id, name, freq_num, freq_den, archived, position, " + column("type", in: habitColumns, or: "0") + ", "
            + column("target_type", in: habitColumns, or: "0") + ", " + column("target_value", in: habitColumns, or: "0") + ", "
            + column("unit", in: habitColumns, or: "NULL") + ", " + column("color", in: habitColumns, or: "NULL") + ", "
            + column("description", in: habitColumns, or: "NULL") + ", " + column("question", in: habitColumns, or: "NULL") + ", "
            + column("reminder_hour", in: habitColumns, or: "NULL") + ", " + column("reminder_min", in: habitColumns, or: "NULL") + ", "
            + column("reminder_days", in: habitColumns, or: "127") + " FROM Habits"
        let habits = try db.statement(text: habitSQL).all { row in
            LoopBackup.Habit(
                id: row.int(0), name: row.text(1) ?? "", numerator: row.optionalInt(2) ?? 0, denominator: row.optionalInt(3) ?? 0,
                archived: (row.optionalInt(4) ?? 0) != 0, position: row.optionalInt(5) ?? 0,
                numeric: row.int(6) == 1, atMost: row.int(7) == 1, target: row.double(8), unit: row.text(9),
                colour: row.optionalInt(10), description: row.text(11), question: row.text(12),
                reminderHour: row.optionalInt(13), reminderMinute: row.optionalInt(14), reminderDays: row.optionalInt(15))
        }
        let repetitionSQL =
            "SELECT id, habit, timestamp, " + column("value", in: repetitionColumns, or: "2") + ", " + column("notes", in: repetitionColumns, or: "NULL")
            + " FROM Repetitions WHERE habit IS NOT NULL AND timestamp IS NOT NULL"
        let repetitions = try db.statement(text: repetitionSQL).all { row in
            LoopBackup.Repetition(id: row.int(0), habit: row.int(1), timestampMs: row.int(2), value: row.int(3), notes: row.text(4))
        }
        return LoopBackup(version: version, habits: habits, repetitions: repetitions)
    }

    /// The first 16 bytes, to refuse what is not a database before SQLite opens it.
    private static func readHeader(_ path: String) throws(HabitError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw HabitError(.io, "cannot open '\(path.prefix(200))'") }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, 16, file) }
        return Array(bytes.prefix(count))
    }
}
