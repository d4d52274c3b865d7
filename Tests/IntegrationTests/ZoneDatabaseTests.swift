import Foundation
import HabitCore
import HabitStore
import XCTest

/// The system's zone files, read once per process and read again once replaced.
final class ZoneDatabaseTests: XCTestCase {
    func testAZoneIsParsedOnceAndReadAgainWhenItsFileIsReplaced() throws {
        let dir = try temporaryDirectory()
        let saved = getenv("TZDIR").map { String(cString: $0) }
        setenv("TZDIR", dir, 1)
        defer {
            if let saved { setenv("TZDIR", saved, 1) } else { unsetenv("TZDIR") }
            try? FileManager.default.removeItem(atPath: dir)
        }
        try FileManager.default.createDirectory(atPath: dir + "/Europe", withIntermediateDirectories: true)
        let zone = dir + "/Europe/Berlin", january2026: Int64 = 1_767_225_600
        // A file that holds Tokyo's rules under Berlin's name: what the cache keeps is
        // what the file said.
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: zone)
        XCTAssertEqual(try ZoneDatabase.load("Europe/Berlin").utcOffset(atUTC: january2026), 9 * 3600)
        XCTAssertEqual(try ZoneDatabase.load("Europe/Berlin").utcOffset(atUTC: january2026), 9 * 3600)
        // Replaced as package managers do (a new file renamed over it): read anew.
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Europe/Berlin", toPath: zone + ".new")
        XCTAssertEqual(rename(zone + ".new", zone), 0)
        XCTAssertEqual(try ZoneDatabase.load("Europe/Berlin").utcOffset(atUTC: january2026), 3600)
        // Gone: an unknown zone again, not the kept rules.
        try FileManager.default.removeItem(atPath: zone)
        XCTAssertThrowsError(try ZoneDatabase.load("Europe/Berlin"))
    }
}
