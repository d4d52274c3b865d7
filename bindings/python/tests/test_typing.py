"""The package and its tests pass ``mypy --strict`` (the [tool.mypy] of pyproject.toml), with
one exact mypy from PyPI: a newer mypy finds new things, so moving the pin is a change of
its own."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MYPY = "mypy==2.4.1"
PROJECT = Path(__file__).resolve().parent.parent


def test_mypy_strict_passes(tmp_path: Path) -> None:
    if not (PROJECT / "pyproject.toml").exists():
        pytest.skip("not in the source tree")
    venv = tmp_path / "mypy"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", MYPY],
                             capture_output=True, text=True)
    assert install.returncode == 0, f"pip install {MYPY}: {install.stderr}"
    # The imports (pytest, an installed habitcore) are this interpreter's.
    result = subprocess.run([str(venv / "bin" / "mypy"), "--strict", "--python-executable", sys.executable,
                             "--cache-dir", str(tmp_path / "cache")], cwd=PROJECT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout
