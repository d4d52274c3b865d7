import XCTest

@testable import HabitCore

final class StoreDocumentTests: XCTestCase {
    func sample() throws -> (habits: [Habit], entries: [Entry]) {
        let spec = try HabitSpec(
            name: "Water", kind: .counter, target: 8, direction: .atLeast, group: "Health", unit: "glasses",
            routine: .day, proofRequired: false, startDay: 20_000, schedule: .weekdays(0b0101010)
        ).validated()
        let habit = Habit(
            id: 7, spec: spec, archivedDay: nil, createdAtMs: 1_700_000_000_000,
            versions: [
                SettingsVersion(fromDay: 20_000, schedule: .daily, target: 10, group: "Health"),
                SettingsVersion(fromDay: 20_010, spec: spec),
            ])
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
            let text = StoreDocument.encode(
                timezone: "Europe/Paris", dayStartMinutes: 180, habits: habits, entries: entries, layout: layout,
                rules: rules)
            let plan = try StoreDocument.decode(text, layout: layout)
            XCTAssertEqual(
                plan.settings,
                .init(
                    timezone: "Europe/Paris", dayStartMinutes: 180, weekStart: 0, streakPolicy: numu,
                    routineBounds: bounds))
            XCTAssertEqual(plan.habits[0].item.streakPolicy, .init(missAllowance: 2, openDay: nil), "open day: the store's")
            XCTAssertEqual(plan.habits.map(\.item.spec), habits.map(\.spec))
            XCTAssertEqual(plan.habits.map(\.id), [7])
            XCTAssertEqual(plan.habits[0].item.versions, habits[0].versions, "every version's settings travel")
            XCTAssertEqual(plan.entries.map(\.entry.kind), [.amount, .total, .undo])
            XCTAssertEqual(plan.entries.map(\.entry.id), [3, 4, 9])
            XCTAssertEqual(plan.entries.map(\.entry.habitId), [7, 7, 7])
            XCTAssertEqual(plan.entries[2].entry.undoes, 3, "the document's ids, as written")
            XCTAssertEqual(plan.entries[0].entry.note, "a \"quote\"")
        }
    }

    func testADocumentFromBeforeThePoliciesLeavesTheStoresRulesAlone() throws {
        let (habits, entries) = try sample()
        var text = StoreDocument.encode(timezone: "UTC", dayStartMinutes: 0, habits: habits, entries: entries, layout: .json)
        // What 0.2.0 wrote: no week start, policies or routine bounds.
        for field in [
            #","week_start":1"#, #","streak_policy":{"miss_allowance":0,"open_day":"previous","off_days":"skip"}"#,
            #","routine_bounds":{"morning":300,"day":660,"evening":1080}"#,
            #","streak_policy":{"miss_allowance":null,"open_day":null}"#,
        ] {
            XCTAssertTrue(text.contains(field), field)
            text = text.replacingOccurrences(of: field, with: "")
        }
        let plan = try StoreDocument.decode(text, layout: .json)
        XCTAssertEqual(plan.settings, .init(timezone: "UTC", dayStartMinutes: 0))
        XCTAssertEqual(plan.habits[0].item.streakPolicy, .none)
        XCTAssertThrowsError(
            try StoreDocument.decode(
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
        var headless = lines
        headless.swapAt(0, 1)
        XCTAssertThrowsError(try StoreDocument.decode(headless.joined(separator: "\n"), layout: .jsonLines)) { error in
            XCTAssertEqual((error as? HabitError)?.message, "line 1: the first record must be the header")
        }
        let json = StoreDocument.encode(timezone: "UTC", dayStartMinutes: 0, habits: habits, entries: entries, layout: .json)
        XCTAssertThrowsError(try StoreDocument.decode(json.replacingOccurrences(of: "2024-", with: "2024-02-30x"), layout: .json))
        XCTAssertThrowsError(try StoreDocument.decode(json.replacingOccurrences(of: "\"glasses\"", with: "7"), layout: .json)) { error in
            XCTAssertTrue((error as? HabitError)?.message.hasPrefix("habits[0]:") == true, "\(error)")
        }
        XCTAssertThrowsError(
            try StoreDocument.decode(
                json.replacingOccurrences(of: "\"schema_version\":2", with: "\"schema_version\":3"),
                layout: .json)
        ) { error in
            XCTAssertEqual((error as? HabitError)?.code, .tooNew)
        }
    }
}
