import Testing

@testable import HabitCore

/// Properties of the ledger fold over random histories (Swift Testing).
struct LedgerProperties {
    static let counter = HabitSpec(
        name: "c", kind: .counter, target: 10, direction: .atLeast, group: nil, unit: nil,
        routine: .anytime, proofRequired: false, startDay: 0, schedule: .daily)

    static func randomHistory(seed: UInt64, count: Int) -> [Entry] {
        var random = SplitMix(seed: seed)
        var entries: [Entry] = []
        for id in 1...Int64(count) {
            let kind: EntryKind = [.amount, .amount, .total, .done, .skip].randomElement(using: &random) ?? .amount
            let source: EntrySource = Bool.random(using: &random) ? .manual : .health
            entries.append(
                Entry(
                    id: id, habitId: 1, day: Int32.random(in: 0..<5, using: &random), kind: kind,
                    value: Double(Int.random(in: 0..<8, using: &random)), recordedAtMs: 0, source: source,
                    undoes: nil, note: nil))
        }
        return entries
    }

    @Test(arguments: 1...40)
    func undoingAnEntryRestoresTheStateBeforeIt(seed: Int) throws {
        let history = Self.randomHistory(seed: UInt64(seed), count: 30)
        var random = SplitMix(seed: UInt64(seed) &* 7)
        let target = try #require(history.randomElement(using: &random))
        let without = history.filter { $0.id != target.id }
        let undo = Entry(
            id: 1000, habitId: 1, day: target.day, kind: .undo, value: 0, recordedAtMs: 0, source: .manual,
            undoes: target.id, note: nil)
        let undone = DayFold.states(history + [undo], from: 0, to: 4, habit: Self.counter)
        #expect(undone == DayFold.states(without, from: 0, to: 4, habit: Self.counter))
    }

    @Test(arguments: 1...40)
    func repeatingATotalReportChangesNothing(seed: Int) {
        let history = Self.randomHistory(seed: UInt64(seed), count: 25)
        let before = DayFold.states(history, from: 0, to: 4, habit: Self.counter)
        let repeats = history.filter { $0.kind == .total }.enumerated().map { index, entry in
            var copy = entry
            copy.id = 2000 + Int64(index)
            return copy
        }
        let after = DayFold.states(history + repeats, from: 0, to: 4, habit: Self.counter)
        // The repeats are entries of their own (entryCount grows); the day's value and state do not move.
        #expect(after.map(\.value) == before.map(\.value))
        #expect(after.map(\.done) == before.map(\.done))
        #expect(after.map(\.skipped) == before.map(\.skipped))
    }

    @Test(arguments: 1...40)
    func addingAnAmountNeverLowersTheDay(seed: Int) {
        let history = Self.randomHistory(seed: UInt64(seed), count: 20)
        let more = Entry(id: 3000, habitId: 1, day: 2, kind: .amount, value: 3, recordedAtMs: 0, source: .manual, undoes: nil, note: nil)
        let before = DayFold.states(history, from: 0, to: 4, habit: Self.counter)
        let after = DayFold.states(history + [more], from: 0, to: 4, habit: Self.counter)
        #expect(after[2].value == before[2].value + 3)
        #expect(!before[2].done || after[2].done)
    }

    @Test(arguments: [Int32(-719_162), -1, 0, 59, 60, 11_016, 20_779, 2_932_896])
    func dayNumbersRoundTripThroughText(day: Int32) throws {
        let text = try CivilDate.format(day)
        #expect(try CivilDate.parseDay(text) == day)
    }
}
