/// When two stores write as one replica, that replica's history forks: a store
/// restored from an older copy of its file writes new ops under numbers its peers
/// already hold for other ops, and a file copied to a second device writes on both.
/// The rule, the same on every store (and the hub), so every store that holds a
/// branch renames it the same way and nothing is lost or doubled:
///  - two histories of a replica fork at the first sequence number d where they hold
///    different ops;
///  - of the two ops at d, the later one (SyncFork.isLater: the higher clock stamp,
///    then the kind, then the payload bytes) starts the branch that moves;
///  - a store holding the moving branch renames it: every op of that replica from d
///    on becomes op (seq - d + 1) of a new replica whose id is derived from the
///    replica and the op at d (SyncFork.movedReplica), with the ids its payload
///    names renamed the same way. When the replica is the store's own, the new one
///    becomes its own: it writes on from there;
///  - a store that receives the moving branch while holding the other takes those ops
///    renamed the same way (hc_sync_summary.ops_forked);
///  - an op names each record with the stamp of the op that made it, and stores keep
///    and pass on the moves they know of (Store.heldRecord), so a record named by its
///    old id is found under its new one.
/// A store that went back without writing anything since takes back the ops it lost
/// as those of any replica, and writes on after them.
package enum SyncFork {
    /// Of two different ops under one global id, whether a starts the branch that moves.
    package static func isLater(_ a: RawOp, than b: RawOp) -> Bool {
        if a.hlc != b.hlc { return a.hlc > b.hlc }
        if a.kind != b.kind { return a.kind > b.kind }
        return b.payload.lexicographicallyPrecedes(a.payload)
    }

    /// What a sync state says of the op at a replica's seen number: its stamp and a
    /// hash of its kind and payload, enough to tell two different ops apart.
    package static func stamp(_ op: RawOp) -> OpStamp {
        let digest = digest([op.kind] + op.payload)
        return OpStamp(hlc: op.hlc, fingerprint: digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// The replica a branch moves to: derived from the replica and the op that starts
    /// the branch, so every store holding that branch derives the same id.
    package static func movedReplica(of replica: [UInt8], firstMoved op: RawOp) -> [UInt8] {
        var w = SyncWriter()
        w.raw(Array("habitcore-fork".utf8))
        w.raw(replica)
        w.uvarint(UInt64(bitPattern: op.id.seq))
        w.uvarint(UInt64(bitPattern: op.hlc))
        w.byte(op.kind)
        w.raw(op.payload)
        return Array(digest(w.bytes).prefix(GlobalId.replicaBytes))
    }

    /// The ids of a moving branch: (replica, seq >= from) becomes (to, seq - from + 1).
    package struct Move: Sendable {
        package let replica: [UInt8]
        package let from: Int64
        package let to: [UInt8]

        package init(replica: [UInt8], from: Int64, to: [UInt8]) {
            self.replica = replica
            self.from = from
            self.to = to
        }

        package func moves(_ id: GlobalId) -> Bool { id.replica == replica && id.seq >= from }

        package func renamed(_ id: GlobalId) -> GlobalId {
            moves(id) ? GlobalId(replica: to, seq: id.seq - from + 1, stamp: id.stamp) : id
        }

        /// An op of the branch under its new id, naming the branch's records by theirs.
        package func renamed(_ op: RawOp) throws(HabitError) -> RawOp {
            let decoded = try SyncOp.decode(kind: op.kind, payload: op.payload)
            return RawOp(id: renamed(op.id), hlc: op.hlc, kind: op.kind, payload: decoded.mappingIds(renamed).encodePayload())
        }

        /// A register's target (its parts are separated by ':' and name records by
        /// their global id text), with the branch's ids renamed.
        package func renamed(target: String) -> String {
            // Split on the byte ':' (a name in a target may hold any text: a split by
            // characters would join a ':' to a combining mark after it).
            let prefix = Array((SyncHex.encode(replica) + "-").utf8)
            let parts = target.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { part -> [UInt8] in
                guard part.starts(with: prefix), let seq = Int64(String(decoding: part.dropFirst(prefix.count), as: UTF8.self)) else { return Array(part) }
                return Array(renamed(GlobalId(replica: replica, seq: seq)).text.utf8)
            }
            return String(decoding: Array(parts.joined(separator: [UInt8(ascii: ":")])), as: UTF8.self)
        }
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8] { SyncHex.decode(SHA256.hex(bytes)) ?? [] }
}

/// The op a sync state names at a replica's seen number, as SyncFork.stamp gives it.
package struct OpStamp: Equatable, Sendable {
    package var hlc: Int64
    package var fingerprint: UInt64
    package init(hlc: Int64, fingerprint: UInt64) {
        self.hlc = hlc
        self.fingerprint = fingerprint
    }
}
