import Foundation
import XCTest

/// habitctl as a shell script sees it: exit codes, stdout and stderr, --json, stdin.
final class CLITests: XCTestCase {
    var db = ""

    override func setUpWithError() throws {
        db = try temporaryDirectory() + "/cli.db"
    }

    @discardableResult
    func habitctl(_ args: String..., stdin: String? = nil) throws -> ProcessResult {
        try runProcess([Paths.habitctl, "--db", db] + args, environment: ["NO_COLOR": "1"], stdin: stdin)
    }

    func json(_ result: ProcessResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let document = try XCTUnwrap(object, result.stdout)
        XCTAssertEqual(document["schema_version"] as? Int, 1)
        return document
    }

    /// habitctl reaches the engine only through the library we ship: it links
    /// libhabitcore.so.1 (the SONAME), found beside it, and holds no engine code itself.
    func testHabitctlRunsTheShippedLibrary() throws {
        let linked = try runProcess(["ldd", Paths.habitctl])
        XCTAssertTrue(linked.stdout.contains("libhabitcore.so.1 => \(Paths.buildDir)/libhabitcore.so.1"), linked.stdout)
        let library = try runProcess(["readelf", "-d", Paths.library])
        XCTAssertTrue(library.stdout.contains("Library soname: [libhabitcore.so.1]"), library.stdout)
        let symbols = try runProcess(["nm", "-D", "--defined-only", Paths.habitctl])
        XCTAssertSucceeded(symbols, "nm")
        XCTAssertFalse(symbols.stdout.contains(" hc_"), "habitctl defines no hc_ function of its own")
        let undefined = try runProcess(["nm", "-D", "--undefined-only", Paths.habitctl])
        XCTAssertTrue(undefined.stdout.contains("hc_habit_create"), undefined.stdout)
    }

    func testAFullSessionWithJSONOutput() throws {
        XCTAssertSucceeded(try habitctl("init", "--timezone", "America/New_York", "--day-start", "03:00"), "init")
        let added = try json(
            try habitctl(
                "--json", "habit", "add", "Water", "--kind", "counter", "--target", "8",
                "--unit", "glasses", "--schedule", "days:fri,mon", "--start", "2026-03-01"))
        let habit = try XCTUnwrap(added["habit"] as? [String: Any])
        XCTAssertEqual(habit["schedule"] as? String, "days:mon,fri")
        XCTAssertEqual(habit["start_date"] as? String, "2026-03-01")
        XCTAssertSucceeded(try habitctl("log", "Water", "5", "--date", "2026-03-08"), "log 5")
        let logged = try json(try habitctl("--json", "log", "water", "-", "--date", "2026-03-08", stdin: "4\n"))
        XCTAssertEqual(logged["day_total"] as? Double, 9)
        XCTAssertSucceeded(try habitctl("undo", "Water", "--date", "2026-03-08"), "undo")
        let days = try json(try habitctl("--json", "days", "Water", "--from", "2026-03-07", "--to", "2026-03-08"))
        let rows = try XCTUnwrap(days["days"] as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["value"] as? Double }, [0, 5])
        let entries = try json(try habitctl("--json", "entries", "Water", "--from", "2026-03-08", "--to", "2026-03-08"))
        XCTAssertEqual((entries["entries"] as? [[String: Any]])?.map { $0["kind"] as? String }, ["amount", "amount", "undo"])
        let human = try habitctl("habit", "list")
        XCTAssertTrue(human.stdout.contains("#1 Water [counter ≥ 8 glasses, days:mon,fri, anytime]"), human.stdout)
        XCTAssertFalse(human.stdout.contains("\u{1B}["), "no colour codes when not a terminal")
    }

    func testExitCodesAndErrorsOnStderr() throws {
        XCTAssertSucceeded(try habitctl("habit", "add", "Read"), "add")
        let cases: [([String], Int32)] = [
            (["frobnicate"], 2), (["habit", "add"], 2), (["log", "Read", "--bogus"], 2),
            (["log", "Nobody"], 3), (["habit", "add", "read"], 4), (["log", "Read", "--date", "2026-02-30"], 5),
            (["log", "Read", "abc"], 5), (["habit", "add", "X", "--schedule", "weekly:9"], 5),
        ]
        for (args, code) in cases {
            let result = try runProcess([Paths.habitctl, "--db", db] + args)
            XCTAssertEqual(result.status, code, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stdout.isEmpty, "\(args) printed to stdout: \(result.stdout)")
            XCTAssertTrue(result.stderr.hasPrefix("habitctl: "), "\(args): \(result.stderr)")
        }
        try "not a database, certainly not a habitcore store, but long enough".write(toFile: db + ".bad", atomically: true, encoding: .utf8)
        let corrupt = try runProcess([Paths.habitctl, "--db", db + ".bad", "habit", "list"])
        XCTAssertEqual(corrupt.status, 6, corrupt.stderr)
    }

    /// clig.dev: a mistyped command or habit name gets the nearest one; colour follows
    /// NO_COLOR (only when non-empty) and TERM=dumb; completions for three shells.
    func testSuggestionsColourAndCompletions() throws {
        XCTAssertSucceeded(try habitctl("habit", "add", "Water"), "add")
        let command = try habitctl("stauts")
        XCTAssertEqual(command.status, 2)
        XCTAssertTrue(command.stderr.contains("unknown command 'stauts' (did you mean 'stats'?)"), command.stderr)
        let name = try habitctl("log", "Watr")
        XCTAssertEqual(name.status, 3)
        XCTAssertTrue(name.stderr.contains("(did you mean 'Water'?)"), name.stderr)
        let far = try habitctl("log", "Gym")
        XCTAssertEqual(far.status, 3)
        XCTAssertFalse(far.stderr.contains("did you mean"), far.stderr)
        let shell = try habitctl("completions", "bsh")
        XCTAssertEqual(shell.status, 2)
        XCTAssertTrue(shell.stderr.contains("(did you mean 'bash'?)"), shell.stderr)

        // On a terminal (script gives one): colour unless NO_COLOR is non-empty or TERM is dumb.
        XCTAssertSucceeded(try habitctl("log", "Water"), "log")
        func heatmap(_ environment: String) throws -> String {
            let line = "\(environment) '\(Paths.habitctl)' --db '\(db)' heatmap --days 14"
            return try runProcess(["script", "-qec", line, "/dev/null"]).stdout
        }
        let escape = "\u{1B}["
        XCTAssertTrue(try heatmap("env -u NO_COLOR TERM=xterm").contains(escape), "colour on a terminal")
        XCTAssertTrue(try heatmap("env NO_COLOR= TERM=xterm").contains(escape), "an empty NO_COLOR asks for nothing")
        XCTAssertFalse(try heatmap("env NO_COLOR=1 TERM=xterm").contains(escape), "NO_COLOR=1")
        XCTAssertFalse(try heatmap("env -u NO_COLOR TERM=dumb").contains(escape), "TERM=dumb")
        XCTAssertFalse(try habitctl("heatmap", "--days", "14").stdout.contains(escape), "not a terminal")

        let zsh = try habitctl("completions", "zsh").stdout, fish = try habitctl("completions", "fish").stdout
        XCTAssertTrue(zsh.hasPrefix("#compdef habitctl") && zsh.contains("_values 'subcommand' add list show edit archive"), zsh)
        XCTAssertTrue(fish.contains("__fish_seen_subcommand_from habit' -a 'add list show edit archive'"), fish)
        for word in ["init", "log", "reminders", "completions"] {
            XCTAssertTrue(zsh.contains(word) && fish.contains(word), word)
        }
    }

    func testTodayStreakStatsHeatmapAndVacation() throws {
        XCTAssertSucceeded(try habitctl("init", "--week-start", "mon"), "init")
        XCTAssertSucceeded(
            try habitctl(
                "habit", "add", "Run", "--routine", "morning", "--schedule", "days:mon,wed,fri",
                "--start", "2026-10-05"), "add run")
        XCTAssertSucceeded(try habitctl("habit", "add", "Water", "--kind", "counter", "--target", "8", "--start", "2026-10-05"), "add water")
        // Four weeks of Mondays, Wednesdays and Fridays from Monday 2026-10-05, and water every day but one.
        for offset in 0..<28 {
            let date = offset < 27 ? String(format: "2026-10-%02d", offset + 5) : "2026-11-01"
            if [0, 2, 4].contains(offset % 7) { XCTAssertSucceeded(try habitctl("log", "Run", "--date", date), "log run") }
            if offset != 9 { XCTAssertSucceeded(try habitctl("log", "Water", "8", "--date", date), "log water") }
        }
        let streak = try json(try habitctl("--json", "streak", "Run", "--date", "2026-11-01"))
        let current = try XCTUnwrap((streak["streaks"] as? [String: Any])?["current"] as? [String: Any])
        XCTAssertEqual(current["length"] as? Int, 12)
        XCTAssertEqual(current["from"] as? String, "2026-10-05")
        let global = try json(try habitctl("--json", "streak", "--global", "--date", "2026-11-01"))
        XCTAssertEqual(
            ((global["perfect_days"] as? [String: Any])?["longest"] as? [String: Any])?["length"] as? Int, 18,
            "the water missed on the 14th splits 9 perfect days from 18")
        XCTAssertSucceeded(try habitctl("vacation", "add", "2026-10-14", "2026-10-14", "--habit", "Water"), "vacation")
        let water = try json(try habitctl("--json", "streak", "Water", "--date", "2026-11-01"))
        XCTAssertEqual(((water["streaks"] as? [String: Any])?["current"] as? [String: Any])?["length"] as? Int, 27)
        let today = try json(try habitctl("--json", "today", "--date", "2026-11-02"))
        XCTAssertEqual((today["due"] as? [[String: Any]])?.map { $0["name"] as? String }, ["Run", "Water"])
        XCTAssertEqual((today["due"] as? [[String: Any]])?.map { $0["state"] as? String }, ["pending", "pending"])
        let stats = try json(try habitctl("--json", "stats", "Water", "--date", "2026-11-01", "--days", "28"))
        XCTAssertEqual((stats["completion"] as? [String: Any])?["rate"] as? Double, 1.0, "the missed day is excused now")
        let svg = try temporaryDirectory() + "/heatmap.svg"
        let heatmap = try habitctl("heatmap", "--days", "28", "--date", "2026-11-01", "--svg", svg)
        XCTAssertSucceeded(heatmap, "heatmap")
        XCTAssertEqual(heatmap.stdout.split(separator: "\n").count, 8, "seven weekday rows and a legend")
        XCTAssertFalse(heatmap.stdout.contains("\u{1B}["), "no colour when not a terminal")
        let image = try String(contentsOfFile: svg, encoding: .utf8)
        XCTAssertTrue(image.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        XCTAssertTrue(image.hasSuffix("</svg>\n"))
        XCTAssertEqual(image.components(separatedBy: "<rect class=\"day\"").count - 1, 28)
        XCTAssertTrue(image.contains("<title>2026-10-14: 1/1 done</title>"), "the vacation day left only Run due")
    }

    func testHelpOnEveryCommand() throws {
        for command in [
            "init", "habit add", "habit list", "habit show", "habit edit", "habit archive", "log", "skip", "undo",
            "entries", "days", "export", "import", "demo", "today", "streak", "stats", "heatmap", "vacation",
        ] {
            let result = try runProcess([Paths.habitctl] + command.split(separator: " ").map(String.init) + ["--help"])
            XCTAssertSucceeded(result, "\(command) --help")
            XCTAssertTrue(result.stdout.hasPrefix("Usage: habitctl \(command)"), "\(command): \(result.stdout)")
        }
        let main = try runProcess([Paths.habitctl, "--help"])
        XCTAssertTrue(main.stdout.contains("Exit codes:"))
    }

    func testExportThenImportFromStdin() throws {
        XCTAssertSucceeded(try habitctl("habit", "add", "Walk", "--kind", "counter", "--target", "6000"), "add")
        XCTAssertSucceeded(try habitctl("log", "Walk", "5400", "--total", "--source", "health", "--date", "2026-03-08"), "log")
        let exported = try habitctl("export", "--format", "jsonl")
        XCTAssertSucceeded(exported, "export")
        let other = db + ".copy"
        let imported = try runProcess([Paths.habitctl, "--db", other, "import", "-", "--format", "jsonl"], stdin: exported.stdout)
        XCTAssertSucceeded(imported, "import")
        let again = try runProcess([Paths.habitctl, "--db", other, "export", "--format", "jsonl"])
        XCTAssertEqual(again.stdout, exported.stdout)
    }

    func testDemoRunsInATemporaryFolder() throws {
        let result = try runProcess([Paths.habitctl, "demo"])
        XCTAssertSucceeded(result, "demo")
        let lines = result.stdout.split(separator: "\n")
        XCTAssertLessThan(lines.count, 30, "the demo is a short tour: \(result.stdout)")
        for expected in [
            "logged 264 entries over 4 weeks", "(#266 cancels #265: nothing is deleted)",
            "photo of the made bed: approved by proofcheck (no_findings), the bed is done today",
            "the same photo again: rejected by proofcheck (reused_evidence)",
            "timer: Piano 07:00-07:32 with a 5-minute pause: 27 minutes focused, 1620 s counted to",
            "Make the bed ■■■■■–––■■■■■■■■■■■■■  streak 19 (longest 19, 3 excused)", "today 17:30 of 20:00",
            "due today: [x] Make the bed · [ ] Water 5 of 8 glasses · [ ] Read 17:30 of 20:00",
            "60 more refused; 34 min left", "read again: 0, each goes out once", "export: ",
        ] {
            XCTAssertTrue(result.stdout.contains(expected), "\(expected) in:\n\(result.stdout)")
        }
        let jsonResult = try runProcess([Paths.habitctl, "demo", "--json", "--db", db])
        let document = try json(jsonResult)
        XCTAssertEqual(document["entries_logged"] as? Int, 264)
        XCTAssertEqual(document["proof_verdicts"] as? [String], ["no_findings", "reused_evidence"])
        XCTAssertEqual(document["events_redelivered"] as? Int, 0)
        XCTAssertGreaterThan(document["events_delivered"] as? Int ?? 0, 0)
        XCTAssertGreaterThan(document["awards_unlocked"] as? Int ?? 0, 0)
    }

    func testDurationsReadAsMinutesAndSeconds() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Read", "--kind", "duration", "--target", "1200", "--start", "2026-10-01"), "habit add")
        XCTAssertSucceeded(try habitctl("log", "Read", "1050", "--date", "2026-11-02"), "log")
        XCTAssertSucceeded(try habitctl("log", "Read", "3725", "--date", "2026-11-01"), "log")
        let today = try habitctl("today", "--date", "2026-11-02")
        XCTAssertTrue(today.stdout.contains("Read  17:30 of 20:00"), today.stdout)
        let days = try habitctl("days", "Read", "--from", "2026-11-01", "--to", "2026-11-02")
        XCTAssertTrue(days.stdout.contains("2026-11-01  done     1:02:05"), days.stdout)
        XCTAssertTrue(days.stdout.contains("2026-11-02  -        17:30"), days.stdout)
        let stats = try habitctl("stats", "Read", "--date", "2026-11-02")
        XCTAssertTrue(stats.stdout.contains("[duration ≥ 20:00, daily"), stats.stdout)
    }

    /// A group's day both ways from the shell: Wednesday 2026-09-02, Read daily and
    /// Run weekly:3 in "Scholar", Run done Monday and Tuesday.
    func testGroupStatsGiveTheDayBothWays() throws {
        XCTAssertSucceeded(try habitctl("init", "--week-start", "mon"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Read", "--group", "Scholar", "--start", "2026-08-24"), "add read")
        XCTAssertSucceeded(try habitctl("habit", "add", "Run", "--group", "Scholar", "--schedule", "weekly:3", "--start", "2026-08-24"), "add run")
        for date in ["2026-08-31", "2026-09-01"] { XCTAssertSucceeded(try habitctl("log", "Run", "--date", date), "log run") }
        XCTAssertSucceeded(try habitctl("log", "Read", "--date", "2026-09-02"), "log read")
        let stats = try json(try habitctl("--json", "stats", "--group", "scholar", "--date", "2026-09-02"))
        XCTAssertEqual((stats["day_based"] as? [String: Any])?["rate"] as? Double, 1.0, "Read only: the quota habit is beside it")
        XCTAssertEqual((stats["due_until_met"] as? [String: Any])?["rate"] as? Double, 0.5)
        let quota = try XCTUnwrap((stats["quota"] as? [[String: Any]])?.first)
        XCTAssertEqual(quota["name"] as? String, "Run")
        XCTAssertEqual([quota["done"] as? Int, quota["required"] as? Int], [2, 3])
        XCTAssertEqual(quota["period_first"] as? String, "2026-08-31")
        let text = try habitctl("stats", "--group", "Scholar", "--date", "2026-09-02")
        XCTAssertTrue(text.stdout.contains("day rate 100% (1/1 day-based habits)"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Run  2/3 since 2026-08-31"), text.stdout)
        XCTAssertTrue(text.stdout.contains("all habits 50% (1/2, quota habits due until met)"), text.stdout)
        let missing = try habitctl("stats", "--group", "Nobody")
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("Nobody"), missing.stderr)
    }

    func testCreditsFromTheShell() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        let first = try json(try habitctl("--json", "credits", "sync-steps", "--steps", "5400"))
        XCTAssertEqual(first["earned_now"] as? Int, 54)
        let again = try json(try habitctl("--json", "credits", "sync-steps", "--steps", "5400"))
        XCTAssertEqual(again["earned_now"] as? Int, 0)
        let short = try habitctl("credits", "spend", "60", "--reason", "games")
        XCTAssertEqual(short.status, 7, "not enough credits has its own exit code")
        XCTAssertTrue(short.stderr.contains("54"), short.stderr)
        let spent = try json(try habitctl("--json", "credits", "spend", "20", "--reason", "games"))
        XCTAssertEqual(spent["unlocked"] as? Bool, true)
        let balance = try json(try habitctl("--json", "credits", "balance"))
        XCTAssertEqual(balance["available"] as? Int, 34)
        let day = try json(try habitctl("--json", "credits", "day"))
        XCTAssertEqual(day["steps"] as? Int, 5400)
        XCTAssertEqual(day["spent"] as? Int, 20)
        XCTAssertSucceeded(try habitctl("credits", "rules", "set", "--steps-per-minute", "50"), "rules set")
        let rules = try json(try habitctl("--json", "credits", "rules"))
        XCTAssertEqual((rules["rules"] as? [[String: Any]])?.first?["value"] as? Int, 50)
        let history = try json(try habitctl("--json", "credits", "history"))
        // Today's 5,400 steps are recounted at the new rate: 108 minutes, 54 more.
        XCTAssertEqual((history["entries"] as? [[String: Any]])?.map { $0["kind"] as? String }, ["earn", "spend", "earn"])
        XCTAssertEqual((history["entries"] as? [[String: Any]])?.last?["minutes"] as? Int, 54)
        XCTAssertEqual(try habitctl("credits", "sync-steps", "--steps", "-5").status, 5)
        XCTAssertEqual(try habitctl("credits", "spend", "ten").status, 5)
        XCTAssertEqual(try habitctl("credits", "fly").status, 2)
        XCTAssertEqual(try habitctl("credits", "balance", "--account", "nobody").status, 3)
    }

    func testAwardsReferralsAndEventsFromTheShell() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        let today = try XCTUnwrap(try json(try habitctl("--json", "today"))["date"] as? String)
        XCTAssertSucceeded(try habitctl("habit", "add", "Read", "--start", "2026-01-01"), "habit add")
        XCTAssertSucceeded(try habitctl("log", "Read"), "log")
        let awards = try json(try habitctl("--json", "awards"))
        let unlocked = try XCTUnwrap(awards["unlocked"] as? [[String: Any]])
        XCTAssertEqual(Set(unlocked.compactMap { $0["id"] as? String }), ["completions-1", "habits-1"])
        XCTAssertEqual(unlocked.first { $0["id"] as? String == "completions-1" }?["unlocked_date"] as? String, today)
        XCTAssertEqual(unlocked.first?["new"] as? Bool, true)
        let again = try json(try habitctl("--json", "awards"))
        XCTAssertEqual((again["unlocked"] as? [[String: Any]])?.compactMap { $0["new"] as? Bool }, [false, false])
        let progress = try json(try habitctl("--json", "awards", "progress"))
        let streak7 = try XCTUnwrap((progress["awards"] as? [[String: Any]])?.first { $0["id"] as? String == "streak-7" })
        XCTAssertEqual(streak7["value"] as? Int, 1)
        XCTAssertEqual(streak7["threshold"] as? Int, 7)

        // The catalogue out, edited by a script, and back in through stdin.
        let catalogue = try habitctl("awards", "catalog", "--raw")
        XCTAssertSucceeded(catalogue, "catalog --raw")
        XCTAssertSucceeded(
            try habitctl("awards", "load", "-", stdin: catalogue.stdout.replacingOccurrences(of: "\"Warming up\"", with: "\"Three!\"")),
            "load -")
        XCTAssertTrue(try habitctl("awards", "catalog").stdout.contains("Three!"))
        let bad = try habitctl(
            "awards", "load", "-", stdin: #"{"format":"habitcore-awards","version":1,"rules":[{"id":"x","title":"X","metric":"pushups","threshold":1}]}"#)
        XCTAssertEqual(bad.status, 5)
        XCTAssertTrue(bad.stderr.contains("rule 'x'") && bad.stderr.contains("field 'metric'"), bad.stderr)
        XCTAssertEqual(bad.stdout, "")
        XCTAssertSucceeded(try habitctl("awards", "load", "--builtin"), "load --builtin")

        let code = try XCTUnwrap(try json(try habitctl("--json", "referral", "code"))["code"] as? String)
        XCTAssertEqual(code.count, 8)
        XCTAssertEqual(try habitctl("referral", "redeem", code).status, 4, "one's own code is a conflict")
        XCTAssertSucceeded(try habitctl("referral", "redeem", "k7m2-p9qr"), "redeem")
        XCTAssertEqual(try habitctl("referral", "redeem", "K7M2P9QR").status, 4, "redeemed once")
        XCTAssertEqual(try habitctl("referral", "redeem", "nope").status, 5)

        let events = try json(try habitctl("--json", "events", "--ack"))
        let kinds = (events["events"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
        XCTAssertTrue(kinds.contains("target_reached") && kinds.contains("award_unlocked"), "\(kinds)")
        let cursor = try XCTUnwrap(events["cursor"] as? Int)
        XCTAssertEqual((try json(try habitctl("--json", "events", "--ack"))["events"] as? [Any])?.count, 0, "acknowledged events go once")
        XCTAssertEqual((try json(try habitctl("--json", "events", "--after", String(cursor)))["events"] as? [Any])?.count, 0)
        XCTAssertEqual(try habitctl("events", "--limit", "0").status, 5)
        XCTAssertEqual(try habitctl("awards", "fly").status, 2)
    }

    func testProofsFromTheShellExitWithTheVerdict() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Bed"), "habit add")
        let fixtures = Paths.root + "/Tests/fixtures"
        XCTAssertSucceeded(try habitctl("plugin", "add", "--exec", Paths.root + "/examples/plugins/decode_check.py"), "plugin add")
        XCTAssertSucceeded(try habitctl("plugin", "test", "decode_check", fixtures + "/bed.png"), "plugin test")
        XCTAssertEqual(try habitctl("proof", "submit", "Bed", fixtures + "/bed.png").status, 10, "no verifier in the policy yet: review")
        XCTAssertSucceeded(try habitctl("proof", "policy", "--verifiers", "decode_check"), "policy")
        XCTAssertEqual(try habitctl("proof", "submit", "Bed", fixtures + "/tiny.png").status, 11, "too small: rejected")
        let approved = try habitctl("--json", "proof", "submit", "Bed", fixtures + "/bed-morning.jpg")
        XCTAssertEqual(approved.status, 0, approved.stdout + approved.stderr)
        XCTAssertEqual(try json(approved)["outcome"] as? String, "approved")
        XCTAssertEqual(try habitctl("proof", "submit", "Bed", fixtures + "/bed-morning.jpg").status, 11, "reused")
        let list = try json(try habitctl("--json", "proof", "list", "Bed"))
        let reasons = (list["verdicts"] as? [[String: Any]])?.compactMap { $0["reason"] as? String } ?? []
        XCTAssertTrue(reasons.contains("reused_evidence") && reasons.contains("too_small") && reasons.contains("decoded"), "\(reasons)")
        XCTAssertEqual(try habitctl("proof", "review", "1", "--reject", "--reason", "not a bed").status, 0)
        XCTAssertEqual(try habitctl("proof", "review", "1", "--approve", "--reason", "again").status, 4, "decided once")
        XCTAssertEqual(try habitctl("proof", "review", "1", "--approve").status, 2, "a review needs a reason")
        XCTAssertEqual(try habitctl("plugin", "add", "--so", fixtures + "/README.md").status, 5)
        XCTAssertSucceeded(try habitctl("plugin", "remove", "decode_check"), "plugin remove")
        XCTAssertEqual(try habitctl("proof", "submit", "Nobody", fixtures + "/bed.png").status, 3, "not found: a failed call, not a verdict")
        XCTAssertEqual(try habitctl("proof", "submit", "Bed").status, 2, "usage")
        // Under --json the failure is a JSON object on stderr with its code and message.
        let missing = try habitctl("--json", "proof", "submit", "Nobody", fixtures + "/bed.png")
        XCTAssertEqual(missing.status, 3)
        XCTAssertEqual(missing.stdout, "")
        let object = try JSONSerialization.jsonObject(with: Data(missing.stderr.utf8)) as? [String: Any]
        let error = try XCTUnwrap(object?["error"] as? [String: Any], missing.stderr)
        XCTAssertEqual(object?["schema_version"] as? Int, 1)
        XCTAssertEqual(error["code"] as? String, "not_found")
        XCTAssertEqual(error["exit_code"] as? Int, 3)
        XCTAssertTrue((error["message"] as? String)?.contains("Nobody") ?? false, missing.stderr)
    }

    func testProofcheckIsAddedWithItsSettingsAndTheyCanBeChanged() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        let plugin = Paths.buildDir + "/libhabitcore_proofcheck.so"
        let photo = Paths.root + "/Tests/fixtures/bed-morning.jpg"  // 96x72
        XCTAssertEqual(try habitctl("plugin", "add", "--so", plugin, "--config", "-", stdin: "[1]").status, 5, "settings are an object")
        XCTAssertEqual((try json(try habitctl("--json", "plugin", "list"))["plugins"] as? [Any])?.count, 0, "nothing left registered")
        XCTAssertSucceeded(try habitctl("plugin", "add", "--so", plugin, "--config", "-", stdin: "{\"min_side\": 16}"), "add with settings")
        XCTAssertNotEqual(try json(try habitctl("--json", "plugin", "test", "proofcheck", photo))["reason"] as? String, "too_small")
        XCTAssertSucceeded(try habitctl("plugin", "configure", "proofcheck", "-", stdin: "{\"min_side\": 4000}"), "configure")
        XCTAssertEqual(try json(try habitctl("--json", "plugin", "test", "proofcheck", photo))["reason"] as? String, "too_small")
        let listed = try json(try habitctl("--json", "plugin", "list"))["plugins"] as? [[String: Any]]
        XCTAssertEqual((listed?.first?["config"] as? [String: Any])?["min_side"] as? Int, 4000)
        // The host stores any object; the plugin names what it does not know.
        XCTAssertSucceeded(try habitctl("plugin", "configure", "proofcheck", "-", stdin: "{\"min_sid\": 1}"), "configure a typo")
        let typo = try json(try habitctl("--json", "plugin", "test", "proofcheck", photo))
        XCTAssertEqual(typo["outcome"] as? String, "error")
        XCTAssertTrue((typo["message"] as? String ?? "").contains("min_sid"), "\(typo)")
        XCTAssertSucceeded(try habitctl("plugin", "configure", "proofcheck", "--clear"), "clear")
        XCTAssertEqual(try habitctl("plugin", "configure", "nobody", "--clear").status, 3)
    }
}
