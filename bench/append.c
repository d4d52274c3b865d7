/* append.c: appending ledger entries through the C ABI against raw sqlite3
 * inserts of the same rows (same columns, indexes, WAL and synchronous=NORMAL),
 * one commit per row and one transaction for all, in the same run.
 * Usage: append WORK_DIR [ROWS] */
#include "bench.h"
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, hc_last_error_message());
    exit(1);
}

/* Appends rows entries through habitcore; batched = one transaction. */
static double habitcore_run(const char *path, int rows, int batched) {
    hc_store *store = NULL;
    remove(path);
    if (hc_store_open(&store, path, 0) != HC_OK) fail("open");
    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.name = "bench";
    options.kind = HC_KIND_COUNTER;
    options.target = 10;
    int64_t habit = 0;
    if (hc_habit_create(&habit, store, &options) != HC_OK) fail("create");
    hc_entry_input entry = HC_ENTRY_INPUT_INIT;
    entry.habit_id = habit;
    entry.kind = HC_ENTRY_AMOUNT;
    entry.value = 1;
    entry.at_ms = 1767225600000LL;
    double start = now();
    if (batched && hc_store_begin(store) != HC_OK) fail("begin");
    for (int i = 0; i < rows; i++) {
        entry.day = 16000 + i % 3650;
        if (hc_entry_append(NULL, store, &entry) != HC_OK) fail("append");
    }
    if (batched && hc_store_commit(store) != HC_OK) fail("commit");
    double elapsed = now() - start;
    hc_store_close(store);
    return elapsed;
}

static void exec(sqlite3 *db, const char *sql) {
    char *error = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "sqlite: %s\n", error);
        exit(1);
    }
}

/* The same rows straight into SQLite with a prepared statement. */
static double raw_run(const char *path, int rows, int batched) {
    sqlite3 *db = NULL;
    remove(path);
    if (sqlite3_open(path, &db) != SQLITE_OK) exit(1);
    exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
             "CREATE TABLE habits(id INTEGER PRIMARY KEY);"
             "INSERT INTO habits VALUES(1);"
             "CREATE TABLE entries(id INTEGER PRIMARY KEY, habit_id INTEGER NOT NULL REFERENCES habits(id),"
             " day INTEGER NOT NULL, kind INTEGER NOT NULL, value REAL NOT NULL, recorded_at_ms INTEGER NOT NULL,"
             " source INTEGER NOT NULL, undoes INTEGER REFERENCES entries(id), note TEXT) STRICT;"
             "CREATE INDEX entries_habit_day ON entries(habit_id, day);"
             "CREATE UNIQUE INDEX entries_undoes ON entries(undoes) WHERE undoes IS NOT NULL;");
    sqlite3_stmt *insert = NULL;
    sqlite3_prepare_v2(db, "INSERT INTO entries(habit_id, day, kind, value, recorded_at_ms, source, undoes, note)"
                           " VALUES(?1, ?2, 2, 1.0, 1767225600000, 1, NULL, NULL)", -1, &insert, NULL);
    double start = now();
    if (batched) exec(db, "BEGIN IMMEDIATE");
    for (int i = 0; i < rows; i++) {
        sqlite3_bind_int64(insert, 1, 1);
        sqlite3_bind_int64(insert, 2, 16000 + i % 3650);
        if (sqlite3_step(insert) != SQLITE_DONE) exit(1);
        sqlite3_reset(insert);
    }
    if (batched) exec(db, "COMMIT");
    double elapsed = now() - start;
    sqlite3_finalize(insert);
    sqlite3_close(db);
    return elapsed;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    int rows = argc > 2 ? atoi(argv[2]) : 100000;
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/habitcore.db", argv[1]);
    snprintf(b, sizeof b, "%s/raw.db", argv[1]);
    printf("appending %d entries (habitcore %s, SQLite %s, WAL, synchronous=NORMAL)\n\n", rows, hc_version_string(),
           sqlite3_libversion());
    printf("%-34s %12s %12s %10s\n", "case", "rows/s", "us/row", "vs raw");
    const char *modes[2] = {"one commit per row", "one transaction"};
    for (int batched = 0; batched < 2; batched++) {
        double raw = raw_run(b, rows, batched);
        double ours = habitcore_run(a, rows, batched);
        printf("%-34s %12.0f %12.2f %10s\n", batched ? "raw sqlite3, one transaction" : "raw sqlite3, one commit per row",
               rows / raw, raw * 1e6 / rows, "1.00");
        printf("habitcore, %-23s %12.0f %12.2f %9.2fx\n", modes[batched], rows / ours, ours * 1e6 / rows, raw / ours);
    }
    return 0;
}
