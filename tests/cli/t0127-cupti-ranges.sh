#!/bin/sh
# t0127-cupti-ranges: the CUPTI range profiler's events (Kineto's cuda_profiler_range) give
# their counters per range and per op (cupti_ranges: model, summary, page), and their time,
# the profiling span that Kineto splits evenly among the ranges (CuptiRangeProfiler.cpp: "the
# actual times do not really matter here"), is no GPU work: HTA's cupti_profiler sample showed
# its 9.35 s as compute. The trace (python3 below) has Kineto's per-kernel shape: 4 ops on the
# CPU each making one cudaLaunchKernel, no kernel events, 4 ranges on device 0 covering 9.35 s
# with three counters each. Every expected number is computed by check.py from the trace (time
# nesting for the op above each launch, HTA's pairing of ranges and launches in time order,
# HTA's FLOPs: ffma x 2 + fadd), never by profreport.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "$test_name: python3 is needed to write the trace" >&2
	exit 77
fi
cat >gen.py <<'PY'
import json, sys
out, launches = sys.argv[1], int(sys.argv[2])
SPAN = 9350000  # us
ev = [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}}]
ops = [("aten::mm", "ampere_sgemm_128x64_nn"), ("aten::add", "vectorized_elementwise_kernel"),
       ("aten::mm", "ampere_sgemm_128x64_nn"), ("aten::relu", "vectorized_elementwise_kernel")]
t = 1000
for k, (op, kern) in enumerate(ops):
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::linear" if op == "aten::mm" else op,
               "pid": 1, "tid": 1, "ts": t, "dur": 100, "args": {}})
    if op == "aten::mm":
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
                   "ts": t + 10, "dur": 80, "args": {}})
    if k < launches:
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                   "tid": 1, "ts": t + 20, "dur": 10, "args": {"correlation": 100 + k}})
    t += 200
for k, (op, kern) in enumerate(ops):
    args = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 1000 * (k + 1),
            "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 10 * (k + 1),
            "sm__inst_executed_pipe_tensor.sum": 0 if "elementwise" in kern else 5 * (k + 1)}
    ev.append({"ph": "X", "cat": "cuda_profiler_range", "name": kern, "pid": 0, "tid": 0,
               "ts": 1000 + k * (SPAN // len(ops)), "dur": SPAN // len(ops), "args": args})
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(out, "w"))
PY
cat >check.py <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
r = json.load(open(sys.argv[2]))["runs"][0]
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append("%s: profreport %r, from the trace %r" % (what, got, exp))
ranges = sorted((e for e in ev if e.get("cat") == "cuda_profiler_range"), key=lambda e: e["ts"])
calls = sorted((e for e in ev if e.get("cat") == "cuda_runtime"
                and e["name"].startswith("cudaLaunchKernel")), key=lambda e: e["ts"])
ops = [e for e in ev if e.get("cat") == "cpu_op"]
def above(c):  # the cpu ops holding the call, innermost first
    h = [o for o in ops if o["ts"] <= c["ts"] and c["ts"] + c["dur"] <= o["ts"] + o["dur"]]
    return sorted(h, key=lambda o: o["dur"])
W = {"smsp__sass_thread_inst_executed_op_%s_pred_on.sum" % o: 2 if "fma" in o else 1
     for o in ["ffma", "fmul", "fadd", "hfma", "hmul", "hadd", "dfma", "dmul", "dadd"]}
def flops(a):
    return sum(W[k] * v for k, v in a.items() if k in W)
cr = r.get("cupti_ranges") or {}
linked = len(calls) == len(ranges)
want("ranges", cr.get("ranges"), len(ranges))
want("launches", cr.get("launches"), len(calls))
want("linked", cr.get("linked"), len(ranges) if linked else 0)
want("replay_ns", cr.get("replay_ns"), sum(e["dur"] for e in ranges) * 1000)
want("flops", cr.get("flops"), sum(flops(e["args"]) for e in ranges))
tot = {}
for e in ranges:
    for k, v in e["args"].items():
        tot[k] = tot.get(k, 0) + v
want("counters", cr.get("counters"), [{"name": k, "total": tot[k]} for k in sorted(tot)])
byop = {}
for i, e in enumerate(ranges):
    h = above(calls[i]) if linked else []
    it = cr["items"][i]
    want("range %d op" % i, (it["name"], it["op"], it["top_op"]),
         (e["name"], h[0]["name"] if h else None, h[-1]["name"] if h else None))
    want("range %d counters" % i, it["counters"], e["args"])
    want("range %d flops" % i, it["flops"], flops(e["args"]))
    b = byop.setdefault(h[0]["name"] if h else "(no op)", [0, 0])
    b[0] += 1
    b[1] += flops(e["args"])
want("by_op", [(o["op"], o["ranges"], o["flops"]) for o in cr.get("by_op", [])],
     sorted(((k, v[0], v[1]) for k, v in byop.items()), key=lambda x: (-x[2], -x[1], x[0])))
# the ranges' time is no GPU work: no kernel, no busy time, no step breakdown
for key in ("gpu", "gpu_breakdown", "step_breakdown", "kernel_view"):
    want("section %s" % key, key in r, False)
want("bottlenecks.gpu_kernels", "gpu_kernels" in r.get("bottlenecks", {}), False)
want("a range in the spans' table", any(s["kind"] == "profiler_range"
                                        for s in r.get("spans", {}).get("items", [])), False)
print("\n".join(bad) if bad else "ok %d ranges, flops %s" % (len(ranges), cr.get("flops")))
sys.exit(1 if bad else 0)
PY

for n in 4 3; do
	python3 gen.py "r$n.json" "$n"
	run "$P" report "r$n.json" --json "m$n.json" -o "r$n.html" -q
	expect_rc 0 "report of the range trace with $n launches"
	run python3 check.py "r$n.json" "m$n.json"
	expect_rc 0 "cupti_ranges against the trace ($n launches for 4 ranges)"
	[ "$rc" = 0 ] || cat "$tmp/out" >&2
done
# 4 ranges, ffma 1000..4000 x 2 + fadd 10..40: 2 x 10000 + 100 = 20100 FLOPs
run python3 check.py r4.json m4.json
expect_out_has "ok 4 ranges, flops 20100" "HTA's FLOPs"
grep -q "<h4>CUPTI range profiler: counters per op</h4>" r4.html || fail "the page lacks the table"
grep -q "<td>aten::mm</td>" r4.html || fail "the page's table lacks aten::mm"
run "$P" summary r4.json
expect_rc 0 "summary of the range trace"
expect_out_has "4 ranges, 4 of them linked to their cudaLaunchKernel call (of 4)" "summary: ranges"
expect_out_has "replay 9.350 s: kept out of GPU time and utilisation" "summary: replay"
expect_out_has "FLOPs (HTA's SASS instruction counters, FMA x 2) 20100" "summary: FLOPs"
if grep -q "^GPU" "$tmp/out"; then
	fail "summary of a range-profiler trace has a GPU block (the ranges are no GPU work)"
fi
# the model keeps to its schema (python3-jsonschema where installed)
if python3 -c 'import jsonschema' 2>/dev/null; then
	run python3 "$PR_TESTS/tools/schema_check.py" "$PR_TESTS/../docs/schema/model.schema.json" \
		m4.json m3.json
	expect_rc 0 "the range models against docs/schema/model.schema.json"
	[ "$rc" = 0 ] || cat "$tmp/out" >&2
fi
finish
