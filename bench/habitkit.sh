#!/usr/bin/env bash
# HabitKit against direct C calls (bench/habitkit/main.swift), built in release the way
# the library ships (scripts/build-release.sh's flags and folder): times (best of five)
# and callgrind instruction counts of each measured loop alone (--toggle-collect).
# Usage: bench/habitkit.sh [N]     (appends: 20 N in one transaction; streaks: N calls)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${HABITCORE_RELEASE_SCRATCH:-$root/.build-release}"
n="${1:-2000}"
(cd "$root" && swift build -c release --scratch-path "$scratch" -Xswiftc -static-stdlib -Xlinker -rpath='$ORIGIN/../lib' \
    --product habitkit-bench >&2)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 gives up on the toolchain's debug info ("possibly corrupted"): a copy
# without it keeps the symbol table, which is all --toggle-collect needs.
bench="$work/habitkit-bench"
strip --strip-debug -o "$bench" "$scratch/release/habitkit-bench"
"$bench" all "$work" "$n"
count() { # MODE CALLS LOOP: instructions per call inside LOOP (inclusive; "SitF" ends the
    # loop function's mangled name, not its closures', which would toggle collection off)
    valgrind --tool=callgrind --callgrind-out-file="$work/out" --toggle-collect="*$3*SitF" "$bench" "$1" "$work" "$2" \
        >/dev/null 2>"$work/err"
    local total
    total="$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/err")"
    [ -n "$total" ] || { cat "$work/err" >&2; exit 1; }
    echo $((total / $2))
}
calls_append=$((n * 20 / 10))
calls_streaks=$((n / 10 > 0 ? n / 10 : 1))
c_append="$(count c-append "$calls_append" cAppendLoop)"
kit_append="$(count kit-append "$calls_append" kitAppendLoop)"
c_streaks="$(count c-streaks "$calls_streaks" cStreakLoop)"
kit_streaks="$(count kit-streaks "$calls_streaks" kitStreakLoop)"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
echo "instructions per append ($calls_append in one transaction): C $c_append, HabitKit $kit_append, ratio $(ratio "$kit_append" "$c_append")"
echo "instructions per store-backed streak ($calls_streaks calls): C $c_streaks, HabitKit $kit_streaks, ratio $(ratio "$kit_streaks" "$c_streaks")"
