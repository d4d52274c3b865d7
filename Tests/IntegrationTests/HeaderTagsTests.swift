import CHabitCore
import Foundation
import XCTest

/// The header's tag lines (see "Tags" at the top of include/habitcore.h), read by
/// scripts/header-tags.py: one well-formed line per function, naming only real
/// codes, the symbol version the ABI baseline holds, a thread rule the top defines,
/// at least the codes the export can be seen to return; and the bindings' error
/// tables hold the header's codes.
final class HeaderTagsTests: XCTestCase {
    static let script = Paths.root + "/scripts/header-tags.py"

    struct Tags: Decodable {
        struct Function: Decodable {
            let header: String
            let since: String
            let thread: [String]
            let status: [String]
        }
        let status_codes: [[Value]]
        let functions: [String: Function]
        let faults: [String]

        enum Value: Decodable {
            case name(String), number(Int32)
            init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let number = try? container.decode(Int32.self) { self = .number(number) } else { self = .name(try container.decode(String.self)) }
            }
        }

        /// (name, value) of each status code, in the header's order.
        var codes: [(String, Int32)] {
            status_codes.compactMap { pair in
                guard pair.count == 2, case .name(let name) = pair[0], case .number(let value) = pair[1] else { return nil }
                return (name, value)
            }
        }
    }

    static func tags(include: String = Paths.include) throws -> Tags {
        let result = try runProcess(["python3", script, "json", "--include", include])
        XCTAssertSucceeded(result, "header-tags.py json")
        return try JSONDecoder().decode(Tags.self, from: Data(result.stdout.utf8))
    }

    func testEveryFunctionCarriesOneRightTagLine() throws {
        let check = try runProcess(["python3", Self.script, "check"])
        XCTAssertSucceeded(check, "header-tags.py check")
        let tags = try Self.tags()
        XCTAssertEqual(tags.faults, [])
        // Every prototype of habitcore.h is tagged: the same set the export table is checked against.
        let tagged = Set(tags.functions.filter { $0.value.header == "habitcore.h" }.keys)
        XCTAssertEqual(tagged, try HeaderContractTests.declaredFunctions())
        XCTAssertTrue(tags.functions.keys.contains("hc_hub_sync"), "the hub header is read too")
        let names = tags.codes.map(\.0)
        for (name, function) in tags.functions {
            XCTAssertTrue(["1.0", "1.1"].contains(function.since), "\(name): @since \(function.since)")
            XCTAssertFalse(function.thread.isEmpty, name)
            XCTAssertEqual(function.status, names.filter { function.status.contains($0) }, "\(name): codes in the header's order")
        }
        // Spot checks against what the exports plainly do.
        XCTAssertEqual(tags.functions["hc_habit_list_count"]?.status, ["HC_OK", "HC_E_INVALID", "HC_E_MISUSE"])
        XCTAssertEqual(tags.functions["hc_habit_list_count"]?.thread, ["list"])
        XCTAssertEqual(tags.functions["hc_free"]?.status, [])
        XCTAssertEqual(tags.functions["hc_shield_state"]?.since, "1.1")
        XCTAssertEqual(tags.functions["hc_hub_sync"]?.thread, ["hub", "store"])
    }

    /// The header's code list is the library's: hc_status_string names each code.
    func testStatusCodesAreTheLibrarys() throws {
        let codes = try Self.tags().codes
        XCTAssertEqual(codes.first?.0, "HC_OK")
        XCTAssertEqual(codes.map(\.1), Array(0..<Int32(codes.count)), "codes are 0, 1, 2, ... with none skipped")
        for (name, value) in codes {
            let words = String(cString: hc_status_string(value))
            XCTAssertTrue(words.hasPrefix(name), "hc_status_string(\(value)) is \(words), not \(name)")
        }
        XCTAssertEqual(String(cString: hc_status_string(Int32(codes.count))), "unknown status")
    }

    /// The checker fails on each kind of fault, naming the function.
    func testTheCheckerRefusesEachFault() throws {
        let original = try String(contentsOfFile: Paths.header, encoding: .utf8)
        let hub = try String(contentsOfFile: Paths.include + "/habitcore_hub.h", encoding: .utf8)
        let plugin = try String(contentsOfFile: Paths.include + "/habitcore_plugin.h", encoding: .utf8)
        let createTag =
            " * @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_CONFLICT HC_E_IO HC_E_BUSY HC_E_MISUSE HC_E_READONLY */\nint32_t hc_habit_create("
        XCTAssertTrue(original.contains(createTag), "the fixture's anchor is in the header")
        let faults: [(String, String, String)] = [
            ("no tag line", " */\nint32_t hc_habit_create(", "hc_habit_create: 0 tag lines"),
            ("two tag lines", " * @since 1.0 @thread store @status HC_OK\n" + createTag, "hc_habit_create: 2 tag lines"),
            ("an unknown code", createTag.replacingOccurrences(of: "HC_E_IO", with: "HC_E_NOPE"), "unknown status codes ['HC_E_NOPE']"),
            ("codes out of order", createTag.replacingOccurrences(of: "HC_E_INVALID HC_E_CONFLICT", with: "HC_E_CONFLICT HC_E_INVALID"), "out of order"),
            ("a wrong version", createTag.replacingOccurrences(of: "@since 1.0", with: "@since 1.1"), "its symbol version is 1.0"),
            ("an unknown thread rule", createTag.replacingOccurrences(of: "@thread store", with: "@thread whatever"), "@thread whatever is not a rule"),
            ("a code its export returns left out", createTag.replacingOccurrences(of: " HC_E_MISUSE", with: ""), "its export can return HC_E_MISUSE"),
            ("a malformed line", createTag.replacingOccurrences(of: "@status HC_OK", with: "@status OK"), "malformed tag line"),
        ]
        for (what, replacement, expected) in faults {
            let dir = try temporaryDirectory()
            try original.replacingOccurrences(of: createTag, with: replacement).write(toFile: dir + "/habitcore.h", atomically: true, encoding: .utf8)
            try hub.write(toFile: dir + "/habitcore_hub.h", atomically: true, encoding: .utf8)
            try plugin.write(toFile: dir + "/habitcore_plugin.h", atomically: true, encoding: .utf8)
            let result = try runProcess(["python3", Self.script, "check", "--include", dir])
            XCTAssertEqual(result.status, 1, "\(what): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(expected), "\(what): \(result.stderr)")
        }
    }
}
