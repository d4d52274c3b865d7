import CHabitCore
import Foundation

/// proof submit|list|review|policy and plugin add|list|remove|test: photo proofs
/// and the verifiers that judge them.
enum ProofCommands {
    static let outcomes = ["", "approved", "rejected", "needs_review", "error"]

    static func outcomeName(_ value: Int32) -> String {
        value > 0 && Int(value) < outcomes.count ? outcomes[Int(value)] : "outcome \(value)"
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
        guard let id = Int64(text) else { throw .usage("proof id '\(text)' is not a number") }
        let store = try context.openStore(readOnly: true)
        var count: Int64 = 0
        try Library.check(hc_proof_evidence(nil, 0, &count, store.handle, id))
        var bytes = [UInt8](repeating: 0, count: Int(count))
        try Library.check(hc_proof_evidence(&bytes, count, &count, store.handle, id))
        let written = try SyncCommands.deliver(Array(bytes.prefix(Int(count))), out: out, context: context)
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
        let taken = try args.option("taken-at").map { (text) throws(CLIError) -> Int64 in
            guard let ms = Int64(text), ms > 0 else { throw .invalid("--taken-at is UTC milliseconds since 1970") }
            return ms
        } ?? 0
        let mediaType = args.option("media-type")
        let metadata = args.option("metadata")
        let keep = args.flag("keep-copy")
        try args.finish(maxPositionals: 2)
        var input = Library.defaults(hc_proof_input_init)
        input.habit_id = habit.id
        input.taken_at_ms = taken
        input.flags = keep ? HC_PROOF_KEEP_COPY : 0
        var result = Library.defaults(hc_proof_result_init)
        try Library.check(file.withCString { path in
            withOptionalCString(mediaType) { media in
                withOptionalCString(metadata) { meta in
                    input.path = path
                    input.media_type = media
                    input.metadata_json = meta
                    return hc_proof_submit(&result, store.handle, &input)
                }
            }
        })
        let reason = text(&result.reason_code)
        let message = text(&result.message)
        context.output.emit(["proof_id": result.proof_id, "outcome": outcomeName(result.outcome), "confidence": result.confidence,
                             "reason": reason, "message": message, "date": Library.format(result.day),
                             "entry_id": result.entry_id == 0 ? NSNull() : result.entry_id]) {
            "proof #\(result.proof_id): \(outcomeName(result.outcome)) (\(reason)) \(message)" +
                (result.entry_id != 0 ? "; logged entry #\(result.entry_id) for \(Library.format(result.day))" : "")
        }
        Writer.finish(verdictExitCode(result.outcome))
    }

    /// proof submit's exit codes: 0 approved, 10 needs review, 11 rejected, 12 error verdict;
    /// apart from the general codes 1-8, which keep meaning that the call itself failed.
    static func verdictExitCode(_ outcome: Int32) -> Int32 {
        switch outcome {
        case HC_OUTCOME_APPROVED: 0
        case HC_OUTCOME_NEEDS_REVIEW: 10
        case HC_OUTCOME_REJECTED: 11
        default: 12
        }
    }

    /// Each proof with its verdicts, oldest first.
    static func list(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        try args.finish(maxPositionals: 1)
        let store = try context.openStore(readOnly: true)
        let habitId = try args.positional(0).map { (reference) throws(CLIError) -> Int64 in try store.habit(reference).id } ?? 0
        var list: OpaquePointer?
        try Library.check(hc_verdict_list_open(&list, store.handle, habitId, 0))
        defer { hc_verdict_list_free(list) }
        let verdicts = try Library.elements(of: list, hc_verdict_list_count, hc_verdict_list_get) { (v: hc_verdict) -> ([String: Any], String) in
            let stage = ["", "verifier", "decision", "review"][Int(max(0, min(3, v.stage)))]
            let row: [String: Any] = [
                "id": v.id, "proof_id": v.proof_id, "habit_id": v.habit_id, "date": Library.format(v.day), "stage": stage,
                "verifier": Library.string(v.verifier_id) ?? "", "version": Library.string(v.verifier_version) ?? "",
                "outcome": outcomeName(v.outcome), "confidence": v.confidence, "reason": Library.string(v.reason_code) ?? "",
                "message": Library.string(v.message) ?? "", "signals": (Library.string(v.signals) ?? "").split(separator: ",").map(String.init),
                "duration_us": v.duration_us, "reviewer": Library.string(v.reviewer) ?? NSNull(),
                "entry_id": v.entry_id == 0 ? NSNull() : v.entry_id, "sha256": Library.string(v.sha256) ?? "",
            ]
            let line = "proof #\(v.proof_id) \(Library.format(v.day)) habit \(v.habit_id)  \(stage) \(row["verifier"] ?? ""): " +
                "\(outcomeName(v.outcome)) \(String(format: "%.2f", v.confidence)) \(row["reason"] ?? "")" +
                (v.reviewer != nil ? " by \(Library.string(v.reviewer) ?? "")" : "")
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
        guard let id = Int64(try args.require(0, "ID")) else { throw .invalid("ID must be a proof id") }
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        var entry: Int64 = 0
        try Library.check(hc_proof_review(&entry, store.handle, id, approve ? HC_OUTCOME_APPROVED : HC_OUTCOME_REJECTED, reviewer, reason))
        context.output.emit(["proof_id": id, "outcome": approve ? "approved" : "rejected", "entry_id": entry == 0 ? NSNull() : entry]) {
            "proof #\(id) \(approve ? "approved" : "rejected") by \(reviewer)" + (entry != 0 ? "; logged entry #\(entry)" : "")
        }
    }

    /// `proof policy [HABIT] --verifiers a,b [--mode all|any] [--approve X] [--review Y] [--window HH:MM-HH:MM] [--many-per-day]`
    static func policy(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["verifiers", "mode", "approve", "review", "window"])
        let store = try context.openStore()
        let habitId = try args.positional(0).map { (reference) throws(CLIError) -> Int64 in try store.habit(reference).id } ?? 0
        var policy = Library.defaults(hc_proof_policy_init)
        switch args.option("mode") {
        case nil: break
        case "all": policy.mode = HC_POLICY_ALL
        case "any": policy.mode = HC_POLICY_ANY
        default: throw .invalid("--mode is all or any")
        }
        func fraction(_ text: String?, _ fallback: Double, _ name: String) throws(CLIError) -> Double {
            guard let text else { return fallback }
            guard let value = Double(text) else { throw .invalid("--\(name) is a number from 0 to 1") }
            return value
        }
        policy.approve_threshold = try fraction(args.option("approve"), policy.approve_threshold, "approve")
        policy.review_threshold = try fraction(args.option("review"), policy.review_threshold, "review")
        if let window = args.option("window") {
            let parts = window.split(separator: "-").map(String.init)
            guard parts.count == 2, let start = minutes(parts[0]), let end = minutes(parts[1]) else {
                throw .invalid("--window is HH:MM-HH:MM (receipt local time)")
            }
            policy.window_start = start
            policy.window_end = end == 0 ? 1440 : end
        }
        if args.flag("many-per-day") { policy.one_per_day = 0 }
        let verifiers = args.option("verifiers") ?? ""
        try args.finish(maxPositionals: 1)
        try Library.check(verifiers.withCString { ids in
            policy.verifiers = ids
            return hc_proof_policy_set(store.handle, habitId, &policy)
        })
        context.output.emit(["habit_id": habitId == 0 ? NSNull() : habitId, "verifiers": verifiers]) {
            "policy set for \(habitId == 0 ? "the store" : "habit \(habitId)"): verifiers [\(verifiers)]"
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
            let timeout = try args.option("timeout").map { (text) throws(CLIError) -> Int64 in
                guard let value = Int64(text) else { throw .invalid("--timeout is milliseconds") }
                return value
            } ?? 0
            let config = try args.option("config").map { (path) throws(CLIError) -> String in try Commands.readInput(path) }
            let inProcess = args.flag("in-process")
            if inProcess && so == nil { throw .usage("--in-process is for --so plugins") }
            try args.finish(maxPositionals: 0)
            var added: UnsafeMutablePointer<CChar>?
            let kind = so == nil ? HC_PLUGIN_EXECUTABLE : inProcess ? HC_PLUGIN_SHARED_OBJECT_IN_PROCESS : HC_PLUGIN_SHARED_OBJECT
            try Library.check(withOptionalCString(id) { idPointer in
                hc_plugin_add(&added, store.handle, kind, so ?? program ?? "", idPointer, timeout)
            })
            let name = added.map { String(cString: $0) } ?? ""
            hc_free(added)
            if let config {
                do throws(CLIError) { try Library.check(hc_plugin_configure(store.handle, name, config)) } catch {
                    // Registered without its settings it would judge with defaults nobody asked for.
                    _ = hc_plugin_remove(store.handle, name)
                    throw error
                }
            }
            context.output.emit(["id": name]) { "plugin '\(name)' registered" }
        case "configure":
            let id = try args.require(0, "ID")
            let config = args.flag("clear") ? nil : try Commands.readInput(try args.require(1, "SETTINGS"))
            try args.finish(maxPositionals: config == nil ? 1 : 2)
            try Library.check(withOptionalCString(config) { hc_plugin_configure(store.handle, id, $0) })
            context.output.emit(["id": id, "configured": config != nil]) { config == nil ? "plugin '\(id)' settings cleared" : "plugin '\(id)' configured" }
        case "list":
            try args.finish(maxPositionals: 0)
            var json: UnsafeMutablePointer<CChar>?
            try Library.check(hc_plugin_list_json(&json, store.handle))
            let text = json.map { String(cString: $0) } ?? "[]"
            hc_free(json)
            let plugins = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
            context.output.emit(["plugins": plugins]) {
                plugins.isEmpty ? "no plugins registered" : plugins.map { "\($0["id"] ?? "")  \($0["kind"] ?? "")  \($0["path"] ?? "")" }
                    .joined(separator: "\n")
            }
        case "remove":
            let id = try args.require(0, "ID")
            try args.finish(maxPositionals: 1)
            try Library.check(hc_plugin_remove(store.handle, id))
            context.output.emit(["removed": id]) { "plugin '\(id)' removed" }
        case "test":
            let id = try args.require(0, "ID")
            let file = try args.require(1, "EVIDENCE")
            try args.finish(maxPositionals: 2)
            var result = Library.defaults(hc_proof_result_init)
            try Library.check(hc_plugin_test(&result, store.handle, id, file))
            let reason = text(&result.reason_code), message = text(&result.message)
            context.output.emit(["outcome": outcomeName(result.outcome), "confidence": result.confidence, "reason": reason, "message": message]) {
                "\(id): \(outcomeName(result.outcome)) \(String(format: "%.2f", result.confidence)) (\(reason)) \(message)"
            }
        default: throw .usage("unknown plugin subcommand '\(sub)'")
        }
    }

    /// A fixed C char buffer as text.
    private static func text<Buffer>(_ buffer: inout Buffer) -> String {
        withUnsafeBytes(of: &buffer) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
