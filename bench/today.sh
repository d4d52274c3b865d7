#!/usr/bin/env bash
# The today snapshot beside the shield snapshot (bench/today.c), with callgrind
# instruction counts of a cold open (read-only) + write + close, per write. valgrind
# 3.19 cannot read the DWARF clang writes, so callgrind runs on a copy of the library
# without debug information.
# Usage: bench/today.sh [LIB_DIR] [ROUNDS] [YEARS]   (default: the release build, 20 rounds, 1 year)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="${1:-}"
[ -n "$lib" ] || lib="$("$root/scripts/build-release.sh")"
years="${3:-1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -I "$root/include" "$root/bench/today.c" -o "$work/today" -L "$lib" -lhabitcore -Wl,-rpath,"$lib"
"$work/today" "$work" "${2:-20}" "$years"
. "$root/bench/valgrind-copies.sh"
valgrind_copies "$lib" "$work/strip"
cc -O2 -I "$root/include" "$root/bench/today.c" -o "$work/today-cg" -L "$work/strip" -lhabitcore -Wl,-rpath,"$work/strip"
store="$work/cg.habitcore"
"$work/today-cg" make "$store" "$years"
instr() { # KIND REPS [lean]: instructions per cold write
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.out" "$work/today-cg" coldin "$store" "$1" "$2" ${3:-} >/dev/null 2>&1
    awk -v n="$2" '/^totals:/ {printf "%.0f", $2 / n; exit}' "$work/cg.out"
}
echo "  callgrind: cold open+write+close, today $(instr today 10) instructions (lean $(instr today 10 lean)); shields $(instr shields 10) (lean $(instr shields 10 lean))"
