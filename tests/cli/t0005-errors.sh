#!/bin/sh
# t0005-errors: input and store errors. Each prints exactly one line,
# "profreport: CMD: 'FILE'[:LINE:COL]: message", nothing on stdout, and
# exits 2 (STYLE.md rules 9 and 10).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"


"$P" ingest -q "$TORCH" -o st.db || fail "setup: ingest of the torch sample failed"
mkdir adir

# -- a file that does not exist
run "$P" ingest nope.json -o new.db
expect_error "profreport: ingest: 'nope.json': cannot open: " "ingest of a missing file"
run "$P" summary nope.json
expect_error "profreport: summary: 'nope.json': cannot open: " "summary of a missing file"
run "$P" query nope.db "SELECT 1"
expect_error "profreport: query: 'nope.db': " "query of a missing store"
run "$P" dump events nope.db
expect_error "profreport: dump: 'nope.db': " "dump of a missing store"
[ ! -e nope.db ] || fail "query/dump of a missing store created it"

# -- a directory where a store is expected
run "$P" query adir "SELECT 1"
expect_error "profreport: query: 'adir': is a directory" "query of a directory"
run "$P" dump events adir
expect_error "profreport: dump: 'adir': is a directory" "dump of a directory"
run "$P" ingest "$TORCH" -o adir
expect_error "profreport: ingest: 'adir': is a directory" "ingest into a directory"
[ -z "$(ls adir)" ] || fail "ingest into a directory wrote into it"

# -- a file that is not a store, given to query and dump
echo "plain text" >notes.txt
for f in "$VIZ" notes.txt; do
	run "$P" query "$f" "SELECT 1"
	expect_error "profreport: query: '$f': not a profreport store" "query of a non-store '$f'"
	run "$P" dump events "$f"
	expect_error "profreport: dump: '$f': not a profreport store" "dump of a non-store '$f'"
done
cp "$VIZ" trace-copy.json
run "$P" ingest "$TORCH" -o trace-copy.json
expect_error "profreport: ingest: 'trace-copy.json': not a profreport store" "ingest into a trace file"
cmp -s "$VIZ" trace-copy.json || fail "ingest into a non-store file modified it"
run "$P" dump what st.db
expect_error "profreport: dump: unknown dump 'what'" "dump of an unknown kind"

# -- malformed traces: the error names the file, line and column
printf '{\n  "traceEvents": [\n    {"name": "a", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 1},\n    {"name": "b" "ph": "X"}\n  ]\n}\n' >syntax.json
run "$P" ingest syntax.json -o st.db
expect_error "profreport: ingest: 'syntax.json':4:18: ',' or '}' expected in object" "syntax error position"
run "$P" summary syntax.json
expect_error "profreport: summary: 'syntax.json':4:18: " "summary: syntax error position"
printf '[1,]' >comma.json
run "$P" ingest comma.json -o st.db
expect_error "profreport: ingest: 'comma.json':1:4: " "'[1,]'"
printf '{"traceEvents": [\n  ' >cut.json
run "$P" ingest cut.json -o st.db
expect_error "profreport: ingest: 'cut.json':2:3: " "a trace cut before its first event"
printf '[{"ph": "X", "ts": 1}] [' >after.json
run "$P" ingest after.json -o st.db
expect_error "profreport: ingest: 'after.json':1:24: unexpected data after the JSON value" "data after the trace"
printf '\n\n   {"traceEvents": [], "x": nul}' >literal.json
run "$P" ingest literal.json -o st.db
expect_error "profreport: ingest: 'literal.json':3:29: invalid literal" "a bad literal"
: >empty.json
run "$P" ingest empty.json -o st.db
expect_error "profreport: ingest: 'empty.json': empty file" "an empty file"
printf '{"traceEvents": [' | gzip -n >cut.json.gz
run "$P" ingest cut.json.gz -o st.db
expect_error "profreport: ingest: 'cut.json.gz':1:18: " "a gzip trace cut before its first event (position in the decompressed text)"
run "$P" ingest --format nosuch "$VIZ" -o st.db
expect_error "profreport: ingest: '$VIZ': unknown format 'nosuch'" "an unknown --format"

# -- none of the failures above touched the store
[ "$(query_value st.db "SELECT count(*) FROM run")" = 1 ] || fail "failed ingests changed the store"

finish
