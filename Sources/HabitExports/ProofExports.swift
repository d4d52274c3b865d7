import CHabitCore
import HabitCore
import HabitEngine
import HabitPlatform
import HabitPlugins

// Proofs: submission, review, verdict history, policy, verifiers and plugins.

enum CProof {
    static func outcome(
        _ result: UnsafeMutablePointer<hc_proof_result>, outcome: Outcome, proofId: Int64, day: Int32, confidence: Double,
        reason: String, message: String, entryId: Int64?
    ) {
        var value = hc_proof_result()
        value.struct_size = UInt32(MemoryLayout<hc_proof_result>.size)
        value.outcome = outcome.rawValue
        value.proof_id = proofId
        value.entry_id = entryId ?? 0
        value.confidence = confidence
        value.day = day
        copy(reason, into: &value.reason_code)
        copy(message, into: &value.message)
        result.pointee = value
    }

    /// Text into a fixed C buffer, cut at a character boundary, always NUL-terminated.
    static func copy<Buffer>(_ text: String, into buffer: inout Buffer) {
        withUnsafeMutableBytes(of: &buffer) { raw in
            guard raw.count > 0 else { return }
            raw.copyBytes(from: TextRules.utf8Prefix(text, maxBytes: raw.count - 1) + [0])
        }
    }

    static func fill(_ target: UnsafeMutablePointer<hc_verdict>, _ item: (verdict: Verdict, proof: ProofRecord)) throws(HabitError) {
        let v = item.verdict
        var value = hc_verdict()
        value.struct_size = UInt32(MemoryLayout<hc_verdict>.size)
        value.outcome = v.outcome.rawValue
        value.id = v.id
        value.proof_id = v.proofId
        value.habit_id = item.proof.habitId
        value.stage = v.stage.rawValue
        value.day = item.proof.day
        value.confidence = v.confidence
        value.duration_us = v.durationUs
        value.at_ms = v.atMs
        value.entry_id = v.entryId ?? 0
        target.initialize(to: value)
        do throws(HabitError) {
            target.pointee.verifier_id = try Convert.fieldString(v.verifierId)
            target.pointee.verifier_version = try Convert.fieldString(v.verifierVersion)
            target.pointee.reason_code = try Convert.fieldString(v.reasonCode)
            target.pointee.message = try Convert.fieldString(v.message)
            target.pointee.signals = try Convert.fieldString(v.signals.joined(separator: ","))
            target.pointee.reviewer = try Convert.fieldString(v.reviewer)
            target.pointee.sha256 = try Convert.fieldString(item.proof.sha256)
        } catch {
            clear(target)  // the list frees only whole elements
            throw error
        }
    }

    static func clear(_ v: UnsafeMutablePointer<hc_verdict>) {
        for field in [
            v.pointee.verifier_id, v.pointee.verifier_version, v.pointee.reason_code, v.pointee.message, v.pointee.signals,
            v.pointee.reviewer, v.pointee.sha256,
        ] { Convert.freeField(field) }
    }
}

typealias VerdictListBox = OwnedArray<hc_verdict>

@c @implementation
public func hc_proof_submit(_ out: UnsafeMutablePointer<hc_proof_result>?, _ store: OpaquePointer?, _ input: UnsafePointer<hc_proof_input>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        let input = try Convert.options(input, "input")
        try Convert.flags(input.flags, known: HC_PROOF_KEEP_COPY)
        var bytes: [UInt8]?
        if let pointer = input.bytes {
            guard input.size > 0, input.size <= Int64(Engine.maxEvidenceBytes) else { throw .invalid("size \(input.size) is outside 1...64 MiB") }
            bytes = Array(UnsafeBufferPointer(start: pointer, count: Int(input.size)))
        } else if input.size != 0 {
            throw .invalid("size is \(input.size) but bytes is NULL")
        }
        var submission = Engine.ProofSubmission(habitId: input.habit_id, path: try Convert.optionalString(input.path, "path"), bytes: bytes)
        submission.mediaType = try Convert.optionalString(input.media_type, "media_type")
        submission.takenAtMs = input.taken_at_ms == 0 ? nil : input.taken_at_ms
        submission.metadataJSON = try Convert.optionalString(input.metadata_json, "metadata_json")
        submission.keepCopy = input.flags & HC_PROOF_KEEP_COPY != 0
        let outcome = try engine.submitProof(submission)
        CProof.outcome(
            result, outcome: outcome.outcome, proofId: outcome.proofId, day: outcome.day, confidence: outcome.confidence,
            reason: outcome.reason, message: outcome.message, entryId: outcome.entryId)
    }
}

@c @implementation
public func hc_proof_review(
    _ out_entry_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ proof_id: Int64, _ outcome: Int32,
    _ reviewer: UnsafePointer<CChar>?, _ reason: UnsafePointer<CChar>?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        guard outcome == HC_OUTCOME_APPROVED || outcome == HC_OUTCOME_REJECTED else {
            throw .invalid("outcome \(outcome) must be HC_OUTCOME_APPROVED or HC_OUTCOME_REJECTED")
        }
        let entry = try engine.reviewProof(
            id: proof_id, approve: outcome == HC_OUTCOME_APPROVED,
            reviewer: try Convert.string(reviewer, "reviewer"), reason: try Convert.string(reason, "reason"))
        out_entry_id?.pointee = entry ?? 0
    }
}

@c @implementation
public func hc_proof_evidence(
    _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?, _ proof_id: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let count = try Convert.out(out_count, "out_count")
        let buffer = try Convert.array(out, capacity, "out")
        Convert.copy(try engine.proofEvidence(proofId: proof_id), into: buffer, count: count) { $0 }
    }
}

@c @implementation
public func hc_verdict_list_open(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ habit_id: Int64,
    _ proof_id: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        guard habit_id >= 0, proof_id >= 0 else { throw .invalid("ids must not be negative") }
        let verdicts = try engine.verdicts(habitId: habit_id == 0 ? nil : habit_id, proofId: proof_id == 0 ? nil : proof_id)
        let box = try VerdictListBox(verdicts, fill: { (target, item) throws(HabitError) in try CProof.fill(target, item) }, clear: CProof.clear)
        out.pointee = Registry.retain(box, .verdictList)
    }
}

@c @implementation
public func hc_verdict_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .verdictList, "verdict list: NULL, freed, or not from hc_verdict_list_open", as: hc_verdict.self)
}

@c @implementation
public func hc_verdict_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_verdict>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .verdictList, "verdict list: NULL, freed, or not from hc_verdict_list_open")
}

@c @implementation
public func hc_verdict_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .verdictList, as: hc_verdict.self)
}

@c @implementation
public func hc_proof_policy_set(_ store: OpaquePointer?, _ habit_id: Int64, _ policy: UnsafePointer<hc_proof_policy>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let options = try Convert.options(policy, "policy")
        guard habit_id >= 0 else { throw .invalid("habit_id \(habit_id) is negative") }
        var value = ProofPolicy()
        guard let mode = ProofPolicy.Mode(rawValue: options.mode) else { throw .invalid("mode \(options.mode) is not an HC_POLICY_* value") }
        value.mode = mode
        value.approveThreshold = options.approve_threshold
        value.reviewThreshold = options.review_threshold
        switch (options.window_start, options.window_end) {
        case (-1, -1): value.window = nil
        case (let start, let end): value.window = (start, end)
        }
        guard options.one_per_day == 0 || options.one_per_day == 1 else { throw .invalid("one_per_day must be 0 or 1") }
        value.onePerDay = options.one_per_day == 1
        let ids = try Convert.optionalString(options.verifiers, "verifiers") ?? ""
        // "a, b" names a and b; an empty name between commas is refused by the policy's check.
        value.verifiers =
            ids.isEmpty
            ? []
            : ids.split(separator: ",", omittingEmptySubsequences: false).map {
                TextRules.trimmingSpaces($0)
            }
        try engine.setProofPolicy(habitId: habit_id, value)
    }
}

@c @implementation
public func hc_verifier_register(
    _ store: OpaquePointer?, _ id: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?,
    _ callback: hc_verify_callback?, _ user_data: UnsafeMutableRawPointer?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let id = try Convert.string(id, "id")
        let version = try Convert.optionalString(version, "version") ?? ""
        try engine.registerVerifier(callback.map { CallbackVerifier(id: id, version: version, callback: $0, userData: user_data) }, id: id)
    }
}

@c @implementation
public func hc_verifier_register_v2(
    _ store: OpaquePointer?, _ id: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?,
    _ callback: hc_verify_callback?, _ user_data: UnsafeMutableRawPointer?,
    _ release: hc_release_callback?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let id = try Convert.string(id, "id")
        let version = try Convert.optionalString(version, "version") ?? ""
        let verifier = callback.map { CallbackVerifier(id: id, version: version, callback: $0, userData: user_data, release: release) }
        do throws(HabitError) {
            try engine.registerVerifier(verifier, id: id)
        } catch {
            verifier?.disarm()
            throw error
        }
    }
}

@c @implementation
public func hc_plugin_add(
    _ out_id: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ store: OpaquePointer?, _ kind: Int32,
    _ path: UnsafePointer<CChar>?, _ id: UnsafePointer<CChar>?, _ timeout_ms: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        guard let kind = PluginRegistration.Kind(rawValue: kind) else { throw .invalid("kind \(kind) is not an HC_PLUGIN_* value") }
        guard timeout_ms >= 0 else { throw .invalid("timeout_ms \(timeout_ms) is negative") }
        let added = try engine.addPlugin(
            kind: kind, path: try Convert.string(path, "path"), id: try Convert.optionalString(id, "id"),
            timeoutMs: timeout_ms)
        if let out_id { out_id.pointee = try Convert.ownedString(added) }
    }
}

@c @implementation
public func hc_plugin_remove(_ store: OpaquePointer?, _ id: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.removePlugin(id: try Convert.string(id, "id")) }
}

@c @implementation
public func hc_plugin_configure(_ store: OpaquePointer?, _ id: UnsafePointer<CChar>?, _ config_json: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.configurePlugin(id: try Convert.string(id, "id"), config: try Convert.optionalString(config_json, "config_json"))
    }
}

@c @implementation
public func hc_plugin_list_json(_ out_json: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_json, "out_json")
        out.pointee = try Convert.ownedString(PluginRegistration.listJSON(try engine.plugins()))
    }
}

@c @implementation
public func hc_plugin_test(
    _ out: UnsafeMutablePointer<hc_proof_result>?, _ store: OpaquePointer?, _ id: UnsafePointer<CChar>?,
    _ path: UnsafePointer<CChar>?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        let verdict = try engine.testVerifier(id: try Convert.string(id, "id"), path: try Convert.string(path, "path"))
        CProof.outcome(
            result, outcome: verdict.outcome, proofId: 0, day: 0, confidence: verdict.confidence, reason: verdict.reasonCode,
            message: verdict.message, entryId: nil)
    }
}
