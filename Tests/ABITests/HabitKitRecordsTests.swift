import CHabitCore
import Foundation
import HabitKit
import XCTest

/// HabitKit's settings, progress, ledgers, files and plugins, on real store files
/// (HabitKitTests' helpers; `--filter HabitKitTests` runs these too).
extension HabitKitTests {
    func testWeekStartRoutinesAndStreakPolicies() throws {
        let (store, _) = try freshStore()
        XCTAssertEqual(try store.weekStart(), 1, "Monday until set")
        try store.setWeekStart(0)
        XCTAssertEqual(try store.weekStart(), 0)
        expect(.invalid) { try store.setWeekStart(7) }

        let bounds = RoutineBounds(morning: 60, day: 360, evening: 720)
        try store.setRoutineBounds(bounds)
        XCTAssertEqual(try store.routineBounds(), bounds)
        expect(.invalid) { try store.setRoutineBounds(RoutineBounds(morning: 720, day: 360, evening: 60)) }
        // 07:00 UTC on a store in UTC with day start 0: an hour after the morning, before the day.
        let seven = try store.utcMs(day: Day("2026-03-10"), minute: 120)
        XCTAssertEqual(try store.routine(atMs: seven), HC_ROUTINE_MORNING)
        XCTAssertEqual(try store.routine(atMs: seven + 6 * 3_600_000), HC_ROUTINE_DAY)
        expect(.invalid) { _ = try store.routine(atMs: -1) }

        XCTAssertEqual(try store.streakPolicy(), StreakPolicy())
        let policy = StreakPolicy(missAllowance: 2, openDay: .zero, offDays: .break)
        try store.setStreakPolicy(policy)
        XCTAssertEqual(try store.streakPolicy(), policy)
        expect(.invalid) { try store.setStreakPolicy(StreakPolicy(missAllowance: 32, openDay: .previous, offDays: .skip)) }

        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        XCTAssertEqual(try store.ownStreakPolicy(habitID: walk), HabitStreakPolicy())
        XCTAssertEqual(try store.streakPolicy(habitID: walk), policy, "a habit follows the store")
        try store.setStreakPolicy(HabitStreakPolicy(missAllowance: 0), habitID: walk)
        XCTAssertEqual(try store.ownStreakPolicy(habitID: walk), HabitStreakPolicy(missAllowance: 0))
        XCTAssertEqual(try store.streakPolicy(habitID: walk), StreakPolicy(missAllowance: 0, openDay: .zero, offDays: .break))
        try store.setStreakPolicy(HabitStreakPolicy(openDay: .previous), habitID: walk)
        XCTAssertEqual(try store.streakPolicy(habitID: walk), StreakPolicy(missAllowance: 2, openDay: .previous, offDays: .break))
        expect(.notFound) { _ = try store.streakPolicy(habitID: 999) }
        expect(.notFound) { _ = try store.ownStreakPolicy(habitID: 999) }
        expect(.notFound) { try store.setStreakPolicy(HabitStreakPolicy(), habitID: 999) }
    }

    func testVacations() throws {
        let (store, _) = try freshStore()
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        let all = try store.addVacation(from: Day("2026-07-01"), through: Day("2026-07-14"))
        let one = try store.addVacation(habitID: walk, from: Day("2026-06-01"), through: Day("2026-06-02"))
        XCTAssertEqual(try store.vacations().map(\.id), [one, all], "by start day")
        XCTAssertEqual(try store.vacations().first?.habitID, walk)
        XCTAssertNil(try store.vacations().last?.habitID)
        XCTAssertEqual(try store.vacations().last?.through, try Day("2026-07-14"))
        expect(.invalid) { try store.addVacation(from: Day("2026-07-14"), through: Day("2026-07-01")) }
        expect(.notFound) { try store.addVacation(habitID: 999, from: Day("2026-07-01"), through: Day("2026-07-02")) }
        try store.removeVacation(id: all)
        XCTAssertEqual(try store.vacations().map(\.id), [one])
        expect(.notFound) { try store.removeVacation(id: all) }
    }
}
