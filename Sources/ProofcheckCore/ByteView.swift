/// Bounded reads from untrusted bytes: every read names its offset and returns nil
/// past the end, so a lying length or offset can never reach outside the buffer.
struct ByteView {
    let bytes: ArraySlice<UInt8>
    var bigEndian = true

    init(_ bytes: ArraySlice<UInt8>, bigEndian: Bool = true) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    var count: Int { bytes.count }

    func slice(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        let start = bytes.startIndex + offset
        return bytes[start..<(start + length)]
    }

    func u8(_ offset: Int) -> Int? {
        slice(offset, 1).map { Int($0[$0.startIndex]) }
    }

    func u16(_ offset: Int) -> Int? {
        guard let raw = slice(offset, 2) else { return nil }
        let a = Int(raw[raw.startIndex]), b = Int(raw[raw.startIndex + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int) -> Int? {
        guard let raw = slice(offset, 4) else { return nil }
        let values = raw.map(Int.init)
        return bigEndian
            ? values[0] << 24 | values[1] << 16 | values[2] << 8 | values[3]
            : values[3] << 24 | values[2] << 16 | values[1] << 8 | values[0]
    }

    func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
        slice(offset, prefix.count).map { $0.elementsEqual(prefix) } ?? false
    }
}
