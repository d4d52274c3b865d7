import CHabitCore
import HabitCore
import HabitPlatform

/// The thread-local message behind hc_last_error_message().
enum ThreadError {
    private static let messages = ThreadLocalMessage()
    static func set(_ message: String) { messages.set(message) }
    static func clear() { messages.clear() }
    static var message: UnsafePointer<CChar> { messages.message ?? CText.empty }
}

/// Records a failure for this thread and returns its status code.
func fail(_ error: HabitError) -> Int32 {
    ThreadError.set(error.message)
    return error.code.rawValue
}

/// Runs a call that needs no handle: validation and work in body, errors mapped.
func call(_ body: () throws(HabitError) -> Void) -> Int32 {
    do throws(HabitError) {
        try body()
        ThreadError.clear()
        return HC_OK
    } catch {
        return fail(error)
    }
}

/// Static C strings: Swift string literals are stored NUL-terminated.
enum CText {
    static func pointer(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    static var empty: UnsafePointer<CChar> { pointer("") }

    static func statusName(_ status: Int32) -> UnsafePointer<CChar> {
        switch status {
        case HC_OK: return pointer("HC_OK: success")
        case HC_E_INVALID: return pointer("HC_E_INVALID: invalid argument")
        case HC_E_NOT_FOUND: return pointer("HC_E_NOT_FOUND: not found")
        case HC_E_CONFLICT: return pointer("HC_E_CONFLICT: conflicts with the stored state")
        case HC_E_IO: return pointer("HC_E_IO: input/output error")
        case HC_E_CORRUPT: return pointer("HC_E_CORRUPT: corrupt store or input")
        case HC_E_BUSY: return pointer("HC_E_BUSY: the store is busy")
        case HC_E_TOO_NEW: return pointer("HC_E_TOO_NEW: written by a newer habitcore")
        case HC_E_MISUSE: return pointer("HC_E_MISUSE: invalid handle or call order")
        case HC_E_NOMEM: return pointer("HC_E_NOMEM: out of memory")
        case HC_E_READONLY: return pointer("HC_E_READONLY: the store is read-only")
        case HC_E_INTERNAL: return pointer("HC_E_INTERNAL: internal error")
        case HC_E_INSUFFICIENT: return pointer("HC_E_INSUFFICIENT: not enough credits")
        case HC_E_CANCELLED: return pointer("HC_E_CANCELLED: cancelled by a callback")
        default: return pointer("unknown status")
        }
    }
}

/// HC_DAY_NONE as the Int32 the C fields hold.
let dayNone = Int32(HC_DAY_NONE)

/// Records the message behind a failed hc_<struct>_init (Sources/HabitStructDefaults,
/// C): the one call from C into Swift inside the library. Not exported (no hc_ prefix).
@_cdecl("habitcore_internal_fail")
func habitcoreInternalFail(_ status: Int32, _ message: UnsafePointer<CChar>?) -> Int32 {
    ThreadError.set(message.map { String(cString: $0) } ?? "")
    return status
}
