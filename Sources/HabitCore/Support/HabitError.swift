/// Every failure the engine reports: a code callers branch on and words people read.
/// The codes mirror the HC_E_* constants of include/habitcore.h one to one.
package enum ErrorCode: Int32, Sendable {
    case invalid = 1
    case notFound = 2
    case conflict = 3
    case io = 4
    case corrupt = 5
    case busy = 6
    case tooNew = 7
    case misuse = 8
    case noMemory = 9
    case readOnly = 10
    case `internal` = 11
    /// A spend larger than the available balance (nothing was written).
    case insufficient = 12
    /// A progress callback asked to stop (nothing was written).
    case cancelled = 13
}

package struct HabitError: Error, Equatable, Sendable, CustomStringConvertible {
    package var code: ErrorCode
    package var message: String

    package init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    package static func invalid(_ message: String) -> HabitError { HabitError(.invalid, message) }
    package static func notFound(_ message: String) -> HabitError { HabitError(.notFound, message) }
    package static func conflict(_ message: String) -> HabitError { HabitError(.conflict, message) }
    package static func corrupt(_ message: String) -> HabitError { HabitError(.corrupt, message) }

    package var description: String { message }

    /// The same error with a location put in front ("line 3: ...").
    package func prefixed(_ location: String) -> HabitError {
        HabitError(code, "\(location): \(message)")
    }
}
