/* hub.c: devices syncing through a PostgreSQL hub (include/habitcore_hub.h). For
 * each user in [FIRST, LAST): three devices (stores in WORK_DIR) each log a day's
 * work (a habit of their own and a check on each of five days), then connect as the
 * user (SCRAM), sync and leave; then each syncs again to pull what the others
 * pushed, and the three canonical exports must be equal (every record reached every
 * device). Prints one line per round: "connect MS", "sync MS", and at the end
 * "records N" (pushed by this process).
 * Usage: hub WORK_DIR SOCKET_DIR FIRST LAST PASSWORD [PORT] */
#include "bench.h"

#include <habitcore_hub.h>

static void hub_check(int32_t status, hc_hub *hub, const char *what) {
    if (status != HC_OK) {
        fprintf(stderr, "%s: %s (%s%s)\n", what, hc_status_string(status), hub ? hc_hub_errmsg(hub) : "", hc_hub_last_error_message());
        exit(1);
    }
}

static char *canonical(hc_store *store) {
    char *text = NULL;
    check(hc_sync_canonical(&text, store), "canonical");
    return text;
}

/* One device round: connect, sync, leave. Returns the records it pushed. */
static int64_t round_trip(hc_store *store, const char *conninfo) {
    hc_hub *hub = NULL;
    double t0 = now();
    hub_check(hc_hub_open(&hub, conninfo), NULL, "connect");
    double t1 = now();
    hc_hub_sync_summary summary = HC_HUB_SYNC_SUMMARY_INIT;
    hub_check(hc_hub_sync(&summary, hub, store, NULL), hub, "sync");
    double t2 = now();
    hc_hub_close(hub);
    printf("connect %.3f\nsync %.3f\n", (t1 - t0) * 1e3, (t2 - t1) * 1e3);
    return summary.records_pushed;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: hub WORK_DIR SOCKET_DIR FIRST LAST PASSWORD [PORT]\n");
        return 2;
    }
    const char *work = argv[1], *socket_dir = argv[2], *password = argv[5];
    const char *port = argc > 6 ? argv[6] : "5432";
    int first = atoi(argv[3]), last = atoi(argv[4]);
    int64_t pushed = 0;
    int32_t day0 = 0;
    check(hc_date_parse(&day0, "2026-03-01"), "date");
    for (int user = first; user < last; user++) {
        char conninfo[512], path[512];
        snprintf(conninfo, sizeof conninfo, "host=%s port=%s dbname=postgres user=u%d password=%s", socket_dir, port, user, password);
        hc_store *devices[3];
        for (int d = 0; d < 3; d++) {
            snprintf(path, sizeof path, "%s/u%d-d%d.db", work, user, d);
            check(hc_store_open(&devices[d], path, 0), "open store");
            int64_t habit = bench_habit(devices[d], d, day0, NULL);
            hc_entry_input input = HC_ENTRY_INPUT_INIT;
            input.habit_id = habit;
            for (int day = 0; day < 5; day++) {
                int64_t id = 0;
                input.day = day0 + day;
                input.at_ms = ((int64_t)(day0 + day) * 86400 + 8 * 3600) * 1000;
                check(hc_entry_append(&id, devices[d], &input), "append");
            }
            pushed += round_trip(devices[d], conninfo);
        }
        for (int d = 0; d < 3; d++) pushed += round_trip(devices[d], conninfo);
        char *a = canonical(devices[0]), *b = canonical(devices[1]), *c = canonical(devices[2]);
        if (strcmp(a, b) != 0 || strcmp(a, c) != 0) {
            fprintf(stderr, "user u%d: the devices differ after syncing\n", user);
            return 1;
        }
        hc_free(a); hc_free(b); hc_free(c);
        for (int d = 0; d < 3; d++) hc_store_close(devices[d]);
    }
    printf("records %lld\n", (long long)pushed);
    return 0;
}
