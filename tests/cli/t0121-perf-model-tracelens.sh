#!/bin/sh
# t0121-perf-model-tracelens: the perf model on TraceLens's H100 Qwen1.5 trace
# (tests/data/traces/tracelens, see its README).
# TraceLens's reference ops_summary_by_category.csv (read here, 1e-4 ms): elementwise 735 ops /
# 17.3606 ms, GEMM 169 / 9.0013, other 76 / 4.7961, reduce 50 / 0.7475: perf_model's
# tracelens_categories must match it (counts exactly, times to the ns TraceLens rounds to us).
# profreport's own categories differ where the definitions do (docs/analysis.md): the 24
# aten::_flash_attention_forward ops (TraceLens: other) are attention, 2722705 ns; the one
# aten::_local_scalar_dense (a Memcpy DtoH, TraceLens: other) is memory copy, 2368 ns.
# GEMM FLOPs, by TraceLens's formula 2*M*N*K (+ M*N for addmm's bias) over the ops' Input
# Dims (a Python pass over the trace's cpu_op events, no profreport):
#   aten::mm [[8944,1024],[1024,2816]] x48: 48 * 2*8944*2816*1024 = 2475914428416
#   aten::addmm [[1024],[8944,1024],[1024,1024]] x72: 72 * (2*8944*1024*1024 + 8944*1024)
#     = 1351158202368
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TL=$TRACES/tracelens
TRACE=$TL/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
need_trace "$TRACE" "$TL/reference/h100/ops_summary_by_category.csv"

run "$P" report "$TRACE" --json model.json --no-cache -q
expect_rc 0 "report of the H100 trace"
python3 - model.json "$TL/reference/h100/ops_summary_by_category.csv" <<'PY' >check.txt 2>&1 ||
import csv, json, sys
pm = json.load(open(sys.argv[1]))["runs"][0]["perf_model"]
bad = []
tl = {c["category"]: c for c in pm["tracelens_categories"]}
for row in csv.DictReader(open(sys.argv[2])):
    c = tl.get(row["op category"])
    if not c:
        bad.append("no TraceLens category %s" % row["op category"])
        continue
    if c["ops"] != int(row["Count"]):
        bad.append("%s: %d ops, TraceLens %s" % (row["op category"], c["ops"], row["Count"]))
    if abs(c["device_ns"] / 1e6 - float(row["total_direct_kernel_time_ms"])) > 1e-4:
        bad.append("%s: %d ns, TraceLens %s ms" % (row["op category"], c["device_ns"],
                                                   row["total_direct_kernel_time_ms"]))
if len(tl) != 4:
    bad.append("TraceLens categories: %s" % sorted(tl))
cats = {c["category"]: c for c in pm["categories"]}
if (cats["attention"]["ops"], cats["attention"]["device_ns"]) != (24, 2722705):
    bad.append("attention: %r" % cats["attention"])
if (cats["memory copy"]["ops"], cats["memory copy"]["device_ns"]) != (1, 2368):
    bad.append("memory copy: %r" % cats["memory copy"])
g = {(x["name"], x["input_dims"]): x for x in pm["groups"]}
mm = g[("aten::mm", "[[8944,1024],[1024,2816]]")]
am = g[("aten::addmm", "[[1024],[8944,1024],[1024,1024],[],[]]")]
if (mm["calls"], mm["flops"]) != (48, 2475914428416):
    bad.append("mm: %r" % mm)
if (am["calls"], am["flops"]) != (72, 1351158202368):
    bad.append("addmm: %r" % am)
if pm["device"]["model"] != "NVIDIA H100 SXM5" or pm["roofline"]["dtype"] != "bf16":
    bad.append("device %r roofline %r" % (pm["device"], pm["roofline"]))
if pm["linked_ns"] != 31905473:
    bad.append("linked_ns %d (TraceLens busy 31.905483 ms)" % pm["linked_ns"])
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
	fail "perf_model against TraceLens: $(cat check.txt)"

# agg.json: each rank's row carries its category times (rank 0 the torch sample, whose linked
# GEMM ops' kernels sum to 38.513 + 39.668 + 40.438 + 40.823 + 40.053 + 36.587 = 236.082 us by
# the same Python pass over its trace; rank 1 the H100 trace: TraceLens's GEMM 9.0013 ms).
run "$P" aggregate "$TORCH" "$TRACE" --ranks 0,1 -o agg.json
expect_rc 0 "aggregate of the torch sample and the H100 trace"
python3 - agg.json <<'PY' >check.txt 2>&1 || fail "agg.json perf rows: $(cat check.txt)"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["rank"]: r for r in d["ranks"]}
assert rows[0]["perf"]["GEMM"] == 236082, rows[0].get("perf")
assert abs(rows[1]["perf"]["GEMM"] / 1e6 - 9.0013) < 1e-4, rows[1].get("perf")
st = [s for s in d["stats"] if s["category"] == "gpu" and s["name"] == "perf: GEMM"]
assert st and st[0]["ranks"] == 2 and st[0]["max"] == rows[1]["perf"]["GEMM"], st
PY
finish
