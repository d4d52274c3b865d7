import CHabitCore

/// The library HabitKit was built against and the one it runs.
public enum HabitKitVersion {
    /// The ABI version HabitKit was written against (HC_ABI_VERSION of its header).
    public static let built: Int32 = HC_ABI_VERSION
    /// The ABI version of the running library (hc_abi_version()).
    public static var running: Int32 { hc_abi_version() }
    /// The version HabitKit was built with (HC_VERSION_STRING), e.g. "1.1.0".
    public static let string: String = HC_VERSION_STRING
    /// The running library's version number, MAJOR * 1000000 + MINOR * 1000 + PATCH
    /// (hc_version_number()).
    public static var runningNumber: Int32 { hc_version_number() }
    /// The running library's version (hc_version_string()).
    public static var runningString: String { String(cString: hc_version_string()) }

    /// hc_abi_version() checked once, before the first store opens: the running
    /// library must speak at least the ABI this HabitKit was written for.
    static let compatibility: Result<Void, HabitError> = {
        let running = hc_abi_version()
        guard running >= HC_ABI_VERSION else {
            return .failure(HabitError(code: .misuse, message: "the running habitcore speaks ABI \(running); HabitKit needs \(HC_ABI_VERSION) or later"))
        }
        return .success(())
    }()
}

/// A day: days since 1970-01-01 in the store's calendar, as the header counts them.
public struct Day: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let rawValue: Int32
    /// The day with this number.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Parses "YYYY-MM-DD" (hc_date_parse). Throws .invalid for anything else.
    public init(_ text: String) throws(HabitError) {
        var day: Int32 = 0
        try check(hc_date_parse(&day, text))
        rawValue = day
    }

    /// The day as "YYYY-MM-DD" (hc_date_format), or its number when out of range.
    public var description: String { formatted ?? "day \(rawValue)" }

    /// The day as "YYYY-MM-DD" (hc_date_format); nil outside the years it writes.
    public var formatted: String? {
        var buffer = [CChar](repeating: 0, count: Int(HC_DATE_BUFSIZE))
        guard hc_date_format(&buffer, Int32(buffer.count), rawValue) == HC_OK else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Orders days in time.
    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The day that follows (or precedes, for negative n) by n days; nil past the range.
    public func adding(_ n: Int32) -> Day? {
        let (sum, overflow) = rawValue.addingReportingOverflow(n)
        return overflow ? nil : Day(rawValue: sum)
    }
}

/// HC_DAY_NONE, for the calls where "no day" means today.
let noDay = Int32(HC_DAY_NONE)

/// A C string copied into Swift, or nil for NULL.
func copied(_ text: UnsafePointer<CChar>?) -> String? { text.map { String(cString: $0) } }

/// A fixed char array of a C struct (message[512]) as a String.
func copied<T>(tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// Writes text into a fixed char array of a C struct, cut at a UTF-8 boundary, NUL-terminated.
func fill<T>(_ tuple: inout T, with text: String) {
    withUnsafeMutableBytes(of: &tuple) { raw in
        guard raw.count > 0 else { return }
        var bytes = Array(text.utf8.prefix(raw.count - 1))
        // Never leave half a character: drop continuation bytes cut from their lead.
        while let last = bytes.last, last & 0xC0 == 0x80 || last >= 0xC0 {
            let lead = bytes.lastIndex { $0 & 0xC0 != 0x80 } ?? 0
            let need = bytes[lead] >= 0xF0 ? 4 : bytes[lead] >= 0xE0 ? 3 : bytes[lead] >= 0xC0 ? 2 : 1
            if bytes.count - lead >= need { break }
            bytes.removeSubrange(lead...)
        }
        for (index, byte) in bytes.enumerated() { raw[index] = byte }
        raw[bytes.count] = 0
    }
}

/// Each element of an open C list, through its _count and _get, copied out while the
/// list still owns what the element points to. The caller frees the list.
func elements<Element, Value>(
    of list: OpaquePointer?,
    _ count: (UnsafeMutablePointer<Int64>?, OpaquePointer?) -> Int32,
    _ get: (UnsafeMutablePointer<UnsafePointer<Element>?>?, OpaquePointer?, Int64) -> Int32,
    _ copy: (Element) -> Value
) throws(HabitError) -> [Value] {
    var total: Int64 = 0
    try check(count(&total, list))
    var values: [Value] = []
    for index in 0..<max(total, 0) {
        var element: UnsafePointer<Element>?
        try check(get(&element, list, index))
        if let element { values.append(copy(element.pointee)) }
    }
    return values
}

/// The elements a caller-buffer call gives (the header's "Caller buffers": it writes
/// min(capacity, total) and sets the total). With a guess (a range's length) one call
/// usually does; without, it asks the total first. Again if the total grew in between.
func buffered<Element>(
    _ empty: Element, guess: Int64 = 0,
    _ fill: (UnsafeMutablePointer<Element>?, Int64, UnsafeMutablePointer<Int64>) -> Int32
) throws(HabitError) -> [Element] {
    // A guess outside what any call gives (100000) is the caller's bad range: the library says so.
    var capacity = (0...100_000).contains(guess) ? guess : 0
    for _ in 0..<4 {
        var elements = [Element](repeating: empty, count: Int(capacity))
        var total: Int64 = 0
        let asked = capacity
        try check(elements.withUnsafeMutableBufferPointer { fill(asked == 0 ? nil : $0.baseAddress, asked, &total) })
        if total <= asked { return Array(elements.prefix(Int(max(total, 0)))) }
        guard Int(exactly: total) != nil else { throw HabitError(code: .internal, message: "a caller buffer call gave the total \(total)") }
        capacity = total
    }
    throw HabitError(code: .busy, message: "the list kept growing while it was read")
}

/// A string the library allocated (char **out), copied and released with hc_free.
func takeString(_ text: UnsafeMutablePointer<CChar>?) -> String? {
    defer { hc_free(text) }
    return text.map { String(cString: $0) }
}
