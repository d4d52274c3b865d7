import XCTest

@testable import HabitCore

final class DayFoldTests: XCTestCase {
    func spec(_ kind: HabitKind, target: Double = 8, direction: Direction = .atLeast) -> HabitSpec {
        HabitSpec(
            name: "h", kind: kind, target: target, direction: direction, group: nil, unit: nil, routine: .anytime,
            proofRequired: false, startDay: 0, schedule: .daily)
    }

    var nextId: Int64 = 0
    func entry(_ kind: EntryKind, _ value: Double = 0, day: Int32 = 10, source: EntrySource = .manual, undoes: Int64? = nil) -> Entry {
        nextId += 1
        return Entry(id: nextId, habitId: 1, day: day, kind: kind, value: value, recordedAtMs: 0, source: source, undoes: undoes, note: nil)
    }

    func fold(_ entries: [Entry], _ habit: HabitSpec, day: Int32 = 10) -> DayState {
        DayFold.fold(entries, day: day, habit: habit, cancelled: DayFold.cancelledIds(in: entries))
    }

    func testAmountsAddAndUndoCancels() {
        let a = entry(.amount, 5), b = entry(.amount, 4)
        let counter = spec(.counter)
        XCTAssertEqual(fold([a, b], counter), DayState(day: 10, value: 9, done: true, skipped: false, entryCount: 2))
        let undo = entry(.undo, undoes: b.id)
        XCTAssertEqual(fold([a, b, undo], counter), DayState(day: 10, value: 5, done: false, skipped: false, entryCount: 1))
    }

    func testTotalsCountEachSourcesHighestReport() {
        let counter = spec(.counter, target: 6000)
        let entries = [
            entry(.total, 3000, source: .health), entry(.total, 5400, source: .health), entry(.total, 5400, source: .health),
            entry(.total, 5000, source: .health), entry(.total, 700, source: .manual), entry(.amount, 100),
        ]
        XCTAssertEqual(fold(entries, counter).value, 6200)
        XCTAssertTrue(fold(entries, counter).done)
    }

    func testCheckmarkSkipAndMeasurement() {
        XCTAssertEqual(fold([entry(.done)], spec(.checkmark)).value, 1)
        let skipped = fold([entry(.skip)], spec(.checkmark))
        XCTAssertTrue(skipped.skipped)
        XCTAssertFalse(skipped.done)
        let doneAndSkipped = fold([entry(.skip), entry(.done)], spec(.checkmark))
        XCTAssertTrue(doneAndSkipped.done)
        XCTAssertFalse(doneAndSkipped.skipped, "a done day is not an excused one")
        let weight = fold([entry(.amount, 81.5), entry(.amount, 80.9)], spec(.measurement))
        XCTAssertEqual(weight.value, 80.9, "a measurement's value is its latest reading")
        XCTAssertTrue(weight.done)
        XCTAssertFalse(fold([], spec(.measurement)).done)
    }

    func testAtMostHabits() {
        let coffee = spec(.counter, target: 2, direction: .atMost)
        XCTAssertTrue(fold([entry(.amount, 1), entry(.amount, 1)], coffee).done)
        XCTAssertFalse(fold([entry(.amount, 1), entry(.amount, 2)], coffee).done)
        XCTAssertTrue(fold([], coffee).done, "nothing logged stays under the limit")
    }

    func testStatesCoverEveryDayOfTheRange() {
        let entries = [entry(.done, day: 3), entry(.done, day: 5), entry(.done, day: 99)]
        let states = DayFold.states(entries, from: 2, to: 6, habit: spec(.checkmark))
        XCTAssertEqual(states.map(\.day), [2, 3, 4, 5, 6])
        XCTAssertEqual(states.map(\.done), [false, true, false, true, false])
    }

    func testEntryRules() throws {
        let checkmark = spec(.checkmark), counter = spec(.counter)
        func checked(_ kind: EntryKind, _ value: Double, day: Int32 = 10, at: Int64 = 0, note: String? = nil) throws -> Double {
            try EntryRules.checked(kind: kind, value: value, day: day, recordedAtMs: at, note: note)
        }
        XCTAssertThrowsError(try EntryRules.validate(kind: .amount, for: checkmark))
        XCTAssertNoThrow(try EntryRules.validate(kind: .amount, for: counter))
        XCTAssertThrowsError(try checked(.amount, .nan))
        XCTAssertThrowsError(try checked(.amount, -.infinity))
        XCTAssertThrowsError(try checked(.amount, 2e12))
        XCTAssertThrowsError(try checked(.amount, -(1e12.nextUp)))
        XCTAssertThrowsError(try checked(.total, -1))
        XCTAssertThrowsError(try checked(.done, 0, note: String(repeating: "x", count: 5000)))
        XCTAssertThrowsError(try checked(.done, 0, day: CivilDate.maxDay + 1))
        XCTAssertThrowsError(try checked(.done, 0, at: Int64.max))
        XCTAssertEqual(try checked(.amount, -1, note: "a correction\nwith two lines"), -1)
        XCTAssertEqual(try checked(.amount, -1e12), -1e12)
        XCTAssertEqual(try checked(.done, 7), 0, "a done entry carries no value")
        XCTAssertEqual(try checked(.amount, -0.0).sign, .plus, "-0 is kept as 0")
        XCTAssertEqual(try checked(.done, 0, day: CivilDate.maxDay), 0, "no clock: any valid day")
        XCTAssertThrowsError(try EntryRules.validate(day: 12, today: 10))
        XCTAssertNoThrow(try EntryRules.validate(day: 11, today: 10))
    }

    /// Folding many days walks the versions once (JudgedSpecs) and must judge each
    /// day exactly as the version in force on it does: random seeded versions,
    /// targets, directions and entries, against a per-day fold by versions.spec(_:on:).
    func testAFoldOverManyDaysJudgesEachDayByItsVersion() {
        for seed in UInt64(1)...200 {
            var random = SplitMix(seed: seed)
            let kind: HabitKind = [.checkmark, .counter, .duration, .measurement].randomElement(using: &random) ?? .counter
            let base = spec(kind, target: Double(Int.random(in: 1...9, using: &random)))
            var versions: [SettingsVersion] = []
            var from = Int32.random(in: -5...20, using: &random)
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                versions.append(
                    SettingsVersion(
                        fromDay: from, schedule: .daily, target: Double(Int.random(in: 1...9, using: &random)),
                        direction: Bool.random(using: &random) ? .atLeast : .atMost))
                from += Int32.random(in: 1...15, using: &random)
            }
            var entries: [Entry] = []
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                let kinds: [EntryKind] = kind == .checkmark ? [.done, .skip] : [.amount, .total, .skip, .done]
                entries.append(
                    entry(
                        kinds.randomElement(using: &random) ?? .amount, Double(Int.random(in: 0...6, using: &random)),
                        day: Int32.random(in: -10...90, using: &random)))
            }
            let sorted = entries.sorted { ($0.day, $0.id) < ($1.day, $1.id) }
            let cancelled = DayFold.cancelledIds(in: entries)
            let byDay = Dictionary(grouping: sorted, by: \.day)
            let expected = byDay.keys.sorted().map { day in
                DayFold.fold(byDay[day] ?? [], day: day, habit: versions.spec(base, on: day), cancelled: cancelled)
            }
            XCTAssertEqual(DayFold.sortedStates(sorted, habit: base, versions: versions), expected, "seed \(seed)")
            XCTAssertEqual(DayFold.sparseStates(entries, habit: base, versions: versions), expected, "seed \(seed)")
            let every = DayFold.states(entries, from: -12, to: 95, habit: base, versions: versions)
            for state in every {
                let reference = DayFold.fold(byDay[state.day] ?? [], day: state.day, habit: versions.spec(base, on: state.day), cancelled: cancelled)
                XCTAssertEqual(state, reference, "seed \(seed), day \(state.day)")
            }
        }
    }
}
