/// When two stores write as one replica, that replica's history forks: a store
/// restored from an older copy of its file writes new ops under numbers its peers
/// already hold for other ops, and a file copied to a second device writes on both.
/// The rule, the same on every store (and the hub), so every store that holds an op
/// of a losing branch gives it the same new id, whatever order it meets the branches
/// in, and nothing is lost or doubled:
///  - two histories of a replica fork at the first sequence number d where they hold
///    different ops;
///  - of the two ops there, the later one (SyncFork.isLater: the higher clock stamp,
///    then the kind, then the payload bytes) starts the branch that moves;
///  - every op of the moving branch from d on moves on its own: it becomes op 1 of a
///    replica derived from the replica and the op itself (SyncFork.moved), its
///    payload as it was; an op moved in any order of meetings gets that one id.
///    When the replica is a store's own, the replica of its first moved op becomes
///    its own: it writes on from there;
///  - a store takes a received op of a moving branch under its moved id, and a
///    store told of a move (a changeset carries every move its store knows of)
///    moves its own copy of that op when the op derives that id;
///  - an op names each record with the stamp of the op that made it (Store.heldRecord
///    finds a record named by its old id under its moved one).
/// A store that went back without writing anything since takes back the ops it lost
/// as those of any replica, and writes on after them.
package enum SyncFork {
    /// Of two different ops under one global id, whether a starts the branch that moves.
    package static func isLater(_ a: RawOp, than b: RawOp) -> Bool {
        if a.hlc != b.hlc { return a.hlc > b.hlc }
        if a.kind != b.kind { return a.kind > b.kind }
        return b.payload.lexicographicallyPrecedes(a.payload)
    }

    /// One op's share of its replica's prefix digest: the first 8 bytes of the SHA-256
    /// of its number, stamp, kind and payload. A replica's digest through number n is
    /// the wrapping sum of the shares of its ops 1...n as a store holds them: equal
    /// digests at n mean the same ops up to n, whichever writers they came from (a
    /// store may hold a replica's numbers from different branches of a fork), so a
    /// sync state's ladder of digests (VersionVector) finds where two stores' histories
    /// part even below a number where both hold the same op. The hub computes the same
    /// share in SQL (HubSchema's habitcore.op_share).
    package static func prefixShare(_ op: RawOp) -> UInt64 {
        var bytes = [UInt8](repeating: 0, count: 17)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: UInt64(bitPattern: op.id.seq) >> UInt64(56 - 8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: UInt64(bitPattern: op.hlc) >> UInt64(56 - 8 * i))
        }
        bytes[16] = op.kind
        bytes += op.payload
        return SHA256.digest(bytes).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Where an op of a moving branch goes: op 1 of a replica derived from its id and
    /// itself, so every store holding it derives the same one.
    package static func moved(_ op: RawOp) -> Move {
        var w = SyncWriter()
        w.raw(Array("habitcore-fork".utf8))
        w.raw(op.id.replica)
        w.uvarint(UInt64(bitPattern: op.id.seq))
        w.uvarint(UInt64(bitPattern: op.hlc))
        w.byte(op.kind)
        w.raw(op.payload)
        return Move(replica: op.id.replica, from: op.id.seq, to: Array(digest(w.bytes).prefix(GlobalId.replicaBytes)))
    }

    /// One moved op: (replica, from) became (to, 1).
    package struct Move: Equatable, Sendable {
        package let replica: [UInt8]
        package let from: Int64
        package let to: [UInt8]

        package init(replica: [UInt8], from: Int64, to: [UInt8]) {
            self.replica = replica
            self.from = from
            self.to = to
        }

        package func moves(_ id: GlobalId) -> Bool { id.seq == from && id.replica == replica }

        package func renamed(_ id: GlobalId) -> GlobalId {
            moves(id) ? GlobalId(replica: to, seq: 1, stamp: id.stamp) : id
        }

        /// The op under its new id (its payload as it was: what it names, it names by
        /// global id and stamp).
        package func renamed(_ op: RawOp) -> RawOp { RawOp(id: renamed(op.id), hlc: op.hlc, kind: op.kind, payload: op.payload) }

        /// A register's target (its parts are separated by ':' and name records by
        /// their global id text), with the moved id renamed.
        package func renamed(target: String) -> String {
            // Split on the byte ':' (a name in a target may hold any text: a split by
            // characters would join a ':' to a combining mark after it).
            let old = Array(GlobalId(replica: replica, seq: from).text.utf8), new = Array(GlobalId(replica: to, seq: 1).text.utf8)
            let parts = target.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { Array($0) == old ? new : Array($0) }
            return String(decoding: Array(parts.joined(separator: [UInt8(ascii: ":")])), as: UTF8.self)
        }
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8] { SHA256.digest(bytes) }
}

/// What a sync state says at a number of a replica's ladder: the clock stamp of the op
/// there and the replica's prefix digest through it (SyncFork.prefixShare).
package struct OpStamp: Equatable, Sendable {
    package var hlc: Int64
    package var digest: UInt64
    package init(hlc: Int64, digest: UInt64) {
        self.hlc = hlc
        self.digest = digest
    }
}
