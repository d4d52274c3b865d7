import CHabitCore
import Foundation
import HabitKit
import XCTest

/// HabitKit's settings, progress, ledgers, files and plugins, on real store files
/// (HabitKitTests' helpers; `--filter HabitKitTests` runs these too).
extension HabitKitTests {
    func testWeekStartRoutinesAndStreakPolicies() throws {
        let (store, _) = try freshStore()
        XCTAssertEqual(try store.weekStart(), 1, "Monday until set")
        try store.setWeekStart(0)
        XCTAssertEqual(try store.weekStart(), 0)
        expect(.invalid) { try store.setWeekStart(7) }

        let bounds = RoutineBounds(morning: 60, day: 360, evening: 720)
        try store.setRoutineBounds(bounds)
        XCTAssertEqual(try store.routineBounds(), bounds)
        expect(.invalid) { try store.setRoutineBounds(RoutineBounds(morning: 720, day: 360, evening: 60)) }
        // 07:00 UTC on a store in UTC with day start 0: an hour after the morning, before the day.
        let seven = try store.utcMs(day: Day("2026-03-10"), minute: 120)
        XCTAssertEqual(try store.routine(atMs: seven), .morning)
        XCTAssertEqual(try store.routine(atMs: seven + 6 * 3_600_000), .day)
        expect(.invalid) { _ = try store.routine(atMs: -1) }

        XCTAssertEqual(try store.streakPolicy(), StreakPolicy())
        let policy = StreakPolicy(missAllowance: 2, openDay: .zero, offDays: .break)
        try store.setStreakPolicy(policy)
        XCTAssertEqual(try store.streakPolicy(), policy)
        expect(.invalid) { try store.setStreakPolicy(StreakPolicy(missAllowance: 32, openDay: .previous, offDays: .skip)) }

        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        XCTAssertEqual(try store.ownStreakPolicy(habitID: walk), HabitStreakPolicy())
        XCTAssertEqual(try store.streakPolicy(habitID: walk), policy, "a habit follows the store")
        try store.setStreakPolicy(HabitStreakPolicy(missAllowance: 0), habitID: walk)
        XCTAssertEqual(try store.ownStreakPolicy(habitID: walk), HabitStreakPolicy(missAllowance: 0))
        XCTAssertEqual(try store.streakPolicy(habitID: walk), StreakPolicy(missAllowance: 0, openDay: .zero, offDays: .break))
        try store.setStreakPolicy(HabitStreakPolicy(openDay: .previous), habitID: walk)
        XCTAssertEqual(try store.streakPolicy(habitID: walk), StreakPolicy(missAllowance: 2, openDay: .previous, offDays: .break))
        expect(.notFound) { _ = try store.streakPolicy(habitID: 999) }
        expect(.notFound) { _ = try store.ownStreakPolicy(habitID: 999) }
        expect(.notFound) { try store.setStreakPolicy(HabitStreakPolicy(), habitID: 999) }

        // A read-only store reads every setting and refuses every change with the C code.
        let reader = try HabitKit.Store(path: store.path, options: .readOnly)
        XCTAssertEqual(try reader.weekStart(), 0)
        XCTAssertEqual(try reader.routineBounds(), bounds)
        XCTAssertEqual(try reader.streakPolicy(), policy)
        XCTAssertEqual(try reader.vacations(), [])
        expect(.readOnly) { try reader.setWeekStart(1) }
        expect(.readOnly) { try reader.setRoutineBounds(bounds) }
        expect(.readOnly) { try reader.setStreakPolicy(policy) }
        expect(.readOnly) { try reader.setStreakPolicy(HabitStreakPolicy(), habitID: walk) }
        expect(.readOnly) { try reader.addVacation(from: Day("2026-07-01"), through: Day("2026-07-02")) }
        try reader.close()
        expect(.misuse) { _ = try reader.weekStart() }
    }

    func testVacations() throws {
        let (store, _) = try freshStore()
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        let all = try store.addVacation(from: Day("2026-07-01"), through: Day("2026-07-14"))
        let one = try store.addVacation(habitID: walk, from: Day("2026-06-01"), through: Day("2026-06-02"))
        XCTAssertEqual(try store.vacations().map(\.id), [one, all], "by start day")
        XCTAssertEqual(try store.vacations().first?.habitID, walk)
        XCTAssertNil(try store.vacations().last?.habitID)
        XCTAssertEqual(try store.vacations().last?.through, try Day("2026-07-14"))
        expect(.invalid) { try store.addVacation(from: Day("2026-07-14"), through: Day("2026-07-01")) }
        expect(.notFound) { try store.addVacation(habitID: 999, from: Day("2026-07-01"), through: Day("2026-07-02")) }
        try store.removeVacation(id: all)
        XCTAssertEqual(try store.vacations().map(\.id), [one])
        expect(.notFound) { try store.removeVacation(id: all) }
    }

    func testDayStatesStreaksStrengthAndThePureCalls() throws {
        let (store, _) = try freshStore()
        let first = try Day("2026-03-01"), day = { (n: Int32) in Day(rawValue: first.rawValue + n) }
        var options = HabitOptions(name: "Walk")
        options.startDay = first
        let walk = try store.createHabit(options)
        // Done on days 0-2 and 5-9, skipped on day 4, nothing on day 3.
        for n: Int32 in [0, 1, 2, 5, 6, 7, 8, 9] { try store.append(EntryInput(habitID: walk, day: day(n))) }
        try store.append(EntryInput(habitID: walk, kind: .skip, day: day(4)))
        let states = try store.dayStates(habitID: walk, from: first, through: day(9))
        XCTAssertEqual(states.map(\.day), (0...9).map(day))
        XCTAssertEqual(states.filter { $0.flags.contains(.done) }.count, 8)
        XCTAssertEqual(states[4].flags, [.skipped, .hasEntries])
        XCTAssertEqual(states[3].flags, [])
        XCTAssertEqual(states[0].entryCount, 1)
        expect(.notFound) { _ = try store.dayStates(habitID: 999, from: first, through: day(9)) }
        expect(.invalid) { _ = try store.dayStates(habitID: walk, from: day(9), through: first) }

        let streaks = try store.streaks(habitID: walk, asOf: day(9), best: 5)
        XCTAssertEqual(streaks.unit, .days)
        XCTAssertEqual(streaks.current.length, 5)
        XCTAssertEqual(streaks.best.map(\.length), [5, 3], "every run, longest first")
        XCTAssertEqual(try store.streaks(habitID: walk, asOf: day(9), best: 1).best.map(\.length), [5])
        XCTAssertEqual(try store.streaks(habitID: walk, asOf: day(9)).best, [])
        XCTAssertEqual(try store.streaks(habitID: walk, asOf: day(9), best: .max).best.count, 2, "a count past reason is capped")
        XCTAssertEqual(try store.streaks(habitID: walk, asOf: day(9), best: -1).best, [])

        // The pure calls fold the same states the same way.
        let rules = HabitRules(startDay: first)
        let pure = try Streaks.compute(days: states, rules: rules, asOf: day(9), best: 5)
        XCTAssertEqual(pure, streaks)
        let forgiving = try Streaks.compute(
            days: states, rules: rules, policy: StreakPolicy(missAllowance: 1, openDay: .previous, offDays: .skip),
            asOf: day(9))
        XCTAssertEqual(forgiving.current.length, 8, "one miss allowed: the run spans day 3")
        var bad = rules
        bad.schedule = "now and then"
        expect(.invalid) { _ = try Streaks.compute(days: states, rules: bad, asOf: day(9)) }
        expect(.invalid) {
            _ = try Streaks.compute(days: states, rules: rules, policy: StreakPolicy(missAllowance: 99, openDay: .previous, offDays: .skip), asOf: day(9))
        }

        let strength = try store.strength(habitID: walk, from: first, through: day(9))
        XCTAssertEqual(strength.count, 10)
        XCTAssertGreaterThan(strength[9], strength[0])
        let pureStrength = try Strength.compute(days: states, rules: rules, from: first, through: day(9))
        XCTAssertEqual(pureStrength.count, 10)
        for (a, b) in zip(pureStrength, strength) { XCTAssertEqual(a, b, accuracy: 1e-9) }
        expect(.invalid) { _ = try store.strength(habitID: walk, from: day(9), through: first) }
        expect(.invalid) { _ = try Strength.compute(days: states, rules: bad, from: first, through: day(9)) }
    }

    func testCompletionScoresDueAndMeasurements() throws {
        let (store, _) = try freshStore()
        let first = try Day("2026-03-01"), day = { (n: Int32) in Day(rawValue: first.rawValue + n) }
        var options = HabitOptions(name: "Walk")
        options.startDay = first
        options.group = "Health"
        let walk = try store.createHabit(options)
        options.name = "Read"
        options.group = nil
        let read = try store.createHabit(options)
        for n: Int32 in [0, 1, 2] { try store.append(EntryInput(habitID: walk, day: day(n))) }
        try store.append(EntryInput(habitID: read, day: day(0)))

        let completion = try store.completion(habitID: walk, from: first, through: day(3))
        XCTAssertEqual(completion.kept, 3)
        XCTAssertEqual(completion.judged, 4)
        XCTAssertEqual(completion.rate ?? -1, 0.75, accuracy: 1e-9)
        expect(.notFound) { _ = try store.completion(habitID: 999, from: first, through: day(3)) }
        let group = try store.groupCompletion(group: "health", asOf: day(1), from: first, through: day(3))
        XCTAssertEqual(group.day.kept, 1)
        XCTAssertEqual(group.window.kept, 3)
        expect(.notFound) { _ = try store.groupCompletion(group: "Nothing", from: first, through: day(3)) }

        let scores = try store.dayScores(from: day(-1), through: day(1))
        XCTAssertEqual(scores.map(\.day), [day(-1), day(0), day(1)])
        XCTAssertNil(scores[0].score, "nothing due before the start")
        XCTAssertEqual(scores[1].score, 1)
        XCTAssertEqual(scores[2].score, 0.5)
        XCTAssertEqual(scores[2].due, 2)
        XCTAssertEqual(scores[2].done, 1)
        expect(.invalid) { _ = try store.dayScores(from: day(1), through: day(-1)) }

        expect(.invalid) { _ = try store.storeStreaks(asOf: Day(rawValue: .max)) }
        expect(.invalid) { _ = try store.due(on: Day(rawValue: .max)) }
        let perfect = try store.storeStreaks(asOf: day(1))
        XCTAssertEqual(perfect.activeDays.current.length, 2)
        XCTAssertEqual(perfect.perfectDays.longest.length, 1)

        let due = try store.due(on: day(1))
        XCTAssertEqual(Set(due.map(\.habitID)), [walk, read])
        XCTAssertEqual(due.first { $0.habitID == walk }?.state, .done)
        XCTAssertEqual(due.first { $0.habitID == read }?.state, .pending)
        XCTAssertEqual(due.first { $0.habitID == read }?.target, 1)

        var weight = HabitOptions(name: "Weight", kind: .measurement)
        weight.startDay = first
        let scale = try store.createHabit(weight)
        XCTAssertEqual(try store.measurements(habitID: scale, from: first, through: day(3)).count, 0)
        XCTAssertNil(try store.measurements(habitID: scale, from: first, through: day(3)).latestDay)
        try store.append(EntryInput(habitID: scale, kind: .amount, value: 80, day: day(0)))
        try store.append(EntryInput(habitID: scale, kind: .amount, value: 78.5, day: day(2)))
        let stats = try store.measurements(habitID: scale, from: first, through: day(3))
        XCTAssertEqual(stats.count, 2)
        XCTAssertEqual(stats.latestDay, day(2))
        XCTAssertEqual(stats.latest, 78.5)
        XCTAssertEqual(stats.change, -1.5)
        expect(.invalid) { _ = try store.measurements(habitID: walk, from: first, through: day(3)) }
    }

    func testUpdateHabit() throws {
        let (store, _) = try freshStore()
        var options = HabitOptions(name: "Walk", kind: .counter)
        options.unit = "km"
        let walk = try store.createHabit(options)
        _ = try store.createHabit(HabitOptions(name: "Read"))
        var change = HabitOptions(name: "Stroll")
        change.unit = nil
        change.colour = "#112233"
        try store.updateHabit(id: walk, change, fields: [.name, .unit, .colour])
        let habit = try store.habit(id: walk)
        XCTAssertEqual(habit.name, "Stroll")
        XCTAssertNil(habit.unit, "a field named with nil clears it")
        XCTAssertEqual(habit.colour, "#112233")
        XCTAssertEqual(habit.target, 1, "fields not named stay")
        XCTAssertEqual(habit.direction, .atLeast)
        var limit = HabitOptions(name: "ignored")
        limit.target = 3
        limit.direction = .atMost
        try store.updateHabit(id: walk, limit, fields: .target)
        XCTAssertEqual(try store.habit(id: walk).direction, .atMost)
        XCTAssertEqual(try store.habit(id: walk).target, 3)
        XCTAssertEqual(try store.habit(id: walk).name, "Stroll", "a field not named is not read")
        expect(.conflict) { try store.updateHabit(id: walk, HabitOptions(name: "read"), fields: .name) }
        expect(.notFound) { try store.updateHabit(id: 999, change, fields: .name) }
        expect(.invalid) { try store.updateHabit(id: walk, HabitOptions(name: ""), fields: .name) }
    }

    func testCreditEntriesAndRules() throws {
        let (store, _) = try freshStore()
        let today = try store.today()
        try store.syncSteps(3_000)
        try store.adjust(-5, reason: "typo")
        let read = try store.createHabit(HabitOptions(name: "Read"))
        let habitRule = try store.setCreditRule(.habitMinutes, value: 7, habitID: read)
        let expiry = try store.setCreditRule(.expiry, value: CreditExpiry.carryOver.rawValue)
        try store.append(EntryInput(habitID: read))
        let entries = try store.creditEntries(from: today, through: today)
        XCTAssertEqual(entries.map(\.kind), [.earn, .adjust, .earn])
        XCTAssertEqual(entries.map(\.minutes), [30, -5, 7])
        XCTAssertEqual(entries[0].cause, .steps)
        XCTAssertEqual(entries[0].steps, 3_000)
        XCTAssertNil(entries[0].causeID)
        XCTAssertEqual(entries[1].cause, .manual)
        XCTAssertEqual(entries[1].reason, "typo")
        XCTAssertEqual(entries[2].cause, .habitEntry)
        XCTAssertEqual(entries[2].habitID, read)
        XCTAssertNotNil(entries[2].causeID)
        XCTAssertEqual(entries.map(\.day), [today, today, today])
        XCTAssertEqual(try store.creditEntries(from: today.adding(-9) ?? today, through: today.adding(-1) ?? today), [])
        expect(.notFound) { _ = try store.creditEntries(account: 999, from: today, through: today) }
        expect(.invalid) { _ = try store.creditEntries(from: today, through: today.adding(-1) ?? today) }

        let rules = try store.creditRules()
        XCTAssertEqual(rules.map(\.id), [habitRule, expiry])
        XCTAssertEqual(rules[0].kind, .habitMinutes)
        XCTAssertEqual(rules[0].habitID, read)
        XCTAssertEqual(rules[0].value, 7)
        XCTAssertEqual(rules[0].from, today)
        XCTAssertEqual(rules[1].kind, .expiry)
        XCTAssertEqual(CreditExpiry(rawValue: rules[1].value), .carryOver)
        XCTAssertNil(rules[1].habitID)
        expect(.notFound) { _ = try store.creditRules(account: 999) }
        expect(.notFound) { try store.setCreditRule(.habitMinutes, value: 7, habitID: 999) }
        expect(.invalid) { try store.setCreditRule(.expiry, value: 99) }
    }

    func testPluginsEvidenceAndVerdictDetails() throws {
        let (store, path) = try freshStore()
        let script = Paths.root + "/examples/plugins/min_size.sh"
        XCTAssertEqual(try store.addPlugin(kind: .executable, path: script, id: "minsize", timeoutMs: 5_000), "minsize")
        let listed = try store.pluginsJSON()
        XCTAssertTrue(listed.contains("\"id\":\"minsize\""), listed)
        expect(.conflict) { try store.addPlugin(kind: .executable, path: script, id: "minsize") }
        expect(.notFound) { try store.addPlugin(kind: .executable, path: path + ".absent", id: "absent") }
        try store.configurePlugin(id: "minsize", settingsJSON: "{\"min\":1}")
        XCTAssertTrue(try store.pluginsJSON().contains("min"))
        try store.configurePlugin(id: "minsize", settingsJSON: nil)
        expect(.invalid) { try store.configurePlugin(id: "minsize", settingsJSON: "[1]") }
        expect(.notFound) { try store.configurePlugin(id: "nobody", settingsJSON: "{}") }

        let file = path + ".png"
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 7]
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let tried = try store.testPlugin(id: "minsize", path: file)
        XCTAssertEqual(tried.outcome, .rejected, tried.message)
        XCTAssertEqual(tried.reasonCode, "too_small")
        XCTAssertEqual(tried.proofID, 0, "a test records nothing")
        XCTAssertEqual(try store.verdicts(), [])
        expect(.notFound) { _ = try store.testPlugin(id: "nobody", path: file) }
        try store.removePlugin(id: "minsize")
        XCTAssertEqual(try store.pluginsJSON(), "[]")
        expect(.notFound) { try store.removePlugin(id: "minsize") }

        // Evidence kept with the proof comes back byte for byte; without keepCopy there is none.
        let walk = try store.createHabit(HabitOptions(name: "Walk"))
        try store.registerVerifier(id: "yes", version: "2.0") { _ in VerifierVerdict(outcome: .approved, confidence: 1, reasonCode: "ok") }
        try store.setProofPolicy(ProofPolicy(verifiers: ["yes"]))
        var kept = ProofInput(habitID: walk, bytes: bytes)
        kept.keepCopy = true
        let proof = try store.submitProof(kept)
        XCTAssertEqual(try store.evidence(proofID: proof.proofID), bytes)
        let verdict = try XCTUnwrap(store.verdicts(proofID: proof.proofID).first)
        XCTAssertEqual(verdict.verifierID, "yes")
        XCTAssertEqual(verdict.verifierVersion, "2.0")
        XCTAssertEqual(verdict.sha256?.count, 64)
        XCTAssertGreaterThanOrEqual(verdict.durationUs, 0)
        XCTAssertGreaterThan(verdict.atMs, 0)
        var second = ProofInput(habitID: walk, bytes: bytes + [1])
        second.keepCopy = false
        let unkept = try store.submitProof(second)
        expect(.notFound) { _ = try store.evidence(proofID: unkept.proofID) }
        expect(.notFound) { _ = try store.evidence(proofID: 999) }
    }

    func testExportBackupAndImports() throws {
        let (store, path) = try freshStore()
        var options = HabitOptions(name: "Walk")
        options.startDay = try Day("2026-03-01")
        let walk = try store.createHabit(options)
        try store.append(EntryInput(habitID: walk, day: try Day("2026-03-02")))

        let json = try store.export()
        XCTAssertTrue(json.contains("\"schema_version\""), json)
        let lines = try store.export(format: .jsonLines)
        XCTAssertTrue(lines.split(separator: "\n").first?.contains("\"header\"") ?? false, lines)
        expect(.invalid) { _ = try store.export(format: .detect) }

        // The export comes back whole into an empty store, by either format; twice is a conflict.
        let copy = try HabitKit.Store(path: path + ".copy")
        try copy.importText(lines)
        XCTAssertEqual(try copy.habits().map(\.name), ["Walk"])
        XCTAssertEqual(try copy.export(), json)
        expect(.conflict) { try copy.importText(json, format: .json) }
        expect(.invalid) { try copy.importText("not an export") }

        try store.backup(to: path + ".bak")
        let restored = try HabitKit.Store(path: path + ".bak", options: .readOnly)
        XCTAssertEqual(try restored.export(), json)
        expect(.conflict) { try store.backup(to: path + ".bak") }
        expect(.notFound) { try store.backup(to: path + ".absent/backup.db") }

        let csv = try store.exportLoopCSV(through: Day("2026-03-03"))
        XCTAssertTrue(csv.habits.contains("Walk"), csv.habits)
        XCTAssertTrue(csv.checkmarks.hasPrefix("Date,"), csv.checkmarks)
        XCTAssertTrue(csv.checkmarks.contains("2026-03-02"), csv.checkmarks)
        let fromLoop = try HabitKit.Store(path: path + ".loop")
        try fromLoop.importLoopCSV(habits: csv.habits, checkmarks: csv.checkmarks)
        XCTAssertEqual(try fromLoop.habits().map(\.name), ["Walk"])
        expect(.invalid) { try fromLoop.importLoopCSV(habits: "not,Loop", checkmarks: "at,all") }
        expect(.invalid) { _ = try store.exportLoopCSV(through: Day(rawValue: .max)) }

        // Loop's zip and its backup database, the fixtures LoopImportTests reads.
        let export = Paths.root + "/Tests/fixtures/loop/csv_export"
        let zip = path + ".zip"
        XCTAssertSucceeded(
            try runProcess([
                "python3", "-c",
                "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
                    + "    for name in ('Habits.csv', 'Checkmarks.csv'): z.write(sys.argv[2] + '/' + name, name)\n", zip, export,
            ]), "zip")
        let zipped = try HabitKit.Store(path: path + ".zipped")
        try zipped.importLoopZip([UInt8](try Data(contentsOf: URL(fileURLWithPath: zip))))
        XCTAssertEqual(try zipped.habits().map(\.name), ["Meditate", "Wake up early"])
        expect(.invalid) { try zipped.importLoopZip([1, 2, 3]) }
        let fromDatabase = try HabitKit.Store(path: path + ".fromdb")
        try fromDatabase.importLoopDatabase(path: Paths.root + "/Tests/fixtures/loop/databases/loop.db")
        XCTAssertFalse(try fromDatabase.habits(includingArchived: true).isEmpty)
        expect(.invalid) { try fromDatabase.importLoopDatabase(path: path) }

        let bull = try HabitKit.Store(path: path + ".bull")
        try bull.importHabitBullCSV(try String(contentsOfFile: Paths.root + "/Tests/fixtures/loop/habitbull/habitbull.csv", encoding: .utf8))
        XCTAssertFalse(try bull.habits().isEmpty)
        expect(.invalid) { try bull.importHabitBullCSV("no,HabitBull\nhere,at all") }
    }

    /// habitctl reaches the engine through HabitKit only: no file under
    /// Sources/habitctl calls an hc_ function or imports the C module. Help's text may
    /// name hc_plugin_entry, the symbol a plugin exports: it is no call.
    func testHabitctlCallsNoCFunction() throws {
        let call = try NSRegularExpression(pattern: "\\bhc_[a-z0-9_]+\\(")
        let cImport = try NSRegularExpression(pattern: "\\bimport\\s+(\\w+\\s+)?CHabitCore\\b")
        func matches(_ pattern: NSRegularExpression, _ text: String) -> [String] {
            pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .compactMap { Range($0.range, in: text).map { String(text[$0]) } }
        }
        // The rules find what they look for, and pass what they must.
        XCTAssertEqual(matches(call, "try check(hc_store_open(&store, path, 0))"), ["hc_store_open("])
        XCTAssertEqual(matches(call, "export hc_plugin_entry (include/habitcore_plugin.h)"), [])
        XCTAssertEqual(matches(cImport, "import CHabitCore\n@preconcurrency import CHabitCore"), ["import CHabitCore", "import CHabitCore"])

        let folder = Paths.root + "/Sources/habitctl"
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThan(files.count, 20)
        for name in files {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            XCTAssertEqual(matches(call, text), [], "Sources/habitctl/\(name) calls the C API itself")
            XCTAssertEqual(matches(cImport, text), [], "Sources/habitctl/\(name) imports the C module")
        }
    }
}
