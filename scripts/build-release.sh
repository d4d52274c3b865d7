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
# Each function in a section of its own, linked by the toolchain's lld, which places
# those scripts/hot-functions.txt lists side by side: a cold ask pages in a few
# windows of code instead of most of the library (scripts/hot-functions.sh says why).
# SwiftPM relinks when the sources change, not when that list does.
for library in "$scratch"/release/libhabitcore.so "$scratch"/release/libhabitcore_*.so; do
    if [ -e "$library" ] && [ scripts/hot-functions.txt -nt "$library" ]; then rm -f "$library"; fi
done
# Debug information names files relative to the source tree (no path of this machine is
# installed), is DWARF 4 throughout, which valgrind and older gdb read (clang's C would
# be DWARF 5), and leaves out the imported C modules' pointers to this build's module
# cache; a build id names each file's separate debug file (scripts/install.sh).
swift build -c release --scratch-path "$scratch" -Xswiftc -static-stdlib -Xlinker -rpath='$ORIGIN/../lib' \
    -Xswiftc -use-ld=lld -Xswiftc -Xfrontend -Xswiftc -function-sections \
    -Xlinker --symbol-ordering-file="$PWD/scripts/hot-functions.txt" -Xlinker --no-warn-symbol-ordering \
    -Xlinker --build-id=sha1 -Xcc -gdwarf-4 -Xcc -ffile-prefix-map="$PWD"=. \
    -Xswiftc -file-prefix-map -Xswiftc "$PWD"=. -Xswiftc -debug-prefix-map -Xswiftc "$PWD"=. \
    -Xswiftc -Xfrontend -Xswiftc -no-clang-module-breadcrumbs >&2
(cd "$scratch/release" && pwd)
