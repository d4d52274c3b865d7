import Foundation
import HabitKit

/// Quit habits: `relapse` logs one, `quit` shows where a quit habit stands. Every
/// figure is the library's (hc_quit_status); nothing is counted here.
enum QuitCommands {
    static func relapse(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["note", "amount", "key"])
        let reference = try args.require(0, "HABIT")
        let amount = try args.option("amount").map { (text) throws(CLIError) in try Commands.number(text, "--amount") } ?? 0
        let note = args.option("note"), key = args.option("key")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let habit = try store.habit(reference)
        let id = try kit { () throws(HabitError) in try store.kit.relapse(habitID: habit.id, note: note, amount: amount, key: key) }
        // Committed: from here on nothing may fail the command, or a script would retry it.
        let entry = try? store.entry(id: id, habitId: habit.id)
        let status = try? store.kit.quitStatus(habitID: habit.id)
        var document: [String: Any] = ["entry": entry?.json ?? ["id": id]]
        if let status { document["quit"] = json(status) }
        context.output.emit(document) {
            let logged = entry.map { "logged \($0.summary) for \(habit.name)" } ?? "logged entry #\(id)"
            return logged + (status.map { "\n" + describe(habit, $0) } ?? "")
        }
    }

    static func status(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at-ms"])
        let reference = try args.require(0, "HABIT")
        let atMs = try args.option("at-ms").map { (text) throws(CLIError) in
            guard let value = Int64(text) else { throw CLIError.usage("--at-ms needs a whole number of UTC milliseconds") }
            return value
        }
        try args.finish(maxPositionals: 1)
        let store = try context.openStore(readOnly: true)
        let habit = try store.habit(reference)
        let status = try kit { () throws(HabitError) in try store.kit.quitStatus(habitID: habit.id, atMs: atMs ?? 0) }
        context.output.emit(["habit": habit.json, "quit": json(status)]) { describe(habit, status) }
    }

    static func json(_ s: HabitKit.QuitStatus) -> [String: Any] {
        func date(_ day: Day?) -> Any { day.map { Library.format($0.rawValue) } ?? NSNull() }
        return [
            "date": Library.format(s.asOf.rawValue), "at_ms": s.atMs, "last_relapse_id": s.lastRelapseID ?? NSNull(),
            "last_relapse_ms": s.lastRelapseMs ?? NSNull(), "last_relapse_date": date(s.lastRelapseDay),
            "days_since": Int(s.daysSince), "since_ms": s.sinceMs, "current_clean_days": Int(s.currentCleanDays),
            "best_clean_days": Int(s.bestCleanDays), "best_clean_from": date(s.bestCleanFirst), "best_clean_to": date(s.bestCleanLast),
            "clean_days": Int(s.cleanDays), "period": Names.name(s.period.rawValue, in: Names.quitPeriods),
            "period_from": date(s.periodFirst), "period_to": date(s.periodLast), "period_relapses": Int(s.periodRelapses),
            "allowance": Int(s.allowance), "over_allowance": s.overAllowance, "periods_within": Int(s.periodsWithin),
            "week_relapses": Int(s.weekRelapses), "month_relapses": Int(s.monthRelapses), "relapses": s.relapses,
            "relapse_amount": s.relapseAmount, "saved": s.saved,
        ]
    }

    /// Three lines a person reads: the clock since the last relapse, the runs, the allowance.
    static func describe(_ habit: Habit, _ s: HabitKit.QuitStatus) -> String {
        let hours = s.sinceMs / 3_600_000
        let since = s.lastRelapseDay.map { "since the last relapse (\(Library.format($0.rawValue)))" } ?? "since the start"
        var lines = ["\(habit.name): \(s.daysSince) days \(since), \(hours / 24)d \(hours % 24)h clean"]
        lines.append("clean run \(s.currentCleanDays) days, best \(s.bestCleanDays); \(s.relapses) relapse\(s.relapses == 1 ? "" : "s") in all")
        let period = Names.name(s.period.rawValue, in: Names.quitPeriods)
        var allowance = "this \(period): \(s.periodRelapses) of \(s.allowance) allowed"
        allowance += s.overAllowance ? " (over)" : " (within; \(s.periodsWithin) \(period)s in a row)"
        if s.saved > 0 { allowance += "; saved \(Output.number(s.saved))" + (habit.unit.map { " " + $0 } ?? "") }
        lines.append(allowance)
        return lines.joined(separator: "\n")
    }
}
