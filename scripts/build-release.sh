#!/usr/bin/env bash
# Builds the self-contained release library: the Swift runtime linked in
# statically (no libswift*.so needed at run time), SONAME libhabitcore.so.1.
# Prints the folder holding libhabitcore.so and its libhabitcore.so.1 link, habitctl, and
# habitcore-plugin-runner (install it in the same folder as libhabitcore.so: the library
# looks for it beside itself to run shared-object plugins isolated).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${HABITCORE_RELEASE_SCRATCH:-.build-release}"
swift build -c release --product habitcore --scratch-path "$scratch" \
    -Xswiftc -static-stdlib -Xlinker -soname=libhabitcore.so.1 >&2
# habitctl as it ships: the Swift runtime and Foundation linked in too, so a cold
# start resolves no libswift* symbols (the engine is linked in as well: SwiftPM
# cannot link an in-package executable against the package's own dynamic product).
swift build -c release --product habitctl --scratch-path "$scratch" -Xswiftc -static-stdlib >&2
swift build -c release --product habitcore-plugin-runner --scratch-path "$scratch" -Xswiftc -static-stdlib >&2
out="$(cd "$scratch/release" && pwd)"
ln -sf libhabitcore.so "$out/libhabitcore.so.1"
echo "$out"
