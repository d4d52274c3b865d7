import CHabitCore

/// The words the command line uses for the library's constants.
enum Names {
    static let kinds: [(String, Int32)] = [
        ("checkmark", HC_KIND_CHECKMARK), ("counter", HC_KIND_COUNTER),
        ("duration", HC_KIND_DURATION), ("measurement", HC_KIND_MEASUREMENT),
    ]
    static let routines: [(String, Int32)] = [
        ("anytime", HC_ROUTINE_ANYTIME), ("morning", HC_ROUTINE_MORNING), ("day", HC_ROUTINE_DAY), ("evening", HC_ROUTINE_EVENING),
    ]
    static let entryKinds: [(String, Int32)] = [
        ("done", HC_ENTRY_DONE), ("amount", HC_ENTRY_AMOUNT), ("total", HC_ENTRY_TOTAL), ("skip", HC_ENTRY_SKIP), ("undo", HC_ENTRY_UNDO),
    ]
    static let sources: [(String, Int32)] = [
        ("manual", HC_SOURCE_MANUAL), ("import", HC_SOURCE_IMPORT), ("health", HC_SOURCE_HEALTH), ("proof", HC_SOURCE_PROOF),
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

    static func direction(_ value: Int32) -> String { value == HC_DIRECTION_AT_MOST ? "at_most" : "at_least" }
}
