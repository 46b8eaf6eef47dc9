#!/bin/sh
# Ingest benchmark: generates deterministic Kineto-like traces with gen_trace
# and prints, per size: MB/s and events/s end to end into the store, peak
# RSS, store size and bytes per event, next to `cat FILE >/dev/null` on the
# same file (the I/O reference).
#
# usage: bench/run.sh [BUILD_DIR] [SIZES_MB...]     (default: build 10 100 1000)
# Needs /usr/bin/time (Debian package "time"). Files go to bench/out/.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
sizes=${*:-10 100 1000}
pr=$build/cli/profreport
gen=$build/bench/gen_trace
out=bench/out
mkdir -p "$out"
[ -x "$pr" ] && [ -x "$gen" ] || { echo "bench: build first (cmake --build $build)" >&2; exit 2; }

now() { date +%s.%N; }

printf '%-22s %9s %8s %9s %10s %11s %9s %9s %7s %8s\n' \
	input "size MB" "time s" "MB/s" events "events/s" "RSS MB" "store MB" "store/x" "B/event"
for mb in $sizes; do
	f=$out/trace_${mb}MB.json
	[ -f "$f" ] || "$gen" "$mb" 1 -o "$f" 2>"$f.gen"
	events=$(sed -n 's/.* \([0-9]*\) events.*/\1/p' "$f.gen")
	bytes=$(stat -L -c %s "$f")
	t0=$(now); cat "$f" >/dev/null; t1=$(now)
	db=$out/trace_${mb}MB.db
	rm -f "$db" "$db-journal"
	/usr/bin/time -f '%M' -o "$out/rss" "$pr" ingest -q "$f" -o "$db"
	t2=$(now)
	rss=$(tail -n 1 "$out/rss")
	store=$(stat -c %s "$db")
	awk -v name="$(basename "$f")" -v b="$bytes" -v e="$events" -v c="$t1-$t0" \
		-v t0="$t1" -v t1="$t2" -v ct0="$t0" -v rss="$rss" -v s="$store" 'BEGIN {
		t = t1 - t0; ct = t0 - ct0; mbs = b / 1e6
		printf "%-22s %9.1f %8.2f %9.1f %10d %11.0f %9.1f %9.1f %7.2f %8.1f\n",
			name, mbs, t, mbs / t, e, e / t, rss / 1024, s / 1e6, s / b, s / e
		printf "%-22s %9.1f %8.2f %9.1f %10s %11s %9s %9s %7s %8s\n",
			"  cat (I/O reference)", mbs, ct, mbs / ct, "-", "-", "-", "-", "-", "-"
	}'
	rm -f "$db" "$db-journal"
done
echo "reference (published, REFERENCE.md §12): Perfetto trace_processor JSON import 177 MB/s, in RAM"
