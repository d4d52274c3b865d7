import Foundation
import XCTest

/// What a script relies on: the habit it names is the habit it gets, a refused command
/// leaves nothing, a retry logs once, an import is checked like the writes it makes, and
/// a store one may not write can still be read.
final class CLITrustTests: XCTestCase {
    var folder = ""
    var db = ""

    override func setUpWithError() throws {
        folder = try temporaryDirectory()
        db = folder + "/trust.db"
    }

    @discardableResult
    func habitctl(_ args: String..., stdin: String? = nil) throws -> ProcessResult {
        try runProcess([Paths.habitctl, "--db", db] + args, stdin: stdin)
    }

    func entries(_ path: String? = nil) throws -> [[String: Any]] {
        let result = try runProcess([Paths.habitctl, "--db", path ?? db, "--json", "entries", "--from", "2000-01-01", "--to", "2100-01-01"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return document?["entries"] as? [[String: Any]] ?? []
    }

    // MARK: Habit references

    func testReferencesTable() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        // Ids 1..4: "Read", "2", "007", "+1"; "99" is id 5.
        for name in ["Read", "2", "007", "+1", "99"] { XCTAssertSucceeded(try habitctl("habit", "add", name), "add \(name)") }
        let table: [([String], Int32, Int?)] = [
            (["#1"], 0, 1), (["--id", "1"], 0, 1), (["--id=3"], 0, 3), (["Read"], 0, 1), (["read"], 0, 1),
            (["2"], 0, 2),  // id 2 and the name "2" are the same habit: not ambiguous
            (["007"], 0, 3),  // a name; no habit #7 exists
            (["#7"], 3, nil),  // an id, never the habit named "007"
            (["+1"], 0, 4),  // a word, not the number 1
            (["1"], 0, 1),  // id 1; no habit is named "1"
            (["99"], 0, 5),  // no habit #99: the habit named "99" (not "no habit with id 99")
            (["#99"], 3, nil),
            (["#0"], 3, nil),  // not an id: a name no habit has
            (["--id", "x"], 2, nil), (["--id", "0"], 2, nil), (["Nobody"], 3, nil),
        ]
        for (reference, status, habitId) in table {
            let result = try runProcess([Paths.habitctl, "--db", db, "--json", "habit", "show"] + reference)
            XCTAssertEqual(result.status, status, "\(reference): \(result.stderr)")
            if let habitId {
                let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                XCTAssertEqual((document?["habit"] as? [String: Any])?["id"] as? Int, habitId, "\(reference)")
            }
        }
        // A habit named "5" while habit #5 is "99": "5" is ambiguous, named both ways, and nothing is logged.
        XCTAssertSucceeded(try habitctl("habit", "add", "5"), "add 5")
        let ambiguous = try habitctl("log", "5")
        XCTAssertEqual(ambiguous.status, 4)
        XCTAssertTrue(ambiguous.stderr.contains("#5 is '99'") && ambiguous.stderr.contains("#6 is named '5'"), ambiguous.stderr)
        XCTAssertEqual(try entries().count, 0, "nothing logged on an ambiguous reference")
        XCTAssertSucceeded(try habitctl("log", "#6"), "#6")
        XCTAssertSucceeded(try habitctl("log", "--id", "5"), "--id 5")
        XCTAssertEqual(try entries().map { $0["habit_id"] as? Int }, [6, 5])
        // The rule is stated in --help.
        XCTAssertTrue(try runProcess([Paths.habitctl, "--help"]).stdout.contains("#7 (or --id 7) is always the habit with id 7"))
    }

    func testALoopImportOfHabitsNamedOneAndTwo() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Stretch"), "add")  // id 1
        let habits = folder + "/Habits.csv", checkmarks = folder + "/Checkmarks.csv"
        try """
        Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
        001,1,YES_NO,,,1,1,#FF8F00,,,,false
        002,2,YES_NO,,,1,1,#E64A19,,,,false
        """.write(toFile: habits, atomically: true, encoding: .utf8)
        try "Date,1,2\n2026-01-02,2,0\n2026-01-01,2,2\n".write(toFile: checkmarks, atomically: true, encoding: .utf8)
        XCTAssertSucceeded(try habitctl("import", "--loop", habits, checkmarks), "loop import")
        // Ids: 1 Stretch, 2 "1", 3 "2". "1" is id 1 and the name of #2: ambiguous. "2" is id 2 ("1") and the name of #3.
        XCTAssertEqual(try habitctl("log", "1").status, 4)
        XCTAssertEqual(try habitctl("log", "2").status, 4)
        let named = try runProcess([Paths.habitctl, "--db", db, "--json", "days", "#3", "--from", "2026-01-01", "--to", "2026-01-02"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(named.stdout.contains("\"name\":\"2\""), named.stdout)
        XCTAssertEqual(try entries().count, 3, "the three checks imported, nothing logged by the refused references")
    }

    // MARK: Names

    func testNamesTable() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        let cases: [(String, Int32, String)] = [
            ("Café", 0, "precomposed"),
            ("Cafe\u{301}", 4, "the same name decomposed"),
            ("CAFÉ", 4, "the same name in capitals"),
            ("Straße", 0, "sharp s"),
            ("STRASSE", 4, "full case folding: ß is ss"),
            ("straẞe", 4, "capital sharp s"),
            ("ΟΔΟΣ", 0, "Greek capitals"),
            ("οδος", 4, "final sigma folds to sigma"),
            ("evil\u{202E}gnp", 5, "a bidi override"),
            ("a\u{2066}b\u{2069}", 5, "bidi isolates"),
            ("zero\u{200B}width", 5, "a zero-width space"),
            ("soft\u{AD}hyphen", 5, "a soft hyphen"),
            ("\u{FEFF}bom", 5, "a byte order mark"),
            ("han\u{3164}gul", 5, "a Hangul filler"),
            ("👨‍👩‍👧", 0, "an emoji joined by ZWJ"),
            ("🏴󠁧󠁢󠁳󠁣󠁴󠁿", 0, "a flag spelled with tags"),
            ("می\u{200C}خواهم", 0, "ZWNJ, which Persian needs"),
            ("❤️", 0, "a variation selector"),
            (" lead", 5, "a leading space"),
        ]
        for (name, status, why) in cases {
            let result = try habitctl("habit", "add", name)
            XCTAssertEqual(result.status, status, "\(why): \(result.stderr)")
        }
        // Stored in NFC: the decomposed spelling finds the precomposed habit, and list shows NFC.
        let shown = try runProcess([Paths.habitctl, "--db", db, "--json", "habit", "show", "cafe\u{301}"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("\"name\":\"Caf\u{E9}\""), shown.stdout)
        XCTAssertSucceeded(try habitctl("habit", "add", "Ame\u{301}lie"), "decomposed name")
        let listed = try habitctl("--json", "habit", "list")
        XCTAssertTrue(listed.stdout.contains("Am\u{E9}lie"), "stored precomposed: \(listed.stdout)")
        XCTAssertFalse(listed.stdout.unicodeScalars.contains("\u{301}"), "no combining accent left: \(listed.stdout)")
        // Renaming follows the same rule.
        XCTAssertEqual(try habitctl("habit", "edit", "Straße", "--name", "CAFE\u{301}").status, 4)
        XCTAssertEqual(try habitctl("habit", "edit", "Straße", "--name", "x\u{202E}").status, 5)
    }

    func testImportedNamesFollowTheRuleWithTheLineNamed() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Straße"), "add")
        let header = #"{"type":"header","format":"habitcore-store","schema_version":1,"timezone":"UTC","day_start_minutes":0}"#
        func habit(_ id: Int, _ name: String) -> String {
            #"{"type":"habit","id":\#(id),"name":"\#(name)","kind":"checkmark","target":1,"direction":"at_least","group":null,"unit":null,"routine":"anytime","proof_required":false,"start_date":"2026-01-01","archived_date":null,"created_at_ms":1767225600000,"schedules":[{"from":"2026-01-01","schedule":"daily"}]}"#
        }
        let bidi = try habitctl("import", "-", stdin: [header, habit(1, "Fine"), habit(2, "evil\\u202Egnp")].joined(separator: "\n"))
        XCTAssertEqual(bidi.status, 5)
        XCTAssertTrue(bidi.stderr.contains("line 3") && bidi.stderr.contains("U+202E"), bidi.stderr)
        let twice = try habitctl("import", "-", stdin: [header, habit(1, "Café"), habit(2, "Cafe\\u0301")].joined(separator: "\n"))
        XCTAssertEqual(twice.status, 4, twice.stderr)
        let taken = try habitctl("import", "-", stdin: [header, habit(1, "STRASSE")].joined(separator: "\n"))
        XCTAssertEqual(taken.status, 4, taken.stderr)
        XCTAssertEqual(try json(try habitctl("--json", "habit", "list"))["habits"]?.count, 1, "nothing imported")
    }

    func json(_ result: ProcessResult) throws -> [String: [Any]] {
        (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?.compactMapValues { $0 as? [Any] } ?? [:]
    }

    // MARK: Refusals leave nothing

    func testARefusedInitCreatesNothing() throws {
        for args in [["--timezone", "Mars/Olympus"], ["--day-start", "25:00"], ["--week-start", "someday"]] {
            let result = try habitctl(["init"] + args)
            XCTAssertNotEqual(result.status, 0, "\(args)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder)
            XCTAssertEqual(left, [], "\(args) created \(left)")
        }
        XCTAssertSucceeded(try habitctl("init", "--timezone", "Europe/Berlin"), "init")
        // The store, and the -wal and -shm its writer keeps (persistent WAL).
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["trust.db", "trust.db-shm", "trust.db-wal"])
    }

    func habitctl(_ args: [String], stdin: String? = nil) throws -> ProcessResult {
        try runProcess([Paths.habitctl, "--db", db] + args, stdin: stdin)
    }

    func testAPathThatIsNotUTF8IsRefusedNeverAnotherFile() throws {
        // "caf\xE9.db" in Latin-1: passed as raw bytes through the shell.
        let result = try runProcess(["/bin/sh", "-c", "cd \"$1\" && \"$0\" --db \"$(printf 'caf\\351.db')\" init", Paths.habitctl, folder])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("not UTF-8") && result.stderr.contains("caf\\xe9.db"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [], "no file under any name")
        let environment = try runProcess(["/bin/sh", "-c", "cd \"$1\" && HABITCORE_DB=\"$(printf 'caf\\351.db')\" \"$0\" init", Paths.habitctl, folder])
        XCTAssertEqual(environment.status, 2, environment.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
    }

    // MARK: Retries

    func testLogWithAKeyTwiceLeavesOneEntry() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Water", "--kind", "counter", "--target", "8"), "add")
        let first = try habitctl("--json", "log", "Water", "3", "--key", "K")
        let again = try habitctl("--json", "log", "Water", "3", "--key", "K")
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(first.stdout, again.stdout, "the retry reports the first entry")
        XCTAssertEqual(try entries().count, 1)
        XCTAssertSucceeded(try habitctl("log", "Water", "3", "--key", "other"), "another key")
        XCTAssertSucceeded(try habitctl("log", "Water", "3"), "no key")
        XCTAssertEqual(try entries().count, 3)
        XCTAssertSucceeded(try habitctl("habit", "add", "Read"), "add")
        XCTAssertEqual(try habitctl("log", "Read", "--key", "K").status, 4, "a key names one habit's entry")
        XCTAssertEqual(try habitctl("log", "Water", "--key", "").status, 5)
        // The key travels through export and import: the imported store refuses it twice too.
        let exported = try habitctl("export", "--format", "jsonl")
        XCTAssertTrue(exported.stdout.contains("\"key\":\"K\""), exported.stdout)
        let copy = folder + "/copy.db"
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", copy, "import", "-"], stdin: exported.stdout), "import (layout detected)")
        XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", copy, "log", "Water", "3", "--key", "K"]), "retry in the copy")
        XCTAssertEqual(try entries(copy).count, 3, "the imported key still appends once")
        XCTAssertEqual(try runProcess([Paths.habitctl, "--db", copy, "export", "--format", "jsonl"]).stdout, exported.stdout)
    }

    func testTheSameKeyFromManyProcessesAtOnceLogsOnce() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Water", "--kind", "counter", "--target", "8"), "add")
        let result = try runProcess([
            "/bin/sh", "-c",
            """
            for i in 1 2 3 4 5 6 7 8; do "$0" --db "$1" log Water 1 --key same >/dev/null & done; wait
            """, Paths.habitctl, db,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(try entries().count, 1)
    }

    // MARK: Imports are checked like writes

    func testAnImportOfEachRecordKindOutOfRangeIsRefusedWithItsLineAndWritesNothing() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        let header = #"{"type":"header","format":"habitcore-store","schema_version":1,"timezone":"UTC","day_start_minutes":0}"#
        let habit =
            #"{"type":"habit","id":1,"name":"Walk","kind":"counter","target":100,"direction":"at_least","group":null,"unit":null,"routine":"anytime","proof_required":false,"start_date":"2026-01-01","archived_date":null,"created_at_ms":1767225600000,"schedules":[{"from":"2026-01-01","schedule":"daily"}]}"#
        let entry =
            #"{"type":"entry","id":1,"habit_id":1,"date":"2026-01-02","kind":"amount","value":5,"recorded_at_ms":1767312000000,"source":"import","undoes":null,"note":null}"#
        XCTAssertSucceeded(try habitctl("import", "-", stdin: [header, habit, entry].joined(separator: "\n")), "the valid document")
        XCTAssertSucceeded(try habitctl("habit", "edit", "Walk", "--name", "Walked"), "rename, so the documents below could import again")
        let before = try habitctl("export", "--format", "jsonl").stdout
        let broken: [(String, [String], String)] = [
            ("header day start", [header.replacingOccurrences(of: "\"day_start_minutes\":0", with: "\"day_start_minutes\":1440"), habit, entry], "line 1"),
            ("header time zone", [header.replacingOccurrences(of: "\"UTC\"", with: "\"Mars/Olympus\""), habit, entry], "header"),
            ("habit target", [header, habit.replacingOccurrences(of: "\"target\":100", with: "\"target\":1e13"), entry], "line 2"),
            ("habit created_at_ms", [header, habit.replacingOccurrences(of: "1767225600000", with: "-99999999999999999"), entry], "line 2"),
            (
                "habit start date", [header, habit.replacingOccurrences(of: "\"start_date\":\"2026-01-01\"", with: "\"start_date\":\"2026-02-30\""), entry],
                "line 2"
            ),
            ("entry date before year 1", [header, habit, entry.replacingOccurrences(of: "2026-01-02", with: "0000-12-31")], "line 3"),
            ("entry recorded_at_ms", [header, habit, entry.replacingOccurrences(of: "1767312000000", with: "999999999999999999")], "line 3"),
            ("entry value", [header, habit, entry.replacingOccurrences(of: "\"value\":5", with: "\"value\":1e300")], "line 3"),
            ("entry key", [header, habit, entry.replacingOccurrences(of: "\"note\":null", with: "\"note\":null,\"key\":\"\"")], "line 3"),
        ]
        for (what, lines, line) in broken {
            let result = try habitctl("import", "-", stdin: lines.joined(separator: "\n"))
            XCTAssertNotEqual(result.status, 0, what)
            XCTAssertTrue(result.stderr.contains(line), "\(what): \(result.stderr)")
            XCTAssertEqual(try habitctl("export", "--format", "jsonl").stdout, before, "\(what): nothing written")
        }
        XCTAssertSucceeded(
            try habitctl("import", "-", stdin: [header, habit, entry].joined(separator: "\n")),
            "the valid document still imports: each refusal above was its broken field")
    }

    func testImportReadsTheLayoutFromTheText() throws {
        XCTAssertSucceeded(try habitctl("init"), "init")
        XCTAssertSucceeded(try habitctl("habit", "add", "Read"), "add")
        XCTAssertSucceeded(try habitctl("log", "Read"), "log")
        let export = folder + "/backup"
        for format in ["json", "jsonl"] {
            XCTAssertSucceeded(try habitctl("export", "--format", format, "--output", export + "." + format), "export \(format)")
            let other = folder + "/\(format).db"
            XCTAssertSucceeded(try runProcess([Paths.habitctl, "--db", other, "import", export + "." + format]), "import \(format)")
            XCTAssertEqual(try entries(other).count, 1, format)
        }
    }

    // MARK: Reading without write access (as an unprivileged user: tests may run as root)

    func asNobody(_ args: [String], path: String) throws -> ProcessResult {
        try runProcess(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", Paths.habitctl, "--db", path] + args)
    }

    let readCommands: [[String]] = [
        ["habit", "list"], ["habit", "show", "Read"], ["entries"], ["days", "Read"], ["export"], ["today"], ["streak", "Read"],
        ["stats", "Read"], ["heatmap"], ["vacation", "list"], ["credits", "balance"], ["credits", "history"], ["credits", "rules"],
        ["awards", "progress"], ["awards", "catalog"], ["awards"], ["events"], ["referral", "code"], ["proof", "list"], ["plugin", "list"],
    ]

    func makeStore(in dir: String, owner: Bool) throws -> String {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(folder, 0o755)
        let path = dir + "/store.db"
        for args in [["init"], ["habit", "add", "Read"], ["log", "Read"], ["referral", "code"]] {
            let result = owner ? try asNobody(args, path: path) : try runProcess([Paths.habitctl, "--db", path] + args)
            XCTAssertEqual(result.status, 0, "\(args): \(result.stderr)")
        }
        return path
    }

    func testAStoreInAReadOnlyFolderCanBeRead() throws {
        if getuid() != 0 { throw XCTSkip("needs root to become user 65534") }
        let dir = folder + "/readonly"
        let path = try makeStore(in: dir, owner: false)
        chmod(path, 0o644)
        chmod(dir, 0o555)
        // The writer kept its (emptied) -wal and its -shm (persistent WAL), root's, 0600.
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(files, ["store.db", "store.db-shm", "store.db-wal"])
        for args in readCommands {
            let result = try asNobody(args, path: path)
            XCTAssertEqual(result.status, 0, "\(args): \(result.stderr)")
        }
        let events = try asNobody(["--json", "events"], path: path)
        XCTAssertTrue(events.stdout.contains("\"events\""), events.stdout)
        XCTAssertEqual(try asNobody(["log", "Read"], path: path).status, 6, "a write is refused, with the store-unavailable code")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), files, "the reader created nothing")
    }

    func testA0444StoreCanBeReadAndWrittenOnceItsModeIsRestored() throws {
        if getuid() != 0 { throw XCTSkip("needs root to become user 65534") }
        let dir = folder + "/own"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chown(dir, 65534, 65534)
        let path = try makeStore(in: dir, owner: true)
        chmod(path, 0o444)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        for args in readCommands {
            let result = try asNobody(args, path: path)
            XCTAssertEqual(result.status, 0, "\(args): \(result.stderr)")
        }
        XCTAssertEqual(try asNobody(["log", "Read"], path: path).status, 6)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), files, "no 0444 -shm left behind")
        chmod(path, 0o644)
        XCTAssertEqual(try asNobody(["log", "Read"], path: path).status, 0, "the restored mode is enough to write again")
        XCTAssertEqual(try asNobody(["habit", "list"], path: path).status, 0)
        XCTAssertEqual(try asNobody(["events", "--ack"], path: path).status, 0, "events are acknowledged once the store is writable")
    }
}
