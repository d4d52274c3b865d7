import CHabitCore
import Foundation
import HabitKit
import XCTest

/// Effective-dated settings through the built library (HabitKit over the C header), on
/// real store files: a change applies from a day and never rewrites the days before it.
final class SettingsVersionTests: XCTestCase {
    private func store() throws -> HabitKit.Store {
        let dir = try temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return try HabitKit.Store(path: dir + "/settings.db")
    }

    private func day(_ store: HabitKit.Store, _ offset: Int32) throws -> Day {
        try XCTUnwrap(try store.today().adding(offset))
    }

    /// A counter of `target` glasses started a week ago, with 8 logged on each day of that week.
    private func water(_ store: HabitKit.Store, target: Double = 8, direction: Direction = .atLeast) throws -> HabitID {
        var options = HabitOptions(name: "Water", kind: .counter)
        options.target = target
        options.direction = direction
        options.group = "Health"
        options.startDay = try day(store, -7)
        let id = try store.createHabit(options)
        for offset in Int32(-7)...(-1) { try store.append(EntryInput(habitID: id, kind: .amount, value: 8, day: try day(store, offset))) }
        return id
    }

    private func target(_ value: Double, _ direction: Direction = .atLeast) -> HabitOptions {
        var options = HabitOptions(name: "", kind: .counter)
        options.target = value
        options.direction = direction
        return options
    }

    func testRaisingATargetKeepsThePastWeekAndItsStreak() throws {
        let store = try store()
        let id = try water(store)
        XCTAssertEqual(try store.streaks(habitID: id).current.length, 7)
        let rejudged = try store.updateHabit(id: id, target(10), fields: .target, from: nil)
        XCTAssertEqual(rejudged, try day(store, 0)...day(store, 0), "from today: only today is re-judged")
        XCTAssertEqual(try store.streaks(habitID: id).current.length, 7, "the week of 8 a day stays kept")
        let states = try store.dayStates(habitID: id, from: try day(store, -7), through: try day(store, -1))
        XCTAssertTrue(states.allSatisfy { $0.flags.contains(.done) }, "every past day still reads done")
        XCTAssertEqual(try store.habit(id: id).target, 10, "the setting in force is the new one")
        // Today is judged by the new target.
        try store.append(EntryInput(habitID: id, kind: .amount, value: 8, day: try day(store, 0)))
        XCTAssertFalse(try store.dayStates(habitID: id, from: try day(store, 0), through: try day(store, 0))[0].flags.contains(.done))
    }

    func testAnEarlierDayReJudgesFromThereOnAndTheCallSaysWhich() throws {
        let store = try store()
        let id = try water(store)
        let rejudged = try store.updateHabit(id: id, target(10), fields: .target, from: try day(store, -3))
        XCTAssertEqual(rejudged, try day(store, -3)...day(store, 0))
        let states = try store.dayStates(habitID: id, from: try day(store, -7), through: try day(store, -1))
        XCTAssertEqual(states.map { $0.flags.contains(.done) }, [true, true, true, true, false, false, false])
        XCTAssertEqual(try store.streaks(habitID: id).longest.length, 4)
        // A later change from an earlier day reaches the versions after it too.
        _ = try store.updateHabit(id: id, target(8), fields: .target, from: try day(store, -5))
        XCTAssertTrue(try store.dayStates(habitID: id, from: try day(store, -7), through: try day(store, -1)).allSatisfy { $0.flags.contains(.done) })
        // Nothing that judges a day: nothing re-judged.
        var renamed = HabitOptions(name: "Water 2")
        renamed.target = 8
        XCTAssertNil(try store.updateHabit(id: id, renamed, fields: .name, from: try day(store, -2)))
        // A change cannot apply from a day to come.
        let future = try day(store, 1)
        XCTAssertThrowsError(try store.updateHabit(id: id, target(12), fields: .target, from: future)) { error in
            XCTAssertEqual((error as? HabitError)?.code, .invalid)
            XCTAssertTrue((error as? HabitError)?.message.contains("today or an earlier day") ?? false)
        }
    }

    func testLoweringALimitOrSwitchingDirectionKeepsPastWeeks() throws {
        let store = try store()
        // At most 60 minutes of screen time; 50 a day last week.
        var options = HabitOptions(name: "Screen", kind: .duration)
        options.target = 60
        options.direction = .atMost
        options.startDay = try day(store, -7)
        let id = try store.createHabit(options)
        for offset in Int32(-7)...(-1) { try store.append(EntryInput(habitID: id, kind: .amount, value: 50, day: try day(store, offset))) }
        _ = try store.updateHabit(id: id, target(40, .atMost), fields: .target, from: nil)
        XCTAssertTrue(try store.dayStates(habitID: id, from: try day(store, -7), through: try day(store, -1)).allSatisfy { $0.flags.contains(.done) })
        _ = try store.updateHabit(id: id, target(40, .atLeast), fields: .target, from: nil)
        XCTAssertTrue(try store.dayStates(habitID: id, from: try day(store, -7), through: try day(store, -1)).allSatisfy { $0.flags.contains(.done) })
        XCTAssertEqual(try store.streaks(habitID: id).current.length, 7)
    }

    func testCreditsFollowAReJudgedDayInTheSameCallWithAReasonThatSaysSo() throws {
        let store = try store()
        var options = HabitOptions(name: "Water", kind: .counter)
        options.target = 8
        let id = try store.createHabit(options)
        try store.setMinutesPerCompletion(5, habitID: id)
        let today = try day(store, 0)
        try store.append(EntryInput(habitID: id, kind: .amount, value: 8, day: today))
        XCTAssertEqual(try store.balance(), 5)
        // Re-judged not done: the minutes earned that day are taken back, by the change itself.
        _ = try store.updateHabit(id: id, target(10), fields: .target, from: nil)
        XCTAssertEqual(try store.balance(), 0)
        var entries = try store.creditEntries(from: today, through: today)
        XCTAssertEqual(entries.map(\.kind), [.earn, .adjust])
        XCTAssertEqual(entries.last?.minutes, -5)
        let reason = try XCTUnwrap(entries.last?.reason)
        XCTAssertTrue(reason.contains("re-judged not done") && reason.contains(today.description), reason)
        // Logging more makes it done again: earned, and nothing reads "undone".
        try store.append(EntryInput(habitID: id, kind: .amount, value: 2, day: today))
        entries = try store.creditEntries(from: today, through: today)
        XCTAssertEqual(entries.map(\.kind), [.earn, .adjust, .earn])
        XCTAssertEqual(try store.balance(), 5)
        XCTAssertFalse(entries.contains { $0.reason?.contains("undone") ?? false }, "\(entries.map(\.reason))")
        // Back to 8 from today: done either way, nothing to settle.
        _ = try store.updateHabit(id: id, target(8), fields: .target, from: nil)
        XCTAssertEqual(try store.creditEntries(from: today, through: today).count, 3)
        // An at-most day that goes over its limit by a new entry says so, not "undone".
        _ = try store.updateHabit(id: id, target(10, .atMost), fields: .target, from: nil)
        try store.append(EntryInput(habitID: id, kind: .amount, value: 1, day: today))
        let last = try XCTUnwrap(try store.creditEntries(from: today, through: today).last)
        XCTAssertEqual(last.minutes, -5)
        XCTAssertEqual(last.reason, "'Water' no longer done after a new entry")
    }

    func testArchiveAndRestoreFromADayLeaveTheStretchExcused() throws {
        let store = try store()
        var options = HabitOptions(name: "Walk")
        options.startDay = try day(store, -10)
        let id = try store.createHabit(options)
        for offset in Int32(-10)...(-4) { try store.append(EntryInput(habitID: id, kind: .done, day: try day(store, offset))) }
        XCTAssertEqual(try store.setArchived(true, habitID: id, from: try day(store, -3)), try day(store, -3)...day(store, 0))
        XCTAssertTrue(try store.habit(id: id).archivedDay != nil)
        XCTAssertEqual(try store.streaks(habitID: id).current.length, 7, "nothing is due while archived")
        XCTAssertEqual(try store.setArchived(false, habitID: id, from: nil), try day(store, 0)...day(store, 0))
        let streaks = try store.streaks(habitID: id)
        XCTAssertEqual(streaks.current.length, 7, "restored: the archived days are excused, not missed")
        let completion = try store.completion(habitID: id, from: try day(store, -10), through: try day(store, -1))
        XCTAssertEqual(completion.kept, 7)
        XCTAssertEqual(completion.judged, 7)
    }

    func testGroupAndProofChangesKeepThePast() throws {
        let store = try store()
        let id = try water(store)
        let from = try day(store, -7), yesterday = try day(store, -1)
        let before = try store.groupCompletion(group: "Health", asOf: yesterday, from: from, through: yesterday)
        var moved = HabitOptions(name: "")
        moved.group = "Home"
        moved.proofRequired = true
        _ = try store.updateHabit(id: id, moved, fields: [.group, .proof], from: nil)
        XCTAssertEqual(try store.habit(id: id).group, "Home")
        // The past week still counts in the group it was in, and its manual entries still count.
        let after = try store.groupCompletion(group: "Health", asOf: yesterday, from: from, through: yesterday)
        XCTAssertEqual(after.window, before.window)
        XCTAssertEqual(after.window.kept, 7)
        XCTAssertTrue(try store.dayStates(habitID: id, from: from, through: yesterday).allSatisfy { $0.flags.contains(.done) })
    }

    func testStoreExportCarriesEveryVersion() throws {
        let store = try store()
        let id = try water(store)
        _ = try store.updateHabit(id: id, target(10), fields: .target, from: try day(store, -2))
        let text = try store.export(format: .json)
        XCTAssertTrue(text.contains("\"target\":8") && text.contains("\"target\":10"), "both versions' targets are exported")
        let copy = try self.store()
        try copy.importText(text, format: .json)
        let imported = try XCTUnwrap(try copy.habits().first)
        XCTAssertEqual(
            try copy.dayStates(habitID: imported.id, from: try day(copy, -7), through: try day(copy, -1)).map { $0.flags.contains(.done) },
            [true, true, true, true, true, false, false], "the import judges each day by its version")
    }
}
