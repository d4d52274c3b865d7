"""Files: export and import with progress and cancel (Ctrl-C included), backup, other apps' data."""
from __future__ import annotations

import datetime
import io
import os
import signal
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest

import habitcore
from habitcore import CancelledError, ConflictError, EntryKind, Format, Kind, Store

HEADER_LINE = (
    '{"type":"header","format":"habitcore-store","schema_version":2,"timezone":"UTC","day_start_minutes":0,'
    '"week_start":1,"streak_policy":{"miss_allowance":0,"open_day":"previous","off_days":"skip"},'
    '"routine_bounds":{"morning":300,"day":660,"evening":1080}}\n'
)
HABIT_LINE = (
    '{"type":"habit","id":%d,"name":"Habit %d","kind":"checkmark","target":1,"direction":"at_least","group":null,'
    '"unit":null,"routine":"anytime","proof_required":false,"start_date":"2000-01-01","archived_date":null,'
    '"created_at_ms":946684800000,"schedules":[{"from":"2000-01-01","schedule":"daily","target":1,'
    '"direction":"at_least","proof_required":false,"group":null,"archived":false}],'
    '"streak_policy":{"miss_allowance":null,"open_day":null}}\n'
)
ENTRY_LINE = (
    '{"type":"entry","id":%d,"habit_id":%d,"date":"%s","kind":"done","value":1,"recorded_at_ms":946684800000,'
    '"source":"import","undoes":null,"note":null}\n'
)


def write_export(path: Path, habits: int, days: int) -> int:
    """A JSON Lines export of habits checked every day for days from 2000-01-01; returns the entries written."""
    dates = [(datetime.date(2000, 1, 1) + datetime.timedelta(days=d)).isoformat() for d in range(days)]
    with open(path, "w", encoding="utf-8") as file:
        file.write(HEADER_LINE)
        file.writelines(HABIT_LINE % (h, h) for h in range(1, habits + 1))
        file.writelines(ENTRY_LINE % (h * days + d + 1, h + 1, date)
                        for h in range(habits) for d, date in enumerate(dates))
    return habits * days


def entries_of(store: Store) -> int:
    return sum(len(list(store.entries(habit, "2000-01-01", "2030-12-31"))) for habit in store.habits())


def test_import_file_reports_progress_and_imports(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    write_export(path, 3, 40)
    ticks: list[tuple[int, int]] = []
    store.import_file(path, progress=lambda done, total: ticks.append((done, total)))
    assert [h.name for h in store.habits()] == ["Habit 1", "Habit 2", "Habit 3"] and entries_of(store) == 120
    total = path.stat().st_size  # each record written as read
    assert ticks[0] == (0, total) and ticks[-1] == (total, total)
    assert all(0 <= done <= t == total for done, t in ticks)
    assert [done for done, _ in ticks] == sorted(done for done, _ in ticks)


def test_export_file_round_trips_and_counts_records(store: Store, tmp_path: Path) -> None:
    water = store.create_habit("Water", kind=Kind.COUNTER, target=8)
    for day in range(1, 29):
        store.append(water, EntryKind.AMOUNT, day, date=f"2026-02-{day:02d}")
    ticks: list[tuple[int, int]] = []
    for format in (Format.JSON, Format.JSONL):
        path = tmp_path / f"store.{format.name.lower()}"
        store.export_file(path, format, progress=lambda done, total: ticks.append((done, total)))
        assert path.read_text(encoding="utf-8") == store.export(format)
        assert oct(path.stat().st_mode & 0o777) == oct(0o600)
        with Store(tmp_path / f"copy-{format.name}.db") as copy:
            copy.import_file(path)
            assert copy.export(format) == store.export(format)
    assert ticks[-1][0] == ticks[-1][1] >= 1 + 28  # a habit and its entries, at least


def test_a_true_answer_from_progress_cancels_and_writes_nothing(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "export.jsonl"
    write_export(path, 2, 500)
    # The first tick (done 0) is the one sure to come before the end: a fast machine may
    # give no other before the last, whose answer is ignored.
    with pytest.raises(CancelledError) as raised:
        store.import_file(path, progress=lambda done, total: True)
    assert raised.value.code == habitcore.Status.CANCELLED
    assert list(store.habits()) == []
    store.create_habit("Kept")
    target = tmp_path / "out.json"
    target.write_text("what was there")
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(CancelledError):
        store.export_file(target, progress=lambda done, total: True)  # at the first tick
    assert target.read_text() == "what was there"
    assert sorted(os.listdir(tmp_path)) == before  # the temporary file is gone


@pytest.mark.parametrize("raised", [SystemExit(3), KeyboardInterrupt(), ValueError("bad progress")])
def test_an_exception_in_progress_is_raised_after_the_call_and_nothing_is_written(
        store: Store, tmp_path: Path, raised: BaseException) -> None:
    path = tmp_path / "export.jsonl"
    write_export(path, 2, 500)
    calls: list[int] = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        raise raised  # at the first tick, the one sure to come before the end

    with pytest.raises(type(raised)) as caught:
        store.import_file(path, progress=progress)
    assert caught.value is raised
    assert calls == [0]  # the call stopped at the tick that raised: progress was not called again
    assert list(store.habits()) == []
    store.import_file(path)  # the store is usable and the file importable afterwards
    assert entries_of(store) == 1000


# The child: imports the file, printing when it starts, each progress tick (when it
# passes a progress callback) with the monotonic clock (system-wide on Linux, so
# comparable with the parent's), and how the call ended.
CHILD = textwrap.dedent("""
    import sys, time
    import habitcore

    def progress(done, total):
        print("tick", time.monotonic(), done, total, flush=True)

    with habitcore.Store(sys.argv[1]) as store:
        print("started", time.monotonic(), flush=True)
        try:
            store.import_file(sys.argv[2], progress=progress if sys.argv[3] == "progress" else None)
            print("finished", time.monotonic(), flush=True)
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
""")


@pytest.mark.parametrize("callback", ["progress", "none"])
def test_ctrl_c_cancels_a_long_import_at_the_next_progress_tick(tmp_path: Path, callback: str) -> None:
    # Without a callback of its own the package still passes the library one, so that
    # Ctrl-C stops the import; with one, its ticks show when the signal came.
    export, database = tmp_path / "big.jsonl", tmp_path / "habits.db"
    assert write_export(export, 100, 4000) >= 400_000
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(database), str(export), callback],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    ticks: list[float] = []
    sent = 0.0
    try:
        for line in child.stdout:
            word, at, *rest = line.split()
            if word == "started":
                if callback == "progress":
                    continue
                time.sleep(0.5)  # well inside the import, which takes many seconds
            elif word == "tick":
                ticks.append(float(at))
                done, total = int(rest[0]), int(rest[1])
                assert done < total, "the import finished before it could be interrupted"
                if done == 0:
                    continue  # not under way yet
            else:
                break
            if not sent:
                child.send_signal(signal.SIGINT)
                sent = time.monotonic()
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert sent, "the import never got under way"
    assert word == "interrupted", f"{line!r}; stderr: {child.stderr.read() if child.stderr else ''}"
    assert child.returncode == 0
    # It stopped at the first tick after the signal: within a second of it. Ticks come at
    # least as often as the longest gap seen before the signal (the header says about
    # 50 a second).
    longest_gap = max((b - a for a, b in zip(ticks, ticks[1:])), default=0.5)
    assert float(at) - sent < longest_gap + 1.0, (float(at) - sent, longest_gap)
    with Store(database, create=False) as store:
        assert list(store.habits(include_archived=True)) == [] and entries_of(store) == 0


def test_backup_is_a_store_of_its_own_and_never_overwrites(store: Store, tmp_path: Path) -> None:
    bed = store.create_habit("Make the bed")
    store.done(bed, "2026-03-08")
    copy = tmp_path / "backup.db"
    store.backup(copy)
    assert oct(copy.stat().st_mode & 0o777) == oct(0o600)
    with Store(copy, create=False) as restored:
        assert [h.name for h in restored.habits()] == ["Make the bed"] and entries_of(restored) == 1
        assert restored.sync_replica() != store.sync_replica()
        assert restored.sync_canonical() == store.sync_canonical()
    with pytest.raises(ConflictError):
        store.backup(copy)
    with pytest.raises(habitcore.NotFoundError):
        store.backup(tmp_path / "no such folder" / "backup.db")


HABITS_CSV = """Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
001,Meditate,YES_NO,Did you meditate this morning?,,1,1,#FF8F00,,,,false
002,Run,NUMERICAL,How far did you run?,,1,1,#00897B,km,AT_LEAST,5.0,false
"""
CHECKMARKS_CSV = """Date,Meditate,Run,
2026-01-03,YES_MANUAL,2500,
2026-01-02,SKIP,0,
2026-01-01,YES_MANUAL,7000,
"""


def loop_zip(**files: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def test_loop_zip_import_and_csv_export(store: Store, tmp_path: Path) -> None:
    notes = "Date,Value,Notes\n2026-01-03,YES_MANUAL,calm morning\n"
    store.import_loop_zip(loop_zip(**{"Habits.csv": HABITS_CSV, "Checkmarks.csv": CHECKMARKS_CSV,
                                      "001 Meditate/Checkmarks.csv": notes}))
    meditate, run = store.find_habit("Meditate"), store.find_habit("Run")
    assert (meditate.kind, run.kind, run.unit, meditate.question) == (
        Kind.CHECKMARK, Kind.COUNTER, "km", "Did you meditate this morning?")
    assert sorted((e.date.isoformat(), e.kind, e.note) for e in store.entries(meditate, "2026-01-01", "2026-01-03")) == [
        ("2026-01-01", EntryKind.DONE, None), ("2026-01-02", EntryKind.SKIP, None),
        ("2026-01-03", EntryKind.DONE, "calm morning")]
    assert store.day_total(run, "2026-01-03") == 2.5
    habits_csv, checkmarks_csv = store.export_loop_csv("2026-01-03")
    assert habits_csv.splitlines()[0] == HABITS_CSV.splitlines()[0]
    assert [line.split(",")[:2] for line in habits_csv.splitlines()[1:]] == [["001", "Meditate"], ["002", "Run"]]
    assert checkmarks_csv.splitlines()[1].startswith("2026-01-03,YES_MANUAL,2500")
    with Store(tmp_path / "other.db") as other:
        other.import_loop_csv(habits_csv, checkmarks_csv)
        assert other.export_loop_csv("2026-01-03") == (habits_csv, checkmarks_csv)


def test_a_damaged_loop_zip_writes_nothing(store: Store) -> None:
    with pytest.raises(habitcore.InvalidArgumentError):
        store.import_loop_zip(b"not a zip at all")
    with pytest.raises(habitcore.InvalidArgumentError):
        store.import_loop_zip(loop_zip(**{"Habits.csv": HABITS_CSV, "Checkmarks.csv": "Date,Meditate,Run,\nnot a date,YES_MANUAL,1,\n"}))
    assert list(store.habits()) == []
    with pytest.raises(TypeError):
        store.import_loop_zip("Habits.csv")  # type: ignore[arg-type]


def test_habitbull_import(store: Store) -> None:
    csv = ("HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText\n"
           "Breed dragons,with love and fire,Diet & Food,2016-03-18,1,text\n"
           "Push-ups,,Sport,3/19/2016,20,\n")
    store.import_habitbull_csv(csv)
    dragons, pushups = store.find_habit("Breed dragons"), store.find_habit("Push-ups")
    assert (dragons.kind, dragons.group, dragons.description) == (Kind.CHECKMARK, "Diet & Food", "with love and fire")
    assert pushups.kind == Kind.COUNTER and store.day_total(pushups, "2016-03-19") == 20
    assert [e.note for e in store.entries(dragons, "2016-03-18", "2016-03-18")] == ["text"]
    with pytest.raises(habitcore.InvalidArgumentError, match="line"):
        store.import_habitbull_csv(csv.replace("3/19/2016", "the nineteenth"))


def test_loop_database_import(store: Store, fixtures_dir: Path) -> None:
    backup = fixtures_dir / "loop" / "databases" / "loop.db"
    before = backup.read_bytes()
    store.import_loop_db(backup)
    assert backup.read_bytes() == before  # read only
    names = [h.name for h in store.habits(include_archived=True)]
    assert "Wake up early" in names and len(names) >= 5
    with pytest.raises(habitcore.InvalidArgumentError):
        store.import_loop_db(fixtures_dir / "store-0.2.0.db")  # a habitcore store, not a Loop backup
