import CHabitCore
import Foundation
import XCTest

/// Nothing lost in a backup: a store that uses every capability, exported, imported
/// into an empty store and exported again gives the same document; hc_store_backup
/// copies the file. Real stores built with habitctl, real plugin verdicts.
final class BackupTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = try temporaryDirectory()
    }

    @discardableResult
    func habitctl(_ db: String, _ args: String..., stdin: String? = nil, allow: Set<Int32> = [0]) throws -> ProcessResult {
        try habitctl(db, arguments: args, stdin: stdin, allow: allow)
    }

    @discardableResult
    func habitctl(_ db: String, arguments args: [String], stdin: String? = nil, allow: Set<Int32> = [0]) throws -> ProcessResult {
        let result = try runProcess([Paths.habitctl, "--db", db] + args, environment: ["NO_COLOR": "1"], stdin: stdin)
        XCTAssertTrue(allow.contains(result.status), "\(args): \(result.status) \(result.stderr)")
        return result
    }

    /// A store with a bit of everything: settings, habits with schedules and streak
    /// policies, entries with keys and undos, vacations, credits (steps, spends, a
    /// session ended early, rules, a second account), awards unlocked and a custom
    /// rule, a referral redeemed, events acknowledged, proofs with verdicts,
    /// fingerprints, a kept copy, a review and policies, reminders with quiet hours,
    /// snoozes and deliveries.
    func buildEverything(_ db: String) throws {
        let fixtures = Paths.root + "/Tests/fixtures"
        try habitctl(db, "init", "--timezone", "Europe/Berlin", "--day-start", "03:00")
        try habitctl(db, "habit", "add", "Read", "--miss-allowance", "1", "--open-day", "zero")
        try habitctl(db, "habit", "add", "Water", "--kind", "counter", "--target", "8", "--unit", "glasses")
        try habitctl(db, "habit", "add", "Walk", "--kind", "measurement", "--unit", "steps")
        for date in ["2026-11-01", "2026-11-02", "2026-11-03"] { try habitctl(db, "log", "Read", "--date", date) }
        try habitctl(db, "log", "Water", "3", "--key", "sync-1")
        try habitctl(db, "log", "Water", "2")
        try habitctl(db, "undo", "Water")
        try habitctl(db, "skip", "Read", "--date", "2026-11-04")
        try habitctl(db, "vacation", "add", "2026-11-10", "2026-11-12")
        try habitctl(db, "credits", "sync-steps", "--steps", "5000")
        try habitctl(db, "credits", "rules", "set", "--habit", "Read", "--minutes", "10")
        try habitctl(db, "credits", "spend", "10", "--reason", "games")
        try habitctl(db, "credits", "end", "1")
        try habitctl(db, "credits", "account", "add", "kid")
        try habitctl(db, "awards", "evaluate")
        try habitctl(db, "referral", "code")
        try habitctl(db, "referral", "redeem", "k7m2-p9qr")
        try habitctl(db, "events", "--ack", "--limit", "2")
        try habitctl(db, "plugin", "add", "--exec", Paths.root + "/examples/plugins/decode_check.py")
        try habitctl(db, "plugin", "add", "--so", Paths.buildDir + "/libhabitcore_proofcheck.so", "--config", "-", stdin: "{\"min_side\": 32}")
        try habitctl(db, "proof", "policy", "Read", "--verifiers", "decode_check,proofcheck", "--many-per-day")
        try habitctl(db, "proof", "submit", "Read", fixtures + "/bed-morning.jpg", "--keep-copy", allow: [0, 10, 11, 12])
        try habitctl(db, "proof", "submit", "Read", fixtures + "/bed.png", allow: [0, 10, 11, 12])
        try habitctl(db, "proof", "review", "2", "--approve", "--reason", "seen it", allow: [0, 4])
        try habitctl(db, "reminders", "add", "Water", "--at", "09:00", "--message", "drink")
        try habitctl(db, "reminders", "quiet", "22:00-07:00")
        // The next two reminders, whatever today is: one fired, one snoozed.
        let next = try JSONSerialization.jsonObject(with: Data(try habitctl(db, "--json", "reminders", "next", "--from", "now", "--to", "+3d").stdout.utf8))
        let due = try XCTUnwrap((next as? [String: Any])?["reminders"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(due.count, 2)
        func field(_ index: Int, _ name: String) -> String { due.count > index ? "\(due[index][name] ?? "")" : "" }
        try habitctl(db, "reminders", "fired", field(0, "rule_id"), field(0, "date"), field(0, "at"))
        let at = (Int64(field(1, "at_ms")) ?? 0) + 600_000
        try habitctl(db, "reminders", "snooze", field(1, "rule_id"), field(1, "date"), field(1, "at"), "--until", Output.iso(at))
    }

    enum Output {
        /// UTC milliseconds as ISO 8601 ("2026-11-24T08:10:00Z").
        static func iso(_ ms: Int64) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
        }
    }

    func export(_ db: String, _ format: String) throws -> String {
        try habitctl(db, "export", "--format", format).stdout
    }

    func count(_ db: String, _ table: String) throws -> Int {
        Int(try runProcess(["sqlite3", db, "SELECT count(*) FROM \(table)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func testExportImportIntoAnEmptyStoreExportGivesTheSameDocument() throws {
        let original = dir + "/original.db"
        try buildEverything(original)
        // Every table a history lives in has rows, so the round trip below means something.
        for table in [
            "vacations", "credit_entries", "credit_steps", "credit_rules", "credit_accounts", "unlock_sessions", "session_ends",
            "award_unlocks", "referral_redemptions", "events", "event_acks", "proofs", "proof_verdicts", "proof_fingerprints",
            "proof_policies", "reminder_rules", "reminder_rule_versions", "quiet_hours", "reminder_snoozes",
            "reminder_deliveries", "streak_policies", "entry_keys",
        ] {
            XCTAssertGreaterThan(try count(original, table), 0, "the store uses \(table)")
        }
        for format in ["json", "jsonl"] {
            let document = try export(original, format)
            try document.write(toFile: dir + "/backup.\(format)", atomically: true, encoding: .utf8)
            let restored = dir + "/restored-\(format).db"
            try habitctl(restored, "import", dir + "/backup.\(format)", "--format", format)
            let again = try export(restored, format)
            XCTAssertEqual(again, document, "\(format): export -> import -> export")
            // What people see agrees too: streaks over the vacation, credits, awards.
            for view in [["streak", "Read"], ["credits", "day", "2026-11-23"], ["awards", "progress", "--date", "2026-11-23"], ["vacation", "list"]] {
                XCTAssertEqual(try habitctl(restored, arguments: view).stdout, try habitctl(original, arguments: view).stdout, "\(format) \(view)")
            }
            XCTAssertEqual(try count(restored, "plugins"), 0, "plugins are this machine's: left out")
        }
        XCTAssertTrue(try export(original, "json").contains("\"tables\""))
    }

    func testImportIntoAStoreWithHabitsStillMergesHabitsAndEntries() throws {
        let original = dir + "/original.db"
        try buildEverything(original)
        let document = try export(original, "jsonl")
        let other = dir + "/other.db"
        try habitctl(other, "init")
        try habitctl(other, "habit", "add", "Stretch")
        try habitctl(other, "import", "-", "--format", "jsonl", stdin: document)
        XCTAssertEqual(try count(other, "habits"), 4)
        XCTAssertEqual(try count(other, "vacations"), 0, "a merge adds habits and entries only")
    }

    func testABackupIsAConsistentPrivateCopyAndNeverOverwrites() throws {
        let original = dir + "/original.db"
        try buildEverything(original)
        try habitctl(original, "backup", dir + "/copy.db")
        var info = stat()
        XCTAssertEqual(stat(dir + "/copy.db", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(try export(dir + "/copy.db", "json"), try export(original, "json"))
        XCTAssertEqual(try count(dir + "/copy.db", "plugins"), 2, "a file backup keeps every table")
        XCTAssertEqual(try runProcess(["sqlite3", dir + "/copy.db", "PRAGMA integrity_check"]).stdout, "ok\n")
        try habitctl(original, "backup", dir + "/copy.db", allow: [4])
        try habitctl(original, "backup", dir + "/no/such/folder.db", allow: [3])

        // While another process writes: each copy is a committed state, never half of one.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "for i in $(seq 1 40); do \"$0\" --db \"$1\" log Water 1 >/dev/null || exit 1; done", Paths.habitctl, original]
        try writer.run()
        var store: OpaquePointer?
        XCTAssertEqual(hc_store_open(&store, original, 0), HC_OK)
        for index in 0..<5 {
            XCTAssertEqual(hc_store_backup(store, dir + "/live-\(index).db"), HC_OK, String(cString: hc_store_errmsg(store)))
            XCTAssertEqual(try runProcess(["sqlite3", dir + "/live-\(index).db", "PRAGMA integrity_check"]).stdout, "ok\n")
        }
        XCTAssertEqual(hc_store_backup(store, nil), HC_E_INVALID)
        XCTAssertEqual(hc_store_backup(store, ""), HC_E_INVALID)
        XCTAssertEqual(hc_store_backup(nil, dir + "/x.db"), HC_E_MISUSE)
        hc_store_close(store)
        writer.waitUntilExit()
        XCTAssertEqual(writer.terminationStatus, 0)
    }
}
