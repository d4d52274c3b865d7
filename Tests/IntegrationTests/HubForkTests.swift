import CHabitCore
import Foundation
import HabitCore
import HabitEngine
import HabitHub
import XCTest

/// Forks through the hub, on a server of their own (alice's records there are this
/// class's alone).
final class HubForkTests: HubTestCase {
    /// A device restored from an older copy of its file, then written to, syncs through
    /// the hub: it takes back what it lost, the hub takes what it wrote since, and the
    /// other device ends with both; the hub holds each record once.
    func testARestoredDeviceLosesNothingThroughTheHub() throws {
        let admin = try admin()
        var phone = try open("phone.db")
        let tablet = try open("tablet.db")
        let phoneHub = try hub("alice"), tabletHub = try hub("alice")
        defer {
            for h in [phoneHub, tabletHub] { _ = hc_hub_close(h) }
            for s in [phone, tablet] { _ = hc_store_close(s) }
        }
        let read = createHabit(phone, "Read")
        sync(phoneHub, phone)
        _ = hc_store_close(phone)
        try FileManager.default.copyItem(atPath: dir + "/phone.db", toPath: dir + "/backup.db")
        phone = try open("phone.db")
        for date in ["2026-11-02", "2026-11-03"] { markDone(phone, read, date) }
        sync(phoneHub, phone)
        // The restore: the old file back, then two new days.
        _ = hc_store_close(phone)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dir + "/phone.db" + suffix) }
        try FileManager.default.copyItem(atPath: dir + "/backup.db", toPath: dir + "/phone.db")
        phone = try open("phone.db")
        for date in ["2026-11-10", "2026-11-11"] { markDone(phone, read, date) }
        sync(phoneHub, phone)
        sync(tabletHub, tablet)
        sync(phoneHub, phone)
        XCTAssertEqual(canonical(phone), canonical(tablet))
        let entries = canonical(phone).split(separator: "\n").filter { $0.hasPrefix("entry ") }
        XCTAssertEqual(entries.count, 4, canonical(phone))
        for day in ["2026-11-02", "2026-11-03", "2026-11-10", "2026-11-11"] {
            XCTAssertEqual(entries.filter { $0.contains("day=\(self.day(day)) ") }.count, 1, "\(day): \(entries)")
        }
        let rows = try admin.query("SELECT count(*), count(DISTINCT (replica, seq)) FROM habitcore.records WHERE user_name = 'alice'")
        XCTAssertEqual(rows.int(0, 0), rows.int(0, 1))
    }

    /// The fault harness (SyncForkTests) with a hub: devices also push and pull through
    /// a real PostgreSQL hub, a user of their own per seed, which keeps what they pushed
    /// across their restores, copies and deletions. HABITCORE_HUB_FORK_SEEDS sets the
    /// number of seeds (25 by default), HABITCORE_FORK_FIRST_SEED the first.
    func testNoWriteIsLostOrDoubledThroughTheHubWhenDevicesGoBackOrAreCopied() throws {
        let environment = ProcessInfo.processInfo.environment
        let seeds = Int(environment["HABITCORE_HUB_FORK_SEEDS"] ?? "") ?? 25
        let first = Int(environment["HABITCORE_FORK_FIRST_SEED"] ?? "") ?? 1
        var admin: OpaquePointer?
        ok(hc_hub_open(&admin, try server.adminConninfo), "admin")
        defer { _ = hc_hub_close(admin) }
        var totals = ForkTally()
        for seed in first..<(first + seeds) {
            let user = "fork\(seed)", password = "fork-pw-\(seed)"
            ok(hc_hub_user_add(admin, user, password, HC_HUB_USER_DEVICE), "user")
            var hub: OpaquePointer?
            ok(hc_hub_open(&hub, try server.conninfo(user, password)), "hub")
            defer { _ = hc_hub_close(hub) }
            let tally = try runForkSeed(UInt64(seed), startMs: Engine.systemNowMs()) { _, path in
                var store: OpaquePointer?
                guard hc_store_open(&store, path, 0) == HC_OK, let store else { throw NSError(domain: String(cString: hc_last_error_message()), code: 1) }
                defer { hc_store_close(store) }
                var summary = hc_hub_sync_summary()
                guard hc_hub_sync_summary_init(&summary, UInt32(MemoryLayout<hc_hub_sync_summary>.size)) == HC_OK else {
                    throw NSError(domain: "hub sync summary init", code: 1)
                }
                var status = hc_hub_sync(&summary, hub, store, nil)
                for _ in 0..<3 where status == HC_E_IO { status = hc_hub_sync(&summary, hub, store, nil) }
                guard status == HC_OK else {
                    throw NSError(domain: "seed \(seed): hub sync: \(String(cString: hc_hub_last_error_message()))", code: Int(status))
                }
            }
            totals.add(tally)
        }
        print(totals.report(seeds: seeds, first: first, through: " through a hub"))
        XCTAssertGreaterThan(totals.hubSyncs, seeds * 5, "few hub syncs happened")
        XCTAssertGreaterThan(totals.restores + totals.copies, seeds / 2, "few restores and copies happened")
        XCTAssertEqual(totals.failing, [])
    }

    /// A store copied to a second device gives two habits one id; a third device logs
    /// under the copy's habit before the fork is found. Through the hub, a fourth device
    /// (and every other) shows that entry under the habit it was logged for, never
    /// under the other habit that shared its id.
    func testAnEntryNamingAForkedIdStaysWithItsHabitThroughTheHub() throws {
        var phone = try open("phone.db")
        _ = createHabit(phone, "Read")
        let phoneHub = try hub("bob"), watchHub = try hub("bob"), tabletHub = try hub("bob"), laptopHub = try hub("bob")
        sync(phoneHub, phone)
        _ = hc_store_close(phone)
        try FileManager.default.copyItem(atPath: dir + "/phone.db", toPath: dir + "/watch.db")
        phone = try open("phone.db")
        let watch = try open("watch.db"), tablet = try open("tablet.db"), laptop = try open("laptop.db")
        defer {
            for h in [phoneHub, watchHub, tabletHub, laptopHub] { _ = hc_hub_close(h) }
            for s in [phone, watch, tablet, laptop] { _ = hc_store_close(s) }
        }
        _ = createHabit(phone, "Gym")
        sync(phoneHub, phone)
        // The copy's habit takes the same id, with a later stamp: its branch is the one that moves.
        usleep(5_000)
        _ = createHabit(watch, "Swim")
        pull(tablet, from: watch)
        markDone(tablet, habitId(tablet, "Swim"), "2026-11-05")
        for (h, s) in [(tabletHub, tablet), (laptopHub, laptop), (watchHub, watch), (phoneHub, phone), (tabletHub, tablet), (laptopHub, laptop)] { sync(h, s) }
        for store in [phone, watch, tablet, laptop] {
            let lines = canonical(store).split(separator: "\n")
            let swim = try XCTUnwrap(lines.first { $0.hasPrefix("habit ") && $0.contains("name=\"Swim\"") }?.split(separator: " ")[1], canonical(store))
            let entries = lines.filter { $0.hasPrefix("entry ") }
            XCTAssertEqual(entries.count, 1, canonical(store))
            XCTAssertTrue(entries.allSatisfy { $0.contains("habit=\(swim) ") }, canonical(store))
        }
        XCTAssertEqual(canonical(laptop), canonical(phone))
        XCTAssertEqual(canonical(laptop), canonical(watch))
        XCTAssertEqual(canonical(laptop), canonical(tablet))
    }
}
