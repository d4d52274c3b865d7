#!/usr/bin/env bash
# The sync fault harness over many seeds (CI's swift test runs 200): three devices log,
# undo and make habits, back up their store files, are restored from them and have
# files copied over one another, and exchange changesets that are lost, repeated and
# stale; after a final exchange every surviving write must be on every device once.
# Prints the harness's counts and the failing seeds.
# Usage: scripts/sync-faults.sh [SEEDS (10000)] [FIRST SEED (1)]
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-10000}
first=${2:-1}
swift build --build-tests >/dev/null
HABITCORE_FORK_SEEDS=$seeds HABITCORE_FORK_FIRST_SEED=$first \
    swift test --skip-build --filter SyncForkTests.testNoWriteIsLostOrDoubledWhenDevicesGoBackOrAreCopied 2>&1 |
    grep -E "sync fork harness|Executed [0-9]+ test" | sort -u
