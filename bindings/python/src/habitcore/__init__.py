"""habitcore for Python: a typed ctypes binding over libhabitcore's C ABI (include/habitcore.h).

    import datetime, habitcore

    with habitcore.Store("habits.db") as store:
        water = store.create_habit("Water", kind=habitcore.Kind.COUNTER, target=8, unit="glasses")
        store.append(water, habitcore.EntryKind.AMOUNT, 3, date=datetime.date(2026, 3, 8))
        print(store.streaks(water).current.length)

The library is loaded at import: a ``libhabitcore.so.1`` (or ``.so``) beside this
package, else the file named by ``$HABITCORE_LIBRARY``, else the system's
``libhabitcore.so.1``. Its ``hc_abi_version()`` must be 2 (habitcore 1.x).

Every failure raises a subclass of :class:`habitcore.Error` carrying the status
``code`` and the library's ``message``.
"""
from __future__ import annotations

from ._errors import (
    BusyError, CancelledError, ConflictError, CorruptError, Error, InsufficientCreditsError, InternalError, InvalidArgumentError,
    MisuseError, NotFoundError, OutOfMemoryError, ReadOnlyError, Status, StoreIOError, TooNewError,
)
from ._native import ABI_VERSION
from ._native import path as library_path
from ._store import (
    DateLike, HabitRef, ListIterator, Progress, Store, Verifier, disable_sqlite_statistics, format_date, library_version,
    library_version_number, parse_date, status_string, streak_compute, strength_compute, sync_state_replicas,
)
from ._types import (
    ACCOUNT_DEFAULT, POLICY_INHERIT, Award, AwardCause, Cause, Change, ChangeArea, Completion, CreditDay, CreditEntry,
    CreditKind, CreditRule, DayFlag, DayScore, DayState, Direction, DueItem, DueState, Entry, EntryKind, Event, EventKind,
    Evidence, Expiry, Format, GroupDay, Habit, HabitField, HabitRules, Judgement, Kind, MeasurementStats, Metric, OffDays,
    OpenDay, OpenFlag, Outcome, PluginKind, PolicyMode, ProofResult, QuitPeriod, QuitStatus, QuotaProgress, TimerAction, TimerState, TimerStatus, Quiet, Reminder, ReminderKind, ReminderRule,
    Routine, RuleKind, Scope, ShieldBudget, ShieldCause, ShieldEarlier, ShieldLift, ShieldMoved, ShieldReason, ShieldRule,
    ShieldState, ShieldStatus, ShieldTimeline, ShieldTransition, Source, Stage, Streak, StreakPolicy, StreakResult,
    StreakUnit, StepSync, SyncSummary, UnlockState, Vacation, Verdict,
)

__version__ = "1.1.0"

__all__ = [
    "ABI_VERSION", "ACCOUNT_DEFAULT", "POLICY_INHERIT", "Award", "AwardCause", "BusyError", "CancelledError", "Cause",
    "Change", "ChangeArea", "Completion",
    "ConflictError", "CorruptError", "CreditDay", "CreditEntry", "CreditKind", "CreditRule", "DateLike", "DayFlag",
    "DayScore", "DayState", "Direction", "DueItem", "DueState", "Entry", "EntryKind", "Error", "Event", "EventKind",
    "Evidence", "Expiry", "Format", "GroupDay", "Habit", "HabitField", "HabitRef", "HabitRules", "InsufficientCreditsError",
    "InternalError", "InvalidArgumentError", "Judgement", "Kind", "ListIterator", "MeasurementStats", "Metric",
    "MisuseError", "NotFoundError", "OffDays", "OpenDay", "OpenFlag", "Outcome", "OutOfMemoryError", "PluginKind",
    "PolicyMode", "Progress", "ProofResult", "QuitPeriod", "QuitStatus", "QuotaProgress", "TimerAction", "TimerState", "TimerStatus", "Quiet", "ReadOnlyError", "Reminder", "ReminderKind",
    "ReminderRule", "Routine", "RuleKind", "Scope", "ShieldBudget", "ShieldCause", "ShieldEarlier", "ShieldLift",
    "ShieldMoved", "ShieldReason", "ShieldRule", "ShieldState", "ShieldStatus", "ShieldTimeline", "ShieldTransition",
    "Source", "Stage", "Status", "StepSync", "Store", "StoreIOError", "Streak", "StreakPolicy",
    "StreakResult", "StreakUnit", "SyncSummary", "TooNewError", "UnlockState", "Vacation", "Verdict", "Verifier",
    "disable_sqlite_statistics", "format_date", "library_path", "library_version", "library_version_number", "parse_date",
    "status_string", "streak_compute", "strength_compute", "sync_state_replicas",
]
