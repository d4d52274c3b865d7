import CHabitCore

/// How proofs are judged (hc_proof_policy); the defaults are the library's.
public struct ProofPolicy: Sendable {
    /// Whether every verifier must approve (HC_POLICY_ALL), or one is enough (HC_POLICY_ANY).
    public var requireAll: Bool
    /// 0...1: at or above, approved.
    public var approveThreshold: Double
    /// 0...approveThreshold: at or above (and below approval), needs review.
    public var reviewThreshold: Double
    /// Minutes after local midnight a proof may come from and until (exclusive); nil: any time.
    public var window: (start: Int32, end: Int32)?
    /// One approved proof per habit and day.
    public var onePerDay: Bool
    /// Verifier ids, run in order.
    public var verifiers: [String]

    /// The library's defaults (hc_proof_policy_init) with these verifiers.
    public init(verifiers: [String] = []) {
        var defaults = hc_proof_policy()
        _ = hc_proof_policy_init(&defaults, UInt32(MemoryLayout<hc_proof_policy>.size))
        requireAll = defaults.mode == HC_POLICY_ALL
        approveThreshold = defaults.approve_threshold
        reviewThreshold = defaults.review_threshold
        window = defaults.window_start < 0 ? nil : (defaults.window_start, defaults.window_end)
        onePerDay = defaults.one_per_day != 0
        self.verifiers = verifiers
    }
}

/// A proof to submit (hc_proof_input): its bytes, or a file holding them.
public struct ProofInput: Sendable {
    /// The habit it proves.
    public var habitID: HabitID
    /// The evidence in memory (read only when path is nil).
    public var bytes: [UInt8]
    /// A file holding the evidence.
    public var path: String?
    /// nil: guessed from the first bytes.
    public var mediaType: String?
    /// When the caller says it was taken (UTC ms); 0: unknown.
    public var takenAtMs: Int64
    /// A JSON object (up to 4 KiB).
    public var metadataJSON: String?
    /// Keep the evidence bytes in the store.
    public var keepCopy: Bool

    /// Evidence in memory for the habit.
    public init(habitID: HabitID, bytes: [UInt8], takenAtMs: Int64 = 0) {
        self.habitID = habitID
        self.bytes = bytes
        self.takenAtMs = takenAtMs
        keepCopy = false
    }

    /// Evidence in a file for the habit.
    public init(habitID: HabitID, path: String, takenAtMs: Int64 = 0) {
        self.init(habitID: habitID, bytes: [], takenAtMs: takenAtMs)
        self.path = path
    }
}

/// What a submission came to (hc_proof_result).
public struct ProofResult: Sendable, Hashable {
    /// The decision.
    public var outcome: Outcome
    /// The proof's id.
    public var proofID: ProofID
    /// The completion appended when approved.
    public var entryID: EntryID?
    /// The decision's confidence.
    public var confidence: Double
    /// The proof's day.
    public var day: Day
    /// A short code for the reason.
    public var reasonCode: String
    /// For people.
    public var message: String

    init(_ c: hc_proof_result) {
        outcome = Outcome(rawValue: c.outcome)
        proofID = ProofID(c.proof_id)
        entryID = EntryID(nonZero: c.entry_id)
        confidence = c.confidence
        day = Day(rawValue: c.day)
        reasonCode = copied(tuple: c.reason_code)
        message = copied(tuple: c.message)
    }
}

/// A verdict as recorded (hc_verdict), copied out of the library.
public struct Verdict: Sendable, Hashable, Identifiable {
    /// Increasing in append order.
    public var id: VerdictID
    /// The proof judged.
    public var proofID: ProofID
    /// Its habit.
    public var habitID: HabitID
    /// Who gave it: a verifier, the decision or a review.
    public var stage: Stage
    /// The decision.
    public var outcome: Outcome
    /// The proof's day.
    public var day: Day
    /// 0...1.
    public var confidence: Double
    /// The verifier's id ("habitcore", "policy", "review" or a registered one).
    public var verifierID: String?
    /// A short code for the reason.
    public var reasonCode: String?
    /// For people.
    public var message: String?
    /// Named findings, comma-separated.
    public var signals: String?
    /// Who reviewed (reviews only).
    public var reviewer: String?
    /// The completion a decision or review appended.
    public var entryID: EntryID?
    /// The verifier's version, if it gave one.
    public var verifierVersion: String?
    /// How long judging took, in microseconds.
    public var durationUs: Int64
    /// When it was recorded (UTC ms).
    public var atMs: Int64
    /// The SHA-256 of the proof's evidence, 64 lowercase hex digits.
    public var sha256: String?

    init(_ v: hc_verdict) {
        id = VerdictID(v.id)
        proofID = ProofID(v.proof_id)
        habitID = HabitID(v.habit_id)
        stage = Stage(rawValue: v.stage)
        outcome = Outcome(rawValue: v.outcome)
        day = Day(rawValue: v.day)
        confidence = v.confidence
        verifierID = copied(v.verifier_id)
        reasonCode = copied(v.reason_code)
        message = copied(v.message)
        signals = copied(v.signals)
        reviewer = copied(v.reviewer)
        entryID = EntryID(nonZero: v.entry_id)
        verifierVersion = copied(v.verifier_version)
        durationUs = v.duration_us
        atMs = v.at_ms
        sha256 = copied(v.sha256)
    }
}

/// The evidence a verifier closure judges (hc_plugin_evidence), copied out.
public struct Evidence: Sendable {
    /// The evidence bytes.
    public var bytes: [UInt8]
    /// "image/jpeg", "image/png", ...
    public var mediaType: String?
    /// 64 lowercase hex digits.
    public var sha256: String?
    /// What the caller says (UTC ms); 0 when unknown.
    public var takenAtMs: Int64
    /// When the store received it (UTC ms).
    public var receivedAtMs: Int64
    /// The habit it proves.
    public var habitID: HabitID
    /// That habit's name.
    public var habitName: String?
    /// The caller's metadata, a JSON object.
    public var metadataJSON: String?

    init(_ e: hc_plugin_evidence) {
        if let bytes = e.bytes, e.size > 0, let count = Int(exactly: e.size) {
            self.bytes = Array(UnsafeBufferPointer(start: bytes, count: count))
        } else {
            bytes = []
        }
        mediaType = copied(e.media_type)
        sha256 = copied(e.sha256)
        takenAtMs = e.taken_at_ms
        receivedAtMs = e.received_at_ms
        habitID = HabitID(e.habit_id)
        habitName = copied(e.habit_name)
        metadataJSON = copied(e.metadata_json)
    }
}

/// What a verifier closure decides (hc_plugin_verdict).
public struct VerifierVerdict: Sendable {
    /// The decision.
    public var outcome: Outcome
    /// 0...1.
    public var confidence: Double
    /// A short code: lowercase, digits, '_', '.', '-' (up to 63 bytes).
    public var reasonCode: String
    /// For people (up to 511 bytes).
    public var message: String
    /// Named findings, comma-separated (up to 511 bytes).
    public var signals: String

    /// A verdict.
    public init(outcome: Outcome, confidence: Double, reasonCode: String, message: String = "", signals: String = "") {
        self.outcome = outcome
        self.confidence = confidence
        self.reasonCode = reasonCode
        self.message = message
        self.signals = signals
    }
}

/// A verifier closure, boxed as user_data for hc_verifier_register_v2: the library
/// holds one retain and gives it back through releaseVerifier, once.
private final class VerifierBox: Sendable {
    let judge: @Sendable (Evidence) throws -> VerifierVerdict
    init(_ judge: @escaping @Sendable (Evidence) throws -> VerifierVerdict) { self.judge = judge }
}

/// Calls the boxed closure; what it throws becomes an error verdict carrying its text.
private let callVerifier: hc_verify_callback = { evidence, out, userData in
    guard let evidence, let out, let userData else { return 1 }
    let box = Unmanaged<VerifierBox>.fromOpaque(userData).takeUnretainedValue()
    do {
        let verdict = try box.judge(Evidence(evidence.pointee))
        out.pointee.outcome = verdict.outcome.rawValue
        out.pointee.confidence = verdict.confidence
        fill(&out.pointee.reason_code, with: verdict.reasonCode)
        fill(&out.pointee.message, with: verdict.message)
        fill(&out.pointee.signals, with: verdict.signals)
    } catch {
        out.pointee.outcome = HC_OUTCOME_ERROR
        out.pointee.confidence = 0
        fill(&out.pointee.reason_code, with: "verifier_threw")
        fill(&out.pointee.message, with: String(describing: error))
    }
    return 0
}

private let releaseVerifier: hc_release_callback = { userData in
    if let userData { Unmanaged<VerifierBox>.fromOpaque(userData).release() }
}

extension Store {
    /// Sets the proof policy of a habit, or of the store when habitID is nil
    /// (hc_proof_policy_set). Verifier ids need not be registered yet.
    public func setProofPolicy(_ policy: ProofPolicy, habitID: HabitID? = nil) throws(HabitError) {
        let strings = CStrings()
        var c = hc_proof_policy()
        try check(hc_proof_policy_init(&c, UInt32(MemoryLayout<hc_proof_policy>.size)))
        c.mode = policy.requireAll ? HC_POLICY_ALL : HC_POLICY_ANY
        c.approve_threshold = policy.approveThreshold
        c.review_threshold = policy.reviewThreshold
        c.window_start = policy.window?.start ?? -1
        c.window_end = policy.window?.end ?? -1
        c.one_per_day = policy.onePerDay ? 1 : 0
        c.verifiers = try strings(policy.verifiers.joined(separator: ","), "verifiers")
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try withHandle { store throws(HabitError) in try check(hc_proof_policy_set(store, habitID.rawValueOrZero(), &c)) }
        }
    }

    /// Submits a proof: the built-in checks, the policy's verifiers (closures run on
    /// this thread), the decision, and the completion when approved (hc_proof_submit).
    /// A verdict that is not approved is still a result: read its outcome.
    public func submitProof(_ input: ProofInput) throws(HabitError) -> ProofResult {
        let strings = CStrings()
        var c = hc_proof_input()
        try check(hc_proof_input_init(&c, UInt32(MemoryLayout<hc_proof_input>.size)))
        c.flags = input.keepCopy ? HC_PROOF_KEEP_COPY : 0
        c.habit_id = input.habitID.rawValue
        c.path = try strings(input.path, "path")
        c.media_type = try strings(input.mediaType, "mediaType")
        c.taken_at_ms = input.takenAtMs
        c.metadata_json = try strings(input.metadataJSON, "metadataJSON")
        var result = hc_proof_result()
        try check(hc_proof_result_init(&result, UInt32(MemoryLayout<hc_proof_result>.size)))
        try withExtendedLifetime(strings) { () throws(HabitError) in
            try input.bytes.withUnsafeBufferPointer { bytes throws(HabitError) in
                // A file, or the bytes: never both (the library reads bytes only without a path).
                if input.path == nil {
                    c.bytes = bytes.baseAddress
                    c.size = Int64(bytes.count)
                }
                try withHandle { store throws(HabitError) in try check(hc_proof_submit(&result, store, &c)) }
            }
        }
        return ProofResult(result)
    }

    /// Decides a proof that needs review by hand; approving appends the completion,
    /// whose id it gives (hc_proof_review). Throws .conflict when already decided.
    @discardableResult
    public func review(proofID: ProofID, approve: Bool, reviewer: String, reason: String) throws(HabitError) -> EntryID? {
        try withHandle { store throws(HabitError) in
            var entry: Int64 = 0
            try check(hc_proof_review(&entry, store, proofID.rawValue, approve ? HC_OUTCOME_APPROVED : HC_OUTCOME_REJECTED, reviewer, reason))
            return EntryID(nonZero: entry)
        }
    }

    /// The evidence bytes a proof keeps (submitted with keepCopy, or received by sync)
    /// (hc_proof_evidence). Throws .notFound (no such proof, or no evidence kept).
    public func evidence(proofID: ProofID) throws(HabitError) -> [UInt8] {
        try withHandle { store throws(HabitError) in
            try buffered(UInt8(0)) { hc_proof_evidence($0, $1, $2, store, proofID.rawValue) }
        }
    }

    /// Verdicts in append order: of one proof, of a habit's proofs, or all
    /// (hc_verdict_list_open).
    public func verdicts(habitID: HabitID? = nil, proofID: ProofID? = nil) throws(HabitError) -> [Verdict] {
        try withHandle { store throws(HabitError) in
            var list: OpaquePointer?
            try check(hc_verdict_list_open(&list, store, habitID.rawValueOrZero(), proofID.rawValueOrZero()))
            defer { hc_verdict_list_free(list) }
            return try elements(of: list, { hc_verdict_list_count($0, $1) }, { hc_verdict_list_get($0, $1, $2) }, Verdict.init)
        }
    }

    /// Registers judge as verifier id on this store, replacing one of the same id
    /// (hc_verifier_register_v2). The library holds the closure until it is replaced,
    /// removed or the store closes, then releases it once and never calls it again.
    /// It runs on the thread that submits, while this Store is held: a call on this
    /// Store from inside it throws .misuse. What it throws becomes an error verdict
    /// carrying its text.
    public func registerVerifier(
        id: String, version: String = "",
        _ judge: @escaping @Sendable (Evidence) throws -> VerifierVerdict
    ) throws(HabitError) {
        let box = Unmanaged.passRetained(VerifierBox(judge))
        do throws(HabitError) {
            try withHandle { store throws(HabitError) in
                try check(hc_verifier_register_v2(store, id, version, callVerifier, box.toOpaque(), releaseVerifier))
            }
        } catch {
            box.release()  // a failed registration leaves user_data ours
            throw error
        }
    }

    /// Removes verifier id from this store; its closure is released
    /// (hc_verifier_register_v2 with no callback). Removing none is not an error.
    public func removeVerifier(id: String) throws(HabitError) {
        try withHandle { store throws(HabitError) in
            try check(hc_verifier_register_v2(store, id, nil, nil, nil, nil))
        }
    }
}
