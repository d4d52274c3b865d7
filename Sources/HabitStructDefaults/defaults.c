/* What the header states as macros, as functions: the hc_<struct>_init
 * initialisers copy their HC_<STRUCT>_INIT macro, and the version calls return
 * the version macros, so each default and the version are written once, in
 * include/habitcore.h. C, because Swift cannot expand these macros. */
#include <stddef.h>

#include "habitcore.h"

/* Records the thread's error message (Sources/HabitCoreABI/Errors.swift); not exported. */
int32_t habitcore_internal_fail(int32_t status, const char *message);

#define HC_DEFAULTS_FAIL habitcore_internal_fail
#include "struct_defaults.h"

int32_t hc_version_number(void) { return HC_VERSION_NUMBER; }

const char *hc_version_string(void) { return HC_VERSION_STRING; }

HC_DEFINE_INIT(hc_habit_options, HC_HABIT_OPTIONS_INIT, offsetof(hc_habit_options, description))
HC_DEFINE_INIT(hc_entry_input, HC_ENTRY_INPUT_INIT, offsetof(hc_entry_input, key))
HC_DEFINE_INIT(hc_streak_result, HC_STREAK_RESULT_INIT, offsetof(hc_streak_result, current_forgiven))
HC_DEFINE_INIT(hc_habit_rules, HC_HABIT_RULES_INIT, sizeof(hc_habit_rules))
HC_DEFINE_INIT(hc_streak_policy, HC_STREAK_POLICY_INIT, sizeof(hc_streak_policy))
HC_DEFINE_INIT(hc_completion, HC_COMPLETION_INIT, offsetof(hc_completion, current_kept))
HC_DEFINE_INIT(hc_group_day, HC_GROUP_DAY_INIT, sizeof(hc_group_day))
HC_DEFINE_INIT(hc_measurement_stats, HC_MEASUREMENT_STATS_INIT, sizeof(hc_measurement_stats))
HC_DEFINE_INIT(hc_step_sync, HC_STEP_SYNC_INIT, sizeof(hc_step_sync))
HC_DEFINE_INIT(hc_credit_day, HC_CREDIT_DAY_INIT, offsetof(hc_credit_day, refunded))
HC_DEFINE_INIT(hc_unlock_state, HC_UNLOCK_STATE_INIT, sizeof(hc_unlock_state))
HC_DEFINE_INIT(hc_proof_input, HC_PROOF_INPUT_INIT, sizeof(hc_proof_input))
HC_DEFINE_INIT(hc_proof_result, HC_PROOF_RESULT_INIT, sizeof(hc_proof_result))
HC_DEFINE_INIT(hc_proof_policy, HC_PROOF_POLICY_INIT, sizeof(hc_proof_policy))
HC_DEFINE_INIT(hc_reminder_rule, HC_REMINDER_RULE_INIT, sizeof(hc_reminder_rule))
HC_DEFINE_INIT(hc_shield_rule, HC_SHIELD_RULE_INIT, sizeof(hc_shield_rule))
HC_DEFINE_INIT(hc_sync_summary, HC_SYNC_SUMMARY_INIT, offsetof(hc_sync_summary, ops_forked))
HC_DEFINE_INIT(hc_quit_status, HC_QUIT_STATUS_INIT, sizeof(hc_quit_status))
HC_DEFINE_INIT(hc_timer_status, HC_TIMER_STATUS_INIT, sizeof(hc_timer_status))
