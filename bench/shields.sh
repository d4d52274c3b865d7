#!/usr/bin/env bash
# The shields benchmark (bench/shields.c) with callgrind instruction counts of its
# measured parts beside the times, from one run: a warm hc_shield_state and an
# in-process cold open+ask+close, per call. valgrind 3.19 cannot read the DWARF
# clang writes, so callgrind runs on a copy of the library without debug information.
# Usage: bench/shields.sh [LIB_DIR] [ROUNDS]   (default: the release build, 20 rounds)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="${1:-}"
[ -n "$lib" ] || lib="$("$root/scripts/build-release.sh")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -I "$root/include" "$root/bench/shields.c" -o "$work/shields" -L "$lib" -lhabitcore -Wl,-rpath,"$lib"
"$work/shields" "$work" "${2:-20}"
mkdir "$work/strip"
cp "$lib/libhabitcore.so" "$work/strip/libhabitcore.so"
strip --strip-debug "$work/strip/libhabitcore.so"
ln -s libhabitcore.so "$work/strip/libhabitcore.so.1"
cc -O2 -I "$root/include" "$root/bench/shields.c" -o "$work/shields-cg" -L "$work/strip" -lhabitcore -Wl,-rpath,"$work/strip"
store="$work/cg.habitcore"
"$work/shields-cg" make "$store"
instr() { # MODE REPS: instructions per rep of the instrumented part
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.out" "$work/shields-cg" "$1" "$store" "$2" >/dev/null 2>&1
    awk -v n="$2" '/^totals:/ {printf "%.0f", $2 / n; exit}' "$work/cg.out"
}
echo "  callgrind: warm hc_shield_state $(instr warm 200) instructions a call; cold open+ask+close in process $(instr coldin 20) a call"
