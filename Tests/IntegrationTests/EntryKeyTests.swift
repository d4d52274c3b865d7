import CHabitCore
import Foundation
import XCTest

/// hc_entry_input.key through the C functions on a real store: a retried append appends
/// once, a caller built before the field existed is still served, names follow HabitName.
final class EntryKeyTests: StoreTestCase {
    func appendKeyed(_ store: OpaquePointer, _ habit: Int64, key: String?, size: Int = MemoryLayout<hc_entry_input>.size) -> (Int32, Int64) {
        var input = hc_entry_input()
        input.struct_size = UInt32(size)
        input.habit_id = habit
        input.kind = HC_ENTRY_DONE
        input.day = Int32.min
        input.source = HC_SOURCE_MANUAL
        var id: Int64 = 0
        let status = withOptionalCString(key) { pointer in
            input.key = pointer
            return hc_entry_append(&id, store, &input)
        }
        return (status, id)
    }

    func entryCount(_ store: OpaquePointer) -> Int64 {
        var list: OpaquePointer?
        ok(hc_entry_list_open(&list, store, 0, day("2000-01-01"), day("2100-01-01")))
        defer { hc_entry_list_free(list) }
        var count: Int64 = 0
        ok(hc_entry_list_count(&count, list))
        return count
    }

    func testTheSameKeyAppendsOnce() throws {
        let store = try open()
        defer { hc_store_close(store) }
        let read = createHabit(store, "Read"), walk = createHabit(store, "Walk")
        let first = appendKeyed(store, read, key: "req-1")
        XCTAssertEqual(first.0, HC_OK)
        XCTAssertEqual(appendKeyed(store, read, key: "req-1").1, first.1, "the retry returns the first entry's id")
        XCTAssertEqual(entryCount(store), 1)
        XCTAssertEqual(appendKeyed(store, walk, key: "req-1").0, HC_E_CONFLICT, "a key belongs to one habit's entry")
        XCTAssertEqual(appendKeyed(store, read, key: "").0, HC_E_INVALID)
        XCTAssertEqual(appendKeyed(store, read, key: String(repeating: "k", count: 201)).0, HC_E_INVALID)
        XCTAssertEqual(appendKeyed(store, read, key: nil).0, HC_OK)
        XCTAssertEqual(appendKeyed(store, read, key: nil).0, HC_OK, "without a key every append appends")
        XCTAssertEqual(entryCount(store), 3)
    }

    /// A store written by 0.2 (schema 6) opens, migrates to the latest schema, and behaves as before.
    func testASchemaSixStoreMigratesAndKeepsItsLedger() throws {
        let store = try open()
        let read = createHabit(store, "Read")
        ok(append(store, read, on: "2026-01-02").0)
        ok(hc_store_close(store))
        XCTAssertSucceeded(
            try runProcess([
                "sqlite3", dir + "/store.db",
                dropHabitDisplaySQL + dropShieldsSQL
                    + "DROP TABLE entry_keys; DROP TABLE session_ends; DROP TABLE streak_policies; DROP INDEX credit_entries_session; "
                    + "DROP TABLE reminder_deliveries; DROP TABLE reminder_snoozes; DROP TABLE quiet_hours; DROP TABLE reminder_rule_versions; "
                    + "DROP TABLE reminder_rules; DROP TABLE proof_runs; PRAGMA user_version = 6;",
            ]), "back to 6")
        let reopened = try open()
        defer { hc_store_close(reopened) }
        var version: Int32 = 0
        ok(hc_store_schema_version(&version, reopened))
        XCTAssertEqual(version, latestSchemaVersion)
        XCTAssertEqual(total(reopened, read, "2026-01-02"), 1, "the ledger survives the migration")
        XCTAssertEqual(entryCount(reopened), 1)
        let keyed = appendKeyed(reopened, read, key: "k")
        XCTAssertEqual(keyed.0, HC_OK)
        XCTAssertEqual(appendKeyed(reopened, read, key: "k").1, keyed.1)
        XCTAssertEqual(entryCount(reopened), 2)
    }

    /// -wal and -shm take the store file's permissions, whatever the umask.
    func testWalAndShmTakeTheStoreFilesMode() throws {
        ok(hc_store_close(try open()))
        chmod(dir + "/store.db", 0o660)
        let previous = umask(0o077)
        defer { umask(previous) }
        let store = try open()
        defer { hc_store_close(store) }
        _ = createHabit(store, "Read")  // a write: the -wal and -shm exist while the store is open
        for suffix in ["-wal", "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/store.db" + suffix)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o660, suffix)
        }
    }

    func testACallerBuiltBeforeTheKeyFieldIsServed() throws {
        let store = try open()
        defer { hc_store_close(store) }
        let read = createHabit(store, "Read")
        let oldSize = MemoryLayout<hc_entry_input>.offset(of: \hc_entry_input.key) ?? 0
        XCTAssertEqual(oldSize, 48)
        // The old struct ends before key: whatever lies past it is never read.
        XCTAssertEqual(appendKeyed(store, read, key: "ignored", size: oldSize).0, HC_OK)
        XCTAssertEqual(appendKeyed(store, read, key: "ignored", size: oldSize).0, HC_OK)
        XCTAssertEqual(entryCount(store), 2)
        XCTAssertEqual(appendKeyed(store, read, key: nil, size: 40).0, HC_E_INVALID, "a size no header ever had")
    }

    func testNamesAreNFCAndCaseFoldedForEveryFrontend() throws {
        let store = try open()
        defer { hc_store_close(store) }
        _ = createHabit(store, "Cafe\u{301}")
        var pointer: UnsafeMutablePointer<hc_habit>?
        ok(hc_habit_find(&pointer, store, "CAF\u{C9}"))
        XCTAssertEqual(pointer.map { Array(String(cString: $0.pointee.name).unicodeScalars) }, Array("Caf\u{E9}".unicodeScalars))
        hc_habit_free(pointer)
        var options = defaults(hc_habit_options_init)
        options.kind = HC_KIND_CHECKMARK
        options.target = 1
        options.direction = HC_DIRECTION_AT_LEAST
        options.start_day = day("2026-01-01")
        var id: Int64 = 0
        for (name, status) in [("CAFÉ", HC_E_CONFLICT), ("x\u{202E}y", HC_E_INVALID), ("Straße", HC_OK), ("STRASSE", HC_E_CONFLICT)] {
            let result = name.withCString {
                options.name = $0; return hc_habit_create(&id, store, &options)
            }
            XCTAssertEqual(result, status, name)
        }
    }
}
