import XCTest
@testable import HabitCore

final class JSONTests: XCTestCase {
    func testRoundTrip() throws {
        let text = #"{"a":[1,-2.5,true,false,null,"x\"\\\n\u00e9\ud83d\ude00"],"b":{"c":9007199254740993}}"#
        let value = try JSON.parse(text)
        XCTAssertEqual(value["b"]?["c"], .int(9_007_199_254_740_993))
        XCTAssertEqual(try JSON.parse(value.text), value)
        XCTAssertEqual(JSON.string("tab\there\u{1}").text, #""tab\there\u0001""#)
    }

    func testHostileInputIsRefusedWithAReason() {
        let bad = ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "1e", "1e400", "\"\\x\"", "\"\\ud800\"", "\"\\udc00x\"",
                   "\"a\u{1}\"", "{\"a\":1,\"a\":2}", "[1] 2", "nul", "tru", String(repeating: "[", count: 100),
                   String(repeating: "{\"a\":", count: 70) + "1" + String(repeating: "}", count: 70)]
        for text in bad {
            XCTAssertThrowsError(try JSON.parse(text), text.prefix(20).description) { error in
                XCTAssertEqual((error as? HabitError)?.code, .invalid)
            }
        }
        XCTAssertThrowsError(try JSON.parse([0x22, 0xC3, 0x28, 0x22]), "invalid UTF-8")
        XCTAssertThrowsError(try JSON.parse([0x22, 0xED, 0xA0, 0x80, 0x22]), "encoded surrogate")
    }

    func testEveryTruncationAndByteFlipIsSafe() {
        let text = Array(#"{"habits":[{"name":"Wäter","target":8.5,"tags":["a","b"]}],"n":-12e3,"ok":true}"#.utf8)
        for length in 0..<text.count { _ = try? JSON.parse(Array(text[0..<length])) }
        for index in text.indices {
            for byte: UInt8 in [0, 0x22, 0x5C, 0x7B, 0x80, 0xFF] {
                var copy = text
                copy[index] = byte
                _ = try? JSON.parse(copy)
            }
        }
    }
}

final class StoreDocumentTests: XCTestCase {
    func sample() throws -> (habits: [Habit], entries: [Entry]) {
        let spec = try HabitSpec(name: "Water", kind: .counter, target: 8, direction: .atLeast, group: "Health", unit: "glasses",
                                 routine: .day, proofRequired: false, startDay: 20_000, schedule: .weekdays(0b0101010)).validated()
        let habit = Habit(id: 7, spec: spec, archivedDay: nil, createdAtMs: 1_700_000_000_000,
                          versions: [SettingsVersion(fromDay: 20_000, schedule: .daily, target: 10, group: "Health"),
                                     SettingsVersion(fromDay: 20_010, spec: spec)])
        let entries = [
            Entry(id: 3, habitId: 7, day: 20_001, kind: .amount, value: 3, recordedAtMs: 1, source: .manual, undoes: nil, note: "a \"quote\""),
            Entry(id: 4, habitId: 7, day: 20_001, kind: .total, value: 5, recordedAtMs: 2, source: .health, undoes: nil, note: nil),
            Entry(id: 9, habitId: 7, day: 20_001, kind: .undo, value: 0, recordedAtMs: 3, source: .manual, undoes: 3, note: nil),
        ]
        return ([habit], entries)
    }

    func testBothLayoutsRoundTrip() throws {
        let (habits, entries) = try sample()
        let numu = StreakPolicy(missAllowance: 1, openDay: .zero, offDays: .breaks)
        let bounds = RoutineBounds(morning: 240, day: 600, evening: 1_020)
        let rules = StoreDocument.Rules(weekStart: 0, streakPolicy: numu, routineBounds: bounds, habitPolicies: [7: .init(missAllowance: 2, openDay: nil)])
        for layout in [StoreDocument.Layout.json, .jsonLines] {
            let text = StoreDocument.encode(timezone: "Europe/Paris", dayStartMinutes: 180, habits: habits, entries: entries, layout: layout,
                                            rules: rules)
            let plan = try StoreDocument.decode(text, layout: layout)
            XCTAssertEqual(plan.settings, .init(timezone: "Europe/Paris", dayStartMinutes: 180, weekStart: 0, streakPolicy: numu,
                                                routineBounds: bounds))
            XCTAssertEqual(plan.habits[0].streakPolicy, .init(missAllowance: 2, openDay: nil), "open day: the store's")
            XCTAssertEqual(plan.habits.map(\.spec), habits.map(\.spec))
            XCTAssertEqual(plan.habits[0].versions, habits[0].versions, "every version's settings travel")
            XCTAssertEqual(plan.entries.map(\.kind), [.amount, .total, .undo])
            XCTAssertEqual(plan.entries[2].undoesIndex, 0)
            XCTAssertEqual(plan.entries[0].note, "a \"quote\"")
        }
    }

    func testADocumentFromBeforeThePoliciesLeavesTheStoresRulesAlone() throws {
        let (habits, entries) = try sample()
        var text = StoreDocument.encode(timezone: "UTC", dayStartMinutes: 0, habits: habits, entries: entries, layout: .json)
        // What 0.2.0 wrote: no week start, policies or routine bounds.
        for field in [#","week_start":1"#, #","streak_policy":{"miss_allowance":0,"open_day":"previous","off_days":"skip"}"#,
                      #","routine_bounds":{"morning":300,"day":660,"evening":1080}"#,
                      #","streak_policy":{"miss_allowance":null,"open_day":null}"#] {
            XCTAssertTrue(text.contains(field), field)
            text = text.replacingOccurrences(of: field, with: "")
        }
        let plan = try StoreDocument.decode(text, layout: .json)
        XCTAssertEqual(plan.settings, .init(timezone: "UTC", dayStartMinutes: 0))
        XCTAssertEqual(plan.habits[0].streakPolicy, .none)
        XCTAssertThrowsError(try StoreDocument.decode(
            StoreDocument.encode(timezone: "UTC", dayStartMinutes: 0, habits: habits, entries: entries, layout: .json)
                .replacingOccurrences(of: #""miss_allowance":0"#, with: #""miss_allowance":40"#), layout: .json))
    }

    func testErrorsNameTheLineOrElement() throws {
        let (habits, entries) = try sample()
        let lines = StoreDocument.encode(timezone: "UTC", dayStartMinutes: 0, habits: habits, entries: entries, layout: .jsonLines)
            .split(separator: "\n").map(String.init)
        var broken = lines
        broken[3] = broken[3].replacingOccurrences(of: "\"total\"", with: "\"tot\"")
        XCTAssertThrowsError(try StoreDocument.decode(broken.joined(separator: "\n"), layout: .jsonLines)) { error in
            XCTAssertTrue((error as? HabitError)?.message.hasPrefix("line 4:") == true, "\(error)")
        }
        var reordered = lines
        reordered.swapAt(2, 4) // the undo before the entry it cancels
        XCTAssertThrowsError(try StoreDocument.decode(reordered.joined(separator: "\n"), layout: .jsonLines)) { error in
            XCTAssertTrue((error as? HabitError)?.message.hasPrefix("line 3:") == true, "\(error)")
        }
        let json = StoreDocument.encode(timezone: "UTC", dayStartMinutes: 0, habits: habits, entries: entries, layout: .json)
        XCTAssertThrowsError(try StoreDocument.decode(json.replacingOccurrences(of: "2024-", with: "2024-02-30x"), layout: .json))
        XCTAssertThrowsError(try StoreDocument.decode(json.replacingOccurrences(of: "\"glasses\"", with: "7"), layout: .json)) { error in
            XCTAssertTrue((error as? HabitError)?.message.hasPrefix("habits[0]:") == true, "\(error)")
        }
        XCTAssertThrowsError(try StoreDocument.decode(json.replacingOccurrences(of: "\"schema_version\":2", with: "\"schema_version\":3"),
                                                      layout: .json)) { error in
            XCTAssertEqual((error as? HabitError)?.code, .tooNew)
        }
    }
}

final class LoopCSVTests: XCTestCase {
    let habits = """
    Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
    001,Meditate,YES_NO,"Did you meditate, today?",,1,1,#FF8F00,,,,false
    002,Run,NUMERICAL,How many miles?,,3,7,#E64A19,miles,AT_LEAST,2.0,false
    003,Old,YES_NO,,,1,3,#AFB42B,,,,true
    """

    func testHabitsAndMarksBecomeAPlan() throws {
        let marks = "Date,Meditate,Run,Old\n2026-01-03,2,3500,1\n2026-01-02,3,0,2\n2026-01-01,YES_MANUAL,-1,0\n"
        let plan = try LoopCSV.plan(habitsCSV: habits, checkmarksCSV: marks, today: 20_500, nowMs: 5)
        XCTAssertEqual(plan.habits.map(\.spec.name), ["Meditate", "Run", "Old"])
        XCTAssertEqual(plan.habits.map(\.spec.kind), [.checkmark, .counter, .checkmark])
        XCTAssertEqual(plan.habits.map(\.spec.schedule), [.daily, .timesInDays(3, 7), .timesInDays(1, 3)], "each Loop frequency as itself")
        XCTAssertEqual(plan.habits[1].spec.unit, "miles")
        XCTAssertNotNil(plan.habits[2].archivedDay)
        XCTAssertEqual(plan.habits[0].spec.startDay, try CivilDate.parseDay("2026-01-01"))
        let summary = plan.entries.map { "\($0.habitIndex):\($0.kind.name):\($0.value)" }
        XCTAssertEqual(summary, ["0:done:0.0", "1:amount:3.5", "0:skip:0.0", "2:done:0.0", "0:done:0.0"])
    }

    func testBadInputNamesFileAndLine() {
        XCTAssertThrowsError(try LoopCSV.plan(habitsCSV: habits, checkmarksCSV: "Date,Meditate\n2026-01-01,2\n2026-02-30,2\n",
                                              today: 20_500, nowMs: 0)) { error in
            XCTAssertTrue((error as? HabitError)?.message.hasPrefix("Checkmarks.csv line 3:") == true, "\(error)")
        }
        XCTAssertThrowsError(try LoopCSV.plan(habitsCSV: habits, checkmarksCSV: "Date,Nobody\n", today: 0, nowMs: 0))
        // Loop allows two habits of one name: the later one is told apart, not refused.
        XCTAssertEqual(try LoopCSV.plan(habitsCSV: habits + "\n004,run,YES_NO,,,1,1,#000,,,,false\n005,Run,YES_NO,,,1,1,#000,,,,false",
                                        checkmarksCSV: "Date\n", today: 0, nowMs: 0).habits.map(\.spec.name),
                       ["Meditate", "Run", "Old", "run (2)", "Run (3)"])
        // "#000" is not #RRGGBB: left out, the habit kept; Loop's own colours kept as written.
        let colours = try? LoopCSV.plan(habitsCSV: habits + "\n004,run,YES_NO,,,1,1,#000,,,,false", checkmarksCSV: "Date\n",
                                        today: 0, nowMs: 0).habits.map(\.spec.display.colour)
        XCTAssertEqual(colours, ["#FF8F00", "#E64A19", "#AFB42B", nil])
        XCTAssertThrowsError(try LoopCSV.plan(habitsCSV: "Position,Name,Type\n001,X,BOOLEAN\n", checkmarksCSV: "Date\n",
                                              today: 0, nowMs: 0)) { error in
            XCTAssertTrue((error as? HabitError)?.message.hasPrefix("Habits.csv line 2:") == true, "\(error)")
        }
    }
}

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
        XCTAssertEqual(try LoopBackup.reminder(hour: 7, minute: 30, days: 2),
                       ReminderRule.Settings(minute: 450, weekdays: 1, message: nil, quiet: .deferToEnd))
        XCTAssertEqual(try LoopBackup.reminder(hour: 23, minute: 59, days: 127)?.minute, 1439)
        XCTAssertNil(try LoopBackup.reminder(hour: nil, minute: 30, days: 127), "no hour: no reminder")
        XCTAssertNil(try LoopBackup.reminder(hour: 7, minute: nil, days: 127), "no minute: no reminder")
        XCTAssertNil(try LoopBackup.reminder(hour: 7, minute: 0, days: 0), "no weekday: Loop never reminds")
        for (hour, minute, days) in [(24, 0, 127), (-1, 0, 127), (7, 60, 127), (7, -1, 127), (Int64.max, Int64.max, 127), (7, 0, 128)] as [(Int64, Int64, Int64)] {
            XCTAssertThrowsError(try LoopBackup.reminder(hour: hour, minute: minute, days: days), "\(hour):\(minute) \(days)") { error in
                XCTAssertEqual((error as? HabitError)?.code, .invalid)
            }
        }
        XCTAssertThrowsError(try LoopBackup.reminder(hour: 7, minute: 0, days: nil))
    }

    func testThePlanCarriesTheReminderAndNamesTheRowAtFault() throws {
        let read = LoopBackup.Habit(id: 4, name: "Read", numerator: 1, denominator: 1, archived: false, position: 0, numeric: false,
                                    atMost: false, target: 1, unit: nil, reminderHour: 21, reminderMinute: 5, reminderDays: 113)
        let walk = LoopBackup.Habit(id: 5, name: "Walk", numerator: 1, denominator: 1, archived: false, position: 1, numeric: false,
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
