#!/usr/bin/env python3
"""The ABI guard: describes the C ABI that include/ declares and the built library
exports, and checks a description against a committed baseline.

    abi-guard.py describe INCLUDE_DIR LIBRARY            prints the description
    abi-guard.py check BASELINE INCLUDE_DIR LIBRARY      exit 1 on any removal or change
    abi-guard.py update BASELINE INCLUDE_DIR LIBRARY     check, then append what is new

The description has one line per fact, sorted:
    symbol NAME VERSION_NODE                  every exported function and its symbol version, from the ELF table
    function NAME: RETURN (PARAMETERS)        every prototype, as the header writes it
    callback NAME: RETURN (PARAMETERS)        every function-pointer typedef
    constant NAME = VALUE                     every object-like HC_ macro and enum constant, as the compiler evaluates it
    struct NAME size N [versioned]            sizeof; "versioned" when it starts with struct_size
    field NAME.FIELD offset N size N: TYPE    every field, as the compiler lays it out
Sizes and offsets come from a C program compiled against the header with cc, so
they are the compiler's, not a guess. A baseline line may only be kept: a line
missing from the new description, or keyed the same and different, is a break;
the exceptions are the size of a versioned struct, which may grow (fields are
only ever appended to such structs, and each field keeps its line), and the
release's own numbers (HC_VERSION_MINOR, _PATCH, _NUMBER, _STRING), which `update`
rewrites. New lines are additions and pass; `update` appends them. A symbol keeps its
version node for good (a move is a change, and so a break), and a new symbol must be
bound to the node of the release the header states, HC_<MAJOR>.<MINOR>.
"""
import os
import re
import subprocess
import sys
import tempfile

# The header/library pair under guard: libhabitcore.so's headers by default; the hub
# library's with ABI_GUARD_HEADERS=habitcore_hub.h (Tests/abi/habitcore_hub.abi).
HEADERS = tuple(h for h in os.environ.get("ABI_GUARD_HEADERS", "habitcore.h,habitcore_plugin.h").split(",") if h)
# A release's own numbers: they change with every release and are no contract (the
# major version and HC_ABI_VERSION are).
RELEASE = tuple(f"constant HC_VERSION_{part}" for part in ("MINOR", "PATCH", "NUMBER", "STRING"))


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def squash(text):
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s*(\*+)\s*", r" \1", text)  # "char * x" and "char *x" read the same
    text = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", text))
    return re.sub(r"\s*,\s*", ", ", text)


def parse(include_dir):
    """(functions, callbacks, constants, structs) declared by the headers."""
    functions, callbacks, constants, structs = {}, {}, [], {}
    for header in HEADERS:
        raw = open(os.path.join(include_dir, header), encoding="utf-8").read()
        joined = raw.replace("\\\n", " ")
        for match in re.finditer(r"^\s*#\s*define\s+(HC_[A-Z0-9_]+)(\(?)", joined, flags=re.M):
            name, function_like = match.group(1), match.group(2)
            if not function_like and not name.endswith("_INIT"):
                constants.append(name)
        for match in re.finditer(r"\benum\s*\{([^}]*)\}", strip_comments(raw)):
            constants += re.findall(r"\b(HC_[A-Z0-9_]+)\s*=", match.group(1))
        text = strip_comments(raw)
        text = re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", " ", text, flags=re.M)
        for match in re.finditer(r"typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;", text, flags=re.S):
            fields = []
            for declaration in match.group(2).split(";"):
                declaration = squash(declaration)
                if not declaration:
                    continue
                pointer = re.match(r"^(.*?)\(\s*\*\s*(\w+)\s*\)\s*(\(.*\))$", declaration)
                if pointer:
                    fields.append((pointer.group(2), squash(pointer.group(1) + "(*)" + pointer.group(3))))
                    continue
                named = re.match(r"^(.*?)(\w+)\s*(\[\s*\w+\s*\])?$", declaration)
                if not named:
                    raise SystemExit(f"abi-guard: cannot read the field '{declaration}' of {match.group(3)}")
                fields.append((named.group(2), squash(named.group(1) + (named.group(3) or ""))))
            structs[match.group(3)] = fields
        text = re.sub(r"typedef\s+struct\s+\w+\s*\{.*?\}\s*\w+\s*;", " ", text, flags=re.S)
        for match in re.finditer(r"typedef\s+([^;]*?)\(\s*\*\s*(hc_\w+)\s*\)\s*\(([^;]*?)\)\s*;", text, flags=re.S):
            callbacks[match.group(2)] = f"{squash(match.group(1))} ({squash(match.group(3))})"
        text = re.sub(r"typedef[^;]*;", " ", text, flags=re.S)
        for match in re.finditer(r"([A-Za-z_][\w\s\*]*?)\b(hc_\w+)\s*\(([^;]*?)\)\s*;", text, flags=re.S):
            functions[match.group(2)] = f"{squash(match.group(1))} ({squash(match.group(3))})"
    return functions, callbacks, constants, structs


def measure(include_dir, constants, structs):
    """The compiler's values of the constants and layouts of the structs."""
    lines = ['#include <stddef.h>', '#include <stdio.h>'] + [f'#include "{header}"' for header in HEADERS] + ["int main(void) {"]
    for name in constants:
        lines.append(f'    printf(_Generic(({name}), char *: "constant {name} = \\"%s\\"\\n", const char *: "constant {name} = \\"%s\\"\\n", '
                     f'double: "constant {name} = %.17g\\n", default: "constant {name} = %lld\\n"), '
                     f'_Generic(({name}), char *: {name}, const char *: {name}, double: {name}, default: (long long)({name})));')
    for struct, fields in structs.items():
        versioned = " versioned" if fields and fields[0][0] == "struct_size" else ""
        lines.append(f'    printf("struct {struct} size %zu{versioned}\\n", sizeof({struct}));')
        for field, kind in fields:
            lines.append(f'    printf("field {struct}.{field} offset %zu size %zu: {kind}\\n", '
                         f'offsetof({struct}, {field}), sizeof((({struct} *)0)->{field}));')
    lines += ["    return 0;", "}"]
    with tempfile.TemporaryDirectory() as scratch:
        source, program = os.path.join(scratch, "measure.c"), os.path.join(scratch, "measure")
        open(source, "w").write("\n".join(lines) + "\n")
        subprocess.run(["cc", "-std=c11", "-w", "-I", include_dir, source, "-o", program], check=True)
        return subprocess.run([program], check=True, capture_output=True, text=True).stdout.splitlines()


def exported(library):
    """Each exported function and the version node it is bound to."""
    table = subprocess.run(["readelf", "--dyn-syms", "-W", library], check=True, capture_output=True, text=True).stdout
    out = []
    for line in table.splitlines():
        parts = line.split()
        if len(parts) >= 8 and parts[3] in ("FUNC", "OBJECT") and parts[4] == "GLOBAL" and parts[6] != "UND":
            name, _, node = parts[7].partition("@@")
            if name.startswith("hc_"):
                out.append(f"symbol {name} {node or '(none)'}")
    return out


def describe(include_dir, library):
    functions, callbacks, constants, structs = parse(include_dir)
    lines = [f"function {name}: {signature}" for name, signature in functions.items()]
    lines += [f"callback {name}: {signature}" for name, signature in callbacks.items()]
    lines += measure(include_dir, constants, structs) + exported(library)
    return sorted(set(lines))


def key(line):
    """What a line is about: two lines with one key describe the same thing."""
    if line.startswith(("function", "callback")):
        return line.split(":", 1)[0]
    if line.startswith("constant"):
        return line.split(" = ", 1)[0]
    return " ".join(line.split()[:2])  # struct NAME, field NAME.FIELD, symbol NAME


def breaks(baseline, current):
    """Each baseline fact the current ABI removes or changes, in words."""
    now = {key(line): line for line in current}
    found = []
    for line in baseline:
        new = now.get(key(line))
        if new == line or (new is not None and key(line) in RELEASE):
            continue
        if new is None:
            found.append(f"removed: {line}")
        elif line.startswith("struct") and line.endswith("versioned") and new.endswith("versioned") \
                and int(new.split()[3]) >= int(line.split()[3]):
            continue  # a versioned struct grew at its end; its fields are checked one by one
        else:
            found.append(f"changed: {line}\n     now: {new}")
    return found


def misplaced(added, current):
    """Each new symbol that is not bound to the node of the header's release, in words."""
    numbers = dict(line[len("constant "):].split(" = ", 1) for line in current if line.startswith("constant HC_VERSION_M"))
    node = f"HC_{numbers.get('HC_VERSION_MAJOR', '?')}.{numbers.get('HC_VERSION_MINOR', '?')}"
    return [f"misplaced: {line} (a symbol new in this release is bound to {node})"
            for line in added if line.startswith("symbol ") and line.split()[2] != node]


def main(argv):
    if len(argv) == 4 and argv[1] == "describe":
        print("\n".join(describe(argv[2], argv[3])))
        return 0
    if len(argv) == 5 and argv[1] in ("check", "update"):
        baseline = [line for line in open(argv[2], encoding="utf-8").read().splitlines() if line and not line.startswith("#")]
        current = describe(argv[3], argv[4])
        known = {key(line) for line in baseline}
        added = [line for line in current if key(line) not in known]
        found = breaks(baseline, current) + misplaced(added, current)
        for item in found:
            print(f"abi-guard: {item}")
        if found:
            print(f"abi-guard: {len(found)} break(s) against {argv[2]}")
            return 1
        if argv[1] == "update":
            now = {key(line): line for line in current}
            text = open(argv[2], encoding="utf-8").read().splitlines()
            kept = [now[key(line)] if key(line) in RELEASE else line for line in text]
            with open(argv[2], "w", encoding="utf-8") as out:
                out.write("\n".join(kept + added) + "\n")
        print(f"abi-guard: no breaks; {len(added)} addition(s){' appended' if argv[1] == 'update' and added else ''}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
