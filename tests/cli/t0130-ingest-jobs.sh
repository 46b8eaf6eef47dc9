#!/bin/sh
# t0130-ingest-jobs: ingest, summary and compare -j N (README, "Commands";
# docs/performance.md, "ingest -j"): the files parsed by N worker processes,
# each into a temporary store of its own, their runs copied into the store
# by the parent in input order. For any N the store's rows are -j 1's
# (`sqlite3 .dump` byte for byte: ids, strings, indexes, rows), and so are
# stdout, stderr and the exit status; a failing file among many is reported
# with its file:line:col as -j 1 reports it and leaves nothing of itself; a
# signal mid-run leaves no temporary file and no worker, and the store as an
# interrupted -j 1 ingest leaves it (the groups committed; completed by
# ingesting again into the same rows).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! command -v sqlite3 >/dev/null 2>&1; then
	echo "$test_name: sqlite3 (the shell) missing; skipped" >&2
	exit 77
fi

# dumpof DB: the store's rows and schema as text
dumpof() {
	sqlite3 "$1" .dump
}

# -- every sample (every format, flows, series, metrics, span_up, diagnostics),
# into a new store and into one that already has runs (ids past 1, a string
# and a file already there: a duplicate), for -j 1, 2, 4
cp -R "$PR_SAMPLES" samples
for j in 1 2 4; do
	run "$P" ingest -j "$j" samples -o "new$j.db"
	expect_rc 0 "ingest -j $j samples"
	cp "$tmp/out" "new$j.out"
	cp "$tmp/err" "new$j.err"
	dumpof "new$j.db" >"new$j.sql"
	"$P" ingest -q -j 1 samples/ranks/rank1.pt.trace.json -o "old$j.db" || fail "setup: old$j.db"
	run "$P" ingest -j "$j" samples/ranks samples/chrome samples/ranks/rank2.pt.trace.json \
		-o "old$j.db"
	expect_rc 0 "ingest -j $j into a store with a run"
	cp "$tmp/out" "old$j.out"
	cp "$tmp/err" "old$j.err"
	dumpof "old$j.db" >"old$j.sql"
done
runs=$(query_value new1.db "SELECT count(*) FROM run")
[ "$runs" -ge 40 ] || fail "samples: only $runs runs stored"
grep -q "already in the store as run 1" old1.out || fail "-j 1: the duplicate's line is missing"
for j in 2 4; do
	for f in new old; do
		cmp -s "${f}1.sql" "$f$j.sql" || fail "$f store: -j $j's rows differ from -j 1's"
		cmp -s "${f}1.out" "$f$j.out" || fail "$f store: -j $j's stdout differs from -j 1's"
		cmp -s "${f}1.err" "$f$j.err" || fail "$f store: -j $j's stderr differs from -j 1's"
	done
done
# the run indexes (made with a store's second run) are there, as with -j 1
grep -q "CREATE INDEX span_run" new4.sql || fail "-j 4: the run_id indexes are missing"
# the rows really went through the workers: the same store from one file at a time
for f in samples/ranks/rank0.pt.trace.json samples/ranks/rank1.pt.trace.json \
	samples/ranks/rank2.pt.trace.json samples/ranks/rank3.pt.trace.json; do
	"$P" ingest -q -j 1 "$f" -o seq.db || fail "setup: seq.db"
done
"$P" ingest -q -j 3 samples/ranks -o par.db || fail "ingest -j 3 samples/ranks"
cmp -s "$(dumpof seq.db >seq.sql && echo seq.sql)" "$(dumpof par.db >par.sql && echo par.sql)" ||
	fail "-j 3: the rows differ from four one-file ingests"
# --meta labels every run the workers ingest, as with -j 1
for j in 1 3; do
	"$P" ingest -q -j "$j" --meta commit=4f2a9c1 --meta time=2026-01-15T10:23:45Z samples/ranks \
		-o "meta$j.db" || fail "ingest -j $j --meta"
	dumpof "meta$j.db" >"meta$j.sql"
done
cmp -s meta1.sql meta3.sql || fail "--meta: -j 3's rows differ from -j 1's"
[ "$(query_value meta3.db "SELECT count(*) FROM run_meta WHERE key = 'commit'")" = 4 ] ||
	fail "--meta: not the 4 runs labelled"
[ -z "$(ls "$TMPDIR")" ] || fail "temporary files left: $(ls "$TMPDIR")"

# -- 120 generated ranks with two bad files and one that is no trace: every
# good file stored, the errors in input order with their positions, exit 2
"$py" "$PR_SAMPLES/ranks/make_ranks.py" --ranks 120 --steps 4 --straggler 37 --out g >/dev/null ||
	fail "setup: make_ranks.py"
echo "not a trace" >g/notes.txt
printf '{"traceEvents": [ {"ph": "X", "name": "only-in-bad", "ts": 1, "dur": 1, "pid": 1, "tid": 1}, {"ph": "X", "ts": 1, bad' \
	>g/rank13.pt.trace.json
printf '{"traceEvents": [ {"ph": "X", "ts": 1, ]]' >g/rank50.pt.trace.json
for j in 1 2 4; do
	run "$P" ingest -j "$j" g -o "bad$j.db"
	expect_rc 2 "-j $j: two bad files among 121"
	expect_err_has "profreport: ingest: 'g/rank13.pt.trace.json':1:" "-j $j: the first bad file"
	cp "$tmp/out" "bad$j.out"
	cp "$tmp/err" "bad$j.err"
	dumpof "bad$j.db" >"bad$j.sql"
	[ "$(query_value "bad$j.db" "SELECT count(*) FROM run")" = 118 ] ||
		fail "-j $j: not the 118 good files stored"
	[ "$(query_value "bad$j.db" "SELECT count(*) FROM string WHERE value = 'only-in-bad'")" = 0 ] ||
		fail "-j $j: rows of the bad file are in the store"
done
# column 115: the 'b' of "bad", 1-based (python3: s.rindex('bad') + 1 of the line above)
[ "$(sed -n 1p bad4.err)" = "profreport: ingest: 'g/rank13.pt.trace.json':1:115: object key (a string) expected" ] ||
	fail "-j 4: the first error line: $(sed -n 1p bad4.err)"
for j in 2 4; do
	cmp -s bad1.sql "bad$j.sql" || fail "bad files: -j $j's rows differ from -j 1's"
	cmp -s bad1.out "bad$j.out" || fail "bad files: -j $j's stdout differs"
	cmp -s bad1.err "bad$j.err" || fail "bad files: -j $j's stderr differs"
done
[ -z "$(ls "$TMPDIR")" ] || fail "temporary files left after the errors: $(ls "$TMPDIR")"

# -- memory per process: the largest process of -j 4 (the parent or a worker, GNU time's
# peak RSS) within 1.5x of -j 1's (measured 36.3 MB against 36.8 MB for 1000 ranks:
# docs/performance.md), so N workers take about N times one ingest's memory, no more
if [ -x /usr/bin/time ]; then
	for j in 1 4; do
		rm -f "rss$j.db"
		/usr/bin/time -f %M -o "rss$j.txt" "$P" ingest -q -j "$j" g -o "rss$j.db" 2>/dev/null || true
	done
	r1=$(tail -n 1 rss1.txt)
	r4=$(tail -n 1 rss4.txt)
	[ "$r4" -le $((r1 * 3 / 2)) ] || fail "-j 4: peak RSS $r4 KB, over 1.5x -j 1's $r1 KB"
else
	echo "$test_name: /usr/bin/time missing; the memory check left out" >&2
fi

# -- summary and compare of directories: the same bytes for any -j
rm g/rank13.pt.trace.json g/rank50.pt.trace.json
mkdir h
cp g/rank1*.json h/
for j in 1 3; do
	run "$P" summary -j "$j" g
	expect_rc 0 "summary -j $j of a directory"
	cp "$tmp/out" "sum$j.out"
	cp "$tmp/err" "sum$j.err"
	run "$P" compare -j "$j" h g --to json
	cp "$tmp/out" "cmp$j.out"
	cp "$tmp/err" "cmp$j.err"
	echo "$rc" >"cmp$j.rc"
done
cmp -s sum1.out sum3.out || fail "summary -j 3 differs from -j 1"
cmp -s sum1.err sum3.err || fail "summary -j 3: stderr differs from -j 1"
grep -q "skipped, not a recognized format: 'g/notes.txt'" sum3.err || fail "summary: the skip note is lost"
cmp -s cmp1.out cmp3.out || fail "compare -j 3 differs from -j 1"
cmp -s cmp1.err cmp3.err || fail "compare -j 3: stderr differs from -j 1"
cmp -s cmp1.rc cmp3.rc || fail "compare -j 3: another exit status"
[ -s cmp3.out ] || fail "compare -j 3 printed nothing"

# -- usage
run "$P" ingest -j 0 g -o x.db
expect_error "profreport: ingest: -j needs a whole number from 1 to 256" "-j 0"
run "$P" summary -j many g
expect_error "profreport: summary: -j needs a whole number" "summary -j many"
[ ! -e x.db ] || fail "-j 0: a store was made"

# -- signals mid-run: 1200 ranks, killed once the workers are at work; then
# the same ingest again completes the store to -j 1's rows
"$py" "$PR_SAMPLES/ranks/make_ranks.py" --ranks 1200 --steps 4 --out g400 >/dev/null ||
	fail "setup: make_ranks.py 1200"
"$P" ingest -q -j 1 g400 -o full.db || fail "setup: full.db"
dumpof full.db >full.sql
sigs=$(fatal_signals TERM INT)
for sig in $sigs; do
	want=$(signal_status "$sig")
	rm -f "sig$sig.db"
	env --default-signal=INT "$P" ingest -q -j 2 g400 -o "sig$sig.db" 2>"sig.$sig" &
	pid=$!
	signal_when "$pid" "$sig" workers_at_work "$pid"
	if [ "$caught" = 0 ]; then
		fail "SIG$sig: never saw the workers at work"
		continue
	fi
	[ "$st" = "$want" ] || fail "SIG$sig: exit status $st, expected $want"
	[ -z "$(ls "$TMPDIR")" ] || fail "SIG$sig: left in TMPDIR: $(ls "$TMPDIR")"
	for k in $kids; do
		if kill -0 "$k" 2>/dev/null; then
			fail "SIG$sig: worker $k outlived the command"
		fi
	done
	# what is stored is whole runs, the first ones in input order
	"$P" ingest -q -j 2 g400 -o "sig$sig.db" 2>"again.$sig" ||
		fail "SIG$sig: the ingest again failed: $(cat "again.$sig")"
	dumpof "sig$sig.db" >"sig$sig.sql"
	cmp -s full.sql "sig$sig.sql" || fail "SIG$sig: interrupted and again is not -j 1's store"
done

finish
