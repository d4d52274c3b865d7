import Foundation
import XCTest

@testable import HabitCore

/// The TZif reader against Python's zoneinfo, for every zone in /usr/share/zoneinfo:
/// the offset and the local date at each transition from 1970 to 2100 (both sides of
/// it, as zdump -v lists them) and at local noon on the 15th of every month.
/// scripts/tz-expectations.py computes the expectations; the zones are read from the
/// files by ZoneRules.parseTZif. The local date is the calendar date of the local clock
/// (what zoneinfo means), not DayClock's habit day: that one deliberately counts a
/// wall-clock time repeated across midnight (Goose Bay's 00:01 fall-back) for the day
/// it was first shown, so "today" never goes backwards.
final class AllZonesTests: XCTestCase {
    func testEveryZoneAgreesWithPythonsZoneinfo() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let expectations = FileManager.default.temporaryDirectory.appendingPathComponent("tz-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: expectations) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "python3 \"$0\" > \"$1\"", root + "/scripts/tz-expectations.py", expectations]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("python3 with zoneinfo and zdump are needed to compute the expectations") }
        let text = try String(contentsOfFile: expectations, encoding: .utf8)

        var zones = 0, points = 0, mismatches: [String] = []
        var rules: ZoneRules?
        var zoneName = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Z ") {
                zoneName = String(line.dropFirst(2))
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + zoneName)))
                do {
                    rules = try ZoneRules.parseTZif(name: zoneName, bytes: bytes)
                    zones += 1
                } catch {
                    rules = nil
                    mismatches.append("\(zoneName): not read: \(error)")
                }
                continue
            }
            guard let rules else { continue }
            let fields = line.split(separator: " ")
            guard fields.count == 3, let seconds = Int64(fields[0]), let offset = Int32(fields[1]), let day = Int32(fields[2]) else {
                mismatches.append("bad line '\(line)'")
                continue
            }
            points += 1
            let gotOffset = rules.utcOffset(atUTC: seconds)
            let local = seconds + Int64(gotOffset)
            let gotDay = Int32(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
            if gotOffset != offset || gotDay != day, mismatches.count < 30 {
                mismatches.append("\(zoneName) at \(seconds): offset \(gotOffset) (zoneinfo \(offset)), day \(gotDay) (zoneinfo \(day))")
            }
        }
        XCTAssertGreaterThan(zones, 500, "every zone of the tz database")
        XCTAssertGreaterThan(points, 900_000)
        XCTAssertEqual(mismatches, [], "\(zones) zones, \(points) instants")
    }
}
