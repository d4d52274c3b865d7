import Foundation
import HabitKit

/// shield: rules that block a person's apps, their state now or at a local time,
/// the next changes, emergency unlocks and the snapshot file for extensions.
enum ShieldCommands {
    static func run(_ raw: [String], _ context: Context) throws(CLIError) {
        let sub = raw.first ?? "state"
        let rest = Array(raw.dropFirst())
        switch sub {
        case "add": try add(rest, context)
        case "list": try list(rest, context)
        case "state": try state(rest, context)
        case "next": try next(rest, context)
        case "emergency": try emergency(rest, context)
        case "snapshot": try snapshot(rest, context)
        default: throw .usage("unknown shield subcommand '\(sub)'; see habitctl shield --help")
        }
    }

    static let reasons = [
        "", "window open", "until done", "outside the window", "lifted by completion", "lifted by a session",
        "lifted by an emergency unlock", "cutoff passed", "excused day", "not in effect",
    ]
    static let reasonKeys = [
        "", "window_open", "until_done", "outside_window", "completed", "session", "emergency", "cutoff_passed",
        "excused", "not_in_effect",
    ]
    static let causes = [
        "", "window_start", "cutoff", "completion", "session_start", "session_end", "emergency_start", "emergency_end",
        "excused", "rule_change", "day_end",
    ]

    static func name(_ table: [String], _ code: Int32) -> String { table.indices.contains(Int(code)) ? table[Int(code)] : "?" }

    // MARK: Rules

    /// add NAME --habits A,B [--start HH:MM] [--cutoff HH:MM] [--days D] [--any] [--until-done]
    /// [--no-session] [--no-excused] [--fail-open] [--budget N/week|N/month] [--key KEY] [--effective DATE]
    static func add(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["habits", "start", "cutoff", "days", "budget", "key", "effective"])
        let name = try args.require(0, "NAME")
        guard let habitsText = args.option("habits") else { throw .usage("shield add needs --habits HABIT[,HABIT...]") }
        let start = args.option("start"), cutoff = args.option("cutoff"), days = args.option("days"), budget = args.option("budget")
        let key = args.option("key") ?? name, effective = args.option("effective")
        let any = args.flag("any"), untilDone = args.flag("until-done"), noSession = args.flag("no-session")
        let noExcused = args.flag("no-excused"), failOpen = args.flag("fail-open")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let references = habitsText.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !references.contains(where: \.isEmpty) else { throw .invalid("--habits lists habits separated by commas; an entry is empty") }
        let habits = try references.map { (reference) throws(CLIError) in try store.habit(reference).id }
        var rule = ShieldRule(name: name, key: key, habitIDs: habits)
        rule.days = days
        rule.startMinute = try start.map { (text) throws(CLIError) in text == "daystart" ? nil : try Commands.parseClock(text) } ?? nil
        rule.endMinute = try cutoff.map { (text) throws(CLIError) in text == "midnight" ? nil : try Commands.parseClock(text) } ?? nil
        rule.lift = any ? .any : .all
        rule.cutoffLifts = !untilDone
        rule.sessionLifts = !noSession
        rule.excusedLifts = !noExcused
        rule.failClosed = !failOpen
        if let budget {
            let parts = budget.split(separator: "/")
            guard parts.count == 2, let count = Int32(parts[0]) else { throw .invalid("--budget takes N/week or N/month, like 2/week") }
            switch parts[1] {
            case "week": rule.budgetPeriod = .week
            case "month": rule.budgetPeriod = .month
            default: throw .invalid("--budget takes N/week or N/month, like 2/week")
            }
            rule.budgetCount = count
        }
        let fromDay = try effective.map { (text) throws(CLIError) in Day(rawValue: try Library.parseDate(text)) }
        let id = try kit { () throws(HabitError) in try store.kit.addShieldRule(rule, from: fromDay) }
        let added = try rules(store, day: fromDay).first { $0["id"] as? ShieldRuleID == id }
        context.output.emit(["rule": added ?? ["id": id]]) { "added shield #\(id) " + (added.map(line) ?? name) }
    }

    /// The rules in force on a day (nil: today), as the JSON and the lines show them.
    static func rules(_ store: StoreRef, day: Day?) throws(CLIError) -> [[String: Any]] {
        try kit { () throws(HabitError) in try store.kit.shieldRules(on: day) }.map { stored in
            let r = stored.rule
            let names = r.habitIDs.map { (try? store.habit(id: $0).name) ?? "habit \($0)" }
            let budget: Any = r.budgetPeriod == .unlimited ? NSNull() : "\(r.budgetCount)/\(r.budgetPeriod == .week ? "week" : "month")"
            return [
                "id": stored.id, "name": r.name, "key": r.key, "days": r.days ?? "daily",
                "start": r.startMinute.map(Commands.clock) ?? "daystart", "cutoff": r.endMinute.map(Commands.clock) ?? "midnight",
                "habit_ids": r.habitIDs, "habits": names, "lift": r.lift == .any ? "any" : "all", "session_lifts": r.sessionLifts,
                "cutoff_lifts": r.cutoffLifts, "excused_lifts": r.excusedLifts, "fail_closed": r.failClosed,
                "emergency_budget": budget, "from": Library.format(stored.fromDay.rawValue),
            ]
        }
    }

    static func line(_ rule: [String: Any]) -> String {
        let habits = (rule["habits"] as? [String] ?? []).joined(separator: rule["lift"] as? String == "any" ? " or " : " and ")
        var text = "\(rule["name"] ?? "") \(rule["start"] ?? "")-\(rule["cutoff"] ?? "") on \(rule["days"] ?? ""), lifted by \(habits)"
        if rule["cutoff_lifts"] as? Bool == false { text += ", stays until done" }
        if let budget = rule["emergency_budget"] as? String { text += ", emergency \(budget)" }
        return text
    }

    static func list(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date"])
        let date = args.option("date")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        let day = try store.day(date)
        let listed = try rules(store, day: Day(rawValue: day))
        context.output.emit(["date": Library.format(day), "rules": listed]) {
            listed.isEmpty ? "no shield rules on \(Library.format(day))" : listed.map { "#\($0["id"] ?? "") " + line($0) }.joined(separator: "\n")
        }
    }

    // MARK: State and changes

    /// --at: a local date-time (2026-06-05T07:30), a local time today (07:30), or an
    /// instant with its zone (2026-06-05T05:30Z); default now.
    static func instant(_ text: String?, _ store: StoreRef) throws(CLIError) -> Int64 {
        guard let text else { return ReminderCommands.nowMs() }
        let bad = CLIError.invalid("'\(text.prefix(40))' is not a local date-time: use 2026-06-05T07:30, 07:30, or 2026-06-05T05:30Z")
        let parts = text.split(separator: "T", maxSplits: 1).map(String.init)
        if parts.count == 2, parts[1].count == 5 {
            let date = Day(rawValue: try Library.parseDate(parts[0])), minute = try Commands.parseClock(parts[1])
            return try kit { () throws(HabitError) in
                // A time before the day start belongs to the habit day before.
                guard let day = minute < (try store.kit.dayStart()) ? date.adding(-1) : date else { throw HabitError(code: .invalid, message: bad.message) }
                return try store.kit.utcMs(day: day, minute: minute)
            }
        }
        if parts.count == 1, text.count == 5 {
            let minute = try Commands.parseClock(text)
            return try kit { () throws(HabitError) in try store.kit.utcMs(day: try store.kit.today(), minute: minute) }
        }
        return try Commands.isoInstant(text, invalid: bad)
    }

    static func state(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at"])
        let at = args.option("at")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        let atMs = try instant(at, store)
        let state = try kit { () throws(HabitError) in try store.kit.shieldState(atMs: atMs) }
        let states = state.rules
        let names = Dictionary(
            try rules(store, day: nil).compactMap { r in (r["id"] as? ShieldRuleID).map { ($0, r["name"] as? String ?? "") } },
            uniquingKeysWith: { a, _ in a })
        let rows: [[String: Any]] = states.map { s in
            let row: [String: Any] = [
                "rule_id": s.ruleID, "name": names[s.ruleID] ?? NSNull(), "shielded": s.shielded, "reason": name(reasonKeys, s.reason.rawValue),
                "since": s.sinceMs.map(Output.time) ?? NSNull(), "until": s.untilMs.map(Output.time) ?? NSNull(),
                "next_change": s.nextChangeMs.map(Output.time) ?? NSNull(),
                "next_change_ms": s.nextChangeMs.map { $0 as Any } ?? NSNull(), "next_cause": name(causes, s.nextCause?.rawValue ?? 0),
                "outstanding_habit_ids": s.outstanding, "emergency_left": s.emergencyLeft.map { $0 as Any } ?? NSNull(),
                "fail_closed": s.failClosed,
            ]
            return row
        }
        context.output.emit(["at": Output.time(atMs), "at_ms": atMs, "revision": state.revision, "rules": rows]) {
            guard !states.isEmpty else { return "no shield rules" }
            return states.map { s in
                var text = "#\(s.ruleID) \(names[s.ruleID] ?? "")  \(s.shielded ? "SHIELDED" : "open")  (\(name(reasons, s.reason.rawValue))"
                if let since = s.sinceMs { text += " at \(Output.localTime(since))" }
                if let until = s.untilMs { text += " until \(Output.localTime(until))" }
                text += ")"
                if let next = s.nextChangeMs { text += ", next change \(Output.localTime(next)) (\(name(causes, s.nextCause?.rawValue ?? 0)))" }
                return text
            }.joined(separator: "\n")
        }
    }

    /// The transitions from --at (default now) for --hours (default 24, at most 2208).
    static func next(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at", "hours"])
        let at = args.option("at")
        let hours =
            try args.option("hours").map { (text) throws(CLIError) -> Int64 in
                guard let value = Int64(text), (1...2208).contains(value) else { throw .invalid("--hours takes 1 to 2208 (92 days)") }
                return value
            } ?? 24
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        let from = try instant(at, store), to = from + hours * 3_600_000
        let found = try kit { () throws(HabitError) in try store.kit.shieldTransitions(fromMs: from, toMs: to) }
        let revision = found.revision
        let rows: [[String: Any]] = found.transitions.map { t in
            var moved: [String] = []
            if t.moved.contains(.gap) { moved.append("gap") }
            if t.moved.contains(.repeated) { moved.append("repeated") }
            if t.moved.contains(.zoneChange) { moved.append("zone_change") }
            return [
                "rule_id": t.ruleID, "at": Output.time(t.atMs), "at_ms": t.atMs,
                "local": Library.format(t.localDay.rawValue) + "T" + Commands.clock(t.localMinute), "zone": t.zone,
                "offset_seconds": t.offsetSeconds, "moved": moved, "shielded": t.shielded, "from": name(reasonKeys, t.fromReason.rawValue),
                "to": name(reasonKeys, t.toReason.rawValue), "cause": name(causes, t.cause.rawValue),
            ]
        }
        context.output.emit(["from": Output.time(from), "to": Output.time(to), "revision": revision, "transitions": rows]) {
            guard !rows.isEmpty else { return "no shield changes between \(Output.localTime(from)) and \(Output.localTime(to))" }
            return rows.map { r in
                "\(Output.localTime(r["at_ms"] as? Int64 ?? 0))  #\(r["rule_id"] ?? "") \(r["shielded"] as? Bool == true ? "shield" : "lift")  (\(r["cause"] ?? ""))"
                    + ((r["moved"] as? [String]).map { $0.isEmpty ? "" : "  moved: " + $0.joined(separator: ",") } ?? "")
            }.joined(separator: "\n")
        }
    }

    // MARK: Emergency unlocks and snapshots

    static func emergency(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["minutes", "reason"])
        let reference = try args.require(0, "RULE")
        let minutes =
            try args.option("minutes").map { (text) throws(CLIError) -> Int32 in
                guard let value = Int32(text) else { throw .invalid("--minutes takes 1 to 1440") }
                return value
            } ?? 15
        let reason = args.option("reason")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let rule = try ruleID(reference, store)
        let id = try kit { () throws(HabitError) in try store.kit.emergencyUnlock(ruleID: rule, minutes: minutes, reason: reason) }
        context.output.emit(["unlock_id": id, "rule_id": rule, "minutes": minutes]) { "emergency unlock #\(id): rule #\(rule) lifted for \(minutes) min" }
    }

    /// RULE names a shield rule as HABIT names a habit: #3 is the rule with id 3, a word
    /// is the name of a rule in force today, and a bare number is either, refused as
    /// ambiguous (exit 4) when those are two rules.
    static func ruleID(_ text: String, _ store: StoreRef) throws(CLIError) -> ShieldRuleID {
        let reference = HabitReference(text)
        if case .id(let id) = reference { return ShieldRuleID(id) }
        let inForce = try kit { () throws(HabitError) in try store.kit.shieldRules(on: nil) }
        switch reference {
        case .id(let id):
            return ShieldRuleID(id)
        case .name(let name):
            let found = inForce.filter { $0.rule.name == name }.map(\.id)
            guard found.count < 2 else {
                throw CLIError(exitCode: 4, message: "\(found.count) shield rules are named '\(name)'; write #\(found[0]) or #\(found[1])")
            }
            guard let id = found.first else {
                throw CLIError(exitCode: 3, message: "no shield rule named '\(name)'\(Suggestion.hint(name, among: inForce.map(\.rule.name)))")
            }
            return id
        case .idOrName(let number, let name):
            let id = ShieldRuleID(number)
            let byName = inForce.first { $0.rule.name == name }?.id
            if let byName, byName != id, inForce.contains(where: { $0.id == id }) {
                throw CLIError(
                    exitCode: 4, message: "'\(name)' is ambiguous: shield rule #\(id), and rule #\(byName) is named '\(name)'; write #\(id) or #\(byName)")
            }
            return byName ?? id
        }
    }

    static func snapshot(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at"])
        let at = args.option("at")
        let path = try args.require(0, "PATH")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let atMs = try instant(at, store)
        let revision = try kit { () throws(HabitError) in
            try store.kit.writeShieldSnapshot(to: path, atMs: atMs)
            return try store.kit.shieldRevision()
        }
        context.output.emit(["path": path, "at": Output.time(atMs), "revision": revision]) { "wrote \(path) (revision \(revision))" }
    }
}
