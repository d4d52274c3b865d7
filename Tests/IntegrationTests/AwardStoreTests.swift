import CHabitCore
import Foundation
import HabitCore
import XCTest

/// Awards, referrals and events through the C functions, on a real SQLite file.
/// Days are relative to the store's today, so the tests hold on any date.
final class AwardStoreTests: OpenStoreTestCase {
    struct Award: Equatable {
        var id: String
        var value: Int64
        var threshold: Int64
        var unlockedDay: Int32?
        var causeKind: Int32
        var causeId: Int64
        var causeHabitId: Int64
    }

    func awards(_ open: (inout OpaquePointer?) -> Int32, file: StaticString = #filePath, line: UInt = #line) -> [Award] {
        var list: OpaquePointer?
        ok(open(&list), file: file, line: line)
        defer { hc_award_list_free(list) }
        var count: Int64 = 0
        ok(hc_award_list_count(&count, list), file: file, line: line)
        return (0..<count).compactMap { index in
            var award: UnsafePointer<hc_award>?
            ok(hc_award_list_get(&award, list, index), file: file, line: line)
            guard let a = award?.pointee else { return nil }
            return Award(
                id: String(cString: a.id), value: a.value, threshold: a.threshold, unlockedDay: a.unlocked != 0 ? a.unlocked_day : nil,
                causeKind: a.cause_kind, causeId: a.cause_id, causeHabitId: a.cause_habit_id)
        }
    }

    func evaluate(_ store: OpaquePointer? = nil, asOf: Int32 = Int32.min) -> [Award] {
        awards { hc_award_evaluate(&$0, store ?? self.store, asOf) }
    }

    func unlocked(_ store: OpaquePointer? = nil) -> [Award] {
        awards { hc_award_list_open_unlocked(&$0, store ?? self.store) }
    }

    func progress(_ id: String) -> Award? {
        awards { hc_award_list_open_progress(&$0, store, Int32.min) }.first { $0.id == id }
    }

    func undo(_ entry: Int64) {
        ok(hc_entry_undo(nil, store, entry))
    }

    // MARK: Unlocked once, with the day and the entry

    func testASevenDayStreakUnlocksThe3And7DayAwardsOnceEachWithTheDayCrossed() {
        let habit = createHabit(store, "Meditate", start: date(today - 30))
        var entries: [Int64] = []
        for offset in (0...6).reversed() { entries.append(append(store, habit, on: date(today - Int32(offset))).1) }
        let first = evaluate()
        let streak3 = first.first { $0.id == "streak-3" }
        let streak7 = first.first { $0.id == "streak-7" }
        XCTAssertEqual(streak3?.unlockedDay, today - 4, "the third day crossed 3")
        XCTAssertEqual(streak3?.causeId, entries[2])
        XCTAssertEqual(streak3?.causeKind, HC_AWARD_CAUSE_HABIT_ENTRY)
        XCTAssertEqual(streak3?.causeHabitId, habit)
        XCTAssertEqual(streak7?.unlockedDay, today, "the seventh day crossed 7")
        XCTAssertEqual(streak7?.causeId, entries[6])
        XCTAssertNil(first.first { $0.id == "streak-14" })
        XCTAssertEqual(first.first { $0.id == "completions-1" }?.unlockedDay, today - 6)
        XCTAssertEqual(first.first { $0.id == "perfect-days-7" }?.unlockedDay, today)
        XCTAssertEqual(evaluate(), [], "evaluating again unlocks nothing")

        // Undo the seventh day: the metric drops, the award stays, and the redo unlocks nothing again.
        undo(entries[6])
        XCTAssertEqual(progress("streak-7")?.value, 6, "the current streak fell to 6")
        XCTAssertEqual(evaluate(), [])
        XCTAssertEqual(unlocked().first { $0.id == "streak-7" }?.unlockedDay, today, "still unlocked, as first recorded")
        append(store, habit, on: date(today))
        XCTAssertEqual(evaluate(), [])
        XCTAssertEqual(unlocked().filter { $0.id.hasPrefix("streak-") }.map(\.id), ["streak-3", "streak-7"])
        XCTAssertEqual(unlocked().map(\.id).count, Set(unlocked().map(\.id)).count, "never twice")
    }

    func testProgressShowsTheValueAndThresholdOfEachLockedAward() {
        let habit = createHabit(store, "Read", start: date(today - 10))
        for offset in [2, 1, 0] { append(store, habit, on: date(today - Int32(offset))) }
        XCTAssertEqual(progress("streak-7")?.value, 3)
        XCTAssertEqual(progress("streak-7")?.threshold, 7)
        XCTAssertNil(progress("streak-7")?.unlockedDay)
        XCTAssertEqual(progress("completions-10")?.value, 3)
        XCTAssertEqual(progress("habits-3")?.value, 1)
        _ = evaluate()
        XCTAssertEqual(progress("streak-3")?.unlockedDay, today, "an unlocked award carries its day in progress too")
        XCTAssertEqual(progress("streak-3")?.value, 3)
    }

    // MARK: Replay

    /// 400 days of random history for three habits: done days, skips, counter
    /// amounts, corrections (undo, then the same again), credits and referrals.
    /// Store A evaluates after every single event, as of that event's day; store B
    /// gets the same history and evaluates once at the end. Same awards, same days.
    func testReplaying400DaysEventByEventGivesTheSameAwardsAsOneEvaluationAtTheEnd() throws {
        let replayed = try open("replayed.db")
        let once = try open("once.db")
        defer { hc_store_close(replayed); hc_store_close(once) }
        let catalogue = """
            {"format": "habitcore-awards", "version": 1, "rules": [
              {"id": "walk-longest-20", "title": "Walker", "metric": "longest_streak", "scope": "habit", "habit": "Walk", "threshold": 20},
              {"id": "any-current-12", "title": "Dozen", "metric": "current_streak", "scope": "any", "threshold": 12},
              {"id": "all-streak-5", "title": "All five", "metric": "current_streak", "scope": "all", "threshold": 5},
              {"id": "water-200", "title": "Hydrated", "metric": "total_completions", "scope": "habit", "habit": "Water", "threshold": 200},
              {"id": "any-150", "title": "Busy", "metric": "total_completions", "scope": "any", "threshold": 150},
              {"id": "all-600", "title": "Many", "metric": "total_completions", "threshold": 600},
              {"id": "perfect-40", "title": "Perfect", "metric": "perfect_days", "threshold": 40},
              {"id": "active-25", "title": "Active", "metric": "active_day_streak", "threshold": 25},
              {"id": "credits-300", "title": "Earner", "metric": "credits_earned", "threshold": 300},
              {"id": "referrals-2", "title": "Two friends", "metric": "referrals_redeemed", "threshold": 2}
            ]}
            """
        var random = SplitMix(seed: 0x400D)
        let start = today - 399
        var events: [(Int32, Event)] = []
        for offset in 0..<400 {
            let day = start + Int32(offset)
            if random.chance(0.8) { events.append((day, .done("Walk"))) }
            if random.chance(0.05) { events.append((day, .skip("Walk"))) }
            for _ in 0..<random.below(4) { events.append((day, .amount("Water", Double(1 + random.below(2))))) }
            if random.chance(0.5) { events.append((day, .done("Stretch"))) }
            if random.chance(0.1) { events.append((day, .correction)) }
            if random.chance(0.3) { events.append((day, .steps(Int64(random.below(9000))))) }
            if offset == 100 || offset == 300 { events.append((day, .referral("ABCDEFG\(offset == 100 ? "H" : "J")"))) }
        }
        for target in [replayed, once] {
            for (name, kind, schedule) in [
                ("Walk", HC_KIND_CHECKMARK, "daily"), ("Water", HC_KIND_COUNTER, "daily"),
                ("Stretch", HC_KIND_CHECKMARK, "weekly:3"),
            ] {
                _ = createHabit(target, name, kind: kind, target: kind == HC_KIND_COUNTER ? 3 : 1, schedule: schedule, start: date(start))
            }
            ok(hc_award_catalog_load(target, catalogue))
        }
        var lastEntry: [OpaquePointer: (habit: Int64, id: Int64, kind: Int32, value: Double, day: Int32)] = [:]
        func apply(_ event: Event, on day: Int32, to target: OpaquePointer) throws {
            func log(_ name: String, _ kind: Int32, _ value: Double) throws {
                var habit: UnsafeMutablePointer<hc_habit>?
                ok(hc_habit_find(&habit, target, name))
                let id = try XCTUnwrap(habit).pointee.id
                hc_habit_free(habit)
                let (status, entry) = append(target, id, kind, value: value, on: date(day))
                ok(status)
                lastEntry[target] = (id, entry, kind, value, day)
            }
            switch event {
            case .done(let name): try log(name, HC_ENTRY_DONE, 0)
            case .skip(let name): try log(name, HC_ENTRY_SKIP, 0)
            case .amount(let name, let value): try log(name, HC_ENTRY_AMOUNT, value)
            case .correction:
                // A mistake put right: the last entry undone, then entered again.
                guard let last = lastEntry[target], last.day == day else { return }
                ok(hc_entry_undo(nil, target, last.id))
                let (status, entry) = append(target, last.habit, last.kind, value: last.value, on: date(day))
                ok(status)
                lastEntry[target] = (last.habit, entry, last.kind, last.value, day)
            case .steps(let steps):
                var sync = defaults(hc_step_sync_init)
                ok(hc_credit_sync_steps(&sync, target, 0, day, steps))
            case .referral(let code): ok(hc_referral_redeem(nil, target, code))
            }
        }
        for (day, event) in events {
            try apply(event, on: day, to: replayed)
            _ = evaluate(replayed, asOf: day)
        }
        for (day, event) in events { try apply(event, on: day, to: once) }
        _ = evaluate(once)

        func summary(_ awards: [Award]) -> [String: Int32] {
            Dictionary(uniqueKeysWithValues: awards.map { ($0.id, $0.unlockedDay ?? 0) })
        }
        let eventByEvent = summary(unlocked(replayed))
        let atTheEnd = summary(unlocked(once))
        XCTAssertEqual(eventByEvent, atTheEnd)
        XCTAssertGreaterThanOrEqual(eventByEvent.count, 8, "the history is rich enough to unlock most of the catalogue: \(eventByEvent)")
        XCTAssertEqual(eventByEvent["referrals-2"], today, "a redemption counts from the day it was recorded")
    }

    // MARK: Catalogues

    func testAMalformedCatalogueIsRefusedWithTheRuleAndFieldNamedAndNothingChanges() {
        var before: UnsafeMutablePointer<CChar>?
        ok(hc_award_catalog_json(&before, store))
        defer { hc_free(before) }
        func rule(_ body: String) -> String {
            #"{"format": "habitcore-awards", "version": 1, "rules": [{"id": "ok-1", "title": "Fine", "metric": "total_completions", "threshold": 1}, \#(body)]}"#
        }
        let cases: [(String, Int32, [String])] = [
            (
                rule(#"{"id": "pushups", "title": "P", "metric": "pushups_done", "threshold": 5}"#), HC_E_INVALID,
                ["rule 'pushups'", "field 'metric'", "pushups_done"]
            ),
            (rule(#"{"id": "zero", "title": "Z", "metric": "total_completions", "threshold": 0}"#), HC_E_INVALID, ["rule 'zero'", "field 'threshold'"]),
            (
                rule(#"{"id": "typo", "title": "T", "metric": "total_completions", "treshold": 5}"#), HC_E_INVALID,
                ["rule 'typo'", "field 'treshold'", "unknown"]
            ),
            (rule(#"{"id": "ok-1", "title": "Again", "metric": "total_completions", "threshold": 2}"#), HC_E_INVALID, ["rule 'ok-1'", "field 'id'"]),
            (rule(#"{"id": "p", "title": "P", "metric": "perfect_days", "scope": "any", "threshold": 2}"#), HC_E_INVALID, ["rule 'p'", "field 'scope'"]),
            (
                rule(#"{"id": "h", "title": "H", "metric": "total_completions", "scope": "habit", "habit": "Nobody", "threshold": 2}"#), HC_E_NOT_FOUND,
                ["rule 'h'", "field 'habit'"]
            ),
            (rule(#"{"id": "Bad Id", "title": "B", "metric": "total_completions", "threshold": 2}"#), HC_E_INVALID, ["field 'id'"]),
            (rule(#"{"id": "t", "title": "T", "metric": "total_completions", "threshold": 2, "tier": 11}"#), HC_E_INVALID, ["rule 't'", "field 'tier'"]),
            (rule(#"{"id": "s", "title": 5, "metric": "total_completions", "threshold": 2}"#), HC_E_INVALID, ["rule 's'", "field 'title'"]),
            (rule(#""just text""#), HC_E_INVALID, ["rule 2"]),
            (#"{"format": "habitcore-awards", "version": 2, "rules": []}"#, HC_E_INVALID, ["version"]),
            (#"{"format": "habitcore-awards", "version": 1, "rules": [], "extra": 1}"#, HC_E_INVALID, ["extra"]),
        ]
        for (document, code, words) in cases {
            XCTAssertEqual(hc_award_catalog_load(store, document), code, document)
            let message = String(cString: hc_store_errmsg(store))
            for word in words { XCTAssertTrue(message.contains(word), "'\(message)' should name \(word)") }
        }
        var after: UnsafeMutablePointer<CChar>?
        ok(hc_award_catalog_json(&after, store))
        defer { hc_free(after) }
        XCTAssertEqual(String(cString: try! XCTUnwrap(after)), String(cString: try! XCTUnwrap(before)), "a refused catalogue changes nothing")
    }

    func testACustomCatalogueReplacesTheBuiltInOneAndRoundTrips() throws {
        let habit = createHabit(store, "Journal", start: date(today - 5))
        for offset in [2, 1, 0] { append(store, habit, on: date(today - Int32(offset))) }
        let custom = """
            {"format": "habitcore-awards", "version": 1, "rules": [
              {"id": "journal-3", "title": "Three pages", "description": "Write 3 days", "icon": "book", "tier": 2,
               "metric": "total_completions", "scope": "habit", "habit": "Journal", "threshold": 3}]}
            """
        ok(hc_award_catalog_load(store, custom))
        let fresh = evaluate()
        XCTAssertEqual(fresh.map(\.id), ["journal-3"])
        XCTAssertEqual(fresh.first?.unlockedDay, today)
        var json: UnsafeMutablePointer<CChar>?
        ok(hc_award_catalog_json(&json, store))
        let text = String(cString: try XCTUnwrap(json))
        hc_free(json)
        XCTAssertTrue(text.contains("\"habit\":\(habit)"), text)
        ok(hc_award_catalog_load(store, text))
        ok(hc_award_catalog_reset(store))
        XCTAssertEqual(awards { hc_award_list_open_progress(&$0, store, Int32.min) }.count, 23, "the built-in catalogue is back")
        XCTAssertEqual(unlocked().map(\.id), ["journal-3"], "an unlock outlives its rule")
    }

    // MARK: Other metrics

    func testProofsCreditsAndHabitsCountWithTheRowThatCrossedThem() {
        let habit = createHabit(store, "Bed", start: date(today - 20))
        var proofs: [Int64] = []
        for offset in (0...6).reversed() {
            var input = defaults(hc_entry_input_init)
            input.habit_id = habit
            input.kind = HC_ENTRY_DONE
            input.day = today - Int32(offset)
            input.source = HC_SOURCE_PROOF
            var id: Int64 = 0
            ok(hc_entry_append(&id, store, &input))
            proofs.append(id)
        }
        let more = ["Run", "Swim"].map { createHabit(store, $0, start: date(today)) }
        var sync = defaults(hc_step_sync_init)
        ok(hc_credit_sync_steps(&sync, store, 0, today, 12_000))
        ok(
            hc_award_catalog_load(
                store,
                """
                {"format": "habitcore-awards", "version": 1, "rules": [
                  {"id": "credits-100", "title": "Earner", "metric": "credits_earned", "threshold": 100}]}
                """))
        XCTAssertEqual(evaluate().first?.causeKind, HC_AWARD_CAUSE_CREDIT_ENTRY)
        ok(hc_award_catalog_reset(store))
        let fresh = evaluate()
        let proven = fresh.first { $0.id == "proofs-7" }
        XCTAssertEqual(proven?.unlockedDay, today)
        XCTAssertEqual(proven?.causeId, proofs[6])
        let three = fresh.first { $0.id == "habits-3" }
        XCTAssertEqual(three?.causeKind, HC_AWARD_CAUSE_HABIT_CREATED)
        XCTAssertEqual(three?.causeId, more[1])
        undo(proofs[6])
        XCTAssertEqual(progress("proofs-7")?.value, 6)
        XCTAssertNotNil(progress("proofs-7")?.unlockedDay, "stays unlocked")
    }

    /// "Five active focuses": archived habits count as created, not as active; the
    /// award unlocks when a creation brings the active count to five.
    func testActiveHabitsLeaveArchivedOnesOutBesideHabitsCreated() {
        ok(
            hc_award_catalog_load(
                store,
                """
                {"format": "habitcore-awards", "version": 1, "rules": [
                  {"id": "created-5", "title": "Five made", "metric": "habits_created", "threshold": 5},
                  {"id": "active-5", "title": "Five active focuses", "metric": "active_habits", "threshold": 5}]}
                """))
        let habits = ["Read", "Run", "Swim", "Write", "Sleep"].map { createHabit(store, $0, start: date(today - 3)) }
        ok(hc_habit_archive(store, habits[4], 1))
        let fresh = evaluate()
        XCTAssertEqual(fresh.map(\.id), ["created-5"], "an archived habit counted as active")
        XCTAssertEqual(progress("created-5")?.value, 5)
        XCTAssertEqual(progress("active-5")?.value, 4)
        XCTAssertEqual(awards { hc_award_list_open_progress(&$0, store, today - 1) }.map(\.value), [0, 0], "none was created yet")
        let sixth = createHabit(store, "Stretch", start: date(today))
        let active = evaluate().first { $0.id == "active-5" }
        XCTAssertEqual(active?.unlockedDay, today)
        XCTAssertEqual(active?.causeKind, HC_AWARD_CAUSE_HABIT_CREATED)
        XCTAssertEqual(active?.causeId, sixth, "the creation that made five active")
        XCTAssertEqual(progress("active-5")?.value, 5)
        XCTAssertEqual(
            hc_award_catalog_load(
                store,
                """
                {"format": "habitcore-awards", "version": 1, "rules": [
                  {"id": "active-one", "title": "Bad", "metric": "active_habits", "scope": "any", "threshold": 1}]}
                """), HC_E_INVALID, "a store-wide metric takes scope all only")
    }

    func testReferralCodesAreStableAndEachRedeemedCodeCountsOnce() throws {
        var code: UnsafeMutablePointer<CChar>?
        ok(hc_referral_code(&code, store))
        let mine = String(cString: try XCTUnwrap(code))
        hc_free(code)
        XCTAssertEqual(mine.count, 8)
        XCTAssertTrue(mine.allSatisfy { "23456789ABCDEFGHJKMNPQRSTUVWXYZ".contains($0) }, mine)
        let other = try open()
        defer { hc_store_close(other) }
        ok(hc_referral_code(&code, other))
        XCTAssertEqual(String(cString: try XCTUnwrap(code)), mine, "made once, the same from every handle")
        hc_free(code)
        XCTAssertEqual(hc_referral_redeem(nil, store, mine.lowercased()), HC_E_CONFLICT, "not one's own code")
        ok(hc_referral_redeem(nil, store, "k7m2-p9qr"))
        XCTAssertEqual(hc_referral_redeem(nil, store, "K7M2P9QR"), HC_E_CONFLICT, "the same code, typed differently")
        XCTAssertEqual(hc_referral_redeem(nil, store, "K7M2P9Q"), HC_E_INVALID)
        XCTAssertEqual(evaluate().map(\.id), ["referrals-1"])
        XCTAssertEqual(progress("referrals-5")?.value, 1)
    }

    // MARK: Events

    func events(_ store: OpaquePointer? = nil, after: Int64 = 0, ack: Bool = false) -> [hc_event] {
        var list: OpaquePointer?
        ok(hc_event_list_read(&list, store ?? self.store, after, 1000, ack ? HC_EVENTS_ACK : 0))
        defer { hc_event_list_free(list) }
        var count: Int64 = 0
        ok(hc_event_list_count(&count, list))
        return (0..<count).compactMap { index in
            var event: UnsafePointer<hc_event>?
            ok(hc_event_list_get(&event, list, index))
            return event?.pointee
        }
    }

    func testEventsAreRecordedOnceEvenWhenADayIsUndoneAndRedone() {
        let habit = createHabit(store, "Walk", start: date(today - 30))
        var last: Int64 = 0
        for offset in (0...6).reversed() { last = append(store, habit, on: date(today - Int32(offset))).1 }
        let first = events()
        let targets = first.filter { $0.kind == HC_EVENT_TARGET_REACHED }
        XCTAssertEqual(targets.map(\.day), [today - 1, today], "targets of today and yesterday only")
        XCTAssertEqual(targets.last?.entry_id, last)
        let milestones = first.filter { $0.kind == HC_EVENT_STREAK_MILESTONE }
        XCTAssertEqual(milestones.map(\.value), [7], "the highest milestone reached, once")
        XCTAssertEqual(first.filter { $0.kind == HC_EVENT_AWARD_UNLOCKED }.count, 5, "streak 3 and 7, completions 1, perfect week, habits 1")
        undo(last)
        append(store, habit, on: date(today))
        let again = events()
        XCTAssertEqual(again.count, first.count, "undo and redo tell nobody twice")
        XCTAssertEqual(events(after: first.last?.id ?? 0).count, 0, "nothing after the cursor")
        let ids = first.map(\.id)
        XCTAssertEqual(ids, ids.sorted())
    }

    /// Four processes take events with acknowledgement, one at a time, at once:
    /// every event goes to exactly one of them.
    func testEachEventGoesToExactlyOneReaderAcrossProcesses() throws {
        let habit = createHabit(store, "Walk", start: date(today - 60))
        for offset in (0...40).reversed() { append(store, habit, on: date(today - Int32(offset))) }
        for name in ["A", "B", "C", "D", "E"] { _ = createHabit(store, name, start: date(today)) }
        let total = events().count
        XCTAssertGreaterThanOrEqual(total, 10)
        let script = """
            for i in $(seq 1 \(total)); do "\(Paths.habitctl)" --db "\(dir)/store.db" --json events --ack --limit 1 || exit 9; done
            """
        let results = try DispatchQueue.concurrentMapThrowing(0..<4) { _ in try runProcess(["bash", "-c", script]) }
        var taken: [Int64] = []
        for result in results {
            XCTAssertSucceeded(result, "a reader")
            for line in result.stdout.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                for event in object?["events"] as? [[String: Any]] ?? [] { taken.append((event["id"] as? NSNumber)?.int64Value ?? -1) }
            }
        }
        XCTAssertEqual(taken.count, total, "every event taken once")
        XCTAssertEqual(Set(taken), Set(events().map(\.id)))
        XCTAssertTrue(events().allSatisfy { $0.acknowledged == 1 })
    }

    func testTwoProcessesEvaluatingAtOnceRecordEachAwardOnce() throws {
        let habit = createHabit(store, "Walk", start: date(today - 40))
        for offset in (0...31).reversed() { append(store, habit, on: date(today - Int32(offset))) }
        let path = dir + "/store.db"
        let results = try DispatchQueue.concurrentMapThrowing(0..<4) { _ in
            try runProcess([Paths.habitctl, "--db", path, "--json", "awards", "evaluate"])
        }
        var reported: [String] = []
        for result in results {
            XCTAssertSucceeded(result, "an evaluation")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            reported += (object?["unlocked"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        XCTAssertEqual(reported.sorted(), unlocked().map(\.id).sorted(), "each award reported by exactly one process")
        XCTAssertTrue(reported.contains("streak-30"))
    }
}

private enum Event {
    case done(String)
    case skip(String)
    case amount(String, Double)
    case correction
    case steps(Int64)
    case referral(String)
}

extension DispatchQueue {
    /// Runs body for each item on its own thread at once and returns the results in order.
    static func concurrentMapThrowing<T>(_ items: Range<Int>, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
        let results = Locked([Int: Result<T, Error>]())
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let result = Result { try body(items.lowerBound + index) }
            results.update { $0[index] = result }
        }
        let collected = results.value
        return try items.map { index in
            guard let result = collected[index - items.lowerBound] else { throw NSError(domain: "no result", code: index) }
            return try result.get()
        }
    }
}
