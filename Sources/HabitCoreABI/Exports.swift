import CHabitCore
import HabitPlatform
import HabitCore
import HabitEngine

// Versions, status words, dates, store settings and transactions.

// hc_version_number, hc_version_string and the hc_<struct>_init functions are C
// (Sources/HabitCoreDefaults), where the header's macros can be read.

@c @implementation
public func hc_abi_version() -> Int32 { HC_ABI_VERSION }

@c @implementation
public func hc_status_string(_ status: Int32) -> UnsafePointer<CChar>? { CText.statusName(status) }

@c @implementation
public func hc_last_error_message() -> UnsafePointer<CChar>? { ThreadError.message }

@c @implementation
public func hc_free(_ ptr: UnsafeMutableRawPointer?) {
    if Registry.remove(ptr, .string) { free(ptr) }
}

@c @implementation
public func hc_date_parse(_ out_day: UnsafeMutablePointer<Int32>?, _ text: UnsafePointer<CChar>?) -> Int32 {
    call { () throws(HabitError) in
        let out = try Convert.out(out_day, "out_day")
        out.pointee = try CivilDate.parseDay(try Convert.string(text, "text"))
    }
}

@c @implementation
public func hc_date_format(_ buf: UnsafeMutablePointer<CChar>?, _ buf_size: Int32, _ day: Int32) -> Int32 {
    call { () throws(HabitError) in
        let buf = try Convert.out(buf, "buf")
        guard buf_size >= HC_DATE_BUFSIZE else { throw .invalid("buf_size \(buf_size) is below HC_DATE_BUFSIZE (11)") }
        let text = Array(try CivilDate.format(day).utf8CString)
        for (index, byte) in text.enumerated() { buf[index] = byte }
    }
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

func layout(_ format: Int32) throws(HabitError) -> StoreDocument.Layout {
    guard let layout = StoreDocument.Layout(rawValue: format) else {
        throw .invalid("format \(format) is not HC_FORMAT_JSON (1) or HC_FORMAT_JSONL (2)")
    }
    return layout
}

@c @implementation
public func hc_store_backup(_ store: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in try engine.store.backup(to: try Convert.string(path, "path")) }
}

@c @implementation
public func hc_store_export(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ store: OpaquePointer?, _ format: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        let text = try engine.export(layout: try layout(format))
        out.pointee = try Convert.ownedString(text)
    }
}

@c @implementation
public func hc_store_import(_ store: OpaquePointer?, _ text: UnsafePointer<CChar>?, _ format: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.importDocument(try Convert.string(text, "text"), layout: format == HC_FORMAT_DETECT ? nil : try layout(format))
    }
}

@c @implementation
public func hc_store_export_loop_csv(_ out_habits_csv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                     _ out_checkmarks_csv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                     _ store: OpaquePointer?, _ to_day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let habitsOut = try Convert.out(out_habits_csv, "out_habits_csv")
        let checkmarksOut = try Convert.out(out_checkmarks_csv, "out_checkmarks_csv")
        habitsOut.pointee = nil
        checkmarksOut.pointee = nil
        let tables = try engine.exportLoop(to: try Convert.day(to_day, "to_day"))
        let habits = try Convert.ownedString(tables.habits)
        do throws(HabitError) {
            checkmarksOut.pointee = try Convert.ownedString(tables.checkmarks)
        } catch {
            free(habits)
            throw error
        }
        habitsOut.pointee = habits
    }
}

@c @implementation
public func hc_store_import_loop_db(_ store: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let path = try Convert.string(path, "path")
        guard !path.isEmpty else { throw .invalid("path is empty") }
        try engine.importLoopBackup(path: path)
    }
}

@c @implementation
public func hc_store_import_habitbull_csv(_ store: OpaquePointer?, _ csv: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.importHabitBull(try Convert.string(csv, "csv"))
    }
}

@c @implementation
public func hc_store_import_loop_zip(_ store: OpaquePointer?, _ data: UnsafePointer<UInt8>?, _ size: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        guard let data else { throw .invalid("data is NULL") }
        guard size > 0, size <= 256 * 1024 * 1024 else { throw .invalid("size \(size) is outside 1...256 MiB") }
        try engine.importLoopArchive(Array(UnsafeBufferPointer(start: data, count: Int(size))))
    }
}

@c @implementation
public func hc_store_import_loop_csv(_ store: OpaquePointer?, _ habits_csv: UnsafePointer<CChar>?, _ checkmarks_csv: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.importLoop(habitsCSV: try Convert.string(habits_csv, "habits_csv"),
                              checkmarksCSV: try Convert.string(checkmarks_csv, "checkmarks_csv"))
    }
}
