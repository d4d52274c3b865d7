#!/usr/bin/env bash
# The goal table (the write path, pure loops, cold reads) and the growth curves: each case timed natively and
# counted under callgrind (instructions of the measured part only), ratios from
# the same run. bench/callgrind.sh CASE shows where one case's instructions go.
# Usage: bench/goals.sh LIB_DIR WORK_DIR   (bench/run.sh calls it; GOALS_ONLY=1: the goal
# table alone; PURE_ONLY=1: its pure-loop rows alone)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="$1" work="$2"
habitctl="${HABITCTL:-$lib/habitctl}"
cc -O2 -I "$root/include" "$root/bench/goals.c" -o "$work/goals" -L "$lib" -lhabitcore -lsqlite3 -lm -Wl,-rpath,"$lib"
. "$root/bench/valgrind-copies.sh"
valgrind_copies "$lib" "$work/strip"
cc -O2 -I "$root/include" "$root/bench/goals.c" -o "$work/goals-cg" -L "$work/strip" -lhabitcore -lsqlite3 -lm -Wl,-rpath,"$work/strip"

# seconds per rep of a case run natively
secs() { "$work/goals" "$1" "$2" "$3" | awk '{printf "%.9f", $3 / $2}'; }
# instructions per rep of the measured part under callgrind
instr() {
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/cg.out" "$work/goals-cg" "$1" "$2" "$3" >/dev/null 2>&1
    awk -v n="$3" '/^totals:/ {printf "%.0f", $2 / n; exit}' "$work/cg.out"
}
# instructions of a whole process
instr_all() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" >/dev/null 2>&1
    awk '/^totals:/ {print $2; exit}' "$work/cg.out"
}
# median wall seconds of 10 runs of a command
median10() {
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( e - s ))
    done | sort -n | awk '{a[NR]=$1} END {printf "%.6f", (a[5] + a[6]) / 2 / 1e9}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }
ms() { awk -v s="$1" 'BEGIN {printf "%.3f ms", s * 1000}'; }
mi() { awk -v i="$1" 'BEGIN {printf "%.2f M", i / 1e6}'; }

echo "goals (habitcore $(cd "$root" && git describe --always --dirty 2>/dev/null || echo '?'), one run; instructions = callgrind Ir)"
printf "%-44s %-26s %-26s %-10s %s\n" "what" "time" "instructions" "goal" "met"
row() { printf "%-44s %-26s %-26s %-10s %s\n" "$@"; }

# 1, 2: appends against raw sqlite3 inserts of the same rows (ratio: raw / habitcore, higher is better)
# (PURE_ONLY=1: rows 3-4 alone, the pure loops, which need no store.)
for mode in $([ -n "${PURE_ONLY:-}" ] || echo batch commit); do
    n=$([ $mode = batch ] && echo 20000 || echo 2000); cn=$([ $mode = batch ] && echo 2000 || echo 300)
    t_raw=$(secs append-raw-$mode "$work" $n); t_hc=$(secs append-hc-$mode "$work" $n)
    i_raw=$(instr append-raw-$mode "$work" $cn); i_hc=$(instr append-hc-$mode "$work" $cn)
    tr=$(ratio "$t_raw" "$t_hc"); ir=$(ratio "$i_raw" "$i_hc")
    goal=$([ $mode = batch ] && echo 0.5 || echo 0.8)
    met=$(awk -v r="${ir%x}" -v g=$goal 'BEGIN {print (r >= g) ? "yes (instructions)" : "no: " sprintf("%.0f", (g - r) / g * 100) "% short"}')
    label=$([ $mode = batch ] && echo "batched append vs raw sqlite3" || echo "one commit per append vs raw sqlite3")
    row "$label" "$tr ($(awk -v t=$t_hc 'BEGIN{printf "%.2f", t*1e6}') us/row)" "$ir ($i_hc/row, raw $i_raw)" ">= ${goal}x" "$met"
done

# Bulk hc_sync_apply of a changeset of 20,000 entries into an empty store, per record, against
# raw sqlite3's batched insert of the same rows (the append-raw-batch case of the same run).
if [ -z "${PURE_ONLY:-}" ]; then
    t_raw=$(secs append-raw-batch "$work" 20000); t_hc=$(secs apply-hc "$work" 20000)
    i_raw=$(instr append-raw-batch "$work" 2000); i_hc=$(instr apply-hc "$work" 2000)
    ir=$(ratio "$i_raw" "$i_hc")
    rate=$(awk -v t="$t_hc" 'BEGIN {printf "%.0f", 1 / t}')
    met=$(awk -v r="${ir%x}" -v n="$rate" 'BEGIN {print (r >= 0.4 && n >= 300000) ? "yes" : "no: " (r < 0.4 ? sprintf("%.0f%% short", (0.4 - r) / 0.4 * 100) : "rate short")}')
    row "bulk sync apply vs raw batched insert" "$(ratio "$t_raw" "$t_hc") ($rate records/s)" "$ir ($i_hc/record, raw $i_raw)" ">= 0.4x, 300k/s" "$met"
fi

# The write path's shapes in raw SQLite (bench/goals.c shape_append): what each promise costs an
# append before the engine's own work, against the raw insert of the same run. Not goals: the
# price list the PROFILES below read from.
if [ -z "${PURE_ONLY:-}" ]; then
    echo
    printf "%-76s %-16s %-16s\n" "shape in raw sqlite3 (per append)" "batched" "one commit each"
    for shape in ":the raw insert (one habit_day index)" "-:the store's entries (entries_fold, entries_undoes)" \
        "-osck:today: + op row in sync_ops, change_log trigger, clock per op, savepoint" \
        "-osCK:today's rows, change_log by statement, clock once a transaction" \
        "-rCK:one row: op columns on the entry + unique (rep, seq), change_log, clock" \
        "-rK:one row without the change_log row" "-r:one row without change_log or clock"; do
        flags="${shape%%:*}" label="${shape#*:}"
        cells=()
        for mode in batch commit; do
            n=$([ $mode = batch ] && echo 2000 || echo 300)
            c=$([ -z "$flags" ] && echo append-raw-$mode || echo shape-$mode$flags)
            i=$(instr "$c" "$work" $n); [ -z "$flags" ] && eval "raw_$mode=$i"
            cells+=("$i ($(ratio "$(eval echo \$raw_$mode)" "$i"))")
        done
        printf "%-76s %-16s %-16s\n" "$label" "${cells[0]}" "${cells[1]}"
    done
    echo
fi

# 3, 4: pure loops against C with the same contract (ratio: habitcore / C, lower is better)
for what in streaks strength; do
    t_c=$(secs $what-c "$work" 2000); t_hc=$(secs $what-hc "$work" 2000)
    i_c=$(instr $what-c "$work" 20); i_hc=$(instr $what-hc "$work" 20)
    ir=$(ratio "$i_hc" "$i_c")
    # Judged on the counts, not the rounded ratio (1.302 prints as 1.30x).
    met=$(awk -v a="$i_hc" -v b="$i_c" 'BEGIN {r = a / b; print (r <= 1.3) ? "yes" : "no: " sprintf("%.3fx", r / 1.3) " over"}')
    row "pure $what vs C, same contract, 10 years" "$(ratio "$t_hc" "$t_c") ($(awk -v t=$t_hc 'BEGIN{printf "%.1f", t*1e6}') us)" \
        "$ir ($i_hc vs $i_c)" "<= 1.3x" "$met"
done

[ -n "${PURE_ONLY:-}" ] && exit 0

# 5: store-backed streaks, one daily habit, ten years
store="$work/ten.habitcore"
"$work/goals" store-make "$store" 10 1 >/dev/null
# (store-make ends with the app's first look, which saves each habit's fold: a cold handle
# starts from it.) Cold: at most 1.5 M instructions as well.
for what in store-streaks-cold store-streaks-warm store-streaks-append; do
    t=$(secs $what "$store" 20); i=$(instr $what "$store" 3)
    cap=$([ $what = store-streaks-cold ] && echo 1500000 || echo 1e18)
    met=$(awk -v t="$t" -v i="$i" -v cap="$cap" 'BEGIN {print (t < 0.0005 && i <= cap) ? "yes" : "no: " (t >= 0.0005 ? sprintf("%.2f ms", (t - 0.0005) * 1000) " over" : "instructions over")}')
    goal=$([ $what = store-streaks-cold ] && echo "< 0.5 ms, 1.5 M" || echo "< 0.5 ms")
    row "store-backed streaks 10y, ${what#store-streaks-}" "$(ms "$t")" "$(mi "$i")" "$goal" "$met"
done

# 6: a cold habitctl streak on that store, the whole process, against sqlite3 counting the same entries
t_cli=$(median10 "$habitctl" --db "$store" streak Ten)
t_sql=$(median10 sqlite3 "$store" "SELECT count(*) FROM entries WHERE habit_id = 1")
i_cli=$(instr_all "$work/strip/habitctl" --db "$store" streak Ten)
i_sql=$(instr_all sqlite3 "$store" "SELECT count(*) FROM entries WHERE habit_id = 1")
r=$(ratio "$t_cli" "$t_sql")
met=$(awk -v t="$t_cli" -v r="${r%x}" 'BEGIN {print (t < 0.008 && r <= 2.5) ? "yes" : (t < 0.008 ? "time yes, ratio no" : "no")}')
row "cold habitctl streak (median of 10)" "$(ms "$t_cli"), $r sqlite3" "$(mi "$i_cli") ($(ratio "$i_cli" "$i_sql") sqlite3)" "< 8 ms, <= 2.5x" "$met"

cat <<'PROFILES'

where the goals not met lose (callgrind of one case: bench/callgrind.sh CASE):
- appends, about 51 K instructions an append batched against raw sqlite3's 11 K (bench/callgrind.sh
  append-hc-batch): the entry's INSERT and its savepoint about 20 K (the savepoint alone about 7 K:
  SQLite copies each page the append touches to its statement journal; entries_fold, the covering
  index every fold reads, costs the raw table's index plus 0.6 K), the op's row in sync_ops about
  16 K, its change_log row 4.9 K (a statement since the trigger's program cost 8 K), the payload
  1.9 K, statement lookups 3 K, the engine's checks about 4 K; the clock's row is written once a
  transaction (an UPDATE an op was 5.7 K). The shapes above price the one-row ledger: its raw
  insert alone is 17.2 K batched (0.66x) without the change_log row and 20.9 K (0.54x) with it
  (and two statements an append need the savepoint again, 7 K), leaving 5.4 K or 1.7 K for the
  engine, whose share is about 6 K even without building a payload: 0.5x batched is out of reach
  while the store revision is a row an op, and about 0.48x without one. One commit per append
  cannot reach 0.8x in any shape that keeps an op's (rep, seq) findable: the commit writes the
  WAL frame of every page it touched (sqlite3WalFrames, about 6 K a page: the entry's table
  and entries_fold, the op's index, change_log, the clock's row) where raw sqlite3 writes two;
  the one-row shape with neither change_log nor clock is 0.63x before the engine's work, with
  both 0.43x. Ours (113 K) adds per transaction the habit's global id (9 K), PRAGMA
  data_version and the caches' check (10 K), the habit and the day clock (9 K).
- bulk apply, about 71 K instructions a record: taking the op (insertReceived 30 K, of which its
  prefix share, a SHA-256 of the op, 12 K, and its digest lookups), writing the entry
  (materialize 25 K) and the lookups of what it names (12 K). The same one-row change would halve it.
- store-backed streaks, cold: a fresh handle decodes the habit's saved fold (about 0.35 M with the
  read of the row and the check for entries added since) instead of reading 3,650 rows from the
  entries_fold index (7.6 M) and folding them (4.7 M).
- cold habitctl streak, about 20 M instructions: the dynamic loader 4.6 M (2.8 M of it looking up
  symbols for habitctl, the library and the C++ runtime the Swift runtime links; 1.6 M applying
  90,000 relative relocations), the streak call 9.8 M (the cold streak above, and SQLite parsing
  the store's schema, 2.3 M), opening and closing the store 1.5 M.
PROFILES
[ -n "${GOALS_ONLY:-}" ] && exit 0
echo
echo "growth (store-backed, fresh handle each call: the history is read; warm = second call on a handle)"
printf "%-40s %14s %14s %14s\n" "case" "time/call" "instructions" "per unit"
for years in 1 10 50; do
    s="$work/y$years.habitcore"; "$work/goals" store-make "$s" $years 1 >/dev/null
    for what in cold warm; do
        t=$(secs store-streaks-$what "$s" 10); i=$(instr store-streaks-$what "$s" 2)
        printf "%-40s %14s %14s %14s\n" "streaks, $years years, $what" "$(ms "$t")" "$(mi "$i")" "$(awk -v i=$i -v y=$years 'BEGIN{printf "%.0f/day", i/(y*365.25)}')"
    done
    rm -f "$s"*
done
for habits in 10 100 1000; do
    s="$work/h$habits.habitcore"; "$work/goals" store-make "$s" 1 $habits >/dev/null
    t=$(secs today "$s" 5); i=$(instr today "$s" 1)
    printf "%-40s %14s %14s %14s\n" "today (due list), $habits habits x 1 year" "$(ms "$t")" "$(mi "$i")" "$(awk -v i=$i -v h=$habits 'BEGIN{printf "%.0f/habit", i/h}')"
    rm -f "$s"*
done
s="$work/awards.habitcore"; "$work/goals" store-make "$s" 5 20 >/dev/null
t=$(secs awards "$s" 3); i=$(instr awards "$s" 1)
printf "%-40s %14s %14s %14s\n" "awards evaluate, 20 habits x 5 years" "$(ms "$t")" "$(mi "$i")" "$(awk -v i=$i 'BEGIN{printf "%.0f/day", i/(20*5*365.25)}')"
rm -f "$s"*
# Export and import of 100k and 1M entries: streamed through files (export --output, import
# FILE: hc_store_export_file / hc_store_import_file) and, for comparison, whole in memory
# (stdout / stdin: hc_store_export / hc_store_import). Wall time and peak RSS (/usr/bin/time).
declare -A t_of m_of n_of
transfer() { # label size command...
    local label="$1" size="$2"; shift 2
    /usr/bin/time -f "%e %M" -o "$work/time" "$@"
    local t m; read -r t m <"$work/time"
    t_of["$label $size"]=$t m_of["$label $size"]=$m
    printf "%-40s %14s %14s %14s\n" "$label, $n entries" "${t} s" "peak $((m / 1024)) MB" "$(awk -v t=$t -v n=$n 'BEGIN{printf "%.2f us/entry", t*1e6/n}')"
}
for size in 100k 1M; do
    years=$([ $size = 1M ] && echo 30 || echo 3)
    s="$work/big.habitcore"; "$work/goals" store-make "$s" $years 100 >/dev/null
    n=$(sqlite3 "$s" "SELECT count(*) FROM entries"); n_of[$size]=$n
    transfer "export jsonl --output (streamed)" $size "$habitctl" --db "$s" export --format jsonl --output "$work/export.jsonl"
    transfer "export jsonl >stdout (in memory)" $size sh -c '"$0" --db "$1" export --format jsonl >"$2"' "$habitctl" "$s" "$work/stdout.jsonl"
    cmp -s "$work/export.jsonl" "$work/stdout.jsonl" || echo "!! the streamed export differs from stdout's"
    rm -f "$work/in.habitcore"*
    transfer "import jsonl FILE (line by line)" $size "$habitctl" --db "$work/in.habitcore" import "$work/export.jsonl" --format jsonl
    rm -f "$work/in.habitcore"*
    transfer "import jsonl <stdin (in memory)" $size sh -c '"$0" --db "$1" import - --format jsonl <"$2" >/dev/null' "$habitctl" "$work/in.habitcore" "$work/export.jsonl"
    rm -f "$s"* "$work/in.habitcore"* "$work/export.jsonl" "$work/stdout.jsonl"
done
# Linear when the time per entry holds from 100k to 1M (within 1.5x on this noisy machine);
# flat when the peak at 1M is within 1.5x of the peak at 100k.
for label in "export jsonl --output (streamed)" "export jsonl >stdout (in memory)" "import jsonl FILE (line by line)" "import jsonl <stdin (in memory)"; do
    awk -v l="$label" -v t1="${t_of[$label 100k]}" -v t2="${t_of[$label 1M]}" -v m1="${m_of[$label 100k]}" -v m2="${m_of[$label 1M]}" \
        -v n1="${n_of[100k]}" -v n2="${n_of[1M]}" 'BEGIN {
        r = (t2 / n2) / (t1 / n1); g = m2 / m1
        printf "%-34s time/entry 1M vs 100k %.2fx: %s; peak %d -> %d MB (%.1fx): %s\n", l, r, (r < 1.5 ? "linear" : "not linear"),
            m1 / 1024, m2 / 1024, g, (g < 1.5 ? "flat" : "grows with the entries")
    }'
done
cat <<'NOTES'

reading the curves: streaks are linear in days (instructions per day stay flat; a cold call decodes the
habit's saved fold, store-make having looked once, where a first look reads its entries from the
entries_fold index, ~2,600 instructions a day, most of it SQLite stepping rows; a warm call folds
nothing, ~110 a day for the judging loop). today is linear in habits x history: the due
list builds each habit's whole history to judge one day (about 1 M instructions a habit-year). awards walk
every habit's days. Export and import are linear in entries. Export through a file (--output) writes
record by record from one snapshot: memory flat (~18 MB at 100k and at 1M; one 64 KiB piece and one
entry at a time), where stdout's in-memory text grows (~0.45 KB an entry). Import of a file reads a line
at a time and writes each record as read inside the one transaction (all or nothing), checked against
what the transaction wrote before it (the document's entry ids mapped to the written ones in a temporary
table that spills to a temporary file; names, keys and undo targets read from the store): memory flat
(~22 MB at 100k and at 1M), where stdin's in-memory import grows with the text it holds. Its speed is far
from issue 42's 200,000 entries/s (~35,000 here before the clock was written once a transaction and
the change log by a statement; callgrind of habitctl import of 9,632 entries, release: ~91 K instructions
an entry in the import's loop, ~103 K before): writing the entry ~46 K (its INSERT inside the savepoint
each record takes ~20 K, logging its op ~26 K: the op's row, its change_log row, the payload), ~26 K
parsing the JSON line, the rest the id map and reading the fields. Both draw a progress line when
stderr is a terminal.
NOTES
