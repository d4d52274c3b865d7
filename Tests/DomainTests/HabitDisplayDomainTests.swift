import XCTest

@testable import HabitCore

/// HabitDisplay's rules: the one colour check every caller goes through, the text
/// limits, and Loop's stored colours (palette index or ARGB integer) as #RRGGBB.
final class HabitDisplayDomainTests: XCTestCase {
    func testColourIsHashAndSixHexDigitsKeptAsGiven() throws {
        for good in ["#000000", "#FFFFFF", "#aaaaaa", "#aBc123"] { XCTAssertEqual(try HabitDisplay.colour(good), good) }
        XCTAssertNil(try HabitDisplay.colour(nil))
        XCTAssertNil(try HabitDisplay.colour(""), "empty is none")
        for bad in ["000000", "#00000", "#0000000", "#00000G", "#00 000", "＃000000", "#٠٠٠٠٠٠", "#0000000\u{301}", "red"] {
            XCTAssertThrowsError(try HabitDisplay.colour(bad), bad) { error in
                XCTAssertEqual((error as? HabitError)?.code, .invalid)
                XCTAssertTrue((error as? HabitError)?.message.hasPrefix("colour") == true)
            }
        }
    }

    func testTextLimitsAndEmptyTexts() throws {
        let ok = try HabitDisplay(description: "a\nb\tc", question: "", colour: "", icon: "", position: .min).validated()
        XCTAssertEqual(ok, HabitDisplay(description: "a\nb\tc", position: .min))
        XCTAssertNoThrow(
            try HabitDisplay(
                description: String(repeating: "x", count: 4096), question: String(repeating: "q", count: 500),
                icon: String(repeating: "i", count: 64)
            ).validated())
        let bad = [
            HabitDisplay(description: String(repeating: "x", count: 4097)), HabitDisplay(question: String(repeating: "q", count: 501)),
            HabitDisplay(question: "a\nb"), HabitDisplay(icon: String(repeating: "i", count: 65)), HabitDisplay(icon: "a\u{0}b"),
            HabitDisplay(description: "bell\u{7}"),
        ]
        for display in bad { XCTAssertThrowsError(try display.validated(), "\(display)") }
    }

    func testLoopColours() {
        // Loop's palette by index, as its CSV export writes them.
        XCTAssertEqual(HabitDisplay.loopColour(0), "#D32F2F")
        XCTAssertEqual(HabitDisplay.loopColour(3), "#FF8F00")
        XCTAssertEqual(HabitDisplay.loopColour(8), "#00897B")
        XCTAssertEqual(HabitDisplay.loopColour(19), "#aaaaaa")
        // Early backups: ARGB as a signed 32-bit integer.
        XCTAssertEqual(HabitDisplay.loopColour(-16742021), "#00897B")
        XCTAssertEqual(HabitDisplay.loopColour(-1684967), "#E64A19")
        XCTAssertEqual(HabitDisplay.loopColour(Int64(Int32(bitPattern: 0xFF00_0001))), "#000001")
        // Neither: none.
        for stored: Int64 in [20, 1000, Int64(Int32.min) - 1, .min, .max] { XCTAssertNil(HabitDisplay.loopColour(stored), "\(stored)") }
    }
}
