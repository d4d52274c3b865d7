/* streaks.c: streaks and strength through the C ABI's pure calls against C
 * implementations of the same loops, in the same run: one daily habit over ten
 * years, and 100,000 habits of one year each; then the store-backed calls over a
 * ten-year SQLite ledger. Usage: streaks [HABITS] [FOLDER for the store] */
#include "bench.h"
#include "history.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The reference: a daily habit's current and longest streaks, skipped days neutral,
 * as_of open; and Loop's strength. days[i] is day start + i. */
typedef struct { int32_t current, longest; } c_streaks;

static c_streaks c_streak_loop(const hc_day_state *days, int64_t count, int32_t as_of) {
    c_streaks r = {0, 0};
    int32_t run = 0;
    for (int64_t i = 0; i < count; i++) {
        const hc_day_state *d = &days[i];
        if (d->flags & HC_DAY_DONE) {
            run++;
            if (run > r.longest) r.longest = run;
        } else if (d->flags & HC_DAY_SKIPPED) {
            continue;
        } else if (d->day < as_of) {
            run = 0;
        }
    }
    r.current = run;
    return r;
}

static void c_strength_loop(const hc_day_state *days, int64_t count, int32_t as_of, double *out) {
    double m = pow(0.5, 1.0 / 13.0), s = 0;
    for (int64_t i = 0; i < count; i++) {
        const hc_day_state *d = &days[i];
        int done = (d->flags & HC_DAY_DONE) != 0;
        if (!(d->flags & HC_DAY_SKIPPED) && (d->day < as_of || done)) s = s * m + (done ? 1.0 : 0.0) * (1 - m);
        out[i] = s;
    }
}

/* The same contract in C: what a C library taking hc_day_state arrays would do. It
 * checks every record as habitcore does (a day within 0001..9999, known flags, a
 * finite value) and places it by day (callers may pass days in any order, with
 * gaps), then runs the loop over the placed days. */
static c_streaks c_checked_streaks(const hc_day_state *days, int64_t count, int32_t start, int32_t as_of, unsigned char *marks) {
    c_streaks r = {-1, -1};
    if (c_place(days, count, start, as_of, marks)) return r;
    r.current = r.longest = 0;
    int32_t run = 0;
    for (int32_t day = start; day <= as_of; day++) {
        unsigned char m = marks[day - start];
        if (m == 1) {
            run++;
            if (run > r.longest) r.longest = run;
        } else if (m == 2) {
            continue;
        } else if (day < as_of) {
            run = 0;
        }
    }
    r.current = run;
    return r;
}

static int c_checked_strength(const hc_day_state *days, int64_t count, int32_t start, int32_t as_of, unsigned char *marks, double *out) {
    if (c_place(days, count, start, as_of, marks)) return -1;
    double m = pow(0.5, 1.0 / 13.0), s = 0;
    for (int32_t day = start; day <= as_of; day++) {
        unsigned char mark = marks[day - start];
        if (mark != 2 && (day < as_of || mark == 1)) s = s * m + (mark == 1 ? 1.0 : 0.0) * (1 - m);
        out[day - start] = s;
    }
    return 0;
}

/* Runs one case: habits of `length` days each, `habits` times. Times per habit and
 * per day for habitcore, the plain C loop and the C loop under the same contract. */
static void run_case(const char *name, int64_t habits, int64_t length, int print) {
    hc_day_state *days = malloc(sizeof *days * (size_t)length);
    double *strength = malloc(sizeof *strength * (size_t)length);
    double *c_strength = malloc(sizeof *c_strength * (size_t)length);
    unsigned char *marks = malloc((size_t)length);
    int32_t start = 18000, as_of = 18000 + (int32_t)length - 1;
    hc_habit_rules rules = HC_HABIT_RULES_INIT;
    rules.start_day = start;
    /* [0] habitcore, [1] plain C, [2] C with the same checks; per what. */
    double streak_time[3] = {0}, strength_time[3] = {0};
    long long mismatches = 0;
    for (int64_t h = 0; h < habits; h++) {
        unsigned seed = (unsigned)h * 2654435761u + 1u;
        history_day_states(days, length, start, &seed, 85, 3);
        hc_streak_result result = HC_STREAK_RESULT_INIT;
        int64_t best_count = 0;
        int64_t count = 0;
        double t0 = now();
        if (hc_streak_compute(&result, NULL, 0, &best_count, &rules, days, length, as_of) != HC_OK) {
            fprintf(stderr, "hc_streak_compute: %s\n", hc_last_error_message());
            exit(1);
        }
        double t1 = now();
        if (hc_strength_compute(strength, length, &count, &rules, days, length, start, as_of) != HC_OK) exit(1);
        double t2 = now();
        c_streaks plain = c_streak_loop(days, length, as_of);
        double t3 = now();
        c_strength_loop(days, length, as_of, c_strength);
        double t4 = now();
        c_streaks checked = c_checked_streaks(days, length, start, as_of, marks);
        double t5 = now();
        if (c_checked_strength(days, length, start, as_of, marks, c_strength)) exit(1);
        double t6 = now();
        streak_time[0] += t1 - t0, strength_time[0] += t2 - t1;
        streak_time[1] += t3 - t2, strength_time[1] += t4 - t3;
        streak_time[2] += t5 - t4, strength_time[2] += t6 - t5;
        if (plain.current != result.current.length || plain.longest != result.longest.length || checked.current != plain.current ||
            checked.longest != plain.longest || fabs(strength[length - 1] - c_strength[length - 1]) > 1e-9) mismatches++;
    }
    double total_days = (double)habits * (double)length;
    const char *whats[2] = {"streaks", "strength"};
    double *times[2] = {streak_time, strength_time};
    for (int w = 0; w < 2 && print; w++) {
        double *t = times[w];
        printf("%-27s %-8s %10.3f %8.2f %10.3f %8.2f %10.3f %8.2f %7.2fx %7.2fx\n", name, whats[w], t[0] * 1e6 / habits,
               t[0] * 1e9 / total_days, t[1] * 1e6 / habits, t[1] * 1e9 / total_days, t[2] * 1e6 / habits, t[2] * 1e9 / total_days,
               t[0] / t[1], t[0] / t[2]);
    }
    if (mismatches) {
        fprintf(stderr, "%lld habits disagree with the reference loops\n", mismatches);
        exit(1);
    }
    free(days);
    free(strength);
    free(c_strength);
    free(marks);
}

/* The store-backed calls for one daily habit with ten years of entries (85% of days
 * done, 3% skipped) in a SQLite file: each call reads the ledger and judges it. */
static void store_case(const char *folder) {
    char path[4096];
    snprintf(path, sizeof path, "%s/streaks.habitcore", folder);
    remove(path);
    hc_store *store = NULL;
    check(hc_store_open(&store, path, 0), "open");
    int32_t today = 0;
    check(hc_store_today(&today, store), "today");
    int32_t start = today - 3652;
    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.name = "ten years";
    options.start_day = start;
    int64_t habit = 0;
    check(hc_habit_create(&habit, store, &options), "create");
    unsigned seed = 7;
    check(hc_store_begin(store), "begin");
    check(history_append(NULL, store, habit, start, today, &seed, 85, 3), "append");
    check(hc_store_commit(store), "commit");
    int64_t days = (int64_t)today - start + 1;
    hc_day_score *scores = malloc(sizeof *scores * (size_t)days);
    double *strength = malloc(sizeof *strength * (size_t)days);
    const int calls = 50;
    double t[3] = {0};
    for (int i = 0; i < calls; i++) {
        hc_streak_result result = HC_STREAK_RESULT_INIT;
        hc_streak best[5];
        int64_t best_count = 0;
        int64_t count = 0;
        double t0 = now();
        check(hc_habit_streaks(&result, best, 5, &best_count, store, habit, today), "streaks");
        double t1 = now();
        check(hc_store_day_scores(scores, days, &count, store, start, today), "day scores");
        double t2 = now();
        check(hc_habit_strength(strength, days, &count, store, habit, start, today), "strength");
        double t3 = now();
        t[0] += t1 - t0, t[1] += t2 - t1, t[2] += t3 - t2;
    }
    const char *names[3] = {"hc_habit_streaks (best 5)", "hc_store_day_scores", "hc_habit_strength"};
    printf("\nstore-backed, one daily habit, %lld days of history in SQLite (mean of %d calls)\n", (long long)days, calls);
    printf("%-27s %10s %8s\n", "call", "us/call", "ns/day");
    for (int w = 0; w < 3; w++) printf("%-27s %10.1f %8.1f\n", names[w], t[w] * 1e6 / calls, t[w] * 1e9 / calls / (double)days);
    free(scores);
    free(strength);
    hc_store_close(store);
    remove(path);
}

int main(int argc, char **argv) {
    int64_t habits = argc > 1 ? atoll(argv[1]) : 100000;
    const char *folder = argc > 2 ? argv[2] : "/tmp";
    printf("pure calls through the C ABI vs the same loops in C (habitcore %s)\n", hc_version_string());
    printf("plain C: the loop alone over sorted, gapless, trusted days; same contract: C that also checks each\n"
           "record and places it by day, as habitcore must. Times per habit (us) and per day (ns).\n\n");
    printf("%-27s %-8s %10s %8s %10s %8s %10s %8s %8s %8s\n", "case", "what", "us/habit", "ns/day", "plain us", "ns/day",
           "same us", "ns/day", "/plain", "/same");
    /* One unprinted round first, so one-time costs (loading, first allocations) stay out of the figures. */
    run_case("warm-up", 10, 30, 0);
    run_case("1 habit, 10 years (x1000)", 1000, 3653, 1);
    run_case("100000 habits, 1 year each", habits, 365, 1);
    store_case(folder);
    return 0;
}
