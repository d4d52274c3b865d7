/// A time zone as the engine needs it: the UTC offset at any instant.
/// Built from TZif bytes (RFC 8536, read by the caller from the tz database) or
/// from a fixed offset. Pure: this type never touches the file system.
package struct ZoneRules: Equatable, Sendable {
    private let tables: ZoneTables

    /// The name the store keeps: an IANA name, "UTC", or "+05:30".
    package var name: String { tables.name }

    private init(name: String, transitions: [Int64], transitionOffsets: [Int32], initialOffset: Int32, rule: PosixZoneRule?) {
        tables = ZoneTables(name: name, transitions: transitions, transitionOffsets: transitionOffsets, initialOffset: initialOffset, rule: rule)
    }

    package static func == (a: ZoneRules, b: ZoneRules) -> Bool {
        a.tables === b.tables
            || (a.name == b.name && a.tables.transitions == b.tables.transitions && a.tables.transitionOffsets == b.tables.transitionOffsets
                && a.tables.initialOffset == b.tables.initialOffset && a.tables.rule == b.tables.rule)
    }

    package static let utc = ZoneRules(name: "UTC", transitions: [], transitionOffsets: [], initialOffset: 0, rule: nil)

    package static func fixed(name: String, offsetSeconds: Int32) -> ZoneRules {
        ZoneRules(name: name, transitions: [], transitionOffsets: [], initialOffset: offsetSeconds, rule: nil)
    }

    /// What a zone name asks for, before any file is read.
    package enum Name: Equatable, Sendable {
        case utc
        case fixed(offsetSeconds: Int32, canonical: String)
        case tzdb(String)
    }

    /// Classifies and validates a name: "UTC", "+hh:mm"/"-hh:mm", or an IANA path
    /// ("Area/City": letters, digits, '_', '-', '+', '/', no "..", not absolute).
    package static func classify(_ text: String) throws(HabitError) -> Name {
        if text == "UTC" || text == "Z" || text == "Etc/UTC" { return .utc }
        let bytes = Array(text.utf8)
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            guard bytes.count == 6, bytes[3] == UInt8(ascii: ":"),
                let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
                let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self)),
                bytes[1...2].allSatisfy({ $0 >= 48 && $0 <= 57 }), bytes[4...5].allSatisfy({ $0 >= 48 && $0 <= 57 }),
                hours <= 14, minutes < 60
            else { throw .invalid("'\(text.prefix(40))' is not a UTC offset: expected +hh:mm or -hh:mm, at most 14 hours") }
            let seconds = Int32(hours * 3600 + minutes * 60) * (first == UInt8(ascii: "-") ? -1 : 1)
            return .fixed(offsetSeconds: seconds, canonical: text)
        }
        let allowed = bytes.allSatisfy { b in
            (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: "/")
        }
        guard !bytes.isEmpty, bytes.count <= 64, allowed, bytes.first != UInt8(ascii: "/"),
            !text.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else { throw .invalid("'\(text.prefix(40))' is not a time zone name: expected an IANA name like Europe/Paris, UTC, or +hh:mm") }
        return .tzdb(text)
    }

    /// Parses a TZif file (versions 1 to 4). Every count and offset is bounds-checked.
    package static func parseTZif(name: String, bytes: [UInt8]) throws(HabitError) -> ZoneRules {
        var reader = ByteReader(bytes: bytes, what: "time zone file for \(name)")
        var header = try TZifHeader.read(&reader)
        if header.version >= 2 {
            // Skip the 32-bit block; the 64-bit one after it is complete.
            try reader.skip(header.blockSize(timeBytes: 4))
            header = try TZifHeader.read(&reader)
        }
        let timeBytes = header.version >= 2 ? 8 : 4
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            transitions.append(timeBytes == 8 ? Int64(bitPattern: try reader.uint64()) : Int64(Int32(bitPattern: try reader.uint32())))
        }
        var typeIndices: [Int] = []
        for _ in 0..<header.timeCount {
            let index = Int(try reader.uint8())
            guard index < header.typeCount else { throw .corrupt("time zone file for \(name): transition type \(index) out of range") }
            typeIndices.append(index)
        }
        var offsets: [Int32] = []
        for _ in 0..<header.typeCount {
            let offset = Int32(bitPattern: try reader.uint32())
            guard offset > -26 * 3600, offset < 26 * 3600 else { throw .corrupt("time zone file for \(name): offset \(offset) out of range") }
            offsets.append(offset)
            try reader.skip(2)  // isdst, abbreviation index
        }
        try reader.skip(header.charCount + header.leapCount * (timeBytes + 4) + header.stdCount + header.utcCount)
        for i in transitions.indices.dropFirst() where transitions[i] <= transitions[i - 1] {
            throw .corrupt("time zone file for \(name): transitions out of order")
        }
        var rule: PosixZoneRule?
        if header.version >= 2, reader.remaining > 0 {
            let footer = try reader.footer()
            if !footer.isEmpty { rule = try PosixZoneRule.parse(footer) }
        }
        guard let first = offsets.first else { throw .corrupt("time zone file for \(name) has no local time types") }
        return ZoneRules(
            name: name, transitions: transitions, transitionOffsets: typeIndices.map { offsets[$0] },
            initialOffset: first, rule: rule)
    }

    /// Seconds east of UTC in force at a UTC instant.
    package func utcOffset(atUTC seconds: Int64) -> Int32 { offsetStretch(atUTC: seconds).offset }

    /// The offset in force at a UTC instant, and the stretch first...last (UTC
    /// seconds) around it that no change of offset interrupts: a caller reading
    /// several instants close together can often ask once. Past the last listed
    /// transition a daylight rule's changes are not searched for: the stretch is
    /// the instant alone.
    package func offsetStretch(atUTC seconds: Int64) -> (offset: Int32, first: Int64, last: Int64) {
        let transitions = tables.transitions
        guard let lastTransition = transitions.last else {
            guard let rule = tables.rule else { return (tables.initialOffset, .min, .max) }
            return rule.daylight == nil ? (rule.standardOffset, .min, .max) : (rule.utcOffset(atUTC: seconds), seconds, seconds)
        }
        if seconds < transitions[0] { return (tables.initialOffset, .min, transitions[0] - 1) }
        if seconds >= lastTransition, let rule = tables.rule {
            return rule.daylight == nil ? (rule.standardOffset, lastTransition, .max) : (rule.utcOffset(atUTC: seconds), seconds, seconds)
        }
        // The last transition at or before `seconds` (there is one: seconds >= transitions[0]).
        let low = transitions.partitionPoint { $0 > seconds } - 1
        return (tables.transitionOffsets[low], transitions[low], low + 1 < transitions.count ? transitions[low + 1] - 1 : .max)
    }
}

/// A zone's tables, read-only once built. In a class: a zone is copied wherever
/// times are read (clocks, a shield's zone history, each segment lookup), and
/// copying a reference is one retain where copying the arrays and the name was several.
private final class ZoneTables: Sendable {
    let name: String
    let transitions: [Int64]  // UTC seconds, ascending
    let transitionOffsets: [Int32]  // the offset from each transition on
    let initialOffset: Int32  // before the first transition
    let rule: PosixZoneRule?  // after the last transition

    init(name: String, transitions: [Int64], transitionOffsets: [Int32], initialOffset: Int32, rule: PosixZoneRule?) {
        self.name = name
        self.transitions = transitions
        self.transitionOffsets = transitionOffsets
        self.initialOffset = initialOffset
        self.rule = rule
    }
}

private struct TZifHeader {
    var version: Int
    var utcCount: Int
    var stdCount: Int
    var leapCount: Int
    var timeCount: Int
    var typeCount: Int
    var charCount: Int

    static func read(_ reader: inout ByteReader) throws(HabitError) -> TZifHeader {
        let magic = try reader.bytes(4)
        guard magic == Array("TZif".utf8) else { throw reader.corrupt("does not start with TZif") }
        let versionByte = try reader.uint8()
        let version = versionByte == 0 ? 1 : Int(versionByte) - 48
        guard (1...4).contains(version) else { throw reader.corrupt("unknown version") }
        try reader.skip(15)
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(try reader.uint32())) }
        let header = TZifHeader(
            version: version, utcCount: counts[0], stdCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        guard header.typeCount >= 1, header.typeCount <= 256, header.timeCount <= 100_000, header.charCount <= 65_536,
            header.leapCount <= 10_000, header.utcCount <= header.typeCount, header.stdCount <= header.typeCount
        else { throw reader.corrupt("implausible counts") }
        return header
    }

    func blockSize(timeBytes: Int) -> Int {
        timeCount * timeBytes + timeCount + typeCount * 6 + charCount + leapCount * (timeBytes + 4) + stdCount + utcCount
    }
}

/// A cursor over untrusted bytes: every read is bounds-checked.
package struct ByteReader {
    let bytes: [UInt8]
    let what: String
    package private(set) var offset = 0

    package init(bytes: [UInt8], what: String) {
        self.bytes = bytes
        self.what = what
    }

    package var remaining: Int { bytes.count - offset }

    package func corrupt(_ reason: String) -> HabitError { .corrupt("\(what): \(reason)") }

    package mutating func skip(_ count: Int) throws(HabitError) {
        guard count >= 0, count <= remaining else { throw corrupt("truncated") }
        offset += count
    }

    package mutating func bytes(_ count: Int) throws(HabitError) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw corrupt("truncated") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    package mutating func uint8() throws(HabitError) -> UInt8 {
        guard remaining >= 1 else { throw corrupt("truncated") }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func uint32() throws(HabitError) -> UInt32 {
        var value: UInt32 = 0
        for byte in try bytes(4) { value = value << 8 | UInt32(byte) }
        return value
    }

    package mutating func uint64() throws(HabitError) -> UInt64 {
        var value: UInt64 = 0
        for byte in try bytes(8) { value = value << 8 | UInt64(byte) }
        return value
    }

    /// The TZif footer: "\n<rule>\n".
    mutating func footer() throws(HabitError) -> String {
        guard try uint8() == 0x0A else { throw corrupt("footer does not start with a newline") }
        guard let end = bytes[offset...].firstIndex(of: 0x0A), end - offset <= 256 else { throw corrupt("footer is not terminated") }
        let text = String(decoding: bytes[offset..<end], as: UTF8.self)
        offset = end + 1
        return text
    }
}
