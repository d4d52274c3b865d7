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
        let install = try runProcess(
            [venv + "/bin/pip", "install", "--no-index", "--no-cache-dir", bindings + "/python"],
            environment: quiet, currentDirectory: dir)
        XCTAssertSucceeded(install, "pip install bindings/python")

        // The installed library (README.md's Install: ~/.local and its exports), found by the
        // dynamic loader as any program finds it; the Swift toolchain hidden from it.
        let prefix = try InstalledPrefix.path()
        let environment = quiet.merging(try InstalledPrefix.environment()) { $1 }.merging(["HABITCORE_INCLUDE": prefix + "/include"]) { $1 }
        let imported = try runWithToolchainHidden(
            "env -u HABITCORE_LIBRARY '\(venv)/bin/python' -c 'import habitcore; print(habitcore.__file__); "
                + "print(habitcore.library_path); print(habitcore.__version__)'",
            environment: environment, currentDirectory: dir)
        XCTAssertSucceeded(imported, "import habitcore")
        let lines = imported.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix(venv + "/lib/") == true, "imported from the venv, not the sources: \(imported.stdout)")
        XCTAssertEqual(lines.dropFirst().first, prefix + "/lib/libhabitcore.so.1", "found by the loader in the prefix: \(imported.stdout)")
        XCTAssertEqual(lines.last, try Self.headerVersion())

        let suite = try runWithToolchainHidden(
            "env -u HABITCORE_LIBRARY '\(venv)/bin/python' -m pytest -q -p no:cacheprovider -rs '\(bindings)/python/tests'",
            environment: environment, currentDirectory: dir)
        XCTAssertSucceeded(suite, "pytest bindings/python/tests")
        XCTAssertTrue(suite.stdout.range(of: #"\d+ passed"#, options: .regularExpression) != nil, suite.stdout)
        XCTAssertFalse(suite.stdout.contains("skipped"), "every binding test runs here (C compiler, header):\n\(suite.stdout)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: bindings + "/python/build"), "pip built into the source tree")
    }

    /// The version the header states (HC_VERSION_STRING).
    static func headerVersion() throws -> String {
        try XCTUnwrap(
            try String(contentsOfFile: Paths.header, encoding: .utf8).components(separatedBy: "\n")
                .first { $0.hasPrefix("#define HC_VERSION_STRING") }?.split(separator: "\"").dropFirst().first.map(String.init))
    }

    /// scripts/build-wheel.sh's wheel, tagged for this platform, installed into a fresh venv
    /// with nothing else: no HABITCORE_LIBRARY, no LD_LIBRARY_PATH, the loader's cache and
    /// this build's folders without a libhabitcore, the Swift toolchain hidden; `import
    /// habitcore` loads the library inside the package and the package's suite passes.
    func testWheelCarriesTheLibraryAndPassesTheSuiteInAFreshVenv() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let built = try runProcess([Paths.root + "/scripts/build-wheel.sh", dir + "/dist"], currentDirectory: dir)
        XCTAssertSucceeded(built, "scripts/build-wheel.sh")
        let wheel = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let platform = try runProcess(["python3", "-c", "import sysconfig; print(sysconfig.get_platform().replace('-', '_').replace('.', '_'))"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(URL(fileURLWithPath: wheel).lastPathComponent, "habitcore-\(try Self.headerVersion())-py3-none-\(platform).whl")
        let listing = try runProcess(["python3", "-m", "zipfile", "-l", wheel]).stdout
        for member in ["habitcore/libhabitcore.so.1", "habitcore/habitcore-plugin-runner", "habitcore/_native.py"] {
            XCTAssertTrue(listing.contains(member), "\(member) in the wheel:\n\(listing)")
        }
        XCTAssertFalse(try runProcess(["sh", "-c", "ldconfig -p | grep libhabitcore"]).status == 0, "a libhabitcore in the loader's cache")

        let venv = dir + "/venv"
        XCTAssertSucceeded(try runProcess(["python3", "-m", "venv", "--system-site-packages", venv]), "python3 -m venv")
        let quiet = ["PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONDONTWRITEBYTECODE": "1"]
        XCTAssertSucceeded(
            try runProcess([venv + "/bin/pip", "install", "--no-index", "--no-cache-dir", wheel], environment: quiet, currentDirectory: dir),
            "pip install the wheel")
        let alone = "env -u HABITCORE_LIBRARY -u LD_LIBRARY_PATH -u PYTHONPATH "
        let imported = try runWithToolchainHidden(
            alone + "'\(venv)/bin/python' -c 'import habitcore; print(habitcore.library_path); print(habitcore.library_version())'",
            environment: quiet, currentDirectory: dir)
        XCTAssertSucceeded(imported, "import habitcore from the wheel")
        let lines = imported.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(
            lines.first?.hasPrefix(venv + "/lib/") == true && lines.first?.hasSuffix("/site-packages/habitcore/libhabitcore.so.1") == true,
            imported.stdout)
        XCTAssertEqual(lines.last, try Self.headerVersion())
        let runner = try runProcess(["sh", "-c", "ls -l '\(venv)'/lib/python3*/site-packages/habitcore/habitcore-plugin-runner"]).stdout
        XCTAssertTrue(runner.hasPrefix("-rwx"), "the plugin runner is executable: \(runner)")
        let suite = try runWithToolchainHidden(
            alone + "'\(venv)/bin/python' -m pytest -q -p no:cacheprovider -rs '\(bindings)/python/tests'",
            environment: quiet.merging(["HABITCORE_INCLUDE": Paths.include]) { $1 }, currentDirectory: dir)
        XCTAssertSucceeded(suite, "pytest bindings/python/tests against the wheel")
        XCTAssertTrue(suite.stdout.range(of: #"\d+ passed"#, options: .regularExpression) != nil, suite.stdout)
        XCTAssertFalse(suite.stdout.contains("skipped"), suite.stdout)
    }

    /// `cargo test --offline` for both crates (habitcore-sys: the generated declarations are
    /// current and match a C compiler's layouts; habitcore: the safe API and its doc examples),
    /// then examples/rust built and run: against the installed ~/.local through its
    /// habitcore.pc, with README.md's exports and nothing else.
    func testRustCratesPassCargoTestOffline() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Against the installed prefix, found through its habitcore.pc, the toolchain hidden.
        let environment = try InstalledPrefix.environment().merging(["CARGO_TARGET_DIR": dir + "/target", "CARGO_TERM_COLOR": "never"]) { $1 }
        let result = try runWithToolchainHidden(
            "env -u HABITCORE_LIB_DIR cargo test --offline --locked --workspace",
            environment: environment, currentDirectory: bindings + "/rust")
        XCTAssertSucceeded(result, "cargo test --offline in bindings/rust")
        let output = result.stdout + result.stderr
        for test in [
            "bindings_match_the_headers", "every_header_function_is_declared", "layouts_match_a_c_compiler",
            "closures_verify_proofs_and_panics_become_error_verdicts", "bad_input_is_the_library_s_error_never_a_crash",
            "a_store_moves_between_threads", "habitcore/src/lib.rs",
        ] {
            XCTAssertTrue(output.contains(test), "\(test) did not run:\n\(output)")
        }
        XCTAssertFalse(output.contains("FAILED"), output)
        // habitcore-sys: unit, generated, layout, doc; habitcore: unit, store, doc.
        XCTAssertGreaterThanOrEqual(output.components(separatedBy: "test result: ok.").count - 1, 7, output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: bindings + "/rust/target"), "cargo built into the source tree")

        // A program of one's own: examples/rust, built through pkg-config, run as the README says.
        let program = try runWithToolchainHidden(
            "env -u HABITCORE_LIB_DIR cargo run --quiet --offline --locked -- '\(dir)/rust.db'",
            environment: environment.merging(["CARGO_TARGET_DIR": dir + "/example"]) { $1 },
            currentDirectory: Paths.root + "/examples/rust")
        XCTAssertSucceeded(program, "examples/rust against the installed prefix")
        let linked = try runProcess(["ldd", dir + "/example/debug/habitcore-example"], environment: environment)
        XCTAssertTrue(linked.stdout.contains("libhabitcore.so.1 => \(try InstalledPrefix.path())/lib/"), linked.stdout)
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
        var environment = [
            "PKG_CONFIG_PATH": dir + "/1.0.0", "CARGO_TARGET_DIR": dir + "/target", "CARGO_TERM_COLOR": "never",
            "LD_LIBRARY_PATH": libraryDir,
        ]
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
