import Foundation
import HabitCore
import HabitEngine
import XCTest

/// A change never rewrites the past, as a property over random seeded inputs: random
/// habits and histories on a real store file, then random edits of every judging
/// setting (target and direction, group, proof, schedule, archive and restore) at
/// random effective days; every answer about a day before the earliest effective day
/// is byte-for-byte what it was before the edits.
final class SettingsPropertyTests: XCTestCase {
    /// Cases per run: at least 1,000 in CI (each a fresh store), a few seconds on 2 cores.
    static let cases = 1_000

    func testEditsNeverChangeAnswersAboutDaysBeforeTheyApply() throws {
        // Real store files, in memory where the machine has a tmpfs: a thousand stores
        // opened and closed wait on no disk.
        let shm = "/dev/shm/habitcore-settings-" + UUID().uuidString
        let dir = (try? FileManager.default.createDirectory(atPath: shm, withIntermediateDirectories: false)) != nil ? shm : try temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        // One empty store, migrated once; each case starts from a copy of it.
        let template = dir + "/template.db"
        try Engine(path: template, options: StoreOptions()).close()
        var edits: [String: Int] = [:]
        for seed in 0..<Self.cases {
            let path = dir + "/case.db"
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: template, toPath: path)
            let engine = try Engine(path: path, options: StoreOptions())
            defer { engine.close() }
            var random = SplitMix(seed: UInt64(seed) &* 0x9E37_79B9 &+ 11)
            // The history in one transaction (one commit to the file instead of one per write).
            try engine.begin()
            let fixture = try Self.randomHistory(engine, &random)
            try engine.commit()
            let today = try engine.today()
            let earliest = today - Int32(random.below(40))
            let before = try Self.answers(engine, fixture, before: earliest)
            // One to three edits, the first at the earliest day, the rest at or after it.
            for index in 0..<(1 + random.below(3)) {
                let day = index == 0 ? earliest : earliest + Int32(random.below(Int(today - earliest) + 1))
                edits[try Self.randomEdit(engine, fixture, from: day, &random), default: 0] += 1
            }
            let after = try Self.answers(engine, fixture, before: earliest)
            guard before == after else {
                let first = zip(before, after).first { $0 != $1 }
                return XCTFail(
                    "seed \(seed), earliest \(earliest): an answer about a day before it changed\nbefore: \(first?.0 ?? "-")\nafter:  \(first?.1 ?? "-")")
            }
        }
        // Every kind of edit was tried many times.
        for kind in ["target", "direction", "group", "proof", "schedule", "archive"] {
            XCTAssertGreaterThan(edits[kind] ?? 0, Self.cases / 20, "edits of \(kind)")
        }
    }

    struct Fixture {
        var habits: [Int64]
        var start: Int32
        /// A quota schedule (weekly:N) judges whole weeks: answers about whole periods stop a
        /// week before the earliest effective day, so that none straddles it.
        var hasQuota: Bool
        var shieldRule: Int64
    }

    static let schedules: [Schedule] = [.daily, .daily, .weekdays(0b0101010), .everyNDays(2), .monthDays([1, 10, 20]), .timesPerWeek(3)]

    static func randomHistory(_ engine: Engine, _ random: inout SplitMix) throws -> Fixture {
        // Rules take effect from the day they are set: they are set on the first day, 60 days ago.
        let nowMs = Engine.systemNowMs()
        engine.now = { nowMs - 60 * 86_400_000 }
        defer { engine.now = { nowMs } }
        let start = try engine.today()
        let today = start + 60
        var habits: [Int64] = []
        var hasQuota = false
        for index in 0..<(1 + random.below(3)) {
            let kind: HabitKind = [.checkmark, .counter, .duration][random.below(3)]
            let schedule = schedules[random.below(schedules.count)]
            hasQuota = hasQuota || schedule.isQuota
            let spec = HabitSpec(
                name: "h\(index)", kind: kind, target: Double(1 + random.below(5)),
                direction: random.chance(0.3) ? .atMost : .atLeast, group: ["a", "b", nil][random.below(3)],
                unit: nil, routine: .anytime, proofRequired: random.chance(0.2), startDay: 0, schedule: schedule)
            let id = try engine.createHabit(spec, startDay: start)
            habits.append(id)
            _ = try engine.setCreditRule(accountId: 1, kind: .habitMinutes, habitId: id, value: Int64(1 + random.below(10)), fromDay: nil)
        }
        let ruleId = try engine.addShieldRule(
            ShieldRule.Settings(
                name: "s", key: "apps", days: .daily, startMinute: 6 * 60, endMinute: 20 * 60, habits: habits, lift: random.chance(0.5) ? .all : .any,
                sessionLifts: false, cutoffLifts: false, excusedLifts: true, failClosed: true, budgetPeriod: .unlimited, budgetCount: 0), fromDay: nil)
        engine.now = { nowMs }
        for _ in 0..<(10 + random.below(50)) {
            let habit = habits[random.below(habits.count)]
            let kinds: [EntryKind] = try engine.habit(id: habit).spec.kind == .checkmark ? [.done, .done, .skip] : [.amount, .amount, .total, .skip]
            _ = try engine.append(
                Engine.NewEntry(
                    habitId: habit, kind: kinds[random.below(kinds.count)], day: today - Int32(random.below(61)),
                    value: Double(1 + random.below(4)), atMs: nil, source: .manual, note: nil))
        }
        return Fixture(habits: habits, start: start, hasQuota: hasQuota, shieldRule: ruleId)
    }

    /// One random edit of a judging setting from a day on; names its kind.
    static func randomEdit(_ engine: Engine, _ fixture: Fixture, from day: Int32, _ random: inout SplitMix) throws -> String {
        let id = fixture.habits[random.below(fixture.habits.count)]
        let habit = try engine.habit(id: id)
        var changes = Engine.HabitChanges()
        let kind: String
        switch random.below(6) {
        case 0:
            kind = "target"
            changes.target = (Double(1 + random.below(6)), habit.spec.direction)
        case 1:
            kind = "direction"
            changes.target = (habit.spec.target, habit.spec.direction == .atLeast ? .atMost : .atLeast)
        case 2:
            kind = "group"
            changes.group = .some(["a", "b", nil][random.below(3)])
        case 3:
            kind = "proof"
            changes.proofRequired = !habit.spec.proofRequired
        case 4:
            kind = "schedule"
            // Only day-based schedules from a day on: a quota period straddling it is one occurrence.
            changes.schedule = [Schedule.daily, .weekdays(0b1010101), .everyNDays(3)][random.below(3)]
        default:
            kind = "archive"
            try engine.archiveHabit(id: id, archived: !habit.isArchived, from: day)
            return kind
        }
        try engine.updateHabit(id: id, changes, from: day)
        return kind
    }

    /// Every answer about the days before `day`, as text (Doubles print exactly).
    static func answers(_ engine: Engine, _ fixture: Fixture, before day: Int32) throws -> [String] {
        let last = day - 1
        // A quota period is one occurrence: answers about whole periods stop at the last one over before `day`.
        let periodsTo = fixture.hasQuota ? day - 8 : last
        var lines: [String] = []
        guard fixture.start <= periodsTo else { return lines }
        for id in fixture.habits {
            let habit = try engine.habit(id: id)
            guard habit.spec.startDay <= periodsTo else { continue }
            lines.append("states \(id) \(try engine.dayStates(habitId: id, from: habit.spec.startDay, to: last))")
            lines.append("streaks \(id) \(try engine.streaks(habitId: id, asOf: periodsTo, best: 3).summary)")
            lines.append("strength \(id) \(try engine.strength(habitId: id, from: habit.spec.startDay, to: last))")
            lines.append("completion \(id) \(try engine.completion(habitId: id, from: habit.spec.startDay, to: periodsTo))")
        }
        lines.append("tallies \(try engine.tallies(from: fixture.start, to: periodsTo))")
        for group in ["a", "b"] { lines.append("group \(group) \(try engine.tallies(from: fixture.start, to: periodsTo, group: group))") }
        let global = try engine.globalStreaks(asOf: periodsTo)
        lines.append("global \(global.perfect) \(global.active)")
        // The ledger's entries, less the expiries a later write books for days already over (the fold
        // derives them: creditDay below shows them whether booked yet or not).
        lines.append(
            "credits "
                + (try engine.creditHistory(accountId: 1, from: fixture.start, to: last)).filter { $0.kind != .expire }
                .map { "\($0.kind) \($0.minutes) \($0.day) \($0.reason ?? "-")" }.joined(separator: "; "))
        lines.append("credit day \(try engine.creditDay(accountId: 1, day: last))")
        lines.append("awards " + (try engine.awardUnlocks()).filter { $0.day < day }.map { "\($0.rule.id) \($0.day)" }.sorted().joined(separator: " "))
        for hour in [5, 12] {
            let atMs = try engine.utcMs(day: last, minute: Int32(hour * 60))
            lines.append("shield \(hour) " + (try engine.shieldStates(atMs: atMs).states).map { "\($0.state)" }.joined(separator: " "))
        }
        return lines
    }
}
