import Foundation
import XCTest

/// The README's Layout section names every target of Package.swift, and names no
/// folder under Sources/ or Tests/ that is not one: a target added or renamed without
/// the README fails here.
final class ReadmeLayoutTests: XCTestCase {
    /// Each target's name and the folder it lives in (its path, or Sources/ or Tests/ and its name).
    private func packageTargets() throws -> [(name: String, folder: String)] {
        let manifest = try String(contentsOfFile: Paths.root + "/Package.swift", encoding: .utf8)
        let declaration = /\.(target|executableTarget|testTarget|systemLibrary|plugin)\(\s*name:\s*"([^"]+)"([^)]*?path:\s*"([^"]+)")?/
        return manifest.matches(of: declaration).map { match in
            let name = String(match.output.2)
            let folder = match.output.4.map(String.init) ?? (match.output.1 == "testTarget" ? "Tests/" : "Sources/") + name
            return (name, folder)
        }
    }

    private func layoutSection() throws -> String {
        let readme = try String(contentsOfFile: Paths.root + "/README.md", encoding: .utf8)
        let section = try XCTUnwrap(readme.split(separator: "\n## ").first { $0.hasPrefix("Layout\n") }, "README has a Layout section")
        let parts = section.split(separator: "```", omittingEmptySubsequences: false)
        return String(try XCTUnwrap(parts.dropFirst().first, "the Layout section holds a code block"))
    }

    func testTheLayoutNamesEveryTargetAndNoOther() throws {
        let targets = try packageTargets()
        XCTAssertGreaterThan(targets.count, 20, "Package.swift's targets were read")
        let layout = try layoutSection()
        let words = Set(layout.split(whereSeparator: { " ,:;()\n".contains($0) }).map { $0.hasSuffix("/") ? String($0.dropLast()) : String($0) })
        for target in targets {
            let named = words.contains(target.folder) || words.contains(target.name)
            XCTAssertTrue(named, "README's Layout does not name target \(target.name) (\(target.folder))")
        }
        let folders = Set(targets.map(\.folder))
        for word in words where word.hasPrefix("Sources/") || word.hasPrefix("Tests/") {
            XCTAssertTrue(folders.contains(word), "README's Layout names \(word), which is no target of Package.swift")
        }
    }
}
