import CHabitCore
import Foundation
import XCTest

/// The credit ledger through the C functions, on a real SQLite file. Days are
/// relative to the store's today (the library's clock), so the tests hold on any date.
final class CreditStoreTests: OpenStoreTestCase {
    @discardableResult
    func sync(_ steps: Int64, on day: Int32? = nil, account: Int64 = 0) -> hc_step_sync {
        var result = defaults(hc_step_sync_init)
        ok(hc_credit_sync_steps(&result, store, account, day ?? today, steps))
        return result
    }

    func balance(_ account: Int64 = 0) -> Int64 {
        var value: Int64 = 0
        ok(hc_credit_balance(&value, store, account))
        return value
    }

    func summary(_ day: Int32, account: Int64 = 0) -> hc_credit_day {
        var result = defaults(hc_credit_day_init)
        ok(hc_credit_day_summary(&result, store, account, day))
        return result
    }

    func rule(_ kind: Int32, _ value: Int64, habit: Int64 = 0, from: Int32 = Int32.min, account: Int64 = 0) {
        ok(hc_credit_rule_set(nil, store, account, kind, habit, value, from))
    }

    func testStepsReportedTwiceEarnOnceAndALowerReportChangesNothing() {
        XCTAssertEqual(sync(5_400).earned_now, 54)
        let again = sync(5_400)
        XCTAssertEqual(again.earned_now, 0, "the same total again earns nothing")
        XCTAssertEqual(again.day_earned, 54)
        XCTAssertEqual(sync(3_000).earned_now, 0, "a lower correction earns nothing and takes nothing back")
        XCTAssertEqual(balance(), 54)
        XCTAssertEqual(sync(5_499).earned_now, 0, "whole minutes only")
        XCTAssertEqual(sync(5_500).earned_now, 1)
        XCTAssertEqual(summary(today).steps, 5_500)
        XCTAssertEqual(creditEntries().filter { $0.kind == HC_CREDIT_EARN }.map(\.minutes), [54, 1])
    }

    func testARatioChangeFromADateLeavesEarlierDaysAsTheyWere() {
        let yesterday = today - 1
        XCTAssertEqual(sync(5_400, on: yesterday).earned_now, 54)
        rule(HC_RULE_STEPS_PER_MINUTE, 50)
        XCTAssertEqual(sync(5_400).earned_now, 108, "today earns at the new ratio")
        XCTAssertEqual(sync(6_000, on: yesterday).earned_now, 6, "yesterday keeps 100 steps per minute")
        XCTAssertEqual(summary(yesterday).earned, 60)
        XCTAssertEqual(
            hc_credit_rule_set(nil, store, 0, HC_RULE_STEPS_PER_MINUTE, 0, 10, yesterday), HC_E_INVALID,
            "a rule cannot reach back")
        var rules = [hc_credit_rule](repeating: hc_credit_rule(), count: 4)
        var count: Int64 = 0
        ok(hc_credit_rule_list(&rules, 4, &count, store, 0))
        XCTAssertEqual(count, 1)
        XCTAssertEqual(rules[0].value, 50)
        XCTAssertEqual(rules[0].from_day, today)
    }

    func testASpendLargerThanTheBalanceFailsAndWritesNothing() {
        sync(2_000)
        let before = creditEntries().count
        var id: Int64 = 0
        XCTAssertEqual(hc_credit_spend(&id, store, 0, 30, "instagram", 0), HC_E_INSUFFICIENT)
        XCTAssertTrue(String(cString: hc_last_error_message()).contains("20"), "the message says what is available")
        XCTAssertEqual(creditEntries().count, before, "nothing written")
        XCTAssertEqual(balance(), 20)
        ok(hc_credit_spend(&id, store, 0, 20, "instagram", 0))
        XCTAssertEqual(balance(), 0)
        XCTAssertEqual(summary(today).spent, 20)
    }

    func testCreditsEarnedOnADayExpireAtItsEndUnlessTheAccountCarriesThemOver() {
        let yesterday = today - 1
        sync(5_400, on: yesterday)
        let past = summary(yesterday)
        XCTAssertEqual(past.earned, 54)
        XCTAssertEqual(past.expired, 54, "yesterday is over: what was left expired")
        XCTAssertEqual(past.available, 0)
        XCTAssertEqual(balance(), 0)
        // The next write on the account records the expiry, so the ledger sums to the balance.
        sync(1_000)
        let written = creditEntries()
        XCTAssertEqual(written.filter { $0.kind == HC_CREDIT_EXPIRE }.map(\.minutes), [-54])
        XCTAssertEqual(written.reduce(0) { $0 + $1.minutes }, balance())
        XCTAssertEqual(balance(), 10)

        // Carry-over from today on: yesterday was judged under the old policy and stays so.
        // (Carrying across days is in CreditFoldTests, which can move today.)
        var saver: Int64 = 0
        ok(hc_credit_account_create(&saver, store, "saver"))
        rule(HC_RULE_EXPIRY, Int64(HC_EXPIRY_CARRY_OVER), account: saver)
        sync(5_400, on: yesterday, account: saver)
        sync(1_000, account: saver)
        XCTAssertEqual(summary(yesterday, account: saver).expired, 54)
        XCTAssertEqual(balance(saver), 10)
    }

    func testAHabitCompletionEarnsAndItsUndoTakesTheCreditBack() {
        let habit = createHabit(store, "Make the bed", start: "2026-01-01")
        rule(HC_RULE_HABIT_MINUTES, 15, habit: habit)
        let (status, entry) = append(store, habit)
        ok(status)
        XCTAssertEqual(balance(), 15)
        ok(append(store, habit).0)
        XCTAssertEqual(balance(), 15, "a day earns once, however many entries")
        let earn = creditEntries().first { $0.kind == HC_CREDIT_EARN }
        XCTAssertEqual(earn?.cause, HC_CAUSE_HABIT_ENTRY)
        XCTAssertEqual(earn?.cause_id, entry)
        XCTAssertEqual(earn?.habit_id, habit)
        // Spend it, then undo both completions: the credit goes back, the balance shows the debt.
        ok(hc_credit_spend(nil, store, 0, 15, "reward", HC_SPEND_UNLOCK))
        var undo: Int64 = 0
        ok(hc_entry_undo_last(&undo, store, habit, Int32.min))
        XCTAssertEqual(balance(), 0, "still done by the first entry")
        ok(hc_entry_undo(&undo, store, entry))
        XCTAssertEqual(balance(), -15, "the spent credit is owed")
        let reversal = creditEntries().last
        XCTAssertEqual(reversal?.kind, HC_CREDIT_ADJUST)
        XCTAssertEqual(reversal?.cause_id, undo)
        XCTAssertEqual(hc_credit_spend(nil, store, 0, 1, nil, 0), HC_E_INSUFFICIENT)
        // Done again: earned again, the debt paid.
        ok(append(store, habit).0)
        XCTAssertEqual(balance(), 0)
        XCTAssertEqual(creditEntries().reduce(0) { $0 + $1.minutes }, 0, "the ledger balances to the minute")
    }

    func testAnUnlockSessionSaysUntilWhenAppsAreOpenAndQueuesTheNextOne() {
        sync(10_000)
        ok(hc_credit_spend(nil, store, 0, 15, "youtube", HC_SPEND_UNLOCK))
        var state = defaults(hc_unlock_state_init)
        ok(hc_credit_unlock_state(&state, store, 0, 0))
        XCTAssertEqual(state.active, 1)
        XCTAssertEqual(state.until_ms - state.start_ms, 15 * 60_000)
        let firstEnd = state.until_ms
        ok(hc_credit_spend(nil, store, 0, 10, "more", HC_SPEND_UNLOCK))
        ok(hc_credit_unlock_state(&state, store, 0, 0))
        XCTAssertEqual(state.until_ms, firstEnd + 10 * 60_000, "bought while one runs: queued after it")
        ok(hc_credit_unlock_state(&state, store, 0, firstEnd + 10 * 60_000 + 1))
        XCTAssertEqual(state.active, 0, "over afterwards")
        ok(hc_credit_spend(nil, store, 0, 5, "no session", 0))
        XCTAssertEqual(balance(), 70)
    }

    func testAbsurdNumbersAreRefusedWithAMessage() {
        XCTAssertEqual(hc_credit_sync_steps(nil, store, 0, today, 5), HC_E_INVALID)
        var result = defaults(hc_step_sync_init)
        for steps in [Int64.max, Int64.min, -1, 1_000_001] {
            XCTAssertEqual(hc_credit_sync_steps(&result, store, 0, today, steps), HC_E_INVALID)
            XCTAssertTrue(String(cString: hc_last_error_message()).contains("steps"))
        }
        for minutes in [Int64.max, Int64.min, 0, -1, 525_601] {
            XCTAssertEqual(hc_credit_spend(nil, store, 0, minutes, nil, HC_SPEND_UNLOCK), HC_E_INVALID)
        }
        XCTAssertEqual(creditEntries().count, 0)
    }

    func testTwoProcessesAndTheirThreadsNeverSpendMoreThanWasEarned() throws {
        try compileC([Paths.root + "/Tests/c/spenders.c"], output: dir + "/spenders")
        var race: Int64 = 0
        ok(hc_credit_account_create(&race, store, "race"))
        // Carry-over: a run across midnight must not expire the pot mid-race.
        rule(HC_RULE_EXPIRY, Int64(HC_EXPIRY_CARRY_OVER), account: race)
        ok(hc_credit_adjust(nil, store, race, 600, "the pot"))
        let second = Process()
        second.executableURL = URL(fileURLWithPath: dir + "/spenders")
        let go = dir + "/go"
        second.arguments = [dir + "/store.db", "race", "4", go]
        second.environment = ["SWIFT_BACKTRACE": "enable=no"]
        let output = Pipe()
        second.standardOutput = output
        try second.run()
        let firstProcess = Process()
        firstProcess.executableURL = URL(fileURLWithPath: dir + "/spenders")
        firstProcess.arguments = [dir + "/store.db", "race", "4", go]
        firstProcess.environment = second.environment
        let firstOutput = Pipe()
        firstProcess.standardOutput = firstOutput
        try firstProcess.run()
        FileManager.default.createFile(atPath: go, contents: nil)
        let firstText = String(decoding: firstOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let secondText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        firstProcess.waitUntilExit()
        second.waitUntilExit()
        XCTAssertEqual(firstProcess.terminationStatus, 0, "first process")
        XCTAssertEqual(second.terminationStatus, 0, "second process")
        func spent(_ text: String) -> Int64 { Int64(text.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1 }
        let total = spent(firstText) + spent(secondText)
        XCTAssertEqual(total, 600, "every minute spent once, none twice: \(firstText) + \(secondText)")
        // (How the 600 split between the processes is up to SQLite's lock; it may be very uneven.)
        XCTAssertEqual(balance(race), 0)
        let ledger = creditEntries(race)
        XCTAssertEqual(ledger.filter { $0.kind == HC_CREDIT_SPEND }.count, 600)
        XCTAssertEqual(ledger.reduce(0) { $0 + $1.minutes }, 0, "the ledger balances to the minute")
    }
}
