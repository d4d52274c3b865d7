import HabitCore

extension Engine {
    /// Where a quit habit stands at an instant (nil: now): its standing relapses
    /// folded by QuitStatus, as of that instant's day in the store's zone and day start.
    package func quitStatus(habitId: Int64, atMs: Int64?) throws(HabitError) -> QuitStatus {
        let atMs = atMs ?? now()
        try EntryRules.validate(utcMs: atMs, field: "at_ms")
        let habit = try habit(id: habitId)
        guard habit.spec.kind == .quit else {
            throw .invalid("habit '\(habit.spec.name)' is a \(habit.spec.kind.name) habit, not a quit habit")
        }
        let clock = try clock()
        let entries = try store.entries(habitId: habitId, from: CivilDate.minDay, to: CivilDate.maxDay)
        let cancelled = DayFold.cancelledIds(in: entries)
        let relapses = entries.filter { $0.kind == .relapse && !cancelled.contains($0.id) }.map {
            Relapse(id: $0.id, day: $0.day, atMs: $0.recordedAtMs, amount: $0.value)
        }
        // The start day's first instant; a start at the calendar's edge, where the zone
        // puts it outside the years 1...9999, counts from its UTC midnight.
        let day = habit.spec.startDay
        let startMs = (try? clock.utcMs(day: day, minute: clock.dayStartMinutes)) ?? Int64(day) * 86_400_000
        return QuitStatus.fold(
            spec: habit.spec, versions: habit.versions, relapses: relapses, asOf: try clock.localDay(utcMs: atMs), atMs: atMs,
            startMs: startMs, weekStart: try weekStart())
    }
}
