import CHabitCore
import Foundation
import HabitCore
import XCTest

/// Loop's zip as Loop hands it over, written here by Python's zipfile (deflated, as
/// Java's ZipOutputStream writes, and stored), from the fixture's files.
final class LoopZipTests: StoreTestCase {
    /// Zips `files` (archive path -> text) into dir/name with the given zipfile method.
    func zip(_ name: String, _ files: [String: String], method: String = "ZIP_DEFLATED") throws -> String {
        let path = dir + "/" + name
        let manifest = dir + "/" + name + ".json"
        try JSONSerialization.data(withJSONObject: files).write(to: URL(fileURLWithPath: manifest))
        let script =
            "import json, sys, zipfile\n" + "files = json.load(open(sys.argv[1]))\n"
            + "with zipfile.ZipFile(sys.argv[2], 'w', compression=zipfile.\(method)) as z:\n"
            + "    for arcname in sorted(files): z.writestr(arcname, files[arcname])\n"
        XCTAssertSucceeded(try runProcess(["python3", "-c", script, manifest, path]), "python3 zipfile")
        return path
    }

    func fixtureFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        let root = LoopImportTests.export
        for relative in [
            "Habits.csv", "Checkmarks.csv", "Scores.csv", "001 Meditate/Checkmarks.csv", "001 Meditate/Scores.csv",
            "002 Wake up early/Checkmarks.csv", "002 Wake up early/Scores.csv",
        ] {
            files[relative] = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
        }
        return files
    }

    func strength(_ store: OpaquePointer, _ name: String, _ date: String) -> Double {
        var pointer: UnsafeMutablePointer<hc_habit>?
        ok(hc_habit_find(&pointer, store, name))
        let id = pointer?.pointee.id ?? 0
        hc_habit_free(pointer)
        var value = [-1.0]
        var count: Int64 = 0
        ok(hc_habit_strength(&value, 1, &count, store, id, day(date), day(date)))
        return value[0]
    }

    func testLoopsZipImportsAsItIsDeflatedOrStored() throws {
        for method in ["ZIP_DEFLATED", "ZIP_STORED"] {
            let path = try zip("Loop Habits CSV 2015-01-25 \(method).zip", try fixtureFiles(), method: method)
            let db = dir + "/\(method).db"
            XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "import", "--loop", path]), "import --loop zip")
            let store = try open("\(method).db")
            XCTAssertEqual(strength(store, "Wake up early", "2015-01-20"), 0.0995, accuracy: 0.00005, method)
            XCTAssertEqual(strength(store, "Wake up early", "2015-01-25"), 0.2557, accuracy: 0.00005, method)
            ok(hc_store_close(store))
        }
    }

    func testNotesComeWithTheirEntriesAndBadArchivesWriteNothing() throws {
        var files = try fixtureFiles()
        // Loop's per-habit file quotes notes with commas and quotes (CSVWriter).
        files["002 Wake up early/Checkmarks.csv"] =
            "Date,Value,Notes\n2015-01-25,YES_MANUAL,\"Up at 5:40, \"\"early\"\"\"\n" + "2015-01-24,NO,Sick\n2015-01-16,YES_MANUAL,\n"
        let store = try open()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try zip("notes.zip", files))))
        ok(hc_store_import_loop_zip(store, bytes, Int64(bytes.count)))
        var exported: UnsafeMutablePointer<CChar>?
        ok(hc_store_export(&exported, store, HC_FORMAT_JSONL))
        let text = exported.map { String(cString: $0) } ?? ""
        hc_free(exported)
        XCTAssertTrue(text.contains(#"Up at 5:40, \"early\""#), text)
        XCTAssertFalse(text.contains("Sick"), "a NO day has no entry to carry its note")

        // A damaged archive: one byte of the first entry's deflated data changed fails
        // inflating or its CRC-32; nothing is written.
        let other = try open("other.db")
        var damaged = bytes
        let dataStart = 30 + Int(bytes[26]) + Int(bytes[27]) << 8 + Int(bytes[28]) + Int(bytes[29]) << 8
        damaged[dataStart + 2] ^= 0x55
        let status = hc_store_import_loop_zip(other, damaged, Int64(damaged.count))
        XCTAssertTrue(status == HC_E_CORRUPT || status == HC_E_INVALID, "\(status)")
        XCTAssertTrue(String(cString: hc_store_errmsg(other)).contains("zip"), String(cString: hc_store_errmsg(other)))
        // A bad row names the entry and the line.
        files["Checkmarks.csv"] = (files["Checkmarks.csv"] ?? "") + "2015-02-30,UNKNOWN,YES_MANUAL,\n"
        let bad = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try zip("bad.zip", files))))
        XCTAssertEqual(hc_store_import_loop_zip(other, bad, Int64(bad.count)), HC_E_INVALID)
        XCTAssertTrue(String(cString: hc_store_errmsg(other)).hasPrefix("Checkmarks.csv line 12:"), String(cString: hc_store_errmsg(other)))
        XCTAssertEqual(eachHabit(other) { $0.id }, [], "nothing written")
        ok(hc_store_close(other))
        ok(hc_store_close(store))
    }
}
