import HabitCore

/// A C array the library owns and hands out behind a list handle
/// (hc_habit_list, hc_entry_list): filled element by element, each element's
/// strings released by `clear` when the list goes.
final class OwnedArray<Element> {
    let items: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private let clear: (UnsafeMutablePointer<Element>) -> Void

    init<Values: Collection>(_ values: Values, fill: (UnsafeMutablePointer<Element>, Values.Element) throws(HabitError) -> Void,
                             clear: @escaping (UnsafeMutablePointer<Element>) -> Void) throws(HabitError) {
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
