#!/bin/sh
# t0131-agg-gnu-parallel: the many-rank recipe of docs/aggregate.md ("10 000
# ranks: map per node, reduce once") run with GNU parallel, as documented:
# 48 generated ranks in 6 node directories, the map step one `aggregate`
# per node directory by `parallel -j4`, the reduce one `aggregate` of the
# partial agg.json files, and the merge checked against aggregating the 48
# ranks at once field by field (tests/tools/agg_equal.py: every field equal,
# Chan's running moments within 1e-12 relative, as t0047 checks xargs -P).
# Skipped (77) where GNU parallel is not installed (.ci/run installs it).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! command -v parallel >/dev/null 2>&1 || ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	echo "$test_name: GNU parallel missing (apt-get install parallel); skipped" >&2
	exit 77
fi

"$py" "$PR_SAMPLES/ranks/make_ranks.py" --ranks 48 --steps 4 --straggler 29 --out gen >/dev/null ||
	fail "setup: make_ranks.py"
n=$(find gen -name 'rank*.json' | wc -l)
[ "$n" = 48 ] || fail "setup: $n rank files, expected 48"
# rank R goes to node R % 6
for f in gen/rank*.json; do
	r=$(basename "$f" | sed 's/^rank\([0-9]*\).*/\1/')
	mkdir -p "ranks/node$((r % 6))"
	mv "$f" "ranks/node$((r % 6))/"
done

# map: the documented command line, with the binary by its path (and --will-cite, which
# only silences parallel's citation notice)
mkdir parts
ls -d ranks/node* | parallel --will-cite -j4 "'$P' aggregate {} -q -o parts/{/}.agg.json" \
	>map.out 2>map.err || { fail "map step (GNU parallel) failed"; cat map.err >&2; }
[ "$(ls parts | wc -l)" = 6 ] || fail "map step: $(ls parts | wc -l) partial agg.json files, expected 6"
[ ! -s map.err ] || fail "map step: stderr: $(head -3 map.err)"
# reduce
run "$P" aggregate parts -q -o merged.json
expect_rc 0 "reduce of the partial aggregates"
# direct
run "$P" aggregate ranks -q -o direct.json
expect_rc 0 "aggregate of all ranks at once"
"$py" "$PR_TESTS/tools/agg_equal.py" direct.json merged.json >cmp.txt 2>&1 ||
	{ fail "merged aggregate differs from the direct one"; cat cmp.txt >&2; }
# the merge really went through the partial files: 48 ranks, the straggler named
grep -q '"rank_count": 48,' merged.json || fail "merged aggregate does not count 48 ranks"
grep -q '"summary": "rank 29:' merged.json || fail "merged aggregate does not name rank 29 the straggler"

finish
