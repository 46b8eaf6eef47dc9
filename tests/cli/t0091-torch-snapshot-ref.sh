#!/bin/sh
# t0091-torch-snapshot-ref: the numbers the torch-snapshot reader stores (its reported metrics:
# allocator bytes per device and pool, blocks by state, free bytes, largest free block, external
# fragmentation, the allocated peak and its sites, the OOM) against tests/tools/snapshot_ref.py,
# which derives them in plain Python from the pickle. On both samples and, when ../shared/traces
# is there, the real snapshot torch_snapshot/eor.pickle (no license, so never vendored in
# tests/data/traces: skipped without ../shared, after the samples, and it says so).
# Then the same numbers through summary, compare (the peak, both fragmentations, the sites) and
# aggregate (per rank).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ref=$PR_TESTS/tools/snapshot_ref.py
real=${PR_SHARED:-../shared}/traces/torch_snapshot/eor.pickle
case $real in
/*) ;;
*) real=$PR_TESTS/../$real ;;
esac
n=0
for f in "$PR_SAMPLES/torch_snapshot/snapshot.pickle" "$PR_SAMPLES/torch_snapshot/notime-2dev.pickle" \
	"$real"; do
	[ -f "$f" ] || { echo "t0091-torch-snapshot-ref: $f is missing, not checked"; continue; }
	n=$((n + 1))
	run "$P" ingest "$f" -o "s$n.db" -q
	expect_rc 0 "ingest of $(basename "$f")"
	"$P" query "s$n.db" "SELECT name, value FROM metric ORDER BY id" >"m$n.tsv"
	if ! /usr/bin/python3 "$ref" "$f" --check "m$n.tsv" >"c$n.txt" 2>&1; then
		cat "c$n.txt" >&2
		fail "the numbers of $(basename "$f") differ from snapshot_ref.py"
	fi
	[ "$(query_value "s$n.db" "SELECT count(*) FROM diag")" = 0 ] ||
		fail "$(basename "$f"): diagnostics on a well-formed snapshot"
done
[ "$n" -ge 2 ] || fail "the samples were not checked"

# the real snapshot's headline numbers, by hand from snapshot_ref.py's output
if [ -f "$real" ]; then
	run "$P" summary "$real"
	expect_rc 0 "summary of eor.pickle"
	expect_out_has "reserved 128.00 MiB, allocated 46.50 MiB" "the segments' totals (134217728 and 48760832)"
	expect_out_has "fragmentation 75.5%" "1 - 20971520 / 85456896 = 0.7546"
	expect_out_has "allocated peak 103.25 MiB" "the replayed peak 108270580"
	expect_out_has "backward:PowBackward0" "the autograd thread's allocations named by their node"
fi

# compare: the peak, the fragmentation and the sites come through
run "$P" compare "$PR_SAMPLES/torch_snapshot/snapshot.pickle" "$PR_SAMPLES/torch_snapshot/snapshot.pickle" \
	--to json -o cmp.json
expect_rc 0 "compare of a snapshot with itself"
for k in 'peak:dev.mem.allocated' 'fragmentation' 'torch_snapshot.cuda:0.external_fragmentation' \
	'torch_snapshot.cuda:0.peak.site.train.py:32:forward'; do
	grep -qF "$k" cmp.json || fail "compare --to json lacks $k"
done
grep -q '"id": "external_fragmentation"' cmp.json ||
	fail "compare: no external_fragmentation metric (1 - 8388608 / 18873856 on each side)"
# aggregate: one rank per snapshot, its peak and reported numbers folded
run "$P" aggregate "$PR_SAMPLES/torch_snapshot/snapshot.pickle" "$PR_SAMPLES/torch_snapshot/notime-2dev.pickle" \
	-q -o agg.json
expect_rc 0 "aggregate of the two samples"
/usr/bin/python3 - agg.json <<'PY' || fail "aggregate: the per-rank snapshot numbers"
import json, sys
a = json.load(open(sys.argv[1]))
st = {(s["category"], s["kind"], s["name"]): s for s in a["stats"]}
p = st[("peak", "cuda:0", "dev.mem.allocated")]
# snapshot.pickle's peak 31458304 (30 MiB + 1024), notime-2dev's cuda:0 12582912 (4 + 8 MiB)
assert p["ranks"] == 2 and p["max"] == 31458304 and p["min"] == 12582912, p
f = [s for k, s in st.items() if k[2] == "torch_snapshot.cuda:0.external_fragmentation"][0]
assert f["ranks"] == 2 and abs(f["max"] - (1 - 8388608 / 18873856)) < 1e-9, f
PY
if [ ! -f "$real" ] && [ "$failures" -eq 0 ]; then
	echo "t0091-torch-snapshot-ref: the samples hold; $real is missing: skipped"
	exit 77
fi
finish
