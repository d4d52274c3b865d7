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
        XCTAssertTrue(
            result.stdout.contains("no breaks; 0 addition(s)"),
            "\(result.stdout)run: python3 scripts/abi-guard.py update Tests/abi/habitcore.abi include .build/debug/libhabitcore.so")
    }

    /// The hub library (include/habitcore_hub.h, libhabitcore_hub.so) has a baseline of
    /// its own, checked by the same script with ABI_GUARD_HEADERS naming its header.
    func hubGuardCheck(include: String) throws -> ProcessResult {
        try runProcess(
            ["python3", Self.script, "check", Paths.root + "/Tests/abi/habitcore_hub.abi", include, Paths.buildDir + "/libhabitcore_hub.so"],
            environment: ["ABI_GUARD_HEADERS": "habitcore_hub.h"])
    }

    func testTheHubHeaderAndLibraryKeepTheirBaseline() throws {
        let result = try hubGuardCheck(include: Paths.include)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stdout.contains("no breaks; 0 addition(s)"),
            "\(result.stdout)run: ABI_GUARD_HEADERS=habitcore_hub.h python3 scripts/abi-guard.py update Tests/abi/habitcore_hub.abi include .build/debug/libhabitcore_hub.so"
        )
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
            (
                "a field moved",
                {
                    $0.replacingOccurrences(
                        of: "    int32_t day;    /* HC_DAY_NONE: from at_ms */\n    int32_t source; /* HC_SOURCE_* */",
                        with: "    int32_t source; /* HC_SOURCE_* */\n    int32_t day;    /* HC_DAY_NONE: from at_ms */")
                }, "changed: field hc_entry_input.day offset 16"
            ),
            (
                "a constant changed",
                {
                    $0.replacingOccurrences(of: "#define HC_KIND_DURATION 3", with: "#define HC_KIND_DURATION 5")
                }, "changed: constant HC_KIND_DURATION = 3"
            ),
            (
                "a parameter retyped",
                {
                    $0.replacingOccurrences(
                        of: "int32_t hc_habit_archive(hc_store *store, int64_t id, int32_t archived);",
                        with: "int32_t hc_habit_archive(hc_store *store, int64_t id, int64_t archived);")
                }, "changed: function hc_habit_archive"
            ),
            (
                "a function removed",
                {
                    $0.replacingOccurrences(
                        of: "int32_t hc_entry_undo_last(int64_t *out_undo_id, hc_store *store, int64_t habit_id, int32_t day);",
                        with: "")
                }, "removed: function hc_entry_undo_last"
            ),
        ]
        for (what, edit, message) in breaks {
            let result = try guardCheck(include: try scratchInclude(edit))
            XCTAssertEqual(result.status, 1, "\(what) must fail the guard: \(result.stdout)\(result.stderr)")
            XCTAssertTrue(result.stdout.contains(message), "\(what): \(result.stdout)")
        }
    }

    /// A stand-in library exporting the baseline's symbols, each bound to the node the
    /// baseline names, except where `nodes` says otherwise, plus `extra` symbols.
    private func standInLibrary(nodes: [String: String] = [:], extra: [String: String] = [:]) throws -> String {
        let dir = try temporaryDirectory()
        var byNode: [String: [String]] = [:]
        for line in try String(contentsOfFile: Self.baseline, encoding: .utf8).split(separator: "\n") where line.hasPrefix("symbol ") {
            let parts = line.split(separator: " ").map(String.init)
            byNode[nodes[parts[1]] ?? parts[2], default: []].append(parts[1])
        }
        for (name, node) in extra { byNode[node, default: []].append(name) }
        let names = byNode.values.flatMap { $0 }
        try names.map { "void \($0)(void) {}\n" }.joined().write(toFile: dir + "/stand-in.c", atomically: true, encoding: .utf8)
        let ordered = byNode.keys.sorted()
        let script = ordered.enumerated().map { index, node in
            "\(node) { global: \(byNode[node, default: []].map { $0 + ";" }.joined(separator: " ")) \(index == 0 ? "local: *;" : "") }"
                + (index == 0 ? ";" : " \(ordered[index - 1]);")
        }.joined(separator: "\n")
        try script.write(toFile: dir + "/stand-in.map", atomically: true, encoding: .utf8)
        XCTAssertSucceeded(
            try runProcess([
                "cc", "-shared", "-fPIC", "-w", dir + "/stand-in.c", "-Wl,--version-script=" + dir + "/stand-in.map",
                "-o", dir + "/libstand-in.so",
            ]), "cc stand-in")
        return dir + "/libstand-in.so"
    }

    /// Symbol versions are part of the ABI: a 1.0 call moved to a later node breaks
    /// programs linked against it, and a new call bound to an old node lies about what
    /// a program needs. The same header and baseline, a library built each way.
    func testSymbolVersionsAreGuarded() throws {
        let current = try runProcess(["python3", Self.script, "check", Self.baseline, Paths.include, try standInLibrary()])
        XCTAssertEqual(current.status, 0, current.stdout + current.stderr)

        let moved = try runProcess(["python3", Self.script, "check", Self.baseline, Paths.include, try standInLibrary(nodes: ["hc_habit_create": "HC_1.1"])])
        XCTAssertEqual(moved.status, 1, moved.stdout)
        XCTAssertTrue(moved.stdout.contains("changed: symbol hc_habit_create HC_1.0\n     now: symbol hc_habit_create HC_1.1"), moved.stdout)

        let version = try XCTUnwrap(
            try String(contentsOfFile: Paths.header, encoding: .utf8).split(separator: "\n")
                .first { $0.hasPrefix("#define HC_VERSION_MINOR ") }?.split(separator: " ").last.map(String.init))
        let old = try runProcess([
            "python3", Self.script, "check", Self.baseline, Paths.include,
            try standInLibrary(extra: ["hc_something_new": "HC_1.0"]),
        ])
        XCTAssertEqual(old.status, 1, old.stdout)
        XCTAssertTrue(old.stdout.contains("misplaced: symbol hc_something_new HC_1.0 (a symbol new in this release is bound to HC_1.\(version))"), old.stdout)
        let newest = try runProcess([
            "python3", Self.script, "check", Self.baseline, Paths.include,
            try standInLibrary(extra: ["hc_something_new": "HC_1.\(version)"]),
        ])
        XCTAssertEqual(newest.status, 0, newest.stdout)
        XCTAssertTrue(newest.stdout.contains("no breaks; 1 addition(s)"), newest.stdout)
    }

    /// The shipped library's 1.0 calls are bound to HC_1.0 and the calls added since to
    /// HC_1.1, and the header's tag line says "@since 1.1" of exactly the latter.
    func testTheHeaderSaysSinceOfEveryCallBoundToALaterNode() throws {
        let table = try runProcess(["readelf", "--dyn-syms", "-W", Paths.library])
        var nodes: [String: String] = [:]
        for line in table.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 8, parts[3] == "FUNC", parts[6] != "UND", parts[7].hasPrefix("hc_") {
                let symbol = parts[7].split(separator: "@", omittingEmptySubsequences: true).map(String.init)
                nodes[symbol[0]] = symbol.count > 1 ? symbol[1] : "(none)"
            }
        }
        XCTAssertGreaterThan(nodes.count, 150)
        XCTAssertEqual(Set(nodes.values), ["HC_1.0", "HC_1.1"])
        var since: [String: Bool] = [:]
        var comment = ""
        for line in try String(contentsOfFile: Paths.header, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            let text = String(line)
            if text.hasPrefix("/* ----") { continue }
            if text.hasPrefix("/* ") && text.hasSuffix("*/") && text.contains("   ") && !text.contains(";") {
                comment = ""; continue  // a section's title line
            }
            if text.hasPrefix("/*") || text.hasPrefix(" *") { comment += text + "\n"; continue }
            if let match = text.firstMatch(of: /^[a-z].*?\b(hc_\w+)\(/) {
                since[String(match.1)] = comment.contains("@since 1.1 ")
                comment = ""
            } else if text.isEmpty || text.hasPrefix("#") || text.hasPrefix("typedef") || text.hasPrefix("}") {
                comment = ""
            }
        }
        for (name, node) in nodes.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(since[name], node == "HC_1.1", "\(name) is bound to \(node); its tag \(since[name] == true ? "says" : "does not say") @since 1.1")
        }
        let header = try String(contentsOfFile: Paths.header, encoding: .utf8)
        XCTAssertNil(header.firstMatch(of: /[Ii]ssue \d|\(since \d|[Aa]dded in \d|\(\d\.\d\)/), "one spelling, no issue numbers")
    }

    func testAdditionsPassAndAreCounted() throws {
        let include = try scratchInclude {
            $0.replacingOccurrences(
                of: "#ifdef __cplusplus\n}\n#endif\n\n#endif /* HABITCORE_H */",
                with: "#define HC_SOMETHING_NEW 42\nint32_t hc_something_new(hc_store *store);\n\n"
                    + "#ifdef __cplusplus\n}\n#endif\n\n#endif /* HABITCORE_H */")
        }
        let result = try guardCheck(include: include)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("no breaks; 2 addition(s)"), result.stdout)
    }
}
