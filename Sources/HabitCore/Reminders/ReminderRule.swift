/// A reminder of a habit: a local time of day, the days it applies, a message,
/// and what quiet hours do to it. A rule keeps every version it ever had, each
/// from a day on (as schedules do), so a change never rewrites the past.
package struct ReminderRule: Equatable, Sendable {
    /// What quiet hours do to a reminder that falls inside them.
    package enum QuietMode: Int32, Sendable, CaseIterable {
        /// Moved to the end of the quiet hours (dropped if that is past its day).
        case deferToEnd = 1
        /// Not sent.
        case drop = 2

        package var name: String { self == .deferToEnd ? "defer" : "drop" }

        package init(name: String) throws(HabitError) {
            guard let mode = QuietMode.allCases.first(where: { $0.name == name.lowercased() }) else {
                throw .invalid("quiet mode '\(name.prefix(40))' is not defer or drop")
            }
            self = mode
        }
    }

    /// What a rule says from its version's first day on.
    package struct Settings: Equatable, Sendable {
        /// Local wall-clock minute, 0...1439. A minute before the store's day start
        /// belongs to the night after the day (01:30 with a 03:00 day start).
        package var minute: Int32
        /// Weekdays as bits, bit 0 = Sunday ... bit 6 = Saturday; 0: every day the
        /// habit is due. Either way a reminder only comes on a day the habit is due.
        package var weekdays: UInt8
        package var message: String?
        package var quiet: QuietMode

        package init(minute: Int32, weekdays: UInt8, message: String?, quiet: QuietMode) {
            self.minute = minute
            self.weekdays = weekdays
            self.message = message
            self.quiet = quiet
        }

        package func validated() throws(HabitError) -> Settings {
            guard (0..<1440).contains(minute) else { throw .invalid("minute \(minute) is not a time of day in 0...1439") }
            guard weekdays & 0x80 == 0 else { throw .invalid("weekdays 0x\(String(weekdays, radix: 16)) holds bits past Saturday (bit 6)") }
            if let message { try TextRules.validate(message, field: "message", maxBytes: 500) }
            return self
        }

        /// Whether the rule applies on a day of this weekday (0 = Sunday).
        package func applies(onWeekday weekday: Int) -> Bool {
            weekdays == 0 || weekdays & (1 << weekday) != 0
        }
    }

    package var id: Int64
    package var habitId: Int64
    /// Every version, oldest first; a nil `settings` removes the rule from its day on.
    package var versions: DatedSpans<Settings?>

    package init(id: Int64, habitId: Int64, versions: DatedSpans<Settings?>) {
        self.id = id
        self.habitId = habitId
        self.versions = versions
    }

    /// What the rule says on a day; nil when it is removed then.
    package func settings(on day: Int32) -> Settings? {
        versions.value(on: day) ?? nil
    }
}

/// Values each in force from a day on, oldest first. The first one also governs
/// the days before it, as a habit's first schedule does.
package struct DatedSpans<Value: Equatable & Sendable>: Equatable, Sendable {
    package struct Span: Equatable, Sendable {
        package var fromDay: Int32
        package var value: Value
        package init(fromDay: Int32, value: Value) {
            self.fromDay = fromDay
            self.value = value
        }
    }

    /// Sorted by fromDay, one per day.
    package private(set) var spans: [Span]

    package init(_ spans: [Span]) {
        var byDay: [Span] = []
        // A later span for the same day replaces the earlier one.
        for span in spans.sorted(by: { $0.fromDay < $1.fromDay }) {
            if byDay.last?.fromDay == span.fromDay { byDay[byDay.count - 1] = span } else { byDay.append(span) }
        }
        self.spans = byDay
    }

    /// The value in force on a day; nil when there are no spans at all.
    package func value(on day: Int32) -> Value? {
        guard var chosen = spans.first else { return nil }
        for span in spans.dropFirst() {
            guard span.fromDay <= day else { break }
            chosen = span
        }
        return chosen.value
    }
}

/// Store-wide quiet hours: a local wall-clock window [start, end) in minutes,
/// which wraps past midnight when start > end (22:00-07:00).
package struct QuietHours: Equatable, Sendable {
    package var start: Int32
    package var end: Int32

    package init(start: Int32, end: Int32) throws(HabitError) {
        guard (0..<1440).contains(start), (0..<1440).contains(end) else {
            throw .invalid("quiet hours \(start)-\(end): each bound is a minute of the day in 0...1439")
        }
        guard start != end else { throw .invalid("quiet hours \(start)-\(end) are empty: start and end must differ") }
        self.start = start
        self.end = end
    }

    package func contains(minute: Int32) -> Bool {
        start < end ? minute >= start && minute < end : minute >= start || minute < end
    }

    /// The calendar date on which the window holding `minute` of `civilDay` ends.
    package func endDay(civilDay: Int32, minute: Int32) -> Int32 {
        start > end && minute >= start ? civilDay &+ 1 : civilDay
    }
}
