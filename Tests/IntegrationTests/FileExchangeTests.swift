import CHabitCore
import Foundation
import HabitExports
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
            XCTAssertEqual(
                hc_store_export_file(store, path, HC_FORMAT_JSONL, Self.record, Unmanaged.passUnretained(reports).toOpaque()),
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

    func habitCount(_ store: OpaquePointer) -> Int {
        eachHabit(store) { _ in 0 }.count
    }

    func testImportFileGivesTheStoreImportOfTheTextGives() throws {
        let source = try richStore()
        defer { hc_store_close(source) }
        for format in [HC_FORMAT_JSON, HC_FORMAT_JSONL] {
            let path = dir + "/document-\(format)"
            ok(hc_store_export_file(source, path, format, nil, nil))
            let document = export(source, format)
            for given in [format, HC_FORMAT_DETECT] {
                // export -> import_file into a new store -> export: the same document.
                let target = try open("from-file-\(format)-\(given).db")
                let reports = Reports()
                let status = hc_store_import_file(target, path, given, Self.record, Unmanaged.passUnretained(reports).toOpaque())
                XCTAssertEqual(status, HC_OK, String(cString: hc_store_errmsg(target)))
                XCTAssertEqual(export(target, format), document, "format \(format) given as \(given)")
                let size = Int64(document.utf8.count)
                XCTAssertEqual(reports.calls.first?.done, 0)
                XCTAssertEqual(reports.calls.last?.done, size)
                XCTAssertTrue(reports.calls.allSatisfy { $0.total == size })
                XCTAssertEqual(reports.calls.map(\.done), reports.calls.map(\.done).sorted())
                hc_store_close(target)
            }
        }

        // A bad line: the same code and message as hc_store_import of the same text, nothing written.
        var lines = export(source, HC_FORMAT_JSONL).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[40] = lines[40].replacingOccurrences(of: "\"kind\":\"amount\"", with: "\"kind\":\"sideways\"")
        let bad = lines.joined(separator: "\n")
        try bad.write(toFile: dir + "/bad.jsonl", atomically: true, encoding: .utf8)
        let fromText = try open("bad-text.db"), fromFile = try open("bad-file.db")
        defer { hc_store_close(fromText); hc_store_close(fromFile) }
        XCTAssertEqual(hc_store_import(fromText, bad, HC_FORMAT_DETECT), HC_E_INVALID)
        XCTAssertEqual(hc_store_import_file(fromFile, dir + "/bad.jsonl", HC_FORMAT_DETECT, nil, nil), HC_E_INVALID)
        let message = String(cString: hc_store_errmsg(fromFile))
        XCTAssertTrue(message.hasPrefix("line 41: "), message)
        XCTAssertEqual(message, String(cString: hc_store_errmsg(fromText)))
        XCTAssertEqual(habitCount(fromFile), 0)

        // A cancel at any report (a JSON document's come as its records are written): nothing written.
        for format in [HC_FORMAT_JSONL, HC_FORMAT_JSON] {
            for cancelAt in [2, 3, 4] {
                let reports = Reports()
                reports.cancelAt = cancelAt
                let target = try open("cancelled-\(format)-\(cancelAt).db")
                defer { hc_store_close(target) }
                let status = hc_store_import_file(
                    target, dir + "/document-\(format)", format, Self.record,
                    Unmanaged.passUnretained(reports).toOpaque())
                if reports.calls.count >= cancelAt {
                    XCTAssertEqual(status, HC_E_CANCELLED)
                    XCTAssertEqual(habitCount(target), 0)
                } else {
                    XCTAssertEqual(status, HC_OK, "finished before report \(cancelAt)")
                }
            }
        }
        let cancelled = Reports()
        cancelled.cancelAt = 1
        let atOnce = try open("at-once.db")
        XCTAssertEqual(
            hc_store_import_file(
                atOnce, dir + "/document-\(HC_FORMAT_JSON)", HC_FORMAT_DETECT, Self.record,
                Unmanaged.passUnretained(cancelled).toOpaque()), HC_E_CANCELLED)
        hc_store_close(atOnce)

        // Files that are not documents.
        XCTAssertEqual(hc_store_import_file(fromFile, dir + "/missing.jsonl", HC_FORMAT_DETECT, nil, nil), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_store_import_file(fromFile, dir, HC_FORMAT_DETECT, nil, nil), HC_E_INVALID)
        try "\n\n".write(toFile: dir + "/blank.jsonl", atomically: true, encoding: .utf8)
        XCTAssertEqual(hc_store_import_file(fromFile, dir + "/blank.jsonl", HC_FORMAT_JSONL, nil, nil), HC_E_INVALID)
        XCTAssertEqual(String(cString: hc_store_errmsg(fromFile)), "no header line")
    }

    /// Runs habitctl with its stderr on a real pseudo-terminal (stdout a pipe) and
    /// answers what the terminal received, then the exit status on a line of its own.
    func onTerminal(_ arguments: [String]) throws -> String {
        let script = """
            import os, subprocess, sys
            master, slave = os.openpty()
            child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
            os.close(slave)
            seen = b""
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            sys.stdout.write(seen.decode() + "\\nstatus %d" % child.wait())
            """
        return try runProcess(["python3", "-c", script, Paths.habitctl] + arguments).stdout
    }

    func testHabitctlDrawsProgressOnATerminalAndIsSilentOtherwise() throws {
        let db = dir + "/cli.db"
        for args in [
            ["init"], ["habit", "add", "Read"], ["log", "Read"], ["habit", "add", "Water", "--kind", "counter", "--target", "8"],
            ["log", "Water", "3"],
        ] {
            XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db] + args), "\(args)")
        }
        let document = try runProcess([Paths.habitctl, "--db", db, "export", "--format", "jsonl"]).stdout
        let file = dir + "/out.jsonl"

        // A terminal: the line drawn in place from 0% to 100%, cleared, then the usual log line.
        let seen = try onTerminal(["--db", db, "export", "--format", "jsonl", "--output", file])
        XCTAssertTrue(seen.hasPrefix("\rexporting to \(file): 0%"), seen.debugDescription)
        let label = "exporting to \(file): 100%"
        XCTAssertTrue(seen.contains("\r" + label), seen.debugDescription)
        XCTAssertTrue(seen.contains("\r" + String(repeating: " ", count: label.count) + "\rexported to \(file)"), seen.debugDescription)
        XCTAssertTrue(seen.hasSuffix("status 0"), seen)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), document, "--output writes what stdout gets")

        let imported = try onTerminal(["--db", dir + "/cli-in.db", "import", file])
        XCTAssertTrue(imported.hasPrefix("\rimporting \(file): 0%"), imported.debugDescription)
        XCTAssertTrue(imported.contains("\rimporting \(file): 100%"), imported.debugDescription)
        XCTAssertTrue(imported.hasSuffix("status 0"), imported)
        XCTAssertEqual(try runProcess([Paths.habitctl, "--db", dir + "/cli-in.db", "export", "--format", "jsonl"]).stdout, document)

        // Not a terminal: not a byte of progress.
        let quiet = try runProcess([Paths.habitctl, "--db", db, "export", "--format", "json", "--output", dir + "/out.json"])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertEqual(quiet.stderr, "exported to \(dir)/out.json\n")
        let quietImport = try runProcess([Paths.habitctl, "--db", dir + "/quiet-in.db", "import", dir + "/out.json"])
        XCTAssertEqual(quietImport.status, 0)
        XCTAssertEqual(quietImport.stderr, "")
        XCTAssertEqual(quietImport.stdout, "imported; the store now has 2 habits\n")

        // A missing file or folder: the library's words and exit code.
        let missing = try runProcess([Paths.habitctl, "--db", db, "import", dir + "/missing.jsonl"])
        XCTAssertEqual(missing.status, 3, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("no such file"), missing.stderr)
        let noFolder = try runProcess([Paths.habitctl, "--db", db, "export", "--output", dir + "/no/such/x.json"])
        XCTAssertEqual(noFolder.status, 3, noFolder.stderr)
    }

    /// --output goes where the path points (AtomicOutput): a symbolic link's target is
    /// replaced and the link stays; a dangling link's target is created; a FIFO and a
    /// device are written through, never replaced by a regular file.
    func testExportOutputGoesWhereThePathPoints() throws {
        addTeardownBlock { [dir] in try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/cli.db"
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "habit", "add", "Read"]), "add")
        let document = try runProcess([Paths.habitctl, "--db", db, "export"]).stdout
        func export(to path: String) throws -> ProcessResult { try runProcess([Paths.habitctl, "--db", db, "export", "--output", path]) }
        func info(_ path: String) -> stat? { var info = stat(); return lstat(path, &info) == 0 ? info : nil }
        func kind(_ path: String) -> mode_t? { info(path).map { $0.st_mode & S_IFMT } }

        // Relative links, as ln -s makes them.
        try "old".write(toFile: dir + "/real.json", atomically: false, encoding: .utf8)
        XCTAssertEqual(symlink("real.json", dir + "/link.json"), 0)
        XCTAssertSucceeded(try export(to: dir + "/link.json"), "export to a link")
        XCTAssertEqual(kind(dir + "/link.json"), S_IFLNK, "the link stays a link")
        XCTAssertEqual(try String(contentsOfFile: dir + "/real.json", encoding: .utf8), document)
        XCTAssertEqual(symlink("made.json", dir + "/dangling.json"), 0)
        XCTAssertSucceeded(try export(to: dir + "/dangling.json"), "export to a dangling link")
        XCTAssertEqual(kind(dir + "/dangling.json"), S_IFLNK)
        XCTAssertEqual(kind(dir + "/made.json"), S_IFREG, "the file the link names is created")
        XCTAssertEqual(try String(contentsOfFile: dir + "/made.json", encoding: .utf8), document)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp-") }, [], "no temporary left")

        // A FIFO with a reader: opened here first (with a writer of ours, so neither open
        // waits), read on another thread, so the test ends even if habitctl replaced it.
        let fifo = dir + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0, String(cString: strerror(errno)))
        let readEnd = Glibc.open(fifo, O_RDONLY | O_NONBLOCK)
        let ourWriter = Glibc.open(fifo, O_WRONLY)
        XCTAssertGreaterThanOrEqual(readEnd, 0)
        XCTAssertGreaterThanOrEqual(ourWriter, 0)
        _ = fcntl(readEnd, F_SETFL, 0)
        nonisolated(unsafe) var received: [UInt8] = []
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(readEnd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                received += buffer[..<n]
            }
            done.signal()
        }
        let toFIFO = try export(to: fifo)
        close(ourWriter)
        done.wait()
        close(readEnd)
        XCTAssertSucceeded(toFIFO, "export to a FIFO")
        XCTAssertEqual(String(decoding: received, as: UTF8.self), document, "the reader got every byte")
        XCTAssertEqual(kind(fifo), S_IFIFO, "still a FIFO")

        // A character device with /dev/null's numbers, in the test's own folder.
        // makedev(1, 3), a macro Swift does not import: Linux keeps a small major in bits 8-19.
        let numbers: dev_t = 1 << 8 | 3
        let device = dir + "/null"
        guard mknod(device, S_IFCHR | 0o666, numbers) == 0 else {
            throw XCTSkip("mknod: \(String(cString: strerror(errno))) (the test runs as root in CI)")
        }
        XCTAssertSucceeded(try export(to: device), "export to a device")
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", db, "sync", "changes", "--out", device]), "sync changes to a device")
        XCTAssertEqual(kind(device), S_IFCHR, "still a character device")
        XCTAssertEqual(info(device)?.st_rdev, numbers)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp-") }, [], "no temporary left")
    }
}
