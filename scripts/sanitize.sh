#!/usr/bin/env bash
# Sanitizers and leaks for the C-facing surface (issue 19):
#  1. the library built with AddressSanitizer (swiftc -sanitize=address, its own scratch
#     folder), and hostile.c and the C examples built with clang -fsanitize=address
#     against it: any invalid read or write, use after free or leak fails the run;
#  2. valgrind --leak-check=full on the C examples against the usual debug library:
#     a definite leak fails the run;
#  3. rss_loop: hostile.c's matrix (it calls every export) ROUNDS times in one process,
#     the resident memory after a warm-up fifth of the rounds and at the end; more
#     than LIMIT_KB of growth fails the run.
# Usage: scripts/sanitize.sh [ROUNDS [LIMIT_KB]]   (needs `swift build` done first)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-200}"
limit="${2:-2048}"
root="$PWD"
debug="$root/.build/debug"
scratch="${HABITCORE_ASAN_SCRATCH:-$root/.build-asan}"
clang="$(dirname "$(readlink -f "$(command -v swift)")")/clang"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Shared objects run isolated in the runner of the usual build (the ASan build makes the library only).
export HABITCORE_PLUGIN_RUNNER="$debug/habitcore-plugin-runner" SWIFT_BACKTRACE=enable=no

echo "== AddressSanitizer" >&2
swift build --scratch-path "$scratch" --product habitcore -Xswiftc -sanitize=address >&2
asan="$scratch/debug"
# The library's SONAME is libhabitcore.so.1; building the library alone makes no link by that name.
ln -sf libhabitcore.so "$asan/libhabitcore.so.1"
build() { "$clang" -fsanitize=address -g -O1 -I include -I Tests/c "$@" -L "$asan" -lhabitcore -Wl,-rpath,"$asan" -lpthread -ldl -lm; }
build Tests/c/hostile.c -o "$work/hostile"
build Tests/c/buffers.c -o "$work/buffers"
build Tests/c/crashloop.c -o "$work/crashloop" -lsqlite3
build examples/c/basic.c -o "$work/basic"
build examples/c/dlopen.c -o "$work/dlopen"
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0
mkdir "$work/h" "$work/b"
"$work/hostile" "$work/h" >/dev/null
"$work/buffers" "$work/b" >/dev/null
"$work/basic" "$work/basic.db" >/dev/null
"$work/dlopen" "$asan/libhabitcore.so" "$work/dlopen.db" >/dev/null
# Mixed writers killed mid-write, then the checker (which must find nothing lost).
"$work/crashloop" setup "$work/crash.db"
for seed in 1 2 3; do timeout -s KILL 2 "$work/crashloop" write "$work/crash.db" "$seed" >> "$work/acks.txt" || true; done
"$work/crashloop" verify "$work/crash.db" "$work/acks.txt" >/dev/null
unset ASAN_OPTIONS
echo "hostile.c, buffers.c, crashloop.c, basic.c, dlopen.c: clean under AddressSanitizer and LeakSanitizer" >&2

echo "== valgrind" >&2
# valgrind 3.19 cannot read the DWARF 5 of the debug library (clang's, for its C parts):
# it checks a copy without debug information, the same code.
plain="$work/plain"
mkdir "$plain"
strip --strip-debug -o "$plain/libhabitcore.so" "$debug/libhabitcore.so"
ln -sf libhabitcore.so "$plain/libhabitcore.so.1"
cc -O1 -g -I include examples/c/basic.c -o "$work/basic-plain" -L "$plain" -lhabitcore -Wl,-rpath,"$plain"
cc -O1 -g -I include examples/c/dlopen.c -o "$work/dlopen-plain" -ldl
for run in "$work/basic-plain $work/vg-basic.db" "$work/dlopen-plain $plain/libhabitcore.so $work/vg-dlopen.db"; do
    # shellcheck disable=SC2086
    valgrind --quiet --suppressions=scripts/valgrind.supp --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --error-exitcode=99 $run >/dev/null
done
echo "basic.c, dlopen.c: no definite leak under valgrind" >&2

echo "== resident memory over $rounds rounds of every export" >&2
cc -O1 -I include -I Tests/c Tests/c/rss_loop.c -o "$work/rss_loop" -L "$debug" -lhabitcore -Wl,-rpath,"$debug" -lpthread -ldl -lm
mkdir "$work/r"
"$work/rss_loop" "$work/r" "$rounds" "$limit"
echo "sanitize: all passed" >&2
