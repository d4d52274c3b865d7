import CHabitCore
import HabitCore
import HabitPlatform
import HabitPlugins
import HabitStore

/// Proof submission and review. The rules are stated in ProofPolicy and the header.
/// The proof and the built-in checks are written first, the verifiers run outside any
/// transaction (a plugin may take seconds), then their verdicts, the decision and the
/// completion are written together.
extension Engine {
    package static let maxEvidenceBytes = Evidence.maxBytes

    /// A proof's kept evidence bytes (its copy, or one received by sync).
    package func proofEvidence(proofId: Int64) throws(HabitError) -> [UInt8] {
        try store.snapshot { () throws(HabitError) in
            guard try store.proof(id: proofId) != nil else { throw .notFound("no proof with id \(proofId)") }
            guard let bytes = try store.proofCopy(id: proofId) else { throw .notFound("proof \(proofId) has no kept evidence") }
            return bytes
        }
    }
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
        let mediaType = try submission.mediaType.map(ProofText.validMediaType) ?? ProofText.guessMediaType(bytes)
        if let taken = submission.takenAtMs, taken < 0 { throw .invalid("taken_at_ms \(taken) is negative") }
        if let metadata = submission.metadataJSON { try Self.requireSmallObject(metadata, "metadata") }
        let received = now()
        let clock = try clock()
        let day = try clock.localDay(utcMs: received)
        let minute = try clock.minuteOfDay(utcMs: received)
        let sha = SHA256.hex(bytes)
        let policy = try proofPolicy(habitId: habit.id)

        let (proofId, refusal) = try store.atomically { () throws(HabitError) -> (Int64, ProofOutcome?) in
            let id = try store.insertProof(
                habitId: habit.id, day: day, sha256: sha, size: Int64(bytes.count), mediaType: mediaType,
                takenAtMs: submission.takenAtMs, receivedAtMs: received, metadata: submission.metadataJSON,
                copy: submission.keepCopy ? bytes : nil)
            guard
                let (reason, message) = try builtInRefusal(
                    proofId: id, sha256: sha, habitId: habit.id, day: day, minute: minute,
                    policy: policy)
            else {
                // Committed with the proof: if this process dies while the verifiers run,
                // the next open finds the proof and says so (recoverInterruptedProofs).
                try store.beginProofRun(proofId: id, pid: Int64(getpid()), atMs: received)
                return (id, nil)
            }
            let check = Verdict(
                stage: .verifier, verifierId: Self.builtInVerifier, verifierVersion: HC_VERSION_STRING,
                outcome: .rejected, confidence: 1, reasonCode: reason, message: message)
            return (id, try record(proofId: id, habitId: habit.id, day: day, verdicts: [check], decision: (.rejected, 1, reason, message), entryId: nil))
        }
        if let refusal { return refusal }

        let runs: [VerifierRun]
        do throws(HabitError) {
            let offset = try clock.utcOffsetSeconds(utcMs: received)
            runs = try EvidenceFile.withFile(path: submission.path, bytes: bytes) { (path) throws(HabitError) -> [VerifierRun] in
                var evidence = Evidence(
                    bytes: bytes, path: path, mediaType: mediaType, sha256: sha, takenAtMs: submission.takenAtMs,
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
                return try record(
                    proofId: proofId, habitId: habit.id, day: day, verdicts: [],
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
                    try store.verdicts(habitId: nil, proofId: run.proofId).allSatisfy({ $0.verdict.stage == .verifier })
                else { return }
                _ = try record(
                    proofId: proof.id, habitId: proof.habitId, day: proof.day, verdicts: [],
                    decision: (.error, 0, "interrupted", "the process verifying it (pid \(run.pid)) ended before its verdicts were written"),
                    entryId: nil)
            }
        }
    }

    /// One verifier's verdict and the fingerprints it kept.
    struct VerifierRun {
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

    func run(_ found: (verifier: any Verifier, config: String?), id: String, evidence: Evidence) -> VerifierRun {
        var evidence = evidence
        evidence.configJSON = found.config
        let session = VerifierSession(
            read: { [store] (kind) throws(HabitError) in
                try store.fingerprints(verifierId: id, kind: kind, excludingProof: evidence.proofId)
            },
            readAll: { [store] () throws(HabitError) in
                try store.fingerprints(verifierId: id, excludingProof: evidence.proofId)
            })
        let verdict = found.verifier.verify(evidence, session: session)
        return VerifierRun(verdict: verdict, kept: evidence.proofId == 0 ? [] : session.kept)
    }

    /// The built-in checks, in order: reused bytes, the window, one per day.
    private func builtInRefusal(
        proofId: Int64, sha256: String, habitId: Int64, day: Int32, minute: Int32,
        policy: ProofPolicy
    ) throws(HabitError) -> (String, String)? {
        if let earlier = try store.earlierProof(sha256: sha256, before: proofId) {
            return ("reused_evidence", "the same bytes were submitted as proof #\(earlier)")
        }
        if !policy.admits(minuteOfDay: minute), let window = policy.window {
            return ("outside_window", "received at \(ClockText.hhmm(minute)), outside \(ClockText.hhmm(window.start))-\(ClockText.hhmm(window.end))")
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
    private func record(
        proofId: Int64, habitId: Int64, day: Int32, verdicts: [Verdict], decision: (outcome: Outcome, confidence: Double, reason: String, message: String),
        entryId: Int64?
    ) throws(HabitError) -> ProofOutcome {
        let at = now()
        for var verdict in verdicts {
            verdict.proofId = proofId
            verdict.atMs = at
            _ = try store.insertVerdict(verdict)
        }
        var final = Verdict(
            stage: .decision, verifierId: "policy", verifierVersion: HC_VERSION_STRING, outcome: decision.outcome,
            confidence: decision.confidence, reasonCode: decision.reason, message: decision.message)
        final.proofId = proofId
        final.atMs = at
        final.entryId = entryId
        final = final.sanitized()
        let id = try store.insertVerdict(final)
        try recordVerdictEvent(verdictId: id, habitId: habitId, day: day, outcome: decision.outcome, entryId: entryId, atMs: at)
        return ProofOutcome(
            proofId: proofId, day: day, outcome: decision.outcome, confidence: final.confidence, reason: final.reasonCode,
            message: final.message, entryId: entryId)
    }

    /// Tells the app a proof was decided (by the policy or by a person).
    private func recordVerdictEvent(
        verdictId: Int64, habitId: Int64, day: Int32, outcome: Outcome, entryId: Int64?,
        atMs: Int64
    ) throws(HabitError) {
        _ = try store.insertEvent(
            HabitEvent(
                id: 0, kind: .proofVerdict, day: day, atMs: atMs, habitId: habitId, entryId: entryId,
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
            var verdict = Verdict(
                stage: .review, verifierId: "review", verifierVersion: "", outcome: approve ? .approved : .rejected,
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

    package func verdicts(habitId: Int64?, proofId: Int64?) throws(HabitError) -> [(verdict: Verdict, proof: ProofRecord)] {
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

    // MARK: Evidence

    func evidenceBytes(path: String?, bytes: [UInt8]?) throws(HabitError) -> [UInt8] {
        let result: [UInt8]
        switch (path, bytes) {
        case (let path?, nil): result = try EvidenceFile.read(path, maxBytes: Self.maxEvidenceBytes)
        case (nil, let bytes?): result = bytes
        default: throw .invalid("give the evidence as a path or as bytes, not both")
        }
        guard !result.isEmpty else { throw .invalid("the evidence is empty") }
        guard result.count <= Self.maxEvidenceBytes else { throw .invalid("the evidence is larger than 64 MiB") }
        return result
    }

    /// Caller JSON the engine stores and hands to verifiers: an object of at most 4 KiB.
    static func requireSmallObject(_ text: String, _ what: String) throws(HabitError) {
        guard text.utf8.count <= 4096, case .object? = try? JSON.parse(text) else {
            throw .invalid("\(what) must be a JSON object of at most 4 KiB")
        }
    }
}
