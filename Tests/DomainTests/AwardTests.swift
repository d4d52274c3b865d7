import XCTest

@testable import HabitCore

/// The award rules, catalogues, referral codes and milestones, without a store.
final class AwardTests: XCTestCase {
    func day(_ text: String) -> Int32 { (try? CivilDate.parseDay(text)) ?? 0 }

    func facts(_ habits: [(id: Int64, schedule: Schedule, start: String, done: [Int32])]) -> AwardFacts {
        AwardFacts(
            habits: habits.map { habit in
                let spec = HabitSpec(
                    name: "h\(habit.id)", kind: .checkmark, target: 1, direction: .atLeast, group: nil, unit: nil,
                    routine: .anytime, proofRequired: false, startDay: day(habit.start), schedule: habit.schedule)
                let states = habit.done.map { DayState(day: $0, value: 1, done: true, skipped: false, entryCount: 1) }
                return AwardFacts.HabitFacts(
                    id: habit.id, history: HabitHistory(spec: spec, versions: [], archivedDay: nil, days: states),
                    createdDay: day(habit.start), proofs: [])
            }, vacations: [], creditsEarned: [], referrals: [], weekStart: 1)
    }

    func rule(_ id: String, _ metric: AwardMetric, _ scope: AwardScope = .allHabits, _ threshold: Int64) -> AwardRule {
        AwardRule(id: id, title: id, description: "", icon: "", tier: 1, metric: metric, scope: scope, threshold: threshold)
    }

    func testTheBuiltInCatalogueHoldsTheLaddersAndIsValid() throws {
        try AwardCatalogue.validate(AwardCatalogue.builtIn)
        func thresholds(_ metric: AwardMetric) -> [Int64] { AwardCatalogue.builtIn.filter { $0.metric == metric }.map(\.threshold) }
        XCTAssertEqual(thresholds(.currentStreak), [3, 7, 14, 30, 100, 365])
        XCTAssertEqual(thresholds(.totalCompletions), [1, 10, 50, 100, 500, 1000])
        XCTAssertEqual(thresholds(.perfectDays), [7, 30])
        XCTAssertEqual(thresholds(.habitsCreated), [1, 3, 5, 10])
        XCTAssertEqual(thresholds(.referralsRedeemed), [1, 5, 10])
        XCTAssertEqual(thresholds(.verifiedProofs), [7, 30])
    }

    func testACatalogueRoundTripsThroughJSON() throws {
        let rules = AwardCatalogue.builtIn + [rule("one-habit", .longestStreak, .habit(4), 9)]
        let decoded = try AwardCatalogue.decode(AwardCatalogue.encode(rules)) { (reference) throws(HabitError) -> Int64 in
            guard case .id(let id) = reference else { throw .notFound("by id only") }
            return id
        }
        XCTAssertEqual(decoded, rules)
    }

    /// A weekly quota is kept on the day the quota is met, not at the week's end.
    func testAQuotaStreakCrossesOnTheDayItsQuotaIsMet() {
        // Weeks from Monday 2026-11-02: three days done in each of three weeks; the third week's third is on Wednesday 11-18.
        let done = ["11-02", "11-03", "11-04", "11-09", "11-10", "11-12", "11-16", "11-17", "11-18"].map { day("2026-" + $0) }
        let result = AwardEvaluation.standings(
            [rule("w3", .currentStreak, .habit(1), 3)],
            facts: facts([(1, .timesPerWeek(3), "2026-11-02", done)]), asOf: day("2026-11-22"))
        XCTAssertEqual(result.first?.crossing, AwardCrossing(day: day("2026-11-18"), cause: .habitDay(habitId: 1, day: day("2026-11-18"))))
        XCTAssertEqual(result.first?.value, 3)
    }

    /// Any habit: the first to get there, the lower id among equal days; all: summed.
    func testScopesPickTheFirstHabitOrAddThemUp() {
        let start = day("2026-11-01")
        let facts = facts([(1, .daily, "2026-11-01", (0..<5).map { start + $0 }), (2, .daily, "2026-11-01", (2..<6).map { start + $0 })])
        let asOf = start + 9
        let results = AwardEvaluation.standings(
            [
                rule("any-4", .totalCompletions, .anyHabit, 4), rule("all-8", .totalCompletions, .allHabits, 8),
                rule("two-4", .totalCompletions, .habit(2), 4), rule("any-run-4", .longestStreak, .anyHabit, 4),
            ],
            facts: facts, asOf: asOf)
        XCTAssertEqual(results.map(\.value), [5, 9, 4, 5])
        XCTAssertEqual(results.map { $0.crossing?.day }, [start + 3, start + 4, start + 5, start + 3])
        XCTAssertEqual(results[1].crossing?.cause, .habitDay(habitId: 2, day: start + 4), "the 8th completion: habit 2 after habit 1 on that day")
    }

    func testReferralCodesUseTheAlphabetWithoutLookAlikes() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let code = ReferralCode.make(using: &generator)
            XCTAssertEqual(code.count, 8)
            XCTAssertFalse(code.contains { "01OIL".contains($0) }, code)
            XCTAssertEqual(try ReferralCode.normalized(code.lowercased()), code)
        }
        XCTAssertEqual(try ReferralCode.normalized(" k7m2-p9qr "), "K7M2P9QR")
        for bad in ["", "K7M2P9Q", "K7M2P9QRS", "K7M2P9Q0", "K7M2_9QR", "K7M2P9QÉ"] {
            XCTAssertThrowsError(try ReferralCode.normalized(bad), bad)
        }
    }

    func testMilestonesAreTheHighestReached() {
        XCTAssertNil(Milestones.reached(by: 2))
        XCTAssertEqual(Milestones.reached(by: 3), 3)
        XCTAssertEqual(Milestones.reached(by: 13), 7)
        XCTAssertEqual(Milestones.reached(by: 1094), 1000)
        XCTAssertEqual(Milestones.reached(by: 1095), 1095)
        XCTAssertEqual(Milestones.reached(by: 2000), 1825)
    }
}
