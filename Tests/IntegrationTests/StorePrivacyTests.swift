import CHabitCore
import Foundation
import XCTest

/// New stores are private, bad paths are exit 6 with the reason, and a full disk
/// fails an append with HC_E_IO leaving the store intact: real files, real modes,
/// a real read-only mount and a real small file system (tmpfs in a mount namespace).
final class StorePrivacyTests: StoreTestCase {
    func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    func testANewStoreItsWALAndItsSharedMemoryAreOwnerOnly() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let store = try open("private.db")
        defer { hc_store_close(store) }
        _ = createHabit(store, "Weigh in")
        for suffix in ["", "-wal", "-shm"] {
            XCTAssertEqual(mode(dir + "/private.db" + suffix), 0o600, "private.db\(suffix)")
        }
    }

    /// A store made through a symbolic link to a file not made yet is owner-only too.
    func testAStoreMadeThroughADanglingLinkIsOwnerOnly() throws {
        let old = umask(0o022)
        defer { umask(old) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.db", withDestinationPath: dir + "/target.db")
        let store = try open("link.db")
        _ = createHabit(store, "Weigh in")
        hc_store_close(store)
        XCTAssertEqual(mode(dir + "/target.db"), 0o600)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.db"), dir + "/target.db", "still a link")
    }

    func testTheDefaultFolderIsOwnerOnly() throws {
        let home = dir + "/home"
        let result = try runProcess([Paths.habitctl, "init"], environment: ["HOME": home, "XDG_DATA_HOME": "", "HABITCORE_DB": ""])
        XCTAssertSucceeded(result, "init")
        XCTAssertEqual(mode(home + "/.local/share/habitcore"), 0o700)
        XCTAssertEqual(mode(home + "/.local/share/habitcore/habits.db"), 0o600)
        XCTAssertEqual(mode(home + "/.local/share"), 0o755, "folders above ours keep the usual mode")
    }

    func testADirectoryOrAnUnreadableFileIsExit6WithTheReason() throws {
        let folder = dir + "/a-folder"
        XCTAssertEqual(mkdir(folder, 0o755), 0)
        for command in [["init"], ["habit", "list"], ["log", "Water"]] {
            let result = try runProcess([Paths.habitctl, "--db", folder] + command)
            XCTAssertEqual(result.status, 6, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("is a directory"), result.stderr)
        }
        var store: OpaquePointer?
        XCTAssertEqual(hc_store_open(&store, folder, 0), HC_E_IO)

        // Unreadable: as a user who may not read it (root reads anything, so drop to nobody).
        let locked = dir + "/locked.db"
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", locked, "init"]), "init")
        XCTAssertEqual(chmod(dir, 0o755), 0)
        let asNobody = getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        for command in [["habit", "list"], ["log", "Water"]] {
            let result = try runProcess(asNobody + [Paths.habitctl, "--db", locked] + command)
            XCTAssertEqual(result.status, 6, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("ermission denied"), result.stderr)
        }
    }

    /// Runs a shell script in a mount namespace of its own (as root, or as root of a user namespace).
    func inMountNamespace(_ script: String) throws -> ProcessResult {
        let unshare = getuid() == 0 ? ["unshare", "-m"] : ["unshare", "-r", "-m"]
        return try runProcess(unshare + ["sh", "-c", "set -e\n" + script], environment: ["CTL": Paths.habitctl, "MNT": dir + "/mnt"])
    }

    func testAStoreOnAReadOnlyFileSystemIsExit6WithTheReason() throws {
        XCTAssertEqual(mkdir(dir + "/mnt", 0o755), 0)
        let result = try inMountNamespace(
            """
            mount -t tmpfs -o size=4m tmpfs "$MNT"
            "$CTL" --db "$MNT/store.db" init >/dev/null
            "$CTL" --db "$MNT/store.db" habit add Water >/dev/null
            mount -o remount,ro "$MNT"
            set +e
            "$CTL" --db "$MNT/store.db" log Water 2>&1; echo "log exit $?"
            "$CTL" --db "$MNT/new.db" init 2>&1; echo "init exit $?"
            "$CTL" --db "$MNT/store.db" habit list >/dev/null 2>&1; echo "list exit $?"
            """)
        XCTAssertTrue(result.stdout.contains("log exit 6") && result.stdout.contains("init exit 6"), result.stdout + result.stderr)
        XCTAssertEqual(result.stdout.components(separatedBy: "ead-only file system").count - 1, 2, result.stdout)
        XCTAssertTrue(result.stdout.contains("list exit 0"), "reading still works: \(result.stdout)")
    }

    /// A file system that fills up during an import's appends: HC_E_IO (exit 6), nothing
    /// written, the store intact, and the same import succeeds once there is room (3 MB:
    /// the 2,000 entries, their sync op log, and the write-ahead log of one transaction).
    func testAFullDiskDuringAnAppendIsAnIOErrorAndTheStoreStaysIntact() throws {
        XCTAssertEqual(mkdir(dir + "/mnt", 0o755), 0)
        // As `export --format jsonl` writes it.
        var lines = ["{\"type\":\"header\",\"format\":\"habitcore-store\",\"schema_version\":1,\"timezone\":\"UTC\",\"day_start_minutes\":0}"]
        lines.append(
            "{\"type\":\"habit\",\"id\":1,\"name\":\"Steps\",\"kind\":\"measurement\",\"target\":0,\"direction\":\"at_least\",\"group\":null,\"unit\":\"steps\","
                + "\"routine\":\"anytime\",\"proof_required\":false," + "\"start_date\":\"2020-01-01\",\"archived_date\":null,\"created_at_ms\":1577836800000,"
                + "\"schedules\":[{\"from\":\"2020-01-01\",\"schedule\":\"daily\"}]}")
        for day in 0..<2000 {
            lines.append(
                "{\"type\":\"entry\",\"id\":\(day + 1),\"habit_id\":1,\"date\":\"\(try dateText(day))\",\"kind\":\"amount\","
                    + "\"value\":\(day * 7 % 10000),\"recorded_at_ms\":\(1577836800000 + Int64(day) * 86_400_000),\"source\":\"manual\","
                    + "\"undoes\":null,\"note\":\"\(String(repeating: "walked ", count: 20))\"}")
        }
        try lines.joined(separator: "\n").write(toFile: dir + "/big.jsonl", atomically: true, encoding: .utf8)
        // The document is as the exporter writes it: check it imports where there is room.
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", dir + "/roomy.db", "import", dir + "/big.jsonl", "--format", "jsonl"]), "import with room")

        let result = try inMountNamespace(
            """
            mount -t tmpfs -o size=3m tmpfs "$MNT"
            "$CTL" --db "$MNT/store.db" init >/dev/null
            "$CTL" --db "$MNT/store.db" habit add Water >/dev/null
            "$CTL" --db "$MNT/store.db" log Water >/dev/null
            dd if=/dev/zero of="$MNT/filler" bs=4k 2>/dev/null || true
            rm -f "$MNT/filler"; dd if=/dev/zero of="$MNT/filler" bs=4k count=$(( $(stat -f -c %a "$MNT") - 40 )) 2>/dev/null
            set +e
            "$CTL" --db "$MNT/store.db" import "\(dir)/big.jsonl" --format jsonl 2>&1; echo "import exit $?"
            sqlite3 "$MNT/store.db" "PRAGMA integrity_check; SELECT count(*) FROM entries; SELECT count(*) FROM habits;"
            rm -f "$MNT/filler"
            "$CTL" --db "$MNT/store.db" import "\(dir)/big.jsonl" --format jsonl >/dev/null 2>&1; echo "roomy import exit $?"
            sqlite3 "$MNT/store.db" "SELECT count(*) FROM entries"
            """)
        let out = result.stdout
        XCTAssertTrue(out.contains("import exit 6"), out + result.stderr)
        XCTAssertTrue(out.contains("full"), "the reason is given: \(out)")
        XCTAssertTrue(out.contains("ok\n1\n1\n"), "integrity ok, the one entry and habit from before, nothing of the import: \(out)")
        XCTAssertTrue(out.contains("roomy import exit 0\n2001"), out)
    }

    func dateText(_ offset: Int) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(HC_DATE_BUFSIZE))
        var start: Int32 = 0
        ok(hc_date_parse(&start, "2020-01-01"))
        ok(hc_date_format(&buffer, Int32(buffer.count), start + Int32(offset)))
        return String(cString: buffer)
    }
}
