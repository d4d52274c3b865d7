import HabitCore
import HabitStore

/// Vacations: days excused for one habit, or every habit. The judges read them beside
/// a habit's history (Vacation.ranges), fresh from the store at each call.
extension Engine {
    package func addVacation(habitId: Int64?, from: Int32, to: Int32) throws(HabitError) -> Int64 {
        guard CivilDate.isValid(from), CivilDate.isValid(to) else { throw .invalid("vacation dates must be within 0001-01-01...9999-12-31") }
        guard from <= to else { throw .invalid("the vacation ends before it starts") }
        if let habitId { _ = try habit(id: habitId) }
        return try store.atomically { () throws(HabitError) in try store.insertVacation(habitId: habitId, from: from, to: to) }
    }

    package func removeVacation(id: Int64) throws(HabitError) {
        guard try store.atomically({ () throws(HabitError) in try store.deleteVacation(id: id) }) else {
            throw .notFound("no vacation with id \(id)")
        }
    }

    package func vacations() throws(HabitError) -> [Vacation] {
        try store.vacations()
    }
}
