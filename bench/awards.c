/* awards.c: evaluating the full award catalogue through the C ABI, for a store of
 * 20 habits with five years of history, against two baselines in the same run:
 * reading the same ledger (hc_entry_list_open over everything: the I/O floor), and
 * what an app would otherwise call for its streak badges (hc_habit_streaks for each
 * habit plus hc_store_streaks). Usage: awards [FOLDER for the store] */
#include "bench.h"
#include "history.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HABITS 20
#define DAYS 1826
#define ROUNDS 20

/* The built-in catalogue with every id suffixed, so each round evaluates all of it
 * afresh (an award is its id: already unlocked ids would be skipped). */
static char *fresh_catalogue(hc_store *store, int round) {
    char *json = NULL;
    check(hc_award_catalog_reset(store), "reset");
    check(hc_award_catalog_json(&json, store), "catalog json");
    size_t length = strlen(json);
    char *out = malloc(length * 2 + 1);
    if (!out) exit(1);
    size_t o = 0;
    const char *key = "\"id\":\"";
    for (size_t i = 0; i < length;) {
        if (strncmp(json + i, key, strlen(key)) == 0) {
            memcpy(out + o, key, strlen(key));
            o += strlen(key);
            i += strlen(key);
            while (json[i] != '"') out[o++] = json[i++];
            o += (size_t)sprintf(out + o, "-r%d", round);
        } else {
            out[o++] = json[i++];
        }
    }
    out[o] = 0;
    hc_free(json);
    return out;
}

int main(int argc, char **argv) {
    char path[4096];
    snprintf(path, sizeof path, "%s/awards.habitcore", argc > 1 ? argv[1] : ".");
    remove(path);
    hc_store *store = NULL;
    check(hc_store_open(&store, path, 0), "open");
    int32_t today = 0;
    check(hc_store_today(&today, store), "today");
    int32_t start = today - (DAYS - 1);
    const char *schedules[] = {"daily", "daily", "daily", "weekly:3", "days:mon,wed,fri"};
    unsigned seed = 11;
    int64_t entries = 0;
    check(hc_store_begin(store), "begin");
    for (int h = 0; h < HABITS; h++) {
        int64_t habit = bench_habit(store, h + 1, start, schedules[h % 5]);
        hc_entry_input entry = HC_ENTRY_INPUT_INIT;
        entry.habit_id = habit;
        entry.source = h % 4 == 0 ? HC_SOURCE_PROOF : HC_SOURCE_MANUAL;
        for (int32_t day = start; day <= today; day++) {
            entry.kind = history_day(&seed, 80, 2);
            if (entry.kind == 0) continue;
            entry.day = day;
            check(hc_entry_append(NULL, store, &entry), "append");
            entries++;
        }
    }
    check(hc_store_commit(store), "commit");
    printf("awards: %d habits, %d days each, %lld entries in SQLite (mean of %d rounds, after one warm-up)\n\n", HABITS, DAYS,
           (long long)entries, ROUNDS);

    double evaluate = 0, progress = 0, read = 0, streaks = 0;
    int64_t unlocked = 0, catalogue = 0;
    for (int round = 0; round <= ROUNDS; round++) {
        char *json = fresh_catalogue(store, round);
        check(hc_award_catalog_load(store, json), "load");
        free(json);
        hc_award_list *list = NULL;
        double t0 = now();
        check(hc_award_evaluate(&list, store, HC_DAY_NONE), "evaluate");
        double t1 = now();
        check(hc_award_list_count(&unlocked, list), "count");
        hc_award_list_free(list);
        check(hc_award_list_open_progress(&list, store, HC_DAY_NONE), "progress");
        double t2 = now();
        check(hc_award_list_count(&catalogue, list), "count");
        hc_award_list_free(list);
        hc_entry_list *rows = NULL;
        double t3 = now();
        check(hc_entry_list_open(&rows, store, 0, start, today), "entries");
        double t4 = now();
        hc_entry_list_free(rows);
        double t5 = now();
        for (int64_t habit = 1; habit <= HABITS; habit++) {
            hc_streak_result summary = HC_STREAK_RESULT_INIT;
            int64_t best = 0;
            check(hc_habit_streaks(&summary, NULL, 0, &best, store, habit, HC_DAY_NONE), "streaks");
        }
        hc_streak_result perfect = HC_STREAK_RESULT_INIT, active = HC_STREAK_RESULT_INIT;
        check(hc_store_streaks(&perfect, &active, store, HC_DAY_NONE), "global");
        double t6 = now();
        if (round == 0) continue; /* warm-up */
        evaluate += t1 - t0;
        progress += t2 - t1;
        read += t4 - t3;
        streaks += t6 - t5;
    }
    evaluate /= ROUNDS, progress /= ROUNDS, read /= ROUNDS, streaks /= ROUNDS;
    printf("%-58s %10s %10s\n", "case", "ms/call", "/read");
    printf("%-58s %10.2f %9.2fx\n", "baseline: read every entry (hc_entry_list_open)", read * 1e3, 1.0);
    printf("%-58s %10.2f %9.2fx\n", "baseline: 20 x hc_habit_streaks + hc_store_streaks", streaks * 1e3, streaks / read);
    char label[128];
    snprintf(label, sizeof label, "hc_award_evaluate, %lld rules, %lld unlocked and recorded", (long long)catalogue, (long long)unlocked);
    printf("%-58s %10.2f %9.2fx\n", label, evaluate * 1e3, evaluate / read);
    snprintf(label, sizeof label, "hc_award_list_open_progress, %lld rules", (long long)catalogue);
    printf("%-58s %10.2f %9.2fx\n", label, progress * 1e3, progress / read);
    printf("\nevaluate vs the streak calls an app would make by hand: %.2fx\n", evaluate / streaks);
    check(hc_store_close(store), "close");
    return 0;
}
