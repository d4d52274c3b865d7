import CHabitCore
import Foundation
import HabitKit
import XCTest

/// HabitKit's shields, sync, reminders, awards, referrals and events, on real store
/// files through the built library; each error case checks the C code it maps to.
final class HabitKitRulesTests: XCTestCase {
    /// A daily habit that started ten days ago.
    private func habit(_ store: HabitKit.Store, _ name: String) throws -> HabitID {
        var options = HabitOptions(name: name)
        options.startDay = try store.today().adding(-10)
        return try store.createHabit(options)
    }

    private func ms(_ day: Day, _ minute: Int64) -> Int64 { Int64(day.rawValue) * 86_400_000 + minute * 60_000 }

    // MARK: Shields

    func testShieldRulesStateTransitionsAndTheirErrors() throws {
        let (store, _) = try freshStore()
        let walk = try habit(store, "Walk"), read = try habit(store, "Read")
        let today = try store.today()
        guard let yesterday = today.adding(-1), let longAgo = today.adding(-5) else { return XCTFail("no days") }
        var rule = ShieldRule(name: "morning", key: "social-apps", habitIDs: [walk, read])
        XCTAssertEqual(rule.lift, .all, "the library's default")
        XCTAssertNil(rule.startMinute, "the default window opens at the day start")
        XCTAssertTrue(rule.failClosed)
        rule.startMinute = 6 * 60
        rule.endMinute = 9 * 60
        rule.days = "daily"
        let id = try store.addShieldRule(rule, from: longAgo)
        let listed = try store.shieldRules()
        XCTAssertEqual(listed.map(\.id), [id])
        XCTAssertEqual(listed.first?.rule, rule)
        XCTAssertEqual(listed.first?.fromDay, longAgo)

        let open = try store.shieldState(atMs: ms(yesterday, 7 * 60))
        XCTAssertEqual(open.revision, try store.shieldRevision())
        XCTAssertEqual(open.rules.map(\.reason), [.windowOpen])
        XCTAssertEqual(open.rules.first?.shielded, true)
        XCTAssertEqual(open.rules.first?.outstanding, [walk, read])
        XCTAssertEqual(open.rules.first?.nextChangeMs, ms(yesterday, 9 * 60))
        XCTAssertEqual(open.rules.first?.nextCause, .cutoff)
        XCTAssertEqual(open.rules.first?.habitDay, yesterday)
        XCTAssertNil(open.rules.first?.emergencyLeft, "unlimited")
        XCTAssertTrue(open.rules.first?.earlier.contains(.completion) ?? false)
        XCTAssertEqual(try store.shieldState(atMs: ms(yesterday, 10 * 60)).rules.map(\.reason), [.cutoffPassed])

        let day = try store.shieldTransitions(fromMs: ms(yesterday, 0), toMs: ms(today, 0))
        XCTAssertEqual(day.transitions.map(\.atMs), [ms(yesterday, 6 * 60), ms(yesterday, 9 * 60)])
        XCTAssertEqual(day.transitions.map(\.cause), [.windowStart, .cutoff])
        XCTAssertEqual(day.transitions.map(\.shielded), [true, false])
        XCTAssertEqual(day.transitions.first?.zone, "UTC")
        XCTAssertEqual(day.transitions.first?.localDay, yesterday)
        XCTAssertEqual(day.transitions.first?.localMinute, 6 * 60)
        XCTAssertEqual(day.transitions.first?.moved, [])
        XCTAssertEqual(day.transitions.first?.toReason, .windowOpen)

        // Any one habit lifts it from today on; days before keep the version they had.
        let before = try store.shieldRevision()
        rule.lift = .any
        try store.updateShieldRule(id: id, rule)
        XCTAssertGreaterThan(try store.shieldRevision(), before)
        XCTAssertEqual(try store.shieldRules().first?.rule.lift, .any)
        XCTAssertEqual(try store.shieldRules(on: yesterday).first?.rule.lift, .all)
        try store.removeShieldRule(id: id)
        XCTAssertEqual(try store.shieldRules().count, 0)
        XCTAssertEqual(try store.shieldRules(on: yesterday).count, 1)

        expect(.invalid) { try store.addShieldRule(ShieldRule(name: "none", key: "apps", habitIDs: [])) }
        expect(.notFound) { try store.addShieldRule(ShieldRule(name: "ghost", key: "apps", habitIDs: [999])) }
        expect(.notFound) { try store.updateShieldRule(id: 999, rule) }
        expect(.notFound) { try store.removeShieldRule(id: 999) }
        expect(.invalid) { _ = try store.shieldTransitions(fromMs: ms(today, 0), toMs: ms(yesterday, 0)) }
        expect(.invalid) { try store.addShieldRule(ShieldRule(name: "nul\u{0}byte", key: "apps", habitIDs: [walk])) }
    }

    func testEmergencyUnlocksSnapshotsAndTheBudget() throws {
        let (store, path) = try freshStore()
        let walk = try habit(store, "Walk")
        var rule = ShieldRule(name: "all day", key: "apps", habitIDs: [walk])
        rule.startMinute = 0
        rule.budgetPeriod = .week
        rule.budgetCount = 1
        let id = try store.addShieldRule(rule, from: try store.today().adding(-5))
        XCTAssertEqual(try store.shieldRules().first?.rule.budgetPeriod, .week)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        XCTAssertEqual(try store.shieldState(atMs: now).rules.first?.emergencyLeft, 1)
        let unlock = try store.emergencyUnlock(ruleID: id, minutes: 15, reason: "late train")
        XCTAssertGreaterThan(unlock, 0)
        let lifted = try store.shieldState(atMs: now + 60_000).rules.first
        XCTAssertEqual(lifted?.reason, .emergency)
        XCTAssertEqual(lifted?.emergencyLeft, 0)
        XCTAssertNotNil(lifted?.untilMs)
        expect(.insufficient) { try store.emergencyUnlock(ruleID: id, minutes: 5) }
        expect(.notFound) { try store.emergencyUnlock(ruleID: 999, minutes: 5) }
        expect(.invalid) { try store.emergencyUnlock(ruleID: id, minutes: 0) }

        let snapshot = path + ".shields.json"
        try store.writeShieldSnapshot(to: snapshot)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: snapshot))) as? [String: Any]
        XCTAssertEqual(document?["format"] as? String, "habitcore-shields")
        XCTAssertEqual((document?["revision"] as? NSNumber)?.int64Value, try store.shieldRevision())
        expect(.invalid) { try store.writeShieldSnapshot(to: "") }
        expect(.io) { try store.writeShieldSnapshot(to: path + ".missing/folder/shields.json") }
        try store.close()
        expect(.misuse) { _ = try store.shieldRevision() }
    }

    // MARK: Sync

    func testTwoReplicasExchangeChangesAndAgree() throws {
        let (phone, _) = try freshStore("phone.db")
        let (tablet, tabletPath) = try freshStore("tablet.db")
        let phoneID = try phone.syncReplica(), tabletID = try tablet.syncReplica()
        XCTAssertEqual(phoneID.count, 16)
        XCTAssertNotEqual(phoneID, tabletID)
        let walk = try habit(phone, "Walk")
        try phone.append(EntryInput(habitID: walk))

        let toTablet = try tablet.applySync(try phone.syncChanges(since: try tablet.syncState()))
        XCTAssertEqual(toTablet.entriesAdded, 1)
        XCTAssertGreaterThanOrEqual(toTablet.habitsChanged, 1)
        XCTAssertEqual(toTablet.opsNew, toTablet.opsReceived)
        XCTAssertEqual(toTablet.opsWaiting, 0)
        try tablet.append(EntryInput(habitID: try tablet.habit(named: "Walk").id, kind: .skip, day: try tablet.today().adding(-1)))
        let toPhone = try phone.applySync(try tablet.syncChanges(since: try phone.syncState()))
        XCTAssertEqual(toPhone.entriesAdded, 1)
        XCTAssertEqual(try phone.syncCanonical(), try tablet.syncCanonical())
        XCTAssertTrue(try phone.syncCanonical().contains("Walk"))
        // Everything again changes nothing: every op is a duplicate.
        let again = try tablet.applySync(try phone.syncChanges())
        XCTAssertGreaterThan(again.opsReceived, 0)
        XCTAssertEqual(again.opsNew, 0)
        XCTAssertEqual(again.entriesAdded, 0)

        expect(.invalid) { try tablet.applySync(Array("not a changeset".utf8)) }
        expect(.invalid) { _ = try phone.syncChanges(since: [0xFF, 0x00, 0x13]) }
        expect(.invalid) { _ = try phone.syncChanges(options: SyncChangesOptions(rawValue: 0x80)) }
        let reader = try HabitKit.Store(path: tabletPath, options: .readOnly)
        expect(.readOnly) { try reader.applySync(try phone.syncChanges()) }
    }

    func testEvidenceTravelsOnlyWhenAsked() throws {
        let (store, _) = try freshStore()
        var options = HabitOptions(name: "Run")
        options.proofRequired = true
        let run = try store.createHabit(options)
        var proof = ProofInput(habitID: run, bytes: Array(repeating: 0x5A, count: 40_000))
        proof.mediaType = "application/octet-stream"
        proof.keepCopy = true
        _ = try store.submitProof(proof)
        let without = try store.syncChanges(), with = try store.syncChanges(options: .evidence)
        XCTAssertGreaterThan(with.count, without.count + 30_000, "the kept evidence travels with .evidence")
        let (peer, _) = try freshStore("peer.db")
        XCTAssertGreaterThanOrEqual(try peer.applySync(with).proofsChanged, 1)
        XCTAssertEqual(try peer.applySync(without).proofsChanged, 0, "the proof arrived with the first changeset")
    }

    // MARK: Reminders

    func testReminderRulesQuietHoursDeliveriesAndSnoozes() throws {
        let (store, path) = try freshStore()
        let walk = try habit(store, "Walk")
        let today = try store.today()
        guard let yesterday = today.adding(-1), let twoDaysAgo = today.adding(-2) else { return XCTFail("no days") }
        var rule = ReminderRule(habitID: walk, minute: 7 * 60)
        XCTAssertEqual(rule.quiet, .defer, "the library's default")
        XCTAssertEqual(rule.weekdays, [])
        rule.message = "shoes on"
        let id = try store.addReminderRule(rule)
        XCTAssertEqual(try store.reminderRules().map(\.id), [id])
        XCTAssertEqual(try store.reminderRules(habitID: walk).first?.rule, rule)
        XCTAssertEqual(try store.reminderRules(habitID: walk).first?.fromDay, today)

        XCTAssertNil(try store.quietHours())
        try store.setQuietHours(QuietHours(start: 6 * 60, end: 8 * 60))
        XCTAssertEqual(try store.quietHours(on: yesterday), QuietHours(start: 6 * 60, end: 8 * 60), "the first version governs the days before")
        let moved = try store.reminders(fromMs: ms(yesterday, 0), toMs: ms(today, 0))
        XCTAssertEqual(moved.map(\.atMs), [ms(yesterday, 8 * 60)])
        XCTAssertEqual(moved.first?.originalMs, ms(yesterday, 7 * 60))
        XCTAssertEqual(moved.first?.deferred, true)
        XCTAssertEqual(moved.first?.kind, .scheduled)
        XCTAssertEqual(moved.first?.day, yesterday)
        XCTAssertEqual(moved.first?.localMinute, 8 * 60)
        XCTAssertEqual(moved.first?.message, "shoes on")
        XCTAssertEqual(moved.first?.ruleID, id)

        XCTAssertTrue(try store.reminderFired(ruleID: id, day: yesterday, atMs: ms(yesterday, 8 * 60)))
        XCTAssertFalse(try store.reminderFired(ruleID: id, day: yesterday, atMs: ms(yesterday, 8 * 60)), "delivered once")
        XCTAssertEqual(try store.reminders(fromMs: ms(yesterday, 0), toMs: ms(today, 0), options: .pending), [])
        try store.snoozeReminder(ruleID: id, day: twoDaysAgo, atMs: ms(twoDaysAgo, 8 * 60), untilMs: ms(twoDaysAgo, 8 * 60 + 30))
        let snoozed = try store.reminders(fromMs: ms(twoDaysAgo, 0), toMs: ms(yesterday, 0), options: .pending)
        XCTAssertEqual(snoozed.map(\.kind), [.snoozed])
        XCTAssertEqual(snoozed.first?.originalMs, ms(twoDaysAgo, 8 * 60))
        let claimed = try store.reminders(fromMs: ms(twoDaysAgo, 0), toMs: ms(yesterday, 0), options: .claim)
        XCTAssertEqual(claimed.map(\.atMs), [ms(twoDaysAgo, 8 * 60 + 30)])
        XCTAssertEqual(try store.reminders(fromMs: ms(twoDaysAgo, 0), toMs: ms(yesterday, 0), options: .claim), [], "claimed once")

        // A done day silences its reminder; a change takes effect from its day on.
        try store.append(EntryInput(habitID: walk, day: yesterday))
        XCTAssertEqual(try store.reminders(fromMs: ms(yesterday, 0), toMs: ms(today, 0)), [])
        var weekends = rule
        weekends.weekdays = [.saturday, .sunday]
        weekends.quiet = .drop
        weekends.message = nil
        try store.updateReminderRule(id: id, weekends, from: today.adding(1))
        XCTAssertEqual(try store.reminderRules().first?.rule, rule)
        XCTAssertEqual(try store.reminderRules(on: today.adding(1)).first?.rule, weekends)
        try store.setQuietHours(nil)
        XCTAssertNil(try store.quietHours())
        try store.removeReminderRule(id: id)
        XCTAssertEqual(try store.reminderRules(), [])

        expect(.notFound) { try store.addReminderRule(ReminderRule(habitID: 999, minute: 60)) }
        expect(.invalid) { try store.addReminderRule(ReminderRule(habitID: walk, minute: 1440)) }
        expect(.notFound) { try store.updateReminderRule(id: 999, rule) }
        expect(.invalid) { try store.updateReminderRule(id: id, rule, from: yesterday) }
        expect(.notFound) { try store.removeReminderRule(id: 999) }
        expect(.notFound) { _ = try store.reminderRules(habitID: 999) }
        expect(.invalid) { try store.setQuietHours(QuietHours(start: 60, end: 60)) }
        expect(.notFound) { try store.reminderFired(ruleID: 999, day: yesterday, atMs: ms(yesterday, 60)) }
        expect(.notFound) { try store.snoozeReminder(ruleID: 999, day: yesterday, atMs: ms(yesterday, 60), untilMs: ms(yesterday, 90)) }
        expect(.invalid) { _ = try store.reminders(fromMs: ms(today, 0), toMs: ms(yesterday, 0)) }
        let reader = try HabitKit.Store(path: path, options: .readOnly)
        expect(.readOnly) { _ = try reader.reminders(fromMs: ms(yesterday, 0), toMs: ms(today, 0), options: .claim) }
    }

    // MARK: Awards, referrals and events

    func testAwardsCatalogueProgressAndUnlocks() throws {
        let (store, _) = try freshStore()
        XCTAssertTrue(try store.awardCatalogJSON().contains("\"habitcore-awards\""))
        let builtIn = try store.awardProgress()
        XCTAssertGreaterThan(builtIn.count, 10)
        XCTAssertTrue(builtIn.allSatisfy { $0.unlockedDay == nil && $0.unlockedAtMs == 0 })

        let walk = try habit(store, "Walk")
        let done = try store.append(EntryInput(habitID: walk))
        try store.loadAwardCatalog(
            json: """
                {"format":"habitcore-awards","version":1,"rules":[
                  {"id":"first-habit","title":"A start","icon":"seed","tier":1,"metric":"habits_created","threshold":1},
                  {"id":"walk-1","title":"First walk","description":"Walk once.","metric":"total_completions",
                   "scope":"habit","habit":"Walk","threshold":1},
                  {"id":"walk-50","title":"Fifty walks","metric":"total_completions","scope":"habit","habit":"Walk","threshold":50}]}
                """)
        let progress = try store.awardProgress()
        XCTAssertEqual(progress.map(\.id), ["first-habit", "walk-1", "walk-50"])
        XCTAssertEqual(progress.map(\.value), [1, 1, 1])
        XCTAssertEqual(progress.last?.metric, .totalCompletions)
        XCTAssertEqual(progress.last?.scope, .habit)
        XCTAssertEqual(progress.last?.habitID, walk)
        XCTAssertEqual(progress.first?.scope, .all)
        XCTAssertNil(progress.first?.habitID)
        XCTAssertEqual(try store.unlockedAwards(), [], "progress records nothing")

        let fresh = try store.evaluateAwards()
        XCTAssertEqual(fresh.map(\.id), ["first-habit", "walk-1"])
        XCTAssertEqual(fresh.first?.cause, .habitCreated)
        XCTAssertEqual(fresh.first?.causeID, walk.rawValue)
        XCTAssertEqual(fresh.last?.cause, .habitEntry)
        XCTAssertEqual(fresh.last?.causeID, done.rawValue)
        XCTAssertEqual(fresh.last?.causeHabitID, walk)
        XCTAssertEqual(fresh.last?.unlockedDay, try store.today())
        XCTAssertEqual(fresh.last?.title, "First walk")
        XCTAssertEqual(fresh.last?.description, "Walk once.")
        XCTAssertEqual(fresh.first?.icon, "seed")
        XCTAssertGreaterThan(fresh.first?.unlockedAtMs ?? 0, 0)
        XCTAssertEqual(try store.evaluateAwards(asOf: try store.today()), [], "each award unlocks once")
        XCTAssertEqual(try store.unlockedAwards().map(\.id), ["first-habit", "walk-1"])

        try store.resetAwardCatalog()
        XCTAssertEqual(try store.awardProgress().count, builtIn.count)
        XCTAssertEqual(try store.unlockedAwards().count, 2, "unlocks stay when the catalogue changes")
        expect(.invalid) { try store.loadAwardCatalog(json: "{\"format\":\"habitcore-awards\",\"version\":1,\"rules\":[{\"id\":\"x\"}]}") }
        expect(.notFound) {
            try store.loadAwardCatalog(
                json: """
                    {"format":"habitcore-awards","version":1,"rules":[
                      {"id":"ghost","title":"Ghost","metric":"total_completions","scope":"habit","habit":"Nobody","threshold":1}]}
                    """)
        }
        expect(.invalid) { _ = try store.awardProgress(asOf: Day(rawValue: .max)) }
    }

    func testReferralsAndEventsReadOnceWithAcknowledgement() throws {
        let (store, path) = try freshStore()
        let (other, _) = try freshStore("other.db")
        let reader = try HabitKit.Store(path: path, options: .readOnly)
        expect(.readOnly) { _ = try reader.referralCode() }
        let code = try store.referralCode()
        XCTAssertEqual(code.count, 8)
        XCTAssertEqual(try store.referralCode(), code, "made once, then fixed")
        XCTAssertEqual(try reader.referralCode(), code)
        XCTAssertGreaterThan(try other.redeemReferral(code: code.lowercased()), 0)
        expect(.conflict) { try other.redeemReferral(code: code) }
        expect(.conflict) { try store.redeemReferral(code: code) }
        expect(.invalid) { try store.redeemReferral(code: "not a code!") }

        let walk = try habit(store, "Walk")
        let entry = try store.append(EntryInput(habitID: walk))
        let events = try store.events()
        let reached = events.first { $0.kind == .targetReached }
        XCTAssertEqual(reached?.habitID, walk)
        XCTAssertEqual(reached?.entryID, entry)
        XCTAssertEqual(reached?.value, 1)
        XCTAssertEqual(reached?.day, try store.today())
        XCTAssertNil(reached?.awardID)
        let award = events.first { $0.kind == .awardUnlocked }
        XCTAssertNotNil(award?.awardID)
        XCTAssertEqual(events.map(\.id), events.map(\.id).sorted())
        XCTAssertTrue(events.allSatisfy { !$0.acknowledged })
        guard let first = events.first else { return XCTFail("no events") }
        XCTAssertEqual(try store.events(after: first.id, limit: 1).map(\.id), events.dropFirst().prefix(1).map(\.id))

        expect(.readOnly) { _ = try reader.events(acknowledge: true) }
        XCTAssertEqual(try store.events(acknowledge: true).map(\.id), events.map(\.id))
        XCTAssertEqual(try store.events(acknowledge: true), [], "each event goes to one reader")
        XCTAssertTrue(try store.events().allSatisfy(\.acknowledged))
        expect(.invalid) { _ = try store.events(limit: 0) }
    }
}
