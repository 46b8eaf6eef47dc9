#!/bin/sh
# archive_bench.sh - a store of many runs against a store of one (README,
# "Performance", "Archives").
#
# usage: bench/archive_bench.sh [BUILD_DIR] [RUNS] [SMALL_FILES]
#        (default: build 1000 2000; the issue's case is `build 1000 10000`)
#
# 1. Generates RUNS Kineto-like traces with bench/gen_trace, of 90 to 400 KB
#    (sizes 0.05, 0.1, 0.2 and 0.4 MB in turn, seeds 1..RUNS), and ingests
#    them into one store.
# 2. For two runs (A, a 400 KB one, and B): `summary --run`, `report --run
#    --json` (--no-cache: the analysis itself) and `compare --base-run
#    --new-run` in the big store against the same run(s) in stores of their
#    own; mean wall and CPU (user + sys) of REPEAT runs (default 10), and
#    the ratio big / own of the CPU times (wall times on a shared machine
#    move more).
# 3. `report STORE -o site/` from scratch, then again after one new run was
#    ingested (the model cache: only that run is analysed), next to the
#    report of that run in a store of its own; wall, CPU and peak RSS.
# 4. Ingest of SMALL_FILES files of 90 KB (gen_trace 0.1) into a new store
#    against one file of the same total size; MB/s and the ratio.
# PR_BENCH_ONLY=ingest runs part 4 alone (RUNS is then ignored), and
# PR_BENCH_REPEAT=N repeats its two ingests N times (default 1) and prints
# each repeat's line and the medians, for iterating on the ingest.
# Needs GNU time (/usr/bin/time). Work files go to bench/out/archive/.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
runs=${2:-1000}
nsmall=${3:-2000}
rep=${REPEAT:-10}
only=${PR_BENCH_ONLY:-}
irep=${PR_BENCH_REPEAT:-1}
pr=$build/cli/profreport
gen=$build/bench/gen_trace
[ -x "$pr" ] && [ -x "$gen" ] || { echo "archive_bench: build first (cmake --build $build)" >&2; exit 2; }
out=bench/out/archive
case $only in '' | ingest) ;; *) echo "archive_bench: PR_BENCH_ONLY is 'ingest' or unset" >&2; exit 2 ;; esac
# ingest alone keeps the small files of an earlier run with the same count
# (gen_trace is deterministic: the same seeds give the same files)
if [ -z "$only" ] || [ "$(ls "$out/small" 2>/dev/null | wc -l)" -ne "$nsmall" ]; then
	rm -rf "$out"
fi
mkdir -p "$out/traces" "$out/small"

# measure N NAME CMD...: CMD run N times in one timed loop; prints "NAME wall cpu rss"
# (the mean wall and CPU (user + sys) seconds per run, the peak RSS in MB)
measure() {
	reps=$1
	name=$2
	shift 2
	/usr/bin/time -f '%e %U %S %M' -o "$out/t" sh -c 'n=$1; shift; i=0
		while [ "$i" -lt "$n" ]; do "$@" >/dev/null 2>&1; i=$((i + 1)); done' _ "$reps" "$@" || true
	awk -v name="$name" -v n="$reps" '{ printf "%s %.4f %.4f %.1f\n", name, $1 / n, ($2 + $3) / n, $4 / 1024 }' "$out/t"
}

now() { date +%s.%N; }

if [ -z "$only" ]; then
# -- 1. the traces and the big store
i=1
while [ "$i" -le "$runs" ]; do
	case $((i % 4)) in 0) mb=0.05 ;; 1) mb=0.1 ;; 2) mb=0.2 ;; *) mb=0.4 ;; esac
	"$gen" "$mb" "$i" -o "$out/traces/t$i.json" 2>/dev/null
	i=$((i + 1))
done
bytes=$(du -sb "$out/traces" | cut -f1)
t0=$(now)
"$pr" ingest -q "$out/traces" -o "$out/big.db"
t1=$(now)
echo "archive_bench: $runs runs, $((bytes / 1000000)) MB of traces, ingested in $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s; store $(($(stat -c %s "$out/big.db") / 1000000)) MB"

# -- 2. per-run commands: run A (t3, 400 KB) and B (t7, 400 KB)
a=$("$pr" query "$out/big.db" "SELECT id FROM run WHERE label = 't3.json'" | tail -n 1)
b=$("$pr" query "$out/big.db" "SELECT id FROM run WHERE label = 't7.json'" | tail -n 1)
"$pr" ingest -q "$out/traces/t3.json" -o "$out/a.db"
"$pr" ingest -q "$out/traces/t7.json" -o "$out/b.db"
{
	measure "$rep" "summary --run" "$pr" summary --run "$a" "$out/big.db"
	measure "$rep" "summary own" "$pr" summary "$out/a.db"
	measure "$rep" "report --run" "$pr" report --run "$a" --no-cache "$out/big.db" --json "$out/x.json"
	measure "$rep" "report own" "$pr" report --no-cache "$out/a.db" --json "$out/x.json"
	measure "$rep" "compare --*-run" "$pr" compare "$out/big.db" "$out/big.db" --base-run "$a" --new-run "$b"
	measure "$rep" "compare own" "$pr" compare "$out/a.db" "$out/b.db"
} >"$out/per_run"
echo
printf '%-16s %10s %10s %10s %10s %8s\n' command "big wall" "big cpu" "own wall" "own cpu" "cpu x"
awk 'NR % 2 == 1 { n = $0; w = $(NF - 2); c = $(NF - 1); sub(/ [0-9.]+ [0-9.]+ [0-9.]+$/, "", n) }
	NR % 2 == 0 { printf "%-16s %10.4f %10.4f %10.4f %10.4f %8.2f\n", n, w, c, $(NF - 2), $(NF - 1),
		($(NF - 1) > 0 ? c / $(NF - 1) : 0) }' "$out/per_run"

# -- 3. the archive: from scratch, then after one new run
"$gen" 0.2 999999 -o "$out/new.json" 2>/dev/null
"$pr" ingest -q "$out/new.json" -o "$out/new.db"
measure 1 "cold" "$pr" report "$out/big.db" -o "$out/site/" >"$out/arch"
"$pr" ingest -q "$out/new.json" -o "$out/big.db"
measure 1 "incremental" "$pr" report "$out/big.db" -o "$out/site/" >>"$out/arch"
measure "$rep" "nothing new" "$pr" report "$out/big.db" -o "$out/site/" >>"$out/arch"
rm -rf "$out/site_own"
measure 1 "new run alone" "$pr" report "$out/new.db" -o "$out/site_own/" >>"$out/arch"
echo
printf '%-22s %8s %8s %9s\n' "report STORE -o site/" "wall s" "cpu s" "RSS MB"
awk '{ n = $0; sub(/ [0-9.]+ [0-9.]+ [0-9.]+$/, "", n); printf "%-22s %8.3f %8.3f %9.1f\n", n, $(NF - 2), $(NF - 1), $NF }' "$out/arch"
echo "store with the model cache: $(($(stat -c %s "$out/big.db") / 1000000)) MB"
fi

# -- 4. many small files against one file of the same size
if [ "$(ls "$out/small" | wc -l)" -ne "$nsmall" ] || [ ! -f "$out/large.json" ]; then
	i=1
	while [ "$i" -le "$nsmall" ]; do
		"$gen" 0.1 "$i" -o "$out/small/s$i.json" 2>/dev/null
		i=$((i + 1))
	done
	sbytes=$(du -sb "$out/small" | cut -f1)
	"$gen" "$(echo "$sbytes" | awk '{ printf "%.1f", $1 / 1e6 }')" 1 -o "$out/large.json" 2>/dev/null
fi
sbytes=$(du -sb "$out/small" | cut -f1)
lbytes=$(stat -c %s "$out/large.json")
# ingest_once: one file, then the small files, each into a new store
ingest_once() {
	rm -f "$out/large.db" "$out/small.db"
	sync
	measure 1 "one file" "$pr" ingest -q "$out/large.json" -o "$out/large.db"
	sync
	measure 1 "$nsmall files" "$pr" ingest -q "$out/small" -o "$out/small.db"
}
: >"$out/ing"
j=1
while [ "$j" -le "$irep" ]; do
	ingest_once >>"$out/ing"
	j=$((j + 1))
done
echo
printf '%-14s %8s %8s %8s %8s %9s\n' ingest MB "wall s" "cpu s" "MB/s" "RSS MB"
# one line per ingest (repeats in turn: one file, small files), then, when
# repeated, the medians of wall, CPU and the ratio of each back-to-back pair
awk -v sb="$sbytes" -v lb="$lbytes" -v reps="$irep" '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ n = $0; sub(/ [0-9.]+ [0-9.]+ [0-9.]+$/, "", n)
	small = NR % 2 == 0; k = int((NR + 1) / 2)
	b = small ? sb : lb; rate = b / 1e6 / $(NF - 2)
	printf "%-14s %8.0f %8.2f %8.2f %8.1f %9.1f\n", n, b / 1e6, $(NF - 2), $(NF - 1), rate, $NF
	if (small) { ws[k] = $(NF - 2); cs[k] = $(NF - 1); rs[k] = rate; ratio[k] = rate / lrate; name = n }
	else { wl[k] = $(NF - 2); cl[k] = $(NF - 1); rl[k] = rate; lrate = rate } }
	END {
		if (reps > 1) {
			printf "%-14s %8.0f %8.2f %8.2f %8.1f   (median of %d)\n", "one file", lb / 1e6, med(wl, reps), med(cl, reps), med(rl, reps), reps
			printf "%-14s %8.0f %8.2f %8.2f %8.1f   (median of %d)\n", name, sb / 1e6, med(ws, reps), med(cs, reps), med(rs, reps), reps
		}
		printf "small files / one file: %.0f %%\n", 100 * med(ratio, reps)
	}' "$out/ing"
