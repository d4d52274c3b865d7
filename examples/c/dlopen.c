/* dlopen.c: loads libhabitcore at run time, as a plugin host or a language
 * runtime would, and runs the same checks. Usage: dlopen LIBRARY_PATH STORE_PATH */
#include <dlfcn.h>
#include <habitcore.h>
#include <stdio.h>
#include <string.h>

/* ISO C has no cast from an object pointer to a function pointer; copying the
 * bytes is the portable way POSIX intends. */
#define LOAD(name)                                                         \
    name##_fn name = NULL;                                                 \
    {                                                                      \
        void *symbol_ = dlsym(lib, #name);                                 \
        if (!symbol_) {                                                    \
            fprintf(stderr, "missing symbol %s\n", #name);                 \
            return 1;                                                      \
        }                                                                  \
        memcpy(&name, &symbol_, sizeof name);                              \
    }

typedef int32_t (*hc_abi_version_fn)(void);
typedef int32_t (*hc_store_open_fn)(hc_store **, const char *, uint32_t);
typedef int32_t (*hc_store_close_fn)(hc_store *);
typedef int32_t (*hc_habit_create_fn)(int64_t *, hc_store *, const hc_habit_options *);
typedef int32_t (*hc_entry_append_fn)(int64_t *, hc_store *, const hc_entry_input *);
typedef int32_t (*hc_entry_undo_fn)(int64_t *, hc_store *, int64_t);
typedef int32_t (*hc_habit_day_states_fn)(hc_day_state *, int64_t, int64_t *, hc_store *, int64_t, int32_t, int32_t);
typedef int32_t (*hc_date_parse_fn)(int32_t *, const char *);
typedef const char *(*hc_last_error_message_fn)(void);

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s LIBRARY STORE_PATH\n", argv[0]);
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    LOAD(hc_abi_version)
    LOAD(hc_store_open)
    LOAD(hc_store_close)
    LOAD(hc_habit_create)
    LOAD(hc_entry_append)
    LOAD(hc_entry_undo)
    LOAD(hc_habit_day_states)
    LOAD(hc_date_parse)
    LOAD(hc_last_error_message)
    if (hc_abi_version() != HC_ABI_VERSION) {
        fprintf(stderr, "ABI mismatch\n");
        return 1;
    }
    hc_store *store = NULL;
    if (hc_store_open(&store, argv[2], 0) != HC_OK) {
        fprintf(stderr, "open: %s\n", hc_last_error_message());
        return 1;
    }
    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.name = "Stretch";
    int64_t habit = 0, entry_id = 0, undo = 0;
    int32_t from = 0, to = 0;
    hc_date_parse(&from, "2026-11-01");
    hc_date_parse(&to, "2026-11-07");
    if (hc_habit_create(&habit, store, &options) != HC_OK) return 1;
    hc_entry_input entry = HC_ENTRY_INPUT_INIT;
    entry.habit_id = habit;
    for (int32_t day = from; day <= to; day++) {
        entry.day = day;
        if (hc_entry_append(&entry_id, store, &entry) != HC_OK) return 1;
    }
    if (hc_entry_undo(&undo, store, entry_id) != HC_OK) return 1; /* the last day */
    hc_day_state states[7];
    int64_t count = 0;
    if (hc_habit_day_states(states, 7, &count, store, habit, from, to) != HC_OK || count != 7) return 1;
    int done = 0;
    for (int i = 0; i < 7; i++) done += (states[i].flags & HC_DAY_DONE) ? 1 : 0;
    if (done != 6 || (states[6].flags & HC_DAY_DONE)) {
        fprintf(stderr, "expected 6 done days before the undone one, got %d\n", done);
        return 1;
    }
    hc_store_close(store);
    printf("c dlopen: 6 of 7 days done after undoing the last\n");
    return 0; /* the library stays loaded: a Swift library is never dlclosed */
}
