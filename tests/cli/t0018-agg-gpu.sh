#!/bin/sh
# t0018-agg-gpu: the GPU temporal breakdown and comm/compute overlap per rank
# in `aggregate` on real Kineto traces (tests/data/traces, see its README):
# trace_filter/sampled_rank-{0,1} (2 real
# ranks of a 128-rank job) and nccl_parser_config/nccl_data (rank 0 of 2).
# Every per-rank number of agg.json is checked against tests/tools/gpu_ref.py
# (HTA's definitions computed the plain way over the trace JSON, no profreport
# code) and against each rank's own `summary --json`; the medians against the
# reference's shares; partial agg.json files merge to the direct aggregate.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

H=$TRACES/hta
R0=$H/trace_filter/sampled_rank-0.json.gz
R1=$H/trace_filter/sampled_rank-1.json.gz
NCCL=$H/nccl_parser_config/nccl_data.json.gz
need_trace "$R0" "$R1" "$NCCL"
REF=$PR_TESTS/tools/gpu_ref.py

run "$P" aggregate "$R0" "$R1" -o agg.json
expect_rc 0 "aggregate of the two real ranks"
expect_out_has "GPU per rank (HTA temporal breakdown" "console GPU table"
# rank 0: 210320000 / 1222847000 = 17.2 % compute, 336983000 / 1222847000 = 27.6 %
# communication, idle 675191000 / 1222847000 = 55.2 %, host wait 362945000 / 675191000
# = 53.8 % of it, overlap 59216000 / 396199000 = 14.9 % (gpu_ref.py, below)
expect_out_has "    0    1.223 s    17.2%    27.6%    0.0%   55.2%      53.8%    14.9%" "rank 0's GPU row"
expect_out_has "    1    1.231 s    22.1%    24.7%    0.4%   52.9%      52.4%    19.9%" "rank 1's GPU row"
expect_out_has "Across ranks: GPU (shares)" "GPU stats table"
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$tmp/out" || fail "console table wider than 80 columns"

for r in 0 1; do
	eval "f=\$R$r"
	/usr/bin/python3 "$REF" "$f" >"ref$r.txt" || fail "gpu_ref.py failed on rank $r"
	run "$P" summary "$f" --json "model$r.json"
	expect_rc 0 "summary of rank $r"
done

/usr/bin/python3 - agg.json ref0.txt ref1.txt model0.json model1.json >check.txt 2>&1 <<'PY' || fail "per-rank GPU numbers: $(cat check.txt)"
import ast, json, sys
agg = json.load(open(sys.argv[1]))
bad = []
def ref(path):
    out = {}
    for line in open(path):
        w = line.split(" ", 1)
        if w[0] == "rank":
            a, b = line[5:].strip().split("} {")
            out["t"] = ast.literal_eval(a + "}")
            out["i"] = ast.literal_eval("{" + b)
        elif w[0] == "overlap":
            c, o, _ = w[1].split()
            out["o"] = (int(c), int(o))
    return out
rows = {r["rank"]: r["gpu"] for r in agg["ranks"]}
shares = {}
for r in (0, 1):
    x = ref(sys.argv[2 + r])
    g = rows[r]
    m = json.load(open(sys.argv[4 + r]))["runs"][0]["gpu_breakdown"]
    want = dict(span_ns=x["t"]["span"], busy_ns=x["t"]["busy"], compute_ns=x["t"]["compute"],
                communication_ns=x["t"]["communication"], memory_ns=x["t"]["memory"],
                idle_ns=x["t"]["idle"], idle_host_wait_ns=x["i"]["host"],
                idle_kernel_wait_ns=x["i"]["kernel"], idle_other_ns=x["i"]["other"],
                overlap_communication_ns=x["o"][0], overlapped_ns=x["o"][1])
    for k, v in want.items():
        if g[k] != v:
            bad.append("rank %d %s: agg %r, gpu_ref %r" % (r, k, g[k], v))
    for k in ("span_ns", "busy_ns", "compute_ns", "communication_ns", "memory_ns", "idle_ns"):
        if g[k] != m["rank"][k]:
            bad.append("rank %d %s: agg %r, summary --json %r" % (r, k, g[k], m["rank"][k]))
    for k in ("host_wait", "kernel_wait", "other"):
        if g["idle_%s_ns" % k] != m["idle"]["%s_ns" % k]:
            bad.append("rank %d idle %s differs from summary --json" % (r, k))
    if abs(g["overlap_share"] - m["overlap"]["share"]) > 1e-11:
        bad.append("rank %d overlap share differs from summary --json" % r)
    s = dict(compute=want["compute_ns"] / want["span_ns"],
             communication=want["communication_ns"] / want["span_ns"],
             memory=want["memory_ns"] / want["span_ns"], idle=want["idle_ns"] / want["span_ns"])
    s["idle: host wait"] = want["idle_host_wait_ns"] / want["idle_ns"]
    s["comm overlapped"] = want["overlapped_ns"] / want["overlap_communication_ns"]
    for k, v in s.items():
        key = {"compute": "compute_share", "communication": "communication_share",
               "memory": "memory_share", "idle": "idle_share",
               "idle: host wait": "idle_host_wait_share", "comm overlapped": "overlap_share"}[k]
        if abs(g[key] - v) > 1e-11:
            bad.append("rank %d %s: agg %r, gpu_ref %r" % (r, key, g[key], v))
        shares.setdefault(k, []).append(v)
stats = {s["name"]: s for s in agg["stats"] if s["category"] == "gpu"}
for k, v in shares.items():
    st = stats.get(k)
    if not st or st["ranks"] != 2 or not st["median_exact"] or abs(st["median"] - sum(v) / 2) > 1e-11 \
            or abs(st["min"] - min(v)) > 1e-11 or abs(st["max"] - max(v)) > 1e-11:
        bad.append("stat %s: %r, want median %r" % (k, st and st["median"], sum(v) / 2))
if bad:
    print("; ".join(bad))
    sys.exit(1)
PY

# -- partial agg.json files merge to the direct aggregate (std and Chan's moments: last bits)
run "$P" aggregate "$R1" -q -o p1.json
expect_rc 0 "aggregate of rank 1 alone"
run "$P" aggregate "$R0" -q -o p0.json
expect_rc 0 "aggregate of rank 0 alone"
run "$P" aggregate p1.json p0.json -q -o merged.json
expect_rc 0 "aggregate of the two agg.json files"
merged_as_direct agg.json merged.json

# -- nccl_data: the README's HTA numbers, busy 23.84 %, overlap 15.6 %
run "$P" aggregate "$NCCL" -o nccl.agg.json
expect_rc 0 "aggregate of nccl_data"
/usr/bin/python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["ranks"][0]["gpu"]
assert round(g["busy_share"] * 100, 2) == 23.84, g["busy_share"]
assert round(g["overlap_share"] * 100, 1) == 15.6, g["overlap_share"]
' nccl.agg.json || fail "nccl_data: busy 23.84 % and overlap 15.6 % (README)"

finish
