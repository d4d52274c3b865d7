import CHabitCore

extension Store {
    /// The whole store as text in a format (hc_store_export): habits, entries and
    /// everything else docs/FORMATS.md lists; registered plugins are left out.
    /// Throws .invalid (a format that does not export).
    public func export(format: ExchangeFormat = .json) throws(HabitError) -> String {
        try withHandle { store throws(HabitError) in
            var text: UnsafeMutablePointer<CChar>?
            try check(hc_store_export(&text, store, format.rawValue))
            return takeString(text) ?? ""
        }
    }

    /// The export written to a file record by record (hc_store_export_file): the
    /// same bytes as export(format:), memory flat however large the store; the file
    /// appears at path whole or not at all. progress gets (records done, total) at
    /// most about 50 times a second, on this thread, and cancels by returning true
    /// (then path is left as it was); a call on this store from inside it throws
    /// .misuse. Throws .invalid,
    /// .notFound (no such folder), .io, .cancelled.
    public func export(to path: String, format: ExchangeFormat = .json, progress: TransferProgress? = nil) throws(HabitError) {
        try withHandle { store throws(HabitError) in
            try withTransferProgress(progress) { callback, userData throws(HabitError) in
                try check(hc_store_export_file(store, path, format.rawValue, callback, userData))
            }
        }
    }

    /// The store in Loop Habit Tracker's CSV format, as Loop's exporter writes it:
    /// Habits.csv and the top-level Checkmarks.csv, checkmarks up to a day (nil:
    /// today) (hc_store_export_loop_csv). Throws .invalid.
    public func exportLoopCSV(through day: Day? = nil) throws(HabitError) -> (habits: String, checkmarks: String) {
        try withHandle { store throws(HabitError) in
            var habits: UnsafeMutablePointer<CChar>?, checkmarks: UnsafeMutablePointer<CChar>?
            let status = hc_store_export_loop_csv(&habits, &checkmarks, store, day?.rawValue ?? noDay)
            let texts = (takeString(habits) ?? "", takeString(checkmarks) ?? "")
            try check(status)
            return texts
        }
    }

    /// A consistent copy of the whole store in a new file at path, created 0600,
    /// while others may keep writing (hc_store_backup). Throws .conflict (the file
    /// exists: never overwritten), .notFound (no such folder), .invalid, .io.
    public func backup(to path: String) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_store_backup(store, path)) }
    }

    /// Imports the store's own export, all or nothing (hc_store_import). Throws
    /// .invalid naming the line or element at fault, .conflict (a habit's name is
    /// active here), .corrupt, .readOnly.
    public func importText(_ text: String, format: ExchangeFormat = .detect) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_store_import(store, text, format.rawValue)) }
    }

    /// Imports the store's own export from a file, all or nothing (hc_store_import_file):
    /// as importText, with JSON Lines read and written a line at a time. progress gets
    /// (done, total) in the file's bytes (each record is written as read), on this
    /// thread, and cancels by returning true (nothing is written); a call on this store
    /// from inside it throws .misuse. Throws as importText,
    /// and .notFound (no such file), .cancelled.
    public func importFile(_ path: String, format: ExchangeFormat = .detect, progress: TransferProgress? = nil) throws(HabitError) {
        try withHandle { store throws(HabitError) in
            try withTransferProgress(progress) { callback, userData throws(HabitError) in
                try check(hc_store_import_file(store, path, format.rawValue, callback, userData))
            }
        }
    }

    /// Imports Loop Habit Tracker's CSV export, Habits.csv and Checkmarks.csv, all or
    /// nothing (hc_store_import_loop_csv). Throws as importText, naming file and line.
    public func importLoopCSV(habits: String, checkmarks: String) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_store_import_loop_csv(store, habits, checkmarks)) }
    }

    /// Imports the zip Loop Habit Tracker exports, all or nothing
    /// (hc_store_import_loop_zip). Throws .invalid (not Loop's zip, bad rows),
    /// .corrupt (a damaged archive), .conflict, .readOnly.
    public func importLoopZip(_ bytes: [UInt8]) throws(HabitError) {
        try withHandle { store throws(HabitError) in
            try check(bytes.withUnsafeBufferPointer { hc_store_import_loop_zip(store, $0.baseAddress, Int64($0.count)) })
        }
    }

    /// Imports Loop Habit Tracker's full backup database at path, all or nothing
    /// (hc_store_import_loop_db). Throws .invalid (not a Loop backup, bad rows),
    /// .tooNew, .conflict, .corrupt, .readOnly.
    public func importLoopDatabase(path: String) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_store_import_loop_db(store, path)) }
    }

    /// Imports HabitBull's CSV export, all or nothing (hc_store_import_habitbull_csv).
    /// Throws as importText, naming the line.
    public func importHabitBullCSV(_ csv: String) throws(HabitError) {
        try withHandle { store throws(HabitError) in try check(hc_store_import_habitbull_csv(store, csv)) }
    }
}

/// How far a long export or import has come: (done, total); return true to cancel.
public typealias TransferProgress = (_ done: Int64, _ total: Int64) -> Bool

/// The closure behind a C hc_transfer_progress, kept alive for the call.
private final class TransferProgressBox {
    let report: TransferProgress
    init(_ report: @escaping TransferProgress) { self.report = report }
}

private let relayTransferProgress: hc_transfer_progress = { done, total, userData in
    guard let userData else { return 0 }
    return Unmanaged<TransferProgressBox>.fromOpaque(userData).takeUnretainedValue().report(done, total) ? 1 : 0
}

/// Runs body with the C callback and user data for report (both nil without one).
private func withTransferProgress<T>(
    _ report: TransferProgress?,
    _ body: (hc_transfer_progress?, UnsafeMutableRawPointer?) throws(HabitError) -> T
) throws(HabitError) -> T {
    guard let report else { return try body(nil, nil) }
    let box = TransferProgressBox(report)
    defer { withExtendedLifetime(box) {} }
    return try body(relayTransferProgress, Unmanaged.passUnretained(box).toOpaque())
}
