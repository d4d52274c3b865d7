#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (swiftc -sanitize=fuzzer,address) of every
# parser of outside input: Tests/fuzz/<target>.swift, seeded from Tests/fuzz/corpus/<target>/.
#   scripts/fuzz.sh TARGET [SECONDS]      one target (default 60 s)
#   scripts/fuzz.sh all [SECONDS]         each target in turn
# Targets: json import tzif awards reply proofcheck sync syncstate. What a run finds is kept in
# .build-fuzz/corpus-TARGET (not committed); a crash is written to
# .build-fuzz/crash-TARGET-* and fails the run: make it a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(json import tzif awards reply proofcheck sync syncstate)
target="${1:?usage: scripts/fuzz.sh TARGET|all [SECONDS]}"
seconds="${2:-60}"
out=.build-fuzz
flags=(-sanitize=fuzzer,address -parse-as-library -package-name habitcore -O)
mkdir -p "$out/mods"

# The compilers' warnings are kept out of the way in a file; an error prints it and stops.
compile_failed() {
    cat "$out/build-$1.txt" >&2
    echo "fuzz: $1 does not compile (above)" >&2
    exit 1
}

# The modules once, instrumented: HabitPlatform (the C library), HabitCore on it, then
# ProofcheckCore on both.
module() {
    local name="$1" sources="$2" library="$out/lib$1.a"
    if [[ ! -f "$library" || -n "$(find "$sources" -name '*.swift' -newer "$library" | head -1)" ]]; then
        echo "building $name for fuzzing" >&2
        # shellcheck disable=SC2046
        swiftc "${flags[@]}" -module-name "$name" -whole-module-optimization -I "$out/mods" -emit-module \
            -emit-module-path "$out/mods/$name.swiftmodule" -emit-library -static -o "$library" $(find "$sources" -name '*.swift') \
            2>"$out/build-$name.txt" || compile_failed "$name"
    fi
}

run() {
    local name="$1"
    [[ -f "Tests/fuzz/$name.swift" ]] || { echo "no fuzz target '$name' (targets: ${targets[*]})" >&2; exit 2; }
    module HabitPlatform Sources/HabitPlatform
    module HabitCore Sources/HabitCore
    local libraries=(-lHabitCore -lHabitPlatform)
    if [[ "$name" == proofcheck ]]; then module ProofcheckCore Sources/ProofcheckCore; libraries=(-lProofcheckCore -lHabitCore -lHabitPlatform); fi
    swiftc "${flags[@]}" -I "$out/mods" -L "$out" "Tests/fuzz/$name.swift" "${libraries[@]}" -o "$out/$name" 2>"$out/build-$name.txt" ||
        compile_failed "$name"
    mkdir -p "$out/corpus-$name"
    echo "fuzzing $name for $seconds s" >&2
    "$out/$name" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$out/crash-$name-" "$out/corpus-$name" "Tests/fuzz/corpus/$name" 2>"$out/log-$name.txt" || {
        tail -40 "$out/log-$name.txt" >&2
        echo "fuzz $name: a crash (see $out/crash-$name-*)" >&2
        exit 1
    }
    grep -E "^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb" "$out/log-$name.txt" | sed "s/^/$name: /" >&2
}

if [[ "$target" == all ]]; then for name in "${targets[@]}"; do run "$name"; done; else run "$target"; fi
