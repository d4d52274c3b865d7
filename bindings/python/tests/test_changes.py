"""The store revision and the change feed: another handle's commits, each change's habit and days."""
from __future__ import annotations

import datetime
from pathlib import Path

import pytest

import habitcore
from habitcore import ChangeArea, Store


def test_revision_moves_and_changes_name_habits_and_days(tmp_path: Path) -> None:
    path = tmp_path / "habits.db"
    with Store(path) as writer, Store(path, readonly=True) as reader:
        start = reader.revision()
        walk = writer.create_habit("Walk").id
        after_habit = reader.revision()
        assert after_habit > start  # another handle's commit moves a read-only handle's revision
        day = datetime.date(2026, 3, 10)
        writer.append(walk, date=day)
        writer.append(walk, date=day + datetime.timedelta(days=1))
        writer.add_vacation("2026-04-01", "2026-04-05")
        changes = list(reader.changes(after_habit))
        assert [c.area for c in changes] == [ChangeArea.ENTRY, ChangeArea.ENTRY, ChangeArea.VACATION]
        assert [c.habit_id for c in changes] == [walk, walk, 0]
        assert [(c.first_date, c.last_date) for c in changes] == [
            (day, day), (day + datetime.timedelta(days=1),) * 2, (datetime.date(2026, 4, 1), datetime.date(2026, 4, 5))]
        assert [c.revision for c in changes] == list(range(after_habit + 1, after_habit + 4))
        assert list(reader.changes(reader.revision())) == []
        created = list(reader.changes(start, limit=1))
        assert (created[0].area, created[0].first_date, created[0].last_date) == (ChangeArea.HABIT, None, None)
        merged = [c for c in reader.changes(after_habit, merged=True) if c.area == ChangeArea.ENTRY]
        assert [(c.first_date, c.last_date, c.revision) for c in merged] == [
            (day, day + datetime.timedelta(days=1), after_habit + 2)]
        with pytest.raises(habitcore.InvalidArgumentError):
            reader.changes(-1)
        with pytest.raises(habitcore.InvalidArgumentError):
            reader.changes(0, limit=0)
