/* history.h: the seeded random histories the benchmarks and the C test programs
 * build (the bench programs and Tests/c/fold_writer.c), one generator for all. The C library's
 * rand() constants, computed here, so a seed gives the same history on every
 * platform and run. Needs only habitcore.h. */
#ifndef HABITCORE_HISTORY_H
#define HABITCORE_HISTORY_H

#include <habitcore.h>

/* Advances the generator and returns its new state (use its high bits). */
static inline unsigned history_next(unsigned *seed) {
    *seed = *seed * 1103515245u + 12345u;
    return *seed;
}

/* The next day of a history: HC_ENTRY_DONE with done_percent chance, HC_ENTRY_SKIP
 * with skipped_percent, else 0 (nothing logged). */
static inline int32_t history_day(unsigned *seed, unsigned done_percent, unsigned skipped_percent) {
    unsigned r = (history_next(seed) >> 16) % 100;
    if (r < done_percent) return HC_ENTRY_DONE;
    return r < done_percent + skipped_percent ? HC_ENTRY_SKIP : 0;
}

/* Appends a history to habit for the days from..to (both included): per day a
 * done entry, a skip or nothing, as history_day draws. *out_entries (may be NULL)
 * counts the entries written. HC_OK or the first failing append's status. */
static inline int32_t history_append(int64_t *out_entries, hc_store *store, int64_t habit, int32_t from, int32_t to,
                                     unsigned *seed, unsigned done_percent, unsigned skipped_percent) {
    hc_entry_input entry = HC_ENTRY_INPUT_INIT;
    entry.habit_id = habit;
    for (int32_t day = from; day <= to; day++) {
        int32_t kind = history_day(seed, done_percent, skipped_percent);
        if (kind == 0) continue;
        entry.kind = kind;
        entry.day = day;
        int32_t status = hc_entry_append(NULL, store, &entry);
        if (status != HC_OK) return status;
        if (out_entries != NULL) (*out_entries)++;
    }
    return HC_OK;
}

/* The same history as day states for the pure calls: count days from start, each
 * done (value 1), skipped or empty. */
static inline void history_day_states(hc_day_state *days, int64_t count, int32_t start, unsigned *seed,
                                      unsigned done_percent, unsigned skipped_percent) {
    for (int64_t i = 0; i < count; i++) {
        int32_t kind = history_day(seed, done_percent, skipped_percent);
        days[i].day = start + (int32_t)i;
        days[i].flags = kind == HC_ENTRY_DONE ? HC_DAY_DONE | HC_DAY_HAS_ENTRIES
                        : kind == HC_ENTRY_SKIP ? HC_DAY_SKIPPED | HC_DAY_HAS_ENTRIES
                                                : 0;
        days[i].value = kind == HC_ENTRY_DONE ? 1.0 : 0.0;
        days[i].entry_count = kind == 0 ? 0 : 1;
        days[i].reserved = 0;
    }
}

#endif
