import Foundation
import HabitKit

/// habit add, list, show, edit and archive.
extension Commands {
    static func habitAdd(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(
            raw,
            valued: (["kind", "target", "unit", "group", "routine", "schedule", "start", "miss-allowance", "open-day"] as Set<String>)
                .union(DisplayOptions.valued))
        let name = try args.require(0, "NAME")
        var options = HabitOptions(name: name)
        if let kind = args.option("kind") { options.kind = HabitKind(rawValue: try Names.value(kind, in: Names.kinds, what: "kind")) }
        if let target = args.option("target") { options.target = try number(target, "target") }
        if args.flag("at-most") { options.direction = .atMost }
        if let routine = args.option("routine") { options.routine = Routine(rawValue: try Names.value(routine, in: Names.routines, what: "routine")) }
        if let start = args.option("start") { options.startDay = Day(rawValue: try Library.parseDate(start)) }
        if args.flag("proof") { options.proofRequired = true }
        options.unit = args.option("unit")
        options.group = args.option("group")
        options.schedule = args.option("schedule")
        let display = try DisplayOptions(&args)
        display.fill(&options)
        let policy = try PolicyOptions.habitChange(&args)
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        // The habit and its policy are written at once, or neither.
        let id = try kit { () throws(HabitError) in
            try store.kit.transaction { () throws(HabitError) in
                let id = try store.kit.createHabit(options)
                try PolicyOptions.apply(policy, to: id, store.kit)
                return id
            }
        }
        let habit = try store.habit(id: id)
        let streaks = try PolicyOptions.habitJSON(id, store)
        context.output.emit(["habit": habit.json, "streak_policy": streaks]) {
            "added \(habit.summary)" + (policy.isEmpty ? "" : "\n  " + PolicyOptions.describe(streaks))
        }
    }

    static func habitList(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: [])
        let all = args.flag("all")
        try args.finish(maxPositionals: 0)
        let habits = try context.openStore(readOnly: true).habits(includeArchived: all)
        context.output.emit(["habits": habits.map(\.json)]) {
            habits.isEmpty ? "no habits yet: habitctl habit add NAME" : habits.map(\.summary).joined(separator: "\n")
        }
    }

    static func habitShow(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        let reference = try args.require(0, "HABIT")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore(readOnly: true)
        let habit = try store.habit(reference)
        let streaks = try PolicyOptions.habitJSON(habit.id, store)
        context.output.emit(["habit": habit.json, "streak_policy": streaks]) {
            var lines = [habit.summary, "  started \(Library.format(habit.startDay.rawValue))"]
            if let group = habit.group { lines.append("  group \(group)") }
            if habit.proofRequired { lines.append("  proof required") }
            lines += habit.displayLines
            lines.append("  " + PolicyOptions.describe(streaks))
            return lines.joined(separator: "\n")
        }
    }

    static func habitEdit(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(
            raw,
            valued: ([
                "name", "target", "unit", "group", "routine", "schedule", "start", "miss-allowance", "open-day",
                "from",
            ] as Set<String>)
            .union(DisplayOptions.valued))
        let reference = try args.require(0, "HABIT")
        let store = try context.openStore()
        let current = try store.habit(reference)
        // Only the fields named are read: the others keep their defaults here.
        var options = HabitOptions(name: current.name)
        var fields: HabitFields = []
        if let name = args.option("name") {
            fields.insert(.name)
            options.name = name
        }
        let atMost = args.flag("at-most"), atLeast = args.flag("at-least")
        let target = try args.option("target").map { (text) throws(CLIError) in try number(text, "target") }
        if target != nil || atMost || atLeast {
            fields.insert(.target)
            options.target = target ?? current.target
            options.direction = atMost ? .atMost : atLeast ? .atLeast : current.direction
        }
        options.unit = args.option("unit")
        options.group = args.option("group")
        if options.unit != nil || args.flag("no-unit") { fields.insert(.unit) }
        if options.group != nil || args.flag("no-group") { fields.insert(.group) }
        if args.flag("no-unit") { options.unit = nil }
        if args.flag("no-group") { options.group = nil }
        if let routine = args.option("routine") {
            fields.insert(.routine)
            options.routine = Routine(rawValue: try Names.value(routine, in: Names.routines, what: "routine"))
        }
        options.schedule = args.option("schedule")
        if options.schedule != nil { fields.insert(.schedule) }
        if let start = args.option("start") {
            fields.insert(.startDay)
            options.startDay = Day(rawValue: try Library.parseDate(start))
        }
        if args.flag("proof") || args.flag("no-proof") {
            fields.insert(.proof)
            options.proofRequired = args.flag("proof")
        }
        let display = try DisplayOptions(&args)
        display.fill(&options)
        fields.formUnion(display.fields)
        let policy = try PolicyOptions.habitChange(&args)
        let from = try args.option("from").map { (text) throws(CLIError) in Day(rawValue: try Library.parseDate(text)) }
        try args.finish(maxPositionals: 1)
        guard !fields.isEmpty || !policy.isEmpty else { throw .usage("nothing to change; see habitctl habit edit --help") }
        var rejudged: ClosedRange<Day>?
        try kit { () throws(HabitError) in
            try store.kit.transaction { () throws(HabitError) in
                if !fields.isEmpty { rejudged = try store.kit.updateHabit(id: current.id, options, fields: fields, from: from) }
                try PolicyOptions.apply(policy, to: current.id, store.kit)
            }
        }
        let habit = try store.habit(id: current.id)
        let streaks = try PolicyOptions.habitJSON(current.id, store)
        context.output.emit(["habit": habit.json, "streak_policy": streaks, "rejudged": rejudgedJSON(rejudged)]) {
            "updated \(habit.summary)" + rejudgedLine(rejudged) + (policy.isEmpty ? "" : "\n  " + PolicyOptions.describe(streaks))
        }
    }

    /// The days a settings change re-judged, as JSON ({"from", "to"} or null) and as a line.
    static func rejudgedJSON(_ days: ClosedRange<Day>?) -> Any {
        guard let days else { return NSNull() }
        return ["from": days.lowerBound.description, "to": days.upperBound.description]
    }

    static func rejudgedLine(_ days: ClosedRange<Day>?) -> String {
        guard let days else { return "" }
        return days.lowerBound == days.upperBound ? "\n  re-judged \(days.lowerBound)" : "\n  re-judged \(days.lowerBound) to \(days.upperBound)"
    }

    static func habitArchive(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["from"])
        let reference = try args.require(0, "HABIT")
        let restore = args.flag("restore")
        let from = try args.option("from").map { (text) throws(CLIError) in Day(rawValue: try Library.parseDate(text)) }
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let habit = try store.habit(reference)
        var rejudged: ClosedRange<Day>?
        try kit { () throws(HabitError) in rejudged = try store.kit.setArchived(!restore, habitID: habit.id, from: from) }
        let updated = try store.habit(id: habit.id)
        context.output.emit(["habit": updated.json, "rejudged": rejudgedJSON(rejudged)]) {
            "\(restore ? "restored" : "archived") \(updated.summary)" + rejudgedLine(rejudged)
        }
    }
}

extension DisplayOptions {
    /// Puts the display fields given into options (nil: none; an empty text clears).
    func fill(_ options: inout HabitOptions) {
        options.description = description
        options.question = question
        options.colour = colour
        options.icon = icon
        options.position = position ?? 0
    }
}
