/// Checks shared by every piece of user text the engine stores.
package enum TextRules {
    /// Rejects empty (when required), over-long and control-character text.
    package static func validate(_ text: String, field: String, maxBytes: Int, allowEmpty: Bool = false) throws(HabitError) {
        if text.isEmpty && !allowEmpty { throw .invalid("\(field) must not be empty") }
        if text.utf8.count > maxBytes { throw .invalid("\(field) is longer than \(maxBytes) bytes") }
        for scalar in text.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
            if field == "note" && (scalar == "\n" || scalar == "\t") { continue }
            throw .invalid("\(field) contains a control character")
        }
    }
}
