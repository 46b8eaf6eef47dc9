#!/bin/sh
# t0050-format-registry: every format in the registry (`profreport formats`,
# from ingest/formats.def) has what the house rules ask of a format, so a
# format added without them fails here:
#  - a sample in samples/ that ingest detects as that format (by content:
#    the whole folder is ingested and the store says each run's format);
#  - a golden case of that format: an ingest dump (tests/golden/ingest/*/
#    expected.dump, its `run format=` line) or a model (tests/golden/analyze/
#    */expected.model.json, its "format" key);
#  - a fuzz corpus (tests/fuzz/corpus/<name, - as _>/, not empty; the fuzz
#    target itself is derived from the registry by tests/fuzz.cmake);
#  - a section in docs/formats.md: a "## " heading naming it in backquotes.
# The list is not hard-coded: a registry of N formats is checked N times,
# and the count is checked against formats.def to catch an empty listing.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

top=$PR_TESTS/..
run "$P" formats
expect_rc 0 "profreport formats"
awk '{ print $1 }' "$tmp/out" >formats
n=$(wc -l <formats)
[ "$n" -eq "$(grep -c '^PR_FORMAT(' "$top/ingest/formats.def")" ] ||
	fail "profreport formats lists $n formats, ingest/formats.def $(grep -c '^PR_FORMAT(' "$top/ingest/formats.def")"

run "$P" ingest -q "$PR_SAMPLES" -o samples.db
expect_rc 0 "ingest of samples/"
"$P" query samples.db "select distinct format from run" | sed 1d >sample_formats

{
	cat "$top"/tests/golden/ingest/*/expected.dump | sed -n 's/^run format="\([^"]*\)".*/\1/p'
	cat "$top"/tests/golden/analyze/*/expected.model.json | sed -n 's/.*"format": *"\([^"]*\)".*/\1/p'
} | sort -u >golden_formats

while read -r f; do
	grep -qx "$f" sample_formats || fail "format $f: no sample in samples/ is read as $f"
	grep -qx "$f" golden_formats || fail "format $f: no golden case (ingest dump or analyze model) reads as $f"
	c=$top/tests/fuzz/corpus/$(echo "$f" | tr - _)
	[ -n "$(ls -A "$c" 2>/dev/null)" ] || fail "format $f: no fuzz corpus in $c"
	grep -q "^## .*\`$f\`" "$top/docs/formats.md" || fail "format $f: no section in docs/formats.md (## ... \`$f\` ...)"
done <formats
[ "$n" -ge 20 ] || fail "only $n formats listed: the loop above checked too little"
finish
