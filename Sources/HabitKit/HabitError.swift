import CHabitCore

/// A failed habitcore call: its status code and the library's message, read on the
/// calling thread at once (the message lives only until this thread's next call).
public struct HabitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A status code of include/habitcore.h. Open: codes are only ever appended, so a
    /// library newer than this HabitKit may return one that has no name here yet.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The HC_E_* value.
        public let rawValue: Int32
        /// The code with this HC_E_* value, named or not.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// HC_E_INVALID: an argument is out of range, malformed or missing.
        public static let invalid = Code(rawValue: HC_E_INVALID)
        /// HC_E_NOT_FOUND: no such habit, entry, account or file.
        public static let notFound = Code(rawValue: HC_E_NOT_FOUND)
        /// HC_E_CONFLICT: the request clashes with what is stored.
        public static let conflict = Code(rawValue: HC_E_CONFLICT)
        /// HC_E_IO: the file system or SQLite failed to read or write.
        public static let io = Code(rawValue: HC_E_IO)
        /// HC_E_CORRUPT: the store or an input file is not what it claims to be.
        public static let corrupt = Code(rawValue: HC_E_CORRUPT)
        /// HC_E_BUSY: another process held the store past the busy timeout.
        public static let busy = Code(rawValue: HC_E_BUSY)
        /// HC_E_TOO_NEW: the store was written by a newer habitcore.
        public static let tooNew = Code(rawValue: HC_E_TOO_NEW)
        /// HC_E_MISUSE: a closed store, or a call out of order.
        public static let misuse = Code(rawValue: HC_E_MISUSE)
        /// HC_E_NOMEM: out of memory.
        public static let noMemory = Code(rawValue: HC_E_NOMEM)
        /// HC_E_READONLY: a write on a store opened read-only.
        public static let readOnly = Code(rawValue: HC_E_READONLY)
        /// HC_E_INTERNAL: a bug in habitcore.
        public static let `internal` = Code(rawValue: HC_E_INTERNAL)
        /// HC_E_INSUFFICIENT: a spend larger than the available credits; nothing was written.
        public static let insufficient = Code(rawValue: HC_E_INSUFFICIENT)
        /// HC_E_CANCELLED: a progress callback asked to stop; nothing was written.
        public static let cancelled = Code(rawValue: HC_E_CANCELLED)

        /// The library's name for the code (hc_status_string), e.g. "HC_E_NOT_FOUND".
        public var description: String { String(cString: hc_status_string(rawValue)) }
    }

    /// What kind of failure, as the C caller sees it.
    public let code: Code
    /// The library's words for it.
    public let message: String

    /// An error with this code and message.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The code's name and the message.
    public var description: String { "\(code): \(message)" }
}

/// Turns a status into a thrown HabitError, reading the thread's message before any
/// other call can replace it.
@inline(__always)
func check(_ status: Int32) throws(HabitError) {
    guard status != HC_OK else { return }
    throw HabitError(code: HabitError.Code(rawValue: status), message: String(cString: hc_last_error_message()))
}
