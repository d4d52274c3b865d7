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
        let build = try runProcess(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", Paths.include,
                                    examples + "/c/dlopen.c", "-o", dir + "/dlopen", "-ldl"])
        XCTAssertSucceeded(build, "compile dlopen.c")
        let result = try runProcess([dir + "/dlopen", Paths.library, dir + "/dlopen.db"])
        XCTAssertSucceeded(result, "dlopen.c")
        XCTAssertTrue(result.stdout.contains("6 of 7 days done"), result.stdout)
    }

    func testPythonExample() throws {
        let dir = try temporaryDirectory()
        let result = try runProcess(["python3", examples + "/python/demo.py", dir + "/py.db"],
                                    environment: ["HABITCORE_LIB": Paths.library, "PYTHONDONTWRITEBYTECODE": "1"])
        XCTAssertSucceeded(result, "demo.py")
        XCTAssertTrue(result.stdout.contains("Walk totals 5400 steps"), result.stdout)
        XCTAssertTrue(result.stdout.contains("the Python verifier said py-png: a 96x72 PNG"), result.stdout)
    }

    func testRustExample() throws {
        let dir = try temporaryDirectory()
        let result = try runProcess(["cargo", "run", "--quiet", "--offline", "--", dir + "/rust.db"],
                                    environment: ["HABITCORE_LIB_DIR": Paths.buildDir, "CARGO_TARGET_DIR": dir + "/target"],
                                    currentDirectory: examples + "/rust")
        XCTAssertSucceeded(result, "rust example")
        XCTAssertTrue(result.stdout.contains("Meditate done Monday and Friday"), result.stdout)
    }
}
