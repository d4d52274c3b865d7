import CHabitCore
import HabitCore
import HabitEngine
import HabitPlatform

// The ledger: hc_entry_input in, hc_entry and hc_day_state out.

enum CEntry {
    static func newEntry(_ input: hc_entry_input) throws(HabitError) -> Engine.NewEntry {
        guard let kind = EntryKind(rawValue: input.kind) else { throw .invalid("kind \(input.kind) is not an HC_ENTRY_* constant") }
        guard let source = EntrySource(rawValue: input.source) else { throw .invalid("source \(input.source) is not an HC_SOURCE_* constant") }
        guard input.habit_id > 0 else { throw .invalid("habit_id \(input.habit_id) is not a habit id") }
        return Engine.NewEntry(
            habitId: input.habit_id, kind: kind, day: try Convert.day(input.day, "day"), value: input.value,
            atMs: Convert.instant(input.at_ms), source: source,
            note: try Convert.optionalString(input.note, "note"),
            key: try Convert.optionalString(input.key, "key"))
    }

    /// hc_entry_input's sizes before its last fields were appended (0.2: up to `note`).
    static let earlierInputSizes = [MemoryLayout<hc_entry_input>.offset(of: \hc_entry_input.key) ?? 0]

    static func fill(_ target: UnsafeMutablePointer<hc_entry>, _ entry: Entry, undoneBy: Int64?) throws(HabitError) {
        var value = hc_entry()
        value.struct_size = UInt32(MemoryLayout<hc_entry>.size)
        value.kind = entry.kind.rawValue
        value.id = entry.id
        value.habit_id = entry.habitId
        value.day = entry.day
        value.source = entry.source.rawValue
        value.value = entry.value
        value.recorded_at_ms = entry.recordedAtMs
        value.undoes = entry.undoes ?? 0
        value.undone_by = undoneBy ?? 0
        value.note = try Convert.fieldString(entry.note)
        target.initialize(to: value)
    }
}

/// What an hc_entry_list pointer stands for.
typealias EntryListBox = OwnedArray<hc_entry>

@c @implementation
public func hc_entry_append(_ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ entry: UnsafePointer<hc_entry_input>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let id = try engine.append(try CEntry.newEntry(try Convert.grownOptions(entry, "entry", earlierSizes: CEntry.earlierInputSizes)))
        out_id?.pointee = id
    }
}

@c @implementation
public func hc_entry_undo(_ out_undo_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ entry_id: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let id = try engine.undo(entryId: entry_id)
        out_undo_id?.pointee = id
    }
}

@c @implementation
public func hc_entry_undo_last(_ out_undo_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ habit_id: Int64, _ day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let id = try engine.undoLast(habitId: habit_id, day: try Convert.day(day, "day"))
        out_undo_id?.pointee = id
    }
}

@c @implementation
public func hc_entry_list_open(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ habit_id: Int64,
    _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        guard habit_id >= 0 else { throw .invalid("habit_id \(habit_id) is negative") }
        let entries = try engine.entries(habitId: habit_id == 0 ? nil : habit_id, from: from_day, to: to_day)
        let box = try EntryListBox(
            entries,
            fill: { (target, row) throws(HabitError) in
                try CEntry.fill(target, row.entry, undoneBy: row.undoneBy)
            }, clear: { Convert.freeField($0.pointee.note) })
        out.pointee = Registry.retain(box, .entryList)
    }
}

@c @implementation
public func hc_entry_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .entryList, "entry list: NULL, freed, or not from hc_entry_list_open", as: hc_entry.self)
}

@c @implementation
public func hc_entry_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_entry>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .entryList, "entry list: NULL, freed, or not from hc_entry_list_open")
}

@c @implementation
public func hc_entry_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .entryList, as: hc_entry.self)
}

@c @implementation
public func hc_habit_day_total(_ out_total: UnsafeMutablePointer<Double>?, _ store: OpaquePointer?, _ habit_id: Int64, _ day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_total, "out_total")
        out.pointee = try engine.dayTotal(habitId: habit_id, day: day)
    }
}

@c @implementation
public func hc_habit_day_states(
    _ out: UnsafeMutablePointer<hc_day_state>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?, _ habit_id: Int64, _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let buffer = try Convert.array(out, capacity, "out")
        let count = try Convert.out(out_count, "out_count")
        Convert.copy(try engine.dayStates(habitId: habit_id, from: from_day, to: to_day), into: buffer, count: count) { state in
            var flags: UInt32 = 0
            if state.done { flags |= HC_DAY_DONE }
            if state.skipped { flags |= HC_DAY_SKIPPED }
            if state.entryCount > 0 { flags |= HC_DAY_HAS_ENTRIES }
            return hc_day_state(
                day: state.day, flags: flags, value: state.value,
                entry_count: Int32(clamping: state.entryCount), reserved: 0)
        }
    }
}
