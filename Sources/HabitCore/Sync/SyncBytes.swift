/// Little helpers for the sync format: LEB128 varints, zigzag, lengths that are
/// checked before they are trusted, and CRC-32 (IEEE, as zlib and PNG use).
package struct SyncWriter {
    package private(set) var bytes: [UInt8] = []
    /// Room for most ops at once (an entry's payload is about 40 bytes): growing from
    /// empty reallocated several times an op.
    package init() { bytes.reserveCapacity(64) }

    package mutating func byte(_ value: UInt8) { bytes.append(value) }
    package mutating func raw(_ value: [UInt8]) { bytes.append(contentsOf: value) }

    package mutating func uvarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    /// Signed values, zigzag coded so small negatives stay short.
    package mutating func varint(_ value: Int64) {
        uvarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    package mutating func double(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    package mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    package mutating func text(_ value: String) {
        let utf8 = Array(value.utf8)
        uvarint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    package mutating func optionalText(_ value: String?) {
        if let value { byte(1); text(value) } else { byte(0) }
    }
}

/// Reads what SyncWriter wrote; every read checks the bytes left and throws
/// HC_E_INVALID words instead of reading past the end.
package struct SyncReader {
    let bytes: [UInt8]
    package private(set) var position: Int
    let end: Int

    package init(_ bytes: [UInt8], from: Int = 0, to: Int? = nil) {
        self.bytes = bytes
        position = from
        end = to ?? bytes.count
    }

    package var remaining: Int { end - position }
    package var atEnd: Bool { position >= end }

    package mutating func byte() throws(HabitError) -> UInt8 {
        guard position < end else { throw .invalid("truncated") }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func raw(_ count: Int) throws(HabitError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw .invalid("truncated") }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    package mutating func uvarint() throws(HabitError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            // The tenth byte may carry one bit only.
            if shift == 63 && b > 1 { throw .invalid("a number overflows 64 bits") }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift > 63 { throw .invalid("a number overflows 64 bits") }
        }
    }

    package mutating func varint() throws(HabitError) -> Int64 {
        let raw = try uvarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A count or length no larger than limit.
    package mutating func count(limit: Int, _ what: String) throws(HabitError) -> Int {
        let value = try uvarint()
        // A limit below zero (an index into an empty list) admits nothing.
        guard limit >= 0, value <= UInt64(limit) else { throw .invalid("\(what) \(value) is above the limit \(limit)") }
        return Int(value)
    }

    package mutating func double() throws(HabitError) -> Double {
        var bits: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { bits |= UInt64(try byte()) << UInt64(shift) }
        return Double(bitPattern: bits)
    }

    package mutating func uint32() throws(HabitError) -> UInt32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { value |= UInt32(try byte()) << UInt32(shift) }
        return value
    }

    package mutating func text(limit: Int = 4096) throws(HabitError) -> String {
        let length = try count(limit: limit, "a text of length")
        let utf8 = try raw(length)
        guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalid("a text is not valid UTF-8") }
        return text
    }

    package mutating func optionalText(limit: Int = 4096) throws(HabitError) -> String? {
        switch try byte() {
        case 0: return nil
        case 1: return try text(limit: limit)
        case let flag: throw .invalid("optional text flag \(flag) is not 0 or 1")
        }
    }
}

package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { (n: UInt32) -> UInt32 in
        var c = n
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    package static func checksum(_ bytes: [UInt8], count: Int? = nil) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes.prefix(count ?? bytes.count) { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
