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

    /// Every reminder with fromMs <= atMs < toMs, ordered by instant, habit, rule.
    package static func reminders(_ habits: [HabitInput], quietHours: DatedSpans<QuietHours?>, snoozes: [Snooze], clock: DayClock,
                                  fromMs: Int64, toMs: Int64, weekStart: Int) throws(HabitError) -> [Reminder] {
        let window = try days(fromMs: fromMs, toMs: toMs, clock: clock)
        let snoozesByRule = Dictionary(grouping: snoozes.filter { $0.atMs >= fromMs && $0.atMs < toMs }, by: \.ruleId)
        var result: [Reminder] = []
        for habit in habits where !habit.rules.isEmpty {
            let snoozed = habit.rules.flatMap { snoozesByRule[$0.id] ?? [] }
            let first = min(window.lowerBound, snoozed.map(\.day).min() ?? window.lowerBound)
            let demands = Judge.demands(habit.history, from: first, to: window.upperBound, asOf: window.upperBound, weekStart: weekStart,
                                        vacations: habit.vacations)
            func wants(_ day: Int32) -> Bool {
                let index = Int(day) - Int(first)
                return index >= 0 && index < demands.count && wantsNudge(demands[index], history: habit.history, day: day)
            }
            for rule in habit.rules {
                for day in window where wants(day) {
                    guard let settings = rule.settings(on: day), settings.applies(onWeekday: CivilDate.weekday(day)),
                          let timing = try instant(day: day, settings: settings, quiet: quietHours.value(on: day) ?? nil, clock: clock),
                          timing.atMs >= fromMs, timing.atMs < toMs
                    else { continue }
                    result.append(Reminder(habitId: habit.habitId, ruleId: rule.id, day: day, atMs: timing.atMs, originalMs: timing.originalMs,
                                           kind: .scheduled, deferred: timing.atMs != timing.originalMs, message: settings.message))
                }
                for snooze in snoozesByRule[rule.id] ?? [] where wants(snooze.day) {
                    result.append(Reminder(habitId: habit.habitId, ruleId: rule.id, day: snooze.day, atMs: snooze.atMs, originalMs: snooze.fromMs,
                                           kind: .snoozed, deferred: false, message: rule.settings(on: snooze.day)?.message))
                }
            }
        }
        result.sort { ($0.atMs, $0.habitId, $0.ruleId, $0.kind.rawValue) < ($1.atMs, $1.habitId, $1.ruleId, $1.kind.rawValue) }
        // A snooze to the very instant the rule fires anyway is one reminder.
        var seen = Set<Key>()
        return result.filter { seen.insert($0.key).inserted }
    }

    /// Whether a habit's day still wants a nudge: due, not excused, and not done.
    /// An at-most habit's day is decided only once it is over, so it always wants one.
    package static func wantsNudge(_ demand: DayDemand, history: HabitHistory, day: Int32) -> Bool {
        guard case .due(let done) = demand else { return false }
        if HabitHistory.judgedAtDayEnd(history.spec) { return true }
        return !done && !history.isMarkedDone(day)
    }

    /// When a rule fires on a habit day: its minute read in the zone (a skipped
    /// time: the first minute after the gap), then quiet hours. nil when quiet
    /// hours drop it, or would move it past the end of its day.
    package static func instant(day: Int32, settings: ReminderRule.Settings, quiet: QuietHours?,
                                clock: DayClock) throws(HabitError) -> (atMs: Int64, originalMs: Int64)? {
        let civilDay = settings.minute < clock.dayStartMinutes ? day &+ 1 : day
        let at = try clock.utcMs(civilDay: civilDay, minute: settings.minute)
        guard let quiet else { return (at, at) }
        let wallMinute = try clock.minuteOfDay(utcMs: at)
        guard quiet.contains(minute: wallMinute) else { return (at, at) }
        guard settings.quiet == .deferToEnd else { return nil }
        let moved = try clock.utcMs(civilDay: quiet.endDay(civilDay: civilDay, minute: wallMinute), minute: quiet.end)
        guard try clock.localDay(utcMs: moved) == day else { return nil }
        return (moved, at)
    }
}
