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
. "$root/bench/valgrind-copies.sh"
valgrind_copies "$lib" "$work/strip"
cc -O2 -I "$root/include" "$root/bench/shields.c" -o "$work/shields-cg" -L "$work/strip" -lhabitcore -Wl,-rpath,"$work/strip"
store="$work/cg.habitcore"
"$work/shields-cg" make "$store"
instr() { # MODE REPS [lean]: instructions per rep of the instrumented part
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.out" "$work/shields-cg" "$1" "$store" "$2" ${3:-} >/dev/null 2>&1
    awk -v n="$2" '/^totals:/ {printf "%.0f", $2 / n; exit}' "$work/cg.out"
}
# The writer's instructions alone and beside a reader and a granter (those two run
# natively, as their own process group): extra work the others cause it, apart from
# the CPU time they take from it on a shared machine.
# Each from the same copy of the store (a writer's transaction costs more as the ledger grows).
cp "$store" "$work/pristine.habitcore"
store="$work/pristine.habitcore"
instr_on() { # COPY MODE REPS
    cp "$work/pristine.habitcore" "$1"
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.out" "$work/shields-cg" "$2" "$1" "$3" >/dev/null 2>&1
    awk -v n="$3" '/^totals:/ {printf "%.0f", $2 / n; exit}' "$work/cg.out"
}
w_alone=$(instr_on "$work/alone.habitcore" writer 100)
cp "$work/pristine.habitcore" "$work/beside.habitcore"
setsid "$work/shields-cg" beside "$work/beside.habitcore" & beside=$!
sleep 0.2
w_beside=$(valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.out" "$work/shields-cg" writer "$work/beside.habitcore" 100 >/dev/null 2>&1
    awk '/^totals:/ {printf "%.0f", $2 / 100; exit}' "$work/cg.out")
kill -- -"$beside" 2>/dev/null || kill "$beside"
wait "$beside" 2>/dev/null || true
echo "  callgrind: writer $w_alone instructions a transaction alone, $w_beside beside a reader and a granter: $(awk -v a="$w_alone" -v b="$w_beside" 'BEGIN {printf "%.2fx", b / a}')"
echo "  callgrind: warm hc_shield_state $(instr warm 200) instructions a call; cold open+ask+close in process $(instr coldin 20) a call, lean $(instr coldin 20 lean)"
