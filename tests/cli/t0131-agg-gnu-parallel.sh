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

ranks_by_node 48 29 6

# map: the documented command line, with the binary by its path (and --will-cite, which
# only silences parallel's citation notice)
mkdir parts
ls -d ranks/node* | parallel --will-cite -j4 "'$P' aggregate {} -q -o parts/{/}.agg.json" \
	>map.out 2>map.err || { fail "map step (GNU parallel) failed"; cat map.err >&2; }
[ "$(ls parts | wc -l)" = 6 ] || fail "map step: $(ls parts | wc -l) partial agg.json files, expected 6"
[ ! -s map.err ] || fail "map step: stderr: $(head -3 map.err)"
reduce_equals_direct 48 29

finish
