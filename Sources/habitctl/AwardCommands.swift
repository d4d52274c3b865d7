import CHabitCore
import Foundation

/// awards, referral, events: unlocked awards and progress, referral codes, and
/// the events an app turns into notifications.
enum AwardCommands {
    static func awards(_ raw: [String], _ context: Context) throws(CLIError) {
        let sub = raw.first ?? "list"
        let rest = Array(raw.dropFirst())
        switch sub {
        case "list": try list(rest, context)
        case "evaluate": try evaluate(rest, context)
        case "progress": try progress(rest, context)
        case "catalog": try catalog(rest, context)
        case "load": try load(rest, context)
        default: throw .usage("unknown awards subcommand '\(sub)'; see habitctl awards --help")
        }
    }

    /// Evaluates as of today, then lists every unlocked award, the new ones marked.
    static func list(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        try args.finish(maxPositionals: 0)
        // A store one may not write lists what is unlocked without evaluating first.
        let writable = context.canWrite()
        let store = try context.openStore(readOnly: !writable)
        let fresh = writable ? Set(try awardList { hc_award_evaluate(&$0, store.handle, Library.dayNone) }.map(\.id)) : []
        let unlocked = try awardList { hc_award_list_open_unlocked(&$0, store.handle) }
        context.output.emit(["unlocked": unlocked.map { $0.json(new: fresh.contains($0.id)) }]) {
            guard !unlocked.isEmpty else { return "no awards unlocked yet (see: habitctl awards progress)" }
            return unlocked.map { ($0.unlockedLine) + (fresh.contains($0.id) ? "  (new)" : "") }.joined(separator: "\n")
        }
    }

    static func evaluate(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date"])
        let store = try context.openStore()
        let day = try store.day(args.option("date"))
        try args.finish(maxPositionals: 0)
        let fresh = try awardList { hc_award_evaluate(&$0, store.handle, day) }
        context.output.emit(["as_of": Library.format(day), "unlocked": fresh.map { $0.json(new: true) }]) {
            fresh.isEmpty ? "nothing new unlocked as of \(Library.format(day))" : fresh.map(\.unlockedLine).joined(separator: "\n")
        }
    }

    static func progress(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date"])
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.option("date"))
        try args.finish(maxPositionals: 0)
        let awards = try awardList { hc_award_list_open_progress(&$0, store.handle, day) }
        context.output.emit(["as_of": Library.format(day), "awards": awards.map { $0.json(new: false) }]) {
            awards.map { award in
                let state = award.unlockedDay.map { "unlocked \(Library.format($0))" } ?? "\(min(award.value, award.threshold))/\(award.threshold)"
                return "\(award.id.padding(toLength: 18, withPad: " ", startingAt: 0)) \(state.padding(toLength: 22, withPad: " ", startingAt: 0)) \(award.title)"
            }.joined(separator: "\n")
        }
    }

    /// The catalogue: a table, or with --raw the JSON document `awards load` reads.
    static func catalog(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: [])
        let rawDocument = args.flag("raw")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        var pointer: UnsafeMutablePointer<CChar>?
        try Library.check(hc_award_catalog_json(&pointer, store.handle))
        guard let pointer else { throw CLIError(exitCode: 1, message: "no catalogue returned") }
        let text = String(cString: pointer)
        hc_free(pointer)
        if rawDocument { print(text, terminator: ""); return }
        let document = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        let rules = document["rules"] as? [[String: Any]] ?? []
        context.output.emit(["catalog": document]) {
            rules.map { rule in
                let scope = (rule["scope"] as? String).map { $0 == "habit" ? "habit \(rule["habit"] ?? "")" : $0 } ?? ""
                return "\(rule["id"] ?? "")  \(rule["metric"] ?? "") (\(scope)) >= \(rule["threshold"] ?? "")  \(rule["title"] ?? "")"
            }.joined(separator: "\n")
        }
    }

    static func load(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: [])
        let builtIn = args.flag("builtin")
        try args.finish(maxPositionals: builtIn ? 0 : 1)
        let store = try context.openStore()
        if builtIn {
            try Library.check(hc_award_catalog_reset(store.handle))
        } else {
            let text = try Commands.readInput(try args.require(0, "FILE or - (or --builtin)"))
            try Library.check(hc_award_catalog_load(store.handle, text))
        }
        let today = try store.today()
        let count = try awardList { hc_award_list_open_progress(&$0, store.handle, today) }.count
        context.output.emit(["loaded": true, "rules": count]) { "catalogue loaded: \(count) awards" }
    }

    // MARK: Referrals

    static func referral(_ raw: [String], _ context: Context) throws(CLIError) {
        guard let sub = raw.first else { throw .usage("referral needs a subcommand: code, redeem CODE") }
        let args = try Arguments(Array(raw.dropFirst()), valued: [])
        // A code made once is only read: a store one may not write still shows it.
        let store = try context.openStore(readOnly: sub == "code" && !context.canWrite())
        switch sub {
        case "code":
            try args.finish(maxPositionals: 0)
            var pointer: UnsafeMutablePointer<CChar>?
            try Library.check(hc_referral_code(&pointer, store.handle))
            guard let pointer else { throw CLIError(exitCode: 1, message: "no code returned") }
            let code = String(cString: pointer)
            hc_free(pointer)
            context.output.emit(["code": code]) { code }
        case "redeem":
            let code = try args.require(0, "CODE")
            try args.finish(maxPositionals: 1)
            var id: Int64 = 0
            try Library.check(hc_referral_redeem(&id, store.handle, code))
            context.output.emit(["redemption_id": id]) { "redeemed" }
        default: throw .usage("unknown referral subcommand '\(sub)'")
        }
    }

    // MARK: Events

    static func events(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["after", "limit"])
        let after = try number(args.option("after") ?? "0", "--after")
        let limit = try number(args.option("limit") ?? "100", "--limit")
        let acknowledge = args.flag("ack")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: !acknowledge && !context.canWrite())
        var list: OpaquePointer?
        try Library.check(hc_event_list_read(&list, store.handle, after, limit, acknowledge ? HC_EVENTS_ACK : 0))
        defer { hc_event_list_free(list) }
        let read = try Library.elements(of: list, hc_event_list_count, hc_event_list_get) { ($0, Library.string($0.award_id)) }
        let events = read.map(\.0), awardIds = read.map(\.1)
        let cursor = events.last?.id ?? after
        let rows: [[String: Any]] = zip(events, awardIds).map { event, awardId in
            ["id": event.id, "kind": eventKind(event.kind), "date": Library.format(event.day), "at": Output.time(event.at_ms),
             "habit_id": event.habit_id == 0 ? NSNull() : event.habit_id, "entry_id": event.entry_id == 0 ? NSNull() : event.entry_id,
             "award_id": awardId ?? NSNull(), "value": event.value, "acknowledged": event.acknowledged != 0]
        }
        context.output.emit(["events": rows, "cursor": cursor]) {
            let lines = zip(events, awardIds).map { event, awardId in
                var text = "#\(event.id) \(Library.format(event.day)) \(eventKind(event.kind))"
                if let awardId { text += " \(awardId)" }
                if event.habit_id != 0 { text += " habit \(event.habit_id)" }
                if event.kind != HC_EVENT_AWARD_UNLOCKED { text += " \(Output.number(event.value))" }
                return text
            }
            return (lines + ["cursor \(cursor)"]).joined(separator: "\n")
        }
    }

    private static func eventKind(_ kind: Int32) -> String {
        switch kind {
        case HC_EVENT_AWARD_UNLOCKED: return "award_unlocked"
        case HC_EVENT_STREAK_MILESTONE: return "streak_milestone"
        case HC_EVENT_TARGET_REACHED: return "target_reached"
        case HC_EVENT_PROOF_VERDICT: return "proof_verdict"
        default: return "kind \(kind)"
        }
    }

    private static func number(_ text: String, _ what: String) throws(CLIError) -> Int64 {
        guard let value = Int64(text) else { throw .invalid("\(what) must be a whole number") }
        return value
    }

    /// The awards of a list an hc_awards_* call opens, copied out.
    private static func awardList(_ open: (inout OpaquePointer?) -> Int32) throws(CLIError) -> [AwardInfo] {
        var list: OpaquePointer?
        try Library.check(open(&list))
        defer { hc_award_list_free(list) }
        return try Library.elements(of: list, hc_award_list_count, hc_award_list_get, AwardInfo.init)
    }
}

/// A Swift copy of an hc_award.
struct AwardInfo {
    var id: String
    var title: String
    var description: String
    var icon: String
    var tier: Int32
    var metric: Int32
    var scope: Int32
    var habitId: Int64
    var threshold: Int64
    var value: Int64
    var unlockedDay: Int32?
    var unlockedAtMs: Int64
    var causeKind: Int32
    var causeId: Int64
    var causeHabitId: Int64

    init(_ a: hc_award) {
        id = Library.string(a.id) ?? ""
        title = Library.string(a.title) ?? ""
        description = Library.string(a.description) ?? ""
        icon = Library.string(a.icon) ?? ""
        tier = a.tier
        metric = a.metric
        scope = a.scope
        habitId = a.habit_id
        threshold = a.threshold
        value = a.value
        unlockedDay = a.unlocked != 0 ? a.unlocked_day : nil
        unlockedAtMs = a.unlocked_at_ms
        causeKind = a.cause_kind
        causeId = a.cause_id
        causeHabitId = a.cause_habit_id
    }

    static let causes = ["none", "habit_entry", "credit_entry", "habit_created", "referral"]

    func json(new: Bool) -> [String: Any] {
        var object: [String: Any] = [
            "id": id, "title": title, "description": description, "icon": icon, "tier": tier, "threshold": threshold,
            "value": value, "unlocked": unlockedDay != nil,
        ]
        if let unlockedDay {
            object["unlocked_date"] = Library.format(unlockedDay)
            object["unlocked_at"] = Output.time(unlockedAtMs)
            object["cause"] = causeKind >= 0 && Int(causeKind) < Self.causes.count ? Self.causes[Int(causeKind)] : String(causeKind)
            object["cause_id"] = causeId == 0 ? NSNull() : causeId
            object["habit_id"] = causeHabitId == 0 ? NSNull() : causeHabitId
            object["new"] = new
        }
        return object
    }

    var unlockedLine: String {
        let day = unlockedDay.map(Library.format) ?? "?"
        let names = ["", "entry", "credit entry", "habit", "referral"]
        let name = causeKind > 0 && Int(causeKind) < names.count ? names[Int(causeKind)] : "cause"
        let habit = causeHabitId != 0 && causeKind != 3 ? ", habit \(causeHabitId)" : ""
        let cause = causeId != 0 ? " (\(name) #\(causeId)\(habit))" : ""
        return "\(day)  \(title) [\(id)]\(cause)"
    }
}
