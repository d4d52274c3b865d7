/// The store as a document: habitcore's own export and import format.
/// Two layouts with the same records: one JSON document, or JSON Lines (a header
/// line, then one habit or entry per line) for streaming and line-based tools.
/// See docs/FORMATS.md.
package enum StoreDocument {
    /// 2: the other tables of a whole store ("tables"; "row" records in JSON Lines).
    package static let schemaVersion: Int64 = 2
    package static let formatName = "habitcore-store"

    package enum Layout: Int32, Sendable {
        case json = 1
        case jsonLines = 2
    }

    /// The header's settings: the store's zone, day start and rules.
    package struct Settings: Equatable, Sendable {
        package var timezone: String
        package var dayStartMinutes: Int32
        /// Absent from documents written before they were exported: the store keeps its own.
        package var weekStart: Int? = nil
        package var streakPolicy: StreakPolicy? = nil
        package var routineBounds: RoutineBounds? = nil
    }

    /// A whole export's rows of another table, in the order written (a restore into an
    /// empty store writes them back, ids and all).
    package struct Table: Equatable, Sendable {
        package var name: String
        package var rows: [JSON]
        package init(name: String, rows: [JSON]) {
            self.name = name
            self.rows = rows
        }
    }

    // MARK: Writing

    /// The store's rules that documents carry besides the zone and day start, and
    /// each habit's own streak policy fields (nil: the store's).
    package struct Rules: Sendable {
        package var weekStart: Int
        package var streakPolicy: StreakPolicy
        package var routineBounds: RoutineBounds
        package var habitPolicies: [Int64: StreakPolicy.Override]

        package init(
            weekStart: Int = 1, streakPolicy: StreakPolicy = .standard, routineBounds: RoutineBounds = .standard,
            habitPolicies: [Int64: StreakPolicy.Override] = [:]
        ) {
            self.weekStart = weekStart
            self.streakPolicy = streakPolicy
            self.routineBounds = routineBounds
            self.habitPolicies = habitPolicies
        }
    }

    /// keys: the retry keys of the entries that have one, by entry id (written only
    /// for those entries, so an export without keys reads as before).
    package static func encode(
        timezone: String, dayStartMinutes: Int32, habits: [Habit], entries: [Entry],
        keys: [Int64: String] = [:], layout: Layout, rules: Rules = Rules(),
        tables: [Table] = []
    ) -> String {
        var writer = Writer(layout: layout, timezone: timezone, dayStartMinutes: dayStartMinutes, rules: rules)
        for habit in habits { writer.habit(habit) }
        for entry in entries { writer.entry(entry, key: keys[entry.id]) }
        for table in tables { for row in table.rows { writer.row(table: table.name, row) } }
        writer.finish()
        return writer.text
    }

    /// Writes a document record by record, in the order habits, entries, rows of
    /// other tables (each table's rows together): the one encoder of both layouts,
    /// whether the text is kept whole (encode) or drained to a file as it grows.
    package struct Writer {
        package let layout: Layout
        private let rules: Rules
        /// The text written since the caller last drained it.
        package var text = ""
        private var section = Section.habits
        private var firstInSection = true
        private var table: String?

        private enum Section: Int, Comparable {
            case habits, entries, tables, done
            static func < (a: Section, b: Section) -> Bool { a.rawValue < b.rawValue }
        }

        package init(layout: Layout, timezone: String, dayStartMinutes: Int32, rules: Rules = Rules()) {
            self.layout = layout
            self.rules = rules
            let policy = rules.streakPolicy, bounds = rules.routineBounds
            let header: [(String, JSON)] = [
                ("format", .string(formatName)), ("schema_version", .int(schemaVersion)),
                ("timezone", .string(timezone)), ("day_start_minutes", .int(Int64(dayStartMinutes))),
                ("week_start", .int(Int64(rules.weekStart))),
                (
                    "streak_policy",
                    .object([
                        ("miss_allowance", .int(Int64(policy.missAllowance))), ("open_day", .string(policy.openDay.name)),
                        ("off_days", .string(policy.offDays.name)),
                    ])
                ),
                (
                    "routine_bounds",
                    .object([
                        ("morning", .int(Int64(bounds.morning))), ("day", .int(Int64(bounds.day))),
                        ("evening", .int(Int64(bounds.evening))),
                    ])
                ),
            ]
            switch layout {
            case .json:
                // The header's members, then the lists opened and closed as records arrive.
                var open = JSON.object(header).text
                open.removeLast()
                text = open + ",\"habits\":["
            case .jsonLines:
                JSON.object([("type", .string("header"))] + header).write(into: &text)
                text += "\n"
            }
        }

        package mutating func habit(_ habit: Habit) {
            record(in: .habits, type: "habit", StoreDocument.habitRecord(habit, rules))
        }

        package mutating func entry(_ entry: Entry, key: String?) {
            record(in: .entries, type: "entry", StoreDocument.entryRecord(entry, key: key))
        }

        /// A row of another table; rows of one table come together.
        package mutating func row(table name: String, _ row: JSON) {
            switch layout {
            case .jsonLines:
                record(in: .tables, type: "row", [("table", .string(name)), ("row", row)])
            case .json:
                enter(.tables)
                if table != name {
                    if table != nil { text += "]," }
                    JSON.string(name).write(into: &text)
                    text += ":["
                    table = name
                    firstInSection = true
                }
                if !firstInSection { text += "," }
                firstInSection = false
                row.write(into: &text)
            }
        }

        /// Closes the document; nothing may be written after it.
        package mutating func finish() {
            guard layout == .json else { section = .done; return }
            enter(.tables)
            text += table == nil ? "}}\n" : "]}}\n"
            section = .done
        }

        private mutating func record(in target: Section, type: String, _ members: [(String, JSON)]) {
            switch layout {
            case .jsonLines:
                section = max(section, target)
                JSON.object([("type", .string(type))] + members).write(into: &text)
                text += "\n"
            case .json:
                enter(target)
                if !firstInSection { text += "," }
                firstInSection = false
                JSON.object(members).write(into: &text)
            }
        }

        /// JSON: closes the lists before `target` and opens the ones up to it.
        private mutating func enter(_ target: Section) {
            while section < target {
                switch section {
                case .habits: text += "],\"entries\":["
                case .entries: text += "],\"tables\":{"
                case .tables, .done: break
                }
                section = Section(rawValue: section.rawValue + 1) ?? .done
                firstInSection = true
            }
        }
    }

    private static func date(_ day: Int32) -> JSON {
        .string((try? CivilDate.format(day)) ?? "")
    }

    private static func optional(_ text: String?) -> JSON {
        text.map(JSON.string) ?? .null
    }

    private static func habitRecord(_ habit: Habit) -> [(String, JSON)] {
        let spec = habit.spec
        return [
            ("id", .int(habit.id)), ("name", .string(spec.name)), ("kind", .string(spec.kind.name)),
            ("target", .double(spec.target)), ("direction", .string(spec.direction.name)),
            ("group", optional(spec.group)), ("unit", optional(spec.unit)), ("routine", .string(spec.routine.name)),
            ("proof_required", .bool(spec.proofRequired)), ("start_date", date(spec.startDay)),
            ("archived_date", habit.archivedDay.map(date) ?? .null), ("created_at_ms", .int(habit.createdAtMs)),
            // Each version of the judging settings (named "schedules" as before they grew).
            (
                "schedules",
                .array(
                    habit.versions.map {
                        .object([
                            ("from", date($0.fromDay)), ("schedule", .string($0.schedule.description)), ("target", .double($0.target)),
                            ("direction", .string($0.direction.name)), ("proof_required", .bool($0.proofRequired)),
                            ("group", optional($0.group)), ("archived", .bool($0.archived)),
                        ])
                    })
            ),
        ] + displayRecord(spec.display)
    }

    /// The display fields that are set (a habit without them is written as before 1.1).
    private static func displayRecord(_ display: HabitDisplay) -> [(String, JSON)] {
        var fields: [(String, JSON)] = []
        if let text = display.description { fields.append(("description", .string(text))) }
        if let text = display.question { fields.append(("question", .string(text))) }
        if let text = display.colour { fields.append(("colour", .string(text))) }
        if let text = display.icon { fields.append(("icon", .string(text))) }
        if display.position != 0 { fields.append(("position", .int(display.position))) }
        return fields
    }

    /// A habit with its own streak policy fields (null: the store's).
    private static func habitRecord(_ habit: Habit, _ rules: Rules) -> [(String, JSON)] {
        let own = rules.habitPolicies[habit.id]
        let allowance: JSON = own?.missAllowance.map { .int(Int64($0)) } ?? .null
        let openDay: JSON = own?.openDay.map { .string($0.name) } ?? .null
        return habitRecord(habit) + [("streak_policy", .object([("miss_allowance", allowance), ("open_day", openDay)]))]
    }

    private static func entryRecord(_ entry: Entry, key: String?) -> [(String, JSON)] {
        [
            ("id", .int(entry.id)), ("habit_id", .int(entry.habitId)), ("date", date(entry.day)),
            ("kind", .string(entry.kind.name)), ("value", .double(entry.value)),
            ("recorded_at_ms", .int(entry.recordedAtMs)), ("source", .string(entry.source.name)),
            ("undoes", entry.undoes.map(JSON.int) ?? .null), ("note", optional(entry.note)),
        ] + (key.map { [("key", JSON.string($0))] } ?? [])
    }

    /// The layout a text is in, read from its content: JSON Lines when its first line is
    /// a whole JSON object whose "type" is "header", else one JSON document.
    package static func detectLayout(_ text: String) -> Layout {
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first { line in
            !line.allSatisfy { $0 == " " || $0 == "\r" || $0 == "\t" }
        }
        guard let firstLine, let record = try? JSON.parse(String(firstLine)), (try? record.string("type")) == "header" else { return .json }
        return .jsonLines
    }

    // MARK: Reading

    /// Takes a document's records in order as they are read, each parsed and checked on
    /// its own: what a record must agree with among the ones before it (ids, names,
    /// undo targets, keys) is the sink's to check, as it holds them (an import writes
    /// each as read, so a file of any size is never whole in memory).
    package protocol Sink {
        mutating func header(_ settings: Settings) throws(HabitError)
        mutating func habit(_ item: ImportPlan.HabitItem, id: Int64) throws(HabitError)
        /// An entry as the document gives it: its id, its habit's and the one it undoes
        /// are the document's; key: the retry key it was appended with, if any.
        mutating func entry(_ entry: Entry, key: String?) throws(HabitError)
        /// A row of another table, checked by the store when written back.
        mutating func row(table: String, _ row: JSON) throws(HabitError)
        /// A JSON document's count of habits and entries, once it is parsed (before them).
        mutating func expect(records: Int) throws(HabitError)
    }

    /// Reads a whole document into sink. Errors name the line (JSON Lines) or the
    /// element ("habits[2]", "entries[17]") at fault.
    package static func read<S: Sink>(_ text: String, layout: Layout, into sink: inout S) throws(HabitError) {
        switch layout {
        case .json:
            let document = try JSON.parse(text)
            try sink.header(try RecordReader.header(document))
            let habits = try document.array("habits")
            let entries = try document.array("entries")
            try sink.expect(records: habits.count + entries.count)
            for (i, habit) in habits.enumerated() {
                do throws(HabitError) { try RecordReader.habit(habit, into: &sink) } catch { throw error.prefixed("habits[\(i)]") }
            }
            for (i, entry) in entries.enumerated() {
                do throws(HabitError) { try RecordReader.entry(entry, into: &sink) } catch { throw error.prefixed("entries[\(i)]") }
            }
            if let tables = try document.optionalObject("tables"), case .object(let members) = tables {
                for (name, rows) in members {
                    guard case .array(let list) = rows else { throw .invalid("tables.\(name.prefix(64)) must be an array of rows") }
                    for row in list { try sink.row(table: name, row) }
                }
            }
        case .jsonLines:
            var lines = LinesReader()
            let bytes = text.utf8
            var start = bytes.startIndex
            while true {
                // Each line copied on its own: the text is not held twice.
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
                try lines.line(ArraySlice(bytes[start..<end]), into: &sink)
                guard end < bytes.endIndex else { break }
                start = bytes.index(after: end)
            }
            try lines.finish()
        }
    }

    /// Reads a JSON Lines document a line at a time, so a file need never be whole in
    /// memory: the one reader of the layout (read drives it over a text, an import
    /// from a file over the lines it reads). Errors name the line.
    package struct LinesReader {
        private var lineNumber = 0
        private var sawHeader = false

        package init() {}

        /// The next line's bytes, without its "\n", its record handed to sink.
        /// (Concrete bytes, not a generic collection: a generic call from another module
        /// would go through witnesses for every byte.)
        package mutating func line<S: Sink>(_ line: ArraySlice<UInt8>, into sink: inout S) throws(HabitError) {
            lineNumber += 1
            if Self.isBlank(line) { return }
            do throws(HabitError) {
                let record = try JSON.parse(Array(line))
                let type = try record.string("type")
                switch type {
                case "header" where !sawHeader: try sink.header(try RecordReader.header(record)); sawHeader = true
                case "habit" where sawHeader: try RecordReader.habit(record, into: &sink)
                case "entry" where sawHeader: try RecordReader.entry(record, into: &sink)
                case "row" where sawHeader:
                    guard let row = record["row"] else { throw HabitError.invalid("a row record needs 'row'") }
                    try sink.row(table: try record.string("table"), row)
                default: throw HabitError.invalid(sawHeader ? "unexpected record type '\(type.prefix(20))'" : "the first record must be the header")
                }
            } catch {
                throw error.prefixed("line \(lineNumber)")
            }
        }

        /// A line of spaces, tabs and a "\r" (or nothing): skipped, and no help
        /// in telling the layout.
        package static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
            line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }
        }

        /// The end of the document: it had a header.
        package func finish() throws(HabitError) {
            guard sawHeader else { throw .invalid("no header line") }
        }
    }

    /// A document's records as read, none checked against another (the sink that
    /// writes them does that): what tests and the fuzzer read a text into.
    package struct Records: Sink {
        package var settings: Settings?
        package var habits: [(id: Int64, item: ImportPlan.HabitItem)] = []
        package var entries: [(entry: Entry, key: String?)] = []
        package var rows: [(table: String, row: JSON)] = []

        package init() {}

        package mutating func header(_ settings: Settings) { self.settings = settings }
        package mutating func habit(_ item: ImportPlan.HabitItem, id: Int64) { habits.append((id, item)) }
        package mutating func entry(_ entry: Entry, key: String?) { entries.append((entry, key)) }
        package mutating func row(table: String, _ row: JSON) { rows.append((table, row)) }
    }

    package static func decode(_ text: String, layout: Layout) throws(HabitError) -> Records {
        var records = Records()
        try read(text, layout: layout, into: &records)
        return records
    }

    /// Each record read and checked on its own.
    private enum RecordReader {
        static func header(_ record: JSON) throws(HabitError) -> Settings {
            guard (try? record.string("format")) == StoreDocument.formatName else {
                throw .invalid("not a habitcore store export ('format' is not '\(StoreDocument.formatName)')")
            }
            let version = try record.int("schema_version")
            guard version <= StoreDocument.schemaVersion else {
                throw HabitError(.tooNew, "export schema_version \(version) is newer than this library reads (\(StoreDocument.schemaVersion))")
            }
            let timezone = try record.string("timezone")
            _ = try ZoneRules.classify(timezone)
            let dayStart = try record.int("day_start_minutes")
            guard let minutes = Int32(exactly: dayStart) else { throw .invalid("'day_start_minutes' out of range") }
            try DayClock.validateDayStart(minutes)
            var settings = Settings(timezone: timezone, dayStartMinutes: minutes)
            // The rules below came later: a document without them leaves the store's as they are.
            if let weekStart = try record.optionalInt("week_start") {
                try DayClock.validateWeekStart(weekStart)
                settings.weekStart = Int(weekStart)
            }
            if let policy = try record.optionalObject("streak_policy") {
                let own = try Self.habitPolicy(policy)
                guard let allowance = own.missAllowance, let openDay = own.openDay,
                    let offDays = StreakPolicy.OffDays(name: try policy.string("off_days"))
                else {
                    throw .invalid("'streak_policy' needs miss_allowance, open_day (previous, zero) and off_days (skip, break)")
                }
                settings.streakPolicy = StreakPolicy(missAllowance: allowance, openDay: openDay, offDays: offDays)
            }
            if let bounds = try record.optionalObject("routine_bounds") {
                guard let morning = Int32(exactly: try bounds.int("morning")), let day = Int32(exactly: try bounds.int("day")),
                    let evening = Int32(exactly: try bounds.int("evening"))
                else { throw .invalid("'routine_bounds' out of range") }
                settings.routineBounds = try RoutineBounds(morning: morning, day: day, evening: evening).validated()
            }
            return settings
        }

        /// A streak policy object's miss allowance and open day, each null for the store's.
        static func habitPolicy(_ record: JSON) throws(HabitError) -> StreakPolicy.Override {
            var allowance: Int32?
            if let value = try record.optionalInt("miss_allowance") {
                guard let exact = Int32(exactly: value) else { throw .invalid("'miss_allowance' out of range") }
                try StreakPolicy.validate(missAllowance: exact)
                allowance = exact
            }
            var openDay: StreakPolicy.OpenDay?
            if let name = try record.optionalString("open_day") {
                guard let value = StreakPolicy.OpenDay(name: name) else { throw .invalid("'open_day' must be previous or zero") }
                openDay = value
            }
            return StreakPolicy.Override(missAllowance: allowance, openDay: openDay)
        }

        static func habit<S: Sink>(_ record: JSON, into sink: inout S) throws(HabitError) {
            let id = try record.int("id")
            let startDay = try CivilDate.parseDay(try record.string("start_date"))
            // A document from before the versions grew gives each the habit's own values.
            let target = try record.number("target"), direction = try Direction(name: try record.string("direction"))
            let proof = try record.bool("proof_required"), group = try record.optionalString("group")
            var versions: [SettingsVersion] = []
            for item in try record.array("schedules") {
                let version = SettingsVersion(
                    fromDay: try CivilDate.parseDay(try item.string("from")), schedule: try Schedule(parsing: try item.string("schedule")),
                    target: item["target"] == nil ? target : try item.number("target"),
                    direction: item["direction"] == nil ? direction : try Direction(name: try item.string("direction")),
                    proofRequired: item["proof_required"] == nil ? proof : try item.bool("proof_required"),
                    group: item["group"] == nil ? group : try item.optionalString("group"),
                    archived: item["archived"] == nil ? false : try item.bool("archived"))
                if let last = versions.last, last.fromDay >= version.fromDay { throw .invalid("'schedules' must be in date order") }
                versions.append(version)
            }
            guard let current = versions.last?.schedule else { throw .invalid("'schedules' must not be empty") }
            let spec = try HabitSpec(
                name: try record.string("name"), kind: try HabitKind(name: try record.string("kind")),
                target: try record.number("target"), direction: try Direction(name: try record.string("direction")),
                group: try record.optionalString("group"), unit: try record.optionalString("unit"),
                routine: try RoutineTime(name: try record.string("routine")), proofRequired: try record.bool("proof_required"),
                startDay: startDay, schedule: current,
                display: HabitDisplay(
                    description: try record.optionalString("description"), question: try record.optionalString("question"),
                    colour: try record.optionalString("colour"), icon: try record.optionalString("icon"),
                    position: try record.optionalInt("position") ?? 0)
            ).validated()
            let archived = try record.optionalString("archived_date")
            let own = try record.optionalObject("streak_policy").map { (policy) throws(HabitError) in try Self.habitPolicy(policy) }
            // Each version checked as the habit's own fields are.
            for index in versions.indices {
                let checked = try spec.judged(by: versions[index]).validated()
                versions[index] = SettingsVersion(fromDay: versions[index].fromDay, spec: checked, archived: versions[index].archived)
            }
            let item = ImportPlan.HabitItem(
                spec: spec, versions: versions,
                archivedDay: try archived.map { (text) throws(HabitError) in try CivilDate.parseDay(text) },
                createdAtMs: try record.int("created_at_ms"),
                streakPolicy: own ?? .none)
            try EntryRules.validate(utcMs: item.createdAtMs, field: "created_at_ms")
            try sink.habit(item, id: id)
        }

        static func entry<S: Sink>(_ record: JSON, into sink: inout S) throws(HabitError) {
            let entry = Entry(
                id: try record.int("id"), habitId: try record.int("habit_id"), day: try CivilDate.parseDay(try record.string("date")),
                kind: try EntryKind(name: try record.string("kind")), value: try record.number("value"),
                recordedAtMs: try record.int("recorded_at_ms"), source: try EntrySource(name: try record.string("source")),
                undoes: try record.optionalInt("undoes"), note: try record.optionalString("note"))
            try sink.entry(entry, key: try record.optionalString("key"))
        }
    }
}

extension StoreDocument.Sink {
    /// Most sinks have no use for the count.
    package mutating func expect(records: Int) {}
}
