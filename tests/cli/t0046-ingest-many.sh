#!/bin/sh
# t0046-ingest-many: an ingest of many files commits them in groups (README,
# "The event store"): each file is a savepoint of the group's transaction, so
# a file that fails midway is undone alone and the files around it are
# stored; a file's line is printed once its group is committed, in input
# order; and the store syncs per group, not twice per file.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_gen

# 40 generated traces of ~90 KB, and one that fails inside its event array
# (after its writer began: two of its events already went to the writer).
i=1
while [ "$i" -le 40 ]; do
	"$gen" 0.05 "$i" -o "g$(printf %02d "$i").json" 2>/dev/null || fail "setup: gen_trace $i"
	i=$((i + 1))
done
printf '{"traceEvents": [{"ph": "X", "name": "only-in-bad-a", "ts": 1, "dur": 2, "pid": 1, "tid": 1}, {"ph": "X", "name": "only-in-bad-b", "ts": 3, "dur": 1, "pid": 1, "tid": 1}, {"ph": "X", "name": "c", "ts": @@@' >bad.json

run "$P" ingest --format chrome g01.json g02.json g03.json bad.json g04.json g05.json -o s.db
expect_rc 2 "ingest with a bad file among good ones"
expect_one_err_line "the bad file's error"
expect_err_has "profreport: ingest: 'bad.json':1:" "the bad file's error"
cp "$tmp/out" lines.out
[ "$(query_value s.db "SELECT group_concat(label, ' ') FROM run")" = "g01.json g02.json g03.json g04.json g05.json" ] ||
	fail "the good files around the bad one are not all stored"
[ "$(query_value s.db "SELECT count(*) FROM string WHERE value LIKE 'only-in-bad-%'")" = 0 ] ||
	fail "rows of the bad file are left in the store"
printf "'g0%s.json': run %s\n" 1 1 2 2 3 3 4 4 5 5 >want.prefixes
cut -d, -f1 lines.out >got.prefixes
cmp -s want.prefixes got.prefixes || { fail "report lines not one per stored file in input order"; cat lines.out >&2; }
"$P" dump events s.db >dump.grouped

# The same runs as ingesting the files one by one (one transaction each).
for f in g01 g02 g03 g04 g05; do
	"$P" ingest -q "$f.json" -o one.db || fail "setup: ingest of $f alone"
done
"$P" dump events one.db >dump.one
cmp -s dump.grouped dump.one || fail "a grouped ingest stores other rows than one file at a time"

# A duplicate within the group is found (the run of the same content earlier in
# the same transaction) and said so.
run "$P" ingest g06.json g06.json -o d.db
expect_rc 0 "the same file twice"
expect_out_has "'g06.json': already in the store as run 1" "the same file twice"
[ "$(query_value d.db "SELECT count(*) FROM run")" = 1 ] || fail "the same file twice: not one run"

# fsyncs: one commit per file syncs the journal, its directory and the store
# (4 calls each: 164 for these 40 files before groups); a group of files read
# within a second is one commit.
if command -v strace >/dev/null && strace -f -e trace=none true 2>/dev/null; then
	# (LeakSanitizer cannot run under ptrace: off for this one command)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=fsync,fdatasync -o trace.txt "$P" ingest -q g*.json -o many.db ||
		fail "ingest of 40 files under strace"
	n=$(grep -c 'sync(' trace.txt || true)
	# (one group takes 4; a slow build, under a sanitizer, may need a group a second)
	[ "$n" -lt 40 ] || fail "ingest of 40 files made $n fsync calls, expected fewer than one a file"
	[ "$(query_value many.db "SELECT count(*) FROM run")" = 40 ] || fail "ingest of 40 files: not 40 runs"
fi

finish
