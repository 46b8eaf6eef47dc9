#!/bin/sh
# t0099-agg-jobs: aggregate -j N (README, "Commands"; docs/aggregate.md,
# "Many files: -j"): the rank files ingested and analysed by N worker
# processes, folded by the parent in input order. For any N: agg.json, the
# console table and the notes on stderr are byte-identical to -j 1; a
# failing file among many gives -j 1's error line and exit status; a signal
# mid-run leaves no output, no temporary file and no worker behind.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=python3
G=$PR_TESTS/golden/aggregate

# -- the 4-rank sample: -j 1, 2, 4 the same bytes, and the golden of t0011
cp -R "$PR_SAMPLES/ranks" ranks
for j in 1 2 4; do
	run "$P" aggregate -j "$j" ranks -o "s$j.json"
	expect_rc 0 "aggregate -j $j of samples/ranks"
	cp "$tmp/out" "s$j.out"
	cp "$tmp/err" "s$j.err"
done
for j in 2 4; do
	cmp -s s1.json "s$j.json" || fail "samples/ranks: agg.json of -j $j differs from -j 1"
	cmp -s s1.out "s$j.out" || fail "samples/ranks: the console table of -j $j differs"
	cmp -s s1.err "s$j.err" || fail "samples/ranks: stderr of -j $j differs from -j 1"
done
cmp -s s4.json "$G/ranks.agg.json" || fail "samples/ranks -j 4: agg.json differs from the golden"
grep -q "'ranks/make_ranks.py': skipped, not a trace" s4.err || fail "-j 4: the skip note is lost"

# -- 64 generated ranks, a file that is no trace among them, and more inputs
# after the directory (an agg.json, a store): input order is kept
"$py" "$PR_SAMPLES/ranks/make_ranks.py" --ranks 66 --steps 4 --straggler 37 --out g64 >/dev/null ||
	fail "setup: make_ranks.py"
mkdir more
mv g64/rank64.pt.trace.json g64/rank65.pt.trace.json more/
echo "not a trace" >g64/notes.txt
"$P" aggregate -q -j 1 more/rank64.pt.trace.json -o extra.agg.json || fail "setup: extra.agg.json"
"$P" ingest -q more/rank65.pt.trace.json -o extra.db || fail "setup: extra.db"
for j in 1 2 3 8; do
	run "$P" aggregate -j "$j" g64 extra.agg.json extra.db -o "g$j.json"
	expect_rc 0 "aggregate -j $j of 64 ranks + an agg.json + a store"
	cp "$tmp/out" "g$j.out"
	cp "$tmp/err" "g$j.err"
done
for j in 2 3 8; do
	cmp -s g1.json "g$j.json" || fail "64 ranks: agg.json of -j $j differs from -j 1"
	cmp -s g1.out "g$j.out" || fail "64 ranks: the console table of -j $j differs"
	cmp -s g1.err "g$j.err" || fail "64 ranks: stderr of -j $j differs from -j 1"
done
# 64 rank files + 1 agg.json rank + 1 store rank (counted from the inputs)
rows=$("$py" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["ranks"]))' g8.json)
[ "$rows" = 66 ] || fail "64 ranks + 2: agg.json has $rows rank rows, expected 66"
grep -q "'g64/notes.txt': skipped, not a trace" g8.err || fail "-j 8: the skip note is lost"

# -- a failing file among many: the first in input order, as -j 1 says it
cp -R g64 bad
printf '{"traceEvents": [ {"ph": "X", "ts": 1, bad' >bad/rank13.pt.trace.json
printf '{"traceEvents": [ {"ph": "X", "ts": 1, ]]' >bad/rank50.pt.trace.json
for j in 1 2 4; do
	run "$P" aggregate -j "$j" bad -q -o "bad$j.json"
	expect_error "profreport: aggregate: 'bad/rank13.pt.trace.json':1:40: " "-j $j, two bad files"
	cp "$tmp/err" "bad$j.err"
	[ ! -e "bad$j.json" ] || fail "-j $j: an output written despite the error"
done
cmp -s bad1.err bad2.err && cmp -s bad1.err bad4.err || fail "the error line differs with -j"
[ -z "$(ls "$TMPDIR")" ] || fail "temporary files left after the errors: $(ls "$TMPDIR")"

# -- usage
run "$P" aggregate -j 0 ranks -o x.json
expect_error "profreport: aggregate: -j needs a whole number from 1 to 256" "-j 0"
run "$P" aggregate -j many ranks -o x.json
expect_error "profreport: aggregate: -j needs a whole number" "-j many"

# -- signals mid-run: 300 ranks, killed once a worker's temporary store exists
"$py" "$PR_SAMPLES/ranks/make_ranks.py" --ranks 300 --steps 4 --out g300 >/dev/null ||
	fail "setup: make_ranks.py 300"
sigs=$(fatal_signals TERM INT)
for sig in $sigs; do
	want=$(signal_status "$sig")
	env --default-signal=INT "$P" aggregate -j 2 g300 -q -o sig.json 2>"sig.$sig" &
	pid=$!
	signal_when "$pid" "$sig" workers_at_work "$pid"
	if [ "$caught" = 0 ]; then
		fail "SIG$sig: never saw the workers at work"
		continue
	fi
	[ "$st" = "$want" ] || fail "SIG$sig: exit status $st, expected $want"
	[ ! -e sig.json ] || fail "SIG$sig: an output was written"
	left=$(ls -a | grep -F sig.json || true)
	[ -z "$left" ] || fail "SIG$sig: files left beside the output: $left"
	[ -z "$(ls "$TMPDIR")" ] || fail "SIG$sig: left in TMPDIR: $(ls "$TMPDIR")"
	for k in $kids; do
		if kill -0 "$k" 2>/dev/null; then
			fail "SIG$sig: worker $k outlived the command"
		fi
	done
done

finish
