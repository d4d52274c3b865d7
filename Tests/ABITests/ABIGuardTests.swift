import Foundation
import XCTest

/// The ABI guard (scripts/abi-guard.py): the header and the built library keep every
/// fact of the committed description (Tests/abi/habitcore.abi), and the guard does
/// catch each kind of break a careless edit makes.
final class ABIGuardTests: XCTestCase {
    static let script = Paths.root + "/scripts/abi-guard.py"
    static let baseline = Paths.root + "/Tests/abi/habitcore.abi"

    func guardCheck(include: String) throws -> ProcessResult {
        try runProcess(["python3", Self.script, "check", Self.baseline, include, Paths.library])
    }

    /// The committed description is the current ABI: nothing removed or changed, and
    /// nothing added without `abi-guard.py update`.
    func testTheHeaderAndTheLibraryKeepTheBaseline() throws {
        let result = try guardCheck(include: Paths.include)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("no breaks; 0 addition(s)"),
                      "\(result.stdout)run: python3 scripts/abi-guard.py update Tests/abi/habitcore.abi include .build/debug/libhabitcore.so")
    }

    /// The hub library (include/habitcore_hub.h, libhabitcore_hub.so) has a baseline of
    /// its own, checked by the same script with ABI_GUARD_HEADERS naming its header.
    func hubGuardCheck(include: String) throws -> ProcessResult {
        try runProcess(["python3", Self.script, "check", Paths.root + "/Tests/abi/habitcore_hub.abi", include, Paths.buildDir + "/libhabitcore_hub.so"],
                       environment: ["ABI_GUARD_HEADERS": "habitcore_hub.h"])
    }

    func testTheHubHeaderAndLibraryKeepTheirBaseline() throws {
        let result = try hubGuardCheck(include: Paths.include)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("no breaks; 0 addition(s)"),
                      "\(result.stdout)run: ABI_GUARD_HEADERS=habitcore_hub.h python3 scripts/abi-guard.py update Tests/abi/habitcore_hub.abi include .build/debug/libhabitcore_hub.so")
        // A break in the hub header fails its guard, naming it.
        let dir = try temporaryDirectory()
        for name in ["habitcore.h", "habitcore_plugin.h", "habitcore_hub.h"] {
            try FileManager.default.copyItem(atPath: Paths.include + "/" + name, toPath: dir + "/" + name)
        }
        let header = try String(contentsOfFile: dir + "/habitcore_hub.h", encoding: .utf8)
        let edited = header.replacingOccurrences(of: "    int64_t records_pushed;", with: "    int32_t records_pushed;")
        XCTAssertNotEqual(edited, header)
        try edited.write(toFile: dir + "/habitcore_hub.h", atomically: true, encoding: .utf8)
        let broken = try hubGuardCheck(include: dir)
        XCTAssertNotEqual(broken.status, 0)
        XCTAssertTrue(broken.stdout.contains("hc_hub_sync_summary.records_pushed"), broken.stdout)
    }

    /// A scratch copy of include/ with one edit applied to habitcore.h.
    private func scratchInclude(_ edit: (String) -> String) throws -> String {
        let dir = try temporaryDirectory()
        for name in ["habitcore.h", "habitcore_plugin.h"] {
            try FileManager.default.copyItem(atPath: Paths.include + "/" + name, toPath: dir + "/" + name)
        }
        let header = try String(contentsOfFile: dir + "/habitcore.h", encoding: .utf8)
        let edited = edit(header)
        XCTAssertNotEqual(edited, header, "the edit must change the header")
        try edited.write(toFile: dir + "/habitcore.h", atomically: true, encoding: .utf8)
        return dir
    }

    func testEachSeededBreakFailsTheGuardNamingIt() throws {
        let breaks: [(String, (String) -> String, String)] = [
            ("a field moved", {
                $0.replacingOccurrences(of: "    int32_t day;    /* HC_DAY_NONE: from at_ms */\n    int32_t source; /* HC_SOURCE_* */",
                                        with: "    int32_t source; /* HC_SOURCE_* */\n    int32_t day;    /* HC_DAY_NONE: from at_ms */")
            }, "changed: field hc_entry_input.day offset 16"),
            ("a constant changed", {
                $0.replacingOccurrences(of: "#define HC_KIND_DURATION 3", with: "#define HC_KIND_DURATION 5")
            }, "changed: constant HC_KIND_DURATION = 3"),
            ("a parameter retyped", {
                $0.replacingOccurrences(of: "int32_t hc_habit_archive(hc_store *store, int64_t id, int32_t archived);",
                                        with: "int32_t hc_habit_archive(hc_store *store, int64_t id, int64_t archived);")
            }, "changed: function hc_habit_archive"),
            ("a function removed", {
                $0.replacingOccurrences(of: "int32_t hc_entry_undo_last(int64_t *out_undo_id, hc_store *store, int64_t habit_id, int32_t day);",
                                        with: "")
            }, "removed: function hc_entry_undo_last"),
        ]
        for (what, edit, message) in breaks {
            let result = try guardCheck(include: try scratchInclude(edit))
            XCTAssertEqual(result.status, 1, "\(what) must fail the guard: \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.contains(message), "\(what): \(result.stdout)")
        }
    }

    func testAdditionsPassAndAreCounted() throws {
        let include = try scratchInclude {
            $0.replacingOccurrences(of: "#ifdef __cplusplus\n}\n#endif\n\n#endif /* HABITCORE_H */",
                                    with: "#define HC_SOMETHING_NEW 42\nint32_t hc_something_new(hc_store *store);\n\n"
                                        + "#ifdef __cplusplus\n}\n#endif\n\n#endif /* HABITCORE_H */")
        }
        let result = try guardCheck(include: include)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("no breaks; 2 addition(s)"), result.stdout)
    }
}
