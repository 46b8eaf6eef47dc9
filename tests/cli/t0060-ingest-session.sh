#!/bin/sh
# t0060-ingest-session: an ingest of many files goes through one writer
# session (docs/store.md, "The event store"): one inserter thread for the
# whole ingest, which inserts and commits a file while the next one is read,
# on the ids the store will have once the file before it is stored. Every
# run must still get the ids and rows one file at a time gives it, also
# around a file that fails, a duplicate (of a run stored earlier or of a
# file just before: the file read behind it began on ids that are not the
# store's and is read again), standard input, and readers of other formats
# (they write through the same writer).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_gen

i=1
while [ "$i" -le 5 ]; do
	"$gen" 0.05 "$i" -o "g$i.json" 2>/dev/null || fail "setup: gen_trace $i"
	i=$((i + 1))
done
cp g2.json g2-copy.json
# fails inside its event array, after two events went to the writer
printf '{"traceEvents": [{"ph": "X", "name": "only-in-bad-a", "ts": 1, "dur": 2, "pid": 1, "tid": 1}, {"ph": "X", "name": "only-in-bad-b", "ts": 3, "dur": 1, "pid": 1, "tid": 1}, {"ph": "X", "name": "c", "ts": @@@' >bad.json
S=$PR_SAMPLES
# The order puts each kind of outcome behind a stored file and in front of
# one: a failure, a duplicate of the file before, a duplicate of a run of
# the earlier ingest (g3), a duplicate further back (g1), stdin (g5).
set -- g1.json "$S/inferix/profiling_report_t2v_generation_20231114_221332.json" bad.json \
	g2.json g2-copy.json "$S/qnn/memory_20241219_143000.csv" g3.json "$S/perf/perf_script.txt" \
	"$S/speedscope/profile.speedscope.json" g1.json "$S/memtracer/memory_timeline.json" \
	"$S/massif/massif.out.12345" bad.json "$S/sysstat/sadf.json" - g4.json \
	"$S/folded/torch_cpu.stacks" "$S/dhat/dhat.out.heap"

"$P" ingest -q g3.json -o many.db || fail "setup: the earlier ingest"
"$P" ingest -q g3.json -o one.db || fail "setup: the earlier ingest (one at a time)"
run "$P" ingest "$@" -o many.db <g5.json
expect_rc 2 "the ingest with two failing files"
cp "$tmp/out" many.out
cp "$tmp/err" many.err
: >one.out
: >one.err
for f in "$@"; do
	if [ "$f" = - ]; then
		"$P" ingest - -o one.db <g5.json >>one.out 2>>one.err || true
	else
		"$P" ingest "$f" -o one.db >>one.out 2>>one.err || true
	fi
done

# The same lines: the stored runs' (run numbers, counts), the duplicates',
# and the two errors.
cmp -s one.out many.out ||
	{ fail "other report lines than one file at a time"; diff one.out many.out >&2; }
cmp -s one.err many.err ||
	{ fail "other errors than one file at a time"; diff one.err many.err >&2; }
[ "$(grep -c 'already in the store' many.out)" = 3 ] ||
	fail "not the 3 duplicates (g2-copy, g3, g1)"
[ "$(grep -c "^profreport: ingest: 'bad.json':1:" many.err)" = 2 ] ||
	fail "not the 2 errors of bad.json"

# The same rows, ids included, in every table the writer fills.
for t in run string argkeys track span instant flow series metric op_cover span_up diag sample; do
	order=rowid
	[ "$t" = sample ] && order="series_id, ts, seq"
	"$P" query many.db "SELECT * FROM $t ORDER BY $order" >"many.$t" || fail "query $t"
	"$P" query one.db "SELECT * FROM $t ORDER BY $order" >"one.$t" || fail "query $t (one at a time)"
	cmp -s "one.$t" "many.$t" || {
		fail "table $t differs from one file at a time"
		diff "one.$t" "many.$t" | head -n 5 >&2
	}
done
[ "$(query_value many.db "SELECT count(*) FROM run")" = 14 ] ||
	fail "not 14 runs (g3 before; 18 inputs, 2 failing, 3 duplicates, so 13 new)"
[ "$(query_value many.db "SELECT count(*) FROM string WHERE value LIKE 'only-in-bad-%'")" = 0 ] ||
	fail "rows of the failing file are left in the store"

# One inserter thread for the ingest, not one a file (40 before: clone per file);
# -j 1: the one-process ingest (with -j N each worker is a process with its own).
if command -v strace >/dev/null && strace -f -e trace=none true 2>/dev/null; then
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=clone,clone3 -o trace.txt "$P" ingest -q -j 1 g1.json g2.json \
		g3.json g4.json g5.json -o threads.db || fail "ingest of 5 files under strace"
	n=$(grep -c 'clone' trace.txt || true)
	[ "$n" = 1 ] || fail "ingest of 5 files started $n threads, expected 1"
fi

finish
