/* crashloop.c: crash consistency under SIGKILL, with mixed writers.
 *   crashloop setup PATH          a store with habits, a rewarding credit rule and awards
 *   crashloop write PATH SEED     random writes forever: entries, undos, step syncs, spends,
 *                                 proofs, award evaluations; prints one line for each call
 *                                 that returned HC_OK ("E id", "U id", "C id", "P id", "A award")
 *   crashloop verify PATH ACKS... PRAGMA integrity_check; every acknowledged write present;
 *                                 the balance equal to the fold of the credit ledger; no award
 *                                 unlocked twice. Prints a summary; exits 1 on any breach. */
#include <habitcore.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, hc_last_error_message());
    return 1;
}

static int32_t day_of(const char *text) {
    int32_t day = 0;
    hc_date_parse(&day, text);
    return day;
}

static int setup(hc_store *store) {
    hc_habit_options options;
    hc_habit_options_init(&options, sizeof options);
    const char *names[] = {"Walk", "Bed", "Read"};
    int64_t ids[3];
    for (int i = 0; i < 3; i++) {
        options.name = names[i];
        options.kind = i == 0 ? HC_KIND_COUNTER : HC_KIND_CHECKMARK;
        options.target = i == 0 ? 5 : 1;
        options.start_day = day_of("2026-01-01");
        if (hc_habit_create(&ids[i], store, &options) != HC_OK) return fail("create");
    }
    /* Credits never expire here, so the balance is the plain sum of the ledger. */
    if (hc_credit_rule_set(NULL, store, 0, HC_RULE_EXPIRY, 0, HC_EXPIRY_CARRY_OVER, HC_DAY_NONE) != HC_OK) return fail("expiry");
    if (hc_credit_rule_set(NULL, store, 0, HC_RULE_HABIT_MINUTES, ids[1], 5, HC_DAY_NONE) != HC_OK) return fail("reward");
    return 0;
}

static int write_forever(hc_store *store, unsigned seed) {
    srand(seed);
    int32_t today = 0;
    if (hc_store_today(&today, store) != HC_OK) return fail("today");
    int64_t mine[4096];
    int mine_count = 0;
    for (unsigned round = 0;; round++) {
        int64_t id = 0;
        int32_t status;
        int op = rand() % 10;
        if (op < 4) { /* an entry: a done day, or an amount */
            hc_entry_input entry;
            hc_entry_input_init(&entry, sizeof entry);
            entry.habit_id = 1 + rand() % 3;
            entry.kind = entry.habit_id == 1 ? HC_ENTRY_AMOUNT : HC_ENTRY_DONE;
            entry.value = 1 + rand() % 3;
            entry.day = today - rand() % 20;
            status = hc_entry_append(&id, store, &entry);
            if (status == HC_OK) {
                printf("E %lld\n", (long long)id);
                if (mine_count < 4096) mine[mine_count++] = id;
            }
        } else if (op == 4 && mine_count > 0) { /* an undo of one of ours (already undone: a conflict) */
            status = hc_entry_undo(&id, store, mine[rand() % mine_count]);
            if (status == HC_OK) printf("U %lld\n", (long long)id);
        } else if (op == 5) { /* steps: a day's cumulative total */
            hc_step_sync sync;
            hc_step_sync_init(&sync, sizeof sync);
            status = hc_credit_sync_steps(&sync, store, 0, today, 100 * (int64_t)(round % 200));
            if (status == HC_OK) printf("Y %d\n", (int)sync.day);
        } else if (op == 6) { /* a spend: refused (nothing written) when there is not enough */
            status = hc_credit_spend(&id, store, 0, 1 + rand() % 3, "crashloop", 0);
            if (status == HC_OK) printf("C %lld\n", (long long)id);
            else if (status == HC_E_INSUFFICIENT) status = HC_OK;
        } else if (op == 7) { /* a proof: recorded, no verifier, so it waits for review */
            uint8_t bytes[64];
            for (int i = 0; i < 64; i++) bytes[i] = (uint8_t)rand();
            bytes[0] = 0xFF, bytes[1] = 0xD8, bytes[2] = 0xFF;
            hc_proof_input input;
            hc_proof_input_init(&input, sizeof input);
            input.habit_id = 2;
            input.bytes = bytes;
            input.size = sizeof bytes;
            hc_proof_result result;
            hc_proof_result_init(&result, sizeof result);
            status = hc_proof_submit(&result, store, &input);
            if (status == HC_OK) printf("P %lld\n", (long long)result.proof_id);
        } else { /* award evaluation: each award unlocked once, whoever evaluates */
            hc_award_list *list = NULL;
            status = hc_award_evaluate(&list, store, HC_DAY_NONE);
            if (status == HC_OK) {
                int64_t count = 0;
                hc_award_list_count(&count, list);
                for (int64_t i = 0; i < count; i++) {
                    const hc_award *award = NULL;
                    if (hc_award_list_get(&award, list, i) == HC_OK) printf("A %s\n", award->id);
                }
                hc_award_list_free(list);
            }
        }
        if (status != HC_OK && status != HC_E_CONFLICT && status != HC_E_BUSY) return fail("write");
        fflush(stdout);
    }
}

/* 1 when the entry list (every habit, every day) holds id. */
static int entry_present(const hc_entry_list *list, int64_t count, int64_t id) {
    int64_t low = 0, high = count - 1; /* append order is id order */
    while (low <= high) {
        int64_t middle = low + (high - low) / 2;
        const hc_entry *e = NULL;
        if (hc_entry_list_get(&e, list, middle) != HC_OK) return 0;
        if (e->id == id) return 1;
        if (e->id < id) low = middle + 1; else high = middle - 1;
    }
    return 0;
}

static int verify(hc_store *store, const char *path, int files, char **acks) {
    int breaches = 0;
    sqlite3 *db = NULL;
    sqlite3_stmt *check = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &check, NULL) != SQLITE_OK || sqlite3_step(check) != SQLITE_ROW ||
        strcmp((const char *)sqlite3_column_text(check, 0), "ok") != 0) {
        fprintf(stderr, "integrity_check failed: %s\n", db ? sqlite3_errmsg(db) : "no database");
        breaches++;
    }
    sqlite3_finalize(check);
    sqlite3_close(db);

    hc_entry_list *entries = NULL;
    int64_t entry_count = 0;
    if (hc_entry_list_open(&entries, store, 0, -719162, 2932896) != HC_OK) return fail("entries");
    hc_entry_list_count(&entry_count, entries);
    hc_credit_list *credits = NULL;
    int64_t credit_count = 0, folded = 0;
    if (hc_credit_list_open(&credits, store, 0, -719162, 2932896) != HC_OK) return fail("credits");
    hc_credit_list_count(&credit_count, credits);
    for (int64_t i = 0; i < credit_count; i++) {
        const hc_credit_entry *c = NULL;
        if (hc_credit_list_get(&c, credits, i) == HC_OK) folded += c->minutes;
    }
    int64_t acknowledged = 0, lost = 0, awards_seen = 0;
    char seen_awards[256][64];
    for (int f = 0; f < files; f++) {
        FILE *file = fopen(acks[f], "r");
        if (!file) continue;
        char kind[4], value[64];
        while (fscanf(file, "%3s %63s", kind, value) == 2) {
            long long id = atoll(value);
            int present = 1;
            acknowledged++;
            if (kind[0] == 'E' || kind[0] == 'U') present = entry_present(entries, entry_count, id);
            else if (kind[0] == 'C') {
                present = 0;
                for (int64_t i = 0; i < credit_count && !present; i++) {
                    const hc_credit_entry *c = NULL;
                    present = hc_credit_list_get(&c, credits, i) == HC_OK && c->id == id;
                }
            } else if (kind[0] == 'P') {
                hc_verdict_list *verdicts = NULL;
                present = hc_verdict_list_open(&verdicts, store, 0, id) == HC_OK;
                hc_verdict_list_free(verdicts);
            } else if (kind[0] == 'A') {
                /* An award announced twice (by two writers, or twice by one) is a breach. */
                for (int64_t i = 0; i < awards_seen; i++) {
                    if (strcmp(seen_awards[i], value) == 0) {
                        fprintf(stderr, "award %s announced twice\n", value);
                        breaches++;
                    }
                }
                if (awards_seen < 256) snprintf(seen_awards[awards_seen++], 64, "%s", value);
            }
            if (!present) {
                fprintf(stderr, "lost: %s %lld\n", kind, id);
                lost++;
            }
        }
        fclose(file);
    }
    int64_t balance = 0;
    if (hc_credit_balance(&balance, store, 0) != HC_OK) return fail("balance");
    if (balance != folded) {
        fprintf(stderr, "balance %lld, fold of the ledger %lld\n", (long long)balance, (long long)folded);
        breaches++;
    }
    /* Each award is unlocked once in the store, too. */
    hc_award_list *unlocked = NULL;
    int64_t unlocked_count = 0;
    if (hc_award_list_open_unlocked(&unlocked, store) != HC_OK) return fail("unlocked");
    hc_award_list_count(&unlocked_count, unlocked);
    for (int64_t i = 0; i < unlocked_count; i++) {
        for (int64_t j = i + 1; j < unlocked_count; j++) {
            const hc_award *a = NULL, *b = NULL;
            hc_award_list_get(&a, unlocked, i);
            hc_award_list_get(&b, unlocked, j);
            if (a && b && strcmp(a->id, b->id) == 0) {
                fprintf(stderr, "award %s unlocked twice\n", a->id);
                breaches++;
            }
        }
    }
    printf("acknowledged %lld, lost %lld, entries %lld, credit entries %lld, balance %lld, awards %lld, breaches %d\n",
           (long long)acknowledged, (long long)lost, (long long)entry_count, (long long)credit_count, (long long)balance,
           (long long)unlocked_count, breaches);
    hc_award_list_free(unlocked);
    hc_credit_list_free(credits);
    hc_entry_list_free(entries);
    return lost == 0 && breaches == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    hc_store *store = NULL;
    if (hc_store_open(&store, argv[2], 0) != HC_OK) return fail("open");
    int status = 2;
    if (strcmp(argv[1], "setup") == 0) status = setup(store);
    else if (strcmp(argv[1], "write") == 0 && argc == 4) status = write_forever(store, (unsigned)atoi(argv[3]));
    else if (strcmp(argv[1], "verify") == 0) status = verify(store, argv[2], argc - 3, argv + 3);
    hc_store_close(store);
    return status;
}
