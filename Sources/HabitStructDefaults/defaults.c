/* What the header states as macros, as functions: the hc_<struct>_init
 * initialisers copy their HC_<STRUCT>_INIT macro, and the version calls return
 * the version macros, so each default and the version are written once, in
 * include/habitcore.h. C, because Swift cannot expand these macros. */
#include <stddef.h>
#include <string.h>

#include "habitcore.h"

/* Records the thread's error message (Sources/HabitCoreABI/Errors.swift); not exported. */
int32_t habitcore_internal_fail(int32_t status, const char *message);

int32_t hc_version_number(void) { return HC_VERSION_NUMBER; }

const char *hc_version_string(void) { return HC_VERSION_STRING; }

/* Copies defaults (known bytes: this library's sizeof) into the caller's
 * struct_size bytes. Bytes past what this library knows are a newer caller's
 * fields: zeroed. A size below the struct's first release cannot be a real one. */
static int32_t fill(const char *function, void *out, uint32_t struct_size, const void *defaults, size_t known,
                    size_t first_release) {
    if (out == NULL) return habitcore_internal_fail(HC_E_INVALID, function);
    if (struct_size < first_release) return habitcore_internal_fail(HC_E_INVALID, function);
    memset(out, 0, struct_size);
    memcpy(out, defaults, struct_size < known ? struct_size : known);
    memcpy(out, &struct_size, sizeof struct_size); /* struct_size: the caller's */
    return HC_OK;
}

/* first_release: the struct's size in the release that introduced it. */
#define HC_DEFINE_INIT(type, macro, first_release)                                               \
    int32_t type##_init(type *out, uint32_t struct_size) {                                       \
        static const type defaults = macro;                                                      \
        return fill(#type "_init: out is NULL or struct_size is below the struct's first size", \
                    out, struct_size, &defaults, sizeof defaults, first_release);                \
    }

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
