import HabitCore

/// The store's half of sync: the replica id and clock, the op log written in the same
/// transaction as every syncable local write, global ids beside local ids, and the
/// materialisation of received ops into the ordinary tables. The merge rules
/// themselves are HabitCore's SyncMerge; this only reads and writes rows.
extension Store {
    /// The records ops make, by the kind of op that makes them (sync_ops.local_id).
    package enum SyncKind: Int64 {
        case habit = 1, entry = 4, vacation = 5, proof = 8, verdict = 9
        case creditAccount = 10, credit = 11, steps = 12, awardUnlock = 13, creditRule = 14, zoneChange = 15
        case shieldRule = 16, emergency = 18, timer = 23
    }

    /// The small number this store knows a replica by, made on first sight.
    private func replicaNumber(_ replica: [UInt8], create: Bool) throws(HabitError) -> Int64? {
        if let known = syncCache.numbers[replica] { return known }
        if create { try db.statement("INSERT OR IGNORE INTO sync_replicas(replica) VALUES(?1)").binding(blob: replica).run() }
        let num = try db.statement("SELECT num FROM sync_replicas WHERE replica = ?1").binding(blob: replica).one { $0.int(0) }
        if syncCache.active, let num { syncCache.numbers[replica] = num }
        return num
    }

    /// Starts and ends the caches of one sync apply (valid inside its transaction only).
    package func beginSyncApply() {
        syncCache = SyncCache(active: true)
        writeTail = WriteTail()
    }

    /// An apply receives and moves ops of this replica and renumbers it: the write
    /// tail starts again after it.
    package func endSyncApply() {
        syncCache = SyncCache()
        writeTail = WriteTail()
    }

    package func replicaId() throws(HabitError) -> [UInt8] {
        if let cachedReplica { return cachedReplica }
        guard let replica = try db.statement("SELECT replica FROM sync_replica WHERE id = 1").one({ $0.blob(0) }),
            replica.count == GlobalId.replicaBytes
        else { throw .corrupt("the store has no replica id") }
        cachedReplica = replica
        return replica
    }

    /// Reads the replica id again at its next use (another connection may have changed it).
    package func forgetReplicaId() { cachedReplica = nil }

    private func clockState() throws(HabitError) -> Int64 {
        if let unsavedClock, inTransaction { return unsavedClock }
        return try db.statement("SELECT hlc FROM sync_replica WHERE id = 1").one { $0.int(0) } ?? 0
    }

    /// Every move of the clock goes through here. Inside a transaction whose commit
    /// saves it (Store.commitSavesClock) the row is written once, by saveClock just
    /// before the commit (an UPDATE an op was a tenth of a batched append); elsewhere,
    /// at once.
    private func setClock(_ hlc: Int64) throws(HabitError) {
        if commitSavesClock {
            unsavedClock = hlc
            return
        }
        try writeClock(hlc)
    }

    /// Writes the clock the open transaction moved: every commit of a write
    /// transaction calls it first (Store.commit, atomically), so the row the commit
    /// lands holds the last stamp the transaction gave.
    func saveClock() throws(HabitError) {
        guard let unsavedClock else { return }
        try writeClock(unsavedClock)
        self.unsavedClock = nil
    }

    private func writeClock(_ hlc: Int64) throws(HabitError) {
        let statement = try db.statement("UPDATE sync_replica SET hlc = ?1 WHERE id = 1")
        statement.bind(1, hlc)
        try statement.run()
    }

    /// Moves this replica's clock past a received stamp.
    package func receiveClock(_ remote: Int64) throws(HabitError) {
        try setClock(HybridClock.receive(last: try clockState(), remote: remote, nowMs: syncNow()))
    }

    /// Gives a copy of a store (a backup) a replica id of its own, keeping the ops it
    /// holds under the original's id: two files writing under one id would give two
    /// different ops one global id. This replica is number 1 in sync_replicas.
    static let renewReplicaSQL = """
        BEGIN;
        UPDATE sync_replicas SET num = (SELECT max(num) + 1 FROM sync_replicas) WHERE num = 1;
        UPDATE sync_ops SET rep = (SELECT num FROM sync_replicas WHERE replica = (SELECT replica FROM sync_replica)) WHERE rep = 1;
        UPDATE sync_removed SET rep = (SELECT num FROM sync_replicas WHERE replica = (SELECT replica FROM sync_replica)) WHERE rep = 1;
        UPDATE change_log SET rep = (SELECT num FROM sync_replicas WHERE replica = (SELECT replica FROM sync_replica)) WHERE rep = 1;
        INSERT INTO sync_replicas(num, replica) VALUES(1, randomblob(16));
        UPDATE sync_replica SET replica = (SELECT replica FROM sync_replicas WHERE num = 1);
        COMMIT;
        """

    // MARK: Writing local ops

    /// Logs a local write: the next sequence number and clock stamp of this replica.
    /// Called inside the write's own transaction. Returns the op's global id.
    @discardableResult
    func logLocal(_ op: SyncOp, creates kind: SyncKind? = nil, localId: Int64 = 0) throws(HabitError) -> (id: GlobalId, hlc: Int64) {
        let replica = try replicaId()
        let keepsTail = keepsWriteTail
        let last =
            if keepsTail, let seq = writeTail.lastSeq { seq } else {
                try db.statement("SELECT max(seq) FROM sync_ops WHERE rep = 1").one { $0.int(0) } ?? 0
            }
        let (seq, overflow) = last.addingReportingOverflow(1)
        guard !overflow else { throw .corrupt("the op log's sequence is exhausted") }
        let hlc = HybridClock.tick(last: try clockState(), nowMs: syncNow())
        try setClock(hlc)
        let id = GlobalId(replica: replica, seq: seq, stamp: hlc)
        // This replica is number 1 in its own sync_replicas (migration 13). Its prefix
        // digest is summed when sync needs it (settleDigests), not on every write.
        let statement = try db.statement("INSERT INTO sync_ops(rep, seq, hlc, kind, payload, pending, local_id) VALUES(1, ?1, ?2, ?3, ?4, 0, ?5)")
        statement.bind(1, seq)
        statement.bind(2, hlc)
        statement.bind(3, Int64(op.kind.rawValue))
        statement.bind(4, blob: op.encodePayload())
        statement.bind(5, kind == nil ? nil : localId)
        try statement.run()
        try logChange(rep: 1, seq: seq)
        writeTail.lastSeq = keepsTail ? seq : nil
        return (id, hlc)
    }

    package func globalId(_ kind: SyncKind, _ localId: Int64) throws(HabitError) -> GlobalId? {
        let statement = try db.statement(
            """
            SELECT r.replica, o.seq, o.hlc FROM sync_ops o JOIN sync_replicas r ON r.num = o.rep WHERE o.kind = ?1 AND o.local_id = ?2
            """)
        statement.bind(1, kind.rawValue)
        statement.bind(2, localId)
        return try statement.one { GlobalId(replica: $0.blob(0), seq: $0.int(1), stamp: $0.int(2)) }
    }

    /// The global id of a local record, which every syncable record has once backfilled.
    func requireGlobalId(_ kind: SyncKind, _ localId: Int64) throws(HabitError) -> GlobalId {
        guard let id = try globalId(kind, localId) else { throw .corrupt("\(kind) \(localId) has no global id") }
        return id
    }

    /// Whether this replica's sequence number and habits' global ids may be kept in the
    /// write tail: inside a transaction, but not during a sync apply (this replica's
    /// ops move and arrive there: read afresh).
    private var keepsWriteTail: Bool { inTransaction && !syncCache.active }

    /// A habit's global id, kept in the write tail for the rest of the transaction
    /// (each append names its habit's; habits are never deleted, and only a sync
    /// apply, which starts the tail again, moves the op that created one).
    func habitGlobalId(_ habitId: Int64) throws(HabitError) -> GlobalId {
        let keepsTail = keepsWriteTail
        if keepsTail, let id = writeTail.habitIds[habitId] { return id }
        let id = try requireGlobalId(.habit, habitId)
        if keepsTail { writeTail.habitIds[habitId] = id }
        return id
    }

    package func localId(_ id: GlobalId, _ kind: SyncKind) throws(HabitError) -> Int64? {
        if let known = syncCache.locals[id] { return known.kind == kind ? known.local : nil }
        guard let num = try replicaNumber(id.replica, create: false) else { return nil }
        let statement = try db.statement("SELECT local_id FROM sync_ops WHERE rep = ?1 AND seq = ?2 AND kind = ?3")
        statement.bind(1, num)
        statement.bind(2, id.seq)
        statement.bind(3, kind.rawValue)
        let local = try statement.one { $0.optionalInt(0) } ?? nil
        if syncCache.active, let local { syncCache.locals[id] = (kind, local) }
        return local
    }

    /// Records a register's new winner (a local write always wins: its stamp is the newest).
    func setRegister(_ target: String, hlc: Int64, replica: [UInt8]) throws(HabitError) {
        let statement = try db.statement(
            """
            INSERT INTO sync_lww(target, hlc, replica) VALUES(?1, ?2, ?3)
            ON CONFLICT(target) DO UPDATE SET hlc = excluded.hlc, replica = excluded.replica
            """)
        statement.bind(1, target)
        statement.bind(2, hlc)
        statement.bind(3, blob: replica)
        try statement.run()
    }

    func register(_ target: String) throws(HabitError) -> (hlc: Int64, replica: [UInt8])? {
        let statement = try db.statement("SELECT hlc, replica FROM sync_lww WHERE target = ?1")
        statement.bind(1, target)
        return try statement.one { ($0.int(0), $0.blob(1)) }
    }

    static func fieldTarget(_ habit: GlobalId, _ field: HabitField) -> String { "h:\(habit.text):\(field.rawValue)" }
    /// One register per habit and day for its settings version (older replicas' schedule ops share it).
    static func versionTarget(_ habit: GlobalId, _ day: Int32) -> String { "s:\(habit.text):\(day)" }
    static func settingTarget(_ key: String) -> String { "k:\(key)" }
    static func shieldVersionTarget(_ rule: GlobalId, _ day: Int32) -> String { "r:\(rule.text):\(day)" }

    /// Logs a local write of a last-writer-wins value and makes it the register's winner.
    /// Logs the display fields that changed from old to new (a habit's create logs
    /// them from none: habitCreate carries the rest of the spec).
    func logDisplay(of habit: GlobalId, from old: HabitDisplay, to new: HabitDisplay) throws(HabitError) {
        for (field, value) in HabitField.displayChanges(from: old, to: new) {
            try logRegister(.habitField(habit: habit, field: field, value: value), target: Self.fieldTarget(habit, field))
        }
    }

    func logRegister(_ op: SyncOp, target: String) throws(HabitError) {
        let (id, hlc) = try logLocal(op)
        try setRegister(target, hlc: hlc, replica: id.replica)
    }

    /// Ops for the rows an older store had before migration 13 (at its first writable
    /// open), and for rows a restore wrote back: every record without a global id gets
    /// one of this replica, in local id order.
    package func logUnsyncedRecords(force: Bool = false) throws(HabitError) {
        guard !readOnly else { return }
        let backfilled = try db.statement("SELECT backfilled FROM sync_replica WHERE id = 1").one({ $0.int(0) }) ?? 0
        guard force || backfilled == 0 else { return }
        try atomically { () throws(HabitError) in
            for habit in try habits(includeArchived: true) where try globalId(.habit, habit.id) == nil {
                var spec = habit.spec
                if let first = habit.versions.first { spec = spec.judged(by: first) }
                let (id, _) = try logLocal(.habitCreate(spec: spec, createdAtMs: habit.createdAtMs), creates: .habit, localId: habit.id)
                for version in habit.versions {
                    try logRegister(.settingsVersion(habit: id, version: version), target: Self.versionTarget(id, version.fromDay))
                }
                if let archived = habit.archivedDay {
                    try logRegister(.habitField(habit: id, field: .archivedDay, value: .int(Int64(archived))), target: Self.fieldTarget(id, .archivedDay))
                }
                try logDisplay(of: id, from: .none, to: habit.spec.display)
            }
            // Only the ids of those without one are held: after a restore, whose entries
            // were logged as written, none (all of them read made its peak grow with them).
            let unlogged = try db.statement(
                "SELECT id FROM entries e WHERE NOT EXISTS (SELECT 1 FROM sync_ops o WHERE o.kind = ?1 AND o.local_id = e.id) ORDER BY id")
            unlogged.bind(1, SyncKind.entry.rawValue)
            for id in try unlogged.all({ $0.int(0) }) {
                guard let entry = try entry(id: id) else { continue }
                try logEntry(entry)
            }
            for vacation in try vacations() where try globalId(.vacation, vacation.id) == nil {
                try logLocal(
                    .vacationAdd(
                        habit: try vacation.habitId.map { (h) throws(HabitError) in try requireGlobalId(.habit, h) },
                        first: vacation.first, last: vacation.last), creates: .vacation, localId: vacation.id)
            }
            for proof in try syncedProofs() where try globalId(.proof, proof.id) == nil {
                try logLocal(
                    .proof(
                        habit: try requireGlobalId(.habit, proof.habitId), day: proof.day, sha256: proof.sha256, size: proof.size,
                        mediaType: proof.mediaType, takenAtMs: proof.takenAtMs, receivedAtMs: proof.receivedAtMs, metadata: proof.metadata),
                    creates: .proof, localId: proof.id)
            }
            for (verdict, _) in try verdicts(habitId: nil, proofId: nil) where try globalId(.verdict, verdict.id) == nil {
                try logVerdict(verdict, id: verdict.id)
            }
            for (rule, createdAtMs) in try shieldRuleCreations() where try globalId(.shieldRule, rule) == nil {
                try logLocal(.shieldRule(createdAtMs: createdAtMs), creates: .shieldRule, localId: rule)
                for version in try shieldRules().first(where: { $0.id == rule })?.versions ?? [] {
                    try logShieldVersion(ruleId: rule, fromDay: version.fromDay, settings: version.settings)
                }
            }
            for (unlock, day) in try allEmergencyUnlocks() where try globalId(.emergency, unlock.id) == nil {
                try logLocal(
                    .emergencyUnlock(
                        rule: try requireGlobalId(.shieldRule, unlock.ruleId), atMs: unlock.atMs, day: day,
                        minutes: unlock.minutes, reason: unlock.reason), creates: .emergency, localId: unlock.id)
            }
            for event in try allTimerEventIds() where try globalId(.timer, event.id) == nil {
                try logTimerEvent(id: event.id)
            }
            // Credit accounts (but the default every store has), facts and step reports.
            for account in try creditAccounts() where account.id != 1 {
                guard try globalId(.creditAccount, account.id) == nil else { continue }
                try logLocal(.creditAccount(name: account.name, createdAtMs: 0), creates: .creditAccount, localId: account.id)
            }
            for account in try creditAccounts() {
                for entry in try creditEntries(accountId: account.id) where entry.isFact {
                    guard try globalId(.credit, entry.id) == nil else { continue }
                    try logLocal(
                        .credit(
                            account: account.name, kind: entry.kind, minutes: entry.minutes, day: entry.day, atMs: entry.atMs,
                            reason: entry.reason), creates: .credit, localId: entry.id)
                }
                for report in try stepReports(accountId: account.id) {
                    guard try globalId(.steps, report.id) == nil else { continue }
                    try logLocal(.steps(account: account.name, day: report.day, steps: report.steps, atMs: report.atMs), creates: .steps, localId: report.id)
                }
            }
            for account in try creditAccounts() {
                for (rule, recordedAtMs) in try creditRulesRecorded(accountId: account.id) where try globalId(.creditRule, rule.id) == nil {
                    try logCreditRule(rule, recordedAtMs: recordedAtMs)
                }
            }
            for (unlock, id) in try allAwardUnlocks() where id == nil { try logAwardUnlock(unlock, id: unlock.id) }
            for change in try zoneChangeRows() where try globalId(.zoneChange, change.id) == nil {
                try logLocal(.zoneChange(atMs: change.atMs, from: change.from, to: change.to), creates: .zoneChange, localId: change.id)
            }
            for key in SyncOp.syncedSettings.sorted() {
                if try register(Self.settingTarget(key)) == nil, let value = try setting(key) {
                    try logRegister(.setting(key: key, value: value), target: Self.settingTarget(key))
                }
            }
            for (habitId, policy) in try habitStreakPolicies().sorted(by: { $0.key < $1.key }) {
                let habit = try requireGlobalId(.habit, habitId)
                for (field, value) in HabitField.streakPolicyChanges(from: .none, to: policy) {
                    if try register(Self.fieldTarget(habit, field)) == nil {
                        try logRegister(.habitField(habit: habit, field: field, value: value), target: Self.fieldTarget(habit, field))
                    }
                }
            }
            try db.execute("UPDATE sync_replica SET backfilled = 1 WHERE id = 1")
        }
    }

    /// Logs a timer event written here before it logged one (a backfill).
    private func logTimerEvent(id: Int64) throws(HabitError) {
        guard let event = try timerEvent(id: id) else { return }
        if let timerId = event.timerId {
            try logLocal(
                .timerEvent(action: event.action, subject: try requireGlobalId(.timer, timerId), day: 0, autoComplete: false, atMs: event.atMs),
                creates: .timer, localId: id)
        } else if let timer = try timer(id: id) {
            try logLocal(
                .timerEvent(
                    action: .start, subject: try requireGlobalId(.habit, timer.start.habitId), day: timer.start.day,
                    autoComplete: timer.start.autoComplete, atMs: timer.start.atMs), creates: .timer, localId: id)
        }
    }

    func logVerdict(_ verdict: Verdict, id: Int64) throws(HabitError) {
        let entry = try verdict.entryId.map { (local) throws(HabitError) in try requireGlobalId(.entry, local) }
        try logLocal(.verdict(proof: try requireGlobalId(.proof, verdict.proofId), verdict: verdict, entry: entry), creates: .verdict, localId: id)
    }

    /// Logs a credit rule recorded here and makes it its register's winner.
    func logCreditRule(_ rule: CreditRule, recordedAtMs: Int64) throws(HabitError) {
        guard let account = try creditAccount(id: rule.accountId) else { throw .notFound("no credit account with id \(rule.accountId)") }
        let habit = try rule.habitId.map { (h) throws(HabitError) in try requireGlobalId(.habit, h) }
        let (id, hlc) = try logLocal(
            .creditRule(
                account: account.name, kind: rule.kind, habit: habit, value: rule.value, fromDay: rule.fromDay,
                recordedAtMs: recordedAtMs), creates: .creditRule, localId: rule.id)
        try setRegister(
            SyncMerge.creditRuleTarget(account: account.name, kind: rule.kind.rawValue, habit: habit, fromDay: rule.fromDay),
            hlc: hlc, replica: id.replica)
    }

    /// Logs an award unlocked here: the rule's habit and the cause by global id (a
    /// cause that does not travel, an earning or a referral, goes without its record).
    func logAwardUnlock(_ unlock: AwardUnlock, id local: Int64) throws(HabitError) {
        var rule = unlock.rule
        var scopeHabit: GlobalId?
        if case .habit(let habitId) = rule.scope {
            scopeHabit = try requireGlobalId(.habit, habitId)
            rule.scope = .habit(1)
        }
        var causeRecord: GlobalId?
        if let causeId = unlock.causeId {
            switch unlock.causeKind {
            case .habitEntry: causeRecord = try globalId(.entry, causeId)
            case .creditEntry: causeRecord = try globalId(.credit, causeId)
            case .habitCreated: causeRecord = try globalId(.habit, causeId)
            case .none, .referral: causeRecord = nil
            }
        }
        let causeHabit = try unlock.causeHabitId.flatMap { (h) throws(HabitError) in try globalId(.habit, h) }
        try logLocal(
            .awardUnlock(
                rule: rule, scopeHabit: scopeHabit, day: unlock.day, atMs: unlock.atMs, cause: unlock.causeKind,
                causeRecord: causeRecord, causeHabit: causeHabit), creates: .awardUnlock, localId: local)
    }

    /// Every proof's record with its metadata, in id order (what sync carries).
    package func syncedProofs() throws(HabitError) -> [(
        id: Int64, habitId: Int64, day: Int32, sha256: String, size: Int64, mediaType: String,
        takenAtMs: Int64?, receivedAtMs: Int64, metadata: String?
    )] {
        try db.statement(
            """
            SELECT id, habit_id, day, sha256, size, media_type, taken_at_ms, received_at_ms, metadata FROM proofs ORDER BY id
            """
        ).all { (s) throws(HabitError) in
            guard let day = Int32(exactly: s.int(2)), let sha = s.text(3), let media = s.text(5) else { throw .corrupt("proof \(s.int(0)) is damaged") }
            return (s.int(0), s.int(1), day, sha, s.int(4), media, s.optionalInt(6), s.int(7), s.text(8))
        }
    }

    func logEntry(_ entry: Entry) throws(HabitError) {
        let undoes = try entry.undoes.map { (target) throws(HabitError) in try requireGlobalId(.entry, target) }
        try logLocal(
            .entry(
                habit: try habitGlobalId(entry.habitId), day: entry.day, kind: entry.kind, value: entry.value,
                recordedAtMs: entry.recordedAtMs, source: entry.source, note: entry.note, undoes: undoes),
            creates: .entry, localId: entry.id)
    }

    // MARK: Reading the log

    /// Per replica: the count and highest sequence number held, and where they differ
    /// (a gap: ops received out of order) the contiguous prefix.
    package func versionVector() throws(HabitError) -> VersionVector {
        var vector = VersionVector()
        for (num, replica, seen) in try db.statement("SELECT num, replica, seen FROM sync_replicas").all({ ($0.int(0), $0.blob(1), $0.int(2)) }) {
            let prefix = try contiguous(num, from: seen)
            guard prefix > 0 else { continue }
            vector.seen[replica] = prefix
            let points = VersionVector.ladder(prefix)
            let held = try stamps(num: num, at: points)
            let ladder = points.compactMap { held[$0] }
            // Every number up to the prefix is held: a short ladder means a damaged log.
            guard ladder.count == points.count else { throw .corrupt("the op log lacks ops of replica \(SyncHex.encode(replica)) it counts") }
            vector.stamps[replica] = ladder
        }
        return vector
    }

    /// The stamps and prefix digests of the ops this store holds of a replica (by its
    /// number here) at some sequence numbers, for those with every op below them held.
    /// Digests not kept yet (this store's own ops since it last synced, on a read-only
    /// handle) are summed here from the last one kept, and not written.
    private func stamps(num: Int64, at seqs: [Int64]) throws(HabitError) -> [Int64: OpStamp] {
        var result: [Int64: OpStamp] = [:]
        let kept = try db.statement("SELECT hlc, digest FROM sync_ops WHERE rep = ?1 AND seq = ?2")
        var missing: [Int64] = []
        for seq in seqs {
            kept.reset()
            kept.bind(1, num)
            kept.bind(2, seq)
            switch try kept.one({ ($0.int(0), $0.optionalInt(1)) }) {
            case .some((let hlc, .some(let digest))): result[seq] = OpStamp(hlc: hlc, digest: UInt64(bitPattern: digest))
            case .some((_, .none)): missing.append(seq)
            case .none: continue
            }
        }
        guard let lowest = missing.min(), let highest = missing.max() else { return result }
        var (next, sum) = try lastDigest(num: num, below: lowest).map { ($0.seq + 1, UInt64(bitPattern: $0.digest)) } ?? (1, 0)
        let rows = try db.statement("SELECT seq, hlc, kind, payload FROM sync_ops WHERE rep = ?1 AND seq >= ?2 AND seq <= ?3 ORDER BY seq")
        rows.bind(1, num)
        rows.bind(2, next)
        rows.bind(3, highest)
        let wanted = Set(missing)
        try rows.each(while: { (row) throws(HabitError) -> Bool in
            guard row.int(0) == next else { return false }
            let op = RawOp(id: GlobalId(replica: [], seq: next), hlc: row.int(1), kind: UInt8(truncatingIfNeeded: row.int(2)), payload: row.blob(3))
            sum &+= SyncFork.prefixShare(op)
            if wanted.contains(next) { result[next] = OpStamp(hlc: op.hlc, digest: sum) }
            next += 1
            return true
        })
        return result
    }

    /// The highest op of a replica (by its number here) below a sequence number whose
    /// prefix digest is kept (those kept run from op 1 without a gap).
    private func lastDigest(num: Int64, below seq: Int64) throws(HabitError) -> (seq: Int64, digest: Int64)? {
        let statement = try db.statement("SELECT seq, digest FROM sync_ops WHERE rep = ?1 AND seq < ?2 AND digest IS NOT NULL ORDER BY seq DESC LIMIT 1")
        statement.bind(1, num)
        statement.bind(2, seq)
        return try statement.one { ($0.int(0), $0.int(1)) }
    }

    /// Keeps the prefix digests not kept yet (in a write transaction): this store's own
    /// ops logged since, and ops an apply logged above a number it had not held.
    package func settleDigests() throws(HabitError) {
        for num in syncCache.received.union([1]).sorted() {
            try Self.extendDigests(db, num: num, below: try lastDigest(num: num, below: Int64.max)?.seq ?? 0)
        }
    }

    /// Whether this store's own newest op has no prefix digest kept yet.
    package func ownDigestsPending() throws(HabitError) -> Bool {
        try db.statement("SELECT digest IS NULL FROM sync_ops WHERE rep = 1 ORDER BY seq DESC LIMIT 1").one { $0.int(0) != 0 } ?? false
    }

    /// The op this store holds of a replica (by its number here) at a sequence number.
    private func op(num: Int64, replica: [UInt8], seq: Int64) throws(HabitError) -> RawOp? {
        let statement = try db.statement("SELECT hlc, kind, payload FROM sync_ops WHERE rep = ?1 AND seq = ?2")
        statement.bind(1, num)
        statement.bind(2, seq)
        return try statement.one {
            RawOp(id: GlobalId(replica: replica, seq: seq), hlc: $0.int(0), kind: UInt8(truncatingIfNeeded: $0.int(1)), payload: $0.blob(2))
        }
    }

    /// This store's ops of a replica (by its number here) above a sequence number, in order.
    private func ops(num: Int64, replica: [UInt8], above seq: Int64) throws(HabitError) -> [RawOp] {
        let statement = try db.statement("SELECT seq, hlc, kind, payload FROM sync_ops WHERE rep = ?1 AND seq > ?2 ORDER BY seq")
        statement.bind(1, num)
        statement.bind(2, seq)
        return try statement.all {
            RawOp(id: GlobalId(replica: replica, seq: $0.int(0)), hlc: $0.int(1), kind: UInt8(truncatingIfNeeded: $0.int(2)), payload: $0.blob(3))
        }
    }

    /// Moves this store's ops of a forked replica from seq on (SyncFork): each becomes
    /// op 1 of the replica derived from it. Returns how many moved.
    package func moveBranch(of replica: [UInt8], from seq: Int64) throws(HabitError) -> Int {
        guard let num = try replicaNumber(replica, create: false) else { return 0 }
        let moving = try ops(num: num, replica: replica, above: seq - 1)
        for op in moving { try move(op) }
        return moving.count
    }

    /// Moves one held op to where SyncFork.moved puts it, when it is held and derives
    /// that move (a move a peer told of names its op by id: the op here may be another).
    /// Returns whether it moved.
    package func moveIfHeld(_ told: SyncFork.Move) throws(HabitError) -> Bool {
        guard let op = try heldOp(GlobalId(replica: told.replica, seq: told.from)), SyncFork.moved(op) == told else { return false }
        try move(op)
        return true
    }

    /// Moves one held op (SyncFork.moved): its row takes the new id, payload as it was;
    /// the tombstone, registers and displaced name that name it follow; its record
    /// keeps its local id. The store's own replica's op: the new replica becomes its own
    /// when it is the first of its ops to move (the rest of its branch follows).
    private func move(_ op: RawOp) throws(HabitError) {
        let move = SyncFork.moved(op)
        guard var source = try replicaNumber(op.id.replica, create: false) else { return }
        // An op already held under the moved id (a forged changeset can name it) would
        // give one id two ops: refused, nothing written.
        if try heldOp(GlobalId(replica: move.to, seq: 1)) != nil {
            throw .invalid("\(op.id.text) cannot move to \(SyncHex.encode(move.to))-1: this store already holds an op there")
        }
        // A foreign key names the replica numbers renumbered here: checked at commit.
        try db.execute("PRAGMA defer_foreign_keys = ON")
        let target: Int64
        if source == 1 {
            // This store's own replica: its earlier ops stay under its old id, as any
            // replica's; the moved op's replica becomes number 1, this store's own.
            guard let fresh = try db.statement("SELECT max(num) + 1 FROM sync_replicas").one({ $0.int(0) }) else { throw .corrupt("no replica numbers") }
            for sql in [
                "UPDATE sync_replicas SET num = ?1 WHERE num = 1", "UPDATE sync_ops SET rep = ?1 WHERE rep = 1",
                "UPDATE sync_removed SET rep = ?1 WHERE rep = 1", "UPDATE change_log SET rep = ?1 WHERE rep = 1",
            ] {
                try db.statement(text: sql).binding(fresh).run()
            }
            try db.statement("INSERT INTO sync_replicas(num, replica) VALUES(1, ?1)").binding(blob: move.to).run()
            try db.statement("UPDATE sync_replica SET replica = ?1 WHERE id = 1").binding(blob: move.to).run()
            cachedReplica = nil
            syncCache.numbers = [:]
            source = fresh
            target = 1
        } else {
            guard let number = try replicaNumber(move.to, create: true) else { throw .corrupt("a replica number was not recorded") }
            target = number
        }
        for sql in [
            "UPDATE sync_ops SET rep = ?1, seq = 1, digest = NULL WHERE rep = ?2 AND seq = ?3",
            "UPDATE sync_removed SET rep = ?1, seq = 1 WHERE rep = ?2 AND seq = ?3",
            "UPDATE change_log SET rep = ?1, seq = 1 WHERE rep = ?2 AND seq = ?3",
        ] {
            let statement = try db.statement(text: sql)
            statement.bind(1, target)
            statement.bind(2, source)
            statement.bind(3, op.id.seq)
            try statement.run()
        }
        // The digests above the number the op left lose what they summed; the op's own
        // starts its replica's.
        let above = try db.statement("UPDATE sync_ops SET digest = NULL WHERE rep = ?1 AND seq > ?2")
        above.bind(1, source)
        above.bind(2, op.id.seq)
        try above.run()
        try Self.extendDigests(db, num: target, below: 0)
        let seen = try db.statement("UPDATE sync_replicas SET seen = min(seen, ?1) WHERE num = ?2")
        seen.bind(1, op.id.seq - 1)
        seen.bind(2, source)
        try seen.run()
        // A habit shown by a name marked with its global id (two active habits with one
        // name) takes its new id's mark, as a store that received it moved shows it.
        if op.kind == SyncOp.Kind.habitCreate.rawValue {
            let renamedId = move.renamed(op.id)
            if let habitId = try localId(renamedId, .habit), let habit = try habit(id: habitId),
                case .habitCreate(let spec, _) = try SyncOp.decode(kind: op.kind, payload: op.payload)
            {
                for full in [false, true] where habit.spec.name == SyncMerge.displacedName(spec.name, id: op.id, full: full) {
                    try renameRow(habitId, SyncMerge.displacedName(spec.name, id: renamedId, full: full), id: renamedId)
                }
            }
        }
        // Registers: targets that name the moved record, and a winner that is the moved op.
        let registers = try db.statement("SELECT target, hlc, replica FROM sync_lww WHERE instr(target, ?1) > 0 OR (replica = ?2 AND hlc = ?3)")
        registers.bind(1, op.id.text)
        registers.bind(2, blob: op.id.replica)
        registers.bind(3, op.hlc)
        for (old, hlc, winner) in try registers.all({ ($0.text(0) ?? "", $0.int(1), $0.blob(2)) }) {
            let renamedTarget = move.renamed(target: old)
            let renamedWinner = winner == op.id.replica && hlc == op.hlc ? move.to : winner
            guard renamedTarget != old || renamedWinner != winner else { continue }
            let remove = try db.statement("DELETE FROM sync_lww WHERE target = ?1")
            remove.bind(1, old)
            try remove.run()
            try setRegister(renamedTarget, hlc: hlc, replica: renamedWinner)
        }
        try recordMove(move)
        syncCache = SyncCache(active: syncCache.active)
    }

    // MARK: Moved branches

    /// Records that an op moved (here, or on a peer that said so): idempotent.
    package func recordMove(_ move: SyncFork.Move) throws(HabitError) {
        let statement = try db.statement("INSERT OR IGNORE INTO sync_moves(replica, from_seq, to_replica) VALUES(?1, ?2, ?3)")
        statement.bind(1, blob: move.replica)
        statement.bind(2, move.from)
        statement.bind(3, blob: move.to)
        try statement.run()
        syncCache.moves = nil
    }

    /// Every moved op this store knows of.
    package func moves() throws(HabitError) -> [SyncFork.Move] {
        if let known = syncCache.moves { return known }
        let moves = try db.statement("SELECT replica, from_seq, to_replica FROM sync_moves ORDER BY replica, from_seq, to_replica").all {
            SyncFork.Move(replica: $0.blob(0), from: $0.int(1), to: $0.blob(2))
        }
        if syncCache.active { syncCache.moves = moves }
        return moves
    }

    /// The id a record named by an op has in this store's log now, or nil while the
    /// record is not held. A name with a stamp is the op at that id with that stamp,
    /// or, when the id's op here is another (a fork), where that op moved to
    /// (SyncFork.Move, followed as often as it moved); one without a stamp is the id
    /// as it stands.
    package func heldRecord(_ name: GlobalId) throws(HabitError) -> GlobalId? {
        guard name.stamp != 0 else { return name }
        var candidates = [name]
        var visited = 0
        while let id = candidates.popLast() {
            visited += 1
            // Each move derives a new replica id: moves that go round are forged; the
            // op naming the record waits, as for one not held.
            guard visited <= 256 else { return nil }
            if try heldStamp(id) == name.stamp { return id }
            candidates += try moves().filter { $0.moves(id) }.map { $0.renamed(id) }
        }
        return nil
    }

    /// op with every record it names by the id heldRecord gives; nil while one is not held.
    func heldNames(_ op: SyncOp) throws(HabitError) -> SyncOp? {
        let names = op.references
        guard names.contains(where: { $0.stamp != 0 }) else { return op }
        var held: [GlobalId] = []
        for name in names {
            guard let id = try heldRecord(name) else { return nil }
            held.append(id)
        }
        var index = 0
        return op.mappingIds { name in
            defer { index += 1 }
            return index < held.count ? held[index] : name
        }
    }

    /// The clock stamp of the op held under a global id, if any.
    private func heldStamp(_ id: GlobalId) throws(HabitError) -> Int64? {
        guard let num = try replicaNumber(id.replica, create: false) else { return nil }
        let statement = try db.statement("SELECT hlc FROM sync_ops WHERE rep = ?1 AND seq = ?2")
        statement.bind(1, num)
        statement.bind(2, id.seq)
        return try statement.one { $0.int(0) }
    }

    /// How far a replica's ops run without a gap from `seen` (recorded at the last apply)
    /// on: the ops written or received since are few, and only they are read.
    private func contiguous(_ num: Int64, from seen: Int64) throws(HabitError) -> Int64 {
        let statement = try db.statement("SELECT seq FROM sync_ops WHERE rep = ?1 AND seq > ?2 ORDER BY seq")
        statement.bind(1, num)
        statement.bind(2, seen)
        var prefix = seen
        _ = try statement.all { (row) throws(HabitError) -> Void in if row.int(0) == prefix + 1 { prefix += 1 } }
        return prefix
    }

    /// Records how far every replica's ops run without a gap (at the end of an apply).
    package func recordSeen() throws(HabitError) {
        for (num, seen) in try db.statement("SELECT num, seen FROM sync_replicas").all({ ($0.int(0), $0.int(1)) }) {
            let prefix = try contiguous(num, from: seen)
            guard prefix != seen else { continue }
            let statement = try db.statement("UPDATE sync_replicas SET seen = ?1 WHERE num = ?2")
            statement.bind(1, prefix)
            statement.bind(2, num)
            try statement.run()
        }
    }

    /// Every op above the peer's vector, as stored (payloads are not re-encoded).
    package func opsAbove(_ peer: VersionVector) throws(HabitError) -> [RawOp] {
        var result: [RawOp] = []
        let replicas = try db.statement("SELECT num, replica FROM sync_replicas ORDER BY replica").all { ($0.int(0), $0.blob(1)) }
        for (num, replica) in replicas {
            // Above what the two hold alike: the peer may hold more of this replica, or
            // other ops (a fork, which it finds among these: SyncFork).
            let held = try stamps(num: num, at: VersionVector.ladder(peer.seen[replica] ?? 0))
            let shared = peer.sharedPrefix(of: replica) { held[$0] }
            result += try ops(num: num, replica: replica, above: shared)
        }
        return result
    }

    /// Every op of the log, applied or waiting, in global id order.
    package func allOps() throws(HabitError) -> [RawOp] { try opsAbove(VersionVector()) }

    // MARK: Receiving

    /// Each known replica's highest sequence number held.
    package func highestSeqs() throws(HabitError) -> [[UInt8]: Int64] {
        var result: [[UInt8]: Int64] = [:]
        let replicas = try db.statement("SELECT num, replica FROM sync_replicas").all { ($0.int(0), $0.blob(1)) }
        let statement = try db.statement("SELECT max(seq) FROM sync_ops WHERE rep = ?1")
        for (num, replica) in replicas {
            statement.reset()
            statement.bind(1, num)
            result[replica] = try statement.one { $0.int(0) } ?? 0
        }
        return result
    }

    /// The op held under a global id, if any.
    package func heldOp(_ id: GlobalId) throws(HabitError) -> RawOp? {
        guard let num = try replicaNumber(id.replica, create: false) else { return nil }
        return try op(num: num, replica: id.replica, seq: id.seq)
    }

    /// Logs a received op: applied (with the local id of the record it made) or waiting.
    package func insertReceived(_ op: RawOp, waiting: Bool, localId: Int64?) throws(HabitError) {
        guard let num = try replicaNumber(op.id.replica, create: true) else { throw .corrupt("a replica number was not recorded") }
        let digest = try receivedDigest(num: num, op)
        let statement = try db.statement("INSERT INTO sync_ops(rep, seq, hlc, kind, payload, pending, local_id, digest) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
        statement.bind(1, num)
        statement.bind(2, op.id.seq)
        statement.bind(3, op.hlc)
        statement.bind(4, Int64(op.kind))
        statement.bind(5, blob: op.payload)
        statement.bind(6, Int64(waiting ? 1 : 0))
        statement.bind(7, localId)
        statement.bind(8, digest)
        try statement.run()
        try logChange(rep: num, seq: op.id.seq)
        if let digest { syncCache.digests[num] = (op.id.seq, digest) }
        syncCache.received.insert(num)
    }

    /// A received op's prefix digest when the one below it is known (kept, or logged
    /// by this apply just before); nil otherwise, for settleDigests to sum.
    private func receivedDigest(num: Int64, _ op: RawOp) throws(HabitError) -> Int64? {
        let below = op.id.seq - 1
        if below == 0 { return Self.digest(after: 0, op) }
        if let last = syncCache.digests[num], last.seq == below { return Self.digest(after: last.digest, op) }
        let statement = try db.statement("SELECT digest FROM sync_ops WHERE rep = ?1 AND seq = ?2")
        statement.bind(1, num)
        statement.bind(2, below)
        return Self.digest(after: try statement.one({ $0.optionalInt(0) }) ?? nil, op)
    }

    // MARK: Prefix digests

    /// The prefix digest through op, after the one through the op below it (nil: not
    /// known, as when that op is not held; 0 for op 1), stored as its bit pattern.
    static func digest(after below: Int64?, _ op: RawOp) -> Int64? {
        guard let below else { return nil }
        return Int64(bitPattern: UInt64(bitPattern: below) &+ SyncFork.prefixShare(op))
    }

    /// Fills the prefix digests of a replica's ops (by its number here) upward from the
    /// op at number `below` + 1, while each op below is held and digested; ops with a
    /// digest already are left. Only ops past a gap just filled or a move have none.
    static func extendDigests(_ db: Database, num: Int64, below seq: Int64) throws(HabitError) {
        var previous: Int64?
        if seq <= 0 {
            previous = 0
        } else {
            let statement = try db.statement("SELECT digest FROM sync_ops WHERE rep = ?1 AND seq = ?2")
            statement.bind(1, num)
            statement.bind(2, seq)
            guard let below = try statement.one({ $0.optionalInt(0) }) else { return }
            previous = below
        }
        let rows = try db.statement("SELECT seq, hlc, kind, payload, digest FROM sync_ops WHERE rep = ?1 AND seq > ?2 ORDER BY seq")
        rows.bind(1, num)
        rows.bind(2, max(seq, 0))
        var next = max(seq, 0) + 1
        var updates: [(seq: Int64, digest: Int64)] = []
        // Stops at the first gap, or at the first op already digested (all above it are).
        try rows.each(while: { (row) throws(HabitError) -> Bool in
            guard let known = previous, row.int(0) == next, row.optionalInt(4) == nil,
                let digest = digest(
                    after: known,
                    RawOp(
                        id: GlobalId(replica: [], seq: next), hlc: row.int(1),
                        kind: UInt8(truncatingIfNeeded: row.int(2)), payload: row.blob(3)))
            else { return false }
            updates.append((next, digest))
            previous = digest
            next += 1
            return true
        })
        let update = try db.statement("UPDATE sync_ops SET digest = ?1 WHERE rep = ?2 AND seq = ?3")
        for (seq, digest) in updates {
            update.reset()
            update.bind(1, digest)
            update.bind(2, num)
            update.bind(3, seq)
            try update.run()
        }
    }

    /// Fills every replica's prefix digests (a store from before they were kept).
    static func extendAllDigests(_ db: Database) throws(HabitError) {
        for num in try db.statement("SELECT num FROM sync_replicas ORDER BY num").all({ $0.int(0) }) {
            try extendDigests(db, num: num, below: 0)
        }
    }

    /// How many received ops wait.
    package func waitingCount() throws(HabitError) -> Int {
        Int(try db.statement("SELECT count(*) FROM sync_ops WHERE pending = 1").one { $0.int(0) } ?? 0)
    }

    /// Received ops not yet applied, oldest stamp first; with zonesOnly, those that can
    /// wait for a time zone only (a setting, a zone change).
    package func pendingOps(zonesOnly: Bool = false) throws(HabitError) -> [RawOp] {
        let zoneKinds = [SyncOp.Kind.setting, .zoneChange].map { String($0.rawValue) }.joined(separator: ", ")
        return try db.statement(
            text:
                """
                SELECT r.replica, o.seq, o.hlc, o.kind, o.payload FROM sync_ops o JOIN sync_replicas r ON r.num = o.rep
                WHERE o.pending = 1\(zonesOnly ? " AND o.kind IN (\(zoneKinds))" : "") ORDER BY o.hlc, r.replica, o.seq
                """
        ).all {
            RawOp(id: GlobalId(replica: $0.blob(0), seq: $0.int(1)), hlc: $0.int(2), kind: UInt8(truncatingIfNeeded: $0.int(3)), payload: $0.blob(4))
        }
    }

    /// A waiting op that has now been applied, with the local id of the record it made.
    package func markApplied(_ id: GlobalId, localId: Int64?) throws(HabitError) {
        guard let num = try replicaNumber(id.replica, create: false) else { throw .corrupt("\(id.text): no replica number") }
        let statement = try db.statement("UPDATE sync_ops SET pending = 0, local_id = ?1 WHERE rep = ?2 AND seq = ?3")
        statement.bind(1, localId)
        statement.bind(2, num)
        statement.bind(3, id.seq)
        try statement.run()
    }

    // MARK: Materialising received ops

    /// What applying one received op did: applied (with the local id of the record it
    /// made, if any), waiting for a record it names, or changing nothing.
    package enum Applied: Equatable { case applied(Int64?), waiting, superseded }

    /// Writes one received op into the ordinary tables by the merge rules (no op is
    /// logged for it: it is already in the log). .waiting: a record it names has not
    /// arrived; it stays pending and is retried at the next apply. Each op is
    /// materialised once: when it arrives, or later when what it waited for has.
    package func materialize(_ stamped: StampedOp) throws(HabitError) -> Applied {
        let id = stamped.id
        // The records it names, by their ids here (a moved op's record has a new one).
        guard let named = try heldNames(stamped.op) else { return .waiting }
        switch named {
        case .habitCreate(let spec, let createdAtMs):
            let name = try claimName(spec.name, for: id)
            var stored = spec
            stored.name = name
            let statement = try db.statement(
                """
                INSERT INTO habits(name, kind, target, direction, group_name, unit, routine, proof_required, start_day, archived_day, created_at_ms)
                VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, NULL, ?10)
                """)
            bindSpec(statement, stored)
            statement.bind(10, createdAtMs)
            do throws(HabitError) { try statement.run() } catch  where error.code == .conflict {
                // The name taken after all (a shortened mark shared by two ids): the full mark is unique.
                bindSpec(statement, stored)
                statement.bind(1, SyncMerge.displacedName(spec.name, id: id, full: true))
                statement.bind(10, createdAtMs)
                try statement.run()
            }
            // Its versions arrive as settings ops, logged right after the creation.
            return .applied(remember(id, .habit, db.lastInsertRowId))
        case .habitField(let habit, let field, let value):
            guard let local = try localId(habit, .habit) else { return .waiting }
            let target = Self.fieldTarget(habit, field)
            var current = try register(target)
            if current == nil { current = try createStamp(habit) }
            guard SyncMerge.wins(hlc: stamped.hlc, replica: id.replica, over: current) else { return .superseded }
            try writeField(local, habit: habit, field, value)
            try setRegister(target, hlc: stamped.hlc, replica: id.replica)
            return .applied(nil)
        case .schedule(let habit, let fromDay, let schedule):
            guard let local = try localId(habit, .habit) else { return .waiting }
            let target = Self.versionTarget(habit, fromDay)
            guard SyncMerge.wins(hlc: stamped.hlc, replica: id.replica, over: try register(target)) else { return .superseded }
            // The other settings stay those in force on that day here.
            guard let row = try self.habit(id: local) else { return .waiting }
            var version = row.versions.version(on: fromDay) ?? SettingsVersion(fromDay: fromDay, spec: row.spec)
            version.fromDay = fromDay
            version.schedule = schedule
            try writeVersion(habitId: local, version)
            if syncCache.active { syncCache.versionChanges.append((local, fromDay)) }
            try setRegister(target, hlc: stamped.hlc, replica: id.replica)
            return .applied(nil)
        case .settingsVersion(let habit, let version):
            guard let local = try localId(habit, .habit) else { return .waiting }
            let target = Self.versionTarget(habit, version.fromDay)
            guard SyncMerge.wins(hlc: stamped.hlc, replica: id.replica, over: try register(target)) else { return .superseded }
            try writeVersion(habitId: local, version)
            if syncCache.active { syncCache.versionChanges.append((local, version.fromDay)) }
            try setRegister(target, hlc: stamped.hlc, replica: id.replica)
            return .applied(nil)
        case .entry(let habit, let day, let kind, let value, let recordedAtMs, let source, let note, let undoes):
            guard let habitLocal = try localId(habit, .habit) else { return .waiting }
            var undoesLocal: Int64?
            if let undoes {
                guard let target = try localId(undoes, .entry) else { return .waiting }
                // Two devices undid one entry offline: it is cancelled once; the second undo changes nothing.
                if try undoOf(entryId: target) != nil { return .superseded }
                undoesLocal = target
            }
            let local = try writeEntry(
                habitId: habitLocal, day: day, kind: kind, value: value, recordedAtMs: recordedAtMs,
                source: source, undoes: undoesLocal, note: note)
            if syncCache.active { syncCache.entryDays[habitLocal, default: []].insert(day) }
            return .applied(remember(id, .entry, local))
        case .vacationAdd(let habit, let first, let last):
            if try isRemoved(id) { return .superseded }
            var habitLocal: Int64?
            if let habit {
                guard let local = try localId(habit, .habit) else { return .waiting }
                habitLocal = local
            }
            let local = try writeVacation(habitId: habitLocal, from: first, to: last)
            return .applied(remember(id, .vacation, local))
        case .vacationRemove(let vacation):
            try tombstone(vacation)
            if let local = try localId(vacation, .vacation) {
                _ = try removeVacationRow(id: local)
                syncCache.locals[vacation] = nil
            }
            return .applied(nil)
        case .proof(let habit, let day, let sha256, let size, let mediaType, let takenAtMs, let receivedAtMs, let metadata):
            guard let habitLocal = try localId(habit, .habit) else { return .waiting }
            // The evidence bytes stay where they were received: the record comes without its copy.
            let local = try writeProof(
                habitId: habitLocal, day: day, sha256: sha256, size: size, mediaType: mediaType, takenAtMs: takenAtMs,
                receivedAtMs: receivedAtMs, metadata: metadata, copy: nil)
            return .applied(remember(id, .proof, local))
        case .verdict(let proof, var verdict, let entry):
            guard let proofLocal = try localId(proof, .proof) else { return .waiting }
            verdict.proofId = proofLocal
            if let entry {
                guard let entryLocal = try localId(entry, .entry) else { return .waiting }
                verdict.entryId = entryLocal
            }
            return .applied(remember(id, .verdict, try writeVerdict(verdict)))
        case .shieldRule(let createdAtMs):
            return .applied(remember(id, .shieldRule, try writeShieldRule(createdAtMs: createdAtMs)))
        case .shieldVersion(let rule, let fromDay, var settings, let habits):
            guard let ruleLocal = try localId(rule, .shieldRule) else { return .waiting }
            var habitLocals: [Int64] = []
            for habit in habits {
                guard let local = try localId(habit, .habit) else { return .waiting }
                habitLocals.append(local)
            }
            let target = Self.shieldVersionTarget(rule, fromDay)
            guard SyncMerge.wins(hlc: stamped.hlc, replica: id.replica, over: try register(target)) else { return .superseded }
            settings?.habits = habitLocals
            try writeShieldVersion(ruleId: ruleLocal, fromDay: fromDay, settings: settings)
            try setRegister(target, hlc: stamped.hlc, replica: id.replica)
            return .applied(nil)
        case .emergencyUnlock(let rule, let atMs, let day, let minutes, let reason):
            guard let ruleLocal = try localId(rule, .shieldRule) else { return .waiting }
            // A union of records: every unlock is kept, even past the budget (checked only where it was granted).
            return .applied(remember(id, .emergency, try writeEmergencyUnlock(ruleId: ruleLocal, atMs: atMs, day: day, minutes: minutes, reason: reason)))
        case .timerEvent(let action, let subject, let day, let autoComplete, let atMs):
            // A union of records: every event is kept; the fold orders them by instant.
            if action == .start {
                guard let habitLocal = try localId(subject, .habit) else { return .waiting }
                let local = try writeTimerStart(habitId: habitLocal, day: day, atMs: atMs, autoComplete: autoComplete)
                if syncCache.active { syncCache.timerDays[habitLocal, default: []].insert(day) }
                return .applied(remember(id, .timer, local))
            }
            guard let timerLocal = try localId(subject, .timer) else { return .waiting }
            let local = try writeTimerEvent(timerId: timerLocal, action: action, atMs: atMs)
            if syncCache.active, let (habitLocal, day) = try timerDay(id: timerLocal) { syncCache.timerDays[habitLocal, default: []].insert(day) }
            return .applied(remember(id, .timer, local))
        case .creditAccount(let name, let createdAtMs):
            // Accounts are a set of names: one created on two devices is one account.
            if try creditAccount(named: name) != nil { return .superseded }
            let local = try writeCreditAccount(name: name, createdAtMs: createdAtMs)
            syncCache.creditAccounts.insert(local)
            return .applied(local)
        case .credit(let account, let kind, let minutes, let day, let atMs, let reason):
            // A union of records: both of two spends made offline are kept, even when
            // together they overdraw (the balance then shows the debt). A session's
            // spend or refund arrives as a plain one: sessions unlock the device that bought them.
            let accountId = try creditAccountForSync(account, createdAtMs: atMs)
            let local = try writeCreditEntry(
                CreditEntry(
                    id: 0, accountId: accountId, kind: kind, minutes: minutes, day: day, atMs: atMs, reason: reason,
                    cause: .manual, causeId: nil, habitId: nil, steps: nil))
            return .applied(remember(id, .credit, local))
        case .steps(let account, let day, let steps, let atMs):
            let accountId = try creditAccountForSync(account, createdAtMs: atMs)
            return .applied(try writeStepReport(accountId: accountId, day: day, steps: steps, atMs: atMs))
        case .creditRule(let account, let kind, let habit, let value, let fromDay, let recordedAtMs):
            var habitLocal: Int64?
            if let habit {
                guard let local = try localId(habit, .habit) else { return .waiting }
                habitLocal = local
            }
            let target = SyncMerge.creditRuleTarget(account: account, kind: kind.rawValue, habit: habit, fromDay: fromDay)
            guard SyncMerge.wins(hlc: stamped.hlc, replica: id.replica, over: try register(target)) else { return .superseded }
            // Written last, it is the rule the day reads (a later rule for the same day wins).
            let accountId = try creditAccountForSync(account, createdAtMs: recordedAtMs)
            let local = try writeCreditRule(accountId: accountId, kind: kind, habitId: habitLocal, value: value, fromDay: fromDay, recordedAtMs: recordedAtMs)
            try setRegister(target, hlc: stamped.hlc, replica: id.replica)
            if let habitLocal { syncCache.rewardChanges.append((habitLocal, fromDay)) }
            return .applied(remember(id, .creditRule, local))
        case .awardUnlock(var rule, let scopeHabit, let day, let atMs, let cause, let causeRecord, let causeHabit):
            // Every device's unlock is kept; which one stands is read (awardUnlocks).
            if let scopeHabit {
                guard let local = try localId(scopeHabit, .habit) else { return .waiting }
                rule.scope = .habit(local)
            }
            var causeId: Int64?
            if let causeRecord {
                guard let local = try localId(causeRecord, cause == .creditEntry ? .credit : cause == .habitCreated ? .habit : .entry) else { return .waiting }
                causeId = local
            }
            var causeHabitId: Int64?
            if let causeHabit {
                guard let local = try localId(causeHabit, .habit) else { return .waiting }
                causeHabitId = local
            }
            let local = try writeAwardUnlock(
                AwardUnlock(
                    id: 0, rule: rule, day: day, atMs: atMs, causeKind: cause, causeId: causeId,
                    causeHabitId: causeHabitId))
            syncCache.awards.insert(rule.id)
            return .applied(remember(id, .awardUnlock, local))
        case .zoneChange(let atMs, let from, let to):
            guard Self.hasZone(from), Self.hasZone(to) else { return .waiting }
            return .applied(remember(id, .zoneChange, try writeZoneChange(atMs: atMs, from: from, to: to)))
        case .evidence, .branchMoved:
            // Never ops of the log: the engine keeps evidence beside its proof, and moves apart.
            return .superseded
        case .setting(let key, let value):
            if key == "timezone", !Self.hasZone(value) { return .waiting }
            let target = Self.settingTarget(key)
            guard SyncMerge.wins(hlc: stamped.hlc, replica: id.replica, over: try register(target)) else { return .superseded }
            try writeSetting(key, value)
            try setRegister(target, hlc: stamped.hlc, replica: id.replica)
            return .applied(nil)
        }
    }

    /// Whether this machine's tz database has the zone a received op names. One it
    /// lacks (a name newer than its tzdata) makes the op wait, as for a record that has
    /// not arrived: the rest of the changeset applies, and a later apply after a tzdata
    /// update applies it (the clock and shields could not read a zone they cannot load).
    private static func hasZone(_ name: String) -> Bool { (try? ZoneDatabase.load(name)) != nil }

    /// The account a received credit op names (created when its own op has not
    /// arrived), recorded as touched: the engine re-derives its earnings and expiries.
    private func creditAccountForSync(_ name: String, createdAtMs: Int64) throws(HabitError) -> Int64 {
        let local: Int64
        if let known = try creditAccount(named: name) { local = known.id } else { local = try writeCreditAccount(name: name, createdAtMs: createdAtMs) }
        syncCache.creditAccounts.insert(local)
        return local
    }

    /// The credit accounts the current apply touched.
    package var syncTouchedCreditAccounts: Set<Int64> { syncCache.creditAccounts }
    /// The habit days the current apply added entries to, those it added timer events
    /// to, and the habit rewards it changed (habit, from day): what completion credits
    /// are re-settled for.
    package var syncTouchedHabitDays: [Int64: Set<Int32>] { syncCache.entryDays }
    package var syncTouchedTimerDays: [Int64: Set<Int32>] { syncCache.timerDays }
    package var syncChangedRewards: [(habitId: Int64, fromDay: Int32)] { syncCache.rewardChanges }
    package var syncChangedVersions: [(habitId: Int64, fromDay: Int32)] { syncCache.versionChanges }
    /// The awards (rule ids) the current apply brought unlocks of.
    package var syncUnlockedAwards: Set<String> { syncCache.awards }

    private func remember(_ id: GlobalId, _ kind: SyncKind, _ local: Int64) -> Int64 {
        if syncCache.active { syncCache.locals[id] = (kind, local) }
        return local
    }

    /// The stamp of a habit's creation: the value every field has until a later write.
    private func createStamp(_ habit: GlobalId) throws(HabitError) -> (hlc: Int64, replica: [UInt8])? {
        guard let num = try replicaNumber(habit.replica, create: false) else { return nil }
        let statement = try db.statement("SELECT hlc FROM sync_ops WHERE rep = ?1 AND seq = ?2")
        statement.bind(1, num)
        statement.bind(2, habit.seq)
        return try statement.one { ($0.int(0), habit.replica) }
    }

    /// The name a habit with global id `id` gets: its own when no active habit holds it;
    /// when one does, the smaller global id keeps the plain name and the other shows
    /// SyncMerge.displacedName, so every replica ends with the same names.
    private func claimName(_ name: String, for id: GlobalId, except localSelf: Int64? = nil) throws(HabitError) -> String {
        let key = HabitName.key(name)
        for holder in try habits(includeArchived: false) where holder.id != localSelf && HabitName.key(holder.spec.name) == key {
            guard let holderId = try globalId(.habit, holder.id) else { continue }
            if id < holderId {
                try renameRow(holder.id, SyncMerge.displacedName(holder.spec.name, id: holderId), id: holderId)
                return name
            }
            return SyncMerge.displacedName(name, id: id)
        }
        return name
    }

    /// Names a habit row; when the name is taken after all (a shortened mark shared by
    /// two ids), the name with its full global id, which no other habit can hold.
    private func renameRow(_ local: Int64, _ name: String, id: GlobalId?) throws(HabitError) {
        let statement = try db.statement("UPDATE habits SET name = ?1 WHERE id = ?2")
        statement.bind(1, name)
        statement.bind(2, local)
        do throws(HabitError) { try statement.run() } catch  where error.code == .conflict && id != nil {
            guard let id else { throw error }
            statement.bind(1, SyncMerge.displacedName(name, id: id, full: true))
            statement.bind(2, local)
            try statement.run()
        }
    }

    private func writeField(_ local: Int64, habit: GlobalId, _ field: HabitField, _ value: SyncValue) throws(HabitError) {
        let column: String
        switch field {
        case .name:
            guard case .text(let name) = value else { return }
            let archived = try db.statement("SELECT archived_day IS NOT NULL FROM habits WHERE id = ?1").binding(local).one { $0.int(0) != 0 } ?? false
            try renameRow(local, archived ? name : try claimName(name, for: habit, except: local), id: habit)
            return
        case .archivedDay:
            if value == .null, let row = try self.habit(id: local) {
                // Restored: it takes its name back by the same rule as a new name.
                try renameRow(local, "\u{1}restoring \(local)", id: nil)
                let name = row.spec.name
                try db.statement("UPDATE habits SET archived_day = NULL WHERE id = ?1").binding(local).run()
                try renameRow(local, try claimName(name, for: habit, except: local), id: habit)
                return
            }
            column = "archived_day"
        case .target: column = "target"
        case .direction: column = "direction"
        case .group: column = "group_name"
        case .unit: column = "unit"
        case .routine: column = "routine"
        case .proofRequired: column = "proof_required"
        case .startDay: column = "start_day"
        case .description: column = "description"
        case .question: column = "question"
        case .colour: column = "colour"
        case .icon: column = "icon"
        case .position: column = "position"
        case .missAllowance, .openDay:
            guard let policy = field.setting(value, in: try habitStreakPolicy(habitId: local)) else { return }
            return try writeHabitStreakPolicy(habitId: local, policy)
        }
        let statement = try db.statement(text: "UPDATE habits SET \(column) = ?1 WHERE id = ?2")
        switch value {
        case .null: statement.bind(1, nil as Int64?)
        case .int(let v): statement.bind(1, v)
        case .double(let v): statement.bind(1, v)
        case .text(let v): statement.bind(1, v)
        }
        statement.bind(2, local)
        try statement.run()
    }

    private func isRemoved(_ id: GlobalId) throws(HabitError) -> Bool {
        guard let num = try replicaNumber(id.replica, create: false) else { return false }
        let statement = try db.statement("SELECT 1 FROM sync_removed WHERE rep = ?1 AND seq = ?2")
        statement.bind(1, num)
        statement.bind(2, id.seq)
        return try statement.one { _ in true } ?? false
    }

    func tombstone(_ id: GlobalId) throws(HabitError) {
        guard let num = try replicaNumber(id.replica, create: true) else { throw .corrupt("a replica number was not recorded") }
        let statement = try db.statement("INSERT OR IGNORE INTO sync_removed(rep, seq) VALUES(?1, ?2)")
        statement.bind(1, num)
        statement.bind(2, id.seq)
        try statement.run()
    }
}

/// What one sync apply has looked up, valid inside its transaction only.
/// What logging a local op reads, kept while this connection holds the write lock:
/// no other connection can write until the transaction ends, so this replica's last
/// sequence number and its habits' global ids hold (its clock: Store.unsavedClock). Started again at
/// every transaction's start and end, on any rollback (a savepoint's too) and around
/// a sync apply; a read outside a transaction never uses it.
struct WriteTail {
    var lastSeq: Int64?
    var habitIds: [Int64: GlobalId] = [:]
}

package struct SyncCache {
    var active = false
    var numbers: [[UInt8]: Int64] = [:]
    var locals: [GlobalId: (kind: Store.SyncKind, local: Int64)] = [:]
    /// Credit accounts whose facts this apply changed.
    var creditAccounts: Set<Int64> = []
    var entryDays: [Int64: Set<Int32>] = [:]
    var timerDays: [Int64: Set<Int32>] = [:]
    var rewardChanges: [(Int64, Int32)] = []
    /// Habits whose settings versions this apply changed, with the first day they re-judge.
    var versionChanges: [(Int64, Int32)] = []
    var awards: Set<String> = []
    /// The moved ops (sync_moves), read once per apply.
    var moves: [SyncFork.Move]?
    /// Per replica number, the last op this apply logged with its prefix digest, and
    /// every replica it logged ops of.
    var digests: [Int64: (seq: Int64, digest: Int64)] = [:]
    var received: Set<Int64> = []
}
