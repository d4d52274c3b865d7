"""Sync between two stores through the package: offline writes that agree after an exchange."""
from __future__ import annotations

from pathlib import Path

import pytest

import habitcore
from habitcore import Store


def test_two_devices_log_offline_and_agree(tmp_path: Path) -> None:
    with Store(tmp_path / "phone.db") as phone, Store(tmp_path / "laptop.db") as laptop:
        read = phone.create_habit("Read")
        there, _ = phone.sync_with(laptop)
        assert there.habits_changed >= 1
        read_there = laptop.find_habit("Read")
        phone.done(read, "2026-01-02")
        laptop.done(read_there, "2026-01-03")
        assert phone.sync_canonical() != laptop.sync_canonical()
        to_laptop, to_phone = phone.sync_with(laptop)
        assert (to_laptop.entries_added, to_phone.entries_added) == (1, 1)
        assert phone.sync_canonical() == laptop.sync_canonical()
        assert phone.sync_state() == laptop.sync_state()
        # Everything again, from nothing: held already, so nothing changes.
        again = laptop.sync_apply(phone.sync_changes())
        assert again.ops_received > 0 and again.ops_new == 0 and again.ops_applied == 0
        assert len(laptop.sync_changes(phone.sync_state())) < len(laptop.sync_changes())


def test_a_damaged_changeset_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "a.db") as a, Store(tmp_path / "b.db") as b:
        a.create_habit("Walk")
        changes = bytearray(a.sync_changes(b.sync_state()))
        before = b.sync_canonical()
        changes[len(changes) // 2] ^= 0x40
        with pytest.raises(habitcore.InvalidArgumentError) as caught:
            b.sync_apply(bytes(changes))
        assert caught.value.code == habitcore.Status.INVALID and "changeset" in caught.value.message
        with pytest.raises(habitcore.InvalidArgumentError):
            b.sync_apply(bytes(changes[:10]))
        assert b.sync_canonical() == before
        assert b.sync_apply(a.sync_changes(b.sync_state())).habits_changed >= 1
        assert b.find_habit("Walk").name == "Walk"
