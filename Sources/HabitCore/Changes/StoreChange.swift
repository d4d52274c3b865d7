/// What one logged write changed, as a UI or an automation refreshes by it: an area, a
/// habit (nil: not one habit, e.g. a store setting or a vacation of every habit) and
/// the days it reaches. The store revision it came in at orders the feed.
package struct StoreChange: Equatable, Sendable {
    /// What a write touched (HC_CHANGE_*); only ever appended.
    package enum Area: Int32, CaseIterable, Sendable {
        case habit = 1, entry = 2, proof = 3, vacation = 4, setting = 5, zone = 6, credit = 7, award = 8, shield = 9
    }

    package var revision: Int64
    package var area: Area
    /// The habit's local id; nil when the change is not one habit's.
    package var habit: Int64?
    package var firstDay: Int32
    package var lastDay: Int32

    package init(revision: Int64, area: Area, habit: Int64?, firstDay: Int32, lastDay: Int32) {
        self.revision = revision
        self.area = area
        self.habit = habit
        self.firstDay = firstDay
        self.lastDay = lastDay
    }

    /// The days of a change that reaches every day (a name, a store setting, a zone).
    package static let everyDay: ClosedRange<Int32> = CivilDate.minDay...CivilDate.maxDay

    /// What an op reaches, by global ids. `sameAs`: the op reaches what the op under
    /// that id reached (a verdict its proof's day, a removed vacation its days).
    package struct Reach: Equatable, Sendable {
        package var area: Area
        package var habit: GlobalId?
        package var days: ClosedRange<Int32>
        package var sameAs: GlobalId?
    }

    /// The rule: which area, habit and days a logged op changes. A setting from a day on
    /// reaches that day and every later one; what names no day reaches every day.
    package static func reach(of op: SyncOp, id: GlobalId) -> Reach? {
        func from(_ day: Int32) -> ClosedRange<Int32> { min(max(day, CivilDate.minDay), CivilDate.maxDay)...CivilDate.maxDay }
        func on(_ day: Int32) -> ClosedRange<Int32> { day...day }
        switch op {
        case .habitCreate: return Reach(area: .habit, habit: id, days: everyDay)
        case .habitField(let habit, _, _): return Reach(area: .habit, habit: habit, days: everyDay)
        case .schedule(let habit, let fromDay, _): return Reach(area: .habit, habit: habit, days: from(fromDay))
        case .settingsVersion(let habit, let version): return Reach(area: .habit, habit: habit, days: from(version.fromDay))
        case .entry(let habit, let day, _, _, _, _, _, _): return Reach(area: .entry, habit: habit, days: on(day))
        case .vacationAdd(let habit, let first, let last):
            return Reach(area: .vacation, habit: habit, days: first <= last ? first...last : last...first)
        case .vacationRemove(let vacation): return Reach(area: .vacation, habit: nil, days: everyDay, sameAs: vacation)
        case .setting: return Reach(area: .setting, habit: nil, days: everyDay)
        case .proof(let habit, let day, _, _, _, _, _, _): return Reach(area: .proof, habit: habit, days: on(day))
        case .verdict(let proof, _, _): return Reach(area: .proof, habit: nil, days: everyDay, sameAs: proof)
        case .shieldRule: return Reach(area: .shield, habit: nil, days: everyDay)
        case .shieldVersion(_, let fromDay, _, _): return Reach(area: .shield, habit: nil, days: from(fromDay))
        case .emergencyUnlock(_, _, let day, _, _): return Reach(area: .shield, habit: nil, days: on(day))
        // A timer's time counts to its habit's day as an entry does; its later events reach what its start did.
        case .timerEvent(let action, let subject, let day, _, _):
            return action == .start
                ? Reach(area: .entry, habit: subject, days: on(day)) : Reach(area: .entry, habit: nil, days: everyDay, sameAs: subject)
        case .creditAccount: return Reach(area: .credit, habit: nil, days: everyDay)
        case .credit(_, _, _, let day, _, _): return Reach(area: .credit, habit: nil, days: on(day))
        case .steps(_, let day, _, _): return Reach(area: .credit, habit: nil, days: on(day))
        case .creditRule(_, _, let habit, _, let fromDay, _): return Reach(area: .credit, habit: habit, days: from(fromDay))
        case .awardUnlock(_, let scopeHabit, let day, _, _, _, _): return Reach(area: .award, habit: scopeHabit, days: on(day))
        case .zoneChange: return Reach(area: .zone, habit: nil, days: everyDay)
        case .evidence, .branchMoved: return nil
        }
    }

    /// The compact form: one change per area and habit for each run of overlapping or
    /// touching days, at the latest revision among those it stands for; ordered by
    /// that revision, so a reader that keeps the last one's revision as its cursor
    /// has seen everything up to it.
    package static func merged(_ changes: [StoreChange]) -> [StoreChange] {
        struct Key: Hashable {
            var area: Area
            var habit: Int64?
        }
        var runs: [Key: [StoreChange]] = [:]
        for change in changes { runs[Key(area: change.area, habit: change.habit), default: []].append(change) }
        var out: [StoreChange] = []
        for (_, group) in runs {
            var current: StoreChange?
            for change in group.sorted(by: { ($0.firstDay, $0.lastDay) < ($1.firstDay, $1.lastDay) }) {
                if var run = current, Int64(change.firstDay) <= Int64(run.lastDay) + 1 {
                    run.lastDay = max(run.lastDay, change.lastDay)
                    run.revision = max(run.revision, change.revision)
                    current = run
                } else {
                    if let run = current { out.append(run) }
                    current = change
                }
            }
            if let run = current { out.append(run) }
        }
        return out.sorted {
            ($0.revision, $0.area.rawValue, $0.habit ?? 0, $0.firstDay) < ($1.revision, $1.area.rawValue, $1.habit ?? 0, $1.firstDay)
        }
    }
}
