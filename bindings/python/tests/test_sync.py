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


def test_a_photo_follows_its_proof_only_when_asked(tmp_path: Path) -> None:
    from conftest import png

    photo = png(64, 48)
    with Store(tmp_path / "phone.db") as phone, Store(tmp_path / "tablet.db") as tablet:
        bed = phone.create_habit("Make the bed")
        proof = phone.submit_proof(bed, photo, keep_copy=True)
        assert phone.proof_evidence(proof.proof_id) == photo
        tablet.sync_apply(phone.sync_changes(tablet.sync_state()))
        with pytest.raises(habitcore.NotFoundError):
            tablet.proof_evidence(1)
        # Everything again, with evidence: the proof the tablet holds gets its photo, once.
        assert tablet.sync_apply(phone.sync_changes(evidence=True)).proofs_changed == 1
        assert tablet.proof_evidence(1) == photo
        assert tablet.sync_apply(phone.sync_changes(evidence=True)).proofs_changed == 0


def test_replica_ids_and_what_a_state_holds(tmp_path: Path) -> None:
    with Store(tmp_path / "phone.db") as phone, Store(tmp_path / "laptop.db") as laptop:
        phone_id, laptop_id = phone.sync_replica(), laptop.sync_replica()
        assert len(phone_id) == len(laptop_id) == 16 and phone_id != laptop_id
        assert phone.sync_replica() == phone_id
        assert habitcore.sync_state_replicas(b"") == []
        read = phone.create_habit("Read")
        for day in range(1, 4):
            phone.done(read, f"2026-01-0{day}")
        laptop.create_habit("Run")
        phone.sync_with(laptop)
        held = habitcore.sync_state_replicas(laptop.sync_state())
        assert [replica for replica, _ in held] == sorted([phone_id, laptop_id])
        assert all(sequence >= 1 for _, sequence in held)
        assert dict(held)[phone_id] >= 4  # the habit and three entries
        with pytest.raises(habitcore.InvalidArgumentError):
            habitcore.sync_state_replicas(b"\xff not a state")
