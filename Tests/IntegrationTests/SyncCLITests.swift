import Foundation
import XCTest

/// habitctl sync as a person runs it: two store files, a state file, a changeset file
/// or a pipe, and the two-way sync of two files; exit codes for what is refused.
final class SyncCLITests: HabitctlTestCase {
    func testTwoStoresMergeThroughFilesAPipeAndWith() throws {
        let folder = (db as NSString).deletingLastPathComponent
        let other = folder + "/tablet.db"
        func tablet(_ args: String...) throws -> ProcessResult {
            try runProcess([Paths.habitctl, "--db", other] + args, environment: ["NO_COLOR": "1"])
        }
        XCTAssertSucceeded(try habitctl("habit", "add", "Read"), "add")
        XCTAssertSucceeded(try habitctl("log", "Read", "--date", "2026-01-02"), "log")
        XCTAssertSucceeded(try tablet("init"), "init tablet")
        // The tablet's state to a file; the phone's changes since it to a file; applied there.
        let state = try json(try tablet("--json", "sync", "state", "--out", folder + "/tablet.state"))
        XCTAssertEqual((state["known"] as? [Any])?.count, 0, "a new store has seen no writes")
        XCTAssertEqual((state["replica"] as? String)?.count, 32)
        XCTAssertSucceeded(try habitctl("sync", "changes", "--since", folder + "/tablet.state", "--out", folder + "/phone.changes"), "changes")
        let applied = try json(try tablet("--json", "sync", "apply", folder + "/phone.changes"))
        let summary = try XCTUnwrap(applied["applied"] as? [String: Any])
        XCTAssertEqual(summary["entries_added"] as? Int, 1)
        XCTAssertEqual(summary["waiting"] as? Int, 0)
        XCTAssertEqual((try json(try tablet("--json", "sync", "state"))["known"] as? [Any])?.count, 1, "now it has seen the phone's")
        // Again, from stdin: nothing new, said so.
        let again = try runProcess(["/bin/sh", "-c", "\"$0\" --db \"$1\" sync apply - < \"$2\"", Paths.habitctl, other, folder + "/phone.changes"])
        XCTAssertSucceeded(again, "apply again")
        XCTAssertTrue(again.stdout.contains("nothing new"), again.stdout)
        // Both log offline; one `sync with` merges both ways.
        XCTAssertSucceeded(try tablet("log", "Read", "--date", "2026-01-03"), "tablet log")
        XCTAssertSucceeded(try habitctl("log", "Read", "--date", "2026-01-04"), "phone log")
        let with = try json(try habitctl("--json", "sync", "with", other))
        XCTAssertEqual((with["received"] as? [String: Any])?["entries_added"] as? Int, 1)
        XCTAssertEqual((with["sent"] as? [String: Any])?["entries_added"] as? Int, 1)
        for date in ["2026-01-02", "2026-01-03", "2026-01-04"] {
            let days = try json(try tablet("--json", "days", "Read", "--from", date, "--to", date))
            XCTAssertTrue("\(days)".contains("done"), "\(date) on the tablet: \(days)")
        }
        let phoneState = try json(try habitctl("--json", "sync", "state"))
        let tabletState = try json(try tablet("--json", "sync", "state"))
        XCTAssertEqual(phoneState["state"] as? String, tabletState["state"] as? String, "the same history seen")
        // Both name both replicas, each held as far as its own store wrote.
        let known = try XCTUnwrap(phoneState["known"] as? [[String: Any]])
        XCTAssertEqual(Set(known.compactMap { $0["replica"] as? String }), Set([phoneState["replica"], tabletState["replica"]].compactMap { $0 as? String }))
        XCTAssertEqual(known.compactMap { $0["seq"] as? Int }.filter { $0 > 0 }.count, 2, "\(known)")
    }

    /// A proof's photo follows it only with --evidence, and reads back with proof evidence.
    func testAPhotoFollowsItsProofWithEvidence() throws {
        let folder = (db as NSString).deletingLastPathComponent
        let other = folder + "/tablet.db", photo = Paths.root + "/Tests/fixtures/bed.png"
        XCTAssertSucceeded(try habitctl("habit", "add", "Bed", "--start", "2020-01-01"), "add")
        _ = try habitctl("proof", "submit", "Bed", photo, "--keep-copy")
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", other, "init"]), "init tablet")
        XCTAssertSucceeded(try habitctl("sync", "with", other), "sync without evidence")
        XCTAssertEqual(
            try runProcess([Paths.habitctl, "--db", other, "proof", "evidence", "1", "--out", folder + "/none.bin"]).status, 3,
            "no photo without --evidence")
        // Evidence travels with the proofs a changeset carries: the tablet holds this proof
        // already, so its photo comes with everything (no --since), once.
        XCTAssertSucceeded(try habitctl("sync", "changes", "--evidence", "--out", folder + "/all.bin"), "changes with evidence")
        let applied = try json(try runProcess([Paths.habitctl, "--db", other, "--json", "sync", "apply", folder + "/all.bin"]))
        XCTAssertEqual((applied["applied"] as? [String: Any])?["proofs_changed"] as? Int, 1, "\(applied)")
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", other, "proof", "evidence", "1", "--out", folder + "/photo.bin"]), "evidence")
        XCTAssertEqual(FileManager.default.contents(atPath: folder + "/photo.bin"), FileManager.default.contents(atPath: photo))
        // A proof the tablet lacks brings its photo with sync with --evidence.
        _ = try habitctl("proof", "submit", "Bed", Paths.root + "/Tests/fixtures/bed-morning.jpg", "--keep-copy")
        XCTAssertSucceeded(try habitctl("sync", "with", other, "--evidence"), "sync with evidence")
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", other, "proof", "evidence", "2", "--out", folder + "/morning.bin"]), "evidence 2")
        XCTAssertEqual(
            FileManager.default.contents(atPath: folder + "/morning.bin"),
            FileManager.default.contents(atPath: Paths.root + "/Tests/fixtures/bed-morning.jpg"))
    }

    /// A negative amount (a correction) and a negative reading are entries like any
    /// other: the store that logged them goes on syncing, applying and exporting.
    func testANegativeAmountKeepsTheStoreSyncing() throws {
        let folder = (db as NSString).deletingLastPathComponent
        let other = folder + "/tablet.db"
        func tablet(_ args: String...) throws -> ProcessResult {
            try runProcess([Paths.habitctl, "--db", other] + args, environment: ["NO_COLOR": "1"])
        }
        XCTAssertSucceeded(try habitctl("habit", "add", "Water", "--kind", "counter", "--target", "8"), "add Water")
        XCTAssertSucceeded(try habitctl("habit", "add", "Weight", "--kind", "measurement"), "add Weight")
        XCTAssertSucceeded(try tablet("init"), "init tablet")
        XCTAssertSucceeded(try habitctl("log", "Water", "3"), "log 3")
        XCTAssertSucceeded(try habitctl("log", "Water", "-1"), "log -1")
        XCTAssertSucceeded(try habitctl("log", "Weight", "-0.5"), "a reading below zero")
        XCTAssertSucceeded(try habitctl("sync", "with", other), "sync with")
        XCTAssertEqual(try habitctl("sync", "canonical").stdout, try tablet("sync", "canonical").stdout)
        XCTAssertTrue(try tablet("sync", "canonical").stdout.contains("value=-1.0"))
        // Later writes, a changeset file and the other direction all go on.
        XCTAssertSucceeded(try habitctl("log", "Water", "2"), "log 2")
        XCTAssertSucceeded(try habitctl("sync", "changes", "--out", folder + "/phone.changes"), "changes")
        XCTAssertSucceeded(try tablet("sync", "apply", folder + "/phone.changes"), "apply")
        XCTAssertSucceeded(try tablet("log", "Water", "-2"), "tablet log -2")
        XCTAssertSucceeded(try habitctl("sync", "with", other), "sync with again")
        XCTAssertEqual(try habitctl("sync", "canonical").stdout, try tablet("sync", "canonical").stdout)
        // The export of a store holding them imports.
        let exported = try habitctl("export", "--format", "jsonl")
        XCTAssertSucceeded(exported, "export")
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", folder + "/restored.db", "import", "-"], stdin: exported.stdout), "import")
    }

    func testRefusalsAndTheirExitCodes() throws {
        let folder = (db as NSString).deletingLastPathComponent
        XCTAssertSucceeded(try habitctl("habit", "add", "Read"), "add")
        XCTAssertSucceeded(try habitctl("sync", "changes", "--out", folder + "/all.changes"), "changes")
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: folder + "/all.changes"))
        bytes[bytes.count / 2] ^= 0x20
        FileManager.default.createFile(atPath: folder + "/damaged.changes", contents: bytes)
        let damaged = try habitctl("sync", "apply", folder + "/damaged.changes")
        XCTAssertEqual(damaged.status, 5, damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains("changeset"), damaged.stderr)
        XCTAssertEqual(try habitctl("sync", "apply", folder + "/missing").status, 3)
        // A file past the format's limit is refused by its size, before it is read: a
        // sparse gigabyte, and the same through a pipe (read only up to the limit).
        let huge = folder + "/huge.changes"
        FileManager.default.createFile(atPath: huge, contents: nil)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let tooLarge = try runProcess(["/usr/bin/time", "-f", "rss %M", Paths.habitctl, "--db", db, "sync", "apply", huge])
        XCTAssertEqual(tooLarge.status, 5, tooLarge.stderr)
        XCTAssertTrue(tooLarge.stderr.contains("larger than a changeset may be"), tooLarge.stderr)
        let rss = tooLarge.stderr.split(separator: "\n").first { $0.hasPrefix("rss ") }.flatMap { Int($0.dropFirst(4)) } ?? Int.max
        XCTAssertLessThan(rss, 64 * 1024, "peak RSS in KiB: the file was read")
        let piped = try runProcess(["/bin/sh", "-c", "head -c 300000000 /dev/zero | \"$0\" --db \"$1\" sync apply -", Paths.habitctl, db])
        XCTAssertEqual(piped.status, 5, piped.stderr)
        XCTAssertEqual(try habitctl("sync", "with", folder + "/missing.db").status, 3)
        XCTAssertEqual(try habitctl("sync", "changes", "--since", folder + "/all.changes").status, 5, "a changeset is not a state")
        XCTAssertEqual(try habitctl("sync", "frobnicate").status, 2)
        XCTAssertEqual(try habitctl("sync", "apply").status, 2)
        XCTAssertTrue(try habitctl("sync", "--help").stdout.contains("habitctl sync with OTHER_DB"))
    }

    /// A state and a changeset hold the store's whole history: written 0600, whatever the
    /// umask would allow, and over an existing file's wider mode too.
    func testStateAndChangesFilesArePrivate() throws {
        let folder = (db as NSString).deletingLastPathComponent
        XCTAssertSucceeded(try habitctl("habit", "add", "Read"), "add")
        try "old".write(toFile: folder + "/existing.changes", atomically: false, encoding: .utf8)
        XCTAssertEqual(chmod(folder + "/existing.changes", 0o644), 0)
        for args in [
            ["sync", "state", "--out", folder + "/mine.state"], ["sync", "changes", "--out", folder + "/mine.changes"],
            ["sync", "changes", "--out", folder + "/existing.changes"],
        ] {
            // umask 022, as a login shell has it: a file made with the default mode is 0644.
            let run = try runProcess(["/bin/sh", "-c", "umask 022 && exec \"$@\"", "sh", Paths.habitctl, "--db", db] + args)
            XCTAssertSucceeded(run, "\(args)")
            var info = stat()
            XCTAssertEqual(stat(args[3], &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o600, "\(args)")
        }
    }
}
