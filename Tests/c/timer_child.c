/* Starts a timer in a store and waits to be killed (TimerStoreTests: a timer killed
 * mid-run loses nothing). argv: store path, habit id, start instant (ms). Prints the
 * timer's id once the start is committed. */
#include <habitcore.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    hc_store *store = NULL;
    if (hc_store_open(&store, argv[1], 0) != HC_OK) return 3;
    int64_t id = 0;
    if (hc_timer_start(&id, store, strtoll(argv[2], NULL, 10), 0, strtoll(argv[3], NULL, 10)) != HC_OK) {
        fprintf(stderr, "%s\n", hc_store_errmsg(store));
        return 4;
    }
    printf("%lld\n", (long long)id);
    fflush(stdout);
    for (;;) pause();
}
