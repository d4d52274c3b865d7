import Foundation
import HabitKit

/// One function per command; each parses its arguments, calls HabitKit, and reports.
enum Commands {
    static func initStore(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["timezone", "day-start", "week-start", "off-days", "miss-allowance", "open-day", "routines"])
        let timezone = args.option("timezone")
        let dayStart = try args.option("day-start").map(parseClock)
        let weekStart = try args.option("week-start").map { (name) throws(CLIError) -> Int32 in
            guard let index = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].firstIndex(of: name.lowercased().prefix(3).description) else {
                throw CLIError.usage("--week-start takes a weekday name, like mon or sun")
            }
            return Int32(index)
        }
        let offDays = try args.option("off-days").map(PolicyOptions.offDays)
        let openDay = try args.option("open-day").map(PolicyOptions.openDay)
        let missAllowance = try args.option("miss-allowance").map { (text) throws(CLIError) -> Int32 in
            guard let value = Int32(text) else { throw .usage("--miss-allowance takes a whole number 0...31") }
            return value
        }
        let routines = try args.option("routines").map(PolicyOptions.routineBounds)
        try args.finish(maxPositionals: 0)
        // The settings are tried on a store in memory first, so a refused init creates nothing.
        let apply = { (store: StoreRef) throws(CLIError) in
            try kit { () throws(HabitError) in
                if let timezone { try store.kit.setTimeZone(timezone) }
                if let dayStart { try store.kit.setDayStart(minutes: dayStart) }
                if let weekStart { try store.kit.setWeekStart(weekStart) }
                if offDays != nil || openDay != nil || missAllowance != nil {
                    var policy = try store.kit.streakPolicy()
                    policy.offDays = offDays ?? policy.offDays
                    policy.openDay = openDay ?? policy.openDay
                    policy.missAllowance = missAllowance ?? policy.missAllowance
                    try store.kit.setStreakPolicy(policy)
                }
                if let routines { try store.kit.setRoutineBounds(RoutineBounds(morning: routines[0], day: routines[1], evening: routines[2])) }
            }
        }
        try apply(StoreRef(path: ":memory:"))
        let path = try context.resolvedPath()
        let store = try StoreRef(path: path)
        try apply(store)
        let (policy, routineBounds, zoneName, minutes, version) = try kit { () throws(HabitError) in
            (
                try store.kit.streakPolicy(), try store.kit.routineBounds(), try store.kit.timeZone(), try store.kit.dayStart(),
                try store.kit.schemaVersion()
            )
        }
        let bounds = [routineBounds.morning, routineBounds.day, routineBounds.evening]
        let today = try store.today()
        let streaks: [String: Any] = [
            "miss_allowance": policy.missAllowance, "open_day": PolicyOptions.openDayName(policy.openDay),
            "off_days": PolicyOptions.offDaysName(policy.offDays),
        ]
        let routineText = bounds.map(clock).joined(separator: ",")
        context.output.emit([
            "path": path, "timezone": zoneName, "day_start": clock(minutes),
            "schema": Int(version), "today": Library.format(today), "streaks": streaks,
            "routines": ["morning": clock(bounds[0]), "day": clock(bounds[1]), "evening": clock(bounds[2])],
        ]) {
            "store \(path)\n  time zone \(zoneName), day starts at \(clock(minutes)), today is \(Library.format(today)), schema \(version)"
                + "\n  streaks: miss allowance \(policy.missAllowance), open day \(PolicyOptions.openDayName(policy.openDay)), "
                + "off days \(PolicyOptions.offDaysName(policy.offDays)); routines start \(routineText) after the day start"
        }
    }

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
        if let routine = args.option("routine") { options.routine = try Names.value(routine, in: Names.routines, what: "routine") }
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
            options.routine = try Names.value(routine, in: Names.routines, what: "routine")
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
        let undoId: Int64
        if let entryText = args.option("entry") {
            try args.finish(maxPositionals: 0)
            guard let entryId = Int64(entryText) else { throw .usage("--entry needs a number") }
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

    // MARK: Helpers

    /// A file's text, or stdin for "-".
    static func readInput(_ path: String) throws(CLIError) -> String {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else { throw CLIError(exitCode: 3, message: "cannot read \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw .invalid("\(path) is not UTF-8 text") }
        return text
    }

    static func number(_ text: String, _ what: String) throws(CLIError) -> Double {
        guard let value = Double(text), value.isFinite else { throw .invalid("\(what) '\(text)' is not a number") }
        return value
    }

    /// "HH:MM" as minutes after midnight.
    static func parseClock(_ text: String) throws(CLIError) -> Int32 {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let h = Int32(parts[0]), let m = Int32(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else {
            throw .invalid("'\(text)' is not a time of day HH:MM")
        }
        return h * 60 + m
    }

    /// "YYYY-MM-DDTHH:MM[:SS]" then "Z" or "+HH:MM" / "-HH:MM", as UTC milliseconds.
    /// `invalid` is the caller's error, naming the forms it takes.
    static func isoInstant(_ text: String, invalid bad: CLIError) throws(CLIError) -> Int64 {
        let parts = text.split(separator: "T", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw bad }
        let date = try Library.parseDate(parts[0])
        var time = parts[1]
        var offsetMinutes: Int64 = 0
        if time.hasSuffix("Z") {
            time.removeLast()
        } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offset = try Commands.parseClock(String(time[time.index(after: sign)...]))
            offsetMinutes = Int64(offset) * (time[sign] == "-" ? -1 : 1)
            time = String(time[..<sign])
        } else {
            throw bad
        }
        let fields = time.split(separator: ":", omittingEmptySubsequences: false).map { Int64($0) }
        guard fields.count == 2 || fields.count == 3, let hour = fields[0], let minute = fields[1], (0..<24).contains(hour),
            (0..<60).contains(minute)
        else { throw bad }
        var second: Int64 = 0
        if fields.count == 3 {
            guard let value = fields[2], (0..<60).contains(value) else { throw bad }
            second = value
        }
        return ((Int64(date) * 86_400 + hour * 3600 + minute * 60 + second) - offsetMinutes * 60) * 1000
    }

    static func clock(_ minutes: Int32) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
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
