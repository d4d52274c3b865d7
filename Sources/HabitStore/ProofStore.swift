import HabitCore

/// Proofs, their verdicts, policies and registered plugins. Proofs and verdicts
/// are append-only (triggers refuse the rest); policies and plugins are settings.
extension Store {
    // MARK: Proofs

    package func insertProof(
        habitId: Int64, day: Int32, sha256: String, size: Int64, mediaType: String, takenAtMs: Int64?,
        receivedAtMs: Int64, metadata: String?, copy: [UInt8]?
    ) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeProof(
                habitId: habitId, day: day, sha256: sha256, size: size, mediaType: mediaType, takenAtMs: takenAtMs,
                receivedAtMs: receivedAtMs, metadata: metadata, copy: copy)
            try logLocal(
                .proof(
                    habit: try requireGlobalId(.habit, habitId), day: day, sha256: sha256, size: size, mediaType: mediaType,
                    takenAtMs: takenAtMs, receivedAtMs: receivedAtMs, metadata: metadata), creates: .proof, localId: id)
            return id
        }
    }

    func writeProof(
        habitId: Int64, day: Int32, sha256: String, size: Int64, mediaType: String, takenAtMs: Int64?,
        receivedAtMs: Int64, metadata: String?, copy: [UInt8]?
    ) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO proofs(habit_id, day, sha256, size, media_type, taken_at_ms, received_at_ms, metadata, copy)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(day))
        statement.bind(3, sha256)
        statement.bind(4, size)
        statement.bind(5, mediaType)
        statement.bind(6, takenAtMs)
        statement.bind(7, receivedAtMs)
        statement.bind(8, metadata)
        statement.bind(9, blob: copy)
        try statement.run()
        return db.lastInsertRowId
    }

    /// The evidence bytes kept for a proof: its own copy, or one received by sync.
    package func proofCopy(id: Int64) throws(HabitError) -> [UInt8]? {
        let statement = try db.statement(
            """
            SELECT coalesce(p.copy, c.bytes) FROM proofs p LEFT JOIN proof_copies c ON c.proof_id = p.id WHERE p.id = ?1
            """)
        statement.bind(1, id)
        return try statement.one { $0.isNull(0) ? nil : $0.blob(0) } ?? nil
    }

    /// Keeps evidence received by sync for a proof that has none.
    package func insertProofCopy(id: Int64, bytes: [UInt8]) throws(HabitError) {
        let statement = try db.statement("INSERT OR IGNORE INTO proof_copies(proof_id, bytes) VALUES(?1, ?2)")
        statement.bind(1, id)
        statement.bind(2, blob: bytes)
        try statement.run()
    }

    package func proof(id: Int64) throws(HabitError) -> ProofRecord? {
        let statement = try db.statement(
            """
            SELECT id, habit_id, day, sha256, size, media_type, taken_at_ms, received_at_ms FROM proofs WHERE id = ?1
            """)
        statement.bind(1, id)
        return try statement.one { (s) throws(HabitError) -> ProofRecord in
            guard let day = Int32(exactly: s.int(2)), let sha = s.text(3), let media = s.text(5) else { throw .corrupt("proof \(s.int(0)) is damaged") }
            return ProofRecord(
                id: s.int(0), habitId: s.int(1), day: day, sha256: sha, size: s.int(4), mediaType: media,
                takenAtMs: s.optionalInt(6), receivedAtMs: s.int(7))
        }
    }

    /// The first proof before `beforeId` with the same evidence bytes.
    package func earlierProof(sha256: String, before beforeId: Int64) throws(HabitError) -> Int64? {
        let statement = try db.statement("SELECT min(id) FROM proofs WHERE sha256 = ?1 AND id < ?2")
        statement.bind(1, sha256)
        statement.bind(2, beforeId)
        return try statement.one { $0.optionalInt(0) } ?? nil
    }

    /// Whether a habit day has a proof whose latest decision or review approved it.
    package func hasApprovedProof(habitId: Int64, day: Int32) throws(HabitError) -> Bool {
        let statement = try db.statement(
            """
            SELECT 1 FROM proofs p WHERE p.habit_id = ?1 AND p.day = ?2 AND
              (SELECT v.outcome FROM proof_verdicts v WHERE v.proof_id = p.id AND v.stage IN (2, 3) ORDER BY v.id DESC LIMIT 1) = 1
            LIMIT 1
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(day))
        return try statement.one { _ in true } ?? false
    }

    // MARK: Verifications under way

    /// Notes that this process runs the verifiers of a proof.
    package func beginProofRun(proofId: Int64, pid: Int64, atMs: Int64) throws(HabitError) {
        let statement = try db.statement("INSERT INTO proof_runs(proof_id, pid, started_at_ms) VALUES(?1, ?2, ?3)")
        statement.bind(1, proofId)
        statement.bind(2, pid)
        statement.bind(3, atMs)
        try statement.run()
    }

    package func endProofRun(proofId: Int64) throws(HabitError) {
        let statement = try db.statement("DELETE FROM proof_runs WHERE proof_id = ?1")
        statement.bind(1, proofId)
        try statement.run()
    }

    /// Every verification under way (or left behind), oldest first.
    package func proofRuns() throws(HabitError) -> [(proofId: Int64, pid: Int64, startedAtMs: Int64)] {
        try db.statement("SELECT proof_id, pid, started_at_ms FROM proof_runs ORDER BY proof_id").all {
            (s) throws(HabitError) -> (proofId: Int64, pid: Int64, startedAtMs: Int64) in (s.int(0), s.int(1), s.int(2))
        }
    }

    // MARK: Verdicts

    package func insertVerdict(_ verdict: Verdict) throws(HabitError) -> Int64 {
        try atomically { () throws(HabitError) -> Int64 in
            let id = try writeVerdict(verdict)
            try logVerdict(verdict, id: id)
            return id
        }
    }

    func writeVerdict(_ verdict: Verdict) throws(HabitError) -> Int64 {
        let statement = try db.statement(
            """
            INSERT INTO proof_verdicts(proof_id, stage, verifier_id, verifier_version, outcome, confidence, reason_code, message,
                                       signals, duration_us, at_ms, reviewer, entry_id)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
            """)
        statement.bind(1, verdict.proofId)
        statement.bind(2, Int64(verdict.stage.rawValue))
        statement.bind(3, verdict.verifierId)
        statement.bind(4, verdict.verifierVersion)
        statement.bind(5, Int64(verdict.outcome.rawValue))
        statement.bind(6, verdict.confidence)
        statement.bind(7, verdict.reasonCode)
        statement.bind(8, verdict.message)
        statement.bind(9, verdict.signals.joined(separator: ","))
        statement.bind(10, verdict.durationUs)
        statement.bind(11, verdict.atMs)
        statement.bind(12, verdict.reviewer)
        statement.bind(13, verdict.entryId)
        try statement.run()
        return db.lastInsertRowId
    }

    /// Verdicts in append order, each with its proof, filtered by habit and/or proof.
    package func verdicts(habitId: Int64?, proofId: Int64?) throws(HabitError) -> [(verdict: Verdict, proof: ProofRecord)] {
        let statement = try db.statement(
            """
            SELECT v.id, v.proof_id, v.stage, v.verifier_id, v.verifier_version, v.outcome, v.confidence, v.reason_code, v.message,
                   v.signals, v.duration_us, v.at_ms, v.reviewer, v.entry_id,
                   p.habit_id, p.day, p.sha256, p.size, p.media_type, p.taken_at_ms, p.received_at_ms
            FROM proof_verdicts v JOIN proofs p ON p.id = v.proof_id
            WHERE (?1 IS NULL OR p.habit_id = ?1) AND (?2 IS NULL OR v.proof_id = ?2) ORDER BY v.id
            """)
        statement.bind(1, habitId)
        statement.bind(2, proofId)
        return try statement.all { (s) throws(HabitError) -> (verdict: Verdict, proof: ProofRecord) in
            guard let stage = Verdict.Stage(rawValue: Int32(clamping: s.int(2))), let outcome = Outcome(rawValue: Int32(clamping: s.int(5))),
                let day = Int32(exactly: s.int(15))
            else { throw .corrupt("verdict \(s.int(0)) is damaged") }
            var verdict = Verdict(
                stage: stage, verifierId: s.text(3) ?? "", verifierVersion: s.text(4) ?? "", outcome: outcome,
                confidence: s.double(6), reasonCode: s.text(7) ?? "", message: s.text(8) ?? "",
                signals: (s.text(9) ?? "").split(separator: ",").map(String.init), durationUs: s.int(10))
            verdict.id = s.int(0)
            verdict.proofId = s.int(1)
            verdict.atMs = s.int(11)
            verdict.reviewer = s.text(12)
            verdict.entryId = s.optionalInt(13)
            let proof = ProofRecord(
                id: s.int(1), habitId: s.int(14), day: day, sha256: s.text(16) ?? "", size: s.int(17),
                mediaType: s.text(18) ?? "", takenAtMs: s.optionalInt(19), receivedAtMs: s.int(20))
            return (verdict, proof)
        }
    }

    // MARK: Policies

    package func setProofPolicy(habitId: Int64, _ policy: ProofPolicy) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT OR REPLACE INTO proof_policies(habit_id, mode, approve_threshold, review_threshold, window_start, window_end,
                                                  one_per_day, verifiers) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        statement.bind(1, habitId)
        statement.bind(2, Int64(policy.mode.rawValue))
        statement.bind(3, policy.approveThreshold)
        statement.bind(4, policy.reviewThreshold)
        statement.bind(5, policy.window.map { Int64($0.start) })
        statement.bind(6, policy.window.map { Int64($0.end) })
        statement.bind(7, policy.onePerDay ? 1 : 0)
        statement.bind(8, policy.verifiers.joined(separator: ","))
        try statement.run()
    }

    /// A habit's own policy (habitId 0: the store's), if set.
    package func proofPolicy(habitId: Int64) throws(HabitError) -> ProofPolicy? {
        let statement = try db.statement(
            """
            SELECT mode, approve_threshold, review_threshold, window_start, window_end, one_per_day, verifiers
            FROM proof_policies WHERE habit_id = ?1
            """)
        statement.bind(1, habitId)
        return try statement.one { (s) throws(HabitError) -> ProofPolicy in
            var policy = ProofPolicy()
            guard let mode = ProofPolicy.Mode(rawValue: Int32(clamping: s.int(0))) else { throw .corrupt("a proof policy's mode is invalid") }
            policy.mode = mode
            policy.approveThreshold = s.double(1)
            policy.reviewThreshold = s.double(2)
            if let start = s.optionalInt(3), let end = s.optionalInt(4) { policy.window = (Int32(clamping: start), Int32(clamping: end)) }
            policy.onePerDay = s.int(5) != 0
            policy.verifiers = (s.text(6) ?? "").split(separator: ",").map(String.init)
            return policy
        }
    }

    // MARK: Plugins

    package func insertPlugin(_ plugin: PluginRegistration, addedAtMs: Int64) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT INTO plugins(id, kind, path, version, timeout_ms, added_at_ms, config) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        statement.bind(1, plugin.id)
        statement.bind(2, Int64(plugin.kind.rawValue))
        statement.bind(3, plugin.path)
        statement.bind(4, plugin.version)
        statement.bind(5, plugin.timeoutMs)
        statement.bind(6, addedAtMs)
        statement.bind(7, plugin.config)
        do throws(HabitError) { try statement.run() } catch  where error.code == .conflict {
            throw .conflict("a plugin with id '\(plugin.id)' is already registered")
        }
    }

    package func deletePlugin(id: String) throws(HabitError) -> Bool {
        let statement = try db.statement("DELETE FROM plugins WHERE id = ?1")
        statement.bind(1, id)
        try statement.run()
        return db.changes > 0
    }

    package func plugins() throws(HabitError) -> [PluginRegistration] {
        try db.statement("SELECT id, kind, path, version, timeout_ms, config FROM plugins ORDER BY id").all { (s) throws(HabitError) -> PluginRegistration in
            guard let id = s.text(0), let kind = PluginRegistration.Kind(rawValue: Int32(clamping: s.int(1))), let path = s.text(2) else {
                throw .corrupt("a registered plugin is damaged")
            }
            return PluginRegistration(id: id, kind: kind, path: path, version: s.text(3) ?? "", timeoutMs: s.int(4), config: s.text(5))
        }
    }

    /// Sets a plugin's settings; false when no such plugin is registered.
    package func setPluginConfig(id: String, config: String?) throws(HabitError) -> Bool {
        let statement = try db.statement("UPDATE plugins SET config = ?2 WHERE id = ?1")
        statement.bind(1, id)
        statement.bind(2, config)
        try statement.run()
        return db.changes > 0
    }

    // MARK: Fingerprints

    package func insertFingerprint(proofId: Int64, verifierId: String, kind: String, value: [UInt8]) throws(HabitError) {
        let statement = try db.statement("INSERT INTO proof_fingerprints(proof_id, verifier_id, kind, value) VALUES(?1, ?2, ?3, ?4)")
        statement.bind(1, proofId)
        statement.bind(2, verifierId)
        statement.bind(3, kind)
        statement.bind(4, blob: value)
        try statement.run()
    }

    /// What one verifier kept under one kind, oldest proof first, leaving out one proof.
    package func fingerprints(verifierId: String, kind: String, excludingProof: Int64) throws(HabitError) -> [(proofId: Int64, bytes: [UInt8])] {
        let statement = try db.statement(
            """
            SELECT proof_id, value FROM proof_fingerprints WHERE verifier_id = ?1 AND kind = ?2 AND proof_id != ?3 ORDER BY proof_id, id
            """)
        statement.bind(1, verifierId)
        statement.bind(2, kind)
        statement.bind(3, excludingProof)
        return try statement.all { (s) throws(HabitError) -> (proofId: Int64, bytes: [UInt8]) in (s.int(0), s.blob(1)) }
    }

    /// Every kind one verifier kept, oldest proof first, leaving out one proof.
    package func fingerprints(verifierId: String, excludingProof: Int64) throws(HabitError) -> [(kind: String, proofId: Int64, bytes: [UInt8])] {
        let statement = try db.statement(
            """
            SELECT kind, proof_id, value FROM proof_fingerprints WHERE verifier_id = ?1 AND proof_id != ?2 ORDER BY proof_id, id
            """)
        statement.bind(1, verifierId)
        statement.bind(2, excludingProof)
        return try statement.all { (s) throws(HabitError) -> (kind: String, proofId: Int64, bytes: [UInt8]) in (s.text(0) ?? "", s.int(1), s.blob(2)) }
    }
}
