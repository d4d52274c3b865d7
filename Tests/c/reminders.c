/* reminders.c: threads, each with its own handle, asking for the reminders of a
 * window in steps and delivering them, while another process does the same.
 * Each process first lists every pending reminder and waits until all
 * PROCESSES have (files GO_FILE-listed.PID), so they all hold the same
 * reminders; then even threads take reminders window by window, forwards, with
 * HC_REMINDERS_CLAIM, and odd threads record the listed ones with
 * hc_reminder_fired, backwards, delivering only those they recorded. Prints
 * "RULE DAY AT_MS" for each reminder this process delivered, then "# listed N".
 * Any status other than HC_OK is an error. All processes wait for GO_FILE.
 * Usage: reminders PATH FROM_MS TO_MS STEP_MS THREADS GO_FILE PROCESSES */
#include <habitcore.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <glob.h>

static const char *path;
static long long from, to, step;
static int errors;
static int64_t listed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, int32_t status) {
    pthread_mutex_lock(&lock);
    errors++;
    fprintf(stderr, "%s: %s: %s\n", what, hc_status_string(status), hc_last_error_message());
    pthread_mutex_unlock(&lock);
}

static void deliver(const hc_reminder *r) {
    pthread_mutex_lock(&lock);
    printf("%lld %d %lld\n", (long long)r->rule_id, r->day, (long long)r->at_ms);
    pthread_mutex_unlock(&lock);
}

/* Even threads: claim window by window, forwards. */
static void *claim_windows(hc_store *store) {
    long long windows = (to - from + step - 1) / step;
    for (long long w = 0; w < windows; w++) {
        long long start = from + w * step, end = start + step < to ? start + step : to;
        hc_reminder_list *list = NULL;
        int32_t status = hc_reminder_list_open(&list, store, start, end, HC_REMINDERS_CLAIM);
        if (status != HC_OK) { fail("claim", status); continue; }
        int64_t count = 0;
        hc_reminder_list_count(&count, list);
        for (int64_t k = 0; k < count; k++) {
            const hc_reminder *r = NULL;
            if (hc_reminder_list_get(&r, list, k) == HC_OK) deliver(r);
        }
        hc_reminder_list_free(list);
    }
    return NULL;
}

/* Odd threads: fire what the process listed before anyone delivered, one by
 * one, backwards, delivering those this call recorded. */
static hc_reminder_list *listed_before;

static void *fire_listed(hc_store *store) {
    int64_t count = 0;
    hc_reminder_list_count(&count, listed_before);
    for (int64_t k = count - 1; k >= 0; k--) {
        const hc_reminder *r = NULL;
        if (hc_reminder_list_get(&r, listed_before, k) != HC_OK) continue;
        int32_t recorded = 0;
        int32_t status = hc_reminder_fired(&recorded, store, r->rule_id, r->day, r->at_ms);
        if (status != HC_OK) fail("fired", status);
        else if (recorded) deliver(r);
    }
    return NULL;
}

static void *ask(void *odd) {
    hc_store *store = NULL;
    int32_t status = hc_store_open(&store, path, 0);
    if (status != HC_OK) { fail("open", status); return NULL; }
    if (odd) fire_listed(store); else claim_windows(store);
    hc_store_close(store);
    return NULL;
}

/* Waits until `processes` files named PREFIX.* exist (30 s at most). */
static int rendezvous(const char *prefix, int processes) {
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s.*", prefix);
    for (int waited = 0; waited < 3000; waited++) {
        glob_t found;
        int count = glob(pattern, 0, NULL, &found) == 0 ? (int)found.gl_pathc : 0;
        if (count) globfree(&found);
        if (count >= processes) return 0;
        usleep(10000);
    }
    return 3;
}

int main(int argc, char **argv) {
    if (argc != 8) return 2;
    path = argv[1];
    from = atoll(argv[2]);
    to = atoll(argv[3]);
    step = atoll(argv[4]);
    int threads = atoi(argv[5]);
    int processes = atoi(argv[7]);
    if (threads < 1 || threads > 16 || step <= 0 || to <= from || processes < 1) return 2;
    for (int waited = 0; access(argv[6], F_OK) != 0; waited++) {
        if (waited > 3000) return 3; /* 30 s without the go */
        usleep(10000);
    }
    /* Every process lists what is pending before any of them delivers. */
    hc_store *store = NULL;
    int32_t status = hc_store_open(&store, path, 0);
    if (status == HC_OK) status = hc_reminder_list_open(&listed_before, store, from, to, HC_REMINDERS_PENDING);
    if (status != HC_OK) { fail("list", status); return 1; }
    hc_reminder_list_count(&listed, listed_before);
    char ready[4200];
    snprintf(ready, sizeof ready, "%s-listed.%d", argv[6], (int)getpid());
    FILE *mark = fopen(ready, "w");
    if (mark) fclose(mark);
    snprintf(ready, sizeof ready, "%s-listed", argv[6]);
    if (rendezvous(ready, processes)) return 3;
    pthread_t ids[16];
    for (long i = 0; i < threads; i++) pthread_create(&ids[i], NULL, ask, (void *)(i % 2));
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    hc_reminder_list_free(listed_before);
    hc_store_close(store);
    printf("# listed %lld\n", (long long)listed);
    fflush(stdout);
    return errors ? 1 : 0;
}
