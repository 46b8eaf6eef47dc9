#!/bin/sh
# t0140-agg-critpath: agg.json's per-rank critical path and the straggler check
# on its shares. The set of samples/gpuranks/make_gpuranks.py --ops (6 ranks,
# 6 steps): rank 1's host does 1500 us of CPU work (aten::host_work ops) before
# each launch, every rank ends its step in cudaDeviceSynchronize. By
# construction rank 1's critical path runs through its host work (cpu_op), the
# others' through their kernels and the all-reduce (no cpu_op op at all). The
# numbers are derived here by a short Python over the trace JSON (the sums of
# the aten::host_work and ProfilerStep durations), not by profreport.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v /usr/bin/python3 >/dev/null 2>&1; then
	echo "t0140-agg-critpath: skipped (no /usr/bin/python3 for the generator)"
	exit 77
fi
GEN=$PR_SAMPLES/gpuranks/make_gpuranks.py
/usr/bin/python3 "$GEN" --ops --ranks 6 --out slow || fail "generator (straggler set)"
/usr/bin/python3 "$GEN" --ops --ranks 6 --straggler -1 --out even || fail "generator (balanced set)"

run "$P" aggregate slow -o slow.json
expect_rc 0 "aggregate of the straggler set"
expect_out_has "    critical path 37 % cpu_op vs a median of 0 %" "rank 1 named by its critical path"
expect_out_has "      37.1% of its critical path vs median 0.0%, MAD 0.0 points, z = 4.8" \
	"the critical-path evidence"
if grep -Eq '^  rank [02345]' "$tmp/out"; then
	fail "a rank other than 1 is named as a straggler"
	show
fi
# DERIVATION: per rank, cpu_op ns on the path = the sum of its aten::host_work durations (the
# only CPU ops; nothing else runs on the host thread while they do), the path's length = the
# sum of the ProfilerStep durations (every activity and the sync end inside the step span);
# z of a lone non-zero share among zeros (MAD 0: the meanAD fallback x / (1.253314 meanAD)) =
# 6 / 1.253314 = 4.787
/usr/bin/python3 - slow.json slow >check.txt 2>&1 <<'PY' || fail "critical path rows: $(cat check.txt)"
import json, os, sys
agg = json.load(open(sys.argv[1]))
rows = {r["rank"]: r for r in agg["ranks"]}
shares = {}
for r in range(6):
    evs = json.load(open(os.path.join(sys.argv[2], "rank%d.pt.trace.json" % r)))["traceEvents"]
    ns = lambda e: round(float(e["dur"]) * 1000)
    work = sum(ns(e) for e in evs if e.get("name") == "aten::host_work")
    length = sum(ns(e) for e in evs if e.get("name", "").startswith("ProfilerStep#"))
    cp = rows[r]["critical_path"]
    assert cp["length_ns"] == length, (r, cp["length_ns"], length)
    assert cp["composition_ns"]["cpu_op"] == work, (r, cp["composition_ns"], work)
    assert sum(cp["composition_ns"].values()) == length, (r, cp)
    assert cp["steps_analysed"] == 6, cp
    shares[r] = work / length
assert shares[1] > 0.3 and all(shares[r] == 0 for r in (0, 2, 3, 4, 5)), shares
named = [s for s in agg["stragglers"]["ranks"]]
assert [s["rank"] for s in named] == [1], named
ev = [e for e in named[0]["evidence"] if e["what"] == "critical path" and e["name"] == "cpu_op"]
assert len(ev) == 1, named[0]["evidence"]
assert abs(ev[0]["value"] - shares[1]) < 1e-9 and ev[0]["median"] == 0, ev[0]
assert abs(ev[0]["z"] - shares[1] / (1.253314 * shares[1] / 6)) < 1e-6, ev[0]
chk = {c["name"]: c for c in agg["stragglers"]["checks"] if c["what"] == "critical path"}
assert sorted(chk) == ["cpu_op", "idle", "sync"], chk
assert [o["rank"] for o in chk["cpu_op"]["outliers"]] == [1], chk["cpu_op"]
assert chk["cpu_op"]["min_excess"] == 0.05, chk["cpu_op"]
st = {s["name"]: s for s in agg["stats"] if s["category"] == "gpu"}
assert abs(st["critical path: cpu_op"]["max"] - shares[1]) < 1e-9, st["critical path: cpu_op"]
assert st["critical path: cpu_op"]["argmax"] == 1, st["critical path: cpu_op"]
PY

run "$P" aggregate even -o even.json
expect_rc 0 "aggregate of the balanced set"
expect_out_has "  none: no rank stands out" "nobody named on the balanced set"
grep -q '"what": "critical path"' even.json || fail "the balanced set has no critical path check"

# -- map/reduce: the same rows and straggler from partial agg.json files
run "$P" aggregate slow/rank0.pt.trace.json slow/rank1.pt.trace.json slow/rank2.pt.trace.json \
	-q -o part1.json
expect_rc 0 "aggregate of ranks 0-2"
run "$P" aggregate slow/rank3.pt.trace.json slow/rank4.pt.trace.json slow/rank5.pt.trace.json \
	-q -o part2.json
expect_rc 0 "aggregate of ranks 3-5"
run "$P" aggregate part2.json part1.json -o merged.json
expect_rc 0 "aggregate of the agg.json files"
expect_out_has "    critical path 37 % cpu_op vs a median of 0 %" "the merged aggregate names rank 1"
merged_as_direct slow.json merged.json

# -- the page shows the evidence as shares
run "$P" aggregate slow -q --html slow.html
expect_rc 0 "aggregate --html"
grep -q 'critical path 37 % cpu_op vs a median of 0 %' slow.html || fail "the page lacks the evidence"
grep -q '37.1%' slow.html || fail "the page lacks rank 1's critical-path share"

# -- perf-model categories: 6 copies of tests/data/perfmodel/tiny.json (its aten::mm launches one
# 2 us GEMM kernel: t0120), rank 3's GEMM kernel 5x longer (10 us): by construction rank 3's GEMM
# time is 10 us against a median of 2 us (z = 6 / 1.253314 as above), 8 us above it, past 1 % of the
# median run duration; no other category differs, so no other evidence
/usr/bin/python3 - "$PR_TESTS/data/perfmodel/tiny.json" perf <<'PY' || fail "making the perf ranks"
import json, os, sys
os.makedirs(sys.argv[2], exist_ok=True)
for r in range(6):
    d = json.load(open(sys.argv[1]))
    for e in d["traceEvents"]:
        if r == 3 and e.get("name", "").startswith("ampere_bf16_s16816gemm"):
            e["dur"] = e["dur"] * 5
    d["distributedInfo"] = {"rank": r, "world_size": 6}
    json.dump(d, open(os.path.join(sys.argv[2], "rank%d.pt.trace.json" % r), "w"))
PY
run "$P" aggregate perf -o perf.json
expect_rc 0 "aggregate of the perf ranks"
expect_out_has "  rank 3: perf: GEMM 5.00x the median" "rank 3 named by its GEMM time"
expect_out_has "      10.000 us vs median 2.000 us (5.00x), MAD 0 ns, z = 4.8" "the GEMM evidence"
/usr/bin/python3 - perf.json >check.txt 2>&1 <<'PY' || fail "perf check: $(cat check.txt)"
import json, sys
a = json.load(open(sys.argv[1]))
named = a["stragglers"]["ranks"]
assert [s["rank"] for s in named] == [3], named
ev = named[0]["evidence"]
assert [(e["what"], e["name"]) for e in ev] == [("perf category", "GEMM")], ev
assert ev[0]["value"] == 10000 and ev[0]["median"] == 2000, ev
PY

finish
