import Foundation
import HabitFiles
import HabitKit
import HabitPlatform

/// sync: this store's state, the changes another device lacks, applying a device's
/// changes, and a two-way sync with another store file (one in a synced folder).
/// States and changesets are binary (docs/FORMATS.md, "Sync"); they go to a file
/// (--out) or to stdout when it is not a terminal.
enum SyncCommands {
    static func run(_ raw: [String], _ context: Context) throws(CLIError) {
        let sub = raw.first ?? "state"
        let rest = Array(raw.dropFirst())
        switch sub {
        case "state": try state(rest, context)
        case "changes": try changes(rest, context)
        case "apply": try apply(rest, context)
        case "with": try with(rest, context)
        case "canonical": try canonical(rest, context)
        default: throw .usage("unknown sync subcommand '\(sub)'; see habitctl sync --help")
        }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// A state or changeset file, or standard input ("-"), refused past the changeset
    /// format's limit before more is read (a state is smaller still).
    static func readBytes(_ path: String) throws(CLIError) -> [UInt8] {
        let limit = HabitKit.Store.changesetLimit
        switch path == "-" ? WholeFile.read(descriptor: 0, maxBytes: limit) : WholeFile.read(path, maxBytes: limit) {
        case .success(let bytes): return bytes
        case .failure(.tooLarge): throw CLIError(exitCode: 5, message: "\(path) is larger than a changeset may be (\(limit >> 20) MiB)")
        case .failure(.missing): throw CLIError(exitCode: 3, message: "cannot read \(path): no such file")
        case .failure(.notRegular): throw CLIError(exitCode: 3, message: "cannot read \(path): not a regular file")
        case .failure(.unreadable(let code)): throw CLIError(exitCode: 3, message: "cannot read \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Bytes to --out FILE, or stdout unless it is a terminal (binary is not for reading there).
    static func deliver(_ bytes: [UInt8], out: String?, context: Context) throws(CLIError) -> String? {
        if let out {
            try FileOutput.write(bytes, to: out)
            return out
        }
        guard !context.output.json else { return nil }
        guard isatty(STDOUT_FILENO) == 0 else { throw .usage("the output is binary: redirect it to a file, or give --out FILE") }
        Writer.standardOutput(bytes: bytes)
        return nil
    }

    static func summaryObject(_ s: SyncSummary) -> [String: Any] {
        [
            "received": s.opsReceived, "new": s.opsNew, "applied": s.opsApplied, "superseded": s.opsSuperseded, "waiting": s.opsWaiting,
            "habits_changed": s.habitsChanged, "entries_added": s.entriesAdded, "vacations_changed": s.vacationsChanged,
            "settings_changed": s.settingsChanged, "proofs_changed": s.proofsChanged, "credits_changed": s.creditsChanged, "forked": s.opsForked,
        ]
    }

    static func summaryLine(_ s: SyncSummary) -> String {
        if s.opsReceived == 0 { return "nothing new" }
        if s.opsNew == 0 && s.opsApplied == 0 && s.opsWaiting == 0 && s.opsForked == 0 { return "nothing new (\(s.opsReceived) changes already here)" }
        var parts: [String] = []
        if s.entriesAdded > 0 { parts.append("\(s.entriesAdded) entr\(s.entriesAdded == 1 ? "y" : "ies")") }
        if s.habitsChanged > 0 { parts.append("\(s.habitsChanged) habit change\(s.habitsChanged == 1 ? "" : "s")") }
        if s.vacationsChanged > 0 { parts.append("\(s.vacationsChanged) vacation change\(s.vacationsChanged == 1 ? "" : "s")") }
        if s.settingsChanged > 0 { parts.append("\(s.settingsChanged) setting\(s.settingsChanged == 1 ? "" : "s")") }
        if s.proofsChanged > 0 { parts.append("\(s.proofsChanged) proof record\(s.proofsChanged == 1 ? "" : "s")") }
        if s.creditsChanged > 0 { parts.append("\(s.creditsChanged) credit record\(s.creditsChanged == 1 ? "" : "s")") }
        var text = "\(s.opsNew) new of \(s.opsReceived) changes: " + (parts.isEmpty ? "no record changed" : parts.joined(separator: ", "))
        if s.opsSuperseded > 0 { text += "; \(s.opsSuperseded) overtaken by later changes" }
        if s.opsWaiting > 0 { text += "; \(s.opsWaiting) waiting for records not received yet" }
        if s.opsForked > 0 { text += "; \(s.opsForked) from another device's copy of this history, taken under new ids" }
        return text
    }

    /// state [--out FILE]
    static func state(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["out"])
        let out = args.option("out")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        let (bytes, id, replicas) = try kit { () throws(HabitError) in
            let bytes = try store.kit.syncState()
            return (bytes, hex(try store.kit.syncReplica()), try SyncStateReplica.all(in: bytes))
        }
        let written = try deliver(bytes, out: out, context: context)
        let known: [[String: Any]] = replicas.map { ["replica": hex($0.replica), "seq": $0.seen] }
        if context.output.json || written != nil {
            context.output.emit(["replica": id, "state": hex(bytes), "known": known, "path": written ?? NSNull()]) {
                "replica \(id); knows \(known.count) replica\(known.count == 1 ? "" : "s"); wrote \(bytes.count) bytes to \(written ?? "")"
            }
        }
    }

    /// changes [--since STATE_FILE] [--evidence] [--out FILE]
    static func changes(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["since", "out"])
        let since = args.option("since"), out = args.option("out"), evidence = args.flag("evidence")
        try args.finish(maxPositionals: 0)
        let peer = try since.map(readBytes) ?? []
        let store = try context.openStore(readOnly: true)
        let bytes = try kit { () throws(HabitError) in try store.kit.syncChanges(since: peer, options: evidence ? .evidence : []) }
        let written = try deliver(bytes, out: out, context: context)
        if context.output.json || written != nil {
            context.output.emit(["bytes": bytes.count, "path": written ?? NSNull(), "changeset": context.output.json && written == nil ? hex(bytes) : NSNull()])
            {
                "wrote a changeset of \(bytes.count) bytes to \(written ?? "")"
            }
        }
    }

    /// apply FILE|-
    static func apply(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        let path = try args.require(0, "FILE or -")
        try args.finish(maxPositionals: 1)
        let bytes = try readBytes(path)
        let store = try context.openStore()
        let summary = try kit { () throws(HabitError) in try store.kit.applySync(bytes) }
        context.output.emit(["applied": summaryObject(summary)]) { summaryLine(summary) }
    }

    /// canonical: the synced records as text independent of local ids
    /// (hc_sync_canonical), so scripts can compare two devices with cmp or diff.
    static func canonical(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        let text = try kit { () throws(HabitError) in try store.kit.syncCanonical() }
        context.output.emit(["canonical": text]) { String(text.dropLast()) }
    }

    /// with OTHER_DB [--evidence]: what the other store lacks goes there, what this one lacks comes here.
    static func with(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: [])
        let path = try args.require(0, "OTHER_DB"), evidence = args.flag("evidence")
        try args.finish(maxPositionals: 1)
        let store = try context.openStore()
        let options: SyncChangesOptions = evidence ? .evidence : []
        let (here, there) = try kit { () throws(HabitError) in
            let other = try HabitKit.Store(path: path, options: .noCreate)
            let here = try store.kit.applySync(try other.syncChanges(since: try store.kit.syncState(), options: options))
            let there = try other.applySync(try store.kit.syncChanges(since: try other.syncState(), options: options))
            return (here, there)
        }
        context.output.emit(["received": summaryObject(here), "sent": summaryObject(there), "other": path]) {
            "from \(path): \(summaryLine(here))\nto \(path): \(summaryLine(there))"
        }
    }
}
