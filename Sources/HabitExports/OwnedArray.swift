import HabitCore

/// A C array the library owns and hands out behind a list handle
/// (hc_habit_list, hc_entry_list): filled element by element, each element's
/// strings released by `clear` when the list goes.
final class OwnedArray<Element> {
    let items: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private let clear: (UnsafeMutablePointer<Element>) -> Void

    init<Values: Collection>(
        _ values: Values, fill: (UnsafeMutablePointer<Element>, Values.Element) throws(HabitError) -> Void,
        clear: @escaping (UnsafeMutablePointer<Element>) -> Void
    ) throws(HabitError) {
        items = .allocate(capacity: max(values.count, 1))
        self.clear = clear
        for value in values {
            do throws(HabitError) { try fill(items + count, value) } catch { releaseElements(); throw error }
            count += 1
        }
    }

    private func releaseElements() {
        for index in 0..<count { clear(items + index) }
        count = 0
    }

    deinit {
        releaseElements()
        items.deallocate()
    }

    /// The element at a caller's index, checked.
    func element(at index: Int64) throws(HabitError) -> UnsafePointer<Element> {
        guard index >= 0, index < Int64(count) else { throw .invalid("index \(index) is outside 0..<\(count)") }
        return UnsafePointer(items + Int(index))
    }
}

/// The count, get and free calls every list handle has (hc_habit_list,
/// hc_entry_list, hc_credit_list, hc_award_list, hc_event_list, hc_verdict_list):
/// one checked path for all of them.
enum ListHandle {
    /// The list behind a live handle of this kind; else HC_E_MISUSE saying where lists come from.
    static func list<Element>(
        _ pointer: OpaquePointer?, _ kind: Registry.Kind, _ what: String,
        as type: Element.Type
    ) throws(HabitError) -> OwnedArray<Element> {
        guard let box = Registry.object(UnsafeRawPointer(pointer), kind, as: OwnedArray<Element>.self) else {
            throw HabitError(.misuse, "invalid \(what)")
        }
        return box
    }

    static func count<Element>(
        _ out_count: UnsafeMutablePointer<Int64>?, _ pointer: OpaquePointer?, _ kind: Registry.Kind, _ what: String,
        as type: Element.Type
    ) -> Int32 {
        call { () throws(HabitError) in
            let out = try Convert.out(out_count, "out_count")
            out.pointee = Int64(try list(pointer, kind, what, as: type).count)
        }
    }

    static func get<Element>(
        _ out: UnsafeMutablePointer<UnsafePointer<Element>?>?, _ pointer: OpaquePointer?, _ index: Int64,
        _ kind: Registry.Kind, _ what: String
    ) -> Int32 {
        call { () throws(HabitError) in
            let out = try Convert.out(out, "out")
            out.pointee = try list(pointer, kind, what, as: Element.self).element(at: index)
        }
    }

    static func free<Element>(_ pointer: OpaquePointer?, _ kind: Registry.Kind, as type: Element.Type) {
        _ = Registry.release(UnsafeRawPointer(pointer), kind, as: OwnedArray<Element>.self)
    }
}
