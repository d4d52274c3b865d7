import CHabitCore
import HabitCore
import HabitPlatform
import HabitPlugins

/// Every pointer the library hands out is recorded here with what it is, so a
/// NULL, closed, freed or foreign pointer is recognised and refused instead of
/// dereferenced.
enum Registry {
    enum Kind {
        case store, habit, habitList, entryList, creditList, awardList, eventList, changeList, verdictList, string, reminderRuleList, reminderList,
            shieldRuleList, timerList
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var table: [UInt: Kind] = [:]

    private static func withTable<T>(_ body: (inout [UInt: Kind]) -> T) -> T {
        lock.locked { body(&table) }
    }

    static func add(_ pointer: UnsafeRawPointer, _ kind: Kind) {
        withTable { $0[UInt(bitPattern: pointer)] = kind }
    }

    /// Removes the pointer if it is live and of this kind; true when it was.
    static func remove(_ pointer: UnsafeRawPointer?, _ kind: Kind) -> Bool {
        guard let pointer else { return false }
        return withTable { table in
            guard table[UInt(bitPattern: pointer)] == kind else { return false }
            table[UInt(bitPattern: pointer)] = nil
            return true
        }
    }

    static func contains(_ pointer: UnsafeRawPointer?, _ kind: Kind) -> Bool {
        guard let pointer else { return false }
        return withTable { $0[UInt(bitPattern: pointer)] == kind }
    }

    /// The object behind a live handle, retained for the duration of the call.
    static func object<T: AnyObject>(_ pointer: UnsafeRawPointer?, _ kind: Kind, as type: T.Type) -> T? {
        guard let pointer else { return nil }
        return withTable { table in
            guard table[UInt(bitPattern: pointer)] == kind else { return nil }
            return Unmanaged<T>.fromOpaque(pointer).takeUnretainedValue()
        }
    }

    /// Hands out a retained class instance as an opaque handle.
    static func retain<T: AnyObject>(_ object: T, _ kind: Kind) -> OpaquePointer {
        let pointer = Unmanaged.passRetained(object).toOpaque()
        add(pointer, kind)
        return OpaquePointer(pointer)
    }

    /// Forgets a handle and drops the library's reference; nil when it was not live.
    static func release<T: AnyObject>(_ pointer: UnsafeRawPointer?, _ kind: Kind, as type: T.Type) -> T? {
        guard let pointer, remove(pointer, kind) else { return nil }
        return Unmanaged<T>.fromOpaque(pointer).takeRetainedValue()
    }
}
