import HabitCore

/// What proofcheck reads of a photo's EXIF (a TIFF structure: IFD0, its Exif and
/// GPS sub-IFDs). Text fields are trimmed of NULs and spaces.
package struct ExifFacts: Equatable, Sendable {
    package var make: String?
    package var model: String?
    package var software: String?
    /// "YYYY:MM:DD HH:MM:SS": when the file was last changed, and when the photo was taken.
    package var dateTime: String?
    package var dateTimeOriginal: String?
    /// "+HH:MM" or "-HH:MM", for DateTimeOriginal.
    package var offsetTimeOriginal: String?
    package var userComment: String?
    /// "YYYY:MM:DD" and hours, minutes, seconds in UTC.
    package var gpsDate: String?
    package var gpsTime: [Double]?

    package init() {}
}

/// A bounded EXIF reader for hostile input: every offset and length is checked
/// against the buffer, each IFD is read at most once (no loops), an IFD holds at
/// most `maxEntries` entries and text at most `maxText` bytes.
package enum ExifReader {
    static let maxEntries = 1000
    static let maxText = 4096

    package enum Failure: Error, Equatable {
        case malformed(String)
    }

    /// Reads TIFF-structured EXIF (what follows "Exif\0\0" in a JPEG, a PNG's eXIf).
    package static func read(_ tiff: ArraySlice<UInt8>) throws(Failure) -> ExifFacts {
        var view = ByteView(tiff)
        if view.starts(with: [0x49, 0x49, 0x2A, 0x00]) {
            view.bigEndian = false
        } else if !view.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            throw .malformed("no TIFF byte-order mark")
        }
        guard let first = view.u32(4) else { throw .malformed("truncated TIFF header") }
        var facts = ExifFacts()
        var visited: Set<Int> = []
        let ifd0 = try entries(view, at: first, visited: &visited)
        facts.make = text(view, ifd0[0x010F])
        facts.model = text(view, ifd0[0x0110])
        facts.software = text(view, ifd0[0x0131])
        facts.dateTime = text(view, ifd0[0x0132])
        if let pointer = ifd0[0x8769].flatMap({ number(view, $0) }) {
            let exif = try entries(view, at: pointer, visited: &visited)
            facts.dateTimeOriginal = text(view, exif[0x9003])
            facts.offsetTimeOriginal = text(view, exif[0x9011])
            facts.userComment = exif[0x9286].flatMap { userComment(view, $0) }
        }
        if let pointer = ifd0[0x8825].flatMap({ number(view, $0) }) {
            let gps = try entries(view, at: pointer, visited: &visited)
            facts.gpsDate = text(view, gps[0x001D])
            facts.gpsTime = gps[0x0007].flatMap { rationals(view, $0) }.flatMap { $0.count == 3 ? $0 : nil }
        }
        return facts
    }

    /// One IFD entry: its type, count and where its value is.
    struct Entry {
        var type: Int
        var count: Int
        var valueOffset: Int

        var unitSize: Int {
            switch type {
            case 1, 2, 6, 7: 1
            case 3, 8: 2
            case 4, 9, 11: 4
            case 5, 10, 12: 8
            default: 0
            }
        }
    }

    private static func entries(_ view: ByteView, at offset: Int, visited: inout Set<Int>) throws(Failure) -> [Int: Entry] {
        guard visited.insert(offset).inserted else { throw .malformed("an IFD points back at itself") }
        guard let count = view.u16(offset) else { throw .malformed("IFD at \(offset) lies outside the data") }
        guard count <= maxEntries else { throw .malformed("IFD at \(offset) claims \(count) entries") }
        var found: [Int: Entry] = [:]
        for index in 0..<count {
            let at = offset + 2 + index * 12
            guard let tag = view.u16(at), let type = view.u16(at + 2), let count = view.u32(at + 4) else {
                throw .malformed("IFD at \(offset) is truncated")
            }
            var entry = Entry(type: type, count: count, valueOffset: at + 8)
            let size = entry.unitSize * count
            if size > 4 {
                guard let pointer = view.u32(at + 8) else { throw .malformed("IFD at \(offset) is truncated") }
                entry.valueOffset = pointer
            }
            if found[tag] == nil { found[tag] = entry }
        }
        return found
    }

    private static func text(_ view: ByteView, _ entry: Entry?) -> String? {
        guard let entry, entry.type == 2 || entry.type == 7, entry.count <= maxText,
            let raw = view.slice(entry.valueOffset, entry.count)
        else { return nil }
        return clean(raw)
    }

    private static func clean(_ raw: ArraySlice<UInt8>) -> String? {
        let trimmed = TextRules.trimmingSpaces(String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self))
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func number(_ view: ByteView, _ entry: Entry) -> Int? {
        guard entry.count == 1 else { return nil }
        switch entry.type {
        case 3: return view.u16(entry.valueOffset)
        case 4, 13: return view.u32(entry.valueOffset)
        default: return nil
        }
    }

    private static func rationals(_ view: ByteView, _ entry: Entry) -> [Double]? {
        guard entry.type == 5, entry.count <= 16 else { return nil }
        var values: [Double] = []
        for index in 0..<entry.count {
            guard let numerator = view.u32(entry.valueOffset + index * 8), let denominator = view.u32(entry.valueOffset + index * 8 + 4),
                denominator != 0
            else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }

    /// UserComment: an 8-byte character code, then the text.
    private static func userComment(_ view: ByteView, _ entry: Entry) -> String? {
        guard [1, 2, 7].contains(entry.type), entry.count > 8, entry.count <= maxText,
            let raw = view.slice(entry.valueOffset, entry.count)
        else { return nil }
        let code = raw.prefix(8), body = raw.dropFirst(8)
        if code.starts(with: Array("UNICODE".utf8)) {
            var units: [UInt16] = []
            var index = body.startIndex
            while index + 1 < body.endIndex {
                let a = UInt16(body[index]), b = UInt16(body[index + 1])
                units.append(view.bigEndian ? a << 8 | b : b << 8 | a)
                index += 2
            }
            let text = String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
            return text.isEmpty ? nil : text
        }
        return clean(body)
    }
}
