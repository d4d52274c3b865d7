import CHabitCore
import Foundation
import XCTest

/// One version everywhere: the header states it (HC_VERSION_STRING) and the library,
/// habitctl, the Python package, the Rust crates and the changelog say the same
/// (pkg-config's is checked where it is installed, in InstallTests).
final class VersionTests: XCTestCase {
    func testEveryPackageStatesTheHeadersVersion() throws {
        let version = HC_VERSION_STRING
        XCTAssertEqual(version, "\(HC_VERSION_MAJOR).\(HC_VERSION_MINOR).\(HC_VERSION_PATCH)")
        XCTAssertEqual(String(cString: hc_version_string()), version)
        XCTAssertEqual(hc_version_number(), HC_VERSION_MAJOR * 1_000_000 + HC_VERSION_MINOR * 1000 + HC_VERSION_PATCH)

        func read(_ path: String) throws -> String { try String(contentsOfFile: Paths.root + "/" + path, encoding: .utf8) }
        func lines(_ path: String, _ pattern: Regex<(Substring, Substring)>) throws -> [String] {
            try read(path).split(separator: "\n").compactMap { try pattern.wholeMatch(in: $0).map { String($0.1) } }
        }
        XCTAssertEqual(try lines("bindings/python/pyproject.toml", /version = "(.*)"/), [version])
        XCTAssertEqual(try lines("bindings/python/src/habitcore/__init__.py", /__version__ = "(.*)"/), [version])
        XCTAssertEqual(try lines("bindings/rust/Cargo.toml", /version = "(.*)"/), [version], "the workspace's version, both crates'")
        XCTAssertEqual(try lines("bindings/rust/habitcore/Cargo.toml", /habitcore-sys = \{ path = "..\/habitcore-sys", version = "(.*)" \}/), [version])
        for lock in ["bindings/rust/Cargo.lock", "examples/rust/Cargo.lock"] {
            let text = try read(lock)
            for crate in ["habitcore", "habitcore-sys"] {
                XCTAssertTrue(text.contains("name = \"\(crate)\"\nversion = \"\(version)\"\n"), "\(lock): \(crate)")
            }
        }
        XCTAssertTrue(
            try read("bindings/rust/habitcore-sys/src/bindings.rs").contains("HC_VERSION_STRING: &[u8; \(version.utf8.count + 1)] = b\"\(version)\\0\";"))
        XCTAssertTrue(try read("CHANGELOG.md").contains("\n## \(version)\n"), "CHANGELOG.md has a section for \(version)")

        let habitctl = try runProcess([Paths.habitctl, "--version"])
        XCTAssertEqual(habitctl.stdout, version + "\n")
    }
}
