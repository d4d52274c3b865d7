/* reminders.c: the reminders of the coming week through the C ABI, for a store of
 * 1,000 habits with three reminder rules each (one inside the quiet hours, so it is
 * moved), 90 days of history and mixed schedules, in America/New_York. Baselines in
 * the same run: reading the ledger of the days the call looks at (hc_entry_list_open
 * over the week and the week before it, where weekly quotas begin), and what an app
 * would otherwise ask to decide its reminders by hand (hc_store_due for each of the
 * seven days). Mean and best of the rounds: the machine may be shared.
 * Usage: reminders [FOLDER for the store] [ROUNDS, default 20] */
#include "bench.h"
#include "history.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define HABITS 1000
#define HISTORY 90

static int64_t reminders(hc_store *store, int64_t from, int64_t to, uint32_t flags) {
    hc_reminder_list *list = NULL;
    check(hc_reminder_list_open(&list, store, from, to, flags), "next");
    int64_t count = 0;
    check(hc_reminder_list_count(&count, list), "count");
    hc_reminder_list_free(list);
    return count;
}

/* The main case on its own, so callgrind counts it alone: with ROUNDS 1,
 * valgrind --tool=callgrind --toggle-collect=next_week reminders DIR 1
 * gives the instructions of one call on a warm handle. */
__attribute__((noinline)) int64_t next_week(hc_store *store, int64_t from, int64_t to) { return reminders(store, from, to, 0); }

int main(int argc, char **argv) {
    char path[4096];
    snprintf(path, sizeof path, "%s/reminders.habitcore", argc > 1 ? argv[1] : ".");
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    if (rounds < 1) return 2;
    remove(path);
    hc_store *store = NULL;
    check(hc_store_open(&store, path, 0), "open");
    check(hc_store_set_timezone(store, "America/New_York"), "zone");
    int32_t today = 0;
    check(hc_store_today(&today, store), "today");
    int32_t start = today - HISTORY;
    const char *schedules[] = {"daily", "daily", "days:mon,wed,fri", "weekly:3", "every:2"};
    const int32_t minutes[] = {6 * 60 + 30, 12 * 60 + 15, 20 * 60};
    unsigned seed = 21;
    int64_t entries = 0;
    check(hc_store_begin(store), "begin");
    check(hc_store_set_quiet_hours(store, 22 * 60, 7 * 60, HC_DAY_NONE), "quiet hours");
    for (int h = 0; h < HABITS; h++) {
        int64_t habit = bench_habit(store, h + 1, start, schedules[h % 5]);
        for (int r = 0; r < 3; r++) {
            hc_reminder_rule rule = HC_REMINDER_RULE_INIT;
            rule.habit_id = habit;
            rule.minute = minutes[r];
            rule.message = r == 2 ? "evening check-in" : NULL;
            check(hc_reminder_rule_add(NULL, store, &rule), "rule");
        }
        check(history_append(&entries, store, habit, start, today - 1, &seed, 80, 2), "append");
    }
    check(hc_store_commit(store), "commit");
    check(hc_store_close(store), "close");

    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    int64_t from = (int64_t)wall.tv_sec * 1000, to = from + 7 * 86400000LL;
    printf("reminders: %d habits, 3 rules each, %d days of history, %lld entries; the week from now "
           "(mean of %d rounds, after the first call)\n\n", HABITS, HISTORY, (long long)entries, rounds);

    /* The first call on a fresh handle reads the habits into its cache. */
    check(hc_store_open(&store, path, 0), "open");
    double t0 = now();
    int64_t count = reminders(store, from, to, 0);
    double first = now() - t0;

    double next = 0, pending = 0, read = 0, due = 0, best = 1e9;
    for (int round = 0; round < rounds; round++) {
        double t1 = now();
        next_week(store, from, to);
        double t2 = now();
        reminders(store, from, to, HC_REMINDERS_PENDING);
        double t3 = now();
        hc_entry_list *rows = NULL;
        check(hc_entry_list_open(&rows, store, 0, today - 7, today + 7), "entries");
        hc_entry_list_free(rows);
        double t4 = now();
        for (int32_t day = today; day < today + 7; day++) {
            int64_t items = 0;
            check(hc_store_due(NULL, 0, &items, store, day), "due");
        }
        double t5 = now();
        next += t2 - t1, pending += t3 - t2, read += t4 - t3, due += t5 - t4;
        if (t2 - t1 < best) best = t2 - t1;
    }
    next /= rounds, pending /= rounds, read /= rounds, due /= rounds;
    /* Claiming writes a delivery for each: once, on its own. */
    double t6 = now();
    int64_t claimed = reminders(store, from, to, HC_REMINDERS_CLAIM);
    double claim = now() - t6;

    printf("%-62s %10s %10s\n", "case", "ms/call", "/read");
    printf("%-62s %10.2f %9.2fx\n", "baseline: read the entries of its days (hc_entry_list_open)", read * 1e3, 1.0);
    printf("%-62s %10.2f %9.2fx\n", "baseline: hc_store_due for each of the 7 days", due * 1e3, due / read);
    char label[128];
    snprintf(label, sizeof label, "hc_reminder_list_open, the week: %lld reminders", (long long)count);
    printf("%-62s %10.2f %9.2fx\n", label, next * 1e3, next / read);
    printf("%-62s %10.2f %9.2fx\n", "hc_reminder_list_open, the week: best round", best * 1e3, best / read);
    printf("%-62s %10.2f %9.2fx\n", "hc_reminder_list_open, HC_REMINDERS_PENDING", pending * 1e3, pending / read);
    printf("%-62s %10.2f %9.2fx\n", "hc_reminder_list_open, first call on a fresh handle", first * 1e3, first / read);
    snprintf(label, sizeof label, "hc_reminder_list_open, HC_REMINDERS_CLAIM: %lld recorded once", (long long)claimed);
    printf("%-62s %10.2f %9.2fx\n", label, claim * 1e3, claim / read);
    check(hc_store_close(store), "close");
    return 0;
}
