"""src/habitcore/_header.py is exactly what generate.py makes of the headers today."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

GENERATOR = Path(__file__).resolve().parent.parent / "generate.py"


def test_the_checked_in_mirror_is_current() -> None:
    if not (GENERATOR.parent.parent.parent / "include" / "habitcore.h").exists():
        pytest.skip("not in the source tree")
    result = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
