import CHabitCore
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
        if at != 0, dateText == nil { try Library.check(hc_store_local_day(&day, store.handle, at)) }
        var routineNow: Int32 = 0
        try Library.check(hc_store_routine_at(&routineNow, store.handle, at))
        var count: Int64 = 0
        try Library.check(hc_store_due(nil, 0, &count, store.handle, day))
        var items = [hc_due_item](repeating: hc_due_item(), count: Int(count))
        try Library.check(hc_store_due(&items, count, &count, store.handle, day))
        items = Array(items.prefix(Int(count)))
        // The current routine first; the others keep their order (morning, day, evening, anytime).
        items = items.filter { $0.routine == routineNow } + items.filter { $0.routine != routineNow }
        let habits = Dictionary(try store.habits(includeArchived: false).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let states = [HC_DUE_PENDING: "pending", HC_DUE_DONE: "done", HC_DUE_EXCUSED: "excused"]
        let rows: [[String: Any]] = items.prefix(Int(count)).map {
            ["habit_id": $0.habit_id, "name": habits[$0.habit_id]?.name ?? "", "routine": Names.name($0.routine, in: Names.routines),
             "state": states[$0.state] ?? "?", "value": $0.value, "target": $0.target]
        }
        context.output.emit(["date": Library.format(day), "routine_now": Names.name(routineNow, in: Names.routines), "due": rows]) {
            guard !rows.isEmpty else { return "nothing due on \(Library.format(day))" }
            var lines = ["due on \(Library.format(day))"]
            var routine = ""
            for (item, row) in zip(items, rows) {
                let name = row["routine"] as? String ?? ""
                if name != routine { lines.append(item.routine == routineNow ? "\(name) (now)" : name); routine = name }
                let mark = item.state == HC_DUE_DONE ? "[x]" : item.state == HC_DUE_EXCUSED ? "[-]" : "[ ]"
                var line = "  \(mark) \(row["name"] as? String ?? "")"
                if let habit = habits[item.habit_id], habit.kind == HC_KIND_COUNTER || habit.kind == HC_KIND_DURATION {
                    line += "  \(habit.progress(item.value))"
                }
                lines.append(line)
            }
            return lines.joined(separator: "\n")
        }
    }

    static func streak(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date"])
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.option("date"))
        if args.flag("global") {
            try args.finish(maxPositionals: 0)
            var perfect = Library.defaults(hc_streak_result_init), active = Library.defaults(hc_streak_result_init)
            try Library.check(hc_store_streaks(&perfect, &active, store.handle, day))
            context.output.emit(["date": Library.format(day), "perfect_days": json(perfect), "active_days": json(active)]) {
                "perfect days: \(describe(perfect.current, unit: HC_STREAK_UNIT_DAYS)) (longest \(perfect.longest.length))\n" +
                    "active days:  \(describe(active.current, unit: HC_STREAK_UNIT_DAYS)) (longest \(active.longest.length))"
            }
            return
        }
        let habit = try store.habit(try args.require(0, "HABIT or --global"))
        try args.finish(maxPositionals: 1)
        let (result, best) = try streaks(store, habit.id, day, best: 5)
        context.output.emit(["date": Library.format(day), "habit": habit.json, "streaks": json(result),
                             "best": best.map(json)]) {
            "\(habit.name): \(describe(result.current, unit: result.unit)), longest \(describe(result.longest, unit: result.unit))"
        }
    }

    static func stats(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date", "days"])
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.option("date"))
        guard let window = Int32(args.option("days") ?? "30"), (1...100_000).contains(window) else { throw .invalid("--days must be 1...100000") }
        let habit = try store.habit(try args.require(0, "HABIT"))
        try args.finish(maxPositionals: 1)
        let from = day - window + 1
        var document: [String: Any] = ["date": Library.format(day), "habit": habit.json, "window_days": Int(window)]
        var lines = ["\(habit.summary)"]
        if habit.kind == HC_KIND_MEASUREMENT {
            var stats = Library.defaults(hc_measurement_stats_init)
            try Library.check(hc_habit_measurements(&stats, store.handle, habit.id, from, day))
            document["measurements"] = ["count": Int(stats.count), "latest": stats.count > 0 ? stats.latest as Any : NSNull(),
                                        "best": stats.count > 0 ? stats.best as Any : NSNull(), "change": stats.change]
            lines.append(stats.count == 0 ? "  no readings in the last \(window) days" :
                "  latest \(Output.number(stats.latest)) on \(Library.format(stats.latest_day)), best \(Output.number(stats.best)) " +
                "on \(Library.format(stats.best_day)), change \(Output.number(stats.change)) over \(window) days")
        } else {
            let (result, _) = try streaks(store, habit.id, day, best: 0)
            var completion = Library.defaults(hc_completion_init)
            try Library.check(hc_habit_completion(&completion, store.handle, habit.id, from, day))
            var strength = [Double](repeating: 0, count: 1)
            var count: Int64 = 0
            try Library.check(hc_habit_strength(&strength, 1, &count, store.handle, habit.id, day, day))
            document["streaks"] = json(result)
            document["completion"] = ["kept": Int(completion.kept), "judged": Int(completion.judged),
                                      "rate": completion.rate < 0 ? NSNull() : completion.rate as Any]
            document["strength"] = strength[0]
            lines.append("  streak \(describe(result.current, unit: result.unit)), longest \(describe(result.longest, unit: result.unit))")
            let rate = completion.rate < 0 ? "n/a" : String(format: "%.0f%%", completion.rate * 100)
            lines.append("  completion \(rate) (\(completion.kept)/\(completion.judged)) over \(window) days, strength \(String(format: "%.1f%%", strength[0] * 100))")
        }
        context.output.emit(document) { lines.joined(separator: "\n") }
    }

    static func heatmap(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date", "days", "svg", "title"])
        let reference = args.positional(0)
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.option("date"))
        guard let days = Int32(args.option("days") ?? "200"), (1...3660).contains(days) else { throw .invalid("--days must be 1...3660") }
        let svgPath = args.option("svg"), ownTitle = args.option("title")
        try args.finish(maxPositionals: 1)
        var weekStart: Int32 = 1
        try Library.check(hc_store_week_start(&weekStart, store.handle))
        let from = day - days + 1
        var range = "\(Library.format(from)) to \(Library.format(day))"
        let cells: [Heatmap.Cell], scale: Heatmap.Scale, title: String, summary: String, document: [String: Any]
        if let reference {
            // One habit: its day states, from its start day on.
            let habit = try store.habit(reference)
            let first = max(from, habit.startDay)
            let states = first <= day ? try store.dayStates(habitId: habit.id, from: first, to: day) : []
            if first <= day { range = "\(Library.format(first)) to \(Library.format(day))" }
            cells = Heatmap.cells(states)
            scale = .states(done: habit.colour)
            title = ownTitle ?? habit.name
            let done = cells.filter { $0.level == 3 }.count, skipped = cells.filter { $0.level == 2 }.count
            summary = "\(done) of \(cells.count) days done, \(skipped) skipped"
            document = ["habit": habit.json, "from": Library.format(first), "to": Library.format(day), "days": states.map { state in
                ["date": Library.format(state.day), "done": state.flags & HC_DAY_DONE != 0, "skipped": state.flags & HC_DAY_SKIPPED != 0,
                 "entries": Int(state.entry_count)] as [String: Any]
            }]
        } else {
            var scores = [hc_day_score](repeating: hc_day_score(), count: Int(days))
            var count: Int64 = 0
            try Library.check(hc_store_day_scores(&scores, Int64(days), &count, store.handle, from, day))
            cells = Heatmap.cells(scores)
            scale = .scores
            // The store's name: its file's, without the folder and ".db".
            let file = (try context.resolvedPath()).split(separator: "/").last.map(String.init) ?? "store"
            title = ownTitle ?? "Daily scores: " + (file.hasSuffix(".db") ? String(file.dropLast(3)) : file)
            let perfect = scores.filter { $0.score >= 1 }.count, due = scores.filter { $0.score >= 0 }.count
            summary = "\(perfect) perfect days of \(due) with something due"
            document = ["from": Library.format(from), "to": Library.format(day), "days": scores.map {
                ["date": Library.format($0.day), "due": Int($0.due), "done": Int($0.done), "score": $0.score < 0 ? NSNull() : $0.score as Any]
            }]
        }
        if let svgPath {
            let svg = Heatmap.svg(cells, scale: scale, weekStart: weekStart, title: title, subtitle: range + ": " + summary)
            guard FileManager.default.createFile(atPath: svgPath, contents: Data(svg.utf8)) else {
                throw CLIError(exitCode: 6, message: "cannot write \(svgPath)")
            }
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
                ["id": $0.id, "habit_id": $0.habitID.map { $0 as Any } ?? NSNull(), "from": Library.format($0.from.rawValue), "to": Library.format($0.through.rawValue)]
            }
            context.output.emit(["vacations": rows]) {
                vacations.isEmpty ? "no vacations" : vacations.map {
                    "#\($0.id) \(Library.format($0.from.rawValue)) to \(Library.format($0.through.rawValue)) \($0.habitID.map { "habit \($0)" } ?? "all habits")"
                }.joined(separator: "\n")
            }
        case "remove":
            guard let id = Int64(try args.require(1, "ID")) else { throw .usage("ID must be a number") }
            try args.finish(maxPositionals: 2)
            try kit { () throws(HabitError) in try store.kit.removeVacation(id: id) }
            context.output.emit(["removed": id]) { "removed vacation #\(id)" }
        default:
            throw .usage("vacation takes add, list or remove")
        }
    }

    // MARK: Helpers

    static func streaks(_ store: StoreRef, _ habit: Int64, _ day: Int32, best: Int32) throws(CLIError) -> (hc_streak_result, [hc_streak]) {
        var result = Library.defaults(hc_streak_result_init)
        var runs = [hc_streak](repeating: hc_streak(), count: Int(max(best, 1)))
        var total: Int64 = 0
        try Library.check(hc_habit_streaks(&result, &runs, Int64(best), &total, store.handle, habit, day))
        return (result, Array(runs.prefix(Int(min(total, Int64(best))))))
    }

    static func json(_ streak: hc_streak) -> [String: Any] {
        guard streak.length > 0 else { return ["length": 0] }
        return ["length": Int(streak.length), "from": Library.format(streak.first_day), "to": Library.format(streak.last_day),
                "excused_days": Int(streak.excused_days)]
    }

    static func json(_ result: hc_streak_result) -> [String: Any] {
        ["unit": unitName(result.unit) + "s",
         "current": json(result.current), "longest": json(result.longest)]
    }

    /// A streak unit in words: times:N/M counts its blocks of M days as periods.
    static func unitName(_ unit: Int32) -> String {
        switch unit {
        case HC_STREAK_UNIT_WEEKS: return "week"
        case HC_STREAK_UNIT_MONTHS: return "month"
        case HC_STREAK_UNIT_PERIODS: return "period"
        default: return "day"
        }
    }

    static func describe(_ streak: hc_streak, unit: Int32) -> String {
        let word = unitName(unit)
        guard streak.length > 0 else { return "no streak" }
        let plural = streak.length == 1 ? word : word + "s"
        let excused = streak.excused_days > 0 ? ", \(streak.excused_days) excused" : ""
        return "\(streak.length) \(plural) since \(Library.format(streak.first_day))\(excused)"
    }
}
