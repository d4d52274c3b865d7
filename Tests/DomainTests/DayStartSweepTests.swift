import XCTest

@testable import HabitCore

/// "Today" never goes backwards: across both clock changes of a year, for a day start at
/// every half hour, the local day of each minute is the day of the minute before or the
/// next one, and every day lasts 23 to 25 hours.
final class DayStartSweepTests: XCTestCase {
    func zone(_ name: String) throws -> ZoneRules {
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name), name)
        return try ZoneRules.parseTZif(name: name, bytes: Array(bytes))
    }

    func utcSeconds(_ date: String, hour: Int64) throws -> Int64 {
        Int64(try CivilDate.parseDay(date)) * 86_400 + hour * 3600
    }

    func testTodayNeverGoesBackwardsAcrossBothClockChanges() throws {
        // (zone, the day clocks go forward, the day they go back), 2026.
        let changes = [
            ("Europe/Berlin", "2026-03-29", "2026-10-25"), ("America/New_York", "2026-03-08", "2026-11-01"),
            ("Australia/Lord_Howe", "2026-04-05", "2026-10-04"),
        ]  // Lord Howe shifts by half an hour
        for (name, forward, back) in changes {
            let rules = try zone(name)
            for change in [forward, back] {
                let start = try utcSeconds(change, hour: -36), end = try utcSeconds(change, hour: 36)
                for dayStart in stride(from: Int32(0), to: 1440, by: 30) {
                    let clock = DayClock(zone: rules, dayStartMinutes: dayStart)
                    var previous = try clock.localDay(utcMs: start * 1000)
                    var beginnings: [Int64] = []
                    for second in stride(from: start + 60, through: end, by: 60) {
                        let day = try clock.localDay(utcMs: second * 1000)
                        XCTAssertTrue(
                            day == previous || day == previous + 1,
                            "\(name) \(change) day start \(dayStart) min: \(previous) then \(day) at \(second)")
                        if day != previous { beginnings.append(second) }
                        previous = day
                    }
                    XCTAssertGreaterThanOrEqual(beginnings.count, 2, "\(name) \(change) day start \(dayStart)")
                    // A day lasts 24 hours, give or take the clock change: never an hour, never 47.
                    for (first, next) in zip(beginnings, beginnings.dropFirst()) {
                        XCTAssertTrue(
                            (23 * 3600...25 * 3600).contains(next - first),
                            "\(name) \(change) day start \(dayStart): a day of \(next - first) s")
                    }
                }
            }
        }
    }

    /// The rule stated: a day start inside the repeated hour is its first occurrence.
    func testADayStartInTheRepeatedHourIsItsFirstOccurrence() throws {
        let clock = DayClock(zone: try zone("Europe/Berlin"), dayStartMinutes: 150)  // 02:30
        let october25 = try CivilDate.parseDay("2026-10-25")
        // 00:30 UTC is 02:30 CEST (first occurrence): the 25th begins.
        XCTAssertEqual(try clock.localDay(utcMs: try utcSeconds("2026-10-25", hour: 0) * 1000 + 1_800_000), october25)
        // 01:00 UTC is 02:00 CET, the repeated hour: still the 25th, not back to the 24th.
        XCTAssertEqual(try clock.localDay(utcMs: try utcSeconds("2026-10-25", hour: 1) * 1000), october25)
        XCTAssertEqual(try clock.localDay(utcMs: try utcSeconds("2026-10-25", hour: 0) * 1000 + 1_799_000), october25 - 1)
        // The next day starts at 02:30 CET as usual.
        XCTAssertEqual(try clock.localDay(utcMs: try utcSeconds("2026-10-26", hour: 1) * 1000 + 1_800_000), october25 + 1)
        XCTAssertEqual(try clock.localDay(utcMs: try utcSeconds("2026-10-26", hour: 1) * 1000 + 1_799_000), october25)
    }
}
