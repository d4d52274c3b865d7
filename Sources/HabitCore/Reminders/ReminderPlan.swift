/// When to nudge: every reminder instant in a window, computed in the store's
/// zone and day start. Pure: the engine gathers the rules, histories, quiet
/// hours and snoozes; this decides.
///
/// Rules (stated in the header and the README too):
/// - A rule's minute of a habit day D is read on D's calendar date, or on the next
///   one when it is before the day start (01:30 with a 03:00 day start).
/// - A time the clocks skip fires at the first minute after the gap; a time they
///   read twice fires once, at its first occurrence.
/// - Inside quiet hours (those in force on D) a reminder moves to their end or is
///   dropped, per rule; one that would move past the end of D is dropped.
/// - A reminder comes only on a day the habit is due (quota schedules: until the
///   period's quota is met), not excused (skip, vacation), within its start and
///   archive days, on the rule's weekdays, and not yet done. At-most habits are
///   decided once their day is over, so being within the limit never silences one.
/// - A snooze is a new instant for the same reminder (same rule and day), silenced
///   the same way; quiet hours do not move it (the person chose the time).
package enum ReminderPlan {
    package struct Reminder: Equatable, Sendable {
        package enum Kind: Int32, Sendable { case scheduled = 1, snoozed = 2 }
        package var habitId: Int64
        package var ruleId: Int64
        package var day: Int32
        package var atMs: Int64
        /// The rule's own instant before quiet hours moved it, or the instant a
        /// snooze was made from; atMs otherwise.
        package var originalMs: Int64
        /// The local wall-clock minute of atMs.
        package var localMinute: Int32
        package var kind: Kind
        package var deferred: Bool
        package var message: String?
        package var fired = false

        package var key: Key { Key(ruleId: ruleId, day: day, atMs: atMs) }
    }

    /// What names one reminder instant: its rule, its day and when it fires.
    package struct Key: Hashable, Sendable {
        package var ruleId: Int64
        package var day: Int32
        package var atMs: Int64
        package init(ruleId: Int64, day: Int32, atMs: Int64) {
            self.ruleId = ruleId
            self.day = day
            self.atMs = atMs
        }
    }

    /// A habit with its reminder rules and what judging its days needs.
    package struct HabitInput: Sendable {
        package var habitId: Int64
        package var history: HabitHistory
        package var vacations: [ClosedRange<Int32>]
        package var rules: [ReminderRule]
        package init(habitId: Int64, history: HabitHistory, vacations: [ClosedRange<Int32>], rules: [ReminderRule]) {
            self.habitId = habitId
            self.history = history
            self.vacations = vacations
            self.rules = rules
        }
    }

    package struct Snooze: Equatable, Sendable {
        /// A snooze moves a reminder forward, by at most a day.
        package static func validate(fromMs: Int64, untilMs: Int64) throws(HabitError) {
            let (gap, overflow) = untilMs.subtractingReportingOverflow(fromMs)
            guard untilMs > fromMs, !overflow, gap <= 86_400_000 else {
                throw .invalid("a snooze moves a reminder forward by at most a day: \(untilMs) ms is not within (\(fromMs), \(fromMs) + 1 day]")
            }
        }

        package var ruleId: Int64
        package var day: Int32
        package var fromMs: Int64
        package var atMs: Int64
        package init(ruleId: Int64, day: Int32, fromMs: Int64, atMs: Int64) {
            self.ruleId = ruleId
            self.day = day
            self.fromMs = fromMs
            self.atMs = atMs
        }
    }

    /// The longest window one call computes.
    package static let maxWindowMs: Int64 = 92 * 86_400_000

    /// The habit days whose reminders can fall in [fromMs, toMs), a day of margin before.
    package static func days(fromMs: Int64, toMs: Int64, clock: DayClock) throws(HabitError) -> ClosedRange<Int32> {
        guard fromMs < toMs else { throw .invalid("the window \(fromMs)...\(toMs) ms is empty: from must be before to") }
        let (length, overflow) = toMs.subtractingReportingOverflow(fromMs)
        guard !overflow, length <= maxWindowMs else { throw .invalid("the window is longer than 92 days") }
        let first = try clock.localDay(utcMs: fromMs)
        let last = try clock.localDay(utcMs: toMs - 1)
        return (first &- 1)...last
    }

    /// The first day whose entries judging `days` needs: the window's first day, or
    /// the start of a quota period (week or month) of the schedules that reaches into it.
    package static func firstDayRead(_ habit: Habit, days: ClosedRange<Int32>, weekStart: Int) -> Int32 {
        var first = days.lowerBound
        // Anchors as HabitHistory.forEachSegment sets them (times:N/M counts from them).
        for (index, span) in habit.versions.enumerated() where span.schedule.isQuota {
            let anchor = index == 0 ? min(span.fromDay, habit.spec.startDay) : span.fromDay
            first = min(first, Judge.periodStart(span.schedule, day: days.lowerBound, weekStart: weekStart, anchor: anchor))
        }
        if habit.spec.schedule.isQuota {
            first = min(first, Judge.periodStart(habit.spec.schedule, day: days.lowerBound, weekStart: weekStart, anchor: habit.spec.startDay))
        }
        return first
    }

    /// The habit as the window sees it: judged from `firstDayRead` on (or its start,
    /// if later), so the days before cost nothing. Nothing in the window changes: a
    /// quota period is cut only where it begins anyway, and every:N keeps counting
    /// from its first schedule's day (when a start moved before that day, every:N
    /// counts from the start, so the whole history is kept).
    package static func windowHistory(_ habit: Habit, from firstDayRead: Int32, states: [DayState]) -> HabitHistory {
        var spec = habit.spec
        if let first = habit.versions.first?.fromDay, first <= spec.startDay { spec.startDay = max(spec.startDay, firstDayRead) }
        return HabitHistory(spec: spec, versions: habit.versions, archivedDay: habit.archivedDay, days: states)
    }

    /// Every reminder with fromMs <= atMs < toMs, ordered by instant, habit, rule.
    package static func reminders(
        _ habits: [HabitInput], quietHours: DatedSpans<QuietHours?>, snoozes: [Snooze], clock: DayClock,
        fromMs: Int64, toMs: Int64, weekStart: Int
    ) throws(HabitError) -> [Reminder] {
        let window = try days(fromMs: fromMs, toMs: toMs, clock: clock)
        let snoozesByRule = Dictionary(grouping: snoozes.filter { $0.atMs >= fromMs && $0.atMs < toMs }, by: \.ruleId)
        var timings = TimingTable(days: window)
        var result: [Reminder] = []
        var slots: [Int32] = []  // each scheduled reminder's timing, for the sort
        // Habit by habit and each day's rules by id: the order the sort below keeps for equal instants.
        for var habit in habits.sorted(by: { $0.habitId < $1.habitId }) where !habit.rules.isEmpty {
            habit.rules.sort { $0.id < $1.id }
            let snoozed = snoozesByRule.isEmpty ? [] : habit.rules.flatMap { snoozesByRule[$0.id] ?? [] }
            let first = min(window.lowerBound, snoozed.map(\.day).min() ?? window.lowerBound)
            let demands = Judge.demands(
                habit.history, from: first, to: window.upperBound, asOf: window.upperBound, weekStart: weekStart,
                vacations: habit.vacations)
            func wants(_ day: Int32) -> Bool {
                let index = Int(day) - Int(first)
                return index >= 0 && index < demands.count && wantsNudge(demands[index], history: habit.history, day: day)
            }
            for day in window where wants(day) {
                let weekday = CivilDate.weekday(day)
                for rule in habit.rules {
                    guard let settings = rule.settings(on: day), settings.applies(onWeekday: weekday) else { continue }
                    var slot: Int32
                    if let known = timings.known(day: day, settings: settings) {
                        slot = known
                    } else {
                        let timing = try instant(day: day, settings: settings, quiet: quietHours.value(on: day) ?? nil, clock: clock)
                        slot = timings.record(day: day, settings: settings, timing)
                    }
                    guard let timing = timings.timing(slot), timing.atMs >= fromMs, timing.atMs < toMs else { continue }
                    result.append(
                        Reminder(
                            habitId: habit.habitId, ruleId: rule.id, day: day, atMs: timing.atMs, originalMs: timing.originalMs,
                            localMinute: timing.localMinute, kind: .scheduled, deferred: timing.atMs != timing.originalMs,
                            message: settings.message))
                    slots.append(slot)
                }
            }
            for snooze in snoozed where wants(snooze.day) {
                result.append(
                    Reminder(
                        habitId: habit.habitId, ruleId: snooze.ruleId, day: snooze.day, atMs: snooze.atMs, originalMs: snooze.fromMs,
                        localMinute: try clock.minuteOfDay(utcMs: snooze.atMs), kind: .snoozed, deferred: false,
                        message: habit.rules.first { $0.id == snooze.ruleId }?.settings(on: snooze.day)?.message))
            }
        }
        guard !snoozesByRule.isEmpty else {
            // Made habit by habit, each day's rules in id order, so a stable sort by
            // instant alone gives instant, habit, rule. The instants are few: sorted by counting.
            return timings.sortedByInstant(result, slots: slots)
        }
        let keys = result.indices.map {
            SortKey(
                atMs: result[$0].atMs, habitId: result[$0].habitId, ruleId: result[$0].ruleId,
                kind: result[$0].kind.rawValue, index: Int32(truncatingIfNeeded: $0))
        }.sorted()
        // A snooze to the very instant the rule fires anyway is one reminder.
        var seen = Set<Key>()
        return keys.map { result[Int($0.index)] }.filter { seen.insert($0.key).inserted }
    }

    /// Each (day, minute, quiet mode) computed once: rules at the same time of day
    /// share their instant, whatever the habit.
    private struct TimingTable {
        private let firstDay: Int32
        /// Per day of the window, per minute and mode: an index into `timings`, or -1.
        private var slots: [[Int32]]
        private var timings: [Timing?] = []

        init(days: ClosedRange<Int32>) {
            firstDay = days.lowerBound
            slots = [[Int32]](repeating: [], count: Int(days.upperBound) - Int(days.lowerBound) + 1)
        }

        private static func index(_ settings: ReminderRule.Settings) -> Int { Int(settings.minute) * 2 + (settings.quiet == .drop ? 1 : 0) }

        /// The slot of a timing already computed for this day, minute and mode.
        func known(day: Int32, settings: ReminderRule.Settings) -> Int32? {
            let daySlots = slots[Int(day) - Int(firstDay)]
            guard !daySlots.isEmpty else { return nil }
            let slot = daySlots[Self.index(settings)]
            return slot < 0 ? nil : slot
        }

        mutating func record(day: Int32, settings: ReminderRule.Settings, _ timing: Timing?) -> Int32 {
            let dayIndex = Int(day) - Int(firstDay)
            if slots[dayIndex].isEmpty { slots[dayIndex] = [Int32](repeating: -1, count: 2 * 1440) }
            timings.append(timing)
            slots[dayIndex][Self.index(settings)] = Int32(timings.count - 1)
            return Int32(timings.count - 1)
        }

        func timing(_ slot: Int32) -> Timing? { timings[Int(slot)] }

        /// A stable counting sort of reminders by their timings' instants.
        func sortedByInstant(_ reminders: [Reminder], slots: [Int32]) -> [Reminder] {
            // Rank the timings by instant; equal instants share a rank.
            let order = timings.indices.filter { timings[$0] != nil }.sorted { (timings[$0]?.atMs ?? 0) < (timings[$1]?.atMs ?? 0) }
            var rank = [Int](repeating: 0, count: timings.count)
            var ranks = 0
            var previous: Int64?
            for index in order {
                let at = timings[index]?.atMs
                if at != previous { ranks += 1; previous = at }
                rank[index] = ranks - 1
            }
            var starts = [Int](repeating: 0, count: ranks + 1)
            for slot in slots { starts[rank[Int(slot)] + 1] += 1 }
            for index in 0..<ranks { starts[index + 1] += starts[index] }
            var placed = [Int](repeating: 0, count: reminders.count)
            for (position, slot) in slots.enumerated() {
                placed[starts[rank[Int(slot)]]] = position
                starts[rank[Int(slot)]] += 1
            }
            return placed.map { reminders[$0] }
        }
    }

    private struct SortKey: Comparable {
        var atMs: Int64
        var habitId: Int64
        var ruleId: Int64
        var kind: Int32
        var index: Int32

        static func < (a: SortKey, b: SortKey) -> Bool {
            (a.atMs, a.habitId, a.ruleId, a.kind) < (b.atMs, b.habitId, b.ruleId, b.kind)
        }
    }

    /// When a rule fires: the instant, the rule's own instant before quiet hours, and the wall-clock minute.
    package struct Timing: Equatable, Sendable {
        package var atMs: Int64
        package var originalMs: Int64
        package var localMinute: Int32
    }

    /// Whether a habit's day still wants a nudge: due, not excused, and not done.
    /// An at-most habit's day is decided only once it is over, so it always wants one.
    package static func wantsNudge(_ demand: DayDemand, history: HabitHistory, day: Int32) -> Bool {
        guard case .due(let done) = demand else { return false }
        if HabitHistory.judgedAtDayEnd(history.spec(on: day)) { return true }
        return !done && !history.isMarkedDone(day)
    }

    /// When a rule fires on a habit day: its minute read in the zone (a skipped
    /// time: the first minute after the gap), then quiet hours. nil when quiet
    /// hours drop it, or would move it past the end of its day.
    package static func instant(
        day: Int32, settings: ReminderRule.Settings, quiet: QuietHours?,
        clock: DayClock
    ) throws(HabitError) -> Timing? {
        let civilDay = settings.minute < clock.dayStartMinutes ? day &+ 1 : day
        let at = try clock.utcMs(civilDay: civilDay, minute: settings.minute)
        let wallMinute = try clock.minuteOfDay(utcMs: at)
        guard let quiet, quiet.contains(minute: wallMinute) else { return Timing(atMs: at, originalMs: at, localMinute: wallMinute) }
        guard settings.quiet == .deferToEnd else { return nil }
        let moved = try clock.utcMs(civilDay: quiet.endDay(civilDay: civilDay, minute: wallMinute), minute: quiet.end)
        guard try clock.localDay(utcMs: moved) == day else { return nil }
        return Timing(atMs: moved, originalMs: at, localMinute: try clock.minuteOfDay(utcMs: moved))
    }
}
