import HabitKit

/// The words the command line uses for the library's constants.
enum Names {
    static let kinds: [(String, Int32)] = [
        ("checkmark", HabitKind.checkmark.rawValue), ("counter", HabitKind.counter.rawValue),
        ("duration", HabitKind.duration.rawValue), ("measurement", HabitKind.measurement.rawValue),
        ("quit", HabitKind.quit.rawValue),
    ]
    static let routines: [(String, Int32)] = [
        ("anytime", Routine.anytime.rawValue), ("morning", Routine.morning.rawValue), ("day", Routine.day.rawValue),
        ("evening", Routine.evening.rawValue),
    ]
    static let entryKinds: [(String, Int32)] = [
        ("done", EntryKind.done.rawValue), ("amount", EntryKind.amount.rawValue), ("total", EntryKind.total.rawValue),
        ("skip", EntryKind.skip.rawValue), ("undo", EntryKind.undo.rawValue), ("relapse", EntryKind.relapse.rawValue),
    ]
    static let quitPeriods: [(String, Int32)] = [
        ("day", QuitPeriod.day.rawValue), ("week", QuitPeriod.week.rawValue), ("month", QuitPeriod.month.rawValue),
    ]
    static let timerStates: [(String, Int32)] = [
        ("running", TimerState.running.rawValue), ("paused", TimerState.paused.rawValue), ("stopped", TimerState.stopped.rawValue),
        ("discarded", TimerState.discarded.rawValue),
    ]
    static let sources: [(String, Int32)] = [
        ("manual", EntrySource.manual), ("import", EntrySource.imported), ("health", EntrySource.health), ("proof", EntrySource.proof),
    ]

    static func name(_ value: Int32, in table: [(String, Int32)]) -> String {
        table.first { $0.1 == value }?.0 ?? String(value)
    }

    static func value(_ name: String, in table: [(String, Int32)], what: String) throws(CLIError) -> Int32 {
        guard let match = table.first(where: { $0.0 == name.lowercased() }) else {
            throw CLIError.usage("\(what) '\(name)' is not one of \(table.map(\.0).joined(separator: ", "))")
        }
        return match.1
    }

    static func direction(_ value: Int32) -> String { value == Direction.atMost.rawValue ? "at_most" : "at_least" }
}
