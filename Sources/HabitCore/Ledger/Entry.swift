package enum EntryKind: Int32, Sendable, CaseIterable {
    case done = 1
    case amount = 2
    case total = 3
    case skip = 4
    case undo = 5

    package var name: String {
        switch self {
        case .done: return "done"
        case .amount: return "amount"
        case .total: return "total"
        case .skip: return "skip"
        case .undo: return "undo"
        }
    }

    package init(name: String) throws(HabitError) {
        guard let kind = EntryKind.allCases.first(where: { $0.name == name }) else {
            throw .invalid("entry kind '\(name.prefix(40))' is not one of done, amount, total, skip, undo")
        }
        self = kind
    }
}

package enum EntrySource: Int32, Sendable, CaseIterable {
    case manual = 1
    case `import` = 2
    case health = 3
    case proof = 4

    package var name: String {
        switch self {
        case .manual: return "manual"
        case .import: return "import"
        case .health: return "health"
        case .proof: return "proof"
        }
    }

    package init(name: String) throws(HabitError) {
        guard let source = EntrySource.allCases.first(where: { $0.name == name }) else {
            throw .invalid("source '\(name.prefix(40))' is not one of manual, import, health, proof")
        }
        self = source
    }
}

/// One line of the append-only ledger.
package struct Entry: Equatable, Sendable {
    package var id: Int64
    package var habitId: Int64
    package var day: Int32
    package var kind: EntryKind
    package var value: Double
    package var recordedAtMs: Int64
    package var source: EntrySource
    /// For undo entries: the entry they cancel.
    package var undoes: Int64?
    package var note: String?

    package init(id: Int64, habitId: Int64, day: Int32, kind: EntryKind, value: Double, recordedAtMs: Int64,
                 source: EntrySource, undoes: Int64?, note: String?) {
        self.id = id
        self.habitId = habitId
        self.day = day
        self.kind = kind
        self.value = value
        self.recordedAtMs = recordedAtMs
        self.source = source
        self.undoes = undoes
        self.note = note
    }
}

/// The rules an entry must meet before it is appended.
package enum EntryRules {
    package static let maxValue = 1e12
    package static let maxNoteBytes = 4096

    /// Which entry kinds a habit takes, and what their values may be.
    package static func validate(kind: EntryKind, value: Double, note: String?, for habit: HabitSpec) throws(HabitError) {
        let allowed: [EntryKind]
        switch habit.kind {
        case .checkmark: allowed = [.done, .skip]
        case .counter, .duration: allowed = [.done, .amount, .total, .skip]
        case .measurement: allowed = [.amount, .skip]
        }
        guard allowed.contains(kind) else {
            throw .invalid("a \(habit.kind.name) habit takes \(allowed.map(\.name).joined(separator: ", ")) entries, not \(kind.name)")
        }
        if kind == .amount || kind == .total {
            guard value.isFinite, abs(value) <= maxValue else { throw .invalid("value must be a finite number within ±1e12") }
            if kind == .total && value < 0 { throw .invalid("a total must not be negative") }
        }
        if let note { try TextRules.validate(note, field: "note", maxBytes: maxNoteBytes, allowEmpty: true) }
    }

    package static let maxKeyBytes = 200

    /// A retry key: 1 to 200 bytes of text without control characters. It is compared
    /// byte for byte, as a caller's request id is.
    package static func validate(key: String) throws(HabitError) {
        try TextRules.validate(key, field: "key", maxBytes: maxKeyBytes)
    }

    /// Entries may be for any past day and for up to one day ahead (travellers east of home).
    package static func validate(day: Int32, today: Int32) throws(HabitError) {
        guard CivilDate.isValid(day) else { throw .invalid("day \(day) is outside 0001-01-01...9999-12-31") }
        guard Int64(day) <= Int64(today) + 1 else {
            let text = (try? CivilDate.format(day)) ?? String(day)
            throw .invalid("\(text) is in the future")
        }
    }

    /// A moment in UTC milliseconds must fall in the years 0001 to 9999, as days do.
    package static func validate(utcMs: Int64, field: String) throws(HabitError) {
        let first = Int64(CivilDate.minDay) * 86_400_000, last = (Int64(CivilDate.maxDay) + 1) * 86_400_000 - 1
        guard utcMs >= first, utcMs <= last else { throw .invalid("'\(field)' \(utcMs) is outside the years 0001 to 9999") }
    }

    /// Whether `target` may be cancelled by a new undo entry.
    package static func validateUndo(of target: Entry, alreadyUndone: Bool) throws(HabitError) {
        guard target.kind != .undo else { throw .conflict("entry \(target.id) is an undo; log the entry again instead") }
        guard !alreadyUndone else { throw .conflict("entry \(target.id) is already undone") }
    }
}
