import HabitCore
import HabitStore

/// Reminders: rules per habit and store-wide quiet hours (each effective from a
/// day on), the instants to nudge at (decided by ReminderPlan), and their
/// delivery, recorded once per instant however many processes ask.
/// Every reminder rule with its versions as last read (nil: not read yet).
struct ReminderCache {
    var rules: [ReminderRule]?
    mutating func drop() { rules = nil }
}

extension Engine {
    /// A rule as in force on one day, for listing.
    package struct ReminderRuleView: Equatable, Sendable {
        package var id: Int64
        package var habitId: Int64
        package var fromDay: Int32
        package var settings: ReminderRule.Settings
    }

    // MARK: Rules

    /// Adds a rule to a habit. Its first version governs every day before it too,
    /// as a habit's first schedule does.
    package func addReminderRule(habitId: Int64, _ settings: ReminderRule.Settings) throws(HabitError) -> Int64 {
        let settings = try settings.validated()
        let day = try today()
        let at = now()
        return try store.atomically { () throws(HabitError) in
            let habit = try habit(id: habitId)
            guard !habit.isArchived else { throw .conflict("habit '\(habit.spec.name)' is archived; restore it to add reminders") }
            let id = try store.insertReminderRule(habitId: habit.id, createdAtMs: at)
            try store.setReminderVersion(ruleId: id, fromDay: day, settings: settings)
            caches.reminders.drop()
            return id
        }
    }

    /// Changes a rule (settings) or removes it (nil) from a day on: today or later
    /// (nil: today), so no day already lived is rewritten.
    package func changeReminderRule(id: Int64, _ settings: ReminderRule.Settings?, fromDay: Int32?) throws(HabitError) {
        let settings = try settings?.validated()
        let day = try EffectiveDay.fromTodayOn(try resolve(fromDay), today: try today(), "a reminder changes")
        try store.atomically { () throws(HabitError) in
            guard id > 0, try store.reminderRuleHabit(ruleId: id) != nil else { throw .notFound("no reminder rule with id \(id)") }
            try store.setReminderVersion(ruleId: id, fromDay: day, settings: settings)
            caches.reminders.drop()
        }
    }

    /// The rules in force on a day (nil: today), of one habit or (nil) all, by id.
    package func reminderRules(habitId: Int64?, on day: Int32?) throws(HabitError) -> [ReminderRuleView] {
        let day = try resolve(day)
        if let habitId { _ = try habit(id: habitId) }
        return try store.reminderRules(habitId: habitId).compactMap { rule in
            guard let settings = rule.settings(on: day) else { return nil }
            let fromDay = rule.versions.spans.last { $0.fromDay <= day }?.fromDay ?? rule.versions.spans.first?.fromDay ?? day
            return ReminderRuleView(id: rule.id, habitId: rule.habitId, fromDay: fromDay, settings: settings)
        }
    }

    // MARK: Quiet hours

    /// Sets the store's quiet hours (nil: none) from a day on, today or later (nil: today).
    package func setQuietHours(_ hours: QuietHours?, fromDay: Int32?) throws(HabitError) {
        let day = try EffectiveDay.fromTodayOn(try resolve(fromDay), today: try today(), "quiet hours change")
        try store.atomically { () throws(HabitError) in try store.setQuietHours(fromDay: day, hours) }
    }

    package func quietHours(on day: Int32?) throws(HabitError) -> QuietHours? {
        let day = try resolve(day)
        return try store.quietHours().value(on: day) ?? nil
    }

    // MARK: Instants

    /// What to do with the reminders found.
    package enum ReminderDelivery: Sendable {
        /// List them all, each saying whether it was delivered.
        case all
        /// Leave out those already delivered.
        case pending
        /// Leave out those already delivered and record the rest as delivered, in
        /// one write transaction: each instant goes to exactly one caller.
        case claim
    }

    /// Every reminder instant with fromMs <= atMs < toMs.
    package func reminders(fromMs: Int64, toMs: Int64, delivery: ReminderDelivery) throws(HabitError) -> [ReminderPlan.Reminder] {
        if delivery == .claim {
            let at = now()
            return try store.atomically { () throws(HabitError) in
                var claimed: [ReminderPlan.Reminder] = []
                for var reminder in try plan(fromMs: fromMs, toMs: toMs, habitId: nil) where !reminder.fired {
                    if try store.insertReminderDelivery(reminder.key, firedAtMs: at) {
                        reminder.fired = true
                        claimed.append(reminder)
                    }
                }
                return claimed
            }
        }
        return try store.snapshot { () throws(HabitError) in
            let all = try plan(fromMs: fromMs, toMs: toMs, habitId: nil)
            return delivery == .pending ? all.filter { !$0.fired } : all
        }
    }

    /// Records that a reminder was delivered; false when it had been already (by
    /// this or another process). The reminder must be due: NOT_FOUND otherwise
    /// (the rule changed, or the habit's day was done or excused since).
    package func reminderFired(ruleId: Int64, day: Int32, atMs: Int64) throws(HabitError) -> Bool {
        let at = now()
        return try store.atomically { () throws(HabitError) in
            let reminder = try existingReminder(ruleId: ruleId, day: day, atMs: atMs)
            return try store.insertReminderDelivery(reminder.key, firedAtMs: at)
        }
    }

    /// A new instant for the same reminder (rule and day), at most a day after it;
    /// the reminder snoozed counts as delivered.
    package func snoozeReminder(ruleId: Int64, day: Int32, atMs: Int64, untilMs: Int64) throws(HabitError) {
        try ReminderPlan.Snooze.validate(fromMs: atMs, untilMs: untilMs)
        let at = now()
        try store.atomically { () throws(HabitError) in
            let reminder = try existingReminder(ruleId: ruleId, day: day, atMs: atMs)
            _ = try store.insertReminderDelivery(reminder.key, firedAtMs: at)
            _ = try store.insertReminderSnooze(ReminderPlan.Snooze(ruleId: ruleId, day: day, fromMs: atMs, atMs: untilMs), recordedAtMs: at)
        }
    }

    /// The reminder a caller names, as it stands now.
    private func existingReminder(ruleId: Int64, day: Int32, atMs: Int64) throws(HabitError) -> ReminderPlan.Reminder {
        guard ruleId > 0, let habitId = try store.reminderRuleHabit(ruleId: ruleId) else { throw .notFound("no reminder rule with id \(ruleId)") }
        guard CivilDate.isValid(day) else { throw .invalid("day \(day) is outside 0001-01-01...9999-12-31") }
        guard atMs < Int64.max else { throw .invalid("instant \(atMs) ms is out of range") }
        let key = ReminderPlan.Key(ruleId: ruleId, day: day, atMs: atMs)
        guard let reminder = try plan(fromMs: atMs, toMs: atMs + 1, habitId: habitId).first(where: { $0.key == key }) else {
            throw .notFound("rule \(ruleId) has no reminder due at \(atMs) ms for day \((try? CivilDate.format(day)) ?? String(day))")
        }
        return reminder
    }

    /// Every rule with its versions, read once per change of the store.
    private func allReminderRules() throws(HabitError) -> [ReminderRule] {
        _ = try clock()  // drops the caches when another connection committed
        if let cached = caches.reminders.rules { return cached }
        let rules = try store.reminderRules(habitId: nil)
        caches.reminders.rules = rules
        return rules
    }

    /// Gathers what the plan needs (only habits with rules; entries of the window,
    /// and for quota schedules of the periods reaching into it) and marks what was delivered.
    private func plan(fromMs: Int64, toMs: Int64, habitId: Int64?) throws(HabitError) -> [ReminderPlan.Reminder] {
        let clock = try clock()
        let window = try ReminderPlan.days(fromMs: fromMs, toMs: toMs, clock: clock)
        let rules = try allReminderRules()
        let rulesByHabit = Dictionary(grouping: habitId.map { id in rules.filter { $0.habitId == id } } ?? rules, by: \.habitId)
        guard !rulesByHabit.isEmpty else { return [] }
        let snoozes = try store.reminderSnoozes(fromMs: fromMs, toMs: toMs)
        // Snoozes reach up to a day back.
        let firstDay = min(window.lowerBound, snoozes.map(\.day).min() ?? window.lowerBound)
        let read: [Entry]
        if let habitId {
            read = try store.entries(habitId: habitId, from: firstDay, to: window.upperBound)
        } else {
            read = try store.entriesOfRemindedHabits(from: firstDay, to: window.upperBound)
        }
        var entries = Dictionary(grouping: read, by: \.habitId)
        let vacations = try vacations()
        let weekStart = try weekStart()
        let habits = try rulesByHabit.keys.sorted().map { (id) throws(HabitError) in try habit(id: id) }
        // A quota period that began before the window counts what was done in it:
        // those habits' earlier days, in one read.
        let readFrom = habits.map { ReminderPlan.firstDayRead($0, days: firstDay...window.upperBound, weekStart: weekStart) }
        let earlier = zip(habits, readFrom).filter { $0.1 < firstDay }
        if let earliest = earlier.map(\.1).min() {
            for entry in try store.entries(habitIds: earlier.map(\.0.id), from: earliest, to: firstDay &- 1) {
                entries[entry.habitId, default: []].append(entry)
            }
        }
        var inputs: [ReminderPlan.HabitInput] = []
        inputs.reserveCapacity(habits.count)
        for (habit, from) in zip(habits, readFrom) {
            // sparseStates groups by day: the timers' amounts may follow the entries.
            let read =
                (entries.removeValue(forKey: habit.id) ?? [])
                + (try timerAmounts(habit, from: min(from, firstDay), to: window.upperBound).amounts)
            let states = DayFold.sparseStates(read, habit: habit.spec, versions: habit.versions)
            inputs.append(
                ReminderPlan.HabitInput(
                    habitId: habit.id, history: ReminderPlan.windowHistory(habit, from: from, states: states),
                    vacations: Vacation.ranges(vacations, habitId: habit.id), rules: rulesByHabit[habit.id] ?? []))
        }
        var reminders = try ReminderPlan.reminders(
            inputs, quietHours: try store.quietHours(), snoozes: snoozes, clock: clock,
            fromMs: fromMs, toMs: toMs, weekStart: weekStart)
        let delivered = try store.reminderDeliveries(fromMs: fromMs, toMs: toMs)
        if !delivered.isEmpty {
            for index in reminders.indices { reminders[index].fired = delivered.contains(reminders[index].key) }
        }
        return reminders
    }
}
