import Foundation
import HabitKit

/// reminders: rules per habit, quiet hours, the instants to nudge at, and
/// delivering, snoozing and recording them.
enum ReminderCommands {
    static func run(_ raw: [String], _ context: Context) throws(CLIError) {
        let sub = raw.first ?? "list"
        let rest = Array(raw.dropFirst())
        switch sub {
        case "add": try add(rest, context)
        case "edit": try edit(rest, context)
        case "list": try list(rest, context)
        case "remove": try remove(rest, context)
        case "next": try next(rest, context)
        case "fired": try fired(rest, context)
        case "snooze": try snooze(rest, context)
        case "quiet": try quiet(rest, context)
        default: throw .usage("unknown reminders subcommand '\(sub)'; see habitctl reminders --help")
        }
    }

    // MARK: Rules

    static func add(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at", "days", "message", "quiet"])
        let reference = try args.require(0, "HABIT")
        guard let at = args.option("at") else { throw .usage("reminders add needs --at HH:MM") }
        var rule = try ruleOptions(at: at, days: args.option("days"), quiet: args.option("quiet"))
        let message = args.option("message")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let habit = try store.habit(reference)
        rule.habitID = habit.id
        rule.message = message
        let id = try kit { () throws(HabitError) in try store.kit.addReminderRule(rule) }
        let added = try rules(store, habitId: habit.id, day: nil).first { $0.id == id }
        context.output.emit(["rule": added?.json(habit.name) ?? ["id": id]]) { "added " + (added?.line(habit.name) ?? "rule #\(id)") }
    }

    /// Changes a rule from a day on (default today); options not given keep their value.
    static func edit(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at", "days", "message", "quiet", "from"])
        let id = try ruleId(try args.require(0, "RULE"))
        let at = args.option("at"), days = args.option("days"), quiet = args.option("quiet"), message = args.option("message")
        let clearMessage = args.flag("no-message")
        let from = args.option("from")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let fromDay = try from.map { (text) throws(CLIError) in Day(rawValue: try Library.parseDate(text)) }
        guard let current = try rules(store, habitId: nil, day: fromDay).first(where: { $0.id == id }) else {
            throw CLIError(exitCode: 3, message: "no reminder rule #\(id) in force")
        }
        var rule = try ruleOptions(
            at: at ?? clock(current.minute), days: days ?? current.daysText,
            quiet: quiet ?? (current.quiet == .drop ? "drop" : "defer"))
        rule.message = clearMessage ? nil : (message ?? current.message)
        try kit { () throws(HabitError) in try store.kit.updateReminderRule(id: id, rule, from: fromDay) }
        let name = (try? store.habit(id: current.habitId).name) ?? "habit \(current.habitId)"
        let changed = try rules(store, habitId: current.habitId, day: fromDay).first { $0.id == id }
        context.output.emit(["rule": changed?.json(name) ?? ["id": id]]) { "changed " + (changed?.line(name) ?? "rule #\(id)") }
    }

    static func list(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date"])
        let date = args.option("date")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let habit = try args.positional(0).map { (reference) throws(CLIError) in try store.habit(reference) }
        let day = try store.day(date)
        let listed = try rules(store, habitId: habit?.id, day: Day(rawValue: day))
        var names: [HabitID: String] = [:]
        for rule in listed where names[rule.habitId] == nil { names[rule.habitId] = (try? store.habit(id: rule.habitId).name) ?? "?" }
        let hours = try kit { () throws(HabitError) in try store.kit.quietHours(on: Day(rawValue: day)) }
        let quietText = hours.map { "\(clock($0.start))-\(clock($0.end))" } ?? "none"
        context.output.emit([
            "date": Library.format(day), "rules": listed.map { $0.json(names[$0.habitId] ?? "?") },
            "quiet_hours": hours.map { ["start": clock($0.start), "end": clock($0.end)] } ?? NSNull() as Any,
        ]) {
            let lines = listed.map { $0.line(names[$0.habitId] ?? "?") }
            return (lines.isEmpty ? ["no reminders on \(Library.format(day))"] : lines).joined(separator: "\n") + "\nquiet hours: \(quietText)"
        }
    }

    static func remove(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["from"])
        let id = try ruleId(try args.require(0, "RULE"))
        let from = args.option("from")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let day = try store.day(from)
        try kit { () throws(HabitError) in try store.kit.removeReminderRule(id: id, from: Day(rawValue: day)) }
        context.output.emit(["removed": id, "from": Library.format(day)]) { "removed rule #\(id) from \(Library.format(day)) on" }
    }

    // MARK: Quiet hours

    /// Shows the quiet hours, or sets them: HH:MM-HH:MM, or off.
    static func quiet(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["from", "date"])
        let from = args.option("from"), date = args.option("date")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        if let window = args.positional(0) {
            var hours: QuietHours?
            if window.lowercased() != "off" {
                let parts = window.split(separator: "-", omittingEmptySubsequences: false)
                guard parts.count == 2 else { throw .usage("quiet hours are HH:MM-HH:MM or off") }
                hours = QuietHours(start: try Commands.parseClock(String(parts[0])), end: try Commands.parseClock(String(parts[1])))
            }
            let fromDay = Day(rawValue: try store.day(from))
            try kit { () throws(HabitError) in try store.kit.setQuietHours(hours, from: fromDay) }
        }
        let day = try store.day(date ?? from)
        let hours = try kit { () throws(HabitError) in try store.kit.quietHours(on: Day(rawValue: day)) }
        context.output.emit(["date": Library.format(day), "quiet_hours": hours.map { ["start": clock($0.start), "end": clock($0.end)] } ?? NSNull() as Any]) {
            hours.map { "quiet hours \(clock($0.start))-\(clock($0.end)) on \(Library.format(day))" } ?? "no quiet hours on \(Library.format(day))"
        }
    }

    // MARK: Instants

    /// Reminders between two instants (default: now to 24 hours on).
    static func next(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["from", "to"])
        let now = nowMs()
        let from = try args.option("from").map { (text) throws(CLIError) in try instant(text, now: now) } ?? now
        let to: Int64
        if let text = args.option("to") { to = try instant(text, now: now) } else { to = try later(from, by: 86_400_000, "--from") }
        let claim = args.flag("claim"), pending = args.flag("pending")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore()
        let options: ReminderListOptions = claim ? .claim : (pending ? .pending : [])
        let reminders = try kit { () throws(HabitError) in try store.kit.reminders(fromMs: from, toMs: to, options: options) }
        var names: [HabitID: String] = [:]
        for r in reminders where names[r.habitID] == nil { names[r.habitID] = (try? store.habit(id: r.habitID).name) ?? "?" }
        let rows: [[String: Any]] = reminders.map { r in
            [
                "at": Output.time(r.atMs), "at_ms": r.atMs, "local_time": clock(r.localMinute), "date": Library.format(r.day.rawValue),
                "habit_id": r.habitID, "habit": names[r.habitID] ?? "?", "rule_id": r.ruleID,
                "kind": r.kind == .snoozed ? "snoozed" : "scheduled", "original_at": Output.time(r.originalMs),
                "deferred": r.deferred, "fired": r.fired, "message": r.message ?? NSNull(),
            ]
        }
        context.output.emit(["from": Output.time(from), "to": Output.time(to), "reminders": rows]) {
            guard !reminders.isEmpty else { return "no reminders between \(Output.localTime(from)) and \(Output.localTime(to))" }
            return reminders.map { r in
                var line =
                    "\(Library.format(r.day.rawValue)) \(clock(r.localMinute))  \(names[r.habitID] ?? "?")  (rule #\(r.ruleID), \(Output.localTime(r.atMs)))"
                if r.kind == .snoozed { line += " snoozed" }
                if r.deferred { line += " moved by quiet hours" }
                if r.fired && !claim { line += " delivered" }
                if let message = r.message { line += "  \(message)" }
                return line
            }.joined(separator: "\n")
        }
    }

    /// Records a delivery: RULE DATE AT, as `next` prints them.
    static func fired(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        let (rule, day, at) = try reminder(args)
        try args.finish(maxPositionals: 3)
        let store = try context.openStore()
        let recorded = try kit { () throws(HabitError) in try store.kit.reminderFired(ruleID: rule, day: Day(rawValue: day), atMs: at) }
        context.output.emit(["recorded": recorded]) { recorded ? "recorded" : "already delivered" }
    }

    /// Snoozes RULE DATE AT until an instant (--until) or for some minutes (--minutes, default 10).
    /// How far a snooze may reach is the library's rule: it refuses a later one with a message.
    static func snooze(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["until", "minutes"])
        let (rule, day, at) = try reminder(args)
        let now = nowMs()
        let until: Int64
        if let text = args.option("until") {
            until = try instant(text, now: now)
        } else {
            let minutes =
                try args.option("minutes").map { (text) throws(CLIError) -> Int64 in
                    guard let value = Int64(text), value > 0 else { throw .invalid("--minutes takes a whole number of minutes") }
                    return value
                } ?? 10
            let (delta, overflow) = minutes.multipliedReportingOverflow(by: 60_000)
            guard !overflow else { throw .invalid("--minutes \(minutes) is too late: instants end at \(Int64.max) ms") }
            until = try later(max(at, now), by: delta, "AT")
        }
        try args.finish(maxPositionals: 3)
        let store = try context.openStore()
        try kit { () throws(HabitError) in try store.kit.snoozeReminder(ruleID: rule, day: Day(rawValue: day), atMs: at, untilMs: until) }
        context.output.emit(["rule_id": rule, "date": Library.format(day), "at": Output.time(until), "at_ms": until]) {
            "snoozed until \(Output.localTime(until))"
        }
    }

    // MARK: Helpers

    struct Rule {
        var id: ReminderRuleID
        var habitId: HabitID
        var minute: Int32
        var weekdays: Weekdays
        var quiet: QuietPolicy
        var fromDay: Day
        var message: String?

        static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

        /// Monday first, as people read a week; nil for every due day.
        var daysText: String? {
            weekdays.isEmpty
                ? nil
                : [1, 2, 3, 4, 5, 6, 0].filter { weekdays.contains(Weekdays(rawValue: 1 << $0)) }.map { Rule.dayNames[$0] }
                    .joined(separator: ",")
        }

        func json(_ habit: String) -> [String: Any] {
            [
                "id": id, "habit_id": habitId, "habit": habit, "at": clock(minute), "days": daysText ?? "due",
                "quiet": quiet == .drop ? "drop" : "defer", "from": Library.format(fromDay.rawValue), "message": message ?? NSNull(),
            ]
        }

        func line(_ habit: String) -> String {
            "#\(id) \(habit) at \(clock(minute)) on \(daysText ?? "due days"), quiet hours: \(quiet == .drop ? "drop" : "defer")"
                + (message.map { "  \($0)" } ?? "")
        }
    }

    /// The rules in force on a day (nil: today) of a habit (nil: every habit).
    static func rules(_ store: StoreRef, habitId: HabitID?, day: Day?) throws(CLIError) -> [Rule] {
        try kit { () throws(HabitError) in try store.kit.reminderRules(habitID: habitId, on: day) }.map { stored in
            Rule(
                id: stored.id, habitId: stored.rule.habitID, minute: stored.rule.minute, weekdays: stored.rule.weekdays,
                quiet: stored.rule.quiet, fromDay: stored.fromDay, message: stored.rule.message)
        }
    }

    /// A rule's time, days and quiet policy from the options (its habit set later).
    static func ruleOptions(at: String, days: String?, quiet: String?) throws(CLIError) -> ReminderRule {
        var rule = ReminderRule(habitID: 0, minute: try Commands.parseClock(at))
        switch quiet?.lowercased() {
        case nil: break
        case "defer": rule.quiet = .defer
        case "drop": rule.quiet = .drop
        default: throw .usage("--quiet takes defer or drop")
        }
        if let days, days.lowercased() != "due" {
            for name in days.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
                guard let index = Rule.dayNames.firstIndex(of: String(name)) else {
                    throw .usage("--days takes weekdays like mon,wed,fri (or due); '\(name)' is not one")
                }
                rule.weekdays.insert(Weekdays(rawValue: 1 << Int32(index)))
            }
        }
        return rule
    }

    static func ruleId(_ text: String) throws(CLIError) -> ReminderRuleID {
        guard let id = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text), id > 0 else { throw .usage("RULE is a rule id like 3 or #3") }
        return ReminderRuleID(id)
    }

    /// RULE DATE AT: a reminder as `next` names it.
    static func reminder(_ args: Arguments) throws(CLIError) -> (ReminderRuleID, Int32, Int64) {
        let rule = try ruleId(try args.require(0, "RULE"))
        let day = try Library.parseDate(try args.require(1, "DATE"))
        let at = try instant(try args.require(2, "AT (the reminder's instant, as next prints it)"), now: nowMs())
        return (rule, day, at)
    }

    static func clock(_ minutes: Int32) -> String { Commands.clock(minutes) }

    /// base + delta; past the range of instants, an invalid-input error naming what
    /// was given (a user's number never traps).
    static func later(_ base: Int64, by delta: Int64, _ what: String) throws(CLIError) -> Int64 {
        let (sum, overflow) = base.addingReportingOverflow(delta)
        guard !overflow else { throw .invalid("\(what) is too late: instants end at \(Int64.max) ms") }
        return sum
    }

    static func nowMs() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// An instant: "now", "+30m" / "-2h" / "+1d" from now, UTC milliseconds, or
    /// ISO 8601 with a zone: "2026-03-08T07:00Z", "2026-03-08T07:00:00+01:00".
    static func instant(_ text: String, now: Int64) throws(CLIError) -> Int64 {
        let bad = CLIError.invalid("'\(text.prefix(40))' is not an instant: use now, +30m, -2h, +1d, UTC milliseconds, or 2026-03-08T07:00Z")
        if text == "now" { return now }
        if let first = text.first, first == "+" || first == "-", let unit = text.last, let amount = Int64(text.dropFirst().dropLast()), amount <= 366 * 24 * 60
        {
            let scale: Int64
            switch unit {
            case "m": scale = 60_000
            case "h": scale = 3_600_000
            case "d": scale = 86_400_000
            default: throw bad
            }
            return now + (first == "-" ? -1 : 1) * amount * scale
        }
        if let ms = Int64(text) { return ms }
        return try Commands.isoInstant(text, invalid: bad)
    }
}
