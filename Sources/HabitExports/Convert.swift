import CHabitCore
import HabitCore
import HabitPlatform

/// C to Swift and back: every pointer checked, every string validated.
enum Convert {
    /// A required C string as Swift text: NULL and invalid UTF-8 are refused.
    static func string(_ pointer: UnsafePointer<CChar>?, _ field: String) throws(HabitError) -> String {
        guard let pointer else { throw .invalid("\(field) is NULL") }
        guard let text = String(validatingCString: pointer) else { throw .invalid("\(field) is not valid UTF-8") }
        return text
    }

    /// An optional C string: NULL is nil.
    static func optionalString(_ pointer: UnsafePointer<CChar>?, _ field: String) throws(HabitError) -> String? {
        guard pointer != nil else { return nil }
        return try string(pointer, field)
    }

    /// Refuses a bit set the header does not define for this argument.
    static func flags(_ value: UInt32, known: UInt32, _ name: String = "flags") throws(HabitError) {
        guard value & ~known == 0 else { throw .invalid("\(name) 0x\(String(value, radix: 16)) holds unknown bits") }
    }

    static func out<T>(_ pointer: UnsafeMutablePointer<T>?, _ name: String) throws(HabitError) -> UnsafeMutablePointer<T> {
        guard let pointer else { throw .invalid("\(name) is NULL") }
        return pointer
    }

    /// A day number given by the caller, or nil for HC_DAY_NONE.
    static func day(_ value: Int32, _ field: String) throws(HabitError) -> Int32? {
        if value == dayNone { return nil }
        guard CivilDate.isValid(value) else { throw .invalid("\(field) \(value) is not a day within 0001-01-01...9999-12-31") }
        return value
    }

    /// An instant a call is asked to act or answer at (an at_ms parameter or input
    /// field): 0 means now (nil), the one rule the header states at its top.
    static func instant(_ value: Int64) -> Int64? { value == 0 ? nil : value }

    /// A caller's option struct, once its struct_size says it is the layout we know.
    static func options<T>(_ pointer: UnsafePointer<T>?, _ name: String) throws(HabitError) -> T {
        guard let pointer else { throw .invalid("\(name) is NULL") }
        let size = UnsafeRawPointer(pointer).load(as: UInt32.self)
        guard size == UInt32(MemoryLayout<T>.size) else {
            throw .invalid("\(name).struct_size is \(size), expected \(MemoryLayout<T>.size): initialise it with its HC_*_INIT macro")
        }
        return pointer.pointee
    }

    /// A caller's options struct that grew at its end: a caller built against an older
    /// header passes one of the earlier sizes, and the fields it lacks read as zero.
    static func grownOptions<T>(_ pointer: UnsafePointer<T>?, _ name: String, earlierSizes: [Int]) throws(HabitError) -> T {
        guard let pointer else { throw .invalid("\(name) is NULL") }
        let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        guard size != MemoryLayout<T>.size else { return pointer.pointee }
        guard earlierSizes.contains(size), size < MemoryLayout<T>.size else { return try options(pointer, name) }
        let value = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        defer { value.deallocate() }
        value.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
        value.copyMemory(from: UnsafeRawPointer(pointer), byteCount: size)
        return value.load(as: T.self)
    }

    /// A string the caller frees with hc_free.
    static func ownedString(_ text: String) throws(HabitError) -> UnsafeMutablePointer<CChar> {
        guard let copy = strdup(text) else { throw HabitError(.noMemory, "out of memory") }
        Registry.add(copy, .string)
        return copy
    }

    /// A string owned by a struct the library allocated (freed with it).
    static func fieldString(_ text: String?) throws(HabitError) -> UnsafePointer<CChar>? {
        guard let text else { return nil }
        guard let copy = strdup(text) else { throw HabitError(.noMemory, "out of memory") }
        return UnsafePointer(copy)
    }

    static func freeField(_ pointer: UnsafePointer<CChar>?) {
        free(UnsafeMutableRawPointer(mutating: pointer))
    }

    /// A caller's result struct, once its struct_size says it is the layout we know.
    static func result<T>(_ pointer: UnsafeMutablePointer<T>?, _ name: String) throws(HabitError) -> UnsafeMutablePointer<T> {
        let pointer = try Convert.out(pointer, name)
        _ = try Convert.options(UnsafePointer(pointer), name)
        return pointer
    }

    /// A caller's result struct that has grown since it first shipped: any size it
    /// ever had (`sizes`, oldest first, the current one last) is accepted, and
    /// `write` stops at the caller's size.
    static func grownResult<T>(_ pointer: UnsafeMutablePointer<T>?, _ name: String, sizes: [Int]) throws(HabitError) -> GrownResult<T> {
        let pointer = try Convert.out(pointer, name)
        let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
        guard sizes.contains(size), size <= MemoryLayout<T>.size else {
            throw .invalid("\(name).struct_size is \(size), expected \(MemoryLayout<T>.size): initialise it with its HC_*_INIT macro")
        }
        return GrownResult(pointer: pointer, size: size)
    }

    struct GrownResult<T> {
        let pointer: UnsafeMutablePointer<T>
        /// The caller's struct_size.
        let size: Int

        /// Writes the fields the caller's struct holds, and its own struct_size back.
        func write(_ value: T) {
            withUnsafeBytes(of: value) { bytes in
                guard let base = bytes.baseAddress else { return }
                UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: min(size, bytes.count))
            }
            UnsafeMutableRawPointer(pointer).storeBytes(of: UInt32(size), as: UInt32.self)
        }
    }

    /// A caller's array: NULL only with capacity 0.
    static func array<T>(_ pointer: UnsafeMutablePointer<T>?, _ capacity: Int64, _ name: String) throws(HabitError) -> UnsafeMutableBufferPointer<T> {
        guard capacity >= 0 else { throw .invalid("\(name) capacity \(capacity) is negative") }
        guard capacity > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
        guard let pointer else { throw .invalid("\(name) is NULL with capacity \(capacity)") }
        guard capacity <= Int64(Int32.max) else { throw .invalid("\(name) capacity \(capacity) is too large") }
        return UnsafeMutableBufferPointer(start: pointer, count: Int(capacity))
    }

    /// Writes as many of `items` as the caller's buffer holds, converted, and
    /// the total into `count` (so a caller can ask with capacity 0, then again).
    static func copy<Item, Element>(
        _ items: [Item], into buffer: UnsafeMutableBufferPointer<Element>, count: UnsafeMutablePointer<Int64>,
        _ convert: (Item) -> Element
    ) {
        for (index, item) in items.prefix(buffer.count).enumerated() { buffer[index] = convert(item) }
        count.pointee = Int64(items.count)
    }
}
