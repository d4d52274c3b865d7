import CZlib
import HabitCore

/// A minimal zip reader for the archives people bring (Loop Habit Tracker's CSV
/// export): the central directory, entries stored (method 0) or deflated (8),
/// each checked against its CRC-32. No zip64, no encryption, no multi-disk:
/// those are refused with a message. Every offset and size is checked against
/// the bytes before it is read, so a hostile archive is an error, never a trap.
package enum Zip {
    package struct Entry: Equatable, Sendable {
        package var name: String
        package var data: [UInt8]
    }

    /// Limits: what one import may inflate to, and how many entries it may hold.
    package static let maxTotalBytes = 256 * 1024 * 1024
    package static let maxEntries = 10_000

    /// Whether the bytes start as a zip archive does ("PK\u{3}\u{4}", or an empty archive's "PK\u{5}\u{6}").
    package static func looksLikeZip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B && (bytes[2] == 3 || bytes[2] == 5) && (bytes[3] == 4 || bytes[3] == 6)
    }

    /// Every file entry (folders left out), in the central directory's order.
    package static func entries(_ bytes: [UInt8]) throws(HabitError) -> [Entry] {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func has(_ at: Int, _ count: Int) -> Bool { at >= 0 && count >= 0 && at <= bytes.count && count <= bytes.count - at }

        // The end of central directory record: the last signature within the comment's reach.
        guard bytes.count >= 22 else { throw .invalid("zip: \(bytes.count) bytes is too short for an archive") }
        var end = -1
        var at = bytes.count - 22
        while at >= max(0, bytes.count - 22 - 65_535) {
            if u32(at) == 0x0605_4B50 { end = at; break }
            at -= 1
        }
        guard end >= 0 else { throw .invalid("zip: no end of central directory (not a zip archive, or cut short)") }
        guard u16(end + 4) == 0, u16(end + 6) == 0 else { throw .invalid("zip: multi-disk archives are not supported") }
        let count = u16(end + 10)
        let directorySize = u32(end + 12), directoryStart = u32(end + 16)
        guard count != 0xFFFF, directoryStart != 0xFFFF_FFFF else { throw .invalid("zip: zip64 archives are not supported") }
        guard count <= maxEntries else { throw .invalid("zip: more than \(maxEntries) entries") }
        guard has(directoryStart, directorySize) else { throw .corrupt("zip: the central directory lies outside the file") }

        var result: [Entry] = []
        var total = 0
        var cursor = directoryStart
        for index in 0..<count {
            guard has(cursor, 46), u32(cursor) == 0x0201_4B50 else { throw .corrupt("zip: central directory entry \(index + 1) is damaged") }
            let flags = u16(cursor + 8), method = u16(cursor + 10)
            let crc = UInt32(u32(cursor + 16)), packed = u32(cursor + 20), size = u32(cursor + 24)
            let nameLength = u16(cursor + 28), extraLength = u16(cursor + 30), commentLength = u16(cursor + 32)
            let local = u32(cursor + 42)
            guard has(cursor + 46, nameLength) else { throw .corrupt("zip: central directory entry \(index + 1) is damaged") }
            let name = String(decoding: bytes[(cursor + 46)..<(cursor + 46 + nameLength)], as: UTF8.self)
            cursor += 46 + nameLength + extraLength + commentLength
            let label = "zip entry '\(name.prefix(100))'"
            if name.hasSuffix("/") { continue }
            guard flags & 1 == 0 else { throw .invalid("\(label) is encrypted") }
            guard packed != 0xFFFF_FFFF, size != 0xFFFF_FFFF else { throw .invalid("\(label): zip64 sizes are not supported") }
            guard size <= maxTotalBytes - total else { throw .invalid("zip: the archive inflates to more than 256 MiB") }
            total += size
            guard has(local, 30), u32(local) == 0x0403_4B50 else { throw .corrupt("\(label): its local header is damaged") }
            let dataStart = local + 30 + u16(local + 26) + u16(local + 28)
            guard has(dataStart, packed) else { throw .corrupt("\(label) lies outside the file") }
            let data: [UInt8]
            switch method {
            case 0:
                guard packed == size else { throw .corrupt("\(label): stored sizes differ") }
                data = Array(bytes[dataStart..<(dataStart + packed)])
            case 8:
                data = try inflate(bytes, from: dataStart, count: packed, size: size, label: label)
            default:
                throw .invalid("\(label) uses compression method \(method); only stored (0) and deflated (8) are supported")
            }
            guard checksum(data) == crc else { throw .corrupt("\(label): CRC-32 mismatch") }
            result.append(Entry(name: name, data: data))
        }
        return result
    }

    private static func checksum(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    /// Raw deflate (no zlib header) of exactly `size` bytes.
    private static func inflate(_ bytes: [UInt8], from start: Int, count: Int, size: Int, label: String) throws(HabitError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: max(size, 1))
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var stream = z_stream()
                guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return Z_MEM_ERROR }
                defer { inflateEnd(&stream) }
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress.map { $0 + start })
                stream.avail_in = uInt(count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(size)
                let result = CZlib.inflate(&stream, Z_FINISH)
                return result == Z_STREAM_END && Int(stream.total_out) == size ? Z_OK : (result == Z_OK || result == Z_BUF_ERROR ? Z_DATA_ERROR : result)
            }
        }
        guard status == Z_OK else { throw .corrupt("\(label): its deflated data is damaged (zlib \(status))") }
        return size == 0 ? [] : output
    }
}
