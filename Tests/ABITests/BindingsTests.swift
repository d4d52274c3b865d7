import Foundation
import XCTest

/// The language packages (bindings/python, bindings/rust) installed and tested as their
/// users would, against the library this build just made. Build products go to a
/// temporary folder, never into the source tree.
final class BindingsTests: XCTestCase {
    let bindings = Paths.root + "/bindings"
    /// The folder holding libhabitcore.so the packages are tested against: this build's
    /// (for the pkg-config fallback test).
    var libraryDir: String { Paths.buildDir }

    /// A fresh venv, `pip install bindings/python` with no package index (the package's build
    /// backend is stdlib-only), then its own pytest suite run against the installed package.
    func testPythonPackageInstallsIntoAFreshVenvAndPassesItsSuite() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let venv = dir + "/venv"
        // --system-site-packages: pytest comes from the system, as on a developer's machine.
        XCTAssertSucceeded(try runProcess(["python3", "-m", "venv", "--system-site-packages", venv]), "python3 -m venv")
        let quiet = ["PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONDONTWRITEBYTECODE": "1"]
        let install = try runProcess([venv + "/bin/pip", "install", "--no-index", "--no-cache-dir", bindings + "/python"],
                                     environment: quiet, currentDirectory: dir)
        XCTAssertSucceeded(install, "pip install bindings/python")

        // The installed library (scripts/install.sh), the Swift toolchain hidden from it.
        let prefix = try InstalledPrefix.path()
        let environment = quiet.merging(["HABITCORE_LIBRARY": prefix + "/lib/libhabitcore.so.1", "HABITCORE_INCLUDE": prefix + "/include"]) { $1 }
        let imported = try runWithToolchainHidden("'\(venv)/bin/python' -c 'import habitcore; print(habitcore.__file__); print(habitcore.library_path)'",
                                                  environment: environment, currentDirectory: dir)
        XCTAssertSucceeded(imported, "import habitcore")
        let lines = imported.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix(venv + "/lib/") == true, "imported from the venv, not the sources: \(imported.stdout)")
        XCTAssertEqual(lines.last, prefix + "/lib/libhabitcore.so.1")

        let suite = try runWithToolchainHidden("'\(venv)/bin/python' -m pytest -q -p no:cacheprovider -rs '\(bindings)/python/tests'",
                                               environment: environment, currentDirectory: dir)
        XCTAssertSucceeded(suite, "pytest bindings/python/tests")
        XCTAssertTrue(suite.stdout.range(of: #"\d+ passed"#, options: .regularExpression) != nil, suite.stdout)
        XCTAssertFalse(suite.stdout.contains("skipped"), "every binding test runs here (C compiler, header):\n\(suite.stdout)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: bindings + "/python/build"), "pip built into the source tree")
    }

    /// `cargo test --offline` for both crates (habitcore-sys: the generated declarations are
    /// current and match a C compiler's layouts; habitcore: the safe API and its doc examples),
    /// linked against the installed prefix through pkg-config.
    func testRustCratesPassCargoTestOffline() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Against the installed prefix, found through its habitcore.pc, the toolchain hidden.
        let prefix = try InstalledPrefix.path()
        let result = try runWithToolchainHidden("env -u HABITCORE_LIB_DIR cargo test --offline --locked --workspace",
                                                environment: ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig", "LD_LIBRARY_PATH": prefix + "/lib",
                                                              "CARGO_TARGET_DIR": dir + "/target", "CARGO_TERM_COLOR": "never"],
                                                currentDirectory: bindings + "/rust")
        XCTAssertSucceeded(result, "cargo test --offline in bindings/rust")
        let output = result.stdout + result.stderr
        for test in ["bindings_match_the_headers", "every_header_function_is_declared", "layouts_match_a_c_compiler",
                     "closures_verify_proofs_and_panics_become_error_verdicts", "bad_input_is_the_library_s_error_never_a_crash",
                     "a_store_moves_between_threads", "habitcore/src/lib.rs"] {
            XCTAssertTrue(output.contains(test), "\(test) did not run:\n\(output)")
        }
        XCTAssertFalse(output.contains("FAILED"), output)
        // habitcore-sys: unit, generated, layout, doc; habitcore: unit, store, doc.
        XCTAssertGreaterThanOrEqual(output.components(separatedBy: "test result: ok.").count - 1, 7, output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: bindings + "/rust/target"), "cargo built into the source tree")
    }

    /// Without HABITCORE_LIB_DIR, habitcore-sys links what `pkg-config --libs habitcore`
    /// prints (a habitcore.pc written here for the build folder; the installed one works alike).
    /// A .pc older than 1.0 is not used: the build says so and falls back to the default path.
    func testRustCratesFindTheLibraryThroughPkgConfig() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func pc(_ version: String) throws {
            try FileManager.default.createDirectory(atPath: dir + "/" + version, withIntermediateDirectories: true)
            try """
            libdir=\(libraryDir)
            includedir=\(Paths.include)
            Name: habitcore
            Description: habitcore test stand-in
            Version: \(version)
            Libs: -L${libdir} -lhabitcore
            Cflags: -I${includedir}

            """.write(toFile: dir + "/" + version + "/habitcore.pc", atomically: true, encoding: .utf8)
        }
        try pc("1.0.0")
        var environment = ["PKG_CONFIG_PATH": dir + "/1.0.0", "CARGO_TARGET_DIR": dir + "/target", "CARGO_TERM_COLOR": "never",
                           "LD_LIBRARY_PATH": libraryDir]
        let cargo = ["env", "-u", "HABITCORE_LIB_DIR", "cargo", "test", "--offline", "--locked", "-p", "habitcore-sys", "--test", "layout", "-vv"]
        let found = try runProcess(cargo, environment: environment, currentDirectory: bindings + "/rust")
        XCTAssertSucceeded(found, "cargo test through pkg-config")
        XCTAssertTrue(found.stdout.contains("test result: ok. 2 passed"), found.stdout)
        XCTAssertTrue((found.stdout + found.stderr).contains("cargo:rustc-link-search=native=\(libraryDir)"), found.stderr)

        try pc("0.9.0")
        environment["PKG_CONFIG_PATH"] = dir + "/0.9.0"
        let old = try runProcess(cargo, environment: environment, currentDirectory: bindings + "/rust")
        XCTAssertTrue((old.stdout + old.stderr).contains("neither HABITCORE_LIB_DIR nor pkg-config found it"), old.stderr)
    }
}
