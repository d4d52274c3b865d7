import Foundation
import XCTest

/// The platform's C library is decided in one file (Sources/HabitPlatform/CLibrary.swift):
/// no other source imports Glibc, Musl, Darwin or Android, so porting is one file's work.
final class PlatformSeamTests: XCTestCase {
    func testOnlyHabitPlatformImportsTheCLibrary() throws {
        let sources = Paths.root + "/Sources"
        let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: sources)).filter { $0.hasSuffix(".swift") }
        var importers: [String] = []
        for file in files {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let module = words.firstIndex(of: "import").map({ words.index(after: $0) }), module < words.endIndex,
                    ["Glibc", "Musl", "Darwin", "Android"].contains(String(words[module]))
                {
                    importers.append(file)
                }
            }
        }
        XCTAssertEqual(Set(importers), ["HabitPlatform/CLibrary.swift"])
    }
}
