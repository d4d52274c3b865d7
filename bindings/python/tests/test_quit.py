"""Quit habits through the package: relapses are entries, quit_status folds them."""
from __future__ import annotations

import datetime

import pytest

import habitcore
from habitcore import EntryKind, Kind, QuitPeriod


def utc_ms(day: datetime.date, hour: int = 12) -> int:
    moment = datetime.datetime(day.year, day.month, day.day, hour, tzinfo=datetime.timezone.utc)
    return int(moment.timestamp() * 1000)


def test_relapses_days_since_clean_runs_and_the_weekly_allowance(store: habitcore.Store) -> None:
    store.timezone = "UTC"
    store.week_start = 1
    start = datetime.date(2026, 3, 2)  # a Monday
    habit = store.create_habit("Smoking", kind=Kind.QUIT, schedule="weekly:1", target=4.0, unit="EUR", start=start)
    assert habit.kind == Kind.QUIT
    first = store.relapse(habit, note="party", amount=3, at_ms=utc_ms(start + datetime.timedelta(days=9)))
    second = store.relapse(habit, at_ms=utc_ms(start + datetime.timedelta(days=10)))
    as_of = start + datetime.timedelta(days=12)
    s = store.quit_status(habit, at_ms=utc_ms(as_of, 18))
    assert s.as_of == as_of
    assert s.last_relapse_id == second
    assert s.last_relapse_date == start + datetime.timedelta(days=10)
    assert s.days_since == 2
    assert s.since_ms == 2 * 86_400_000 + 6 * 3_600_000
    assert (s.current_clean_days, s.best_clean_days) == (2, 9)
    assert s.best_clean_first == start and s.best_clean_last == start + datetime.timedelta(days=8)
    assert s.period == QuitPeriod.WEEK
    assert (s.period_first, s.period_last) == (start + datetime.timedelta(days=7), start + datetime.timedelta(days=13))
    assert (s.period_relapses, s.allowance, s.over_allowance, s.periods_within) == (2, 1, True, 0)
    assert s.relapses == 2 and s.relapse_amount == 3
    assert s.saved == pytest.approx(11 * 4.0)
    # The relapse keeps its note; undo takes it back like any entry.
    notes = [e.note for e in store.entries(habit, start, as_of) if e.kind == EntryKind.RELAPSE]
    assert notes == ["party", None]
    store.undo(second)
    after = store.quit_status(habit, at_ms=utc_ms(as_of, 18))
    assert (after.last_relapse_id, after.period_relapses, after.over_allowance) == (first, 1, False)


def test_a_quit_habit_refuses_other_entries_and_other_schedules(store: habitcore.Store) -> None:
    quit = store.create_habit("Sugar", kind=Kind.QUIT)
    read = store.create_habit("Read")
    with pytest.raises(habitcore.InvalidArgumentError, match="not a quit habit"):
        store.quit_status(read)
    with pytest.raises(habitcore.InvalidArgumentError):
        store.relapse(read)
    with pytest.raises(habitcore.InvalidArgumentError):
        store.done(quit)
    with pytest.raises(habitcore.InvalidArgumentError, match="allowance"):
        store.create_habit("Nails", kind=Kind.QUIT, schedule="days:mon")
    with pytest.raises(habitcore.NotFoundError):
        store.quit_status(10_000)
    fresh = store.quit_status(quit)
    assert fresh.last_relapse_id is None and fresh.last_relapse_date is None
    assert fresh.current_clean_days == 1 and fresh.period == QuitPeriod.DAY
