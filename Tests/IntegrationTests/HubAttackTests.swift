import CHabitCore
import Foundation
import HabitHub
import XCTest

/// Connected as bob with psql, the real client, each attempt on alice's rows returns
/// none of them or is refused by PostgreSQL; the service role without act_as sees
/// nothing. The rules are the server's, so no client code is trusted here.
final class HubAttackTests: HubTestCase {
    /// Alice holds records, a referral code and a redemption; bob holds records.
    func seed() throws {
        let aliceStore = try open("alice.db")
        let bobStore = try open("bob.db")
        let aliceHub = try hub("alice")
        let bobHub = try hub("bob")
        defer {
            _ = hc_hub_close(aliceHub); _ = hc_hub_close(bobHub)
            _ = hc_store_close(aliceStore); _ = hc_store_close(bobStore)
        }
        markDone(aliceStore, createHabit(aliceStore, "alice-secret"), "2026-03-02")
        _ = createHabit(bobStore, "bob-own")
        sync(aliceHub, aliceStore)
        sync(bobHub, bobStore)
        _ = hc_hub_referral_register(aliceHub, "ALICE-ATTACK")
        _ = hc_hub_referral_redeem(bobHub, "ALICE-ATTACK")
        let admin = try admin()
        XCTAssertGreaterThan(try admin.query("SELECT count(*) FROM habitcore.records WHERE user_name = 'alice'").int(0, 0) ?? 0, 0)
    }

    /// psql as user; the last line of its output, or nil when PostgreSQL refused.
    func attempt(_ user: String, _ sql: String) throws -> String? {
        let result = try server.psql(user, Self.passwords[user] ?? "", sql)
        if result.stderr.contains("ERROR") { return nil }
        XCTAssertEqual(result.status, 0, "\(sql): \(result.stderr)")
        return result.stdout.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// The statement runs and counts no row of alice's, or is refused.
    func expectNothingOfAlice(_ user: String, _ sql: String, file: StaticString = #filePath, line: UInt = #line) throws {
        if let out = try attempt(user, sql) { XCTAssertEqual(out, "0", sql, file: file, line: line) }
    }

    func expectRefused(_ user: String, _ sql: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNil(try attempt(user, sql), "\(sql) was not refused", file: file, line: line)
    }

    func testBobReachesNoneOfAlicesRows() throws {
        try seed()
        let alice = "user_name = 'alice'"
        // Every table and view.
        for table in ["records", "replica_heads", "referral_codes", "referral_redemptions"] {
            try expectNothingOfAlice("bob", "SELECT count(*) FROM habitcore.\(table) WHERE \(alice)")
        }
        XCTAssertEqual(try attempt("bob", "SELECT count(*) FROM habitcore.records WHERE user_name <> 'bob'"), "0")
        XCTAssertNotEqual(try attempt("bob", "SELECT count(*) FROM habitcore.records"), "0", "bob sees his own rows")
        XCTAssertEqual(
            try attempt("bob", "SELECT count(*) FROM habitcore.referral_redemptions WHERE other_user = 'alice'"), "1",
            "bob sees his own redemption of alice's code, nothing of hers")
        // Settings: none of them widens what bob sees.
        for setting in ["habitcore.act_as", "habitcore.user", "role", "session_authorization", "row_security"] {
            try expectNothingOfAlice("bob", "SET \(setting) = 'alice'; SELECT count(*) FROM habitcore.records WHERE \(alice)")
        }
        try expectNothingOfAlice("bob", "SET row_security = off; SELECT count(*) FROM habitcore.records WHERE \(alice)")
        try expectNothingOfAlice("bob", "SELECT set_config('habitcore.act_as', 'alice', false); SELECT count(*) FROM habitcore.records WHERE \(alice)")
        // Roles: alice's and the service's are not bob's to take; the device group sees nothing.
        try expectRefused("bob", "SET ROLE alice")
        try expectRefused("bob", "SET ROLE habitcore_service")
        try expectRefused("bob", "SET SESSION AUTHORIZATION alice")
        try expectNothingOfAlice("bob", "SET ROLE habitcore_device; SELECT count(*) FROM habitcore.records WHERE \(alice)")
        try expectNothingOfAlice("bob", "SET ROLE habitcore_device; SELECT count(*) FROM habitcore.records")
        // Every hub function, with alice's name wherever it takes text.
        XCTAssertEqual(try attempt("bob", "SELECT habitcore.acting_user()"), "bob")
        XCTAssertEqual(try attempt("bob", "SET habitcore.act_as = 'alice'; SELECT habitcore.acting_user()"), "bob")
        XCTAssertEqual(try attempt("bob", "SELECT habitcore.redeem_referral('alice')"), "3", "bob redeemed alice's code: every other code answers alike")
        try expectRefused("bob", "SELECT habitcore.refuse_change()")
        // Writes: alice's rows cannot be made, bob's own cannot be changed or removed.
        try expectRefused(
            "bob",
            "INSERT INTO habitcore.records (user_name, replica, seq, hlc, kind, payload) VALUES ('alice', '\\x00112233445566778899aabbccddeeff', 999, 1, 1, '\\x00')"
        )
        try expectRefused("bob", "INSERT INTO habitcore.referral_codes (user_name, code) VALUES ('alice', 'STOLEN-CODE')")
        try expectRefused("bob", "INSERT INTO habitcore.referral_redemptions (user_name, side, other_user, code) VALUES ('bob', 'referrer', 'alice', 'X')")
        try expectRefused("bob", "UPDATE habitcore.records SET hlc = hlc + 1 WHERE user_name = 'bob'")
        try expectRefused("bob", "DELETE FROM habitcore.records WHERE user_name = 'bob'")
        try expectRefused("bob", "TRUNCATE habitcore.records")
        try expectRefused("bob", "DELETE FROM habitcore.referral_redemptions")
        try expectRefused("bob", "ALTER TABLE habitcore.records DISABLE ROW LEVEL SECURITY")
        try expectRefused("bob", "CREATE TABLE public.stash (x int)")
        try expectRefused("bob", "CREATE FUNCTION habitcore.peek() RETURNS int LANGUAGE sql AS 'SELECT 1'")
        // COPY: the table's rows are filtered as a SELECT's, a server file is refused.
        let copied = try server.psql("bob", Self.passwords["bob"] ?? "", "COPY habitcore.records TO STDOUT")
        XCTAssertTrue(copied.stdout.hasPrefix("bob\t"), copied.stdout + copied.stderr)
        XCTAssertFalse(copied.stdout.contains("alice"))
        XCTAssertEqual(try attempt("bob", "COPY (SELECT user_name FROM habitcore.records WHERE \(alice)) TO STDOUT"), "")
        try expectRefused("bob", "COPY (SELECT 1) TO '/tmp/hub-attack.txt'")
        try expectRefused("bob", "SELECT pg_read_file('postgresql.conf')")
        // Alice's rows are still all there for alice.
        XCTAssertNotEqual(try attempt("alice", "SELECT count(*) FROM habitcore.records"), "0")
    }

    func testAppendOnlyHoldsForTheOwnerToo() throws {
        try seed()
        let admin = try admin()
        XCTAssertThrowsError(try admin.query("UPDATE habitcore.records SET hlc = 0 WHERE user_name = 'bob'"))
        XCTAssertThrowsError(try admin.query("DELETE FROM habitcore.records WHERE user_name = 'bob'"))
        XCTAssertThrowsError(try admin.query("TRUNCATE habitcore.records"))
        // No SECURITY DEFINER function without a pinned search_path.
        let unpinned = try admin.query(
            """
            SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'habitcore' AND p.prosecdef
              AND NOT coalesce(p.proconfig @> ARRAY['search_path=pg_catalog, pg_temp'], false)
            """)
        XCTAssertEqual(unpinned.int(0, 0), 0)
        let definers = try admin.query(
            "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'habitcore' AND p.prosecdef")
        XCTAssertEqual(definers.int(0, 0), 2, "register_referral and redeem_referral, the cross-user functions")
    }

    func testServiceRoleSeesNothingWithoutActAs() throws {
        try seed()
        for table in ["records", "replica_heads", "referral_codes", "referral_redemptions"] {
            try expectNothingOfAlice("app", "SELECT count(*) FROM habitcore.\(table)")
        }
        // Acting for alice in a transaction, it sees hers; after it, nothing again.
        XCTAssertNotEqual(try attempt("app", "BEGIN; SET LOCAL habitcore.act_as = 'alice'; SELECT count(*) FROM habitcore.records; COMMIT; SELECT 'done'"), nil)
        let acting = try server.psql(
            "app", Self.passwords["app"] ?? "",
            "BEGIN; SET LOCAL habitcore.act_as = 'alice'; SELECT count(*) FROM habitcore.records WHERE user_name = 'alice'; COMMIT; SELECT count(*) FROM habitcore.records"
        )
        let lines = acting.stdout.split(separator: "\n").map(String.init).filter { Int($0) != nil }
        XCTAssertEqual(lines.count, 2, acting.stdout + acting.stderr)
        XCTAssertNotEqual(lines.first, "0", "SET LOCAL acts for alice")
        XCTAssertEqual(lines.last, "0", "and ends with the transaction")
    }
}
