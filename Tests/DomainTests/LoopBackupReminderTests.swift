import XCTest

@testable import HabitCore

/// Loop's reminder columns as a habitcore rule: the weekday mask's bit order and
/// the values Loop never writes.
final class LoopBackupReminderTests: XCTestCase {
    func testLoopsWeekdayMaskCountsFromSaturday() {
        // Loop: bit 0 Saturday, bit 1 Sunday ... bit 6 Friday (WeekdayList, Timestamp.weekday).
        // habitcore: bit 0 Sunday ... bit 6 Saturday.
        let loopSaturday: Int64 = 1, loopSunday: Int64 = 2, loopFriday: Int64 = 64
        XCTAssertEqual(LoopBackup.weekdays(loopMask: loopSaturday), 1 << 6)
        XCTAssertEqual(LoopBackup.weekdays(loopMask: loopSunday), 1 << 0)
        XCTAssertEqual(LoopBackup.weekdays(loopMask: loopFriday), 1 << 5)
        for bit in 1...6 { XCTAssertEqual(LoopBackup.weekdays(loopMask: 1 << Int64(bit)), UInt8(1 << (bit - 1)), "Loop bit \(bit)") }
        // 113: Saturday, Wednesday, Thursday, Friday (the "Work out" habit of Loop's 022 backup).
        XCTAssertEqual(LoopBackup.weekdays(loopMask: 113), 0b111_1000)
        XCTAssertEqual(LoopBackup.weekdays(loopMask: 127), 127)
        XCTAssertEqual(LoopBackup.weekdays(loopMask: 0), 0)
        for bad: Int64 in [128, 255, -1, .min, .max] { XCTAssertNil(LoopBackup.weekdays(loopMask: bad), "\(bad)") }
    }

    func testAReminderBecomesRuleSettingsOrNone() throws {
        XCTAssertEqual(
            try LoopBackup.reminder(hour: 7, minute: 30, days: 2),
            ReminderRule.Settings(minute: 450, weekdays: 1, message: nil, quiet: .deferToEnd))
        XCTAssertEqual(try LoopBackup.reminder(hour: 23, minute: 59, days: 127)?.minute, 1439)
        XCTAssertNil(try LoopBackup.reminder(hour: nil, minute: 30, days: 127), "no hour: no reminder")
        XCTAssertNil(try LoopBackup.reminder(hour: 7, minute: nil, days: 127), "no minute: no reminder")
        XCTAssertNil(try LoopBackup.reminder(hour: 7, minute: 0, days: 0), "no weekday: Loop never reminds")
        for (hour, minute, days) in [(24, 0, 127), (-1, 0, 127), (7, 60, 127), (7, -1, 127), (Int64.max, Int64.max, 127), (7, 0, 128)]
            as [(Int64, Int64, Int64)]
        {
            XCTAssertThrowsError(try LoopBackup.reminder(hour: hour, minute: minute, days: days), "\(hour):\(minute) \(days)") { error in
                XCTAssertEqual((error as? HabitError)?.code, .invalid)
            }
        }
        XCTAssertThrowsError(try LoopBackup.reminder(hour: 7, minute: 0, days: nil))
    }

    func testThePlanCarriesTheReminderAndNamesTheRowAtFault() throws {
        let read = LoopBackup.Habit(
            id: 4, name: "Read", numerator: 1, denominator: 1, archived: false, position: 0, numeric: false,
            atMost: false, target: 1, unit: nil, reminderHour: 21, reminderMinute: 5, reminderDays: 113)
        let walk = LoopBackup.Habit(
            id: 5, name: "Walk", numerator: 1, denominator: 1, archived: false, position: 1, numeric: false,
            atMost: false, target: 1, unit: nil, reminderHour: nil, reminderMinute: nil, reminderDays: 127)
        let plan = try LoopBackup(version: 22, habits: [read, walk], repetitions: []).plan(today: 20_500, nowMs: 5)
        XCTAssertEqual(plan.habits.map(\.reminders), [[ReminderRule.Settings(minute: 1265, weekdays: 0b111_1000, message: nil, quiet: .deferToEnd)], []])
        var hostile = walk
        hostile.reminderHour = 25
        hostile.reminderMinute = 0
        XCTAssertThrowsError(try LoopBackup(version: 22, habits: [read, hostile], repetitions: []).plan(today: 20_500, nowMs: 5)) { error in
            XCTAssertEqual((error as? HabitError)?.code, .invalid)
            XCTAssertTrue((error as? HabitError)?.message.hasPrefix("Habits row id 5: reminder_hour 25") == true, "\(error)")
        }
    }
}
