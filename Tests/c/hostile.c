/* hostile.c: every exported function, called with NULL pointers, closed and
 * foreign handles, empty and invalid UTF-8 strings, impossible dates, negative
 * and huge counts. Each must return its documented error code; none may crash.
 * Usage: hostile WORK_DIR. Exits 0 when all checks pass. */
#include <habitcore.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <limits.h>
#include <math.h>
#include <unistd.h>

static int failures = 0;
#define EXPECT_STATUS(call, expected)                                                            \
    do {                                                                                         \
        int32_t got_ = (call);                                                                   \
        if (got_ != (expected)) {                                                                \
            fprintf(stderr, "line %d: %s returned %d, expected %d (%s)\n", __LINE__, #call, got_, \
                    (int)(expected), hc_last_error_message());                                   \
            failures++;                                                                          \
        } else if (got_ != HC_OK && hc_last_error_message()[0] == '\0') {                        \
            fprintf(stderr, "line %d: %s failed without a message\n", __LINE__, #call);           \
            failures++;                                                                          \
        }                                                                                        \
    } while (0)
#define EXPECT(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "line %d: expected %s\n", __LINE__, #cond);        \
            failures++;                                                        \
        }                                                                      \
    } while (0)

static const char bad_utf8[] = {(char)0xC3, (char)0x28, 'x', 0};

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/hostile.db", argv[1]);
    int64_t id = 0, utc_ms = 0;
    int32_t day = 0, minutes = 0, version = 0;
    double total = 0;
    char *text = NULL;
    int foreign_object = 42;
    hc_store *foreign = (hc_store *)&foreign_object;
    hc_habit_list *foreign_habits = (hc_habit_list *)&foreign_object;
    hc_entry_list *foreign_entries = (hc_entry_list *)&foreign_object;

    /* Versions and words never fail. */
    EXPECT(hc_version_number() == HC_VERSION_NUMBER);
    EXPECT(hc_abi_version() == HC_ABI_VERSION);
    EXPECT(hc_version_string() != NULL);
    EXPECT(strcmp(hc_status_string(-1), "unknown status") == 0);
    EXPECT(strcmp(hc_status_string(INT32_MAX), "unknown status") == 0);
    EXPECT(strncmp(hc_status_string(HC_E_INVALID), "HC_E_INVALID", 12) == 0);
    EXPECT(hc_last_error_message() != NULL);
    hc_free(NULL);
    hc_free(&foreign_object); /* not ours: ignored */

    /* Initialisers: a NULL struct or a size below the struct's first release. */
#define HOSTILE_INIT(type, init)                                             \
    do {                                                                     \
        type value_;                                                         \
        EXPECT_STATUS(init(NULL, sizeof value_), HC_E_INVALID);              \
        EXPECT_STATUS(init(&value_, 0), HC_E_INVALID);                       \
        EXPECT_STATUS(init(&value_, 3), HC_E_INVALID);                       \
        EXPECT_STATUS(init(&value_, sizeof value_), HC_OK);                  \
    } while (0)
    HOSTILE_INIT(hc_habit_options, hc_habit_options_init);
    HOSTILE_INIT(hc_entry_input, hc_entry_input_init);
    HOSTILE_INIT(hc_streak_result, hc_streak_result_init);
    HOSTILE_INIT(hc_habit_rules, hc_habit_rules_init);
    HOSTILE_INIT(hc_streak_policy, hc_streak_policy_init);
    HOSTILE_INIT(hc_completion, hc_completion_init);
    HOSTILE_INIT(hc_group_day, hc_group_day_init);
    HOSTILE_INIT(hc_measurement_stats, hc_measurement_stats_init);
    HOSTILE_INIT(hc_quit_status, hc_quit_status_init);
    HOSTILE_INIT(hc_timer_status, hc_timer_status_init);
    HOSTILE_INIT(hc_step_sync, hc_step_sync_init);
    HOSTILE_INIT(hc_credit_day, hc_credit_day_init);
    HOSTILE_INIT(hc_unlock_state, hc_unlock_state_init);
    HOSTILE_INIT(hc_proof_input, hc_proof_input_init);
    HOSTILE_INIT(hc_proof_result, hc_proof_result_init);
    HOSTILE_INIT(hc_proof_policy, hc_proof_policy_init);
    HOSTILE_INIT(hc_reminder_rule, hc_reminder_rule_init);

    /* Dates. */
    EXPECT_STATUS(hc_date_parse(NULL, "2026-01-01"), HC_E_INVALID);
    EXPECT_STATUS(hc_date_parse(&day, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_date_parse(&day, ""), HC_E_INVALID);
    EXPECT_STATUS(hc_date_parse(&day, bad_utf8), HC_E_INVALID);
    EXPECT_STATUS(hc_date_parse(&day, "2026-02-30"), HC_E_INVALID);
    EXPECT_STATUS(hc_date_parse(&day, "2026-13-01"), HC_E_INVALID);
    EXPECT_STATUS(hc_date_parse(&day, "0000-01-01"), HC_E_INVALID);
    EXPECT_STATUS(hc_date_parse(&day, "2026-1-01"), HC_E_INVALID);
    EXPECT_STATUS(hc_date_parse(&day, "99999999999999999999"), HC_E_INVALID);
    EXPECT_STATUS(hc_date_parse(&day, "2024-02-29"), HC_OK);
    char buf[HC_DATE_BUFSIZE];
    EXPECT_STATUS(hc_date_format(NULL, 11, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_date_format(buf, 10, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_date_format(buf, -1, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_date_format(buf, sizeof buf, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_date_format(buf, sizeof buf, INT32_MIN), HC_E_INVALID);

    /* Opening. */
    hc_store *store = NULL;
    EXPECT_STATUS(hc_store_open(NULL, path, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_open(&store, NULL, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_open(&store, "", 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_open(&store, bad_utf8, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_open(&store, path, 0x80000000u), HC_E_INVALID);
    EXPECT_STATUS(hc_store_open(&store, "/nonexistent/dir/x.db", HC_OPEN_NOCREATE), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_store_open(&store, "/nonexistent/dir/x.db", 0), HC_E_NOT_FOUND);
    EXPECT(store == NULL);

    /* A closed handle and a foreign one, on every store call. */
    hc_store *closed = NULL;
    EXPECT_STATUS(hc_store_open(&closed, path, 0), HC_OK);
    EXPECT_STATUS(hc_store_close(closed), HC_OK);
    EXPECT_STATUS(hc_store_close(NULL), HC_OK);
    hc_habit_options options = HC_HABIT_OPTIONS_INIT;
    options.name = "x";
    hc_entry_input entry = HC_ENTRY_INPUT_INIT;
    hc_day_state states[4];
    int64_t count = 0;
    hc_store *bad_handles[3] = {NULL, closed, foreign};
    for (int i = 0; i < 3; i++) {
        hc_store *s = bad_handles[i];
        EXPECT(strlen(hc_store_errmsg(s)) > 0);
        if (s) EXPECT_STATUS(hc_store_close(s), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_schema_version(&version, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_set_timezone(s, "UTC"), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_timezone(&text, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_set_day_start(s, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_day_start(&minutes, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_local_day(&day, s, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_utc_ms(&utc_ms, s, 0, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_today(&day, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_begin(s), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_commit(s), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_rollback(s), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_export(&text, s, HC_FORMAT_JSON), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_backup(s, "/tmp/never-written.db"), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_export_file(s, "/tmp/never-written.json", HC_FORMAT_JSON, NULL, NULL), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_import_file(s, "/tmp/never-written.json", HC_FORMAT_DETECT, NULL, NULL), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_set_busy_timeout(s, 100), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_import(s, "{}", HC_FORMAT_JSON), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_import_loop_csv(s, "", ""), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_import_loop_zip(s, (const uint8_t *)"PK", 2), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_import_habitbull_csv(s, ""), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_import_loop_db(s, "x.db"), HC_E_MISUSE);
        {
            char *loop_habits = NULL, *loop_marks = NULL;
            EXPECT_STATUS(hc_store_export_loop_csv(&loop_habits, &loop_marks, s, HC_DAY_NONE), HC_E_MISUSE);
        }
        EXPECT_STATUS(hc_habit_create(&id, s, &options), HC_E_MISUSE);
        hc_habit *habit = NULL;
        EXPECT_STATUS(hc_habit_get(&habit, s, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_find(&habit, s, "x"), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_update(s, 1, &options, HC_HABIT_FIELD_NAME), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_archive(s, 1, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_update_from(s, 1, &options, HC_HABIT_FIELD_TARGET, HC_DAY_NONE, NULL, NULL), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_archive_from(s, 1, 1, HC_DAY_NONE, NULL, NULL), HC_E_MISUSE);
        hc_habit_list *habits = NULL;
        EXPECT_STATUS(hc_habit_list_open(&habits, s, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_entry_append(&id, s, &entry), HC_E_MISUSE);
        EXPECT_STATUS(hc_entry_undo(&id, s, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_entry_undo_last(&id, s, 1, HC_DAY_NONE), HC_E_MISUSE);
        hc_entry_list *entries = NULL;
        EXPECT_STATUS(hc_entry_list_open(&entries, s, 0, 0, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_day_total(&total, s, 1, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_day_states(states, 4, &count, s, 1, 0, 3), HC_E_MISUSE);
        hc_streak_result streaks = HC_STREAK_RESULT_INIT, active = HC_STREAK_RESULT_INIT;
        hc_completion completion = HC_COMPLETION_INIT, window = HC_COMPLETION_INIT;
        hc_measurement_stats stats = HC_MEASUREMENT_STATS_INIT;
        hc_day_score scores[2];
        hc_due_item due[2];
        hc_vacation vacations[2];
        double strength[2];
        int64_t best_count = 0;
        EXPECT_STATUS(hc_store_set_week_start(s, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_week_start(&minutes, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_vacation_add(&id, s, 0, 0, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_vacation_remove(s, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_vacation_list(vacations, 2, &count, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_streaks(&streaks, NULL, 0, &best_count, s, 1, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_streaks(&streaks, &active, s, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_day_scores(scores, 2, &count, s, 0, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_strength(strength, 2, &count, s, 1, 0, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_completion(&completion, s, 1, 0, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_group_completion(&completion, &window, s, "g", HC_DAY_NONE, 0, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_due(due, 2, &count, s, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_measurements(&stats, s, 1, 0, 1), HC_E_MISUSE);
        hc_quit_status quit_status = HC_QUIT_STATUS_INIT;
        EXPECT_STATUS(hc_quit_status_get(&quit_status, s, 1, 0), HC_E_MISUSE);
        hc_timer_status timer_status = HC_TIMER_STATUS_INIT;
        hc_timer_list *timer_list = NULL;
        EXPECT_STATUS(hc_timer_start(&id, s, 1, 0, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_timer_act(s, 1, HC_TIMER_ACTION_STOP, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_timer_status_get(&timer_status, s, 1, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_timer_list_open(&timer_list, s, 0), HC_E_MISUSE);
        hc_step_sync sync = HC_STEP_SYNC_INIT;
        hc_credit_day credit_day = HC_CREDIT_DAY_INIT;
        hc_unlock_state unlock = HC_UNLOCK_STATE_INIT;
        hc_credit_rule credit_rules[2];
        hc_credit_list *credits = NULL;
        EXPECT_STATUS(hc_credit_account_create(&id, s, "a"), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_account_find(&id, s, "a"), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_rule_set(&id, s, 0, HC_RULE_STEPS_PER_MINUTE, 0, 100, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_rule_list(credit_rules, 2, &count, s, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_sync_steps(&sync, s, 0, HC_DAY_NONE, 100), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_spend(&id, s, 0, 1, NULL, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_adjust(&id, s, 0, 1, NULL), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_day_summary(&credit_day, s, 0, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_balance(&id, s, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_unlock_state(&unlock, s, 0, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_list_open(&credits, s, 0, 0, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_credit_session_end(&id, s, 1, 0), HC_E_MISUSE);
        hc_streak_policy streak_policy = HC_STREAK_POLICY_INIT;
        EXPECT_STATUS(hc_store_set_streak_policy(s, &streak_policy), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_streak_policy(&streak_policy, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_set_streak_policy(s, 1, &streak_policy), HC_E_MISUSE);
        EXPECT_STATUS(hc_habit_streak_policy(&streak_policy, s, 1, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_set_routine_bounds(s, 300, 660, 1080), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_routine_bounds(&minutes, NULL, NULL, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_routine_at(&minutes, s, 0), HC_E_MISUSE);
        hc_award_list *awards = NULL;
        hc_event_list *events = NULL;
        EXPECT_STATUS(hc_award_catalog_load(s, "{}"), HC_E_MISUSE);
        EXPECT_STATUS(hc_award_catalog_reset(s), HC_E_MISUSE);
        EXPECT_STATUS(hc_award_catalog_json(&text, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_award_evaluate(&awards, s, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_award_list_open_unlocked(&awards, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_award_list_open_progress(&awards, s, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_referral_code(&text, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_referral_redeem(&id, s, "ABCDEFGH"), HC_E_MISUSE);
        EXPECT_STATUS(hc_event_list_read(&events, s, 0, 10, 0), HC_E_MISUSE);
        hc_change_list *changes = NULL;
        EXPECT_STATUS(hc_store_revision(&id, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_change_list_read(&changes, s, 0, 10, 0), HC_E_MISUSE);
        hc_proof_input proof = HC_PROOF_INPUT_INIT;
        hc_proof_result proof_result = HC_PROOF_RESULT_INIT;
        hc_proof_policy policy = HC_PROOF_POLICY_INIT;
        hc_verdict_list *verdicts = NULL;
        EXPECT_STATUS(hc_proof_submit(&proof_result, s, &proof), HC_E_MISUSE);
        EXPECT_STATUS(hc_proof_review(&id, s, 1, HC_OUTCOME_APPROVED, "me", "ok"), HC_E_MISUSE);
        EXPECT_STATUS(hc_verdict_list_open(&verdicts, s, 0, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_proof_policy_set(s, 0, &policy), HC_E_MISUSE);
        EXPECT_STATUS(hc_verifier_register(s, "v", "1", NULL, NULL), HC_E_MISUSE);
        EXPECT_STATUS(hc_verifier_register_v2(s, "v", "1", NULL, NULL, NULL), HC_E_MISUSE);
        EXPECT_STATUS(hc_plugin_add(&text, s, HC_PLUGIN_EXECUTABLE, "/bin/true", NULL, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_plugin_remove(s, "v"), HC_E_MISUSE);
        EXPECT_STATUS(hc_plugin_list_json(&text, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_plugin_test(&proof_result, s, "v", "/bin/true"), HC_E_MISUSE);
        EXPECT_STATUS(hc_plugin_configure(s, "v", "{}"), HC_E_MISUSE);
        hc_reminder_rule reminder_rule = HC_REMINDER_RULE_INIT;
        hc_reminder_rule_list *reminder_rules = NULL;
        hc_reminder_list *reminders = NULL;
        int32_t start = 0, end = 0, recorded = 0;
        EXPECT_STATUS(hc_reminder_rule_add(&id, s, &reminder_rule), HC_E_MISUSE);
        EXPECT_STATUS(hc_reminder_rule_update(s, 1, &reminder_rule, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_reminder_rule_remove(s, 1, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_reminder_rule_list_open(&reminder_rules, s, 0, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_set_quiet_hours(s, 0, 60, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_store_quiet_hours(&start, &end, s, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, s, 0, 1000, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_reminder_fired(&recorded, s, 1, 0, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_reminder_snooze(s, 1, 0, 0, 1000), HC_E_MISUSE);
        hc_shield_rule shield_rule = HC_SHIELD_RULE_INIT;
        hc_shield_rule_list *shield_rules = NULL;
        hc_shield_status shield_status;
        hc_shield_transition shield_transition;
        int64_t revision = 0;
        EXPECT_STATUS(hc_shield_rule_add(&id, s, &shield_rule, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_shield_rule_update(s, 1, &shield_rule, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_shield_rule_remove(s, 1, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_shield_rule_list_open(&shield_rules, s, HC_DAY_NONE), HC_E_MISUSE);
        EXPECT_STATUS(hc_shield_state(&shield_status, 1, &count, &revision, s, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_shield_transitions(&shield_transition, 1, &count, &revision, s, 0, 1000), HC_E_MISUSE);
        EXPECT_STATUS(hc_shield_revision(&revision, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_shield_emergency_unlock(&id, s, 1, 10, NULL), HC_E_MISUSE);
        EXPECT_STATUS(hc_shield_snapshot_write(s, "/tmp/never-written.json", 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_today_snapshot_write(s, "/tmp/never-written.json", 0), HC_E_MISUSE);
        uint8_t sync_bytes[64];
        uint8_t *sync_changes = NULL;
        hc_sync_summary sync_summary = HC_SYNC_SUMMARY_INIT;
        EXPECT_STATUS(hc_sync_replica(sync_bytes, 64, &count, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_sync_state(sync_bytes, 64, &count, s), HC_E_MISUSE);
        EXPECT_STATUS(hc_sync_changes(&sync_changes, &count, s, NULL, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_sync_changes_v2(&sync_changes, &count, s, NULL, 0, HC_SYNC_EVIDENCE), HC_E_MISUSE);
        EXPECT_STATUS(hc_proof_evidence(sync_bytes, 64, &count, s, 1), HC_E_MISUSE);
        EXPECT_STATUS(hc_sync_apply(&sync_summary, s, sync_bytes, 0), HC_E_MISUSE);
        EXPECT_STATUS(hc_sync_canonical(&text, s), HC_E_MISUSE);
    }

    /* A real store, and every call with bad arguments. */
    EXPECT_STATUS(hc_store_open(&store, path, 0), HC_OK);
    EXPECT_STATUS(hc_store_schema_version(NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_timezone(store, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_timezone(store, ""), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_timezone(store, bad_utf8), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_timezone(store, "../../etc/passwd"), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_timezone(store, "/etc/passwd"), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_timezone(store, "Mars/Olympus_Mons"), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_store_set_timezone(store, "+25:00"), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_timezone(store, "America"), HC_E_NOT_FOUND); /* a folder, not a zone */
    EXPECT_STATUS(hc_store_timezone(NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_day_start(store, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_day_start(store, 1440), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_day_start(store, INT32_MIN), HC_E_INVALID);
    EXPECT_STATUS(hc_store_day_start(NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_store_local_day(NULL, store, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_local_day(&day, store, INT64_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_store_local_day(&day, store, INT64_MIN), HC_E_INVALID);
    EXPECT_STATUS(hc_store_today(NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_store_utc_ms(NULL, store, 0, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_utc_ms(&utc_ms, store, 0, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_store_utc_ms(&utc_ms, store, 0, 1440), HC_E_INVALID);
    EXPECT_STATUS(hc_store_utc_ms(&utc_ms, store, INT32_MAX, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_utc_ms(&utc_ms, store, INT32_MIN, 720), HC_E_INVALID);
    EXPECT_STATUS(hc_store_commit(store), HC_E_MISUSE);
    EXPECT_STATUS(hc_store_rollback(store), HC_E_MISUSE);
    EXPECT_STATUS(hc_store_begin(store), HC_OK);
    EXPECT_STATUS(hc_store_begin(store), HC_E_MISUSE);
    EXPECT_STATUS(hc_store_rollback(store), HC_OK);
    EXPECT_STATUS(hc_store_export(NULL, store, HC_FORMAT_JSON), HC_E_INVALID);
    EXPECT_STATUS(hc_store_export(&text, store, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_export(&text, store, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_store_backup(store, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_busy_timeout(store, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_busy_timeout(store, INT32_MIN), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_busy_timeout(store, 600001), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_busy_timeout(store, 0), HC_OK);
    EXPECT_STATUS(hc_store_set_busy_timeout(store, 5000), HC_OK);
    /* SQLite is in use by now: too late to change how it counts memory. */
    EXPECT_STATUS(hc_process_disable_sqlite_statistics(), HC_E_MISUSE);
    EXPECT_STATUS(hc_store_backup(store, ""), HC_E_INVALID);
    EXPECT_STATUS(hc_store_backup(store, "/no/such/folder/copy.db"), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_store_backup(store, "/tmp"), HC_E_CONFLICT); /* exists: never overwritten */
    EXPECT_STATUS(hc_store_backup(store, bad_utf8), HC_E_INVALID);
    EXPECT_STATUS(hc_store_export_file(store, NULL, HC_FORMAT_JSON, NULL, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_export_file(store, "", HC_FORMAT_JSONL, NULL, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_export_file(store, bad_utf8, HC_FORMAT_JSON, NULL, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_export_file(store, "/tmp/never-written.json", 0, NULL, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_export_file(store, "/tmp/never-written.json", HC_FORMAT_DETECT, NULL, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_export_file(store, "/no/such/folder/export.json", HC_FORMAT_JSON, NULL, NULL), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_store_export_file(store, "/tmp", HC_FORMAT_JSON, NULL, NULL), HC_E_IO); /* a folder is never replaced */
    EXPECT_STATUS(hc_store_import_file(store, NULL, HC_FORMAT_JSON, NULL, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_file(store, "", HC_FORMAT_DETECT, NULL, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_file(store, bad_utf8, HC_FORMAT_JSONL, NULL, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_file(store, "/tmp", HC_FORMAT_JSONL, NULL, NULL), HC_E_INVALID); /* a folder */
    EXPECT_STATUS(hc_store_import_file(store, "/no/such/file.jsonl", HC_FORMAT_JSONL, NULL, NULL), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_store_import_file(store, "/no/such/file.jsonl", 0, NULL, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_file(store, "/dev/null", HC_FORMAT_JSONL, NULL, NULL), HC_E_INVALID); /* not a regular file */
    EXPECT_STATUS(hc_store_import(store, NULL, HC_FORMAT_JSON), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import(store, "", HC_FORMAT_JSON), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import(store, bad_utf8, HC_FORMAT_JSON), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import(store, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", HC_FORMAT_JSON), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import(store, "{\"format\":\"habitcore-store\"}", HC_FORMAT_JSON), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import(store, "{}", 7), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_loop_csv(store, NULL, ""), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_loop_csv(store, "", NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_loop_csv(store, "", ""), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_loop_csv(store, "Name\n\"unterminated", "Date\n"), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_habitbull_csv(store, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_loop_db(store, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_loop_db(store, ""), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_loop_db(store, bad_utf8), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_loop_db(store, "/nonexistent/dir/loop.db"), HC_E_IO);
    EXPECT_STATUS(hc_store_import_loop_db(store, "/dev/null"), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_habitbull_csv(store, ""), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_habitbull_csv(store, bad_utf8), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_habitbull_csv(store, "HabitName,HabitCategory,CalendarDate,Value\nX,,2022-01-01,1e400\n"), HC_E_INVALID);
    EXPECT_STATUS(hc_store_import_habitbull_csv(store, "HabitName,HabitCategory,CalendarDate,Value\nX,,99999/1/1,1\n"), HC_E_INVALID);
    {
        char *loop_habits = NULL, *loop_marks = NULL;
        EXPECT_STATUS(hc_store_export_loop_csv(NULL, &loop_marks, store, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_store_export_loop_csv(&loop_habits, NULL, store, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_store_export_loop_csv(&loop_habits, &loop_marks, store, INT32_MAX), HC_E_INVALID);
        if (loop_habits != NULL || loop_marks != NULL) { fprintf(stderr, "export_loop_csv left an output on error\n"); failures++; }
    }
    {
        /* Zips: NULL, sizes out of range, not a zip, an empty archive, and archives whose
         * directory points outside the file or to a hostile entry. */
        static const uint8_t empty_zip[22] = {0x50, 0x4B, 0x05, 0x06};
        uint8_t zip[200];
        memset(zip, 0, sizeof zip);
        EXPECT_STATUS(hc_store_import_loop_zip(store, NULL, 10), HC_E_INVALID);
        EXPECT_STATUS(hc_store_import_loop_zip(store, empty_zip, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_store_import_loop_zip(store, empty_zip, -1), HC_E_INVALID);
        EXPECT_STATUS(hc_store_import_loop_zip(store, empty_zip, INT64_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_store_import_loop_zip(store, (const uint8_t *)"hello, world", 12), HC_E_INVALID);
        EXPECT_STATUS(hc_store_import_loop_zip(store, empty_zip, sizeof empty_zip), HC_E_INVALID); /* no Habits.csv */
        /* PK\3\4, then an end record at 178 claiming one entry whose directory lies at 0xFFFFFF00. */
        zip[0] = 0x50; zip[1] = 0x4B; zip[2] = 3; zip[3] = 4;
        zip[178] = 0x50; zip[179] = 0x4B; zip[180] = 5; zip[181] = 6;
        zip[188] = 1; zip[190] = 1; zip[192] = 46; zip[194] = 0x00; zip[195] = 0xFF; zip[196] = 0xFF; zip[197] = 0xFF;
        EXPECT_STATUS(hc_store_import_loop_zip(store, zip, sizeof zip), HC_E_CORRUPT);
        /* The directory at 100: an entry with a huge name length and a local header past the end. */
        zip[194] = 100; zip[195] = 0; zip[196] = 0; zip[197] = 0;
        zip[100] = 0x50; zip[101] = 0x4B; zip[102] = 1; zip[103] = 2;
        zip[128] = 0xFF; zip[129] = 0xFF; zip[142] = 0xF0; zip[143] = 0xFF; zip[144] = 0xFF; zip[145] = 0x7F;
        EXPECT_STATUS(hc_store_import_loop_zip(store, zip, sizeof zip), HC_E_CORRUPT);
        zip[128] = 1; zip[146] = 'a';
        EXPECT_STATUS(hc_store_import_loop_zip(store, zip, sizeof zip), HC_E_CORRUPT);
    }

    /* Habits. */
    EXPECT_STATUS(hc_habit_create(NULL, store, &options), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_create(&id, store, NULL), HC_E_INVALID);
    hc_habit_options wrong_size = options;
    wrong_size.struct_size = 3;
    EXPECT_STATUS(hc_habit_create(&id, store, &wrong_size), HC_E_INVALID);
    wrong_size.struct_size = UINT32_MAX;
    EXPECT_STATUS(hc_habit_create(&id, store, &wrong_size), HC_E_INVALID);
    hc_habit_options bad = options;
    bad.name = NULL;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad.name = "";
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad.name = bad_utf8;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.kind = 0;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.kind = HC_KIND_COUNTER; bad.target = NAN;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad.target = INFINITY;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad.target = -5;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad.target = 1e300;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.direction = 9;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.routine = -1;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.proof_required = 2;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.start_day = INT32_MAX;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    const char *bad_schedules[] = {"", "weekly", "weekly:0", "weekly:8", "every:-1", "every:99999999999999999999",
                                   "days:", "days:funday", "days:mon,mon", "monthdays:0", "monthdays:32", "hourly", bad_utf8};
    for (size_t i = 0; i < sizeof bad_schedules / sizeof *bad_schedules; i++) {
        bad = options; bad.schedule = bad_schedules[i];
        EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    }
    bad = options; bad.unit = bad_utf8;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.group_name = "tab\there";
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    /* Display fields (1.1): colours that are not #RRGGBB, over-long or broken texts. */
    const char *bad_colours[] = {"red", "#12345", "#1234567", "#12345G", "FF8F00", "#FF8F0", " #FF8F00", "#FF8F00\n", bad_utf8};
    for (size_t i = 0; i < sizeof bad_colours / sizeof *bad_colours; i++) {
        bad = options; bad.colour = bad_colours[i];
        EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    }
    static char long_text[4098];
    memset(long_text, 'd', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    bad = options; bad.description = long_text;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.description = bad_utf8;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.question = long_text + 4097 - 501;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.question = "two\nlines";
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.icon = long_text + 4097 - 65;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    bad = options; bad.icon = bad_utf8;
    EXPECT_STATUS(hc_habit_create(&id, store, &bad), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_create(&id, store, &options), HC_OK);
    int64_t habit_id = id;
    EXPECT_STATUS(hc_habit_create(&id, store, &options), HC_E_CONFLICT);

    hc_habit *habit = NULL;
    EXPECT_STATUS(hc_habit_get(NULL, store, habit_id), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_get(&habit, store, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_get(&habit, store, -1), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_get(&habit, store, INT64_MAX), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_find(NULL, store, "x"), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_find(&habit, store, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_find(&habit, store, ""), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_find(&habit, store, bad_utf8), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_find(&habit, store, "X"), HC_OK); /* ASCII case ignored */
    hc_habit_free(habit);
    hc_habit_free(NULL);
    hc_habit_free((hc_habit *)&foreign_object); /* not ours: ignored */
    EXPECT_STATUS(hc_habit_update(store, habit_id, NULL, HC_HABIT_FIELD_NAME), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_update(store, habit_id, &options, 0x80000000u), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_update(store, habit_id, &options, 0x2000u), HC_E_INVALID); /* the bit after POSITION */
    bad = options; bad.colour = "#GGGGGG";
    EXPECT_STATUS(hc_habit_update(store, habit_id, &bad, HC_HABIT_FIELD_COLOUR), HC_E_INVALID);
    bad = options; bad.description = long_text;
    EXPECT_STATUS(hc_habit_update(store, habit_id, &bad, HC_HABIT_FIELD_DESCRIPTION), HC_E_INVALID);
    bad = options; bad.struct_size = (uint32_t)offsetof(hc_habit_options, description); /* 1.0's size: no display fields */
    EXPECT_STATUS(hc_habit_update(store, habit_id, &bad, HC_HABIT_FIELD_ICON), HC_E_INVALID);
    bad.struct_size = (uint32_t)offsetof(hc_habit_options, question); /* between sizes: no release had it */
    EXPECT_STATUS(hc_habit_update(store, habit_id, &bad, HC_HABIT_FIELD_NAME), HC_E_INVALID);
    bad = options; bad.position = INT64_MIN; /* any order is an order */
    EXPECT_STATUS(hc_habit_update(store, habit_id, &bad, HC_HABIT_FIELD_POSITION), HC_OK);
    EXPECT_STATUS(hc_habit_update(store, INT64_MAX, &options, HC_HABIT_FIELD_NAME), HC_E_NOT_FOUND);
    {
        /* A change applies from a valid day, today at latest; the re-judged days are optional outs. */
        int32_t today = 0, first = 0, last = 0;
        EXPECT_STATUS(hc_store_today(&today, store), HC_OK);
        EXPECT_STATUS(hc_habit_update_from(store, habit_id, &options, HC_HABIT_FIELD_TARGET, today + 1, &first, &last), HC_E_INVALID);
        EXPECT_STATUS(hc_habit_update_from(store, habit_id, &options, HC_HABIT_FIELD_TARGET, INT32_MAX, &first, &last), HC_E_INVALID);
        EXPECT_STATUS(hc_habit_update_from(store, habit_id, NULL, HC_HABIT_FIELD_TARGET, HC_DAY_NONE, &first, &last), HC_E_INVALID);
        EXPECT_STATUS(hc_habit_update_from(store, INT64_MAX, &options, HC_HABIT_FIELD_TARGET, HC_DAY_NONE, NULL, NULL), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_habit_update_from(store, habit_id, &options, HC_HABIT_FIELD_NAME, today, &first, &last), HC_OK);
        EXPECT(first == HC_DAY_NONE && last == HC_DAY_NONE); /* a name judges no day */
        EXPECT_STATUS(hc_habit_archive_from(store, habit_id, 2, HC_DAY_NONE, NULL, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_habit_archive_from(store, habit_id, 1, INT32_MIN + 1, NULL, NULL), HC_E_INVALID);
    }
    bad = options; bad.name = NULL;
    EXPECT_STATUS(hc_habit_update(store, habit_id, &bad, HC_HABIT_FIELD_NAME), HC_E_INVALID);
    bad = options; bad.schedule = "weekly:9";
    EXPECT_STATUS(hc_habit_update(store, habit_id, &bad, HC_HABIT_FIELD_SCHEDULE), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_archive(store, habit_id, 2), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_archive(store, habit_id, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_archive(store, -7, 1), HC_E_NOT_FOUND);

    hc_habit_list *habits = NULL;
    EXPECT_STATUS(hc_habit_list_open(NULL, store, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_list_open(&habits, store, 0x10), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_list_open(&habits, store, 0), HC_OK);
    const hc_habit *borrowed = NULL;
    EXPECT_STATUS(hc_habit_list_count(NULL, habits), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_list_count(&count, NULL), HC_E_MISUSE);
    EXPECT_STATUS(hc_habit_list_count(&count, foreign_habits), HC_E_MISUSE);
    EXPECT_STATUS(hc_habit_list_get(NULL, habits, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_list_get(&borrowed, habits, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_list_get(&borrowed, habits, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_list_get(&borrowed, habits, INT64_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_list_get(&borrowed, foreign_habits, 0), HC_E_MISUSE);
    hc_habit_list_free(habits);
    EXPECT_STATUS(hc_habit_list_count(&count, habits), HC_E_MISUSE); /* freed */
    hc_habit_list_free(habits);                                      /* twice: ignored */
    hc_habit_list_free(NULL);
    hc_habit_list_free(foreign_habits);

    /* The ledger. */
    entry.habit_id = habit_id;
    EXPECT_STATUS(hc_entry_append(&id, store, NULL), HC_E_INVALID);
    hc_entry_input bad_entry = entry;
    bad_entry.struct_size = 0;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.kind = HC_ENTRY_UNDO;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.kind = 99;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.kind = HC_ENTRY_AMOUNT; /* a checkmark takes no amounts */
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.habit_id = 0;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.habit_id = INT64_MAX;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_NOT_FOUND);
    bad_entry = entry; bad_entry.day = INT32_MAX;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.day = 2932896; /* 9999-12-31: in the future */
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.at_ms = INT64_MAX;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.at_ms = INT64_MIN;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.source = 0;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry = entry; bad_entry.note = bad_utf8;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);

    options.name = "counter"; options.kind = HC_KIND_COUNTER; options.target = 10;
    int64_t counter = 0;
    EXPECT_STATUS(hc_habit_create(&counter, store, &options), HC_OK);
    bad_entry = entry; bad_entry.habit_id = counter; bad_entry.kind = HC_ENTRY_AMOUNT;
    bad_entry.value = NAN;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry.value = INFINITY;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry.value = 1e13;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry.kind = HC_ENTRY_TOTAL; bad_entry.value = -1;
    EXPECT_STATUS(hc_entry_append(&id, store, &bad_entry), HC_E_INVALID);
    bad_entry.value = 5;
    EXPECT_STATUS(hc_entry_append(NULL, store, &bad_entry), HC_OK); /* out_id may be NULL */
    EXPECT_STATUS(hc_entry_append(&id, store, &entry), HC_OK);
    int64_t undo = 0;
    EXPECT_STATUS(hc_entry_undo(&undo, store, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_entry_undo(&undo, store, -1), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_entry_undo(&undo, store, INT64_MAX), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_entry_undo(&undo, store, id), HC_OK);
    EXPECT_STATUS(hc_entry_undo(&undo, store, id), HC_E_CONFLICT);
    EXPECT_STATUS(hc_entry_undo(NULL, store, undo), HC_E_CONFLICT); /* an undo is not undone */
    EXPECT_STATUS(hc_entry_undo_last(&undo, store, habit_id, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_entry_undo_last(&undo, store, INT64_MIN, HC_DAY_NONE), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_entry_undo_last(&undo, store, habit_id, HC_DAY_NONE), HC_E_NOT_FOUND); /* nothing stands */

    hc_entry_list *entries = NULL;
    const hc_entry *borrowed_entry = NULL;
    EXPECT_STATUS(hc_entry_list_open(NULL, store, 0, 0, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_entry_list_open(&entries, store, -1, 0, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_entry_list_open(&entries, store, INT64_MAX, 0, 1), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_entry_list_open(&entries, store, 0, 10, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_entry_list_open(&entries, store, 0, INT32_MIN, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_entry_list_open(&entries, store, 0, -719162, 2932896), HC_OK);
    EXPECT_STATUS(hc_entry_list_count(&count, entries), HC_OK);
    EXPECT(count == 3);
    EXPECT_STATUS(hc_entry_list_count(NULL, entries), HC_E_INVALID);
    EXPECT_STATUS(hc_entry_list_count(&count, foreign_entries), HC_E_MISUSE);
    EXPECT_STATUS(hc_entry_list_get(NULL, entries, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_entry_list_get(&borrowed_entry, entries, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_entry_list_get(&borrowed_entry, entries, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_entry_list_get(&borrowed_entry, NULL, 0), HC_E_MISUSE);
    hc_entry_list_free(entries);
    EXPECT_STATUS(hc_entry_list_get(&borrowed_entry, entries, 0), HC_E_MISUSE); /* freed */
    hc_entry_list_free(entries);
    hc_entry_list_free(NULL);
    hc_entry_list_free(foreign_entries);

    EXPECT_STATUS(hc_habit_day_total(NULL, store, habit_id, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_day_total(&total, store, habit_id, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_day_total(&total, store, 0, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_day_states(NULL, 4, &count, store, habit_id, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_day_states(states, 4, NULL, store, habit_id, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_day_states(states, -1, &count, store, habit_id, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_day_states(states, 3, &count, store, habit_id, 0, 3), HC_OK); /* short: 3 written */
    EXPECT(count == 4);
    EXPECT_STATUS(hc_habit_day_states(states, INT64_MAX, &count, store, habit_id, INT32_MIN, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_day_states(states, INT64_MAX, &count, store, habit_id, 0, 200000), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_day_states(states, 4, &count, store, habit_id, 3, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_day_states(states, 4, &count, store, INT64_MAX, 0, 3), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_day_states(states, 4, &count, store, habit_id, 0, 3), HC_OK);
    EXPECT(count == 4);

    /* Schedules, streaks and scores. */
    hc_streak_result streaks = HC_STREAK_RESULT_INIT, active = HC_STREAK_RESULT_INIT;
    hc_streak best[3];
    int64_t best_count = 0;
    EXPECT_STATUS(hc_store_set_week_start(store, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_week_start(store, 7), HC_E_INVALID);
    EXPECT_STATUS(hc_store_week_start(NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_store_week_start(&minutes, store), HC_OK);
    EXPECT(minutes == 1);
    EXPECT_STATUS(hc_vacation_add(&id, store, -1, 0, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_vacation_add(&id, store, INT64_MAX, 0, 1), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_vacation_add(&id, store, 0, 5, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_vacation_add(&id, store, 0, INT32_MIN, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_vacation_add(NULL, store, habit_id, 0, 1), HC_OK);
    EXPECT_STATUS(hc_vacation_remove(store, INT64_MAX), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_vacation_remove(store, -1), HC_E_NOT_FOUND);
    hc_vacation vacations[2];
    EXPECT_STATUS(hc_vacation_list(NULL, 2, &count, store), HC_E_INVALID);
    EXPECT_STATUS(hc_vacation_list(vacations, -1, &count, store), HC_E_INVALID);
    EXPECT_STATUS(hc_vacation_list(vacations, 2, NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_vacation_list(NULL, 0, &count, store), HC_OK);
    EXPECT(count == 1);
    hc_streak_result small = HC_STREAK_RESULT_INIT;
    small.struct_size = 4;
    EXPECT_STATUS(hc_habit_streaks(NULL, best, 3, &best_count, store, habit_id, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_streaks(&small, best, 3, &best_count, store, habit_id, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_streaks(&streaks, NULL, 3, &best_count, store, habit_id, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_streaks(&streaks, best, -1, &best_count, store, habit_id, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_streaks(&streaks, best, 3, NULL, store, habit_id, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_streaks(&streaks, best, 3, &best_count, store, habit_id, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_streaks(&streaks, best, 3, &best_count, store, 0, HC_DAY_NONE), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_streaks(&streaks, best, 3, &best_count, store, habit_id, HC_DAY_NONE), HC_OK);
    hc_habit_rules rules = HC_HABIT_RULES_INIT;
    hc_day_state days[2] = {{0, HC_DAY_DONE, 1.0, 1, 0}, {1, HC_DAY_DONE, 1.0, 1, 0}};
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, NULL, days, 2, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &rules, NULL, 2, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &rules, days, -1, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &rules, days, INT64_MAX, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &rules, days, 2, HC_DAY_NONE), HC_E_INVALID);
    hc_habit_rules bad_rules = rules;
    bad_rules.schedule = "weekly:0";
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &bad_rules, days, 2, 1), HC_E_INVALID);
    bad_rules = rules; bad_rules.week_start = 9;
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &bad_rules, days, 2, 1), HC_E_INVALID);
    bad_rules = rules; bad_rules.start_day = INT32_MIN;
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &bad_rules, days, 2, 1), HC_E_INVALID);
    bad_rules = rules; bad_rules.kind = HC_KIND_COUNTER; bad_rules.target = NAN;
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &bad_rules, days, 2, 1), HC_E_INVALID);
    hc_day_state bad_days[1] = {{INT32_MAX, 0, 0.0, 0, 0}};
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &rules, bad_days, 1, 1), HC_E_INVALID);
    bad_days[0].day = 0; bad_days[0].flags = 0x80;
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &rules, bad_days, 1, 1), HC_E_INVALID);
    bad_days[0].flags = 0; bad_days[0].value = NAN;
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &rules, bad_days, 1, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_streak_compute(&streaks, best, 3, &best_count, &rules, days, 2, 1), HC_OK);
    EXPECT(streaks.current.length == 2 && best_count == 1);
    hc_streak_policy policy = HC_STREAK_POLICY_INIT;
    EXPECT_STATUS(hc_streak_compute_with_policy(&streaks, best, 3, &best_count, &rules, NULL, days, 2, 1), HC_OK);
    EXPECT_STATUS(hc_streak_compute_with_policy(&streaks, best, 3, &best_count, &rules, &policy, days, 2, 1), HC_OK);
    EXPECT(streaks.current.length == 2 && streaks.current_forgiven == 0);
    EXPECT_STATUS(hc_streak_compute_with_policy(&streaks, best, 3, &best_count, NULL, &policy, days, 2, 1), HC_E_INVALID);
    policy.miss_allowance = INT32_MAX;
    EXPECT_STATUS(hc_streak_compute_with_policy(&streaks, best, 3, &best_count, &rules, &policy, days, 2, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_streak_policy(store, &policy), HC_E_INVALID);
    policy.miss_allowance = INT32_MIN;
    EXPECT_STATUS(hc_store_set_streak_policy(store, &policy), HC_E_INVALID);
    policy.miss_allowance = 0; policy.open_day = 0;
    EXPECT_STATUS(hc_store_set_streak_policy(store, &policy), HC_E_INVALID);
    policy.open_day = HC_OPEN_DAY_ZERO; policy.off_days = INT32_MAX;
    EXPECT_STATUS(hc_store_set_streak_policy(store, &policy), HC_E_INVALID);
    policy.off_days = HC_OFF_DAYS_SKIP; policy.struct_size = 0;
    EXPECT_STATUS(hc_store_set_streak_policy(store, &policy), HC_E_INVALID);
    policy.struct_size = (uint32_t)sizeof(hc_streak_policy) + 64;
    EXPECT_STATUS(hc_store_set_streak_policy(store, &policy), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_streak_policy(store, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_store_streak_policy(NULL, store), HC_E_INVALID);
    policy.struct_size = (uint32_t)sizeof(hc_streak_policy);
    EXPECT_STATUS(hc_store_streak_policy(&policy, store), HC_OK);
    EXPECT(policy.miss_allowance == 0 && policy.open_day == HC_OPEN_DAY_PREVIOUS && policy.off_days == HC_OFF_DAYS_SKIP);
    policy.miss_allowance = HC_POLICY_INHERIT; policy.open_day = 0; policy.off_days = 0;
    EXPECT_STATUS(hc_habit_set_streak_policy(store, 0, &policy), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_set_streak_policy(store, INT64_MIN, &policy), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_set_streak_policy(store, habit_id, NULL), HC_E_INVALID);
    policy.off_days = HC_OFF_DAYS_BREAK;
    EXPECT_STATUS(hc_habit_set_streak_policy(store, habit_id, &policy), HC_E_INVALID);
    policy.off_days = 0; policy.miss_allowance = -2;
    EXPECT_STATUS(hc_habit_set_streak_policy(store, habit_id, &policy), HC_E_INVALID);
    policy.miss_allowance = HC_POLICY_INHERIT;
    EXPECT_STATUS(hc_habit_set_streak_policy(store, habit_id, &policy), HC_OK);
    EXPECT_STATUS(hc_habit_streak_policy(NULL, store, habit_id, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_streak_policy(&policy, store, habit_id, 0xFFFFFFFFu), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_streak_policy(&policy, store, -1, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_streak_policy(&policy, store, habit_id, HC_POLICY_OWN), HC_OK);
    EXPECT(policy.miss_allowance == HC_POLICY_INHERIT && policy.open_day == 0);
    EXPECT_STATUS(hc_store_set_routine_bounds(store, INT32_MIN, 0, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_routine_bounds(store, 1080, 660, 300), HC_E_INVALID);
    EXPECT_STATUS(hc_store_set_routine_bounds(store, 300, 660, 1080), HC_OK);
    EXPECT_STATUS(hc_store_routine_bounds(NULL, NULL, NULL, store), HC_OK);
    EXPECT_STATUS(hc_store_routine_at(NULL, store, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_routine_at(&minutes, store, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_store_routine_at(&minutes, store, INT64_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_store_routine_at(&minutes, store, 0), HC_OK);
    EXPECT(minutes >= HC_ROUTINE_MORNING && minutes <= HC_ROUTINE_EVENING);
    EXPECT_STATUS(hc_store_streaks(NULL, &active, store, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_store_streaks(&streaks, NULL, store, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_store_streaks(&streaks, &active, store, -800000), HC_E_INVALID);
    EXPECT_STATUS(hc_store_streaks(&streaks, &active, store, HC_DAY_NONE), HC_OK);
    hc_day_score scores[4];
    double strength[4];
    EXPECT_STATUS(hc_store_day_scores(NULL, 4, &count, store, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_store_day_scores(scores, 3, &count, store, 0, 3), HC_OK);
    EXPECT(count == 4);
    EXPECT_STATUS(hc_store_day_scores(scores, INT64_MAX, &count, store, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_store_day_scores(scores, 4, &count, store, 3, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_day_scores(scores, 4, &count, store, INT32_MIN, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_store_day_scores(scores, 4, NULL, store, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_store_day_scores(scores, 4, &count, store, 0, 3), HC_OK);
    EXPECT(count == 4 && scores[0].score == -1.0);
    EXPECT_STATUS(hc_habit_strength(strength, 3, &count, store, habit_id, 0, 3), HC_OK);
    EXPECT(count == 4);
    EXPECT_STATUS(hc_habit_strength(strength, 4, &count, store, INT64_MIN, 0, 3), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_habit_strength(strength, 4, &count, store, habit_id, 0, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_strength_compute(strength, 4, &count, &bad_rules, days, 2, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_strength_compute(strength, 2, &count, &rules, days, 2, 0, 3), HC_OK);
    EXPECT(count == 4);
    EXPECT_STATUS(hc_strength_compute(NULL, 4, &count, &rules, days, 2, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_strength_compute(strength, 4, &count, &rules, days, 2, 0, 3), HC_OK);
    hc_completion completion = HC_COMPLETION_INIT, window = HC_COMPLETION_INIT, tiny = HC_COMPLETION_INIT;
    tiny.struct_size = 0;
    EXPECT_STATUS(hc_habit_completion(NULL, store, habit_id, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_completion(&tiny, store, habit_id, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_completion(&completion, store, habit_id, 3, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_completion(&completion, store, 0, 0, 3), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_group_completion(&completion, &window, store, NULL, HC_DAY_NONE, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_group_completion(&completion, &window, store, bad_utf8, HC_DAY_NONE, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_group_completion(&completion, &window, store, "nobody", HC_DAY_NONE, 0, 3), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_group_completion(NULL, &window, store, "nobody", HC_DAY_NONE, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_group_completion(&completion, &tiny, store, "nobody", HC_DAY_NONE, 0, 3), HC_E_INVALID);
    hc_group_day group_day = HC_GROUP_DAY_INIT, odd_day = HC_GROUP_DAY_INIT;
    hc_quota_progress quota[1];
    odd_day.struct_size = 7;
    EXPECT_STATUS(hc_group_day_rates(NULL, NULL, 0, NULL, store, NULL, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_group_day_rates(&odd_day, NULL, 0, NULL, store, NULL, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_group_day_rates(&group_day, NULL, 1, &count, store, NULL, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_group_day_rates(&group_day, quota, -1, &count, store, NULL, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_group_day_rates(&group_day, quota, 1, &count, store, bad_utf8, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_group_day_rates(&group_day, quota, 1, &count, store, "nobody", HC_DAY_NONE), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_group_day_rates(&group_day, quota, 1, &count, store, NULL, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_group_day_rates(&group_day, quota, 1, &count, store, NULL, HC_DAY_NONE), HC_OK);
    hc_due_item due[1];
    EXPECT_STATUS(hc_store_due(NULL, 1, &count, store, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_store_due(due, 1, NULL, store, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_store_due(due, 1, &count, store, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_store_due(NULL, 0, &count, store, HC_DAY_NONE), HC_OK);
    hc_measurement_stats stats = HC_MEASUREMENT_STATS_INIT, odd = HC_MEASUREMENT_STATS_INIT;
    odd.struct_size = 1000;
    EXPECT_STATUS(hc_habit_measurements(&stats, store, habit_id, 0, 3), HC_E_INVALID); /* not a measurement */
    EXPECT_STATUS(hc_habit_measurements(&odd, store, habit_id, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_measurements(NULL, store, habit_id, 0, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_habit_measurements(&stats, store, INT64_MAX, 0, 3), HC_E_NOT_FOUND);
    hc_quit_status quit = HC_QUIT_STATUS_INIT, odd_quit = HC_QUIT_STATUS_INIT;
    odd_quit.struct_size = 1000;
    EXPECT_STATUS(hc_quit_status_get(&quit, store, habit_id, 0), HC_E_INVALID); /* not a quit habit */
    EXPECT_STATUS(hc_quit_status_get(&odd_quit, store, habit_id, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_quit_status_get(NULL, store, habit_id, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_quit_status_get(&quit, store, INT64_MAX, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_quit_status_get(&quit, store, habit_id, INT64_MIN), HC_E_INVALID);

    /* Credits: accounts, rules, absurd numbers, lists. */
    hc_step_sync sync = HC_STEP_SYNC_INIT, short_sync = HC_STEP_SYNC_INIT;
    short_sync.struct_size = 4;
    hc_credit_day credit_day = HC_CREDIT_DAY_INIT;
    hc_unlock_state unlock = HC_UNLOCK_STATE_INIT;
    hc_credit_rule credit_rules[4];
    int64_t balance = 0;
    EXPECT_STATUS(hc_credit_account_create(&id, store, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_account_create(&id, store, ""), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_account_create(&id, store, bad_utf8), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_account_create(NULL, store, "kids"), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_account_create(&id, store, "default"), HC_E_CONFLICT);
    EXPECT_STATUS(hc_credit_account_find(&id, store, "nobody"), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_credit_account_find(NULL, store, "default"), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_account_find(&id, store, "DEFAULT"), HC_OK);
    EXPECT(id == HC_ACCOUNT_DEFAULT);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, 99, 0, 100, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_STEPS_PER_MINUTE, 0, 0, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_STEPS_PER_MINUTE, 0, INT64_MAX, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_STEPS_PER_MINUTE, 5, 100, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_STEPS_PER_MINUTE, 0, 100, 0), HC_E_INVALID); /* in the past */
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_STEPS_PER_MINUTE, 0, 100, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, INT64_MAX, HC_RULE_STEPS_PER_MINUTE, 0, 100, HC_DAY_NONE), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, -1, HC_RULE_STEPS_PER_MINUTE, 0, 100, HC_DAY_NONE), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_HABIT_MINUTES, 0, 10, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_HABIT_MINUTES, -3, 10, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_HABIT_MINUTES, INT64_MAX, 10, HC_DAY_NONE), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_HABIT_MINUTES, habit_id, 1441, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_set(&id, store, 0, HC_RULE_EXPIRY, 0, 7, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_set(NULL, store, 0, HC_RULE_EXPIRY, 0, HC_EXPIRY_CARRY_OVER, HC_DAY_NONE), HC_OK);
    EXPECT_STATUS(hc_credit_rule_list(NULL, 2, &count, store, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_list(credit_rules, -1, &count, store, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_list(credit_rules, 4, NULL, store, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_rule_list(NULL, 0, &count, store, 0), HC_OK);
    EXPECT(count == 1);
    EXPECT_STATUS(hc_credit_sync_steps(NULL, store, 0, HC_DAY_NONE, 100), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_sync_steps(&short_sync, store, 0, HC_DAY_NONE, 100), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_sync_steps(&sync, store, 0, HC_DAY_NONE, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_sync_steps(&sync, store, 0, HC_DAY_NONE, INT64_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_sync_steps(&sync, store, 0, HC_DAY_NONE, INT64_MIN), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_sync_steps(&sync, store, 0, INT32_MAX, 100), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_sync_steps(&sync, store, 0, 2932896, 100), HC_E_INVALID); /* 9999-12-31: after today */
    EXPECT_STATUS(hc_credit_sync_steps(&sync, store, 77, HC_DAY_NONE, 100), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_credit_sync_steps(&sync, store, 0, HC_DAY_NONE, 1000), HC_OK);
    EXPECT(sync.earned_now == 10 && sync.steps == 1000);
    EXPECT_STATUS(hc_credit_spend(&id, store, 0, 0, NULL, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_spend(&id, store, 0, -5, NULL, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_spend(&id, store, 0, INT64_MAX, NULL, HC_SPEND_UNLOCK), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_spend(&id, store, 0, INT64_MIN, NULL, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_spend(&id, store, 0, 1, bad_utf8, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_spend(&id, store, 0, 1, NULL, 0x80), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_spend(&id, store, 0, 11, NULL, 0), HC_E_INSUFFICIENT);
    EXPECT_STATUS(hc_credit_spend(NULL, store, 0, 10, "all of it", HC_SPEND_UNLOCK), HC_OK);
    EXPECT_STATUS(hc_credit_adjust(&id, store, 0, 0, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_adjust(&id, store, 0, INT64_MIN, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_adjust(&id, store, 0, 525601, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_adjust(NULL, store, 0, -525600, "a debt"), HC_OK);
    EXPECT_STATUS(hc_credit_balance(NULL, store, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_balance(&balance, store, 0), HC_OK);
    EXPECT(balance == -525600);
    EXPECT_STATUS(hc_credit_day_summary(NULL, store, 0, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_day_summary(&credit_day, store, 0, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_day_summary(&credit_day, store, 0, HC_DAY_NONE), HC_OK);
    EXPECT(credit_day.earned == 10 && credit_day.spent == 10 && credit_day.steps == 1000);
    EXPECT_STATUS(hc_credit_unlock_state(NULL, store, 0, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_unlock_state(&unlock, store, 0, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_unlock_state(&unlock, store, 0, 0), HC_OK);
    EXPECT(unlock.active == 1 && unlock.until_ms - unlock.start_ms == 600000);
    hc_credit_list *credit_list = NULL;
    hc_credit_list *foreign_credits = (hc_credit_list *)&foreign_object;
    const hc_credit_entry *credit = NULL;
    EXPECT_STATUS(hc_credit_list_open(NULL, store, 0, 0, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_list_open(&credit_list, store, 0, 5, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_list_open(&credit_list, store, 0, INT32_MIN, 1), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_list_open(&credit_list, store, 0, -719162, 2932896), HC_OK);
    EXPECT_STATUS(hc_credit_list_count(&count, credit_list), HC_OK);
    EXPECT(count == 3);
    EXPECT_STATUS(hc_credit_list_count(NULL, credit_list), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_list_get(&credit, credit_list, 3), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_list_get(&credit, credit_list, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_list_get(NULL, credit_list, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_list_get(&credit, credit_list, 1), HC_OK);
    EXPECT(credit->kind == HC_CREDIT_SPEND && credit->minutes == -10 && strcmp(credit->reason, "all of it") == 0);
    EXPECT_STATUS(hc_credit_list_count(&count, foreign_credits), HC_E_MISUSE);
    EXPECT_STATUS(hc_credit_list_get(&credit, NULL, 0), HC_E_MISUSE);
    hc_credit_list_free(credit_list);
    EXPECT_STATUS(hc_credit_list_count(&count, credit_list), HC_E_MISUSE); /* freed */
    int64_t refund = -1;
    EXPECT_STATUS(hc_credit_session_end(&refund, store, INT64_MAX, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_credit_session_end(&refund, store, INT64_MIN, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_credit_session_end(&refund, store, unlock.session_id, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_session_end(&refund, store, unlock.session_id, INT64_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_credit_session_end(&refund, store, unlock.session_id, 1), HC_E_INVALID);
    EXPECT(refund == -1);
    EXPECT_STATUS(hc_credit_session_end(&refund, store, unlock.session_id, unlock.start_ms), HC_OK);
    EXPECT(refund == 10);
    EXPECT_STATUS(hc_credit_session_end(NULL, store, unlock.session_id, 0), HC_E_CONFLICT);
    hc_credit_list_free(credit_list);                                     /* twice: ignored */
    hc_credit_list_free(NULL);
    hc_credit_list_free(foreign_credits);

    /* Awards: catalogues, evaluation, lists, referrals, events. */
    hc_award_list *award_list = NULL;
    hc_award_list *foreign_awards = (hc_award_list *)&foreign_object;
    const hc_award *award = NULL;
    EXPECT_STATUS(hc_award_catalog_load(store, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_award_catalog_load(store, ""), HC_E_INVALID);
    EXPECT_STATUS(hc_award_catalog_load(store, bad_utf8), HC_E_INVALID);
    EXPECT_STATUS(hc_award_catalog_load(store, "[]"), HC_E_INVALID);
    EXPECT_STATUS(hc_award_catalog_load(store, "{\"format\":\"habitcore-awards\",\"version\":1,\"rules\":[{\"id\":\"x\","
                                                "\"title\":\"X\",\"metric\":\"pushups\",\"threshold\":1}]}"), HC_E_INVALID);
    EXPECT(strstr(hc_last_error_message(), "rule 'x'") && strstr(hc_last_error_message(), "field 'metric'"));
    EXPECT_STATUS(hc_award_catalog_load(store, "{\"format\":\"habitcore-awards\",\"version\":1,\"rules\":[{\"id\":\"x\","
                                                "\"title\":\"X\",\"metric\":\"total_completions\",\"threshold\":9223372036854775807}]}"),
                  HC_E_INVALID);
    EXPECT_STATUS(hc_award_catalog_load(store, "{\"format\":\"habitcore-awards\",\"version\":1,\"rules\":[{\"id\":\"x\","
                                                "\"title\":\"X\",\"metric\":\"total_completions\",\"scope\":\"habit\","
                                                "\"habit\":9223372036854775807,\"threshold\":1}]}"),
                  HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_award_catalog_json(NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_award_catalog_json(&text, store), HC_OK);
    EXPECT(text != NULL && strstr(text, "\"streak-7\"") != NULL);
    hc_free(text);
    text = NULL;
    EXPECT_STATUS(hc_award_evaluate(NULL, store, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_award_evaluate(&award_list, store, INT32_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_award_evaluate(&award_list, store, INT32_MIN + 1), HC_E_INVALID);
    EXPECT_STATUS(hc_award_list_open_progress(NULL, store, HC_DAY_NONE), HC_E_INVALID);
    EXPECT_STATUS(hc_award_list_open_progress(&award_list, store, -800000), HC_E_INVALID); /* before 0001-01-01 */
    EXPECT_STATUS(hc_award_list_open_unlocked(NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_award_catalog_reset(store), HC_OK);
    EXPECT_STATUS(hc_award_list_open_progress(&award_list, store, HC_DAY_NONE), HC_OK);
    EXPECT_STATUS(hc_award_list_count(&count, award_list), HC_OK);
    EXPECT(count == 23);
    EXPECT_STATUS(hc_award_list_count(NULL, award_list), HC_E_INVALID);
    EXPECT_STATUS(hc_award_list_get(NULL, award_list, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_award_list_get(&award, award_list, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_award_list_get(&award, award_list, count), HC_E_INVALID);
    EXPECT_STATUS(hc_award_list_get(&award, award_list, INT64_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_award_list_get(&award, award_list, 0), HC_OK);
    EXPECT(award->struct_size == sizeof(hc_award) && strcmp(award->id, "streak-3") == 0 && award->threshold == 3);
    EXPECT_STATUS(hc_award_list_count(&count, foreign_awards), HC_E_MISUSE);
    EXPECT_STATUS(hc_award_list_get(&award, NULL, 0), HC_E_MISUSE);
    hc_award_list_free(award_list);
    EXPECT_STATUS(hc_award_list_count(&count, award_list), HC_E_MISUSE); /* freed */
    hc_award_list_free(award_list);                                    /* twice: ignored */
    hc_award_list_free(NULL);
    hc_award_list_free(foreign_awards);
    EXPECT_STATUS(hc_referral_code(NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_referral_redeem(&id, store, NULL), HC_E_INVALID);
    EXPECT_STATUS(hc_referral_redeem(&id, store, ""), HC_E_INVALID);
    EXPECT_STATUS(hc_referral_redeem(&id, store, bad_utf8), HC_E_INVALID);
    EXPECT_STATUS(hc_referral_redeem(&id, store, "O0I1L0I1"), HC_E_INVALID); /* look-alikes are not in the alphabet */
    EXPECT_STATUS(hc_referral_redeem(&id, store, "ABCDEFGHJ"), HC_E_INVALID);
    EXPECT_STATUS(hc_referral_redeem(NULL, store, "abcd-efgh"), HC_OK);
    EXPECT_STATUS(hc_referral_redeem(&id, store, "ABCDEFGH"), HC_E_CONFLICT);
    hc_event_list *event_list = NULL;
    hc_event_list *foreign_events = (hc_event_list *)&foreign_object;
    const hc_event *event = NULL;
    EXPECT_STATUS(hc_event_list_read(NULL, store, 0, 10, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_event_list_read(&event_list, store, -1, 10, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_event_list_read(&event_list, store, 0, 0, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_event_list_read(&event_list, store, 0, INT64_MAX, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_event_list_read(&event_list, store, 0, 10, 0x80u), HC_E_INVALID);
    EXPECT_STATUS(hc_event_list_read(&event_list, store, INT64_MAX, 10, HC_EVENTS_ACK), HC_OK);
    EXPECT_STATUS(hc_event_list_count(&count, event_list), HC_OK);
    EXPECT(count == 0);
    EXPECT_STATUS(hc_event_list_get(&event, event_list, 0), HC_E_INVALID);
    hc_event_list_free(event_list);
    EXPECT_STATUS(hc_event_list_read(&event_list, store, 0, 10, HC_EVENTS_ACK), HC_OK);
    EXPECT_STATUS(hc_event_list_count(NULL, event_list), HC_E_INVALID);
    EXPECT_STATUS(hc_event_list_get(NULL, event_list, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_event_list_count(&count, event_list), HC_OK);
    int referral_events = 0;
    for (int64_t i = 0; i < count; i++) {
        EXPECT_STATUS(hc_event_list_get(&event, event_list, i), HC_OK);
        EXPECT(event->struct_size == sizeof(hc_event) && event->acknowledged == 1);
        if (event->kind == HC_EVENT_AWARD_UNLOCKED && strcmp(event->award_id, "referrals-1") == 0) referral_events++;
    }
    EXPECT(referral_events == 1);
    EXPECT_STATUS(hc_event_list_count(&count, foreign_events), HC_E_MISUSE);
    hc_event_list_free(event_list);
    EXPECT_STATUS(hc_event_list_get(&event, event_list, 0), HC_E_MISUSE); /* freed */
    hc_event_list_free(event_list);
    int64_t store_revision = -1;
    hc_change_list *change_list = NULL;
    hc_change_list *foreign_changes = (hc_change_list *)&foreign_object;
    const hc_change *change = NULL;
    EXPECT_STATUS(hc_store_revision(NULL, store), HC_E_INVALID);
    EXPECT_STATUS(hc_store_revision(&store_revision, NULL), HC_E_MISUSE);
    EXPECT_STATUS(hc_store_revision(&store_revision, store), HC_OK);
    EXPECT(store_revision > 0);
    EXPECT_STATUS(hc_change_list_read(NULL, store, 0, 10, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_change_list_read(&change_list, NULL, 0, 10, 0), HC_E_MISUSE);
    EXPECT_STATUS(hc_change_list_read(&change_list, store, -1, 10, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_change_list_read(&change_list, store, INT64_MIN, 10, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_change_list_read(&change_list, store, 0, 0, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_change_list_read(&change_list, store, 0, INT64_MAX, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_change_list_read(&change_list, store, 0, 10, 0x80u), HC_E_INVALID);
    EXPECT_STATUS(hc_change_list_read(&change_list, store, INT64_MAX, 10, HC_CHANGES_MERGED), HC_OK);
    EXPECT_STATUS(hc_change_list_count(&count, change_list), HC_OK);
    EXPECT(count == 0);
    EXPECT_STATUS(hc_change_list_get(&change, change_list, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_change_list_get(&change, change_list, -1), HC_E_INVALID);
    hc_change_list_free(change_list);
    EXPECT_STATUS(hc_change_list_read(&change_list, store, store_revision - 1, 10, 0), HC_OK);
    EXPECT_STATUS(hc_change_list_count(NULL, change_list), HC_E_INVALID);
    EXPECT_STATUS(hc_change_list_get(NULL, change_list, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_change_list_count(&count, change_list), HC_OK);
    EXPECT(count == 1);
    EXPECT_STATUS(hc_change_list_get(&change, change_list, 0), HC_OK);
    EXPECT(change->struct_size == sizeof(hc_change) && change->revision == store_revision);
    EXPECT(change->area >= HC_CHANGE_HABIT && change->area <= HC_CHANGE_SHIELD && change->first_day <= change->last_day);
    EXPECT_STATUS(hc_change_list_count(&count, foreign_changes), HC_E_MISUSE);
    EXPECT_STATUS(hc_change_list_count(&count, (hc_change_list *)event_list), HC_E_MISUSE); /* freed, and not a change list */
    hc_change_list_free(change_list);
    EXPECT_STATUS(hc_change_list_get(&change, change_list, 0), HC_E_MISUSE); /* freed */
    hc_change_list_free(change_list);
    hc_change_list_free(NULL);
    hc_event_list_free(NULL);

    /* Timers: not a duration habit, unknown ids, bad actions and instants, a list's misuse. */
    hc_timer_status timer = HC_TIMER_STATUS_INIT, odd_timer = HC_TIMER_STATUS_INIT;
    odd_timer.struct_size = 1000;
    int64_t timer_id = 0, timed_id = 0;
    EXPECT_STATUS(hc_timer_start(&timer_id, store, habit_id, 0, 0), HC_E_INVALID); /* not a duration habit */
    EXPECT_STATUS(hc_timer_start(&timer_id, NULL, habit_id, 0, 0), HC_E_MISUSE);
    EXPECT_STATUS(hc_timer_start(&timer_id, store, INT64_MAX, 0, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_timer_start(&timer_id, store, INT64_MIN, 0xFFFFFFFFu, INT64_MIN), HC_E_INVALID);
    hc_habit_options timed = HC_HABIT_OPTIONS_INIT;
    timed.kind = HC_KIND_DURATION;
    timed.name = "Hostile timer";
    timed.target = 60;
    EXPECT_STATUS(hc_habit_create(&timed_id, store, &timed), HC_OK);
    EXPECT_STATUS(hc_timer_start(&timer_id, store, timed_id, 0, INT64_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_start(NULL, store, timed_id, HC_TIMER_AUTO_COMPLETE, 0), HC_OK);
    EXPECT_STATUS(hc_timer_start(&timer_id, store, timed_id, 0, 0), HC_OK);
    EXPECT_STATUS(hc_timer_act(store, timer_id, INT32_MIN, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_act(store, timer_id, HC_TIMER_ACTION_START, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_act(store, timer_id, HC_TIMER_ACTION_STOP, INT64_MIN), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_act(store, timer_id, HC_TIMER_ACTION_STOP, 1), HC_E_INVALID); /* before the start */
    EXPECT_STATUS(hc_timer_act(store, INT64_MIN, HC_TIMER_ACTION_STOP, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_timer_act(NULL, timer_id, HC_TIMER_ACTION_STOP, 0), HC_E_MISUSE);
    EXPECT_STATUS(hc_timer_status_get(&odd_timer, store, timer_id, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_status_get(NULL, store, timer_id, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_status_get(&timer, store, INT64_MAX, 0), HC_E_NOT_FOUND);
    EXPECT_STATUS(hc_timer_status_get(&timer, store, timer_id, INT64_MAX), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_status_get(&timer, store, timer_id, 0), HC_OK);
    EXPECT(timer.state == HC_TIMER_RUNNING && timer.id == timer_id && timer.habit_id == timed_id);
    hc_timer_list *timers = NULL;
    const hc_timer_status *listed = NULL;
    EXPECT_STATUS(hc_timer_list_open(NULL, store, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_list_open(&timers, NULL, 0), HC_E_MISUSE);
    EXPECT_STATUS(hc_timer_list_open(&timers, store, INT64_MIN), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_list_open(&timers, store, 0), HC_OK);
    EXPECT_STATUS(hc_timer_list_count(&count, timers), HC_OK);
    EXPECT(count == 2);
    EXPECT_STATUS(hc_timer_list_count(NULL, timers), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_list_get(&listed, timers, 2), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_list_get(&listed, timers, -1), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_list_get(NULL, timers, 0), HC_E_INVALID);
    EXPECT_STATUS(hc_timer_list_get(&listed, timers, 1), HC_OK);
    EXPECT(listed->struct_size == sizeof(hc_timer_status) && listed->id == timer_id);
    EXPECT_STATUS(hc_timer_list_count(&count, (hc_timer_list *)&foreign_object), HC_E_MISUSE);
    hc_timer_list_free(timers);
    EXPECT_STATUS(hc_timer_list_get(&listed, timers, 0), HC_E_MISUSE); /* freed */
    hc_timer_list_free(timers);
    hc_timer_list_free(NULL);
    EXPECT_STATUS(hc_timer_act(store, timer_id, HC_TIMER_ACTION_STOP, 0), HC_OK);
    EXPECT_STATUS(hc_timer_act(store, timer_id, HC_TIMER_ACTION_STOP, 0), HC_E_CONFLICT);
    hc_event_list_free(foreign_events);

    /* Proofs: inputs, policies, verifiers, plugins, verdict lists. */
    {
        static const uint8_t png_bytes[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 1, 2, 3};
        char plain[4200]; /* a file that is neither executable nor a shared object */
        snprintf(plain, sizeof plain, "%s/plain.txt", argv[1]);
        FILE *file = fopen(plain, "w");
        EXPECT(file != NULL);
        if (file) { fputs("just text\n", file); fclose(file); }
        hc_proof_input proof = HC_PROOF_INPUT_INIT, odd_proof = HC_PROOF_INPUT_INIT;
        odd_proof.struct_size = 3;
        hc_proof_result proof_result = HC_PROOF_RESULT_INIT, odd_result = HC_PROOF_RESULT_INIT;
        odd_result.struct_size = 9999;
        proof.habit_id = habit_id;
        proof.bytes = png_bytes;
        proof.size = (int64_t)sizeof png_bytes;
        EXPECT_STATUS(hc_proof_submit(NULL, store, &proof), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_submit(&odd_result, store, &proof), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &odd_proof), HC_E_INVALID);
        proof.size = -1;
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID);
        proof.size = INT64_MAX;
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID);
        proof.size = (int64_t)sizeof png_bytes;
        proof.path = plain;
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID); /* both path and bytes */
        proof.bytes = NULL;
        proof.size = 0;
        proof.path = "/no/such/photo.jpg";
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_NOT_FOUND);
        proof.path = "/";
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID); /* a folder */
        proof.path = bad_utf8;
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID);
        proof.path = NULL;
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID); /* no evidence */
        proof.bytes = png_bytes;
        proof.size = (int64_t)sizeof png_bytes;
        proof.media_type = "not a type";
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID);
        proof.media_type = NULL;
        proof.metadata_json = "[1]";
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID);
        proof.metadata_json = NULL;
        proof.flags = 0x80u;
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID);
        proof.flags = 0;
        proof.taken_at_ms = -5;
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_INVALID);
        proof.taken_at_ms = 0;
        proof.habit_id = INT64_MAX;
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_E_NOT_FOUND);
        proof.habit_id = habit_id;
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_OK); /* no verifier: review */
        EXPECT(proof_result.outcome == HC_OUTCOME_NEEDS_REVIEW && proof_result.proof_id > 0);
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_OK); /* the same bytes again */
        EXPECT(proof_result.outcome == HC_OUTCOME_REJECTED && strcmp(proof_result.reason_code, "reused_evidence") == 0);
        int64_t rejected_proof = proof_result.proof_id;
        EXPECT_STATUS(hc_proof_review(&id, store, rejected_proof, HC_OUTCOME_APPROVED, "me", "looks fine"), HC_E_CONFLICT);
        EXPECT_STATUS(hc_proof_review(&id, store, rejected_proof - 1, HC_OUTCOME_NEEDS_REVIEW, "me", "?"), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_review(&id, store, rejected_proof - 1, HC_OUTCOME_APPROVED, NULL, "ok"), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_review(&id, store, rejected_proof - 1, HC_OUTCOME_APPROVED, "me", ""), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_review(&id, store, INT64_MAX, HC_OUTCOME_APPROVED, "me", "ok"), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_proof_review(&id, store, -1, HC_OUTCOME_APPROVED, "me", "ok"), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_proof_review(NULL, store, rejected_proof - 1, HC_OUTCOME_REJECTED, "me", "blurry"), HC_OK);

        hc_verdict_list *verdicts = NULL;
        hc_verdict_list *foreign_verdicts = (hc_verdict_list *)&foreign_object;
        const hc_verdict *verdict = NULL;
        EXPECT_STATUS(hc_verdict_list_open(NULL, store, 0, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_verdict_list_open(&verdicts, store, -1, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_verdict_list_open(&verdicts, store, INT64_MAX, 0), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_verdict_list_open(&verdicts, store, 0, INT64_MAX), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_verdict_list_open(&verdicts, store, habit_id, 0), HC_OK);
        EXPECT_STATUS(hc_verdict_list_count(&count, verdicts), HC_OK);
        EXPECT(count == 4); /* decision; built-in rejection + decision; review */
        EXPECT_STATUS(hc_verdict_list_count(NULL, verdicts), HC_E_INVALID);
        EXPECT_STATUS(hc_verdict_list_get(&verdict, verdicts, count), HC_E_INVALID);
        EXPECT_STATUS(hc_verdict_list_get(NULL, verdicts, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_verdict_list_get(&verdict, verdicts, count - 1), HC_OK);
        EXPECT(verdict->stage == HC_STAGE_REVIEW && strcmp(verdict->reviewer, "me") == 0 && strlen(verdict->sha256) == 64);
        EXPECT_STATUS(hc_verdict_list_count(&count, foreign_verdicts), HC_E_MISUSE);
        hc_verdict_list_free(verdicts);
        EXPECT_STATUS(hc_verdict_list_get(&verdict, verdicts, 0), HC_E_MISUSE); /* freed */
        hc_verdict_list_free(verdicts);
        hc_verdict_list_free(NULL);
        hc_verdict_list_free(foreign_verdicts);

        hc_proof_policy policy = HC_PROOF_POLICY_INIT, odd_policy = HC_PROOF_POLICY_INIT;
        odd_policy.struct_size = 1;
        EXPECT_STATUS(hc_proof_policy_set(store, 0, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &odd_policy), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_policy_set(store, -1, &policy), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_policy_set(store, INT64_MAX, &policy), HC_E_NOT_FOUND);
        policy.mode = 7;
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_E_INVALID);
        policy.mode = HC_POLICY_ANY;
        policy.approve_threshold = NAN;
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_E_INVALID);
        policy.approve_threshold = 0.5;
        policy.review_threshold = 0.9; /* above approval */
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_E_INVALID);
        policy.review_threshold = 0.4;
        policy.window_start = 600;
        policy.window_end = 2000;
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_E_INVALID);
        policy.window_start = INT32_MIN;
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_E_INVALID);
        policy.window_start = policy.window_end = -1;
        policy.one_per_day = 2;
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_E_INVALID);
        policy.one_per_day = 1;
        policy.verifiers = "good,,bad";
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_E_INVALID);
        policy.verifiers = "Not An Id";
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_E_INVALID);
        policy.verifiers = bad_utf8;
        EXPECT_STATUS(hc_proof_policy_set(store, 0, &policy), HC_E_INVALID);
        policy.verifiers = "missing-verifier";
        EXPECT_STATUS(hc_proof_policy_set(store, habit_id, &policy), HC_OK);
        proof.bytes = png_bytes;
        proof.size = 4; /* different bytes: not reused */
        EXPECT_STATUS(hc_proof_submit(&proof_result, store, &proof), HC_OK);
        EXPECT(proof_result.outcome == HC_OUTCOME_ERROR && strcmp(proof_result.reason_code, "unknown_verifier") == 0);

        EXPECT_STATUS(hc_verifier_register(store, NULL, "1", NULL, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_verifier_register(store, "", "1", NULL, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_verifier_register(store, "Bad Id", "1", NULL, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_verifier_register(store, "gone", bad_utf8, NULL, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_verifier_register(store, "gone", NULL, NULL, NULL), HC_OK); /* removing none */
        EXPECT_STATUS(hc_verifier_register_v2(store, NULL, "1", NULL, NULL, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_verifier_register_v2(store, "Bad Id", "1", NULL, NULL, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_verifier_register_v2(store, "gone", bad_utf8, NULL, NULL, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_verifier_register_v2(store, "gone", NULL, NULL, (void *)bad_utf8, NULL), HC_OK); /* removing none */

        EXPECT_STATUS(hc_plugin_add(&text, store, 9, "/bin/true", NULL, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_EXECUTABLE, NULL, NULL, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_EXECUTABLE, "/no/such/plugin", NULL, 0), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_EXECUTABLE, plain, NULL, 0), HC_E_INVALID); /* not executable */
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_EXECUTABLE, "/bin/true", "Bad Id", 0), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_EXECUTABLE, "/bin/true", NULL, -1), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_EXECUTABLE, "/bin/true", NULL, INT64_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_SHARED_OBJECT, plain, NULL, 0), HC_E_INVALID); /* not an ELF */
        EXPECT(strstr(hc_last_error_message(), plain) != NULL);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_SHARED_OBJECT, "/bin/true", "id", 0), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_SHARED_OBJECT_IN_PROCESS, plain, NULL, 0), HC_E_INVALID); /* not an ELF */
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_SHARED_OBJECT_IN_PROCESS, "/bin/true", NULL, 5), HC_E_INVALID); /* no timeout in-process */
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_SHARED_OBJECT, "/bin/true", NULL, -1), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_SHARED_OBJECT, "/bin/true", NULL, 600001), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_add(NULL, store, HC_PLUGIN_EXECUTABLE, "/bin/true", "truthful", 0), HC_OK);
        EXPECT_STATUS(hc_plugin_add(&text, store, HC_PLUGIN_EXECUTABLE, "/bin/true", "truthful", 0), HC_E_CONFLICT);
        EXPECT_STATUS(hc_plugin_list_json(NULL, store), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_list_json(&text, store), HC_OK);
        EXPECT(text && strstr(text, "\"truthful\""));
        hc_free(text);
        text = NULL;
        EXPECT_STATUS(hc_plugin_test(&proof_result, store, "truthful", plain), HC_OK);
        EXPECT(proof_result.outcome == HC_OUTCOME_ERROR); /* prints nothing: no verdict */
        EXPECT_STATUS(hc_plugin_test(NULL, store, "truthful", plain), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_test(&proof_result, store, "nobody", plain), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_plugin_test(&proof_result, store, "truthful", NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_configure(store, NULL, "{}"), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_configure(store, "nobody", "{}"), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_plugin_configure(store, "truthful", "[1]"), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_configure(store, "truthful", "{\"a\":"), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_configure(store, "truthful", bad_utf8), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_configure(store, "truthful", "{\"min_side\": 64}"), HC_OK);
        EXPECT_STATUS(hc_plugin_list_json(&text, store), HC_OK);
        EXPECT(text && strstr(text, "\"min_side\":64"));
        hc_free(text);
        text = NULL;
        EXPECT_STATUS(hc_plugin_configure(store, "truthful", NULL), HC_OK);
        EXPECT_STATUS(hc_plugin_remove(store, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_plugin_remove(store, "nobody"), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_plugin_remove(store, "truthful"), HC_OK);
    }

    /* Reminders: rules, quiet hours, windows, deliveries, snoozes, lists. */
    {
        hc_reminder_rule rule = HC_REMINDER_RULE_INIT, odd_rule = HC_REMINDER_RULE_INIT;
        hc_reminder_rule_list *rules = NULL, *foreign_rules = (hc_reminder_rule_list *)&foreign_object;
        hc_reminder_list *reminders = NULL, *foreign_reminders = (hc_reminder_list *)&foreign_object;
        const hc_reminder_rule *listed_rule = NULL;
        const hc_reminder *reminder = NULL;
        int64_t habit = 0, rule_id = 0;
        int32_t start = 0, end = 0, recorded = 0;
        hc_habit_options reminded = HC_HABIT_OPTIONS_INIT;
        reminded.name = "reminded";
        EXPECT_STATUS(hc_habit_create(&habit, store, &reminded), HC_OK);
        rule.habit_id = habit;
        rule.minute = 20 * 60;
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, NULL), HC_E_INVALID);
        odd_rule.struct_size = 5;
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &odd_rule), HC_E_INVALID);
        rule.minute = -1;
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &rule), HC_E_INVALID);
        rule.minute = INT32_MAX;
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &rule), HC_E_INVALID);
        rule.minute = 20 * 60;
        rule.weekdays = -1;
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &rule), HC_E_INVALID);
        rule.weekdays = 0x100;
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &rule), HC_E_INVALID);
        rule.weekdays = 0;
        rule.quiet = 0;
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &rule), HC_E_INVALID);
        rule.quiet = HC_QUIET_DROP;
        rule.message = bad_utf8;
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &rule), HC_E_INVALID);
        rule.message = "";
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &rule), HC_E_INVALID);
        rule.message = "time to move";
        rule.habit_id = -1;
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &rule), HC_E_NOT_FOUND);
        rule.habit_id = habit;
        EXPECT_STATUS(hc_reminder_rule_add(NULL, store, &rule), HC_OK);
        EXPECT_STATUS(hc_reminder_rule_add(&rule_id, store, &rule), HC_OK);
        EXPECT_STATUS(hc_reminder_rule_update(store, rule_id, NULL, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_update(store, rule_id, &rule, INT32_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_update(store, rule_id, &rule, -800000), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_update(store, -1, &rule, HC_DAY_NONE), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_reminder_rule_update(store, rule_id, &rule, HC_DAY_NONE), HC_OK);
        EXPECT_STATUS(hc_reminder_rule_remove(store, INT64_MAX, HC_DAY_NONE), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_reminder_rule_remove(store, rule_id, 0), HC_E_INVALID); /* 1970: already lived */
        EXPECT_STATUS(hc_reminder_rule_list_open(NULL, store, 0, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_list_open(&rules, store, -1, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_list_open(&rules, store, INT64_MAX, HC_DAY_NONE), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_reminder_rule_list_open(&rules, store, 0, INT32_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_list_open(&rules, store, habit, HC_DAY_NONE), HC_OK);
        EXPECT_STATUS(hc_reminder_rule_list_count(&count, rules), HC_OK);
        EXPECT(count == 2);
        EXPECT_STATUS(hc_reminder_rule_list_count(NULL, rules), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_list_get(NULL, rules, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_list_get(&listed_rule, rules, -1), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_list_get(&listed_rule, rules, 2), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_rule_list_get(&listed_rule, rules, 1), HC_OK);
        EXPECT(listed_rule->struct_size == sizeof(hc_reminder_rule) && listed_rule->id == rule_id &&
               strcmp(listed_rule->message, "time to move") == 0);
        EXPECT_STATUS(hc_reminder_rule_list_count(&count, foreign_rules), HC_E_MISUSE);
        hc_reminder_rule_list_free(rules);
        EXPECT_STATUS(hc_reminder_rule_list_count(&count, rules), HC_E_MISUSE); /* freed */
        hc_reminder_rule_list_free(rules);                                     /* twice: ignored */
        hc_reminder_rule_list_free(NULL);
        hc_reminder_rule_list_free(foreign_rules);
        EXPECT_STATUS(hc_store_set_quiet_hours(store, 60, 60, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_store_set_quiet_hours(store, -1, 60, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_store_set_quiet_hours(store, 0, 1440, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_store_set_quiet_hours(store, INT32_MIN, INT32_MAX, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_store_set_quiet_hours(store, 22 * 60, 7 * 60, INT32_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_store_set_quiet_hours(store, 22 * 60, 7 * 60, HC_DAY_NONE), HC_OK);
        EXPECT_STATUS(hc_store_quiet_hours(NULL, NULL, store, HC_DAY_NONE), HC_OK);
        EXPECT_STATUS(hc_store_quiet_hours(&start, &end, store, INT32_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_store_quiet_hours(&start, &end, store, HC_DAY_NONE), HC_OK);
        EXPECT(start == 22 * 60 && end == 7 * 60);
        EXPECT_STATUS(hc_reminder_list_open(NULL, store, 0, 1000, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, store, 1000, 1000, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, store, 1000, 0, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, store, INT64_MIN, INT64_MAX, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, store, INT64_MAX - 1, INT64_MAX, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, store, INT64_MIN, INT64_MIN + 1, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, store, 0, 1000, 0x80u), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, store, 0, 1000, HC_REMINDERS_PENDING | HC_REMINDERS_CLAIM), HC_OK);
        EXPECT_STATUS(hc_reminder_list_count(&count, reminders), HC_OK);
        EXPECT(count == 0);
        EXPECT_STATUS(hc_reminder_list_get(&reminder, reminders, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_count(NULL, reminders), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_get(NULL, reminders, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_list_count(&count, foreign_reminders), HC_E_MISUSE);
        hc_reminder_list_free(reminders);
        EXPECT_STATUS(hc_reminder_list_get(&reminder, reminders, 0), HC_E_MISUSE); /* freed */
        hc_reminder_list_free(reminders);
        hc_reminder_list_free(NULL);
        hc_reminder_list_free(foreign_reminders);
        EXPECT_STATUS(hc_reminder_fired(&recorded, store, -1, 0, 0), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_reminder_fired(&recorded, store, rule_id, INT32_MAX, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_fired(&recorded, store, rule_id, 0, INT64_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_fired(&recorded, store, rule_id, 0, INT64_MIN), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_fired(NULL, store, rule_id, 0, 0), HC_E_NOT_FOUND); /* 1970: nothing due */
        EXPECT_STATUS(hc_reminder_snooze(store, rule_id, 0, 0, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_snooze(store, rule_id, 0, INT64_MIN, INT64_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_snooze(store, rule_id, 0, INT64_MAX - 1, INT64_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_reminder_snooze(store, -1, 0, 0, 1000), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_reminder_snooze(store, rule_id, 0, 0, 1000), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_reminder_rule_remove(store, rule_id, HC_DAY_NONE), HC_OK);
    }

    /* Shields: rules, state, transitions, the revision, emergency unlocks. */
    {
        hc_shield_rule rule, odd_rule = HC_SHIELD_RULE_INIT;
        hc_shield_rule_list *rules = NULL, *foreign_rules = (hc_shield_rule_list *)&foreign_object;
        const hc_shield_rule *listed = NULL;
        hc_shield_status states[4];
        hc_shield_transition transitions[4];
        int64_t habit = 0, rule_id = 0, revision = 0, later = 0, unlock = 0;
        int64_t habits[2] = {0, 0};
        hc_habit_options shielded = HC_HABIT_OPTIONS_INIT;
        shielded.name = "shielded";
        EXPECT_STATUS(hc_habit_create(&habit, store, &shielded), HC_OK);
        EXPECT_STATUS(hc_shield_rule_init(NULL, sizeof(hc_shield_rule)), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_rule_init(&rule, 4), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_rule_init(&rule, sizeof(hc_shield_rule)), HC_OK);
        EXPECT(rule.struct_size == sizeof(hc_shield_rule) && rule.lift == HC_SHIELD_LIFT_ALL && rule.end_minute == HC_SHIELD_MIDNIGHT);
        habits[0] = habit;
        rule.name = "morning";
        rule.key = "apps";
        rule.habit_ids = habits;
        rule.habit_count = 1;
        rule.start_minute = 0;
        rule.end_minute = 9 * 60;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, NULL, HC_DAY_NONE), HC_E_INVALID);
        odd_rule.struct_size = 5;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &odd_rule, HC_DAY_NONE), HC_E_INVALID);
        rule.start_minute = 25 * 60; /* 25:00 */
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.start_minute = INT32_MIN;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.start_minute = 9 * 60; /* start == end */
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.start_minute = 0;
        rule.habit_count = 0; /* an empty list */
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.habit_count = -1;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.habit_count = INT64_MAX;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.habit_count = 1;
        rule.habit_ids = NULL;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.habit_ids = habits;
        habits[0] = INT64_MAX; /* an unknown habit */
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_NOT_FOUND);
        habits[0] = -5;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_NOT_FOUND);
        habits[0] = habit;
        habits[1] = habit;
        rule.habit_count = 2; /* a habit twice */
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.habit_count = 1;
        rule.budget_period = HC_SHIELD_BUDGET_WEEK;
        rule.budget_count = -1; /* a negative budget */
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.budget_count = 1;
        rule.budget_period = 7;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.budget_period = HC_SHIELD_BUDGET_WEEK;
        rule.lift = 0;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.lift = HC_SHIELD_LIFT_ANY;
        rule.cutoff_lifts = 2;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.cutoff_lifts = 1;
        rule.days = "weekly:3";
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.days = bad_utf8;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.days = "days:mon,fri";
        rule.name = NULL;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.name = "";
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.name = "morning";
        rule.key = NULL;
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_E_INVALID);
        rule.key = "apps";
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, INT32_MAX), HC_E_INVALID);
        /* Nothing was written by any refused call. */
        EXPECT_STATUS(hc_shield_rule_list_open(&rules, store, HC_DAY_NONE), HC_OK);
        EXPECT_STATUS(hc_shield_rule_list_count(&count, rules), HC_OK);
        EXPECT(count == 0);
        hc_shield_rule_list_free(rules);
        EXPECT_STATUS(hc_shield_rule_add(&rule_id, store, &rule, HC_DAY_NONE), HC_OK);
        EXPECT_STATUS(hc_shield_rule_update(store, rule_id, NULL, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_rule_update(store, -1, &rule, HC_DAY_NONE), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_shield_rule_update(store, rule_id, &rule, 0), HC_E_INVALID); /* 1970: already lived */
        EXPECT_STATUS(hc_shield_rule_update(store, rule_id, &rule, HC_DAY_NONE), HC_OK);
        EXPECT_STATUS(hc_shield_rule_remove(store, INT64_MAX, HC_DAY_NONE), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_shield_rule_list_open(NULL, store, HC_DAY_NONE), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_rule_list_open(&rules, store, INT32_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_rule_list_open(&rules, store, HC_DAY_NONE), HC_OK);
        EXPECT_STATUS(hc_shield_rule_list_count(&count, rules), HC_OK);
        EXPECT(count == 1);
        EXPECT_STATUS(hc_shield_rule_list_get(&listed, rules, 1), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_rule_list_get(NULL, rules, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_rule_list_get(&listed, rules, 0), HC_OK);
        EXPECT(listed->id == rule_id && listed->habit_count == 1 && listed->habit_ids[0] == habit &&
               strcmp(listed->days, "days:mon,fri") == 0 && strcmp(listed->name, "morning") == 0 && listed->lift == HC_SHIELD_LIFT_ANY);
        EXPECT_STATUS(hc_shield_rule_list_count(&count, foreign_rules), HC_E_MISUSE);
        hc_shield_rule_list_free(rules);
        EXPECT_STATUS(hc_shield_rule_list_count(&count, rules), HC_E_MISUSE); /* freed */
        hc_shield_rule_list_free(rules);
        hc_shield_rule_list_free(NULL);
        hc_shield_rule_list_free(foreign_rules);
        /* State and transitions: caller buffers, "how many?", bad ranges. */
        EXPECT_STATUS(hc_shield_state(NULL, 0, &count, &revision, store, 1800000000000), HC_OK);
        EXPECT(count == 1 && revision > 0);
        EXPECT_STATUS(hc_shield_state(NULL, 1, &count, NULL, store, 1800000000000), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_state(states, -1, &count, NULL, store, 1800000000000), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_state(states, 4, NULL, NULL, store, 1800000000000), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_state(states, 4, &count, NULL, store, INT64_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_state(states, 4, &count, NULL, store, INT64_MIN), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_state(states, 4, &count, NULL, store, 1800000000000), HC_OK);
        EXPECT(count == 1 && states[0].struct_size == sizeof(hc_shield_status) && states[0].rule_id == rule_id);
        EXPECT_STATUS(hc_shield_transitions(transitions, 4, &count, NULL, store, 1000, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_transitions(transitions, 4, &count, NULL, store, INT64_MIN, INT64_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_transitions(transitions, 4, &count, NULL, store, 1800000000000, 1800000000000 + 93LL * 86400000), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_transitions(NULL, 0, &count, &revision, store, 1800000000000, 1800000000000 + 14LL * 86400000), HC_OK);
        EXPECT(count == 8); /* two windows a week, opening and closing */
        EXPECT_STATUS(hc_shield_transitions(transitions, 4, &count, NULL, store, 1800000000000, 1800000000000 + 14LL * 86400000), HC_OK);
        EXPECT(count == 8 && transitions[0].at_ms < transitions[1].at_ms && transitions[0].shielded != transitions[1].shielded &&
               transitions[0].zone[0] != 0);
        EXPECT_STATUS(hc_shield_revision(NULL, store), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_revision(&later, store), HC_OK);
        EXPECT(later == revision);
        /* Emergency unlocks: bad minutes and reasons, then the budget of one a week. */
        EXPECT_STATUS(hc_shield_emergency_unlock(&unlock, store, -1, 10, NULL), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_shield_emergency_unlock(&unlock, store, rule_id, 0, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_emergency_unlock(&unlock, store, rule_id, 1441, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_emergency_unlock(&unlock, store, rule_id, INT32_MIN, NULL), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_emergency_unlock(&unlock, store, rule_id, 10, bad_utf8), HC_E_INVALID);
        EXPECT_STATUS(hc_shield_emergency_unlock(NULL, store, rule_id, 10, "late train"), HC_OK);
        EXPECT_STATUS(hc_shield_emergency_unlock(&unlock, store, rule_id, 10, NULL), HC_E_INSUFFICIENT);
        EXPECT_STATUS(hc_shield_revision(&later, store), HC_OK);
        EXPECT(later > revision);
        {
            char snapshot[4200];
            snprintf(snapshot, sizeof snapshot, "%s/shields.json", argv[1]);
            EXPECT_STATUS(hc_shield_snapshot_write(store, NULL, 0), HC_E_INVALID);
            EXPECT_STATUS(hc_shield_snapshot_write(store, "", 0), HC_E_INVALID);
            EXPECT_STATUS(hc_shield_snapshot_write(store, bad_utf8, 0), HC_E_INVALID);
            EXPECT_STATUS(hc_shield_snapshot_write(store, "/nonexistent-folder/x.json", 0), HC_E_IO);
            EXPECT_STATUS(hc_shield_snapshot_write(store, snapshot, INT64_MAX), HC_E_INVALID);
            EXPECT_STATUS(hc_shield_snapshot_write(store, snapshot, 0), HC_OK);
            EXPECT(access(snapshot, R_OK) == 0);
            snprintf(snapshot, sizeof snapshot, "%s/today.json", argv[1]);
            EXPECT_STATUS(hc_today_snapshot_write(store, NULL, 0), HC_E_INVALID);
            EXPECT_STATUS(hc_today_snapshot_write(store, "", 0), HC_E_INVALID);
            EXPECT_STATUS(hc_today_snapshot_write(store, bad_utf8, 0), HC_E_INVALID);
            EXPECT_STATUS(hc_today_snapshot_write(store, "/nonexistent-folder/x.json", 0), HC_E_IO);
            EXPECT_STATUS(hc_today_snapshot_write(store, snapshot, INT64_MAX), HC_E_INVALID);
            EXPECT_STATUS(hc_today_snapshot_write(store, snapshot, INT64_MIN), HC_E_INVALID);
            EXPECT_STATUS(hc_today_snapshot_write(store, snapshot, 253402300799000), HC_E_INVALID); /* 9999-12-31T23:59:59Z: no next day */
            EXPECT_STATUS(hc_today_snapshot_write(store, snapshot, 0), HC_OK);
            EXPECT(access(snapshot, R_OK) == 0);
        }
        EXPECT_STATUS(hc_shield_rule_remove(store, rule_id, HC_DAY_NONE), HC_OK);
        EXPECT_STATUS(hc_shield_emergency_unlock(&unlock, store, rule_id, 10, NULL), HC_E_CONFLICT);
    }

    /* Sync: bad buffers, bad states and hostile changesets; nothing written. */
    {
        uint8_t state[4096], replica[16], garbage[64];
        int64_t state_size = 0, size = 0;
        uint8_t *changes = NULL;
        char *before = NULL, *after = NULL;
        hc_sync_summary summary = HC_SYNC_SUMMARY_INIT;
        EXPECT_STATUS(hc_sync_summary_init(NULL, sizeof summary), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_summary_init(&summary, 4), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_summary_init(&summary, sizeof summary), HC_OK);
        memset(garbage, 0x41, sizeof garbage);
        EXPECT_STATUS(hc_sync_replica(replica, 16, &size, store), HC_OK);
        EXPECT(size == 16);
        EXPECT_STATUS(hc_sync_replica(replica, 16, NULL, store), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_state(NULL, 5, &size, store), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_state(state, -1, &size, store), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_state(state, sizeof state, &state_size, store), HC_OK);
        {
            uint8_t ids[32];
            int64_t seqs[2], listed = 0;
            EXPECT_STATUS(hc_sync_state_replicas(NULL, NULL, 0, &listed, state, state_size), HC_OK);
            EXPECT_STATUS(hc_sync_state_replicas(ids, seqs, 2, &listed, state, state_size), HC_OK);
            EXPECT_STATUS(hc_sync_state_replicas(NULL, seqs, 1, &listed, state, state_size), HC_E_INVALID);
            EXPECT_STATUS(hc_sync_state_replicas(ids, NULL, 1, &listed, state, state_size), HC_E_INVALID);
            EXPECT_STATUS(hc_sync_state_replicas(ids, seqs, -1, &listed, state, state_size), HC_E_INVALID);
            EXPECT_STATUS(hc_sync_state_replicas(ids, seqs, 2, NULL, state, state_size), HC_E_INVALID);
            EXPECT_STATUS(hc_sync_state_replicas(ids, seqs, 2, &listed, NULL, 5), HC_E_INVALID);
            EXPECT_STATUS(hc_sync_state_replicas(ids, seqs, 2, &listed, state, -1), HC_E_INVALID);
            EXPECT_STATUS(hc_sync_state_replicas(ids, seqs, 2, &listed, garbage, sizeof garbage), HC_E_INVALID);
            EXPECT_STATUS(hc_sync_state_replicas(ids, seqs, 2, &listed, state, INT64_MAX), HC_E_INVALID);
            EXPECT_STATUS(hc_sync_state_replicas(ids, seqs, INT64_MAX, &listed, state, state_size), HC_E_INVALID);
        }
        EXPECT_STATUS(hc_sync_changes(NULL, &size, store, NULL, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_changes(&changes, NULL, store, NULL, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_changes(&changes, &size, store, NULL, 5), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_changes(&changes, &size, store, state, -1), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_changes(&changes, &size, store, garbage, sizeof garbage), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_changes(&changes, &size, store, state, INT64_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_changes_v2(NULL, &size, store, NULL, 0, 0), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_changes_v2(&changes, &size, store, garbage, sizeof garbage, HC_SYNC_EVIDENCE), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_changes_v2(&changes, &size, store, NULL, 0, 0xFFFFFFFFu), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_changes_v2(&changes, &size, store, NULL, 0, HC_SYNC_EVIDENCE), HC_OK);
        hc_free(changes);
        changes = NULL;
        EXPECT_STATUS(hc_proof_evidence(NULL, 5, &size, store, 1), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_evidence(replica, -1, &size, store, 1), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_evidence(replica, 16, NULL, store, 1), HC_E_INVALID);
        EXPECT_STATUS(hc_proof_evidence(replica, 16, &size, store, INT64_MIN), HC_E_NOT_FOUND);
        EXPECT_STATUS(hc_sync_changes(&changes, &size, store, NULL, 0), HC_OK);
        EXPECT(changes != NULL && size > 16);
        EXPECT_STATUS(hc_sync_canonical(NULL, store), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_canonical(&before, store), HC_OK);
        EXPECT_STATUS(hc_sync_apply(&summary, store, NULL, 10), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_apply(&summary, store, changes, -1), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_apply(&summary, store, changes, INT64_MAX), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_apply(&summary, store, garbage, sizeof garbage), HC_E_INVALID);
        EXPECT_STATUS(hc_sync_apply(&summary, store, changes, size - 1), HC_E_INVALID);
        changes[size / 2] ^= 0x10;
        EXPECT_STATUS(hc_sync_apply(&summary, store, changes, size), HC_E_INVALID);
        changes[size / 2] ^= 0x10;
        summary.struct_size = 3;
        EXPECT_STATUS(hc_sync_apply(&summary, store, changes, size), HC_E_INVALID);
        summary.struct_size = sizeof summary;
        EXPECT_STATUS(hc_sync_apply(&summary, store, changes, size), HC_OK); /* its own ops: nothing new */
        EXPECT(summary.ops_received > 0 && summary.ops_new == 0 && summary.ops_applied == 0);
        EXPECT_STATUS(hc_sync_apply(NULL, store, changes, size), HC_OK);
        EXPECT_STATUS(hc_sync_canonical(&after, store), HC_OK);
        EXPECT(before && after && strcmp(before, after) == 0);
        hc_free(before);
        hc_free(after);
        hc_free(changes);
    }

    /* Read-only stores refuse writes with their own code. */
    EXPECT_STATUS(hc_store_close(store), HC_OK);
    EXPECT_STATUS(hc_store_open(&store, path, HC_OPEN_READONLY), HC_OK);
    options.name = "read only";
    EXPECT_STATUS(hc_habit_create(&id, store, &options), HC_E_READONLY);
    EXPECT_STATUS(hc_store_set_day_start(store, 60), HC_E_READONLY);
    EXPECT_STATUS(hc_store_begin(store), HC_E_READONLY);
    EXPECT_STATUS(hc_vacation_add(&id, store, 0, 0, 1), HC_E_READONLY);
    EXPECT_STATUS(hc_store_set_week_start(store, 0), HC_E_READONLY);
    EXPECT_STATUS(hc_credit_sync_steps(&sync, store, 0, HC_DAY_NONE, 5000), HC_E_READONLY);
    EXPECT_STATUS(hc_credit_spend(&id, store, 0, 1, NULL, 0), HC_E_READONLY);
    EXPECT_STATUS(hc_award_catalog_reset(store), HC_E_READONLY);
    EXPECT_STATUS(hc_award_evaluate(&award_list, store, HC_DAY_NONE), HC_E_READONLY);
    EXPECT_STATUS(hc_referral_code(&text, store), HC_E_READONLY); /* none made yet */
    EXPECT_STATUS(hc_event_list_read(&event_list, store, 0, 10, HC_EVENTS_ACK), HC_E_READONLY);
    EXPECT_STATUS(hc_event_list_read(&event_list, store, 0, 10, 0), HC_OK);
    hc_event_list_free(event_list);
    {
        uint8_t empty_changeset[] = {'H', 'C', 'S', 'Y', 1, 0, 0, 0, 0x53, 0xd9, 0x1c, 0xed};
        hc_sync_summary summary = HC_SYNC_SUMMARY_INIT;
        EXPECT_STATUS(hc_sync_apply(&summary, store, empty_changeset, sizeof empty_changeset), HC_E_READONLY);
    }
    {
        hc_reminder_rule rule = HC_REMINDER_RULE_INIT;
        hc_reminder_list *reminders = NULL;
        int32_t recorded = 0;
        rule.habit_id = 1;
        EXPECT_STATUS(hc_reminder_rule_add(&id, store, &rule), HC_E_READONLY);
        EXPECT_STATUS(hc_store_set_quiet_hours(store, -1, -1, HC_DAY_NONE), HC_E_READONLY);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, store, 0, 1000, HC_REMINDERS_CLAIM), HC_E_READONLY);
        EXPECT_STATUS(hc_reminder_list_open(&reminders, store, 0, 1000, HC_REMINDERS_PENDING), HC_OK);
        hc_reminder_list_free(reminders);
        EXPECT_STATUS(hc_reminder_fired(&recorded, store, 1, 0, 0), HC_E_READONLY);
    }
    EXPECT_STATUS(hc_store_close(store), HC_OK);

    if (failures) {
        fprintf(stderr, "%d hostile-input checks failed\n", failures);
        return 1;
    }
    puts("all hostile-input checks passed");
    return 0;
}
