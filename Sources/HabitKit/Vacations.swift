import CHabitCore

/// A vacation: days that excuse every habit, or one (hc_vacation).
public struct Vacation: Sendable, Hashable, Identifiable {
    /// Its id.
    public var id: VacationID
    /// The habit it excuses; nil: every habit.
    public var habitID: HabitID?
    /// Its first day.
    public var from: Day
    /// Its last day.
    public var through: Day

    init(_ v: hc_vacation) {
        id = VacationID(v.id)
        habitID = HabitID(nonZero: v.habit_id)
        from = Day(rawValue: v.from_day)
        through = Day(rawValue: v.to_day)
    }
}

extension Store {
    /// Adds a vacation from one day through another that excuses a habit, or every
    /// habit when habitID is nil; gives its id (hc_vacation_add). Throws .invalid, .notFound.
    @discardableResult
    public func addVacation(habitID: HabitID? = nil, from: Day, through: Day) throws(HabitError) -> VacationID {
        try withHandle { store throws(HabitError) in
            var id: Int64 = 0
            try check(hc_vacation_add(&id, store, habitID.rawValueOrZero(), from.rawValue, through.rawValue))
            return VacationID(id)
        }
    }

    /// Removes a vacation (hc_vacation_remove). Throws .notFound.
    public func removeVacation(id: VacationID) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_vacation_remove(store, id.rawValue)) }
    }

    /// The vacations, by start day (hc_vacation_list).
    public func vacations() throws(HabitError) -> [Vacation] {
        try withHandle { store throws(HabitError) in
            try buffered(hc_vacation()) { hc_vacation_list($0, $1, $2, store) }.map(Vacation.init)
        }
    }
}
