/// Loop Habit Tracker's full backup (its SQLite database, "Export full backup"),
/// as rows read by the store, turned into an ImportPlan. Every schema version in
/// Loop's migrations (9 to 25) is read by the columns it has:
/// - Habits: name, freq_num/freq_den, archived, position, colour, description,
///   reminders (hour, minute, days) from 9 and 11; type, target_type, target_value,
///   unit from 16 and 18; question from 23 (before it, the description held the
///   question); uuid from 24.
/// - Repetitions: habit, timestamp (UTC midnight, ms); value from 16 (before it,
///   every row is a check); notes from 25.
/// Values as Loop stores them: yes/no 2 a check, 3 a skip (1, 0, -1 add nothing);
/// numbers in thousandths, 3 a skip, 0 and below nothing. Habits in Loop's order
/// (position). A repetition of a habit that is not there, or a second one of the
/// same habit and day, is left out, as Loop's own migration 22 removes them.
/// Colour (as #RRGGBB: HabitDisplay.loopColour), description, question and position
/// become the habit's display fields; a note goes with the entry made that day.
///
/// Reminders (reminder_hour, reminder_min from 9; reminder_days from 11, before it
/// every day) become one reminder rule of the habit (`reminder(hour:minute:days:)`),
/// written in the import's transaction with its first version on the habit's first
/// day (a rule's first version governs the days before it too). A NULL hour or
/// minute is no reminder; so is an empty day mask, on which Loop never reminds. An
/// hour outside 0...23, a minute outside 0...59 or a day mask outside 0...127 (none
/// of which Loop writes) refuses the import, naming the Habits row. What differs:
/// - Loop's mask counts from Saturday (bit 0 Saturday, bit 1 Sunday ... bit 6
///   Friday); habitcore's from Sunday: `weekdays(loopMask:)` turns one into the other.
/// - The rule has no message (Loop's notification shows the habit's name and
///   question, which come as the habit's fields) and defers inside quiet hours, as
///   hc_reminder_rule_add's default (Loop has no quiet hours).
/// - Loop reminds on every day of its mask until that day is checked; habitcore's
///   rule also stays silent on a day the habit is not due (a `times:N/M` quota already
///   met), skipped or on vacation, as every habitcore reminder does.
/// - An archived habit keeps its rule as data; it is silent while archived, as in Loop.
/// - Loop's days start at midnight; with a later day start habitcore reads a time
///   before it as the night after the habit day (ReminderPlan), Loop as that date.
package struct LoopBackup: Equatable, Sendable {
    package struct Habit: Equatable, Sendable {
        package var id: Int64
        package var name: String
        package var numerator: Int64
        package var denominator: Int64
        package var archived: Bool
        package var position: Int64
        package var numeric: Bool
        package var atMost: Bool
        package var target: Double
        package var unit: String?
        /// Loop's colour column: a palette index, or an ARGB integer in early backups.
        package var colour: Int64?
        package var description: String?
        /// From version 23; before it, the description column held the question.
        package var question: String?
        /// Loop's reminder columns as stored; reminderDays is 127 (every day) before version 11.
        package var reminderHour: Int64?
        package var reminderMinute: Int64?
        package var reminderDays: Int64?

        package init(
            id: Int64, name: String, numerator: Int64, denominator: Int64, archived: Bool, position: Int64,
            numeric: Bool, atMost: Bool, target: Double, unit: String?, colour: Int64? = nil,
            description: String? = nil, question: String? = nil,
            reminderHour: Int64? = nil, reminderMinute: Int64? = nil, reminderDays: Int64? = nil
        ) {
            self.reminderHour = reminderHour
            self.reminderMinute = reminderMinute
            self.reminderDays = reminderDays
            self.colour = colour
            self.description = description
            self.question = question
            self.id = id
            self.name = name
            self.numerator = numerator
            self.denominator = denominator
            self.archived = archived
            self.position = position
            self.numeric = numeric
            self.atMost = atMost
            self.target = target
            self.unit = unit
        }
    }

    package struct Repetition: Equatable, Sendable {
        package var id: Int64
        package var habit: Int64
        package var timestampMs: Int64
        package var value: Int64
        package var notes: String?

        package init(id: Int64, habit: Int64, timestampMs: Int64, value: Int64, notes: String?) {
            self.id = id
            self.habit = habit
            self.timestampMs = timestampMs
            self.value = value
            self.notes = notes
        }
    }

    /// The versions whose schema is read (Loop's migrations 09.sql to 25.sql).
    package static let versions: ClosedRange<Int64> = 9...25

    package var version: Int64
    package var habits: [Habit]
    package var repetitions: [Repetition]

    package init(version: Int64, habits: [Habit], repetitions: [Repetition]) {
        self.version = version
        self.habits = habits
        self.repetitions = repetitions
    }

    /// A habit's display fields: Loop's colour as #RRGGBB, its description and question
    /// (before version 23 the description column held the question), its position.
    func display(_ habit: Habit) -> HabitDisplay {
        let questionInDescription = version < 23
        return HabitDisplay(
            description: questionInDescription ? nil : habit.description,
            question: questionInDescription ? habit.description : habit.question,
            colour: habit.colour.flatMap(HabitDisplay.loopColour), position: habit.position)
    }

    /// Loop's weekday mask (bit 0 Saturday, bit 1 Sunday ... bit 6 Friday, as its
    /// WeekdayList packs them) as habitcore's (bit 0 Sunday ... bit 6 Saturday): every
    /// bit moves one down and Saturday's goes to the top. Nil for a mask outside 0...127.
    package static func weekdays(loopMask: Int64) -> UInt8? {
        guard (0...127).contains(loopMask), let mask = UInt8(exactly: loopMask) else { return nil }
        return mask >> 1 | (mask & 1) << 6
    }

    /// A habit's Loop reminder as a rule's settings; nil when it has none (a NULL hour
    /// or minute, or no weekday). Hours, minutes and masks Loop never writes are invalid.
    package static func reminder(hour: Int64?, minute: Int64?, days: Int64?) throws(HabitError) -> ReminderRule.Settings? {
        guard let hour, let minute else { return nil }
        guard (0...23).contains(hour) else { throw .invalid("reminder_hour \(hour) is not an hour 0...23") }
        guard (0...59).contains(minute) else { throw .invalid("reminder_min \(minute) is not a minute 0...59") }
        guard let days else { throw .invalid("reminder_days is NULL beside a reminder time") }
        guard let weekdays = weekdays(loopMask: days) else { throw .invalid("reminder_days \(days) is not a mask of 7 weekdays (0...127)") }
        guard weekdays != 0 else { return nil }
        guard let minuteOfDay = Int32(exactly: hour * 60 + minute) else { throw .invalid("reminder time \(hour):\(minute) is out of range") }
        return try ReminderRule.Settings(minute: minuteOfDay, weekdays: weekdays, message: nil, quiet: .deferToEnd).validated()
    }

    package func plan(today: Int32, nowMs: Int64) throws(HabitError) -> ImportPlan {
        var plan = ImportPlan()
        let ordered = habits.sorted { ($0.position, $0.id) < ($1.position, $1.id) }
        var indexOf: [Int64: Int] = [:]
        for habit in ordered {
            do throws(HabitError) {
                guard indexOf[habit.id] == nil else { throw .invalid("appears twice") }
                guard let numerator = Int(exactly: habit.numerator), let denominator = Int(exactly: habit.denominator) else {
                    throw .invalid("frequency \(habit.numerator)/\(habit.denominator) is out of range")
                }
                let target = habit.numeric ? LoopCSV.numberTarget(habit.target) : 1
                let spec = try HabitSpec(
                    name: habit.name.trimmingCharacters(), kind: habit.numeric ? .counter : .checkmark,
                    target: target, direction: habit.atMost ? .atMost : .atLeast, group: nil,
                    unit: habit.numeric && habit.unit?.isEmpty == false ? habit.unit : nil,
                    routine: .anytime, proofRequired: false, startDay: today,
                    schedule: LoopCSV.schedule(numerator: numerator, denominator: denominator),
                    display: display(habit)
                ).validated()
                let reminder = try Self.reminder(hour: habit.reminderHour, minute: habit.reminderMinute, days: habit.reminderDays)
                indexOf[habit.id] = plan.habits.count
                plan.habits.append(
                    .init(
                        spec: spec, versions: [], archivedDay: habit.archived ? today : nil, createdAtMs: nowMs,
                        reminders: reminder.map { [$0] } ?? []))
            } catch {
                throw error.prefixed("Habits row id \(habit.id)")
            }
        }
        plan.makeNamesUnique()

        var seen = Set<[Int64]>()
        for repetition in repetitions.sorted(by: { $0.id < $1.id }) {
            guard let index = indexOf[repetition.habit] else { continue }
            let day64 = repetition.timestampMs >= 0 ? repetition.timestampMs / 86_400_000 : -((-repetition.timestampMs + 86_399_999) / 86_400_000)
            guard seen.insert([repetition.habit, day64]).inserted else { continue }
            do throws(HabitError) {
                guard let day = Int32(exactly: day64), CivilDate.isValid(day) else {
                    throw .invalid("timestamp \(repetition.timestampMs) is outside the calendar")
                }
                let numeric = plan.habits[index].spec.kind == .counter
                let entry: (EntryKind, Double)?
                switch repetition.value {
                case 3: entry = (.skip, 0)
                case 2 where !numeric: entry = (.done, 0)
                case let value where numeric && value > 0: entry = (.amount, Double(value) / 1000)
                default: entry = nil
                }
                guard let (kind, value) = entry else { continue }
                let note = repetition.notes.flatMap { $0.isEmpty ? nil : $0 }
                try plan.append(
                    .init(
                        habitIndex: index, day: day, kind: kind, value: value, recordedAtMs: nowMs,
                        source: .import, note: note))
            } catch {
                throw error.prefixed("Repetitions row id \(repetition.id)")
            }
        }
        plan.startHabitsOnTheirFirstEntry(today: today)
        return plan
    }
}

private extension String {
    func trimmingCharacters() -> String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
