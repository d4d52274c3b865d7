/* streaks.c: streaks and strength through the C ABI's pure calls against a C
 * implementation of the same loops, in the same run: one daily habit over ten
 * years, and 100,000 habits of one year each. Usage: streaks [HABITS] */
#include <habitcore.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

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

static void fill(hc_day_state *days, int64_t count, int32_t start, unsigned seed) {
    for (int64_t i = 0; i < count; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 16) % 100;
        days[i].day = start + (int32_t)i;
        days[i].flags = r < 85 ? HC_DAY_DONE | HC_DAY_HAS_ENTRIES : (r < 88 ? HC_DAY_SKIPPED | HC_DAY_HAS_ENTRIES : 0);
        days[i].value = r < 85 ? 1.0 : 0.0;
        days[i].entry_count = r < 88 ? 1 : 0;
        days[i].reserved = 0;
    }
}

/* Runs one case: habits of `length` days each, `habits` times. */
static void run_case(const char *name, int64_t habits, int64_t length) {
    hc_day_state *days = malloc(sizeof *days * (size_t)length);
    double *strength = malloc(sizeof *strength * (size_t)length);
    double *c_strength = malloc(sizeof *c_strength * (size_t)length);
    int32_t start = 18000, as_of = 18000 + (int32_t)length - 1;
    hc_habit_rules rules = HC_HABIT_RULES_INIT;
    rules.start_day = start;
    double ours_streaks = 0, ours_strength = 0, ref_streaks = 0, ref_strength = 0;
    long long checksum = 0, mismatches = 0;
    for (int64_t h = 0; h < habits; h++) {
        fill(days, length, start, (unsigned)h * 2654435761u + 1u);
        hc_streak_result result = HC_STREAK_RESULT_INIT;
        int32_t best_count = 0;
        int64_t count = 0;
        double t0 = now();
        if (hc_streaks_compute(&result, NULL, 0, &best_count, &rules, days, length, as_of) != HC_OK) {
            fprintf(stderr, "hc_streaks_compute: %s\n", hc_last_error_message());
            exit(1);
        }
        double t1 = now();
        if (hc_strength_compute(strength, length, &count, &rules, days, length, start, as_of) != HC_OK) exit(1);
        double t2 = now();
        c_streaks ref = c_streak_loop(days, length, as_of);
        double t3 = now();
        c_strength_loop(days, length, as_of, c_strength);
        double t4 = now();
        ours_streaks += t1 - t0;
        ours_strength += t2 - t1;
        ref_streaks += t3 - t2;
        ref_strength += t4 - t3;
        if (ref.current != result.current.length || ref.longest != result.longest.length ||
            fabs(strength[length - 1] - c_strength[length - 1]) > 1e-9) mismatches++;
        checksum += ref.longest;
    }
    double total_days = (double)habits * (double)length;
    printf("%-28s %-9s %12.3f %12.2f %12.3f %12.2f %8.2fx\n", name, "streaks", ours_streaks * 1e6 / habits, ours_streaks * 1e9 / total_days,
           ref_streaks * 1e6 / habits, ref_streaks * 1e9 / total_days, ours_streaks / ref_streaks);
    printf("%-28s %-9s %12.3f %12.2f %12.3f %12.2f %8.2fx\n", name, "strength", ours_strength * 1e6 / habits,
           ours_strength * 1e9 / total_days, ref_strength * 1e6 / habits, ref_strength * 1e9 / total_days, ours_strength / ref_strength);
    if (mismatches) {
        fprintf(stderr, "%lld habits disagree with the reference loop\n", mismatches);
        exit(1);
    }
    (void)checksum;
    free(days);
    free(strength);
    free(c_strength);
}

int main(int argc, char **argv) {
    int64_t habits = argc > 1 ? atoll(argv[1]) : 100000;
    printf("pure calls through the C ABI vs the same loops in C (habitcore %s); times per habit and per day\n\n", hc_version_string());
    printf("%-28s %-9s %12s %12s %12s %12s %9s\n", "case", "what", "us/habit", "ns/day", "C us/habit", "C ns/day", "ratio");
    run_case("1 habit, 10 years", 1, 3653);
    run_case("1 habit, 10 years (x1000)", 1000, 3653);
    run_case("100000 habits, 1 year each", habits, 365);
    return 0;
}
