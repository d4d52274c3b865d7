import CHabitCore
import HabitCore
import HabitEngine

// The store: opening and closing, its settings (zone, day start), days and instants,
// transactions and backups.

@c @implementation
public func hc_store_open(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ path: UnsafePointer<CChar>?, _ flags: UInt32) -> Int32 {
    call { () throws(HabitError) in
        let out = try Convert.out(out, "out")
        let path = try Convert.string(path, "path")
        let known = HC_OPEN_READONLY | HC_OPEN_NOCREATE | HC_OPEN_SYNC_FULL
        try Convert.flags(flags, known: known)
        let options = StoreOptions(
            readOnly: flags & HC_OPEN_READONLY != 0, create: flags & HC_OPEN_NOCREATE == 0,
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

@c @implementation
public func hc_store_schema_version(_ out_version: UnsafeMutablePointer<Int32>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_version, "out_version")
        out.pointee = try engine.schemaVersion
    }
}

@c @implementation
public func hc_store_set_timezone(_ store: OpaquePointer?, _ tz: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.setTimezone(try Convert.string(tz, "tz")) }
}

@c @implementation
public func hc_store_timezone(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        out.pointee = try Convert.ownedString(try engine.timezoneName())
    }
}

@c @implementation
public func hc_store_set_day_start(_ store: OpaquePointer?, _ minutes: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.setDayStart(minutes) }
}

@c @implementation
public func hc_store_day_start(_ out_minutes: UnsafeMutablePointer<Int32>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_minutes, "out_minutes")
        out.pointee = try engine.dayStart()
    }
}

@c @implementation
public func hc_store_local_day(_ out_day: UnsafeMutablePointer<Int32>?, _ store: OpaquePointer?, _ utc_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_day, "out_day")
        out.pointee = try engine.localDay(utcMs: utc_ms)
    }
}

@c @implementation
public func hc_store_utc_ms(_ out_utc_ms: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ day: Int32, _ minute: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_utc_ms, "out_utc_ms")
        out.pointee = try engine.utcMs(day: day, minute: minute)
    }
}

@c @implementation
public func hc_store_today(_ out_day: UnsafeMutablePointer<Int32>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_day, "out_day")
        out.pointee = try engine.today()
    }
}

@c @implementation
public func hc_store_begin(_ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.begin() }
}

@c @implementation
public func hc_store_commit(_ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.commit() }
}

@c @implementation
public func hc_store_rollback(_ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.rollback() }
}

@c @implementation
public func hc_store_backup(_ store: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.store.backup(to: try Convert.string(path, "path")) }
}
