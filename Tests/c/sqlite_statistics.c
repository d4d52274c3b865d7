/* sqlite_statistics.c: hc_process_disable_sqlite_statistics in a process of its own.
 *  first PATH   turns the statistics off before any SQLite use (HC_OK), then writes
 *               and reads a store: SQLite counts no memory, a second call is refused.
 *  late PATH    opens a store first: the call is refused and the statistics stay on.
 * Prints what failed and exits 1; exits 0 when all held. */
#include <habitcore.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static int failed = 0;
#define EXPECT(cond) do { if (!(cond)) { fprintf(stderr, "line %d: %s (%s)\n", __LINE__, #cond, hc_last_error_message()); failed = 1; } } while (0)

/* Writes a store, then opens it read-only and asks it: the reader stays open. */
static hc_store *use_store(const char *path) {
    hc_store *store = NULL;
    EXPECT(hc_store_open(&store, path, 0) == HC_OK);
    hc_habit_options spec = HC_HABIT_OPTIONS_INIT;
    spec.name = "Walk";
    int64_t habit = 0, entry = 0;
    EXPECT(hc_habit_create(&habit, store, &spec) == HC_OK);
    hc_entry_input input = HC_ENTRY_INPUT_INIT;
    input.habit_id = habit;
    input.kind = HC_ENTRY_DONE;
    EXPECT(hc_store_today(&input.day, store) == HC_OK);
    EXPECT(hc_entry_append(&entry, store, &input) == HC_OK);
    EXPECT(hc_store_close(store) == HC_OK);
    hc_store *reader = NULL;
    EXPECT(hc_store_open(&reader, path, HC_OPEN_READONLY) == HC_OK);
    hc_shield_status states[4];
    int64_t count = -1, revision = 0;
    EXPECT(hc_shield_state(states, 4, &count, &revision, reader, 0) == HC_OK);
    EXPECT(count == 0 && revision > 0);
    return reader;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    if (strcmp(argv[1], "first") == 0) {
        EXPECT(hc_process_disable_sqlite_statistics() == HC_OK);
        hc_store *open = use_store(argv[2]);
        EXPECT(sqlite3_memory_used() == 0); /* a store is open, and SQLite counted nothing */
        EXPECT(hc_process_disable_sqlite_statistics() == HC_E_MISUSE);
        EXPECT(strstr(hc_last_error_message(), "already initialised") != NULL);
        EXPECT(hc_store_close(open) == HC_OK);
    } else if (strcmp(argv[1], "late") == 0) {
        hc_store *open = use_store(argv[2]);
        EXPECT(hc_process_disable_sqlite_statistics() == HC_E_MISUSE);
        EXPECT(sqlite3_memory_used() > 0);
        EXPECT(hc_store_close(open) == HC_OK);
    } else {
        return 2;
    }
    return failed;
}
