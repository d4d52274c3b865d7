import HabitCore

/// The hub's schema, as versioned migrations run by an admin (hc_hub_init), each in
/// the same transaction as the row recording it.
///
/// The rules PostgreSQL enforces, so that no client code has to be trusted:
/// - every table is keyed by user_name first (a Citus distribution column as is);
/// - rows are append-only: UPDATE, DELETE and TRUNCATE are granted to no one and
///   refused by a trigger, even for the owner (a migration that must rewrite rows
///   disables the trigger inside its own transaction);
/// - row-level security, forced on the owner too: a device role sees and writes only
///   rows whose user_name is its login (session_user, which no SET can change; and
///   current_user, so SET ROLE habitcore_device sees nothing); the service role only
///   the rows of the user named by `SET LOCAL habitcore.act_as`, and only when it is a
///   member of habitcore_service (a device's SET of that setting reaches nothing);
/// - the cross-user operations, registering and redeeming a referral code, are
///   SECURITY DEFINER functions with search_path pinned to pg_catalog, pg_temp, whose
///   answers say nothing of other users' codes beyond one code looked up per try, and
///   at most `referralTries` tries an hour per user;
/// - what PostgreSQL itself would show a user of the others (their sessions, the
///   tables' row counts and statistics, the planner's per-value estimates) is taken
///   from PUBLIC by `privacy` at every init (docs/SCALE.md, "What a hub user sees").
package enum HubSchema {
    package static let version: Int32 = 4

    /// Referral codes a user may look up an hour (registering or redeeming).
    package static let referralTries = 10

    /// The group roles hc_hub_user_add puts logins in. Cluster-wide, so created
    /// only when missing.
    package static let roles = """
        DO $roles$
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'habitcore_device') THEN
                CREATE ROLE habitcore_device NOLOGIN;
            END IF;
            IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'habitcore_service') THEN
                CREATE ROLE habitcore_service NOLOGIN;
            END IF;
        END
        $roles$
        """

    /// migrations[i] takes the schema from version i to i + 1.
    package static let migrations: [[String]] = [
        [
            "REVOKE ALL ON SCHEMA public FROM PUBLIC",
            "CREATE SCHEMA habitcore",
            "REVOKE ALL ON SCHEMA habitcore FROM PUBLIC",
            "GRANT USAGE ON SCHEMA habitcore TO habitcore_device, habitcore_service",
            """
            CREATE TABLE habitcore.schema_version (
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            "GRANT SELECT ON habitcore.schema_version TO habitcore_device, habitcore_service",
            // A user's name: the role's name, so a policy compares it with session_user.
            """
            CREATE DOMAIN habitcore.user_name AS text
                CHECK (VALUE ~ '^[a-z0-9_]{1,63}$' AND VALUE !~ '^(habitcore_|pg_)')
            """,
            """
            CREATE TABLE habitcore.records (
                user_name habitcore.user_name NOT NULL,
                replica bytea NOT NULL CHECK (length(replica) = 16),
                seq bigint NOT NULL CHECK (seq >= 1),
                hlc bigint NOT NULL CHECK (hlc >= 0),
                kind smallint NOT NULL CHECK (kind BETWEEN 0 AND 255),
                payload bytea NOT NULL CHECK (length(payload) <= 65536),
                received_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (user_name, replica, seq)
            )
            """,
            // What the hub holds per replica: a pull's and a push's starting point.
            """
            CREATE VIEW habitcore.replica_heads WITH (security_invoker = true) AS
                SELECT user_name, replica, max(seq) AS max_seq, count(*) AS records
                FROM habitcore.records GROUP BY user_name, replica
            """,
            """
            CREATE TABLE habitcore.referral_codes (
                user_name habitcore.user_name NOT NULL,
                code text NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{4,64}$'),
                created_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (user_name, code)
            )
            """,
            // A code names one user: the lookup redeeming needs (the one cross-user key).
            "CREATE UNIQUE INDEX referral_codes_code ON habitcore.referral_codes (code)",
            """
            CREATE TABLE habitcore.referral_redemptions (
                user_name habitcore.user_name NOT NULL,
                side text NOT NULL CHECK (side IN ('referrer', 'redeemer')),
                other_user habitcore.user_name NOT NULL,
                code text NOT NULL,
                redeemed_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (user_name, side, other_user)
            )
            """,
            // A user redeems one code, once.
            """
            CREATE UNIQUE INDEX referral_redemptions_once ON habitcore.referral_redemptions (user_name)
                WHERE side = 'redeemer'
            """,
            """
            CREATE FUNCTION habitcore.refuse_change() RETURNS trigger
                LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
            BEGIN
                RAISE EXCEPTION 'habitcore hub: % is append-only (% refused)', TG_TABLE_NAME, TG_OP
                    USING ERRCODE = 'insufficient_privilege';
            END
            $fn$
            """,
            // The user a statement acts for: a service role's SET LOCAL, a device's login.
            """
            CREATE FUNCTION habitcore.acting_user() RETURNS text
                LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
                SELECT CASE
                    WHEN pg_has_role(session_user, 'habitcore_service', 'member')
                        THEN nullif(current_setting('habitcore.act_as', true), '')
                    WHEN pg_has_role(session_user, 'habitcore_device', 'member')
                        THEN session_user::text
                END
            $fn$
            """,
            // 0: redeemed (now or before); 1: no such code; 2: the user's own code;
            // 3: the user redeemed another code; 4: no acting user.
            """
            CREATE FUNCTION habitcore.redeem_referral(redeem_code text) RETURNS integer
                LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
            DECLARE
                me text := habitcore.acting_user();
                referrer text;
                redeemed text;
            BEGIN
                IF me IS NULL THEN RETURN 4; END IF;
                SELECT c.user_name INTO referrer FROM habitcore.referral_codes c WHERE c.code = redeem_code;
                IF referrer IS NULL THEN RETURN 1; END IF;
                IF referrer = me THEN RETURN 2; END IF;
                INSERT INTO habitcore.referral_redemptions (user_name, side, other_user, code)
                    VALUES (me, 'redeemer', referrer, redeem_code) ON CONFLICT DO NOTHING;
                SELECT r.code INTO redeemed FROM habitcore.referral_redemptions r
                    WHERE r.user_name = me AND r.side = 'redeemer';
                IF redeemed IS DISTINCT FROM redeem_code THEN RETURN 3; END IF;
                INSERT INTO habitcore.referral_redemptions (user_name, side, other_user, code)
                    VALUES (referrer, 'referrer', me, redeem_code) ON CONFLICT DO NOTHING;
                RETURN 0;
            END
            $fn$
            """,
            "REVOKE ALL ON FUNCTION habitcore.redeem_referral(text) FROM PUBLIC",
            "REVOKE ALL ON FUNCTION habitcore.acting_user() FROM PUBLIC",
            "REVOKE ALL ON FUNCTION habitcore.refuse_change() FROM PUBLIC",
            "GRANT EXECUTE ON FUNCTION habitcore.redeem_referral(text) TO habitcore_device, habitcore_service",
            "GRANT EXECUTE ON FUNCTION habitcore.acting_user() TO habitcore_device, habitcore_service",
            "GRANT SELECT, INSERT ON habitcore.records TO habitcore_device, habitcore_service",
            "GRANT SELECT ON habitcore.replica_heads TO habitcore_device, habitcore_service",
            "GRANT SELECT, INSERT ON habitcore.referral_codes TO habitcore_device, habitcore_service",
            "GRANT SELECT ON habitcore.referral_redemptions TO habitcore_device, habitcore_service",
        ] + ["schema_version", "records", "referral_codes", "referral_redemptions"].flatMap(appendOnly)
            + ["records", "referral_codes", "referral_redemptions"].flatMap(rowSecurity),
        // 2: forked replicas (SyncFork). moves: the ops stores said they moved, so a store
        // that pulls a moved op finds records named by their old id.
        // A record is keyed by its clock stamp too: once the branch it starts has moved
        // (its moved copy is held), the other branch's record under its id is taken
        // beside it; nothing is rewritten. current_records: the records not moved away,
        // what stores are sent and what the hub's state counts.
        [
            """
            CREATE TABLE habitcore.moves (
                user_name habitcore.user_name NOT NULL,
                replica bytea NOT NULL CHECK (length(replica) = 16),
                from_seq bigint NOT NULL CHECK (from_seq >= 1),
                to_replica bytea NOT NULL CHECK (length(to_replica) = 16 AND to_replica <> replica),
                received_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (user_name, replica, from_seq, to_replica)
            )
            """,
            "GRANT SELECT, INSERT ON habitcore.moves TO habitcore_device, habitcore_service",
            "ALTER TABLE habitcore.records DROP CONSTRAINT records_pkey",
            "ALTER TABLE habitcore.records ADD PRIMARY KEY (user_name, replica, seq, hlc)",
            """
            CREATE VIEW habitcore.current_records WITH (security_invoker = true) AS
                SELECT r.* FROM habitcore.records r
                WHERE NOT EXISTS (
                    SELECT 1 FROM habitcore.moves m JOIN habitcore.records c
                        ON c.user_name = m.user_name AND c.replica = m.to_replica AND c.seq = 1 AND c.hlc = r.hlc
                    WHERE m.user_name = r.user_name AND m.replica = r.replica AND m.from_seq = r.seq)
            """,
            """
            CREATE OR REPLACE VIEW habitcore.replica_heads WITH (security_invoker = true) AS
                SELECT user_name, replica, max(seq) AS max_seq, count(*) AS records
                FROM habitcore.current_records GROUP BY user_name, replica
            """,
            "GRANT SELECT ON habitcore.current_records TO habitcore_device, habitcore_service",
        ] + appendOnly("moves") + rowSecurity("moves"),
        // 3: nothing of other users. The device policy in a form an index can serve
        // (the text comparisons that could use the index before it are made not
        // leakproof by `privacy`); codes registered and redeemed only through
        // functions whose answers are rationed by committed tries.
        ["records", "referral_codes", "referral_redemptions", "moves"].map {
            "ALTER POLICY \($0)_device ON habitcore.\($0) USING (\(deviceRows)) WITH CHECK (\(deviceRows))"
        } + [
            "CREATE SCHEMA habitcore_private",
            "REVOKE ALL ON SCHEMA habitcore_private FROM PUBLIC",
            // A user's tries of the last hour: each code looked up is a row committed
            // before its answer is given, so no transaction rolled back takes a try back.
            // Not history: a try older than an hour is deleted by the next one.
            """
            CREATE TABLE habitcore_private.referral_tries (
                user_name habitcore.user_name NOT NULL,
                code text NOT NULL,
                tried_at timestamptz NOT NULL DEFAULT transaction_timestamp(),
                PRIMARY KEY (user_name, code)
            )
            """,
            // NULL: code may be looked up now (its try was committed by an earlier
            // transaction); 5: the user's tries of the hour are spent; 6: the try is
            // recorded now, to be committed before the answer (call again).
            """
            CREATE FUNCTION habitcore_private.referral_try(me text, try_code text) RETURNS integer
                LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $fn$
            DECLARE
                tried timestamptz;
            BEGIN
                DELETE FROM habitcore_private.referral_tries t
                    WHERE t.user_name = me AND t.tried_at < transaction_timestamp() - interval '1 hour';
                SELECT t.tried_at INTO tried FROM habitcore_private.referral_tries t
                    WHERE t.user_name = me AND t.code = try_code;
                IF tried < transaction_timestamp() THEN RETURN NULL; END IF;
                IF tried IS NOT NULL THEN RETURN 6; END IF;
                IF (SELECT count(*) FROM habitcore_private.referral_tries t WHERE t.user_name = me) >= \(referralTries) THEN
                    RETURN 5;
                END IF;
                INSERT INTO habitcore_private.referral_tries (user_name, code) VALUES (me, try_code) ON CONFLICT DO NOTHING;
                RETURN 6;
            END
            $fn$
            """,
            "REVOKE ALL ON FUNCTION habitcore_private.referral_try(text, text) FROM PUBLIC",
            // 0: registered (now or before); 1: another user holds the code; 4: no
            // acting user; 5, 6: referral_try's.
            """
            CREATE FUNCTION habitcore.register_referral(new_code text) RETURNS integer
                LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
            DECLARE
                me text := habitcore.acting_user();
                tried integer;
            BEGIN
                IF me IS NULL THEN RETURN 4; END IF;
                IF EXISTS (SELECT 1 FROM habitcore.referral_codes c WHERE c.user_name = me AND c.code = new_code) THEN RETURN 0; END IF;
                tried := habitcore_private.referral_try(me, new_code);
                IF tried IS NOT NULL THEN RETURN tried; END IF;
                INSERT INTO habitcore.referral_codes (user_name, code) VALUES (me, new_code) ON CONFLICT DO NOTHING;
                IF EXISTS (SELECT 1 FROM habitcore.referral_codes c WHERE c.user_name = me AND c.code = new_code) THEN RETURN 0; END IF;
                RETURN 1;
            END
            $fn$
            """,
            // 0: redeemed (now or before); 1: no such code; 2: the user's own code;
            // 3: the user redeemed another code (whether this one exists or not: only
            // the user's own codes and the one it redeemed are told apart from the rest);
            // 4: no acting user; 5, 6: referral_try's.
            """
            CREATE OR REPLACE FUNCTION habitcore.redeem_referral(redeem_code text) RETURNS integer
                LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
            DECLARE
                me text := habitcore.acting_user();
                referrer text;
                redeemed text;
                tried integer;
            BEGIN
                IF me IS NULL THEN RETURN 4; END IF;
                IF EXISTS (SELECT 1 FROM habitcore.referral_codes c WHERE c.user_name = me AND c.code = redeem_code) THEN RETURN 2; END IF;
                SELECT r.code INTO redeemed FROM habitcore.referral_redemptions r
                    WHERE r.user_name = me AND r.side = 'redeemer';
                IF redeemed IS NOT NULL THEN RETURN CASE WHEN redeemed = redeem_code THEN 0 ELSE 3 END; END IF;
                tried := habitcore_private.referral_try(me, redeem_code);
                IF tried IS NOT NULL THEN RETURN tried; END IF;
                SELECT c.user_name INTO referrer FROM habitcore.referral_codes c WHERE c.code = redeem_code;
                IF referrer IS NULL THEN RETURN 1; END IF;
                INSERT INTO habitcore.referral_redemptions (user_name, side, other_user, code)
                    VALUES (me, 'redeemer', referrer, redeem_code) ON CONFLICT DO NOTHING;
                SELECT r.code INTO redeemed FROM habitcore.referral_redemptions r
                    WHERE r.user_name = me AND r.side = 'redeemer';
                IF redeemed IS DISTINCT FROM redeem_code THEN RETURN 3; END IF;
                INSERT INTO habitcore.referral_redemptions (user_name, side, other_user, code)
                    VALUES (referrer, 'referrer', me, redeem_code) ON CONFLICT DO NOTHING;
                RETURN 0;
            END
            $fn$
            """,
            "REVOKE ALL ON FUNCTION habitcore.register_referral(text) FROM PUBLIC",
            "GRANT EXECUTE ON FUNCTION habitcore.register_referral(text) TO habitcore_device, habitcore_service",
            // A direct INSERT would answer whether another user holds a code (its unique
            // index), unrationed.
            "REVOKE INSERT ON habitcore.referral_codes FROM habitcore_device, habitcore_service",
        ],
        // 4: each record's share of its replica's prefix digest (SyncFork.prefixShare,
        // the same bytes hashed), so the hub's state and pulls compare what a store
        // holds up to a number, not only the op at it.
        [
            """
            CREATE FUNCTION habitcore.op_share(seq bigint, hlc bigint, kind smallint, payload bytea) RETURNS bigint
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $fn$
                SELECT ('x' || encode(substring(sha256(int8send(seq) || int8send(hlc) || set_byte('\\x00'::bytea, 0, kind) || payload)
                                                FROM 1 FOR 8), 'hex'))::bit(64)::bigint
            $fn$
            """,
            "ALTER TABLE habitcore.records ADD COLUMN share bigint GENERATED ALWAYS AS (habitcore.op_share(seq, hlc, kind, payload)) STORED",
            """
            CREATE OR REPLACE VIEW habitcore.current_records WITH (security_invoker = true) AS
                SELECT r.* FROM habitcore.records r
                WHERE NOT EXISTS (
                    SELECT 1 FROM habitcore.moves m JOIN habitcore.records c
                        ON c.user_name = m.user_name AND c.replica = m.to_replica AND c.seq = 1 AND c.hlc = r.hlc
                    WHERE m.user_name = r.user_name AND m.replica = r.replica AND m.from_seq = r.seq)
            """,
        ],
    ]

    /// Triggers refusing UPDATE, DELETE and TRUNCATE, whoever asks.
    private static func appendOnly(_ table: String) -> [String] {
        [
            """
            CREATE TRIGGER \(table)_append_only BEFORE UPDATE OR DELETE ON habitcore.\(table)
                FOR EACH ROW EXECUTE FUNCTION habitcore.refuse_change()
            """,
            """
            CREATE TRIGGER \(table)_no_truncate BEFORE TRUNCATE ON habitcore.\(table)
                FOR EACH STATEMENT EXECUTE FUNCTION habitcore.refuse_change()
            """,
        ]
    }

    /// COLLATE "default": the column's, so the policy is an index condition (session_user
    /// is a name, whose collation is "C", and an index serves only its own collation).
    private static let deviceRows = """
        user_name = (session_user::text COLLATE "default") AND user_name = (current_user::text COLLATE "default")
        """
    private static let serviceRows = """
        pg_has_role(current_user, 'habitcore_service', 'member')
            AND user_name = nullif(current_setting('habitcore.act_as', true), '')
        """

    private static func rowSecurity(_ table: String) -> [String] {
        [
            "ALTER TABLE habitcore.\(table) ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE habitcore.\(table) FORCE ROW LEVEL SECURITY",
            "CREATE POLICY \(table)_device ON habitcore.\(table) TO habitcore_device USING (\(deviceRows)) WITH CHECK (\(deviceRows))",
            "CREATE POLICY \(table)_service ON habitcore.\(table) TO habitcore_service USING (\(serviceRows)) WITH CHECK (\(serviceRows))",
        ]
    }

    /// The schema version the hub holds; 0 before hc_hub_init.
    package static func installedVersion(_ db: PostgresConnection) throws(PostgresError) -> Int32 {
        let exists = try db.query("SELECT to_regclass('habitcore.schema_version') IS NOT NULL")
        guard exists.text(0, 0) == "t" else { return 0 }
        let rows = try db.query("SELECT coalesce(max(version), 0) FROM habitcore.schema_version")
        return Int32(clamping: rows.int(0, 0) ?? 0)
    }

    /// What PostgreSQL shows every role of other roles' work, taken from PUBLIC in the
    /// hub's database (members of pg_read_all_stats, monitoring, keep it), run by every
    /// init as it changes nothing twice: what a restore or an upgrade of PostgreSQL does
    /// not carry over (LEAKPROOF marks) is put back by running init again. A superuser's:
    /// the catalog's privileges are the bootstrap superuser's.
    static let privacy = """
        DO $privacy$
        DECLARE
            object text;
            columns text;
        BEGIN
            -- Row-level security lets a leakproof comparison run before the policy: as an
            -- index condition, EXPLAIN ANALYZE would count another user's rows (and the
            -- planner estimate them from the statistics). Not leakproof, they run after it.
            FOR object IN
                SELECT DISTINCT o.oprcode::regprocedure::text
                FROM pg_catalog.pg_amop a
                JOIN pg_catalog.pg_operator o ON o.oid = a.amopopr
                JOIN pg_catalog.pg_opfamily f ON f.oid = a.amopfamily
                JOIN pg_catalog.pg_am m ON m.oid = f.opfmethod
                JOIN pg_catalog.pg_proc p ON p.oid = o.oprcode
                WHERE m.amname IN ('btree', 'hash') AND f.opfname IN ('text_ops', 'text_pattern_ops') AND p.proleakproof
                UNION
                SELECT p.oid::regprocedure::text FROM pg_catalog.pg_proc p
                WHERE p.oid = 'pg_catalog.starts_with(text, text)'::regprocedure AND p.proleakproof
            LOOP
                EXECUTE format('ALTER FUNCTION %s NOT LEAKPROOF', object);
            END LOOP;
            -- Sessions (user, application, address), locks, sizes, and the counters
            -- of rows and scans per table.
            FOR object IN
                SELECT p.oid::regprocedure::text FROM pg_catalog.pg_proc p
                WHERE p.pronamespace = 'pg_catalog'::regnamespace
                  AND (p.proname LIKE 'pg\\_stat\\_get\\_%' OR p.proname IN ('pg_lock_status', 'pg_blocking_pids',
                       'pg_safe_snapshot_blocking_pids', 'pg_isolation_test_session_is_blocked', 'pg_prepared_xact',
                       'pg_relation_size', 'pg_total_relation_size', 'pg_table_size', 'pg_indexes_size',
                       'pg_database_size', 'pg_tablespace_size'))
            LOOP
                EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', object);
                EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO pg_read_all_stats', object);
            END LOOP;
            -- The lists of roles and memberships, and the views over what is above.
            FOR object IN
                SELECT c.oid::regclass::text FROM pg_catalog.pg_class c
                WHERE c.relnamespace = 'pg_catalog'::regnamespace
                  AND (c.relname LIKE 'pg\\_stat\\_%' OR c.relname LIKE 'pg\\_statio\\_%'
                       OR c.relname IN ('pg_roles', 'pg_user', 'pg_group', 'pg_auth_members', 'pg_db_role_setting',
                                        'pg_locks', 'pg_prepared_xacts'))
            LOOP
                EXECUTE format('REVOKE SELECT ON %s FROM PUBLIC', object);
                EXECUTE format('GRANT SELECT ON %s TO pg_read_all_stats', object);
            END LOOP;
            -- pg_class without its row and page counts.
            SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO columns
            FROM pg_catalog.pg_attribute a
            WHERE a.attrelid = 'pg_catalog.pg_class'::regclass AND a.attnum > 0 AND NOT a.attisdropped
              AND a.attname NOT IN ('reltuples', 'relpages', 'relallvisible');
            REVOKE SELECT ON pg_catalog.pg_class FROM PUBLIC;
            EXECUTE format('GRANT SELECT (%s) ON pg_catalog.pg_class TO PUBLIC', columns);
            GRANT SELECT ON pg_catalog.pg_class TO pg_read_all_stats;
            -- No statistics of the hub's tables: a plan's estimates come from defaults,
            -- never from other users' values (a user's rows are found by the keys).
            FOR object IN
                SELECT format('ALTER TABLE %s ALTER COLUMN %I SET STATISTICS 0', a.attrelid::regclass, a.attname)
                FROM pg_catalog.pg_attribute a
                JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
                WHERE c.relnamespace IN ('habitcore'::regnamespace, 'habitcore_private'::regnamespace) AND c.relkind = 'r'
                  AND a.attnum > 0 AND NOT a.attisdropped AND a.attstattarget <> 0
            LOOP
                EXECUTE object;
            END LOOP;
            DELETE FROM pg_catalog.pg_statistic s USING pg_catalog.pg_class c
            WHERE s.starelid = c.oid AND c.relnamespace IN ('habitcore'::regnamespace, 'habitcore_private'::regnamespace);
        END
        $privacy$
        """

    /// Ends the sessions of hub users in this database: a migration that found a
    /// table held (a user's transaction left open) runs again without them. Their
    /// calls are safe to repeat, as the header promises.
    static let endHubSessions = """
        SELECT count(pg_catalog.pg_terminate_backend(a.pid)) FROM pg_catalog.pg_stat_activity a
        WHERE a.pid <> pg_catalog.pg_backend_pid() AND a.datname = current_database() AND a.usesysid IS NOT NULL
          AND (pg_catalog.pg_has_role(a.usesysid, 'habitcore_device', 'MEMBER')
               OR pg_catalog.pg_has_role(a.usesysid, 'habitcore_service', 'MEMBER'))
        """

    /// Migrates to this library's version in one transaction. Two inits wait for each
    /// other on a lock of a table hub users may only read (SHARE UPDATE EXCLUSIVE,
    /// which no lock they can hold delays; not an advisory lock, which any user could
    /// take); a migration's wait for a table a user holds is cut short by ending hub
    /// users' sessions. The first init has no table to lock: a second one at the same
    /// moment fails on the schema the first created, and runs again.
    package static func migrate(_ db: PostgresConnection) throws(HabitError) -> Int32 {
        let superuser: Bool
        do throws(PostgresError) {
            superuser = try db.query("SELECT current_setting('is_superuser')").text(0, 0) == "on"
        } catch {
            throw error.habitError
        }
        guard superuser else {
            throw HabitError(.io, "hub init needs a superuser: it takes from PUBLIC the catalog views that show other users (docs/SCALE.md)")
        }
        var attempts = 0
        while true {
            attempts += 1
            let migrated: Int32?
            do throws(PostgresError) {
                migrated = try db.transaction { () throws(PostgresError) -> Int32? in
                    if try installedVersion(db) > 0 {
                        try db.query("LOCK TABLE habitcore.schema_version IN SHARE UPDATE EXCLUSIVE MODE")
                    }
                    let installed = try installedVersion(db)
                    guard installed >= 0, installed <= version else { return nil }
                    try db.query("SET LOCAL lock_timeout = '3s'")
                    try db.query(roles)
                    for step in Int(installed)..<Int(version) {
                        for statement in migrations[step] { try db.query(statement) }
                        try db.query("INSERT INTO habitcore.schema_version (version) VALUES ($1)", [.int(Int64(step + 1))])
                    }
                    try db.query(privacy)
                    return version
                }
            } catch {
                // 55P03: a lock waited for past lock_timeout; 23505, 42P06, 42710: a
                // concurrent first init made the schema or a role first; 40P01: deadlock.
                guard attempts < 5, ["55P03", "23505", "42P06", "42710", "40P01"].contains(error.sqlstate) else { throw error.habitError }
                if error.sqlstate == "55P03" {
                    do throws(PostgresError) { try db.query(endHubSessions) } catch { throw error.habitError }
                }
                continue
            }
            guard let migrated else {
                throw HabitError(.tooNew, "the hub schema is newer than this library's (\(version)), or its version row is damaged; upgrade libhabitcore_hub")
            }
            return migrated
        }
    }
}
