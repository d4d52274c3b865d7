/// Checks shared by every piece of user text the engine stores.
package enum TextRules {
    /// Rejects empty (when required), over-long and control-character text; lineBreaks
    /// lets line feeds and tabs through (notes always do).
    package static func validate(
        _ text: String, field: String, maxBytes: Int, allowEmpty: Bool = false,
        lineBreaks: Bool = false
    ) throws(HabitError) {
        if text.isEmpty && !allowEmpty { throw .invalid("\(field) must not be empty") }
        if text.utf8.count > maxBytes { throw .invalid("\(field) is longer than \(maxBytes) bytes") }
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
            if (lineBreaks || field == "note") && (scalar == "\n" || scalar == "\t") { continue }
            throw .invalid("\(field) contains a control character")
        }
    }

    /// The text without the spaces around it.
    package static func trimmingSpaces(_ text: some StringProtocol) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// The longest UTF-8 prefix of at most maxBytes bytes that ends on a character
    /// boundary: what fits in a fixed C buffer without a broken character.
    package static func utf8Prefix(_ text: String, maxBytes: Int) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var count = max(0, min(utf8.count, maxBytes))
        // Cut before the first byte of a character that does not fit whole.
        while count > 0, count < utf8.count, utf8[count] & 0xC0 == 0x80 { count -= 1 }
        return Array(utf8[..<count])
    }
}
