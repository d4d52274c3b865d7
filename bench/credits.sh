#!/usr/bin/env bash
# The timer credit settlement's cost (bench/credits.c): hc_credit_balance and one
# append (its own commit) to a rewarded habit, on a store whose rewarded duration habit
# has two years of typed amounts (a) or of stopped timers (b), and one append to a
# habit nobody rewards, for the baseline commit (before the settlement) and this tree,
# in one run; and the balance again after those appends (this tree's first write of a
# rewarded habit settles what time alone changed and moves the mark the balance reads
# timers from), and the store's first append to the rewarded habit alone (one call a
# round, where the settlement starts from no mark). Wall times: the median over ROUNDS processes, base and main alternating,
# each timing REPS calls of every case on fresh copies of its own stores (each library
# makes its stores). Instructions: callgrind, only the measured calls instrumented, on
# copies of the libraries without debug information (valgrind-copies.sh says why).
# Usage: bench/credits.sh [BASE_LIB_DIR MAIN_LIB_DIR] [ROUNDS] [REPS]   (default: builds
#        both release libraries, 7 rounds, 200 calls). Without the two folders the
#        baseline (HABITCORE_BASE, default a2e537d) is exported into .build-credits-base/src
#        and built there by its own scripts/build-release.sh (scratch
#        .build-credits-base/scratch); this tree by scripts/build-release.sh
#        (HABITCORE_RELEASE_SCRATCH, default .build-release).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -ge 2 ] && [ -d "$1" ] && [ -d "$2" ]; then
    base_lib="$(cd "$1" && pwd)"; main_lib="$(cd "$2" && pwd)"; shift 2
else
    commit="$(git -C "$root" rev-parse "${HABITCORE_BASE:-a2e537d}^{commit}")"
    dir="$root/.build-credits-base"
    if [ "$(cat "$dir/commit" 2>/dev/null)" != "$commit" ]; then
        rm -rf "$dir/src" && mkdir -p "$dir/src"
        git -C "$root" archive "$commit" | tar -x -C "$dir/src"
        echo "$commit" >"$dir/commit"
    fi
    base_name="$(git -C "$root" rev-parse --short "$commit")"
    base_lib="$(HABITCORE_RELEASE_SCRATCH="$dir/scratch" "$dir/src/scripts/build-release.sh")"
    main_lib="$("$root/scripts/build-release.sh")"
fi
rounds="${1:-7}"
reps="${2:-200}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
. "$root/bench/valgrind-copies.sh"
for v in base main; do
    lib="$base_lib"; [ "$v" = main ] && lib="$main_lib"
    cc -O2 -I "$root/include" "$root/bench/credits.c" -o "$work/credits-$v" -L "$lib" -lhabitcore -Wl,-rpath,"$lib"
    valgrind_copies "$lib" "$work/strip-$v"
    cc -O2 -I "$root/include" "$root/bench/credits.c" -o "$work/credits-cg-$v" -L "$work/strip-$v" -lhabitcore -Wl,-rpath,"$work/strip-$v"
    mkdir -p "$work/$v/pristine" "$work/$v/run"
    "$work/credits-$v" make "$work/$v/pristine"
done
fresh() { # VERSION: fresh copies of its pristine stores in $work/VERSION/run
    rm -f "$work/$1/run"/*
    cp "$work/$1/pristine"/* "$work/$1/run/"
}
for ((r = 0; r < rounds; r++)); do
    for v in base main; do
        fresh "$v"
        "$work/credits-$v" time "$work/$v/run" "$reps" >>"$work/times-$v"
    done
done
median() { # VERSION CASE
    awk -v c="$2" '$1 == c {print $2}' "$work/times-$1" | sort -g | awk '{a[NR] = $1} END {printf "%.1f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}
cg_reps="${CREDITS_CG_REPS:-20}"
instr() { # VERSION STORE CASE: instructions per call
    fresh "$1"
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.out" \
        "$work/credits-cg-$1" one "$work/$1/run/$2.habitcore" "$3" "$cg_reps" >/dev/null 2>"$work/cg.err" ||
        { cat "$work/cg.err" >&2; exit 1; }
    awk -v n="$([ "$3" = append-first ] && echo 1 || echo "$cg_reps")" '/^totals:/ {printf "%.0f", $2 / n; exit}' "$work/cg.out"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", b / a}'; }
echo "credits: base ${base_name:-$base_lib}, main: this tree, HEAD $(git -C "$root" rev-parse --short HEAD) ($main_lib)"
echo "  store a: rewarded duration habit, 730 days of typed amounts, no timers; b: the same days as 730 stopped timers"
echo "  wall: median of $rounds rounds of $reps calls (first append: 1 call) (base and main alternating); instructions: callgrind, $cg_reps calls (first append: 1)"
printf "  %-34s %10s %10s %7s %14s %14s %7s\n" case "base us" "main us" ratio "base instr" "main instr" ratio
for c in balance append-first append-rewarded append-plain balance-settled; do
    for s in a b; do
        case "$c-$s" in
            balance-a) label="hc_credit_balance, a (no timers)" ;;
            balance-b) label="hc_credit_balance, b (730 timers)" ;;
            append-first-a) label="first append rewarded habit, a" ;;
            append-first-b) label="first append rewarded habit, b" ;;
            append-rewarded-a) label="append rewarded habit, a" ;;
            append-rewarded-b) label="append rewarded habit, b" ;;
            append-plain-a) label="append unrewarded habit, a" ;;
            append-plain-b) label="append unrewarded habit, b" ;;
            balance-settled-a) label="balance after the appends, a" ;;
            balance-settled-b) label="balance after the appends, b" ;;
        esac
        tb="$(median base "$c-$s")"; tm="$(median main "$c-$s")"
        ib="$(instr base "$s" "$c")"; im="$(instr main "$s" "$c")"
        printf "  %-34s %10s %10s %7s %14s %14s %7s\n" "$label" "$tb" "$tm" "$(ratio "$tb" "$tm")" "$ib" "$im" "$(ratio "$ib" "$im")"
    done
done
