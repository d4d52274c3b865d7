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

    private let lock = Lock()
    private var state: State

    init(engine: Engine) {
        state = State(engine: engine)
    }

    deinit {
        free(state.message)
    }

    func withLock<T>(_ body: (inout State) -> T) -> T {
        lock.locked { body(&state) }
    }
}

private let badHandle = HabitError(.misuse, "invalid store handle: NULL, closed, or not from hc_store_open")

/// Runs body with the engine behind a store handle, under the handle's lock;
/// a failure is recorded on the handle and on the thread.
func withStore(_ pointer: OpaquePointer?, _ body: (Engine) throws(HabitError) -> Void) -> Int32 {
    guard let handle = Registry.object(UnsafeRawPointer(pointer), .store, as: StoreHandle.self) else { return fail(badHandle) }
    return handle.withLock { state -> Int32 in
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
    guard let handle = Registry.release(UnsafeRawPointer(store), .store, as: StoreHandle.self) else { return fail(badHandle) }
    handle.withLock { state in
        state.engine.close()
        state.closed = true
    }
    return HC_OK
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
    // The message lives until the next call on this handle replaces it.
    return handle.withLock { state in state.message.map { UnsafePointer($0) } ?? CText.empty }
}
