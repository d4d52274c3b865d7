import CHabitCore
import HabitPlatform
import HabitCore
import HabitPlugins
import HabitEngine

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

private let badHandle = HabitError(.misuse, "invalid store handle: NULL, closed, or not from hc_store_open")

/// The header's rule for re-entrant calls, in its words.
private let reentryMessage: StaticString =
    "a call on this store from inside a callback the store is running is refused: the store is held by the call running the callback (use another handle, or call after it returns)"
private let reentered = HabitError(.misuse, reentryMessage.description)

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

@c @implementation
public func hc_store_open(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ path: UnsafePointer<CChar>?, _ flags: UInt32) -> Int32 {
    call { () throws(HabitError) in
        let out = try Convert.out(out, "out")
        let path = try Convert.string(path, "path")
        let known = HC_OPEN_READONLY | HC_OPEN_NOCREATE | HC_OPEN_SYNC_FULL
        guard flags & ~known == 0 else { throw .invalid("flags 0x\(String(flags, radix: 16)) has unknown bits") }
        let options = StoreOptions(readOnly: flags & HC_OPEN_READONLY != 0, create: flags & HC_OPEN_NOCREATE == 0,
                                    syncFull: flags & HC_OPEN_SYNC_FULL != 0)
        let engine = try Engine(path: path, options: options)
        out.pointee = Registry.retain(StoreHandle(engine: engine), .store)
    }
}

@c @implementation
public func hc_store_close(_ store: OpaquePointer?) -> Int32 {
    guard let store else { return HC_OK }
    guard let handle = Registry.object(UnsafeRawPointer(store), .store, as: StoreHandle.self) else { return fail(badHandle) }
    // The handle is forgotten under its lock, so a close refused from inside one of
    // its callbacks leaves it open and usable.
    let status = handle.withLock { state -> Int32 in
        guard Registry.release(UnsafeRawPointer(store), .store, as: StoreHandle.self) != nil else { return fail(badHandle) }
        state.engine.close()
        state.closed = true
        return HC_OK
    }
    return status ?? fail(reentered)
}

@c @implementation
public func hc_process_disable_sqlite_statistics() -> Int32 {
    call { () throws(HabitError) in try Engine.disableSQLiteMemoryStatistics() }
}

@c @implementation
public func hc_store_set_busy_timeout(_ store: OpaquePointer?, _ ms: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.store.setBusyTimeout(ms) }
}

@c @implementation
public func hc_store_errmsg(_ store: OpaquePointer?) -> UnsafePointer<CChar>? {
    guard let handle = Registry.object(UnsafeRawPointer(store), .store, as: StoreHandle.self) else {
        return CText.pointer("invalid store handle: NULL, closed, or not from hc_store_open")
    }
    // The message lives until the next call on this handle replaces it. From inside
    // one of its callbacks every call on the handle is refused, so that refusal is it.
    return handle.withLock { state in state.message.map { UnsafePointer($0) } ?? CText.empty } ?? CText.pointer(reentryMessage)
}
