#!/usr/bin/env bash
# Builds the self-contained release library: the Swift runtime linked in
# statically (no libswift*.so needed at run time), SONAME libhabitcore.so.1.
# Prints the folder holding libhabitcore.so and its libhabitcore.so.1 link.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${HABITCORE_RELEASE_SCRATCH:-.build-release}"
swift build -c release --product habitcore --scratch-path "$scratch" \
    -Xswiftc -static-stdlib -Xlinker -soname=libhabitcore.so.1 >&2
out="$(cd "$scratch/release" && pwd)"
ln -sf libhabitcore.so "$out/libhabitcore.so.1"
echo "$out"
