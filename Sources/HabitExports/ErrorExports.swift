import CHabitCore
import HabitPlatform

// Status words, the thread's last message, and freeing what the library allocated.

@c @implementation
public func hc_status_string(_ status: Int32) -> UnsafePointer<CChar>? { CText.statusName(status) }

@c @implementation
public func hc_last_error_message() -> UnsafePointer<CChar>? { ThreadError.message }

@c @implementation
public func hc_free(_ ptr: UnsafeMutableRawPointer?) {
    if Registry.remove(ptr, .string) { free(ptr) }
}
