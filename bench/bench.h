/* bench.h: what every benchmark program shares: the clock, the status check, and
 * the "same contract" placement of day states that the C baselines of the pure
 * calls start with (each record checked, then put in its day's slot), so that the
 * baselines in streaks.c and goals.c are the same code. */
#ifndef HABITCORE_BENCH_H
#define HABITCORE_BENCH_H

#include <habitcore.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Exits with the library's words when a call failed. */
static inline void check(int32_t status, const char *what) {
    if (status != HC_OK) {
        fprintf(stderr, "%s: %s (%s)\n", what, hc_status_string(status), hc_last_error_message());
        exit(1);
    }
}

/* Creates checkmark habit "habit NUMBER" from start on, under schedule (NULL: daily),
 * as the benchmarks' stores hold them; returns its id. */
static inline int64_t bench_habit(hc_store *store, int number, int32_t start, const char *schedule) {
    char name[32];
    snprintf(name, sizeof name, "habit %d", number);
    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.name = name;
    options.start_day = start;
    options.schedule = schedule;
    int64_t habit = 0;
    check(hc_habit_create(&habit, store, &options), "create");
    return habit;
}

/* A new store at path (an old one removed) in Europe/Berlin with days starting at
 * 03:00, as the snapshot benchmarks build theirs; *today is its local day. */
static inline hc_store *bench_berlin_store(const char *path, int32_t *today) {
    remove(path);
    hc_store *store = NULL;
    check(hc_store_open(&store, path, 0), "open");
    check(hc_store_set_timezone(store, "Europe/Berlin"), "zone");
    check(hc_store_set_day_start(store, 180), "day start");
    check(hc_store_today(today, store), "today");
    return store;
}

/* The days habitcore accepts: 0001-01-01 ... 9999-12-31. */
#define DAY_MIN (-719162)
#define DAY_MAX 2932896

/* habitcore's contract in C: every record checked (day in range, known flags, a
 * finite value), then placed by day into marks (1 done, 2 skipped, 0 neither) for
 * start..last. Returns -1 on a bad record. */
static inline int c_place(const hc_day_state *days, int64_t count, int32_t start, int32_t last, unsigned char *marks) {
    int64_t length = (int64_t)last - start + 1;
    memset(marks, 0, (size_t)length);
    for (int64_t i = 0; i < count; i++) {
        const hc_day_state *d = &days[i];
        if (d->day < DAY_MIN || d->day > DAY_MAX || (d->flags & ~7u) || !isfinite(d->value)) return -1;
        int64_t index = (int64_t)d->day - start;
        if (index < 0 || index >= length) continue;
        marks[index] = (d->flags & HC_DAY_DONE) ? 1 : ((d->flags & HC_DAY_SKIPPED) ? 2 : 0);
    }
    return 0;
}

#endif
