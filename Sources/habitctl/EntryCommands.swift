import Foundation
import HabitKit

/// The ledger's commands: log (done, skip, amounts), undo, entries and days.
extension Commands {
    static func log(_ raw: [String], _ context: Context, skip: Bool) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date", "note", "source", "key"])
        let reference = try args.require(0, "HABIT")
        var input = EntryInput(habitID: 0)
        input.day = try args.option("date").map { (text) throws(CLIError) in Day(rawValue: try Library.parseDate(text)) }
        input.source = try Names.value(args.option("source") ?? "manual", in: Names.sources, what: "source")
        let isTotal = args.flag("total")
        if skip {
            input.kind = .skip
        } else if var amount = args.positional(1) {
            if amount == "-" { amount = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces) ?? "" }
            input.value = try number(amount, "AMOUNT")
            input.kind = isTotal ? .total : .amount
        } else {
            guard !isTotal else { throw .usage("--total needs an AMOUNT") }
            input.kind = .done
        }
        input.note = args.option("note")
        input.key = args.option("key")
        try args.finish(maxPositionals: skip ? 1 : 2)
        let store = try context.openStore()
        let habit = try store.habit(reference)
        input.habitID = habit.id
        let id = try kit { () throws(HabitError) in try store.kit.append(input) }
        // Committed: from here on nothing may fail the command, or a script would retry it.
        let entry = try? store.entry(id: id, habitId: habit.id)
        let total = entry.flatMap { entry in try? store.kit.dayTotal(habitID: habit.id, day: entry.day) }
        let hasTotal = total != nil
        var document: [String: Any] = ["entry": entry?.json ?? ["id": id]]
        if let total { document["day_total"] = total }
        context.output.emit(document) {
            guard let entry else { return "logged entry #\(id)" }
            return "logged \(entry.summary) for \(habit.name)" + (hasTotal ? "; day total \(Output.number(total ?? 0))" : "")
        }
    }

    static func undo(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date", "entry"])
        let store = try context.openStore()
        let undoId: EntryID
        if let entryText = args.option("entry") {
            try args.finish(maxPositionals: 0)
            guard let entryId = Int64(entryText).map(EntryID.init(rawValue:)) else { throw .usage("--entry needs a number") }
            undoId = try kit { () throws(HabitError) in try store.kit.undo(entryID: entryId) }
        } else {
            let reference = try args.require(0, "HABIT or --entry ID")
            let day = try args.option("date").map { (text) throws(CLIError) in Day(rawValue: try Library.parseDate(text)) }
            try args.finish(maxPositionals: 1)
            let habit = try store.habit(reference)
            undoId = try kit { () throws(HabitError) in try store.kit.undoLast(habitID: habit.id, day: day) }
        }
        context.output.emit(["undo_entry_id": undoId]) { "undone: entry #\(undoId) cancels the latest entry" }
    }

    static func entries(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["from", "to"])
        let store = try context.openStore(readOnly: true)
        let today = try store.today()
        let to = try args.option("to").map(Library.parseDate) ?? today
        let from = try args.option("from").map(Library.parseDate) ?? to - 29
        let habitId = try args.positional(0).map { (reference) throws(CLIError) in try store.habit(reference).id } ?? 0
        try args.finish(maxPositionals: 1)
        let entries = try store.entries(habitId: habitId, from: from, to: to)
        context.output.emit(["from": Library.format(from), "to": Library.format(to), "entries": entries.map(\.json)]) {
            entries.isEmpty ? "no entries from \(Library.format(from)) to \(Library.format(to))" : entries.map(\.summary).joined(separator: "\n")
        }
    }

    static func days(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["from", "to"])
        let reference = try args.require(0, "HABIT")
        let store = try context.openStore(readOnly: true)
        let habit = try store.habit(reference)
        let to: Int32 = if let text = args.option("to") { try Library.parseDate(text) } else { try store.today() }
        let from = try args.option("from").map(Library.parseDate) ?? to - 13
        try args.finish(maxPositionals: 1)
        let states = try store.days(habitId: habit.id, from: from, to: to)
        let rows: [[String: Any]] = states.map {
            [
                "date": Library.format($0.day.rawValue), "value": $0.value, "done": $0.flags.contains(.done),
                "skipped": $0.flags.contains(.skipped), "entries": Int($0.entryCount),
            ]
        }
        context.output.emit(["habit": habit.json, "days": rows]) {
            states.map { state in
                let mark = state.flags.contains(.done) ? "done" : state.flags.contains(.skipped) ? "skipped" : "-"
                return "\(Library.format(state.day.rawValue))  \(mark.padding(toLength: 8, withPad: " ", startingAt: 0)) \(habit.amount(state.value))"
            }.joined(separator: "\n")
        }
    }
}
