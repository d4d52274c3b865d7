import HabitKit

/// Conveniences over HabitKit.
enum Library {
    /// "YYYY-MM-DD" as a day number.
    static func parseDate(_ text: String) throws(CLIError) -> Int32 {
        try kit { () throws(HabitError) in try Day(text).rawValue }
    }

    /// A day number as "YYYY-MM-DD", or "?" outside the years it writes.
    static func format(_ day: Int32) -> String {
        Day(rawValue: day).formatted ?? "?"
    }
}

/// Runs HabitKit calls, turning a HabitError into the CLIError with its exit code.
func kit<T>(_ body: () throws(HabitError) -> T) throws(CLIError) -> T {
    do { return try body() } catch { throw CLIError(error) }
}

/// An open store, through HabitKit; closed when the command ends.
final class StoreRef {
    /// The store, for HabitKit's calls.
    let kit: HabitKit.Store

    init(path: String, options: HabitKit.Store.OpenOptions = []) throws(CLIError) {
        kit = try habitctl.kit { () throws(HabitError) in try HabitKit.Store(path: path, options: options) }
    }

    func today() throws(CLIError) -> Int32 {
        try habitctl.kit { () throws(HabitError) in try kit.today().rawValue }
    }

    /// The day a --date option names, else today in the store's zone.
    func day(_ text: String?) throws(CLIError) -> Int32 {
        if let text { return try Library.parseDate(text) }
        return try today()
    }

    /// The habit a HABIT argument names, by the rule in `HabitReference`.
    func habit(_ reference: String) throws(CLIError) -> Habit {
        switch HabitReference(reference) {
        case .id(let id):
            return try habit(id: HabitID(id))
        case .name(let name):
            return try habit(named: name)
        case .idOrName(let id, let name):
            let byId = try? habit(id: HabitID(id)), byName = try? habit(named: name)
            switch (byId, byName) {
            case let (byId?, byName?) where byId.id != byName.id:
                throw CLIError(
                    exitCode: 4,
                    message:
                        "'\(name)' is ambiguous: habit #\(byId.id) is '\(byId.name)' and habit #\(byName.id) is named '\(byName.name)'; write #\(byId.id) or #\(byName.id)"
                )
            case let (found?, _), let (nil, found?):
                return found
            case (nil, nil):
                throw CLIError(exitCode: 3, message: "no habit with id \(id) or named '\(name)'")
            }
        }
    }

    func habit(id: HabitID) throws(CLIError) -> Habit {
        try habitctl.kit { () throws(HabitError) in try kit.habit(id: id) }
    }

    /// The active habit with this name; when there is none, the message suggests a near one.
    func habit(named name: String) throws(CLIError) -> Habit {
        do {
            return try kit.habit(named: name)
        } catch  where error.code == .notFound {
            let names = (try? habits(includeArchived: false).map(\.name)) ?? []
            throw CLIError(HabitError(code: error.code, message: error.message + Suggestion.hint(name, among: names)))
        } catch {
            throw CLIError(error)
        }
    }

    func habits(includeArchived: Bool) throws(CLIError) -> [Habit] {
        try habitctl.kit { () throws(HabitError) in try kit.habits(includingArchived: includeArchived) }
    }

    /// Entries of a habit (nil: every habit) from one day to another, undo entries included.
    func entries(habitId: HabitID?, from: Int32, to: Int32) throws(CLIError) -> [Entry] {
        try habitctl.kit { () throws(HabitError) in
            try kit.entries(habitID: habitId, from: Day(rawValue: from), through: Day(rawValue: to))
        }
    }

    /// One entry of a habit, looked for around today first, then over every day.
    func entry(id: EntryID, habitId: HabitID) throws(CLIError) -> Entry? {
        let today = try today()
        if let entry = try entries(habitId: habitId, from: today - 1, to: today + 1).first(where: { $0.id == id }) { return entry }
        let first = try Library.parseDate("0001-01-01"), last = try Library.parseDate("9999-12-31")
        return try entries(habitId: habitId, from: first, to: last).first { $0.id == id }
    }

    /// A habit's day states from one day to another, 1 to 100000 days.
    func days(habitId: HabitID, from: Int32, to: Int32) throws(CLIError) -> [DayState] {
        let capacity = Int64(to) - Int64(from) + 1
        guard capacity > 0, capacity <= 100_000 else { throw CLIError.invalid("the range must hold 1 to 100000 days") }
        return try habitctl.kit { () throws(HabitError) in
            try kit.dayStates(habitID: habitId, from: Day(rawValue: from), through: Day(rawValue: to))
        }
    }
}
