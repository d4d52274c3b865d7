import Foundation
import HabitCore
import HabitEngine
import XCTest

/// The today snapshot reads a few weeks of a habit's entries when they judge what it
/// shows as the whole history does (TodaySnapshot.windowSuffices), else the whole
/// history. Over seeded histories (long runs that reach past the window, misses,
/// skips, vacations, miss allowances, schedule changes, quota and every-N-days
/// schedules), its bytes equal those of a handle that always judges
/// the whole history, and so do those of a read-only handle that reads saved folds.
final class TodaySnapshotWindowTests: XCTestCase {
    func testWindowedReadsWriteTheBytesOfWholeHistories() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var windowsUsedAndNot = (used: 0, fellBack: 0), savedFolds = 0
        for seed in UInt64(1)...8 {
            let path = dir + "/store-\(seed).db"
            let engine = try Engine(path: path, options: StoreOptions())
            let reference = try Engine(path: path, options: StoreOptions())
            reference.todaySnapshotReadsWindows = false
            reference.cachesHistories = false  // every history folded from the ledger as it stands
            defer { engine.close(); reference.close() }
            var random = SplitMix(seed: seed)
            let today = try engine.today()
            let schedules: [Schedule] = [.daily, .daily, .weekdays(0b0111110), .weekdays(0b0000010), .everyNDays(2), .timesPerWeek(3)]
            try engine.begin()
            for number in 0..<6 {
                let spec = HabitSpec(
                    name: "habit \(number)", kind: .checkmark, target: 1, direction: .atLeast, group: nil, unit: nil, routine: .anytime,
                    proofRequired: false, startDay: 0, schedule: schedules[random.below(schedules.count)])
                let start = today - Int32(20 + random.below(2500))
                let id = try engine.createHabit(spec, startDay: start)
                try engine.setHabitStreakPolicy(
                    habitId: id, StreakPolicy.Override(missAllowance: Int32(random.below(3)), openDay: random.chance(0.5) ? .previous : .zero))
                // A run done every day from some day on (often from before the window), random days before it.
                let runFrom = today - Int32(random.below(random.chance(0.5) ? 100 : 2000))
                var day = start
                while day <= today {
                    let kept = day >= runFrom ? random.chance(0.97) : random.chance(0.6)
                    let kind: EntryKind? = kept ? .done : random.chance(0.1) ? .skip : nil
                    if let kind {
                        _ = try engine.append(
                            Engine.NewEntry(habitId: id, kind: kind, day: day, value: 0, atMs: nil, source: .manual, note: nil))
                    }
                    day += 1
                }
                if random.chance(0.3) { _ = try engine.addVacation(habitId: id, from: today - 30, to: today - 28) }
                if random.chance(0.2) {
                    var changes = Engine.HabitChanges()
                    changes.schedule = .weekdays(0b1010101)
                    _ = try engine.updateHabit(id: id, changes)
                }
            }
            try engine.commit()
            for minute in [60, 720, 1400] {
                let at = try engine.utcMs(day: today, minute: Int32(minute))
                let windowed = try engine.todaySnapshotText(atMs: at)
                XCTAssertEqual(windowed, try reference.todaySnapshotText(atMs: at), "seed \(seed) minute \(minute)")
            }
            // From saved folds: a handle that showed each habit's streaks saved its fold,
            // entries were added since (folded again from the ledger), and a read-only
            // handle writes the same bytes as the whole histories give.
            let saver = try Engine(path: path, options: StoreOptions())
            for habit in try saver.habits(includeArchived: true) { _ = try saver.streaks(habitId: habit.id, asOf: today, best: 0) }
            saver.close()
            for habit in try engine.habits(includeArchived: true) where random.chance(0.5) {
                _ = try engine.append(
                    Engine.NewEntry(
                        habitId: habit.id, kind: random.chance(0.8) ? .done : .skip, day: today - Int32(random.below(3)), value: 0, atMs: nil,
                        source: .manual, note: nil))
            }
            let reader = try Engine(path: path, options: StoreOptions(readOnly: true))
            defer { reader.close() }
            for habit in try reader.habits(includeArchived: true) {
                if try reader.store.savedFold(habitId: habit.id) != nil { savedFolds += 1 }
            }
            for minute in [60, 720, 1400] {
                let at = try engine.utcMs(day: today, minute: Int32(minute))
                XCTAssertEqual(try reader.todaySnapshotText(atMs: at), try reference.todaySnapshotText(atMs: at), "seed \(seed) minute \(minute), saved folds")
            }
            // Both ways were taken over the seeds (the property is not vacuous).
            let habits = try engine.habits(includeArchived: true)
            for habit in habits {
                let suffices = TodaySnapshot.windowSuffices(
                    habit.spec, versions: habit.versions,
                    windowFirst: TodaySnapshot.gridFirstDay(today: today, weekStart: try engine.weekStart()) - TodaySnapshot.windowDaysBeforeGrid[0],
                    runFirsts: [try engine.streaks(habitId: habit.id, asOf: today, best: 0).summary.current?.first],
                    missAllowance: try engine.streakPolicy(habitId: habit.id).missAllowance)
                if suffices { windowsUsedAndNot.used += 1 } else { windowsUsedAndNot.fellBack += 1 }
            }
        }
        XCTAssertGreaterThan(windowsUsedAndNot.used, 5)
        XCTAssertGreaterThan(windowsUsedAndNot.fellBack, 5)
        XCTAssertGreaterThan(savedFolds, 20, "the snapshots read few saved folds")
    }
}
