#!/usr/bin/env bash
# Benchmarks the release library (scripts/build-release.sh) and prints a table.
# Usage: bench/run.sh [ROWS] [HABITS]   (defaults 100000 and 100000)
# The proofcheck part reads a 12-megapixel photo of forensics-samples-files if it is
# installed (or \$PROOFCHECK_PHOTO), else makes one.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="$("$root/scripts/build-release.sh")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -I "$root/include" "$root/bench/append.c" -o "$work/append" -L "$lib" -lhabitcore -lsqlite3 -Wl,-rpath,"$lib"
cc -O2 -I "$root/include" "$root/bench/streaks.c" -o "$work/streaks" -L "$lib" -lhabitcore -lm -Wl,-rpath,"$lib"
cc -O2 -I "$root/include" "$root/bench/awards.c" -o "$work/awards" -L "$lib" -lhabitcore -Wl,-rpath,"$lib"
cc -O2 -I "$root/include" "$root/bench/reminders.c" -o "$work/reminders" -L "$lib" -lhabitcore -Wl,-rpath,"$lib"
cc -O2 -I "$root/include" "$root/bench/shields.c" -o "$work/shields" -L "$lib" -lhabitcore -Wl,-rpath,"$lib"
cc -O2 -I "$root/include" "$root/bench/sync.c" -o "$work/sync" -L "$lib" -lhabitcore -Wl,-rpath,"$lib"
# Issue 20's goal table first: instructions (callgrind, deterministic) beside times.
HABITCTL="$lib/habitctl" bash "$root/bench/goals.sh" "$lib" "$work"
echo
"$work/append" "$work" "${1:-100000}"
echo
"$work/streaks" "${2:-100000}" "$work"
echo
"$work/awards" "$work"
echo
"$work/reminders" "$work"
echo
"$work/shields" "$work"
echo
"$work/sync" "$work"
echo
# proofcheck, built the way it ships (by build-release.sh, beside the library).
photo="${PROOFCHECK_PHOTO:-/usr/share/forensics-samples/original-files/pic2/IMG_20191224_234846.jpg}"
cc -O2 -I "$root/include" "$root/bench/proofcheck.c" -o "$work/proofcheck" -L "$lib" -lhabitcore -lsqlite3 -ljpeg -ldl \
    -Wl,-rpath,"$lib"
"$work/proofcheck" "$lib/libhabitcore_proofcheck.so" "$photo" "$work"
