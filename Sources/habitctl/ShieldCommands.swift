import CHabitCore
import Foundation

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

    static let reasons = ["", "window open", "until done", "outside the window", "lifted by completion", "lifted by a session",
                          "lifted by an emergency unlock", "cutoff passed", "excused day", "not in effect"]
    static let reasonKeys = ["", "window_open", "until_done", "outside_window", "completed", "session", "emergency", "cutoff_passed",
                             "excused", "not_in_effect"]
    static let causes = ["", "window_start", "cutoff", "completion", "session_start", "session_end", "emergency_start", "emergency_end",
                         "excused", "rule_change", "day_end"]

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
        var rule = Library.defaults(hc_shield_rule_init)
        rule.start_minute = try start.map { (text) throws(CLIError) in text == "daystart" ? -1 : try Commands.parseClock(text) } ?? -1
        rule.end_minute = try cutoff.map { (text) throws(CLIError) in text == "midnight" ? -1 : try Commands.parseClock(text) } ?? -1
        rule.lift = any ? HC_SHIELD_LIFT_ANY : HC_SHIELD_LIFT_ALL
        rule.cutoff_lifts = untilDone ? 0 : 1
        rule.session_lifts = noSession ? 0 : 1
        rule.excused_lifts = noExcused ? 0 : 1
        rule.fail_closed = failOpen ? 0 : 1
        if let budget {
            let parts = budget.split(separator: "/")
            guard parts.count == 2, let count = Int32(parts[0]) else { throw .invalid("--budget takes N/week or N/month, like 2/week") }
            switch parts[1] {
            case "week": rule.budget_period = HC_SHIELD_BUDGET_WEEK
            case "month": rule.budget_period = HC_SHIELD_BUDGET_MONTH
            default: throw .invalid("--budget takes N/week or N/month, like 2/week")
            }
            rule.budget_count = count
        }
        let fromDay = try effective.map(Library.parseDate) ?? Library.dayNone
        var id: Int64 = 0
        let status = habits.withUnsafeBufferPointer { ids -> Int32 in
            rule.habit_ids = ids.baseAddress
            rule.habit_count = Int64(ids.count)
            return name.withCString { namePointer in
                rule.name = namePointer
                return key.withCString { keyPointer in
                    rule.key = keyPointer
                    return withOptionalCString(days) { rule.days = $0; return hc_shield_rule_add(&id, store.handle, &rule, fromDay) }
                }
            }
        }
        try Library.check(status)
        let added = try rules(store, day: fromDay).first { $0["id"] as? Int64 == id }
        context.output.emit(["rule": added ?? ["id": id]]) { "added shield #\(id) " + (added.map(line) ?? name) }
    }

    static func rules(_ store: StoreRef, day: Int32) throws(CLIError) -> [[String: Any]] {
        var list: OpaquePointer?
        try Library.check(hc_shield_rule_list_open(&list, store.handle, day))
        defer { hc_shield_rule_list_free(list) }
        var count: Int64 = 0
        try Library.check(hc_shield_rule_list_count(&count, list))
        var result: [[String: Any]] = []
        for index in 0..<count {
            var item: UnsafePointer<hc_shield_rule>?
            try Library.check(hc_shield_rule_list_get(&item, list, index))
            guard let r = item?.pointee else { continue }
            let habits = r.habit_ids.map { Array(UnsafeBufferPointer(start: $0, count: Int(r.habit_count))) } ?? []
            let names = habits.map { (try? store.habit(id: $0).name) ?? "habit \($0)" }
            let budget: Any = r.budget_period == HC_SHIELD_BUDGET_UNLIMITED ? NSNull()
                : "\(r.budget_count)/\(r.budget_period == HC_SHIELD_BUDGET_WEEK ? "week" : "month")"
            result.append(["id": r.id, "name": Library.string(r.name) ?? "", "key": Library.string(r.key) ?? "",
                           "days": Library.string(r.days) ?? "daily", "start": r.start_minute < 0 ? "daystart" : Commands.clock(r.start_minute),
                           "cutoff": r.end_minute < 0 ? "midnight" : Commands.clock(r.end_minute), "habit_ids": habits, "habits": names,
                           "lift": r.lift == HC_SHIELD_LIFT_ANY ? "any" : "all", "session_lifts": r.session_lifts != 0,
                           "cutoff_lifts": r.cutoff_lifts != 0, "excused_lifts": r.excused_lifts != 0, "fail_closed": r.fail_closed != 0,
                           "emergency_budget": budget, "from": Library.format(r.from_day)])
        }
        return result
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
        let listed = try rules(store, day: day)
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
            let date = try Library.parseDate(parts[0]), minute = try Commands.parseClock(parts[1])
            var dayStart: Int32 = 0
            try Library.check(hc_store_day_start(&dayStart, store.handle))
            var ms: Int64 = 0
            try Library.check(hc_store_utc_ms(&ms, store.handle, minute < dayStart ? date - 1 : date, minute))
            return ms
        }
        if parts.count == 1, text.count == 5 { return try PolicyOptions.instant(text, day: try store.today(), store) }
        return try Commands.isoInstant(text, invalid: bad)
    }

    static func state(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at"])
        let at = args.option("at")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        let atMs = try instant(at, store)
        var count: Int64 = 0, revision: Int64 = 0
        try Library.check(hc_shield_state(nil, 0, &count, nil, store.handle, atMs))
        var states = [hc_shield_status](repeating: hc_shield_status(), count: Int(count))
        try Library.check(hc_shield_state(&states, count, &count, &revision, store.handle, atMs))
        let names = Dictionary(try rules(store, day: try store.today()).compactMap { r in (r["id"] as? Int64).map { ($0, r["name"] as? String ?? "") } },
                               uniquingKeysWith: { a, _ in a })
        let rows: [[String: Any]] = states.map { s in
            var copy = s
            let outstanding = withUnsafeBytes(of: &copy.outstanding) { Array($0.bindMemory(to: Int64.self).prefix(Int(s.outstanding_count))) }
            return ["rule_id": s.rule_id, "name": names[s.rule_id] ?? NSNull(), "shielded": s.shielded != 0, "reason": name(reasonKeys, s.reason),
                    "since": s.since_ms == 0 ? NSNull() : Output.time(s.since_ms), "until": s.until_ms == 0 ? NSNull() : Output.time(s.until_ms),
                    "next_change": s.next_change_ms == 0 ? NSNull() : Output.time(s.next_change_ms),
                    "next_change_ms": s.next_change_ms == 0 ? NSNull() : s.next_change_ms, "next_cause": name(causes, s.next_cause),
                    "outstanding_habit_ids": outstanding, "emergency_left": s.emergency_left < 0 ? NSNull() : s.emergency_left,
                    "fail_closed": s.fail_closed != 0]
        }
        context.output.emit(["at": Output.time(atMs), "at_ms": atMs, "revision": revision, "rules": rows]) {
            guard !states.isEmpty else { return "no shield rules" }
            return states.map { s in
                var text = "#\(s.rule_id) \(names[s.rule_id] ?? "")  \(s.shielded != 0 ? "SHIELDED" : "open")  (\(name(reasons, s.reason))"
                if s.since_ms != 0 { text += " at \(Output.time(s.since_ms))" }
                if s.until_ms != 0 { text += " until \(Output.time(s.until_ms))" }
                text += ")"
                if s.next_change_ms != 0 { text += ", next change \(Output.time(s.next_change_ms)) (\(name(causes, s.next_cause)))" }
                return text
            }.joined(separator: "\n")
        }
    }

    /// The transitions from --at (default now) for --hours (default 24, at most 2208).
    static func next(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at", "hours"])
        let at = args.option("at")
        let hours = try args.option("hours").map { (text) throws(CLIError) -> Int64 in
            guard let value = Int64(text), (1...2208).contains(value) else { throw .invalid("--hours takes 1 to 2208 (92 days)") }
            return value
        } ?? 24
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        let from = try instant(at, store), to = from + hours * 3_600_000
        var count: Int64 = 0, revision: Int64 = 0
        try Library.check(hc_shield_transitions(nil, 0, &count, nil, store.handle, from, to))
        var list = [hc_shield_transition](repeating: hc_shield_transition(), count: Int(count))
        try Library.check(hc_shield_transitions(&list, count, &count, &revision, store.handle, from, to))
        let rows: [[String: Any]] = list.map { t in
            var copy = t
            let zone = withUnsafeBytes(of: &copy.zone) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var moved: [String] = []
            if t.moved & HC_SHIELD_MOVED_GAP != 0 { moved.append("gap") }
            if t.moved & HC_SHIELD_MOVED_REPEATED != 0 { moved.append("repeated") }
            if t.moved & HC_SHIELD_MOVED_ZONE_CHANGE != 0 { moved.append("zone_change") }
            return ["rule_id": t.rule_id, "at": Output.time(t.at_ms), "at_ms": t.at_ms,
                    "local": Library.format(t.local_day) + "T" + Commands.clock(t.local_minute), "zone": zone, "offset_seconds": t.offset_seconds,
                    "moved": moved, "shielded": t.shielded != 0, "from": name(reasonKeys, t.from_reason), "to": name(reasonKeys, t.to_reason),
                    "cause": name(causes, t.cause)]
        }
        context.output.emit(["from": Output.time(from), "to": Output.time(to), "revision": revision, "transitions": rows]) {
            guard !rows.isEmpty else { return "no shield changes between \(Output.time(from)) and \(Output.time(to))" }
            return rows.map { r in
                "\(r["local"] ?? "") \(r["zone"] ?? "")  #\(r["rule_id"] ?? "") \(r["shielded"] as? Bool == true ? "shield" : "lift")  (\(r["cause"] ?? ""))"
                    + ((r["moved"] as? [String]).map { $0.isEmpty ? "" : "  moved: " + $0.joined(separator: ",") } ?? "")
            }.joined(separator: "\n")
        }
    }

    // MARK: Emergency unlocks and snapshots

    static func emergency(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["minutes", "reason"])
        let rule = try ReminderCommands.ruleId(try args.require(0, "RULE"))
        let minutes = try args.option("minutes").map { (text) throws(CLIError) -> Int32 in
            guard let value = Int32(text) else { throw .invalid("--minutes takes 1 to 1440") }
            return value
        } ?? 15
        let reason = args.option("reason")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        var id: Int64 = 0
        try Library.check(withOptionalCString(reason) { hc_shield_emergency_unlock(&id, store.handle, rule, minutes, $0) })
        context.output.emit(["unlock_id": id, "rule_id": rule, "minutes": minutes]) { "emergency unlock #\(id): rule #\(rule) lifted for \(minutes) min" }
    }

    static func snapshot(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at"])
        let at = args.option("at")
        let path = try args.require(0, "PATH")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let atMs = try instant(at, store)
        try Library.check(hc_shield_snapshot_write(store.handle, path, atMs))
        var revision: Int64 = 0
        try Library.check(hc_shield_revision(&revision, store.handle))
        context.output.emit(["path": path, "at": Output.time(atMs), "revision": revision]) { "wrote \(path) (revision \(revision))" }
    }
}
