/* goals.c: one case of the goal table (issue 20) per run, so that bench/run.sh
 * can time it natively and count its instructions under callgrind. Only the
 * measured part is instrumented (CALLGRIND_START/STOP_INSTRUMENTATION; run
 * callgrind with --instr-atstart=no); outside valgrind those are no-ops.
 * Prints "<case> <reps> <seconds>".
 *   goals CASE DIR REPS
 * CASE: append-raw-batch append-hc-batch append-raw-commit append-hc-commit apply-hc
 *       shape-MODE-FLAGS (the write path's shapes in raw SQLite: shape_append)
 *       streaks-c streaks-hc strength-c strength-hc
 *       store-make YEARS HABITS (DIR is the store path) store-streaks-cold store-streaks-warm
 *       store-streaks-append today awards */
#include "bench.h"
#include "history.h"
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

static double started;
/* Off while a case sets up with another case's code (its start and stop count nothing). */
static int measuring = 1;
static void start(void) {
    if (measuring) CALLGRIND_START_INSTRUMENTATION;
    started = now();
}
static double stop(void) {
    double t = now() - started;
    if (measuring) CALLGRIND_STOP_INSTRUMENTATION;
    return t;
}

/* Appends: the same rows as bench/append.c. */
static void exec(sqlite3 *db, const char *sql) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) { fprintf(stderr, "sqlite: %s\n", sqlite3_errmsg(db)); exit(1); }
}

/* A new file as the store opens one (WAL, synchronous NORMAL, foreign keys) with habit 1. */
static sqlite3 *raw_open(const char *path) {
    sqlite3 *db = NULL;
    remove(path);
    if (sqlite3_open(path, &db) != SQLITE_OK) exit(1);
    exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
             "CREATE TABLE habits(id INTEGER PRIMARY KEY); INSERT INTO habits VALUES(1);");
    return db;
}

static double raw_append(const char *path, int rows, int batched) {
    sqlite3 *db = raw_open(path);
    exec(db, "CREATE TABLE entries(id INTEGER PRIMARY KEY, habit_id INTEGER NOT NULL REFERENCES habits(id),"
             " day INTEGER NOT NULL, kind INTEGER NOT NULL, value REAL NOT NULL, recorded_at_ms INTEGER NOT NULL,"
             " source INTEGER NOT NULL, undoes INTEGER REFERENCES entries(id), note TEXT) STRICT;"
             "CREATE INDEX entries_habit_day ON entries(habit_id, day);"
             "CREATE UNIQUE INDEX entries_undoes ON entries(undoes) WHERE undoes IS NOT NULL;");
    sqlite3_stmt *insert = NULL;
    sqlite3_prepare_v2(db, "INSERT INTO entries(habit_id, day, kind, value, recorded_at_ms, source, undoes, note)"
                           " VALUES(?1, ?2, 2, 1.0, 1767225600000, 1, NULL, NULL)", -1, &insert, NULL);
    start();
    if (batched) exec(db, "BEGIN IMMEDIATE");
    for (int i = 0; i < rows; i++) {
        sqlite3_bind_int64(insert, 1, 1);
        sqlite3_bind_int64(insert, 2, 16000 + i % 3650);
        if (sqlite3_step(insert) != SQLITE_DONE) exit(1);
        sqlite3_reset(insert);
    }
    if (batched) exec(db, "COMMIT");
    double t = stop();
    sqlite3_finalize(insert);
    sqlite3_close(db);
    return t;
}

/* The write path's shapes in raw SQLite, to price what an append costs in each
 * (case "shape-MODE-FLAGS", MODE batch or commit). The entries table and its
 * indexes are the store's (Schema.swift: entries_fold, entries_undoes); FLAGS adds:
 *   o  the op in a second row of sync_ops (today: WITHOUT ROWID, keyed (rep, seq),
 *      its payload blob, the unique (kind, local_id)), max(seq) read once a transaction
 *   r  the op's columns on the entry row instead (rep, seq, hlc) with the unique
 *      (rep, seq) the op log needs
 *   c  a change_log row per op (the store revision), by the writer's TEMP trigger;
 *      C  by a statement of its own
 *   k  the clock row's UPDATE per op;  K  once a transaction
 *   s  a savepoint around each append inside the batch (atomically's)
 * "shape-batch-osck" is today's store; "shape-batch-rK" the one-row ledger. The
 * engine's own work (Swift: checks, binding, the payload's encoding) is not here:
 * the habitcore case minus today's shape prices it. */
static double shape_append(const char *path, int rows, int batched, const char *flags) {
    int op_row = strchr(flags, 'o') != NULL, on_entry = strchr(flags, 'r') != NULL, change_log = strchr(flags, 'c') != NULL;
    int change_log_statement = strchr(flags, 'C') != NULL;
    int clock_each = strchr(flags, 'k') != NULL, clock_once = strchr(flags, 'K') != NULL, savepoint = strchr(flags, 's') != NULL && batched;
    sqlite3 *db = raw_open(path);
    exec(db, "CREATE TABLE sync_replica(id INTEGER PRIMARY KEY CHECK(id = 1), replica BLOB NOT NULL, hlc INTEGER NOT NULL,"
             " backfilled INTEGER NOT NULL) STRICT;"
             "INSERT INTO sync_replica VALUES(1, randomblob(16), 0, 1);"
             "CREATE TABLE sync_replicas(num INTEGER PRIMARY KEY, replica BLOB NOT NULL UNIQUE, seen INTEGER NOT NULL DEFAULT 0) STRICT;"
             "INSERT INTO sync_replicas(num, replica) SELECT 1, replica FROM sync_replica;"
             "CREATE TABLE sync_ops(rep INTEGER NOT NULL REFERENCES sync_replicas(num), seq INTEGER NOT NULL, hlc INTEGER NOT NULL,"
             " kind INTEGER NOT NULL, payload BLOB NOT NULL, pending INTEGER NOT NULL, local_id INTEGER, digest INTEGER,"
             " PRIMARY KEY(rep, seq)) STRICT, WITHOUT ROWID;"
             "CREATE UNIQUE INDEX sync_ops_local ON sync_ops(kind, local_id) WHERE local_id IS NOT NULL;"
             "CREATE INDEX sync_ops_pending ON sync_ops(pending) WHERE pending = 1;"
             "CREATE TABLE change_log(rev INTEGER PRIMARY KEY, rep INTEGER NOT NULL, seq INTEGER NOT NULL) STRICT;");
    exec(db, on_entry
             ? "CREATE TABLE entries(id INTEGER PRIMARY KEY, habit_id INTEGER NOT NULL REFERENCES habits(id),"
               " day INTEGER NOT NULL, kind INTEGER NOT NULL, value REAL NOT NULL, recorded_at_ms INTEGER NOT NULL,"
               " source INTEGER NOT NULL, undoes INTEGER REFERENCES entries(id), note TEXT,"
               " rep INTEGER NOT NULL, seq INTEGER NOT NULL, hlc INTEGER NOT NULL) STRICT;"
               "CREATE UNIQUE INDEX entries_op ON entries(rep, seq);"
             : "CREATE TABLE entries(id INTEGER PRIMARY KEY, habit_id INTEGER NOT NULL REFERENCES habits(id),"
               " day INTEGER NOT NULL, kind INTEGER NOT NULL, value REAL NOT NULL, recorded_at_ms INTEGER NOT NULL,"
               " source INTEGER NOT NULL, undoes INTEGER REFERENCES entries(id), note TEXT) STRICT;");
    exec(db, "CREATE INDEX entries_fold ON entries(habit_id, day, id, kind, value, source, undoes);"
             "CREATE UNIQUE INDEX entries_undoes ON entries(undoes) WHERE undoes IS NOT NULL;"
             "CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
             "CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries BEGIN SELECT RAISE(ABORT, 'append-only'); END;");
    const char *trigger = on_entry
        ? "CREATE TEMP TRIGGER entries_change_log AFTER INSERT ON main.entries BEGIN INSERT INTO change_log(rep, seq) VALUES(NEW.rep, NEW.seq); END;"
        : "CREATE TEMP TRIGGER sync_ops_change_log AFTER INSERT ON main.sync_ops BEGIN INSERT INTO change_log(rep, seq) VALUES(NEW.rep, NEW.seq); END;";
    if (change_log) exec(db, trigger);
    sqlite3_stmt *insert = NULL, *op = NULL, *clock = NULL, *last = NULL, *begin = NULL, *commit = NULL, *save = NULL, *release = NULL, *logged = NULL;
    sqlite3_prepare_v2(db, on_entry
        ? "INSERT INTO entries(habit_id, day, kind, value, recorded_at_ms, source, undoes, note, rep, seq, hlc)"
          " VALUES(?1, ?2, 2, 1.0, 1767225600000, 1, NULL, NULL, 1, ?3, ?4)"
        : "INSERT INTO entries(habit_id, day, kind, value, recorded_at_ms, source, undoes, note)"
          " VALUES(?1, ?2, 2, 1.0, 1767225600000, 1, NULL, NULL)", -1, &insert, NULL);
    sqlite3_prepare_v2(db, "INSERT INTO sync_ops(rep, seq, hlc, kind, payload, pending, local_id) VALUES(1, ?1, ?2, 4, ?3, 0, ?4)", -1, &op, NULL);
    sqlite3_prepare_v2(db, "UPDATE sync_replica SET hlc = ?1 WHERE id = 1", -1, &clock, NULL);
    sqlite3_prepare_v2(db, on_entry ? "SELECT max(seq) FROM entries WHERE rep = 1" : "SELECT max(seq) FROM sync_ops WHERE rep = 1", -1, &last, NULL);
    sqlite3_prepare_v2(db, "INSERT INTO change_log(rep, seq) VALUES(1, ?1)", -1, &logged, NULL);
    sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &begin, NULL);
    sqlite3_prepare_v2(db, "COMMIT", -1, &commit, NULL);
    sqlite3_prepare_v2(db, "SAVEPOINT hc_op", -1, &save, NULL);
    sqlite3_prepare_v2(db, "RELEASE hc_op", -1, &release, NULL);
    /* An entry op's payload as the store encodes it: the habit's global id (16-byte
     * replica, varint seq and stamp), day, kind and source, the value, the time. */
    unsigned char payload[40];
    for (size_t i = 0; i < sizeof payload; i++) payload[i] = (unsigned char)(i * 37 + 11);
    int64_t seq = 0, hlc = 1767225600000LL << 16;
#define STEP(s) do { if (sqlite3_step(s) != SQLITE_DONE && sqlite3_errcode(db) != SQLITE_ROW) { fprintf(stderr, "sqlite: %s\n", sqlite3_errmsg(db)); exit(1); } sqlite3_reset(s); } while (0)
    start();
    for (int i = 0; i < rows; i++) {
        if (!batched || i == 0) {
            STEP(begin);
            if (op_row || on_entry) {
                if (sqlite3_step(last) == SQLITE_ROW) seq = sqlite3_column_int64(last, 0);
                sqlite3_reset(last);
            }
        }
        if (savepoint) STEP(save);
        seq++, hlc++;
        if (clock_each) { sqlite3_bind_int64(clock, 1, hlc); STEP(clock); }
        sqlite3_bind_int64(insert, 1, 1);
        sqlite3_bind_int64(insert, 2, 16000 + i % 3650);
        if (on_entry) { sqlite3_bind_int64(insert, 3, seq); sqlite3_bind_int64(insert, 4, hlc); }
        STEP(insert);
        if (op_row) {
            sqlite3_bind_int64(op, 1, seq);
            sqlite3_bind_int64(op, 2, hlc);
            sqlite3_bind_blob(op, 3, payload, sizeof payload, SQLITE_STATIC);
            sqlite3_bind_int64(op, 4, sqlite3_last_insert_rowid(db));
            STEP(op);
        }
        if (change_log_statement) { sqlite3_bind_int64(logged, 1, seq); STEP(logged); }
        if (savepoint) STEP(release);
        if (!batched || i == rows - 1) {
            if (clock_once) { sqlite3_bind_int64(clock, 1, hlc); STEP(clock); }
            STEP(commit);
        }
    }
#undef STEP
    double t = stop();
    sqlite3_stmt *all[] = {insert, op, clock, last, begin, commit, save, release, logged};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) sqlite3_finalize(all[i]);
    sqlite3_close(db);
    return t;
}

static double hc_append(const char *path, int rows, int batched) {
    hc_store *store = NULL;
    remove(path);
    check(hc_store_open(&store, path, 0), "open");
    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.name = "bench";
    options.kind = HC_KIND_COUNTER;
    options.target = 10;
    int64_t habit = 0;
    check(hc_habit_create(&habit, store, &options), "create");
    hc_entry_input entry = HC_ENTRY_INPUT_INIT;
    entry.habit_id = habit;
    entry.kind = HC_ENTRY_AMOUNT;
    entry.value = 1;
    entry.at_ms = 1767225600000LL;
    start();
    if (batched) check(hc_store_begin(store), "begin");
    for (int i = 0; i < rows; i++) {
        entry.day = 16000 + i % 3650;
        check(hc_entry_append(NULL, store, &entry), "append");
    }
    if (batched) check(hc_store_commit(store), "commit");
    double t = stop();
    hc_store_close(store);
    return t;
}

/* A bulk changeset of `rows` entries (one counter habit, as hc_append writes them),
 * applied into an empty store: the apply alone is measured. */
static double hc_apply(const char *dir, int rows) {
    char source_path[4096], target_path[4096];
    snprintf(source_path, sizeof source_path, "%s/apply-source.db", dir);
    snprintf(target_path, sizeof target_path, "%s/apply-target.db", dir);
    measuring = 0;
    hc_append(source_path, rows, 1);
    measuring = 1;
    remove(target_path);
    hc_store *source = NULL, *target = NULL;
    check(hc_store_open(&source, source_path, 0), "open source");
    check(hc_store_open(&target, target_path, 0), "open target");
    uint8_t *changes = NULL;
    int64_t size = 0;
    check(hc_sync_changes(&changes, &size, source, NULL, 0), "changes");
    hc_sync_summary summary = HC_SYNC_SUMMARY_INIT;
    start();
    check(hc_sync_apply(&summary, target, changes, size), "apply");
    double t = stop();
    if (summary.ops_applied < rows) { fprintf(stderr, "applied %lld of %d\n", (long long)summary.ops_applied, rows); exit(1); }
    hc_free(changes);
    hc_store_close(source);
    hc_store_close(target);
    return t;
}

/* Pure loops: bench/streaks.c's "same contract" C against habitcore, one daily
 * habit of ten years per rep. */
static int32_t c_streaks(const hc_day_state *days, int64_t count, int32_t first, int32_t as_of, unsigned char *marks) {
    if (c_place(days, count, first, as_of, marks)) return -1;
    int32_t run = 0, longest = 0;
    for (int32_t day = first; day <= as_of; day++) {
        unsigned char m = marks[day - first];
        if (m == 1) { if (++run > longest) longest = run; }
        else if (m == 2) continue;
        else if (day < as_of) run = 0;
    }
    return longest + run;
}

static double c_strength(const hc_day_state *days, int64_t count, int32_t first, int32_t as_of, unsigned char *marks, double *out) {
    if (c_place(days, count, first, as_of, marks)) return -1;
    double m = pow(0.5, 1.0 / 13.0), s = 0;
    for (int32_t day = first; day <= as_of; day++) {
        unsigned char mark = marks[day - first];
        if (mark != 2 && (day < as_of || mark == 1)) s = s * m + (mark == 1 ? 1.0 : 0.0) * (1 - m);
        out[day - first] = s;
    }
    return s;
}

static double pure(const char *what, int reps) {
    const int64_t length = 3653;
    hc_day_state *days = malloc(sizeof *days * (size_t)length);
    double *out = malloc(sizeof *out * (size_t)length);
    unsigned char *marks = malloc((size_t)length);
    int32_t first = 18000, as_of = 18000 + (int32_t)length - 1;
    unsigned seed = 1;
    history_day_states(days, length, first, &seed, 85, 3);
    hc_habit_rules rules = HC_HABIT_RULES_INIT;
    rules.start_day = first;
    volatile double sink = 0;
    start();
    for (int i = 0; i < reps; i++) {
        if (!strcmp(what, "streaks-c")) sink += c_streaks(days, length, first, as_of, marks);
        else if (!strcmp(what, "strength-c")) sink += c_strength(days, length, first, as_of, marks, out);
        else if (!strcmp(what, "streaks-hc")) {
            hc_streak_result result = HC_STREAK_RESULT_INIT;
            int64_t best_count = 0;
            check(hc_streak_compute(&result, NULL, 0, &best_count, &rules, days, length, as_of), "streaks");
            sink += result.longest.length + result.current.length;
        } else {
            int64_t count = 0;
            check(hc_strength_compute(out, length, &count, &rules, days, length, first, as_of), "strength");
            sink += out[length - 1];
        }
    }
    double t = stop();
    free(days), free(out), free(marks);
    return t;
}

/* A store of HABITS daily habits with YEARS of history each (85% done, 3% skipped),
 * looked at once. */
static void make_store(const char *path, int years, int habits) {
    remove(path);
    hc_store *store = NULL;
    check(hc_store_open(&store, path, 0), "open");
    int32_t today = 0;
    check(hc_store_today(&today, store), "today");
    int32_t first = today - (int32_t)(years * 365.25);
    check(hc_store_begin(store), "begin");
    unsigned seed = 7;
    for (int h = 0; h < habits; h++) {
        char name[32];
        snprintf(name, sizeof name, habits == 1 ? "Ten" : "habit %d", h + 1);
        hc_habit_options options = HC_HABIT_OPTIONS_INIT;
        options.name = name;
        options.start_day = first;
        int64_t habit = 0;
        check(hc_habit_create(&habit, store, &options), "create");
        check(history_append(NULL, store, habit, first, today, &seed, 85, 3), "append");
    }
    check(hc_store_commit(store), "commit");
    hc_store_close(store);
    /* The app's first look, on a handle of its own: each habit's first cold read folds
     * its ledger and saves the fold (what every later cold read starts from). */
    check(hc_store_open(&store, path, 0), "open");
    for (int64_t habit = 1; habit <= habits; habit++) {
        hc_streak_result result = HC_STREAK_RESULT_INIT;
        int64_t best_count = 0;
        check(hc_habit_streaks(&result, NULL, 0, &best_count, store, habit, today), "first look");
    }
    hc_store_close(store);
}

/* Store-backed calls on a store made by store-make: habit 1's streaks on a fresh
 * handle (cold: the history is read), on a handle that already answered once
 * (warm), and right after an append on that handle (the streaks call alone);
 * today's due list; awards. */
static double store_call(const char *what, const char *path, int reps) {
    double total = 0;
    for (int i = 0; i < reps; i++) {
        hc_store *store = NULL;
        check(hc_store_open(&store, path, 0), "open");
        int32_t today = 0;
        check(hc_store_today(&today, store), "today");
        hc_streak_result result = HC_STREAK_RESULT_INIT;
        hc_streak best[5];
        int64_t best_count = 0;
        int warm = !strcmp(what, "store-streaks-warm"), appended = !strcmp(what, "store-streaks-append");
        if (warm || appended) check(hc_habit_streaks(&result, best, 5, &best_count, store, 1, today), "streaks");
        if (!strcmp(what, "today")) {
            static hc_due_item items[1000];
            int64_t count = 0;
            start();
            check(hc_store_due(items, 1000, &count, store, today), "due");
        } else if (!strcmp(what, "awards")) {
            hc_award_list *list = NULL;
            start();
            check(hc_award_evaluate(&list, store, today), "awards");
            total += stop();
            hc_award_list_free(list);
            hc_store_close(store);
            continue;
        } else {
            if (appended) {
                hc_entry_input entry = HC_ENTRY_INPUT_INIT;
                entry.habit_id = 1;
                entry.kind = HC_ENTRY_SKIP;
                entry.day = today;
                check(hc_entry_append(NULL, store, &entry), "append");
            }
            start();
            check(hc_habit_streaks(&result, best, 5, &best_count, store, 1, today), "streaks");
        }
        total += stop();
        hc_store_close(store);
    }
    return total;
}

int main(int argc, char **argv) {
    if (argc < 4) return 2;
    const char *what = argv[1], *dir = argv[2];
    int reps = atoi(argv[3]);
    char path[4096];
    double t = 0;
    if (!strcmp(what, "store-make")) {
        make_store(dir, reps, argc > 4 ? atoi(argv[4]) : 1);
        return 0;
    } else if (!strcmp(what, "apply-hc")) {
        t = hc_apply(dir, reps);
    } else if (!strncmp(what, "shape-", 6)) {
        /* shape-MODE-FLAGS */
        const char *mode = what + 6, *flags = strchr(mode, '-');
        snprintf(path, sizeof path, "%s/%s.db", dir, what);
        t = shape_append(path, reps, !strncmp(mode, "batch", 5), flags ? flags + 1 : "");
    } else if (!strncmp(what, "append-", 7)) {
        int raw = strstr(what, "raw") != NULL, batched = strstr(what, "batch") != NULL;
        snprintf(path, sizeof path, "%s/%s.db", dir, what);
        t = raw ? raw_append(path, reps, batched) : hc_append(path, reps, batched);
    } else if (!strncmp(what, "streaks-", 8) || !strncmp(what, "strength-", 9)) {
        t = pure(what, reps);
    } else {
        t = store_call(what, dir, reps);
    }
    printf("%s %d %.9f\n", what, reps, t);
    return 0;
}
