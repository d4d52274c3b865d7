/// Which routine it is now (Void's dashboard): the morning, day and evening start
/// at three times of the person's day.
///
/// Rules (stated in the header too):
/// - The bounds are minutes after the store's day start, 0 <= morning < day <
///   evening < 1440. The defaults, 300, 660 and 1080, are 05:00, 11:00 and 18:00
///   with the day starting at midnight; a day start of 03:00 shifts them to 08:00,
///   14:00 and 21:00, as the person's whole day is shifted.
/// - From the morning bound to the day bound it is morning; then day until the
///   evening bound; otherwise (late evening, the night, and the early hours
///   before the morning bound) it is evening.
package struct RoutineBounds: Equatable, Sendable {
    package var morning: Int32
    package var day: Int32
    package var evening: Int32

    package static let standard = RoutineBounds(morning: 300, day: 660, evening: 1080)

    package init(morning: Int32, day: Int32, evening: Int32) {
        self.morning = morning
        self.day = day
        self.evening = evening
    }

    package func validated() throws(HabitError) -> RoutineBounds {
        guard morning >= 0, morning < day, day < evening, evening < 1440 else {
            throw .invalid("routine bounds \(morning), \(day), \(evening) must be minutes with 0 <= morning < day < evening < 1440")
        }
        return self
    }

    /// The routine at `minute` minutes after the day start (0...1439).
    package func routine(atMinuteOfDay minute: Int32) -> RoutineTime {
        if minute >= morning && minute < day { return .morning }
        if minute >= day && minute < evening { return .day }
        return .evening
    }

    /// Minutes after the day start of a local wall-clock minute (0...1439).
    package static func minuteOfDay(wallClock minute: Int32, dayStart: Int32) -> Int32 {
        ((minute - dayStart) % 1440 + 1440) % 1440
    }

    /// The settings text: "300,660,1080".
    package var text: String { "\(morning),\(day),\(evening)" }

    package init?(text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int32(TextRules.trimmingSpaces($0)) }
        guard parts.count == 3, let m = parts[0], let d = parts[1], let e = parts[2],
            let bounds = try? RoutineBounds(morning: m, day: d, evening: e).validated()
        else { return nil }
        self = bounds
    }
}
