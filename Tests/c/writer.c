/* writer.c: durability under SIGKILL.
 *   writer append PATH   appends done entries forever, printing each id once hc_entry_append returned HC_OK
 *   writer verify PATH IDS_FILE   checks that every id in IDS_FILE is in the store */
#include <habitcore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, hc_last_error_message());
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    hc_store *store = NULL;
    if (hc_store_open(&store, argv[2], 0) != HC_OK) return fail("open");
    if (strcmp(argv[1], "append") == 0) {
        hc_habit_options options = HC_HABIT_OPTIONS_INIT;
        options.name = "durable";
        options.kind = HC_KIND_COUNTER;
        options.target = 1;
        int64_t habit = 0;
        if (hc_habit_create(&habit, store, &options) != HC_OK) return fail("create");
        hc_entry_input entry = HC_ENTRY_INPUT_INIT;
        entry.habit_id = habit;
        entry.kind = HC_ENTRY_AMOUNT;
        entry.value = 1;
        if (hc_date_parse(&entry.day, "2026-01-01") != HC_OK) return fail("date");
        for (;;) {
            int64_t id = 0;
            if (hc_entry_append(&id, store, &entry) != HC_OK) return fail("append");
            printf("%lld\n", (long long)id);
            fflush(stdout);
        }
    }
    if (strcmp(argv[1], "verify") == 0 && argc == 4) {
        hc_entry_list *list = NULL;
        if (hc_entry_list_open(&list, store, 0, -719162, 2932896) != HC_OK) return fail("list");
        int64_t count = 0;
        hc_entry_list_count(&count, list);
        char *present = calloc((size_t)count + 2, 1);
        int64_t max_id = 0;
        for (int64_t i = 0; i < count; i++) {
            const hc_entry *e = NULL;
            hc_entry_list_get(&e, list, i);
            if (e->id > 0 && e->id <= count + 1) present[e->id] = 1;
            if (e->id > max_id) max_id = e->id;
        }
        FILE *ids = fopen(argv[3], "r");
        if (!ids) return 2;
        long long id = 0;
        int64_t acknowledged = 0, lost = 0;
        while (fscanf(ids, "%lld", &id) == 1) {
            acknowledged++;
            if (id <= 0 || id > count + 1 || !present[id]) lost++;
        }
        printf("acknowledged %lld, stored %lld, lost %lld\n", (long long)acknowledged, (long long)count, (long long)lost);
        hc_entry_list_free(list);
        hc_store_close(store);
        return lost == 0 && acknowledged > 0 ? 0 : 1;
    }
    return 2;
}
