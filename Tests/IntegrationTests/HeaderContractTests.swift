import CHabitCore
import Foundation
import HabitCore
import XCTest

/// The header is the contract: it compiles alone, strictly, as C and C++, and it
/// declares exactly what the library exports.
final class HeaderContractTests: XCTestCase {
    func testHeaderCompilesAloneAsPedanticC99AndCxx17() throws {
        let dir = try temporaryDirectory()
        let cSource = dir + "/only_header.c", cxxSource = dir + "/only_header.cpp"
        let body = """
            #include "habitcore.h"
            static hc_habit_options options = HC_HABIT_OPTIONS_INIT;
            static hc_entry_input entry = HC_ENTRY_INPUT_INIT;
            int main(void) { return (int)(options.struct_size + entry.struct_size) == 0; }
            """
        try body.write(toFile: cSource, atomically: true, encoding: .utf8)
        try body.write(toFile: cxxSource, atomically: true, encoding: .utf8)
        let flags = ["-Wall", "-Wextra", "-pedantic", "-Werror", "-I", Paths.include, "-fsyntax-only"]
        XCTAssertSucceeded(try runProcess(["cc", "-std=c99"] + flags + [cSource]), "C99")
        XCTAssertSucceeded(try runProcess(["g++", "-std=c++17"] + flags + [cxxSource]), "C++17")
    }

    /// The plugin header is all a plugin includes: it must compile with nothing else.
    func testPluginHeaderCompilesAloneAsPedanticC99AndCxx17() throws {
        let dir = try temporaryDirectory()
        let body = """
            #include "habitcore_plugin.h"
            static int32_t verify(const hc_plugin_evidence *evidence, hc_plugin_verdict *out, void *user_data) {
                (void)user_data; (void)evidence; out->outcome = HC_OUTCOME_ERROR; return 0;
            }
            static void destroy(void *user_data) { (void)user_data; }
            const hc_plugin hc_plugin_entry = { HC_PLUGIN_ABI_VERSION, 0, "x", "1", "", 0, verify, destroy };
            int main(void) { return hc_plugin_entry.abi_version == HC_PLUGIN_ABI_VERSION ? 0 : 1; }
            """
        try body.write(toFile: dir + "/plugin.c", atomically: true, encoding: .utf8)
        try body.write(toFile: dir + "/plugin.cpp", atomically: true, encoding: .utf8)
        let flags = ["-Wall", "-Wextra", "-pedantic", "-Werror", "-I", Paths.include, "-fsyntax-only"]
        XCTAssertSucceeded(try runProcess(["cc", "-std=c99"] + flags + [dir + "/plugin.c"]), "C99")
        XCTAssertSucceeded(try runProcess(["g++", "-std=c++17"] + flags + [dir + "/plugin.cpp"]), "C++17")
    }

    /// Functions the header declares, read from its prototypes.
    /// The benchmarks call the header too: each compiles against it with pointer types
    /// checked (an int32_t count where the header takes int64_t once slipped through).
    func testBenchmarksCompileAgainstTheHeader() throws {
        let bench = Paths.root + "/bench"
        let sources = try FileManager.default.contentsOfDirectory(atPath: bench).filter { $0.hasSuffix(".c") }.sorted()
        XCTAssertGreaterThanOrEqual(sources.count, 5)
        for source in sources {
            let result = try runProcess([
                "cc", "-Wall", "-Werror=incompatible-pointer-types", "-fsyntax-only",
                "-I", Paths.include, bench + "/" + source,
            ])
            XCTAssertSucceeded(result, "bench/\(source)")
        }
    }

    static func declaredFunctions() throws -> Set<String> {
        let text = try String(contentsOfFile: Paths.header, encoding: .utf8)
        let regex = try NSRegularExpression(pattern: #"^[a-z][a-z0-9_ \*]*?\b(hc_[a-z0-9_]+)\("#, options: [.anchorsMatchLines])
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            regex.matches(in: text, range: range).compactMap { match in
                Range(match.range(at: 1), in: text).map { String(text[$0]) }
            })
    }

    func testExportedSymbolsEqualDeclaredFunctions() throws {
        try Self.assertExportsEqualTheHeader(Paths.library)
    }

    /// The library's dynamic symbol table holds exactly the header's functions (and the
    /// version node): run on the debug build here, on the shipped one by StaticBuildTests.
    static func assertExportsEqualTheHeader(_ library: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try runProcess(["nm", "-D", "--defined-only", library])
        XCTAssertSucceeded(result, "nm", file: file, line: line)
        var exported = Set<String>()
        var foreign: [String] = []
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            // Lowercase types are local bindings: in the table, but not exported.
            guard parts.count >= 3, parts[1].first?.isUppercase == true else { continue }
            let name = String(parts[2]).split(separator: "@").first.map(String.init) ?? ""
            // HC_1.0, HC_1.1: the version nodes' own entries.
            if name.hasPrefix("hc_") { exported.insert(name) } else if name.wholeMatch(of: /HC_\d+\.\d+/) == nil { foreign.append(name) }
        }
        let declared = try Self.declaredFunctions()
        XCTAssertGreaterThan(declared.count, 40, file: file, line: line)
        XCTAssertEqual(exported.subtracting(declared).sorted(), [], "\(library): exported but not declared", file: file, line: line)
        XCTAssertEqual(declared.subtracting(exported).sorted(), [], "\(library): declared but not exported", file: file, line: line)
        XCTAssertEqual(foreign, [], "\(library): only hc_* symbols may be exported", file: file, line: line)
    }

    /// Header macros Swift cannot import are mirrored in the library; C sees the same values.
    func testMacrosMatchTheLibrary() throws {
        let dir = try temporaryDirectory()
        let source = dir + "/macros.c"
        try """
        #include "habitcore.h"
        #include <stdio.h>
        #include <string.h>
        int main(void) {
            if (hc_version_number() != HC_VERSION_NUMBER) return 1;
            if (strcmp(hc_version_string(), HC_VERSION_STRING) != 0) return 2;
            if (hc_abi_version() != HC_ABI_VERSION) return 3;
            hc_habit_options o = HC_HABIT_OPTIONS_INIT;
            if (o.start_day != HC_DAY_NONE || HC_DAY_NONE != INT32_MIN) return 4;
            char buf[HC_DATE_BUFSIZE];
            if (hc_date_format(buf, sizeof buf, 0) != HC_OK || strcmp(buf, "1970-01-01") != 0) return 5;
            if (sizeof(hc_day_state) != 24) return 6;
            /* The init function fills what the macro does. */
            hc_shield_rule m = HC_SHIELD_RULE_INIT, f;
            memset(&f, 0x5a, sizeof f);
            if (hc_shield_rule_init(&f, sizeof f) != HC_OK || memcmp(&m, &f, sizeof m) != 0) return 7;
            hc_sync_summary sm = HC_SYNC_SUMMARY_INIT, sf;
            memset(&sf, 0x5a, sizeof sf);
            if (hc_sync_summary_init(&sf, sizeof sf) != HC_OK || memcmp(&sm, &sf, sizeof sm) != 0 || sm.struct_size != sizeof sm) return 8;
            puts("ok");
            return 0;
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        try compileC([source], output: dir + "/macros")
        XCTAssertSucceeded(try runProcess([dir + "/macros"]), "macros")
    }

    /// A limit the header states as a constant is the domain's rule, stated once there.
    func testTheDomainStatesTheHeadersLimits() {
        XCTAssertEqual(ShieldRule.maxHabits, Int(HC_SHIELD_MAX_HABITS))
    }
}
