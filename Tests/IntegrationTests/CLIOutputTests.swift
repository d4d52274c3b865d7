import Foundation
import XCTest

/// Every habitctl command with its output sent where it cannot go: /dev/full, a closed
/// descriptor. No crash, a non-zero exit wherever output was lost, and nothing done twice.
final class CLIOutputTests: XCTestCase {
    struct Case {
        var args: [String]
        var stdin: String? = nil
        var freshStore = false  // run against a store that does not exist yet
    }

    var folder = ""
    var pristine = ""

    override func setUpWithError() throws {
        folder = try temporaryDirectory()
        pristine = folder + "/pristine.db"
        let fixtures = Paths.root + "/Tests/fixtures"
        for args in [
            ["init"], ["habit", "add", "Read"], ["habit", "add", "Water", "--kind", "counter", "--target", "8"],
            ["habit", "add", "Smoke", "--kind", "quit", "--schedule", "weekly:2"],
            ["habit", "add", "Piano", "--kind", "duration", "--target", "600"], ["timer", "start", "Piano"],
            ["log", "Read"], ["log", "Water", "3"], ["vacation", "add", "2026-01-01", "2026-01-02"],
            ["credits", "sync-steps", "--steps", "5400"], ["credits", "spend", "10"],
            ["reminders", "add", "Water", "--at", "09:00"],
            ["shield", "add", "Morning", "--habits", "Read", "--start", "00:00", "--cutoff", "09:00", "--budget", "3/week"],
            ["plugin", "add", "--exec", Paths.root + "/examples/plugins/decode_check.py"],
            ["proof", "submit", "Read", fixtures + "/bed.png", "--keep-copy"],
        ] {
            let result = try runProcess([Paths.habitctl, "--db", pristine] + args)
            XCTAssertTrue(result.status == 0 || args.first == "proof", "\(args): \(result.stderr)")
        }
        // Another device's store, for sync with.
        XCTAssertEqual(try runProcess([Paths.habitctl, "--db", folder + "/other.db", "habit", "add", "Walk"]).status, 0)
    }

    var cases: [Case] {
        let fixtures = Paths.root + "/Tests/fixtures"
        let export = #"{"format":"habitcore","version":1,"habits":[],"entries":[]}"#
        return [
            Case(args: ["--version"]), Case(args: ["--help"]), Case(args: ["log", "--help"]),
            Case(args: ["init"]), Case(args: ["init"], freshStore: true),
            Case(args: ["habit", "add", "Walk"]), Case(args: ["habit", "list"]), Case(args: ["habit", "show", "Read"]),
            Case(args: ["habit", "edit", "Read", "--group", "evening"]), Case(args: ["habit", "archive", "Read"]),
            Case(args: ["log", "Read"]), Case(args: ["log", "Water", "3", "--key", "k1"]), Case(args: ["skip", "Water"]),
            Case(args: ["relapse", "Smoke", "--note", "party", "--amount", "2"]), Case(args: ["quit", "Smoke"]),
            Case(args: ["--json", "quit", "Smoke"]),
            Case(args: ["timer", "start", "Piano", "--auto"]), Case(args: ["timer", "pause", "Piano"]), Case(args: ["timer", "stop", "1"]),
            Case(args: ["timer", "status"]), Case(args: ["--json", "timer", "status", "1"]),
            Case(args: ["undo", "Read"]), Case(args: ["entries"]), Case(args: ["--json", "entries"]), Case(args: ["days", "Read"]),
            Case(args: ["export"]), Case(args: ["export", "--format", "jsonl"]), Case(args: ["backup", "{folder}/copy.db"]),
            Case(args: ["import", "-"], stdin: export, freshStore: true),
            Case(args: ["today"]), Case(args: ["streak", "Read"]), Case(args: ["streak", "--global"]), Case(args: ["stats", "Read"]),
            Case(args: ["heatmap"]), Case(args: ["vacation", "add", "2026-02-01", "2026-02-02"]), Case(args: ["vacation", "list"]),
            Case(args: ["vacation", "remove", "1"]),
            Case(args: ["credits", "sync-steps", "--steps", "6400"]), Case(args: ["credits", "spend", "5", "--reason", "games"]),
            Case(args: ["credits", "adjust", "3", "--reason", "fix"]), Case(args: ["credits", "balance"]), Case(args: ["credits", "day"]),
            Case(args: ["credits", "history"]), Case(args: ["credits", "rules"]), Case(args: ["credits", "account", "add", "kid"]),
            Case(args: ["credits", "rules", "set", "--steps-per-minute", "50"]),
            Case(args: ["awards"]), Case(args: ["awards", "progress"]), Case(args: ["awards", "evaluate"]),
            Case(args: ["awards", "catalog"]), Case(args: ["awards", "catalog", "--raw"]), Case(args: ["awards", "load", "--builtin"]),
            Case(args: ["referral", "code"]), Case(args: ["referral", "redeem", "k7m2-p9qr"]),
            Case(args: ["events"]), Case(args: ["events", "--ack"]), Case(args: ["changes"]), Case(args: ["changes", "--merged"]),
            Case(args: ["proof", "list"]), Case(args: ["proof", "policy", "--verifiers", "decode_check"]),
            Case(args: ["proof", "review", "1", "--approve", "--reason", "seen"]),
            Case(args: ["proof", "submit", "Read", fixtures + "/bed-morning.jpg"]),
            Case(args: ["plugin", "list"]), Case(args: ["plugin", "test", "decode_check", fixtures + "/bed.png"]),
            Case(args: ["plugin", "configure", "decode_check", "-"], stdin: "{}"),
            Case(args: ["plugin", "add", "--exec", Paths.root + "/examples/plugins/decode_check.py", "--id", "second"]),
            Case(args: ["plugin", "remove", "decode_check"]),
            Case(args: ["completions", "bash"]), Case(args: ["manual"]), Case(args: ["help", "log"]),
            Case(args: ["demo"], freshStore: true),
            // Streak rules, routines and sessions.
            Case(args: ["habit", "edit", "Read", "--miss-allowance", "1", "--open-day", "zero"]), Case(args: ["today", "--at", "07:30"]),
            Case(args: ["credits", "end", "1"]),
            // Reminders.
            Case(args: ["reminders", "add", "Read", "--at", "20:00"]), Case(args: ["reminders", "list"]),
            Case(args: ["reminders", "next", "--from", "now", "--to", "+1d"]),
            Case(args: ["reminders", "quiet", "22:00-07:00"]),
            // Shields.
            Case(args: ["shield", "add", "Evening", "--habits", "Read,Water", "--any", "--start", "21:00", "--cutoff", "05:00"]),
            Case(args: ["shield", "list"]), Case(args: ["shield", "state", "--at", "07:30"]), Case(args: ["--json", "shield", "state"]),
            Case(args: ["shield", "next", "--hours", "48"]), Case(args: ["shield", "emergency", "1", "--minutes", "5"]),
            Case(args: ["shield", "snapshot", folder + "/shields.json"]),
            Case(args: ["snapshot", "today", folder + "/today.json"]),
            // Display fields and the heatmap of one habit.
            Case(args: ["habit", "add", "Sit", "--question", "Sat?", "--colour", "#00897B", "--icon", "lotus", "--position", "2"]),
            Case(args: ["habit", "edit", "Read", "--description", "Twenty pages", "--color", ""]),
            Case(args: ["heatmap", "Read", "--svg", "{folder}/read.svg"]),
            // Sync.
            // (Binary on stdout reads back as no text here: the state and changes go to files or JSON.)
            Case(args: ["sync", "state", "--out", "{folder}/state.bin"]), Case(args: ["--json", "sync", "state"]),
            Case(args: ["--json", "sync", "changes"]), Case(args: ["sync", "changes", "--out", "{folder}/changes.bin"]),
            Case(args: ["sync", "apply", "-"], stdin: ""), Case(args: ["sync", "with", folder + "/other.db"]),
            Case(args: ["sync", "with", folder + "/other.db", "--evidence"]), Case(args: ["--json", "sync", "changes", "--evidence"]),
            Case(args: ["proof", "evidence", "1", "--out", "{folder}/photo.bin"]), Case(args: ["--json", "proof", "evidence", "1"]),
            // No server here: the hub's own tests (Hub*Tests) sync for real; these fail to connect, exit 6.
            Case(args: ["hub", "status", "--hub", "host=/nonexistent-hub dbname=x connect_timeout=1"]),
            Case(args: ["--json", "hub", "sync", "--hub", "host=/nonexistent-hub dbname=x connect_timeout=1"]),
            // Failures, whose only output is on stderr.
            Case(args: ["log", "Nobody"]), Case(args: ["frobnicate"]), Case(args: ["init", "--timezone", "Mars/Olympus"], freshStore: true),
        ]
    }

    /// Runs one case on its own copy of the store, with a shell redirection applied.
    func run(_ item: Case, redirect: String, tag: String) throws -> (ProcessResult, String) {
        let db = try temporaryDirectory() + "/\(tag).db"  // a folder of its own: nothing left from another run
        if !item.freshStore { try FileManager.default.copyItem(atPath: pristine, toPath: db) }
        // {folder}: the run's own folder, for commands that write a file of their own.
        let args = item.args.map { $0.replacingOccurrences(of: "{folder}", with: (db as NSString).deletingLastPathComponent) }
        let result = try runProcess(["/bin/sh", "-c", "\"$@\" \(redirect)", "sh", Paths.habitctl, "--db", db] + args, stdin: item.stdin)
        return (result, db)
    }

    /// The store's export with the clock readings taken out, to compare two runs' effects.
    func contents(_ db: String) throws -> String {
        guard FileManager.default.fileExists(atPath: db) else { return "(no store)" }
        let exported = try runProcess([Paths.habitctl, "--db", db, "export", "--format", "jsonl"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        // Times and the referral code (random, a settings row since exports carry every table) differ by run.
        return exported.stdout.replacingOccurrences(of: #""[a-z_]*(_ms|_date|code)":("[^"]*"|-?[0-9]+)"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""referral_code","value":"[^"]*""#, with: "", options: .regularExpression)
    }

    func testEveryCommandWithStdoutFullOrClosed() throws {
        for item in cases {
            let (normal, normalDB) = try run(item, redirect: "", tag: "normal")
            for redirect in [">/dev/full", ">&-"] {
                let (lost, lostDB) = try run(item, redirect: redirect, tag: "lost")
                let what = "\(item.args) \(redirect): \(lost.stderr)"
                XCTAssertFalse(lost.status > 128 && lost.status != 141, "crashed: " + what)
                if !normal.stdout.isEmpty && normal.status == 0 {
                    XCTAssertEqual(lost.status, 8, "output lost must not exit \(lost.status): " + what)
                    XCTAssertTrue(lost.stderr.contains("the output could not be written"), what)
                } else if !normal.stdout.isEmpty {
                    // A verdict (proof submit) gives way to 8; a failure keeps its own code.
                    XCTAssertTrue(lost.status == 8 || lost.status == normal.status, "\(lost.status): " + what)
                    XCTAssertNotEqual(lost.status, 0, what)
                } else {
                    XCTAssertEqual(lost.status, normal.status, what)
                }
                if item.args.first != "demo" {
                    XCTAssertEqual(try contents(lostDB), try contents(normalDB), "the same effect, done once: " + what)
                }
            }
        }
    }

    func testEveryCommandWithStderrFullOrClosed() throws {
        for item in cases {
            let (normal, _) = try run(item, redirect: "", tag: "normal")
            for redirect in ["2>/dev/full", "2>&-", ">/dev/full 2>/dev/full", ">&- 2>&-"] {
                let (lost, _) = try run(item, redirect: redirect, tag: "lost")
                let what = "\(item.args) \(redirect)"
                XCTAssertFalse(lost.status > 128 && lost.status != 141, "crashed: " + what)
                if redirect.hasPrefix("2") {
                    XCTAssertEqual(lost.status, normal.status, "stderr alone changes nothing: " + what)
                    XCTAssertEqual(lost.stdout, normal.stdout.isEmpty ? "" : lost.stdout, what)
                } else if !normal.stdout.isEmpty {
                    XCTAssertEqual(lost.status, normal.status == 0 ? 8 : lost.status, what)
                    XCTAssertNotEqual(lost.status, 0, what)
                }
            }
        }
    }

    /// The cases above cover every command `habitctl --help` lists, so a new command is
    /// added here too.
    func testTheCasesCoverEveryCommand() throws {
        let help = try runProcess([Paths.habitctl, "--help"]).stdout
        let section = help.components(separatedBy: "Commands:").last?.components(separatedBy: "Global options:").first ?? ""
        let commands = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let first = line.dropFirst(2).first, first.isLowercase else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        XCTAssertGreaterThan(commands.count, 15)
        let covered = Set(cases.compactMap { $0.args.first { !$0.hasPrefix("--") } })
        for command in commands { XCTAssertTrue(covered.contains(command), "no output case for '\(command)'") }
    }

    /// Past a file size limit (ulimit -f) habitctl says so and exits by its codes, never
    /// by SIGXFSZ: the store's write is refused before the commit (6, nothing logged),
    /// the output's after it (8, the entry logged).
    func testAFileSizeLimitIsAnErrorNotASignal() throws {
        let store = folder + "/limited.db"
        try FileManager.default.copyItem(atPath: pristine, toPath: store)
        let count = { () throws -> Int in
            let listed = try runProcess([Paths.habitctl, "--db", store, "--json", "entries", "Read", "--from", "2026-01-01", "--to", "2026-01-31"]).stdout
            let object = try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any]
            return (object?["entries"] as? [Any])?.count ?? -1
        }
        let before = try count()
        let refused = try runProcess([
            "/bin/bash", "-c", "ulimit -f 1; exec \"$@\" > /dev/null", "sh", Paths.habitctl, "--db", store, "log", "Read", "--date", "2026-01-10",
        ])
        XCTAssertEqual(refused.status, 6, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("File too large"), refused.stderr)
        XCTAssertEqual(try count(), before, "nothing was logged")
        // Output appended to a file already past a limit the store's writes stay under.
        let out = folder + "/out.txt"
        FileManager.default.createFile(atPath: out, contents: Data(count: 2 << 20))
        let lost = try runProcess(
            ["/bin/bash", "-c", "ulimit -f 1024; exec \"$@\" >> \"$OUT\"", "sh", Paths.habitctl, "--db", store, "log", "Read", "--date", "2026-01-11"],
            environment: ["OUT": out])
        XCTAssertEqual(lost.status, 8, lost.stderr)
        XCTAssertTrue(lost.stderr.contains("could not be written"), lost.stderr)
        XCTAssertEqual(try count(), before + 1, "the entry was logged")
    }

    func testAClosedPipeEndsQuietlyBySIGPIPE() throws {
        // The reader is gone before habitctl writes: the write raises SIGPIPE, as for cat.
        let result = try runProcess([
            "/bin/bash", "-c", "(sleep 0.3; exec \"$@\") | true; echo ${PIPESTATUS[0]}", "sh",
            Paths.habitctl, "--db", pristine, "--json", "entries",
        ])
        XCTAssertEqual(result.stdout, "141\n", "killed by SIGPIPE (128 + 13)")
        XCTAssertEqual(result.stderr, "")
    }
}
