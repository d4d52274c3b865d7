/// The rule for habit names, the same for every frontend and for imports:
/// - stored in Unicode NFC, so "Café" typed precomposed or decomposed is one name;
/// - two names are the same habit's when their case-folded forms are equal (full
///   folding: "Straße", "STRASSE" and "straẞe" are one name; so are "ΟΔΟΣ" and "οδος");
/// - refused when they hold a character that is invisible or reorders text: bidi
///   controls (U+202E would show "evil" reversed), zero-width spaces, soft hyphens, word
///   joiners, BOMs, Hangul fillers, line and paragraph separators: every format (Cf) or
///   default-ignorable character except the joiners that emoji and scripts need (U+200D
///   ZWJ, U+200C ZWNJ, variation selectors, and tag characters inside an emoji flag).
package enum HabitName {
    package static let maxBytes = 200

    /// The name as stored (NFC), or why it is refused.
    package static func normalized(_ name: String) throws(HabitError) -> String {
        let stored = nfc(name)
        try TextRules.validate(stored, field: "name", maxBytes: maxBytes)
        if stored.first?.isWhitespace == true || stored.last?.isWhitespace == true {
            throw .invalid("name must not start or end with a space")
        }
        if let scalar = invisibleCharacter(in: stored) {
            throw .invalid("name contains U+\(hex(scalar)), an invisible or text-reordering character")
        }
        return stored
    }

    /// What two names are compared by: full case folding, in NFC.
    package static func key(_ name: String) -> String {
        nfc(caseFolded(nfc(name)))
    }

    /// Full Unicode case folding from the standard library's full case mappings:
    /// lower(upper(lower(s))). Lowering first takes "ẞ" to "ß" so that upper gives "SS";
    /// for every character CaseFolding.txt folds (status C and F) this yields the same
    /// equivalence classes (the table tests hold the known hard cases).
    package static func caseFolded(_ text: String) -> String {
        text.lowercased().uppercased().lowercased()
    }

    /// Canonical composition (NFC), from the standard library's own normaliser (the one
    /// String comparison uses; swift-foundation's precomposedStringWithCanonicalMapping
    /// calls the same), so the library needs no Foundation or ICU.
    package static func nfc(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// The first character a name may not hold, or nil.
    package static func invisibleCharacter(in text: String) -> Unicode.Scalar? {
        var inFlag = false  // after U+1F3F4 WAVING BLACK FLAG, tags spell a region
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x1F3F4 { inFlag = true; continue }
            if inFlag && (0xE0020...0xE007F).contains(value) {
                if value == 0xE007F { inFlag = false }  // CANCEL TAG ends the flag
                continue
            }
            inFlag = false
            if value == 0x200D || value == 0x200C || (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { continue }
            let properties = scalar.properties
            switch properties.generalCategory {
            case .format, .lineSeparator, .paragraphSeparator: return scalar
            default: if properties.isDefaultIgnorableCodePoint { return scalar }
            }
        }
        return nil
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
