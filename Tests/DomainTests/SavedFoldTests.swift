import XCTest

@testable import HabitCore

/// A saved fold decodes to exactly the days it was made from, and bytes that are not
/// one (cut short, flipped, random) decode to nil, never to other days or a crash.
final class SavedFoldTests: XCTestCase {
    func testDaysRoundTripOverRandomHistories() {
        for seed in UInt64(1)...300 {
            var random = SplitMix(seed: seed)
            var days: [DayState] = []
            var day = Int32.random(in: CivilDate.minDay...(CivilDate.maxDay - 5000), using: &random)
            for _ in 0..<Int.random(in: 0...400, using: &random) {
                day += Int32.random(in: 1...(Bool.random(using: &random) ? 3 : 900), using: &random)
                let value: Double =
                    switch Int.random(in: 0...3, using: &random) {
                    case 0: 0
                    case 1: Double(Int.random(in: 0...100_000, using: &random))
                    case 2: Double.random(in: -50...50, using: &random)
                    default: [Double.infinity, -0.0, 1e300, 0.1, 9.5e15].randomElement(using: &random) ?? 0
                    }
                days.append(
                    DayState(
                        day: day, value: value, done: Bool.random(using: &random), skipped: Bool.random(using: &random),
                        entryCount: Int.random(in: 0...40, using: &random)))
            }
            let bytes = SavedFold.encode(days)
            guard let decoded = SavedFold.decode(bytes) else { return XCTFail("seed \(seed): did not decode") }
            XCTAssertEqual(decoded.count, days.count, "seed \(seed)")
            for (a, b) in zip(decoded, days) {
                XCTAssertEqual(a.day, b.day, "seed \(seed)")
                XCTAssertEqual(a.value.bitPattern == b.value.bitPattern || a.value == b.value, true, "seed \(seed): value")
                XCTAssertEqual([a.done, a.skipped], [b.done, b.skipped], "seed \(seed)")
                XCTAssertEqual(a.entryCount, b.entryCount, "seed \(seed)")
            }
            // Every proper prefix is refused (the count says more days follow).
            if !bytes.isEmpty { XCTAssertNil(SavedFold.decode(Array(bytes.dropLast())), "seed \(seed): cut short") }
        }
    }

    func testBytesThatAreNotAFoldDecodeToNil() {
        var random = SplitMix(seed: 7)
        var refused = 0
        for _ in 0..<5000 {
            let bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            guard let days = SavedFold.decode(bytes) else {
                refused += 1
                continue
            }
            // Whatever decodes is a well-formed fold: days strictly increasing, counts sane.
            XCTAssertEqual(days.map(\.day), days.map(\.day).sorted())
            XCTAssertEqual(Set(days.map(\.day)).count, days.count)
        }
        XCTAssertGreaterThan(refused, 4500, "random bytes are nearly always refused")
    }

    func testRulesDifferWhenAnythingTheFoldReadsDiffers() {
        let spec = HabitSpec(
            name: "h", kind: .counter, target: 3, direction: .atLeast, group: nil, unit: nil, routine: .anytime,
            proofRequired: false, startDay: 0, schedule: .daily)
        let base = SavedFold.rules(spec, versions: [])
        var target = spec
        target.target = 4
        var direction = spec
        direction.direction = .atMost
        var named = spec
        named.name = "other"
        named.schedule = .everyNDays(2)
        XCTAssertNotEqual(SavedFold.rules(target, versions: []), base)
        XCTAssertNotEqual(SavedFold.rules(direction, versions: []), base)
        XCTAssertEqual(SavedFold.rules(named, versions: []), base, "the name and schedule do not change a day's fold")
        let version = SettingsVersion(fromDay: 10, spec: spec)
        var later = version
        later.fromDay = 11
        XCTAssertNotEqual(SavedFold.rules(spec, versions: [version]), SavedFold.rules(spec, versions: [later]))
    }
}
