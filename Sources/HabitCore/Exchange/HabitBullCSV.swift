/// HabitBull's CSV export (HabitName, HabitDescription, HabitCategory, CalendarDate,
/// Value, CommentText: one row per habit and day), read into an ImportPlan, as Loop
/// Habit Tracker imports it:
/// - a habit per name, in the order names first appear; daily; its category as its
///   group; its description (from the habit's first row) as its description;
/// - a habit with any value above 1 is a counter (target 1: HabitBull has none),
///   else a checkmark; value 1 is done, a value above 1 an amount, 0 or below
///   nothing (with its comment: notes live on entries);
/// - the comment is the entry's note; a later row of the same habit and day
///   replaces an earlier one; dates are YYYY-MM-DD or M/D/YYYY;
/// - a habit starts on its first recorded day.
package enum HabitBullCSV {
    package static func plan(_ csv: String, today: Int32, nowMs: Int64) throws(HabitError) -> ImportPlan {
        let rows = try LoopCSV.rows(csv, file: "HabitBull CSV")
        guard let header = rows.first else { throw .invalid("HabitBull CSV: empty file") }
        let names = header.map { $0.trimmingSpaces().lowercased() }
        func column(_ name: String) throws(HabitError) -> Int {
            guard let index = names.firstIndex(of: name) else {
                throw .invalid("HabitBull CSV line 1: no \(name) column (expected HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText)")
            }
            return index
        }
        let nameColumn = try column("habitname"), categoryColumn = try column("habitcategory")
        let dateColumn = try column("calendardate"), valueColumn = try column("value")
        let commentColumn = names.firstIndex(of: "commenttext")
        let descriptionColumn = names.firstIndex(of: "habitdescription")

        struct Day { var value: Double; var note: String?; var line: Int }
        var order: [String] = []
        var category: [String: String] = [:]
        var description: [String: String] = [:]
        var days: [String: [Int32: Day]] = [:]
        for (offset, row) in rows.enumerated().dropFirst() where !(row.count == 1 && row[0].isEmpty) {
            let line = offset + 1
            func cell(_ index: Int) -> String { index < row.count ? row[index].trimmingSpaces() : "" }
            do throws(HabitError) {
                let name = cell(nameColumn)
                guard !name.isEmpty else { throw .invalid("empty HabitName") }
                let day = try parseDate(cell(dateColumn))
                let text = cell(valueColumn)
                guard let value = Double(text), value.isFinite else { throw .invalid("Value '\(text.prefix(30))' is not a number") }
                if days[name] == nil {
                    order.append(name)
                    days[name] = [:]
                    let group = cell(categoryColumn)
                    if !group.isEmpty { category[name] = group }
                    if let text = descriptionColumn.map(cell), !text.isEmpty { description[name] = text }
                }
                let comment = commentColumn.map(cell) ?? ""
                days[name]?[day] = Day(value: value, note: comment.isEmpty ? nil : comment, line: line)
            } catch {
                throw error.prefixed("HabitBull CSV line \(line)")
            }
        }

        var plan = ImportPlan()
        for name in order {
            let recorded = days[name] ?? [:]
            let numeric = recorded.values.contains { $0.value > 1 }
            let first = recorded.filter { $0.value.value > 0 }.keys.min() ?? today
            let line = recorded.values.map(\.line).min() ?? 0
            do throws(HabitError) {
                let spec = try HabitSpec(
                    name: name, kind: numeric ? .counter : .checkmark, target: 1, direction: .atLeast,
                    group: category[name], unit: nil, routine: .anytime, proofRequired: false,
                    startDay: min(first, today), schedule: .daily,
                    display: HabitDisplay(description: description[name])
                ).validated()
                plan.habits.append(
                    .init(
                        spec: spec, versions: [.first(of: spec)],
                        archivedDay: nil, createdAtMs: nowMs))
            } catch {
                throw error.prefixed("HabitBull CSV line \(line)")
            }
        }
        plan.makeNamesUnique()

        for (index, name) in order.enumerated() {
            let numeric = plan.habits[index].spec.kind == .counter
            for (day, record) in (days[name] ?? [:]).sorted(by: { $0.key < $1.key }) where record.value > 0 {
                do throws(HabitError) {
                    try plan.append(
                        .init(
                            habitIndex: index, day: day, kind: numeric ? .amount : .done, value: numeric ? record.value : 0,
                            recordedAtMs: nowMs, source: .import, note: record.note))
                } catch {
                    throw error.prefixed("HabitBull CSV line \(record.line)")
                }
            }
        }
        return plan
    }

    /// YYYY-MM-DD, or HabitBull's US M/D/YYYY.
    static func parseDate(_ text: String) throws(HabitError) -> Int32 {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return try CivilDate.parseDay(text) }
        guard let month = Int(parts[0]), let day = Int(parts[1]), let year = Int(parts[2]), parts[2].count == 4 else {
            throw .invalid("CalendarDate '\(text.prefix(30))' is not M/D/YYYY or YYYY-MM-DD")
        }
        return try CivilDate(year: year, month: month, day: day).dayNumber
    }
}

private extension String {
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " || scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
