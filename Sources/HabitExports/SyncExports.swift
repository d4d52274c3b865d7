import CHabitCore
import HabitCore
import HabitEngine
import HabitPlatform

// Sync: translate bytes and the summary struct; the engine and the domain decide.

/// A caller's byte input: NULL only with size 0, size within the changeset limit.
private func bytes(_ pointer: UnsafePointer<UInt8>?, _ size: Int64, _ name: String) throws(HabitError) -> [UInt8] {
    guard size >= 0 else { throw .invalid("\(name) size \(size) is negative") }
    guard size > 0 else { return [] }
    guard let pointer else { throw .invalid("\(name) is NULL with size \(size)") }
    guard size <= Int64(Changeset.maxBytes) else { throw .invalid("\(name): \(size) bytes is above the limit of \(Changeset.maxBytes)") }
    return Array(UnsafeBufferPointer(start: pointer, count: Int(size)))
}

private func copyBytes(_ value: [UInt8], _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) throws(HabitError) {
    let count = try Convert.out(count, "out_count")
    let buffer = try Convert.array(out, capacity, "out")
    Convert.copy(value, into: buffer, count: count) { $0 }
}

@c @implementation
public func hc_sync_replica(
    _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try copyBytes(try engine.syncReplica(), out, capacity, out_count)
    }
}

@c @implementation
public func hc_sync_state(
    _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try copyBytes(try engine.syncState(), out, capacity, out_count)
    }
}

@c @implementation
public func hc_sync_state_replicas(
    _ out_replicas: UnsafeMutablePointer<UInt8>?, _ out_seqs: UnsafeMutablePointer<Int64>?, _ capacity: Int64,
    _ out_count: UnsafeMutablePointer<Int64>?, _ state: UnsafePointer<UInt8>?, _ state_size: Int64
) -> Int32 {
    call { () throws(HabitError) in
        let count = try Convert.out(out_count, "out_count")
        let seqs = try Convert.array(out_seqs, capacity, "out_seqs")
        let ids = try Convert.array(out_replicas, Int64(seqs.count) * Int64(GlobalId.replicaBytes), "out_replicas")
        let replicas = try VersionVector.decode(try bytes(state, state_size, "state")).replicas
        for (index, known) in replicas.prefix(seqs.count).enumerated() {
            for (offset, byte) in known.replica.enumerated() { ids[index * GlobalId.replicaBytes + offset] = byte }
        }
        Convert.copy(replicas, into: seqs, count: count) { $0.seen }
    }
}

@c @implementation
public func hc_sync_changes(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ out_size: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?, _ peer_state: UnsafePointer<UInt8>?, _ peer_state_size: Int64
) -> Int32 {
    hc_sync_changes_v2(out, out_size, store, peer_state, peer_state_size, 0)
}

@c @implementation
public func hc_sync_changes_v2(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ out_size: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?, _ peer_state: UnsafePointer<UInt8>?, _ peer_state_size: Int64, _ flags: UInt32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        let size = try Convert.out(out_size, "out_size")
        try Convert.flags(flags, known: UInt32(HC_SYNC_EVIDENCE))
        let changes = try engine.syncChanges(
            peerState: try bytes(peer_state, peer_state_size, "peer_state"),
            evidence: flags & UInt32(HC_SYNC_EVIDENCE) != 0)
        guard let buffer = malloc(max(changes.count, 1))?.assumingMemoryBound(to: UInt8.self) else { throw HabitError(.noMemory, "out of memory") }
        changes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { buffer.update(from: base, count: source.count) }
        }
        Registry.add(buffer, .string)
        out.pointee = buffer
        size.pointee = Int64(changes.count)
    }
}

@c @implementation
public func hc_sync_apply(
    _ out: UnsafeMutablePointer<hc_sync_summary>?, _ store: OpaquePointer?, _ changes: UnsafePointer<UInt8>?,
    _ size: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        // 96 bytes before ops_forked (1.1).
        let result = out == nil ? nil : try Convert.grownResult(out, "out", sizes: [96, MemoryLayout<hc_sync_summary>.size])
        let summary = try engine.syncApply(try bytes(changes, size, "changes"))
        result?.write(
            hc_sync_summary(
                struct_size: UInt32(MemoryLayout<hc_sync_summary>.size), ops_received: Int64(summary.received), ops_new: Int64(summary.new),
                ops_applied: Int64(summary.applied), ops_superseded: Int64(summary.superseded), ops_waiting: Int64(summary.waiting),
                habits_changed: Int64(summary.habitsChanged), entries_added: Int64(summary.entriesAdded),
                vacations_changed: Int64(summary.vacationsChanged), settings_changed: Int64(summary.settingsChanged),
                proofs_changed: Int64(summary.proofsChanged), credits_changed: Int64(summary.creditsChanged), ops_forked: Int64(summary.forked)))
    }
}

@c @implementation
public func hc_sync_canonical(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        out.pointee = try Convert.ownedString(try engine.syncCanonical())
    }
}
