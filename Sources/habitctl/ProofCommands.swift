import Foundation
import HabitKit

/// proof submit|list|review|policy and plugin add|list|remove|test: photo proofs
/// and the verifiers that judge them.
enum ProofCommands {
    static let outcomes = ["", "approved", "rejected", "needs_review", "error"]

    static func outcomeName(_ outcome: Outcome) -> String {
        let value = outcome.rawValue
        return value > 0 && Int(value) < outcomes.count ? outcomes[Int(value)] : "outcome \(value)"
    }

    static func proof(_ raw: [String], _ context: Context) throws(CLIError) {
        guard let sub = raw.first else { throw .usage("proof needs a subcommand: submit, list, review, policy, evidence") }
        let rest = Array(raw.dropFirst())
        switch sub {
        case "submit": try submit(rest, context)
        case "list": try list(rest, context)
        case "review": try review(rest, context)
        case "policy": try policy(rest, context)
        case "evidence": try evidence(rest, context)
        default: throw .usage("unknown proof subcommand '\(sub)'")
        }
    }

    /// evidence ID [--out FILE]: the bytes a proof keeps (kept with --keep-copy, or synced
    /// with --evidence), to a file or to stdout when it is not a terminal.
    static func evidence(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["out"])
        let text = try args.require(0, "ID")
        let out = args.option("out")
        try args.finish(maxPositionals: 1)
        guard let id = Int64(text).map(ProofID.init(rawValue:)) else { throw .usage("proof id '\(text)' is not a number") }
        let store = try context.openStore(readOnly: true)
        let bytes = try kit { () throws(HabitError) in try store.kit.evidence(proofID: id) }
        let written = try SyncCommands.deliver(bytes, out: out, context: context)
        if context.output.json || written != nil {
            context.output.emit(["proof": id, "bytes": bytes.count, "path": written ?? NSNull()]) { "wrote \(bytes.count) bytes to \(written ?? "")" }
        }
    }

    /// Exits with the verdict (verdictExitCode), so a script can branch.
    static func submit(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["taken-at", "media-type", "metadata"])
        let store = try context.openStore()
        let habit = try store.habit(try args.require(0, "HABIT"))
        let file = try args.require(1, "FILE")
        let taken =
            try args.option("taken-at").map { (text) throws(CLIError) -> Int64 in
                guard let ms = Int64(text), ms > 0 else { throw .invalid("--taken-at is UTC milliseconds since 1970") }
                return ms
            } ?? 0
        let mediaType = args.option("media-type")
        let metadata = args.option("metadata")
        let keep = args.flag("keep-copy")
        try args.finish(maxPositionals: 2)
        var input = ProofInput(habitID: habit.id, path: file, takenAtMs: taken)
        input.mediaType = mediaType
        input.metadataJSON = metadata
        input.keepCopy = keep
        let result = try kit { () throws(HabitError) in try store.kit.submitProof(input) }
        let reason = result.reasonCode, message = result.message
        context.output.emit([
            "proof_id": result.proofID, "outcome": outcomeName(result.outcome), "confidence": result.confidence,
            "reason": reason, "message": message, "date": Library.format(result.day.rawValue),
            "entry_id": result.entryID.map { $0 as Any } ?? NSNull(),
        ]) {
            "proof #\(result.proofID): \(outcomeName(result.outcome)) (\(reason)) \(message)"
                + (result.entryID.map { "; logged entry #\($0) for \(Library.format(result.day.rawValue))" } ?? "")
        }
        Writer.finish(verdictExitCode(result.outcome))
    }

    /// proof submit's exit codes: 0 approved, 10 needs review, 11 rejected, 12 error verdict;
    /// apart from the general codes 1-8, which keep meaning that the call itself failed.
    static func verdictExitCode(_ outcome: Outcome) -> Int32 {
        switch outcome {
        case .approved: 0
        case .needsReview: 10
        case .rejected: 11
        default: 12
        }
    }

    /// Each proof with its verdicts, oldest first.
    static func list(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        try args.finish(maxPositionals: 1)
        let store = try context.openStore(readOnly: true)
        let habitId = try args.positional(0).map { (reference) throws(CLIError) -> HabitID in try store.habit(reference).id }
        let verdicts = try kit { () throws(HabitError) in try store.kit.verdicts(habitID: habitId) }.map { v -> ([String: Any], String) in
            let stage = ["", "verifier", "decision", "review"][Int(max(0, min(3, v.stage.rawValue)))]
            let row: [String: Any] = [
                "id": v.id, "proof_id": v.proofID, "habit_id": v.habitID, "date": Library.format(v.day.rawValue), "stage": stage,
                "verifier": v.verifierID ?? "", "version": v.verifierVersion ?? "",
                "outcome": outcomeName(v.outcome), "confidence": v.confidence, "reason": v.reasonCode ?? "",
                "message": v.message ?? "", "signals": (v.signals ?? "").split(separator: ",").map(String.init),
                "duration_us": v.durationUs, "reviewer": v.reviewer.map { $0 as Any } ?? NSNull(),
                "entry_id": v.entryID.map { $0 as Any } ?? NSNull(), "sha256": v.sha256 ?? "",
            ]
            let line =
                "proof #\(v.proofID) \(Library.format(v.day.rawValue)) habit \(v.habitID)  \(stage) \(row["verifier"] ?? ""): "
                + "\(outcomeName(v.outcome)) \(String(format: "%.2f", v.confidence)) \(row["reason"] ?? "")" + (v.reviewer.map { " by \($0)" } ?? "")
            return (row, line)
        }
        let rows = verdicts.map(\.0), lines = verdicts.map(\.1)
        context.output.emit(["verdicts": rows]) { lines.isEmpty ? "no proofs yet" : lines.joined(separator: "\n") }
    }

    static func review(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["reason", "reviewer"])
        let approve = args.flag("approve")
        let reject = args.flag("reject")
        guard approve != reject else { throw .usage("say --approve or --reject") }
        guard let reason = args.option("reason") else { throw .usage("a review needs --reason TEXT") }
        let reviewer = args.option("reviewer") ?? ProcessInfo.processInfo.environment["USER"] ?? "habitctl"
        guard let id = Int64(try args.require(0, "ID")).map(ProofID.init(rawValue:)) else { throw .invalid("ID must be a proof id") }
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let entry = try kit { () throws(HabitError) in try store.kit.review(proofID: id, approve: approve, reviewer: reviewer, reason: reason) }
        context.output.emit(["proof_id": id, "outcome": approve ? "approved" : "rejected", "entry_id": entry.map { $0 as Any } ?? NSNull()]) {
            "proof #\(id) \(approve ? "approved" : "rejected") by \(reviewer)" + (entry.map { "; logged entry #\($0)" } ?? "")
        }
    }

    /// `proof policy [HABIT] --verifiers a,b [--mode all|any] [--approve X] [--review Y] [--window HH:MM-HH:MM] [--many-per-day]`
    static func policy(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["verifiers", "mode", "approve", "review", "window"])
        let store = try context.openStore()
        let habitId = try args.positional(0).map { (reference) throws(CLIError) -> HabitID in try store.habit(reference).id }
        var policy = ProofPolicy()
        switch args.option("mode") {
        case nil: break
        case "all": policy.requireAll = true
        case "any": policy.requireAll = false
        default: throw .invalid("--mode is all or any")
        }
        func fraction(_ text: String?, _ fallback: Double, _ name: String) throws(CLIError) -> Double {
            guard let text else { return fallback }
            guard let value = Double(text) else { throw .invalid("--\(name) is a number from 0 to 1") }
            return value
        }
        policy.approveThreshold = try fraction(args.option("approve"), policy.approveThreshold, "approve")
        policy.reviewThreshold = try fraction(args.option("review"), policy.reviewThreshold, "review")
        if let window = args.option("window") {
            let parts = window.split(separator: "-").map(String.init)
            guard parts.count == 2, let start = minutes(parts[0]), let end = minutes(parts[1]) else {
                throw .invalid("--window is HH:MM-HH:MM (receipt local time)")
            }
            policy.window = (start, end == 0 ? 1440 : end)
        }
        if args.flag("many-per-day") { policy.onePerDay = false }
        let verifiers = args.option("verifiers") ?? ""
        try args.finish(maxPositionals: 1)
        // The list goes to the library as given: it is the one to judge it.
        policy.verifiers = verifiers.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        try kit { () throws(HabitError) in try store.kit.setProofPolicy(policy, habitID: habitId) }
        context.output.emit(["habit_id": habitId.map { $0 as Any } ?? NSNull(), "verifiers": verifiers]) {
            "policy set for \(habitId.map { "habit \($0)" } ?? "the store"): verifiers [\(verifiers)]"
        }
    }

    private static func minutes(_ text: String) -> Int32? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hours = Int32(parts[0]), let minutes = Int32(parts[1]), (0...24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    // MARK: Plugins

    static func plugin(_ raw: [String], _ context: Context) throws(CLIError) {
        guard let sub = raw.first else { throw .usage("plugin needs a subcommand: add, list, remove, test, configure") }
        var args = try Arguments(Array(raw.dropFirst()), valued: ["so", "exec", "id", "timeout", "config"])
        let store = try context.openStore(readOnly: sub == "list")
        switch sub {
        case "add":
            let so = args.option("so"), program = args.option("exec")
            guard (so == nil) != (program == nil) else { throw .usage("plugin add needs --so PATH or --exec PATH") }
            let id = args.option("id")
            let timeout =
                try args.option("timeout").map { (text) throws(CLIError) -> Int64 in
                    guard let value = Int64(text) else { throw .invalid("--timeout is milliseconds") }
                    return value
                } ?? 0
            let config = try args.option("config").map { (path) throws(CLIError) -> String in try Commands.readInput(path) }
            let inProcess = args.flag("in-process")
            if inProcess && so == nil { throw .usage("--in-process is for --so plugins") }
            try args.finish(maxPositionals: 0)
            let kind: PluginKind = so == nil ? .executable : inProcess ? .sharedObjectInProcess : .sharedObject
            let name = try kit { () throws(HabitError) in
                try store.kit.addPlugin(kind: kind, path: so ?? program ?? "", id: id, timeoutMs: timeout)
            }
            if let config {
                do throws(HabitError) { try store.kit.configurePlugin(id: name, settingsJSON: config) } catch {
                    // Registered without its settings it would judge with defaults nobody asked for.
                    try? store.kit.removePlugin(id: name)
                    throw CLIError(error)
                }
            }
            context.output.emit(["id": name]) { "plugin '\(name)' registered" }
        case "configure":
            let id = try args.require(0, "ID")
            let config = args.flag("clear") ? nil : try Commands.readInput(try args.require(1, "SETTINGS"))
            try args.finish(maxPositionals: config == nil ? 1 : 2)
            try kit { () throws(HabitError) in try store.kit.configurePlugin(id: id, settingsJSON: config) }
            context.output.emit(["id": id, "configured": config != nil]) { config == nil ? "plugin '\(id)' settings cleared" : "plugin '\(id)' configured" }
        case "list":
            try args.finish(maxPositionals: 0)
            let text = try kit { () throws(HabitError) in try store.kit.pluginsJSON() }
            let plugins = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
            context.output.emit(["plugins": plugins]) {
                plugins.isEmpty
                    ? "no plugins registered"
                    : plugins.map { "\($0["id"] ?? "")  \($0["kind"] ?? "")  \($0["path"] ?? "")" }
                        .joined(separator: "\n")
            }
        case "remove":
            let id = try args.require(0, "ID")
            try args.finish(maxPositionals: 1)
            try kit { () throws(HabitError) in try store.kit.removePlugin(id: id) }
            context.output.emit(["removed": id]) { "plugin '\(id)' removed" }
        case "test":
            let id = try args.require(0, "ID")
            let file = try args.require(1, "EVIDENCE")
            try args.finish(maxPositionals: 2)
            let result = try kit { () throws(HabitError) in try store.kit.testPlugin(id: id, path: file) }
            let reason = result.reasonCode, message = result.message
            context.output.emit(["outcome": outcomeName(result.outcome), "confidence": result.confidence, "reason": reason, "message": message]) {
                "\(id): \(outcomeName(result.outcome)) \(String(format: "%.2f", result.confidence)) (\(reason)) \(message)"
            }
        default: throw .usage("unknown plugin subcommand '\(sub)'")
        }
    }
}
