import Foundation

/// EXIF written by the tests into a committed JPEG, so that capture times can be
/// "now" (or yesterday) when the test runs: a little-endian TIFF with IFD0 (Make,
/// Model, Software, DateTime), the Exif IFD (DateTimeOriginal, OffsetTimeOriginal,
/// an ASCII UserComment) and the GPS IFD (date, and time as three rationals), laid
/// out as the TIFF 6.0 and Exif 2.32 specifications say (values of up to four bytes
/// inline), in an APP1 segment right after the JPEG's SOI.
struct ExifFixture {
    var make: String?
    var model: String?
    var software: String?
    /// "YYYY:MM:DD HH:MM:SS", IFD0's DateTime (last changed).
    var changed: String?
    /// "YYYY:MM:DD HH:MM:SS", DateTimeOriginal.
    var taken: String?
    /// "+HH:MM", OffsetTimeOriginal.
    var offset: String?
    var comment: String?
    /// "YYYY:MM:DD HH:MM:SS" in UTC, GPSDateStamp and GPSTimeStamp.
    var gps: String?

    private enum Value {
        case ascii(String)
        case undefined([UInt8])
        case long(UInt32)
        case rationals([UInt32])
    }

    private typealias Field = (tag: UInt16, value: Value)

    /// jpeg with this EXIF added after its SOI marker.
    func applied(to jpeg: [UInt8]) -> [UInt8] {
        let payload = Array("Exif\0\0".utf8) + tiff()
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }

    private func tiff() -> [UInt8] {
        var ifd0: [Field] = []
        if let make { ifd0.append((0x010F, .ascii(make))) }
        if let model { ifd0.append((0x0110, .ascii(model))) }
        if let software { ifd0.append((0x0131, .ascii(software))) }
        if let changed { ifd0.append((0x0132, .ascii(changed))) }
        var exif: [Field] = []
        if let taken { exif.append((0x9003, .ascii(taken))) }
        if let offset { exif.append((0x9011, .ascii(offset))) }
        if let comment { exif.append((0x9286, .undefined(Array("ASCII\0\0\0".utf8) + Array(comment.utf8)))) }
        var gpsFields: [Field] = []
        if let gps {
            let parts = gps.split(separator: " ")
            let time = parts.count == 2 ? parts[1].split(separator: ":").compactMap { UInt32($0) } : []
            gpsFields.append((0x0007, .rationals(time.flatMap { [$0, 1] })))
            gpsFields.append((0x001D, .ascii(String(parts.first ?? ""))))
        }
        // IFD0's pointers to the sub-IFDs are filled in once their offsets are known.
        let ifd0Size = ifdSize(ifd0.count + (exif.isEmpty ? 0 : 1) + (gpsFields.isEmpty ? 0 : 1), ifd0)
        let exifAt = 8 + ifd0Size
        let gpsAt = exifAt + (exif.isEmpty ? 0 : ifdSize(exif.count, exif))
        if !exif.isEmpty { ifd0.append((0x8769, .long(UInt32(exifAt)))) }
        if !gpsFields.isEmpty { ifd0.append((0x8825, .long(UInt32(gpsAt)))) }
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + u32(8)
        out += ifd(ifd0, at: 8)
        if !exif.isEmpty { out += ifd(exif, at: exifAt) }
        if !gpsFields.isEmpty { out += ifd(gpsFields, at: gpsAt) }
        return out
    }

    private func bytes(_ value: Value) -> (type: UInt16, count: Int, data: [UInt8]) {
        switch value {
        case .ascii(let text): (2, text.utf8.count + 1, Array(text.utf8) + [0])
        case .undefined(let data): (7, data.count, data)
        case .long(let number): (4, 1, u32(number))
        case .rationals(let numbers): (5, numbers.count / 2, numbers.flatMap(u32))
        }
    }

    /// An IFD of `count` entries and the out-of-line data of `fields`, word-aligned.
    private func ifdSize(_ count: Int, _ fields: [Field]) -> Int {
        2 + 12 * count + 4 + fields.map { bytes($0.value).data.count }.filter { $0 > 4 }.map { $0 + $0 % 2 }.reduce(0, +)
    }

    private func ifd(_ fields: [Field], at offset: Int) -> [UInt8] {
        let sorted = fields.sorted { $0.tag < $1.tag }
        var entries = u16(UInt16(sorted.count)), data: [UInt8] = []
        let dataAt = offset + 2 + 12 * sorted.count + 4
        for field in sorted {
            let (type, count, value) = bytes(field.value)
            entries += u16(field.tag) + u16(type) + u32(UInt32(count))
            if value.count <= 4 {
                entries += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                entries += u32(UInt32(dataAt + data.count))
                data += value + (value.count % 2 == 1 ? [0] : [])
            }
        }
        return entries + u32(0) + data
    }

    private func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private func u32(_ value: UInt32) -> [UInt8] { u16(UInt16(value & 0xFFFF)) + u16(UInt16(value >> 16)) }
}
