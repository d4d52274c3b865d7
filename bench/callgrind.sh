#!/usr/bin/env bash
# Reruns one case of bench/goals.c under callgrind and prints where its
# instructions go (callgrind_annotate, top functions, inclusive).
# Usage: bench/callgrind.sh CASE [REPS]      e.g. bench/callgrind.sh store-streaks-cold 1
#        bench/callgrind.sh cli              (habitctl streak on a ten-year store, whole process)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="$("$root/scripts/build-release.sh")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
. "$root/bench/valgrind-copies.sh"
valgrind_copies "$lib" "$work/strip"
cc -O2 -g -I "$root/include" "$root/bench/goals.c" -o "$work/goals" -L "$work/strip" -lhabitcore -lsqlite3 -lm -Wl,-rpath,"$work/strip"
case="${1:?case}"
reps="${2:-1}"
store="$work/store.habitcore"
case "$case" in
    store-*|today|awards|cli) "$work/goals" store-make "$store" 10 1 >/dev/null ;;
esac
if [ "$case" = cli ]; then
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/strip/habitctl" --db "$store" streak Ten >/dev/null 2>"$work/err"
else
    target="$work"
    case "$case" in store-*|today|awards) target="$store" ;; esac
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/out" "$work/goals" "$case" "$target" "$reps" >/dev/null 2>"$work/err"
fi
callgrind_annotate --inclusive=yes "$work/out" 2>/dev/null | sed -n '1,60p' | cut -c1-160
