import Foundation
import XCTest

/// The release library, with the Swift runtime linked in, works on a host
/// without the Swift toolchain: the toolchain folder is hidden by a mount
/// namespace, since the debug build's absolute RUNPATH would otherwise find it.
final class StaticBuildTests: XCTestCase {
    func testReleaseLibraryRunsThePythonExampleWithoutTheToolchain() throws {
        let build = try runProcess([Paths.root + "/scripts/build-release.sh"], currentDirectory: Paths.root)
        XCTAssertSucceeded(build, "scripts/build-release.sh")
        let folder = build.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let library = folder + "/libhabitcore.so"

        let dynamic = try runProcess(["readelf", "-d", library])
        XCTAssertTrue(dynamic.stdout.contains("Library soname: [libhabitcore.so.1]"), dynamic.stdout)
        XCTAssertFalse(dynamic.stdout.contains("libswift"), "no Swift runtime library is needed:\n\(dynamic.stdout)")
        // The shipped library exports exactly the header, under the baseline's versions:
        // its link settings (LibHabitCore) are the ones the debug checks run on.
        try HeaderContractTests.assertExportsEqualTheHeader(library)
        let abi = try runProcess(["python3", ABIGuardTests.script, "check", ABIGuardTests.baseline, Paths.include, library])
        XCTAssertEqual(abi.status, 0, abi.stdout + abi.stderr)
        XCTAssertTrue(abi.stdout.contains("no breaks; 0 addition(s)"), abi.stdout)

        // The toolchain root: /opt/swift for /opt/swift/usr/bin/swift.
        let swift = try runProcess(["sh", "-c", "readlink -f \"$(command -v swift)\""]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let toolchain = URL(fileURLWithPath: swift).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        XCTAssertTrue(FileManager.default.fileExists(atPath: toolchain + "/usr/lib/swift/linux"), toolchain)
        let unshare = getuid() == 0 ? ["unshare", "-m"] : ["unshare", "-r", "-m"]
        let dir = try temporaryDirectory()
        func hidden(_ lib: String, _ store: String) throws -> ProcessResult {
            let script =
                "mount -t tmpfs none '\(toolchain)' && test ! -e '\(toolchain)/usr/lib/swift' && "
                + "HABITCORE_LIBRARY='\(lib)' PYTHONPATH='\(Paths.root)/bindings/python/src' PYTHONDONTWRITEBYTECODE=1 "
                + "python3 '\(Paths.root)/examples/python/demo.py' '\(dir)/\(store)'"
            return try runProcess(unshare + ["sh", "-c", script])
        }
        let result = try hidden(library, "static.db")
        XCTAssertSucceeded(result, "python example with the toolchain hidden")
        XCTAssertTrue(result.stdout.contains("Walk totals 5400 steps"), result.stdout)
        // The control: the debug build needs the toolchain, so hiding it must break it.
        let control = try hidden(Paths.library, "dynamic.db")
        XCTAssertNotEqual(control.status, 0, "the toolchain was not hidden: the debug build still loaded")
        XCTAssertTrue(control.stderr.contains("libswift"), control.stderr)

        // The shipped habitctl runs the shipped library, found beside it, with the toolchain hidden too.
        let linked = try runProcess(["ldd", folder + "/habitctl"])
        XCTAssertTrue(linked.stdout.contains("libhabitcore.so.1 => \(folder)/libhabitcore.so.1"), linked.stdout)
        let script =
            "mount -t tmpfs none '\(toolchain)' && '\(folder)/habitctl' --db '\(dir)/cli.db' habit add Walk && "
            + "'\(folder)/habitctl' --db '\(dir)/cli.db' --json habit list"
        let cli = try runProcess(unshare + ["sh", "-c", script])
        XCTAssertSucceeded(cli, "release habitctl with the toolchain hidden")
        XCTAssertTrue(cli.stdout.contains("\"Walk\""), cli.stdout)
    }
}
