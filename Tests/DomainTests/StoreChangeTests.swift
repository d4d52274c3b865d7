import XCTest

@testable import HabitCore

/// What a logged write reaches (StoreChange.reach) and the compact form of a feed
/// (StoreChange.merged), the latter held to its rule over random seeded feeds.
final class StoreChangeTests: XCTestCase {
    private let replica = [UInt8](repeating: 7, count: GlobalId.replicaBytes)

    func testEachOpReachesItsHabitAndDays() {
        let habit = GlobalId(replica: replica, seq: 1)
        let own = GlobalId(replica: replica, seq: 9)
        let entry = SyncOp.entry(habit: habit, day: 20_000, kind: .done, value: 1, recordedAtMs: 0, source: .manual, note: nil, undoes: nil)
        XCTAssertEqual(StoreChange.reach(of: entry, id: own), .init(area: .entry, habit: habit, days: 20_000...20_000))
        let settings = SyncOp.schedule(habit: habit, fromDay: 20_010, schedule: .daily)
        XCTAssertEqual(StoreChange.reach(of: settings, id: own), .init(area: .habit, habit: habit, days: 20_010...CivilDate.maxDay))
        let vacation = SyncOp.vacationAdd(habit: nil, first: 20_005, last: 20_001)
        XCTAssertEqual(StoreChange.reach(of: vacation, id: own), .init(area: .vacation, habit: nil, days: 20_001...20_005))
        XCTAssertEqual(StoreChange.reach(of: .vacationRemove(vacation: habit), id: own)?.sameAs, habit, "a removal reaches what its vacation did")
        XCTAssertEqual(StoreChange.reach(of: .setting(key: "week_start", value: "1"), id: own)?.days, StoreChange.everyDay)
        let walk = HabitSpec(
            name: "Walk", kind: .checkmark, target: 1, direction: .atLeast, group: nil, unit: nil, routine: .anytime, proofRequired: false,
            startDay: 20_000, schedule: .daily)
        XCTAssertEqual(StoreChange.reach(of: .habitCreate(spec: walk, createdAtMs: 0), id: own)?.habit, own, "a new habit is the op's own id")
        XCTAssertNil(StoreChange.reach(of: .branchMoved(to: replica), id: own), "not an op of the log")
        let far = SyncOp.schedule(habit: habit, fromDay: .min, schedule: .daily)
        XCTAssertEqual(StoreChange.reach(of: far, id: own)?.days, StoreChange.everyDay, "a day out of range is clamped, never trapped on")
    }

    /// Merged, a feed reaches exactly the (area, habit, day) triples it reached, each
    /// run at the latest revision among the changes inside it, no two runs of one area
    /// and habit touching, ordered by revision.
    func testMergingKeepsEveryDayAndTheLatestRevision() {
        for seed in UInt64(1)...300 {
            var random = SplitMix(seed: seed)
            let changes = (0..<Int.random(in: 0...40, using: &random)).map { index -> StoreChange in
                let first = Int32.random(in: 0...30, using: &random)
                return StoreChange(
                    revision: Int64(index + 1), area: [.entry, .habit, .vacation].randomElement(using: &random) ?? .entry,
                    habit: [nil, 1, 2].randomElement(using: &random) ?? nil, firstDay: first,
                    lastDay: first + Int32.random(in: 0...3, using: &random))
            }
            let merged = StoreChange.merged(changes)
            struct Cell: Hashable {
                var area: Int32
                var habit: Int64?
                var day: Int32
            }
            func cells(_ list: [StoreChange]) -> Set<Cell> {
                Set(list.flatMap { c in (c.firstDay...c.lastDay).map { Cell(area: c.area.rawValue, habit: c.habit, day: $0) } })
            }
            XCTAssertEqual(cells(merged), cells(changes), "seed \(seed)")
            XCTAssertEqual(merged.map(\.revision), merged.map(\.revision).sorted(), "seed \(seed)")
            for run in merged {
                let inside = changes.filter { $0.area == run.area && $0.habit == run.habit && $0.firstDay >= run.firstDay && $0.lastDay <= run.lastDay }
                XCTAssertEqual(run.revision, inside.map(\.revision).max(), "seed \(seed)")
                let touching = merged.filter {
                    $0 != run && $0.area == run.area && $0.habit == run.habit && Int64($0.firstDay) <= Int64(run.lastDay) + 1
                        && Int64(run.firstDay) <= Int64($0.lastDay) + 1
                }
                XCTAssertEqual(touching, [], "seed \(seed)")
            }
        }
    }
}
