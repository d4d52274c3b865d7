import CHabitCore
import Foundation

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
    private static func account(_ args: inout Arguments, _ store: StoreRef) throws(CLIError) -> Int64 {
        guard let name = args.option("account") else { return Int64(HC_ACCOUNT_DEFAULT) }
        var id: Int64 = 0
        try Library.check(hc_credit_account_find(&id, store.handle, name))
        return id
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
        var result = Library.defaults(hc_step_sync_init)
        try Library.check(hc_credit_sync_steps(&result, store.handle, account, day, steps))
        context.output.emit(["date": Library.format(result.day), "steps": result.steps, "earned_now": result.earned_now,
                             "day_earned": result.day_earned]) {
            "\(Library.format(result.day)): \(result.steps) steps, +\(result.earned_now) min now, \(result.day_earned) min from steps that day"
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
        var id: Int64 = 0
        try Library.check(withOptionalCString(reason) { hc_credit_spend(&id, store.handle, account, minutes, $0, unlock ? HC_SPEND_UNLOCK : 0) })
        let state = try unlockState(store, account)
        context.output.emit(["entry_id": id, "minutes": minutes, "unlocked": state.active != 0, "running_session_id": state.session_id,
                             "until": state.active != 0 ? Output.time(state.until_ms) as Any : NSNull()]) {
            unlock ? "spent \(minutes) min; apps unlocked until \(Output.time(state.until_ms))" : "spent \(minutes) min"
        }
    }

    /// Ends an unlock session early (now, or --at TIME) and refunds its unused whole minutes.
    static func end(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["at", "account"])
        let store = try context.openStore()
        let session = try integer(args.positional(0), "SESSION")
        let atText = args.option("at")
        let account = try account(&args, store)
        try args.finish(maxPositionals: 1)
        let at = try atText.map { (text) throws(CLIError) in try PolicyOptions.instant(text, day: try store.today(), store) } ?? 0
        var refund: Int64 = 0
        try Library.check(hc_credit_session_end(&refund, store.handle, session, at))
        let state = try unlockState(store, account)
        context.output.emit(["session_id": session, "refunded": refund, "unlocked": state.active != 0,
                             "until": state.active != 0 ? Output.time(state.until_ms) as Any : NSNull()]) {
            "ended session \(session); refunded \(refund) min" +
                (state.active != 0 ? "; apps unlocked until \(Output.time(state.until_ms)) (queued sessions moved up)" : "; apps locked")
        }
    }

    static func adjust(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["reason", "account"])
        let store = try context.openStore()
        let minutes = try integer(args.positional(0), "MINUTES")
        let account = try account(&args, store)
        guard let reason = args.option("reason") else { throw .usage("an adjustment needs --reason") }
        try args.finish(maxPositionals: 1)
        var id: Int64 = 0
        try Library.check(withOptionalCString(reason) { hc_credit_adjust(&id, store.handle, account, minutes, $0) })
        context.output.emit(["entry_id": id, "minutes": minutes]) { "adjusted by \(minutes) min" }
    }

    static func balance(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["account"])
        let store = try context.openStore(readOnly: true)
        let account = try account(&args, store)
        try args.finish(maxPositionals: 0)
        var available: Int64 = 0
        try Library.check(hc_credit_balance(&available, store.handle, account))
        let state = try unlockState(store, account)
        context.output.emit(["available": available, "unlocked": state.active != 0,
                             "until": state.active != 0 ? Output.time(state.until_ms) as Any : NSNull()]) {
            "\(available) min available" + (state.active != 0 ? "; apps unlocked until \(Output.time(state.until_ms))" : "")
        }
    }

    static func day(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["account"])
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.positional(0))
        let account = try account(&args, store)
        try args.finish(maxPositionals: 1)
        var summary = Library.defaults(hc_credit_day_init)
        try Library.check(hc_credit_day_summary(&summary, store.handle, account, day))
        context.output.emit(["date": Library.format(summary.day), "steps": summary.steps, "carried_in": summary.carried_in,
                             "earned": summary.earned, "spent": summary.spent, "adjusted": summary.adjusted,
                             "expired": summary.expired, "refunded": summary.refunded, "available": summary.available]) {
            """
            \(Library.format(summary.day)): \(summary.steps) steps
              carried in \(summary.carried_in), earned \(summary.earned), spent \(summary.spent), \
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
        var list: OpaquePointer?
        try Library.check(hc_credit_list_open(&list, store.handle, account, from, to))
        defer { hc_credit_list_free(list) }
        let kinds = [HC_CREDIT_EARN: "earn", HC_CREDIT_SPEND: "spend", HC_CREDIT_ADJUST: "adjust", HC_CREDIT_EXPIRE: "expire", HC_CREDIT_REFUND: "refund"]
        let causes = [HC_CAUSE_STEPS: "steps", HC_CAUSE_HABIT_ENTRY: "habit_entry", HC_CAUSE_SESSION: "session",
                      HC_CAUSE_MANUAL: "manual", HC_CAUSE_EXPIRY: "expiry"]
        let rows = try Library.elements(of: list, hc_credit_list_count, hc_credit_list_get) { (entry: hc_credit_entry) -> [String: Any] in
            ["id": entry.id, "kind": kinds[entry.kind] ?? "?", "minutes": entry.minutes, "date": Library.format(entry.day),
             "at": Output.time(entry.at_ms), "cause": causes[entry.cause] ?? "?",
             "cause_id": entry.cause_id == 0 ? NSNull() : entry.cause_id as Any,
             "reason": Library.string(entry.reason) as Any? ?? NSNull()]
        }
        context.output.emit(["from": Library.format(from), "to": Library.format(to), "entries": rows]) {
            guard !rows.isEmpty else { return "no credit entries from \(Library.format(from)) to \(Library.format(to))" }
            return rows.map { row in
                let minutes = row["minutes"] as? Int64 ?? 0
                let reason = row["reason"] as? String ?? ""
                return "\(row["date"] ?? "")  \(String(describing: row["kind"] ?? "").padding(toLength: 6, withPad: " ", startingAt: 0)) " +
                    "\(minutes > 0 ? "+" : "")\(minutes) min  \(reason)"
            }.joined(separator: "\n")
        }
    }

    /// `credits rules` lists; `credits rules set --steps-per-minute N | --habit H --minutes M | --expiry day|carry [--from DATE]`.
    static func rules(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["steps-per-minute", "habit", "minutes", "expiry", "from", "account"])
        let store = try context.openStore(readOnly: args.positional(0) != "set")
        let account = try account(&args, store)
        if args.positional(0) == "set" {
            let from = try args.option("from").map(Library.parseDate) ?? Library.dayNone
            let (kind, habit, value): (Int32, Int64, Int64)
            if let steps = args.option("steps-per-minute") {
                (kind, habit, value) = (HC_RULE_STEPS_PER_MINUTE, 0, try integer(steps, "--steps-per-minute"))
            } else if let name = args.option("habit") {
                (kind, habit, value) = (HC_RULE_HABIT_MINUTES, try store.habit(name).id, try integer(args.option("minutes"), "--minutes"))
            } else if let expiry = args.option("expiry") {
                guard let policy = ["day": HC_EXPIRY_END_OF_DAY, "carry": HC_EXPIRY_CARRY_OVER][expiry] else {
                    throw .invalid("--expiry is day or carry")
                }
                (kind, habit, value) = (HC_RULE_EXPIRY, 0, Int64(policy))
            } else {
                throw .usage("rules set needs --steps-per-minute N, --habit H --minutes M, or --expiry day|carry")
            }
            try args.finish(maxPositionals: 1)
            var id: Int64 = 0
            try Library.check(hc_credit_rule_set(&id, store.handle, account, kind, habit, value, from))
            context.output.emit(["rule_id": id]) { "rule \(id) recorded" }
            return
        }
        try args.finish(maxPositionals: 0)
        var count: Int64 = 0
        try Library.check(hc_credit_rule_list(nil, 0, &count, store.handle, account))
        var rules = [hc_credit_rule](repeating: hc_credit_rule(), count: Int(count))
        try Library.check(hc_credit_rule_list(&rules, count, &count, store.handle, account))
        let names = [HC_RULE_STEPS_PER_MINUTE: "steps_per_minute", HC_RULE_HABIT_MINUTES: "habit_minutes", HC_RULE_EXPIRY: "expiry"]
        let rows: [[String: Any]] = rules.prefix(Int(count)).map { rule in
            var row: [String: Any] = ["id": rule.id, "kind": names[rule.kind] ?? "?", "from": Library.format(rule.from_day)]
            if rule.kind == HC_RULE_EXPIRY {
                row["value"] = rule.value == Int64(HC_EXPIRY_CARRY_OVER) ? "carry" : "day"
            } else {
                row["value"] = rule.value
            }
            if rule.habit_id != 0 { row["habit_id"] = rule.habit_id }
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
        var id: Int64 = 0
        try Library.check(hc_credit_account_create(&id, store.handle, name))
        context.output.emit(["account_id": id, "name": name]) { "account '\(name)' created (id \(id))" }
    }

    private static func unlockState(_ store: StoreRef, _ account: Int64) throws(CLIError) -> hc_unlock_state {
        var state = Library.defaults(hc_unlock_state_init)
        try Library.check(hc_credit_unlock_state(&state, store.handle, account, 0))
        return state
    }
}
