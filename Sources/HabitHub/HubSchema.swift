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
/// - the one cross-user operation, redeeming a referral code, is a SECURITY DEFINER
///   function with search_path pinned to pg_catalog, pg_temp.
package enum HubSchema {
    package static let version: Int32 = 2

    /// The group roles hc_hub_user_add puts logins in. Cluster-wide, so created
    /// only when missing.
    static let roles = """
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
    static let migrations: [[String]] = [
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
        // 2: forked replicas (SyncFork). moves: the branches stores said they moved, so a
        // store that pulls a moved branch's records finds records named by their old id.
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
                        ON c.user_name = m.user_name AND c.replica = m.to_replica AND c.seq = r.seq - m.from_seq + 1 AND c.hlc = r.hlc
                    WHERE m.user_name = r.user_name AND m.replica = r.replica AND m.from_seq <= r.seq)
            """,
            """
            CREATE OR REPLACE VIEW habitcore.replica_heads WITH (security_invoker = true) AS
                SELECT user_name, replica, max(seq) AS max_seq, count(*) AS records
                FROM habitcore.current_records GROUP BY user_name, replica
            """,
            "GRANT SELECT ON habitcore.current_records TO habitcore_device, habitcore_service",
        ] + appendOnly("moves") + rowSecurity("moves"),
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

    private static let deviceRows = "user_name = session_user::text AND user_name = current_user::text"
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

    /// Migrates to this library's version in one transaction, serialised by an
    /// advisory lock so two admins running init at once do it once.
    package static func migrate(_ db: PostgresConnection) throws(HabitError) -> Int32 {
        let migrated: Int32?
        do throws(PostgresError) {
            migrated = try db.transaction { () throws(PostgresError) -> Int32? in
                try db.query("SELECT pg_advisory_xact_lock(7261001)")
                let installed = try installedVersion(db)
                guard installed >= 0, installed <= version else { return nil }
                try db.query(roles)
                for step in Int(installed)..<Int(version) {
                    for statement in migrations[step] { try db.query(statement) }
                    try db.query("INSERT INTO habitcore.schema_version (version) VALUES ($1)", [.int(Int64(step + 1))])
                }
                return version
            }
        } catch {
            throw error.habitError
        }
        guard let migrated else {
            throw HabitError(.tooNew, "the hub schema is newer than this library's (\(version)), or its version row is damaged; upgrade libhabitcore_hub")
        }
        return migrated
    }
}
