"""The package keeps up with the header: every function in it is reached by the package's
code or waived below by name, with the reason. A header that grows fails here until the
package decides."""
from __future__ import annotations

import re
from pathlib import Path

import habitcore
from habitcore import _header

# Header functions the package does not call, each for a reason. Shrink it, never grow it
# silently: a new header function must be bound or added here on purpose.
WAIVED: dict[str, str] = {
    "hc_store_errmsg": "every failure's message is read at once from the thread's hc_last_error_message",
    "hc_habit_update": "hc_habit_update_from with HC_DAY_NONE is the same change and names the days re-judged",
    "hc_habit_archive": "hc_habit_archive_from with HC_DAY_NONE is the same change and names the days re-judged",
    "hc_streak_compute": "hc_streak_compute_with_policy with a NULL policy is the same computation",
    "hc_verifier_register": "hc_verifier_register_v2 gives the Python callback back when the library lets it go",
    "hc_sync_changes": "hc_sync_changes_v2 with no flags is the same call",
}


def package_text() -> str:
    """The package's own code: every module but the generated mirror of the header."""
    folder = Path(habitcore.__file__).resolve().parent
    return "\n".join(f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.py")) if f.name != "_header.py")


def test_every_header_function_is_reached_or_waived() -> None:
    declared = set(_header.SIGNATURES)
    assert len(declared) >= 170
    text = package_text()
    # Called as lib.hc_x, or named as a string the package looks up (the struct inits).
    reached = {name for name in declared if re.search(rf'\blib\.{name}\b|"{name}"', text)}
    assert sorted(declared - reached - set(WAIVED)) == [], "header functions the package neither reaches nor waives"
    assert sorted(set(WAIVED) & reached) == [], "reached now: take them off WAIVED"
    assert sorted(set(WAIVED) - declared) == [], "waived but not in the header"
    assert all(reason.strip() for reason in WAIVED.values())


def test_every_reached_function_is_declared_by_the_loader() -> None:
    # The loader sets restype and argtypes from the mirror for each; a name the package
    # calls that the header lacks would fail at import instead of passing unchecked.
    text = package_text()
    called = set(re.findall(r"\blib\.(hc_[a-z0-9_]+)", text))
    assert called and called <= set(_header.SIGNATURES)
