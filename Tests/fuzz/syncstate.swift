// libFuzzer target: sync states (raw, and built from the input so every ladder length
// and stamp is reached) and the fork rule's renaming of ops and register targets.
import HabitCore

/// Reads the input front to back; past its end, zeros.
struct Bytes {
    var data: [UInt8]
    var at = 0
    mutating func byte() -> UInt8 { defer { at += 1 }; return at < data.count ? data[at] : 0 }
    mutating func uint64() -> UInt64 { (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) } }
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in byte() } }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let raw = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // Raw: whatever decodes encodes back to itself.
    if let state = try? VersionVector.decode(raw), (try? VersionVector.decode(state.encode())) != state {
        fatalError("VersionVector.encode wrote what decode reads differently")
    }
    var input = Bytes(data: raw)
    // Built: a state with each replica's whole ladder reads back as written.
    var vector = VersionVector()
    for _ in 0..<Int(input.byte() % 5) {
        let replica = input.bytes(GlobalId.replicaBytes)
        let seen = Int64(bitPattern: input.uint64() & UInt64(Int64.max)) >> Int64(input.byte() % 64)
        vector.seen[replica] = seen
        // (A replica drawn twice keeps its last draw, ladder included.)
        vector.stamps[replica] =
            input.byte() % 2 == 0
            ? VersionVector.ladder(seen).map { _ in
                OpStamp(hlc: Int64(bitPattern: input.uint64()) & HybridClock.max, digest: input.uint64())
            } : nil
    }
    guard (try? VersionVector.decode(vector.encode())) == vector.filteringEmptyLadders() else { fatalError("a built state did not read back") }
    // The fork rule: an op's ids renamed, encoded and read again are the renamed op;
    // a register target's text renamed names the renamed ids.
    let replica = input.bytes(GlobalId.replicaBytes)
    let from = Int64(input.byte()) + 1
    let move = SyncFork.Move(replica: replica, from: from, to: input.bytes(GlobalId.replicaBytes))
    let kind = input.byte()
    let payload = Array(raw[min(input.at, raw.count)...])
    if let op = try? SyncOp.decode(kind: kind, payload: payload) {
        let renamed = op.mappingIds(move.renamed)
        guard (try? SyncOp.decode(kind: kind, payload: renamed.encodePayload())) == renamed else { fatalError("a renamed op did not read back") }
        let stamped = RawOp(id: GlobalId(replica: replica, seq: from), hlc: 1, kind: kind, payload: payload)
        guard let moved = try? move.renamed(stamped), moved.id == GlobalId(replica: move.to, seq: 1) else {
            fatalError("the branch's first op did not move to 1")
        }
    }
    let text = String(decoding: payload.prefix(64), as: UTF8.self)
    // A target that names no id is left as it is, byte for byte.
    if !text.utf8.contains(UInt8(ascii: "-")), Array(move.renamed(target: text).utf8) != Array(text.utf8) { fatalError("a target without ids changed") }
    let target = text + ":" + GlobalId(replica: replica, seq: from).text
    // Compared as bytes: a character before the ':' may join it (a prepended mark).
    guard Array(move.renamed(target: target).utf8).reversed().starts(with: Array((":" + GlobalId(replica: move.to, seq: 1).text).utf8).reversed()) else {
        fatalError("a target's id was not renamed")
    }
    return 0
}

extension VersionVector {
    /// As a state reads back: an empty ladder is one not given.
    func filteringEmptyLadders() -> VersionVector {
        var copy = self
        copy.stamps = stamps.filter { !$0.value.isEmpty }
        return copy
    }
}
