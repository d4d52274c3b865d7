/// Habits back out in Loop Habit Tracker's CSV export format (Habits.csv and the
/// top-level Checkmarks.csv), as Loop's exporter writes them, so that a Loop
/// export imported here and exported again is the same table.
///
/// - Habits.csv: Loop's columns; a schedule as the frequency strength uses
///   (Strength.frequency); Question, Description and Color from the habit's display
///   fields. Habits in the app's order (position, then id), numbered from 1 as
///   Loop numbers them. Measurements are left out (Loop has no such habit). A quit
///   habit is a daily numeric habit of its relapses, at most 0 (Loop has no allowance
///   nor saving): its unit "relapses", each day's count as its number.
/// - Checkmarks.csv: one row per day, newest first, from the oldest day with an
///   entry of any habit to `to`; the header unquoted with a trailing comma, as Loop
///   writes it. A yes/no day is YES_MANUAL (done), SKIP, YES_AUTO (a day Loop fills
///   in, below) or UNKNOWN; a number is its amount in whole thousandths, written as
///   Loop names small stored values (0 NO, 1 YES_AUTO, 2 YES_MANUAL, 3 SKIP), UNKNOWN
///   without entries. An explicit NO of Loop's has no entry here: it comes back UNKNOWN.
package enum LoopCSVExport {
    package struct Column: Sendable {
        package var habit: Habit
        /// The days that hold entries.
        package var states: [DayState]
        /// Days with a standing skip entry (a day state drops it once the day is done,
        /// as an at-most day with nothing logged is).
        package var skipDays: Set<Int32>

        package init(habit: Habit, states: [DayState], skipDays: Set<Int32> = []) {
            self.habit = habit
            self.states = states
            self.skipDays = skipDays
        }
    }

    /// The habits Loop can hold, in the app's order: the rows of Habits.csv and the
    /// columns of Checkmarks.csv.
    static func ordered(_ habits: [Habit]) -> [Habit] {
        habits.filter { $0.spec.kind != .measurement }.sorted { ($0.spec.display.position, $0.id) < ($1.spec.display.position, $1.id) }
    }

    package static func habitsCSV(_ habits: [Habit]) -> String {
        var text = "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?\n"
        for (index, habit) in ordered(habits).enumerated() {
            let spec = habit.spec
            let numeric = spec.kind != .checkmark
            let quit = spec.kind == .quit
            let frequency = quit ? (times: 1, days: 1) : Strength.frequency(spec.schedule)
            let position = index + 1 < 10 ? "00\(index + 1)" : index + 1 < 100 ? "0\(index + 1)" : "\(index + 1)"
            let display = spec.display
            let fields = [
                position, spec.name, numeric ? "NUMERICAL" : "YES_NO", display.question ?? "", display.description ?? "",
                "\(frequency.times)", "\(frequency.days)", display.colour ?? "",
                quit ? "relapses" : numeric ? spec.unit ?? "" : "", numeric ? (spec.direction == .atMost ? "AT_MOST" : "AT_LEAST") : "",
                quit ? "0.0" : numeric ? "\(spec.target)" : "", habit.archivedDay == nil ? "false" : "true",
            ]
            text += fields.map(quoted).joined(separator: ",") + "\n"
        }
        return text
    }

    package static func checkmarksCSV(_ columns: [Column], to: Int32) -> String {
        let order = Dictionary(ordered(columns.map(\.habit)).enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let columns = columns.filter { order[$0.habit.id] != nil }.sorted { (order[$0.habit.id] ?? 0) < (order[$1.habit.id] ?? 0) }
        let oldest = min(columns.compactMap { $0.states.lazy.map(\.day).min() }.min() ?? to, to)
        var text = "Date," + columns.map { $0.habit.spec.name + "," }.joined() + "\n"
        let cells = columns.map { marks($0, from: oldest, to: to) }
        var day = to
        while day >= oldest {
            text += ((try? CivilDate.format(day)) ?? "") + ","
            for column in cells { text += column[Int(day - oldest)] + "," }
            text += "\n"
            day -= 1
        }
        return text
    }

    /// A habit's cells for [from, to], oldest first.
    static func marks(_ column: Column, from: Int32, to: Int32) -> [String] {
        var cells = [String](repeating: "UNKNOWN", count: Int(to - from) + 1)
        let spec = column.habit.spec
        if spec.kind == .checkmark {
            let checks = column.states.filter(\.done).map(\.day)
            for interval in filledIntervals(checks: checks, schedule: spec.schedule) {
                var day = max(interval.lowerBound, from)
                while day <= min(interval.upperBound, to) { cells[Int(day - from)] = "YES_AUTO"; day += 1 }
            }
            for state in column.states where state.day >= from && state.day <= to {
                if state.done { cells[Int(state.day - from)] = "YES_MANUAL" } else if state.skipped { cells[Int(state.day - from)] = "SKIP" }
            }
        } else {
            for state in column.states where state.day >= from && state.day <= to && state.entryCount > 0 {
                let skipped = state.skipped || column.skipDays.contains(state.day)
                cells[Int(state.day - from)] = skipped && state.value == 0 ? "SKIP" : storedNumber(state.value)
            }
        }
        return cells
    }

    /// An amount as Loop stores and names it.
    static func storedNumber(_ value: Double) -> String {
        let stored = Strength.thousandths(value)
        switch stored {
        case 0: return "NO"
        case 1: return "YES_AUTO"
        case 2: return "YES_MANUAL"
        case 3: return "SKIP"
        default: return "\(stored)"
        }
    }

    /// The days Loop fills in for a yes/no habit of frequency n/d: every n checks
    /// that fit within d days (d 30 or 31: the month's length, from the older
    /// check's month, or the next month's when it is that month's last day) make
    /// a stretch of d days starting at the older check; then, newest first, each
    /// stretch overlapping the newer one slides back by at most the days from its
    /// newest check to its end, so that stretches line up and streaks are kept.
    static func filledIntervals(checks: [Int32], schedule: Schedule) -> [ClosedRange<Int32>] {
        let frequency = Strength.frequency(schedule)
        let n = frequency.times, d = frequency.days
        let newestFirst = checks.sorted(by: >)
        guard n >= 1, newestFirst.count >= n else { return [] }
        var stretches: [(begin: Int32, newest: Int32, end: Int32)] = []
        for index in (n - 1)..<newestFirst.count {
            let begin = newestFirst[index], newest = newestFirst[index - n + 1]
            var size = Int32(d)
            if d == 30 || d == 31, let date = try? CivilDate(dayNumber: begin) {
                let length = CivilDate.daysInMonth(year: date.year, month: date.month)
                if date.day == length, let next = try? CivilDate(dayNumber: begin + 1) {
                    size = Int32(CivilDate.daysInMonth(year: next.year, month: next.month))
                } else {
                    size = Int32(length)
                }
            }
            if newest - begin < size { stretches.append((begin, newest, begin + size - 1)) }
        }
        if stretches.count > 1 {
            for index in 1..<stretches.count {
                let current = stretches[index], newer = stretches[index - 1]
                let overlap = current.end - newer.begin
                if overlap >= 0 {
                    let shift = min(current.end - current.newest, overlap + 1)
                    stretches[index] = (current.begin - shift, current.newest, current.end - shift)
                }
            }
        }
        return stretches.map { $0.begin...$0.end }
    }

    /// A field as opencsv writes it without quoting all: quoted only when it holds
    /// a comma, a quote or a line break, quotes doubled.
    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        var text = "\""
        for character in field { text += character == "\"" ? "\"\"" : String(character) }
        return text + "\""
    }
}
