#!/usr/bin/env bash
# Builds the Python wheel that carries the library, the way pygit2 ships libgit2:
#     scripts/build-wheel.sh [OUT_DIR]      (default dist/; prints the wheel's path)
# From the release build (scripts/build-release.sh): libhabitcore.so, stripped, goes into
# the package as habitcore/libhabitcore.so.1, which the package loads before any other,
# with habitcore-plugin-runner beside it (isolated shared-object plugins). The wheel is
# tagged for this platform (py3-none-linux_x86_64 here) by the package's own build backend;
# `pip install` it and `import habitcore` needs nothing else but what the library needs
# from the system: glibc 2.34+, libsqlite3 and zlib.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/dist}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
built="$("$root/scripts/build-release.sh")"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
# A copy of the package: the source tree is left as it is.
mkdir "$stage/python"
cp -r "$root/bindings/python/pyproject.toml" "$root/bindings/python/README.md" "$root/bindings/python/backend" \
    "$root/bindings/python/src" "$stage/python/"
find "$stage/python" -name __pycache__ -prune -exec rm -rf {} +
rm -f "$stage/python/src/habitcore/libhabitcore.so"*
strip --strip-unneeded -o "$stage/python/src/habitcore/libhabitcore.so.1" "$built/libhabitcore.so"
strip --strip-unneeded -o "$stage/python/src/habitcore/habitcore-plugin-runner" "$built/habitcore-plugin-runner"
mkdir -p "$out"
wheel="$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import habitcore_build; print(habitcore_build.build_wheel(sys.argv[2]))' \
    "$stage/python/backend" "$out")"
echo "$out/$wheel"
