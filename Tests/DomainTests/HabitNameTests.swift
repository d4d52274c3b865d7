import XCTest

@testable import HabitCore

/// The name rule as a table: what is stored, what counts as the same name, what is refused.
final class HabitNameTests: XCTestCase {
    func testStoredInNFC() throws {
        let cases: [(String, String)] = [
            ("Cafe\u{301}", "Caf\u{E9}"), ("Caf\u{E9}", "Caf\u{E9}"), ("A\u{30A}ngstrom", "\u{C5}ngstrom"),
            ("\u{212B}", "\u{C5}"),  // ANGSTROM SIGN is canonically Å
            ("\u{1E9B}\u{323}", "\u{1E9B}\u{323}"),  // NFC keeps this pair (UAX #15's example)
            ("한국어", "한국어"), ("\u{1112}\u{1161}\u{11AB}", "한"),  // Hangul jamo compose
        ]
        for (input, stored) in cases {
            let result = try HabitName.normalized(input)
            XCTAssertEqual(Array(result.unicodeScalars), Array(stored.unicodeScalars), input.debugDescription)
        }
    }

    func testSameUnderFullCaseFolding() {
        let same: [(String, String)] = [
            ("Straße", "STRASSE"), ("straẞe", "strasse"), ("ΟΔΟΣ", "οδος"), ("ΟΔΟΣ", "οδοσ"), ("ﬀ", "FF"),
            ("\u{212A}elvin", "kelvin"), ("ǅ", "ǆ"), ("Ǆ", "ǆ"), ("Café", "CAFE\u{301}"), ("İstanbul", "i\u{307}stanbul"),
            ("ᏸ", "Ᏸ"),  // Cherokee folds to capitals
        ]
        for (a, b) in same { XCTAssertEqual(HabitName.key(a), HabitName.key(b), "\(a) ~ \(b)") }
        let different: [(String, String)] = [("Read", "Reed"), ("İstanbul", "istanbul"), ("ß", "s"), ("Ǆ", "DZ")]
        for (a, b) in different { XCTAssertNotEqual(HabitName.key(a), HabitName.key(b), "\(a) ≠ \(b)") }
    }

    func testInvisibleAndReorderingCharactersAreRefused() {
        let refused: [UInt32] = [
            0x202E, 0x202A, 0x200E, 0x200F, 0x2066, 0x2069, 0x061C, 0x200B, 0x2060, 0xFEFF, 0x00AD,
            0x180E, 0x3164, 0x115F, 0xFFA0, 0x034F, 0x2028, 0x2029, 0xE0041, 0x1D173,
        ]
        for value in refused {
            let scalar = Unicode.Scalar(value).map(String.init) ?? ""
            XCTAssertThrowsError(try HabitName.normalized("a" + scalar + "b"), String(value, radix: 16))
        }
        let allowed = ["👨‍👩‍👧", "🏴󠁧󠁢󠁥󠁮󠁧󠁿", "❤️", "می\u{200C}خواهم", "क्‍ष", "Read 📚", "日本語", "a b"]
        for name in allowed { XCTAssertNoThrow(try HabitName.normalized(name), name) }
        XCTAssertThrowsError(try HabitName.normalized("x\u{E0067}"), "a tag outside a flag")
        XCTAssertThrowsError(try HabitName.normalized(" x"))
        XCTAssertThrowsError(try HabitName.normalized(""))
        XCTAssertThrowsError(try HabitName.normalized(String(repeating: "é", count: 101)), "201 bytes")
    }
}
