"""The header's constants as enums (generated into _enums.py), and its result structs as
frozen dataclasses.

Every value here is a copy taken out of library memory: nothing borrowed outlives the
call that produced it."""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import TypeVar

from ._enums import *  # noqa: F401,F403 (the enums, generated from the header by bindings/python/generate.py)
from ._enums import _OpenEnum

E = TypeVar("E", bound=_OpenEnum)


def _enum(cls: type[E], value: int) -> E:
    """value as cls; a constant newer than this package is an UNKNOWN_<n> member."""
    return cls(value)


@dataclass(frozen=True)
class Habit:
    """A habit as stored (hc_habit)."""

    id: int
    name: str
    kind: Kind
    target: float
    direction: Direction
    routine: Routine
    group: str | None
    unit: str | None
    schedule: str
    start: datetime.date
    proof_required: bool
    archived: datetime.date | None
    created_at_ms: int
    # What a frontend shows (1.1): None when not set; position 0 by default.
    description: str | None = None
    question: str | None = None
    colour: str | None = None
    icon: str | None = None
    position: int = 0


@dataclass(frozen=True)
class Entry:
    """A ledger entry as stored (hc_entry)."""

    id: int
    habit_id: int
    kind: EntryKind
    date: datetime.date
    source: Source
    value: float
    recorded_at_ms: int
    undoes: int | None
    undone_by: int | None
    note: str | None


@dataclass(frozen=True)
class DayState:
    """One habit's day: the fold of its standing entries (hc_day_state)."""

    date: datetime.date
    flags: DayFlag
    value: float
    entry_count: int

    @property
    def done(self) -> bool:
        return DayFlag.DONE in self.flags

    @property
    def skipped(self) -> bool:
        return DayFlag.SKIPPED in self.flags


@dataclass(frozen=True)
class Streak:
    """A run of kept occurrences; length 0 means none (hc_streak)."""

    first: datetime.date | None
    last: datetime.date | None
    length: int
    excused_days: int


@dataclass(frozen=True)
class StreakResult:
    """Current and longest streaks, and every run, longest first (hc_streak_result + best)."""

    unit: StreakUnit
    current: Streak
    longest: Streak
    current_forgiven: int
    longest_forgiven: int
    runs: list[Streak] = field(default_factory=list)


@dataclass(frozen=True)
class StreakPolicy:
    """A streak policy (hc_streak_policy); see the header's "Streak policies"."""

    miss_allowance: int = 0
    open_day: OpenDay = OpenDay.PREVIOUS
    off_days: OffDays = OffDays.SKIP


@dataclass(frozen=True)
class HabitRules:
    """A habit's rules for the store-less computations (hc_habit_rules)."""

    kind: Kind = Kind.CHECKMARK
    target: float = 1.0
    direction: Direction = Direction.AT_LEAST
    start: datetime.date = datetime.date(1970, 1, 1)
    schedule: str | None = None
    week_start: int = 1


@dataclass(frozen=True)
class Vacation:
    """Excused days, for one habit or (habit_id 0) all."""

    id: int
    habit_id: int
    first: datetime.date
    last: datetime.date


@dataclass(frozen=True)
class DayScore:
    """One day's score across habits (hc_day_score); score -1.0 when nothing is due."""

    date: datetime.date
    due: int
    done: int
    excused: int
    score: float


@dataclass(frozen=True)
class Completion:
    """How often occurrences were kept (hc_completion); rate -1.0 when nothing was judged.

    current_kept of current_required is the current, unfinished occurrence (this week of
    a weekly quota, today), left out of rate; rate_with_current counts it as that
    fraction (-1.0 when nothing counts)."""

    kept: int
    judged: int
    excused: int
    rate: float
    current_kept: int = 0
    current_required: int = 0
    rate_with_current: float = -1.0


@dataclass(frozen=True)
class QuotaProgress:
    """A quota habit's period holding a day, as of that day (hc_quota_progress)."""

    habit_id: int
    period_first: datetime.date
    done: int
    required: int
    met: bool


@dataclass(frozen=True)
class GroupDay:
    """A group's day read both ways (hc_group_day): day-based habits only (rate; quota
    habits left out, their progress in quota), and every habit with quota habits due
    until met (all_rate). Rates are -1.0 when nothing is due."""

    date: datetime.date
    due: int
    done: int
    excused: int
    rate: float
    quota: tuple[QuotaProgress, ...]
    all_due: int
    all_done: int
    all_excused: int
    all_rate: float


@dataclass(frozen=True)
class DueItem:
    """One habit due on a day (hc_due_item)."""

    habit_id: int
    routine: Routine
    state: DueState
    value: float
    target: float


@dataclass(frozen=True)
class MeasurementStats:
    """A measurement habit's readings over a window (hc_measurement_stats)."""

    count: int
    latest_date: datetime.date | None
    latest: float
    best_date: datetime.date | None
    best: float
    change: float


@dataclass(frozen=True)
class TimerStatus:
    """Where a timer stands at an instant (hc_timer_status): its state, its running time,
    and what it adds to its day once stopped."""

    id: int
    habit_id: int
    state: TimerState  # noqa: F405 (generated enum)
    at_ms: int
    started_at_ms: int
    elapsed_ms: int
    ended_at_ms: int | None
    seconds: int
    date: datetime.date
    auto_complete: bool
    completed: bool


@dataclass(frozen=True)
class QuitStatus:
    """Where a quit habit stands (hc_quit_status): days since the last relapse, clean runs,
    the allowance of the period holding the day, and what the clean days saved."""

    as_of: datetime.date
    at_ms: int
    last_relapse_id: int | None
    last_relapse_ms: int | None
    last_relapse_date: datetime.date | None
    days_since: int
    since_ms: int
    current_clean_days: int
    best_clean_days: int
    best_clean_first: datetime.date | None
    best_clean_last: datetime.date | None
    clean_days: int
    period: QuitPeriod  # noqa: F405 (generated enum)
    period_first: datetime.date
    period_last: datetime.date
    period_relapses: int
    allowance: int
    over_allowance: bool
    periods_within: int
    week_relapses: int
    month_relapses: int
    relapses: int
    relapse_amount: float
    saved: float


@dataclass(frozen=True)
class CreditRule:
    """A credit rule as recorded (hc_credit_rule)."""

    id: int
    kind: RuleKind
    account_id: int
    habit_id: int
    value: int
    start: datetime.date


@dataclass(frozen=True)
class StepSync:
    """What a step report did (hc_step_sync)."""

    date: datetime.date
    steps: int
    earned_now: int
    day_earned: int


@dataclass(frozen=True)
class CreditDay:
    """A day of a credit account (hc_credit_day)."""

    date: datetime.date
    steps: int
    carried_in: int
    earned: int
    spent: int
    adjusted: int
    expired: int
    available: int
    refunded: int


@dataclass(frozen=True)
class SyncSummary:
    """What applying a changeset did (hc_sync_summary); the merge rules are the header's."""

    ops_received: int
    ops_new: int
    ops_applied: int
    ops_superseded: int
    ops_waiting: int
    habits_changed: int
    entries_added: int
    vacations_changed: int
    settings_changed: int
    proofs_changed: int
    credits_changed: int
    ops_forked: int
    """Ops of a forked replica's moving branch, taken under their moved ids (the header's "Forks")."""


@dataclass(frozen=True)
class UnlockState:
    """Whether apps are unlocked (hc_unlock_state)."""

    active: bool
    session_id: int
    start_ms: int
    until_ms: int


@dataclass(frozen=True)
class CreditEntry:
    """A credit entry as stored (hc_credit_entry)."""

    id: int
    kind: CreditKind
    account_id: int
    minutes: int
    date: datetime.date
    cause: Cause
    at_ms: int
    cause_id: int
    habit_id: int
    steps: int
    reason: str | None


@dataclass(frozen=True)
class Award:
    """An award: a rule, its progress and its unlock (hc_award)."""

    id: str
    metric: Metric
    title: str
    description: str
    icon: str
    tier: int
    scope: Scope
    habit_id: int
    threshold: int
    value: int
    unlocked: bool
    unlocked_date: datetime.date | None
    unlocked_at_ms: int
    cause_kind: AwardCause
    cause_id: int
    cause_habit_id: int


@dataclass(frozen=True)
class Event:
    """Something to tell the user about (hc_event)."""

    id: int
    kind: EventKind
    at_ms: int
    date: datetime.date
    acknowledged: bool
    habit_id: int
    entry_id: int
    value: float
    award_id: str | None


@dataclass(frozen=True)
class Change:
    """What one write of the store changed (hc_change): an area, a habit (0: not one
    habit's) and the days it reaches, None at an open end (a change that names no day,
    a setting from a day on)."""

    revision: int
    area: ChangeArea
    habit_id: int
    first_date: datetime.date | None
    last_date: datetime.date | None


@dataclass(frozen=True)
class Evidence:
    """What a Python verifier judges (hc_plugin_evidence, copied for the call)."""

    data: bytes
    media_type: str
    sha256: str
    path: str | None
    taken_at_ms: int
    received_at_ms: int
    habit_id: int
    habit_name: str
    metadata_json: str | None
    proof_id: int
    date: datetime.date | None
    config_json: str | None


@dataclass(frozen=True)
class Judgement:
    """What a Python verifier answers (hc_plugin_verdict)."""

    outcome: Outcome
    confidence: float
    reason_code: str = ""
    message: str = ""
    signals: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ProofResult:
    """What a submission or a plugin test came to (hc_proof_result)."""

    outcome: Outcome
    proof_id: int
    entry_id: int | None
    confidence: float
    date: datetime.date | None
    reason_code: str
    message: str


@dataclass(frozen=True)
class Verdict:
    """A verdict as recorded (hc_verdict)."""

    id: int
    outcome: Outcome
    proof_id: int
    habit_id: int
    stage: Stage
    date: datetime.date
    confidence: float
    duration_us: int
    at_ms: int
    entry_id: int
    verifier_id: str | None
    verifier_version: str | None
    reason_code: str | None
    message: str | None
    signals: list[str]
    reviewer: str | None
    sha256: str | None


@dataclass(frozen=True)
class ReminderRule:
    """A reminder rule in force (hc_reminder_rule)."""

    id: int
    habit_id: int
    minute: int
    weekdays: int
    quiet: Quiet
    start: datetime.date
    message: str | None


@dataclass(frozen=True)
class Reminder:
    """One reminder instant (hc_reminder)."""

    kind: ReminderKind
    at_ms: int
    habit_id: int
    rule_id: int
    date: datetime.date
    local_minute: int
    original_ms: int
    deferred: bool
    fired: bool
    message: str | None


@dataclass(frozen=True)
class ShieldRule:
    """A shield rule as in force on a day (hc_shield_rule): when a person's apps are blocked."""

    id: int
    name: str
    key: str  # the app's own: its set of blocked apps
    habit_ids: tuple[int, ...]
    days: str  # schedule text: "daily", "days:mon,fri", ...
    start_minute: int | None  # None: the store's day start
    end_minute: int | None  # None: the next local midnight
    lift: ShieldLift
    session_lifts: bool
    cutoff_lifts: bool
    excused_lifts: bool
    fail_closed: bool
    budget: ShieldBudget
    budget_count: int
    start: datetime.date  # the first day of this version of the rule


@dataclass(frozen=True)
class ShieldStatus:
    """One rule's state at an instant (hc_shield_status)."""

    rule_id: int
    shielded: bool
    reason: ShieldReason
    fail_closed: bool
    window_date: datetime.date | None
    habit_date: datetime.date | None
    window_start_ms: int
    window_end_ms: int
    since_ms: int
    until_ms: int
    next_change_ms: int  # 0: none within 62 days
    next_cause: ShieldCause
    earlier: ShieldEarlier
    emergency_left: int | None  # None: unlimited
    outstanding: tuple[int, ...]


@dataclass(frozen=True)
class ShieldState:
    """Every rule's state at an instant and the shield revision, read in one snapshot."""

    revision: int
    rules: list[ShieldStatus]


@dataclass(frozen=True)
class ShieldTransition:
    """One change of a rule's shielded state (hc_shield_transition)."""

    rule_id: int
    shielded: bool
    at_ms: int
    local_date: datetime.date
    local_minute: int
    offset_seconds: int
    moved: ShieldMoved
    from_reason: ShieldReason
    to_reason: ShieldReason
    cause: ShieldCause
    zone: str


@dataclass(frozen=True)
class ShieldTimeline:
    """The transitions of a span of time and the shield revision, read in one snapshot."""

    revision: int
    transitions: list[ShieldTransition]
