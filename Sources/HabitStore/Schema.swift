import HabitCore

/// A step of the schema, named for what it adds: its SQL, then the data it writes
/// (a step is found by its name, never by its place in the list).
struct Migration: Sendable {
    let name: String
    let sql: String
    var data: (@Sendable (Database) throws(HabitError) -> Void)? = nil
}

/// The store's schema and its forward migrations. Version N of the schema (the
/// file's user_version) is reached by running migrations[0..<N] in order; a file
/// from a newer habitcore (user_version above ours) is refused, never touched.
enum Schema {
    /// "HBCR": marks a SQLite file as a habitcore store.
    static let applicationId: Int64 = 0x4842_4352

    static let migrations: [Migration] = [
        // 1: settings, habits with their schedule history, the append-only ledger.
        Migration(
            name: "ledger",
            sql: """
                CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
                CREATE TABLE habits(
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    kind INTEGER NOT NULL,
                    target REAL NOT NULL,
                    direction INTEGER NOT NULL,
                    group_name TEXT,
                    unit TEXT,
                    routine INTEGER NOT NULL,
                    proof_required INTEGER NOT NULL,
                    start_day INTEGER NOT NULL,
                    archived_day INTEGER,
                    created_at_ms INTEGER NOT NULL
                ) STRICT;
                CREATE UNIQUE INDEX habits_active_name ON habits(name COLLATE NOCASE) WHERE archived_day IS NULL;
                CREATE TABLE habit_schedules(
                    habit_id INTEGER NOT NULL REFERENCES habits(id),
                    from_day INTEGER NOT NULL,
                    schedule TEXT NOT NULL,
                    PRIMARY KEY(habit_id, from_day)
                ) STRICT;
                CREATE TABLE entries(
                    id INTEGER PRIMARY KEY,
                    habit_id INTEGER NOT NULL REFERENCES habits(id),
                    day INTEGER NOT NULL,
                    kind INTEGER NOT NULL,
                    value REAL NOT NULL,
                    recorded_at_ms INTEGER NOT NULL,
                    source INTEGER NOT NULL,
                    undoes INTEGER REFERENCES entries(id),
                    note TEXT
                ) STRICT;
                CREATE INDEX entries_habit_day ON entries(habit_id, day);
                -- An entry is undone at most once.
                CREATE UNIQUE INDEX entries_undoes ON entries(undoes) WHERE undoes IS NOT NULL;
                -- The ledger is append-only: the database itself refuses changes.
                \(appendOnly("entries", "entries"))
                """),
        // 2: vacations, for one habit or (habit_id NULL) all of them.
        Migration(
            name: "vacations",
            sql: """
                CREATE TABLE vacations(
                    id INTEGER PRIMARY KEY,
                    habit_id INTEGER REFERENCES habits(id),
                    from_day INTEGER NOT NULL,
                    to_day INTEGER NOT NULL
                ) STRICT;
                """),
        // 3: the credit ledger: accounts (1 is the default), effective-dated rules,
        // append-only entries, step reports and unlock sessions.
        Migration(
            name: "credits",
            sql: """
                CREATE TABLE credit_accounts(id INTEGER PRIMARY KEY, name TEXT NOT NULL, created_at_ms INTEGER NOT NULL) STRICT;
                CREATE UNIQUE INDEX credit_accounts_name ON credit_accounts(name COLLATE NOCASE);
                INSERT INTO credit_accounts(id, name, created_at_ms) VALUES(1, 'default', 0);
                CREATE TABLE credit_rules(
                    id INTEGER PRIMARY KEY,
                    account_id INTEGER NOT NULL REFERENCES credit_accounts(id),
                    kind INTEGER NOT NULL,
                    habit_id INTEGER REFERENCES habits(id),
                    value INTEGER NOT NULL,
                    from_day INTEGER NOT NULL,
                    recorded_at_ms INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE credit_entries(
                    id INTEGER PRIMARY KEY,
                    account_id INTEGER NOT NULL REFERENCES credit_accounts(id),
                    kind INTEGER NOT NULL,
                    minutes INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    reason TEXT,
                    cause INTEGER NOT NULL,
                    cause_id INTEGER,
                    habit_id INTEGER REFERENCES habits(id),
                    steps INTEGER
                ) STRICT;
                CREATE INDEX credit_entries_account_day ON credit_entries(account_id, day);
                CREATE INDEX credit_entries_habit_day ON credit_entries(habit_id, day) WHERE habit_id IS NOT NULL;
                CREATE TABLE credit_steps(
                    id INTEGER PRIMARY KEY,
                    account_id INTEGER NOT NULL REFERENCES credit_accounts(id),
                    day INTEGER NOT NULL,
                    steps INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL
                ) STRICT;
                CREATE INDEX credit_steps_account_day ON credit_steps(account_id, day);
                CREATE TABLE unlock_sessions(
                    id INTEGER PRIMARY KEY,
                    account_id INTEGER NOT NULL REFERENCES credit_accounts(id),
                    minutes INTEGER NOT NULL,
                    start_ms INTEGER NOT NULL,
                    end_ms INTEGER NOT NULL,
                    reason TEXT
                ) STRICT;
                CREATE INDEX unlock_sessions_account_end ON unlock_sessions(account_id, end_ms);
                \(appendOnly("credit_entries", "credit entries"))
                \(appendOnly("credit_rules", "credit rules"))
                \(appendOnly("credit_steps", "step reports"))
                \(appendOnly("unlock_sessions", "sessions"))
                """),
        // 4: awards: the catalogue (replaceable; the built-in one is written after
        // this step), unlocks recorded once, referral redemptions, and events with
        // their acknowledgements. All but the catalogue are append-only.
        Migration(
            name: "awards",
            sql: """
                CREATE TABLE award_rules(
                    position INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    title TEXT NOT NULL,
                    description TEXT NOT NULL,
                    icon TEXT NOT NULL,
                    tier INTEGER NOT NULL,
                    metric INTEGER NOT NULL,
                    scope INTEGER NOT NULL,
                    habit_id INTEGER REFERENCES habits(id),
                    threshold INTEGER NOT NULL
                ) STRICT;
                CREATE TABLE award_unlocks(
                    id INTEGER PRIMARY KEY,
                    rule_id TEXT NOT NULL UNIQUE,
                    title TEXT NOT NULL,
                    description TEXT NOT NULL,
                    icon TEXT NOT NULL,
                    tier INTEGER NOT NULL,
                    metric INTEGER NOT NULL,
                    scope INTEGER NOT NULL,
                    habit_id INTEGER,
                    threshold INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    cause_kind INTEGER NOT NULL,
                    cause_id INTEGER,
                    cause_habit_id INTEGER
                ) STRICT;
                CREATE TABLE referral_redemptions(id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, day INTEGER NOT NULL, at_ms INTEGER NOT NULL) STRICT;
                CREATE TABLE events(
                    id INTEGER PRIMARY KEY,
                    kind INTEGER NOT NULL,
                    key TEXT NOT NULL UNIQUE,
                    day INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    habit_id INTEGER,
                    entry_id INTEGER,
                    award_id TEXT,
                    value REAL NOT NULL
                ) STRICT;
                CREATE INDEX events_habit_kind ON events(habit_id, kind) WHERE habit_id IS NOT NULL;
                CREATE TABLE event_acks(event_id INTEGER PRIMARY KEY REFERENCES events(id), at_ms INTEGER NOT NULL) STRICT;
                \(appendOnly("award_unlocks", "unlocks"))
                \(appendOnly("referral_redemptions", "redemptions"))
                \(appendOnly("events", "events"))
                \(appendOnly("event_acks", "acknowledgements"))
                """, data: { db throws(HabitError) in try Store.writeAwardRules(AwardCatalogue.builtIn, into: db) }),
        // 5: proofs and their verdicts (append-only), policies (habit_id 0: the
        // store's) and registered plugins.
        Migration(
            name: "proofs",
            sql: """
                CREATE TABLE proofs(
                    id INTEGER PRIMARY KEY,
                    habit_id INTEGER NOT NULL REFERENCES habits(id),
                    day INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    media_type TEXT NOT NULL,
                    taken_at_ms INTEGER,
                    received_at_ms INTEGER NOT NULL,
                    metadata TEXT,
                    copy BLOB
                ) STRICT;
                CREATE INDEX proofs_sha256 ON proofs(sha256);
                CREATE INDEX proofs_habit_day ON proofs(habit_id, day);
                CREATE TABLE proof_verdicts(
                    id INTEGER PRIMARY KEY,
                    proof_id INTEGER NOT NULL REFERENCES proofs(id),
                    stage INTEGER NOT NULL,
                    verifier_id TEXT NOT NULL,
                    verifier_version TEXT NOT NULL,
                    outcome INTEGER NOT NULL,
                    confidence REAL NOT NULL,
                    reason_code TEXT NOT NULL,
                    message TEXT NOT NULL,
                    signals TEXT NOT NULL,
                    duration_us INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    reviewer TEXT,
                    entry_id INTEGER REFERENCES entries(id)
                ) STRICT;
                CREATE INDEX proof_verdicts_proof ON proof_verdicts(proof_id);
                CREATE TABLE proof_policies(
                    habit_id INTEGER PRIMARY KEY,
                    mode INTEGER NOT NULL,
                    approve_threshold REAL NOT NULL,
                    review_threshold REAL NOT NULL,
                    window_start INTEGER,
                    window_end INTEGER,
                    one_per_day INTEGER NOT NULL,
                    verifiers TEXT NOT NULL
                ) STRICT;
                CREATE TABLE plugins(
                    id TEXT PRIMARY KEY,
                    kind INTEGER NOT NULL,
                    path TEXT NOT NULL,
                    version TEXT NOT NULL,
                    timeout_ms INTEGER NOT NULL,
                    added_at_ms INTEGER NOT NULL
                ) STRICT;
                \(appendOnly("proofs", "proofs"))
                \(appendOnly("proof_verdicts", "verdicts"))
                """),
        // 6: fingerprints verifiers keep with proofs (append-only), and each plugin's
        // settings in this store.
        Migration(
            name: "fingerprints",
            sql: """
                CREATE TABLE proof_fingerprints(
                    id INTEGER PRIMARY KEY,
                    proof_id INTEGER NOT NULL REFERENCES proofs(id),
                    verifier_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    value BLOB NOT NULL
                ) STRICT;
                CREATE INDEX proof_fingerprints_kind ON proof_fingerprints(verifier_id, kind, proof_id);
                ALTER TABLE plugins ADD COLUMN config TEXT;
                \(appendOnly("proof_fingerprints", "fingerprints"))
                """),
        // 7: a habit's own streak policy (NULL: the store's, kept in settings), and
        // unlock sessions ended early (append-only; a session ends at most once).
        Migration(
            name: "streak policies and session ends",
            sql: """
                CREATE TABLE streak_policies(
                    habit_id INTEGER PRIMARY KEY REFERENCES habits(id),
                    miss_allowance INTEGER,
                    open_day INTEGER
                ) STRICT;
                CREATE TABLE session_ends(
                    session_id INTEGER PRIMARY KEY REFERENCES unlock_sessions(id),
                    ended_at_ms INTEGER NOT NULL,
                    recorded_at_ms INTEGER NOT NULL,
                    refund_minutes INTEGER NOT NULL
                ) STRICT;
                CREATE INDEX credit_entries_session ON credit_entries(cause_id) WHERE cause = 3;
                \(appendOnly("session_ends", "session ends"))
                """),
        // 8: caller-chosen keys that make an append safe to retry: a key names the one
        // entry it first appended (append-only, one entry per key).
        Migration(
            name: "append keys",
            sql: """
                CREATE TABLE entry_keys(
                    key TEXT PRIMARY KEY,
                    entry_id INTEGER NOT NULL UNIQUE REFERENCES entries(id)
                ) STRICT;
                \(appendOnly("entry_keys", "entry keys"))
                """),
        // 9: the fold's index. A habit's entries in (day, append) order with every
        // column the day fold reads, so a history is read from the index alone;
        // it replaces (habit_id, day), which is its prefix.
        Migration(
            name: "fold index",
            sql: """
                CREATE INDEX IF NOT EXISTS entries_fold ON entries(habit_id, day, id, kind, value, source, undoes);
                DROP INDEX IF EXISTS entries_habit_day;
                """),
        // 10: reminders: rules per habit with their versions (each from a day on; a
        // NULL minute removes the rule), store-wide quiet hours from a day on (NULL
        // bounds: none), snoozes and deliveries (append-only; one delivery per rule,
        // day and instant, which is what makes several processes deliver once).
        Migration(
            name: "reminders",
            sql: """
                CREATE TABLE reminder_rules(
                    id INTEGER PRIMARY KEY,
                    habit_id INTEGER NOT NULL REFERENCES habits(id),
                    created_at_ms INTEGER NOT NULL
                ) STRICT;
                CREATE INDEX reminder_rules_habit ON reminder_rules(habit_id);
                CREATE TABLE reminder_rule_versions(
                    rule_id INTEGER NOT NULL REFERENCES reminder_rules(id),
                    from_day INTEGER NOT NULL,
                    minute INTEGER,
                    weekdays INTEGER NOT NULL,
                    message TEXT,
                    quiet INTEGER NOT NULL,
                    PRIMARY KEY(rule_id, from_day)
                ) STRICT;
                CREATE TABLE quiet_hours(from_day INTEGER PRIMARY KEY, start_minute INTEGER, end_minute INTEGER) STRICT;
                CREATE TABLE reminder_snoozes(
                    id INTEGER PRIMARY KEY,
                    rule_id INTEGER NOT NULL REFERENCES reminder_rules(id),
                    day INTEGER NOT NULL,
                    from_ms INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    recorded_at_ms INTEGER NOT NULL,
                    UNIQUE(rule_id, day, at_ms)
                ) STRICT;
                CREATE INDEX reminder_snoozes_at ON reminder_snoozes(at_ms);
                CREATE TABLE reminder_deliveries(
                    id INTEGER PRIMARY KEY,
                    rule_id INTEGER NOT NULL REFERENCES reminder_rules(id),
                    day INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    fired_at_ms INTEGER NOT NULL,
                    UNIQUE(rule_id, day, at_ms)
                ) STRICT;
                CREATE INDEX reminder_deliveries_at ON reminder_deliveries(at_ms);
                \(appendOnly("reminder_snoozes", "snoozes"))
                \(appendOnly("reminder_deliveries", "reminder deliveries"))
                """),
        // 11: proofs whose verifiers are running, with the process running them: a
        // row left behind by a process that died is marked an error at the next open.
        Migration(
            name: "running verifications",
            sql: """
                CREATE TABLE proof_runs(
                    proof_id INTEGER PRIMARY KEY REFERENCES proofs(id),
                    pid INTEGER NOT NULL,
                    started_at_ms INTEGER NOT NULL
                ) STRICT;
                """),
        // 12: shields: rules with their versions (each from a day on; a NULL name
        // removes the rule), emergency unlocks (append-only, with the habit day the
        // budget counts them on), the store's zone changes (append-only) and a
        // revision that every write able to change a shield bumps, by trigger, from
        // any process.
        Migration(
            name: "shields",
            sql: """
                CREATE TABLE shield_rules(id INTEGER PRIMARY KEY, created_at_ms INTEGER NOT NULL) STRICT;
                CREATE TABLE shield_rule_versions(
                    rule_id INTEGER NOT NULL REFERENCES shield_rules(id),
                    from_day INTEGER NOT NULL,
                    name TEXT,
                    key TEXT NOT NULL,
                    days TEXT NOT NULL,
                    start_minute INTEGER,
                    end_minute INTEGER,
                    habits TEXT NOT NULL,
                    lift INTEGER NOT NULL,
                    session_lifts INTEGER NOT NULL,
                    cutoff_lifts INTEGER NOT NULL,
                    excused_lifts INTEGER NOT NULL,
                    fail_closed INTEGER NOT NULL,
                    budget_period INTEGER NOT NULL,
                    budget_count INTEGER NOT NULL,
                    PRIMARY KEY(rule_id, from_day)
                ) STRICT;
                CREATE TABLE shield_emergencies(
                    id INTEGER PRIMARY KEY,
                    rule_id INTEGER NOT NULL REFERENCES shield_rules(id),
                    at_ms INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    minutes INTEGER NOT NULL,
                    reason TEXT
                ) STRICT;
                CREATE INDEX shield_emergencies_rule_day ON shield_emergencies(rule_id, day);
                CREATE TABLE zone_changes(id INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, from_zone TEXT NOT NULL, to_zone TEXT NOT NULL) STRICT;
                CREATE TABLE shield_revision(id INTEGER PRIMARY KEY CHECK(id = 1), value INTEGER NOT NULL) STRICT;
                INSERT INTO shield_revision(id, value) VALUES(1, 1);
                \(appendOnly("shield_emergencies", "emergency unlocks"))
                \(appendOnly("zone_changes", "zone changes"))
                \(bumpsRevision(["settings", "habits", "entries", "vacations", "unlock_sessions", "session_ends", "shield_rules",
                         "shield_rule_versions", "shield_emergencies", "zone_changes"]))
                """),
        // 13: what a frontend shows of a habit (HabitDisplay): description, question,
        // colour, icon, and its place in the app's order (0 for every habit before).
        Migration(
            name: "habit display",
            sql: """
                ALTER TABLE habits ADD COLUMN description TEXT;
                ALTER TABLE habits ADD COLUMN question TEXT;
                ALTER TABLE habits ADD COLUMN colour TEXT;
                ALTER TABLE habits ADD COLUMN icon TEXT;
                ALTER TABLE habits ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
                """),
        // 14: sync between a person's devices. The store's random replica id and its
        // hybrid logical clock; the replicas it knows, by a small number, with the
        // sequence number up to which it holds all of each one's ops; the op log:
        // every syncable write, local or received, keyed by its global id (replica,
        // seq), with the local id of the record it made (a habit, an entry, a vacation;
        // NULL when none or removed) and pending = 1 while it waits for a record it
        // names; the last-writer-wins registers; removed vacations (the observed-remove
        // set's tombstones). backfilled = 0: an older store's rows still need ops,
        // written at the next writable open.
        Migration(
            name: "sync",
            sql: """
                CREATE TABLE sync_replica(
                    id INTEGER PRIMARY KEY CHECK(id = 1),
                    replica BLOB NOT NULL CHECK(length(replica) = 16),
                    hlc INTEGER NOT NULL,
                    backfilled INTEGER NOT NULL
                ) STRICT;
                INSERT INTO sync_replica(id, replica, hlc, backfilled) VALUES(1, randomblob(16), 0, 0);
                CREATE TABLE sync_replicas(
                    num INTEGER PRIMARY KEY,
                    replica BLOB NOT NULL UNIQUE CHECK(length(replica) = 16),
                    seen INTEGER NOT NULL DEFAULT 0
                ) STRICT;
                INSERT INTO sync_replicas(num, replica) SELECT 1, replica FROM sync_replica;
                CREATE TABLE sync_ops(
                    rep INTEGER NOT NULL REFERENCES sync_replicas(num),
                    seq INTEGER NOT NULL,
                    hlc INTEGER NOT NULL,
                    kind INTEGER NOT NULL,
                    payload BLOB NOT NULL,
                    pending INTEGER NOT NULL,
                    local_id INTEGER,
                    PRIMARY KEY(rep, seq)
                ) STRICT, WITHOUT ROWID;
                CREATE UNIQUE INDEX sync_ops_local ON sync_ops(kind, local_id) WHERE local_id IS NOT NULL;
                CREATE INDEX sync_ops_pending ON sync_ops(pending) WHERE pending = 1;
                CREATE TABLE sync_lww(target TEXT PRIMARY KEY, hlc INTEGER NOT NULL, replica BLOB NOT NULL) STRICT;
                CREATE TABLE sync_removed(rep INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY(rep, seq)) STRICT, WITHOUT ROWID;
                """),
        // 15: award unlocks, credit rules and zone changes sync. A replica keeps every
        // device's unlock of an award (the earliest crossing day stands), so rule_id is
        // no longer unique. proof_copies: evidence received by sync for a proof that
        // arrived without its copy (proofs are append-only). backfilled = 0: the unlocks, rules and zone changes recorded
        // before get ops at the next writable open.
        Migration(
            name: "synced awards, credit rules and zones",
            sql: """
                CREATE TABLE award_unlocks_15(
                    id INTEGER PRIMARY KEY,
                    rule_id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    description TEXT NOT NULL,
                    icon TEXT NOT NULL,
                    tier INTEGER NOT NULL,
                    metric INTEGER NOT NULL,
                    scope INTEGER NOT NULL,
                    habit_id INTEGER,
                    threshold INTEGER NOT NULL,
                    day INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    cause_kind INTEGER NOT NULL,
                    cause_id INTEGER,
                    cause_habit_id INTEGER
                ) STRICT;
                INSERT INTO award_unlocks_15 SELECT * FROM award_unlocks;
                DROP TABLE award_unlocks;
                ALTER TABLE award_unlocks_15 RENAME TO award_unlocks;
                CREATE INDEX award_unlocks_rule ON award_unlocks(rule_id);
                \(appendOnly("award_unlocks", "unlocks"))
                CREATE TABLE proof_copies(proof_id INTEGER PRIMARY KEY REFERENCES proofs(id), bytes BLOB NOT NULL) STRICT;
                \(appendOnly("proof_copies", "evidence copies"))
                UPDATE sync_replica SET backfilled = 0;
                """),
        // 16: the shield revision's triggers leave the file for each writer's connection
        // (Schema.installWriterTriggers): every reader parses the file's whole schema at
        // its first statement, and these 30 were a tenth of a cold shield ask's work.
        Migration(
            name: "writer triggers",
            sql: Schema.shieldRevisionTables.flatMap { table in
                ["insert", "update", "delete"].map { "DROP TRIGGER IF EXISTS \(table)_shield_\($0);" }
            }.joined(separator: "\n")),
        // 17: the moved ops of forked replicas (SyncFork) this store knows of: an op of
        // `replica` at `from_seq` became op 1 of `to_replica`, so a record named by its
        // old id and its stamp is found under the new one (two copies can fork at one
        // number: each later op there has its own move).
        Migration(
            name: "sync moves",
            sql: """
                CREATE TABLE sync_moves(
                    replica BLOB NOT NULL CHECK(length(replica) = 16),
                    from_seq INTEGER NOT NULL CHECK(from_seq >= 1),
                    to_replica BLOB NOT NULL CHECK(length(to_replica) = 16),
                    PRIMARY KEY(replica, from_seq, to_replica)
                ) STRICT, WITHOUT ROWID;
                """),
        // 18: every setting that judges a day is versioned by the day it applies from,
        // as schedules were: the schedules become the habit's settings versions, each
        // with target, direction, proof requirement, group and archived. An older
        // store's versions take the habit's current values (what judged every day
        // until now, so no answer changes), and an archived habit is archived from
        // its archive day on.
        Migration(
            name: "settings versions",
            sql: """
                ALTER TABLE habit_schedules RENAME TO habit_versions;
                ALTER TABLE habit_versions ADD COLUMN target REAL NOT NULL DEFAULT 1;
                ALTER TABLE habit_versions ADD COLUMN direction INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE habit_versions ADD COLUMN proof_required INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE habit_versions ADD COLUMN group_name TEXT;
                ALTER TABLE habit_versions ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
                UPDATE habit_versions SET
                    target = (SELECT target FROM habits WHERE id = habit_id),
                    direction = (SELECT direction FROM habits WHERE id = habit_id),
                    proof_required = (SELECT proof_required FROM habits WHERE id = habit_id),
                    group_name = (SELECT group_name FROM habits WHERE id = habit_id);
                INSERT INTO habit_versions(habit_id, from_day, schedule, target, direction, proof_required, group_name, archived)
                    SELECT h.id, h.archived_day,
                           coalesce((SELECT v.schedule FROM habit_versions v WHERE v.habit_id = h.id AND v.from_day <= h.archived_day
                                     ORDER BY v.from_day DESC LIMIT 1),
                                    (SELECT v.schedule FROM habit_versions v WHERE v.habit_id = h.id ORDER BY v.from_day LIMIT 1), 'daily'),
                           h.target, h.direction, h.proof_required, h.group_name, 1
                    FROM habits h WHERE h.archived_day IS NOT NULL
                    ON CONFLICT(habit_id, from_day) DO UPDATE SET archived = 1;
                UPDATE habit_versions SET archived = 1
                    WHERE from_day >= (SELECT archived_day FROM habits WHERE id = habit_id AND archived_day IS NOT NULL);
                """),
        // 19: each op's replica prefix digest through it (SyncFork.prefixShare), NULL until
        // every op below it is held; filled for the ops already logged (Store.extendDigests).
        Migration(
            name: "sync digests",
            sql: """
                ALTER TABLE sync_ops ADD COLUMN digest INTEGER;
                """, data: { db throws(HabitError) in try Store.extendAllDigests(db) }),
        // 20: each habit's folded days saved beside the ledger (SavedFold), written when a
        // cold read folds them; empty until then.
        Migration(
            name: "saved folds",
            sql: """
                CREATE TABLE saved_folds(
                    habit_id INTEGER PRIMARY KEY REFERENCES habits(id),
                    rules BLOB NOT NULL,
                    through_entry INTEGER NOT NULL,
                    days BLOB NOT NULL
                ) STRICT;
                """),
        // 21: the store revision: each op numbered in the order this file logged it
        // (Store.revision); the ops already logged, by clock stamp. Dropped first: a
        // file set back to an older schema version runs it again and rebuilds it.
        Migration(
            name: "change log",
            sql: """
                DROP TABLE IF EXISTS change_log;
                CREATE TABLE change_log(rev INTEGER PRIMARY KEY, rep INTEGER NOT NULL, seq INTEGER NOT NULL) STRICT;
                INSERT INTO change_log(rep, seq) SELECT rep, seq FROM sync_ops ORDER BY hlc, rep, seq;
                """),
        // 22: the streak policies and routine bounds sync since 1.1; a store whose records
        // were logged before kept them unlogged. The next writable open logs what has no op
        // yet (Store.logUnsyncedRecords), as it did once for every record.
        Migration(
            name: "log the reading rules",
            sql: """
                UPDATE sync_replica SET backfilled = 0;
                """),
        // 23: timers (TimerRules): append-only events. A start (timer_id NULL) names its
        // habit, the day its time counts to and its auto-complete flag; a pause, resume,
        // stop or discard names its start. Kept when a file set back to an older schema
        // version runs it again (IF NOT EXISTS): its rows are history.
        Migration(
            name: "timers",
            sql: """
                CREATE TABLE IF NOT EXISTS timer_events(
                    id INTEGER PRIMARY KEY,
                    timer_id INTEGER REFERENCES timer_events(id),
                    habit_id INTEGER NOT NULL REFERENCES habits(id),
                    action INTEGER NOT NULL,
                    at_ms INTEGER NOT NULL,
                    day INTEGER,
                    auto_complete INTEGER NOT NULL DEFAULT 0
                ) STRICT;
                CREATE INDEX IF NOT EXISTS timer_events_habit_day ON timer_events(habit_id, day) WHERE timer_id IS NULL;
                CREATE INDEX IF NOT EXISTS timer_events_timer ON timer_events(timer_id) WHERE timer_id IS NOT NULL;
                CREATE INDEX IF NOT EXISTS timer_events_habit_at ON timer_events(habit_id, at_ms);
                DROP TRIGGER IF EXISTS timer_events_no_update;
                DROP TRIGGER IF EXISTS timer_events_no_delete;
                \(appendOnly("timer_events", "timer events"))
                """),
    ]

    /// The tables whose rows decide a shield's state.
    private static let shieldRevisionTables = [
        "settings", "habits", "habit_versions", "entries", "vacations", "unlock_sessions", "session_ends",
        "shield_rules", "shield_rule_versions", "shield_emergencies", "zone_changes", "timer_events",
    ]
    /// Those of them that are append-only (their own triggers refuse UPDATE and DELETE):
    /// each insert raises the table's largest rowid, so the revision counts them by
    /// reading those (Store.shieldRevision) and no trigger fires on them.
    static let appendOnlyShieldTables = ["entries", "unlock_sessions", "session_ends", "shield_emergencies", "zone_changes", "timer_events"]

    /// Installs, on a writer's connection, the TEMP triggers that bump the shield
    /// revision's counter on every row written to a table that decides a shield and is
    /// not append-only: every write of every habitcore process goes through such a
    /// connection, and readers, which never write, do not parse them.
    static func installWriterTriggers(_ db: Database) throws(HabitError) {
        try db.execute(
            shieldRevisionTables.filter { !appendOnlyShieldTables.contains($0) }.flatMap { table in
                ["INSERT", "UPDATE", "DELETE"].map { verb in
                    // A setting no shield reads leaves the revision: a plan made before it is not stale.
                    let row = verb == "DELETE" ? "OLD" : "NEW"
                    let when = table == "settings" ? " WHEN \(row).key <> '\(Store.timerCreditsSettledKey)'" : ""
                    return """
                        CREATE TEMP TRIGGER \(table)_shield_\(verb.lowercased()) AFTER \(verb) ON main.\(table)\(when)
                        BEGIN UPDATE shield_revision SET value = value + 1; END;
                        """
                }
            }.joined(separator: "\n"))
    }

    /// Triggers that make the database itself refuse changes to a table's rows.
    private static func appendOnly(_ table: String, _ rows: String) -> String {
        """
        CREATE TRIGGER \(table)_no_update BEFORE UPDATE ON \(table) BEGIN SELECT RAISE(ABORT, '\(rows) are append-only'); END;
        CREATE TRIGGER \(table)_no_delete BEFORE DELETE ON \(table) BEGIN SELECT RAISE(ABORT, '\(rows) are append-only'); END;
        """
    }

    /// Triggers that bump the shield revision on every row written to these tables:
    /// migration 12's, in the file (migration 16 drops them; see installWriterTriggers).
    private static func bumpsRevision(_ tables: [String]) -> String {
        tables.map { table in
            ["INSERT", "UPDATE", "DELETE"].map { verb in
                "CREATE TRIGGER \(table)_shield_\(verb.lowercased()) AFTER \(verb) ON \(table) BEGIN UPDATE shield_revision SET value = value + 1; END;"
            }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static var latestVersion: Int32 { Int32(migrations.count) }

    /// Refuses another application's SQLite file before anything is written to it
    /// (switching it to WAL, as a writer's open does first, would already change it).
    static func refuseForeign(_ db: Database) throws(HabitError) {
        guard try pragmaInt(db, "application_id") != applicationId else { return }
        let version = try pragmaInt(db, "user_version"), tables = try scalar(db, "SELECT count(*) FROM sqlite_schema")
        if version != 0 || tables != 0 {
            throw HabitError.corrupt("the file is a SQLite database but not a habitcore store")
        }
    }

    /// Brings a file to the latest schema inside one write transaction, so two
    /// processes opening a new file at once cannot both create it.
    static func migrate(_ db: Database, readOnly: Bool) throws(HabitError) {
        // A current store needs nothing: no write lock for a process that only reads.
        if try pragmaInt(db, "user_version") == Int64(latestVersion), try pragmaInt(db, "application_id") == applicationId { return }
        if !readOnly { try db.execute("BEGIN IMMEDIATE") }
        do throws(HabitError) {
            let version = try pragmaInt(db, "user_version")
            let application = try pragmaInt(db, "application_id")
            if application != applicationId { try refuseForeign(db) }
            if version > Int64(latestVersion) {
                throw HabitError(.tooNew, "the store has schema version \(version); this habitcore (\(latestVersion)) is older: upgrade habitcore to open it")
            }
            if version < Int64(latestVersion) {
                guard !readOnly else { throw HabitError(.readOnly, "the store needs a schema upgrade and was opened read-only") }
                for migration in migrations[Int(version)...] {
                    try db.execute(migration.sql)
                    try migration.data?(db)
                }
                try db.execute("PRAGMA application_id = \(applicationId); PRAGMA user_version = \(latestVersion)")
            }
            if !readOnly { try db.execute("COMMIT") }
        } catch {
            if !readOnly { try? db.execute("ROLLBACK") }
            throw error
        }
    }

    static func pragmaInt(_ db: Database, _ name: String) throws(HabitError) -> Int64 {
        try scalar(db, "PRAGMA \(name)")
    }

    static func scalar(_ db: Database, _ sql: String) throws(HabitError) -> Int64 {
        try db.statement(text: sql).one { $0.int(0) } ?? 0
    }
}
