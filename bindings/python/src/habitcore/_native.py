"""The raw layer: include/habitcore.h as ctypes declarations, and the library loader.

Every struct here mirrors the header's layout field for field (tests/test_layout.py
compares offsets and sizes with a C compiler's); every function gets its restype and
argtypes. Nothing above this module touches ctypes' loader.
"""
from __future__ import annotations

import ctypes
import os
from pathlib import Path
from typing import Any

ABI_VERSION = 2
"""The HC_ABI_VERSION this binding was written for (habitcore 1.0)."""
SYNC_EVIDENCE = 0x1
"""hc_sync_changes_v2's HC_SYNC_EVIDENCE."""

DAY_NONE = -2147483648

u32, i32, i64, f64 = ctypes.c_uint32, ctypes.c_int32, ctypes.c_int64, ctypes.c_double
ptr, text = ctypes.c_void_p, ctypes.c_char_p
u8p = ctypes.POINTER(ctypes.c_uint8)


class HabitOptions(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kind", i32), ("name", text), ("target", f64), ("direction", i32),
                ("routine", i32), ("group_name", text), ("unit", text), ("schedule", text), ("start_day", i32),
                ("proof_required", i32),
                # 1.1: the display fields.
                ("description", text), ("question", text), ("colour", text), ("icon", text), ("position", i64)]


class Habit(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kind", i32), ("id", i64), ("name", text), ("target", f64),
                ("direction", i32), ("routine", i32), ("group_name", text), ("unit", text), ("schedule", text),
                ("start_day", i32), ("proof_required", i32), ("archived_day", i32), ("created_at_ms", i64),
                # 1.1: the display fields.
                ("description", text), ("question", text), ("colour", text), ("icon", text), ("position", i64)]


class EntryInput(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kind", i32), ("habit_id", i64), ("day", i32), ("source", i32),
                ("value", f64), ("at_ms", i64), ("note", text), ("key", text)]


class Entry(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kind", i32), ("id", i64), ("habit_id", i64), ("day", i32), ("source", i32),
                ("value", f64), ("recorded_at_ms", i64), ("undoes", i64), ("undone_by", i64), ("note", text)]


class DayState(ctypes.Structure):
    _fields_ = [("day", i32), ("flags", u32), ("value", f64), ("entry_count", i32), ("reserved", i32)]


class Streak(ctypes.Structure):
    _fields_ = [("first_day", i32), ("last_day", i32), ("length", i32), ("excused_days", i32)]


class StreakResult(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("unit", i32), ("current", Streak), ("longest", Streak),
                ("current_forgiven", i32), ("longest_forgiven", i32)]


class HabitRules(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kind", i32), ("target", f64), ("direction", i32), ("start_day", i32),
                ("schedule", text), ("week_start", i32)]


class Vacation(ctypes.Structure):
    _fields_ = [("id", i64), ("habit_id", i64), ("from_day", i32), ("to_day", i32)]


class StreakPolicy(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("miss_allowance", i32), ("open_day", i32), ("off_days", i32)]


class DayScore(ctypes.Structure):
    _fields_ = [("day", i32), ("due", i32), ("done", i32), ("excused", i32), ("score", f64)]


class Completion(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kept", i32), ("judged", i32), ("excused", i32), ("rate", f64),
                ("current_kept", i32), ("current_required", i32), ("rate_with_current", f64)]


class QuotaProgress(ctypes.Structure):
    _fields_ = [("habit_id", i64), ("period_first", i32), ("done", i32), ("required", i32), ("met", i32)]


class GroupDay(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("day", i32), ("due", i32), ("done", i32), ("excused", i32), ("quota_habits", i32),
                ("rate", f64), ("quota_met", i32), ("all_due", i32), ("all_done", i32), ("all_excused", i32),
                ("all_rate", f64)]


class DueItem(ctypes.Structure):
    _fields_ = [("habit_id", i64), ("routine", i32), ("state", i32), ("value", f64), ("target", f64)]


class MeasurementStats(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("count", i32), ("latest_day", i32), ("latest", f64), ("best_day", i32),
                ("best", f64), ("change", f64)]


class CreditRule(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kind", i32), ("id", i64), ("account_id", i64), ("habit_id", i64),
                ("value", i64), ("from_day", i32), ("reserved", i32)]


class StepSync(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("day", i32), ("steps", i64), ("earned_now", i64), ("day_earned", i64)]


class CreditDay(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("day", i32), ("steps", i64), ("carried_in", i64), ("earned", i64),
                ("spent", i64), ("adjusted", i64), ("expired", i64), ("available", i64), ("refunded", i64)]


class UnlockState(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("active", i32), ("session_id", i64), ("start_ms", i64), ("until_ms", i64)]


class CreditEntry(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kind", i32), ("id", i64), ("account_id", i64), ("minutes", i64),
                ("day", i32), ("cause", i32), ("at_ms", i64), ("cause_id", i64), ("habit_id", i64), ("steps", i64),
                ("reason", text)]


class Award(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("metric", i32), ("id", text), ("title", text), ("description", text),
                ("icon", text), ("tier", i32), ("scope", i32), ("habit_id", i64), ("threshold", i64), ("value", i64),
                ("unlocked", i32), ("unlocked_day", i32), ("unlocked_at_ms", i64), ("cause_kind", i32),
                ("reserved", i32), ("cause_id", i64), ("cause_habit_id", i64)]


class Event(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kind", i32), ("id", i64), ("at_ms", i64), ("day", i32),
                ("acknowledged", i32), ("habit_id", i64), ("entry_id", i64), ("value", f64), ("award_id", text)]


class PluginEvidence(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("reserved", i32), ("path", text), ("bytes", u8p), ("size", i64),
                ("media_type", text), ("sha256", text), ("taken_at_ms", i64), ("received_at_ms", i64),
                ("habit_id", i64), ("habit_name", text), ("metadata_json", text),
                # since 0.2: read only when struct_size covers them
                ("proof_id", i64), ("day", i32), ("utc_offset_s", i32), ("day_start_minutes", i32),
                ("reserved2", i32), ("config_json", text), ("session", ptr)]


class PluginVerdict(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("outcome", i32), ("confidence", f64), ("reason_code", ctypes.c_char * 64),
                ("message", ctypes.c_char * 512), ("signals", ctypes.c_char * 512)]


class ProofInput(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("flags", u32), ("habit_id", i64), ("path", text), ("bytes", u8p),
                ("size", i64), ("media_type", text), ("taken_at_ms", i64), ("metadata_json", text)]


class ProofResult(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("outcome", i32), ("proof_id", i64), ("entry_id", i64), ("confidence", f64),
                ("day", i32), ("reserved", i32), ("reason_code", ctypes.c_char * 64), ("message", ctypes.c_char * 512)]


class Verdict(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("outcome", i32), ("id", i64), ("proof_id", i64), ("habit_id", i64),
                ("stage", i32), ("day", i32), ("confidence", f64), ("duration_us", i64), ("at_ms", i64),
                ("entry_id", i64), ("verifier_id", text), ("verifier_version", text), ("reason_code", text),
                ("message", text), ("signals", text), ("reviewer", text), ("sha256", text)]


class ProofPolicy(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("mode", i32), ("approve_threshold", f64), ("review_threshold", f64),
                ("window_start", i32), ("window_end", i32), ("one_per_day", i32), ("reserved", i32),
                ("verifiers", text)]


class ReminderRule(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("minute", i32), ("id", i64), ("habit_id", i64), ("weekdays", i32),
                ("quiet", i32), ("from_day", i32), ("reserved", i32), ("message", text)]


class Reminder(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("kind", i32), ("at_ms", i64), ("habit_id", i64), ("rule_id", i64),
                ("day", i32), ("local_minute", i32), ("original_ms", i64), ("deferred", i32), ("fired", i32),
                ("message", text)]


class SyncSummary(ctypes.Structure):
    _fields_ = [("struct_size", u32), ("ops_received", i64), ("ops_new", i64), ("ops_applied", i64), ("ops_superseded", i64),
                ("ops_waiting", i64), ("habits_changed", i64), ("entries_added", i64), ("vacations_changed", i64),
                ("settings_changed", i64), ("proofs_changed", i64), ("credits_changed", i64), ("ops_forked", i64)]


# The header's structs by C name, for the layout test.
STRUCTS: dict[str, type[ctypes.Structure]] = {
    "hc_habit_options": HabitOptions, "hc_habit": Habit, "hc_entry_input": EntryInput, "hc_entry": Entry,
    "hc_day_state": DayState, "hc_streak": Streak, "hc_streak_result": StreakResult, "hc_habit_rules": HabitRules,
    "hc_vacation": Vacation, "hc_streak_policy": StreakPolicy, "hc_day_score": DayScore,
    "hc_completion": Completion, "hc_quota_progress": QuotaProgress, "hc_group_day": GroupDay, "hc_due_item": DueItem, "hc_measurement_stats": MeasurementStats,
    "hc_credit_rule": CreditRule, "hc_step_sync": StepSync, "hc_credit_day": CreditDay,
    "hc_unlock_state": UnlockState, "hc_credit_entry": CreditEntry, "hc_award": Award, "hc_event": Event,
    "hc_plugin_evidence": PluginEvidence, "hc_plugin_verdict": PluginVerdict, "hc_proof_input": ProofInput,
    "hc_proof_result": ProofResult, "hc_verdict": Verdict, "hc_proof_policy": ProofPolicy,
    "hc_reminder_rule": ReminderRule, "hc_reminder": Reminder, "hc_sync_summary": SyncSummary,
}

# int32_t (*hc_verify_callback)(const hc_plugin_evidence *, hc_plugin_verdict *, void *user_data)
VERIFY_CALLBACK = ctypes.CFUNCTYPE(i32, ctypes.POINTER(PluginEvidence), ctypes.POINTER(PluginVerdict), ptr)
# void (*hc_release_callback)(void *user_data)
RELEASE_CALLBACK = ctypes.CFUNCTYPE(None, ptr)


def _p(struct: Any) -> Any:
    return ctypes.POINTER(struct)


def _pp(struct: Any) -> Any:
    return ctypes.POINTER(ctypes.POINTER(struct))


I32P, I64P, F64P, PTRP = _p(i32), _p(i64), _p(f64), _p(ptr)

# name: (restype, argtypes), in the header's order.
SIGNATURES: dict[str, tuple[Any, list[Any]]] = {
    "hc_version_number": (i32, []),
    "hc_version_string": (text, []),
    "hc_abi_version": (i32, []),
    "hc_status_string": (text, [i32]),
    "hc_last_error_message": (text, []),
    "hc_free": (None, [ptr]),
    "hc_date_parse": (i32, [I32P, text]),
    "hc_date_format": (i32, [ctypes.c_char_p, i32, i32]),
    # store
    "hc_store_open": (i32, [PTRP, text, u32]),
    "hc_store_close": (i32, [ptr]),
    "hc_store_errmsg": (text, [ptr]),
    "hc_store_schema_version": (i32, [I32P, ptr]),
    "hc_store_set_timezone": (i32, [ptr, text]),
    "hc_store_timezone": (i32, [PTRP, ptr]),
    "hc_store_set_day_start": (i32, [ptr, i32]),
    "hc_store_day_start": (i32, [I32P, ptr]),
    "hc_store_local_day": (i32, [I32P, ptr, i64]),
    "hc_store_today": (i32, [I32P, ptr]),
    "hc_store_utc_ms": (i32, [I64P, ptr, i32, i32]),
    "hc_store_begin": (i32, [ptr]),
    "hc_store_commit": (i32, [ptr]),
    "hc_store_rollback": (i32, [ptr]),
    "hc_store_export": (i32, [PTRP, ptr, i32]),
    "hc_store_import": (i32, [ptr, text, i32]),
    "hc_store_import_loop_csv": (i32, [ptr, text, text]),
    # habits
    "hc_habit_options_init": (i32, [_p(HabitOptions), u32]),
    "hc_habit_create": (i32, [I64P, ptr, _p(HabitOptions)]),
    "hc_habit_get": (i32, [_pp(Habit), ptr, i64]),
    "hc_habit_find": (i32, [_pp(Habit), ptr, text]),
    "hc_habit_free": (None, [_p(Habit)]),
    "hc_habit_update": (i32, [ptr, i64, _p(HabitOptions), u32]),
    "hc_habit_archive": (i32, [ptr, i64, i32]),
    "hc_habit_update_from": (i32, [ptr, i64, _p(HabitOptions), u32, i32, _p(ctypes.c_int32), _p(ctypes.c_int32)]),
    "hc_habit_archive_from": (i32, [ptr, i64, i32, i32, _p(ctypes.c_int32), _p(ctypes.c_int32)]),
    "hc_habit_list_open": (i32, [PTRP, ptr, u32]),
    "hc_habit_list_count": (i32, [I64P, ptr]),
    "hc_habit_list_get": (i32, [_pp(Habit), ptr, i64]),
    "hc_habit_list_free": (None, [ptr]),
    # ledger
    "hc_entry_input_init": (i32, [_p(EntryInput), u32]),
    "hc_entry_append": (i32, [I64P, ptr, _p(EntryInput)]),
    "hc_entry_undo": (i32, [I64P, ptr, i64]),
    "hc_entry_undo_last": (i32, [I64P, ptr, i64, i32]),
    "hc_entry_list_open": (i32, [PTRP, ptr, i64, i32, i32]),
    "hc_entry_list_count": (i32, [I64P, ptr]),
    "hc_entry_list_get": (i32, [_pp(Entry), ptr, i64]),
    "hc_entry_list_free": (None, [ptr]),
    "hc_habit_day_total": (i32, [F64P, ptr, i64, i32]),
    "hc_habit_day_states": (i32, [_p(DayState), i64, I64P, ptr, i64, i32, i32]),
    # streaks, strength, scores
    "hc_streak_result_init": (i32, [_p(StreakResult), u32]),
    "hc_habit_rules_init": (i32, [_p(HabitRules), u32]),
    "hc_store_set_week_start": (i32, [ptr, i32]),
    "hc_store_week_start": (i32, [I32P, ptr]),
    "hc_vacation_add": (i32, [I64P, ptr, i64, i32, i32]),
    "hc_vacation_remove": (i32, [ptr, i64]),
    "hc_vacation_list": (i32, [_p(Vacation), i64, I64P, ptr]),
    "hc_habit_streaks": (i32, [_p(StreakResult), _p(Streak), i64, I64P, ptr, i64, i32]),
    "hc_streak_compute": (i32, [_p(StreakResult), _p(Streak), i64, I64P, _p(HabitRules), _p(DayState), i64, i32]),
    "hc_store_streaks": (i32, [_p(StreakResult), _p(StreakResult), ptr, i32]),
    "hc_streak_policy_init": (i32, [_p(StreakPolicy), u32]),
    "hc_store_set_streak_policy": (i32, [ptr, _p(StreakPolicy)]),
    "hc_store_streak_policy": (i32, [_p(StreakPolicy), ptr]),
    "hc_habit_set_streak_policy": (i32, [ptr, i64, _p(StreakPolicy)]),
    "hc_habit_streak_policy": (i32, [_p(StreakPolicy), ptr, i64, u32]),
    "hc_streak_compute_with_policy": (i32, [_p(StreakResult), _p(Streak), i64, I64P, _p(HabitRules),
                                            _p(StreakPolicy), _p(DayState), i64, i32]),
    "hc_store_day_scores": (i32, [_p(DayScore), i64, I64P, ptr, i32, i32]),
    "hc_habit_strength": (i32, [F64P, i64, I64P, ptr, i64, i32, i32]),
    "hc_strength_compute": (i32, [F64P, i64, I64P, _p(HabitRules), _p(DayState), i64, i32, i32]),
    "hc_completion_init": (i32, [_p(Completion), u32]),
    "hc_habit_completion": (i32, [_p(Completion), ptr, i64, i32, i32]),
    "hc_group_completion": (i32, [_p(Completion), _p(Completion), ptr, text, i32, i32, i32]),
    "hc_group_day_init": (i32, [_p(GroupDay), u32]),
    "hc_group_day_rates": (i32, [_p(GroupDay), _p(QuotaProgress), i64, I64P, ptr, text, i32]),
    "hc_store_due": (i32, [_p(DueItem), i64, I64P, ptr, i32]),
    "hc_store_set_routine_bounds": (i32, [ptr, i32, i32, i32]),
    "hc_store_routine_bounds": (i32, [I32P, I32P, I32P, ptr]),
    "hc_store_routine_at": (i32, [I32P, ptr, i64]),
    "hc_measurement_stats_init": (i32, [_p(MeasurementStats), u32]),
    "hc_habit_measurements": (i32, [_p(MeasurementStats), ptr, i64, i32, i32]),
    # credits
    "hc_credit_account_create": (i32, [I64P, ptr, text]),
    "hc_credit_account_find": (i32, [I64P, ptr, text]),
    "hc_credit_rule_set": (i32, [I64P, ptr, i64, i32, i64, i64, i32]),
    "hc_credit_rule_list": (i32, [_p(CreditRule), i64, I64P, ptr, i64]),
    "hc_step_sync_init": (i32, [_p(StepSync), u32]),
    "hc_credit_sync_steps": (i32, [_p(StepSync), ptr, i64, i32, i64]),
    "hc_credit_spend": (i32, [I64P, ptr, i64, i64, text, u32]),
    "hc_credit_adjust": (i32, [I64P, ptr, i64, i64, text]),
    "hc_credit_day_init": (i32, [_p(CreditDay), u32]),
    "hc_credit_day_summary": (i32, [_p(CreditDay), ptr, i64, i32]),
    "hc_credit_balance": (i32, [I64P, ptr, i64]),
    "hc_unlock_state_init": (i32, [_p(UnlockState), u32]),
    "hc_credit_unlock_state": (i32, [_p(UnlockState), ptr, i64, i64]),
    "hc_credit_session_end": (i32, [I64P, ptr, i64, i64]),
    "hc_credit_list_open": (i32, [PTRP, ptr, i64, i32, i32]),
    "hc_credit_list_count": (i32, [I64P, ptr]),
    "hc_credit_list_get": (i32, [_pp(CreditEntry), ptr, i64]),
    "hc_credit_list_free": (None, [ptr]),
    # awards, referrals, events
    "hc_award_catalog_load": (i32, [ptr, text]),
    "hc_award_catalog_reset": (i32, [ptr]),
    "hc_award_catalog_json": (i32, [PTRP, ptr]),
    "hc_award_evaluate": (i32, [PTRP, ptr, i32]),
    "hc_award_list_open_unlocked": (i32, [PTRP, ptr]),
    "hc_award_list_open_progress": (i32, [PTRP, ptr, i32]),
    "hc_award_list_count": (i32, [I64P, ptr]),
    "hc_award_list_get": (i32, [_pp(Award), ptr, i64]),
    "hc_award_list_free": (None, [ptr]),
    "hc_referral_code": (i32, [PTRP, ptr]),
    "hc_referral_redeem": (i32, [I64P, ptr, text]),
    "hc_event_list_read": (i32, [PTRP, ptr, i64, i64, u32]),
    "hc_event_list_count": (i32, [I64P, ptr]),
    "hc_event_list_get": (i32, [_pp(Event), ptr, i64]),
    "hc_event_list_free": (None, [ptr]),
    # proofs and plugins
    "hc_proof_input_init": (i32, [_p(ProofInput), u32]),
    "hc_proof_result_init": (i32, [_p(ProofResult), u32]),
    "hc_proof_submit": (i32, [_p(ProofResult), ptr, _p(ProofInput)]),
    "hc_proof_review": (i32, [I64P, ptr, i64, i32, text, text]),
    "hc_proof_evidence": (i32, [u8p, i64, I64P, ptr, i64]),
    "hc_verdict_list_open": (i32, [PTRP, ptr, i64, i64]),
    "hc_verdict_list_count": (i32, [I64P, ptr]),
    "hc_verdict_list_get": (i32, [_pp(Verdict), ptr, i64]),
    "hc_verdict_list_free": (None, [ptr]),
    "hc_proof_policy_init": (i32, [_p(ProofPolicy), u32]),
    "hc_proof_policy_set": (i32, [ptr, i64, _p(ProofPolicy)]),
    "hc_verifier_register": (i32, [ptr, text, text, VERIFY_CALLBACK, ptr]),
    "hc_verifier_register_v2": (i32, [ptr, text, text, VERIFY_CALLBACK, ptr, RELEASE_CALLBACK]),
    "hc_plugin_add": (i32, [PTRP, ptr, i32, text, text, i64]),
    "hc_plugin_remove": (i32, [ptr, text]),
    "hc_plugin_list_json": (i32, [PTRP, ptr]),
    "hc_plugin_test": (i32, [_p(ProofResult), ptr, text, text]),
    "hc_plugin_configure": (i32, [ptr, text, text]),
    # reminders
    "hc_reminder_rule_init": (i32, [_p(ReminderRule), u32]),
    "hc_reminder_rule_add": (i32, [I64P, ptr, _p(ReminderRule)]),
    "hc_reminder_rule_update": (i32, [ptr, i64, _p(ReminderRule), i32]),
    "hc_reminder_rule_remove": (i32, [ptr, i64, i32]),
    "hc_reminder_rule_list_open": (i32, [PTRP, ptr, i64, i32]),
    "hc_reminder_rule_list_count": (i32, [I64P, ptr]),
    "hc_reminder_rule_list_get": (i32, [_pp(ReminderRule), ptr, i64]),
    "hc_reminder_rule_list_free": (None, [ptr]),
    "hc_store_set_quiet_hours": (i32, [ptr, i32, i32, i32]),
    "hc_store_quiet_hours": (i32, [I32P, I32P, ptr, i32]),
    "hc_reminder_list_open": (i32, [PTRP, ptr, i64, i64, u32]),
    "hc_reminder_list_count": (i32, [I64P, ptr]),
    "hc_reminder_list_get": (i32, [_pp(Reminder), ptr, i64]),
    "hc_reminder_list_free": (None, [ptr]),
    "hc_reminder_fired": (i32, [I32P, ptr, i64, i32, i64]),
    "hc_reminder_snooze": (i32, [ptr, i64, i32, i64, i64]),
    # sync between a person's devices
    "hc_sync_summary_init": (i32, [_p(SyncSummary), u32]),
    "hc_sync_state": (i32, [u8p, i64, I64P, ptr]),
    "hc_sync_changes": (i32, [_p(u8p), I64P, ptr, ctypes.c_char_p, i64]),
    "hc_sync_changes_v2": (i32, [_p(u8p), I64P, ptr, ctypes.c_char_p, i64, u32]),
    "hc_sync_apply": (i32, [_p(SyncSummary), ptr, ctypes.c_char_p, i64]),
    "hc_sync_canonical": (i32, [PTRP, ptr]),
}


def _candidates() -> list[str]:
    here = Path(__file__).resolve().parent
    beside = [str(here / name) for name in ("libhabitcore.so.1", "libhabitcore.so") if (here / name).exists()]
    env = os.environ.get("HABITCORE_LIBRARY")
    return beside + ([env] if env else []) + ["libhabitcore.so.1", "libhabitcore.so"]


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _file_of(lib: ctypes.CDLL, candidate: str) -> str:
    """The file the loader took for candidate (a bare name is looked up as the system does)."""
    try:
        dladdr = ctypes.CDLL(None).dladdr
    except (OSError, AttributeError):
        return candidate
    dladdr.restype = ctypes.c_int
    dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
    info = _DlInfo()
    if dladdr(ctypes.cast(lib.hc_abi_version, ctypes.c_void_p), ctypes.byref(info)) and info.dli_fname:
        return os.fsdecode(info.dli_fname)
    return candidate


def load() -> tuple[ctypes.CDLL, str]:
    """Loads libhabitcore: beside this package, else $HABITCORE_LIBRARY, else the system's.

    Declares every function and checks hc_abi_version() before anything else."""
    tried = []
    for candidate in _candidates():
        try:
            lib = ctypes.CDLL(candidate)
        except OSError as error:
            tried.append(f"{candidate}: {error}")
            continue
        lib.hc_abi_version.restype = i32
        lib.hc_abi_version.argtypes = []
        abi = lib.hc_abi_version()
        if abi != ABI_VERSION:
            raise ImportError(f"{candidate} has habitcore ABI {abi}; this package needs ABI {ABI_VERSION}")
        for name, (restype, argtypes) in SIGNATURES.items():
            function = getattr(lib, name)
            function.restype = restype
            function.argtypes = argtypes
        return lib, _file_of(lib, candidate)
    raise ImportError("libhabitcore not found (set HABITCORE_LIBRARY to its path). Tried:\n  " + "\n  ".join(tried))


lib, path = load()
