#!/usr/bin/env python3
"""Reads and checks the tag line of every function in the public headers.

    header-tags.py check [--include DIR]   exit 1, naming each fault, unless every tag is right
    header-tags.py json [--include DIR]    every function's tags, and the status codes, as JSON

The format is stated at the top of include/habitcore.h ("Tags"): the comment before
each prototype ends with one line

    @since 1.0 @thread store @status HC_OK HC_E_INVALID HC_E_MISUSE

`check` holds each header to it: every function has exactly one well-formed tag
line; @since is the symbol version the ABI baseline (Tests/abi/*.abi) binds it to;
every @thread rule is one the header's top defines; every code named is one of the
header's status codes, in their numeric order, each once; and the codes the export
code can be seen to return are listed. That last check is what is cheap to read from
the Swift exports (any Sources/**/*.swift defining `public func hc_...`): a call
through withStore or withHub can return HC_E_MISUSE (a bad handle), a list handle's
count and get HC_E_MISUSE, and a call that converts a caller's pointer, string,
day, struct or buffer (Convert.*) or throws .invalid can return HC_E_INVALID. It
also checks the bindings' error tables against the header's codes: Python's
Status enum and error classes (_errors.py), the Rust crate's ErrorKind match and
HabitKit's HabitError.Code constants each name every HC_E_* code.
"""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import habitcore_header as header  # noqa: E402

ROOT = header.ROOT
HEADERS = {"habitcore.h": ROOT / "Tests/abi/habitcore.abi", "habitcore_hub.h": ROOT / "Tests/abi/habitcore_hub.abi"}
TAG = re.compile(r"^@since (?P<since>\d+\.\d+) @thread (?P<thread>[a-z]+(?: [a-z]+)*) @status (?P<status>none|HC_OK(?: HC_E_[A-Z_]+)*)$")
# Convert calls that refuse a caller's value with HC_E_INVALID (Sources/HabitExports/Convert.swift).
INVALID_CONVERSIONS = re.compile(r"Convert\.(string|optionalString|out|day|options|grownOptions|result|grownResult|array)\(|throw \.invalid|HabitError\(\.invalid|\.invalid\(")


def status_codes(parsed: header.Header) -> list[tuple[str, int]]:
    """HC_OK and the HC_E_* codes, by value."""
    codes = [(c.name, int(c.value)) for c in parsed.constants if c.name == "HC_OK" or c.name.startswith("HC_E_")]
    return sorted(codes, key=lambda c: c[1])


def thread_rules(include: Path) -> set[str]:
    """The rule names the top of habitcore.h defines: lines `@thread NAME: ...`."""
    top = (include / "habitcore.h").read_text(encoding="utf-8").split("*/", 1)[0]
    return set(re.findall(r"@thread (\w+):", top))


def symbol_versions(abi: Path) -> dict[str, str]:
    versions = {}
    for line in abi.read_text(encoding="utf-8").splitlines():
        m = re.match(r"symbol (\w+) HC_(?:HUB_)?(\d+\.\d+)$", line)
        if m:
            versions[m.group(1)] = m.group(2)
    return versions


def export_bodies() -> dict[str, str]:
    """Each Swift export's text: its `public func hc_...` to the closing brace at column 0."""
    bodies = {}
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"^public func (hc_\w+)\(.*?^\}", text, flags=re.M | re.S):
            bodies[m.group(1)] = m.group(0)
    return bodies


def required_codes(body: str) -> set[str]:
    required = set()
    if re.search(r"withStore\(|withHub\(|ListHandle\.(count|get|list)\(", body):
        required.add("HC_E_MISUSE")
    if INVALID_CONVERSIONS.search(body) or re.search(r"ListHandle\.(count|get)\(", body):
        required.add("HC_E_INVALID")
    return required


def tags(include: Path) -> tuple[dict[str, dict], list[tuple[str, int]], list[str]]:
    """(function -> tags, status codes, faults)."""
    out: dict[str, dict] = {}
    faults: list[str] = []
    codes: list[tuple[str, int]] = []
    for name in HEADERS:
        parsed = header.parse(name, include)
        if name == "habitcore.h":
            codes = status_codes(parsed)
        for f in parsed.functions:
            lines = f.comment.split("\n")
            tagged = [line for line in lines if line.startswith("@since")]
            loose = [line for line in lines if re.search(r"@(since|thread|status)\b", line) and not line.startswith("@since")]
            where = f"{name}:{f.line} {f.name}"
            if len(tagged) != 1 or loose:
                faults.append(f"{where}: {len(tagged)} tag lines (one wanted){' and stray tags' if loose else ''}")
                continue
            m = TAG.match(tagged[0].strip())
            if not m:
                faults.append(f"{where}: malformed tag line {tagged[0].strip()!r}")
                continue
            out[f.name] = {"header": name, "line": f.line, "section": f.section, "since": m.group("since"),
                           "thread": m.group("thread").split(), "status": [] if m.group("status") == "none" else m.group("status").split()}
    return out, codes, faults


def check(include: Path) -> list[str]:
    found, codes, faults = tags(include)
    names = [c for c, _ in codes]
    rules = thread_rules(include)
    if not rules:
        faults.append("habitcore.h: its top defines no @thread rules")
    versions: dict[str, str] = {}
    for abi in HEADERS.values():
        versions.update(symbol_versions(abi))
    bodies = export_bodies()
    for name, t in found.items():
        where = f"{t['header']}:{t['line']} {name}"
        if versions.get(name) is None:
            faults.append(f"{where}: not in the ABI baseline")
        elif versions[name] != t["since"]:
            faults.append(f"{where}: @since {t['since']}, but its symbol version is {versions[name]}")
        for rule in t["thread"]:
            if rule not in rules:
                faults.append(f"{where}: @thread {rule} is not a rule the top of habitcore.h defines")
        unknown = [c for c in t["status"] if c not in names]
        if unknown:
            faults.append(f"{where}: unknown status codes {unknown}")
            continue
        if t["status"] != sorted(set(t["status"]), key=names.index):
            faults.append(f"{where}: status codes out of order or repeated: {' '.join(t['status'])}")
        if name in bodies:
            missing = sorted(required_codes(bodies[name]) - set(t["status"]), key=names.index)
            if missing:
                faults.append(f"{where}: its export can return {' '.join(missing)}, not in @status")
    faults += check_bindings(codes)
    return faults


def check_bindings(codes: list[tuple[str, int]]) -> list[str]:
    """Each binding's error table names every HC_E_* code, with its value where the table holds one."""
    faults = []
    errors = [n for n, _ in codes if n != "HC_OK"]
    # Python's table as the package defines it (the module needs nothing but enum).
    spec = importlib.util.spec_from_file_location("habitcore_errors", ROOT / "bindings/python/src/habitcore/_errors.py")
    errors_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(errors_module)
    members = {m.name: m.value for m in errors_module.Status}
    classes = {cls.status.name for cls in errors_module.ERRORS.values()}
    rust = (ROOT / "bindings/rust/habitcore/src/lib.rs").read_text(encoding="utf-8")
    rust_kinds = set(re.findall(r"sys::(HC_E_\w+) => ErrorKind::", rust))
    swift = (ROOT / "Sources/HabitKit/HabitError.swift").read_text(encoding="utf-8")
    swift_codes = set(re.findall(r"Code\(rawValue: (HC_E_\w+)\)", swift))
    for code, value in codes:
        short = code.removeprefix("HC_E_").removeprefix("HC_")
        if members.get(short) != value:
            faults.append(f"bindings/python _errors.py: Status.{short} is not {value} ({code})")
        if code in errors and short not in classes:
            faults.append(f"bindings/python _errors.py: no error class for {code}")
        if code in errors and code not in rust_kinds:
            faults.append(f"bindings/rust habitcore: Error::kind() does not map {code}")
        if code in errors and code not in swift_codes:
            faults.append(f"HabitKit HabitError.Code: no constant for {code}")
    return faults


def main(argv: list[str]) -> int:
    include = ROOT / "include"
    if "--include" in argv:
        include = Path(argv[argv.index("--include") + 1])
    command = argv[1] if len(argv) > 1 else "check"
    if command == "json":
        found, codes, faults = tags(include)
        print(json.dumps({"status_codes": codes, "functions": found, "faults": faults}, indent=1))
        return 0
    if command == "check":
        faults = check(include)
        for fault in faults:
            print(fault, file=sys.stderr)
        return 1 if faults else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
