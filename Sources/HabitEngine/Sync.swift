import HabitCore
import HabitStore

/// Sync between a person's devices: this store's state, the changes a peer lacks, and
/// applying a peer's changes by the merge rules (HabitCore's SyncMerge and the store's
/// materialisation). The transport is the caller's.
extension Engine {
    /// What one hc_sync_apply did.
    package struct SyncSummary: Equatable, Sendable {
        package var received = 0
        package var new = 0
        package var applied = 0
        package var superseded = 0
        package var waiting = 0
        package var habitsChanged = 0
        package var entriesAdded = 0
        package var vacationsChanged = 0
        package var settingsChanged = 0
        package var proofsChanged = 0
        /// Applied credit accounts, spends, adjustments, refunds and step reports.
        package var creditsChanged = 0
        /// Received ops of a forked replica's moving branch, taken under their moved ids (SyncFork).
        package var forked = 0
        package init() {}
    }

    package func syncState() throws(HabitError) -> [UInt8] {
        try keepOwnDigests()
        return try store.snapshot { () throws(HabitError) in try store.versionVector().encode() }
    }

    /// Keeps the prefix digests of this store's own ops logged since its last sync, in
    /// one write when there are any, so states and changesets do not sum them again (a
    /// read-only handle sums them in memory each time).
    private func keepOwnDigests() throws(HabitError) {
        guard !store.readOnly, try store.ownDigestsPending() else { return }
        try store.atomically { () throws(HabitError) in try store.settleDigests() }
    }

    package func syncReplica() throws(HabitError) -> [UInt8] { try store.replicaId() }

    /// Every op the peer (whose state is peerState; empty: nothing) lacks, as one
    /// changeset; with evidence, each proof's kept evidence beside its op.
    package func syncChanges(peerState: [UInt8], evidence: Bool = false) throws(HabitError) -> [UInt8] {
        let peer = try VersionVector.decode(peerState)
        try keepOwnDigests()
        let ops = try store.snapshot { () throws(HabitError) in
            var ops = try store.opsAbove(peer)
            if evidence { ops += try evidenceRecords(for: ops) }
            // Every moved op known here: few, and a peer may hold a moved op's old copy.
            ops += try store.moves().map { move in
                RawOp(
                    id: GlobalId(replica: move.replica, seq: move.from), hlc: 0, kind: SyncOp.Kind.branchMoved.rawValue,
                    payload: SyncOp.branchMoved(to: move.to).encodePayload())
            }
            return ops
        }
        let bytes = Changeset.encode(raw: ops)
        guard bytes.count <= Changeset.maxBytes else { throw HabitError(.noMemory, "the changeset would be \(bytes.count) bytes, above the format's limit") }
        return bytes
    }

    /// Evidence records for the proofs among ops whose evidence this store keeps.
    private func evidenceRecords(for ops: [RawOp]) throws(HabitError) -> [RawOp] {
        var records: [RawOp] = []
        for op in ops where op.kind == SyncOp.Kind.proof.rawValue {
            guard let local = try store.localId(op.id, .proof), let bytes = try store.proofCopy(id: local),
                let proof = try store.proof(id: local)
            else { continue }
            let record = SyncOp.evidence(sha256: proof.sha256, bytes: bytes)
            records.append(RawOp(id: op.id, hlc: 0, kind: record.kind.rawValue, payload: record.encodePayload()))
        }
        return records
    }

    /// Validates the whole changeset (every record as a local write would check it),
    /// then applies it in one transaction; a record this store cannot apply yet waits.
    package func syncApply(_ bytes: [UInt8]) throws(HabitError) -> SyncSummary {
        // Evidence records are kept beside their proofs, never logged as ops.
        var decoded: [(op: StampedOp, raw: RawOp)] = []
        var evidence: [(proof: GlobalId, sha256: String, bytes: [UInt8])] = []
        var moves: [SyncFork.Move] = []
        for item in try Changeset.decode(bytes) {
            switch item.op.op {
            case .evidence(let sha, let evidenceBytes): evidence.append((item.op.id, sha, evidenceBytes))
            case .branchMoved(let to): moves.append(SyncFork.Move(replica: item.op.id.replica, from: item.op.id.seq, to: to))
            default: decoded.append(item)
            }
        }
        var summary = SyncSummary()
        summary.received = decoded.count + evidence.count
        // Ops stamped far ahead of this device's clock wait for it: not taken now.
        let now = store.syncNow()
        let received = decoded.count
        decoded.removeAll { HybridClock.isAhead($0.raw.hlc, nowMs: now) }
        let ahead = received - decoded.count
        try store.atomically { () throws(HabitError) in
            store.beginSyncApply()
            defer { store.endSyncApply() }
            let newest = decoded.map(\.raw.hlc).max() ?? 0
            try store.receiveClock(newest)
            // Told moves: recorded, and this store's copy of each op moved the same way.
            var movedHere = false
            for move in moves where move.to != move.replica {
                try store.recordMove(move)
                movedHere = try store.moveIfHeld(move) || movedHere
            }
            let waitingBefore = try store.waitingCount()
            let (leftOut, movedByForks) = try applyNew(decoded, waitingBefore: waitingBefore, &summary)
            movedHere = movedHere || movedByForks
            // What waits for a record can move only when something arrived or a branch
            // moved (its records' ids changed); what waits for a time zone, whenever this
            // machine's tz database has it.
            try materializePending(zonesOnly: summary.applied == 0 && moves.isEmpty && !movedHere, &summary)
            summary.waiting += ahead + leftOut
            try keepEvidence(evidence, &summary)
            try settleMergedHabitCredits()
            try settleTimeChangedCredits()
            for accountId in try touchedCreditAccounts() { try deriveCredits(accountId: accountId) }
            try announceMergedAwards()
            try store.settleDigests()
            try store.recordSeen()
        }
        dropCaches()
        return summary
    }

    /// Logs and applies the ops not held yet, oldest stamp first (what an op names has
    /// an older stamp, so it is usually applied first). A changeset that holds another
    /// op under an id this store holds shows a fork (SyncFork): the later branch moves,
    /// this store's in its log or the changeset's as it is taken.
    /// Returns how many waiting ops it left out of the log (past maxWaitingOps), and
    /// whether a branch of this store moved.
    private func applyNew(
        _ decoded: [(op: StampedOp, raw: RawOp)], waitingBefore: Int,
        _ summary: inout SyncSummary
    ) throws(HabitError) -> (leftOut: Int, moved: Bool) {
        var kept = decoded
        var moved = false
        try takeKnownMoves(&kept)
        var (fresh, forks) = try unheld(kept)
        // A moved op's replica may fork again (a copy of a copy): settle until no fork is left.
        var rounds = 0
        while let (replica, fork) = forks.first {
            rounds += 1
            guard rounds <= 64 else {
                throw HabitError.invalid("changeset: \(fork.received.id.text): a fork of replica \(SyncHex.encode(replica)) did not settle")
            }
            for (replica, fork) in forks {
                if SyncFork.isLater(fork.held, than: fork.received) {
                    moved = try store.moveBranch(of: replica, from: fork.held.id.seq) > 0 || moved
                    continue
                }
                // The changeset's branch moves: each of its ops taken under the id every store derives for it.
                for index in kept.indices where kept[index].raw.id.replica == replica && kept[index].raw.id.seq >= fork.received.id.seq {
                    let move = SyncFork.moved(kept[index].raw)
                    try store.recordMove(move)
                    take(&kept[index], moved: move)
                    summary.forked += 1
                }
            }
            // The ops this store just moved may come in this changeset too, under their old ids.
            try takeKnownMoves(&kept)
            (fresh, forks) = try unheld(kept)
        }
        // Oldest stamp first; ties by global id (keys made once: comparing byte arrays in the sort is slow).
        let keys = fresh.map { item -> (Int64, UInt64, UInt64, Int64) in
            let r = item.raw.id.replica
            let hi = r.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }, lo = r.dropFirst(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return (item.raw.hlc, hi, lo, item.raw.id.seq)
        }
        fresh = fresh.indices.sorted { keys[$0] < keys[$1] }.map { fresh[$0] }
        summary.new = fresh.count
        var waiting = waitingBefore, leftOut = 0
        for item in fresh {
            let result = try store.materialize(item.op)
            count(result, item.op.op, &summary)
            switch result {
            case .applied(let local): try store.insertReceived(item.raw, waiting: false, localId: local)
            case .superseded: try store.insertReceived(item.raw, waiting: false, localId: nil)
            case .waiting:
                guard waiting < maxWaitingOps else {
                    leftOut += 1
                    continue
                }
                waiting += 1
                try store.insertReceived(item.raw, waiting: true, localId: nil)
            }
        }
        summary.new -= leftOut
        return (leftOut, moved)
    }

    /// Each received op this store knows moved (a move derives from it) under its moved id.
    private func takeKnownMoves(_ kept: inout [(op: StampedOp, raw: RawOp)]) throws(HabitError) {
        let known = Dictionary(grouping: try store.moves(), by: { GlobalId(replica: $0.replica, seq: $0.from) })
        for index in kept.indices {
            guard let candidates = known[kept[index].raw.id] else { continue }
            let move = SyncFork.moved(kept[index].raw)
            if candidates.contains(move) { take(&kept[index], moved: move) }
        }
    }

    /// A received op under its moved id.
    private func take(_ item: inout (op: StampedOp, raw: RawOp), moved move: SyncFork.Move) {
        item = (StampedOp(id: move.renamed(item.op.id), hlc: item.op.hlc, op: item.op.op), move.renamed(item.raw))
    }

    /// The changeset's ops this store does not hold (each once), and per replica the
    /// first number where the changeset holds another op than this store: a fork.
    private func unheld(_ decoded: [(op: StampedOp, raw: RawOp)]) throws(HabitError)
        -> (fresh: [(op: StampedOp, raw: RawOp)], forks: [[UInt8]: (held: RawOp, received: RawOp)])
    {
        var seen = Set<GlobalId>()
        var fresh: [(op: StampedOp, raw: RawOp)] = []
        var forks: [[UInt8]: (held: RawOp, received: RawOp)] = [:]
        // Above a replica's highest number held, nothing can be held: no lookup.
        let highest = try store.highestSeqs()
        for (number, item) in decoded.enumerated() {
            if item.raw.id.seq <= highest[item.raw.id.replica] ?? 0, let held = try store.heldOp(item.raw.id) {
                if held != item.raw, forks[held.id.replica].map({ held.id.seq < $0.held.id.seq }) ?? true {
                    forks[held.id.replica] = (held, item.raw)
                }
                continue
            }
            if !seen.insert(item.raw.id).inserted {
                guard fresh.contains(where: { $0.raw == item.raw }) else {
                    throw HabitError.invalid("changeset: record \(number + 1): \(item.raw.id.text): two different ops under the same id")
                }
                continue
            }
            fresh.append(item)
        }
        return (fresh, forks)
    }

    /// Evidence for proofs held without a copy, when it hashes to the proof's sha256
    /// (decoding checked it hashes to the sha256 it came with).
    private func keepEvidence(_ evidence: [(proof: GlobalId, sha256: String, bytes: [UInt8])], _ summary: inout SyncSummary) throws(HabitError) {
        for item in evidence {
            guard let local = try store.localId(item.proof, .proof), let proof = try store.proof(id: local), proof.sha256 == item.sha256,
                try store.proofCopy(id: local) == nil
            else { continue }
            try store.insertProofCopy(id: local, bytes: item.bytes)
            summary.proofsChanged += 1
        }
    }

    /// Completion credits of the habit days the apply added entries or timer events to,
    /// and of the days a merged reward covers: settled as a local append, timer event or
    /// rule would settle them.
    private func settleMergedHabitCredits() throws(HabitError) {
        caches.credits.drop()
        for (habitId, fromDay) in store.syncChangedRewards { try settleHabitCredits(habitId: habitId, from: fromDay) }
        for (habitId, fromDay) in store.syncChangedVersions where try earnsCredits(habitId) {
            try settleHabitCredits(habitId: habitId, from: fromDay, why: .rejudged(from: fromDay))
        }
        let entryDays = store.syncTouchedHabitDays, timerDays = store.syncTouchedTimerDays
        for habitId in Set(entryDays.keys).union(timerDays.keys).sorted() {
            guard try earnsCredits(habitId), let habit = try store.habit(id: habitId) else { continue }
            let byEntries = entryDays[habitId] ?? []
            for day in byEntries.union(timerDays[habitId] ?? []).sorted() {
                try settleHabitCredits(habit: habit, day: day, causeEntryId: nil, why: byEntries.contains(day) ? .entry(nil) : .timer)
            }
        }
    }

    /// The accounts whose earnings or expiries the apply may have changed: those whose
    /// facts arrived, and those that reward a habit (a settlement may have written).
    private func touchedCreditAccounts() throws(HabitError) -> [Int64] {
        var accounts = store.syncTouchedCreditAccounts
        if !store.syncTouchedHabitDays.isEmpty || !store.syncTouchedTimerDays.isEmpty || !store.syncChangedRewards.isEmpty
            || !store.syncChangedVersions.isEmpty
        {
            for account in try store.creditAccounts() where !(try store.creditRules(accountId: account.id).filter { $0.kind == .habitMinutes }.isEmpty) {
                accounts.insert(account.id)
            }
        }
        return accounts.sorted()
    }

    /// An award unlocked on another device is announced here too, once: the event's key
    /// is the award's, so one this device already announced (its own unlock, or an
    /// earlier merge) is not announced again.
    private func announceMergedAwards() throws(HabitError) {
        let merged = store.syncUnlockedAwards
        guard !merged.isEmpty else { return }
        for unlock in try store.awardUnlocks() where merged.contains(unlock.rule.id) { try announce(unlock) }
    }

    private func count(_ result: Store.Applied, _ op: SyncOp, _ summary: inout SyncSummary) {
        switch result {
        case .waiting: return
        case .superseded: summary.superseded += 1
        case .applied:
            summary.applied += 1
            switch op {
            case .habitCreate, .habitField, .schedule, .settingsVersion: summary.habitsChanged += 1
            case .entry: summary.entriesAdded += 1
            case .vacationAdd, .vacationRemove: summary.vacationsChanged += 1
            case .setting, .zoneChange: summary.settingsChanged += 1
            case .proof, .verdict: summary.proofsChanged += 1
            // Counted in ops_applied only (the summary struct has no shield or timer counter).
            case .shieldRule, .shieldVersion, .emergencyUnlock, .awardUnlock, .evidence, .branchMoved, .timerEvent: break
            case .creditAccount, .credit, .steps, .creditRule: summary.creditsChanged += 1
            }
        }
    }

    /// Applies every waiting op (zonesOnly: those that can wait for a time zone only)
    /// that can be now, oldest stamp first, until none can move; the rest wait for a
    /// later apply.
    private func materializePending(zonesOnly: Bool, _ summary: inout SyncSummary) throws(HabitError) {
        var pending = try store.pendingOps(zonesOnly: zonesOnly)
        while !pending.isEmpty {
            var waiting: [RawOp] = []
            for raw in pending {
                let op: SyncOp
                do throws(HabitError) {
                    op = try SyncOp.decode(kind: raw.kind, payload: raw.payload)
                } catch {
                    throw HabitError.corrupt("sync op \(raw.id.text) in the log: \(error.message)")
                }
                let result = try store.materialize(StampedOp(id: raw.id, hlc: raw.hlc, op: op))
                count(result, op, &summary)
                switch result {
                case .waiting: waiting.append(raw)
                case .applied(let local): try store.markApplied(raw.id, localId: local)
                case .superseded: try store.markApplied(raw.id, localId: nil)
                }
            }
            if waiting.count == pending.count { break }
            pending = waiting
        }
        summary.waiting = zonesOnly ? try store.waitingCount() : pending.count
    }

    /// Shield rules (each with its versions) and emergency unlocks, by global id.
    private func shieldCanonicalLines(_ habitIds: [Int64: GlobalId]) throws(HabitError) -> [String] {
        let q = SyncCanonical.quote
        var ruleIds: [Int64: GlobalId] = [:]
        var created: [Int64: Int64] = [:]
        for (rule, createdAtMs) in try store.shieldRuleCreations() {
            guard let id = try store.globalId(.shieldRule, rule) else { continue }
            ruleIds[rule] = id
            created[rule] = createdAtMs
        }
        var blocks: [(GlobalId, [String])] = []
        for rule in try store.shieldRules() {
            guard let id = ruleIds[rule.id] else { continue }
            var block = ["shield \(id.text) created=\(created[rule.id] ?? 0)"]
            for (day, settings) in rule.versions {
                guard let s = settings else { block.append("  version \(day) removed"); continue }
                let habits = s.habits.map { habitIds[$0]?.text ?? "?" }.joined(separator: ",")
                block.append(
                    "  version \(day) name=\(q(s.name)) key=\(q(s.key)) days=\(s.days.description)"
                        + " start=\(s.startMinute.map(String.init) ?? "-") end=\(s.endMinute.map(String.init) ?? "-") habits=\(habits) lift=\(s.lift.name)"
                        + " session=\(s.sessionLifts ? 1 : 0) cutoff=\(s.cutoffLifts ? 1 : 0) excused=\(s.excusedLifts ? 1 : 0) fail_closed=\(s.failClosed ? 1 : 0)"
                        + " budget=\(s.budgetCount)/\(s.budgetPeriod.name)")
            }
            blocks.append((id, block))
        }
        // A rule with no version yet (its versions still waiting) shows its creation only.
        for (rule, id) in ruleIds where !blocks.contains(where: { $0.0 == id }) { blocks.append((id, ["shield \(id.text) created=\(created[rule] ?? 0)"])) }
        var lines = blocks.sorted { $0.0 < $1.0 }.flatMap(\.1)
        var unlockLines: [(GlobalId, String)] = []
        for (unlock, day) in try store.allEmergencyUnlocks() {
            guard let id = try store.globalId(.emergency, unlock.id), let rule = ruleIds[unlock.ruleId] else { continue }
            unlockLines.append(
                (
                    id,
                    "emergency \(id.text) rule=\(rule.text) at=\(unlock.atMs) day=\(day) minutes=\(unlock.minutes)"
                        + " reason=\(unlock.reason.map(q) ?? "-")"
                ))
        }
        lines += unlockLines.sorted { $0.0 < $1.0 }.map(\.1)
        return lines
    }

    /// The credit part of the canonical text: per account (by name), its highest step
    /// total per day and its folded days (through today, expiries computed by the
    /// fold, so written expiry entries do not show), then every fact by global id.
    /// Earnings and expiries are derived, so only their sums show.
    private func canonicalCredits(_ habitIds: [Int64: GlobalId]) throws(HabitError) -> [String] {
        let today = try today()
        var lines: [String] = []
        var factLines: [(GlobalId, String)] = []
        for account in try store.creditAccounts().sorted(by: { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }) {
            let name = SyncCanonical.quote(account.name)
            lines.append("credit-account \(name)")
            for (day, steps) in try store.stepTotals(accountId: account.id, from: CivilDate.minDay, to: CivilDate.maxDay).sorted(by: { $0.key < $1.key }) {
                lines.append("  steps day=\(day) steps=\(steps)")
            }
            // The rules in force: per kind, habit and day, the one written last (a replica
            // may also hold rules a merged one superseded).
            var ruleLines: [String: String] = [:]
            for rule in try store.creditRules(accountId: account.id) {
                let habit = rule.habitId.map { habitIds[$0]?.text ?? "?" } ?? "-"
                ruleLines["\(rule.kind.rawValue) \(habit) \(rule.fromDay)"] =
                    "  credit-rule \(rule.kind.name) habit=\(habit) from=\(rule.fromDay) value=\(rule.value)"
            }
            lines += ruleLines.sorted { $0.key < $1.key }.map(\.value)
            let entries = try store.creditEntries(accountId: account.id)
            for d in try CreditFold.days(try creditEntriesCounted(accountId: account.id), rules: try rules(account.id), through: today, today: today) {
                lines.append(
                    "  credit-day \(d.day) in=\(d.carriedIn) earned=\(d.earned) spent=\(d.spent) adjusted=\(d.adjusted) refunded=\(d.refunded)"
                        + " expired=\(d.expired) available=\(d.available)")
            }
            for entry in entries where entry.isFact {
                guard let id = try store.globalId(.credit, entry.id) else { continue }
                factLines.append(
                    (
                        id,
                        "credit \(id.text) account=\(name) kind=\(entry.kind.name) minutes=\(entry.minutes) day=\(entry.day) at=\(entry.atMs)"
                            + " reason=\(entry.reason.map(SyncCanonical.quote) ?? "-")"
                    ))
            }
        }
        return lines + factLines.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Every award unlock record by global id, then the one that stands per award.
    private func canonicalAwards(_ habitIds: [Int64: GlobalId]) throws(HabitError) -> [String] {
        let rows = try store.allAwardUnlocks()
        var records: [(GlobalId, String)] = []
        for (unlock, id) in rows {
            guard let id else { continue }
            let rule = unlock.rule
            var scope = rule.scope.name
            if case .habit(let habit) = rule.scope { scope += ":" + (habitIds[habit]?.text ?? "?") }
            let cause: String
            switch unlock.causeKind {
            case .habitEntry: cause = try unlock.causeId.flatMap { (e) throws(HabitError) in try store.globalId(.entry, e) }?.text ?? "-"
            case .creditEntry: cause = try unlock.causeId.flatMap { (e) throws(HabitError) in try store.globalId(.credit, e) }?.text ?? "-"
            case .habitCreated: cause = unlock.causeId.flatMap { habitIds[$0]?.text } ?? "-"
            case .none, .referral: cause = "-"
            }
            records.append(
                (
                    id,
                    "award \(id.text) rule=\(SyncCanonical.quote(rule.id)) title=\(SyncCanonical.quote(rule.title)) tier=\(rule.tier)"
                        + " metric=\(rule.metric.name) scope=\(scope) threshold=\(rule.threshold) day=\(unlock.day) at=\(unlock.atMs)"
                        + " cause=\(unlock.causeKind.rawValue):\(cause) habit=\(unlock.causeHabitId.flatMap { habitIds[$0]?.text } ?? "-")"
                ))
        }
        var lines = records.sorted { $0.0 < $1.0 }.map(\.1)
        let ids = Dictionary(rows.compactMap { row in row.id.map { (row.unlock.id, $0) } }, uniquingKeysWith: { a, _ in a })
        for unlock in Store.standing(rows).sorted(by: { $0.rule.id < $1.rule.id }) {
            lines.append("award-standing \(SyncCanonical.quote(unlock.rule.id)) \(ids[unlock.id]?.text ?? "-")")
        }
        return lines
    }

    /// The synced part of the store as text that does not depend on local ids: records
    /// by global id, in global id order. Two replicas that have exchanged everything
    /// give the same bytes.
    package func syncCanonical() throws(HabitError) -> String {
        try store.snapshot { () throws(HabitError) in
            var lines = ["habitcore-sync-canonical 1"]
            for key in SyncOp.syncedSettings.sorted() {
                if let value = try store.setting(key) { lines.append("setting \(key) \(SyncCanonical.quote(value))") }
            }
            var habitIds: [Int64: GlobalId] = [:]
            var habitLines: [(GlobalId, [String])] = []
            let policies = try store.habitStreakPolicies()
            for habit in try store.habits(includeArchived: true) {
                guard let id = try store.globalId(.habit, habit.id) else { continue }
                habitIds[habit.id] = id
                let s = habit.spec
                let policy = policies[habit.id] ?? .none
                var block = [
                    "habit \(id.text) name=\(SyncCanonical.quote(s.name)) kind=\(s.kind.rawValue) target=\(s.target) direction=\(s.direction.rawValue)"
                        + " group=\(s.group.map(SyncCanonical.quote) ?? "-") unit=\(s.unit.map(SyncCanonical.quote) ?? "-") routine=\(s.routine.rawValue)"
                        + " proof=\(s.proofRequired ? 1 : 0) start=\(s.startDay) archived=\(habit.archivedDay.map(String.init) ?? "-") created=\(habit.createdAtMs)"
                        + " description=\(s.display.description.map(SyncCanonical.quote) ?? "-") question=\(s.display.question.map(SyncCanonical.quote) ?? "-")"
                        + " colour=\(s.display.colour ?? "-") icon=\(s.display.icon.map(SyncCanonical.quote) ?? "-") position=\(s.display.position)"
                        + " miss=\(policy.missAllowance.map(String.init) ?? "-") open_day=\(policy.openDay?.name ?? "-")"
                ]
                for v in habit.versions {
                    block.append(
                        "  settings \(v.fromDay) \(v.schedule.description) target=\(v.target) direction=\(v.direction.rawValue)"
                            + " proof=\(v.proofRequired ? 1 : 0) group=\(v.group.map(SyncCanonical.quote) ?? "-") archived=\(v.archived ? 1 : 0)")
                }
                habitLines.append((id, block))
            }
            for (_, block) in habitLines.sorted(by: { $0.0 < $1.0 }) { lines += block }
            let entries = try store.entries(habitId: nil, from: CivilDate.minDay, to: CivilDate.maxDay)
            let undone = Set(entries.compactMap(\.undoes))
            var entryLines: [(GlobalId, String)] = []
            for entry in entries where entry.kind != .undo {
                guard let id = try store.globalId(.entry, entry.id), let habit = habitIds[entry.habitId] else { continue }
                entryLines.append(
                    (
                        id,
                        "entry \(id.text) habit=\(habit.text) day=\(entry.day) kind=\(entry.kind.name) value=\(entry.value)"
                            + " at=\(entry.recordedAtMs) source=\(entry.source.name) note=\(entry.note.map(SyncCanonical.quote) ?? "-") undone=\(undone.contains(entry.id) ? 1 : 0)"
                    ))
            }
            lines += entryLines.sorted { $0.0 < $1.0 }.map(\.1)
            var vacationLines: [(GlobalId, String)] = []
            for vacation in try store.vacations() {
                guard let id = try store.globalId(.vacation, vacation.id) else { continue }
                let habit = vacation.habitId.flatMap { habitIds[$0]?.text } ?? "*"
                vacationLines.append((id, "vacation \(id.text) habit=\(habit) \(vacation.first)...\(vacation.last)"))
            }
            lines += vacationLines.sorted { $0.0 < $1.0 }.map(\.1)
            var proofIds: [Int64: GlobalId] = [:]
            var proofLines: [(GlobalId, String)] = []
            for proof in try store.syncedProofs() {
                guard let id = try store.globalId(.proof, proof.id), let habit = habitIds[proof.habitId] else { continue }
                proofIds[proof.id] = id
                proofLines.append(
                    (
                        id,
                        "proof \(id.text) habit=\(habit.text) day=\(proof.day) sha256=\(proof.sha256) size=\(proof.size)"
                            + " media=\(SyncCanonical.quote(proof.mediaType)) taken=\(proof.takenAtMs.map(String.init) ?? "-") received=\(proof.receivedAtMs)"
                            + " metadata=\(proof.metadata.map(SyncCanonical.quote) ?? "-")"
                    ))
            }
            lines += proofLines.sorted { $0.0 < $1.0 }.map(\.1)
            var verdictLines: [(GlobalId, String)] = []
            for (verdict, _) in try store.verdicts(habitId: nil, proofId: nil) {
                guard let id = try store.globalId(.verdict, verdict.id), let proof = proofIds[verdict.proofId] else { continue }
                let entry = try verdict.entryId.flatMap { (local) throws(HabitError) in try store.globalId(.entry, local) }
                verdictLines.append(
                    (
                        id,
                        "verdict \(id.text) proof=\(proof.text) stage=\(verdict.stage.rawValue) verifier=\(SyncCanonical.quote(verdict.verifierId))"
                            + " version=\(SyncCanonical.quote(verdict.verifierVersion)) outcome=\(verdict.outcome.rawValue) confidence=\(verdict.confidence)"
                            + " reason=\(verdict.reasonCode) message=\(SyncCanonical.quote(verdict.message)) signals=\(verdict.signals.joined(separator: ","))"
                            + " us=\(verdict.durationUs) at=\(verdict.atMs) reviewer=\(verdict.reviewer.map(SyncCanonical.quote) ?? "-") entry=\(entry?.text ?? "-")"
                    ))
            }
            lines += verdictLines.sorted { $0.0 < $1.0 }.map(\.1)
            lines += try shieldCanonicalLines(habitIds)
            lines += try canonicalCredits(habitIds)
            lines += try canonicalAwards(habitIds)
            for change in try store.zoneChangeRows() {
                guard let id = try store.globalId(.zoneChange, change.id) else { continue }
                lines.append("zone-change \(id.text) at=\(change.atMs) from=\(SyncCanonical.quote(change.from)) to=\(SyncCanonical.quote(change.to))")
            }
            lines += try timerCanonicalLines(habitIds)
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
