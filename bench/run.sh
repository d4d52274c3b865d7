#!/usr/bin/env bash
# Benchmarks the release library (scripts/build-release.sh) and prints a table.
# Usage: bench/run.sh [ROWS] [HABITS]   (defaults 100000 and 100000)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="$("$root/scripts/build-release.sh")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -I "$root/include" "$root/bench/append.c" -o "$work/append" -L "$lib" -lhabitcore -lsqlite3 -Wl,-rpath,"$lib"
cc -O2 -I "$root/include" "$root/bench/streaks.c" -o "$work/streaks" -L "$lib" -lhabitcore -lm -Wl,-rpath,"$lib"
cc -O2 -I "$root/include" "$root/bench/awards.c" -o "$work/awards" -L "$lib" -lhabitcore -Wl,-rpath,"$lib"
"$work/append" "$work" "${1:-100000}"
echo
"$work/streaks" "${2:-100000}" "$work"
echo
"$work/awards" "$work"
