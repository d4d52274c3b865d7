import CHabitCore

/// What applying a changeset did (hc_sync_summary).
public struct SyncSummary: Sendable, Hashable {
    /// Ops in the changeset.
    public var opsReceived: Int64
    /// Of those, not held before (the rest were duplicates).
    public var opsNew: Int64
    /// Ops that changed records (new ones, or earlier ones that waited).
    public var opsApplied: Int64
    /// Ops kept in the log that changed nothing: an older value, a second undo.
    public var opsSuperseded: Int64
    /// Ops still waiting for a record they name.
    public var opsWaiting: Int64
    /// Applied habit creations, field changes and schedules.
    public var habitsChanged: Int64
    /// Applied ledger entries.
    public var entriesAdded: Int64
    /// Applied vacation additions and removals.
    public var vacationsChanged: Int64
    /// Applied settings and zone changes.
    public var settingsChanged: Int64
    /// Applied proofs and verdicts.
    public var proofsChanged: Int64
    /// Applied credit accounts, spends, adjustments, refunds, step reports and rules.
    public var creditsChanged: Int64
    /// Ops of a forked replica's moving branch, taken under their moved ids (the
    /// header's "Forks").
    public var opsForked: Int64

    init(_ s: hc_sync_summary) {
        opsReceived = s.ops_received
        opsNew = s.ops_new
        opsApplied = s.ops_applied
        opsSuperseded = s.ops_superseded
        opsWaiting = s.ops_waiting
        habitsChanged = s.habits_changed
        entriesAdded = s.entries_added
        vacationsChanged = s.vacations_changed
        settingsChanged = s.settings_changed
        proofsChanged = s.proofs_changed
        creditsChanged = s.credits_changed
        opsForked = s.ops_forked
    }
}

/// A replica a sync state names, and the highest sequence number up to which the
/// store that made the state holds every op of it.
public struct SyncStateReplica: Equatable, Sendable {
    public var replica: [UInt8]
    public var seen: Int64
    public init(replica: [UInt8], seen: Int64) {
        self.replica = replica
        self.seen = seen
    }

    /// The replicas a sync state (Store.syncState's bytes) names, in ascending id order
    /// (hc_sync_state_replicas). Throws .invalid for bytes that are not a sync state.
    public static func all(in state: [UInt8]) throws(HabitError) -> [SyncStateReplica] {
        var count: Int64 = 0
        try check(hc_sync_state_replicas(nil, nil, 0, &count, state, Int64(state.count)))
        guard count > 0, let capacity = Int(exactly: count) else { return [] }
        var ids = [UInt8](repeating: 0, count: capacity * 16)
        var seqs = [Int64](repeating: 0, count: capacity)
        try check(hc_sync_state_replicas(&ids, &seqs, count, &count, state, Int64(state.count)))
        return (0..<min(capacity, Int(clamping: count))).map { SyncStateReplica(replica: Array(ids[$0 * 16..<$0 * 16 + 16]), seen: seqs[$0]) }
    }
}

extension Store {
    /// The store's 16-byte replica id (hc_sync_replica).
    public func syncReplica() throws(HabitError) -> [UInt8] {
        try withHandle { store throws(HabitError) in
            try buffered(UInt8(0)) { out, capacity, total in hc_sync_replica(out, capacity, total, store) }
        }
    }

    /// What this store has seen, as a version vector in bytes (docs/FORMATS.md,
    /// "Sync"), for a peer's syncChanges (hc_sync_state).
    public func syncState() throws(HabitError) -> [UInt8] {
        try withHandle { store throws(HabitError) in
            try buffered(UInt8(0)) { out, capacity, total in hc_sync_state(out, capacity, total, store) }
        }
    }

    /// The largest changeset hc_sync_apply takes (the header's 256 MiB): a caller reading
    /// one from a file or a pipe stops there.
    public static let changesetLimit = 256 << 20

    /// Every op this store holds that a peer in peerState (its syncState; empty: a
    /// peer that has nothing) lacks, as one changeset (hc_sync_changes, or
    /// hc_sync_changes_v2 with options). Throws .invalid (bad peer state or unknown
    /// options), .noMemory (a changeset past 256 MiB).
    public func syncChanges(since peerState: [UInt8] = [], options: SyncChangesOptions = []) throws(HabitError) -> [UInt8] {
        try withHandle { store throws(HabitError) in
            var out: UnsafeMutablePointer<UInt8>?
            var size: Int64 = 0
            defer { hc_free(out) }
            try peerState.withUnsafeBufferPointer { (peer) throws(HabitError) in
                let count = Int64(peer.count)
                if options.isEmpty {
                    try check(hc_sync_changes(&out, &size, store, peer.baseAddress, count))
                } else {
                    try check(hc_sync_changes_v2(&out, &size, store, peer.baseAddress, count, options.rawValue))
                }
            }
            guard let out else { return [] }
            guard let length = Int(exactly: size), length >= 0 else {
                throw HabitError(code: .internal, message: "the library reported a changeset of \(size) bytes")
            }
            return Array(UnsafeBufferPointer(start: out, count: length))
        }
    }

    /// Applies a changeset from any replica's syncChanges, by the header's merge rules,
    /// in one transaction (hc_sync_apply). Throws .invalid for a damaged or hostile
    /// changeset (nothing written), .readOnly.
    @discardableResult
    public func applySync(_ changes: [UInt8]) throws(HabitError) -> SyncSummary {
        try withHandle { store throws(HabitError) in
            var summary = hc_sync_summary()
            try check(hc_sync_summary_init(&summary, UInt32(MemoryLayout<hc_sync_summary>.size)))
            try changes.withUnsafeBufferPointer { (bytes) throws(HabitError) in
                try check(hc_sync_apply(&summary, store, bytes.baseAddress, Int64(bytes.count)))
            }
            return SyncSummary(summary)
        }
    }

    /// The synced records as text that does not depend on local ids: two replicas
    /// that exchanged everything give the same text (hc_sync_canonical).
    public func syncCanonical() throws(HabitError) -> String {
        try withHandle { store throws(HabitError) in
            var text: UnsafeMutablePointer<CChar>?
            try check(hc_sync_canonical(&text, store))
            defer { hc_free(text) }
            return text.map { String(cString: $0) } ?? ""
        }
    }
}
