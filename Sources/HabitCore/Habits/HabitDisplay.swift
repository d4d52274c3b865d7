/// What a frontend shows of a habit besides its name, and what Loop and other
/// apps export: a description, the question asked each day, a colour, an icon and
/// the habit's place in the app's order. The engine decides nothing by them; it
/// keeps them, checked, through edits, imports and exports.
package struct HabitDisplay: Equatable, Sendable {
    /// Free text; line breaks and tabs allowed.
    package var description: String?
    /// One line ("Did you meditate this morning?").
    package var question: String?
    /// "#RRGGBB", hex digits of either case, kept as given (Loop writes "#aaaaaa" for one
    /// of its colours and "#FF8F00" for another; an export gives back what came in).
    package var colour: String?
    /// Opaque to the engine: the app's icon name, or an emoji.
    package var icon: String?
    /// The app's order: smaller first; habits of equal position in id order.
    package var position: Int64

    package static let maxDescriptionBytes = 4096
    package static let maxQuestionBytes = 500
    package static let maxIconBytes = 64

    package static let none = HabitDisplay()

    package init(description: String? = nil, question: String? = nil, colour: String? = nil, icon: String? = nil, position: Int64 = 0) {
        self.description = description
        self.question = question
        self.colour = colour
        self.icon = icon
        self.position = position
    }

    /// Checks every field; an empty text is no text.
    package func validated() throws(HabitError) -> HabitDisplay {
        var display = self
        display.description = try Self.text(description, field: "description", maxBytes: Self.maxDescriptionBytes, lineBreaks: true)
        display.question = try Self.text(question, field: "question", maxBytes: Self.maxQuestionBytes)
        display.icon = try Self.text(icon, field: "icon", maxBytes: Self.maxIconBytes)
        display.colour = try Self.colour(colour)
        return display
    }

    /// The one colour rule: "#" and six hex digits, or nothing (nil or "").
    package static func colour(_ text: String?) throws(HabitError) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 7, scalars[0] == "#", scalars.dropFirst().allSatisfy(\.isHexDigit) else {
            throw .invalid("colour '\(text.prefix(20))' is not #RRGGBB (# and six hex digits)")
        }
        return text
    }

    private static func text(_ text: String?, field: String, maxBytes: Int, lineBreaks: Bool = false) throws(HabitError) -> String? {
        guard let text, !text.isEmpty else { return nil }
        try TextRules.validate(text, field: field, maxBytes: maxBytes, lineBreaks: lineBreaks)
        return text
    }

    /// Loop Habit Tracker's colour as its backups store it: an index into its palette
    /// of 20 (the colours its CSV export writes for them), or, in backups before the
    /// palette, the colour itself as a signed ARGB integer. Nil for anything else.
    package static func loopColour(_ stored: Int64) -> String? {
        if stored >= 0 && stored < Int64(loopPalette.count) { return loopPalette[Int(stored)] }
        // An ARGB integer with its alpha set is negative as a signed 32-bit value.
        guard stored < 0, stored >= Int64(Int32.min) else { return nil }
        let rgb = UInt32(bitPattern: Int32(stored)) & 0xFF_FFFF
        let hex = String(rgb, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - hex.count) + hex
    }

    /// Loop's palette, in its order, as its CSV export writes the colours.
    static let loopPalette = [
        "#D32F2F", "#E64A19", "#F57C00", "#FF8F00", "#F9A825", "#AFB42B", "#7CB342", "#388E3C", "#00897B", "#00ACC1",
        "#039BE5", "#1976D2", "#303F9F", "#5E35B1", "#8E24AA", "#D81B60", "#5D4037", "#303030", "#757575", "#aaaaaa",
    ]
}

private extension Unicode.Scalar {
    var isHexDigit: Bool {
        ("0"..."9").contains(self) || ("a"..."f").contains(self) || ("A"..."F").contains(self)
    }
}
