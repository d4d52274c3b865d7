"""Streaks, strength, scores, completion, vacations, due lists, measurements: store-backed and pure."""
from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

import habitcore
from habitcore import DayFlag, DayState, HabitRules, Kind, Store, StreakPolicy

D = datetime.date


def _march(store: Store) -> habitcore.Habit:
    read = store.create_habit("Read", start=D(2026, 3, 1))
    for day in (1, 2, 3, 4, 5, 7):
        store.done(read, D(2026, 3, day))
    return read


def test_streaks_and_runs(store: Store) -> None:
    read = _march(store)
    at_fifth = store.streaks(read, as_of=D(2026, 3, 5))
    assert at_fifth.unit == habitcore.StreakUnit.DAYS
    assert (at_fifth.current.length, at_fifth.current.first, at_fifth.current.last) == (5, D(2026, 3, 1), D(2026, 3, 5))
    later = store.streaks(read, as_of=D(2026, 3, 7))
    assert later.current.length == 1 and later.longest.length == 5
    assert [run.length for run in later.runs] == [5, 1]
    perfect, active = store.store_streaks(as_of=D(2026, 3, 7))
    assert perfect.longest.length == 5 and active.current.length == 1


def test_pure_streaks_and_strength_agree_with_the_store(store: Store) -> None:
    read = _march(store)
    states = store.day_states(read, D(2026, 3, 1), D(2026, 3, 7))
    rules = HabitRules(kind=Kind.CHECKMARK, start=D(2026, 3, 1))
    pure = habitcore.streak_compute(rules, states, D(2026, 3, 7))
    assert pure == store.streaks(read, as_of=D(2026, 3, 7))
    strength = store.strength(read, D(2026, 3, 1), D(2026, 3, 7))
    assert len(strength) == 7 and strength[0] > 0 and strength[4] > strength[0] and strength[5] < strength[4]
    assert habitcore.strength_compute(rules, states, D(2026, 3, 1), D(2026, 3, 7)) == strength
    made_up = [DayState(D(2026, 3, n), DayFlag.DONE, 1.0, 1) for n in range(1, 11)]
    assert habitcore.streak_compute(rules, made_up, D(2026, 3, 10)).current.length == 10


def test_policies_and_vacations(store: Store) -> None:
    read = _march(store)
    assert store.streak_policy == StreakPolicy()  # the library's defaults
    store.streak_policy = StreakPolicy(miss_allowance=1)
    forgiving = store.streaks(read, as_of=D(2026, 3, 7))
    assert forgiving.current.length == 6 and forgiving.current_forgiven == 1
    store.set_habit_streak_policy(read, miss_allowance=0)
    assert store.habit_streak_policy(read, own=True).miss_allowance == 0
    assert store.streaks(read, as_of=D(2026, 3, 7)).current.length == 1
    store.set_habit_streak_policy(read)  # back to the store's
    store.streak_policy = StreakPolicy()
    vacation = store.add_vacation(D(2026, 3, 6), D(2026, 3, 6), habit=read)
    assert [(v.id, v.first, v.last) for v in store.vacations()] == [(vacation, D(2026, 3, 6), D(2026, 3, 6))]
    excused = store.streaks(read, as_of=D(2026, 3, 7))
    assert excused.current.length == 6 and excused.current.excused_days == 1
    store.remove_vacation(vacation)
    assert store.vacations() == []
    with pytest.raises(habitcore.InvalidArgumentError) as caught:
        store.streak_policy = StreakPolicy(miss_allowance=99)
    assert caught.value.message


def test_scores_completion_and_due(store: Store) -> None:
    read = _march(store)
    scores = store.day_scores(D(2026, 3, 5), D(2026, 3, 6))
    assert [(s.date, s.due, s.done, s.score) for s in scores] == [(D(2026, 3, 5), 1, 1, 1.0), (D(2026, 3, 6), 1, 0, 0.0)]
    completion = store.completion(read, D(2026, 3, 1), D(2026, 3, 7))
    assert (completion.kept, completion.judged) == (6, 7)
    # Group membership is effective-dated: from today the past week is not in "mind"; from its start it is.
    store.update_habit(read, group="mind")
    _, window = store.group_completion("mind", D(2026, 3, 1), D(2026, 3, 7), as_of=D(2026, 3, 7))
    assert (window.kept, window.judged) == (0, 0)
    store.update_habit(read, group="mind", from_day=D(2026, 3, 1))
    _, window = store.group_completion("mind", D(2026, 3, 1), D(2026, 3, 7), as_of=D(2026, 3, 7))
    assert (window.kept, window.judged) == (6, 7)
    due = store.due(D(2026, 3, 6))
    assert [(d.habit_id, d.state) for d in due] == [(read.id, habitcore.DueState.PENDING)]
    assert store.due(D(2026, 3, 7))[0].state == habitcore.DueState.DONE
    store.routine_bounds = (300, 700, 1100)
    assert store.routine_bounds == (300, 700, 1100)
    noon = store.utc_ms(D(2026, 3, 7), 12 * 60)
    assert store.routine_at(noon) == habitcore.Routine.DAY


def test_group_day_both_ways_and_the_current_period(store: Store) -> None:
    # Wednesday 2026-09-02; weeks start Monday. Read is daily, Run weekly:3, both "Scholar".
    read = store.create_habit("Read", start=D(2026, 8, 24), group="Scholar")
    run = store.create_habit("Run", start=D(2026, 8, 24), schedule="weekly:3", group="Scholar")
    store.done(run, D(2026, 8, 31))
    store.done(run, D(2026, 9, 1))
    store.done(read, D(2026, 9, 2))
    day = store.group_day("scholar", D(2026, 9, 2))
    assert (day.date, day.due, day.done, day.rate) == (D(2026, 9, 2), 1, 1, 1.0)
    assert day.quota == (habitcore.QuotaProgress(run.id, D(2026, 8, 31), 2, 3, False),)
    assert (day.all_due, day.all_done, day.all_rate) == (2, 1, 0.5)
    with pytest.raises(habitcore.NotFoundError):
        store.group_day("nobody")
    today = store.today()
    store.done(run, today)
    completion = store.completion(run, today - datetime.timedelta(days=35), today)
    assert (completion.current_kept, completion.current_required) == (1, 3)
    assert completion.rate_with_current == pytest.approx((completion.kept + 1) / (completion.judged + 3))


def test_measurements(store: Store) -> None:
    weight = store.create_habit("Weight", kind=Kind.MEASUREMENT, direction=habitcore.Direction.AT_MOST,
                                start=D(2026, 3, 1))
    for day, value in ((1, 80.0), (3, 79.0), (5, 79.5)):
        store.append(weight, habitcore.EntryKind.AMOUNT, value, date=D(2026, 3, day))
    stats = store.measurements(weight, D(2026, 3, 1), D(2026, 3, 7))
    assert (stats.count, stats.latest_date, stats.latest, stats.best_date, stats.best) == (
        3, D(2026, 3, 5), 79.5, D(2026, 3, 3), 79.0)
    assert stats.change == pytest.approx(-0.5)
    with pytest.raises(habitcore.InvalidArgumentError):
        store.measurements(store.create_habit("Read"), D(2026, 3, 1), D(2026, 3, 7))


def test_the_today_snapshot_for_a_widget(store: Store, tmp_path: Path) -> None:
    today = store.today()
    read = store.create_habit("Read", start=today - datetime.timedelta(days=3))
    store.done(read, today)
    at = store.utc_ms(today, 720)
    path = tmp_path / "today.json"
    store.write_today_snapshot(path, at)
    text = path.read_text(encoding="utf-8")
    snapshot = json.loads(text)
    assert (snapshot["format"], snapshot["version"], snapshot["at_ms"]) == ("habitcore-today", 1, at)
    assert [(h["name"], h["state"], h["streak"]) for h in snapshot["days"][0]["habits"]] == [("Read", "done", 1)]
    assert snapshot["next"][-1]["cause"] == "day_start" and snapshot["next"][-1]["day"] == 1
    store.write_today_snapshot(path, at)
    assert path.read_text(encoding="utf-8") == text
    with pytest.raises(habitcore.Error):
        store.write_today_snapshot(tmp_path / "no such folder" / "today.json")
