"""The Pythonic layer: Store and the store-less computations."""
from __future__ import annotations

import contextlib
import ctypes
import datetime
import itertools
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar, Union

from . import _native as N
from ._errors import InvalidArgumentError, Status, error_for
from ._types import (
    Award, AwardCause, Cause, Change, ChangeArea, Completion, CreditDay, CreditEntry, CreditKind, CreditRule, DayFlag, DayScore, DayState,
    Direction, DueItem, DueState, Entry, EntryKind, Event, EventKind, Evidence, Format, GroupDay, Habit, HabitField,
    HabitRules, Judgement, Kind, MeasurementStats, Metric, OffDays, OpenDay, OpenFlag, Outcome, PluginKind, PolicyMode,
    ProofResult, QuitPeriod, QuitStatus, QuotaProgress, TimerAction, TimerState, TimerStatus, Quiet, Reminder, ReminderKind, ReminderRule, Routine, RuleKind, Scope, ShieldBudget,
    ShieldCause, ShieldEarlier, ShieldLift, ShieldMoved, ShieldReason, ShieldRule, ShieldState, ShieldStatus,
    ShieldTimeline, ShieldTransition, Source, Stage, Streak, StreakPolicy, StreakResult, StreakUnit, StepSync,
    SyncSummary, UnlockState, Vacation, Verdict, _enum,
)

lib = N.lib
EPOCH = datetime.date(1970, 1, 1)

DateLike = Union[datetime.date, str]
"""A day: a ``datetime.date``, or ``"YYYY-MM-DD"`` read by the library's own parser."""
HabitRef = Union[int, Habit]
"""A habit: its id, or the :class:`Habit` itself."""

T = TypeVar("T")


# ---- conversions -------------------------------------------------------------------------------------------


def _message() -> str:
    raw = lib.hc_last_error_message()
    return raw.decode("utf-8", "replace") if raw else ""


def _check(status: int) -> None:
    """Raises the exception for a failed call, with the library's message copied at once."""
    if status != Status.OK:
        raise error_for(status, _message())


def _invalid(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(Status.INVALID, message)


def _enc(value: str | bytes | None, what: str) -> bytes | None:
    """Text as the library's UTF-8. A str that is not valid Unicode (lone surrogates, as
    os.fsdecode makes of stray bytes) is passed on as the bytes it stands for, so the
    library judges it and answers with its own message."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            data = value.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            data = value.encode("utf-8", "surrogatepass")
    elif isinstance(value, (bytes, bytearray)):
        data = bytes(value)
    else:
        raise TypeError(f"{what} must be str or bytes, not {type(value).__name__}")
    if b"\0" in data:
        raise _invalid(f"{what} holds a NUL character, which a C string cannot carry")
    return data


def _dec(value: bytes | None) -> str | None:
    return None if value is None else value.decode("utf-8", "replace")


def _str(value: bytes | None) -> str:
    return "" if value is None else value.decode("utf-8", "replace")


def _int(value: int, what: str, bits: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if not low <= value <= high:
        raise _invalid(f"{what} {value} does not fit the header's int{bits}_t")
    return value


def _i64(value: int, what: str) -> int:
    return _int(value, what, 64)


def _i32(value: int, what: str) -> int:
    return _int(value, what, 32)


def _day(value: DateLike | None, what: str = "date") -> int:
    """A date as the library's day number; None is HC_DAY_NONE (the library picks today)."""
    if value is None:
        return N.DAY_NONE
    if isinstance(value, datetime.datetime):
        value = value.date()
    if isinstance(value, datetime.date):
        return (value - EPOCH).days
    if isinstance(value, str):
        out = ctypes.c_int32()
        _check(lib.hc_date_parse(ctypes.byref(out), _enc(value, what)))
        return out.value
    raise TypeError(f"{what} must be a datetime.date or 'YYYY-MM-DD', not {type(value).__name__}")


def _date(day: int) -> datetime.date:
    return EPOCH + datetime.timedelta(days=day)


def _opt_date(day: int) -> datetime.date | None:
    return None if day == N.DAY_NONE else _date(day)


def _hid(habit: HabitRef) -> int:
    return _i64(habit.id if isinstance(habit, Habit) else habit, "habit id")


_INITS: dict[type, str] = {
    N.HabitOptions: "hc_habit_options_init", N.EntryInput: "hc_entry_input_init",
    N.StreakResult: "hc_streak_result_init", N.HabitRules: "hc_habit_rules_init",
    N.StreakPolicy: "hc_streak_policy_init", N.Completion: "hc_completion_init", N.GroupDay: "hc_group_day_init",
    N.MeasurementStats: "hc_measurement_stats_init", N.StepSync: "hc_step_sync_init",
    N.QuitStatus: "hc_quit_status_init", N.TimerStatus: "hc_timer_status_init",
    N.CreditDay: "hc_credit_day_init", N.UnlockState: "hc_unlock_state_init",
    N.ProofInput: "hc_proof_input_init", N.ProofResult: "hc_proof_result_init",
    N.ProofPolicy: "hc_proof_policy_init", N.ReminderRule: "hc_reminder_rule_init",
    N.SyncSummary: "hc_sync_summary_init", N.ShieldRule: "hc_shield_rule_init",
}

S = TypeVar("S", bound=ctypes.Structure)


def _init(struct: type[S]) -> S:
    """A struct filled by its hc_<struct>_init: the library's defaults, never a copy of them here."""
    value = struct()
    _check(getattr(lib, _INITS[struct])(ctypes.byref(value), ctypes.sizeof(struct)))
    return value


def _buffer(ctype: Any, call: Callable[[Any, int, Any], int]) -> list[Any]:
    """Runs a caller-buffer call: ask the total (NULL, 0), then fill; again if it grew meanwhile."""
    count = ctypes.c_int64()
    _check(call(None, 0, ctypes.byref(count)))
    while True:
        capacity = count.value
        buffer = (ctype * max(capacity, 1))()
        _check(call(buffer, capacity, ctypes.byref(count)))
        if count.value <= capacity:
            return list(buffer[: count.value])


def _cut(text: str, size: int) -> bytes:
    """text as UTF-8 in at most size - 1 bytes, never splitting a character."""
    data = text.encode("utf-8", "replace")
    if len(data) < size:
        return data
    return data[: size - 1].decode("utf-8", "ignore").encode("utf-8")


# ---- struct to dataclass -----------------------------------------------------------------------------------


def _habit(h: N.Habit) -> Habit:
    return Habit(id=h.id, name=_str(h.name), kind=_enum(Kind, h.kind), target=h.target,
                 direction=_enum(Direction, h.direction), routine=_enum(Routine, h.routine), group=_dec(h.group_name),
                 unit=_dec(h.unit), schedule=_str(h.schedule), start=_date(h.start_day),
                 proof_required=bool(h.proof_required), archived=_opt_date(h.archived_day),
                 created_at_ms=h.created_at_ms, description=_dec(h.description), question=_dec(h.question),
                 colour=_dec(h.colour), icon=_dec(h.icon), position=h.position)


def _entry(e: N.Entry) -> Entry:
    return Entry(id=e.id, habit_id=e.habit_id, kind=_enum(EntryKind, e.kind), date=_date(e.day),
                 source=_enum(Source, e.source), value=e.value, recorded_at_ms=e.recorded_at_ms,
                 undoes=e.undoes or None, undone_by=e.undone_by or None, note=_dec(e.note))


def _day_state(s: N.DayState) -> DayState:
    return DayState(date=_date(s.day), flags=DayFlag(s.flags), value=s.value, entry_count=s.entry_count)


def _streak(s: N.Streak) -> Streak:
    if s.length == 0:
        return Streak(first=None, last=None, length=0, excused_days=s.excused_days)
    return Streak(first=_date(s.first_day), last=_date(s.last_day), length=s.length, excused_days=s.excused_days)


def _streak_result(r: N.StreakResult, runs: list[Any] | None = None) -> StreakResult:
    return StreakResult(unit=_enum(StreakUnit, r.unit), current=_streak(r.current), longest=_streak(r.longest),
                        current_forgiven=r.current_forgiven, longest_forgiven=r.longest_forgiven,
                        runs=[_streak(s) for s in runs or []])


def _policy(p: N.StreakPolicy) -> StreakPolicy:
    return StreakPolicy(miss_allowance=p.miss_allowance, open_day=_enum(OpenDay, p.open_day),
                        off_days=_enum(OffDays, p.off_days))


def _native_policy(policy: StreakPolicy) -> N.StreakPolicy:
    p = _init(N.StreakPolicy)
    p.miss_allowance = _i32(policy.miss_allowance, "miss_allowance")
    p.open_day, p.off_days = int(policy.open_day), int(policy.off_days)
    return p


def _completion(c: N.Completion) -> Completion:
    return Completion(kept=c.kept, judged=c.judged, excused=c.excused, rate=c.rate, current_kept=c.current_kept,
                      current_required=c.current_required, rate_with_current=c.rate_with_current)


def _credit_entry(e: N.CreditEntry) -> CreditEntry:
    return CreditEntry(id=e.id, kind=_enum(CreditKind, e.kind), account_id=e.account_id, minutes=e.minutes,
                       date=_date(e.day), cause=_enum(Cause, e.cause), at_ms=e.at_ms, cause_id=e.cause_id,
                       habit_id=e.habit_id, steps=e.steps, reason=_dec(e.reason))


def _award(a: N.Award) -> Award:
    return Award(id=_str(a.id), metric=_enum(Metric, a.metric), title=_str(a.title), description=_str(a.description),
                 icon=_str(a.icon), tier=a.tier, scope=_enum(Scope, a.scope), habit_id=a.habit_id,
                 threshold=a.threshold, value=a.value, unlocked=bool(a.unlocked),
                 unlocked_date=_opt_date(a.unlocked_day), unlocked_at_ms=a.unlocked_at_ms,
                 cause_kind=_enum(AwardCause, a.cause_kind), cause_id=a.cause_id, cause_habit_id=a.cause_habit_id)


def _event(e: N.Event) -> Event:
    return Event(id=e.id, kind=_enum(EventKind, e.kind), at_ms=e.at_ms, date=_date(e.day),
                 acknowledged=bool(e.acknowledged), habit_id=e.habit_id, entry_id=e.entry_id, value=e.value,
                 award_id=_dec(e.award_id))


def _change(c: N.Change) -> Change:
    return Change(revision=c.revision, area=_enum(ChangeArea, c.area), habit_id=c.habit_id,
                  first_date=None if c.first_day <= N.HC_CHANGE_FIRST_DAY else _date(c.first_day),
                  last_date=None if c.last_day >= N.HC_CHANGE_LAST_DAY else _date(c.last_day))


def _timer(t: N.TimerStatus) -> TimerStatus:
    return TimerStatus(id=t.id, habit_id=t.habit_id, state=_enum(TimerState, t.state), at_ms=t.at_ms,
                       started_at_ms=t.started_at_ms, elapsed_ms=t.elapsed_ms, ended_at_ms=t.ended_at_ms or None,
                       seconds=t.seconds, date=_date(t.day), auto_complete=bool(t.flags & N.HC_TIMER_AUTO_COMPLETE),
                       completed=bool(t.completed))


def _proof_result(r: N.ProofResult) -> ProofResult:
    return ProofResult(outcome=_enum(Outcome, r.outcome), proof_id=r.proof_id, entry_id=r.entry_id or None,
                       confidence=r.confidence, date=_date(r.day) if r.proof_id else None,
                       reason_code=_str(r.reason_code), message=_str(r.message))


def _verdict(v: N.Verdict) -> Verdict:
    signals = _str(v.signals)
    return Verdict(id=v.id, outcome=_enum(Outcome, v.outcome), proof_id=v.proof_id, habit_id=v.habit_id,
                   stage=_enum(Stage, v.stage), date=_date(v.day), confidence=v.confidence,
                   duration_us=v.duration_us, at_ms=v.at_ms, entry_id=v.entry_id, verifier_id=_dec(v.verifier_id),
                   verifier_version=_dec(v.verifier_version), reason_code=_dec(v.reason_code),
                   message=_dec(v.message), signals=[s for s in signals.split(",") if s], reviewer=_dec(v.reviewer),
                   sha256=_dec(v.sha256))


def _reminder_rule(r: N.ReminderRule) -> ReminderRule:
    return ReminderRule(id=r.id, habit_id=r.habit_id, minute=r.minute, weekdays=r.weekdays,
                        quiet=_enum(Quiet, r.quiet), start=_date(r.from_day), message=_dec(r.message))


def _reminder(r: N.Reminder) -> Reminder:
    return Reminder(kind=_enum(ReminderKind, r.kind), at_ms=r.at_ms, habit_id=r.habit_id, rule_id=r.rule_id,
                    date=_date(r.day), local_minute=r.local_minute, original_ms=r.original_ms,
                    deferred=bool(r.deferred), fired=bool(r.fired), message=_dec(r.message))


def _minute(minute: int, default: int) -> int | None:
    return None if minute == default else minute


def _shield_rule(r: N.ShieldRule) -> ShieldRule:
    return ShieldRule(id=r.id, name=_str(r.name), key=_str(r.key),
                      habit_ids=tuple(r.habit_ids[i] for i in range(r.habit_count)) if r.habit_ids else (),
                      days=_str(r.days), start_minute=_minute(r.start_minute, N.HC_SHIELD_DAY_START),
                      end_minute=_minute(r.end_minute, N.HC_SHIELD_MIDNIGHT), lift=_enum(ShieldLift, r.lift),
                      session_lifts=bool(r.session_lifts), cutoff_lifts=bool(r.cutoff_lifts),
                      excused_lifts=bool(r.excused_lifts), fail_closed=bool(r.fail_closed),
                      budget=_enum(ShieldBudget, r.budget_period), budget_count=r.budget_count, start=_date(r.from_day))


def _shield_status(s: N.ShieldStatus) -> ShieldStatus:
    return ShieldStatus(rule_id=s.rule_id, shielded=bool(s.shielded), reason=_enum(ShieldReason, s.reason),
                        fail_closed=bool(s.fail_closed), window_date=_date(s.window_day) if s.window_day else None,
                        habit_date=_date(s.habit_day) if s.habit_day else None, window_start_ms=s.window_start_ms,
                        window_end_ms=s.window_end_ms, since_ms=s.since_ms, until_ms=s.until_ms,
                        next_change_ms=s.next_change_ms, next_cause=_enum(ShieldCause, s.next_cause),
                        earlier=ShieldEarlier(s.earlier), emergency_left=None if s.emergency_left < 0 else s.emergency_left,
                        outstanding=tuple(s.outstanding[: max(0, min(s.outstanding_count, len(s.outstanding)))]))


def _shield_transition(t: N.ShieldTransition) -> ShieldTransition:
    return ShieldTransition(rule_id=t.rule_id, shielded=bool(t.shielded), at_ms=t.at_ms, local_date=_date(t.local_day),
                            local_minute=t.local_minute, offset_seconds=t.offset_seconds, moved=ShieldMoved(t.moved),
                            from_reason=_enum(ShieldReason, t.from_reason), to_reason=_enum(ShieldReason, t.to_reason),
                            cause=_enum(ShieldCause, t.cause), zone=_str(t.zone))


def _native_shield_rule(settings: dict[str, Any]) -> tuple[N.ShieldRule, Any]:
    """A hc_shield_rule from the library's defaults and the arguments of Store.add_shield (its
    locals(); None keeps the default), with the habit id array it points into."""
    r = _init(N.ShieldRule)
    ids = [_hid(habit) for habit in settings["habits"]]
    array = (ctypes.c_int64 * max(len(ids), 1))(*ids)
    r.habit_ids, r.habit_count = ctypes.cast(array, N.I64P), len(ids)
    r.name, r.key = _enc(settings["name"], "name"), _enc(settings["key"], "key")
    if settings["days"] is not None:
        r.days = _enc(settings["days"], "days")
    for field in ("start_minute", "end_minute", "budget_count"):
        if settings[field] is not None:
            setattr(r, field, _i32(settings[field], field))
    for field in ("session_lifts", "cutoff_lifts", "excused_lifts", "fail_closed"):
        if settings[field] is not None:
            setattr(r, field, 1 if settings[field] else 0)
    if settings["lift"] is not None:
        r.lift = int(settings["lift"])
    if settings["budget"] is not None:
        r.budget_period = int(settings["budget"])
    return r, array


def _has(struct: ctypes.Structure, name: str) -> bool:
    """Whether a library-allocated struct's struct_size reaches past the field (HC_PLUGIN_HAS_FIELD)."""
    descriptor = getattr(type(struct), name)
    return bool(int(struct.struct_size) >= descriptor.offset + descriptor.size)


def _evidence(e: N.PluginEvidence) -> Evidence:
    if e.bytes and e.size > 0:
        data = ctypes.string_at(e.bytes, e.size)
    elif e.path:
        with open(os.fsdecode(e.path), "rb") as file:
            data = file.read()
    else:
        data = b""
    newer = _has(e, "config_json")
    return Evidence(data=data, media_type=_str(e.media_type), sha256=_str(e.sha256), path=_dec(e.path),
                    taken_at_ms=e.taken_at_ms, received_at_ms=e.received_at_ms, habit_id=e.habit_id,
                    habit_name=_str(e.habit_name), metadata_json=_dec(e.metadata_json),
                    proof_id=e.proof_id if newer else 0, date=_date(e.day) if newer else None,
                    config_json=_dec(e.config_json) if newer else None)


def _rules(rules: HabitRules) -> N.HabitRules:
    r = _init(N.HabitRules)
    r.kind, r.target, r.direction = int(rules.kind), float(rules.target), int(rules.direction)
    r.start_day = _day(rules.start, "start")
    r.schedule = _enc(rules.schedule, "schedule")
    r.week_start = _i32(rules.week_start, "week_start")
    return r


def _states(days: Iterable[DayState]) -> Any:
    items = list(days)
    array = (N.DayState * max(len(items), 1))()
    for slot, state in zip(array, items):
        slot.day, slot.flags, slot.value = _day(state.date), int(state.flags), float(state.value)
        slot.entry_count = _i32(state.entry_count, "entry_count")
    return array, len(items)


# ---- lists -------------------------------------------------------------------------------------------------


# Each kind of list's count, get and free, by the prefix of its hc_<prefix>_list_open.
_LIST_CALLS: dict[str, tuple[Any, Any, Any]] = {
    "habit": (lib.hc_habit_list_count, lib.hc_habit_list_get, lib.hc_habit_list_free),
    "entry": (lib.hc_entry_list_count, lib.hc_entry_list_get, lib.hc_entry_list_free),
    "credit": (lib.hc_credit_list_count, lib.hc_credit_list_get, lib.hc_credit_list_free),
    "award": (lib.hc_award_list_count, lib.hc_award_list_get, lib.hc_award_list_free),
    "event": (lib.hc_event_list_count, lib.hc_event_list_get, lib.hc_event_list_free),
    "change": (lib.hc_change_list_count, lib.hc_change_list_get, lib.hc_change_list_free),
    "verdict": (lib.hc_verdict_list_count, lib.hc_verdict_list_get, lib.hc_verdict_list_free),
    "reminder_rule": (lib.hc_reminder_rule_list_count, lib.hc_reminder_rule_list_get, lib.hc_reminder_rule_list_free),
    "reminder": (lib.hc_reminder_list_count, lib.hc_reminder_list_get, lib.hc_reminder_list_free),
    "shield_rule": (lib.hc_shield_rule_list_count, lib.hc_shield_rule_list_get, lib.hc_shield_rule_list_free),
    "timer": (lib.hc_timer_list_count, lib.hc_timer_list_get, lib.hc_timer_list_free),
}


class ListIterator(Generic[T]):
    """An iterator over one of the library's list snapshots (hc_*_list).

    The snapshot is taken when the method returns (so errors are raised there), each
    item is copied out as it is reached, and the native list is freed once the iterator
    is exhausted, closed, used as a context manager, or collected. ``len()`` is the
    snapshot's size."""

    def __init__(self, handle: ctypes.c_void_p, prefix: str, struct: Any, convert: Callable[[Any], T]) -> None:
        self._handle: ctypes.c_void_p | None = handle
        count_call, self._get, self._free = _LIST_CALLS[prefix]
        self._struct = struct
        self._convert = convert
        count = ctypes.c_int64()
        try:
            _check(count_call(ctypes.byref(count), handle))
        except BaseException:
            self.close()
            raise
        self._count = count.value
        self._index = 0

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> ListIterator[T]:
        return self

    def __next__(self) -> T:
        if self._handle is None or self._index >= self._count:
            self.close()
            raise StopIteration
        item = ctypes.POINTER(self._struct)()
        _check(self._get(ctypes.byref(item), self._handle, self._index))
        self._index += 1
        return self._convert(item.contents)

    def close(self) -> None:
        """Frees the native list; the iterator then yields nothing more."""
        if self._handle is not None:
            handle, self._handle = self._handle, None
            self._free(handle)

    def __enter__(self) -> ListIterator[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


def _open_list(prefix: str, struct: Any, convert: Callable[[Any], T], opener: Callable[[Any], int]) -> ListIterator[T]:
    handle = ctypes.c_void_p()
    _check(opener(ctypes.byref(handle)))
    return ListIterator(handle, prefix, struct, convert)


def _copied(out: ctypes.c_void_p) -> str:
    """A string the library allocated, copied (not freed here)."""
    return ctypes.string_at(out).decode("utf-8") if out.value else ""


def _owned_text(call: Callable[[Any], int]) -> str:
    """Runs a call that hands back a string to free with hc_free, and copies it."""
    out = ctypes.c_void_p()
    _check(call(ctypes.byref(out)))
    try:
        return _copied(out)
    finally:
        lib.hc_free(out)


_UNSET: Any = object()

Progress = Callable[[int, int], Any]
"""A progress callback: ``progress(done, total)``; a true answer cancels the call."""


class _Callbacks:
    """The Python code one C call runs (progress callbacks, verifiers) and the Ctrl-C it may meet.

    Nothing may unwind through C, so a BaseException raised in that code is kept (the
    first one) and raised again once the call returns, as pygit2 does; the callbacks
    answer "stop" from then on. Python runs a signal handler only between its own
    bytecodes, here at the entry of the next callback, where an exception would escape
    before any ``try``: so while the call runs, the main thread's SIGINT handler is
    wrapped to keep what it raises (``KeyboardInterrupt``) instead, and the call stops
    at its next progress tick. The thread's active instance is where verifiers, which
    are registered long before the call, keep theirs."""

    _active = threading.local()

    def __init__(self) -> None:
        self.error: BaseException | None = None
        self._outer: _Callbacks | None = None
        self._handler: Any = None

    @classmethod
    def current(cls) -> _Callbacks | None:
        active: _Callbacks | None = getattr(cls._active, "calls", None)
        return active

    def keep(self, error: BaseException) -> None:
        if self.error is None:
            self.error = error

    def _interrupted(self, signum: int, frame: Any) -> None:
        try:
            self._handler(signum, frame)
        except BaseException as error:
            self.keep(error)

    def progress(self, progress: Progress | None) -> Any:
        """A hc_transfer_progress that calls progress; it stops the call once anything is kept."""

        def tick(done: int, total: int, _user_data: Any) -> int:
            try:
                if self.error is None and progress is not None and progress(done, total):
                    return 1
            except BaseException as error:
                self.keep(error)
            return 0 if self.error is None else 1

        return N.TRANSFER_PROGRESS(tick)

    def __enter__(self) -> _Callbacks:
        self._outer, _Callbacks._active.calls = _Callbacks.current(), self
        if threading.current_thread() is threading.main_thread():
            handler = signal.getsignal(signal.SIGINT)
            if callable(handler):
                self._handler = handler
                signal.signal(signal.SIGINT, self._interrupted)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handler is not None:
            signal.signal(signal.SIGINT, self._handler)
            self._handler = None
        _Callbacks._active.calls = self._outer

    def check(self, status: int) -> None:
        """Raises what the callbacks kept, else the exception for a failed status."""
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        _check(status)

Verifier = Callable[[Evidence], Judgement]
"""A Python verifier: judges one piece of evidence."""


# ---- the store ---------------------------------------------------------------------------------------------



# Verifier callbacks the library holds, by token (their user_data); the library gives
# each back once through _RELEASE_VERIFIER, so a store needs no registry of its own.
_HELD: dict[int, Any] = {}
_TOKENS = itertools.count(1)  # next() is atomic: threads registering at once get distinct tokens


def _hold(function: Any) -> int:
    token = next(_TOKENS)
    _HELD[token] = function
    return token


def _release_verifier(user_data: Any) -> None:
    if user_data is not None:
        _HELD.pop(int(user_data), None)


_RELEASE_VERIFIER = N.RELEASE_CALLBACK(_release_verifier)

class Store:
    """An open habitcore store (a SQLite file): ``hc_store``.

    Use it as a context manager, which closes it, or call :meth:`close`. A closed store
    raises :class:`MisuseError` with the library's message on every call. A store may be
    shared by threads (the library serialises calls on it); explicit transactions belong
    to the handle, so give each thread its own store if they use them.

    >>> import habitcore, tempfile, os, datetime
    >>> path = os.path.join(tempfile.mkdtemp(), "habits.db")
    >>> with habitcore.Store(path) as store:
    ...     water = store.create_habit("Water", kind=habitcore.Kind.COUNTER, target=8)
    ...     _ = store.append(water, habitcore.EntryKind.AMOUNT, 3, date=datetime.date(2026, 3, 8))
    ...     store.day_total(water, datetime.date(2026, 3, 8))
    3.0
    """

    def __init__(self, path: str | os.PathLike[str] | bytes, *, readonly: bool = False, create: bool = True,
                 sync_full: bool = False) -> None:
        """Opens (and unless ``create=False`` creates) the store at path."""
        flags = OpenFlag(0)
        if readonly:
            flags |= OpenFlag.READONLY
        if not create:
            flags |= OpenFlag.NOCREATE
        if sync_full:
            flags |= OpenFlag.SYNC_FULL
        encoded = _enc(os.fsencode(path), "path")
        handle = ctypes.c_void_p()
        self._handle: ctypes.c_void_p | None = None
        _check(lib.hc_store_open(ctypes.byref(handle), encoded, int(flags)))
        self._handle = handle

    # ---- lifetime

    @property
    def closed(self) -> bool:
        return self._handle is None

    def close(self) -> None:
        """Closes the store, rolling back an open transaction. Closing twice does nothing."""
        if self._handle is not None:
            handle, self._handle = self._handle, None
            _check(lib.hc_store_close(handle))  # releases the verifiers (_release_verifier)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    @property
    def _h(self) -> ctypes.c_void_p | None:
        # None after close: the library answers HC_E_MISUSE with its own message.
        return self._handle

    def set_busy_timeout(self, ms: int) -> None:
        """How long calls on this store wait for another connection's lock before
        :class:`BusyError` (0...600000 ms; 0: not at all). The library's default is
        5000 ms, 100 ms for a store opened read-only."""
        _check(lib.hc_store_set_busy_timeout(self._h, _i32(ms, "ms")))

    # ---- settings and time

    @property
    def schema_version(self) -> int:
        out = ctypes.c_int32()
        _check(lib.hc_store_schema_version(ctypes.byref(out), self._h))
        return out.value

    @property
    def timezone(self) -> str:
        """The home time zone: an IANA name, "UTC" or "+05:30"."""
        return _owned_text(lambda out: lib.hc_store_timezone(out, self._h))

    @timezone.setter
    def timezone(self, name: str) -> None:
        _check(lib.hc_store_set_timezone(self._h, _enc(name, "timezone")))

    @property
    def day_start(self) -> int:
        """Minutes after local midnight at which a habit day starts."""
        out = ctypes.c_int32()
        _check(lib.hc_store_day_start(ctypes.byref(out), self._h))
        return out.value

    @day_start.setter
    def day_start(self, minutes: int) -> None:
        _check(lib.hc_store_set_day_start(self._h, _i32(minutes, "day_start")))

    @property
    def week_start(self) -> int:
        """The first day of the week for weekly quotas: 0 = Sunday ... 6 = Saturday."""
        out = ctypes.c_int32()
        _check(lib.hc_store_week_start(ctypes.byref(out), self._h))
        return out.value

    @week_start.setter
    def week_start(self, weekday: int) -> None:
        _check(lib.hc_store_set_week_start(self._h, _i32(weekday, "week_start")))

    def today(self) -> datetime.date:
        """Today's habit day in the home zone."""
        out = ctypes.c_int32()
        _check(lib.hc_store_today(ctypes.byref(out), self._h))
        return _date(out.value)

    def local_day(self, utc_ms: int) -> datetime.date:
        """The habit day the UTC instant (ms) falls on."""
        out = ctypes.c_int32()
        _check(lib.hc_store_local_day(ctypes.byref(out), self._h, _i64(utc_ms, "utc_ms")))
        return _date(out.value)

    def utc_ms(self, date: DateLike, minute: int) -> int:
        """The UTC instant (ms) of local minute (0..1439) of a habit day."""
        out = ctypes.c_int64()
        _check(lib.hc_store_utc_ms(ctypes.byref(out), self._h, _day(date), _i32(minute, "minute")))
        return out.value

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Store]:
        """Everything inside is written at once, or (on an exception) not at all."""
        _check(lib.hc_store_begin(self._h))
        try:
            yield self
        except BaseException:
            lib.hc_store_rollback(self._h)
            raise
        _check(lib.hc_store_commit(self._h))

    def export(self, format: Format = Format.JSON) -> str:
        """The whole store as text (docs/FORMATS.md)."""
        return _owned_text(lambda out: lib.hc_store_export(out, self._h, int(format)))

    def import_text(self, text: str, format: Format = Format.DETECT) -> None:
        """Imports an export (any store's), all or nothing. The library's call has no
        progress callback, so Ctrl-C waits for it to end: :meth:`import_file` stops at once."""
        _check(lib.hc_store_import(self._h, _enc(text, "text"), int(format)))

    def export_file(self, path: str | os.PathLike[str] | bytes, format: Format = Format.JSON, *,
                    progress: Progress | None = None) -> None:
        """:meth:`export` written to a file record by record (memory stays flat), which
        appears at path whole or not at all; an existing file is replaced.

        ``progress(done, total)`` counts records; return a true value to cancel
        (:class:`CancelledError`). Ctrl-C (or an exception in progress) cancels at the
        next tick and is raised; on any error or cancel path is left as it was."""
        self._transfer(lib.hc_store_export_file, path, format, progress)

    def import_file(self, path: str | os.PathLike[str] | bytes, format: Format = Format.DETECT, *,
                    progress: Progress | None = None) -> None:
        """:meth:`import_text` of a file, all or nothing in one transaction (JSON Lines are
        read a line at a time).

        ``progress(done, total)`` counts the file's bytes (each record is written as read);
        return a true value to cancel (:class:`CancelledError`). Ctrl-C (or an
        exception in progress) cancels at the next tick and is raised; a cancelled
        import writes nothing. (The last tick comes once everything is written: Ctrl-C
        from then on is raised after the import.)"""
        self._transfer(lib.hc_store_import_file, path, format, progress)

    def _transfer(self, call: Any, path: str | os.PathLike[str] | bytes, format: Format,
                  progress: Progress | None) -> None:
        encoded = _enc(os.fsencode(path), "path")
        with _Callbacks() as calls:
            tick = calls.progress(progress)
            status = call(self._h, encoded, int(format), tick, None)
        calls.check(status)

    def backup(self, path: str | os.PathLike[str] | bytes) -> None:
        """A consistent copy of the whole store in a new file at path (0600), opened
        like this one; others may keep writing meanwhile. An existing file is never
        overwritten (:class:`ConflictError`)."""
        _check(lib.hc_store_backup(self._h, _enc(os.fsencode(path), "path")))

    # ---- sync between a person's devices (the merge rules are the header's, above hc_sync_summary)

    def sync_state(self) -> bytes:
        """What this store has seen (a version vector): give it to a peer's sync_changes."""
        return bytes(_buffer(ctypes.c_uint8, lambda out, capacity, count: lib.hc_sync_state(out, capacity, count, self._h)))

    def sync_replica(self) -> bytes:
        """This store's replica id (16 bytes)."""
        return bytes(_buffer(ctypes.c_uint8,
                             lambda out, capacity, count: lib.hc_sync_replica(out, capacity, count, self._h)))

    def sync_changes(self, peer_state: bytes = b"", *, evidence: bool = False) -> bytes:
        """Every record a peer whose sync_state is peer_state lacks, as one changeset (b"": a peer with nothing);
        with evidence, the proofs it carries bring their kept photos."""
        out = ctypes.POINTER(ctypes.c_uint8)()
        size = ctypes.c_int64()
        flags = N.SYNC_EVIDENCE if evidence else 0
        _check(lib.hc_sync_changes_v2(ctypes.byref(out), ctypes.byref(size), self._h, bytes(peer_state), len(peer_state), flags))
        try:
            return ctypes.string_at(out, size.value) if out else b""
        finally:
            lib.hc_free(out)

    def sync_apply(self, changes: bytes) -> SyncSummary:
        """Applies a peer's changeset (in any order, any number of times); a damaged one
        raises InvalidArgumentError and writes nothing."""
        summary = _init(N.SyncSummary)
        _check(lib.hc_sync_apply(ctypes.byref(summary), self._h, bytes(changes), len(changes)))
        return SyncSummary(*(getattr(summary, field[0]) for field in N.SyncSummary._fields_[1:]))

    def sync_with(self, other: Store) -> tuple[SyncSummary, SyncSummary]:
        """Both ways with another store: what it lacks of this one, then what this one lacks of it."""
        there = other.sync_apply(self.sync_changes(other.sync_state()))
        here = self.sync_apply(other.sync_changes(self.sync_state()))
        return there, here

    def sync_canonical(self) -> str:
        """The synced records as text without local ids: equal on replicas that exchanged everything."""
        return _owned_text(lambda out: lib.hc_sync_canonical(out, self._h))

    # ---- other apps' data (the mappings are the header's)

    def import_loop_csv(self, habits_csv: str, checkmarks_csv: str) -> None:
        """Imports Loop Habit Tracker's Habits.csv and Checkmarks.csv, all or nothing."""
        _check(lib.hc_store_import_loop_csv(self._h, _enc(habits_csv, "habits_csv"),
                                            _enc(checkmarks_csv, "checkmarks_csv")))

    def import_loop_zip(self, data: bytes) -> None:
        """Imports the zip Loop Habit Tracker's CSV export hands its users (its bytes),
        notes included, all or nothing."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"data must be bytes, not {type(data).__name__}")
        content = bytes(data)
        _check(lib.hc_store_import_loop_zip(self._h, content, len(content)))

    def import_loop_db(self, path: str | os.PathLike[str] | bytes) -> None:
        """Imports Loop Habit Tracker's full backup (its SQLite file, left as it is),
        reminders included, all or nothing."""
        _check(lib.hc_store_import_loop_db(self._h, _enc(os.fsencode(path), "path")))

    def export_loop_csv(self, to: DateLike | None = None) -> tuple[str, str]:
        """The store as Loop Habit Tracker's (Habits.csv, Checkmarks.csv), days up to
        ``to`` (None: today)."""
        habits, checkmarks = ctypes.c_void_p(), ctypes.c_void_p()
        try:
            _check(lib.hc_store_export_loop_csv(ctypes.byref(habits), ctypes.byref(checkmarks), self._h, _day(to, "to")))
            return _copied(habits), _copied(checkmarks)
        finally:
            lib.hc_free(habits)
            lib.hc_free(checkmarks)

    def import_habitbull_csv(self, csv: str) -> None:
        """Imports HabitBull's CSV export, all or nothing."""
        _check(lib.hc_store_import_habitbull_csv(self._h, _enc(csv, "csv")))

    # ---- habits

    def create_habit(self, name: str, *, kind: Kind = Kind.CHECKMARK, target: float | None = None,
                     direction: Direction | None = None, routine: Routine | None = None, group: str | None = None,
                     unit: str | None = None, schedule: str | None = None, start: DateLike | None = None,
                     proof_required: bool = False, description: str | None = None, question: str | None = None,
                     colour: str | None = None, icon: str | None = None, position: int = 0) -> Habit:
        """Creates a habit and returns it as stored. Unset arguments keep the library's defaults.
        colour is "#RRGGBB"; description, question, icon and position are what an app shows."""
        o = _init(N.HabitOptions)
        o.kind, o.name = int(kind), _enc(name, "name")
        if target is not None:
            o.target = float(target)
        if direction is not None:
            o.direction = int(direction)
        if routine is not None:
            o.routine = int(routine)
        o.group_name, o.unit, o.schedule = _enc(group, "group"), _enc(unit, "unit"), _enc(schedule, "schedule")
        if start is not None:
            o.start_day = _day(start, "start")
        o.proof_required = 1 if proof_required else 0
        o.description, o.question = _enc(description, "description"), _enc(question, "question")
        o.colour, o.icon, o.position = _enc(colour, "colour"), _enc(icon, "icon"), _i64(position, "position")
        out = ctypes.c_int64()
        _check(lib.hc_habit_create(ctypes.byref(out), self._h, ctypes.byref(o)))
        return self.habit(out.value)

    def _one_habit(self, call: Callable[[Any], int]) -> Habit:
        out = ctypes.POINTER(N.Habit)()
        _check(call(ctypes.byref(out)))
        try:
            return _habit(out.contents)
        finally:
            lib.hc_habit_free(out)

    def habit(self, habit: HabitRef) -> Habit:
        """The habit with this id, active or archived."""
        return self._one_habit(lambda out: lib.hc_habit_get(out, self._h, _hid(habit)))

    def find_habit(self, name: str) -> Habit:
        """The active habit with this name (case folded)."""
        return self._one_habit(lambda out: lib.hc_habit_find(out, self._h, _enc(name, "name")))

    def update_habit(self, habit: HabitRef, *, name: str = _UNSET, target: float = _UNSET,
                     direction: Direction = _UNSET, group: str | None = _UNSET, unit: str | None = _UNSET,
                     routine: Routine = _UNSET, proof_required: bool = _UNSET, schedule: str = _UNSET,
                     start: DateLike = _UNSET, description: str | None = _UNSET, question: str | None = _UNSET,
                     colour: str | None = _UNSET, icon: str | None = _UNSET, position: int = _UNSET,
                     from_day: DateLike | None = None) -> Habit:
        """Changes the fields given and returns the habit as stored. Schedule, target and
        direction, group and proof change from from_day on (None: today; an earlier day
        re-judges the days from it through today, and their completion credits follow);
        the days before keep theirs. None (or "") clears description, question, colour or icon."""
        o = _init(N.HabitOptions)
        fields = HabitField(0)
        if name is not _UNSET:
            fields |= HabitField.NAME
            o.name = _enc(name, "name")
        if target is not _UNSET or direction is not _UNSET:
            fields |= HabitField.TARGET
            current = self.habit(habit) if target is _UNSET or direction is _UNSET else None
            o.target = float(current.target if current and target is _UNSET else target)
            o.direction = int(current.direction if current and direction is _UNSET else direction)
        if group is not _UNSET:
            fields |= HabitField.GROUP
            o.group_name = _enc(group, "group")
        if unit is not _UNSET:
            fields |= HabitField.UNIT
            o.unit = _enc(unit, "unit")
        if routine is not _UNSET:
            fields |= HabitField.ROUTINE
            o.routine = int(routine)
        if proof_required is not _UNSET:
            fields |= HabitField.PROOF
            o.proof_required = 1 if proof_required else 0
        if schedule is not _UNSET:
            fields |= HabitField.SCHEDULE
            o.schedule = _enc(schedule, "schedule")
        if start is not _UNSET:
            fields |= HabitField.START_DAY
            o.start_day = _day(start, "start")
        for field, value, flag in (("description", description, HabitField.DESCRIPTION), ("question", question, HabitField.QUESTION),
                                   ("colour", colour, HabitField.COLOUR), ("icon", icon, HabitField.ICON)):
            if value is not _UNSET:
                fields |= flag
                setattr(o, field, _enc(value, field))
        if position is not _UNSET:
            fields |= HabitField.POSITION
            o.position = _i64(position, "position")
        first, last = ctypes.c_int32(), ctypes.c_int32()
        _check(lib.hc_habit_update_from(self._h, _hid(habit), ctypes.byref(o), int(fields), _day(from_day, "from_day"),
                                        ctypes.byref(first), ctypes.byref(last)))
        return self.habit(habit)

    def archive_habit(self, habit: HabitRef, archived: bool = True, *,
                      from_day: DateLike | None = None) -> tuple[datetime.date, datetime.date] | None:
        """Archives a habit from from_day (None: today), or restores it with archived=False
        (a stretch archived and then restored is excused); its entries stay. Returns the
        days re-judged (first, last), or None when nothing changed."""
        first, last = ctypes.c_int32(), ctypes.c_int32()
        _check(lib.hc_habit_archive_from(self._h, _hid(habit), 1 if archived else 0, _day(from_day, "from_day"),
                                         ctypes.byref(first), ctypes.byref(last)))
        return None if first.value == N.DAY_NONE else (_date(first.value), _date(last.value))

    def habits(self, *, include_archived: bool = False) -> ListIterator[Habit]:
        """The habits, ordered by id."""
        flags = 1 if include_archived else 0
        return _open_list("habit", N.Habit, _habit, lambda out: lib.hc_habit_list_open(out, self._h, flags))

    # ---- the ledger

    def append(self, habit: HabitRef, kind: EntryKind = EntryKind.DONE, value: float = 0.0, *,
               date: DateLike | None = None, source: Source = Source.MANUAL, at_ms: int = 0, note: str | None = None,
               key: str | None = None) -> int:
        """Appends one entry and returns its id. ``date`` None derives the day from at_ms
        (0: now); ``key`` makes the call safe to retry."""
        e = _init(N.EntryInput)
        e.kind, e.habit_id, e.source, e.value = int(kind), _hid(habit), int(source), float(value)
        e.day, e.at_ms = _day(date), _i64(at_ms, "at_ms")
        e.note, e.key = _enc(note, "note"), _enc(key, "key")
        out = ctypes.c_int64()
        _check(lib.hc_entry_append(ctypes.byref(out), self._h, ctypes.byref(e)))
        return out.value

    def done(self, habit: HabitRef, date: DateLike | None = None, **kwargs: Any) -> int:
        """Marks the habit done on a day (today by default): a DONE entry."""
        return self.append(habit, EntryKind.DONE, 0.0, date=date, **kwargs)

    def undo(self, entry_id: int) -> int:
        """Cancels an entry by appending an UNDO; returns the undo's id."""
        out = ctypes.c_int64()
        _check(lib.hc_entry_undo(ctypes.byref(out), self._h, _i64(entry_id, "entry_id")))
        return out.value

    def undo_last(self, habit: HabitRef, date: DateLike | None = None) -> int:
        """Cancels the habit's latest standing entry of a day (today by default)."""
        out = ctypes.c_int64()
        _check(lib.hc_entry_undo_last(ctypes.byref(out), self._h, _hid(habit), _day(date)))
        return out.value

    def entries(self, habit: HabitRef | None, first: DateLike, last: DateLike) -> ListIterator[Entry]:
        """Entries of a habit (None: all) from first to last, in append order, UNDOs included."""
        hid = 0 if habit is None else _hid(habit)
        a, b = _day(first, "first"), _day(last, "last")
        return _open_list("entry", N.Entry, _entry, lambda out: lib.hc_entry_list_open(out, self._h, hid, a, b))

    def day_total(self, habit: HabitRef, date: DateLike) -> float:
        """The day's value: a checkmark's 1 or 0, a counter's total, a measurement's reading."""
        out = ctypes.c_double()
        _check(lib.hc_habit_day_total(ctypes.byref(out), self._h, _hid(habit), _day(date)))
        return out.value

    def day_states(self, habit: HabitRef, first: DateLike, last: DateLike) -> list[DayState]:
        """The habit's state on every day from first to last (at most 100000 days)."""
        hid, a, b = _hid(habit), _day(first, "first"), _day(last, "last")
        raw = _buffer(N.DayState, lambda out, cap, count: lib.hc_habit_day_states(out, cap, count, self._h, hid, a, b))
        return [_day_state(s) for s in raw]

    # ---- streaks, strength, scores

    def streaks(self, habit: HabitRef, as_of: DateLike | None = None) -> StreakResult:
        """The habit's current and longest streaks as of a day, and all its runs, longest first."""
        hid, day = _hid(habit), _day(as_of, "as_of")
        result = _init(N.StreakResult)
        runs = _buffer(N.Streak, lambda out, cap, count: lib.hc_habit_streaks(
            ctypes.byref(result), out, cap, count, self._h, hid, day))
        return _streak_result(result, runs)

    def store_streaks(self, as_of: DateLike | None = None) -> tuple[StreakResult, StreakResult]:
        """The store-wide (perfect-day, active-day) streaks."""
        perfect, active = _init(N.StreakResult), _init(N.StreakResult)
        _check(lib.hc_store_streaks(ctypes.byref(perfect), ctypes.byref(active), self._h, _day(as_of, "as_of")))
        return _streak_result(perfect), _streak_result(active)

    @property
    def streak_policy(self) -> StreakPolicy:
        """The store-wide streak policy."""
        out = _init(N.StreakPolicy)
        _check(lib.hc_store_streak_policy(ctypes.byref(out), self._h))
        return _policy(out)

    @streak_policy.setter
    def streak_policy(self, policy: StreakPolicy) -> None:
        _check(lib.hc_store_set_streak_policy(self._h, ctypes.byref(_native_policy(policy))))

    def habit_streak_policy(self, habit: HabitRef, *, own: bool = False) -> StreakPolicy:
        """The policy a habit's streaks follow; with own=True its own fields only."""
        out = _init(N.StreakPolicy)
        _check(lib.hc_habit_streak_policy(ctypes.byref(out), self._h, _hid(habit), 1 if own else 0))
        return _policy(out)

    def set_habit_streak_policy(self, habit: HabitRef, miss_allowance: int = -1,
                                open_day: OpenDay = OpenDay.INHERIT) -> None:
        """Sets a habit's own miss allowance and open day (-1 / INHERIT: the store's)."""
        policy = StreakPolicy(miss_allowance=miss_allowance, open_day=open_day, off_days=OffDays.NONE)
        _check(lib.hc_habit_set_streak_policy(self._h, _hid(habit), ctypes.byref(_native_policy(policy))))

    def add_vacation(self, first: DateLike, last: DateLike, habit: HabitRef | None = None) -> int:
        """Excuses first..last for a habit (None: every habit); returns the vacation's id."""
        out = ctypes.c_int64()
        hid = 0 if habit is None else _hid(habit)
        _check(lib.hc_vacation_add(ctypes.byref(out), self._h, hid, _day(first, "first"), _day(last, "last")))
        return out.value

    def remove_vacation(self, vacation_id: int) -> None:
        _check(lib.hc_vacation_remove(self._h, _i64(vacation_id, "vacation_id")))

    def vacations(self) -> list[Vacation]:
        """The vacations, by start day."""
        raw = _buffer(N.Vacation, lambda out, cap, count: lib.hc_vacation_list(out, cap, count, self._h))
        return [Vacation(id=v.id, habit_id=v.habit_id, first=_date(v.from_day), last=_date(v.to_day)) for v in raw]

    def day_scores(self, first: DateLike, last: DateLike) -> list[DayScore]:
        """Each day's score across habits."""
        a, b = _day(first, "first"), _day(last, "last")
        raw = _buffer(N.DayScore, lambda out, cap, count: lib.hc_store_day_scores(out, cap, count, self._h, a, b))
        return [DayScore(date=_date(s.day), due=s.due, done=s.done, excused=s.excused, score=s.score) for s in raw]

    def strength(self, habit: HabitRef, first: DateLike, last: DateLike) -> list[float]:
        """Loop-compatible habit strength at the end of each day."""
        hid, a, b = _hid(habit), _day(first, "first"), _day(last, "last")
        return [float(x) for x in _buffer(ctypes.c_double, lambda out, cap, count: lib.hc_habit_strength(
            out, cap, count, self._h, hid, a, b))]

    def completion(self, habit: HabitRef, first: DateLike, last: DateLike) -> Completion:
        """How often the habit's occurrences in first..last were kept."""
        out = _init(N.Completion)
        _check(lib.hc_habit_completion(ctypes.byref(out), self._h, _hid(habit), _day(first, "first"),
                                       _day(last, "last")))
        return _completion(out)

    def group_completion(self, group: str, first: DateLike, last: DateLike,
                         as_of: DateLike | None = None) -> tuple[Completion, Completion]:
        """A group's completion on as_of, and over first..last."""
        day, window = _init(N.Completion), _init(N.Completion)
        _check(lib.hc_group_completion(ctypes.byref(day), ctypes.byref(window), self._h, _enc(group, "group"),
                                       _day(as_of, "as_of"), _day(first, "first"), _day(last, "last")))
        return _completion(day), _completion(window)

    def group_day(self, group: str | None = None, date: DateLike | None = None) -> GroupDay:
        """A group's day (None: every habit; date None: today) read both ways, with each
        quota habit's period progress."""
        out = _init(N.GroupDay)
        name, day = _enc(group, "group"), _day(date)
        raw = _buffer(N.QuotaProgress, lambda buf, cap, count: lib.hc_group_day_rates(
            ctypes.byref(out), buf, cap, count, self._h, name, day))
        quota = tuple(QuotaProgress(habit_id=q.habit_id, period_first=_date(q.period_first), done=q.done,
                                    required=q.required, met=bool(q.met)) for q in raw)
        return GroupDay(date=_date(out.day), due=out.due, done=out.done, excused=out.excused, rate=out.rate, quota=quota,
                        all_due=out.all_due, all_done=out.all_done, all_excused=out.all_excused, all_rate=out.all_rate)

    def due(self, date: DateLike | None = None) -> list[DueItem]:
        """What is due on a day, grouped by routine and by name."""
        day = _day(date)
        raw = _buffer(N.DueItem, lambda out, cap, count: lib.hc_store_due(out, cap, count, self._h, day))
        return [DueItem(habit_id=d.habit_id, routine=_enum(Routine, d.routine), state=_enum(DueState, d.state),
                        value=d.value, target=d.target) for d in raw]

    def write_today_snapshot(self, path: str | os.PathLike[str] | bytes, at_ms: int = 0) -> None:
        """Writes what today shows at at_ms (UTC ms; 0: now) as a small JSON file at path,
        atomically, for a widget that cannot open SQLite (docs/FORMATS.md, "Today snapshot"):
        the due list with progress, state and streak, the day score, the last weeks as a grid,
        the routine, the next changes up to the next day start and the store revision. Works
        on a store opened read-only."""
        _check(lib.hc_today_snapshot_write(self._h, _enc(os.fsencode(path), "path"), _i64(at_ms, "at_ms")))

    @property
    def routine_bounds(self) -> tuple[int, int, int]:
        """Where morning, day and evening start, in minutes after the day start."""
        m, d, e = ctypes.c_int32(), ctypes.c_int32(), ctypes.c_int32()
        _check(lib.hc_store_routine_bounds(ctypes.byref(m), ctypes.byref(d), ctypes.byref(e), self._h))
        return m.value, d.value, e.value

    @routine_bounds.setter
    def routine_bounds(self, bounds: tuple[int, int, int]) -> None:
        m, d, e = bounds
        _check(lib.hc_store_set_routine_bounds(self._h, _i32(m, "morning"), _i32(d, "day"), _i32(e, "evening")))

    def routine_at(self, at_ms: int = 0) -> Routine:
        """The routine at a UTC instant (0: now)."""
        out = ctypes.c_int32()
        _check(lib.hc_store_routine_at(ctypes.byref(out), self._h, _i64(at_ms, "at_ms")))
        return _enum(Routine, out.value)

    def measurements(self, habit: HabitRef, first: DateLike, last: DateLike) -> MeasurementStats:
        """A measurement habit's readings over first..last."""
        out = _init(N.MeasurementStats)
        _check(lib.hc_habit_measurements(ctypes.byref(out), self._h, _hid(habit), _day(first, "first"),
                                         _day(last, "last")))
        return MeasurementStats(count=out.count, latest_date=_opt_date(out.latest_day), latest=out.latest,
                                best_date=_opt_date(out.best_day), best=out.best, change=out.change)

    # ---- timers

    def start_timer(self, habit: HabitRef, *, auto_complete: bool = False, at_ms: int = 0) -> int:
        """Starts a timer on a duration habit at at_ms (0: now); returns its id. With
        ``auto_complete`` it stops itself when its running time reaches the day's target."""
        out = ctypes.c_int64()
        flags = N.HC_TIMER_AUTO_COMPLETE if auto_complete else 0
        _check(lib.hc_timer_start(ctypes.byref(out), self._h, _hid(habit), flags, _i64(at_ms, "at_ms")))
        return out.value

    def act_on_timer(self, timer_id: int, action: TimerAction, at_ms: int = 0) -> None:
        """Pauses, resumes, stops or discards a timer at at_ms (0: now)."""
        _check(lib.hc_timer_act(self._h, _i64(timer_id, "timer_id"), int(action), _i64(at_ms, "at_ms")))

    def timer_status(self, timer_id: int, at_ms: int = 0) -> TimerStatus:
        """Where a timer stands at at_ms (0: now)."""
        out = _init(N.TimerStatus)
        _check(lib.hc_timer_status_get(ctypes.byref(out), self._h, _i64(timer_id, "timer_id"), _i64(at_ms, "at_ms")))
        return _timer(out)

    def running_timers(self, at_ms: int = 0) -> ListIterator[TimerStatus]:
        """The timers running or paused at at_ms (0: now), oldest first."""
        at = _i64(at_ms, "at_ms")
        return _open_list("timer", N.TimerStatus, _timer, lambda out: lib.hc_timer_list_open(out, self._h, at))

    # ---- quit habits

    def relapse(self, habit: HabitRef, *, note: str | None = None, amount: float = 0.0, at_ms: int = 0,
                key: str | None = None) -> int:
        """Logs a relapse of a quit habit at at_ms (0: now), with an optional note and
        amount (a RELAPSE entry); returns its id."""
        return self.append(habit, EntryKind.RELAPSE, amount, at_ms=at_ms, note=note, key=key)

    def quit_status(self, habit: HabitRef, at_ms: int = 0) -> QuitStatus:
        """Where a quit habit stands at at_ms (0: now)."""
        out = _init(N.QuitStatus)
        _check(lib.hc_quit_status_get(ctypes.byref(out), self._h, _hid(habit), _i64(at_ms, "at_ms")))
        relapsed = out.last_relapse_id != 0
        return QuitStatus(
            as_of=_date(out.as_of), at_ms=out.at_ms, last_relapse_id=out.last_relapse_id if relapsed else None,
            last_relapse_ms=out.last_relapse_ms if relapsed else None, last_relapse_date=_opt_date(out.last_relapse_day),
            days_since=out.days_since, since_ms=out.since_ms, current_clean_days=out.current_clean_days,
            best_clean_days=out.best_clean_days, best_clean_first=_opt_date(out.best_clean_first),
            best_clean_last=_opt_date(out.best_clean_last), clean_days=out.clean_days,
            period=_enum(QuitPeriod, out.period), period_first=_date(out.period_first),
            period_last=_date(out.period_last), period_relapses=out.period_relapses, allowance=out.allowance,
            over_allowance=bool(out.over_allowance), periods_within=out.periods_within,
            week_relapses=out.week_relapses, month_relapses=out.month_relapses, relapses=out.relapses,
            relapse_amount=out.relapse_amount, saved=out.saved)

    # ---- credits

    def create_account(self, name: str) -> int:
        """Creates a named credit account; returns its id."""
        out = ctypes.c_int64()
        _check(lib.hc_credit_account_create(ctypes.byref(out), self._h, _enc(name, "name")))
        return out.value

    def find_account(self, name: str) -> int:
        out = ctypes.c_int64()
        _check(lib.hc_credit_account_find(ctypes.byref(out), self._h, _enc(name, "name")))
        return out.value

    def set_credit_rule(self, kind: RuleKind, value: int, *, habit: HabitRef | None = None,
                        start: DateLike | None = None, account: int = 0) -> int:
        """Records a credit rule from a day on (today by default); returns its id."""
        out = ctypes.c_int64()
        hid = 0 if habit is None else _hid(habit)
        _check(lib.hc_credit_rule_set(ctypes.byref(out), self._h, _i64(account, "account"), int(kind), hid,
                                      _i64(value, "value"), _day(start, "start")))
        return out.value

    def credit_rules(self, account: int = 0) -> list[CreditRule]:
        acc = _i64(account, "account")
        raw = _buffer(N.CreditRule, lambda out, cap, count: lib.hc_credit_rule_list(out, cap, count, self._h, acc))
        return [CreditRule(id=r.id, kind=_enum(RuleKind, r.kind), account_id=r.account_id, habit_id=r.habit_id,
                           value=r.value, start=_date(r.from_day)) for r in raw]

    def sync_steps(self, steps: int, date: DateLike | None = None, *, account: int = 0) -> StepSync:
        """Reports a day's cumulative step total; only a higher total earns."""
        out = _init(N.StepSync)
        _check(lib.hc_credit_sync_steps(ctypes.byref(out), self._h, _i64(account, "account"), _day(date),
                                        _i64(steps, "steps")))
        return StepSync(date=_date(out.day), steps=out.steps, earned_now=out.earned_now, day_earned=out.day_earned)

    def spend(self, minutes: int, reason: str | None = None, *, unlock: bool = False, account: int = 0) -> int:
        """Spends minutes now (InsufficientCreditsError when short); returns the entry's id."""
        out = ctypes.c_int64()
        _check(lib.hc_credit_spend(ctypes.byref(out), self._h, _i64(account, "account"), _i64(minutes, "minutes"),
                                   _enc(reason, "reason"), 1 if unlock else 0))
        return out.value

    def adjust(self, minutes: int, reason: str | None = None, *, account: int = 0) -> int:
        """A correction by hand, + or -; returns the entry's id."""
        out = ctypes.c_int64()
        _check(lib.hc_credit_adjust(ctypes.byref(out), self._h, _i64(account, "account"), _i64(minutes, "minutes"),
                                    _enc(reason, "reason")))
        return out.value

    def credit_day(self, date: DateLike | None = None, *, account: int = 0) -> CreditDay:
        out = _init(N.CreditDay)
        _check(lib.hc_credit_day_summary(ctypes.byref(out), self._h, _i64(account, "account"), _day(date)))
        return CreditDay(date=_date(out.day), steps=out.steps, carried_in=out.carried_in, earned=out.earned,
                         spent=out.spent, adjusted=out.adjusted, expired=out.expired, available=out.available,
                         refunded=out.refunded)

    def balance(self, account: int = 0) -> int:
        """The minutes that can be spent now (negative: a debt)."""
        out = ctypes.c_int64()
        _check(lib.hc_credit_balance(ctypes.byref(out), self._h, _i64(account, "account")))
        return out.value

    def unlock_state(self, at_ms: int = 0, *, account: int = 0) -> UnlockState:
        out = _init(N.UnlockState)
        _check(lib.hc_credit_unlock_state(ctypes.byref(out), self._h, _i64(account, "account"), _i64(at_ms, "at_ms")))
        return UnlockState(active=bool(out.active), session_id=out.session_id, start_ms=out.start_ms,
                           until_ms=out.until_ms)

    def end_session(self, session_id: int, at_ms: int = 0) -> int:
        """Ends an unlock session early; returns the minutes refunded."""
        out = ctypes.c_int64()
        _check(lib.hc_credit_session_end(ctypes.byref(out), self._h, _i64(session_id, "session_id"),
                                         _i64(at_ms, "at_ms")))
        return out.value

    def credit_entries(self, first: DateLike, last: DateLike, *, account: int = 0) -> ListIterator[CreditEntry]:
        acc, a, b = _i64(account, "account"), _day(first, "first"), _day(last, "last")
        return _open_list("credit", N.CreditEntry, _credit_entry,
                          lambda out: lib.hc_credit_list_open(out, self._h, acc, a, b))

    # ---- awards, referrals, events

    def load_award_catalog(self, json: str) -> None:
        """Replaces the award catalogue with a JSON document (docs/FORMATS.md)."""
        _check(lib.hc_award_catalog_load(self._h, _enc(json, "json")))

    def reset_award_catalog(self) -> None:
        _check(lib.hc_award_catalog_reset(self._h))

    def award_catalog(self) -> str:
        """The catalogue as a JSON document."""
        return _owned_text(lambda out: lib.hc_award_catalog_json(out, self._h))

    def evaluate_awards(self, as_of: DateLike | None = None) -> ListIterator[Award]:
        """Records and returns the awards newly unlocked as of a day."""
        day = _day(as_of, "as_of")
        return _open_list("award", N.Award, _award, lambda out: lib.hc_award_evaluate(out, self._h, day))

    def unlocked_awards(self) -> ListIterator[Award]:
        return _open_list("award", N.Award, _award, lambda out: lib.hc_award_list_open_unlocked(out, self._h))

    def award_progress(self, as_of: DateLike | None = None) -> ListIterator[Award]:
        """Every award of the catalogue with its metric's value as of a day; records nothing."""
        day = _day(as_of, "as_of")
        return _open_list("award", N.Award, _award, lambda out: lib.hc_award_list_open_progress(out, self._h, day))

    def referral_code(self) -> str:
        return _owned_text(lambda out: lib.hc_referral_code(out, self._h))

    def redeem_referral(self, code: str) -> int:
        out = ctypes.c_int64()
        _check(lib.hc_referral_redeem(ctypes.byref(out), self._h, _enc(code, "code")))
        return out.value

    def events(self, after_id: int = 0, limit: int = 100, *, ack: bool = False) -> ListIterator[Event]:
        """Events with id > after_id, oldest first; ack=True takes them for this reader alone."""
        after, count = _i64(after_id, "after_id"), _i64(limit, "limit")
        return _open_list("event", N.Event, _event,
                          lambda out: lib.hc_event_list_read(out, self._h, after, count, 1 if ack else 0))

    # ---- the store revision and the change feed

    def revision(self) -> int:
        """The store revision: it grows with every commit of a logged write by any process."""
        out = ctypes.c_int64()
        _check(lib.hc_store_revision(ctypes.byref(out), self._h))
        return out.value

    def changes(self, after: int = 0, limit: int = 1000, *, merged: bool = False) -> ListIterator[Change]:
        """What the writes logged after revision ``after`` changed, oldest first, from at most
        ``limit`` writes; ``merged``: one change per area and habit for each run of touching days.
        Keep the last change's revision as the cursor."""
        rev, count = _i64(after, "after"), _i64(limit, "limit")
        flags = N.HC_CHANGES_MERGED if merged else 0
        return _open_list("change", N.Change, _change, lambda out: lib.hc_change_list_read(out, self._h, rev, count, flags))

    # ---- proofs and verifiers

    def register_verifier(self, verifier_id: str, version: str, judge: Verifier) -> None:
        """Plugs a Python function in as verifier ``verifier_id`` on this store handle.

        ``judge(evidence)`` returns a :class:`Judgement`. It runs on the thread that
        submits, while the store is held: a call on this store from inside it raises
        :class:`MisuseError` at once (another Store on the same file works). An exception
        in it (or an answer that is not a Judgement) becomes an error verdict, reason code
        ``python_exception``, whose message names the exception; it never crosses C.
        A ``BaseException`` that is not an ``Exception`` (``KeyboardInterrupt``,
        ``SystemExit``) is kept and raised again by the call that ran the verifier, once
        the library returns; the verifiers after it in that call are not run (each
        gets an error verdict)."""

        def callback(evidence: Any, out: Any, _user_data: Any) -> int:
            verdict = out.contents
            calls = _Callbacks.current()
            try:
                if calls is not None and calls.error is not None:
                    raise calls.error
                answer = judge(_evidence(evidence.contents))
                if not isinstance(answer, Judgement):
                    raise TypeError(f"a verifier returns a Judgement, not {type(answer).__name__}")
                verdict.outcome = int(answer.outcome)
                verdict.confidence = float(answer.confidence)
                verdict.reason_code = _cut(answer.reason_code, 64)
                verdict.message = _cut(answer.message, 512)
                verdict.signals = _cut(",".join(answer.signals), 512)
                return 0
            except BaseException as error:  # nothing may unwind through C
                if calls is not None and not isinstance(error, Exception):
                    calls.keep(error)
                # An error verdict that names the exception (a non-zero return would
                # replace the message with the library's "verify returned 1").
                try:
                    verdict.outcome = int(Outcome.ERROR)
                    verdict.confidence = 0.0
                    verdict.reason_code = b"python_exception"
                    verdict.message = _cut(f"{type(error).__name__}: {error}", 512)
                    verdict.signals = b""
                    return 0
                except BaseException:
                    return 1

        # ctypes callbacks must outlive their registration: held under a token (the
        # user_data) until the library releases it, once, when replaced, removed or closed.
        function = N.VERIFY_CALLBACK(callback)
        token = _hold(function)
        status = lib.hc_verifier_register_v2(self._h, _enc(verifier_id, "verifier_id"), _enc(version, "version"),
                                             function, token, _RELEASE_VERIFIER)
        if status != 0:
            _HELD.pop(token, None)  # a refused registration leaves it ours
        _check(status)

    def unregister_verifier(self, verifier_id: str) -> None:
        """Removes a Python verifier from this handle."""
        _check(lib.hc_verifier_register_v2(self._h, _enc(verifier_id, "verifier_id"), b"0", N.VERIFY_CALLBACK(), None,
                                           N.RELEASE_CALLBACK()))

    def set_proof_policy(self, verifiers: Iterable[str] = (), *, habit: HabitRef | None = None,
                         mode: PolicyMode | None = None, approve_threshold: float | None = None,
                         review_threshold: float | None = None, window: tuple[int, int] | None = None,
                         one_per_day: bool | None = None) -> None:
        """Sets a habit's proof policy (habit None: the store's). Unset arguments keep the library's defaults."""
        p = _init(N.ProofPolicy)
        if mode is not None:
            p.mode = int(mode)
        if approve_threshold is not None:
            p.approve_threshold = float(approve_threshold)
        if review_threshold is not None:
            p.review_threshold = float(review_threshold)
        if window is not None:
            p.window_start, p.window_end = _i32(window[0], "window start"), _i32(window[1], "window end")
        if one_per_day is not None:
            p.one_per_day = 1 if one_per_day else 0
        p.verifiers = _enc(",".join(verifiers), "verifiers")
        hid = 0 if habit is None else _hid(habit)
        _check(lib.hc_proof_policy_set(self._h, hid, ctypes.byref(p)))

    def proof_evidence(self, proof_id: int) -> bytes:
        """The photo a proof keeps (submitted with keep_copy, or synced with evidence);
        NotFoundError when it keeps none."""
        return bytes(_buffer(ctypes.c_uint8, lambda out, capacity, count: lib.hc_proof_evidence(
            out, capacity, count, self._h, _i64(proof_id, "proof_id"))))

    def submit_proof(self, habit: HabitRef, data: bytes | None = None, *, path: str | os.PathLike[str] | None = None,
                     media_type: str | None = None, taken_at_ms: int = 0, metadata_json: str | None = None,
                     keep_copy: bool = False) -> ProofResult:
        """Submits evidence (bytes, or a file) for a habit; a verdict that is not approved is
        still a result, not an error: read ``outcome``."""
        p = _init(N.ProofInput)
        p.habit_id = _hid(habit)
        keep: Any = None
        if path is not None:
            p.path = _enc(os.fsencode(path), "path")
        if data is not None:
            keep = (ctypes.c_uint8 * max(len(data), 1)).from_buffer_copy(bytes(data) or b"\0")
            p.bytes = ctypes.cast(keep, ctypes.POINTER(ctypes.c_uint8))
            p.size = len(data)
        p.media_type, p.metadata_json = _enc(media_type, "media_type"), _enc(metadata_json, "metadata_json")
        p.taken_at_ms = _i64(taken_at_ms, "taken_at_ms")
        p.flags = 1 if keep_copy else 0
        out = _init(N.ProofResult)
        with _Callbacks() as calls:
            status = lib.hc_proof_submit(ctypes.byref(out), self._h, ctypes.byref(p))
        del keep
        calls.check(status)
        return _proof_result(out)

    def review_proof(self, proof_id: int, outcome: Outcome, reviewer: str, reason: str) -> int | None:
        """Decides a proof by hand; returns the completion appended when approved."""
        out = ctypes.c_int64()
        _check(lib.hc_proof_review(ctypes.byref(out), self._h, _i64(proof_id, "proof_id"), int(outcome),
                                   _enc(reviewer, "reviewer"), _enc(reason, "reason")))
        return out.value or None

    def verdicts(self, *, habit: HabitRef | None = None, proof_id: int = 0) -> ListIterator[Verdict]:
        """Recorded verdicts in append order: of one proof, of a habit's proofs, or all."""
        hid, pid = 0 if habit is None else _hid(habit), _i64(proof_id, "proof_id")
        return _open_list("verdict", N.Verdict, _verdict, lambda out: lib.hc_verdict_list_open(out, self._h, hid, pid))

    def add_plugin(self, kind: PluginKind, path: str, *, plugin_id: str | None = None, timeout_ms: int = 0) -> str:
        """Registers a plugin in the store; returns its id."""
        return _owned_text(lambda out: lib.hc_plugin_add(out, self._h, int(kind), _enc(path, "path"),
                                                         _enc(plugin_id, "plugin_id"), _i64(timeout_ms, "timeout_ms")))

    def remove_plugin(self, plugin_id: str) -> None:
        _check(lib.hc_plugin_remove(self._h, _enc(plugin_id, "plugin_id")))

    def plugins_json(self) -> str:
        """The registered plugins as a JSON array."""
        return _owned_text(lambda out: lib.hc_plugin_list_json(out, self._h))

    def configure_plugin(self, plugin_id: str, config_json: str | None) -> None:
        _check(lib.hc_plugin_configure(self._h, _enc(plugin_id, "plugin_id"), _enc(config_json, "config_json")))

    def test_verifier(self, verifier_id: str, path: str | os.PathLike[str]) -> ProofResult:
        """Runs one verifier (Python or plugin) on a file; records nothing."""
        out = _init(N.ProofResult)
        verifier, file = _enc(verifier_id, "verifier_id"), _enc(os.fsencode(path), "path")
        with _Callbacks() as calls:
            status = lib.hc_plugin_test(ctypes.byref(out), self._h, verifier, file)
        calls.check(status)
        return _proof_result(out)

    # ---- reminders

    def _rule(self, minute: int, weekdays: int, quiet: Quiet, message: str | None) -> N.ReminderRule:
        r = _init(N.ReminderRule)
        r.minute, r.weekdays = _i32(minute, "minute"), _i32(weekdays, "weekdays")
        r.quiet, r.message = int(quiet), _enc(message, "message")
        return r

    def add_reminder(self, habit: HabitRef, minute: int, *, weekdays: int = 0, quiet: Quiet = Quiet.DEFER,
                     message: str | None = None) -> int:
        """Adds a reminder rule at local minute (0..1439); returns its id. weekdays: bits, 1 << 0 = Sunday."""
        r = self._rule(minute, weekdays, quiet, message)
        r.habit_id = _hid(habit)
        out = ctypes.c_int64()
        _check(lib.hc_reminder_rule_add(ctypes.byref(out), self._h, ctypes.byref(r)))
        return out.value

    def update_reminder(self, rule_id: int, minute: int, *, weekdays: int = 0, quiet: Quiet = Quiet.DEFER,
                        message: str | None = None, start: DateLike | None = None) -> None:
        """Changes a rule from a day on (today by default)."""
        r = self._rule(minute, weekdays, quiet, message)
        _check(lib.hc_reminder_rule_update(self._h, _i64(rule_id, "rule_id"), ctypes.byref(r), _day(start, "start")))

    def remove_reminder(self, rule_id: int, start: DateLike | None = None) -> None:
        _check(lib.hc_reminder_rule_remove(self._h, _i64(rule_id, "rule_id"), _day(start, "start")))

    def reminder_rules(self, habit: HabitRef | None = None, date: DateLike | None = None) -> ListIterator[ReminderRule]:
        """The rules in force on a day (today by default), of a habit or all."""
        hid, day = 0 if habit is None else _hid(habit), _day(date)
        return _open_list("reminder_rule", N.ReminderRule, _reminder_rule,
                          lambda out: lib.hc_reminder_rule_list_open(out, self._h, hid, day))

    def set_quiet_hours(self, hours: tuple[int, int] | None, start: DateLike | None = None) -> None:
        """Quiet hours as (start, end) local minutes, or None for none, from a day on."""
        a, b = hours if hours is not None else (-1, -1)
        _check(lib.hc_store_set_quiet_hours(self._h, _i32(a, "start"), _i32(b, "end"), _day(start, "start")))

    def quiet_hours(self, date: DateLike | None = None) -> tuple[int, int] | None:
        a, b = ctypes.c_int32(), ctypes.c_int32()
        _check(lib.hc_store_quiet_hours(ctypes.byref(a), ctypes.byref(b), self._h, _day(date)))
        return None if a.value < 0 else (a.value, b.value)

    def reminders(self, from_ms: int, to_ms: int, *, pending: bool = False,
                  claim: bool = False) -> ListIterator[Reminder]:
        """Reminder instants with from_ms <= at_ms < to_ms (UTC ms); claim=True records them delivered."""
        flags = (1 if pending else 0) | (2 if claim else 0)
        a, b = _i64(from_ms, "from_ms"), _i64(to_ms, "to_ms")
        return _open_list("reminder", N.Reminder, _reminder,
                          lambda out: lib.hc_reminder_list_open(out, self._h, a, b, flags))

    def reminder_fired(self, reminder: Reminder) -> bool:
        """Records a reminder delivered; True when this call recorded it (deliver only then)."""
        out = ctypes.c_int32()
        _check(lib.hc_reminder_fired(ctypes.byref(out), self._h, reminder.rule_id, _day(reminder.date),
                                     reminder.at_ms))
        return bool(out.value)

    def snooze_reminder(self, reminder: Reminder, until_ms: int) -> None:
        _check(lib.hc_reminder_snooze(self._h, reminder.rule_id, _day(reminder.date), reminder.at_ms,
                                      _i64(until_ms, "until_ms")))

    # ---- shields (the conventions are the header's, above HC_SHIELD_LIFT_ALL)

    def add_shield(self, name: str, habits: Iterable[HabitRef], key: str, *, days: str | None = None,
                   start_minute: int | None = None, end_minute: int | None = None, lift: ShieldLift | None = None,
                   session_lifts: bool | None = None, cutoff_lifts: bool | None = None,
                   excused_lifts: bool | None = None, fail_closed: bool | None = None, budget: ShieldBudget | None = None,
                   budget_count: int | None = None, start: DateLike | None = None) -> int:
        """Adds a shield rule in effect from start (None: today) and returns its id.

        It shields local minutes start_minute (None: the store's day start) to end_minute,
        the cutoff (None: midnight), on the dates days selects (schedule text; None:
        daily), until the habits (1..16) are done: all of them, or any with
        ``lift=ShieldLift.ANY``. ``key`` (not empty) is the app's own: its set of blocked apps.
        Arguments left None keep the library's defaults (every ``*_lifts`` and
        fail_closed on, emergency unlocks unlimited)."""
        r, array = _native_shield_rule(locals())
        out = ctypes.c_int64()
        _check(lib.hc_shield_rule_add(ctypes.byref(out), self._h, ctypes.byref(r), _day(start, "start")))
        del array
        return out.value

    def update_shield(self, rule_id: int, name: str, habits: Iterable[HabitRef], key: str, *,
                      days: str | None = None, start_minute: int | None = None, end_minute: int | None = None,
                      lift: ShieldLift | None = None, session_lifts: bool | None = None,
                      cutoff_lifts: bool | None = None, excused_lifts: bool | None = None,
                      fail_closed: bool | None = None, budget: ShieldBudget | None = None,
                      budget_count: int | None = None, start: DateLike | None = None) -> None:
        """Replaces a rule from start on (today or later; None: today) with what the arguments
        say, as :meth:`add_shield` reads them; the days before keep the version they had."""
        r, array = _native_shield_rule(locals())
        _check(lib.hc_shield_rule_update(self._h, _i64(rule_id, "rule_id"), ctypes.byref(r), _day(start, "start")))
        del array

    def remove_shield(self, rule_id: int, start: DateLike | None = None) -> None:
        """Ends a rule from start on (today or later; None: today)."""
        _check(lib.hc_shield_rule_remove(self._h, _i64(rule_id, "rule_id"), _day(start, "start")))

    def shield_rules(self, date: DateLike | None = None) -> ListIterator[ShieldRule]:
        """The rules in force on date (None: today), by id."""
        day = _day(date)
        return _open_list("shield_rule", N.ShieldRule, _shield_rule,
                          lambda out: lib.hc_shield_rule_list_open(out, self._h, day))

    def shield_state(self, at_ms: int = 0) -> ShieldState:
        """Every rule's state at at_ms (UTC ms; 0: now) and the revision, from one snapshot.
        Works on a store opened read-only."""
        revision = ctypes.c_int64()
        at = _i64(at_ms, "at_ms")
        statuses = _buffer(N.ShieldStatus, lambda out, capacity, count: lib.hc_shield_state(
            out, capacity, count, ctypes.byref(revision), self._h, at))
        return ShieldState(revision=revision.value, rules=[_shield_status(status) for status in statuses])

    def shield_transitions(self, from_ms: int, to_ms: int) -> ShieldTimeline:
        """Every instant in [from_ms, to_ms) (UTC ms, at most 92 days) where a rule's
        shielded state flips, by instant then rule, and the revision, from one snapshot."""
        revision = ctypes.c_int64()
        first, last = _i64(from_ms, "from_ms"), _i64(to_ms, "to_ms")
        transitions = _buffer(N.ShieldTransition, lambda out, capacity, count: lib.hc_shield_transitions(
            out, capacity, count, ctypes.byref(revision), self._h, first, last))
        return ShieldTimeline(revision=revision.value, transitions=[_shield_transition(t) for t in transitions])

    def shield_revision(self) -> int:
        """Changes with every write that can change a shield, from any process."""
        out = ctypes.c_int64()
        _check(lib.hc_shield_revision(ctypes.byref(out), self._h))
        return out.value

    def emergency_unlock(self, rule_id: int, minutes: int, reason: str | None = None) -> int:
        """Lifts a rule now for minutes (1..1440) within its budget and returns the unlock's
        id; :class:`InsufficientCreditsError` past the budget (nothing recorded)."""
        out = ctypes.c_int64()
        _check(lib.hc_shield_emergency_unlock(ctypes.byref(out), self._h, _i64(rule_id, "rule_id"),
                                              _i32(minutes, "minutes"), _enc(reason, "reason")))
        return out.value

    def write_shield_snapshot(self, path: str | os.PathLike[str] | bytes, at_ms: int = 0) -> None:
        """Writes each rule's state at at_ms (0: now), the next 24 hours' transitions and the
        revision as a small JSON file at path, atomically, for an extension too small to
        open SQLite."""
        _check(lib.hc_shield_snapshot_write(self._h, _enc(os.fsencode(path), "path"), _i64(at_ms, "at_ms")))


# ---- calls without a store ---------------------------------------------------------------------------------


def parse_date(text: str) -> datetime.date:
    """"YYYY-MM-DD" read by the library's parser."""
    return _date(_day(text))


def format_date(date: datetime.date) -> str:
    """A date as the library writes it."""
    buf = ctypes.create_string_buffer(11)
    _check(lib.hc_date_format(buf, 11, _day(date)))
    return buf.value.decode("ascii")


def library_version() -> str:
    """The loaded library's HC_VERSION_STRING."""
    return _str(lib.hc_version_string())


def library_version_number() -> int:
    """The loaded library's HC_VERSION_NUMBER (major * 1000000 + minor * 1000 + patch)."""
    return int(lib.hc_version_number())


def disable_sqlite_statistics() -> None:
    """For a process whose SQLite serves habitcore alone: turns off SQLite's memory
    statistics process-wide (a cold open and read run faster). Call it once, first,
    before any SQLite use in the process; afterwards it is :class:`MisuseError`."""
    _check(lib.hc_process_disable_sqlite_statistics())


def sync_state_replicas(state: bytes) -> list[tuple[bytes, int]]:
    """The replicas a :meth:`Store.sync_state` names, in ascending id order: each one's
    16-byte id and the sequence number up to which that state holds all its ops."""
    data = bytes(state)
    count = ctypes.c_int64()
    _check(lib.hc_sync_state_replicas(None, None, 0, ctypes.byref(count), data, len(data)))
    capacity = count.value
    replicas = (ctypes.c_uint8 * max(16 * capacity, 1))()
    sequences = (ctypes.c_int64 * max(capacity, 1))()
    _check(lib.hc_sync_state_replicas(replicas, sequences, capacity, ctypes.byref(count), data, len(data)))
    return [(bytes(replicas[16 * i:16 * (i + 1)]), sequences[i]) for i in range(min(count.value, capacity))]


def status_string(code: int) -> str:
    """The library's short name for a status code."""
    return _str(lib.hc_status_string(_i32(code, "code")))


def streak_compute(rules: HabitRules, days: Iterable[DayState], as_of: DateLike,
                   policy: StreakPolicy | None = None) -> StreakResult:
    """Streaks from day states a frontend keeps itself, by the same code as :meth:`Store.streaks`."""
    native_rules = _rules(rules)
    array, count = _states(days)
    day = _day(as_of, "as_of")
    result = _init(N.StreakResult)
    native_policy = None if policy is None else ctypes.byref(_native_policy(policy))
    runs = _buffer(N.Streak, lambda out, cap, total: lib.hc_streak_compute_with_policy(
        ctypes.byref(result), out, cap, total, ctypes.byref(native_rules), native_policy, array, count, day))
    return _streak_result(result, runs)


def strength_compute(rules: HabitRules, days: Iterable[DayState], first: DateLike, last: DateLike) -> list[float]:
    """Habit strength from day states a frontend keeps itself."""
    native_rules = _rules(rules)
    array, count = _states(days)
    a, b = _day(first, "first"), _day(last, "last")
    return [float(x) for x in _buffer(ctypes.c_double, lambda out, cap, total: lib.hc_strength_compute(
        out, cap, total, ctypes.byref(native_rules), array, count, a, b))]
