import HabitCore
import HabitStore

/// The store revision and the change feed: which habits and days the writes after a
/// revision reached (StoreChange.reach), for a UI or an automation to refresh only those.
extension Engine {
    package static let maxChangesRead: Int64 = 10_000

    package func revision() throws(HabitError) -> Int64 {
        try store.revision()
    }

    /// The changes after a revision, oldest first, from at most limit (1...10000) logged
    /// writes; merged: the compact form (StoreChange.merged). An op the log no longer
    /// holds under its number reaches every habit and day, so a reader refreshes all.
    package func changes(after revision: Int64, limit: Int64, merged: Bool) throws(HabitError) -> [StoreChange] {
        guard revision >= 0 else { throw .invalid("the revision \(revision) is negative") }
        guard (1...Self.maxChangesRead).contains(limit) else { throw .invalid("limit \(limit) is outside 1...\(Self.maxChangesRead)") }
        let changes = try store.snapshot { () throws(HabitError) -> [StoreChange] in
            var changes: [StoreChange] = []
            for (revision, op) in try store.loggedOps(after: revision, limit: limit) {
                guard let op else {
                    let days = StoreChange.everyDay
                    changes.append(StoreChange(revision: revision, area: .setting, habit: nil, firstDay: days.lowerBound, lastDay: days.upperBound))
                    continue
                }
                guard let reach = try reach(of: op) else { continue }
                let habit = try reach.habit.map { (id) throws(HabitError) in try store.localId(id, .habit) } ?? nil
                changes.append(
                    StoreChange(revision: revision, area: reach.area, habit: habit, firstDay: reach.days.lowerBound, lastDay: reach.days.upperBound))
            }
            return changes
        }
        return merged ? StoreChange.merged(changes) : changes
    }

    /// What an op reached, following a verdict to its proof and a removed vacation to
    /// the vacation (their own ops name the habit and days).
    private func reach(of op: RawOp) throws(HabitError) -> StoreChange.Reach? {
        guard var reach = StoreChange.reach(of: try SyncOp.decode(kind: op.kind, payload: op.payload), id: op.id) else { return nil }
        if let named = reach.sameAs, let held = try store.heldOp(named),
            let target = StoreChange.reach(of: try SyncOp.decode(kind: held.kind, payload: held.payload), id: held.id)
        {
            reach.habit = target.habit
            reach.days = target.days
        }
        return reach
    }
}
