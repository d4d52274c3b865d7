#!/usr/bin/env bash
# Builds the self-contained release: libhabitcore.so (SONAME libhabitcore.so.1) and
# the proofcheck plugin with the Swift runtime linked in statically (no libswift*.so
# needed at run time), and habitctl, which links libhabitcore.so.1 (RUNPATH $ORIGIN)
# with its own runtime and Foundation linked in, so a cold start resolves no
# libswift* symbols, and habitcore-plugin-runner (isolated plugins: install it where the
# library finds it, beside it or in habitcore/ beside it). Prints the folder holding them.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${HABITCORE_RELEASE_SCRATCH:-.build-release}"
# RUNPATH $ORIGIN (SwiftPM's, for this folder) and $ORIGIN/../lib (bin/ and lib/ once installed).
swift build -c release --scratch-path "$scratch" -Xswiftc -static-stdlib -Xlinker -rpath='$ORIGIN/../lib' >&2
(cd "$scratch/release" && pwd)
