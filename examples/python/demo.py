"""The habitcore package in a few lines: a habit, a day of steps, an undo, a Python verifier.

Usage: python3 demo.py STORE_PATH  (with bindings/python installed, or PYTHONPATH=bindings/python/src,
and HABITCORE_LIBRARY=path/to/libhabitcore.so unless the library is installed)"""
import datetime
import struct
import sys
import zlib

import habitcore
from habitcore import EntryKind, Judgement, Outcome


def png(width: int, height: int) -> bytes:
    chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def big_enough(evidence: habitcore.Evidence) -> Judgement:
    width, height = struct.unpack(">II", evidence.data[16:24])
    return Judgement(Outcome.APPROVED if min(width, height) >= 64 else Outcome.REJECTED, 0.9, "size",
                     f"a {width}x{height} PNG")


day = datetime.date(2026, 3, 8)
with habitcore.Store(sys.argv[1]) as store:
    walk = store.create_habit("Walk", kind=habitcore.Kind.COUNTER, target=6000, unit="steps", start=day)
    store.append(walk, EntryKind.TOTAL, 5400, date=day, source=habitcore.Source.HEALTH)
    store.undo(store.append(walk, EntryKind.AMOUNT, 1000, date=day))
    try:
        store.append(walk, date="2026-02-30")
    except habitcore.InvalidArgumentError as error:
        print(f"refused: {error.message}")
    store.register_verifier("py-png", "1.0", big_enough)
    store.set_proof_policy(["py-png"])
    proof = store.submit_proof(store.create_habit("Make the bed"), png(96, 72))
    print(f"python demo: Walk totals {store.day_total(walk, day):.0f} steps on {day} "
          f"(habitcore {habitcore.library_version()}); the Python verifier said {proof.outcome.name}: {proof.message}")
