"""Shields: rules versioned by day, state and transitions at chosen instants, emergency unlocks, the snapshot file."""
from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

import habitcore
from habitcore import Habit, ShieldBudget, ShieldCause, ShieldEarlier, ShieldLift, ShieldReason, Store

HOUR_MS = 3_600_000


def test_a_morning_shield_through_a_past_day(store: Store) -> None:
    store.timezone = "UTC"
    today = store.today()
    yesterday, start = today - datetime.timedelta(days=1), today - datetime.timedelta(days=10)
    bed = store.create_habit("Make the bed", start=start)
    teeth = store.create_habit("Brush teeth", start=start)
    rule = store.add_shield("Morning", [bed, teeth], "social-apps", end_minute=9 * 60, start=start)
    [listed] = store.shield_rules(yesterday)
    assert (listed.id, listed.name, listed.key, listed.habit_ids, listed.days) == (
        rule, "Morning", "social-apps", (bed.id, teeth.id), "daily")
    assert (listed.start_minute, listed.end_minute, listed.lift, listed.start) == (None, 540, ShieldLift.ALL, start)
    assert listed.session_lifts and listed.cutoff_lifts and listed.excused_lifts and listed.fail_closed  # the library's defaults
    assert (listed.budget, listed.budget_count) == (ShieldBudget.UNLIMITED, 0)


    def at(minute: int) -> int:
        return store.utc_ms(yesterday, minute)

    store.append(bed, at_ms=at(7 * 60 + 10))  # one of two habits before the cutoff
    [early] = store.shield_state(at(8 * 60)).rules
    assert (early.rule_id, early.shielded, early.reason, early.outstanding) == (rule, True, ShieldReason.WINDOW_OPEN, (teeth.id,))
    assert (early.window_date, early.habit_date, early.window_start_ms, early.window_end_ms) == (
        yesterday, yesterday, at(0), at(540))
    assert (early.next_change_ms, early.next_cause) == (at(540), ShieldCause.CUTOFF)
    assert ShieldEarlier.COMPLETION in early.earlier and early.emergency_left is None
    [late] = store.shield_state(at(10 * 60)).rules
    assert (late.shielded, late.reason, late.outstanding) == (False, ShieldReason.CUTOFF_PASSED, (teeth.id,))

    timeline = store.shield_transitions(at(0) - HOUR_MS, store.utc_ms(today, 0))
    assert [(t.at_ms, t.shielded, t.cause, t.to_reason) for t in timeline.transitions] == [
        (at(0), True, ShieldCause.WINDOW_START, ShieldReason.WINDOW_OPEN),
        (at(540), False, ShieldCause.CUTOFF, ShieldReason.CUTOFF_PASSED)]
    assert (timeline.transitions[0].local_date, timeline.transitions[0].zone) == (yesterday, "UTC")
    assert timeline.revision == store.shield_revision()

    # Both done before the cutoff: lifted then, rounded up to the minute.
    store.append(teeth, at_ms=at(8 * 60 + 30) + 5_000)
    [done] = store.shield_state(at(8 * 60 + 45)).rules
    assert (done.shielded, done.reason, done.since_ms, done.outstanding) == (False, ShieldReason.COMPLETED, at(8 * 60 + 31), ())


def test_rule_versions_are_kept_by_day(store: Store) -> None:
    today = store.today()
    tomorrow = today + datetime.timedelta(days=1)
    bed = store.create_habit("Make the bed", start=today - datetime.timedelta(days=3))
    rule = store.add_shield("Morning", [bed], "apps", end_minute=540, start=today - datetime.timedelta(days=3))
    revision = store.shield_revision()
    store.update_shield(rule, "Evening", [bed], "apps", days="days:mon,fri", start_minute=20 * 60, lift=ShieldLift.ANY, start=tomorrow)
    assert store.shield_revision() != revision
    assert [r.name for r in store.shield_rules(today)] == ["Morning"]  # a day already begun keeps its rule
    [evening] = store.shield_rules(tomorrow)
    assert (evening.id, evening.days, evening.start_minute, evening.end_minute, evening.lift, evening.start) == (
        rule, "days:mon,fri", 1200, None, ShieldLift.ANY, tomorrow)
    store.remove_shield(rule, tomorrow + datetime.timedelta(days=1))
    assert len(store.shield_rules(tomorrow)) == 1 and len(store.shield_rules(tomorrow + datetime.timedelta(days=1))) == 0


def test_emergency_unlocks_keep_to_the_budget(store: Store) -> None:
    bed = store.create_habit("Make the bed")
    rule = store.add_shield("Focus", [bed], "apps", budget=ShieldBudget.WEEK, budget_count=1)
    assert store.shield_state().rules[0].emergency_left == 1
    unlock = store.emergency_unlock(rule, 15, "a call I must take")
    assert unlock > 0 and store.shield_state().rules[0].emergency_left == 0
    with pytest.raises(habitcore.InsufficientCreditsError):
        store.emergency_unlock(rule, 15)
    with pytest.raises(habitcore.InvalidArgumentError):
        store.emergency_unlock(rule, 0)


def test_bad_rules_are_refused_with_the_library_words(store: Store) -> None:
    bed = store.create_habit("Make the bed")
    bad_rules: list[tuple[list[Habit], dict[str, Any]]] = [
        ([], {}), ([bed], {"start_minute": 600, "end_minute": 600}), ([bed], {"end_minute": 1440}), ([bed] * 17, {}),
        ([bed], {"days": "weekly:3"}), ([bed], {"budget_count": -1})]
    for habits, settings in bad_rules:
        with pytest.raises(habitcore.InvalidArgumentError) as caught:
            store.add_shield("Focus", habits, "apps", **settings)
        assert caught.value.message
    with pytest.raises(habitcore.InvalidArgumentError, match="key"):
        store.add_shield("Focus", [bed], "")
    with pytest.raises(habitcore.NotFoundError):
        store.add_shield("Focus", [bed.id + 99], "apps")
    with pytest.raises(habitcore.NotFoundError):
        store.remove_shield(12345)
    assert len(store.shield_rules()) == 0


def test_the_snapshot_file_for_a_small_extension(store: Store, tmp_path: Path) -> None:
    bed = store.create_habit("Make the bed")
    rule = store.add_shield("Focus", [bed], "apps")
    path = tmp_path / "shields.json"
    store.write_shield_snapshot(path)
    snapshot = json.loads(path.read_text(encoding="utf-8"))
    assert (snapshot["format"], snapshot["revision"]) == ("habitcore-shields", store.shield_revision())
    assert [(r["rule_id"], r["key"]) for r in snapshot["rules"]] == [(rule, "apps")]
    with pytest.raises(habitcore.Error):
        store.write_shield_snapshot(tmp_path / "no such folder" / "shields.json")
