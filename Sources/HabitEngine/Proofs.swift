import Glibc
import HabitCore
import HabitPlugins
import HabitStore

/// Proof submission, verification and review; verifier and plugin registration.
/// The rules are stated in ProofPolicy and the header. The proof and the built-in
/// checks are written first, the verifiers run outside any transaction (a plugin
/// may take seconds), then their verdicts, the decision and the completion are
/// written together.
extension Engine {
    package static let maxEvidenceBytes = 64 << 20
    package static let defaultPluginTimeoutMs: Int64 = 10_000
    private static let builtInVerifier = "habitcore"

    package struct ProofSubmission: Sendable {
        package var habitId: Int64
        package var path: String?
        package var bytes: [UInt8]?
        package var mediaType: String?
        package var takenAtMs: Int64?
        package var metadataJSON: String?
        package var keepCopy = false
        package init(habitId: Int64, path: String?, bytes: [UInt8]?) {
            self.habitId = habitId
            self.path = path
            self.bytes = bytes
        }
    }

    package struct ProofOutcome: Equatable, Sendable {
        package var proofId: Int64
        package var day: Int32
        package var outcome: Outcome
        package var confidence: Double
        package var reason: String
        package var message: String
        package var entryId: Int64?
    }

    // MARK: Submitting

    package func submitProof(_ submission: ProofSubmission) throws(HabitError) -> ProofOutcome {
        let habit = try habit(id: submission.habitId)
        guard !habit.isArchived else { throw .conflict("habit '\(habit.spec.name)' is archived; restore it to prove it") }
        guard habit.spec.kind != .measurement else { throw .invalid("a measurement habit takes readings, not proofs") }
        let bytes = try evidenceBytes(path: submission.path, bytes: submission.bytes)
        let mediaType = try submission.mediaType.map(Self.validMediaType) ?? Self.guessMediaType(bytes)
        if let taken = submission.takenAtMs, taken < 0 { throw .invalid("taken_at_ms \(taken) is negative") }
        if let metadata = submission.metadataJSON { try Self.requireSmallObject(metadata, "metadata") }
        let received = now()
        let clock = try clock()
        let day = try clock.localDay(utcMs: received)
        let minute = try clock.minuteOfDay(utcMs: received)
        let sha = SHA256.hex(bytes)
        let policy = try proofPolicy(habitId: habit.id)

        let (proofId, refusal) = try store.atomically { () throws(HabitError) -> (Int64, ProofOutcome?) in
            let id = try store.insertProof(habitId: habit.id, day: day, sha256: sha, size: Int64(bytes.count), mediaType: mediaType,
                                           takenAtMs: submission.takenAtMs, receivedAtMs: received, metadata: submission.metadataJSON,
                                           copy: submission.keepCopy ? bytes : nil)
            guard let (reason, message) = try builtInRefusal(proofId: id, sha256: sha, habitId: habit.id, day: day, minute: minute,
                                                             policy: policy) else {
                // Committed with the proof: if this process dies while the verifiers run,
                // the next open finds the proof and says so (recoverInterruptedProofs).
                try store.beginProofRun(proofId: id, pid: Int64(getpid()), atMs: received)
                return (id, nil)
            }
            let check = Verdict(stage: .verifier, verifierId: Self.builtInVerifier, verifierVersion: HabitCoreVersion.string,
                                outcome: .rejected, confidence: 1, reasonCode: reason, message: message)
            return (id, try record(proofId: id, habitId: habit.id, day: day, verdicts: [check], decision: (.rejected, 1, reason, message), entryId: nil))
        }
        if let refusal { return refusal }

        let runs: [VerifierRun]
        do throws(HabitError) {
            let offset = try clock.utcOffsetSeconds(utcMs: received)
            runs = try withEvidenceFile(path: submission.path, bytes: bytes) { (path) throws(HabitError) -> [VerifierRun] in
                var evidence = Evidence(bytes: bytes, path: path, mediaType: mediaType, sha256: sha, takenAtMs: submission.takenAtMs,
                                        receivedAtMs: received, habitId: habit.id, habitName: habit.spec.name,
                                        metadataJSON: submission.metadataJSON)
                evidence.proofId = proofId
                evidence.day = day
                evidence.utcOffsetSeconds = offset
                evidence.dayStartMinutes = clock.dayStartMinutes
                return policy.verifiers.map { id in runVerifier(id: id, evidence: evidence) }
            }
        } catch {
            // The proof stays, decided as an error with the reason, rather than left pending.
            _ = try? store.atomically { () throws(HabitError) -> ProofOutcome in
                try store.endProofRun(proofId: proofId)
                return try record(proofId: proofId, habitId: habit.id, day: day, verdicts: [],
                                  decision: (.error, 0, "verification_failed", error.message), entryId: nil)
            }
            throw error
        }
        return try store.atomically { () throws(HabitError) -> ProofOutcome in
            try store.endProofRun(proofId: proofId)
            let verdicts = runs.map(\.verdict)
            var decision = policy.decide(verdicts)
            // Another proof of the day may have been approved while the verifiers ran.
            if decision.outcome == .approved, try !admitsApproval(habitId: habit.id, day: day, policy: policy) {
                decision = (.rejected, decision.confidence, "already_verified", "another proof of this day was approved first")
            }
            for run in runs {
                for fingerprint in run.kept {
                    try store.insertFingerprint(proofId: proofId, verifierId: run.verdict.verifierId, kind: fingerprint.kind, value: fingerprint.bytes)
                }
            }
            let entryId = decision.outcome == .approved ? try appendProofCompletion(habitId: habit.id, day: day, proofId: proofId) : nil
            return try record(proofId: proofId, habitId: habit.id, day: day, verdicts: verdicts, decision: decision, entryId: entryId)
        }
    }

    /// Decides as errors the proofs whose verifying process died before writing their
    /// verdicts (killed, crashed, powered off): proof_runs rows of processes that are
    /// gone, or older than a day (a reused pid). Run at each writable open.
    package func recoverInterruptedProofs() throws(HabitError) {
        for run in try store.proofRuns() {
            let alive = run.pid == Int64(getpid()) || (Int32(exactly: run.pid).map { kill($0, 0) == 0 || errno == EPERM } ?? false)
            let stale = run.startedAtMs < now() - 86_400_000  // read from the file: no arithmetic on it
            guard !alive || stale else { continue }
            try store.atomically { () throws(HabitError) in
                try store.endProofRun(proofId: run.proofId)
                guard let proof = try store.proof(id: run.proofId),
                      try store.verdicts(habitId: nil, proofId: run.proofId).allSatisfy({ $0.verdict.stage == .verifier }) else { return }
                _ = try record(proofId: proof.id, habitId: proof.habitId, day: proof.day, verdicts: [],
                               decision: (.error, 0, "interrupted", "the process verifying it (pid \(run.pid)) ended before its verdicts were written"),
                               entryId: nil)
            }
        }
    }

    /// One verifier's verdict and the fingerprints it kept.
    private struct VerifierRun {
        var verdict: Verdict
        var kept: [(kind: String, bytes: [UInt8])]
    }

    /// Runs one verifier with its settings and a session reading its own earlier
    /// fingerprints (outside any transaction: a plugin may take seconds).
    private func runVerifier(id: String, evidence: Evidence) -> VerifierRun {
        do throws(HabitError) { return run(try verifier(id: id), id: id, evidence: evidence) } catch {
            return VerifierRun(verdict: .error(id, "", "unknown_verifier", error.message), kept: [])
        }
    }

    private func run(_ found: (verifier: any Verifier, config: String?), id: String, evidence: Evidence) -> VerifierRun {
        var evidence = evidence
        evidence.configJSON = found.config
        let session = VerifierSession(read: { [store] (kind) throws(HabitError) in
            try store.fingerprints(verifierId: id, kind: kind, excludingProof: evidence.proofId)
        }, readAll: { [store] () throws(HabitError) in
            try store.fingerprints(verifierId: id, excludingProof: evidence.proofId)
        })
        let verdict = found.verifier.verify(evidence, session: session)
        return VerifierRun(verdict: verdict, kept: evidence.proofId == 0 ? [] : session.kept)
    }

    /// The built-in checks, in order: reused bytes, the window, one per day.
    private func builtInRefusal(proofId: Int64, sha256: String, habitId: Int64, day: Int32, minute: Int32,
                                policy: ProofPolicy) throws(HabitError) -> (String, String)? {
        if let earlier = try store.earlierProof(sha256: sha256, before: proofId) {
            return ("reused_evidence", "the same bytes were submitted as proof #\(earlier)")
        }
        if !policy.admits(minuteOfDay: minute), let window = policy.window {
            return ("outside_window", "received at \(Self.clockTime(minute)), outside \(Self.clockTime(window.start))-\(Self.clockTime(window.end))")
        }
        if try !admitsApproval(habitId: habitId, day: day, policy: policy) {
            return ("already_verified", "this habit's day already has an approved proof")
        }
        return nil
    }

    /// Whether a proof of this habit day may be approved under the policy (ProofPolicy's
    /// one-per-day rule; the store is asked only when the policy cares).
    private func admitsApproval(habitId: Int64, day: Int32, policy: ProofPolicy) throws(HabitError) -> Bool {
        guard policy.onePerDay else { return true }
        return policy.admitsAnotherApproval(dayHasApprovedProof: try store.hasApprovedProof(habitId: habitId, day: day))
    }

    /// Appends the verifiers' verdicts and the decision (inside a write transaction).
    private func record(proofId: Int64, habitId: Int64, day: Int32, verdicts: [Verdict], decision: (outcome: Outcome, confidence: Double, reason: String, message: String),
                        entryId: Int64?) throws(HabitError) -> ProofOutcome {
        let at = now()
        for var verdict in verdicts {
            verdict.proofId = proofId
            verdict.atMs = at
            _ = try store.insertVerdict(verdict)
        }
        var final = Verdict(stage: .decision, verifierId: "policy", verifierVersion: HabitCoreVersion.string, outcome: decision.outcome,
                            confidence: decision.confidence, reasonCode: decision.reason, message: decision.message)
        final.proofId = proofId
        final.atMs = at
        final.entryId = entryId
        final = final.sanitized()
        let id = try store.insertVerdict(final)
        try recordVerdictEvent(verdictId: id, habitId: habitId, day: day, outcome: decision.outcome, entryId: entryId, atMs: at)
        return ProofOutcome(proofId: proofId, day: day, outcome: decision.outcome, confidence: final.confidence, reason: final.reasonCode,
                            message: final.message, entryId: entryId)
    }

    /// Tells the app a proof was decided (by the policy or by a person).
    private func recordVerdictEvent(verdictId: Int64, habitId: Int64, day: Int32, outcome: Outcome, entryId: Int64?,
                                    atMs: Int64) throws(HabitError) {
        _ = try store.insertEvent(HabitEvent(id: 0, kind: .proofVerdict, day: day, atMs: atMs, habitId: habitId, entryId: entryId,
                                             awardId: nil, value: Double(outcome.rawValue), acknowledged: false),
                                  key: "proof:\(verdictId)")
    }

    private func appendProofCompletion(habitId: Int64, day: Int32, proofId: Int64) throws(HabitError) -> Int64 {
        try append(NewEntry(habitId: habitId, kind: .done, day: day, value: 0, atMs: nil, source: .proof, note: "proof #\(proofId)"))
    }

    // MARK: Review

    /// Decides by hand a proof that needs review or ended in an error.
    package func reviewProof(id: Int64, approve: Bool, reviewer: String, reason: String) throws(HabitError) -> Int64? {
        try TextRules.validate(reviewer, field: "reviewer", maxBytes: 200, allowEmpty: false)
        try TextRules.validate(reason, field: "reason", maxBytes: 500, allowEmpty: false)
        return try store.atomically { () throws(HabitError) -> Int64? in
            guard id > 0, let proof = try store.proof(id: id) else { throw .notFound("no proof with id \(id)") }
            let state = try store.verdicts(habitId: nil, proofId: id).last { $0.verdict.stage != .verifier }?.verdict.outcome
            if state == .approved || state == .rejected { throw .conflict("proof #\(id) is already \(state?.name ?? "")") }
            var entryId: Int64?
            if approve {
                if try !admitsApproval(habitId: proof.habitId, day: proof.day, policy: try proofPolicy(habitId: proof.habitId)) {
                    throw .conflict("the habit's day already has an approved proof")
                }
                entryId = try appendProofCompletion(habitId: proof.habitId, day: proof.day, proofId: id)
            }
            var verdict = Verdict(stage: .review, verifierId: "review", verifierVersion: "", outcome: approve ? .approved : .rejected,
                                  confidence: 1, reasonCode: approve ? "approved_by_review" : "rejected_by_review", message: reason)
            verdict.proofId = id
            verdict.atMs = now()
            verdict.reviewer = reviewer
            verdict.entryId = entryId
            let verdictId = try store.insertVerdict(verdict)
            try recordVerdictEvent(verdictId: verdictId, habitId: proof.habitId, day: proof.day, outcome: verdict.outcome, entryId: entryId, atMs: verdict.atMs)
            return entryId
        }
    }

    package func verdicts(habitId: Int64?, proofId: Int64?) throws(HabitError) -> [(verdict: Verdict, proof: Store.ProofRow)] {
        if let habitId { _ = try habit(id: habitId) }
        if let proofId, try store.proof(id: proofId) == nil { throw .notFound("no proof with id \(proofId)") }
        return try store.verdicts(habitId: habitId, proofId: proofId)
    }

    // MARK: Policy

    /// The habit's policy, else the store's, else the default.
    package func proofPolicy(habitId: Int64) throws(HabitError) -> ProofPolicy {
        if let own = try store.proofPolicy(habitId: habitId) { return own }
        return try store.proofPolicy(habitId: 0) ?? ProofPolicy()
    }

    package func setProofPolicy(habitId: Int64, _ policy: ProofPolicy) throws(HabitError) {
        try policy.validate()
        if habitId != 0 { _ = try habit(id: habitId) }
        try store.atomically { () throws(HabitError) in try store.setProofPolicy(habitId: habitId, policy) }
    }

    // MARK: Verifiers and plugins

    package func registerVerifier(_ verifier: (any Verifier)?, id: String) throws(HabitError) {
        try ProofPolicy.validateVerifierId(id)
        callbackVerifiers[id] = verifier
    }

    /// A callback on this handle, else a plugin registered in the store, with its settings.
    private func verifier(id: String) throws(HabitError) -> (verifier: any Verifier, config: String?) {
        if let callback = callbackVerifiers[id] { return (callback, nil) }
        guard let row = try store.plugins().first(where: { $0.id == id }) else { throw .notFound("no verifier '\(id)' is registered") }
        switch row.kind {
        case .executable: return (ExecutableVerifier(id: row.id, path: row.path, timeoutMs: row.timeoutMs), row.config)
        case .sharedObject:
            let timeout = row.timeoutMs == 0 ? Self.defaultPluginTimeoutMs : row.timeoutMs
            return (IsolatedVerifier(id: row.id, version: row.version, path: row.path, timeoutMs: timeout), row.config)
        case .sharedObjectInProcess:
            let loaded = try SharedObjectVerifier.load(path: row.path)
            guard loaded.id == row.id else { throw .invalid("plugin '\(row.path)' now calls itself '\(loaded.id)', registered as '\(row.id)'") }
            return (loaded, row.config)
        }
    }

    package func addPlugin(kind: Store.PluginRow.Kind, path: String, id: String?, timeoutMs: Int64) throws(HabitError) -> String {
        let resolved = try PluginFile.resolve(path)
        let row: Store.PluginRow
        switch kind {
        case .sharedObject:
            guard id == nil else { throw .invalid("a shared object names itself: pass no id") }
            let timeout = try Self.pluginTimeout(timeoutMs)
            let described = try IsolatedVerifier.describe(path: resolved, timeoutMs: timeout)
            try ProofPolicy.validateVerifierId(described.id)
            row = Store.PluginRow(id: described.id, kind: kind, path: resolved, version: described.version, timeoutMs: timeout)
        case .sharedObjectInProcess:
            guard id == nil else { throw .invalid("a shared object names itself: pass no id") }
            guard timeoutMs == 0 else { throw .invalid("a plugin loaded in-process has no timeout: it runs on the caller's thread") }
            let loaded = try SharedObjectVerifier.load(path: resolved)
            row = Store.PluginRow(id: loaded.id, kind: kind, path: resolved, version: loaded.version, timeoutMs: 0)
        case .executable:
            var info = stat()
            guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o111 != 0 else {
                throw .invalid("plugin '\(path)': not an executable file")
            }
            let name = id ?? String(resolved.split(separator: "/").last?.split(separator: ".").first ?? "plugin").lowercased()
            try ProofPolicy.validateVerifierId(name)
            row = Store.PluginRow(id: name, kind: kind, path: resolved, version: "exec", timeoutMs: try Self.pluginTimeout(timeoutMs))
        }
        let at = now()
        try store.atomically { () throws(HabitError) in try store.insertPlugin(row, addedAtMs: at) }
        return row.id
    }

    /// A plugin process's time limit: 0 asks for the default.
    private static func pluginTimeout(_ timeoutMs: Int64) throws(HabitError) -> Int64 {
        let timeout = timeoutMs == 0 ? defaultPluginTimeoutMs : timeoutMs
        guard (1...600_000).contains(timeout) else { throw .invalid("timeout_ms \(timeoutMs) is outside 1...600000") }
        return timeout
    }

    /// Sets (or with nil clears) a plugin's settings in this store: a JSON object of
    /// at most 4 KiB, handed to the plugin with each piece of evidence.
    package func configurePlugin(id: String, config: String?) throws(HabitError) {
        if let config { try Self.requireSmallObject(config, "plugin settings") }
        guard try store.atomically({ () throws(HabitError) in try store.setPluginConfig(id: id, config: config) }) else {
            throw .notFound("no plugin '\(id.prefix(64))' is registered")
        }
    }

    package func removePlugin(id: String) throws(HabitError) {
        guard try store.atomically({ () throws(HabitError) in try store.deletePlugin(id: id) }) else {
            throw .notFound("no plugin '\(id.prefix(64))' is registered")
        }
    }

    package func plugins() throws(HabitError) -> [Store.PluginRow] {
        try store.plugins()
    }

    /// One verifier's verdict on a file, recorded nowhere.
    /// It sees the store's fingerprints but keeps none.
    package func testVerifier(id: String, path: String) throws(HabitError) -> Verdict {
        let found = try verifier(id: id)  // an unknown id fails the call rather than becoming a verdict
        let bytes = try evidenceBytes(path: path, bytes: nil)
        let received = now()
        let clock = try clock()
        var evidence = Evidence(bytes: bytes, path: path, mediaType: Self.guessMediaType(bytes), sha256: SHA256.hex(bytes), takenAtMs: nil,
                                receivedAtMs: received, habitId: 0, habitName: "", metadataJSON: nil)
        evidence.day = try clock.localDay(utcMs: received)
        evidence.utcOffsetSeconds = try clock.utcOffsetSeconds(utcMs: received)
        evidence.dayStartMinutes = clock.dayStartMinutes
        return run(found, id: id, evidence: evidence).verdict
    }

    // MARK: Evidence

    private func evidenceBytes(path: String?, bytes: [UInt8]?) throws(HabitError) -> [UInt8] {
        let result: [UInt8]
        switch (path, bytes) {
        case (let path?, nil): result = try Self.readFile(path)
        case (nil, let bytes?): result = bytes
        default: throw .invalid("give the evidence as a path or as bytes, not both")
        }
        guard !result.isEmpty else { throw .invalid("the evidence is empty") }
        guard result.count <= Self.maxEvidenceBytes else { throw .invalid("the evidence is larger than 64 MiB") }
        return result
    }

    private static func readFile(_ path: String) throws(HabitError) -> [UInt8] {
        guard !path.isEmpty else { throw .invalid("the evidence path is empty") }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw errno == ENOENT ? .notFound("no evidence file '\(path)'") : HabitError(.io, "cannot open '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .invalid("'\(path)' is not a regular file") }
        guard info.st_size <= maxEvidenceBytes else { throw .invalid("the evidence is larger than 64 MiB") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + filled }, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw HabitError(.io, "cannot read '\(path)'") }
            filled += count
        }
        return bytes
    }

    /// Runs body with a file holding the evidence: the caller's, or a temporary one.
    private func withEvidenceFile<T>(path: String?, bytes: [UInt8], _ body: (String) throws(HabitError) -> T) throws(HabitError) -> T {
        if let path { return try body(path) }
        var template = Array(((getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/habitcore-proof-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw HabitError(.io, "cannot write a temporary evidence file") }
        let temporary = String(cString: template.map { $0 } + [0])
        defer { unlink(temporary) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        Glibc.close(fd)
        guard written == bytes.count else { throw HabitError(.io, "cannot write a temporary evidence file") }
        return try body(temporary)
    }

    /// Caller JSON the engine stores and hands to verifiers: an object of at most 4 KiB.
    private static func requireSmallObject(_ text: String, _ what: String) throws(HabitError) {
        guard text.utf8.count <= 4096, case .object? = try? JSON.parse(text) else {
            throw .invalid("\(what) must be a JSON object of at most 4 KiB")
        }
    }

    private static func validMediaType(_ text: String) throws(HabitError) -> String {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, text.utf8.count <= 100,
              text.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else { throw .invalid("media type '\(text.prefix(100))' is not type/subtype") }
        return text.lowercased()
    }

    private static func guessMediaType(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        return "application/octet-stream"
    }

    private static func clockTime(_ minute: Int32) -> String {
        let hours = minute / 60, minutes = minute % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }
}
