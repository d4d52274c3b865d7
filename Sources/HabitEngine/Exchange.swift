import HabitArchive
import HabitCore
import HabitFiles
import HabitPlatform
import HabitStore

/// A caller's progress report for a long export or import: (done, total), and
/// true to cancel.
package typealias TransferProgress = (_ done: Int64, _ total: Int64) -> Bool

/// Paces a TransferProgress: at the start, at the end, and between them at most
/// once per interval (the clock is read every `stride` steps, so pacing costs
/// nothing per record). A cancel becomes HabitError .cancelled.
struct ProgressGate {
    private let report: TransferProgress?
    private let total: Int64
    private var done: Int64 = 0
    private var untilCheck = ProgressGate.stride
    private var lastReportNs: Int64 = 0

    /// About 50 reports a second at most: a terminal line redrawn smoothly, a callback
    /// that never costs the transfer anything measurable.
    static let intervalNs: Int64 = 20_000_000
    static let stride = 512

    init(_ report: TransferProgress?, total: Int64) {
        self.report = report
        self.total = max(0, total)
    }

    mutating func start() throws(HabitError) { try call() }

    /// One more unit done.
    mutating func step() throws(HabitError) {
        guard report != nil else { return }
        done += 1
        untilCheck -= 1
        guard untilCheck <= 0 else { return }
        untilCheck = Self.stride
        if MonotonicClock.nanoseconds() &- lastReportNs >= Self.intervalNs { try call() }
    }

    /// Done so far, when units come in batches (bytes of a file read).
    mutating func advance(to newDone: Int64) throws(HabitError) {
        guard report != nil else { return }
        done = newDone
        if MonotonicClock.nanoseconds() &- lastReportNs >= Self.intervalNs { try call() }
    }

    /// The last report (done == total), once everything is done: too late to cancel,
    /// so its answer is not asked.
    mutating func finish() {
        done = total
        _ = report?(total, total)
    }

    private mutating func call() throws(HabitError) {
        guard let report else { return }
        lastReportNs = MonotonicClock.nanoseconds()
        if report(min(done, total), total) { throw HabitError(.cancelled, "cancelled by the progress callback; nothing was written") }
    }
}

/// Whole-store exports and imports: the store's own JSON and JSON Lines (in memory and
/// through files), Loop Habit Tracker's and HabitBull's files.
extension Engine {
    package func export(layout: StoreDocument.Layout) throws(HabitError) -> String {
        var text = ""
        try export(layout: layout, progress: nil) { (piece) throws(HabitError) in text += piece }
        return text
    }

    /// The store's document, record by record from one read snapshot: `write` gets
    /// the text in pieces of about 64 KiB, so only a piece is ever held. progress
    /// counts records (habits, entries, rows) and cancels by returning true.
    package func export(
        layout: StoreDocument.Layout, progress: TransferProgress?,
        write: (String) throws(HabitError) -> Void
    ) throws(HabitError) {
        try store.snapshot { () throws(HabitError) in
            let rules = StoreDocument.Rules(
                weekStart: try weekStart(), streakPolicy: try storeStreakPolicy(), routineBounds: try routineBounds(),
                habitPolicies: try store.habitStreakPolicies())
            let habits = try store.habits(includeArchived: true)
            let keys = try store.entryKeys()
            let tables = try Store.historyTables.map { (name) throws(HabitError) in
                var rows = try store.tableRows(name)
                // The header carries these: once is enough, and a store that never set them reads the same.
                if name == "settings" { rows.removeAll { if case .string(let key)? = $0["key"] { Self.headerSettings.contains(key) } else { false } } }
                return StoreDocument.Table(name: name, rows: rows)
            }.filter { !$0.rows.isEmpty }
            var gate = ProgressGate(
                progress,
                total: Int64(habits.count) + (try store.entryCount())
                    + tables.reduce(0) { $0 + Int64($1.rows.count) })
            var writer = StoreDocument.Writer(layout: layout, timezone: try timezoneName(), dayStartMinutes: try dayStart(), rules: rules)
            func record() throws(HabitError) {
                try gate.step()
                if writer.text.utf8.count >= Self.exportPiece {
                    try write(writer.text)
                    writer.text.removeAll(keepingCapacity: true)
                }
            }
            try gate.start()
            for habit in habits { writer.habit(habit); try record() }
            try store.eachEntry { (entry) throws(HabitError) in
                writer.entry(entry, key: keys[entry.id]); try record()
            }
            for table in tables { for row in table.rows { writer.row(table: table.name, row); try record() } }
            writer.finish()
            try write(writer.text)
            gate.finish()
        }
    }

    private static let exportPiece = 64 * 1024

    /// The export into a file that appears at path whole or not at all (AtomicOutput):
    /// on an error or a cancel, path is as it was.
    package func exportFile(path: String, layout: StoreDocument.Layout, progress: TransferProgress?) throws(HabitError) {
        guard !path.isEmpty else { throw .invalid("path is empty") }
        let output: AtomicOutput
        do throws(AtomicOutput.Failure) { output = try AtomicOutput(path: path) } catch { throw Self.fileError(error, path) }
        defer { output.abandon() }
        try export(layout: layout, progress: progress) { (piece) throws(HabitError) in
            do throws(AtomicOutput.Failure) { try output.write(piece) } catch { throw Self.fileError(error, path) }
        }
        do throws(AtomicOutput.Failure) { try output.commit() } catch { throw Self.fileError(error, path) }
    }

    private static func fileError(_ failure: LineReader.Failure, _ path: String) -> HabitError {
        switch failure {
        case .missing: HabitError(.notFound, "no such file: \(path.prefix(300))")
        case .notRegular: HabitError(.invalid, "\(path.prefix(300)) is not a regular file")
        case .lineTooLong(let line): HabitError(.invalid, "line \(line): longer than \(JSON.maxBytes) bytes")
        case .unreadable(let reason): HabitError(.io, "cannot read \(path.prefix(300)): \(reason)")
        }
    }

    private static func fileError(_ failure: AtomicOutput.Failure, _ path: String) -> HabitError {
        switch failure {
        case .missingFolder: HabitError(.notFound, "no folder for \(path.prefix(300))")
        case .failed(let reason): HabitError(.io, reason)
        }
    }

    /// The settings an export's header carries (not repeated in its settings rows).
    private static let headerSettings: Set<String> = [
        SettingKey.timezone, SettingKey.dayStart, SettingKey.weekStart, PolicyKey.missAllowance, PolicyKey.openDay, PolicyKey.offDays,
        PolicyKey.routineBounds,
    ]

    /// Habits.csv and Checkmarks.csv in Loop Habit Tracker's format, rows up to `to` (nil: today).
    package func exportLoop(to: Int32?) throws(HabitError) -> (habits: String, checkmarks: String) {
        let last: Int32
        if let to { last = to } else { last = try today() }
        guard CivilDate.isValid(last) else { throw .invalid("day \(last) is outside 0001-01-01...9999-12-31") }
        return try store.snapshot { () throws(HabitError) in
            let habits = try store.habits(includeArchived: true)
            var columns: [LoopCSVExport.Column] = []
            for habit in habits where habit.spec.kind != .measurement {
                let entries = try withTimers(
                    try store.entries(habitId: habit.id, from: CivilDate.minDay, to: last), habitId: habit.id, spec: habit.spec,
                    versions: habit.versions, from: CivilDate.minDay, to: last)
                let cancelled = DayFold.cancelledIds(in: entries)
                let skipDays = Set(entries.lazy.filter { $0.kind == .skip && !cancelled.contains($0.id) }.map(\.day))
                columns.append(.init(habit: habit, states: DayFold.sortedStates(entries, habit: habit.spec, versions: habit.versions), skipDays: skipDays))
            }
            let oldest = columns.compactMap { $0.states.lazy.map(\.day).min() }.min() ?? last
            try CivilDate.checkRange(from: min(oldest, last), to: last, limit: CivilDate.maxRangeDays)
            return (LoopCSVExport.habitsCSV(habits), LoopCSVExport.checkmarksCSV(columns, to: last))
        }
    }

    /// layout nil: read from the content (StoreDocument.detectLayout). Each record is
    /// written as read, in one transaction: all of it or none.
    package func importDocument(_ text: String, layout: StoreDocument.Layout?) throws(HabitError) {
        try importing { (writer) throws(HabitError) in
            try StoreDocument.read(text, layout: layout ?? StoreDocument.detectLayout(text), into: &writer)
        }
    }

    /// An import from a file, as importDocument would read its text. JSON Lines are read
    /// a line at a time and each record written as read, so memory stays flat however
    /// large the file; a JSON document is read whole. progress counts the file's bytes
    /// read; a cancel rolls back what was written.
    package func importFile(path: String, layout: StoreDocument.Layout?, progress: TransferProgress?) throws(HabitError) {
        guard !path.isEmpty else { throw .invalid("path is empty") }
        let file: LineReader
        do throws(LineReader.Failure) { file = try LineReader(path: path, maxLineBytes: JSON.maxBytes) } catch { throw Self.fileError(error, path) }
        let size = file.size
        var gate = ProgressGate(progress, total: size)
        try gate.start()
        try importing { (writer) throws(HabitError) in
            var lines = StoreDocument.LinesReader()
            var resolved = layout
            func nextLine() throws(HabitError) -> ArraySlice<UInt8>? {
                do throws(LineReader.Failure) { return try file.next() } catch { throw Self.fileError(error, path) }
            }
            while let line = try nextLine() {
                if resolved == nil, !StoreDocument.LinesReader.isBlank(line) {
                    resolved = StoreDocument.detectLayout(String(decoding: line, as: UTF8.self))
                }
                if resolved == .json { break }
                try lines.line(line, into: &writer)
                try gate.advance(to: file.consumed)
            }
            if resolved == .json {
                // One document: no record boundary to stop at, so it is read whole.
                guard case .success(let bytes) = WholeFile.read(path, maxBytes: JSON.maxBytes),
                    let text = String(validating: bytes, as: UTF8.self)
                else {
                    throw .invalid("\(path.prefix(300)) cannot be read as one UTF-8 JSON document of at most \(JSON.maxBytes) bytes")
                }
                var paced = JSONProgress(writer: writer, gate: gate, bytes: size)
                try StoreDocument.read(text, layout: .json, into: &paced)
                (writer, gate) = (paced.writer, paced.gate)
            } else {
                try lines.finish()
            }
        }
        gate.finish()
    }

    /// A JSON document's records handed on to the writer: read whole, its bytes say
    /// nothing of how far the writing is, so progress moves by habits and entries written.
    private struct JSONProgress: StoreDocument.Sink {
        var writer: DocumentWriter
        var gate: ProgressGate
        let bytes: Int64
        private var expected = 1
        private var written = 0

        init(writer: DocumentWriter, gate: ProgressGate, bytes: Int64) {
            self.writer = writer
            self.gate = gate
            self.bytes = bytes
        }

        mutating func expect(records: Int) { expected = max(1, records) }
        mutating func header(_ settings: StoreDocument.Settings) throws(HabitError) { try writer.header(settings) }
        mutating func habit(_ item: ImportPlan.HabitItem, id: Int64) throws(HabitError) {
            try writer.habit(item, id: id)
            try advance()
        }
        mutating func entry(_ entry: Entry, key: String?) throws(HabitError) {
            try writer.entry(entry, key: key)
            try advance()
        }
        mutating func row(table: String, _ row: JSON) throws(HabitError) { try writer.row(table: table, row) }

        private mutating func advance() throws(HabitError) {
            written += 1
            try gate.advance(to: Int64(Double(bytes) * Double(min(written, expected)) / Double(expected)))
        }
    }

    /// Runs body with a writer of a store document's records inside one transaction.
    private func importing(_ body: (inout DocumentWriter) throws(HabitError) -> Void) throws(HabitError) {
        defer { caches.histories.drop() }
        try store.atomically { () throws(HabitError) in
            try store.beginImportedEntries()
            var writer = try DocumentWriter(engine: self)
            try body(&writer)
            try writer.finish()
            try store.endImportedEntries()
        }
    }

    /// Loop's zip as Loop hands it to its users: every file must be UTF-8 text.
    package func importLoopArchive(_ bytes: [UInt8]) throws(HabitError) {
        guard Zip.looksLikeZip(bytes) else { throw .invalid("not a zip archive (Loop's CSV export is one)") }
        var files: [String: String] = [:]
        for entry in try Zip.entries(bytes) {
            guard let text = String(validating: entry.data, as: UTF8.self) else {
                throw .invalid("zip entry '\(entry.name.prefix(100))' is not UTF-8 text")
            }
            files[entry.name] = text
        }
        try apply(try LoopCSV.plan(archive: files, today: today(), nowMs: now()))
    }

    /// Loop's full backup database, read-only, every schema version LoopBackup reads.
    package func importLoopBackup(path: String) throws(HabitError) {
        try apply(try LoopDatabase.read(path: path).plan(today: today(), nowMs: now()))
    }

    package func importHabitBull(_ csv: String) throws(HabitError) {
        try apply(try HabitBullCSV.plan(csv, today: today(), nowMs: now()))
    }

    package func importLoop(habitsCSV: String, checkmarksCSV: String) throws(HabitError) {
        try apply(try LoopCSV.plan(habitsCSV: habitsCSV, checkmarksCSV: checkmarksCSV, today: today(), nowMs: now()))
    }

    /// Writes a checked plan in one transaction, through the writer a document's
    /// records go through (the plan's positions standing for a document's ids).
    private func apply(_ plan: ImportPlan) throws(HabitError) {
        try importing { (writer) throws(HabitError) in
            for (index, item) in plan.habits.enumerated() { try writer.habit(item, id: Int64(index)) }
            for (index, item) in plan.entries.enumerated() {
                try writer.entry(
                    Entry(
                        id: Int64(index), habitId: Int64(item.habitIndex), day: item.day, kind: item.kind, value: item.value,
                        recordedAtMs: item.recordedAtMs, source: item.source, undoes: nil, note: item.note), key: nil)
            }
        }
    }

    /// Writes a store document's records as they are read, inside the import's
    /// transaction, each checked against what the store holds (the records written
    /// before it included), so that only a few habits' worth is ever held.
    private struct DocumentWriter: StoreDocument.Sink {
        private let engine: Engine
        private var store: Store { engine.store }
        /// A store that has no habits yet takes the settings of the one exported, and a
        /// whole export's other tables: a restore. Merging into a store with habits adds
        /// habits and entries only (the other rows name ids of the exported store).
        private let restoring: Bool
        /// A retry key held by an entry after this one was written by this import.
        private let lastEntryBefore: Int64
        /// The document's habit ids: the habit written for each, and its settings.
        private var habits: [Int64: (id: Int64, spec: HabitSpec)] = [:]
        private var activeNames = Set<String>()
        /// Every habit and entry written under the document's own id: the other tables'
        /// rows name those ids, so a restore of them needs it.
        private var idsKept = true
        /// Rows of the table being restored, written a batch at a time.
        private var rows: (table: String, pending: [JSON], written: Int)?
        private var restoredRows = false

        init(engine: Engine) throws(HabitError) {
            self.engine = engine
            restoring = try engine.store.habits(includeArchived: true).isEmpty
            lastEntryBefore = try engine.store.lastEntryId()
        }

        mutating func header(_ settings: StoreDocument.Settings) throws(HabitError) {
            // The header's zone must be one hc_store_set_timezone takes, used or not.
            do throws(HabitError) { _ = try ZoneDatabase.load(settings.timezone) } catch { throw error.prefixed("the header") }
            guard restoring else { return }
            // The synced settings only where they differ from the store's: a default
            // written out would be a setting the exported store never had, and sync
            // would carry it to other devices as a fresh choice.
            if settings.timezone != (try engine.timezoneName()) { try engine.setTimezone(settings.timezone) }
            if settings.dayStartMinutes != (try engine.dayStart()) { try engine.setDayStart(settings.dayStartMinutes) }
            if let weekStart = settings.weekStart, weekStart != (try engine.weekStart()) { try engine.setWeekStart(Int32(weekStart)) }
            if let policy = settings.streakPolicy { try engine.writeStoreStreakPolicy(policy) }
            if let bounds = settings.routineBounds { try engine.setRoutineBounds(bounds) }
        }

        mutating func habit(_ item: ImportPlan.HabitItem, id: Int64) throws(HabitError) {
            guard habits[id] == nil else { throw .invalid("habit id \(id) appears twice") }
            let number = habits.count + 1
            if item.archivedDay == nil, !activeNames.insert(HabitName.key(item.spec.name)).inserted {
                throw .conflict("habit \(number): the name '\(item.spec.name)' appears twice")
            }
            do throws(HabitError) {
                if item.archivedDay == nil { try engine.requireNameFree(item.spec.name, except: nil) }
                let written = try store.insertHabit(item.spec, versions: item.versions, archivedDay: item.archivedDay, createdAtMs: item.createdAtMs)
                if item.streakPolicy != .none { try store.setHabitStreakPolicy(habitId: written, item.streakPolicy) }
                for settings in item.reminders {
                    let ruleId = try store.insertReminderRule(habitId: written, createdAtMs: item.createdAtMs)
                    try store.setReminderVersion(ruleId: ruleId, fromDay: item.spec.startDay, settings: try settings.validated())
                    engine.caches.reminders.drop()
                }
                habits[id] = (written, item.spec)
                idsKept = idsKept && written == id
            } catch {
                throw error.prefixed("habit \(number) '\(item.spec.name)'")
            }
        }

        mutating func entry(_ record: Entry, key: String?) throws(HabitError) {
            guard let habit = habits[record.habitId] else { throw .invalid("'habit_id' \(record.habitId) is not a habit listed before it") }
            let value = try ImportPlan.checkedValue(
                kind: record.kind, value: record.value, day: record.day, recordedAtMs: record.recordedAtMs, note: record.note,
                key: key, undoes: record.undoes != nil, habit: habit.spec)
            var undoes: Int64?
            if let target = record.undoes {
                guard let written = try store.importedEntry(documentId: target) else {
                    throw .invalid("'undoes' \(target) is not an entry listed before it")
                }
                guard let cancelled = try store.entry(id: written), cancelled.habitId == habit.id, cancelled.day == record.day else {
                    throw .invalid("undo must have the habit and date of the entry it cancels")
                }
                try EntryRules.validateUndo(of: cancelled, named: target, alreadyUndone: try store.undoOf(entryId: written) != nil)
                undoes = written
            }
            if let key, let holder = try store.entryId(forKey: key) {
                throw holder > lastEntryBefore
                    ? .conflict("key '\(key.prefix(200))' appears twice")
                    : .conflict("key '\(key.prefix(200))' already appended entry #\(holder) here")
            }
            let written = try store.insertEntry(
                habitId: habit.id, day: record.day, kind: record.kind, value: value, recordedAtMs: record.recordedAtMs,
                source: record.source, undoes: undoes, note: record.note)
            guard try store.mapImportedEntry(documentId: record.id, entryId: written) else {
                throw .invalid("entry id \(record.id) appears twice")
            }
            if let key { try store.insertEntryKey(key, entryId: written) }
            idsKept = idsKept && written == record.id
        }

        mutating func row(table: String, _ row: JSON) throws(HabitError) {
            guard restoring else { return }
            if !restoredRows {
                guard idsKept else {
                    throw HabitError.conflict("a whole restore needs a new store: this one's habit or entry ids differ from the document's")
                }
                restoredRows = true
            }
            if let held = rows, held.table != table {
                try flushRows()
                rows = nil
            }
            if rows == nil { rows = (table, [], 0) }
            rows?.pending.append(row)
            if (rows?.pending.count ?? 0) >= Self.rowBatch { try flushRows() }
        }

        private static let rowBatch = 512

        /// Writes the rows held; the table's next rows follow them.
        private mutating func flushRows() throws(HabitError) {
            guard let held = rows, !held.pending.isEmpty else { return }
            try store.insertRows(held.table, held.pending, first: held.written)
            rows = (held.table, [], held.written + held.pending.count)
        }

        /// After the last record.
        mutating func finish() throws(HabitError) {
            try flushRows()
            rows = nil
            guard restoredRows else { return }
            // Restored vacations and settings sync from here on, as this replica's records.
            try store.logUnsyncedRecords(force: true)
            engine.dropCaches()
        }
    }
}
