import CHabitCore
import Foundation
import HabitCoreABI
import XCTest

/// hc_store_export_file and hc_store_import_file: the same bytes and the same store
/// as the in-memory calls, through real files, with progress and cancelling.
final class FileExchangeTests: StoreTestCase {

    /// Every progress report, and whether to cancel at the n-th (0: never).
    final class Reports {
        var calls: [(done: Int64, total: Int64)] = []
        var cancelAt = 0
    }

    static let record: hc_transfer_progress = { done, total, userData in
        guard let userData else { return 0 }
        let reports = Unmanaged<Reports>.fromOpaque(userData).takeUnretainedValue()
        reports.calls.append((done, total))
        return reports.cancelAt > 0 && reports.calls.count >= reports.cancelAt ? 1 : 0
    }


    /// A store with every table a backup carries (BackupTests.buildEverything) and
    /// enough entries for several progress strides.
    func richStore() throws -> OpaquePointer {
        let builder = BackupTests(name: "buildEverything", testClosure: { _ in })
        builder.dir = dir
        try builder.buildEverything(dir + "/rich.db")
        let store = try open("rich.db")
        let habit = createHabit(store, "Bulk", kind: HC_KIND_COUNTER, target: 3, start: "2020-01-01")
        ok(hc_store_begin(store))
        for index in 0..<3000 { ok(append(store, habit, HC_ENTRY_AMOUNT, value: Double(index % 7), on: date(day("2020-01-01") + Int32(index % 900))).0) }
        ok(hc_store_commit(store))
        return store
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    }

    func testExportFileIsTheExportTextWrittenAtomicallyWithPacedProgress() throws {
        let store = try richStore()
        defer { hc_store_close(store) }
        for format in [HC_FORMAT_JSON, HC_FORMAT_JSONL] {
            let path = dir + "/export-\(format)"
            let reports = Reports()
            let status = hc_store_export_file(store, path, format, Self.record, Unmanaged.passUnretained(reports).toOpaque())
            XCTAssertEqual(status, HC_OK, String(cString: hc_store_errmsg(store)))
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), export(store, format), "byte for byte the same")
            var info = stat()
            XCTAssertEqual(stat(path, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o600)
            // From 0 to total, never backwards, and paced: a report per 512 records at most.
            let total = try XCTUnwrap(reports.calls.first?.total)
            XCTAssertGreaterThan(total, 3000)
            XCTAssertEqual(reports.calls.first?.done, 0)
            XCTAssertEqual(reports.calls.last?.done, total)
            XCTAssertTrue(reports.calls.allSatisfy { $0.total == total && $0.done <= total })
            XCTAssertEqual(reports.calls.map(\.done), reports.calls.map(\.done).sorted())
            XCTAssertLessThanOrEqual(reports.calls.count, Int(total) / 512 + 2)
            // Without a callback, the same bytes over the old file.
            XCTAssertEqual(hc_store_export_file(store, path, format, nil, nil), HC_OK)
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), export(store, format))
        }

        // A cancel, at the start or midway, leaves the old file as it was and no temporary file.
        let path = dir + "/kept.jsonl"
        try "old contents\n".write(toFile: path, atomically: true, encoding: .utf8)
        let before = try files()
        for cancelAt in [1, 2] {
            let reports = Reports()
            reports.cancelAt = cancelAt
            XCTAssertEqual(hc_store_export_file(store, path, HC_FORMAT_JSONL, Self.record, Unmanaged.passUnretained(reports).toOpaque()),
                           HC_E_CANCELLED)
            XCTAssertTrue(String(cString: hc_store_errmsg(store)).contains("cancelled"))
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old contents\n")
            XCTAssertEqual(try files(), before)
        }
        XCTAssertEqual(String(cString: hc_status_string(HC_E_CANCELLED)), "HC_E_CANCELLED: cancelled by a callback")

        // Bad arguments: clear codes, nothing created.
        XCTAssertEqual(hc_store_export_file(store, dir + "/no/such/folder.json", HC_FORMAT_JSON, nil, nil), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_store_export_file(store, "", HC_FORMAT_JSON, nil, nil), HC_E_INVALID)
        XCTAssertEqual(hc_store_export_file(store, nil, HC_FORMAT_JSON, nil, nil), HC_E_INVALID)
        XCTAssertEqual(hc_store_export_file(store, dir + "/x.json", 99, nil, nil), HC_E_INVALID)
        XCTAssertEqual(hc_store_export_file(store, dir + "/x.json", HC_FORMAT_DETECT, nil, nil), HC_E_INVALID)
        XCTAssertEqual(hc_store_export_file(nil, dir + "/x.json", HC_FORMAT_JSON, nil, nil), HC_E_MISUSE)
        XCTAssertEqual(hc_store_export_file(store, dir, HC_FORMAT_JSON, nil, nil), HC_E_IO, "a folder is not replaced")
        XCTAssertEqual(try files(), before)
    }
}
