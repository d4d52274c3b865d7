#!/usr/bin/env bash
# The formatter's check (CI): swift-format, which ships with the toolchain, over every Swift
# file of Sources/ and Tests/ with the settings in .swift-format; any finding fails.
# To format: swift format format --in-place --parallel FILE... (or --recursive Sources Tests).
# scripts/format-pending.txt lists the files left out (generated ones, whose generator
# decides their layout), one a line.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files 'Sources/*.swift' 'Tests/*.swift' | grep -vxF -f <(grep -v '^#' scripts/format-pending.txt | sed '/^$/d') || true)
swift format lint --strict --parallel "${files[@]}"
echo "swift-format: ${#files[@]} files clean"
