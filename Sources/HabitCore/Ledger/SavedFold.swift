/// A habit's folded days (DayFold.sortedStates over its whole ledger) as bytes, saved
/// beside the ledger so a cold read decodes them instead of reading and folding every
/// entry. It is a copy, never the truth: it names the judging rules it was folded
/// under and the highest entry id of the store when folded. Entries are append-only,
/// so the days of entries added after that id are folded again from the ledger, and
/// different rules fold everything again (see Engine.history(of:through:)).
package enum SavedFold {
    static let format: UInt8 = 1

    /// What DayFold.fold reads of a habit: the kind, and the target and direction of
    /// the spec and of each version with the day it applies from. Two habits with the
    /// same bytes fold every day alike.
    package static func rules(_ spec: HabitSpec, versions: [SettingsVersion]) -> [UInt8] {
        var bytes: [UInt8] = [format]
        bytes.reserveCapacity(12 + versions.count * 13)
        bytes.append(UInt8(truncatingIfNeeded: spec.kind.rawValue))
        appendFixed(spec.target.bitPattern, to: &bytes)
        bytes.append(spec.direction == .atMost ? 1 : 0)
        for version in versions {
            appendFixed(UInt64(UInt32(bitPattern: version.fromDay)), to: &bytes)
            appendFixed(version.target.bitPattern, to: &bytes)
            bytes.append(version.direction == .atMost ? 1 : 0)
        }
        return bytes
    }

    /// The days as bytes: each day as its distance from the one before, flags (done,
    /// skipped, value kept as a whole number), the value and the entry count.
    package static func encode(_ days: [DayState]) -> [UInt8] {
        var bytes: [UInt8] = [format]
        bytes.reserveCapacity(8 + days.count * 4)
        appendVarint(UInt64(days.count), to: &bytes)
        var previous: Int32 = 0
        for state in days {
            appendVarint(zigzag(Int64(state.day) - Int64(previous)), to: &bytes)
            previous = state.day
            let whole = state.value >= 0 && state.value < 9.0e15 && state.value.rounded(.towardZero) == state.value
            var flags: UInt8 = 0
            if state.done { flags |= 1 }
            if state.skipped { flags |= 2 }
            if whole { flags |= 4 }
            bytes.append(flags)
            if whole { appendVarint(UInt64(state.value), to: &bytes) } else { appendFixed(state.value.bitPattern, to: &bytes) }
            appendVarint(UInt64(max(0, state.entryCount)), to: &bytes)
        }
        return bytes
    }

    /// The days the bytes hold, or nil when they are not what `encode` writes (a
    /// damaged copy is folded again from the ledger, never trusted).
    package static func decode(_ bytes: [UInt8]) -> [DayState]? {
        bytes.withUnsafeBufferPointer { (buffer) -> [DayState]? in
            var reader = Reader(buffer: buffer)
            guard reader.byte() == format, let count = reader.varint(), count <= UInt64(buffer.count) else { return nil }
            var days: [DayState] = []
            days.reserveCapacity(Int(count))
            var previous: Int64 = 0
            for _ in 0..<count {
                guard let delta = reader.varint(), let flags = reader.byte(), flags & ~7 == 0 else { return nil }
                let (day, overflow) = previous.addingReportingOverflow(unzigzag(delta))
                guard !overflow, let day32 = Int32(exactly: day), days.isEmpty || day32 > days[days.count - 1].day else { return nil }
                previous = day
                let value: Double
                if flags & 4 != 0 {
                    guard let whole = reader.varint(), whole < 9_000_000_000_000_000 else { return nil }
                    value = Double(whole)
                } else {
                    guard let bits = reader.fixed() else { return nil }
                    value = Double(bitPattern: bits)
                }
                guard let entries = reader.varint(), entries <= UInt64(Int32.max) else { return nil }
                days.append(DayState(day: day32, value: value, done: flags & 1 != 0, skipped: flags & 2 != 0, entryCount: Int(entries)))
            }
            return reader.atEnd ? days : nil
        }
    }

    private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    private static func unzigzag(_ value: UInt64) -> Int64 { Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func appendFixed(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var offset = 0

        var atEnd: Bool { offset == buffer.count }

        mutating func byte() -> UInt8? {
            guard offset < buffer.count else { return nil }
            defer { offset += 1 }
            return buffer[offset]
        }

        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while let byte = byte() {
                guard shift < 64 else { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }

        mutating func fixed() -> UInt64? {
            guard buffer.count - offset >= 8 else { return nil }
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(buffer[offset + index]) << UInt64(index * 8) }
            offset += 8
            return value
        }
    }
}
