/// One op as it travels: who wrote it, its number on that replica, its clock stamp.
package struct StampedOp: Equatable, Sendable {
    package var id: GlobalId
    package var hlc: Int64
    package var op: SyncOp
    package init(id: GlobalId, hlc: Int64, op: SyncOp) {
        self.id = id
        self.hlc = hlc
        self.op = op
    }
}

/// The changeset format (docs/FORMATS.md, "Sync changesets"): "HCSY", a format version,
/// the replicas it names, the ops, a CRC-32 of everything before it. Every length is
/// bounded and checked before it is trusted; decoding the whole buffer comes before
/// any write, and an error names the record at fault.
package enum Changeset {
    package static let magic: [UInt8] = Array("HCSY".utf8)
    package static let version: UInt8 = 1
    /// Larger buffers are refused before they are read.
    package static let maxBytes = 256 << 20
    package static let maxOps = 10_000_000
    package static let maxReplicas = 65_536
    package static let maxPayload = 65_536
    /// A store keeps at most this many received ops waiting (for a record they name, a
    /// time zone): past it, an apply leaves further waiting ops out of the log (they are
    /// not held, so peers send them again) and applies the rest.
    package static let maxWaiting = 1_000_000
    /// An evidence record's: the bytes of one proof, its sha256 and their length.
    package static let maxEvidencePayload = Evidence.maxBytes + 80

    package static func encode(_ ops: [StampedOp]) -> [UInt8] {
        encode(raw: ops.map { RawOp(id: $0.id, hlc: $0.hlc, kind: $0.op.kind.rawValue, payload: $0.op.encodePayload()) })
    }

    package static func encode(raw ops: [RawOp]) -> [UInt8] {
        let replicas = Array(Set(ops.map(\.id.replica))).sorted { $0.lexicographicallyPrecedes($1) }
        var index: [[UInt8]: Int] = [:]
        for (i, r) in replicas.enumerated() { index[r] = i }
        var w = SyncWriter()
        w.raw(magic)
        w.byte(version)
        w.byte(0)
        w.uvarint(UInt64(replicas.count))
        for r in replicas { w.raw(r) }
        w.uvarint(UInt64(ops.count))
        for stamped in ops {
            w.uvarint(UInt64(index[stamped.id.replica] ?? 0))
            w.uvarint(UInt64(bitPattern: stamped.id.seq))
            w.uvarint(UInt64(bitPattern: stamped.hlc))
            w.byte(stamped.kind)
            w.uvarint(UInt64(stamped.payload.count))
            w.raw(stamped.payload)
        }
        w.uint32(CRC32.checksum(w.bytes))
        return w.bytes
    }

    /// A changeset's records as they travel, each validated as decode does, without
    /// applying anything: what a hub stores, one row a record.
    package static func decodeRaw(_ bytes: [UInt8]) throws(HabitError) -> [RawOp] {
        try decode(bytes).map(\.raw)
    }

    /// Every op of a changeset, validated; HC_E_INVALID naming the record (or the
    /// header) at fault.
    package static func decode(_ bytes: [UInt8]) throws(HabitError) -> [(op: StampedOp, raw: RawOp)] {
        guard bytes.count <= maxBytes else { throw .invalid("changeset: \(bytes.count) bytes is above the limit of \(maxBytes)") }
        guard bytes.count >= 4 + 2 + 1 + 1 + 4 else { throw .invalid("changeset: truncated (\(bytes.count) bytes)") }
        guard Array(bytes.prefix(4)) == magic else { throw .invalid("changeset: not a habitcore changeset (bad magic)") }
        let body = bytes.count - 4
        var check = SyncReader(bytes, from: body)
        let stored = try check.uint32()
        guard CRC32.checksum(bytes, count: body) == stored else { throw .invalid("changeset: checksum mismatch (damaged or truncated)") }
        var r = SyncReader(bytes, from: 4, to: body)
        do throws(HabitError) {
            let v = try r.byte()
            guard v == version else { throw .invalid("format version \(v) is not \(version); upgrade habitcore to read it") }
            guard try r.byte() == 0 else { throw .invalid("unknown flags") }
            let replicaCount = try r.count(limit: maxReplicas, "replica count")
            var replicas: [[UInt8]] = []
            for _ in 0..<replicaCount {
                let replica = try r.raw(GlobalId.replicaBytes)
                if let previous = replicas.last, !previous.lexicographicallyPrecedes(replica) { throw .invalid("replicas are not in ascending order") }
                replicas.append(replica)
            }
            let opCount = try r.count(limit: maxOps, "op count")
            // Each op takes at least 5 bytes: refuse counts the buffer cannot hold before reserving.
            guard opCount <= r.remaining / 5 else { throw .invalid("op count \(opCount) does not fit in the buffer") }
            var ops: [(op: StampedOp, raw: RawOp)] = []
            ops.reserveCapacity(opCount)
            for number in 0..<opCount {
                do throws(HabitError) {
                    let replicaIndex = try r.count(limit: replicas.count - 1, "replica index")
                    let seq = try r.uvarint()
                    guard seq >= 1, seq <= UInt64(Int64.max) else { throw .invalid("sequence number \(seq) out of range") }
                    let hlc = try r.uvarint()
                    guard hlc <= UInt64(HybridClock.max) else { throw .invalid("clock stamp out of range") }
                    let kind = try r.byte()
                    let length = try r.count(limit: kind == SyncOp.Kind.evidence.rawValue ? maxEvidencePayload : maxPayload, "payload length")
                    let payload = try r.raw(length)
                    let id = GlobalId(replica: replicas[replicaIndex], seq: Int64(seq))
                    do throws(HabitError) {
                        let op = StampedOp(id: id, hlc: Int64(hlc), op: try SyncOp.decode(kind: kind, payload: payload))
                        ops.append((op, RawOp(id: id, hlc: Int64(hlc), kind: kind, payload: payload)))
                    } catch {
                        throw error.prefixed(id.text)
                    }
                } catch {
                    throw error.prefixed("record \(number + 1)")
                }
            }
            guard r.atEnd else { throw .invalid("\(r.remaining) bytes after the last record") }
            return ops
        } catch {
            throw error.prefixed("changeset")
        }
    }
}

/// What a store has seen: per replica, the highest sequence number below which it
/// has every op of that replica, and the stamps of the ops at a ladder of numbers up
/// to it (VersionVector.ladder), so a peer finds the last number where it holds the
/// same ops, and a peer holding different ones sees that the replica's history forked
/// (SyncFork). Sent to a peer, which answers with what lies above.
package struct VersionVector: Equatable, Sendable {
    package var seen: [[UInt8]: Int64] = [:]
    /// Per replica, the stamps of the ops at VersionVector.ladder(seen), in its order
    /// (empty or absent: not said, as in a version 1 state or a hub's).
    package var stamps: [[UInt8]: [OpStamp]] = [:]
    package init(_ seen: [[UInt8]: Int64] = [:], stamps: [[UInt8]: [OpStamp]] = [:]) {
        self.seen = seen
        self.stamps = stamps
    }

    package static let magic: [UInt8] = Array("HCSV".utf8)
    /// 2: each replica's entry carries its ladder of stamps; version 1 states are still read.
    package static let version: UInt8 = 2

    /// The numbers a state gives stamps at: seen, then 1, 2, 4, 8 ... below it, down to
    /// 1. A peer that holds the replica up to m finds the highest of them it shares in a
    /// few lookups; what it then sends beyond that is at most about what it lags by.
    package static func ladder(_ seen: Int64) -> [Int64] {
        guard seen > 0 else { return [] }
        var points = [seen]
        var step: Int64 = 1
        while step < seen {
            points.append(seen - step)
            guard step <= Int64.max / 2 else { break }
            step *= 2
        }
        return points
    }

    /// The highest ladder number up to which a holder of the replica holds the ops this
    /// state's stamps name (0: none): what the two hold alike ends there, and a fork,
    /// if any, lies above it (SyncFork). held: the holder's stamp and prefix digest at a
    /// number, if it holds every op up to it.
    package func sharedPrefix<E: Error>(of replica: [UInt8], held: (Int64) throws(E) -> OpStamp?) throws(E) -> Int64 {
        let seen = seen[replica] ?? 0
        guard seen > 0, let ladder = stamps[replica] else { return seen }
        for (point, stamp) in zip(Self.ladder(seen), ladder) where try held(point) == stamp { return point }
        return 0
    }

    /// The replicas this state names with how far each is held, in ascending id order
    /// (the order its bytes list them in).
    package var replicas: [(replica: [UInt8], seen: Int64)] {
        seen.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.key, $0.value) }
    }

    package func encode() -> [UInt8] {
        var w = SyncWriter()
        w.raw(Self.magic)
        w.byte(Self.version)
        let sorted = replicas
        w.uvarint(UInt64(sorted.count))
        for (replica, seen) in sorted {
            w.raw(replica)
            w.uvarint(UInt64(bitPattern: seen))
            let ladder = stamps[replica] ?? []
            w.uvarint(UInt64(ladder.count))
            for stamp in ladder {
                w.uvarint(UInt64(bitPattern: stamp.hlc))
                w.uvarint(stamp.digest)
            }
        }
        w.uint32(CRC32.checksum(w.bytes))
        return w.bytes
    }

    /// An empty buffer is the state of a store that has seen nothing.
    package static func decode(_ bytes: [UInt8]) throws(HabitError) -> VersionVector {
        if bytes.isEmpty { return VersionVector() }
        guard bytes.count >= 10, bytes.count <= 64 + Changeset.maxReplicas * 1_400 else { throw .invalid("sync state: bad length \(bytes.count)") }
        guard Array(bytes.prefix(4)) == magic else { throw .invalid("sync state: not a habitcore sync state (bad magic)") }
        var check = SyncReader(bytes, from: bytes.count - 4)
        guard CRC32.checksum(bytes, count: bytes.count - 4) == (try check.uint32()) else { throw .invalid("sync state: checksum mismatch") }
        var r = SyncReader(bytes, from: 4, to: bytes.count - 4)
        let version = try r.byte()
        guard version == 1 || version == Self.version else { throw .invalid("sync state: unknown format version \(version); upgrade habitcore to read it") }
        let count = try r.count(limit: Changeset.maxReplicas, "sync state: replica count")
        var vector = VersionVector()
        for _ in 0..<count {
            let replica = try r.raw(GlobalId.replicaBytes)
            let seq = try r.uvarint()
            guard seq <= UInt64(Int64.max), vector.seen[replica] == nil else { throw .invalid("sync state: bad entry") }
            vector.seen[replica] = Int64(seq)
            guard version >= 2 else { continue }
            let points = ladder(Int64(seq)).count
            let given = try r.count(limit: points, "sync state: stamp count")
            guard given == 0 || given == points else { throw .invalid("sync state: \(given) stamps where \(points) are due") }
            var ladder: [OpStamp] = []
            for _ in 0..<given {
                let hlc = try r.uvarint()
                guard hlc <= UInt64(HybridClock.max) else { throw .invalid("sync state: clock stamp out of range") }
                ladder.append(OpStamp(hlc: Int64(hlc), digest: try r.uvarint()))
            }
            if !ladder.isEmpty { vector.stamps[replica] = ladder }
        }
        guard r.atEnd else { throw .invalid("sync state: bytes left over") }
        return vector
    }
}

/// The merge rules, one pure function each (the header states them for callers).
package enum SyncMerge {
    /// Last writer wins: the higher clock stamp; on a tie, the higher replica id.
    /// Every replica compares the same two stamps the same way, so all pick one winner.
    package static func wins(hlc: Int64, replica: [UInt8], over current: (hlc: Int64, replica: [UInt8])?) -> Bool {
        guard let current else { return true }
        if hlc != current.hlc { return hlc > current.hlc }
        return current.replica.lexicographicallyPrecedes(replica)
    }

    /// Of two unlocks of one award (recorded on two devices), whether the first stands
    /// over the second: the earlier crossing day, then the smaller global id (an
    /// unlock without one, from before an older store's backfill, loses ties).
    package static func standsOver(day: Int32, id: GlobalId?, over held: (day: Int32, id: GlobalId?)) -> Bool {
        if day != held.day { return day < held.day }
        guard let id else { return false }
        guard let heldId = held.id else { return true }
        return id < heldId
    }

    /// The register a credit rule writes: one per account (its name without ASCII
    /// case, as accounts are matched), kind, habit and effective day.
    package static func creditRuleTarget(account: String, kind: Int32, habit: GlobalId?, fromDay: Int32) -> String {
        let folded = String(decoding: account.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        return "c:\(kind):\(habit?.text ?? "-"):\(fromDay):\(folded)"
    }

    /// A version vector's entry: the highest n such that 1...n are all present.
    package static func contiguousPrefix(_ sortedSeqs: [Int64]) -> Int64 {
        var expected: Int64 = 1
        for seq in sortedSeqs {
            if seq == expected { expected += 1 } else if seq > expected { break }
        }
        return expected - 1
    }

    /// The name a merged habit shows when another active habit holds its name
    /// (two devices created "Run" offline): its own, marked with its identity, so
    /// no record is dropped and a person can rename one.
    /// full: the whole replica id, for the rare mark two ids share.
    package static func displacedName(_ name: String, id: GlobalId, full: Bool = false) -> String {
        let mark = " (\(SyncHex.encode(full ? id.replica : Array(id.replica.prefix(3))))-\(id.seq))"
        return String(decoding: TextRules.utf8Prefix(name, maxBytes: HabitName.maxBytes - mark.utf8.count), as: UTF8.self) + mark
    }
}

/// The canonical text's quoting: a JSON string (the one writer of those), so any text
/// stays on one line.
package enum SyncCanonical {
    package static func quote(_ text: String) -> String { JSON.string(text).text }
}

/// An op as the log stores it: its payload bytes as they travel.
package struct RawOp: Equatable, Sendable {
    package var id: GlobalId
    package var hlc: Int64
    package var kind: UInt8
    package var payload: [UInt8]
    package init(id: GlobalId, hlc: Int64, kind: UInt8, payload: [UInt8]) {
        self.id = id
        self.hlc = hlc
        self.kind = kind
        self.payload = payload
    }
}
