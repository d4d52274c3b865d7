import CHabitCore
import HabitCore
import HabitEngine
import HabitPlatform
import HabitPlugins

/// What an hc_store pointer stands for: an engine, the last error message on
/// this handle, and the lock that serialises calls on it.
final class StoreHandle: @unchecked Sendable {
    struct State {
        var engine: Engine
        var message: UnsafeMutablePointer<CChar>?
        var closed = false
    }

    /// Refuses the thread that already holds it: a callback this handle is running
    /// (a verifier, a progress report, a release) that calls back in on the same
    /// handle would otherwise wait for its own caller forever.
    private let lock = ReentryRefusingLock()
    private var state: State

    init(engine: Engine) {
        state = State(engine: engine)
    }

    deinit {
        free(state.message)
    }

    /// body's result under the handle's lock, or nil when this thread already holds
    /// it, that is when a callback of a call on this handle calls in again.
    func withLock<T>(_ body: (inout State) -> T) -> T? {
        lock.lockedUnlessHeld { body(&state) }
    }
}

let badHandle = HabitError(.misuse, "invalid store handle: NULL, closed, or not from hc_store_open")

/// The header's rule for re-entrant calls, in its words.
let reentryMessage: StaticString =
    "a call on this store from inside a callback the store is running is refused: the store is held by the call running the callback (use another handle, or call after it returns)"
let reentered = HabitError(.misuse, reentryMessage.description)

/// Runs body with the engine behind a store handle, under the handle's lock;
/// a failure is recorded on the handle and on the thread. A call from inside one of
/// this handle's callbacks is refused and recorded on the thread only: the handle's
/// state belongs to the call running the callback.
func withStore(_ pointer: OpaquePointer?, _ body: (Engine) throws(HabitError) -> Void) -> Int32 {
    guard let handle = Registry.object(UnsafeRawPointer(pointer), .store, as: StoreHandle.self) else { return fail(badHandle) }
    let status = handle.withLock { state -> Int32 in
        guard !state.closed else { return fail(badHandle) }
        do throws(HabitError) {
            try body(state.engine)
            ThreadError.clear()
            return HC_OK
        } catch {
            free(state.message)
            state.message = strdup(error.message)
            return fail(error)
        }
    }
    return status ?? fail(reentered)
}
