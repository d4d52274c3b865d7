#!/usr/bin/env python3
"""Generates Sources/HabitKit/HeaderConstants.swift: HabitKit's wrappers of the header's
constant families (HabitKind, EntryKind, AwardMetric, DayFlags, ShieldReason, ...), each
the header's constants of one prefix, named and documented from the header.

    python3 scripts/generate-habitkit.py            # rewrite it
    python3 scripts/generate-habitkit.py --check    # exit 1 if it differs from what the headers give
    python3 scripts/generate-habitkit.py --stdout   # print it

A family is every numeric constant whose name starts with its prefix, in the header's
order, less the sub-families named in `elsewhere` (ShieldReason is HC_SHIELD_* less
HC_SHIELD_CAUSE_*, ...). A member is named by what follows the prefix, in lowerCamelCase
(a Swift keyword in backticks) unless `names` says otherwise, and documented by the
header's comment on the constant. The headers are read by scripts/habitcore_header.py.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import habitcore_header as header  # noqa: E402

OUTPUT = header.ROOT / "Sources" / "HabitKit" / "HeaderConstants.swift"
HEADERS = ["habitcore_plugin.h", "habitcore.h", "habitcore_hub.h"]
KEYWORDS = {"defer", "break", "default", "case", "in", "is", "as", "import", "internal", "repeat", "return"}
VALUE = "RawRepresentable, Hashable, Sendable"

# (Swift type, shape, conformances, prefix, the type's doc, sub-prefixes that belong
# elsewhere, member names that are not the suffix's lowerCamelCase). Shapes: "value" (an
# open RawRepresentable struct: a newer library's value is kept), "options" (an
# OptionSet of UInt32 bits), "namespace" (an enum of Int32 constants).
FAMILIES = [
    ("HabitKind", "value", VALUE, "HC_KIND_", "What a habit counts (HC_KIND_*). Open: kinds are only ever appended.", [], {}),
    ("Direction", "value", VALUE, "HC_DIRECTION_", "Which side of the target keeps a day (HC_DIRECTION_*). Open: values are only ever appended.", [], {}),
    ("Routine", "value", VALUE, "HC_ROUTINE_", "The part of the day a habit belongs to (HC_ROUTINE_*). Open: values are only ever appended.", [], {}),
    ("HabitFields", "options", "OptionSet, Sendable", "HC_HABIT_FIELD_", "The fields Store.updateHabit changes (HC_HABIT_FIELD_*).", [], {}),
    ("EntryKind", "value", VALUE, "HC_ENTRY_", "What an entry records (HC_ENTRY_*). Open: kinds are only ever appended.", [], {}),
    ("EntrySource", "namespace", "", "HC_SOURCE_", "The values of an entry's `source` (HC_SOURCE_*): where it came from.", [], {"IMPORT": "imported"}),
    ("StreakUnit", "value", VALUE, "HC_STREAK_UNIT_", "What a streak counts (HC_STREAK_UNIT_*). Open: units are only ever appended.", [], {}),
    ("QuitPeriod", "value", VALUE, "HC_QUIT_PERIOD_", "The allowance period of a quit habit (HC_QUIT_PERIOD_*). Open: periods are only ever appended.", [], {}),
    ("TimerAction", "value", VALUE, "HC_TIMER_ACTION_", "What a timer event does (HC_TIMER_ACTION_*). Open: actions are only ever appended.", [], {}),
    ("TimerState", "value", VALUE, "HC_TIMER_", "Where a timer stands (HC_TIMER_*). Open: states are only ever appended.", ["ACTION_", "AUTO_COMPLETE"], {}),
    ("DayFlags", "options", "OptionSet, Hashable, Sendable", "HC_DAY_", "What a day of a habit came to (HC_DAY_* bits).", ["NONE"], {}),
    ("DueState", "value", VALUE, "HC_DUE_", "Where a due habit stands (HC_DUE_*). Open: values are only ever appended.", [], {}),
    ("OpenDay", "value", VALUE, "HC_OPEN_DAY_", "What an occurrence still open (today, before it is over) does to a streak (HC_OPEN_DAY_*). Open: values are only ever appended.", [], {}),
    ("OffDays", "value", VALUE, "HC_OFF_DAYS_", "What a day with nothing due does to the perfect-day streak (HC_OFF_DAYS_*).", [], {}),
    ("ExchangeFormat", "value", VALUE, "HC_FORMAT_", "A format of the store's own export (HC_FORMAT_*), documented in docs/FORMATS.md. Open: formats are only ever appended.", [], {"JSONL": "jsonLines"}),
    ("CreditEntryKind", "value", VALUE, "HC_CREDIT_", "What a credit entry did (HC_CREDIT_*). Open: kinds are only ever appended.", [], {}),
    ("CreditCause", "value", VALUE, "HC_CAUSE_", "Why a credit entry was written (HC_CAUSE_*). Open: causes are only ever appended.", [], {}),
    ("CreditRuleKind", "value", VALUE, "HC_RULE_", "What a credit rule sets (HC_RULE_*). Open: kinds are only ever appended.", [], {}),
    ("AwardMetric", "value", VALUE, "HC_METRIC_", "What an award measures (HC_METRIC_*). Open: metrics are only ever appended.", [], {}),
    ("AwardScope", "value", VALUE, "HC_SCOPE_", "Which habits an award's metric looks at (HC_SCOPE_*). Open.", [], {}),
    ("AwardCause", "value", VALUE, "HC_AWARD_CAUSE_", "What crossed an award's threshold (HC_AWARD_CAUSE_*). Open.", [], {}),
    ("ChangeArea", "value", VALUE, "HC_CHANGE_", "What a change of the store touched (HC_CHANGE_*). Open: areas are only ever appended.", ["FIRST_DAY", "LAST_DAY"], {}),
    ("EventKind", "value", VALUE, "HC_EVENT_", "What an event announces (HC_EVENT_*). Open: kinds are only ever appended.", [], {}),
    ("Stage", "value", VALUE, "HC_STAGE_", "Who gave a verdict (HC_STAGE_*). Open: values are only ever appended.", [], {}),
    ("Outcome", "value", VALUE, "HC_OUTCOME_", "How a proof was judged (HC_OUTCOME_*). Open: outcomes are only ever appended.", [], {}),
    ("PluginKind", "value", VALUE, "HC_PLUGIN_", "How a plugin runs (HC_PLUGIN_*). Open: kinds are only ever appended.", ["ABI_VERSION", "FINGERPRINT_MAX"], {}),
    ("QuietPolicy", "value", VALUE, "HC_QUIET_", "What quiet hours do to a reminder inside them (HC_QUIET_*). Open.", [], {}),
    ("ReminderKind", "value", VALUE, "HC_REMINDER_", "Whether a reminder instant is a rule's own or a snooze's (HC_REMINDER_*). Open.", [], {}),
    ("ReminderListOptions", "options", "OptionSet, Hashable, Sendable", "HC_REMINDERS_", "Which reminders a listing gives (HC_REMINDERS_* flags).", [], {}),
    ("ShieldLift", "value", VALUE, "HC_SHIELD_LIFT_", "Whether a shield lifts when all its habits are done or any one (HC_SHIELD_LIFT_*). Open: values are only ever appended.", [], {}),
    ("ShieldBudgetPeriod", "value", VALUE, "HC_SHIELD_BUDGET_", "The period an emergency unlock budget counts over (HC_SHIELD_BUDGET_*). Open.", [], {}),
    ("ShieldReason", "value", VALUE, "HC_SHIELD_", "Why a rule is shielded or not (HC_SHIELD_WINDOW_OPEN ... HC_SHIELD_NOT_IN_EFFECT). Open.",
     ["LIFT_", "BUDGET_", "DAY_START", "MIDNIGHT", "MAX_", "CAUSE_", "EARLIER_", "MOVED_"], {}),
    ("ShieldCause", "value", VALUE, "HC_SHIELD_CAUSE_", "What caused a shield transition (HC_SHIELD_CAUSE_*). Open.", [], {}),
    ("ShieldEarlier", "options", "OptionSet, Hashable, Sendable", "HC_SHIELD_EARLIER_", "Events that could end a shield state before its next time-driven change (HC_SHIELD_EARLIER_* bits).", [], {}),
    ("ShieldMoved", "options", "OptionSet, Hashable, Sendable", "HC_SHIELD_MOVED_", "How a clock change placed a transition's local time (HC_SHIELD_MOVED_* bits).", [], {}),
    ("SyncChangesOptions", "options", "OptionSet, Hashable, Sendable", "HC_SYNC_", "How a changeset is made (hc_sync_changes_v2's flags).", [], {}),
    ("HubUserKind", "value", VALUE, "HC_HUB_USER_", "The kind of a hub login role (HC_HUB_USER_*). Open.", [], {}),
    ("HubSyncDirection", "options", "OptionSet, Hashable, Sendable", "HC_HUB_", "Which ways a hub sync goes (HC_HUB_PUSH, HC_HUB_PULL).", ["USER_"], {}),
]


def member_name(suffix: str, names: dict[str, str]) -> str:
    if suffix in names:
        return names[suffix]
    parts = suffix.lower().split("_")
    name = parts[0] + "".join(p.capitalize() for p in parts[1:])
    return f"`{name}`" if name in KEYWORDS else name


def doc(constant: header.Constant) -> str:
    """The constant's name, then the header's comment on it."""
    text = constant.comment.rstrip(".")
    return f"{constant.name}: {text}." if text else f"{constant.name}."


def generate() -> str:
    constants: dict[str, header.Constant] = {}
    for name in HEADERS:
        for constant in header.parse(name).constants:
            if not constant.string:
                constants.setdefault(constant.name, constant)
    out = [
        "// @generated by scripts/generate-habitkit.py from include/habitcore_plugin.h, habitcore.h and habitcore_hub.h.",
        "// Do not edit: run `python3 scripts/generate-habitkit.py` (HabitKitCoverageTests checks it is current).",
        "import CHabitCore",
    ]
    for swift, shape, conformances, prefix, type_doc, elsewhere, names in FAMILIES:
        members = [c for name, c in constants.items()
                   if name.startswith(prefix) and not any(name[len(prefix):].startswith(e) for e in elsewhere)]
        if not members:
            raise header.HeaderError(f"no constant starts with {prefix} (HabitKit's {swift})")
        family = prefix + "*"
        out += ["", f"/// {type_doc}"]
        if shape == "namespace":
            out.append(f"public enum {swift} {{")
            for c in members:
                out += [f"    /// {doc(c)}", f"    public static let {member_name(c.name[len(prefix):], names)}: Int32 = {c.name}"]
        else:
            raw = "UInt32" if shape == "options" else "Int32"
            what = f"these {family} bits" if shape == "options" else f"this {family} value"
            out += [f"public struct {swift}: {conformances} {{",
                    f"    /// The {family} {'bits' if shape == 'options' else 'value'}.", f"    public let rawValue: {raw}",
                    f"    /// The {swift} with {what}.",
                    f"    public init(rawValue: {raw}) {{ self.rawValue = rawValue }}"]
            for c in members:
                out += [f"    /// {doc(c)}", f"    public static let {member_name(c.name[len(prefix):], names)} = {swift}(rawValue: {c.name})"]
        out.append("}")
    out.append("")
    return "\n".join(out)


def main() -> int:
    return header.emit([(OUTPUT, generate())], "python3 scripts/generate-habitkit.py", sys.argv)


if __name__ == "__main__":
    sys.exit(main())
