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

ranks_by_node 36 21 4

# map: one aggregate per node, 4 at a time
mkdir parts
ls -d ranks/node* | xargs -P4 -I{} sh -c '"$0" aggregate "$1" -q -o "parts/$(basename "$1").agg.json"' "$P" {} ||
	fail "map step (xargs -P4) failed"
[ "$(ls parts | wc -l)" = 4 ] || fail "map step: $(ls parts | wc -l) partial agg.json files, expected 4"
reduce_equals_direct 36 21

finish
