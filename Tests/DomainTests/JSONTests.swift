import XCTest

@testable import HabitCore

final class JSONTests: XCTestCase {
    func testRoundTrip() throws {
        let text = #"{"a":[1,-2.5,true,false,null,"x\"\\\n\u00e9\ud83d\ude00"],"b":{"c":9007199254740993}}"#
        let value = try JSON.parse(text)
        XCTAssertEqual(value["b"]?["c"], .int(9_007_199_254_740_993))
        XCTAssertEqual(try JSON.parse(value.text), value)
        XCTAssertEqual(JSON.string("tab\there\u{1}").text, #""tab\there\u0001""#)
    }

    func testHostileInputIsRefusedWithAReason() {
        let bad = [
            "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "1e400", "\"\\x\"", "\"\\ud800\"", "\"\\udc00x\"",
            "\"a\u{1}\"", "{\"a\":1,\"a\":2}", "[1] 2", "nul", "tru", String(repeating: "[", count: 100),
            String(repeating: "{\"a\":", count: 70) + "1" + String(repeating: "}", count: 70),
        ]
        for text in bad {
            XCTAssertThrowsError(try JSON.parse(text), text.prefix(20).description) { error in
                XCTAssertEqual((error as? HabitError)?.code, .invalid)
            }
        }
        XCTAssertThrowsError(try JSON.parse([0x22, 0xC3, 0x28, 0x22]), "invalid UTF-8")
        XCTAssertThrowsError(try JSON.parse([0x22, 0xED, 0xA0, 0x80, 0x22]), "encoded surrogate")
    }

    func testEveryTruncationAndByteFlipIsSafe() {
        let text = Array(#"{"habits":[{"name":"Wäter","target":8.5,"tags":["a","b"]}],"n":-12e3,"ok":true}"#.utf8)
        for length in 0..<text.count { _ = try? JSON.parse(Array(text[0..<length])) }
        for index in text.indices {
            for byte: UInt8 in [0, 0x22, 0x5C, 0x7B, 0x80, 0xFF] {
                var copy = text
                copy[index] = byte
                _ = try? JSON.parse(copy)
            }
        }
    }

    func testStringsMixASCIIRunsEscapesAndOtherScripts() throws {
        let text = #"["plain","caf\u00e9 é ☕ 😀","a\"b\\c\nd","x\ud83d\ude00y",""]"#
        XCTAssertEqual(try JSON.parse(text), .array([.string("plain"), .string("café é ☕ 😀"), .string("a\"b\\c\nd"), .string("x😀y"), .string("")]))
        XCTAssertThrowsError(try JSON.parse([0x22, 0x61, 0xC3, 0x22]), "a cut UTF-8 sequence")
        XCTAssertThrowsError(try JSON.parse([0x22, 0x61, 0x5C, 0x6E, 0xFF, 0x22]), "a byte UTF-8 never has, after an escape")
    }
}
