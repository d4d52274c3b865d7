import CHabitCore
import HabitCore
import HabitEngine

/// What an hc_change_list pointer stands for.
typealias ChangeListBox = OwnedArray<hc_change>

@c @implementation
public func hc_store_revision(_ out_revision: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_revision, "out_revision")
        out.pointee = try engine.revision()
    }
}

@c @implementation
public func hc_change_list_read(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ after: Int64, _ limit: Int64, _ flags: UInt32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        try Convert.flags(flags, known: HC_CHANGES_MERGED)
        let changes = try engine.changes(after: after, limit: limit, merged: flags & HC_CHANGES_MERGED != 0)
        let box = try ChangeListBox(
            changes,
            fill: { (target, change) throws(HabitError) in
                target.initialize(
                    to: hc_change(
                        struct_size: UInt32(MemoryLayout<hc_change>.size), area: change.area.rawValue, revision: change.revision,
                        habit_id: change.habit ?? 0, first_day: change.firstDay, last_day: change.lastDay))
            }, clear: { _ in })
        out.pointee = Registry.retain(box, .changeList)
    }
}

@c @implementation
public func hc_change_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .changeList, "change list: NULL, freed, or not from hc_change_list_read", as: hc_change.self)
}

@c @implementation
public func hc_change_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_change>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .changeList, "change list: NULL, freed, or not from hc_change_list_read")
}

@c @implementation
public func hc_change_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .changeList, as: hc_change.self)
}
