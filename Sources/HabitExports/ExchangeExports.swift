import CHabitCore
import HabitCore
import HabitEngine
import HabitPlatform

// Whole-store exports and imports (JSON, JSON Lines, Loop Habit Tracker, HabitBull),
// in memory and through files streamed record by record (since 1.1).

func layout(_ format: Int32) throws(HabitError) -> StoreDocument.Layout {
    guard let layout = StoreDocument.Layout(rawValue: format) else {
        throw .invalid("format \(format) is not HC_FORMAT_JSON (1) or HC_FORMAT_JSONL (2)")
    }
    return layout
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
public func hc_store_export_loop_csv(
    _ out_habits_csv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ out_checkmarks_csv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ store: OpaquePointer?, _ to_day: Int32
) -> Int32 {
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
        try engine.importLoop(
            habitsCSV: try Convert.string(habits_csv, "habits_csv"),
            checkmarksCSV: try Convert.string(checkmarks_csv, "checkmarks_csv"))
    }
}

/// A C progress callback as the engine's TransferProgress (nil: none).
func transferProgress(_ callback: hc_transfer_progress?, _ userData: UnsafeMutableRawPointer?) -> TransferProgress? {
    guard let callback else { return nil }
    return { done, total in callback(done, total, userData) != 0 }
}

@c @implementation
public func hc_store_export_file(
    _ store: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ format: Int32,
    _ progress: hc_transfer_progress?, _ user_data: UnsafeMutableRawPointer?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.exportFile(
            path: try Convert.string(path, "path"), layout: try layout(format),
            progress: transferProgress(progress, user_data))
    }
}

@c @implementation
public func hc_store_import_file(
    _ store: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ format: Int32,
    _ progress: hc_transfer_progress?, _ user_data: UnsafeMutableRawPointer?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.importFile(
            path: try Convert.string(path, "path"), layout: format == HC_FORMAT_DETECT ? nil : try layout(format),
            progress: transferProgress(progress, user_data))
    }
}
