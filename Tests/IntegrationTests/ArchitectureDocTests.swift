import Foundation
import XCTest

/// docs/ARCHITECTURE.md's rooms import what Package.swift lets them import, no more
/// and no less: the table is read back against the manifest.
final class ArchitectureDocTests: XCTestCase {
    func testEachRoomImportsWhatThePackageSays() throws {
        let manifest = try String(contentsOfFile: Paths.root + "/Package.swift", encoding: .utf8)
        var dependencies: [String: Set<String>] = [:]
        for match in manifest.matches(of: /name:\s*"([^"]+)"\s*,\s*dependencies:\s*\[([^\]]*)\]/) {
            dependencies[String(match.output.1)] = Set(match.output.2.matches(of: /"([^"]+)"/).map { String($0.output.1) })
        }
        let doc = try String(contentsOfFile: Paths.root + "/docs/ARCHITECTURE.md", encoding: .utf8)
        var checked = 0
        for row in doc.split(separator: "\n") where row.hasPrefix("| `") {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, !cells[2].hasPrefix("see Package.swift"), cells[2] != "May import" else { continue }
            let room = try XCTUnwrap(cells[0].firstMatch(of: /`([^`]+)`/)).output.1
            let stated = cells[2].hasPrefix("—") ? [] : Set(cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            XCTAssertEqual(stated, dependencies[String(room)] ?? [], "docs/ARCHITECTURE.md: what \(room) may import")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 10, "the rooms table was read")
    }
}
