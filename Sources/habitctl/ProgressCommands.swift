import Foundation
import HabitKit

/// today, streak, stats, heatmap and vacation: the streaks issue's commands.
enum ProgressCommands {
    static func today(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date", "at"])
        let store = try context.openStore(readOnly: true)
        let dateText = args.option("date"), atText = args.option("at")
        try args.finish(maxPositionals: 0)
        // --at TIME: the routine at that instant, and its day unless --date says otherwise.
        let at = try atText.map { (text) throws(CLIError) in try PolicyOptions.instant(text, day: try store.day(dateText), store) } ?? 0
        var day = try store.day(dateText)
        let (routineNow, due) = try kit { () throws(HabitError) in
            if at != 0, dateText == nil { day = try store.kit.localDay(atMs: at).rawValue }
            return (try store.kit.routine(atMs: at), try store.kit.due(on: Day(rawValue: day)))
        }
        // The current routine first; the others keep their order (morning, day, evening, anytime).
        let items = due.filter { $0.routine == routineNow } + due.filter { $0.routine != routineNow }
        let habits = Dictionary(try store.habits(includeArchived: false).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let states: [DueState: String] = [.pending: "pending", .done: "done", .excused: "excused"]
        let rows: [[String: Any]] = items.map {
            [
                "habit_id": $0.habitID, "name": habits[$0.habitID]?.name ?? "", "routine": Names.name($0.routine.rawValue, in: Names.routines),
                "state": states[$0.state] ?? "?", "value": $0.value, "target": $0.target,
            ]
        }
        context.output.emit(["date": Library.format(day), "routine_now": Names.name(routineNow.rawValue, in: Names.routines), "due": rows]) {
            guard !rows.isEmpty else { return "nothing due on \(Library.format(day))" }
            var lines = ["due on \(Library.format(day))"]
            var routine = ""
            for (item, row) in zip(items, rows) {
                let name = row["routine"] as? String ?? ""
                if name != routine { lines.append(item.routine == routineNow ? "\(name) (now)" : name); routine = name }
                lines.append("  " + (habits[item.habitID]?.dueRow(item, gap: "  ") ?? "[?] #\(item.habitID)"))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// snapshot today PATH [--at T]: the file a widget reads, from a read-only open.
    static func snapshot(_ raw: [String], _ context: Context) throws(CLIError) {
        guard raw.first == "today" else {
            throw .usage("unknown snapshot subcommand '\(raw.first ?? "")'; see habitctl snapshot --help (shields: habitctl shield snapshot)")
        }
        var args = try Arguments(Array(raw.dropFirst()), valued: ["at"])
        let at = args.option("at")
        let path = try args.require(0, "PATH")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore(readOnly: true)
        let atMs = try ShieldCommands.instant(at, store)
        try kit { () throws(HabitError) in try store.kit.writeTodaySnapshot(to: path, atMs: atMs) }
        context.output.emit(["path": path, "at": Output.time(atMs)]) { "wrote \(path)" }
    }

    static func streak(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date"])
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.option("date"))
        if args.flag("global") {
            try args.finish(maxPositionals: 0)
            let streaks = try kit { () throws(HabitError) in try store.kit.storeStreaks(asOf: Day(rawValue: day)) }
            let perfect = streaks.perfectDays, active = streaks.activeDays
            context.output.emit(["date": Library.format(day), "perfect_days": json(perfect), "active_days": json(active)]) {
                "perfect days: \(describe(perfect.current, unit: .days)) (longest \(perfect.longest.length))\n"
                    + "active days:  \(describe(active.current, unit: .days)) (longest \(active.longest.length))"
            }
            return
        }
        let habit = try store.habit(try args.require(0, "HABIT or --global"))
        try args.finish(maxPositionals: 1)
        let result = try streaks(store, habit.id, day, best: 5)
        context.output.emit([
            "date": Library.format(day), "habit": habit.json, "streaks": json(result),
            "best": result.best.map(json),
        ]) {
            "\(habit.name): \(describe(result.current, unit: result.unit)), longest \(describe(result.longest, unit: result.unit))"
        }
    }

    static func stats(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date", "days", "group"])
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.option("date"))
        if let group = args.option("group") {
            try args.finish(maxPositionals: 0)
            return try groupStats(group, day: day, store: store, context)
        }
        guard let window = Int32(args.option("days") ?? "30"), (1...100_000).contains(window) else { throw .invalid("--days must be 1...100000") }
        let habit = try store.habit(try args.require(0, "HABIT"))
        try args.finish(maxPositionals: 1)
        let from = day - window + 1
        var document: [String: Any] = ["date": Library.format(day), "habit": habit.json, "window_days": Int(window)]
        var lines = ["\(habit.summary)"]
        if habit.kind == .measurement {
            let stats = try kit { () throws(HabitError) in
                try store.kit.measurements(habitID: habit.id, from: Day(rawValue: from), through: Day(rawValue: day))
            }
            document["measurements"] = [
                "count": Int(stats.count), "latest": stats.count > 0 ? stats.latest as Any : NSNull(),
                "best": stats.count > 0 ? stats.best as Any : NSNull(), "change": stats.change,
            ]
            if let latestDay = stats.latestDay, let bestDay = stats.bestDay {
                lines.append(
                    "  latest \(Output.number(stats.latest)) on \(Library.format(latestDay.rawValue)), best \(Output.number(stats.best)) "
                        + "on \(Library.format(bestDay.rawValue)), change \(Output.number(stats.change)) over \(window) days")
            } else {
                lines.append("  no readings in the last \(window) days")
            }
        } else {
            let result = try streaks(store, habit.id, day, best: 0)
            let (completion, strengths) = try kit { () throws(HabitError) in
                (
                    try store.kit.completion(habitID: habit.id, from: Day(rawValue: from), through: Day(rawValue: day)),
                    try store.kit.strength(habitID: habit.id, from: Day(rawValue: day), through: Day(rawValue: day))
                )
            }
            let strength = strengths.first ?? 0
            document["streaks"] = json(result)
            document["completion"] = [
                "kept": Int(completion.kept), "judged": Int(completion.judged),
                "rate": completion.rate.map { $0 as Any } ?? NSNull(),
                "current_kept": Int(completion.currentKept), "current_required": Int(completion.currentRequired),
                "rate_with_current": completion.rateWithCurrent.map { $0 as Any } ?? NSNull(),
            ]
            document["strength"] = strength
            lines.append("  streak \(describe(result.current, unit: result.unit)), longest \(describe(result.longest, unit: result.unit))")
            var line = "  completion \(percent(completion.rate)) (\(completion.kept)/\(completion.judged)) over \(window) days"
            if completion.currentRequired > 0 {
                line += "; with the current \(completion.currentKept)/\(completion.currentRequired): \(percent(completion.rateWithCurrent))"
            }
            lines.append(line + ", strength \(String(format: "%.1f%%", strength * 100))")
        }
        context.output.emit(document) { lines.joined(separator: "\n") }
    }

    private static func percent(_ rate: Double?) -> String { rate.map { String(format: "%.0f%%", $0 * 100) } ?? "n/a" }

    /// A group's day both ways: day-based habits with the quota habits' progress
    /// beside them, and every habit with quota habits due until met.
    private static func groupStats(_ group: String, day: Int32, store: StoreRef, _ context: Context) throws(CLIError) {
        let reading = try kit { () throws(HabitError) in try store.kit.groupDay(group: group, on: Day(rawValue: day)) }
        let names = Dictionary(try store.habits(includeArchived: true).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let quota: [[String: Any]] = reading.quota.map {
            [
                "habit_id": $0.habitID, "name": names[$0.habitID] ?? "", "period_first": Library.format($0.periodFirst.rawValue),
                "done": Int($0.done), "required": Int($0.required), "met": $0.met,
            ]
        }
        let document: [String: Any] = [
            "date": Library.format(day), "group": group,
            "day_based": [
                "due": Int(reading.due), "done": Int(reading.done), "excused": Int(reading.excused),
                "rate": reading.rate.map { $0 as Any } ?? NSNull(),
            ],
            "quota": quota,
            "due_until_met": [
                "due": Int(reading.allDue), "done": Int(reading.allDone), "excused": Int(reading.allExcused),
                "rate": reading.allRate.map { $0 as Any } ?? NSNull(),
            ],
        ]
        context.output.emit(document) {
            var lines = [
                "\(group) on \(Library.format(day))",
                "  day rate \(percent(reading.rate)) (\(reading.done)/\(reading.due) day-based habits)",
            ]
            for (item, row) in zip(reading.quota, quota) {
                lines.append(
                    "  \(row["name"] as? String ?? "")  \(item.done)/\(item.required) since \(row["period_first"] as? String ?? "")\(item.met ? " (met)" : "")")
            }
            lines.append("  all habits \(percent(reading.allRate)) (\(reading.allDone)/\(reading.allDue), quota habits due until met)")
            return lines.joined(separator: "\n")
        }
    }

    static func heatmap(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date", "days", "svg", "title"])
        let reference = args.positional(0)
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.option("date"))
        guard let days = Int32(args.option("days") ?? "200"), (1...3660).contains(days) else { throw .invalid("--days must be 1...3660") }
        let svgPath = args.option("svg"), ownTitle = args.option("title")
        try args.finish(maxPositionals: 1)
        let weekStart = try kit { () throws(HabitError) in try store.kit.weekStart() }
        let from = day - days + 1
        var range = "\(Library.format(from)) to \(Library.format(day))"
        let cells: [Heatmap.Cell], scale: Heatmap.Scale, title: String, summary: String, document: [String: Any]
        if let reference {
            // One habit: its day states, from its start day on.
            let habit = try store.habit(reference)
            let first = max(from, habit.startDay.rawValue)
            let states = first <= day ? try store.days(habitId: habit.id, from: first, to: day) : []
            if first <= day { range = "\(Library.format(first)) to \(Library.format(day))" }
            cells = Heatmap.cells(states)
            scale = .states(done: habit.colour)
            title = ownTitle ?? habit.name
            let done = cells.filter { $0.level == 3 }.count, skipped = cells.filter { $0.level == 2 }.count
            summary = "\(done) of \(cells.count) days done, \(skipped) skipped"
            document = [
                "habit": habit.json, "from": Library.format(first), "to": Library.format(day),
                "days": states.map { state in
                    [
                        "date": Library.format(state.day.rawValue), "done": state.flags.contains(.done), "skipped": state.flags.contains(.skipped),
                        "entries": Int(state.entryCount),
                    ] as [String: Any]
                },
            ]
        } else {
            let scores = try kit { () throws(HabitError) in try store.kit.dayScores(from: Day(rawValue: from), through: Day(rawValue: day)) }
            cells = Heatmap.cells(scores)
            scale = .scores
            // The store's name: its file's, without the folder and ".db".
            let file = (try context.resolvedPath()).split(separator: "/").last.map(String.init) ?? "store"
            title = ownTitle ?? "Daily scores: " + (file.hasSuffix(".db") ? String(file.dropLast(3)) : file)
            let perfect = scores.filter { ($0.score ?? 0) >= 1 }.count, due = scores.filter { $0.score != nil }.count
            summary = "\(perfect) perfect days of \(due) with something due"
            document = [
                "from": Library.format(from), "to": Library.format(day),
                "days": scores.map {
                    ["date": Library.format($0.day.rawValue), "due": Int($0.due), "done": Int($0.done), "score": $0.score.map { $0 as Any } ?? NSNull()]
                },
            ]
        }
        if let svgPath {
            let svg = Heatmap.svg(cells, scale: scale, weekStart: weekStart, title: title, subtitle: range + ": " + summary)
            // 0644: a picture made to be shown (as createFile made it under the usual umask).
            try FileOutput.write(Array(svg.utf8), to: svgPath, mode: 0o644)
            Output.log("wrote \(svgPath)")
        }
        let colour = Output.colourAllowed
        context.output.emit(document) {
            Heatmap.terminal(cells, scale: scale, weekStart: weekStart, colour: colour, summary: summary)
        }
    }

    static func vacation(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["habit"])
        let action = try args.require(0, "add, list or remove")
        let store = try context.openStore(readOnly: action == "list")
        switch action {
        case "add":
            let from = try Library.parseDate(try args.require(1, "FROM"))
            let to = try Library.parseDate(try args.require(2, "TO"))
            let habitId = try args.option("habit").map { (reference) throws(CLIError) in try store.habit(reference).id } ?? 0
            try args.finish(maxPositionals: 3)
            let id = try kit { () throws(HabitError) in
                try store.kit.addVacation(habitID: habitId == 0 ? nil : habitId, from: Day(rawValue: from), through: Day(rawValue: to))
            }
            context.output.emit(["vacation_id": id]) { "vacation #\(id) from \(Library.format(from)) to \(Library.format(to))" }
        case "list":
            try args.finish(maxPositionals: 1)
            let vacations = try kit { () throws(HabitError) in try store.kit.vacations() }
            let rows: [[String: Any]] = vacations.map {
                [
                    "id": $0.id, "habit_id": $0.habitID.map { $0 as Any } ?? NSNull(), "from": Library.format($0.from.rawValue),
                    "to": Library.format($0.through.rawValue),
                ]
            }
            context.output.emit(["vacations": rows]) {
                vacations.isEmpty
                    ? "no vacations"
                    : vacations.map {
                        "#\($0.id) \(Library.format($0.from.rawValue)) to \(Library.format($0.through.rawValue)) \($0.habitID.map { "habit \($0)" } ?? "all habits")"
                    }.joined(separator: "\n")
            }
        case "remove":
            guard let id = Int64(try args.require(1, "ID")).map(VacationID.init(rawValue:)) else { throw .usage("ID must be a number") }
            try args.finish(maxPositionals: 2)
            try kit { () throws(HabitError) in try store.kit.removeVacation(id: id) }
            context.output.emit(["removed": id]) { "removed vacation #\(id)" }
        default:
            throw .usage("vacation takes add, list or remove")
        }
    }

    // MARK: Helpers

    static func streaks(_ store: StoreRef, _ habit: HabitID, _ day: Int32, best: Int) throws(CLIError) -> Streaks {
        try kit { () throws(HabitError) in try store.kit.streaks(habitID: habit, asOf: Day(rawValue: day), best: best) }
    }

    static func json(_ streak: Streak) -> [String: Any] {
        guard streak.length > 0 else { return ["length": 0] }
        return [
            "length": Int(streak.length), "from": Library.format(streak.firstDay.rawValue), "to": Library.format(streak.lastDay.rawValue),
            "excused_days": Int(streak.excusedDays),
        ]
    }

    static func json(_ result: Streaks) -> [String: Any] {
        [
            "unit": unitName(result.unit) + "s",
            "current": json(result.current), "longest": json(result.longest),
        ]
    }

    /// A streak unit in words: times:N/M counts its blocks of M days as periods.
    static func unitName(_ unit: StreakUnit) -> String {
        switch unit {
        case .weeks: return "week"
        case .months: return "month"
        case .periods: return "period"
        default: return "day"
        }
    }

    static func describe(_ streak: Streak, unit: StreakUnit) -> String {
        let word = unitName(unit)
        guard streak.length > 0 else { return "no streak" }
        let plural = streak.length == 1 ? word : word + "s"
        let excused = streak.excusedDays > 0 ? ", \(streak.excusedDays) excused" : ""
        return "\(streak.length) \(plural) since \(Library.format(streak.firstDay.rawValue))\(excused)"
    }
}
