/* buffers.c: every call that fills a caller buffer, walked with the header's one
 * rule (see "Caller buffers" in habitcore.h): NULL/0 asks for the total; a short
 * buffer gets its first elements, the same as an exact buffer's, and nothing past
 * its capacity; an exact buffer gets them all; NULL with a capacity and a negative
 * capacity are HC_E_INVALID. And each hc_<struct>_init gives its macro's bytes.
 * Usage: buffers WORK_DIR. Exits 0 when every check passes. */
#include <habitcore.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define EXPECT(cond)                                                                          \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "line %d: expected %s (%s)\n", __LINE__, #cond, hc_last_error_message()); \
            failures++;                                                                       \
        }                                                                                     \
    } while (0)

#define MAX 256
/* A byte no call writes: what follows a short buffer must keep it. */
#define GUARD 0xA5

/* Walks one call. CALL(out, capacity, out_count) expands to the call. */
#define WALK(name, type, CALL)                                                                        \
    do {                                                                                              \
        int64_t total = -1, count = -1;                                                               \
        EXPECT((CALL(NULL, 0, &total)) == HC_OK);                                                     \
        EXPECT(total >= 2 && total <= MAX);                                                           \
        if (total < 2 || total > MAX) break;                                                          \
        static type exact[MAX], shorter[MAX + 1];                                                     \
        memset(exact, 0, sizeof exact);                                                               \
        memset(shorter, GUARD, sizeof shorter);                                                       \
        EXPECT((CALL(exact, total, &count)) == HC_OK && count == total);                              \
        count = -1;                                                                                   \
        EXPECT((CALL(shorter, total - 1, &count)) == HC_OK && count == total);                        \
        EXPECT(memcmp(exact, shorter, sizeof(type) * (size_t)(total - 1)) == 0);                      \
        const unsigned char *past = (const unsigned char *)&shorter[total - 1];                       \
        int untouched = 1;                                                                            \
        for (size_t i = 0; i < sizeof(type); i++) untouched &= past[i] == GUARD;                      \
        EXPECT(untouched);                                                                            \
        count = -1;                                                                                   \
        EXPECT((CALL(shorter, total + 1, &count)) == HC_OK && count == total); /* room to spare */     \
        EXPECT((CALL(NULL, 1, &count)) == HC_E_INVALID);                                              \
        EXPECT((CALL(exact, -1, &count)) == HC_E_INVALID);                                            \
        EXPECT((CALL(exact, total, NULL)) == HC_E_INVALID);                                           \
        printf("%s: total %lld\n", name, (long long)total);                                          \
    } while (0)

/* The same bytes from the macro and from the function (static storage zeroes padding). */
#define SAME_DEFAULTS(type, init, MACRO)                                                       \
    do {                                                                                 \
        static const type from_macro = MACRO;                                            \
        type from_function;                                                              \
        memset(&from_function, 0x5A, sizeof from_function);                             \
        EXPECT(init(&from_function, sizeof from_function) == HC_OK);              \
        EXPECT(memcmp(&from_macro, &from_function, sizeof from_function) == 0);          \
        EXPECT(init(NULL, sizeof from_function) == HC_E_INVALID);                 \
        EXPECT(init(&from_function, 4) == HC_E_INVALID);                          \
        EXPECT(hc_last_error_message()[0] != '\0');                                      \
        /* A newer caller's larger struct: ours filled, the rest zeroed, its size kept. */ \
        unsigned char larger[sizeof(type) + 16];                                         \
        memset(larger, 0x5A, sizeof larger);                                             \
        EXPECT(init((type *)(void *)larger, sizeof larger) == HC_OK);              \
        EXPECT(memcmp(larger + 4, (const unsigned char *)&from_macro + 4, sizeof(type) - 4) == 0); \
        EXPECT(*(uint32_t *)(void *)larger == sizeof larger);                            \
        int zero = 1;                                                                    \
        for (size_t i = sizeof(type); i < sizeof larger; i++) zero &= larger[i] == 0;    \
        EXPECT(zero);                                                                    \
    } while (0)

static hc_store *store;
static int64_t habit, account = HC_ACCOUNT_DEFAULT;
static int32_t first, last;
static hc_habit_rules rules;
static hc_day_state days[MAX];
static int64_t day_count;

#define DAY_STATES(out, capacity, count) hc_habit_day_states(out, capacity, count, store, habit, first, last)
#define VACATIONS(out, capacity, count) hc_vacation_list(out, capacity, count, store)
#define BEST_RUNS(out, capacity, count) hc_habit_streaks(&streaks, out, capacity, count, store, habit, last)
#define PURE_BEST_RUNS(out, capacity, count) \
    hc_streak_compute(&streaks, out, capacity, count, &rules, days, day_count, last)
#define POLICY_BEST_RUNS(out, capacity, count) \
    hc_streak_compute_with_policy(&streaks, out, capacity, count, &rules, NULL, days, day_count, last)
#define DAY_SCORES(out, capacity, count) hc_store_day_scores(out, capacity, count, store, first, last)
#define STRENGTH(out, capacity, count) hc_habit_strength(out, capacity, count, store, habit, first, last)
#define PURE_STRENGTH(out, capacity, count) hc_strength_compute(out, capacity, count, &rules, days, day_count, first, last)
#define DUE(out, capacity, count) hc_store_due(out, capacity, count, store, last)
#define CREDIT_RULES(out, capacity, count) hc_credit_rule_list(out, capacity, count, store, account)
static int64_t revision, now_ms;
#define SHIELD_STATE(out, capacity, count) hc_shield_state(out, capacity, count, &revision, store, now_ms)
#define SHIELD_TRANSITIONS(out, capacity, count) \
    hc_shield_transitions(out, capacity, count, &revision, store, now_ms, now_ms + 3 * 86400000LL)

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/buffers.db", argv[1]);
    EXPECT(hc_store_open(&store, path, 0) == HC_OK);
    EXPECT(hc_store_today(&last, store) == HC_OK);
    first = last - 20;

    /* Two habits (so the due list has two), a history with three runs, two vacations, three credit rules. */
    hc_habit_options options;
    EXPECT(hc_habit_options_init(&options, sizeof options) == HC_OK);
    options.name = "Read";
    options.start_day = first;
    EXPECT(hc_habit_create(&habit, store, &options) == HC_OK);
    options.name = "Walk";
    int64_t other = 0;
    EXPECT(hc_habit_create(&other, store, &options) == HC_OK);
    hc_entry_input entry;
    EXPECT(hc_entry_input_init(&entry, sizeof entry) == HC_OK);
    entry.habit_id = habit;
    for (int32_t d = first; d <= last; d++) {
        if ((d - first) % 5 == 4) continue; /* a miss every fifth day: several runs */
        entry.day = d;
        EXPECT(hc_entry_append(NULL, store, &entry) == HC_OK);
    }
    EXPECT(hc_vacation_add(NULL, store, habit, first + 1, first + 1) == HC_OK);
    EXPECT(hc_vacation_add(NULL, store, 0, first + 2, first + 2) == HC_OK);
    EXPECT(hc_credit_rule_set(NULL, store, account, HC_RULE_STEPS_PER_MINUTE, 0, 50, HC_DAY_NONE) == HC_OK);
    EXPECT(hc_credit_rule_set(NULL, store, account, HC_RULE_HABIT_MINUTES, habit, 5, HC_DAY_NONE) == HC_OK);
    EXPECT(hc_credit_rule_set(NULL, store, account, HC_RULE_EXPIRY, 0, HC_EXPIRY_CARRY_OVER, HC_DAY_NONE) == HC_OK);

    /* Two shield rules, 21:00 to midnight and 06:00 to 09:00, lifted by Read. */
    hc_shield_rule shield;
    EXPECT(hc_shield_rule_init(&shield, sizeof shield) == HC_OK);
    shield.habit_count = 1;
    shield.habit_ids = &habit;
    shield.name = shield.key = "evening";
    shield.start_minute = 21 * 60;
    EXPECT(hc_shield_rule_add(NULL, store, &shield, HC_DAY_NONE) == HC_OK);
    shield.name = shield.key = "morning";
    shield.start_minute = 6 * 60;
    shield.end_minute = 9 * 60;
    EXPECT(hc_shield_rule_add(NULL, store, &shield, HC_DAY_NONE) == HC_OK);
    EXPECT(hc_store_utc_ms(&now_ms, store, last, 12 * 60) == HC_OK);

    EXPECT(hc_habit_rules_init(&rules, sizeof rules) == HC_OK);
    rules.start_day = first;
    EXPECT(hc_habit_day_states(days, MAX, &day_count, store, habit, first, last) == HC_OK);
    hc_streak_result streaks;
    EXPECT(hc_streak_result_init(&streaks, sizeof streaks) == HC_OK);

    WALK("hc_habit_day_states", hc_day_state, DAY_STATES);
    WALK("hc_vacation_list", hc_vacation, VACATIONS);
    WALK("hc_habit_streaks", hc_streak, BEST_RUNS);
    WALK("hc_streak_compute", hc_streak, PURE_BEST_RUNS);
    WALK("hc_streak_compute_with_policy", hc_streak, POLICY_BEST_RUNS);
    WALK("hc_store_day_scores", hc_day_score, DAY_SCORES);
    WALK("hc_habit_strength", double, STRENGTH);
    WALK("hc_strength_compute", double, PURE_STRENGTH);
    WALK("hc_store_due", hc_due_item, DUE);
    WALK("hc_credit_rule_list", hc_credit_rule, CREDIT_RULES);
    WALK("hc_shield_state", hc_shield_status, SHIELD_STATE);
    WALK("hc_shield_transitions", hc_shield_transition, SHIELD_TRANSITIONS);
#define SYNC_REPLICA(out, capacity, count) hc_sync_replica(out, capacity, count, store)
#define SYNC_STATE(out, capacity, count) hc_sync_state(out, capacity, count, store)
    WALK("hc_sync_replica", uint8_t, SYNC_REPLICA);
    WALK("hc_sync_state", uint8_t, SYNC_STATE);
    /* A second store's habit pulled in, so this store's state names two replicas;
     * the walk is over the numbers, the ids (16 bytes each) beside them. */
    {
        char other_path[4096];
        snprintf(other_path, sizeof other_path, "%s/buffers-other.db", argv[1]);
        hc_store *other = NULL;
        EXPECT(hc_store_open(&other, other_path, 0) == HC_OK);
        int64_t other_habit = 0;
        options.name = "Another device's habit";
        EXPECT(hc_habit_create(&other_habit, other, &options) == HC_OK);
        static uint8_t state[4096];
        int64_t state_size = 0, changes_size = 0;
        uint8_t *changes = NULL;
        EXPECT(hc_sync_state(state, sizeof state, &state_size, store) == HC_OK);
        EXPECT(hc_sync_changes(&changes, &changes_size, other, state, state_size) == HC_OK);
        hc_sync_summary summary = HC_SYNC_SUMMARY_INIT;
        EXPECT(hc_sync_apply(&summary, store, changes, changes_size) == HC_OK);
        hc_free(changes);
        EXPECT(hc_store_close(other) == HC_OK);
        EXPECT(hc_sync_state(state, sizeof state, &state_size, store) == HC_OK);
        static uint8_t ids[(MAX + 1) * 16];
#define STATE_REPLICAS(out, capacity, count) \
    hc_sync_state_replicas((out) ? ids : NULL, out, capacity, count, state, state_size)
        WALK("hc_sync_state_replicas", int64_t, STATE_REPLICAS);
    }
    /* A proof whose evidence (40 bytes, kept) reads back through the buffer rule. */
    hc_proof_input proof;
    EXPECT(hc_proof_input_init(&proof, sizeof proof) == HC_OK);
    static const uint8_t note[40] = "a forty-byte note standing in for photo";
    proof.habit_id = habit;
    proof.bytes = note;
    proof.size = sizeof note;
    proof.media_type = "text/plain";
    proof.flags = HC_PROOF_KEEP_COPY;
    hc_proof_result proof_result;
    EXPECT(hc_proof_result_init(&proof_result, sizeof proof_result) == HC_OK);
    EXPECT(hc_proof_submit(&proof_result, store, &proof) == HC_OK);
    int64_t proof_id = proof_result.proof_id;
#define EVIDENCE(out, capacity, count) hc_proof_evidence(out, capacity, count, store, proof_id)
    WALK("hc_proof_evidence", uint8_t, EVIDENCE);
    /* Two weekly quota habits (made last: the walks above keep their totals). */
    options.schedule = "weekly:3";
    options.name = "Run";
    EXPECT(hc_habit_create(&other, store, &options) == HC_OK);
    options.name = "Swim";
    EXPECT(hc_habit_create(&other, store, &options) == HC_OK);
    hc_group_day group_day;
    EXPECT(hc_group_day_init(&group_day, sizeof group_day) == HC_OK);
#define QUOTA_PROGRESS(out, capacity, count) hc_group_day_rates(&group_day, out, capacity, count, store, NULL, last)
    WALK("hc_group_day_rates", hc_quota_progress, QUOTA_PROGRESS);

    SAME_DEFAULTS(hc_habit_options, hc_habit_options_init, HC_HABIT_OPTIONS_INIT);
    SAME_DEFAULTS(hc_entry_input, hc_entry_input_init, HC_ENTRY_INPUT_INIT);
    SAME_DEFAULTS(hc_streak_result, hc_streak_result_init, HC_STREAK_RESULT_INIT);
    SAME_DEFAULTS(hc_habit_rules, hc_habit_rules_init, HC_HABIT_RULES_INIT);
    SAME_DEFAULTS(hc_streak_policy, hc_streak_policy_init, HC_STREAK_POLICY_INIT);
    SAME_DEFAULTS(hc_completion, hc_completion_init, HC_COMPLETION_INIT);
    SAME_DEFAULTS(hc_group_day, hc_group_day_init, HC_GROUP_DAY_INIT);
    SAME_DEFAULTS(hc_measurement_stats, hc_measurement_stats_init, HC_MEASUREMENT_STATS_INIT);
    SAME_DEFAULTS(hc_quit_status, hc_quit_status_init, HC_QUIT_STATUS_INIT);
    SAME_DEFAULTS(hc_timer_status, hc_timer_status_init, HC_TIMER_STATUS_INIT);
    SAME_DEFAULTS(hc_step_sync, hc_step_sync_init, HC_STEP_SYNC_INIT);
    SAME_DEFAULTS(hc_credit_day, hc_credit_day_init, HC_CREDIT_DAY_INIT);
    SAME_DEFAULTS(hc_unlock_state, hc_unlock_state_init, HC_UNLOCK_STATE_INIT);
    SAME_DEFAULTS(hc_proof_input, hc_proof_input_init, HC_PROOF_INPUT_INIT);
    SAME_DEFAULTS(hc_proof_result, hc_proof_result_init, HC_PROOF_RESULT_INIT);
    SAME_DEFAULTS(hc_proof_policy, hc_proof_policy_init, HC_PROOF_POLICY_INIT);
    SAME_DEFAULTS(hc_reminder_rule, hc_reminder_rule_init, HC_REMINDER_RULE_INIT);
    SAME_DEFAULTS(hc_shield_rule, hc_shield_rule_init, HC_SHIELD_RULE_INIT);
    SAME_DEFAULTS(hc_sync_summary, hc_sync_summary_init, HC_SYNC_SUMMARY_INIT);

    /* A caller built against 0.2.0 passes the struct's first size: accepted. */
    hc_entry_input older;
    EXPECT(hc_entry_input_init(&older, (uint32_t)offsetof(hc_entry_input, key)) == HC_OK);
    EXPECT(older.struct_size == offsetof(hc_entry_input, key) && older.day == HC_DAY_NONE);

    /* A caller built against 1.0 passes hc_habit_options without the display fields:
     * init fills its bytes only, create reads nothing past them, and its habit has none. */
    union { hc_habit_options options; unsigned char bytes[sizeof(hc_habit_options)]; } old10;
    const size_t old10_size = offsetof(hc_habit_options, description);
    memset(&old10, 0xAB, sizeof old10);
    EXPECT(hc_habit_options_init(&old10.options, (uint32_t)old10_size) == HC_OK);
    EXPECT(old10.options.struct_size == old10_size && old10.options.kind == HC_KIND_CHECKMARK);
    EXPECT(old10.bytes[old10_size] == 0xAB); /* never past the caller's size */
    EXPECT(hc_habit_options_init(&old10.options, (uint32_t)old10_size - 4) == HC_E_INVALID);
    EXPECT(hc_habit_options_init(&old10.options, (uint32_t)old10_size) == HC_OK);
    old10.options.name = "Old caller";
    int64_t old_habit = 0;
    EXPECT(hc_habit_create(&old_habit, store, &old10.options) == HC_OK);
    hc_habit *made = NULL;
    EXPECT(hc_habit_get(&made, store, old_habit) == HC_OK);
    EXPECT(made != NULL && made->struct_size == sizeof(hc_habit) && made->description == NULL && made->question == NULL &&
           made->colour == NULL && made->icon == NULL && made->position == 0);
    hc_habit_free(made);
    EXPECT(hc_habit_update(store, old_habit, &old10.options, HC_HABIT_FIELD_COLOUR) == HC_E_INVALID);
    EXPECT(hc_habit_update(store, old_habit, &old10.options, HC_HABIT_FIELD_NAME) == HC_OK);
    /* The current size: the fields are written and handed back, owned by the habit. */
    options.name = "Sit";
    options.description = "Ten minutes";
    options.question = "Did you sit?";
    options.colour = "#00897B";
    options.icon = "lotus";
    options.position = -7;
    int64_t shown = 0;
    EXPECT(hc_habit_create(&shown, store, &options) == HC_OK);
    EXPECT(hc_habit_get(&made, store, shown) == HC_OK);
    EXPECT(made != NULL && strcmp(made->description, "Ten minutes") == 0 && strcmp(made->question, "Did you sit?") == 0 &&
           strcmp(made->colour, "#00897B") == 0 && strcmp(made->icon, "lotus") == 0 && made->position == -7);
    hc_habit_free(made);

    EXPECT(hc_store_close(store) == HC_OK);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    puts("every caller buffer follows the one rule; every initialiser gives its macro");
    return 0;
}
