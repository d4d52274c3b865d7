import CHabitCore
import Foundation
import HabitKit
import XCTest

/// The store revision and the change feed through HabitKit on real store files: other
/// handles' and other processes' commits move the revision; each change names its
/// habit and days; the AsyncSequence of changes hears another process within 100 ms.
final class ChangeStoreTests: XCTestCase {
    private func freshPath() throws -> String {
        let dir = try temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir + "/changes.db"
    }

    func testEachWriteMovesTheRevisionAndNamesItsHabitAndDays() throws {
        let path = try freshPath()
        let writer = try HabitKit.Store(path: path)
        let reader = try HabitKit.Store(path: path, options: .readOnly)
        let start = try reader.revision()
        let walk = try writer.createHabit(HabitOptions(name: "Walk"))
        let read = try writer.createHabit(HabitOptions(name: "Read"))
        let day = try Day("2026-03-10")
        let afterHabits = try reader.revision()
        XCTAssertGreaterThan(afterHabits, start, "a commit of another handle moves a read-only handle's revision")

        _ = try writer.append(EntryInput(habitID: walk, day: day))
        _ = try writer.append(EntryInput(habitID: walk, day: try XCTUnwrap(day.adding(1))))
        _ = try writer.append(EntryInput(habitID: read, day: day))
        let vacation = try writer.addVacation(habitID: read, from: try Day("2026-04-01"), through: try Day("2026-04-05"))
        try writer.removeVacation(id: vacation)
        let changes = try reader.changes(after: afterHabits)
        XCTAssertEqual(changes.map(\.area), [.entry, .entry, .entry, .vacation, .vacation])
        XCTAssertEqual(changes.map(\.habitID), [walk, walk, read, read, read])
        XCTAssertEqual(changes.map(\.firstDay), [day, day.adding(1), day, try Day("2026-04-01"), try Day("2026-04-01")])
        XCTAssertEqual(
            changes.map(\.lastDay), [day, day.adding(1), day, try Day("2026-04-05"), try Day("2026-04-05")], "a removal reaches the vacation's days")
        XCTAssertEqual(changes.map(\.revision), Array((afterHabits + 1)...(afterHabits + 5)), "one revision per commit, in order")
        XCTAssertEqual(try reader.revision(), changes.last?.revision)
        XCTAssertEqual(try reader.changes(after: try reader.revision()), [], "nothing after the last")

        // A habit's settings from a day on reach that day and every later one; its
        // creation reaches every day.
        let created = try reader.changes(after: start, limit: 2)
        XCTAssertEqual(created.map(\.habitID), [walk, walk])
        XCTAssertTrue(created.contains { $0.firstDay == nil && $0.lastDay == nil })
        XCTAssertTrue(created.allSatisfy { $0.area == .habit && $0.lastDay == nil })

        // The compact form: Walk's two touching days are one change at the later revision.
        let merged = try reader.changes(after: afterHabits, merged: true)
        let walkEntries = merged.filter { $0.habitID == walk && $0.area == .entry }
        XCTAssertEqual(walkEntries.count, 1)
        XCTAssertEqual(walkEntries.first?.firstDay, day)
        XCTAssertEqual(walkEntries.first?.lastDay, day.adding(1))
        XCTAssertEqual(walkEntries.first?.revision, afterHabits + 2)
        XCTAssertEqual(merged.map(\.revision), merged.map(\.revision).sorted())

        // A store setting that follows the person reaches every habit and day.
        let beforeSetting = try reader.revision()
        try writer.setTimeZone("Europe/Berlin")
        let zone = try reader.changes(after: beforeSetting)
        XCTAssertFalse(zone.isEmpty)
        XCTAssertTrue(zone.allSatisfy { $0.habitID == nil && $0.reaches(day) })

        expectCode(.invalid) { _ = try reader.changes(after: -1) }
        expectCode(.invalid) { _ = try reader.changes(after: 0, limit: 0) }
        expectCode(.invalid) { _ = try reader.changes(after: 0, limit: 10_001) }
    }

    /// The person's reading rules (the store's streak policy, a habit's own, the routine
    /// bounds) change what a reader shows: each write of one moves the revision and
    /// reaches the feed; one that changes nothing logs nothing.
    func testEachReadingRuleMovesTheRevisionAndReachesTheFeed() throws {
        let path = try freshPath()
        let writer = try HabitKit.Store(path: path)
        let reader = try HabitKit.Store(path: path, options: .readOnly)
        let walk = try writer.createHabit(HabitOptions(name: "Walk"))
        let day = try Day("2026-03-10")

        func changes(_ write: () throws -> Void) throws -> [Change] {
            let before = try reader.revision()
            try write()
            let after = try reader.revision()
            XCTAssertGreaterThan(after, before, "the write did not move the revision")
            let changes = try reader.changes(after: before)
            XCTAssertEqual(changes.last?.revision, after)
            return changes
        }

        let store = try changes { try writer.setStreakPolicy(StreakPolicy(missAllowance: 2, openDay: .zero, offDays: .break)) }
        XCTAssertFalse(store.isEmpty)
        XCTAssertTrue(store.allSatisfy { $0.area == .setting && $0.habitID == nil && $0.firstDay == nil && $0.lastDay == nil }, "\(store)")

        let own = try changes { try writer.setStreakPolicy(HabitStreakPolicy(missAllowance: 1, openDay: .previous), habitID: walk) }
        XCTAssertEqual(own.map(\.area), [.habit, .habit], "one change per field set")
        XCTAssertTrue(own.allSatisfy { $0.habitID == walk && $0.reaches(day) && $0.firstDay == nil && $0.lastDay == nil })
        let oneField = try changes { try writer.setStreakPolicy(HabitStreakPolicy(missAllowance: nil, openDay: .previous), habitID: walk) }
        XCTAssertEqual(oneField.map(\.habitID), [walk], "only the field that changed")

        let routine = try changes { try writer.setRoutineBounds(RoutineBounds(morning: 240, day: 600, evening: 1080)) }
        XCTAssertEqual(routine.map(\.area), [.setting])
        XCTAssertNil(routine.first?.habitID)

        let unchanged = try reader.revision()
        try writer.setStreakPolicy(HabitStreakPolicy(missAllowance: nil, openDay: .previous), habitID: walk)
        try writer.setStreakPolicy(StreakPolicy(missAllowance: 2, openDay: .zero, offDays: .break))
        try writer.setRoutineBounds(RoutineBounds(morning: 240, day: 600, evening: 1080))
        XCTAssertEqual(try reader.revision(), unchanged, "a rule set to what it was logged a change")

        // The stored rules read back as written, from the other handle too.
        XCTAssertEqual(try reader.streakPolicy(), StreakPolicy(missAllowance: 2, openDay: .zero, offDays: .break))
        XCTAssertEqual(try reader.ownStreakPolicy(habitID: walk), HabitStreakPolicy(missAllowance: nil, openDay: .previous))
        XCTAssertEqual(try reader.routineBounds(), RoutineBounds(morning: 240, day: 600, evening: 1080))
    }

    func testAStoreOfTheLastVersionGetsItsOpsNumbered() throws {
        let path = try freshPath()
        let store = try HabitKit.Store(path: path)
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        _ = try store.append(EntryInput(habitID: walk, day: try Day("2026-03-10")))
        let before = try store.changes()
        try store.close()
        // As a store written before the change log: the log gone, the migration undone.
        XCTAssertSucceeded(try runProcess(["sqlite3", path, "DROP TABLE change_log; PRAGMA user_version = 20;"]), "back to 20")
        let reopened = try HabitKit.Store(path: path)
        XCTAssertEqual(try reopened.changes(), before, "the migration numbers the logged ops by their clock")
    }

    func testAnotherProcessCommitReachesTheChangeStreamWithin100ms() async throws {
        let path = try freshPath()
        let store = try HabitKit.Store(path: path)
        let walk = try await store.createHabit(HabitOptions(name: "Walk"))
        let start = try await store.revision()
        let seen = Locked<[(Change, Int64)]>([])
        let listener = Task {
            for try await change in store.changeStream(after: start) {
                seen.update { $0.append((change, DispatchTime.now().uptimeNanoseconds.toMs)) }
                if seen.value.count == 3 { return }
            }
        }
        for (index, date) in ["2026-03-01", "2026-03-02", "2026-03-03"].enumerated() {
            try await Task.sleep(nanoseconds: 300_000_000)  // idle between writes: the stream waits on the file
            let committed = try runProcess([Paths.habitctl, "--db", path, "log", "\(walk)", "--date", date])
            XCTAssertSucceeded(committed, "habitctl log")
            let doneAt = DispatchTime.now().uptimeNanoseconds.toMs
            var waited: Int64 = 0
            while seen.value.count <= index && waited < 2000 {
                try await Task.sleep(nanoseconds: 2_000_000)
                waited += 2
            }
            let arrival = try XCTUnwrap(seen.value.count > index ? seen.value[index] : nil, "change \(index) never arrived")
            XCTAssertLessThan(arrival.1 - doneAt, 100, "another process's commit reaches the stream within 100 ms")
            XCTAssertEqual(arrival.0.firstDay, try Day(date))
            XCTAssertEqual(arrival.0.habitID, walk)
        }
        _ = try await listener.value
        XCTAssertEqual(seen.value.map(\.0.revision), [start + 1, start + 2, start + 3], "each once, in order")
        let async = try await store.changes(after: start)
        XCTAssertEqual(async, seen.value.map(\.0))
        let revision = try await store.revision()
        XCTAssertEqual(revision, start + 3)
    }

    func testCancellingTheStreamEndsIt() async throws {
        let path = try freshPath()
        let store = try HabitKit.Store(path: path)
        let listener = Task { () throws -> Int in
            var count = 0
            for try await _ in store.changeStream() { count += 1 }
            return count
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        listener.cancel()
        let count = try await listener.value
        XCTAssertEqual(count, 0)
    }

    private func expectCode(_ code: HabitError.Code, _ body: () throws -> Void, line: UInt = #line) {
        XCTAssertThrowsError(try body(), line: line) { XCTAssertEqual(($0 as? HabitError)?.code, code, line: line) }
    }
}

extension UInt64 {
    fileprivate var toMs: Int64 { Int64(self / 1_000_000) }
}
