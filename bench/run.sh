#!/bin/sh
# Ingest benchmark: generates deterministic Kineto-like traces with gen_trace
# and prints, per size: MB/s and events/s end to end into the store, peak
# RSS, store size and bytes per event, next to `cat FILE >/dev/null` on the
# same file (the I/O reference).
#
# usage: bench/run.sh [BUILD_DIR] [SIZES_MB...]     (default: build 10 100 1000)
# Then the end-to-end table of bench/e2e.sh for the same sizes (ingest,
# analysis of the stored run, trace -> report; PR_BENCH_E2E=0 skips it),
# and the archive tables of bench/archive_bench.sh (a store of
# PR_BENCH_ARCHIVE_RUNS runs, default 1000, against stores of one; the ingest
# of PR_BENCH_ARCHIVE_FILES small files, default 2000, against one file;
# about four minutes; PR_BENCH_ARCHIVE=0 skips them).
# Each ingest runs PR_BENCH_REPEAT times (default 3); the table shows the
# median time and the largest peak RSS. Needs /usr/bin/time (Debian package
# "time"). Files go to bench/out/.
set -eu
default_sizes="10 100 1000"
. "$(dirname "$0")/lib.sh"

printf '%-22s %9s %8s %9s %10s %11s %9s %9s %7s %8s\n' \
	input "size MB" "time s" "MB/s" events "events/s" "RSS MB" "store MB" "store/x" "B/event"
for mb in $sizes; do
	f=$out/trace_${mb}MB.json
	[ -f "$f" ] || "$gen" "$mb" 1 -o "$f" 2>"$f.gen"
	events=$(sed -n 's/.* \([0-9]*\) events.*/\1/p' "$f.gen")
	bytes=$(stat -L -c %s "$f")
	c0=$(now); cat "$f" >/dev/null; c1=$(now)
	db=$out/trace_${mb}MB.db
	: >"$out/times"
	rss=0
	i=0
	while [ "$i" -lt "$n" ]; do
		rm -f "$db" "$db-journal"
		sync
		t1=$(now)
		/usr/bin/time -f '%M' -o "$out/rss" "$pr" ingest -q "$f" -o "$db"
		t2=$(now)
		echo "$t1 $t2" | awk '{ printf "%.6f\n", $2 - $1 }' >>"$out/times"
		r=$(tail -n 1 "$out/rss")
		[ "$r" -gt "$rss" ] && rss=$r
		i=$((i + 1))
	done
	med=$(sort -n "$out/times" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	store=$(stat -c %s "$db")
	awk -v name="$(basename "$f")" -v b="$bytes" -v e="$events" -v t="$med" \
		-v c0="$c0" -v c1="$c1" -v rss="$rss" -v s="$store" 'BEGIN {
		ct = c1 - c0; mbs = b / 1e6
		printf "%-22s %9.1f %8.2f %9.1f %10d %11.0f %9.1f %9.1f %7.2f %8.1f\n",
			name, mbs, t, mbs / t, e, e / t, rss / 1024, s / 1e6, s / b, s / e
		printf "%-22s %9.1f %8.2f %9.1f %10s %11s %9s %9s %7s %8s\n",
			"  cat (I/O reference)", mbs, ct, mbs / ct, "-", "-", "-", "-", "-", "-"
	}'
	rm -f "$db" "$db-journal"
done
echo "reference (published, REFERENCE.md §12): Perfetto trace_processor JSON import 177 MB/s, in RAM"
if [ "${PR_BENCH_E2E:-1}" != 0 ]; then
	echo
	sh bench/e2e.sh "$build" $sizes
fi
if [ "${PR_BENCH_ARCHIVE:-1}" != 0 ]; then
	echo
	sh bench/archive_bench.sh "$build" "${PR_BENCH_ARCHIVE_RUNS:-1000}" \
		"${PR_BENCH_ARCHIVE_FILES:-2000}"
fi
