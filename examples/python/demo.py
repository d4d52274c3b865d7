"""Opens a store, creates a habit, logs, undoes, reads back, and checks it all.
Usage: HABITCORE_LIB=path/to/libhabitcore.so python3 demo.py STORE_PATH"""
import json
import sys

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
        assert document["schema_version"] == 1 and len(document["entries"]) == 5
        print(f"python demo: Walk totals {store.day_total(steps, '2026-03-08'):.0f} steps on 2026-03-08 "
              f"(habitcore {habitcore.version})")


if __name__ == "__main__":
    main(sys.argv[1])
