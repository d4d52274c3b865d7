import Foundation
import XCTest

/// A Swift app adds habitcore as it adds any package: by a git URL and a version.
/// SwiftPM refuses unsafe flags anywhere in the closure of a product consumed that way
/// (a path dependency is exempt, so only a tagged repository shows it).
final class PackageDependencyTests: XCTestCase {
    /// The working tree as a git repository tagged with the header's version.
    private func taggedRepository() throws -> (url: String, version: String) {
        let header = try String(contentsOfFile: Paths.header, encoding: .utf8)
        let version = try XCTUnwrap(
            header.split(separator: "\n").first { $0.hasPrefix("#define HC_VERSION_STRING ") }?
                .split(separator: "\"").dropFirst().first.map(String.init))
        let scratch = try temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: scratch) }
        let repo = scratch + "/habitcore"
        // Tracked and new files, as they are now (not as committed), without what git ignores.
        let files = try runProcess(["git", "ls-files", "-co", "--exclude-standard"], currentDirectory: Paths.root)
        XCTAssertSucceeded(files, "git ls-files")
        for file in files.stdout.split(separator: "\n").map(String.init) where FileManager.default.fileExists(atPath: Paths.root + "/" + file) {
            let target = URL(fileURLWithPath: repo + "/" + file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Paths.root + "/" + file, toPath: target.path)
        }
        let git = "git init -q && git add -A && git -c user.name=test -c user.email=test@invalid commit -qm snapshot && git tag \(version)"
        XCTAssertSucceeded(try runProcess(["sh", "-c", git], currentDirectory: repo), "git init, commit, tag")
        return ("file://" + repo, version)
    }

    /// examples/swift, its URL pointed at the tagged repository.
    private func consumer(dependingOn url: String, product: String = "HabitKit") throws -> String {
        let scratch = try temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: scratch) }
        let dir = scratch + "/habit-flows"
        try FileManager.default.copyItem(atPath: Paths.root + "/examples/swift", toPath: dir)
        let manifest = try String(contentsOfFile: dir + "/Package.swift", encoding: .utf8)
            .replacingOccurrences(of: "https://example.invalid/habitcore.git", with: url)
            .replacingOccurrences(of: "name: \"HabitKit\"", with: "name: \"\(product)\"")
        try manifest.write(toFile: dir + "/Package.swift", atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: dir + "/.build")
        return dir
    }

    func testAnAppBuildsHabitKitFromATaggedRepository() throws {
        let (url, version) = try taggedRepository()

        // The control: the shipped library's product keeps its GNU-linker flags, and a
        // versioned dependency on it is refused; the refusal is what this test would see.
        let shipped = try consumer(dependingOn: url, product: "habitcore")
        let refused = try runProcess(["swift", "build"], currentDirectory: shipped)
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertTrue((refused.stdout + refused.stderr).contains("unsafe build flags"), refused.stdout + refused.stderr)

        // The app's product and its closure, as Xcode builds an app (a bare `swift build`
        // builds every target of every package in the graph, proofcheck included).
        let app = try consumer(dependingOn: url)
        let build = try runProcess(["swift", "build", "--product", "habit-flows"], currentDirectory: app)
        XCTAssertSucceeded(build, "swift build of examples/swift by url: and from: \(version)")
        let resolved = try String(contentsOfFile: app + "/Package.resolved", encoding: .utf8)
        XCTAssertTrue(resolved.contains("\"version\" : \"\(version)\""), resolved)
        // HabitKit's closure holds no proofcheck, libjpeg or libpng target (an iOS app has
        // neither): SwiftPM lays out a folder for every target, but compiles none of those.
        func objects(_ target: String) -> [String] {
            let folder = app + "/.build/debug/\(target).build"
            return ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".o") }
        }
        for foreign in ["Proofcheck", "ProofcheckCore", "ProofcheckEntry", "JPEGGray", "LibHabitCore", "habitctl"] {
            XCTAssertEqual(objects(foreign), [], "\(foreign) was compiled for HabitKit")
        }
        XCTAssertFalse(objects("HabitKit").isEmpty, "HabitKit was not compiled")

        // Zeno's flow and MorningProof's, in HabitKit, on a fresh store.
        let run = try runProcess([app + "/.build/debug/habit-flows", app + "/flows.db"])
        XCTAssertSucceeded(run, "habit-flows")
        XCTAssertEqual(
            run.stdout,
            """
            Zeno: 6000 steps earned 60 minutes; spent 15 to unlock; balance 45
            MorningProof: proof approved (bed_made); streak 3 days

            """)
    }
}
