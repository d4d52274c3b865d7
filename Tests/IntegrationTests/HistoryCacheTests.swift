import Foundation
import HabitCore
import HabitEngine
import XCTest

/// The per-handle history cache against the ledger: over randomized histories
/// with appends, undos, rule and schedule changes, and a second process writing
/// between calls, every progress call of a caching handle answers exactly as a
/// handle folding the ledger afresh each time, and the days it maintains equal
/// the days a new handle folds, and a cold handle starting from the saved fold
/// folds exactly what the ledger gives.
final class HistoryCacheTests: XCTestCase {
    func testCachedAndUncachedPathsAgreeAcrossWritersAndProcesses() throws {
        let dir = try temporaryDirectory()
        try compileC([Paths.root + "/Tests/c/fold_writer.c"], output: dir + "/fold_writer")
        let path = dir + "/store.db"
        let cached = try Engine(path: path, options: StoreOptions())
        let reference = try Engine(path: path, options: StoreOptions())
        reference.cachesHistories = false
        defer { cached.close(); reference.close() }
        let today = try cached.today()
        func spec(_ name: String, _ kind: HabitKind, _ target: Double, _ direction: Direction, _ schedule: Schedule) -> HabitSpec {
            HabitSpec(
                name: name, kind: kind, target: target, direction: direction, group: "g", unit: nil, routine: .anytime,
                proofRequired: false, startDay: 0, schedule: schedule)
        }
        let atLeast = try cached.createHabit(spec("at least", .counter, 3, .atLeast, .daily), startDay: today - 200)
        let atMost = try cached.createHabit(spec("at most", .counter, 2, .atMost, .everyNDays(2)), startDay: today - 120)
        let check = try cached.createHabit(spec("check", .checkmark, 1, .atLeast, .weekdays(0b0111110)), startDay: today - 150)
        let counters = [atLeast, atMost], habits = [atLeast, atMost, check]
        var random = SplitMix(seed: 20)
        var steps: [String: Int] = [:]

        for step in 0..<60 {
            let habitId = habits[random.below(habits.count)]
            let day: Int32 = today - Int32(random.below(210))
            switch random.below(10) {
            case 0...3:
                var kinds: [EntryKind] = [EntryKind.done, EntryKind.skip]
                if habitId != check { kinds += [EntryKind.amount, EntryKind.total] }
                let kind = kinds[random.below(kinds.count)]
                let source: EntrySource = random.chance(0.5) ? EntrySource.manual : EntrySource.health
                let value = Double(random.below(4))
                let entry = Engine.NewEntry(habitId: habitId, kind: kind, day: day, value: value, atMs: nil, source: source, note: nil)
                _ = try cached.append(entry)
                steps["append", default: 0] += 1
            case 4, 5:
                try undoLastIfAny(cached, habitId, day)
                steps["undo", default: 0] += 1
            case 6:
                var changes = Engine.HabitChanges()
                let schedules: [Schedule] = [.daily, .everyNDays(3), .weekdays(0b1010101), .timesPerWeek(3)]
                changes.schedule = schedules[random.below(schedules.count)]
                let direction: Direction = random.chance(0.5) ? Direction.atLeast : Direction.atMost
                let target = Double(1 + random.below(4))
                if habitId != check { changes.target = (target, direction) }
                try cached.updateHabit(id: habitId, changes)
                steps["rules", default: 0] += 1
            case 7:
                // Another handle commits something that is not an entry (a vacation, a
                // credit adjustment): the caching handle keeps its folded histories.
                let before = habits.filter { cached.cachedDays(habitId: $0) != nil }
                let other = try Engine(path: path, options: StoreOptions())
                if random.chance(0.5) {
                    _ = try other.addVacation(habitId: habitId, from: day, to: day + Int32(random.below(3)))
                } else {
                    _ = try other.adjustCredits(accountId: 1, minutes: 5, reason: "steps")
                }
                other.close()
                _ = try cached.today()  // looks at the store again
                for habit in before { XCTAssertNotNil(cached.cachedDays(habitId: habit), "step \(step): kept after a commit without entries") }
                steps["other handle", default: 0] += 1
            default:
                let counter = counters[random.below(counters.count)]
                let count = 1 + random.below(8)
                let arguments: [String] = [dir + "/fold_writer", path, String(counter), String(step + 1), String(count)]
                let writer = try runProcess(arguments)
                XCTAssertSucceeded(writer, "second process")
                steps["second process", default: 0] += 1
            }
            try assertSameAnswers(cached, reference, habits: habits, today: today, random: &random, step: step)
            // What this handle maintained equals what a new handle folds from the ledger.
            let fresh = try Engine(path: path, options: StoreOptions())
            defer { fresh.close() }
            for habit in habits {
                guard let kept = cached.cachedDays(habitId: habit) else { continue }
                _ = try fresh.streaks(habitId: habit, asOf: today, best: 0)
                let rebuilt: [DayState]? = fresh.cachedDays(habitId: habit)
                XCTAssertEqual(kept, rebuilt, "step " + String(step) + ": maintained days")
            }
            // A cold handle starts from the saved fold (written by the handles above when
            // they folded cold) and folds again what came after it: it must give exactly
            // the ledger's fold, read-only (never saving) or not.
            for readOnly in [true, false] {
                let cold = try Engine(path: path, options: StoreOptions(readOnly: readOnly))
                defer { cold.close() }
                for habit in habits {
                    _ = try cold.streaks(habitId: habit, asOf: today, best: 0)
                    let row = try cold.habit(id: habit)
                    let entries = try reference.store.foldEntries(habitId: habit, from: CivilDate.minDay, to: CivilDate.maxDay)
                    let ledger = DayFold.sortedStates(entries, habit: row.spec, versions: row.versions)
                    XCTAssertEqual(cold.cachedDays(habitId: habit), ledger, "step \(step): cold days, read-only \(readOnly)")
                }
            }
        }
        XCTAssertEqual(steps.count, 5, "every kind of step ran")
        XCTAssertNotNil(cached.cachedDays(habitId: atLeast), "the caching handle kept the history")
        XCTAssertNil(reference.cachedDays(habitId: atLeast), "the reference handle kept nothing")
        for habit in habits { XCTAssertNotNil(try reference.store.savedFold(habitId: habit), "a cold read saved its fold") }
    }

    /// Undoes the day's last standing entry; a day with none is fine.
    private func undoLastIfAny(_ engine: Engine, _ habitId: Int64, _ day: Int32) throws(HabitError) {
        do { _ = try engine.undoLast(habitId: habitId, day: day) } catch {
            if error.code != .notFound { throw error }
        }
    }

    private func assertSameAnswers(
        _ cached: Engine, _ reference: Engine, habits: [Int64], today: Int32,
        random: inout SplitMix, step: Int
    ) throws {
        let past: Int32 = today - Int32(random.below(230))
        let label = "step " + String(step)
        for habit in habits {
            for asOf: Int32 in [today, past] {
                let a = try cached.streaks(habitId: habit, asOf: asOf, best: 5)
                let b = try reference.streaks(habitId: habit, asOf: asOf, best: 5)
                XCTAssertEqual(a.summary, b.summary, label + ": streaks")
                XCTAssertEqual(a.schedule, b.schedule, label + ": schedule")
            }
            let recent: [Double] = try cached.strength(habitId: habit, from: today - 210, to: today)
            let recentReference: [Double] = try reference.strength(habitId: habit, from: today - 210, to: today)
            XCTAssertEqual(recent, recentReference, label + ": strength")
            let earlier: [Double] = try cached.strength(habitId: habit, from: past - 30, to: past)
            let earlierReference: [Double] = try reference.strength(habitId: habit, from: past - 30, to: past)
            XCTAssertEqual(earlier, earlierReference, label + ": past strength")
            let completion: Scores.Completion = try cached.completion(habitId: habit, from: today - 60, to: today)
            let completionReference: Scores.Completion = try reference.completion(habitId: habit, from: today - 60, to: today)
            XCTAssertEqual(completion, completionReference, label + ": completion")
        }
        for day: Int32 in [today, past] {
            let due: [Engine.DueItem] = try cached.due(on: day)
            let dueReference: [Engine.DueItem] = try reference.due(on: day)
            XCTAssertEqual(due, dueReference, label + ": due")
        }
        let tallies: [Global.DayTally] = try cached.tallies(from: today - 210, to: today)
        let talliesReference: [Global.DayTally] = try reference.tallies(from: today - 210, to: today)
        XCTAssertEqual(tallies, talliesReference, label + ": tallies")
        let global = try cached.globalStreaks(asOf: today)
        let globalReference = try reference.globalStreaks(asOf: today)
        XCTAssertEqual(global.perfect, globalReference.perfect, label + ": perfect days")
        XCTAssertEqual(global.active, globalReference.active, label + ": active days")
    }
}
