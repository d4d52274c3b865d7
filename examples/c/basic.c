/* basic.c: links -lhabitcore. Opens a store, creates a habit, logs, undoes,
 * reads back, and checks every result. Usage: basic STORE_PATH */
#include <habitcore.h>
#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                                     \
    do {                                                                                \
        int32_t status_ = (call);                                                       \
        if (status_ != HC_OK) {                                                         \
            fprintf(stderr, "%s failed: %s (%s)\n", #call, hc_status_string(status_),   \
                    hc_last_error_message());                                           \
            return 1;                                                                   \
        }                                                                               \
    } while (0)
#define EXPECT(cond)                                                \
    do {                                                            \
        if (!(cond)) {                                              \
            fprintf(stderr, "expectation failed: %s\n", #cond);     \
            return 1;                                               \
        }                                                           \
    } while (0)

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s STORE_PATH\n", argv[0]);
        return 2;
    }
    if (hc_abi_version() != HC_ABI_VERSION) {
        fprintf(stderr, "library ABI %d, header ABI %d\n", hc_abi_version(), HC_ABI_VERSION);
        return 1;
    }
    hc_store *store = NULL;
    CHECK(hc_store_open(&store, argv[1], 0));

    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.name = "Water";
    options.kind = HC_KIND_COUNTER;
    options.target = 8;
    options.unit = "glasses";
    int64_t water = 0;
    CHECK(hc_habit_create(&water, store, &options));

    int32_t day = 0;
    CHECK(hc_date_parse(&day, "2026-03-08"));
    hc_entry_input entry = HC_ENTRY_INPUT_INIT;
    entry.habit_id = water;
    entry.kind = HC_ENTRY_AMOUNT;
    entry.day = day;
    entry.value = 5;
    int64_t first = 0, second = 0, undo = 0;
    CHECK(hc_entry_append(&first, store, &entry));
    entry.value = 4;
    CHECK(hc_entry_append(&second, store, &entry));

    double total = 0;
    CHECK(hc_habit_day_total(&total, store, water, day));
    EXPECT(total == 9);
    hc_day_state state;
    int64_t count = 0;
    CHECK(hc_habit_day_states(&state, 1, &count, store, water, day, day));
    EXPECT(count == 1 && (state.flags & HC_DAY_DONE));

    CHECK(hc_entry_undo(&undo, store, second));
    CHECK(hc_habit_day_total(&total, store, water, day));
    EXPECT(total == 5);
    EXPECT(hc_entry_undo(&undo, store, second) == HC_E_CONFLICT);

    hc_entry_list *list = NULL;
    CHECK(hc_entry_list_open(&list, store, water, day, day));
    CHECK(hc_entry_list_count(&count, list));
    EXPECT(count == 3);
    const hc_entry *e = NULL;
    CHECK(hc_entry_list_get(&e, list, 1));
    EXPECT(e->id == second && e->undone_by == undo);
    hc_entry_list_free(list);

    hc_habit *habit = NULL;
    CHECK(hc_habit_get(&habit, store, water));
    EXPECT(strcmp(habit->name, "Water") == 0 && strcmp(habit->unit, "glasses") == 0);
    hc_habit_free(habit);

    char date[HC_DATE_BUFSIZE];
    CHECK(hc_date_format(date, sizeof date, day));
    printf("c basic: Water on %s totals %g after undo (library %s)\n", date, total, hc_version_string());
    CHECK(hc_store_close(store));
    return 0;
}
