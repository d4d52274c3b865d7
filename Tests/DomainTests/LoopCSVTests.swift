import XCTest

@testable import HabitCore

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
        XCTAssertThrowsError(
            try LoopCSV.plan(
                habitsCSV: habits, checkmarksCSV: "Date,Meditate\n2026-01-01,2\n2026-02-30,2\n",
                today: 20_500, nowMs: 0)
        ) { error in
            XCTAssertTrue((error as? HabitError)?.message.hasPrefix("Checkmarks.csv line 3:") == true, "\(error)")
        }
        XCTAssertThrowsError(try LoopCSV.plan(habitsCSV: habits, checkmarksCSV: "Date,Nobody\n", today: 0, nowMs: 0))
        // Loop allows two habits of one name: the later one is told apart, not refused.
        XCTAssertEqual(
            try LoopCSV.plan(
                habitsCSV: habits + "\n004,run,YES_NO,,,1,1,#000,,,,false\n005,Run,YES_NO,,,1,1,#000,,,,false",
                checkmarksCSV: "Date\n", today: 0, nowMs: 0
            ).habits.map(\.spec.name),
            ["Meditate", "Run", "Old", "run (2)", "Run (3)"])
        // "#000" is not #RRGGBB: left out, the habit kept; Loop's own colours kept as written.
        let colours = try? LoopCSV.plan(
            habitsCSV: habits + "\n004,run,YES_NO,,,1,1,#000,,,,false", checkmarksCSV: "Date\n",
            today: 0, nowMs: 0
        ).habits.map(\.spec.display.colour)
        XCTAssertEqual(colours, ["#FF8F00", "#E64A19", "#AFB42B", nil])
        XCTAssertThrowsError(
            try LoopCSV.plan(
                habitsCSV: "Position,Name,Type\n001,X,BOOLEAN\n", checkmarksCSV: "Date\n",
                today: 0, nowMs: 0)
        ) { error in
            XCTAssertTrue((error as? HabitError)?.message.hasPrefix("Habits.csv line 2:") == true, "\(error)")
        }
    }
}
