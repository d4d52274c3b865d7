/// The day a change to a day-versioned setting applies from: the one statement of
/// which days a change may reach, so a day already lived is never judged anew by a
/// rule it did not have.
package enum EffectiveDay {
    /// A rule that acts ahead of the day (credit rules, reminders, quiet hours,
    /// shields) changes from today on; the days already lived keep the rules they had.
    /// `change` names what changes, as the sentence's subject ("a reminder changes").
    package static func fromTodayOn(_ day: Int32, today: Int32, _ change: String) throws(HabitError) -> Int32 {
        guard day >= today else { throw .invalid("\(change) from today on, not from a day already lived") }
        return day
    }

    /// A habit's judging settings change from today or an earlier day (nil: today),
    /// re-judging the days from there; never from a day not yet begun.
    package static func fromTodayBack(_ day: Int32?, today: Int32) throws(HabitError) -> Int32 {
        guard let day else { return today }
        guard CivilDate.isValid(day) else { throw .invalid("from day \(day) is outside 0001-01-01...9999-12-31") }
        guard day <= today else {
            throw .invalid("a change applies from today or an earlier day, not \((try? CivilDate.format(day)) ?? String(day))")
        }
        return day
    }
}
