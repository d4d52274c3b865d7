import Foundation
import HabitKit

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
        let fresh = writable ? Set(try awardList { () throws(HabitError) in try store.kit.evaluateAwards() }.map(\.id)) : []
        let unlocked = try awardList { () throws(HabitError) in try store.kit.unlockedAwards() }
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
        let fresh = try awardList { () throws(HabitError) in try store.kit.evaluateAwards(asOf: Day(rawValue: day)) }
        context.output.emit(["as_of": Library.format(day), "unlocked": fresh.map { $0.json(new: true) }]) {
            fresh.isEmpty ? "nothing new unlocked as of \(Library.format(day))" : fresh.map(\.unlockedLine).joined(separator: "\n")
        }
    }

    static func progress(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["date"])
        let store = try context.openStore(readOnly: true)
        let day = try store.day(args.option("date"))
        try args.finish(maxPositionals: 0)
        let awards = try awardList { () throws(HabitError) in try store.kit.awardProgress(asOf: Day(rawValue: day)) }
        context.output.emit(["as_of": Library.format(day), "awards": awards.map { $0.json(new: false) }]) {
            awards.map { award in
                let state = award.unlockedDay.map { "unlocked \(Library.format($0))" } ?? "\(min(award.value, award.threshold))/\(award.threshold)"
                return
                    "\(award.id.padding(toLength: 18, withPad: " ", startingAt: 0)) \(state.padding(toLength: 22, withPad: " ", startingAt: 0)) \(award.title)"
            }.joined(separator: "\n")
        }
    }

    /// The catalogue: a table, or with --raw the JSON document `awards load` reads.
    static func catalog(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: [])
        let rawDocument = args.flag("raw")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        let text = try kit { () throws(HabitError) in try store.kit.awardCatalogJSON() }
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
            try kit { () throws(HabitError) in try store.kit.resetAwardCatalog() }
        } else {
            let text = try Commands.readInput(try args.require(0, "FILE or - (or --builtin)"))
            try kit { () throws(HabitError) in try store.kit.loadAwardCatalog(json: text) }
        }
        let count = try awardList { () throws(HabitError) in try store.kit.awardProgress() }.count
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
            let code = try kit { () throws(HabitError) in try store.kit.referralCode() }
            context.output.emit(["code": code]) { code }
        case "redeem":
            let code = try args.require(0, "CODE")
            try args.finish(maxPositionals: 1)
            let id = try kit { () throws(HabitError) in try store.kit.redeemReferral(code: code) }
            context.output.emit(["redemption_id": id]) { "redeemed" }
        default: throw .usage("unknown referral subcommand '\(sub)'")
        }
    }

    // MARK: Events

    static func events(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["after", "limit"])
        let after = try args.wholeNumber("after", default: 0)
        let limit = try args.wholeNumber("limit", default: 100)
        let acknowledge = args.flag("ack")
        let follow = args.flag("follow")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: !acknowledge && !context.canWrite())
        if follow {
            try ChangeCommands.follow(store, after: after) { (cursor) throws(HabitError) in
                let events = try store.kit.events(after: EventID(cursor), limit: limit, acknowledge: acknowledge)
                return (events.map(eventRow), events.last?.id.rawValue)
            }
        }
        let events = try kit { () throws(HabitError) in try store.kit.events(after: EventID(after), limit: limit, acknowledge: acknowledge) }
        let cursor = events.last?.id.rawValue ?? after
        context.output.emit(["events": events.map(eventRow), "cursor": cursor]) {
            let lines = events.map { event in
                var text = "#\(event.id) \(Library.format(event.day.rawValue)) \(eventKind(event.kind))"
                if let awardId = event.awardID { text += " \(awardId)" }
                if let habit = event.habitID { text += " habit \(habit)" }
                if event.kind != .awardUnlocked { text += " \(Output.number(event.value))" }
                return text
            }
            return (lines + ["cursor \(cursor)"]).joined(separator: "\n")
        }
    }

    private static func eventRow(_ event: Event) -> [String: Any] {
        [
            "id": event.id, "kind": eventKind(event.kind), "date": Library.format(event.day.rawValue), "at": Output.time(event.atMs),
            "habit_id": event.habitID ?? NSNull(), "entry_id": event.entryID ?? NSNull(),
            "award_id": event.awardID ?? NSNull(), "value": event.value, "acknowledged": event.acknowledged,
        ]
    }

    private static func eventKind(_ kind: EventKind) -> String {
        switch kind {
        case .awardUnlocked: return "award_unlocked"
        case .streakMilestone: return "streak_milestone"
        case .targetReached: return "target_reached"
        case .proofVerdict: return "proof_verdict"
        default: return "kind \(kind.rawValue)"
        }
    }

    /// The awards a HabitKit call gives, as this command shows them.
    private static func awardList(_ read: () throws(HabitError) -> [Award]) throws(CLIError) -> [AwardInfo] {
        try kit(read).map(AwardInfo.init)
    }
}

/// An award as the awards commands show it.
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

    init(_ a: Award) {
        id = a.id
        title = a.title
        description = a.description
        icon = a.icon
        tier = a.tier
        metric = a.metric.rawValue
        scope = a.scope.rawValue
        habitId = a.habitID?.rawValue ?? 0
        threshold = a.threshold
        value = a.value
        unlockedDay = a.unlockedDay?.rawValue
        unlockedAtMs = a.unlockedAtMs
        causeKind = a.cause.rawValue
        causeId = a.causeID ?? 0
        causeHabitId = a.causeHabitID?.rawValue ?? 0
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
