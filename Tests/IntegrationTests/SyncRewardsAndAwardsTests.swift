import Foundation
import HabitCore
import HabitEngine
import XCTest

/// What sync derives rather than copies, on real store files: a habit's reward earns
/// on every device that holds the completion and the rule; an award unlocked on two
/// devices stands once, from the earliest crossing, and each device announces it at
/// most once; a change of zone reaches every device's history.
final class SyncRewardsAndAwardsTests: XCTestCase {
    static let today: Int64 = 20_529 * 86_400_000 + 12 * 3_600_000  // 2026-03-17, noon UTC
    var dir = ""

    override func setUpWithError() throws { dir = try temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func engine(_ name: String, offsetMs: Int64 = 0) throws -> Engine {
        let engine = try Engine(path: "\(dir)/\(name).db", options: StoreOptions())
        engine.now = { Self.today + offsetMs }
        return engine
    }

    func exchange(_ a: Engine, _ b: Engine) throws {
        _ = try b.syncApply(try a.syncChanges(peerState: try b.syncState()))
        _ = try a.syncApply(try b.syncChanges(peerState: try a.syncState()))
    }

    func spec(_ name: String) -> HabitSpec {
        HabitSpec(
            name: name, kind: .checkmark, target: 1, direction: .atLeast, group: nil, unit: nil, routine: .anytime, proofRequired: false,
            startDay: 20_450, schedule: .daily)
    }

    func earnedToday(_ engine: Engine) throws -> Int64 { try engine.creditDay(accountId: Engine.defaultAccountId, day: nil).earned }

    func testARewardEarnsOnEveryDeviceThatHoldsTheCompletionAndTheRule() throws {
        let phone = try engine("phone"), watch = try engine("watch", offsetMs: 1_000)
        defer { phone.close(); watch.close() }
        let read = try phone.createHabit(spec("Read"), startDay: nil)
        _ = try phone.setCreditRule(accountId: Engine.defaultAccountId, kind: .habitMinutes, habitId: read, value: 5, fromDay: nil)
        try exchange(phone, watch)
        let readOnWatch = try watch.habit(named: "Read").id
        // The watch logs the completion; the phone earns when it arrives.
        _ = try watch.append(Engine.NewEntry(habitId: readOnWatch, kind: .done, day: try watch.today(), value: 0, atMs: Self.today, source: .manual, note: nil))
        XCTAssertEqual(try earnedToday(watch), 5)
        XCTAssertEqual(try earnedToday(phone), 0)
        try exchange(watch, phone)
        XCTAssertEqual(try earnedToday(phone), 5, "a synced completion earns its reward")
        // Both change the reward offline; the later writer's stands, and both recount the day to it.
        _ = try phone.setCreditRule(accountId: Engine.defaultAccountId, kind: .habitMinutes, habitId: read, value: 6, fromDay: nil)
        _ = try watch.setCreditRule(accountId: Engine.defaultAccountId, kind: .habitMinutes, habitId: readOnWatch, value: 8, fromDay: nil)
        try exchange(phone, watch)
        // Which write is later is the clocks' call (hybrid stamps); both devices agree on it.
        let standing = try phone.creditRules(accountId: Engine.defaultAccountId).last { $0.kind == .habitMinutes }?.value
        XCTAssertEqual(try watch.creditRules(accountId: Engine.defaultAccountId).last { $0.kind == .habitMinutes }?.value, standing)
        XCTAssertTrue([6, 8].contains(standing))
        XCTAssertEqual(try earnedToday(phone), standing)
        XCTAssertEqual(try earnedToday(watch), standing)
        XCTAssertEqual(try phone.creditBalance(accountId: Engine.defaultAccountId), try watch.creditBalance(accountId: Engine.defaultAccountId))
        // An undo on one device takes the reward back on both.
        let entry = try XCTUnwrap(try phone.entries(habitId: read, from: CivilDate.minDay, to: CivilDate.maxDay).first?.entry)
        _ = try phone.undo(entryId: entry.id)
        try exchange(phone, watch)
        XCTAssertEqual(try earnedToday(phone), 0)
        XCTAssertEqual(try earnedToday(watch), 0)
        XCTAssertEqual(try phone.syncCanonical(), try watch.syncCanonical())
    }

    func testAnAwardUnlockedOnTwoDevicesStandsFromTheEarliestCrossingAndIsAnnouncedOncePerDevice() throws {
        let phone = try engine("phone"), watch = try engine("watch", offsetMs: 1_000), tablet = try engine("tablet", offsetMs: 2_000)
        defer { phone.close(); watch.close(); tablet.close() }
        let read = try phone.createHabit(spec("Read"), startDay: 20_450)
        try exchange(phone, watch)
        let readOnWatch = try watch.habit(named: "Read").id
        // Offline: the phone completes Read on the 10th, the watch on the 5th; each judges its awards.
        _ = try phone.append(Engine.NewEntry(habitId: read, kind: .done, day: 20_460, value: 0, atMs: Self.today, source: .manual, note: nil))
        _ = try watch.append(Engine.NewEntry(habitId: readOnWatch, kind: .done, day: 20_455, value: 0, atMs: Self.today, source: .manual, note: nil))
        XCTAssertEqual(try phone.evaluateAwards(asOf: nil).first { $0.rule.id == "completions-1" }?.day, 20_460)
        XCTAssertEqual(try watch.evaluateAwards(asOf: nil).first { $0.rule.id == "completions-1" }?.day, 20_455)
        try exchange(phone, watch)
        try exchange(watch, tablet)
        for engine in [phone, watch, tablet] {
            XCTAssertEqual(try engine.awardUnlocks().filter { $0.rule.id == "completions-1" }.map(\.day), [20_455], "the earliest crossing stands")
            let announced = try engine.events(after: 0, limit: 1_000, acknowledge: false).filter { $0.awardId == "completions-1" }
            XCTAssertEqual(announced.count, 1, "announced once on each device")
        }
        XCTAssertEqual(try phone.evaluateAwards(asOf: nil).filter { $0.rule.id == "completions-1" }.count, 0, "not unlocked again")
        XCTAssertEqual(try phone.syncCanonical(), try tablet.syncCanonical())
        XCTAssertEqual(try phone.store.allAwardUnlocks().filter { $0.unlock.rule.id == "completions-1" }.count, 2, "both records are kept")
    }

    func testAChangeOfZoneReachesEveryDevicesHistory() throws {
        let phone = try engine("phone"), watch = try engine("watch", offsetMs: 1_000)
        defer { phone.close(); watch.close() }
        try phone.setTimezone("America/New_York")
        try exchange(phone, watch)
        try phone.setTimezone("Europe/Paris")
        try exchange(phone, watch)
        XCTAssertEqual(try watch.store.zoneChanges().map(\.to), ["Europe/Paris"])
        XCTAssertEqual(try watch.store.setting("timezone"), "Europe/Paris")
        XCTAssertEqual(try phone.syncCanonical(), try watch.syncCanonical())
        // A zone change whose zone this machine's tz database lacks waits for it: no row yet.
        let unknown = SyncOp.zoneChange(atMs: Self.today, from: "UTC", to: "Mars/Olympus")
        let op = RawOp(id: GlobalId(replica: [UInt8](repeating: 7, count: 16), seq: 1), hlc: 1, kind: unknown.kind.rawValue, payload: unknown.encodePayload())
        XCTAssertEqual(try watch.syncApply(Changeset.encode(raw: [op])).waiting, 1)
        XCTAssertEqual(try watch.store.zoneChanges().count, 1)
    }
}
