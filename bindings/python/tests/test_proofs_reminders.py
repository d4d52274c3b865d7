"""Proofs with a Python verifier, reviews and verdicts; reminders."""
from __future__ import annotations

import datetime
import struct
import threading
from pathlib import Path

import pytest
from conftest import png

import habitcore
from habitcore import Evidence, Judgement, Outcome, Store


def png_size(evidence: Evidence) -> Judgement:
    data = evidence.data
    if evidence.media_type != "image/png" or data[:8] != b"\x89PNG\r\n\x1a\n":
        return Judgement(Outcome.REJECTED, 0.95, "not_a_png", "not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    if min(width, height) < 64:
        return Judgement(Outcome.REJECTED, 0.9, "too_small", f"{width}x{height}", ["small"])
    return Judgement(Outcome.APPROVED, 0.9, "png_ok", f"a {width}x{height} PNG of {evidence.habit_name}")


def test_python_verifier_decides_proofs(store: Store) -> None:
    bed = store.create_habit("Make the bed")
    store.register_verifier("py-png", "1.0", png_size)
    store.set_proof_policy(["py-png"])
    small = store.submit_proof(bed, png(16, 16))
    assert (small.outcome, small.reason_code, small.entry_id) == (Outcome.REJECTED, "too_small", None)
    proof = store.submit_proof(bed, png(96, 72))
    assert proof.outcome == Outcome.APPROVED and proof.entry_id and proof.date == store.today()
    assert store.day_states(bed, store.today(), store.today())[0].done
    verdicts = list(store.verdicts(proof_id=proof.proof_id))
    mine = [v for v in verdicts if v.verifier_id == "py-png"]
    assert len(mine) == 1 and mine[0].message == "a 96x72 PNG of Make the bed" and mine[0].verifier_version == "1.0"
    assert mine[0].stage == habitcore.Stage.VERIFIER
    assert any(v.stage == habitcore.Stage.DECISION and v.entry_id == proof.entry_id for v in verdicts)
    assert [v.signals for v in store.verdicts(proof_id=small.proof_id) if v.verifier_id == "py-png"] == [["small"]]
    again = store.submit_proof(bed, png(96, 72))
    assert again.outcome == Outcome.REJECTED and again.reason_code == "reused_evidence"


def test_verifier_exception_becomes_an_error_verdict(store: Store) -> None:
    habit = store.create_habit("Stretch")

    def broken(evidence: Evidence) -> Judgement:
        raise ZeroDivisionError("no ratio for " + evidence.media_type)

    store.register_verifier("broken", "0.1", broken)
    store.set_proof_policy(["broken"], habit=habit)
    result = store.submit_proof(habit, png(80, 80))
    assert result.outcome == Outcome.ERROR and result.entry_id is None
    recorded = [v for v in store.verdicts(proof_id=result.proof_id) if v.verifier_id == "broken"]
    assert len(recorded) == 1 and recorded[0].outcome == Outcome.ERROR
    # the verifier's words reach the record; an answer that is no Judgement is an error too
    assert "ZeroDivisionError" in (recorded[0].message or "")
    store.register_verifier("broken", "0.2", lambda evidence: "yes")  # type: ignore[arg-type,return-value]
    assert store.submit_proof(habit, png(81, 81)).outcome == Outcome.ERROR
    # a review decides what the verifiers could not
    entry = store.review_proof(result.proof_id, Outcome.APPROVED, "parent", "saw it myself")
    assert entry is not None
    with pytest.raises(habitcore.ConflictError):
        store.review_proof(result.proof_id, Outcome.REJECTED, "parent", "changed my mind")


@pytest.mark.parametrize("raised", [KeyboardInterrupt(), SystemExit(2)])
def test_a_verifier_raising_keyboard_interrupt_has_it_raised_after_the_call(
        store: Store, tmp_path: Path, raised: BaseException) -> None:
    # Not an error verdict to read later: the program stops, as it would without C between.
    habit = store.create_habit("Stretch")
    ran: list[str] = []

    def interrupted(evidence: Evidence) -> Judgement:
        ran.append("interrupted")
        raise raised

    def after(evidence: Evidence) -> Judgement:
        ran.append("after")
        return png_size(evidence)

    store.register_verifier("py-stop", "1", interrupted)
    store.register_verifier("py-after", "1", after)
    store.set_proof_policy(["py-stop", "py-after"], habit=habit)
    with pytest.raises(type(raised)) as caught:
        store.submit_proof(habit, png(80, 80))
    assert caught.value is raised
    assert ran == ["interrupted"]  # no Python verifier runs once the call is stopping
    today = store.today()
    assert not store.day_states(habit, today, today)[0].done
    picture = tmp_path / "bed.png"
    picture.write_bytes(png(80, 80))
    with pytest.raises(type(raised)):
        store.test_verifier("py-stop", picture)
    # The store and its verifiers go on working: the next call is not stopped. (The
    # library kept the interrupted submission as a proof with an error verdict: a
    # verifier has no way to abandon it, so the same photo again is reused evidence.)
    store.set_proof_policy(["py-after"], habit=habit)
    assert store.submit_proof(habit, png(81, 81)).outcome == Outcome.APPROVED


def test_a_verifier_calling_its_own_store_gets_misuse_at_once(tmp_path: Path) -> None:
    # A call on the store running the verifier is refused (it once waited for itself
    # forever); another Store on the same file works. Run with a deadline, so a deadlock
    # fails here instead of hanging the suite.
    store, other = Store(tmp_path / "reentry.db"), Store(tmp_path / "reentry.db")
    habit = store.create_habit("Walk")
    store.set_proof_policy(["reentrant"])
    seen: list[str] = []

    def judge(evidence: Evidence) -> Judgement:
        try:
            store.day_start = 60
            seen.append("not refused")
        except habitcore.MisuseError as error:
            seen.append(error.message)
        seen.append(f"other {other.schema_version > 0}")
        return Judgement(Outcome.APPROVED, 0.9, "reentered")

    store.register_verifier("reentrant", "1", judge)
    results: list[habitcore.ProofResult] = []
    worker = threading.Thread(target=lambda: results.append(store.submit_proof(habit, png(80, 80))), daemon=True)
    worker.start()
    worker.join(timeout=60)
    if worker.is_alive():
        store._handle = None  # stuck for good: closing it would wait forever too
        pytest.fail(f"submit_proof deadlocked; the verifier saw {seen}")
    assert len(seen) == 2 and "from inside a callback the store is running is refused" in seen[0], seen
    assert seen[1] == "other True"
    assert len(results) == 1 and results[0].outcome == Outcome.APPROVED and results[0].reason_code == "reentered"
    assert store.day_start == 0  # the refused call changed nothing
    store.close()
    other.close()


def test_verifier_test_run_and_unregister(store: Store, tmp_path: Path) -> None:
    store.register_verifier("py-png", "1.0", png_size)
    picture = tmp_path / "big.png"
    picture.write_bytes(png(70, 70))
    result = store.test_verifier("py-png", picture)
    assert (result.outcome, result.proof_id, result.message) == (Outcome.APPROVED, 0, "a 70x70 PNG of ")
    store.unregister_verifier("py-png")
    with pytest.raises(habitcore.NotFoundError):
        store.test_verifier("py-png", picture)
    assert store.plugins_json().strip() == "[]"
    with pytest.raises(habitcore.InvalidArgumentError) as caught:
        store.register_verifier("Not An Id!", "1", png_size)
    assert caught.value.message


def test_the_library_releases_each_verifier_callback_once(tmp_path: Path) -> None:
    # The ctypes callbacks are held until the library gives them back
    # (hc_verifier_register_v2's release): on replace, removal and close.
    held = habitcore._store._HELD
    before = len(held)
    with Store(tmp_path / "release.db") as store:
        with pytest.raises(habitcore.InvalidArgumentError):
            store.register_verifier("Not An Id!", "1", png_size)
        assert len(held) == before  # refused: not held
        store.register_verifier("a", "1", png_size)
        store.register_verifier("b", "1", png_size)
        assert len(held) == before + 2
        store.register_verifier("a", "2", png_size)  # replaced: the first "a" is released
        assert len(held) == before + 2
        store.unregister_verifier("b")
        assert len(held) == before + 1
    assert len(held) == before  # closed: the second "a" is released


def test_reminders(store: Store) -> None:
    read = store.create_habit("Read")
    rule = store.add_reminder(read, 9 * 60, message="read a chapter")
    rules = list(store.reminder_rules(read))
    assert [(r.id, r.minute, r.message, r.quiet) for r in rules] == [(rule, 540, "read a chapter",
                                                                      habitcore.Quiet.DEFER)]
    today = store.today()
    start = store.utc_ms(today, 0)
    end = store.utc_ms(today + datetime.timedelta(days=1), 0)
    due = list(store.reminders(start, end))
    assert len(due) == 1 and due[0].local_minute == 540 and due[0].date == today and not due[0].fired
    assert store.reminder_fired(due[0]) is True
    assert store.reminder_fired(due[0]) is False
    assert list(store.reminders(start, end, pending=True)) == []
    store.set_quiet_hours((22 * 60, 7 * 60))
    assert store.quiet_hours() == (1320, 420)
    store.set_quiet_hours(None)
    assert store.quiet_hours() is None
    store.update_reminder(rule, 20 * 60, message="evening chapter")
    assert [r.minute for r in store.reminder_rules(read)] == [1200]
    later = list(store.reminders(start, end))
    assert [r.local_minute for r in later] == [1200]
    store.snooze_reminder(later[0], later[0].at_ms + 10 * 60_000)
    kinds = [r.kind for r in store.reminders(start, end + 86_400_000)]
    assert habitcore.ReminderKind.SNOOZED in kinds
    store.remove_reminder(rule)
    assert list(store.reminder_rules(read)) == []
    store.done(read)
    with pytest.raises(habitcore.NotFoundError):
        store.reminder_fired(later[0])
