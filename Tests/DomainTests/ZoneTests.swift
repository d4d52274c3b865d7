import Foundation
import XCTest

@testable import HabitCore

final class ZoneTests: XCTestCase {
    func zone(_ name: String) throws -> ZoneRules {
        let data = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name))
        return try ZoneRules.parseTZif(name: name, bytes: Array(data))
    }

    func utc(_ text: String) throws -> Int64 {
        // "YYYY-MM-DDTHH:MM:SS" in UTC, as seconds.
        let day = try CivilDate.parseDay(String(text.prefix(10)))
        let parts = text.dropFirst(11).split(separator: ":").compactMap { Int64($0) }
        return Int64(day) * 86_400 + parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    func testNewYorkDSTEdgesIn2026() throws {
        let ny = try zone("America/New_York")
        XCTAssertEqual(ny.utcOffset(atUTC: try utc("2026-03-08T06:59:59")), -5 * 3600)
        XCTAssertEqual(ny.utcOffset(atUTC: try utc("2026-03-08T07:00:00")), -4 * 3600)
        XCTAssertEqual(ny.utcOffset(atUTC: try utc("2026-11-01T05:59:59")), -4 * 3600)
        XCTAssertEqual(ny.utcOffset(atUTC: try utc("2026-11-01T06:00:00")), -5 * 3600)
    }

    func testFarFutureDatesFollowThePosixRule() throws {
        let ny = try zone("America/New_York")
        XCTAssertEqual(ny.utcOffset(atUTC: try utc("2100-07-01T12:00:00")), -4 * 3600)
        XCTAssertEqual(ny.utcOffset(atUTC: try utc("2100-01-15T12:00:00")), -5 * 3600)
        // 2100's second Sunday of March is the 14th.
        XCTAssertEqual(ny.utcOffset(atUTC: try utc("2100-03-14T06:59:59")), -5 * 3600)
        XCTAssertEqual(ny.utcOffset(atUTC: try utc("2100-03-14T07:00:00")), -4 * 3600)
        let sydney = try zone("Australia/Sydney")  // southern hemisphere: summer spans the new year
        XCTAssertEqual(sydney.utcOffset(atUTC: try utc("2090-01-10T00:00:00")), 11 * 3600)
        XCTAssertEqual(sydney.utcOffset(atUTC: try utc("2090-07-10T00:00:00")), 10 * 3600)
        let rule = try PosixZoneRule.parse("<+0330>-3:30")
        XCTAssertEqual(rule.utcOffset(atUTC: 0), 12_600)
        XCTAssertEqual(try PosixZoneRule.parse("EST5EDT,M3.2.0,M11.1.0").utcOffset(atUTC: try utc("2030-07-01T00:00:00")), -4 * 3600)
        XCTAssertThrowsError(try PosixZoneRule.parse("EST5EDT,M13.2.0,M11.1.0"))
        XCTAssertThrowsError(try PosixZoneRule.parse("E5"))
    }

    func testLocalDaysWithDayStartAndDST() throws {
        let ny = try zone("America/New_York")
        let midnight = DayClock(zone: ny, dayStartMinutes: 0)
        // 23:30 EST on March 7 is 04:30 UTC on March 8.
        XCTAssertEqual(try midnight.localDay(utcMs: try utc("2026-03-08T04:30:00") * 1000), try CivilDate.parseDay("2026-03-07"))
        let threeAM = DayClock(zone: ny, dayStartMinutes: 180)
        // 02:30 EDT on March 9 counts for March 8 with a 03:00 day start; 03:00 is March 9.
        XCTAssertEqual(try threeAM.localDay(utcMs: try utc("2026-03-09T06:30:00") * 1000), try CivilDate.parseDay("2026-03-08"))
        XCTAssertEqual(try threeAM.localDay(utcMs: try utc("2026-03-09T07:00:00") * 1000), try CivilDate.parseDay("2026-03-09"))
        // November 1: 01:30 happens twice; both times count for October 31 with a 03:00 day start.
        XCTAssertEqual(try threeAM.localDay(utcMs: try utc("2026-11-01T05:30:00") * 1000), try CivilDate.parseDay("2026-10-31"))
        XCTAssertEqual(try threeAM.localDay(utcMs: try utc("2026-11-01T06:30:00") * 1000), try CivilDate.parseDay("2026-10-31"))
        XCTAssertEqual(try threeAM.localDay(utcMs: try utc("2026-11-01T08:00:00") * 1000), try CivilDate.parseDay("2026-11-01"))
        XCTAssertThrowsError(try midnight.localDay(utcMs: Int64.max))
        XCTAssertThrowsError(try midnight.localDay(utcMs: Int64.min))
        XCTAssertThrowsError(try DayClock.validateDayStart(1440))
    }

    func testZoneNames() throws {
        XCTAssertEqual(try ZoneRules.classify("UTC"), .utc)
        XCTAssertEqual(try ZoneRules.classify("+05:30"), .fixed(offsetSeconds: 19_800, canonical: "+05:30"))
        XCTAssertEqual(try ZoneRules.classify("-08:00"), .fixed(offsetSeconds: -28_800, canonical: "-08:00"))
        XCTAssertEqual(try ZoneRules.classify("America/Argentina/Buenos_Aires"), .tzdb("America/Argentina/Buenos_Aires"))
        for bad in [
            "", "/etc/passwd", "../etc/passwd", "America/../../etc", "+5:30", "+15:00", "+05:60", "Europe//Paris",
            "Europe/Paris/", String(repeating: "a", count: 65), "Europe/Pa ris",
        ] {
            XCTAssertThrowsError(try ZoneRules.classify(bad), bad)
        }
    }

    /// Truncated and corrupted zone files are refused or read, never a crash.
    func testHostileZoneFilesNeverCrash() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/America/New_York")))
        for length in stride(from: 0, to: bytes.count, by: 7) {
            _ = try? ZoneRules.parseTZif(name: "cut", bytes: Array(bytes[0..<length]))
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var copy = bytes
            for _ in 0..<4 { copy[Int.random(in: 0..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            if let zone = try? ZoneRules.parseTZif(name: "flipped", bytes: copy) {
                _ = zone.utcOffset(atUTC: Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &generator))
            }
        }
        XCTAssertThrowsError(try ZoneRules.parseTZif(name: "empty", bytes: []))
    }
}
