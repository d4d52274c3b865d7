/* contention.c: several threads, each with its own handle, and one handle shared
 * by several threads, all appending to one store while another process does the
 * same. No call may surface HC_E_BUSY under this normal contention.
 * Usage: contention PATH HABIT_NAME THREADS APPENDS_PER_THREAD */
#include <habitcore.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static const char *path;
static int64_t habit;
static int appends;
static hc_store *shared;
static int errors;
static pthread_mutex_t errors_lock = PTHREAD_MUTEX_INITIALIZER;

static void record_error(int32_t status) {
    pthread_mutex_lock(&errors_lock);
    errors++;
    fprintf(stderr, "append failed: %s\n", hc_status_string(status));
    pthread_mutex_unlock(&errors_lock);
}

static void *append_loop(void *use_shared) {
    hc_store *store = shared;
    if (!use_shared && hc_store_open(&store, path, 0) != HC_OK) {
        record_error(-1);
        return NULL;
    }
    hc_entry_input entry = HC_ENTRY_INPUT_INIT;
    entry.habit_id = habit;
    entry.kind = HC_ENTRY_AMOUNT;
    entry.value = 1;
    hc_date_parse(&entry.day, "2026-02-01");
    for (int i = 0; i < appends; i++) {
        int32_t status = hc_entry_append(NULL, store, &entry);
        if (status != HC_OK) record_error(status);
    }
    if (!use_shared) hc_store_close(store);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) return 2;
    path = argv[1];
    int threads = atoi(argv[3]);
    appends = atoi(argv[4]);
    if (hc_store_open(&shared, path, 0) != HC_OK) return 1;
    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.name = argv[2];
    options.kind = HC_KIND_COUNTER;
    options.target = 1;
    if (hc_habit_create(&habit, shared, &options) != HC_OK) {
        fprintf(stderr, "create: %s\n", hc_last_error_message());
        return 1;
    }
    pthread_t ids[64];
    if (threads > 32) threads = 32;
    for (int i = 0; i < threads; i++) pthread_create(&ids[2 * i], NULL, append_loop, NULL);
    for (int i = 0; i < threads; i++) pthread_create(&ids[2 * i + 1], NULL, append_loop, (void *)1);
    for (int i = 0; i < 2 * threads; i++) pthread_join(ids[i], NULL);
    int32_t day = 0;
    hc_date_parse(&day, "2026-02-01");
    double total = 0;
    hc_habit_day_total(&total, shared, habit, day);
    hc_store_close(shared);
    printf("%d errors, total %.0f\n", errors, total);
    return errors == 0 && total == 2.0 * threads * appends ? 0 : 1;
}
