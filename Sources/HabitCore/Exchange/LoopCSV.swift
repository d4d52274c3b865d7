/// Loop Habit Tracker's CSV export (Habits.csv and the top-level Checkmarks.csv),
/// read into an ImportPlan. Loop marks: YES_MANUAL (2) a check, YES_AUTO (1) a day
/// Loop implied from the frequency, NO (0), UNKNOWN (-1), SKIP (3); measurable
/// habits hold numbers. Only what a person entered becomes an entry.
package enum LoopCSV {
    /// A Loop number habit's target as ours: Loop allows 0 (an at-most "none", as a quit
    /// habit exports); here a number's target is above 0, so 0 (or less) is its smallest
    /// stored amount. Both Loop imports, the CSV and the backup, read targets by it.
    package static func numberTarget(_ loopTarget: Double) -> Double {
        loopTarget.isFinite && loopTarget > 0 ? loopTarget : 0.001
    }

    /// `notes`: per habit (by its Habits.csv Position), the notes of its days, from
    /// its own folder's Checkmarks.csv (Loop's zip has them); a note goes with the
    /// entry made that day.
    package static func plan(
        habitsCSV: String, checkmarksCSV: String, notes: [Int: [Int32: String]] = [:],
        today: Int32, nowMs: Int64
    ) throws(HabitError) -> ImportPlan {
        let habitRows = try rows(habitsCSV, file: "Habits.csv")
        guard let header = habitRows.first else { throw .invalid("Habits.csv: empty file") }
        let column = Dictionary(header.enumerated().map { ($1.trimmed.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        guard let nameColumn = column["name"] else { throw .invalid("Habits.csv line 1: no Name column") }

        var plan = ImportPlan()
        var loopHabits: [(name: String, numeric: Bool, position: Int?)] = []
        for (offset, row) in habitRows.enumerated().dropFirst() where !(row.count == 1 && row[0].isEmpty) {
            let line = offset + 1
            func field(_ name: String) -> String? {
                guard let index = column[name], index < row.count else { return nil }
                let value = row[index].trimmed
                return value.isEmpty ? nil : value
            }
            /// A text cell as Loop wrote it, spaces and all, so that an export gives it back.
            func rawField(_ name: String) -> String? {
                guard let index = column[name], index < row.count, !row[index].isEmpty else { return nil }
                return row[index]
            }
            do throws(HabitError) {
                guard nameColumn < row.count else { throw .invalid("missing Name") }
                let name = row[nameColumn].trimmed
                let type = (field("type") ?? "YES_NO").uppercased().replacingSpaces()
                let numeric = type.hasPrefix("NUMERICAL") || type.hasPrefix("MEASURABLE")
                guard numeric || type.hasPrefix("YES_NO") else { throw .invalid("unknown habit Type '\(type.prefix(30))'") }
                let numerator = try integer(field("frequencynumerator") ?? field("numrepetitions") ?? "1", "frequency")
                let denominator = try integer(field("frequencydenominator") ?? field("interval") ?? "1", "frequency")
                let atMost = (field("target type") ?? "AT_LEAST").uppercased().replacingSpaces() == "AT_MOST"
                var target = 1.0
                if numeric {
                    guard let value = Double(field("target value") ?? ""), value.isFinite, value >= 0 else {
                        throw .invalid("Target Value must be a number, 0 or more")
                    }
                    target = LoopCSV.numberTarget(value)
                }
                let archived = (field("archived?") ?? "false").lowercased() == "true"
                // Loop numbers its habits from 1 in its order ("001"): kept as that order; without
                // a number, the row's place.
                let position = field("position").flatMap { Int64($0) } ?? Int64(offset)
                // A colour that is not #RRGGBB (never Loop's own) is left out rather than the whole
                // history refused: it only decorates.
                let colour = (try? HabitDisplay.colour(field("color"))) ?? nil
                let display = HabitDisplay(
                    description: rawField("description"), question: rawField("question"),
                    colour: colour, position: position)
                let spec = try HabitSpec(
                    name: name, kind: numeric ? .counter : .checkmark, target: target,
                    direction: atMost ? .atMost : .atLeast, group: nil, unit: numeric ? field("unit") : nil,
                    routine: .anytime, proofRequired: false, startDay: today,
                    schedule: schedule(numerator: numerator, denominator: denominator), display: display
                ).validated()
                plan.habits.append(.init(spec: spec, versions: [], archivedDay: archived ? today : nil, createdAtMs: nowMs))
                loopHabits.append((name, numeric, field("position").flatMap { Int($0) }))
            } catch {
                throw error.prefixed("Habits.csv line \(line)")
            }
        }
        plan.makeNamesUnique()

        let markRows = try rows(checkmarksCSV, file: "Checkmarks.csv")
        guard let markHeader = markRows.first, markHeader.first?.trimmed.lowercased() == "date" else {
            throw .invalid("Checkmarks.csv line 1: expected a header starting with Date")
        }
        // Loop writes this header unquoted, in Habits.csv's order: a name with a
        // comma spans several cells, and duplicate names are told apart by order.
        // Data cells hold one value per habit, so habits map to data columns by rank.
        var habitOfColumn: [Int: Int] = [:]
        var pieces = markHeader.dropFirst().map(\.trimmed)
        while pieces.last?.isEmpty == true { pieces.removeLast() }
        var piece = 0, nextHabit = 0
        while piece < pieces.count {
            var matched: (habit: Int, width: Int)? = nil
            for habit in nextHabit..<loopHabits.count {
                let name = loopHabits[habit].name
                if pieces[piece] == name { matched = (habit, 1); break }
                let parts = name.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmed }
                if parts.count > 1, piece + parts.count <= pieces.count, Array(pieces[piece..<piece + parts.count]) == parts {
                    matched = (habit, parts.count); break
                }
            }
            guard let matched else {
                throw .invalid("Checkmarks.csv line 1: column '\(pieces[piece].prefix(60))' is not a habit of Habits.csv (in its order)")
            }
            habitOfColumn[1 + habitOfColumn.count] = matched.habit
            piece += matched.width
            nextHabit = matched.habit + 1
        }
        for (offset, row) in markRows.enumerated().dropFirst() where !(row.count == 1 && row[0].isEmpty) {
            do throws(HabitError) {
                let day = try CivilDate.parseDay(row[0].trimmed)
                for (column, habit) in habitOfColumn.sorted(by: { $0.key < $1.key }) where column < row.count {
                    guard let (kind, value) = try mark(row[column].trimmed, numeric: loopHabits[habit].numeric) else { continue }
                    let note = loopHabits[habit].position.flatMap { notes[$0]?[day] }
                    try plan.append(
                        .init(
                            habitIndex: habit, day: day, kind: kind, value: value, recordedAtMs: nowMs,
                            source: .import, note: note))
                }
            } catch {
                throw error.prefixed("Checkmarks.csv line \(offset + 1)")
            }
        }
        plan.startHabitsOnTheirFirstEntry(today: today)
        return plan
    }

    /// Loop's zip, its files by path: Habits.csv and Checkmarks.csv (beside each
    /// other, at the top or in one folder), and each habit's folder "NNN Name/" with
    /// its Checkmarks.csv (Date,Value,Notes), NNN its Position, for the notes.
    package static func plan(archive files: [String: String], today: Int32, nowMs: Int64) throws(HabitError) -> ImportPlan {
        let habitsPath = files.keys.filter { $0 == "Habits.csv" || $0.hasSuffix("/Habits.csv") }.min { $0.count < $1.count }
        guard let habitsPath, let habitsCSV = files[habitsPath] else { throw .invalid("zip: no Habits.csv (not Loop's CSV export)") }
        let folder = String(habitsPath.dropLast("Habits.csv".count))
        guard let checkmarksCSV = files[folder + "Checkmarks.csv"] else { throw .invalid("zip: no Checkmarks.csv beside \(habitsPath.prefix(100))") }
        var notes: [Int: [Int32: String]] = [:]
        for (path, text) in files where path.hasPrefix(folder) && path.hasSuffix("/Checkmarks.csv") {
            let habitFolder = path.dropFirst(folder.count).dropLast("/Checkmarks.csv".count)
            guard !habitFolder.contains("/"), let position = Int(habitFolder.prefix { $0.isNumber }) else { continue }
            let label = String(path.prefix(120))
            let habitRows = try rows(text, file: label)
            guard let header = habitRows.first?.map({ $0.trimmed.lowercased() }), header.first == "date",
                let noteColumn = header.firstIndex(of: "notes")
            else { continue }
            for (offset, row) in habitRows.enumerated().dropFirst() where noteColumn < row.count && !row[noteColumn].isEmpty {
                do throws(HabitError) {
                    notes[position, default: [:]][try CivilDate.parseDay(row[0].trimmed)] = row[noteColumn]
                } catch {
                    throw error.prefixed("\(label) line \(offset + 1)")
                }
            }
        }
        return try plan(habitsCSV: habitsCSV, checkmarksCSV: checkmarksCSV, notes: notes, today: today, nowMs: nowMs)
    }

    /// Loop's frequency "numerator times in denominator days" as itself: 1/1 daily,
    /// any other n/d times:n/d (2/2 is not daily: Loop's window differs).
    static func schedule(numerator: Int, denominator: Int) throws(HabitError) -> Schedule {
        guard numerator >= 1, denominator >= 1, numerator <= denominator, denominator <= 365 else {
            throw .invalid("frequency \(numerator)/\(denominator) is not a number of times in 1...365 days")
        }
        if numerator == 1 && denominator == 1 { return .daily }
        return .timesInDays(numerator, denominator)
    }

    /// A cell of Checkmarks.csv as an entry. Loop writes a stored value: marks by
    /// name (YES_MANUAL 2, YES_AUTO 1, NO 0, SKIP 3, UNKNOWN -1), and for numbers the
    /// stored integer, thousandths of the amount (2.5 km is 2500) — so a number
    /// that happens to be 1, 2 or 3 thousandths is written as a mark's name.
    private static func mark(_ text: String, numeric: Bool) throws(HabitError) -> (EntryKind, Double)? {
        switch text.uppercased() {
        case "", "UNKNOWN", "-1", "NO", "0": return nil
        case "SKIP", "3": return (.skip, 0)
        case "YES_AUTO", "1": return numeric ? (.amount, 0.001) : nil
        case "YES_MANUAL", "2": return numeric ? (.amount, 0.002) : (.done, 0)
        default:
            guard numeric, let stored = Int64(text), stored > 0, stored <= 1_000_000_000_000_000 else {
                throw .invalid("'\(text.prefix(30))' is not a Loop value" + (numeric ? " (numbers are whole thousandths, as Loop exports them)" : ""))
            }
            return (.amount, Double(stored) / 1000)
        }
    }

    private static func integer(_ text: String, _ field: String) throws(HabitError) -> Int {
        guard let value = Int(text) else { throw .invalid("\(field) '\(text.prefix(20))' is not a whole number") }
        return value
    }

    /// RFC 4180 rows: quoted fields may hold commas, quotes ("") and newlines.
    static func rows(_ text: String, file: String) throws(HabitError) -> [[String]] {
        guard text.utf8.count <= 256 * 1024 * 1024 else { throw .invalid("\(file): larger than 256 MiB") }
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    let next = iterator.next()
                    if next == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = next }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where field.isEmpty: quoted = true
            case ",": row.append(field); field = ""
            case "\r": break
            case "\n":
                row.append(field); field = ""
                rows.append(row); row = []
                line += 1
            default: field.unicodeScalars.append(c)
            }
        }
        guard !quoted else { throw .invalid("\(file) line \(line): unterminated quoted field") }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}

private extension String {
    var trimmed: String {
        var scalars = Substring(self)
        while scalars.first == " " || scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }

    func replacingSpaces() -> String {
        String(map { $0 == " " ? "_" : $0 })
    }
}
