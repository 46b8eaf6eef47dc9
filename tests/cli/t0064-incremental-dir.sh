#!/bin/sh
# t0064-incremental-dir: `report DIR -o site/` keeps its store as site/.profreport.db
# (docs/report.md, "Archives"): a second call ingests nothing and writes no page (the
# store's runs and their ids unchanged), a changed file is ingested and gets its page, a
# removed file's run leaves the index; a store given as INPUT is used as it is.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

mkdir in
cp "$PR_SAMPLES"/ddp/named/rank0.*.pt.trace.json in/a.pt.trace.json
cp "$PR_SAMPLES"/ddp/named/rank1.*.pt.trace.json in/b.pt.trace.json
cp "$PR_SAMPLES/psutil/process_log.csv" in/c.csv
cp "$PR_SAMPLES/psutil/process_log.csv" in/c-copy.csv # the same content: one run
printf 'not a trace\n' >in/notes.txt

run "$P" report in -o site/
expect_rc 0 "first call"
expect_err_has "profreport: report: 3 file(s) ingested, 0 already in 'site/.profreport.db' (same content hash): 3 run(s)" "first call: ingested"
expect_err_has "3 report(s) written, 0 already there" "first call: pages"
[ -f site/.profreport.db ] || fail "first call: no site/.profreport.db"
ids1=$(query_value site/.profreport.db "SELECT group_concat(id || ':' || content_hash, ' ') FROM run")
[ -n "$ids1" ] && [ "$(query_value site/.profreport.db "SELECT count(*) FROM run")" = 3 ] ||
	fail "first call: the store has not 3 runs"

run "$P" report in -o site/
expect_rc 0 "second call"
expect_err_has "profreport: report: 0 file(s) ingested, 4 already in 'site/.profreport.db' (same content hash): 3 run(s)" "second call: nothing ingested"
expect_err_has "0 report(s) written, 3 already there" "second call: no page written"
ids2=$(query_value site/.profreport.db "SELECT group_concat(id || ':' || content_hash, ' ') FROM run")
[ "$ids1" = "$ids2" ] || fail "second call: the store's runs changed ($ids1 -> $ids2)"
n=$(grep -c '<tr id="row-' site/index.html)
[ "$n" = 3 ] || fail "second call: the index has $n rows, expected 3"

# b changes (another rank's trace), the copy of c goes, c stays
cp "$PR_SAMPLES"/ddp/named/rank2.*.pt.trace.json in/b.pt.trace.json
rm in/c-copy.csv
run "$P" report in -o site/
expect_rc 0 "third call"
expect_err_has "profreport: report: 1 file(s) ingested, 2 already in 'site/.profreport.db' (same content hash): 3 run(s)" "third call: the changed file ingested"
expect_err_has "1 report(s) written, 2 already there" "third call: its page written"
hash=$(query_value site/.profreport.db "SELECT substr(content_hash, 1, 12) FROM run WHERE id = 4")
grep -q "href=\"b.pt.trace.json-$hash.html\"" site/index.html || fail "third call: the index lacks b's new page"
[ -f "site/b.pt.trace.json-$hash.html" ] || fail "third call: b's new page is missing"
old=$(query_value site/.profreport.db "SELECT substr(content_hash, 1, 12) FROM run WHERE id = 2")
if grep -q "b.pt.trace.json-$old.html" site/index.html; then fail "third call: the index still links b's old page"; fi

# a removed file leaves the index
rm in/c.csv
run "$P" report in -o site/
expect_rc 0 "fourth call"
expect_err_has "0 file(s) ingested, 2 already in 'site/.profreport.db' (same content hash): 2 run(s)" "fourth call"
if grep -q '>c.csv<' site/index.html; then fail "fourth call: the removed c.csv is still in the index"; fi
n=$(grep -c '<tr id="row-' site/index.html)
[ "$n" = 2 ] || fail "fourth call: the index has $n rows, expected 2"

# a store as INPUT: no kept store, no such line
"$P" ingest -q in -o s.db || fail "setup: ingest into s.db"
run "$P" report s.db -o site2/
expect_rc 0 "a store"
[ ! -e site2/.profreport.db ] || fail "a store: site2/.profreport.db was made"
if grep -q "already in" "$tmp/err"; then fail "a store: the kept store's line was printed"; fi

finish
