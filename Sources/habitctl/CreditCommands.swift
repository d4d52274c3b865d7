import Foundation
import HabitKit

/// credits sync-steps|spend|adjust|balance|day|history|rules|account: the credit ledger.
enum CreditCommands {
    static func run(_ raw: [String], _ context: Context) throws(CLIError) {
        guard let sub = raw.first else {
            throw .usage("credits needs a subcommand: sync-steps, spend, end, adjust, balance, day, history, rules, account")
        }
        let rest = Array(raw.dropFirst())
        switch sub {
        case "sync-steps": try syncSteps(rest, context)
        case "spend": try spend(rest, context)
        case "end": try end(rest, context)
        case "adjust": try adjust(rest, context)
        case "balance": try balance(rest, context)
        case "day": try day(rest, context)
        case "history": try history(rest, context)
        case "rules": try rules(rest, context)
        case "account": try account(rest, context)
        default: throw .usage("unknown credits subcommand '\(sub)'")
        }
    }

    /// The account --account names (by name), else the default one.
    private static func account(_ args: inout Arguments, _ store: StoreRef) throws(CLIError) -> CreditAccountID {
        guard let name = args.option("account") else { return HabitKit.Store.defaultAccount }
        return try kit { () throws(HabitError) in try store.kit.account(named: name) }
    }

    private static func integer(_ text: String?, _ what: String) throws(CLIError) -> Int64 {
        guard let text, let value = Int64(text) else { throw .invalid("\(what) must be a whole number") }
        return value
    }

    static func syncSteps(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date", "steps", "account"])
        let store = try context.openStore()
        let day = try store.day(args.option("date"))
        let steps = try integer(args.option("steps"), "--steps")
        let account = try account(&args, store)
        try args.finish(maxPositionals: 0)
        let result = try kit { () throws(HabitError) in try store.kit.syncSteps(steps, account: account, day: Day(rawValue: day)) }
        context.output.emit([
            "date": Library.format(result.day.rawValue), "steps": result.steps, "earned_now": result.earnedNow,
            "day_earned": result.dayEarned,
        ]) {
            "\(Library.format(result.day.rawValue)): \(result.steps) steps, +\(result.earnedNow) min now, \(result.dayEarned) min from steps that day"
        }
    }

    static func spend(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["reason", "account"])
        let store = try context.openStore()
        let minutes = try integer(args.positional(0), "MINUTES")
        let account = try account(&args, store)
        let unlock = !args.flag("no-unlock")
        let reason = args.option("reason")
        try args.finish(maxPositionals: 1)
        let before = try kit { () throws(HabitError) in try store.kit.today() }
        let id = try kit { () throws(HabitError) in try store.kit.spend(minutes, account: account, reason: reason, unlock: unlock) }
        // The session this spend opened is the spend entry's cause (what `credits end` takes).
        let session: Int64? =
            unlock
            ? try kit { () throws(HabitError) in
                try store.kit.creditEntries(account: account, from: before, through: try store.kit.today())
            }.first { $0.id == id && $0.cause == .session }?.causeID : nil
        let state = try unlockState(store, account)
        context.output.emit([
            "entry_id": id, "minutes": minutes, "session_id": session.map { $0 as Any } ?? NSNull(), "unlocked": state.active,
            "running_session_id": state.sessionID ?? 0, "until": state.active ? Output.time(state.untilMs) as Any : NSNull(),
        ]) {
            guard let session else { return "spent \(minutes) min" }
            return "spent \(minutes) min; unlock session \(session); apps unlocked until \(Output.localTime(state.untilMs))"
        }
    }

    /// Ends an unlock session early (now, or --at TIME) and refunds its unused whole minutes.
    static func end(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at", "account"])
        let store = try context.openStore()
        let session = CreditSessionID(try integer(args.positional(0), "SESSION"))
        let atText = args.option("at")
        let account = try account(&args, store)
        try args.finish(maxPositionals: 1)
        let at = try atText.map { (text) throws(CLIError) in try PolicyOptions.instant(text, day: try store.today(), store) } ?? 0
        let refund = try kit { () throws(HabitError) in try store.kit.endSession(session, atMs: at) }
        let state = try unlockState(store, account)
        context.output.emit([
            "session_id": session, "refunded": refund, "unlocked": state.active,
            "until": state.active ? Output.time(state.untilMs) as Any : NSNull(),
        ]) {
            "ended session \(session); refunded \(refund) min"
                + (state.active ? "; apps unlocked until \(Output.localTime(state.untilMs)) (queued sessions moved up)" : "; apps locked")
        }
    }

    static func adjust(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["reason", "account"])
        let store = try context.openStore()
        let minutes = try integer(args.positional(0), "MINUTES")
        let account = try account(&args, store)
        guard let reason = args.option("reason") else { throw .usage("an adjustment needs --reason") }
        try args.finish(maxPositionals: 1)
        let id = try kit { () throws(HabitError) in try store.kit.adjust(minutes, account: account, reason: reason) }
        context.output.emit(["entry_id": id, "minutes": minutes]) { "adjusted by \(minutes) min" }
    }

    static func balance(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["account"])
        let store = try context.openStore(readOnly: true)
        let account = try account(&args, store)
        try args.finish(maxPositionals: 0)
        let available = try kit { () throws(HabitError) in try store.kit.balance(account: account) }
        let state = try unlockState(store, account)
        context.output.emit([
            "available": available, "unlocked": state.active,
            "until": state.active ? Output.time(state.untilMs) as Any : NSNull(),
        ]) {
            "\(available) min available" + (state.active ? "; apps unlocked until \(Output.localTime(state.untilMs))" : "")
        }
    }

    static func day(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["account"])
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.positional(0))
        let account = try account(&args, store)
        try args.finish(maxPositionals: 1)
        let summary = try kit { () throws(HabitError) in try store.kit.creditDay(account: account, day: Day(rawValue: day)) }
        context.output.emit([
            "date": Library.format(summary.day.rawValue), "steps": summary.steps, "carried_in": summary.carriedIn,
            "earned": summary.earned, "spent": summary.spent, "adjusted": summary.adjusted,
            "expired": summary.expired, "refunded": summary.refunded, "available": summary.available,
        ]) {
            """
            \(Library.format(summary.day.rawValue)): \(summary.steps) steps
              carried in \(summary.carriedIn), earned \(summary.earned), spent \(summary.spent), \
            adjusted \(summary.adjusted), expired \(summary.expired), refunded \(summary.refunded)
              available \(summary.available) min
            """
        }
    }

    static func history(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["from", "to", "account"])
        let store = try context.openStore(readOnly: true)
        let to = try store.day(args.option("to"))
        let from = try args.option("from").map(Library.parseDate) ?? to - 29
        let account = try account(&args, store)
        try args.finish(maxPositionals: 0)
        let entries = try kit { () throws(HabitError) in
            try store.kit.creditEntries(account: account, from: Day(rawValue: from), through: Day(rawValue: to))
        }
        let kinds: [CreditEntryKind: String] = [.earn: "earn", .spend: "spend", .adjust: "adjust", .expire: "expire", .refund: "refund"]
        let causes: [CreditCause: String] = [.steps: "steps", .habitEntry: "habit_entry", .session: "session", .manual: "manual", .expiry: "expiry"]
        let rows = entries.map { (entry) -> [String: Any] in
            let row: [String: Any] = [
                "id": entry.id, "kind": kinds[entry.kind] ?? "?", "minutes": entry.minutes, "date": Library.format(entry.day.rawValue),
                "at": Output.time(entry.atMs), "cause": causes[entry.cause] ?? "?",
                "cause_id": entry.causeID.map { $0 as Any } ?? NSNull(),
                "reason": entry.reason.map { $0 as Any } ?? NSNull(),
            ]
            return row
        }
        context.output.emit(["from": Library.format(from), "to": Library.format(to), "entries": rows]) {
            guard !rows.isEmpty else { return "no credit entries from \(Library.format(from)) to \(Library.format(to))" }
            return rows.map { row in
                let minutes = row["minutes"] as? Int64 ?? 0
                let reason = row["reason"] as? String ?? ""
                return "\(row["date"] ?? "")  \(String(describing: row["kind"] ?? "").padding(toLength: 6, withPad: " ", startingAt: 0)) "
                    + "\(minutes > 0 ? "+" : "")\(minutes) min  \(reason)"
            }.joined(separator: "\n")
        }
    }

    /// `credits rules` lists; `credits rules set --steps-per-minute N | --habit H --minutes M | --expiry day|carry [--from DATE]`.
    static func rules(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["steps-per-minute", "habit", "minutes", "expiry", "from", "account"])
        let store = try context.openStore(readOnly: args.positional(0) != "set")
        let account = try account(&args, store)
        if args.positional(0) == "set" {
            let from = try args.option("from").map { (text) throws(CLIError) in Day(rawValue: try Library.parseDate(text)) }
            let (kind, habit, value): (CreditRuleKind, HabitID?, Int64)
            if let steps = args.option("steps-per-minute") {
                (kind, habit, value) = (.stepsPerMinute, nil, try integer(steps, "--steps-per-minute"))
            } else if let name = args.option("habit") {
                (kind, habit, value) = (.habitMinutes, try store.habit(name).id, try integer(args.option("minutes"), "--minutes"))
            } else if let expiry = args.option("expiry") {
                guard let policy = ["day": CreditExpiry.endOfDay, "carry": CreditExpiry.carryOver][expiry] else {
                    throw .invalid("--expiry is day or carry")
                }
                (kind, habit, value) = (.expiry, nil, policy.rawValue)
            } else {
                throw .usage("rules set needs --steps-per-minute N, --habit H --minutes M, or --expiry day|carry")
            }
            try args.finish(maxPositionals: 1)
            let id = try kit { () throws(HabitError) in
                try store.kit.setCreditRule(kind, value: value, habitID: habit, account: account, from: from)
            }
            context.output.emit(["rule_id": id]) { "rule \(id) recorded" }
            return
        }
        try args.finish(maxPositionals: 0)
        let rules = try kit { () throws(HabitError) in try store.kit.creditRules(account: account) }
        let names: [CreditRuleKind: String] = [.stepsPerMinute: "steps_per_minute", .habitMinutes: "habit_minutes", .expiry: "expiry"]
        let rows: [[String: Any]] = rules.map { rule in
            var row: [String: Any] = ["id": rule.id, "kind": names[rule.kind] ?? "?", "from": Library.format(rule.from.rawValue)]
            if rule.kind == .expiry {
                row["value"] = rule.value == CreditExpiry.carryOver.rawValue ? "carry" : "day"
            } else {
                row["value"] = rule.value
            }
            if let habit = rule.habitID { row["habit_id"] = habit }
            return row
        }
        context.output.emit(["defaults": ["steps_per_minute": 100, "expiry": "day"], "rules": rows]) {
            var lines = ["defaults: 100 steps per minute, credits expire at the end of their day"]
            for row in rows {
                let habit = row["habit_id"].map { " habit \($0)" } ?? ""
                lines.append("from \(row["from"] ?? ""): \(row["kind"] ?? "")\(habit) = \(row["value"] ?? "")")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `credits account add NAME`.
    static func account(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        guard args.positional(0) == "add" else { throw .usage("credits account add NAME") }
        let name = try args.require(1, "NAME")
        try args.finish(maxPositionals: 2)
        let store = try context.openStore()
        let id = try kit { () throws(HabitError) in try store.kit.createAccount(named: name) }
        context.output.emit(["account_id": id, "name": name]) { "account '\(name)' created (id \(id))" }
    }

    private static func unlockState(_ store: StoreRef, _ account: CreditAccountID) throws(CLIError) -> UnlockState {
        try kit { () throws(HabitError) in try store.kit.unlockState(account: account) }
    }
}
