/* hub_leaderboard.c: a server process computing over users' data with the same
 * engine the devices run. Connected to the hub as a service role (a member of
 * habitcore_service), it materialises each opted-in user's store from the hub into a
 * temporary store (acting for that user, one transaction at a time), computes the
 * user's "active" streak with hc_store_streaks, and prints the users ranked by it.
 * Usage: hub_leaderboard CONNINFO AS_OF_DATE USER...   (the users who opted in) */
#include <habitcore.h>
#include <habitcore_hub.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct entry {
    const char *user;
    int32_t current;
    int32_t longest;
};

static int by_streak(const void *a, const void *b) {
    const struct entry *x = a, *y = b;
    if (x->current != y->current) return y->current - x->current;
    return strcmp(x->user, y->user);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: hub_leaderboard CONNINFO AS_OF_DATE USER...\n");
        return 2;
    }
    int32_t as_of = 0;
    if (hc_date_parse(&as_of, argv[2]) != HC_OK) {
        fprintf(stderr, "bad date %s: %s\n", argv[2], hc_last_error_message());
        return 2;
    }
    hc_hub *hub = NULL;
    if (hc_hub_open(&hub, argv[1]) != HC_OK) {
        fprintf(stderr, "hub: %s\n", hc_hub_last_error_message());
        return 1;
    }
    char folder[] = "/tmp/hub-leaderboard-XXXXXX";
    if (mkdtemp(folder) == NULL) return 1;
    int count = argc - 3;
    struct entry *board = calloc((size_t)count, sizeof *board);
    if (board == NULL) return 1;
    int status = 0;
    for (int i = 0; i < count; i++) {
        const char *user = argv[3 + i];
        char path[512];
        snprintf(path, sizeof path, "%s/%s.db", folder, user);
        hc_store *store = NULL;
        if (hc_store_open(&store, path, 0) != HC_OK) {
            fprintf(stderr, "store: %s\n", hc_last_error_message());
            status = 1;
            break;
        }
        hc_hub_sync_options options = HC_HUB_SYNC_OPTIONS_INIT;
        options.flags = HC_HUB_PULL; /* read only: the server never writes a user's records */
        options.act_as = user;
        hc_hub_sync_summary pulled = HC_HUB_SYNC_SUMMARY_INIT;
        hc_streak_result perfect = HC_STREAK_RESULT_INIT, active = HC_STREAK_RESULT_INIT;
        if (hc_hub_sync(&pulled, hub, store, &options) != HC_OK) {
            fprintf(stderr, "%s: %s\n", user, hc_hub_errmsg(hub));
            status = 1;
        } else if (hc_store_streaks(&perfect, &active, store, as_of) != HC_OK) {
            fprintf(stderr, "%s: %s\n", user, hc_last_error_message());
            status = 1;
        }
        board[i] = (struct entry){user, active.current.length, active.longest.length};
        hc_store_close(store);
        unlink(path);
        /* SQLite's side files, if any were left. */
        char side[600];
        snprintf(side, sizeof side, "%s-wal", path); unlink(side);
        snprintf(side, sizeof side, "%s-shm", path); unlink(side);
        if (status != 0) break;
    }
    rmdir(folder);
    hc_hub_close(hub);
    if (status != 0) { free(board); return status; }
    qsort(board, (size_t)count, sizeof *board, by_streak);
    for (int i = 0; i < count; i++) printf("%d %s current %d longest %d\n", i + 1, board[i].user, board[i].current, board[i].longest);
    free(board);
    return 0;
}
