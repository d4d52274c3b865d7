"""The module itself: loading, versions, constants and error classes against the header."""
from __future__ import annotations

import ctypes
import datetime
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import habitcore
from habitcore import _native


def test_loaded_library_is_abi_2_and_version_1() -> None:
    assert habitcore.ABI_VERSION == 2
    assert _native.lib.hc_abi_version() == 2
    assert habitcore.library_version().startswith("1.")
    assert Path(habitcore.library_path).name.startswith("libhabitcore.so")


def test_version_number_and_process_settings(tmp_path: Path) -> None:
    number = habitcore.library_version_number()
    assert number == _native.HC_VERSION_NUMBER
    assert habitcore.library_version() == f"{number // 1000000}.{number // 1000 % 1000}.{number % 1000}"
    with habitcore.Store(tmp_path / "first.db"):
        pass
    with pytest.raises(habitcore.MisuseError):  # this process's SQLite is in use now
        habitcore.disable_sqlite_statistics()
    first = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import habitcore
        habitcore.disable_sqlite_statistics()  # first: before any SQLite use
        with habitcore.Store({str(tmp_path / "habits.db")!r}) as store:
            print(store.create_habit("Read").name)
    """)], capture_output=True, text=True)
    assert (first.returncode, first.stdout.strip()) == (0, "Read"), first.stderr


def test_busy_timeout_is_bounded(tmp_path: Path) -> None:
    with habitcore.Store(tmp_path / "habits.db") as store:
        store.set_busy_timeout(0)
        store.set_busy_timeout(600_000)
        for bad in (-1, 600_001):
            with pytest.raises(habitcore.InvalidArgumentError):
                store.set_busy_timeout(bad)
        with pytest.raises(habitcore.InvalidArgumentError):
            store.set_busy_timeout(1 << 40)


def _import_in(package_parent: Path, library: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "import habitcore; print(habitcore.library_path)"],
                          env={"HABITCORE_LIBRARY": library, "PYTHONPATH": str(package_parent), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True)


def test_library_found_beside_the_package_then_through_habitcore_library(tmp_path: Path) -> None:
    real = str(Path(habitcore.library_path).resolve())
    sources = Path(habitcore.__file__).parent
    plain = tmp_path / "plain" / "habitcore"
    shutil.copytree(sources, plain, ignore=shutil.ignore_patterns("libhabitcore.so*", "__pycache__"))
    found = _import_in(plain.parent, real)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == real
    missing = _import_in(plain.parent, str(tmp_path / "nothing.so"))
    if missing.returncode != 0:  # else a system-wide libhabitcore.so.1 answered: the last fallback
        assert "ImportError" in missing.stderr and "nothing.so" in missing.stderr, missing.stderr
    bundled = tmp_path / "bundled" / "habitcore"
    shutil.copytree(plain, bundled)
    (bundled / "libhabitcore.so.1").symlink_to(real)
    beside = _import_in(bundled.parent, str(tmp_path / "nothing.so"))
    assert beside.returncode == 0, beside.stderr
    assert beside.stdout.strip() == str(bundled.resolve() / "libhabitcore.so.1")


def test_every_status_code_of_the_header_has_its_exception(include_dir: Path) -> None:
    header = (include_dir / "habitcore.h").read_text()
    codes = {name: int(value) for name, value in re.findall(r"#define HC_E_(\w+) (\d+)", header)}
    assert codes, "no HC_E_* in the header"
    for name, value in codes.items():
        assert int(habitcore.Status[name]) == value
        cls = type(habitcore._errors.error_for(value, "x"))
        assert cls is not habitcore.Error and cls.status == value, name
        assert issubclass(cls, habitcore.Error)
    assert len(habitcore.Status) == len(codes) + 1  # and HC_OK
    unknown = habitcore._errors.error_for(999, "from the future")
    assert type(unknown) is habitcore.Error and unknown.code == 999 and str(unknown) == "from the future"


def test_enums_match_the_header_constants(include_dir: Path) -> None:
    text = (include_dir / "habitcore.h").read_text() + (include_dir / "habitcore_plugin.h").read_text()
    defines = {name: int(value, 0) for name, value in re.findall(r"#define (HC_\w+) \(?(-?(?:0x)?[0-9a-fA-F]+)u?\)?\s", text)}
    families: dict[str, Any] = {
        "HC_KIND_": habitcore.Kind, "HC_DIRECTION_": habitcore.Direction, "HC_ROUTINE_": habitcore.Routine,
        "HC_ENTRY_": habitcore.EntryKind, "HC_SOURCE_": habitcore.Source, "HC_STREAK_UNIT_": habitcore.StreakUnit,
        "HC_CREDIT_": habitcore.CreditKind, "HC_EXPIRY_": habitcore.Expiry, "HC_RULE_": habitcore.RuleKind,
        "HC_METRIC_": habitcore.Metric, "HC_SCOPE_": habitcore.Scope, "HC_AWARD_CAUSE_": habitcore.AwardCause,
        "HC_EVENT_": habitcore.EventKind, "HC_OUTCOME_": habitcore.Outcome, "HC_STAGE_": habitcore.Stage,
        "HC_QUIET_": habitcore.Quiet, "HC_DUE_": habitcore.DueState, "HC_HABIT_FIELD_": habitcore.HabitField,
        "HC_OPEN_DAY_": habitcore.OpenDay, "HC_OFF_DAYS_": habitcore.OffDays, "HC_CAUSE_": habitcore.Cause,
    }
    for prefix, enum_type in families.items():
        found = {name[len(prefix):]: value for name, value in defines.items() if name.startswith(prefix)}
        if prefix == "HC_ENTRY_":
            found = {k: v for k, v in found.items() if k != "INPUT_INIT"}
        if prefix == "HC_CREDIT_":
            found = {k: v for k, v in found.items() if k in {"EARN", "SPEND", "ADJUST", "EXPIRE", "REFUND"}}
        assert found, prefix
        for name, value in found.items():
            assert int(enum_type[name]) == value, f"{prefix}{name}"
    assert defines["HC_ABI_VERSION"] == habitcore.ABI_VERSION


def test_struct_layouts_match_a_c_compiler(include_dir: Path, tmp_path: Path) -> None:
    lines = ["#include <stdio.h>", "#include <stddef.h>", '#include "habitcore.h"', "int main(void) {"]
    expected = []
    for c_name, struct in _native.STRUCTS.items():
        lines.append(f'printf("{c_name} %zu\\n", sizeof({c_name}));')
        expected.append(f"{c_name} {ctypes.sizeof(struct)}")
        for field_name, *_ in struct._fields_:
            lines.append(f'printf("{c_name}.{field_name} %zu\\n", offsetof({c_name}, {field_name}));')
            expected.append(f"{c_name}.{field_name} {getattr(struct, field_name).offset}")
    lines += ["return 0;", "}"]
    (tmp_path / "layout.c").write_text("\n".join(lines))
    try:
        build = subprocess.run(["cc", "-I", str(include_dir), str(tmp_path / "layout.c"), "-o",
                                str(tmp_path / "layout")], capture_output=True, text=True)
    except FileNotFoundError:
        pytest.skip("no C compiler")
    assert build.returncode == 0, build.stderr
    printed = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True, check=True).stdout.split("\n")
    assert [line for line in printed if line] == expected


def test_dates_in_and_out() -> None:
    assert habitcore.parse_date("2026-03-08") == datetime.date(2026, 3, 8)
    assert habitcore.format_date(datetime.date(1, 1, 1)) == "0001-01-01"
    with pytest.raises(habitcore.InvalidArgumentError) as caught:
        habitcore.parse_date("2026-02-30")
    assert caught.value.code == habitcore.Status.INVALID
    assert "2026-02-30" in caught.value.message
    assert habitcore.status_string(habitcore.Status.CONFLICT).startswith("HC_E_CONFLICT")


def test_constants_newer_than_the_package_arrive_as_unknown_members() -> None:
    newer = habitcore.Metric(42)
    assert newer == 42 and isinstance(newer, habitcore.Metric) and newer.name == "UNKNOWN_42"
    assert habitcore.Metric(3) is habitcore.Metric.TOTAL_COMPLETIONS


def test_docstring_examples_run() -> None:
    import doctest

    from habitcore import _store

    failures, tried = doctest.testmod(_store)
    assert tried > 0 and failures == 0
