#!/usr/bin/env bash
# The hub's load run (issue 27): USERS users x 3 devices, each device logging a day's
# work and syncing (connect, sync, leave; then again to pull), from PROCS processes at
# once against one local PostgreSQL 15 (started here in a temporary folder, fsync on,
# stopped at the end): records/s, sync and connect p50/p99, and the check that every
# record reached every device (bench/hub.c compares the three canonical exports).
# Then the same through PgBouncer (transaction pooling, unix socket) when it is
# installed; skipped with a message when it is not.
# Usage: bench/hub.sh [USERS] [PROCS]     (defaults 1000 4)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
users="${1:-1000}"
procs="${2:-4}"
lib="${HABITCORE_LIB:-$("$root/scripts/build-release.sh")}"
bin=/usr/lib/postgresql/15/bin
work="$(mktemp -d /tmp/hchub-XXXXXX)"
pw="bench-$$"
cleanup() {
    [ -f "$work/pgbouncer.pid" ] && kill "$(cat "$work/pgbouncer.pid")" 2>/dev/null || true
    runuser -u postgres -- "$bin/pg_ctl" -D "$work/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
cc -O2 -I "$root/include" "$root/bench/hub.c" -o "$work/hub" -L "$lib" -lhabitcore -lhabitcore_hub -lm -Wl,-rpath,"$lib"
echo "$pw" >"$work/pwfile"
chown -R postgres:postgres "$work"
chmod 700 "$work"
runuser -u postgres -- "$bin/initdb" -D "$work/data" -U postgres --pwfile="$work/pwfile" -A scram-sha-256 -E UTF8 --locale=C >/dev/null
runuser -u postgres -- "$bin/pg_ctl" -D "$work/data" -l "$work/server.log" -w \
    -o "-k $work -c listen_addresses= -c max_connections=100 -c shared_buffers=256MB" start >/dev/null </dev/null
export PGPASSWORD="$pw"
# The schema and the users: the library's own init, then roles as hc_hub_user_add makes them.
cat >"$work/init.c" <<'C'
#include <habitcore_hub.h>
#include <stdio.h>
int main(int argc, char **argv) {
    hc_hub *hub = NULL;
    int32_t version = 0;
    if (argc < 2 || hc_hub_open(&hub, argv[1]) != HC_OK || hc_hub_init(&version, hub) != HC_OK) {
        fprintf(stderr, "init: %s\n", hub ? hc_hub_errmsg(hub) : hc_hub_last_error_message());
        return 1;
    }
    return hc_hub_close(hub);
}
C
cc -I "$root/include" "$work/init.c" -o "$work/init" -L "$lib" -lhabitcore_hub -lhabitcore -Wl,-rpath,"$lib"
"$work/init" "host=$work dbname=postgres user=postgres password=$pw"
# Five more users than the load run's, for the callgrind round below.
psql -X -q -h "$work" -U postgres -d postgres -c "DO \$\$ BEGIN FOR i IN 0..$((users + 4)) LOOP
    EXECUTE format('CREATE ROLE %I LOGIN CONNECTION LIMIT 16 PASSWORD %L IN ROLE habitcore_device', 'u' || i, '$pw'); END LOOP; END \$\$"

run() { # $1: label, $2: port
    local per=$(( (users + procs - 1) / procs )) start end pids=()
    local t0=$(date +%s.%N)
    for ((p = 0; p < procs; p++)); do
        start=$((p * per)); end=$(( start + per < users ? start + per : users ))
        mkdir -p "$work/$1-$p"
        "$work/hub" "$work/$1-$p" "$work" "$start" "$end" "$pw" "$2" >"$work/$1-$p.out" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    local t1=$(date +%s.%N)
    cat "$work/$1"-*.out >"$work/$1.all"
    python3 - "$work/$1.all" "$t0" "$t1" "$1" "$users" "$procs" <<'PY'
import sys
path, t0, t1, label, users, procs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
series = {"sync": [], "connect": []}
records = 0
for line in open(path):
    kind, value = line.split()
    if kind == "records": records += int(value)
    else: series[kind].append(float(value))
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]
wall = t1 - t0
print(f"{label}: {users} users x 3 devices, {procs} processes, {len(series['sync'])} sync rounds in {wall:.1f} s; "
      f"{records} records pushed, {records / wall:.0f} records/s; every record reached every device")
for kind in ("sync", "connect"):
    print(f"  {kind}: p50 {pct(series[kind], 50):.2f} ms, p99 {pct(series[kind], 99):.2f} ms, max {max(series[kind]):.2f} ms")
PY
}
run direct 5432

# The client's side in instructions (libhabitcore, libhabitcore_hub, libpq; the server's
# work is not counted), under callgrind: users [USERS, USERS+5), fresh stores each run
# (the second run's devices also pull the first run's records).
if command -v valgrind >/dev/null; then
    mkdir -p "$work/callgrind"
    . "$root/bench/valgrind-copies.sh"
    valgrind_copies "$lib" "$work/strip"
    cc -O2 -I "$root/include" "$root/bench/hub.c" -o "$work/hub-cg" -L "$work/strip" -lhabitcore -lhabitcore_hub -lm -Wl,-rpath,"$work/strip"
    # One run per call measured (--toggle-collect counts that call, inclusive), five
    # fresh users each: 30 rounds of connect, sync, leave.
    for call in hc_hub_open hc_hub_sync; do
        rm -rf "$work/callgrind" && mkdir -p "$work/callgrind"
        valgrind --tool=callgrind --toggle-collect="$call" --callgrind-out-file="$work/cg-$call.out" \
            "$work/hub-cg" "$work/callgrind" "$work" "$users" "$((users + 5))" "$pw" 5432 >/dev/null 2>"$work/callgrind.err" \
            || { echo "callgrind run failed:"; tail -5 "$work/callgrind.err"; }
        total=$(awk '/^totals:/ {print $2; exit}' "$work/cg-$call.out" 2>/dev/null)
        echo "callgrind (client side, libpq and both libraries; not the server): $call $(( ${total:-0} / 30 )) instructions per round"
    done
else
    echo "valgrind: not installed, the instruction count is skipped"
fi

if ! command -v pgbouncer >/dev/null; then
    echo "pgbouncer: not installed, the PgBouncer run is skipped (apt-get install pgbouncer to measure it)"
    exit 0
fi
# PgBouncer: transaction pooling on a unix socket. Row-level security is keyed to the
# login role, so each user gets a pool of its own: pools stay tiny so that 1,000 users
# fit under max_connections (docs/SCALE.md).
psql -X -q -t -A -h "$work" -U postgres -d postgres -c "SELECT rolname || ' ' || rolpassword FROM pg_authid WHERE rolname ~ '^u[0-9]+\$'" \
    | awk '{printf "\"%s\" \"%s\"\n", $1, $2}' >"$work/userlist.txt"
cat >"$work/pgbouncer.ini" <<INI
[databases]
postgres = host=$work port=5432 dbname=postgres
[pgbouncer]
listen_addr =
listen_port = 6432
unix_socket_dir = $work
auth_type = scram-sha-256
auth_file = $work/userlist.txt
pool_mode = transaction
default_pool_size = 3
max_db_connections = 80
max_client_conn = 2000
server_idle_timeout = 1
pidfile = $work/pgbouncer.pid
logfile = $work/pgbouncer.log
INI
chown -R postgres:postgres "$work"
runuser -u postgres -- pgbouncer -d "$work/pgbouncer.ini"
sleep 1
run pgbouncer 6432
