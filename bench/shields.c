/* shields.c: hc_shield_state for 10 rules on a ten-year store (10 habits, a done
 * entry most days for ten years, a few unlock sessions and emergency unlocks), as an
 * app asks it (warm: one open handle, asked again and again) and as an extension
 * would (cold: open read-only, ask, close). Cold is timed inside a running process
 * (the open+ask+close alone) and as a whole process; its memory is the peak RSS of
 * a process that opens, asks and closes, less that of a process that only loads
 * the library ("base"). Also the writer's slowdown beside a read-only reader asking
 * in a loop and a granter of emergency unlocks (wall and CPU time, same run).
 * The writer is also timed beside the same two on another copy of the store, the
 * control that tells the store's sharing apart from the machine's.
 * Mean and best of the rounds (and the median of the in-process cold asks): the
 * machine may be shared. Instruction counts:
 * bench/shields.sh (callgrind; only the measured part is instrumented).
 * Usage: shields FOLDER [ROUNDS]            make the store, then measure
 *        shields make STORE                 only make the store (for callgrind)
 *        shields cold STORE [lean]          one cold ask, a whole process (run by the above)
 *        shields coldloop STORE N [lean]    one untimed cold ask, then N timed ones in this process:
 *                                           prints their mean, median and best (run by the above)
 *        shields base                       only load the library (the memory baseline)
 *        shields warm STORE REPS            one untimed ask, then REPS warm asks (instrumented)
 *        shields coldin STORE REPS [lean]   one untimed cold ask, then REPS in-process cold asks (instrumented)
 * "lean": the process first calls hc_process_disable_sqlite_statistics, as
 * docs/SHIELDS.md tells an extension whose SQLite serves habitcore alone.
 *        shields writer STORE N             N writer transactions (instrumented)
 *        shields beside STORE               a reader and a granter on STORE until killed (their process group) */
#define _GNU_SOURCE /* sched_setaffinity */
#include "bench.h"
#include "history.h"
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <valgrind/callgrind.h>
#include <sys/wait.h>
#include <unistd.h>

#define HABITS 10
#define YEARS 10

__attribute__((noinline)) int64_t state_once(hc_store *store, int64_t at) {
    hc_shield_status states[16];
    int64_t count = 0, revision = 0;
    check(hc_shield_state(states, 16, &count, &revision, store, at), "state");
    return count + revision;
}

static int64_t now_ms(void) { return (int64_t)time(NULL) * 1000; }

static void make(const char *path) {
    int32_t today = 0;
    hc_store *store = bench_berlin_store(path, &today);
    int32_t start = today - 365 * YEARS;
    int64_t habits[HABITS];
    check(hc_store_begin(store), "begin");
    for (int h = 0; h < HABITS; h++) {
        habits[h] = bench_habit(store, h + 1, start, NULL);
    }
    unsigned seed = 24;
    for (int32_t day = start; day < today; day++) {
        for (int h = 0; h < HABITS; h++) {
            if ((history_next(&seed) >> 16) % 10 == 0) continue; /* a missed day now and then */
            hc_entry_input entry = HC_ENTRY_INPUT_INIT;
            entry.habit_id = habits[h];
            entry.kind = HC_ENTRY_DONE;
            entry.day = day;
            entry.at_ms = ((int64_t)day * 86400 + 6 * 3600 + (int64_t)((seed >> 8) % 7200)) * 1000;
            check(hc_entry_append(NULL, store, &entry), "append");
        }
    }
    const char *days[] = {"daily", "days:mon,tue,wed,thu,fri", "days:fri", "daily", "every:2"};
    for (int r = 0; r < 10; r++) {
        hc_shield_rule rule = HC_SHIELD_RULE_INIT;
        char name[32];
        snprintf(name, sizeof name, "rule %d", r + 1);
        int64_t ids[2] = {habits[r], habits[(r + 1) % HABITS]};
        rule.name = name;
        rule.key = name;
        rule.days = days[r % 5];
        rule.habit_ids = ids;
        rule.habit_count = 1 + r % 2;
        rule.lift = r % 3 == 0 ? HC_SHIELD_LIFT_ANY : HC_SHIELD_LIFT_ALL;
        rule.start_minute = r % 4 == 0 ? HC_SHIELD_DAY_START : (r % 4 == 1 ? 21 * 60 : 6 * 60);
        rule.end_minute = r % 4 == 0 ? 9 * 60 : (r % 4 == 1 ? 5 * 60 : HC_SHIELD_MIDNIGHT);
        rule.cutoff_lifts = r % 5 != 0;
        rule.budget_period = HC_SHIELD_BUDGET_WEEK;
        rule.budget_count = 3;
        check(hc_shield_rule_add(NULL, store, &rule, start), "rule");
    }
    check(hc_store_commit(store), "commit");
    check(hc_credit_adjust(NULL, store, 1, 120, "steps"), "adjust");
    for (int s = 0; s < 3; s++) check(hc_credit_spend(NULL, store, 1, 10, "break", HC_SPEND_UNLOCK), "spend");
    check(hc_shield_emergency_unlock(NULL, store, 1, 15, "bench"), "emergency");
    check(hc_store_close(store), "close");
}

/* With "lean", SQLite's memory statistics go off for this process before its first use. */
static void lean_if(int argc, char **argv, int at) {
    if (argc > at && strcmp(argv[at], "lean") == 0) check(hc_process_disable_sqlite_statistics(), "disable statistics");
}

/* One cold ask, as an extension: open read-only, ask, close. */
static int cold(const char *path) {
    hc_store *store = NULL;
    check(hc_store_open(&store, path, HC_OPEN_READONLY), "open read-only");
    state_once(store, now_ms());
    check(hc_store_close(store), "close");
    return 0;
}

__attribute__((noinline)) int cold_once(const char *path) { return cold(path); }

/* This process's resident memory in KiB: anonymous (what it allocated: the heap,
 * SQLite's caches) and file-backed (the library's and SQLite's code pages it ran). */
static void resident(long *anon, long *file) {
    *anon = *file = 0;
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "RssAnon:", 8) == 0) *anon = atol(line + 8);
        if (strncmp(line, "RssFile:", 8) == 0) *file = atol(line + 8);
    }
    if (f) fclose(f);
}

/* A cold ask in a fresh process, printing what it added to the resident memory. */
static int cold_memory(const char *path) {
    long anon0, file0, anon1, file1;
    resident(&anon0, &file0);
    cold(path);
    resident(&anon1, &file1);
    printf("%ld %ld\n", anon1 - anon0, file1 - file0);
    return 0;
}

/* The peak RSS (KiB) of `self ARGS...` run as a child process. */
static long child_peak(const char *self, const char *mode, const char *path) {
    pid_t pid = fork();
    if (pid == 0) { execl(self, self, mode, path, (char *)NULL); _exit(127); }
    int status = 0;
    struct rusage usage;
    wait4(pid, &status, 0, &usage);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) { fprintf(stderr, "%s process failed\n", mode); exit(1); }
    return usage.ru_maxrss;
}

/* Runs `self cold STORE [lean]` n times; returns the mean wall time (s) and the largest peak RSS (KiB). */
static void cold_processes(const char *self, const char *path, int lean, int n, double *mean, double *best, long *peak) {
    *mean = 0; *best = 1e9; *peak = 0;
    for (int i = 0; i < n; i++) {
        double t0 = now();
        pid_t pid = fork();
        if (pid == 0) { execl(self, self, "cold", path, lean ? "lean" : (char *)NULL, (char *)NULL); _exit(127); }
        int status = 0;
        struct rusage usage;
        wait4(pid, &status, 0, &usage);
        double t = now() - t0;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) { fprintf(stderr, "cold process failed\n"); exit(1); }
        *mean += t / n;
        if (t < *best) *best = t;
        if (usage.ru_maxrss > *peak) *peak = usage.ru_maxrss;
    }
}

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The writer's wall time for n transactions (an entry and a credit adjust each);
 * *cpu gets its CPU time. */
static double write_loop(const char *path, int n, double *cpu) {
    hc_store *store = NULL;
    check(hc_store_open(&store, path, 0), "open writer");
    double t0 = now(), c0 = cpu_now();
    for (int i = 0; i < n; i++) {
        check(hc_store_begin(store), "begin");
        hc_entry_input entry = HC_ENTRY_INPUT_INIT;
        entry.habit_id = 1 + i % HABITS;
        entry.kind = HC_ENTRY_DONE;
        check(hc_entry_append(NULL, store, &entry), "append");
        check(hc_credit_adjust(NULL, store, 1, 1, "steps"), "adjust");
        check(hc_store_commit(store), "commit");
    }
    double t = now() - t0;
    *cpu = cpu_now() - c0;
    hc_store_close(store);
    return t;
}

/* On two or more cores the writer runs on core 0 and the reader and the granter on
 * core 1, alone and beside alike: the comparison is then the slowdown their work on
 * the store causes the writer (locks, the WAL index, the caches they share), not the
 * CPU time three busy processes take from each other on two cores. */
static int pinned(void) { return sysconf(_SC_NPROCESSORS_ONLN) >= 2; }
static void pin(int core) {
    if (!pinned()) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) perror("sched_setaffinity");
}

/* A reader asking in a loop until killed, as a widget or an extension would. */
static pid_t start_reader(const char *path) {
    pid_t pid = fork();
    if (pid == 0) {
        pin(1);
        hc_store *r = NULL;
        check(hc_store_open(&r, path, HC_OPEN_READONLY), "reader");
        for (;;) state_once(r, now_ms());
    }
    return pid;
}

/* A granter asking for an emergency unlock every 2 ms (the budget refuses most). */
static pid_t start_granter(const char *path) {
    pid_t pid = fork();
    if (pid == 0) {
        pin(1);
        for (;;) {
            hc_store *g = NULL;
            if (hc_store_open(&g, path, 0) == HC_OK) {
                int32_t status = hc_shield_emergency_unlock(NULL, g, 1, 5, "bench");
                if (status != HC_OK && status != HC_E_INSUFFICIENT) check(status, "granter");
            }
            hc_store_close(g);
            usleep(2000);
        }
    }
    return pid;
}

static void stop_child(pid_t pid) {
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "cold") == 0) { lean_if(argc, argv, 3); return cold(argv[2]); }
    if (argc >= 4 && strcmp(argv[1], "coldloop") == 0) {
        lean_if(argc, argv, 4);
        cold(argv[2]); /* the library's one-time set-up, not measured */
        int n = atoi(argv[3]);
        if (n < 1) return 2;
        double *times = malloc(sizeof(double) * (size_t)n);
        if (!times) return 1;
        double mean = 0;
        for (int r = 0; r < n; r++) {
            double s = now();
            cold_once(argv[2]);
            times[r] = now() - s;
            mean += times[r] / n;
        }
        qsort(times, (size_t)n, sizeof(double), by_value);
        printf("%.9f %.9f %.9f\n", mean, times[n / 2], times[0]);
        free(times);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "coldmem") == 0) return cold_memory(argv[2]);
    if (argc >= 2 && strcmp(argv[1], "base") == 0) return hc_abi_version() == HC_ABI_VERSION ? 0 : 1;
    if (argc >= 4 && strcmp(argv[1], "coldin") == 0) {
        lean_if(argc, argv, 4);
        cold(argv[2]); /* the library's one-time set-up, not measured */
        CALLGRIND_START_INSTRUMENTATION;
        for (int i = atoi(argv[3]); i > 0; i--) cold_once(argv[2]);
        CALLGRIND_STOP_INSTRUMENTATION;
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "make") == 0) { make(argv[2]); return 0; }
    if (argc == 4 && strcmp(argv[1], "warm") == 0) {
        hc_store *store = NULL;
        check(hc_store_open(&store, argv[2], HC_OPEN_READONLY), "open");
        int64_t at = now_ms();
        state_once(store, at); /* the first ask fills what a handle keeps */
        CALLGRIND_START_INSTRUMENTATION;
        int reps = atoi(argv[3]);
        for (int i = 0; i < reps; i++) state_once(store, at + i * 60000LL);
        CALLGRIND_STOP_INSTRUMENTATION;
        hc_store_close(store);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "writer") == 0) { /* N writer transactions, instrumented */
        double cpu = 0;
        CALLGRIND_START_INSTRUMENTATION;
        write_loop(argv[2], atoi(argv[3]), &cpu);
        CALLGRIND_STOP_INSTRUMENTATION;
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "beside") == 0) { /* a reader and a granter until killed */
        pid_t reader = start_reader(argv[2]), granter = start_granter(argv[2]);
        waitpid(reader, NULL, 0);
        waitpid(granter, NULL, 0);
        return 0;
    }
    if (argc < 2) return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/shields.habitcore", argv[1]);
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    if (rounds < 1) return 2;
    double t0 = now();
    make(path);
    printf("shields: 10 rules, %d habits, %d years of daily entries (store made in %.1f s)\n", HABITS, YEARS, now() - t0);

    hc_store *store = NULL;
    check(hc_store_open(&store, path, HC_OPEN_READONLY), "open");
    int64_t at = now_ms();
    state_once(store, at);
    double mean = 0, best = 1e9;
    const int reps = 200;
    for (int r = 0; r < rounds; r++) {
        double s = now();
        for (int i = 0; i < reps; i++) state_once(store, at + i * 60000LL);
        double per = (now() - s) / reps;
        mean += per / rounds;
        if (per < best) best = per;
    }
    hc_store_close(store);
    printf("  warm  hc_shield_state, 10 rules           mean %8.1f us  best %8.1f us   (goal < 20 us)\n", mean * 1e6, best * 1e6);

    long peak = 0, lean_peak = 0;
    double lean_mean = 0, lean_best = 0;
    cold_processes(argv[0], path, 0, rounds, &mean, &best, &peak);
    cold_processes(argv[0], path, 1, rounds, &lean_mean, &lean_best, &lean_peak);
    /* The process start alone, for the baseline. */
    double start_mean = 0, start_best = 1e9;
    for (int i = 0; i < rounds; i++) {
        double s = now();
        pid_t pid = fork();
        if (pid == 0) { execl("/bin/true", "true", (char *)NULL); _exit(127); }
        int status = 0;
        waitpid(pid, &status, 0);
        double t = now() - s;
        start_mean += t / rounds;
        if (t < start_best) start_best = t;
    }
    long base = 0;
    for (int i = 0; i < 3; i++) {
        long p = child_peak(argv[0], "base", path);
        if (p > base) base = p;
    }
    printf("  cold  open read-only, ask, close (process) mean %8.2f ms  best %8.2f ms  peak RSS %ld KiB\n", mean * 1e3, best * 1e3, peak);
    printf("        the same, SQLite statistics off (lean) mean %8.2f ms  best %8.2f ms  peak RSS %ld KiB\n", lean_mean * 1e3, lean_best * 1e3, lean_peak);
    printf("        a process running /bin/true          mean %8.2f ms  best %8.2f ms\n", start_mean * 1e3, start_best * 1e3);
    printf("        a process only loading the library   peak RSS %ld KiB: the cold ask adds %ld KiB   (goal < 4 MB)\n", base, peak - base);
    char command[8400];
    snprintf(command, sizeof command, "'%s' coldmem '%s'", argv[0], path);
    FILE *child = popen(command, "r");
    long anon = 0, file = 0;
    if (child && fscanf(child, "%ld %ld", &anon, &file) == 2)
        printf("        of which allocated (RssAnon) %ld KiB, code and files paged in (RssFile) %ld KiB\n", anon, file);
    if (child) pclose(child);
    /* In-process cold: open, ask, close on a handle of its own each time, in a
     * process of its own (the statistics switch works only before SQLite's first use).
     * 25 asks a round, about a millisecond each: the median is the figure to read, as
     * a shared machine's preemptions land on a few asks and move the mean. */
    for (int lean = 0; lean <= 1; lean++) {
        double median = 0;
        snprintf(command, sizeof command, "'%s' coldloop '%s' %d%s", argv[0], path, 25 * rounds, lean ? " lean" : "");
        child = popen(command, "r");
        if (!child || fscanf(child, "%lf %lf %lf", &mean, &median, &best) != 3) { fprintf(stderr, "coldloop failed\n"); return 1; }
        pclose(child);
        printf("  cold  open read-only, ask, close (in process%s, %d asks) median %.2f ms  mean %.2f ms  best %.2f ms   (goal < 1 ms)\n",
               lean ? ", lean" : "", 25 * rounds, median * 1e3, mean * 1e3, best * 1e3);
    }

    /* The writer alone; beside a read-only reader asking in a loop and a granter of
     * emergency unlocks on its own store; and beside the same two on another copy of
     * the store (the control: the same load on the machine, nothing shared through
     * the store). Rounds alternate so drift in the machine's load falls on all three.
     * Each run starts from the same copy of the store: a writer's transaction costs
     * more as the ledger grows (its credit adjustment folds the account's entries).
     * What the store's sharing costs the writer is "same store" over "other copy";
     * "same store" over "alone" adds what two busy processes cost any process on
     * this machine (caches, memory bandwidth, a host's sibling threads). */
    const int writes = 300, modes = 3, rounds_w = 4;
    pin(0);
    double wall[3] = {0}, cpus[3] = {0}, cpu = 0;
    char pristine[4200], copy[4200], other[4200];
    snprintf(pristine, sizeof pristine, "%s/pristine.habitcore", argv[1]);
    snprintf(other, sizeof other, "%s/other.habitcore", argv[1]);
    check(hc_store_open(&store, path, 0), "open");
    remove(pristine);
    check(hc_store_backup(store, pristine), "backup");
    hc_store_close(store);
    for (int r = -1; r < rounds_w; r++) {
        for (int mode = 0; mode < modes; mode++) {
            snprintf(copy, sizeof copy, "%s/writer-%d-%d.habitcore", argv[1], r + 1, mode);
            hc_store *source = NULL;
            check(hc_store_open(&source, pristine, HC_OPEN_READONLY), "open pristine");
            check(hc_store_backup(source, copy), "copy");
            remove(other);
            if (mode == 2) check(hc_store_backup(source, other), "copy");
            hc_store_close(source);
            pid_t reader = 0, granter = 0;
            if (mode > 0) {
                reader = start_reader(mode == 1 ? copy : other);
                granter = start_granter(mode == 1 ? copy : other);
                usleep(50000); /* both started and asking */
            }
            double t = write_loop(copy, writes, &cpu);
            if (r >= 0) { wall[mode] += t; cpus[mode] += cpu; } /* round -1 warms the page cache and the library */
            if (reader) stop_child(reader);
            if (granter) stop_child(granter);
        }
    }
    printf("  writer %dx%d transactions%s:\n", rounds_w, writes, pinned() ? " (writer on core 0, reader and granter on core 1)" : "");
    printf("        alone %.0f ms (CPU %.0f ms); beside a reader and a granter on its store %.0f ms (CPU %.0f ms),\n"
           "        on another copy of the store %.0f ms (CPU %.0f ms)\n",
           wall[0] * 1e3, cpus[0] * 1e3, wall[1] * 1e3, cpus[1] * 1e3, wall[2] * 1e3, cpus[2] * 1e3);
    printf("        sharing the store: wall %.2fx, CPU %.2fx   (goal <= 1.1x; same store / other copy)\n", wall[1] / wall[2], cpus[1] / cpus[2]);
    printf("        sharing the machine: wall %.2fx, CPU %.2fx (other copy / alone); both: wall %.2fx, CPU %.2fx (same store / alone)\n",
           wall[2] / wall[0], cpus[2] / cpus[0], wall[1] / wall[0], cpus[1] / cpus[0]);
    return 0;
}
