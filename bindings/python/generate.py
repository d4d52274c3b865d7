#!/usr/bin/env python3
"""Generates the Python mirror of include/habitcore_plugin.h and include/habitcore.h:

    src/habitcore/_header.py   ctypes: every numeric and string constant, every struct,
                               every callback type, every function's restype and argtypes
    src/habitcore/_enums.py    the public enums (Kind, EntryKind, Metric, ...): each the
                               header's constants of one prefix (ENUMS below names them)

    python3 generate.py            # rewrite both
    python3 generate.py --check    # exit 1 if either differs from what the headers give
    python3 generate.py --stdout   # print both

The headers are read by scripts/habitcore_header.py, the one reader the Rust -sys
generator uses too. Types map as the package's callers pass them: handles and void *
as c_void_p, an out handle or an allocated string (T **, char **) as a pointer to
c_void_p, C strings and input bytes (const uint8_t * parameters) as c_char_p.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
import habitcore_header as header  # noqa: E402

HEADERS = ["habitcore_plugin.h", "habitcore.h"]
OUTPUT = HERE / "src" / "habitcore" / "_header.py"
ENUMS_OUTPUT = HERE / "src" / "habitcore" / "_enums.py"

# The public enums: (class, the header's prefix, base, docstring, members the binding
# adds before the header's, the prefix's names that belong elsewhere: a name, or a
# further prefix ending in "_"). Members are the header's constants of that prefix, in
# the header's order, named by what follows it.
ENUMS = [
    ("Kind", "HC_KIND_", "_OpenEnum", "HC_KIND_*: what a habit measures.", [], []),
    ("Direction", "HC_DIRECTION_", "_OpenEnum", "HC_DIRECTION_*.", [], []),
    ("Routine", "HC_ROUTINE_", "_OpenEnum", "HC_ROUTINE_*.", [], []),
    ("OpenFlag", "HC_OPEN_", "enum.IntFlag", "HC_OPEN_*.", [], ["DAY_PREVIOUS", "DAY_ZERO"]),
    ("Format", "HC_FORMAT_", "_OpenEnum", "HC_FORMAT_*: export and import formats.", [], []),
    ("HabitField", "HC_HABIT_FIELD_", "enum.IntFlag", "HC_HABIT_FIELD_*: what :meth:`Store.update_habit` changes.", [], []),
    ("EntryKind", "HC_ENTRY_", "_OpenEnum", "HC_ENTRY_*.", [], []),
    ("Source", "HC_SOURCE_", "_OpenEnum", "HC_SOURCE_*.", [], []),
    ("DayFlag", "HC_DAY_", "enum.IntFlag", "HC_DAY_*: bits of a day state.", [], ["NONE"]),
    ("StreakUnit", "HC_STREAK_UNIT_", "_OpenEnum", "HC_STREAK_UNIT_*.", [], []),
    ("QuitPeriod", "HC_QUIT_PERIOD_", "_OpenEnum", "HC_QUIT_PERIOD_*: the allowance period of a quit habit.", [], []),
    ("TimerAction", "HC_TIMER_ACTION_", "_OpenEnum", "HC_TIMER_ACTION_*: what a timer event does.", [], []),
    ("TimerState", "HC_TIMER_", "_OpenEnum", "HC_TIMER_*: where a timer stands.", [], ["ACTION_", "AUTO_COMPLETE"]),
    ("OpenDay", "HC_OPEN_DAY_", "_OpenEnum", "HC_OPEN_DAY_* (0: a habit inherits the store's).", [("INHERIT", 0)], []),
    ("OffDays", "HC_OFF_DAYS_", "_OpenEnum", "HC_OFF_DAYS_* (0 for a habit).", [("NONE", 0)], []),
    ("DueState", "HC_DUE_", "_OpenEnum", "HC_DUE_*.", [], []),
    ("CreditKind", "HC_CREDIT_", "_OpenEnum", "HC_CREDIT_*.", [], []),
    ("Cause", "HC_CAUSE_", "_OpenEnum", "HC_CAUSE_*: what wrote a credit entry.", [("NONE", 0)], []),
    ("Expiry", "HC_EXPIRY_", "_OpenEnum", "HC_EXPIRY_*.", [], []),
    ("RuleKind", "HC_RULE_", "_OpenEnum", "HC_RULE_*: credit rules.", [], []),
    ("Metric", "HC_METRIC_", "_OpenEnum", "HC_METRIC_*.", [], []),
    ("Scope", "HC_SCOPE_", "_OpenEnum", "HC_SCOPE_*.", [], []),
    ("AwardCause", "HC_AWARD_CAUSE_", "_OpenEnum", "HC_AWARD_CAUSE_*.", [], []),
    ("EventKind", "HC_EVENT_", "_OpenEnum", "HC_EVENT_*.", [], []),
    ("ChangeArea", "HC_CHANGE_", "_OpenEnum", "HC_CHANGE_*: what a change of the store touched.", [], ["FIRST_DAY", "LAST_DAY"]),
    ("Outcome", "HC_OUTCOME_", "_OpenEnum", "HC_OUTCOME_*: verdicts, decisions and reviews.", [], []),
    ("Stage", "HC_STAGE_", "_OpenEnum", "HC_STAGE_*.", [], []),
    ("PolicyMode", "HC_POLICY_", "_OpenEnum", "HC_POLICY_ALL / HC_POLICY_ANY.", [], ["INHERIT", "OWN"]),
    ("PluginKind", "HC_PLUGIN_", "_OpenEnum", "HC_PLUGIN_*.", [], ["ABI_VERSION", "FINGERPRINT_MAX"]),
    ("Quiet", "HC_QUIET_", "_OpenEnum", "HC_QUIET_*: what quiet hours do to a reminder.", [], []),
    ("ReminderKind", "HC_REMINDER_", "_OpenEnum", "HC_REMINDER_*.", [], []),
    ("ShieldLift", "HC_SHIELD_LIFT_", "_OpenEnum", "HC_SHIELD_LIFT_*: which done habits lift a shield window.", [], []),
    ("ShieldBudget", "HC_SHIELD_BUDGET_", "_OpenEnum", "HC_SHIELD_BUDGET_*: the period emergency unlocks are counted in.", [], []),
    ("ShieldReason", "HC_SHIELD_", "_OpenEnum", "HC_SHIELD_* reasons: why a rule is (not) shielded.", [],
     ["LIFT_", "BUDGET_", "DAY_START", "MIDNIGHT", "MAX_HABITS", "CAUSE_", "EARLIER_", "MOVED_"]),
    ("ShieldCause", "HC_SHIELD_CAUSE_", "_OpenEnum", "HC_SHIELD_CAUSE_*: what caused a shield transition (0: none).",
     [("NONE", 0)], []),
    ("ShieldEarlier", "HC_SHIELD_EARLIER_", "enum.IntFlag", "HC_SHIELD_EARLIER_*: events that could end a shield state sooner.", [], []),
    ("ShieldMoved", "HC_SHIELD_MOVED_", "enum.IntFlag", "HC_SHIELD_MOVED_*: how DST or a zone change placed a transition.", [], []),
]
# Single constants the package exports by their short names.
SINGLE = [("POLICY_INHERIT", "HC_POLICY_INHERIT", "HC_POLICY_INHERIT: a habit's miss allowance follows the store's."),
          ("ACCOUNT_DEFAULT", "HC_ACCOUNT_DEFAULT", None)]
OPEN_ENUM = '''class _OpenEnum(enum.IntEnum):
    """An IntEnum that takes a value newer than this package as an ``UNKNOWN_<n>`` member
    instead of failing: the header's constants are only ever appended."""

    @classmethod
    def _missing_(cls, value: object) -> _OpenEnum | None:
        if not isinstance(value, int) or isinstance(value, bool):
            return None
        member = int.__new__(cls, value)
        member._name_ = f"UNKNOWN_{value}"
        member._value_ = value
        return member
'''
SCALARS = {"uint32_t": "u32", "int32_t": "i32", "int64_t": "i64", "double": "f64", "uint8_t": "ctypes.c_uint8"}
POINTERS = {"int32_t": "I32P", "int64_t": "I64P", "double": "F64P", "uint8_t": "u8p"}


def excluded_name(member: str, excluded: list[str]) -> bool:
    """Whether a constant's name after the enum's prefix is one ENUMS leaves to another enum."""
    return any(member == name or (name.endswith("_") and member.startswith(name)) for name in excluded)


def class_name(c_name: str) -> str:
    """hc_habit_options -> HabitOptions."""
    return "".join(part.capitalize() for part in c_name.removeprefix("hc_").split("_"))


def callback_name(c_name: str) -> str:
    """hc_verify_callback -> VERIFY_CALLBACK."""
    return c_name.removeprefix("hc_").upper()


class Types:
    def __init__(self, structs: set[str], handles: set[str], callbacks: set[str]) -> None:
        self.structs, self.handles, self.callbacks = structs, handles, callbacks

    def param(self, ctype: str) -> str:
        """A parameter's or return value's ctypes type."""
        if ctype in self.callbacks:
            return callback_name(ctype)
        const, base, stars = header.c_type_parts(ctype)
        if stars == 0:
            if base == "void":
                return "None"
            return SCALARS[base]
        if base in self.handles or base == "void":
            return "ptr" if stars == 1 else "PTRP"
        if base == "char":
            return "text" if stars == 1 else "PTRP"
        if base in self.structs:
            return ("_p" if stars == 1 else "_pp") + f"({class_name(base)})"
        if base == "uint8_t" and const and stars == 1:
            return "text"  # input bytes: a bytes object passes as is
        if stars == 1:
            return POINTERS[base]
        if stars == 2 and base == "uint8_t":
            return "_p(u8p)"
        raise header.HeaderError(f"no ctypes mapping for the parameter type {ctype!r}")

    def field(self, declaration: header.Declaration) -> str:
        """A struct field's ctypes type."""
        if declaration.callback is not None:
            return self.function_type(declaration.callback.returns, declaration.callback.params)
        const, base, stars = header.c_type_parts(declaration.ctype)
        if declaration.length is not None:
            element = "ctypes.c_char" if base == "char" else SCALARS[base]
            return f"{element} * {declaration.length}"
        if stars == 0:
            return class_name(base) if base in self.structs else SCALARS[base]
        if stars == 1 and base == "char":
            return "text"
        if stars == 1 and base == "void":
            return "ptr"
        if stars == 1 and base in POINTERS:
            return POINTERS[base]
        if stars == 1 and base in self.structs:
            return f"_p({class_name(base)})"
        raise header.HeaderError(f"no ctypes mapping for the field {declaration.name}: {declaration.ctype!r}")

    def function_type(self, returns: str, params: list[header.Declaration]) -> str:
        args = ", ".join([self.param(returns)] + [self.argument(p) for p in params])
        return f"ctypes.CFUNCTYPE({args})"

    def argument(self, declaration: header.Declaration) -> str:
        """A parameter's type: a function pointer's own CFUNCTYPE, else as param()."""
        if declaration.callback is not None:
            return self.function_type(declaration.callback.returns, declaration.callback.params)
        return self.param(declaration.ctype)


def python_value(constant: header.Constant) -> str:
    if constant.string:
        return constant.value
    value = constant.value.replace("u)", ")")
    value = __import__("re").sub(r"\b(0x[0-9a-fA-F]+|\d+)u\b", r"\1", value)
    if value.startswith("(") and value.endswith(")") and value.count("(") == 1:
        value = value[1:-1]
    return value


def generate() -> str:
    parsed = [header.parse(name) for name in HEADERS]
    structs = {s.name for p in parsed for s in p.structs}
    handles = set(p for h in parsed for p in h.handles)
    callbacks = {c.name for p in parsed for c in p.callbacks}
    types = Types(structs, handles, callbacks)
    out = [
        '"""@generated by bindings/python/generate.py from include/habitcore_plugin.h and include/habitcore.h.',
        "",
        "Do not edit: run `python3 bindings/python/generate.py` (tests/test_generated.py checks it is current).",
        '"""',
        "# fmt: off",
        "from __future__ import annotations",
        "",
        "import ctypes",
        "from typing import Any",
        "",
        "u32, i32, i64, f64 = ctypes.c_uint32, ctypes.c_int32, ctypes.c_int64, ctypes.c_double",
        "ptr, text = ctypes.c_void_p, ctypes.c_char_p",
        "u8p = ctypes.POINTER(ctypes.c_uint8)",
        "I32P, I64P, F64P, PTRP = ctypes.POINTER(i32), ctypes.POINTER(i64), ctypes.POINTER(f64), ctypes.POINTER(ptr)",
        "",
        "",
        "def _p(struct: Any) -> Any:",
        "    return ctypes.POINTER(struct)",
        "",
        "",
        "def _pp(struct: Any) -> Any:",
        "    return ctypes.POINTER(ctypes.POINTER(struct))",
        "",
        "",
        "# The constants.",
    ]
    for p in parsed:
        for constant in p.constants:
            out.append(f"{constant.name} = {python_value(constant)}")
    out += ["", ""]
    names = []
    for p in parsed:
        for struct in p.structs:
            names.append(struct.name)
            fields = ", ".join(f'("{f.name}", {types.field(f)})' for f in struct.fields)
            out += [f"class {class_name(struct.name)}(ctypes.Structure):",
                    f"    _fields_ = [{fields}]", "", ""]
    out.append("# The header's structs by C name, for the layout test.")
    out.append("STRUCTS: dict[str, type[ctypes.Structure]] = {")
    out += [f'    "{name}": {class_name(name)},' for name in names]
    out += ["}", "", "# The callback types."]
    for p in parsed:
        for callback in p.callbacks:
            out.append(f"{callback_name(callback.name)} = {types.function_type(callback.returns, callback.params)}")
    out += ["", "# name: (restype, argtypes), in the header's order.", "SIGNATURES: dict[str, tuple[Any, list[Any]]] = {"]
    for p in parsed:
        for function in p.functions:
            args = ", ".join(types.argument(param) for param in function.params)
            out.append(f'    "{function.name}": ({types.param(function.returns)}, [{args}]),')
    out += ["}", ""]
    return "\n".join(out)


def generate_enums() -> str:
    constants = {c.name: c for name in HEADERS for c in header.parse(name).constants if not c.string}
    out = [
        '"""@generated by bindings/python/generate.py from include/habitcore_plugin.h and include/habitcore.h.',
        "",
        "The header's constants as the package's enums. Do not edit: run `python3 bindings/python/generate.py`",
        '(tests/test_generated.py checks it is current)."""',
        "from __future__ import annotations",
        "",
        "import enum",
        "",
        "",
        OPEN_ENUM,
    ]
    for name, prefix, base, doc, added, excluded in ENUMS:
        members = list(added) + [(c[len(prefix):], constants[c].value) for c in constants
                                 if c.startswith(prefix) and not excluded_name(c[len(prefix):], excluded)]
        if len(members) == len(added):
            raise header.HeaderError(f"no constant starts with {prefix} (enum {name})")
        out += ["", f"class {name}({base}):", f'    """{doc}"""', ""]
        for member, value in members:
            comment = constants.get(prefix + member)
            note = f"  # {comment.comment}" if comment is not None and comment.comment else ""
            out.append(f"    {member} = {python_value(constants[prefix + member]) if comment else value}{note}")
        out.append("")
    for name, c_name, doc in SINGLE:
        out += ["", f"{name} = {python_value(constants[c_name])}"]
        if doc:
            out.append(f'"""{doc}"""')
    out.append("")
    return "\n".join(out)


def main() -> int:
    return header.emit([(OUTPUT, generate()), (ENUMS_OUTPUT, generate_enums())], "python3 bindings/python/generate.py", sys.argv)


if __name__ == "__main__":
    sys.exit(main())
