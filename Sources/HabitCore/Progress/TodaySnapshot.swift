/// The small file a widget, a complication or a watch face reads without linking
/// the library: today's due habits with their progress, state and current streak,
/// the day score, the last weeks as a grid, the routine now, and every instant up
/// to the next day start where what it shows changes, each with the state from then
/// on, so an app can hand the whole thing to a timeline. Pure: the engine gathers
/// the inputs and writes the file (atomically).
package enum TodaySnapshot {
    package static let formatVersion: Int64 = 1
    /// The grid holds the week of today and this many whole weeks before it.
    package static let gridWeeksBefore: Int32 = 7

    /// One habit due on a day, as the day's list shows it.
    package struct Line: Equatable, Sendable {
        package enum State: Equatable, Sendable { case pending, done, excused }
        package var habitId: Int64
        package var name: String
        package var routine: RoutineTime
        package var state: State
        package var value: Double
        package var target: Double
        /// The current streak's length as of the day (0: none running).
        package var streak: Int32

        package init(
            habitId: Int64, name: String, routine: RoutineTime, state: State, value: Double, target: Double, streak: Int32
        ) {
            self.habitId = habitId
            self.name = name
            self.routine = routine
            self.state = state
            self.value = value
            self.target = target
            self.streak = streak
        }
    }

    /// One day as a widget shows it: its tally (the daily score) and its due list.
    package struct Day: Equatable, Sendable {
        package var day: Int32
        package var tally: Global.DayTally
        package var lines: [Line]
        package init(day: Int32, tally: Global.DayTally, lines: [Line]) {
            self.day = day
            self.tally = tally
            self.lines = lines
        }
    }

    /// An instant where what the snapshot shows changes, and what it shows from then on.
    package struct Change: Equatable, Sendable {
        package enum Cause: Equatable, Sendable { case routine, dayStart }
        package var atMs: Int64
        package var cause: Cause
        package var routine: RoutineTime
        /// 0: today's state; 1: the next day's.
        package var dayIndex: Int
    }

    /// A habit's row of the grid, a cell a day.
    package struct GridRow: Equatable, Sendable {
        package var habitId: Int64
        package var demands: [DayDemand]
        package init(habitId: Int64, demands: [DayDemand]) {
            self.habitId = habitId
            self.demands = demands
        }
    }

    /// The first day of the grid: the first day of the week `gridWeeksBefore` weeks
    /// before the week holding `today`.
    package static func gridFirstDay(today: Int32, weekStart: Int) -> Int32 {
        let intoWeek = Int32((CivilDate.weekday(today) - weekStart + 7) % 7)
        return max(CivilDate.minDay, today - intoWeek - 7 * gridWeeksBefore)
    }

    /// How many days before the grid the snapshot reads a habit's days: a few weeks
    /// first, more when its current run reaches back past them (then its whole history).
    package static let windowDaysBeforeGrid: [Int32] = [42, 400, 1500]

    /// Whether a habit's days read from `windowFirst` on judge everything the snapshot
    /// shows of it as its whole history does, so that a cold snapshot need not read
    /// years of entries. Yes when every schedule the habit had asks single days of
    /// every week (daily, weekdays: a day's demand is its own, and N + 1 misses in a
    /// row, the break under a miss allowance of N, lie within 7(N + 1) days), and each
    /// current run shown (nil: none), judged from `windowFirst` on as if the habit
    /// started there, starts after such a break read whole. Otherwise the caller reads
    /// the whole history.
    package static func windowSuffices(
        _ spec: HabitSpec, versions: [SettingsVersion], windowFirst: Int32, runFirsts: [Int32?], missAllowance: Int32
    ) -> Bool {
        if spec.startDay >= windowFirst { return true }
        let singleDays = ([spec.schedule] + versions.map(\.schedule)).allSatisfy {
            switch $0 {
            case .daily, .weekdays: return true
            case .everyNDays, .monthDays, .timesPerWeek, .timesPerMonth, .timesInDays: return false
            }
        }
        let safeFirst = Int64(windowFirst) + 7 * (Int64(missAllowance) + 2)
        return singleDays && runFirsts.allSatisfy { Int64($0 ?? Int32.max) >= safeFirst }
    }

    /// Every change after `atMs` up to and including the next day start: each instant
    /// the routine changes (at a routine bound, or where the zone's offset moves the
    /// wall clock across one) and the day start itself, which always is one.
    package static func changes(clock: DayClock, bounds: RoutineBounds, atMs: Int64) throws(HabitError) -> [Change] {
        let today = try clock.localDay(utcMs: atMs)
        guard CivilDate.isValid(today + 1) else { throw .invalid("instant \(atMs) ms has no next day within the years 1...9999") }
        let nextStart = try clock.utcMs(day: today + 1, minute: clock.dayStartMinutes)
        var candidates: [Int64] = []
        // The zone's offset changes within the span (a change moves the wall clock).
        let atSecond = floorDiv(atMs, 1000), endSecond = floorDiv(nextStart, 1000)
        var stretch = clock.zone.offsetStretch(atUTC: atSecond)
        while stretch.last < endSecond {
            candidates.append((stretch.last + 1) * 1000)
            stretch = clock.zone.offsetStretch(atUTC: stretch.last + 1)
        }
        // Every instant the wall clock reads a routine bound: a bound in a repeated
        // hour is read twice; one in a skipped hour is the offset change above.
        let firstCivil = floorDiv(atSecond + Int64(clock.zone.utcOffset(atUTC: atSecond)), 86_400)
        let lastCivil = floorDiv(endSecond + Int64(clock.zone.utcOffset(atUTC: endSecond)), 86_400)
        for civil in firstCivil...max(firstCivil, lastCivil) {
            for bound in [bounds.morning, bounds.day, bounds.evening] {
                let wall = Int64((clock.dayStartMinutes + bound) % 1440)
                let local = civil * 86_400 + wall * 60
                for offset in Set([clock.zone.utcOffset(atUTC: local - 86_400), clock.zone.utcOffset(atUTC: local + 86_400)]) {
                    let instant = local - Int64(offset)
                    if instant + Int64(clock.zone.utcOffset(atUTC: instant)) == local { candidates.append(instant * 1000) }
                }
            }
        }
        var changes: [Change] = []
        var routine = try bounds.routine(atMs: atMs, clock: clock)
        for instant in Set(candidates).sorted() where instant > atMs && instant < nextStart {
            let next = try bounds.routine(atMs: instant, clock: clock)
            if next != routine { changes.append(Change(atMs: instant, cause: .routine, routine: next, dayIndex: 0)) }
            routine = next
        }
        changes.append(Change(atMs: nextStart, cause: .dayStart, routine: try bounds.routine(atMs: nextStart, clock: clock), dayIndex: 1))
        return changes
    }

    package static func stateName(_ state: Line.State) -> String {
        switch state {
        case .pending: return "pending"
        case .done: return "done"
        case .excused: return "excused"
        }
    }

    /// A grid cell: `x` due and done, `.` due and not done (today: not yet), `s`
    /// excused (skipped, on vacation), `-` not due.
    package static func cell(_ demand: DayDemand) -> Character {
        switch demand {
        case .due(let done): return done ? "x" : "."
        case .excused: return "s"
        case .notDue: return "-"
        }
    }

    package static func json(
        revision: Int64, atMs: Int64, clock: DayClock, weekStart: Int, routine: RoutineTime, days: [Day], changes: [Change],
        gridFirst: Int32, grid: [GridRow], gridTallies: [Global.DayTally]
    ) throws(HabitError) -> JSON {
        let dayObjects = try days.map { (day) throws(HabitError) -> JSON in
            .object([
                ("date", .string(try CivilDate.format(day.day))), ("due", .int(Int64(day.tally.due))), ("done", .int(Int64(day.tally.done))),
                ("excused", .int(Int64(day.tally.excused))), ("score", day.tally.score.map(JSON.double) ?? .null),
                (
                    "habits",
                    .array(
                        day.lines.map { line in
                            .object([
                                ("habit_id", .int(line.habitId)), ("name", .string(line.name)), ("routine", .string(line.routine.name)),
                                ("state", .string(stateName(line.state))), ("value", .double(line.value)), ("target", .double(line.target)),
                                ("streak", .int(Int64(line.streak))),
                            ])
                        })
                ),
            ])
        }
        let gridLast = gridFirst + Int32(gridTallies.count) - 1
        return .object([
            ("format", .string("habitcore-today")), ("version", .int(formatVersion)), ("revision", .int(revision)), ("at_ms", .int(atMs)),
            ("zone", .string(clock.zone.name)), ("offset_seconds", .int(Int64(try clock.utcOffsetSeconds(utcMs: atMs)))),
            ("day_start_minutes", .int(Int64(clock.dayStartMinutes))), ("week_start", .int(Int64(weekStart))),
            ("now", .object([("routine", .string(routine.name)), ("day", .int(0))])),
            (
                "next",
                .array(
                    changes.map { change in
                        .object([
                            ("at_ms", .int(change.atMs)), ("cause", .string(change.cause == .dayStart ? "day_start" : "routine")),
                            ("routine", .string(change.routine.name)), ("day", .int(Int64(change.dayIndex))),
                        ])
                    })
            ),
            ("days", .array(dayObjects)),
            (
                "grid",
                .object([
                    ("first", .string(try CivilDate.format(gridFirst))), ("last", .string(try CivilDate.format(gridLast))),
                    // Each day's score in whole percent (rounded down); -1: nothing due.
                    ("percent", .array(gridTallies.map { tally in .int(tally.due > 0 ? Int64(tally.done) * 100 / Int64(tally.due) : -1) })),
                    (
                        "habits",
                        .array(
                            grid.map { row in
                                .object([("habit_id", .int(row.habitId)), ("cells", .string(String(row.demands.map(cell))))])
                            })
                    ),
                ])
            ),
        ])
    }
}

extension RoutineBounds {
    /// The routine at an instant: the wall clock of the clock's zone, counted from its day start.
    package func routine(atMs: Int64, clock: DayClock) throws(HabitError) -> RoutineTime {
        let wall = try clock.minuteOfDay(utcMs: atMs)
        return routine(atMinuteOfDay: RoutineBounds.minuteOfDay(wallClock: wall, dayStart: clock.dayStartMinutes))
    }
}
