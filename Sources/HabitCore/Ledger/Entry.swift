package enum EntryKind: Int32, Sendable, CaseIterable {
    case done = 1
    case amount = 2
    case total = 3
    case skip = 4
    case undo = 5
    /// A quit habit's slip, at an instant; its value is an optional amount (0: none).
    case relapse = 6

    package var name: String {
        switch self {
        case .relapse: return "relapse"
        case .done: return "done"
        case .amount: return "amount"
        case .total: return "total"
        case .skip: return "skip"
        case .undo: return "undo"
        }
    }

    /// Whether an entry of this kind carries a value: an amount, a total, a relapse's
    /// amount. The others keep 0 (and sync writes none).
    package var carriesValue: Bool { self == .amount || self == .total || self == .relapse }

    package init(name: String) throws(HabitError) {
        guard let kind = EntryKind.allCases.first(where: { $0.name == name }) else {
            throw .invalid("entry kind '\(name.prefix(40))' is not one of done, amount, total, skip, undo, relapse")
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

    package init(
        id: Int64, habitId: Int64, day: Int32, kind: EntryKind, value: Double, recordedAtMs: Int64,
        source: EntrySource, undoes: Int64?, note: String?
    ) {
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

/// The rules an entry must meet, wherever it comes from.
package enum EntryRules {
    package static let maxValue = 1e12
    package static let maxNoteBytes = 4096

    /// An entry's own fields, the one check every path runs: an append, an import and
    /// a peer's changeset. What one of them takes, every other takes too, so nothing a
    /// device stored can stop a peer's sync or an import of its export. Returns the
    /// value as every store keeps it: an AMOUNT may be negative (a correction, or a
    /// reading below zero), a TOTAL and a RELAPSE's amount may not; DONE, SKIP and UNDO
    /// carry none (0); -0 is 0 (SQLite keeps no sign on a zero, so peers could not agree
    /// on it otherwise).
    /// No clock here: how far ahead a person may date an entry is the append's rule
    /// (validate(day:today:)); a record another device wrote is taken as it is.
    package static func checked(kind: EntryKind, value: Double, day: Int32, recordedAtMs: Int64, note: String?) throws(HabitError) -> Double {
        try validate(day: day)
        try validate(utcMs: recordedAtMs, field: "recorded_at_ms")
        if let note { try TextRules.validate(note, field: "note", maxBytes: maxNoteBytes, allowEmpty: true) }
        guard kind.carriesValue else { return 0 }
        guard value.isFinite, abs(value) <= maxValue else { throw .invalid("value must be a finite number within ±1e12") }
        guard kind == .amount || value >= 0 else { throw .invalid("a \(kind == .total ? "total" : "relapse's amount") must not be negative") }
        return value == 0 ? 0 : value
    }

    /// An append takes every kind but undo: an undo is appended by undo, which names
    /// the entry it cancels.
    package static func validateAppended(kind: EntryKind) throws(HabitError) {
        guard kind != .undo else { throw .invalid("kind: undo entries are appended by undo, which names the entry they cancel") }
    }

    /// Which entry kinds a habit takes.
    package static func validate(kind: EntryKind, for habit: HabitSpec) throws(HabitError) {
        let allowed: [EntryKind]
        switch habit.kind {
        case .checkmark: allowed = [.done, .skip]
        case .counter, .duration: allowed = [.done, .amount, .total, .skip]
        case .measurement: allowed = [.amount, .skip]
        case .quit: allowed = [.relapse]
        }
        guard allowed.contains(kind) else {
            throw .invalid("a \(habit.kind.name) habit takes \(allowed.map(\.name).joined(separator: ", ")) entries, not \(kind.name)")
        }
    }

    package static let maxKeyBytes = 200

    /// A retry key: 1 to 200 bytes of text without control characters. It is compared
    /// byte for byte, as a caller's request id is.
    package static func validate(key: String) throws(HabitError) {
        try TextRules.validate(key, field: "key", maxBytes: maxKeyBytes)
    }

    package static func validate(day: Int32) throws(HabitError) {
        guard CivilDate.isValid(day) else { throw .invalid("day \(day) is outside 0001-01-01...9999-12-31") }
    }

    /// A person appending may date an entry any past day and up to one day ahead
    /// (travellers east of home): a guard against a mistyped date, by this device's clock.
    package static func validate(day: Int32, today: Int32) throws(HabitError) {
        try validate(day: day)
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

    /// Whether `target` may be cancelled by a new undo entry; `named` is the id the caller knows
    /// it by (an import's document numbers its entries itself).
    package static func validateUndo(of target: Entry, named: Int64, alreadyUndone: Bool) throws(HabitError) {
        guard target.kind != .undo else { throw .conflict("entry \(named) is an undo; log the entry again instead") }
        guard !alreadyUndone else { throw .conflict("entry \(named) is already undone") }
    }
}
