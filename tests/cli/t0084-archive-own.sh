#!/bin/sh
# t0084-archive-own: issue 30 S1 and C1. Inside an archive directory every
# name is profreport's own: a planted link is never followed (it replaced the
# file outside it points to), the kept store is never a link, and a page is
# "already there" only when a complete regular page is (a 0-byte file or a
# FIFO used to count: exit 0, the index linking a broken page, forever).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

Q=$PR_SAMPLES/qeff/qeff_profile.json
"$P" ingest -q "$Q" "$TORCH" -o runs.db
echo precious >outside.txt

# S1: site/index.html and a page's name planted as links to a file outside
mkdir site
ln -s ../outside.txt site/index.html
"$P" report runs.db -o site/ -q
page=$(ls site | grep '^qeff_profile' | head -n 1)
[ -n "$page" ] || fail "setup: no qeff page in the archive"
[ "$(cat outside.txt)" = precious ] || fail "report -o site/ wrote through the planted site/index.html link"
[ -f site/index.html ] && [ ! -L site/index.html ] || fail "site/index.html is still a link"
rm "site/$page"
ln -s ../outside.txt "site/$page"
"$P" report runs.db -o site/ -q
[ "$(cat outside.txt)" = precious ] || fail "report -o site/ wrote through a page planted as a link"
[ ! -L "site/$page" ] && grep -q '</html>' "site/$page" || fail "the page planted as a link was not rewritten as a page"

# C1: a page's name taken by a 0-byte file or a FIFO is written again; a directory is an error
: >"site/$page"
run "$P" report runs.db -o site/
expect_rc 0 "a 0-byte page"
expect_err_has "1 report(s) written, 1 already there" "a 0-byte page is written again"
grep -q '</html>' "site/$page" || fail "the 0-byte page is still not a page"
rm "site/$page"
if mkfifo "site/$page" 2>/dev/null; then
	run timeout 60 "$P" report runs.db -o site/
	expect_rc 0 "a FIFO in a page's place"
	[ -f "site/$page" ] && grep -q '</html>' "site/$page" || fail "a FIFO in a page's place was not replaced by the page"
fi
rm -f "site/$page"
mkdir "site/$page"
run "$P" report runs.db -o site/
expect_rc 2 "a directory in a page's place"
expect_one_err_line "a directory in a page's place"
rmdir "site/$page"

# the kept store of a directory of traces is never a link
cp runs.db other.db
cp other.db other.before
mkdir site2
ln -s ../other.db site2/.profreport.db
run "$P" report "$Q" -o site2/
expect_rc 2 "a kept store planted as a link"
expect_err_has "not the archive's store" "a kept store planted as a link"
cmp -s other.db other.before || fail "the store a planted .profreport.db links to was changed"

finish
