#!/bin/sh
# t0126-op-merge: an op nested in a same-name op is merged as TensorBoard's op tree does
# (tb_plugin profiler/op_tree.py, remove_dup_nodes: an OPERATOR node whose only child is an
# OPERATOR of the same name takes that child's children and runtime calls, recursively). The
# symptom it fixes: on TensorBoard's resnet50 sample, MeanBackward1 > aten::div (Tensor, Scalar)
# > aten::div (the Tensor overload) once per step; TensorBoard counts 198 aten::div calls,
# profreport counted 204 (6 steps x 1 nested div more).
# The trace (python3 below) has 6 steps, each with that MeanBackward1 > div > div > launch
# chain, two standalone divs, a div with two children (a div and an aten::empty: not merged)
# and, in the first step, a chain of three divs (all one call): 39 aten::div spans, 8 of them
# merged. The expected op view is derived by a Python walk of TensorBoard's rule (tb.py below:
# time nesting per thread, remove_dup_nodes, fill_stats, grouped by name and Input Dims),
# never by profreport; profreport's op_view rows and gpu.ops must equal it, with and without
# record_shapes (the rows keyed by name only).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "$test_name: python3 is needed to write the trace" >&2
	exit 77
fi
cat >gen.py <<'PY'
import json, sys
out, shapes = sys.argv[1], sys.argv[2] == "1"
ev = [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}}]
ids = [0]
def op(name, ts, dur, dims):
    ids[0] += 1
    a = {"External id": ids[0]}
    if shapes and dims is not None:
        a["Input Dims"] = dims
        a["Input type"] = ["float"] * len(dims)
    ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts,
               "dur": dur, "args": a})
def launch(ts, kdur):
    c = 1000 + ids[0]
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
               "ts": ts, "dur": 5, "args": {"correlation": c, "External id": ids[0]}})
    ev.append({"ph": "X", "cat": "kernel", "name": "div_kernel", "pid": 0, "tid": 7,
               "ts": ts + 20, "dur": kdur,
               "args": {"correlation": c, "External id": ids[0], "device": 0, "stream": 7}})
for i in range(6):
    t0 = 1000 + i * 1000
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % i, "pid": 1,
               "tid": 1, "ts": t0, "dur": 900, "args": {}})
    op("MeanBackward1", t0 + 10, 100, None)
    op("aten::div", t0 + 20, 80, [[32, 2048, 7, 7], []])
    op("aten::div", t0 + 30, 50, [[32, 2048, 7, 7], []])
    launch(t0 + 40, 27)
    op("aten::div", t0 + 200, 40, [[64], [64]])
    launch(t0 + 210, 3)
    op("aten::div", t0 + 300, 40, [[64], [64]])
    launch(t0 + 310, 3)
    op("aten::div", t0 + 400, 100, [[8], []])
    op("aten::div", t0 + 410, 30, [[8], [8]])
    launch(t0 + 415, 2)
    op("aten::empty", t0 + 450, 10, [[]])
    if i == 0:
        op("aten::div", t0 + 600, 90, [[4], []])
        op("aten::div", t0 + 610, 60, [[4], [4]])
        op("aten::div", t0 + 620, 30, [[4], [4]])
        launch(t0 + 625, 4)
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(out, "w"))
PY

# TensorBoard's rule over the trace, then the comparison with profreport's model (ns = us * 1000)
cat >tb.py <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
model = json.load(open(sys.argv[2]))["runs"][0]
class N:
    def __init__(s, e):
        s.name, s.start, s.end = e["name"], e["ts"], e["ts"] + e["dur"]
        s.op = e.get("cat") == "cpu_op"
        s.dims = e["args"].get("Input Dims")
        s.ext = e["args"].get("External id")
        s.children, s.runtimes = [], []
kernels = {e["args"]["correlation"]: e["dur"] for e in ev if e.get("cat") == "kernel"}
rts = [e for e in ev if e.get("cat") == "cuda_runtime"]
nodes = sorted((N(e) for e in ev if e.get("cat") in ("cpu_op", "user_annotation")),
               key=lambda n: (n.start, -n.end))
by_ext = {n.ext: n for n in nodes if n.ext is not None}
for r in rts:  # runtimes hang off their op by External id (node_parser.py)
    by_ext[r["args"]["External id"]].runtimes.append(r)
root = N({"name": "root", "ts": -1, "dur": 10**12, "args": {}})
stack = [root]
for n in nodes:  # op_tree.py build_tree_relationship
    while not n.start < stack[-1].end:
        stack.pop()
    stack[-1].children.append(n)
    stack.append(n)
def dedup(n):  # op_tree.py remove_dup_nodes
    if len(n.children) == 1:
        c = n.children[0]
        if n.name == c.name and n.op and c.op:
            n.children, n.runtimes = c.children, c.runtimes
            dedup(n)
            return
    for c in n.children:
        dedup(c)
dedup(root)
rows = {}
def fill(n):  # node.py fill_stats, then op_agg.py by (name, input shape)
    dev_total = 0
    self_host = n.end - n.start
    for c in n.children:
        dev_total += fill(c)
        self_host -= c.end - c.start
    dev_self = 0
    for r in n.runtimes:
        self_host -= r["dur"]
        dev_self += kernels[r["args"]["correlation"]]
    dev_total += dev_self
    if n.op:
        k = (n.name, json.dumps(n.dims, separators=(",", ":")) if n.dims is not None else None)
        row = rows.setdefault(k, [0, 0, 0, 0, 0])
        for i, v in enumerate((1, n.end - n.start, self_host, dev_self, dev_total)):
            row[i] += v
    return dev_total
fill(root)
got = {}
for r in model["op_view"]["rows"]:
    got[(r["name"], r["input_dims"])] = [r["calls"], r["host_total_ns"] // 1000,
                                         r["host_self_ns"] // 1000,
                                         r.get("device_self_ns", 0) // 1000,
                                         r.get("device_total_ns", 0) // 1000]
bad = 0
for k in sorted(set(rows) | set(got), key=str):
    if rows.get(k) != got.get(k):
        print("op_view row %s: profreport %s, TensorBoard's rule %s" % (k, got.get(k), rows.get(k)))
        bad = 1
# gpu.ops: the same by name
byname = {}
for (name, _), v in rows.items():
    b = byname.setdefault(name, [0, 0, 0, 0, 0])
    for i in range(5):
        b[i] += v[i]
for it in model["gpu"]["ops"]["items"]:
    want = byname[it["name"]]
    have = [it["calls"], it["host_total_ns"] // 1000, it["host_self_ns"] // 1000,
            it["device_self_ns"] // 1000]
    if have != want[:4]:
        print("gpu.ops %s: profreport %s, TensorBoard's rule %s" % (it["name"], have, want[:4]))
        bad = 1
print("aten::div calls", byname["aten::div"][0], "merged", model["op_view"].get("merged"))
sys.exit(bad)
PY

for shapes in 1 0; do
	python3 gen.py "div$shapes.json" "$shapes"
	run "$P" report "div$shapes.json" --json "m$shapes.json" -q
	expect_rc 0 "report of the div trace (shapes $shapes)"
	run python3 tb.py "div$shapes.json" "m$shapes.json"
	expect_rc 0 "op view against TensorBoard's rule (shapes $shapes)"
	# 39 aten::div spans, 8 merged: 6 inner divs of MeanBackward1's, 2 of the chain of three
	expect_out_has "aten::div calls 31 merged 8" "31 aten::div calls (shapes $shapes)"
	[ "$rc" = 0 ] || cat "$tmp/out" >&2
done
# a chain of 20000 nested aten::div, each the only child of the one around it (op i lasts
# 2 * (20000 - i) us from i us): one call, 19999 merged, host self = the outer's 40000 us
# (nothing below the innermost); each merged op's top is found once, not by a walk per op
python3 -c '
import json
n = 20000
ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::div", "pid": 1, "tid": 1, "ts": i,
       "dur": 2 * (n - i), "args": {"Input Dims": [[i]]}} for i in range(n)]
json.dump({"traceEvents": ev}, open("deep.json", "w"))'
run "$P" report deep.json --json deep.model.json -q
expect_rc 0 "report of a 20000-deep same-name chain"
run python3 -c '
import json, sys
ov = json.load(open(sys.argv[1]))["runs"][0]["op_view"]
print(ov["merged"], ov["calls"], ov["rows"][0]["host_total_ns"], ov["rows"][0]["host_self_ns"])' \
	deep.model.json
expect_out_has "19999 1 40000000 40000000" "the deep chain is one call"
finish
