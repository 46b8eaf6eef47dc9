#!/bin/sh
# ingest_cpu.sh - single-file ingest against its boundary-scan limit (issue 32),
# in CPU seconds, which other work on a shared machine disturbs far less than
# wall time. Per size: a generated trace (bench/gen_trace SIZE_MB 1), ingested
# PR_BENCH_REPEAT times (default 3) and scanned as often by bench/scan_limit
# (finds where each event ends, nothing else); each keeps its best run (least
# user+sys CPU). Columns: wall MB/s and events/s of that run, CPU s per GB
# (user+sys), peak RSS, store bytes per event and store/JSON, then the scan's
# CPU s/GB and wall MB/s, and ingest's CPU over the scan's and its wall
# time over the scan's; then bench/insert_floor.sh's CPU s/GB: SQLite alone
# copying the store's rows into a fresh store (no parsing, no binding), the
# floor of ingest's SQLite thread and so of its wall time, its MB/s beside it.
#
# usage: bench/ingest_cpu.sh [BUILD_DIR] [SIZES_MB...]    (default: build 100 1000)
# Needs /usr/bin/time (Debian package "time") and sqlite3. Files go to bench/out/.
set -eu
default_sizes="100 1000"
. "$(dirname "$0")/lib.sh"
scan=$build/bench/scan_limit
[ -x "$scan" ] || { echo "bench: build first (cmake --build $build)" >&2; exit 2; }

# best CMD...: runs CMD n times; prints "wall cpu rss" of the run with least CPU.
best() {
	: >"$out/best"
	i=0
	while [ "$i" -lt "$n" ]; do
		[ -n "${db:-}" ] && rm -f "$db" "$db-journal"
		/usr/bin/time -f '%e %U %S %M' -o "$out/time" "$@" >/dev/null
		tail -n 1 "$out/time" | awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' >>"$out/best"
		i=$((i + 1))
	done
	sort -k2,2n "$out/best" | head -n 1
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
printf '%-18s %7s %8s %10s %8s %7s %7s %7s | %9s %8s %6s %6s | %10s %9s\n' input "MB" "MB/s" \
	"events/s" "CPU s/GB" "RSS MB" "B/event" "store/x" "scan s/GB" "scan MB/s" "x scan" "x wall" \
	"floor s/GB" "floor MB/s"
for mb in $sizes; do
	f=$out/trace_${mb}MB.json
	[ -f "$f" ] || "$gen" "$mb" 1 -o "$f" 2>"$f.gen"
	events=$(sed -n 's/.* \([0-9]*\) events.*/\1/p' "$f.gen")
	bytes=$(stat -L -c %s "$f")
	db=
	s=$(best "$scan" "$f")
	db=$out/trace_${mb}MB.db
	r=$(best "$pr" ingest -q "$f" -o "$db")
	store=$(stat -c %s "$db")
	fl=$(sh bench/insert_floor.sh "$db" "$n")
	rm -f "$db" "$db-journal"
	echo "$r $s $fl" | awk -v name="$(basename "$f")" -v b="$bytes" -v e="$events" -v st="$store" '{
		gb = b / 1e9; mbs = b / 1e6
		printf "%-18s %7.0f %8.0f %10.0f %8.2f %7.0f %7.1f %7.2f | %9.2f %8.0f %6.2f %6.2f | %10.2f %9.0f\n",
			name, mbs, mbs / $1, e / $1, $2 / gb, $3 / 1024, st / e, st / b,
			$5 / gb, mbs / $4, $2 / $5, $1 / $4, $7 / gb, mbs / $7
	}'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
