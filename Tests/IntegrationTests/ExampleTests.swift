import Foundation
import XCTest

/// The examples in examples/ build and pass against the freshly built library.
final class ExampleTests: XCTestCase {
    let examples = Paths.root + "/examples"

    func testCExampleLinkedAgainstTheLibrary() throws {
        let dir = try temporaryDirectory()
        try compileC([examples + "/c/basic.c"], output: dir + "/basic", extra: ["-std=c99", "-pedantic", "-Werror"])
        let result = try runProcess([dir + "/basic", dir + "/basic.db"])
        XCTAssertSucceeded(result, "basic.c")
        XCTAssertTrue(result.stdout.contains("totals 5 after undo"), result.stdout)
    }

    func testCExampleLoadingTheLibraryWithDlopen() throws {
        let dir = try temporaryDirectory()
        let build = try runProcess([
            "cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", Paths.include,
            examples + "/c/dlopen.c", "-o", dir + "/dlopen", "-ldl",
        ])
        XCTAssertSucceeded(build, "compile dlopen.c")
        let result = try runProcess([dir + "/dlopen", Paths.library, dir + "/dlopen.db"])
        XCTAssertSucceeded(result, "dlopen.c")
        XCTAssertTrue(result.stdout.contains("6 of 7 days done"), result.stdout)
    }

    /// examples/python uses the package in bindings/python (from its sources here;
    /// BindingsTests installs it into a venv).
    func testPythonExample() throws {
        let dir = try temporaryDirectory()
        let result = try runProcess(
            ["python3", examples + "/python/demo.py", dir + "/py.db"],
            environment: [
                "HABITCORE_LIBRARY": Paths.library, "PYTHONPATH": Paths.root + "/bindings/python/src",
                "PYTHONDONTWRITEBYTECODE": "1",
            ])
        XCTAssertSucceeded(result, "demo.py")
        XCTAssertTrue(result.stdout.contains("refused: 2026-02-30 is not a date"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Walk totals 5400 steps"), result.stdout)
        XCTAssertTrue(result.stdout.contains("the Python verifier said APPROVED: py-png: a 96x72 PNG"), result.stdout)
    }

    /// examples/rust uses the habitcore crate in bindings/rust.
    func testRustExample() throws {
        let dir = try temporaryDirectory()
        let result = try runProcess(
            ["cargo", "run", "--quiet", "--offline", "--locked", "--", dir + "/rust.db"],
            environment: [
                "HABITCORE_LIB_DIR": Paths.buildDir, "LD_LIBRARY_PATH": Paths.buildDir,
                "CARGO_TARGET_DIR": dir + "/target",
            ],
            currentDirectory: examples + "/rust")
        XCTAssertSucceeded(result, "rust example")
        XCTAssertTrue(result.stdout.contains("Meditate done on 2026-03-02 and 2026-03-06 (streak 1)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("the Rust verifier said Approved: jpeg: a 400-byte JPEG"), result.stdout)
    }
}
