import CHabitCore
import Foundation
import XCTest

@testable import HabitHub

/// A second user, connected to the real server, tries to learn what the first holds:
/// her name in the role lists, her sessions, the tables' row counts, the planner's
/// estimates and EXPLAIN ANALYZE's counts for her name, which referral codes exist;
/// and to block an admin's init. Each attempt is refused or answers the same whether
/// she exists or not. docs/SCALE.md, "What a hub user sees", says what stays visible.
final class HubPrivacyTests: HubTestCase {
    /// Alice's rows: many, so any count of them would stand out.
    static let aliceRecords = 300

    func seedAlice() throws {
        let admin = try admin()
        try admin.query(
            """
            INSERT INTO habitcore.records (user_name, replica, seq, hlc, kind, payload)
            SELECT 'alice', '\\x00112233445566778899aabbccddeeff'::bytea, g, g, 1, '\\x00'::bytea
            FROM generate_series(1, \(Self.aliceRecords)) g ON CONFLICT DO NOTHING
            """)
        try admin.query("ANALYZE habitcore.records")
        let aliceHub = try hub("alice")
        defer { _ = hc_hub_close(aliceHub) }
        ok(hc_hub_referral_register(aliceHub, "ALICE-PRIVATE"), "alice's code")
    }

    /// psql as user: its output, or nil when PostgreSQL refused.
    func attempt(_ user: String, _ sql: String) throws -> String? {
        let result = try server.psql(user, Self.passwords[user] ?? "", sql)
        if result.stderr.contains("ERROR") { return nil }
        XCTAssertEqual(result.status, 0, "\(sql): \(result.stderr)")
        return result.stdout
    }

    func testBobFindsNoOtherUserInTheCatalog() throws {
        try seedAlice()
        // Alice is connected while bob looks; the admin (a control) sees her session and the counts.
        let alice = try PostgresConnection(try server.conninfo("alice", Self.passwords["alice"] ?? ""))
        try alice.query("SELECT 1")
        let admin = try admin()
        XCTAssertEqual(try admin.query("SELECT count(*) FROM pg_stat_activity WHERE usename = 'alice'").int(0, 0), 1)
        XCTAssertGreaterThan(try admin.query("SELECT reltuples FROM pg_class WHERE oid = 'habitcore.records'::regclass").int(0, 0) ?? 0, 0)

        let refused = [
            // names and memberships
            "SELECT rolname FROM pg_roles", "SELECT usename FROM pg_user", "SELECT groname FROM pg_group",
            "SELECT member FROM pg_auth_members", "SELECT setrole FROM pg_db_role_setting",
            // sessions and locks
            "SELECT usename FROM pg_stat_activity", "SELECT * FROM pg_stat_get_activity(NULL)",
            "SELECT pg_stat_get_backend_userid(s) FROM pg_stat_get_backend_idset() s",
            "SELECT pid FROM pg_locks", "SELECT * FROM pg_lock_status()", "SELECT pid FROM pg_stat_ssl",
            "SELECT pg_blocking_pids(pg_backend_pid())", "SELECT owner FROM pg_prepared_xacts",
            // row counts and sizes
            "SELECT reltuples FROM pg_class WHERE relname = 'records'", "SELECT relpages FROM pg_class",
            "SELECT * FROM pg_class", "SELECT n_live_tup FROM pg_stat_user_tables",
            "SELECT n_tup_ins FROM pg_stat_all_tables", "SELECT heap_blks_read FROM pg_statio_user_tables",
            "SELECT pg_stat_get_live_tuples('habitcore.records'::regclass)",
            "SELECT pg_stat_get_tuples_inserted('habitcore.records'::regclass)",
            "SELECT pg_relation_size('habitcore.records')", "SELECT pg_total_relation_size('habitcore.records')",
            "SELECT pg_table_size('habitcore.records')", "SELECT pg_indexes_size('habitcore.records')",
            "SELECT pg_database_size(current_database())", "SELECT tup_inserted FROM pg_stat_database",
            // the referral tries
            "SELECT * FROM habitcore_private.referral_tries",
        ]
        for sql in refused {
            XCTAssertNil(try attempt("bob", sql), "\(sql) was not refused")
        }
        // The statistics views filter tables under row-level security; the catalog stays usable.
        XCTAssertEqual(try attempt("bob", "SELECT count(*) FROM pg_stats WHERE schemaname = 'habitcore'"), "0\n")
        XCTAssertEqual(try attempt("bob", "SELECT relname FROM pg_class WHERE oid = 'habitcore.records'::regclass"), "records\n")
        XCTAssertEqual(try attempt("bob", "SELECT count(*) FROM habitcore.records"), "0\n")
        // What PostgreSQL does not hide: a role's name from its oid, and whether a name is a role.
        XCTAssertEqual(try attempt("bob", "SELECT to_regrole('alice') IS NOT NULL"), "t\n", "docs/SCALE.md says role names stay reachable")
        _ = alice
    }

    /// EXPLAIN as bob for a predicate naming `name`: the plan, its estimates and, run,
    /// its counts, with the name taken out.
    func plan(_ table: String, _ predicate: String, _ name: String) throws -> String {
        let sql =
            "SET jit = off; SET enable_seqscan = off; EXPLAIN (ANALYZE, COSTS, TIMING OFF, SUMMARY OFF) SELECT * FROM habitcore.\(table) WHERE "
            + predicate.replacingOccurrences(of: "NAME", with: name)
        let out = try XCTUnwrap(try attempt("bob", sql), sql)
        return out.replacingOccurrences(of: name, with: "NAME")
    }

    let predicates = [
        ("records", "user_name = 'NAME'"), ("records", "user_name ^@ 'NAME'"),
        ("records", "user_name >= 'NAME' AND user_name <= 'NAME'"), ("records", "user_name = ANY (ARRAY['NAME'])"),
        ("records", "user_name::name = 'NAME'::name"), ("records", "user_name ~>=~ 'NAME' AND user_name ~<=~ 'NAME'"),
        ("records", "user_name IN (SELECT 'NAME'::text)"), ("records", "user_name LIKE 'NAME%'"),
        ("referral_codes", "code = 'NAME'"), ("referral_codes", "code ^@ 'NAME'"),
    ]

    func testThePlannerTellsBobNothingOfAlice() throws {
        try seedAlice()
        for (table, predicate) in predicates {
            let alice = try plan(table, predicate, table == "records" ? "alice" : "ALICE-PRIVATE")
            let nobody = try plan(table, predicate, table == "records" ? "nobody" : "NOBODYS-CODE")
            XCTAssertEqual(alice, nobody, "\(table) WHERE \(predicate): bob tells alice's rows from none")
        }
        // Control: bob's own rows show (so the comparison sees counts), and with the text
        // comparisons leakproof again, as PostgreSQL ships them, alice's count shows too.
        let bobHub = try hub("bob")
        let bobStore = try open("bob-plan.db")
        defer { _ = hc_hub_close(bobHub); _ = hc_store_close(bobStore) }
        _ = createHabit(bobStore, "bob-own")
        sync(bobHub, bobStore)
        XCTAssertNotEqual(try plan("records", "user_name = 'NAME'", "bob"), try plan("records", "user_name = 'NAME'", "nobody"))
        let admin = try admin()
        try admin.query("ALTER FUNCTION pg_catalog.texteq(text, text) LEAKPROOF")
        let leaky = try plan("referral_codes", "code = 'NAME'", "ALICE-PRIVATE")
        XCTAssertNotEqual(leaky, try plan("referral_codes", "code = 'NAME'", "NOBODYS-CODE"))
        XCTAssertTrue(leaky.contains("Rows Removed by Filter: 1"), "alice's code found by its index, dropped by the policy: \(leaky)")
        // Init puts it back.
        var hub: OpaquePointer?
        ok(hc_hub_open(&hub, try server.adminConninfo))
        defer { _ = hc_hub_close(hub) }
        ok(hc_hub_init(nil, hub), "init")
        XCTAssertEqual(try plan("referral_codes", "code = 'NAME'", "ALICE-PRIVATE"), try plan("referral_codes", "code = 'NAME'", "NOBODYS-CODE"))
    }

    /// An admin's connection that gives up a statement after 30 s instead of waiting forever.
    func patientAdmin(database: String = "postgres") throws -> OpaquePointer {
        let conninfo =
            try server.adminConninfo.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(database)")
            + " options='-c statement_timeout=30000'"
        var hub: OpaquePointer?
        ok(hc_hub_open(&hub, conninfo), "admin")
        return try XCTUnwrap(hub)
    }

    func testBobCannotBlockInit() throws {
        let bobHub = try hub("bob")
        defer { _ = hc_hub_close(bobHub) }
        XCTAssertEqual(hc_hub_init(nil, bobHub), HC_E_IO)
        XCTAssertTrue(String(cString: hc_hub_errmsg(bobHub)).contains("needs a superuser"))
        // Work for init beside bob: a statistics target and a leakproof mark to put back.
        let owner = try admin()
        try owner.query("ALTER TABLE habitcore.records ALTER COLUMN hlc SET STATISTICS -1")
        try owner.query("ALTER FUNCTION pg_catalog.texteq(text, text) LEAKPROOF")
        // Bob holds what he can: the advisory lock init once took, and his reads of the
        // hub's tables and the catalog in a transaction left open.
        let bob = try PostgresConnection(try server.conninfo("bob", Self.passwords["bob"] ?? ""))
        try bob.query("BEGIN")
        try bob.query("SELECT pg_advisory_xact_lock(7261001)")
        try bob.query("SELECT count(*) FROM habitcore.schema_version")
        try bob.query("SELECT count(*) FROM habitcore.records")
        try bob.query("SELECT count(*) FROM habitcore.referral_codes")
        try bob.query("SELECT count(relname) FROM pg_class")
        try bob.query("SELECT count(*) FROM pg_proc")
        try bob.query("LOCK TABLE habitcore.schema_version IN ACCESS SHARE MODE")
        // Stronger locks are not his to take.
        for sql in [
            "LOCK TABLE habitcore.schema_version IN SHARE UPDATE EXCLUSIVE MODE", "LOCK TABLE habitcore.schema_version IN ROW SHARE MODE",
            "SELECT * FROM habitcore.schema_version FOR SHARE", "LOCK TABLE habitcore_private.referral_tries IN ACCESS SHARE MODE",
        ] {
            let refused = try server.psql("bob", Self.passwords["bob"] ?? "", "BEGIN; \(sql); COMMIT")
            XCTAssertTrue(refused.stderr.contains("permission denied"), "\(sql): \(refused.stderr)")
        }
        let admin = try patientAdmin()
        defer { _ = hc_hub_close(admin) }
        var version: Int32 = 0
        ok(hc_hub_init(&version, admin), "init beside bob's transaction")
        XCTAssertEqual(version, HubSchema.version)
        XCTAssertEqual(
            try owner.query("SELECT attstattarget FROM pg_attribute WHERE attrelid = 'habitcore.records'::regclass AND attname = 'hlc'").int(0, 0), 0)
        XCTAssertEqual(try owner.query("SELECT proleakproof FROM pg_proc WHERE oid = 'pg_catalog.texteq(text, text)'::regprocedure").text(0, 0), "f")
        try bob.query("COMMIT")
    }

    func testBobCannotBlockAMigration() throws {
        // A hub at version 1, in its own database; bob reads its records in a
        // transaction left open, which a migration's ALTER waits for.
        let admin = try admin()
        try admin.query("CREATE DATABASE hub_v1")
        defer { _ = try? admin.query("DROP DATABASE hub_v1 WITH (FORCE)") }
        let old = try PostgresConnection(try server.adminConninfo.replacingOccurrences(of: "dbname=postgres", with: "dbname=hub_v1"))
        try old.transaction { () throws(PostgresError) in
            try old.query(HubSchema.roles)
            for statement in HubSchema.migrations[0] { try old.query(statement) }
            try old.query("INSERT INTO habitcore.schema_version (version) VALUES (1)")
        }
        let bob = try PostgresConnection(
            try server.conninfo("bob", Self.passwords["bob"] ?? "").replacingOccurrences(of: "dbname=postgres", with: "dbname=hub_v1"))
        try bob.query("BEGIN")
        try bob.query("SELECT count(*) FROM habitcore.records")
        let hub = try patientAdmin(database: "hub_v1")
        defer { _ = hc_hub_close(hub) }
        var version: Int32 = 0
        ok(hc_hub_init(&version, hub), "migration beside bob's transaction")
        XCTAssertEqual(version, HubSchema.version)
        XCTAssertThrowsError(try bob.query("SELECT 1"), "bob's session was ended; his next call reconnects")
    }

    func testBobReachesNoOtherDatabaseWithTheDocumentedRule() throws {
        // docs/SCALE.md: other databases show the whole server's sessions; pg_hba.conf
        // keeps hub users to the hub's database.
        XCTAssertNotNil(try server.psql("bob", Self.passwords["bob"] ?? "", "SELECT 1", database: "template1").stdout.first)
        let hba = try server.folder + "/data/pg_hba.conf"
        let original = try String(contentsOfFile: hba, encoding: .utf8)
        defer {
            try? original.write(toFile: hba, atomically: false, encoding: .utf8)
            _ = try? admin().query("SELECT pg_reload_conf()")
        }
        try ("local template1 +habitcore_device,+habitcore_service reject\n" + original).write(toFile: hba, atomically: false, encoding: .utf8)
        try admin().query("SELECT pg_reload_conf()")
        let refused = try server.psql("bob", Self.passwords["bob"] ?? "", "SELECT 1", database: "template1")
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("pg_hba.conf rejects connection"), refused.stderr)
        XCTAssertEqual(try attempt("bob", "SELECT 1"), "1\n", "the hub's database still admits bob")
    }
}
