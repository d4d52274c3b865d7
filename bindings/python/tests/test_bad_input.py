"""Bad input on every call group: the library's error with its message, never a crash."""
from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import habitcore
from habitcore import EntryKind, Store

D = datetime.date
M = D(2026, 3, 1)

# One call per group (and per shape of call: plain, struct out, caller buffer, list, owned string).
CALLS: dict[str, Callable[[Store], Any]] = {
    "settings": lambda s: s.timezone,
    "today": lambda s: s.today(),
    "export": lambda s: s.export(),
    "habit create": lambda s: s.create_habit("Read"),
    "habit get": lambda s: s.habit(1),
    "habit list": lambda s: s.habits(),
    "append": lambda s: s.append(1, EntryKind.DONE, date=M),
    "undo": lambda s: s.undo(1),
    "entries": lambda s: s.entries(None, M, M),
    "day states": lambda s: s.day_states(1, M, M),
    "streaks": lambda s: s.streaks(1, M),
    "store streaks": lambda s: s.store_streaks(M),
    "policy": lambda s: s.streak_policy,
    "vacations": lambda s: s.vacations(),
    "scores": lambda s: s.day_scores(M, M),
    "strength": lambda s: s.strength(1, M, M),
    "completion": lambda s: s.completion(1, M, M),
    "due": lambda s: s.due(M),
    "measurements": lambda s: s.measurements(1, M, M),
    "steps": lambda s: s.sync_steps(100),
    "spend": lambda s: s.spend(1),
    "balance": lambda s: s.balance(),
    "credit entries": lambda s: s.credit_entries(M, M),
    "award evaluate": lambda s: s.evaluate_awards(),
    "award catalog": lambda s: s.award_catalog(),
    "referral": lambda s: s.referral_code(),
    "events": lambda s: s.events(),
    "verifier": lambda s: s.register_verifier("v", "1", lambda e: habitcore.Judgement(habitcore.Outcome.APPROVED, 1)),
    "proof policy": lambda s: s.set_proof_policy(["v"]),
    "submit": lambda s: s.submit_proof(1, b"\x89PNG"),
    "verdicts": lambda s: s.verdicts(),
    "reminder add": lambda s: s.add_reminder(1, 540),
    "reminder rules": lambda s: s.reminder_rules(),
    "reminders": lambda s: s.reminders(0, 1000),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_closed_store_raises_misuse_with_the_library_message(tmp_path: Path, name: str) -> None:
    store = Store(tmp_path / "closed.db")
    store.close()
    with pytest.raises(habitcore.MisuseError) as caught:
        CALLS[name](store)
    assert caught.value.code == habitcore.Status.MISUSE
    assert "closed" in caught.value.message  # the library's words: "invalid store handle: NULL, closed, ..."


@pytest.mark.parametrize("name", ["bad\udcffname", "\ud800lone", b"caf\xe9"])
def test_non_utf8_names_are_refused_by_the_library(store: Store, name: Any) -> None:
    with pytest.raises(habitcore.InvalidArgumentError) as caught:
        store.create_habit(name)
    assert caught.value.message == "name is not valid UTF-8"
    with pytest.raises(habitcore.InvalidArgumentError) as caught:
        store.create_account(name)
    assert "UTF-8" in caught.value.message
    with pytest.raises(habitcore.InvalidArgumentError):
        store.find_habit(name)
    assert list(store.habits()) == []


def test_huge_counts_are_the_library_s_errors(store: Store) -> None:
    read = store.create_habit("Read")
    cases: list[tuple[Callable[[], Any], str]] = [
        (lambda: store.day_states(read, D(1, 1, 1), D(9999, 12, 31)), "100000 days"),
        (lambda: store.strength(read, D(1, 1, 1), D(9999, 12, 31)), "100000"),
        (lambda: store.day_scores(D(1, 1, 1), D(9999, 12, 31)), "100000"),
        (lambda: store.events(limit=10**6), "limit 1000000"),
        (lambda: store.spend(10**12), "minutes 1000000000000"),
        (lambda: store.sync_steps(10**9), "steps 1000000000"),
        (lambda: store.reminders(0, 10**15), "92 days"),
        (lambda: store.append(read, EntryKind.DONE, date="2026-02-30"), "2026-02-30"),
        (lambda: store.create_habit("x" * 100_000), "name"),
    ]
    for call, words in cases:
        with pytest.raises(habitcore.InvalidArgumentError) as caught:
            call()
        assert words in caught.value.message, caught.value.message
    assert store.balance() == 0 and len(list(store.habits())) == 1


def test_values_a_c_type_cannot_hold_are_refused_before_the_call(store: Store) -> None:
    with pytest.raises(habitcore.InvalidArgumentError) as caught:
        store.habit(2**70)
    assert "int64_t" in caught.value.message
    with pytest.raises(habitcore.InvalidArgumentError):
        store.day_start = 2**40
    with pytest.raises(habitcore.InvalidArgumentError) as caught:
        store.create_habit("a\0b")
    assert "NUL" in caught.value.message
    with pytest.raises(TypeError):
        store.habit("1")  # type: ignore[arg-type]
    assert list(store.habits()) == []


def test_errors_are_catchable_as_their_python_families(store: Store) -> None:
    with pytest.raises(ValueError):
        store.day_start = 5000
    with pytest.raises(LookupError):
        store.habit(42)
    with pytest.raises(habitcore.Error) as caught:
        store.undo(42)
    assert isinstance(caught.value, habitcore.NotFoundError) and caught.value.message
