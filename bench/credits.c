/* credits.c: what the timer credit settlement (a rewarded habit's days that time alone
 * changed, read by hc_credit_balance and settled by the next write of a rewarded habit)
 * costs, on two stores built alike through the public header:
 *   a: a duration habit "focus" (30 minutes a day) rewarded by a credit rule of the
 *      default account (10 minutes a completed day, from today), its two years
 *      (730 days up to yesterday) logged as typed amounts, no timers; and a checkmark
 *      habit "plain" nobody rewards, with no history;
 *   b: the same, focus's 730 days logged by stopped timers instead (one a day,
 *      started 07:00 and stopped 07:30 local, at instants in the past).
 * Measured on a warm handle, per call: hc_credit_balance; one hc_entry_append of 60
 * seconds to focus today (its own commit); one hc_entry_append of a done to plain today.
 * Each is called once untimed first (the first append to focus makes today done and
 * earns; the timed ones change no credit; that first one is timed alone too, as
 * "append-first": on this tree it settles what time alone changed since no mark, every
 * day of the habit's timers). The balance is asked twice: on the store as
 * made (no write since its timers and rule: "balance"), and after the appends to focus
 * ("balance-settled": this tree's first write of a rewarded habit settles what time
 * alone changed and moves its mark, which the balance reads from). bench/credits.sh runs this against two
 * libraries (the baseline commit's and this tree's) and counts instructions.
 * Usage: credits make DIR              make DIR/a.habitcore and DIR/b.habitcore
 *        credits time DIR REPS         time every case on both (copies the caller made):
 *                                      prints "CASE us_per_call" lines
 *        credits one STORE CASE REPS   one untimed call, then REPS calls of CASE
 *                                      (balance, append-rewarded, append-plain, balance-settled:
 *                                      one untimed append to focus first) instrumented;
 *                                      append-first: only the first append to focus (REPS unused) */
#include "bench.h"
#include <valgrind/callgrind.h>

#define DAYS 730

static int64_t habit_id(hc_store *store, const char *name) {
    hc_habit *habit = NULL;
    check(hc_habit_find(&habit, store, name), "find");
    int64_t id = habit->id;
    hc_habit_free(habit);
    return id;
}

static void make(const char *path, int timers) {
    int32_t today = 0;
    hc_store *store = bench_berlin_store(path, &today);
    int32_t start = today - DAYS;
    check(hc_store_begin(store), "begin");
    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.kind = HC_KIND_DURATION;
    options.name = "focus";
    options.target = 1800;
    options.start_day = start;
    int64_t focus = 0;
    check(hc_habit_create(&focus, store, &options), "create focus");
    hc_habit_options plain = HC_HABIT_OPTIONS_INIT;
    plain.name = "plain";
    plain.start_day = start;
    int64_t plain_id = 0;
    check(hc_habit_create(&plain_id, store, &plain), "create plain");
    for (int32_t day = start; day < today; day++) {
        int64_t begin = 0, end = 0;
        check(hc_store_utc_ms(&begin, store, day, 7 * 60), "utc");
        check(hc_store_utc_ms(&end, store, day, 7 * 60 + 30), "utc");
        if (timers) {
            int64_t timer = 0;
            check(hc_timer_start(&timer, store, focus, 0, begin), "timer start");
            check(hc_timer_act(store, timer, HC_TIMER_ACTION_STOP, end), "timer stop");
        } else {
            hc_entry_input entry = HC_ENTRY_INPUT_INIT;
            entry.kind = HC_ENTRY_AMOUNT;
            entry.habit_id = focus;
            entry.day = day;
            entry.value = 1800;
            entry.at_ms = end;
            check(hc_entry_append(NULL, store, &entry), "append");
        }
    }
    check(hc_store_commit(store), "commit");
    check(hc_credit_rule_set(NULL, store, HC_ACCOUNT_DEFAULT, HC_RULE_HABIT_MINUTES, focus, 10, HC_DAY_NONE), "rule");
    check(hc_store_close(store), "close");
}

enum { BALANCE, APPEND_REWARDED, APPEND_PLAIN, BALANCE_SETTLED, APPEND_FIRST };

static int parse_case(const char *name) {
    if (strcmp(name, "balance") == 0) return BALANCE;
    if (strcmp(name, "append-rewarded") == 0) return APPEND_REWARDED;
    if (strcmp(name, "append-plain") == 0) return APPEND_PLAIN;
    if (strcmp(name, "balance-settled") == 0) return BALANCE_SETTLED;
    if (strcmp(name, "append-first") == 0) return APPEND_FIRST;
    fprintf(stderr, "unknown case %s\n", name);
    exit(2);
}

__attribute__((noinline)) static int64_t call(hc_store *store, int what, int64_t focus, int64_t plain) {
    if (what == BALANCE || what == BALANCE_SETTLED) {
        int64_t available = 0;
        check(hc_credit_balance(&available, store, HC_ACCOUNT_DEFAULT), "balance");
        return available;
    }
    hc_entry_input entry = HC_ENTRY_INPUT_INIT;
    entry.kind = what == APPEND_REWARDED ? HC_ENTRY_AMOUNT : HC_ENTRY_DONE;
    entry.habit_id = what == APPEND_REWARDED ? focus : plain;
    entry.value = what == APPEND_REWARDED ? 60 : 0;
    int64_t id = 0;
    check(hc_entry_append(&id, store, &entry), "append");
    return id;
}

static hc_store *open_store(const char *path, int64_t *focus, int64_t *plain) {
    hc_store *store = NULL;
    check(hc_store_open(&store, path, HC_OPEN_NOCREATE), "open");
    *focus = habit_id(store, "focus");
    *plain = habit_id(store, "plain");
    return store;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "make") == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/a.habitcore", argv[2]);
        make(path, 0);
        snprintf(path, sizeof path, "%s/b.habitcore", argv[2]);
        make(path, 1);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "time") == 0) {
        int reps = atoi(argv[3]);
        const char *cases[] = {"balance", "append-rewarded", "append-plain", "balance-settled"};
        for (int s = 0; s < 2; s++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%c.habitcore", argv[2], "ab"[s]);
            int64_t focus = 0, plain = 0;
            hc_store *store = open_store(path, &focus, &plain);
            for (int c = 0; c < 4; c++) {
                double t0 = now();
                int64_t sink = call(store, c, focus, plain);
                if (c == APPEND_REWARDED) printf("append-first-%c %.3f\n", "ab"[s], (now() - t0) * 1e6);
                t0 = now();
                for (int i = 0; i < reps; i++) sink += call(store, c, focus, plain);
                double t = now() - t0;
                printf("%s-%c %.3f\n", cases[c], "ab"[s], t / reps * 1e6);
                if (sink == INT64_MIN) puts("");
            }
            check(hc_store_close(store), "close");
        }
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "one") == 0) {
        int what = parse_case(argv[3]), reps = atoi(argv[4]);
        int64_t focus = 0, plain = 0;
        hc_store *store = open_store(argv[2], &focus, &plain);
        if (what == APPEND_FIRST) { /* the store's first append to focus, alone */
            CALLGRIND_START_INSTRUMENTATION;
            int64_t id = call(store, APPEND_REWARDED, focus, plain);
            CALLGRIND_STOP_INSTRUMENTATION;
            check(hc_store_close(store), "close");
            return id == INT64_MIN;
        }
        int64_t sink = what == BALANCE_SETTLED ? call(store, APPEND_REWARDED, focus, plain) : 0;
        sink += call(store, what, focus, plain);
        CALLGRIND_START_INSTRUMENTATION;
        for (int i = 0; i < reps; i++) sink += call(store, what, focus, plain);
        CALLGRIND_STOP_INSTRUMENTATION;
        check(hc_store_close(store), "close");
        return sink == INT64_MIN;
    }
    fprintf(stderr, "usage: credits make DIR | time DIR REPS | one STORE CASE REPS\n");
    return 2;
}
