/* fold_writer.c: a second process writing a habit's ledger between another
 * handle's calls (HistoryCacheTests).
 *   fold_writer PATH HABIT_ID SEED COUNT
 * makes COUNT random appends (done, amount, total, skip) and undos of the last
 * standing entry of a day, over the 200 days up to today. */
#include <habitcore.h>
#include "../../bench/history.h"
#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, hc_last_error_message());
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 5) return 2;
    hc_store *store = NULL;
    if (hc_store_open(&store, argv[1], 0) != HC_OK) return fail("open");
    int64_t habit = atoll(argv[2]);
    unsigned seed = (unsigned)atoi(argv[3]);
    int count = atoi(argv[4]);
    int32_t today = 0;
    if (hc_store_today(&today, store) != HC_OK) return fail("today");
    for (int i = 0; i < count; i++) {
        unsigned r = (history_next(&seed) >> 8) % 1000;
        int32_t day = today - (int32_t)(r % 200);
        if (r % 5 == 0) {
            int32_t status = hc_entry_undo_last(NULL, store, habit, day);
            if (status != HC_OK && status != HC_E_NOT_FOUND) return fail("undo");
            continue;
        }
        static const int32_t kinds[4] = {HC_ENTRY_DONE, HC_ENTRY_AMOUNT, HC_ENTRY_TOTAL, HC_ENTRY_SKIP};
        hc_entry_input entry = HC_ENTRY_INPUT_INIT;
        entry.habit_id = habit;
        entry.day = day;
        entry.kind = kinds[(r / 5) % 4];
        entry.value = (double)(r % 4);
        if (hc_entry_append(NULL, store, &entry) != HC_OK) return fail("append");
    }
    hc_store_close(store);
    printf("wrote %d\n", count);
    return 0;
}
