"""Habits and the ledger: entries, undo, day states."""
from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

import habitcore
from habitcore import EntryKind, Kind, Store

D = datetime.date


def test_store_is_a_context_manager_that_closes(tmp_path: Path) -> None:
    with Store(tmp_path / "a.db") as store:
        assert not store.closed
        assert store.schema_version > 0
    assert store.closed
    store.close()  # twice is fine
    with pytest.raises(habitcore.MisuseError) as caught:
        store.today()
    assert caught.value.code == habitcore.Status.MISUSE and "closed" in caught.value.message


def test_open_flags(tmp_path: Path) -> None:
    with pytest.raises(habitcore.NotFoundError):
        Store(tmp_path / "missing.db", create=False)
    with Store(tmp_path / "a.db") as store:
        store.create_habit("Read")
    with Store(tmp_path / "a.db", readonly=True) as reader:
        assert [h.name for h in reader.habits()] == ["Read"]
        with pytest.raises(habitcore.ReadOnlyError) as caught:
            reader.create_habit("Write")
        assert caught.value.message


def test_settings(store: Store) -> None:
    assert store.timezone == "UTC"
    store.timezone = "America/New_York"
    store.day_start = 180
    store.week_start = 0
    assert (store.timezone, store.day_start, store.week_start) == ("America/New_York", 180, 0)
    with pytest.raises(habitcore.NotFoundError):
        store.timezone = "Mars/Olympus_Mons"
    # 2026-03-09 06:30 UTC is 02:30 in New York: before the 03:00 day start, so still the 8th.
    instant = int(datetime.datetime(2026, 3, 9, 6, 30, tzinfo=datetime.timezone.utc).timestamp() * 1000)
    assert store.local_day(instant) == D(2026, 3, 8)
    assert store.local_day(store.utc_ms(D(2026, 3, 8), 12 * 60)) == D(2026, 3, 8)
    assert isinstance(store.today(), D)


def test_habits_create_get_find_update_archive_list(store: Store) -> None:
    water = store.create_habit("Water", kind=Kind.COUNTER, target=8, unit="glasses", group="health",
                               routine=habitcore.Routine.MORNING, schedule="days:mon,wed,fri", start=D(2026, 1, 5))
    assert (water.name, water.kind, water.target, water.unit, water.group) == ("Water", Kind.COUNTER, 8, "glasses",
                                                                                 "health")
    assert water.schedule == "days:mon,wed,fri" and water.start == D(2026, 1, 5) and water.archived is None
    assert store.habit(water.id) == water
    assert store.find_habit("WATER").id == water.id
    read = store.create_habit("Read")
    assert read.kind == Kind.CHECKMARK and read.target == 1.0 and read.schedule == "daily"  # the library's defaults
    with pytest.raises(habitcore.ConflictError) as caught:
        store.create_habit("water")
    assert "taken" in caught.value.message
    updated = store.update_habit(water, name="Drink water", target=10, unit=None)
    assert (updated.name, updated.target, updated.unit, updated.direction) == ("Drink water", 10, None,
                                                                                habitcore.Direction.AT_LEAST)
    store.archive_habit(read)
    assert [h.name for h in store.habits()] == ["Drink water"]
    everything = store.habits(include_archived=True)
    assert len(everything) == 2
    assert [h.archived is not None for h in everything] == [False, True]
    store.archive_habit(read, archived=False)
    assert store.habit(read).archived is None
    with pytest.raises(habitcore.NotFoundError):
        store.habit(999)


def test_habit_display_fields(store: Store) -> None:
    sit = store.create_habit("Sit", description="Ten minutes\neyes closed", question="Did you sit?", colour="#00897b",
                             icon="lotus", position=-2)
    assert (sit.description, sit.question, sit.colour, sit.icon, sit.position) == (
        "Ten minutes\neyes closed", "Did you sit?", "#00897b", "lotus", -2)
    assert store.habit(sit.id) == sit and list(store.habits()) == [sit]
    plain = store.create_habit("Plain")
    assert (plain.description, plain.question, plain.colour, plain.icon, plain.position) == (None, None, None, None, 0)
    changed = store.update_habit(sit, colour="#FF8F00", question=None, position=7)
    assert (changed.colour, changed.question, changed.position, changed.description) == ("#FF8F00", None, 7,
                                                                                         "Ten minutes\neyes closed")
    bads: list[dict[str, Any]] = [{"colour": "orange"}, {"colour": "#12345"}, {"description": "x" * 4097},
                                  {"question": "two\nlines"}, {"icon": "i" * 65}]
    for bad in bads:
        with pytest.raises(habitcore.InvalidArgumentError) as caught:
            store.update_habit(sit, **bad)
        assert next(iter(bad)) in caught.value.message
        with pytest.raises(habitcore.InvalidArgumentError):
            store.create_habit("Other", **bad)
    assert store.habit(sit) == changed and [h.name for h in store.habits()] == ["Sit", "Plain"]
    with pytest.raises(habitcore.InvalidArgumentError):
        store.update_habit(sit, position=2**63)


def test_ledger_entries_undo_and_day_states(store: Store) -> None:
    walk = store.create_habit("Walk", kind=Kind.COUNTER, target=6000, start=D(2026, 3, 1))
    day = D(2026, 3, 8)
    store.append(walk, EntryKind.TOTAL, 3000, date=day, source=habitcore.Source.HEALTH)
    store.append(walk, EntryKind.TOTAL, 5400, date=day, source=habitcore.Source.HEALTH)
    extra = store.append(walk, EntryKind.AMOUNT, 1000, date=day, note="treadmill")
    assert store.day_total(walk, day) == 6400
    undo = store.undo(extra)
    assert store.day_total(walk, day) == 5400
    with pytest.raises(habitcore.ConflictError) as caught:
        store.undo(extra)
    assert "already undone" in caught.value.message
    entries = list(store.entries(walk, day, day))
    assert [e.kind for e in entries] == [EntryKind.TOTAL, EntryKind.TOTAL, EntryKind.AMOUNT, EntryKind.UNDO]
    assert entries[2].undone_by == undo and entries[3].undoes == extra and entries[2].note == "treadmill"
    assert all(e.date == day for e in entries)
    states = store.day_states(walk, D(2026, 3, 7), D(2026, 3, 9))
    assert [s.date for s in states] == [D(2026, 3, 7), day, D(2026, 3, 9)]
    assert [s.value for s in states] == [0, 5400, 0] and not any(s.done for s in states)
    store.append(walk, EntryKind.AMOUNT, 700, date=day)
    assert store.day_states(walk, day, day)[0].done
    store.undo_last(walk, day)
    assert not store.day_states(walk, day, day)[0].done
    skip = store.append(walk, EntryKind.SKIP, date=D(2026, 3, 9))
    assert store.day_states(walk, D(2026, 3, 9), D(2026, 3, 9))[0].skipped and skip > 0


def test_retry_key_appends_once(store: Store) -> None:
    read = store.create_habit("Read", start=D(2026, 3, 1))
    first = store.done(read, D(2026, 3, 2), key="phone-123")
    again = store.done(read, D(2026, 3, 2), key="phone-123")
    assert first == again
    assert len(store.entries(read, D(2026, 3, 1), D(2026, 3, 31))) == 1


def test_list_iterator_is_lazy_and_freed(store: Store) -> None:
    read = store.create_habit("Read", start=D(2026, 3, 1))
    for n in range(1, 6):
        store.done(read, D(2026, 3, n))
    entries = store.entries(None, D(2026, 3, 1), D(2026, 3, 31))
    assert len(entries) == 5
    assert next(entries).date == D(2026, 3, 1)
    entries.close()
    assert list(entries) == []
    with store.entries(read, D(2026, 3, 1), D(2026, 3, 31)) as again:
        assert [e.date.day for e in again] == [1, 2, 3, 4, 5]


def test_transactions_commit_or_roll_back(store: Store) -> None:
    with store.transaction():
        store.create_habit("Kept")
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.create_habit("Dropped")
            raise RuntimeError("abort")
    assert [h.name for h in store.habits()] == ["Kept"]


def test_export_and_import(store: Store, tmp_path: Path) -> None:
    read = store.create_habit("Read", start=D(2026, 3, 1))
    store.done(read, D(2026, 3, 2))
    text = store.export(habitcore.Format.JSONL)
    with Store(tmp_path / "copy.db") as copy:
        copy.import_text(text)
        habit = copy.find_habit("Read")
        assert copy.day_states(habit, D(2026, 3, 2), D(2026, 3, 2))[0].done
        with pytest.raises(habitcore.ConflictError):
            copy.import_text(text)
        with pytest.raises(habitcore.Error) as caught:
            copy.import_text("{not json")
        assert caught.value.message
    assert json.loads(store.export())["schema_version"] >= 1


def test_settings_change_from_a_day_and_keep_the_past(store: Store) -> None:
    today = store.today()
    water = store.create_habit("Water", kind=Kind.COUNTER, target=8, start=today - datetime.timedelta(days=7))
    for back in range(1, 8):
        store.append(water, EntryKind.AMOUNT, 8, date=today - datetime.timedelta(days=back))
    # From today (the default): the past week stays done, its streak whole.
    assert store.update_habit(water, target=10).target == 10
    week = store.day_states(water, today - datetime.timedelta(days=7), today - datetime.timedelta(days=1))
    assert all(state.done for state in week)
    assert store.streaks(water).current.length == 7
    # From an earlier day: the days from it on are judged by the new target.
    store.update_habit(water, target=12, from_day=today - datetime.timedelta(days=2))
    week = store.day_states(water, today - datetime.timedelta(days=7), today - datetime.timedelta(days=1))
    assert [state.done for state in week] == [True] * 5 + [False] * 2
    with pytest.raises(habitcore.InvalidArgumentError) as caught:
        store.update_habit(water, target=9, from_day=today + datetime.timedelta(days=1))
    assert "today or an earlier day" in caught.value.message
    # Archived from three days ago, restored today: the stretch is excused, and the call names the days.
    walk = store.create_habit("Walk", start=today - datetime.timedelta(days=10))
    for back in range(4, 11):
        store.append(walk, date=today - datetime.timedelta(days=back))
    assert store.archive_habit(walk, from_day=today - datetime.timedelta(days=3)) == (today - datetime.timedelta(days=3), today)
    assert store.archive_habit(walk, archived=False) == (today, today)
    assert store.streaks(walk).current.length == 7
