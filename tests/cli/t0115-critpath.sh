#!/bin/sh
# t0115-critpath: the critical path (analyze/an_critpath.c, docs/analysis.md
# "Critical path") on a constructed Kineto trace whose four steps' paths are
# known by hand (tests/data/critpath/gen_critpath.py), in the model, `summary`
# and the page; its budget; and HTA's critical_path/simple_add trace against
# tests/tools/critpath_check.py, the same rules in Python over the trace's JSON
# (tests/data/traces, HTA's test data).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

GEN=$PR_TESTS/data/critpath/gen_critpath.py
CHECK=$PR_TESTS/tools/critpath_check.py
SIMPLE=$TRACES/hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz
NCCL=$TRACES/hta/nccl_parser_config/nccl_data.json.gz

python3 "$GEN" cp.json

# same_as_python MODEL WANT: the model's critical_path equals critpath_check.py's output (length,
# every class, the top ops and kernels with their ns)
same_as_python() {
	python3 - "$1" "$2" <<'PY'
import json, sys
cp = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]
w = json.load(open(sys.argv[2]))
bad = []
if cp["length_ns"] != w["length_ns"]:
    bad.append("length %s, want %s" % (cp["length_ns"], w["length_ns"]))
if cp["composition_ns"] != w["composition_ns"]:
    bad.append("composition %s, want %s" % (cp["composition_ns"], w["composition_ns"]))
for k in ("top_ops", "top_kernels"):
    got = sorted((o["name"], o["ns"]) for o in cp[k])
    want = sorted((o["name"], o["ns"]) for o in w[k])
    if got != want:
        bad.append("%s %s, want %s" % (k, got, want))
for b in bad:
    print("critpath:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
run "$P" report cp.json --json model.json --timeline-points 0
expect_rc 0 "report of the constructed trace"

# The answers, by hand from gen_critpath.py (us; the walk goes back from each step's end):
# step 1 [0,1000]: thread idle 800..1000 (200), aten::mm 770..800 (30), cudaLaunchKernel
#   760..770 (10, launch), aten::mm 750..760 (10), gap 700..750 (50), aten::cpu_heavy 100..700
#   (600), before the first op 0..100 (100): cpu_op 640, launch 10, idle 350.
# step 2 [2000,2500]: idle 2440..2500 (60); cudaDeviceSynchronize ends 2440, add_k ended last
#   within it (2435): sync 5; add_k 2335..2435 (100); its stream's previous kernel ended 2330,
#   after its call's start 2050: stream idle 2330..2335 (5); gemm_k2 2030..2330 (300); first on
#   its stream: launch delay from its call's start 2015 (15); aten::mm 2010..2015 (5); 2000..2010
#   idle (10): cpu_op 5, launch 15, kernel_compute 400, sync 5, idle 75.
# step 3 [3000,3600]: idle 3560..3600 (40), aten::item 3550..3560 (10); cudaStreamSynchronize
#   3050..3550 with no activity ending within it (small_k ended 3045): sync 500; aten::item
#   3030..3050 (20), launch 3020..3030 (10), aten::item 3010..3020 (10), idle 3000..3010 (10):
#   cpu_op 40, launch 10, sync 500, idle 50.
# step 4 [4000,4400]: idle 4340..4400 (60); cudaDeviceSynchronize ends 4340, the NCCL kernel
#   on stream 8 ended last within it (4330, k_s7 on stream 7 at 4220): sync 10; NCCL 4030..4330
#   (300, communication); launch delay from 4020 (10); aten::fwd 4015..4020 (5), launch
#   4010..4015 (5), aten::fwd 4005..4010 (5), idle 4000..4005 (5): cpu_op 10, launch 15,
#   kernel_communication 300, sync 10, idle 65. k_s7 (stream 7) overlaps it and is off the path.
# step 5 [5000,5500]: idle 5410..5500 (90); cudaDeviceSynchronize ends 5410, k_b (stream 8) ended
#   last within it (5400): sync 10; k_b 5302..5400 (98); its call returned at 5035 and its stream
#   was free, so it waited: k_a on stream 7 ended 5300, 2 us before it (within 10): sync 2; k_a
#   5020..5300 (280); launch delay from 5010 (10); aten::fwd2 5005..5010 (5); idle 5000..5005 (5):
#   cpu_op 5, launch 10, kernel_compute 378, sync 12, idle 95.
python3 - model.json <<'PY' || fail "the constructed trace's critical paths differ from the hand-derived ones"
import json, sys
cp = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]
keys = ["cpu_op", "launch", "kernel_compute", "kernel_communication", "kernel_memory", "sync", "idle"]
want = {"ProfilerStep#1": (1000, [640, 10, 0, 0, 0, 0, 350]),
        "ProfilerStep#2": (500, [5, 15, 400, 0, 0, 5, 75]),
        "ProfilerStep#3": (600, [40, 10, 0, 0, 0, 500, 50]),
        "ProfilerStep#4": (400, [10, 15, 0, 300, 0, 10, 65]),
        "ProfilerStep#5": (500, [5, 10, 378, 0, 0, 12, 95])}
bad = []
if cp["scope"] != "steps" or cp["steps_analysed"] != 5 or len(cp["steps"]) != 5:
    bad.append("scope/steps: %s %s" % (cp["scope"], cp["steps_analysed"]))
for s in cp["steps"]:
    ln, comp = want[s["name"]]
    got = [s["composition_ns"][k] // 1000 for k in keys]
    if s["length_ns"] != ln * 1000 or got != comp:
        bad.append("%s: length %d, %s; want %d, %s" % (s["name"], s["length_ns"], got, ln * 1000, comp))
tot = [sum(w[1][i] for w in want.values()) * 1000 for i in range(len(keys))]
if [cp["composition_ns"][k] for k in keys] != tot or cp["length_ns"] != 3000000:
    bad.append("totals %s" % cp["composition_ns"])
# top: aten::cpu_heavy 600 (step 1), cudaStreamSynchronize 500 (step 3), cudaLaunchKernel
# 10+15+10+15+10 = 60; kernels gemm_k2 300 and the NCCL kernel 300 (either order: ties go by
# name id), k_a 280, add_k 100, k_b 98
ops = [(o["name"], o["ns"]) for o in cp["top_ops"][:3]]
if ops != [("aten::cpu_heavy", 600000), ("cudaStreamSynchronize", 500000), ("cudaLaunchKernel", 60000)]:
    bad.append("top_ops %s" % ops)
ks = {(k["name"], k["ns"], k["class"]) for k in cp["top_kernels"]}
if ks != {("gemm_k2", 300000, "compute"), ("add_k", 100000, "compute"),
          ("k_a", 280000, "compute"), ("k_b", 98000, "compute"),
          ("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 300000, "communication")}:
    bad.append("top_kernels %s" % sorted(ks))
for b in bad:
    print("critpath:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# the Python over the trace's JSON agrees (it walks the same rules: a check of the C's graph)
python3 "$CHECK" cp.json >cp.want.json || fail "critpath_check.py failed on the constructed trace"
same_as_python model.json cp.want.json || fail "the constructed trace's path differs from critpath_check.py's"

# -- summary: the block, its shares of 3 ms (the sums of the steps above: cpu_op 700 us =
# 23.3 %, launch 60 = 2.0 %, sync 527 = 17.6 %, idle 635 = 21.2 %, compute 778 = 25.9 %,
# communication 300 = 10.0 %)
run "$P" summary cp.json
expect_rc 0 "summary of the constructed trace"
expect_out_has "Critical path" "summary's critical path block"
expect_out_has "5 steps analysed, 3.000 ms on their paths in all" "summary's path length"
expect_out_has "CPU ops 23.3%  launch 2.0%  sync 17.6%  idle 21.2%" "summary's composition"
expect_out_has "kernels: compute 25.9%  communication 10.0%  memory 0.0%" "summary's kernels"

# -- the page: its section, bar and tables
run "$P" report cp.json -o page.html
expect_rc 0 "page of the constructed trace"
grep -q '<h3>Critical path</h3>' page.html || fail "the page has no critical path section"
grep -q 'id="r0-critical_path"' page.html || fail "the page has no critical path bar"
grep -q '<h4>Kernels on the critical path</h4>' page.html || fail "the page lacks the kernels"

# -- a CPU-only run has no critical path
run "$P" report "$PR_SAMPLES/qeff/qeff_profile.json" --json cpu.json
expect_rc 0 "report of a CPU-only run"
python3 -c 'import json,sys; sys.exit("critical_path" in json.load(open("cpu.json"))["runs"][0])' ||
	fail "a CPU-only run has a critical path"

# -- the budget: 28 events (steps 1-5: 4, 7, 4, 6, 7 ops, calls and kernels); at 10 the latest
# steps go, step 1 stays whole and its path is the one above; the events left out are said
PROFREPORT_CRITPATH_EVENTS=10 run "$P" report cp.json --json small.json --timeline-points 0
expect_rc 0 "report under a budget of 10 events"
python3 - small.json <<'PY' || fail "the critical path's budget is not kept or not said"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
cp = r["critical_path"]
d = [x for x in r["diagnostics"] if x["code"] == "critical_path_over_budget"]
ok = cp["events"] <= 10 and cp["events"] + cp["events_over_budget"] == 28
ok = ok and cp["steps_analysed"] == 1 and cp["steps_over_budget"] == 4
s = cp["steps"][0]
ok = ok and s["name"] == "ProfilerStep#1" and s["length_ns"] == 1000000
ok = ok and [s["composition_ns"][k] for k in ("cpu_op", "launch", "idle")] == [640000, 10000, 350000]
ok = ok and len(d) == 1 and d[0]["count"] == cp["events_over_budget"]
sys.exit(0 if ok else 1)
PY
PROFREPORT_CRITPATH_EVENTS=0 run "$P" report cp.json --json bad.json
expect_error "profreport: " "a budget of 0 events"

[ "$failures" -eq 0 ] || finish
need_trace "$SIMPLE" "$NCCL"

# -- HTA's simple_add (no steps: the whole trace) against the Python over its JSON
run "$P" report "$SIMPLE" --json simple.json --timeline-points 0
expect_rc 0 "report of simple_add"
python3 "$CHECK" "$SIMPLE" >want.json || fail "critpath_check.py failed on simple_add"
same_as_python simple.json want.json || fail "simple_add's critical path differs from critpath_check.py's"
python3 -c 'import json,sys; sys.exit(json.load(open("simple.json"))["runs"][0]["critical_path"]["scope"] != "trace")' ||
	fail "simple_add has no steps: its path is the whole trace's"
# and what the path is (critpath_check.py's numbers; the trace is 41.6 s of CUDA start-up and
# cuDNN autotuning on the CPU): a CPU-bound path, 89.8 % CPU ops and annotations
python3 -c 'import json,sys; c=json.load(open("want.json"))
sys.exit(not (c["length_ns"] == 41579901000 and c["composition_ns"]["cpu_op"] == 37318256000))' ||
	fail "critpath_check.py's simple_add numbers changed"

# -- HTA's nccl_data (3 ProfilerSteps, 2 streams, NCCL kernels) against the Python, per step
run "$P" report "$NCCL" --json nccl.json --timeline-points 0
expect_rc 0 "report of nccl_data"
python3 "$CHECK" "$NCCL" >nccl.want.json || fail "critpath_check.py failed on nccl_data"
same_as_python nccl.json nccl.want.json || fail "nccl_data's critical path differs from critpath_check.py's"
python3 -c 'import json,sys; c=json.load(open("nccl.json"))["runs"][0]["critical_path"]
sys.exit(c["steps_analysed"] != 3)' || fail "nccl_data's 3 steps are not analysed"
finish
