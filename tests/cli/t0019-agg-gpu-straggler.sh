#!/bin/sh
# t0019-agg-gpu-straggler: the GPU-idle straggler rule of `aggregate` on the
# generated set of samples/gpuranks/make_gpuranks.py (4 ranks, 6 steps): rank
# 1's host is slow before every launch, so its GPU idles waiting for it while
# the other ranks' GPUs sit in the all-reduce. The rule must name rank 1 with
# its idle share against the median and its host-wait share, which are
# derived here by tests/tools/gpu_ref.py from the trace JSON alone; on the
# balanced set (--straggler -1) it must name nobody; a map/reduce over
# partial agg.json files names the same rank.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v /usr/bin/python3 >/dev/null 2>&1; then
	echo "t0019-agg-gpu-straggler: skipped (no /usr/bin/python3 for the generator)"
	exit 77
fi
GEN=$PR_SAMPLES/gpuranks/make_gpuranks.py
REF=$PR_TESTS/tools/gpu_ref.py
/usr/bin/python3 "$GEN" --out slow || fail "generator (straggler set)"
/usr/bin/python3 "$GEN" --out even --straggler -1 || fail "generator (balanced set)"

run "$P" aggregate slow -o slow.json
expect_rc 0 "aggregate of the straggler set"
# idle shares from gpu_ref.py: rank 1 40.1 %, the others 2.7 % (median 2.7 %); all of it host wait
expect_out_has "    1 193.103 ms    50.0%     9.3%    0.6%   40.1%     100.0%     0.0%" "rank 1's GPU row"
expect_out_has "    GPU idle 40 % vs a median of 3 %, 100 % of it host wait" "rank 1 named by its GPU idle"
if grep -Eq '^  rank [023]' "$tmp/out"; then
	fail "a rank other than 1 is named as a straggler"
	show
fi
for r in 0 1 2 3; do
	/usr/bin/python3 "$REF" "slow/rank$r.pt.trace.json" >"ref$r.txt" || fail "gpu_ref.py on rank $r"
done
/usr/bin/python3 - slow.json ref0.txt ref1.txt ref2.txt ref3.txt >check.txt 2>&1 <<'PY' || fail "GPU idle evidence: $(cat check.txt)"
import ast, json, statistics, sys
agg = json.load(open(sys.argv[1]))
idle, hw = [], []
for p in sys.argv[2:]:
    for line in open(p):
        if line.startswith("rank "):
            a, b = line[5:].strip().split("} {")
            t, i = ast.literal_eval(a + "}"), ast.literal_eval("{" + b)
            idle.append(t["idle"] / t["span"])
            hw.append(i["host"] / t["idle"])
med = statistics.median(idle)
named = [r for r in agg["stragglers"]["ranks"] if r["rank"] == 1]
assert len(agg["stragglers"]["ranks"]) == 1 and named, agg["stragglers"]["ranks"]
ev = [e for e in named[0]["evidence"] if e["what"] == "gpu idle"]
assert len(ev) == 1, named[0]["evidence"]
e = ev[0]
assert abs(e["value"] - idle[1]) < 1e-11, (e["value"], idle[1])
assert abs(e["median"] - med) < 1e-11, (e["median"], med)
assert abs(e["ratio"] - idle[1] / med) < 1e-9, (e["ratio"], idle[1] / med)
assert abs(e["host_wait_share"] - hw[1]) < 1e-11, (e["host_wait_share"], hw[1])
chk = [c for c in agg["stragglers"]["checks"] if c["what"] == "gpu idle"][0]
assert [o["rank"] for o in chk["outliers"]] == [1], chk
assert chk["min_excess"] == 0.05 and chk["host_wait_min"] == 0.5, chk
PY

run "$P" aggregate even -o even.json
expect_rc 0 "aggregate of the balanced set"
expect_out_has "  none: no rank stands out in any stage, collective, step time or GPU idle" "nobody named on the balanced set"
grep -q '"what": "gpu idle"' even.json || fail "the balanced set has no GPU idle check record"

# -- map/reduce: the same straggler from partial agg.json files
run "$P" aggregate slow/rank0.pt.trace.json slow/rank1.pt.trace.json -q -o part1.json
expect_rc 0 "aggregate of ranks 0-1"
run "$P" aggregate slow/rank2.pt.trace.json slow/rank3.pt.trace.json -q -o part2.json
expect_rc 0 "aggregate of ranks 2-3"
run "$P" aggregate part2.json part1.json -o merged.json
expect_rc 0 "aggregate of the agg.json files"
expect_out_has "    GPU idle 40 % vs a median of 3 %, 100 % of it host wait" "the merged aggregate names rank 1"
merged_as_direct slow.json merged.json

# -- the HTML page shows the GPU breakdown
run "$P" aggregate slow -q --html slow.html --png png
expect_rc 0 "aggregate --html --png"
grep -q 'GPU idle 40 % vs a median of 3 %' slow.html || fail "the page lacks the GPU idle evidence"
grep -q '<h3>GPU per rank</h3>' slow.html || fail "the page lacks the GPU per rank table"
grep -q '>40.1%</td>' slow.html || fail "the page lacks rank 1's idle share"
grep -q 'host wait 100.0% of its idle time' slow.html || fail "the page lacks the host-wait evidence"
[ -s png/gpu_breakdown.png ] || fail "no gpu_breakdown panel"
# a CPU-only job (samples/ddp/named, gloo on CPU): no GPU row, stat, check outlier or panel
run "$P" aggregate "$PR_SAMPLES/ddp/named" -q --png cpu -o cpu.json
expect_rc 0 "aggregate of a CPU-only job"
[ "$(grep -c '"gpu": null' cpu.json)" = 4 ] || fail "CPU-only ranks have a GPU row"
grep -q '"category": "gpu"' cpu.json && fail "a CPU-only job has GPU stats"
[ ! -e cpu/gpu_breakdown.png ] || fail "a CPU-only job has a GPU panel"

finish
