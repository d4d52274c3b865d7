import Foundation
import XCTest

/// Rules the compiler does not check, read from the sources themselves.
final class SourceRulesTests: XCTestCase {
    /// Every Swift file under Sources as (path, line number, code) with comments and the
    /// contents of string literals taken out, so only code is matched.
    func codeLines() throws -> [(String, Int, String)] {
        let root = Paths.root + "/Sources"
        let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: root)).filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThan(files.count, 50)
        var lines: [(String, Int, String)] = []
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            var inMultiline = false
            for (number, raw) in text.components(separatedBy: "\n").enumerated() {
                let quotes = raw.components(separatedBy: "\"\"\"").count - 1
                if inMultiline || quotes > 0 {
                    if quotes % 2 == 1 { inMultiline.toggle() }
                    continue
                }
                var code = raw.replacingOccurrences(of: #""(\\.|[^"\\])*""#, with: "\"\"", options: .regularExpression)
                if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
                lines.append((file, number + 1, code))
            }
        }
        return lines
    }

    func testNoTrapsInSources() throws {
        let forbidden: [(String, String)] = [
            (#"try!"#, "try!"), (#"\bas!"#, "as!"), (#"\bfatalError\("#, "fatalError"),
            (#"\bpreconditionFailure\("#, "preconditionFailure"), (#"\bprecondition\("#, "precondition"),
            (#"\bunsafelyUnwrapped\b"#, "unsafelyUnwrapped"),
            (#"[\w)\]>]!(?!=)"#, "a force unwrap (or an implicitly unwrapped optional)"),
        ]
        for (file, number, code) in try codeLines() {
            for (pattern, name) in forbidden where code.range(of: pattern, options: .regularExpression) != nil {
                XCTFail("\(file):\(number): \(name): \(code.trimmingCharacters(in: .whitespaces))")
            }
        }
    }

    func testTheRuleFindsWhatItLooksFor() {
        let pattern = #"[\w)\]>]!(?!=)"#
        for code in ["let x = y!", "f()!.g", "a[0]!", "var s: String!"] {
            XCTAssertNotNil(code.range(of: pattern, options: .regularExpression), code)
        }
        for code in ["if x != y", "guard !done", "a !== b"] {
            XCTAssertNil(code.range(of: pattern, options: .regularExpression), code)
        }
    }

    /// Struct sizes and defaults come from hc_<struct>_init (or the macros in C), never
    /// from a copy: habitctl, the examples and bindings set no struct_size; the tests set
    /// one only to play an older caller (a literal size), never today's by hand.
    func testNoStructDefaultsCopiedByHand() throws {
        let root = Paths.root
        var files = try FileManager.default.subpathsOfDirectory(atPath: root + "/Sources/habitctl").map { "Sources/habitctl/" + $0 }
        for folder in ["examples", "bindings"] where FileManager.default.fileExists(atPath: root + "/" + folder) {
            files += try FileManager.default.subpathsOfDirectory(atPath: root + "/" + folder).map { folder + "/" + $0 }
                .filter { !$0.contains("/target/") && !$0.contains("/.build") }
        }
        files = files.filter { [".swift", ".py", ".rs", ".c", ".cpp", ".h"].contains(where: $0.hasSuffix) }
        XCTAssertGreaterThan(files.count, 20)
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated()
            where line.range(of: #"struct_size\s*(=[^=]|:\s*[^:\s])"#, options: .regularExpression) != nil
                && !line.contains("(\"struct_size\", ctypes.c_uint32)") && !line.contains("struct_size: u32")
            {
                XCTFail("\(file):\(number + 1): sets struct_size by hand: \(line)")
            }
        }
        let tests = try FileManager.default.subpathsOfDirectory(atPath: root + "/Tests/IntegrationTests").filter { $0.hasSuffix(".swift") }
        for file in tests where file != "SourceRulesTests.swift" {
            let text = try String(contentsOfFile: root + "/Tests/IntegrationTests/" + file, encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated()
            where line.range(of: #"struct_size(:| =) UInt32\(MemoryLayout"#, options: .regularExpression) != nil {
                XCTFail("Tests/IntegrationTests/\(file):\(number + 1): today's size by hand: \(line)")
            }
        }
    }

    /// habitctl writes through Writer only: nothing else may reach stdout or stderr.
    func testHabitctlWritesOnlyThroughTheWriter() throws {
        for (file, number, code) in try codeLines() where file.hasPrefix("habitctl/") && file != "habitctl/Writer.swift" {
            for pattern in [
                #"FileHandle\.standard(Output|Error)"#, #"\b(fputs|fwrite|fprintf|printf|puts|putchar|dprintf)\("#,
                #"Swift\.print"#, #"\bwrite\((STDOUT|STDERR)_FILENO|\bwrite\([12],"#,
                #"(^|[^.\w])exit\("#,
            ] {  // exits go through Writer.finish, which reports lost output
                if code.range(of: pattern, options: .regularExpression) != nil {
                    XCTFail("habitctl/\(file):\(number) writes around Writer: \(code.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }
}
