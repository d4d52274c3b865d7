/* sync.c: a full changeset of ten years of twenty habits (about 100,000 records:
 * daily checks, some undone and logged again), its size per record and the time to
 * produce and to apply it into an empty store; then one day's work as an incremental
 * changeset: its size and the time to produce and apply it.
 * Goals (issue 16): apply >= 100,000 records/s; one day's changeset < 2 KB and < 5 ms.
 * Usage: sync WORK_DIR [YEARS]. The one-day part is the only part instrumented under
 * callgrind (run it with --instr-atstart=no; outside valgrind the macros do nothing). */
#include "bench.h"

#include <valgrind/callgrind.h>

static void path_in(char *out, size_t size, const char *dir, const char *name) { snprintf(out, size, "%s/%s", dir, name); }

static int64_t state_of(hc_store *store, uint8_t *state, int64_t capacity) {
    int64_t count = 0;
    check(hc_sync_state(state, capacity, &count, store), "state");
    if (count > capacity) { fprintf(stderr, "state larger than %lld bytes\n", (long long)capacity); exit(1); }
    return count;
}

/* One day of every habit: a check each, and every sixth one undone and checked again. */
static int64_t log_day(hc_store *store, const int64_t *habits, int count, int32_t day) {
    int64_t records = 0;
    hc_entry_input input = HC_ENTRY_INPUT_INIT;
    input.day = day;
    input.at_ms = ((int64_t)day * 86400 + 8 * 3600) * 1000;
    for (int h = 0; h < count; h++) {
        int64_t id = 0, undo = 0;
        input.habit_id = habits[h];
        check(hc_entry_append(&id, store, &input), "append");
        records++;
        if ((day * 7 + h) % 6 == 0) {
            check(hc_entry_undo(&undo, store, id), "undo");
            check(hc_entry_append(&id, store, &input), "append");
            records += 2;
        }
    }
    return records;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    char a_path[4096], b_path[4096];
    path_in(a_path, sizeof a_path, dir, "sync-a.db");
    path_in(b_path, sizeof b_path, dir, "sync-b.db");
    remove(a_path);
    remove(b_path);
    hc_store *a = NULL, *b = NULL;
    check(hc_store_open(&a, a_path, 0), "open a");
    check(hc_store_open(&b, b_path, 0), "open b");
    int32_t today = 0;
    check(hc_store_today(&today, a), "today");
    const int habits_count = 20, days = 365 * (argc > 2 ? atoi(argv[2]) : 10);
    int32_t start = today - days;
    int64_t habits[20];
    double t0 = now();
    check(hc_store_begin(a), "begin");
    for (int h = 0; h < habits_count; h++) habits[h] = bench_habit(a, h, start, NULL);
    int64_t records = 2 * habits_count; /* each habit: its creation and its schedule */
    for (int32_t day = start; day < today; day++) records += log_day(a, habits, habits_count, day);
    check(hc_store_commit(a), "commit");
    double built = now() - t0;

    uint8_t *changes = NULL;
    int64_t size = 0;
    t0 = now();
    check(hc_sync_changes(&changes, &size, a, NULL, 0), "changes");
    double produce = now() - t0;
    hc_sync_summary summary = HC_SYNC_SUMMARY_INIT;
    t0 = now();
    check(hc_sync_apply(&summary, b, changes, size), "apply");
    double apply = now() - t0;
    hc_free(changes);
    if (summary.ops_received != records || summary.ops_applied != records) {
        fprintf(stderr, "expected %lld records, received %lld, applied %lld\n", (long long)records, (long long)summary.ops_received,
                (long long)summary.ops_applied);
        return 1;
    }
    printf("sync: full history, %d habits x %d days: %lld records (written in %.1f s)\n", habits_count, days, (long long)records, built);
    printf("  changeset      %10lld bytes  %6.1f bytes/record\n", (long long)size, (double)size / (double)records);
    printf("  produce        %10.1f ms     %9.0f records/s\n", produce * 1e3, (double)records / produce);
    printf("  apply          %10.1f ms     %9.0f records/s   (goal >= 100000)\n", apply * 1e3, (double)records / apply);

    /* One day's work on a, then what b lacks. */
    uint8_t state[4096];
    int64_t day_records = log_day(a, habits, habits_count, today);
    CALLGRIND_START_INSTRUMENTATION;
    t0 = now();
    int64_t state_size = state_of(b, state, sizeof state);
    check(hc_sync_changes(&changes, &size, a, state, state_size), "changes");
    double produce_day = now() - t0;
    t0 = now();
    check(hc_sync_apply(&summary, b, changes, size), "apply");
    double apply_day = now() - t0;
    CALLGRIND_STOP_INSTRUMENTATION;
    hc_free(changes);
    if (summary.ops_applied != day_records) { fprintf(stderr, "one day: %lld applied\n", (long long)summary.ops_applied); return 1; }
    printf("sync: one day's work, %lld records\n", (long long)day_records);
    printf("  changeset      %10lld bytes                        (goal < 2048)\n", (long long)size);
    printf("  state+produce  %10.2f ms\n", produce_day * 1e3);
    printf("  apply          %10.2f ms                           (goal < 5 ms each)\n", apply_day * 1e3);

    char *ca = NULL, *cb = NULL;
    check(hc_sync_canonical(&ca, a), "canonical a");
    check(hc_sync_canonical(&cb, b), "canonical b");
    printf("  replicas agree: %s (canonical export %zu bytes)\n", strcmp(ca, cb) == 0 ? "yes" : "NO", strlen(ca));
    int same = strcmp(ca, cb) == 0;
    hc_free(ca);
    hc_free(cb);
    hc_store_close(a);
    hc_store_close(b);
    return same ? 0 : 1;
}
