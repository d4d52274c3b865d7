"""Opens a store, creates a habit, logs, undoes, reads back, and checks it all.
Usage: HABITCORE_LIB=path/to/libhabitcore.so python3 demo.py STORE_PATH"""
import json
import struct
import sys
import zlib

import habitcore


def main(path):
    with habitcore.Store(path) as store:
        store.set_timezone("America/New_York")
        steps = store.create_habit("Walk", kind="counter", target=6000, unit="steps", routine="day")
        # A health app reports the day's cumulative steps again and again: the highest counts.
        store.log(steps, total=3000, date="2026-03-08", source="health")
        store.log(steps, total=5400, date="2026-03-08", source="health")
        store.log(steps, total=5400, date="2026-03-08", source="health")
        extra = store.log(steps, amount=1000, date="2026-03-08", note="treadmill")
        assert store.day_total(steps, "2026-03-08") == 6400
        store.undo(extra)
        assert store.day_total(steps, "2026-03-08") == 5400

        try:
            store.undo(extra)
        except habitcore.Conflict as error:
            assert "already undone" in str(error)
        else:
            raise AssertionError("a second undo must fail")
        try:
            store.log(steps, date="2026-02-30")
        except habitcore.InvalidArgument as error:
            assert "2026-02-30" in str(error)
        else:
            raise AssertionError("an impossible date must fail")

        days = store.days(steps, "2026-03-07", "2026-03-09")
        assert [d.value for d in days] == [0, 5400, 0] and not any(d.done for d in days)
        entries = store.entries(steps, "2026-03-08", "2026-03-08")
        assert [e.kind for e in entries] == ["total", "total", "total", "amount", "undo"]
        assert entries[3].undone_by == entries[4].id

        document = json.loads(store.export())
        assert document["schema_version"] == 2 and len(document["entries"]) == 5

        # A verifier written in Python: it reads a PNG's header and wants at least 64x64.
        def png_size(data, media_type):
            if media_type != "image/png" or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
                return "rejected", 0.95, "not_a_png", "not a PNG"
            width, height = struct.unpack(">II", data[16:24])
            if min(width, height) < 64:
                return "rejected", 0.9, "too_small", f"{width}x{height}"
            return "approved", 0.9, "png_ok", f"a {width}x{height} PNG"

        store.register_verifier("py-png", "1.0", png_size)
        store.set_proof_policy(["py-png"])
        bed = store.create_habit("Make the bed", routine="morning")
        small = store.submit_proof(bed, data=png(16, 16))
        assert small.outcome == "rejected" and small.reason == "too_small", small
        proof = store.submit_proof(bed, data=png(96, 72))
        assert proof.outcome == "approved" and proof.entry_id, proof
        print(f"python demo: Walk totals {store.day_total(steps, '2026-03-08'):.0f} steps on 2026-03-08 "
              f"(habitcore {habitcore.version}); the Python verifier said {proof.message}")


def png(width, height):
    """A grey PNG of that size, made with the standard library."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = b"".join(b"\x00" + bytes([128]) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    main(sys.argv[1])
