/* shields.c: three roles sharing one store, started together (they wait for GO_FILE).
 *  writer PATH N GO A B   N transactions, each undoing one of habits A, B's done
 *                         entries and appending the other's, plus a credit adjust
 *                         and a one-minute unlock spend: after every commit exactly
 *                         one of A, B is done today. Prints "wrote N in MS ms".
 *  reader PATH N GO       opens read-only and asks hc_shield_state N times; rules 1
 *                         and 2 lift on A and B: an answer with both or neither
 *                         lifted mixes two transactions. Prints "asked N mixed M
 *                         errors E slowest MS ms".
 *  granter PATH N GO RULE asks for N emergency unlocks of RULE. Prints "granted G
 *                         refused R errors E slowest MS ms".
 * Any status other than HC_OK (and HC_E_INSUFFICIENT for the granter) is an error. */
#include <habitcore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

static int wait_go(const char *go) {
    for (int waited = 0; access(go, F_OK) != 0; waited++) {
        if (waited > 3000) return 3;
        usleep(10000);
    }
    return 0;
}

static int report(const char *what, int32_t status) {
    fprintf(stderr, "%s: %s: %s\n", what, hc_status_string(status), hc_last_error_message());
    return 1;
}

static int writer(const char *path, int n, int64_t a, int64_t b) {
    hc_store *store = NULL;
    int32_t status = hc_store_open(&store, path, 0);
    if (status != HC_OK) return report("open", status);
    int errors = 0;
    double start = now_ms();
    for (int i = 0; i < n; i++) {
        /* i even: A is done, make B done; odd: the reverse. */
        int64_t from = i % 2 == 0 ? a : b, to = i % 2 == 0 ? b : a;
        hc_entry_input entry = HC_ENTRY_INPUT_INIT;
        entry.habit_id = to;
        entry.kind = HC_ENTRY_DONE;
        int64_t undo = 0;
        if ((status = hc_store_begin(store)) != HC_OK) { errors += report("begin", status); continue; }
        if ((status = hc_entry_undo_last(&undo, store, from, HC_DAY_NONE)) != HC_OK) errors += report("undo", status);
        if ((status = hc_entry_append(NULL, store, &entry)) != HC_OK) errors += report("append", status);
        if ((status = hc_credit_adjust(NULL, store, 1, 1, "steps")) != HC_OK) errors += report("adjust", status);
        if ((status = hc_credit_spend(NULL, store, 1, 1, "peek", HC_SPEND_UNLOCK)) != HC_OK) errors += report("spend", status);
        if ((status = hc_store_commit(store)) != HC_OK) errors += report("commit", status);
    }
    printf("wrote %d in %.0f ms errors %d\n", n, now_ms() - start, errors);
    hc_store_close(store);
    return errors ? 1 : 0;
}

static int reader(const char *path, int n) {
    /* As docs/SHIELDS.md tells an extension: SQLite serves habitcore alone here. */
    int32_t status = hc_process_disable_sqlite_statistics();
    if (status != HC_OK) return report("disable statistics", status);
    hc_store *store = NULL;
    status = hc_store_open(&store, path, HC_OPEN_READONLY);
    if (status != HC_OK) return report("open", status);
    int errors = 0, mixed = 0;
    double slowest = 0;
    for (int i = 0; i < n; i++) {
        hc_shield_status states[3];
        int64_t count = 0, revision = 0;
        double start = now_ms();
        /* Two minutes ahead: a completion lifts from the next whole minute on. */
        status = hc_shield_state(states, 3, &count, &revision, store, ((int64_t)time(NULL) + 120) * 1000);
        double took = now_ms() - start;
        if (took > slowest) slowest = took;
        if (status != HC_OK) { errors += report("state", status); continue; }
        if (count != 3) { errors++; continue; }
        int lifted = (states[0].reason == HC_SHIELD_COMPLETED) + (states[1].reason == HC_SHIELD_COMPLETED);
        if (lifted != 1) mixed++;
    }
    printf("asked %d mixed %d errors %d slowest %.1f ms\n", n, mixed, errors, slowest);
    hc_store_close(store);
    return errors || mixed ? 1 : 0;
}

static int granter(const char *path, int n, int64_t rule) {
    int errors = 0, granted = 0, refused = 0;
    double slowest = 0;
    for (int i = 0; i < n; i++) {
        /* As a shield extension would: open, unlock, close. */
        hc_store *store = NULL;
        double start = now_ms();
        int32_t status = hc_store_open(&store, path, 0);
        if (status == HC_OK) status = hc_shield_emergency_unlock(NULL, store, rule, 5, "emergency");
        hc_store_close(store);
        double took = now_ms() - start;
        if (took > slowest) slowest = took;
        if (status == HC_OK) granted++;
        else if (status == HC_E_INSUFFICIENT) refused++;
        else errors += report("unlock", status);
        usleep(2000);
    }
    printf("granted %d refused %d errors %d slowest %.1f ms\n", granted, refused, errors, slowest);
    return errors ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc < 5) return 2;
    const char *role = argv[1], *path = argv[2];
    int n = atoi(argv[3]);
    if (n < 1 || wait_go(argv[4])) return 2;
    if (strcmp(role, "writer") == 0 && argc == 7) return writer(path, n, atoll(argv[5]), atoll(argv[6]));
    if (strcmp(role, "reader") == 0 && argc == 5) return reader(path, n);
    if (strcmp(role, "granter") == 0 && argc == 6) return granter(path, n, atoll(argv[5]));
    return 2;
}
