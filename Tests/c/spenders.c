/* spenders.c: threads spending one minute at a time from one account until the
 * balance says no, while another process does the same. Prints how many spends
 * succeeded; any status other than HC_OK and HC_E_INSUFFICIENT is an error.
 * Both processes wait for GO_FILE to exist, so they start together.
 * Usage: spenders PATH ACCOUNT_NAME THREADS GO_FILE */
#include <habitcore.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *path;
static int64_t account;
static long long spent;
static int errors;
static hc_store *shared;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Odd threads share one handle, even ones open their own. */
static void *spend_loop(void *use_shared) {
    hc_store *store = shared;
    if (!use_shared && hc_store_open(&store, path, 0) != HC_OK) {
        pthread_mutex_lock(&lock);
        errors++;
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    long long mine = 0;
    for (;;) {
        int32_t status = hc_credit_spend(NULL, store, account, 1, "race", 0);
        if (status == HC_OK) {
            mine++;
            continue;
        }
        if (status != HC_E_INSUFFICIENT) {
            pthread_mutex_lock(&lock);
            errors++;
            fprintf(stderr, "spend failed: %s: %s\n", hc_status_string(status), hc_last_error_message());
            pthread_mutex_unlock(&lock);
        }
        break;
    }
    pthread_mutex_lock(&lock);
    spent += mine;
    pthread_mutex_unlock(&lock);
    if (!use_shared) hc_store_close(store);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5) return 2;
    path = argv[1];
    int threads = atoi(argv[3]);
    if (threads < 1 || threads > 64) return 2;
    if (hc_store_open(&shared, path, 0) != HC_OK) return 1;
    if (hc_credit_account_find(&account, shared, argv[2]) != HC_OK) return 1;
    for (int waited = 0; access(argv[4], F_OK) != 0; waited++) {
        if (waited > 3000) return 3; /* 30 s without the go */
        usleep(10000);
    }
    pthread_t ids[64];
    for (long i = 0; i < threads; i++) pthread_create(&ids[i], NULL, spend_loop, (void *)(i % 2));
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    hc_store_close(shared);
    printf("spent %lld\n", spent);
    return errors ? 1 : 0;
}
