#!/bin/sh
# t0047-agg-map-reduce: aggregate beyond one process (README, "10 000 ranks:
# map per node, reduce once"): 36 generated ranks in 4 node directories, the
# map step run with `xargs -P4` (one aggregate per node, in parallel), the
# partial agg.json files merged with one final aggregate, and the merge
# checked against aggregating all 36 ranks at once.
#
# What "equal" means here: every field of the two agg.json files is equal,
# byte for byte in its JSON text, except "mean" and "m2" inside each
# accumulator's "state.moments": those are Chan's running moments (for std),
# whose merge rounds in another order than a one-pass fold, so they agree to
# the last bits only (analyze/multi/aggregate.h says so); they are compared as
# numbers within a relative 1e-12 (the exact sums, sums of squares, counts,
# min/max, sketches, medians, rank rows and stragglers are all byte-equal).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=python3
command -v xargs >/dev/null || { echo "$test_name: xargs missing; skipped" >&2; exit 77; }

"$py" "$PR_SAMPLES/ranks/make_ranks.py" --ranks 36 --steps 4 --straggler 21 --out gen >/dev/null ||
	fail "setup: make_ranks.py"
n=$(find gen -name 'rank*.json' | wc -l)
[ "$n" = 36 ] || fail "setup: $n rank files, expected 36"
# rank R goes to node R % 4
for f in gen/rank*.json; do
	r=$(basename "$f" | sed 's/^rank\([0-9]*\).*/\1/')
	mkdir -p "ranks/node$((r % 4))"
	mv "$f" "ranks/node$((r % 4))/"
done

# map: one aggregate per node, 4 at a time
mkdir parts
ls -d ranks/node* | xargs -P4 -I{} sh -c '"$0" aggregate "$1" -q -o "parts/$(basename "$1").agg.json"' "$P" {} ||
	fail "map step (xargs -P4) failed"
[ "$(ls parts | wc -l)" = 4 ] || fail "map step: $(ls parts | wc -l) partial agg.json files, expected 4"
# reduce
run "$P" aggregate parts -q -o merged.json
expect_rc 0 "reduce of the partial aggregates"
# direct
run "$P" aggregate ranks -q -o direct.json
expect_rc 0 "aggregate of all ranks at once"

# every field equal; Chan's running moments to a relative 1e-12 (tests/tools/agg_equal.py)
"$py" "$PR_TESTS/tools/agg_equal.py" direct.json merged.json >cmp.txt 2>&1 ||
	{ fail "merged aggregate differs from the direct one"; cat cmp.txt >&2; }
# the merge really went through the partial files: 36 ranks, the straggler named
grep -q '"rank_count": 36,' merged.json || fail "merged aggregate does not count 36 ranks"
grep -q '"summary": "rank 21:' merged.json || fail "merged aggregate does not name rank 21 the straggler"

finish
