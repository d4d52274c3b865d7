import CHabitCore
import HabitCore
import HabitEngine

// Exports and imports through files, streamed record by record (since 1.1).

/// A C progress callback as the engine's TransferProgress (nil: none).
func transferProgress(_ callback: hc_transfer_progress?, _ userData: UnsafeMutableRawPointer?) -> TransferProgress? {
    guard let callback else { return nil }
    return { done, total in callback(done, total, userData) != 0 }
}

@c @implementation
public func hc_store_export_file(_ store: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ format: Int32,
                                 _ progress: hc_transfer_progress?, _ user_data: UnsafeMutableRawPointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.exportFile(path: try Convert.string(path, "path"), layout: try layout(format),
                              progress: transferProgress(progress, user_data))
    }
}

@c @implementation
public func hc_store_import_file(_ store: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ format: Int32,
                                 _ progress: hc_transfer_progress?, _ user_data: UnsafeMutableRawPointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.importFile(path: try Convert.string(path, "path"), layout: format == HC_FORMAT_DETECT ? nil : try layout(format),
                              progress: transferProgress(progress, user_data))
    }
}
