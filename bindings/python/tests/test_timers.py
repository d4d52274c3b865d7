"""Timers through the package: events folded by instant, a stopped timer counted once on its day."""
from __future__ import annotations

import datetime

import pytest

import habitcore
from habitcore import Kind, TimerAction, TimerState


def utc_ms(day: datetime.date, hour: int, minute: int = 0) -> int:
    moment = datetime.datetime(day.year, day.month, day.day, hour, minute, tzinfo=datetime.timezone.utc)
    return int(moment.timestamp() * 1000)


def test_a_timer_paused_resumed_and_stopped_counts_its_running_seconds_once(store: habitcore.Store) -> None:
    store.timezone = "UTC"
    day = datetime.date(2026, 5, 4)
    habit = store.create_habit("Piano", kind=Kind.DURATION, target=600.0, start=day - datetime.timedelta(days=3))
    t0 = utc_ms(day, 7)
    timer = store.start_timer(habit, at_ms=t0)
    other = store.start_timer(habit, at_ms=t0 + 60_000)
    store.act_on_timer(timer, TimerAction.PAUSE, at_ms=t0 + 5 * 60_000)
    running = list(store.running_timers(at_ms=t0 + 10 * 60_000))
    assert [(t.id, t.state, t.elapsed_ms) for t in running] == [
        (timer, TimerState.PAUSED, 5 * 60_000), (other, TimerState.RUNNING, 9 * 60_000)]
    store.act_on_timer(timer, TimerAction.RESUME, at_ms=t0 + 15 * 60_000)
    store.act_on_timer(timer, TimerAction.STOP, at_ms=t0 + 20 * 60_000 + 999)
    store.act_on_timer(other, TimerAction.DISCARD, at_ms=t0 + 20 * 60_000)
    s = store.timer_status(timer)
    assert (s.state, s.elapsed_ms, s.seconds, s.date, s.habit_id) == (TimerState.STOPPED, 10 * 60_000 + 999, 600, day, habit.id)
    assert s.ended_at_ms == t0 + 20 * 60_000 + 999 and not s.completed and not s.auto_complete
    assert store.day_total(habit, day) == 600
    assert list(store.running_timers()) == []
    with pytest.raises(habitcore.ConflictError):
        store.act_on_timer(timer, TimerAction.STOP)


def test_auto_complete_and_bad_input(store: habitcore.Store) -> None:
    store.timezone = "UTC"
    day = datetime.date(2026, 5, 4)
    habit = store.create_habit("Meditate", kind=Kind.DURATION, target=300.0, start=day)
    timer = store.start_timer(habit, auto_complete=True, at_ms=utc_ms(day, 6))
    s = store.timer_status(timer, at_ms=utc_ms(day, 7))
    assert (s.state, s.completed, s.auto_complete, s.seconds) == (TimerState.STOPPED, True, True, 300)
    assert s.ended_at_ms == utc_ms(day, 6, 5)
    floss = store.create_habit("Floss", start=day)
    with pytest.raises(habitcore.InvalidArgumentError):
        store.start_timer(floss)
    with pytest.raises(habitcore.NotFoundError):
        store.timer_status(9999)
    with pytest.raises(habitcore.InvalidArgumentError):
        store.act_on_timer(timer, TimerAction.START)
