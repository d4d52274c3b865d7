import CHabitCore
import HabitCore
import HabitEngine

// Vacations: days excused for one habit (habit_id) or for all (0).

@c @implementation
public func hc_vacation_add(
    _ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ habit_id: Int64,
    _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        guard habit_id >= 0 else { throw .invalid("habit_id \(habit_id) is negative") }
        let id = try engine.addVacation(habitId: habit_id == 0 ? nil : habit_id, from: from_day, to: to_day)
        out_id?.pointee = id
    }
}

@c @implementation
public func hc_vacation_remove(_ store: OpaquePointer?, _ vacation_id: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.removeVacation(id: vacation_id) }
}

@c @implementation
public func hc_vacation_list(
    _ out: UnsafeMutablePointer<hc_vacation>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let buffer = try Convert.array(out, capacity, "out")
        let count = try Convert.out(out_count, "out_count")
        Convert.copy(try engine.vacations(), into: buffer, count: count) {
            hc_vacation(id: $0.id, habit_id: $0.habitId ?? 0, from_day: $0.first, to_day: $0.last)
        }
    }
}
