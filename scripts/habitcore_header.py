"""One reader of the public C headers (include/habitcore.h, habitcore_plugin.h,
habitcore_hub.h) for every script that needs their declarations: the Rust -sys
generator, the Python and HabitKit mirror generator and the tag checker.

Only the forms the headers use are understood (they follow docs/ABI.md): numeric
and string #defines, the anonymous enum of HC_DAY_NONE, typedef'd structs, opaque
handles, function-pointer typedefs and fields, and function prototypes, each
function with the comment before it and the section it sits in. Anything else is
an error, so a header change the readers do not understand cannot slip by.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "include"


class HeaderError(Exception):
    pass


@dataclass
class Declaration:
    """A parameter or struct field: its name, its C type without the name, and an
    array length (a number or a constant's name) when it is an array."""
    name: str
    ctype: str
    length: str | None = None
    callback: "Callback | None" = None  # a function-pointer field or parameter


@dataclass
class Callback:
    name: str
    returns: str
    params: list[Declaration]


@dataclass
class Constant:
    name: str
    value: str       # the C expression, as written
    unsigned: bool   # written with a u suffix, or built from such a constant
    string: bool = False
    comment: str = ""


@dataclass
class Struct:
    name: str
    fields: list[Declaration]


@dataclass
class Function:
    name: str
    returns: str
    params: list[Declaration]
    comment: str     # the comment block(s) right before the prototype: its lines, markers stripped
    section: str     # the header section it sits in
    header: str
    line: int


@dataclass
class Header:
    constants: list[Constant] = field(default_factory=list)
    structs: list[Struct] = field(default_factory=list)
    handles: list[str] = field(default_factory=list)
    callbacks: list[Callback] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    # Opaque handles and callback types as ("handle" | "callback", name), in header order.
    typedefs: list[tuple[str, str]] = field(default_factory=list)


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def split_params(text: str) -> list[str]:
    depth, current, params = 0, "", []
    for ch in text:
        if ch == "," and depth == 0:
            params.append(current.strip())
            current = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        current += ch
    if current.strip():
        params.append(current.strip())
    return [] if params == ["void"] else params


FNPTR = re.compile(r"^(?P<ret>[\w\s\*]+?)\s*\(\s*\*\s*(?P<name>\w+)\s*\)\s*\((?P<params>.*)\)$", re.S)


def declaration(text: str) -> Declaration:
    text = " ".join(text.split())
    m = FNPTR.match(text)
    if m:
        callback = Callback(m.group("name"), m.group("ret").strip(), [declaration(p) for p in split_params(m.group("params"))])
        return Declaration(m.group("name"), "", None, callback)
    m = re.match(r"^(?P<type>.*?)(?P<name>\w+)\s*(?:\[(?P<len>\w+)\])?$", text)
    if not m or not m.group("type").strip():
        raise HeaderError(f"cannot read the declaration {text!r}")
    ctype = " ".join(m.group("type").replace("*", " * ").split()).replace("* *", "**")
    return Declaration(m.group("name"), ctype, m.group("len"))


def c_type_parts(ctype: str) -> tuple[bool, str, int]:
    """(const, base type, pointer depth) of a C type written as the headers do."""
    c = " ".join(ctype.replace("*", " * ").split())
    stars = c.count("*")
    words = c.replace("*", "").split()
    const = "const" in words[:1]
    base = [w for w in words if w not in ("const", "struct")]
    if len(base) != 1:
        raise HeaderError(f"cannot read the type {ctype!r}")
    return const, base[0], stars


STRUCT = re.compile(r"typedef struct (\w+)\s*\{(.*?)\}\s*(\w+)\s*;", re.S)
SECTION = re.compile(r"/\* -{20,} \*/\n/\* (?P<title>.+?)\s*\*/\n/\* -{20,} \*/")


def sections(raw: str) -> list[tuple[int, str]]:
    """(offset, title) of each section banner."""
    return [(m.start(), m.group("title")) for m in SECTION.finditer(raw)]


def comment_before(raw: str, offset: int) -> str:
    """The comment blocks directly above offset (no blank or code line between), markers stripped."""
    lines = raw[:offset].split("\n")[:-1]
    block: list[str] = []
    while lines and lines[-1].rstrip().endswith("*/"):
        while lines:
            line = lines.pop()
            block.insert(0, line)
            if "/*" in line:
                break
    inner = re.findall(r"/\*(.*?)\*/", "\n".join(block), flags=re.S)
    lines = [line.strip().removeprefix("*").strip() for part in inner for line in part.split("\n")]
    return "\n".join(line for line in lines if line)


def parse(header: str, include: Path = INCLUDE) -> Header:
    """The declarations of include/<header> (include: another folder holding the headers)."""
    raw = (include / header).read_text(encoding="utf-8")
    out = Header()
    text = strip_comments(raw)
    # Comments of #defines: the text after the value on the same line.
    define_comments = {m.group(1): " ".join(m.group(2).split())
                       for m in re.finditer(r"#define (HC_\w+)\b[^\n]*?/\*(.*?)\*/", raw, flags=re.S)}
    body_lines = []
    for line in re.sub(r"\\\n", " ", text).split("\n"):
        stripped = line.strip()
        if not stripped.startswith("#"):
            body_lines.append(line)
            continue
        m = re.match(r"#\s*define\s+(HC_\w+)\s+(.+)$", stripped)
        # Function-like macros and the struct initialisers (HC_*_INIT) are C-only.
        if not m or "{" in m.group(2) or "(pointer)" in m.group(2):
            continue
        name, value = m.group(1), m.group(2).strip()
        if value.startswith('"'):
            out.constants.append(Constant(name, value, False, True, define_comments.get(name, "").strip()))
            continue
        if not re.fullmatch(r"[\w\s\(\)\*\+\-]+", value):
            raise HeaderError(f"cannot read the value {value!r} of {name}")
        unsigned = bool(re.fullmatch(r"\(?-?(0x[0-9a-fA-F]+|\d+)u\)?", value))
        known = {c.name for c in out.constants if c.unsigned}
        unsigned = unsigned or any(n in known for n in re.findall(r"HC_\w+", value))
        out.constants.append(Constant(name, value, unsigned, False, define_comments.get(name, "").strip()))
    code = re.sub(r'extern\s+"C"\s*\{', "", "\n".join(body_lines))

    def struct(m: re.Match[str]) -> str:
        if m.group(1) != m.group(3):
            raise HeaderError(f"struct {m.group(1)} is typedef'd as {m.group(3)}")
        out.structs.append(Struct(m.group(1), [declaration(f) for f in m.group(2).split(";") if f.strip()]))
        return "\n" * m.group(0).count("\n")

    code = STRUCT.sub(struct, code)
    banners = sections(raw)
    prototypes = {}
    for m in re.finditer(r"^[a-z][\w \*]*?\b(hc_\w+)\(", raw, flags=re.M):
        prototypes.setdefault(m.group(1), m.start())
    for statement in code.split(";"):
        s = " ".join(statement.split()).strip("} ").strip()
        if not s:
            continue
        m = re.fullmatch(r"enum \{ (\w+) = ([^}]+?) ?\}?", s)
        if m:
            out.constants.append(Constant(m.group(1), m.group(2), False))
            continue
        m = re.fullmatch(r"typedef struct (\w+) (\w+)", s)
        if m:
            out.handles.append(m.group(1))
            out.typedefs.append(("handle", m.group(1)))
            continue
        m = re.fullmatch(r"typedef (.+?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)", s)
        if m:
            out.callbacks.append(Callback(m.group(2), m.group(1).strip(), [declaration(p) for p in split_params(m.group(3))]))
            out.typedefs.append(("callback", m.group(2)))
            continue
        m = re.fullmatch(r"(.+?)\b(hc_\w+)\s*\((.*)\)", s)
        if m:
            name = m.group(2)
            offset = prototypes.get(name)
            if offset is None:
                raise HeaderError(f"{header}: the prototype of {name} does not start a line")
            section = ""
            for start, title in banners:
                if start < offset:
                    section = title
            line = raw.count("\n", 0, offset) + 1
            out.functions.append(Function(name, " ".join(m.group(1).split()), [declaration(p) for p in split_params(m.group(3))],
                                          comment_before(raw, offset), section, header, line))
            continue
        raise HeaderError(f"cannot read {s[:120]!r} in {header}")
    return out


def emit(outputs: list[tuple[Path, str]], regenerate: str, argv: list[str]) -> int:
    """What every generator's command line does with its outputs ((path, text) pairs):
    --stdout prints them, --check exits 1 naming each checked-in file that differs from
    its text (regenerate: the command that fixes it), and no option writes them."""
    if "--stdout" in argv:
        for _, text in outputs:
            print(text, end="")
        return 0
    if "--check" in argv:
        stale = [path for path, text in outputs if (path.read_text(encoding="utf-8") if path.exists() else "") != text]
        for path in stale:
            print(f"{path} is not what the generator makes of the headers: run {regenerate}", file=sys.stderr)
        return 1 if stale else 0
    for path, text in outputs:
        path.write_text(text, encoding="utf-8")
    return 0
