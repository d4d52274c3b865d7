// libFuzzer target: sync changesets and states (hc_sync_apply validates a whole
// changeset with Changeset.decode before writing anything). Each input is tried as it
// is, and with a valid checksum appended, so mutations reach the record parser.
import HabitCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var sealed = bytes
    let crc = CRC32.checksum(bytes)
    for shift in stride(from: 0, to: 32, by: 8) { sealed.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
    for candidate in [bytes, sealed] {
        if let decoded = try? Changeset.decode(candidate) {
            // What reads writes back as what reads the same.
            let again = try? Changeset.decode(Changeset.encode(decoded.map(\.op)))
            if again?.map(\.op) != decoded.map(\.op) { fatalError("Changeset.encode wrote what decode reads differently") }
        }
        if let state = try? VersionVector.decode(candidate), (try? VersionVector.decode(state.encode())) != state {
            fatalError("VersionVector.encode wrote what decode reads differently")
        }
    }
    return 0
}
