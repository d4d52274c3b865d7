#!/usr/bin/env bash
# Writes scripts/hot-functions.txt: the library's functions that everyday work runs,
# which scripts/build-release.sh has lld place side by side (--symbol-ordering-file).
# Why: the kernel maps code in 64 KiB windows around each page a process touches, so
# a cold shield ask that ran ~900 functions scattered over 5 MiB of code paged in
# 3.6 MiB of the library; placed together they fill a few windows (bench/shields.sh
# prints the cold ask's memory). The work traced: a cold shield ask (open read-only,
# ask, close), examples/c/basic.c (an app's first run) and bench/awards.c (streaks and
# awards over years). Rerun it after renaming or adding functions on those paths;
# names it lists that no longer exist are ignored by the link.
# Usage: scripts/hot-functions.sh [LIB_DIR]   (default: the release build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="${1:-}"
[ -n "$lib" ] || lib="$("$root/scripts/build-release.sh")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
. "$root/bench/valgrind-copies.sh"
valgrind_copies "$lib" "$work"
build() { cc -O2 -I "$root/include" "$@" -L "$work" -lhabitcore -Wl,-rpath,"$work"; }
build "$root/bench/shields.c" -o "$work/shields"
build "$root/examples/c/basic.c" -o "$work/basic"
build "$root/bench/awards.c" -o "$work/awards"
"$work/shields" make "$work/shields.habitcore" >/dev/null
trace() { valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$1.out" "${@:2}" >/dev/null 2>&1; }
trace cold "$work/shields" cold "$work/shields.habitcore"
trace basic "$work/basic" "$work/basic.habitcore"
trace awards "$work/awards" "$work"
# Each trace's functions of libhabitcore.so, in the order they first appear, the cold
# ask's first.
python3 - "$work" > "$root/scripts/hot-functions.txt" <<'PY'
import re, sys
seen = []
known = set()
for trace in ("cold", "basic", "awards"):
    objects, names, current = {}, {}, ""
    for line in open(f"{sys.argv[1]}/{trace}.out", errors="replace"):
        # An object or function is named where it first appears, as caller or callee.
        match = re.match(r"(c?)ob=\((\d+)\)(?: (.*))?", line)
        if match:
            if match.group(3): objects[match.group(2)] = match.group(3).strip()
            if match.group(1) == "": current = objects.get(match.group(2), "")
            continue
        match = re.match(r"(c?)fn=\((\d+)\)(?: (.*))?", line)
        if not match: continue
        if match.group(3): names[match.group(2)] = match.group(3).strip()
        # Recursion levels are named NAME'2, NAME'3: the symbol is NAME.
        name = re.sub(r"'\d+$", "", names.get(match.group(2)) or "")
        if match.group(1) == "" and "libhabitcore" in current and name and not name.startswith("0x") and name not in known:
            known.add(name)
            seen.append(name)
print("\n".join(seen))
PY
echo "$(wc -l < "$root/scripts/hot-functions.txt") functions in scripts/hot-functions.txt" >&2
