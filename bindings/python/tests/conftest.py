"""Fixtures: a fresh store per test, and where the C header is (for the layout checks)."""
from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

import habitcore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[habitcore.Store]:
    with habitcore.Store(tmp_path / "habits.db") as opened:
        yield opened


@pytest.fixture
def include_dir() -> Path:
    """include/ of the source tree: $HABITCORE_INCLUDE, else the repository this test sits in."""
    configured = os.environ.get("HABITCORE_INCLUDE")
    folder = Path(configured) if configured else Path(__file__).resolve().parents[3] / "include"
    if not (folder / "habitcore.h").exists():
        pytest.skip(f"no habitcore.h under {folder} (set HABITCORE_INCLUDE)")
    return folder


@pytest.fixture
def fixtures_dir() -> Path:
    """Tests/fixtures of the source tree (real files other apps wrote)."""
    folder = Path(__file__).resolve().parents[3] / "Tests" / "fixtures"
    if not folder.is_dir():
        pytest.skip(f"no fixtures under {folder} (not in the source tree)")
    return folder


def png(width: int, height: int) -> bytes:
    """A grey PNG of that size, made with the standard library."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = b"".join(b"\x00" + bytes([128]) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
