/* today.c: the today snapshot (hc_today_snapshot_write) beside the shield snapshot
 * (hc_shield_snapshot_write), each as a widget's extension would write it: cold,
 * open read-only, write the file, close, inside a running process. The store holds
 * 20 daily habits with a done entry on most days for YEARS years (a missed day now
 * and then, a skip now and then) and 10 shield rules on them, in Europe/Berlin with
 * a 03:00 day start, each habit's fold saved as an app that showed its streaks
 * leaves it, two entries logged since. Mean, median and best of the rounds (the machine may be
 * shared). Instruction counts: bench/today.sh (callgrind; only the open, write and
 * close are instrumented).
 * Usage: today FOLDER [ROUNDS] [YEARS]        make the store, then time both
 *        today make STORE YEARS              only make the store (for callgrind)
 *        today coldin STORE KIND REPS [lean] one untimed cold write, then REPS cold writes (instrumented);
 *                                            KIND today or shields
 * "lean": the process first calls hc_process_disable_sqlite_statistics, as an
 * extension whose SQLite serves habitcore alone would. */
#include "bench.h"
#include "history.h"
#include <valgrind/callgrind.h>

#define HABITS 20

static char out_path[4200];

__attribute__((noinline)) static void write_cold(const char *path, int today) {
    hc_store *store = NULL;
    check(hc_store_open(&store, path, HC_OPEN_READONLY), "open");
    if (today) {
        check(hc_today_snapshot_write(store, out_path, 0), "today snapshot");
    } else {
        check(hc_shield_snapshot_write(store, out_path, 0), "shield snapshot");
    }
    check(hc_store_close(store), "close");
}

static void make(const char *path, int years) {
    int32_t today = 0;
    hc_store *store = bench_berlin_store(path, &today);
    int32_t start = today - 365 * years;
    int64_t habits[HABITS];
    check(hc_store_begin(store), "begin");
    for (int h = 0; h < HABITS; h++) habits[h] = bench_habit(store, h + 1, start, NULL);
    unsigned seed = 44;
    for (int32_t day = start; day <= today; day++) {
        for (int h = 0; h < HABITS; h++) {
            unsigned roll = (history_next(&seed) >> 16) % 20;
            if (roll == 0) continue; /* missed */
            hc_entry_input entry = HC_ENTRY_INPUT_INIT;
            entry.habit_id = habits[h];
            entry.kind = roll == 1 ? HC_ENTRY_SKIP : HC_ENTRY_DONE;
            entry.day = day;
            entry.at_ms = ((int64_t)day * 86400 + 7 * 3600) * 1000;
            if (day == today && h % 2) continue; /* half of today still to do */
            check(hc_entry_append(NULL, store, &entry), "append");
        }
    }
    for (int r = 0; r < 10; r++) {
        hc_shield_rule rule = HC_SHIELD_RULE_INIT;
        char name[32];
        snprintf(name, sizeof name, "rule %d", r + 1);
        int64_t ids[1] = {habits[r]};
        rule.name = name;
        rule.key = name;
        rule.habit_ids = ids;
        rule.habit_count = 1;
        check(hc_shield_rule_add(NULL, store, &rule, start), "rule");
    }
    check(hc_store_commit(store), "commit");
    /* The app has shown each habit's streaks (which saves its fold), then two
     * habits were done today: a cold snapshot decodes the saved folds and folds
     * again only the days of the entries added since. */
    for (int h = 0; h < HABITS; h++) {
        hc_streak_result summary = HC_STREAK_RESULT_INIT;
        int64_t best = 0;
        check(hc_habit_streaks(&summary, NULL, 0, &best, store, habits[h], HC_DAY_NONE), "streaks");
    }
    for (int h = 1; h <= 3; h += 2) {
        hc_entry_input entry = HC_ENTRY_INPUT_INIT;
        entry.habit_id = habits[h];
        entry.kind = HC_ENTRY_DONE;
        entry.day = today;
        entry.at_ms = ((int64_t)today * 86400 + 18 * 3600) * 1000;
        check(hc_entry_append(NULL, store, &entry), "append");
    }
    check(hc_store_close(store), "close");
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "make") == 0) {
        make(argv[2], atoi(argv[3]));
        return 0;
    }
    if (argc >= 5 && strcmp(argv[1], "coldin") == 0) {
        if (argc > 5 && strcmp(argv[5], "lean") == 0) check(hc_process_disable_sqlite_statistics(), "disable statistics");
        int today = strcmp(argv[3], "today") == 0, reps = atoi(argv[4]);
        snprintf(out_path, sizeof out_path, "%s.%s.json", argv[2], argv[3]);
        write_cold(argv[2], today);
        CALLGRIND_START_INSTRUMENTATION;
        for (int i = 0; i < reps; i++) write_cold(argv[2], today);
        CALLGRIND_STOP_INSTRUMENTATION;
        return 0;
    }
    if (argc < 2) {
        fprintf(stderr, "usage: today FOLDER [ROUNDS] [YEARS]\n");
        return 2;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 20, years = argc > 3 ? atoi(argv[3]) : 1;
    if (rounds < 1) rounds = 1;
    char path[4200];
    snprintf(path, sizeof path, "%s/today.habitcore", argv[1]);
    make(path, years);
    printf("today snapshot beside the shield snapshot: %d habits, %d year(s) of history, cold open read-only + write + close\n",
           HABITS, years);
    const char *kinds[] = {"today", "shields"};
    for (int k = 0; k < 2; k++) {
        snprintf(out_path, sizeof out_path, "%s/%s.json", argv[1], kinds[k]);
        write_cold(path, k == 0);
        int n = 10 * rounds;
        double *times = malloc(sizeof(double) * (size_t)n), sum = 0;
        if (!times) return 1;
        for (int i = 0; i < n; i++) {
            double t0 = now();
            write_cold(path, k == 0);
            times[i] = now() - t0;
            sum += times[i];
        }
        qsort(times, (size_t)n, sizeof(double), compare);
        printf("  %-8s %d writes: median %.3f ms  mean %.3f ms  best %.3f ms\n", kinds[k], n, times[n / 2] * 1e3, sum / n * 1e3,
               times[0] * 1e3);
        free(times);
    }
    return 0;
}
