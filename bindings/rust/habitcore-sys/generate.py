#!/usr/bin/env python3
"""Generates src/bindings.rs from include/habitcore.h and include/habitcore_plugin.h.

    python3 generate.py            # rewrite src/bindings.rs
    python3 generate.py --check    # exit 1 if src/bindings.rs differs from what the headers give
    python3 generate.py --stdout   # print it

Only the forms the headers use are understood (they are frozen and follow docs/ABI.md):
numeric and string #defines, the anonymous enum of HC_DAY_NONE, typedef'd structs,
opaque handles, function-pointer typedefs and fields, and function prototypes. Anything
else is an error, so a header change the generator does not understand cannot slip by.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
INCLUDE = HERE.parent.parent.parent / "include"
HEADERS = ["habitcore_plugin.h", "habitcore.h"]
OUTPUT = HERE / "src" / "bindings.rs"

SCALARS = {"uint32_t": "u32", "int32_t": "i32", "int64_t": "i64", "uint8_t": "u8", "double": "f64",
           "char": "c_char", "void": "c_void", "size_t": "usize"}


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def rust_type(c: str) -> str:
    """A C type (no name) as Rust: scalars, our structs, pointers with their constness."""
    c = " ".join(c.replace("*", " * ").split())
    stars = c.count("*")
    base = c.replace("*", "").split()
    const_base = "const" in base[:1]
    base = [w for w in base if w not in ("const", "struct")]
    if len(base) != 1:
        raise SystemExit(f"generate.py: cannot read the type {c!r}")
    name = SCALARS.get(base[0], base[0])
    if stars == 0:
        return name
    # const applies to the innermost pointee (the forms used: `const T *`, `const T **`, `T **`).
    out = ("*const " if const_base else "*mut ") + name
    for _ in range(stars - 1):
        out = "*mut " + out
    return out


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


def fn_type(ret: str, params: str) -> str:
    args = ", ".join(param(p)[1] for p in split_params(params))
    result = rust_type(ret)
    return f"Option<unsafe extern \"C\" fn({args})" + ("" if result == "c_void" else f" -> {result}") + ">"


def param(text: str) -> tuple[str, str]:
    """A parameter or field declaration as (name, Rust type)."""
    text = " ".join(text.split())
    m = FNPTR.match(text)
    if m:
        return m.group("name"), fn_type(m.group("ret"), m.group("params"))
    m = re.match(r"^(?P<type>.*?)(?P<name>\w+)\s*(?:\[(?P<len>\w+)\])?$", text)
    if not m or not m.group("type").strip():
        raise SystemExit(f"generate.py: cannot read the declaration {text!r}")
    kind = rust_type(m.group("type"))
    if m.group("len"):
        length = m.group("len")
        # A named length is a constant (i32 here); an array's length is a usize.
        kind = f"[{kind}; {length if length.isdigit() else length + ' as usize'}]"
    name = m.group("name")
    return ("r#" + name if name in {"type", "ref", "fn", "mod", "in", "match", "move"} else name), kind


def translate_value(value: str) -> tuple[str, str]:
    """A #define's value as (Rust type, Rust expression)."""
    value = value.strip()
    if value.startswith('"'):
        raw = value.strip('"')
        return f"&[u8; {len(raw.encode()) + 1}]", f'b"{raw}\\0"'
    unsigned = bool(re.fullmatch(r"\(?-?(0x[0-9a-fA-F]+|\d+)u\)?", value))
    expr = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)u\b", r"\1", value)
    if not re.fullmatch(r"[\w\s\(\)\*\+\-]+", expr):
        raise SystemExit(f"generate.py: cannot read the value {value!r}")
    if expr.startswith("(") and expr.endswith(")") and expr.count("(") == 1:
        expr = expr[1:-1]
    return ("u32" if unsigned else "i32"), expr.strip()


STRUCT = re.compile(r"typedef struct (\w+)\s*\{(.*?)\}\s*(\w+)\s*;", re.S)


def generate() -> str:
    constants: list[str] = []
    types: list[str] = []
    functions: list[str] = []
    layouts: list[tuple[str, list[str]]] = []
    unsigned_names: set[str] = set()
    for header in HEADERS:
        text = strip_comments((INCLUDE / header).read_text(encoding="utf-8"))
        # Preprocessor lines: numeric and string constants. Function-like macros and the
        # struct initialisers (HC_*_INIT) are C-only and skipped; so are include guards.
        body_lines = []
        for line in re.sub(r"\\\n", " ", text).split("\n"):
            stripped = line.strip()
            if not stripped.startswith("#"):
                body_lines.append(line)
                continue
            m = re.match(r"#\s*define\s+(HC_\w+)\s+(.+)$", stripped)
            if not m or "{" in m.group(2) or "(pointer)" in m.group(2):
                continue
            kind, expr = translate_value(m.group(2))
            if kind == "i32" and any(n in unsigned_names for n in re.findall(r"HC_\w+", expr)):
                kind = "u32"
            if kind == "u32":
                unsigned_names.add(m.group(1))
            constants.append(f"pub const {m.group(1)}: {kind} = {expr};")
        code = re.sub(r'extern\s+"C"\s*\{', "", "\n".join(body_lines))

        def struct(m: re.Match[str]) -> str:
            if m.group(1) != m.group(3):
                raise SystemExit(f"generate.py: struct {m.group(1)} is typedef'd as {m.group(3)}")
            fields = [param(f) for f in m.group(2).split(";") if f.strip()]
            body = "".join(f"    pub {n}: {t},\n" for n, t in fields)
            types.append(f"#[repr(C)]\n#[derive(Debug, Copy, Clone)]\npub struct {m.group(1)} {{\n{body}}}")
            layouts.append((m.group(1), [n for n, _ in fields]))
            return ""

        code = STRUCT.sub(struct, code)
        for statement in code.split(";"):
            s = " ".join(statement.split()).strip("} ").strip()
            if not s:
                continue
            m = re.fullmatch(r"enum \{ (\w+) = ([^}]+?) ?\}?", s)
            if m:
                constants.append(f"pub const {m.group(1)}: i32 = {m.group(2)};")
                continue
            m = re.fullmatch(r"typedef struct (\w+) (\w+)", s)
            if m:
                types.append(f"/// An opaque handle.\n#[repr(C)]\npub struct {m.group(1)} {{\n    _private: [u8; 0],\n"
                             f"    _marker: core::marker::PhantomData<(*mut u8, core::marker::PhantomPinned)>,\n}}")
                continue
            m = re.fullmatch(r"typedef (.+?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)", s)
            if m:
                types.append(f"pub type {m.group(2)} = {fn_type(m.group(1), m.group(3))};")
                continue
            m = re.fullmatch(r"(.+?)\b(hc_\w+)\s*\((.*)\)", s)
            if m:
                ret = rust_type(m.group(1))
                args = ", ".join(f"{n}: {t}" for n, t in (param(p) for p in split_params(m.group(3))))
                functions.append(f"    pub fn {m.group(2)}({args})" + ("" if ret == "c_void" else f" -> {ret}") + ";")
                continue
            raise SystemExit(f"generate.py: cannot read {s[:120]!r} in {header}")
    return render(constants, types, functions, layouts)


def render(constants: list[str], types: list[str], functions: list[str], layouts: list[tuple[str, list[str]]]) -> str:
    table = []
    for name, fields in layouts:
        offsets = ", ".join(f'("{f.removeprefix("r#")}", core::mem::offset_of!({name}, {f}))' for f in fields)
        table.append(f'        ("{name}", core::mem::size_of::<{name}>(), vec![{offsets}]),')
    return "\n".join([
        "// @generated by habitcore-sys/generate.py from include/habitcore_plugin.h and include/habitcore.h.",
        "// Do not edit: run `python3 generate.py` (tests/generated.rs checks it is current).",
        "#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, clippy::all)]",
        "",
        "use core::ffi::{c_char, c_void};",
        "",
        *constants,
        "",
        *[t + "\n" for t in types],
        'extern "C" {',
        *functions,
        "}",
        "",
        "/// Every struct's C name, size and field offsets as Rust lays it out (tests/layout.rs compares a C compiler's).",
        "#[doc(hidden)]",
        "#[allow(clippy::type_complexity)]",
        "pub fn layouts() -> Vec<(&'static str, usize, Vec<(&'static str, usize)>)> {",
        "    vec![",
        *table,
        "    ]",
        "}",
        "",
    ])


def main() -> int:
    text = generate()
    if "--stdout" in sys.argv:
        sys.stdout.write(text)
        return 0
    if "--check" in sys.argv:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is not what generate.py makes of the headers: run python3 generate.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
