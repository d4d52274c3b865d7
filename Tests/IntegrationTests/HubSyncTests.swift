import CHabitCore
import Foundation
import HabitCore
import HabitEngine
import HabitHub
import XCTest

/// Three devices of alice and one of bob sync through a real hub in a random order,
/// with connections killed between calls, in the middle of a push and in the middle
/// of a pull: every alice device ends with the same canonical export, the hub holds
/// each record once, and bob never sees a row of alice's.
final class HubSyncTests: HubTestCase {

    /// The hub's share of a record in a replica's prefix digest (habitcore.op_share, in
    /// SQL) is the library's (SyncFork.prefixShare) for random ops of every kind and
    /// size: otherwise a store and the hub never find what they hold alike.
    func testTheHubSharesEachRecordInAPrefixDigestAsStoresDo() throws {
        let admin = try admin()
        var random = SplitMix(seed: 0x5A4E)
        for _ in 0..<300 {
            let payload = (0..<random.below(200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let op = RawOp(
                id: GlobalId(replica: Array(repeating: 7, count: GlobalId.replicaBytes), seq: 1 + Int64(random.next() >> 2)),
                hlc: Int64(random.next() >> 1), kind: UInt8(random.below(256)), payload: payload)
            let rows = try admin.query(
                "SELECT habitcore.op_share($1, $2, $3::smallint, $4)",
                [.int(op.id.seq), .int(op.hlc), .int(Int64(op.kind)), .bytes(op.payload)], binary: true)
            XCTAssertEqual(rows.rows.first?.first.flatMap(BinaryValue.int).map { UInt64(bitPattern: $0) }, SyncFork.prefixShare(op))
        }
    }

    /// A hub of schema 3 that holds records takes schema 4 in place: every record gets
    /// its share (habitcore.op_share), as the library computes it, without a write to
    /// the append-only records.
    func testAHubFromSchema3GivesEveryRecordItsShareOnInit() throws {
        let admin = try admin()
        _ = try admin.query("DROP DATABASE IF EXISTS hub_schema_3")
        _ = try admin.query("CREATE DATABASE hub_schema_3")
        let old = try PostgresConnection(try server.adminConninfo.replacingOccurrences(of: "dbname=postgres", with: "dbname=hub_schema_3"))
        _ = try old.query(HubSchema.roles)
        for step in 0..<3 {
            for statement in HubSchema.migrations[step] { _ = try old.query(statement) }
            _ = try old.query("INSERT INTO habitcore.schema_version (version) VALUES ($1)", [.int(Int64(step + 1))])
        }
        var random = SplitMix(seed: 0x3404)
        let replica = (0..<GlobalId.replicaBytes).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let ops = (1...40).map { seq in
            RawOp(
                id: GlobalId(replica: replica, seq: Int64(seq)), hlc: Int64(random.next() >> 1), kind: UInt8(random.below(23)),
                payload: (0..<random.below(90)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        for op in ops {
            _ = try old.query(
                "INSERT INTO habitcore.records (user_name, replica, seq, hlc, kind, payload) VALUES ('alice', $1, $2, $3, $4::smallint, $5)",
                [.bytes(replica), .int(op.id.seq), .int(op.hlc), .int(Int64(op.kind)), .bytes(op.payload)])
        }
        XCTAssertEqual(try HubSchema.migrate(old), HubSchema.version)
        let rows = try old.query("SELECT share FROM habitcore.records ORDER BY seq", binary: true)
        XCTAssertEqual(rows.rows.map { $0.first.flatMap(BinaryValue.int).map { UInt64(bitPattern: $0) } }, ops.map(SyncFork.prefixShare))
    }

    /// Kills every backend of user from the admin connection.
    func kill(_ admin: PostgresConnection, _ user: String) throws {
        _ = try admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", [.text(user)])
    }

    /// Runs body on another thread while the admin holds lock on the records table;
    /// when user's backend waits for that lock (the sync is in the middle of its work),
    /// terminates it, releases the lock, and returns body's status.
    func killWhileBlocked(
        _ admin: PostgresConnection, user: String, lock: String, hub: OpaquePointer, store: OpaquePointer,
        flags: UInt32
    ) throws -> Int32 {
        // A live connection first (an earlier step may have killed this one), so the
        // call below fails only by the kill.
        _ = status(hub)
        struct Handles: @unchecked Sendable { let hub: OpaquePointer; let store: OpaquePointer }
        let handles = Handles(hub: hub, store: store)
        let body: @Sendable () -> Int32 = {
            var options = hc_hub_sync_options()
            _ = hc_hub_sync_options_init(&options, UInt32(MemoryLayout<hc_hub_sync_options>.size))
            options.flags = flags
            return hc_hub_sync(nil, handles.hub, handles.store, &options)
        }
        try admin.query("BEGIN")
        try admin.query("LOCK TABLE habitcore.records IN \(lock) MODE")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var status: Int32 = -1
        Thread.detachNewThread {
            status = body()
            done.signal()
        }
        var waited = 0
        while true {
            // pg_stat_activity is a snapshot per transaction: cleared to see it change.
            try admin.query("SELECT pg_stat_clear_snapshot()")
            let rows = try admin.query("SELECT pid FROM pg_stat_activity WHERE usename = $1 AND wait_event_type = 'Lock'", [.text(user)])
            if !rows.rows.isEmpty { break }
            // Finished without waiting: it failed before reaching the table.
            if done.wait(timeout: .now()) == .success {
                done.signal()
                XCTFail("the sync ended (\(status)) before it reached the lock")
                break
            }
            waited += 1
            XCTAssertLessThan(waited, 3000, "the sync never reached the lock")
            if waited >= 3000 { break }
            usleep(10_000)
        }
        try kill(admin, user)
        try admin.query("ROLLBACK")
        done.wait()
        return status
    }

    func records(_ admin: PostgresConnection, _ user: String) throws -> Int64? {
        try admin.query("SELECT count(*) FROM habitcore.records WHERE user_name = $1", [.text(user)]).int(0, 0)
    }

    func testDevicesConvergeThroughKillsAndUsersStayApart() throws {
        let admin = try admin()
        let alice = try (1...3).map { try open("alice\($0).db") }
        let bobStore = try open("bob.db")
        let aliceHubs = try (0..<3).map { _ in try hub("alice") }
        let bobHub = try hub("bob")
        defer {
            for h in aliceHubs + [bobHub] { _ = hc_hub_close(h) }
            for s in alice + [bobStore] { _ = hc_store_close(s) }
        }
        var random = SplitMix(seed: 2027)
        var habits: [[Int64]] = [[], [], []]
        var names = 0
        for round in 0..<60 {
            let device = random.below(4)
            if device == 3 {
                if round % 5 == 0 { _ = createHabit(bobStore, "bob-habit-\(round)") }
                sync(bobHub, bobStore)
                continue
            }
            let store = alice[device]
            if habits[device].isEmpty || random.below(3) == 0 {
                names += 1
                habits[device].append(createHabit(store, "alice-\(device)-\(names)"))
            } else {
                let habit = habits[device][random.below(habits[device].count)]
                markDone(store, habit, String(format: "2026-02-%02d", 1 + random.below(28)))
            }
            switch random.below(4) {
            case 0:
                // Disconnected between calls: the next call fails, the one after reconnects.
                try kill(admin, "alice")
                let failed = hc_hub_sync(nil, aliceHubs[device], store, nil)
                XCTAssertNotEqual(failed, HC_OK, "a sync on a killed connection")
                sync(aliceHubs[device], store)
            case 1:
                // Killed in the middle of a push (its INSERT waits for the lock).
                let before = try records(admin, "alice")
                let hub = aliceHubs[device]
                let pushStatus = try killWhileBlocked(admin, user: "alice", lock: "SHARE", hub: hub, store: store, flags: HC_HUB_PUSH)
                XCTAssertEqual(pushStatus, HC_E_IO, "a push killed in the middle")
                XCTAssertEqual(try records(admin, "alice"), before, "a killed push left nothing behind")
                sync(hub, store)
            case 2:
                // Killed in the middle of a pull (its SELECT waits for the lock).
                let before = canonical(store)
                let hub = aliceHubs[device]
                let pullStatus = try killWhileBlocked(admin, user: "alice", lock: "ACCESS EXCLUSIVE", hub: hub, store: store, flags: HC_HUB_PULL)
                XCTAssertEqual(pullStatus, HC_E_IO, "a pull killed in the middle")
                XCTAssertEqual(canonical(store), before, "a killed pull changed nothing")
                sync(hub, store)
            default:
                sync(aliceHubs[device], store)
            }
        }
        // Two rounds: every device pushes, then every device pulls what the others pushed.
        for _ in 0..<2 { for device in 0..<3 { sync(aliceHubs[device], alice[device]) } }
        sync(bobHub, bobStore)

        let texts = alice.map(canonical)
        XCTAssertEqual(texts[0], texts[1])
        XCTAssertEqual(texts[0], texts[2])
        for device in 0..<3 { XCTAssertTrue(texts[0].contains("alice-\(device)-"), "device \(device)'s habits reached the others") }
        XCTAssertFalse(texts[0].contains("bob-habit"))
        let bobText = canonical(bobStore)
        XCTAssertTrue(bobText.contains("bob-habit"))
        XCTAssertFalse(bobText.contains("alice-"), "bob's store never receives alice's records")

        // Each record once: the hub's rows are exactly the ops the replicas wrote.
        let rows = try admin.query(
            "SELECT count(*), count(DISTINCT (replica, seq)), sum(CASE WHEN seq = 1 THEN 1 ELSE 0 END) FROM habitcore.records WHERE user_name = 'alice'")
        let heads = try admin.query("SELECT coalesce(sum(max_seq), 0) FROM habitcore.replica_heads WHERE user_name = 'alice'")
        XCTAssertEqual(rows.int(0, 0), rows.int(0, 1))
        XCTAssertEqual(rows.int(0, 0), heads.int(0, 0), "no gaps and no duplicates")
        XCTAssertEqual(rows.int(0, 2), 3, "three alice replicas")
        XCTAssertEqual(status(aliceHubs[0]).records, rows.int(0, 0))
        XCTAssertEqual(status(aliceHubs[0]).replicas, 3)
        XCTAssertEqual(status(bobHub).replicas, 1)
        // A sync with nothing new moves nothing.
        let idle = sync(aliceHubs[0], alice[0])
        XCTAssertEqual(idle.records_pushed, 0)
        XCTAssertEqual(idle.records_pulled, 0)
    }

    /// A service role acts for one user per transaction: a store materialised
    /// through it is alice's, and without act_as it sees nothing.
    func testServiceRoleActsForOneUserPerSync() throws {
        let device = try open("alice-device.db")
        let aliceHub = try hub("alice")
        let service = try hub("app")
        let copy = try open("server-copy.db")
        defer {
            _ = hc_hub_close(aliceHub); _ = hc_hub_close(service)
            _ = hc_store_close(device); _ = hc_store_close(copy)
        }
        let habit = createHabit(device, "service-visible")
        markDone(device, habit, "2026-03-01")
        sync(aliceHub, device)
        XCTAssertEqual(status(service).records, 0, "the service role without act_as sees nothing")
        var options = hc_hub_sync_options()
        ok(hc_hub_sync_options_init(&options, UInt32(MemoryLayout<hc_hub_sync_options>.size)))
        options.flags = UInt32(HC_HUB_PULL)
        "alice".withCString {
            options.act_as = $0; ok(hc_hub_sync(nil, service, copy, &options), "pull as alice")
        }
        XCTAssertEqual(canonical(copy), canonical(device))
        XCTAssertEqual(status(service, actAs: "alice").records, status(aliceHub).records)
        // A device naming another user reaches nothing: its pull gets no rows.
        let bobHub = try hub("bob")
        let bobCopy = try open("bob-copy.db")
        defer { _ = hc_hub_close(bobHub); _ = hc_store_close(bobCopy) }
        "alice".withCString {
            options.act_as = $0; ok(hc_hub_sync(nil, bobHub, bobCopy, &options), "bob acting as alice")
        }
        XCTAssertFalse(canonical(bobCopy).contains("service-visible"))
    }

    func testReferralIsRecordedOnceForBothUsers() throws {
        let aliceHub = try hub("alice")
        let bobHub = try hub("bob")
        defer { _ = hc_hub_close(aliceHub); _ = hc_hub_close(bobHub) }
        ok(hc_hub_referral_register(aliceHub, "ALICE-2026"), "register")
        ok(hc_hub_referral_register(aliceHub, "ALICE-2026"), "register again")
        XCTAssertEqual(hc_hub_referral_register(bobHub, "ALICE-2026"), HC_E_CONFLICT)
        XCTAssertEqual(hc_hub_referral_redeem(bobHub, "NO-SUCH-CODE"), HC_E_NOT_FOUND)
        XCTAssertEqual(hc_hub_referral_redeem(aliceHub, "ALICE-2026"), HC_E_CONFLICT, "one's own code")
        ok(hc_hub_referral_redeem(bobHub, "ALICE-2026"), "redeem")
        ok(hc_hub_referral_redeem(bobHub, "ALICE-2026"), "redeem again")
        XCTAssertEqual(status(aliceHub).referrals_made, 1)
        XCTAssertEqual(status(aliceHub).referral_codes, 1)
        XCTAssertEqual(status(bobHub).referral_redeemed, 1)
        XCTAssertEqual(status(bobHub).referrals_made, 0)
        ok(hc_hub_referral_register(bobHub, "BOB-CODE"), "bob's code")
        XCTAssertEqual(hc_hub_referral_redeem(aliceHub, "BOB-CODE"), HC_OK, "alice may redeem bob's")
        XCTAssertEqual(status(bobHub).referrals_made, 1)
        XCTAssertEqual(hc_hub_referral_redeem(aliceHub, "bad code!"), HC_E_INVALID)
    }

    func testBadArgumentsAreRefusedNotFollowed() throws {
        var hub: OpaquePointer?
        XCTAssertEqual(hc_hub_open(nil, "host=/nowhere"), HC_E_INVALID)
        XCTAssertEqual(hc_hub_open(&hub, nil), HC_E_INVALID)
        XCTAssertEqual(hc_hub_open(&hub, "host=/nonexistent-socket-dir dbname=x connect_timeout=1"), HC_E_IO)
        XCTAssertNil(hub)
        XCTAssertTrue(String(cString: hc_hub_last_error_message()).contains("could not connect"))
        XCTAssertEqual(hc_hub_close(nil), HC_OK)
        let garbage = OpaquePointer(bitPattern: 0x1234)
        XCTAssertEqual(hc_hub_close(garbage), HC_E_MISUSE)
        XCTAssertEqual(hc_hub_sync(nil, garbage, garbage, nil), HC_E_MISUSE)
        let alice = try self.hub("alice")
        defer { _ = hc_hub_close(alice) }
        XCTAssertEqual(hc_hub_sync(nil, alice, nil, nil), HC_E_MISUSE)
        XCTAssertEqual(hc_hub_sync(nil, alice, garbage, nil), HC_E_MISUSE, "a foreign store pointer")
        var options = hc_hub_sync_options()
        options.struct_size = 3
        let store = try open("s.db")
        defer { _ = hc_store_close(store) }
        XCTAssertEqual(hc_hub_sync(nil, alice, store, &options), HC_E_INVALID)
        ok(hc_hub_sync_options_init(&options, UInt32(MemoryLayout<hc_hub_sync_options>.size)))
        options.flags = 0x80
        XCTAssertEqual(hc_hub_sync(nil, alice, store, &options), HC_E_INVALID)
        XCTAssertEqual(hc_hub_user_add(alice, "Bad Name", "pw", HC_HUB_USER_DEVICE), HC_E_INVALID)
        XCTAssertEqual(hc_hub_user_add(alice, "carol", "pw", 7), HC_E_INVALID)
        XCTAssertEqual(hc_hub_user_add(alice, "carol", "pw", HC_HUB_USER_DEVICE), HC_E_IO, "a device cannot create roles")
        XCTAssertEqual(hc_hub_status_get(nil, alice, nil), HC_E_INVALID)
        XCTAssertFalse(String(cString: hc_hub_errmsg(alice)).isEmpty)
    }
}
