import CHabitCore
import Foundation
import HabitStore
import XCTest

/// The export is the whole store: every table of the schema is exported or left out
/// with a reason, and a store using every capability, exported and imported into a new
/// store, answers every question as the original does.
final class WholeExportTests: OpenStoreTestCase {

    /// The tables of a new store's schema, read from the file itself.
    func schemaTables(_ path: String) throws -> Set<String> {
        let result = try runProcess(["sqlite3", path, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"])
        XCTAssertSucceeded(result, "sqlite3")
        return Set(result.stdout.split(separator: "\n").map(String.init))
    }

    func testEveryTableIsExportedOrLeftOutWithAReason() throws {
        let path = dir + "/fresh.db"
        hc_store_close(try open("fresh.db"))
        let tables = try schemaTables(path)
        XCTAssertGreaterThan(tables.count, 30)
        let leftOut = Store.tablesLeftOut.map(\.table)
        let lists = [("records", Store.recordTables), ("rows", Store.historyTables), ("left out", leftOut)]
        for table in tables.sorted() {
            let homes = lists.filter { $0.1.contains(table) }.map(\.0)
            XCTAssertEqual(homes.count, 1, "table \(table): exported or left out with a reason, exactly once (in \(homes))")
        }
        for (name, list) in lists {
            XCTAssertEqual(Set(list).count, list.count, "\(name) names a table twice")
            for table in list { XCTAssertTrue(tables.contains(table), "\(name) names \(table), which the schema does not have") }
        }
        for item in Store.tablesLeftOut { XCTAssertFalse(item.reason.isEmpty, "\(item.table) is left out without a reason") }
    }

    /// A document from before shields were exported (no shield or zone change rows)
    /// still restores, with no shield.
    func testAnExportWithoutShieldRowsStillRestores() throws {
        let habit = createHabit(store, "Read", start: date(today - 3))
        addRule([habit])
        ok(append(store, habit).0)
        let rows = ["shield_rules", "shield_rule_versions", "shield_emergencies", "zone_changes", "proof_copies"]
        let old = export(store, HC_FORMAT_JSONL).split(separator: "\n").filter { line in
            !rows.contains { line.contains("\"table\":\"\($0)\"") }
        }.joined(separator: "\n")
        XCTAssertNotEqual(old, export(store, HC_FORMAT_JSONL).trimmingCharacters(in: .newlines))
        let restored = try open("old.db")
        defer { hc_store_close(restored) }
        ok(hc_store_import(restored, old, HC_FORMAT_DETECT))
        XCTAssertEqual(habitId(restored, "Read"), habit)
        XCTAssertEqual(states(at: Int64(time(nil)) * 1000, store: restored).1, [])
    }

    // MARK: Every capability, round trip

    /// buildEverything's store (BackupTests: habits, entries with keys and undos, a skip,
    /// a vacation, credits with rules and a session ended early, awards, proofs with
    /// verdicts, reminders with quiet hours, snoozes and deliveries), plus a duration
    /// habit, a schedule change, shield rules with versions and an emergency unlock,
    /// changed reminder rules and quiet hours, and a change of zone.
    func buildEveryCapability(_ name: String) throws -> OpaquePointer {
        let builder = BackupTests(name: "buildEverything", testClosure: { _ in })
        builder.dir = dir
        try builder.buildEverything(dir + "/" + name)
        let store = try open(name)
        var today: Int32 = 0
        ok(hc_store_today(&today, store))
        let read = habitId(store, "Read"), water = habitId(store, "Water")
        let meditate = createHabit(store, "Meditate", kind: HC_KIND_DURATION, target: 600, start: date(today - 20))
        for offset: Int32 in [3, 1, 0] { ok(append(store, meditate, HC_ENTRY_AMOUNT, value: 700, on: date(today - offset)).0) }
        var options = defaults(hc_habit_options_init)
        "days:mon,wed,fri".withCString {
            options.schedule = $0; ok(hc_habit_update(store, meditate, &options, HC_HABIT_FIELD_SCHEDULE))
        }

        let morning = addRule([read, water], budget: (HC_SHIELD_BUDGET_WEEK, 2), store: store, fromDay: today - 5)
        ok(
            withRule([read], start: 6 * 60, end: 10 * 60, lift: HC_SHIELD_LIFT_ANY, name: "later") {
                hc_shield_rule_update(store, morning, $0, today + 1)
            })
        let evening = addRule([meditate], start: 18 * 60, end: 22 * 60, name: "evening", store: store, fromDay: today)
        ok(hc_shield_rule_remove(store, evening, today + 2))
        var unlock: Int64 = 0
        ok(hc_shield_emergency_unlock(&unlock, store, morning, 15, "a call"))

        var rule = defaults(hc_reminder_rule_init)
        rule.minute = 10 * 60 + 30
        "drink more".withCString {
            rule.message = $0; ok(hc_reminder_rule_update(store, 1, &rule, today + 1))
        }
        rule = defaults(hc_reminder_rule_init)
        rule.habit_id = meditate
        rule.minute = 7 * 60 + 15
        var ruleId: Int64 = 0
        ok(hc_reminder_rule_add(&ruleId, store, &rule))
        ok(hc_store_set_quiet_hours(store, 23 * 60, 6 * 60, today + 2))
        ok(hc_store_set_timezone(store, "America/New_York"))
        return store
    }

    /// The canonical text with each global id replaced by the kind and local id of
    /// its record (a restored store is a new replica: its records have new global ids
    /// and the same local ids), as blocks (a line and its indented lines) in order.
    func canonicalByLocalIds(_ store: OpaquePointer, _ path: String) throws -> [String] {
        let ops = try runProcess([
            "sqlite3", path,
            """
            SELECT lower(hex(r.replica)) || '-' || o.seq, o.kind || ':' || o.local_id
            FROM sync_ops o JOIN sync_replicas r ON r.num = o.rep WHERE o.local_id IS NOT NULL
            """,
        ])
        XCTAssertSucceeded(ops, "sqlite3")
        var local: [String: String] = [:]
        for line in ops.stdout.split(separator: "\n") {
            let parts = line.split(separator: "|")
            if parts.count == 2 { local[String(parts[0])] = "record-" + parts[1] }
        }
        let globalId = try NSRegularExpression(pattern: "[0-9a-f]{32}-[0-9]+")
        var blocks: [String] = []
        for line in canonical(store).split(separator: "\n").map(String.init) {
            var text = line
            for match in globalId.matches(in: line, range: NSRange(line.startIndex..., in: line)).reversed() {
                guard let range = Range(match.range, in: text) else { continue }
                text.replaceSubrange(range, with: local[String(text[range])] ?? "unknown")
            }
            if text.hasPrefix("  "), !blocks.isEmpty { blocks[blocks.count - 1] += "\n" + text } else { blocks.append(text) }
        }
        return blocks.sorted()
    }

    func reminders(_ store: OpaquePointer, from: Int64, to: Int64) -> [String] {
        var list: OpaquePointer?
        ok(hc_reminder_list_open(&list, store, from, to, 0))
        defer { hc_reminder_list_free(list) }
        var count: Int64 = 0
        ok(hc_reminder_list_count(&count, list))
        return (0..<count).map { index in
            var item: UnsafePointer<hc_reminder>?
            ok(hc_reminder_list_get(&item, list, index))
            guard let r = item?.pointee else { return "missing" }
            return "habit \(r.habit_id) rule \(r.rule_id) day \(r.day) at \(r.at_ms) minute \(r.local_minute) kind \(r.kind)"
                + " original \(r.original_ms) deferred \(r.deferred) fired \(r.fired) message \(r.message.map { String(cString: $0) } ?? "-")"
        }
    }

    func creditAnswers(_ store: OpaquePointer, days: [Int32]) -> [String] {
        var answers: [String] = []
        for name in ["default", "kid"] {
            var account: Int64 = 0, balance: Int64 = 0
            ok(hc_credit_account_find(&account, store, name))
            ok(hc_credit_balance(&balance, store, account))
            answers.append("\(name) balance \(balance)")
            for day in days {
                var d = defaults(hc_credit_day_init)
                ok(hc_credit_day_summary(&d, store, account, day))
                answers.append(
                    "\(name) day \(d.day) steps \(d.steps) in \(d.carried_in) earned \(d.earned) spent \(d.spent)"
                        + " adjusted \(d.adjusted) expired \(d.expired) available \(d.available) refunded \(d.refunded)")
            }
        }
        return answers
    }

    func count(_ path: String, _ table: String) throws -> Int {
        Int(try runProcess(["sqlite3", path, "SELECT count(*) FROM \(table)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func testAStoreUsingEveryCapabilityAnswersTheSameAfterExportAndImport() throws {
        let original = try buildEveryCapability("original.db")
        defer { hc_store_close(original) }
        for table in [
            "shield_rules", "shield_rule_versions", "shield_emergencies", "zone_changes", "reminder_rule_versions", "quiet_hours",
            "credit_rules", "proofs", "award_unlocks", "vacations",
        ] {
            XCTAssertGreaterThan(try count(dir + "/original.db", table), 0, "the store uses \(table)")
        }
        XCTAssertGreaterThan(
            try count(dir + "/original.db", "shield_rule_versions"), try count(dir + "/original.db", "shield_rules"),
            "a rule has several versions")
        let nowMs = Int64(time(nil)) * 1000, hour: Int64 = 3_600_000
        let instants = [nowMs - 50 * hour, nowMs - 2 * hour, nowMs, nowMs + hour / 2, nowMs + 30 * hour, nowMs + 60 * hour]
        var today: Int32 = 0
        ok(hc_store_today(&today, original))
        let days = [day("2026-11-02"), today - 1, today]
        let expected = (
            canonical: try canonicalByLocalIds(original, dir + "/original.db"),
            shields: instants.map { states(at: $0, store: original).1 },
            reminders: reminders(original, from: nowMs - 48 * hour, to: nowMs + 96 * hour),
            credits: creditAnswers(original, days: days)
        )
        XCTAssertTrue(expected.canonical.contains { $0.hasPrefix("shield ") && $0.contains("\n  version ") }, "\(expected.canonical)")
        XCTAssertTrue(expected.canonical.contains { $0.hasPrefix("emergency ") })
        XCTAssertTrue(expected.shields.contains { $0.count == 2 })
        XCTAssertFalse(expected.reminders.isEmpty)

        for format in [HC_FORMAT_JSON, HC_FORMAT_JSONL] {
            let file = dir + "/whole-\(format)"
            ok(hc_store_export_file(original, file, format, nil, nil))
            let name = "restored-\(format).db"
            let restored = try open(name)
            defer { hc_store_close(restored) }
            ok(hc_store_import_file(restored, file, HC_FORMAT_DETECT, nil, nil))
            XCTAssertEqual(try canonicalByLocalIds(restored, dir + "/" + name), expected.canonical, "\(format): canonical text")
            XCTAssertEqual(instants.map { states(at: $0, store: restored).1 }, expected.shields, "\(format): shield states")
            XCTAssertEqual(reminders(restored, from: nowMs - 48 * hour, to: nowMs + 96 * hour), expected.reminders, "\(format): reminders")
            XCTAssertEqual(creditAnswers(restored, days: days), expected.credits, "\(format): credits")
            XCTAssertEqual(export(restored, format), export(original, format), "\(format): export -> import -> export")
        }
    }
}
