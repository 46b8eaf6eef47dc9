#!/bin/sh
# t0155-critpath-handles: the critical path's waits between streams and syncs taken from the
# trace's handles (Kineto's cuda_sync records: Stream Wait Event with
# wait_on_cuda_event_record_corr_id or wait_on_stream, Stream Sync on one stream), with the
# time-based inference as the fallback (analyze/an_critpath.c, docs/analysis.md "Critical
# path"); and --critpath-annotation NAME[:N], HTA's annotation window, on HTA's simple_add
# against tests/tools/critpath_check.py (the same rules in Python over the trace's JSON).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

GEN=$PR_TESTS/data/critpath/gen_handles.py
CHECK=$PR_TESTS/tools/critpath_check.py
SIMPLE=$TRACES/hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz
ANN='[param|pytorch.model.alex_net|0|0|0|measure|forward]'

python3 "$GEN" h.json
# the same trace without its cuda_sync records: the inference's answer
python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
d["traceEvents"]=[e for e in d["traceEvents"] if e["cat"]!="cuda_sync"]; json.dump(d,open(sys.argv[2],"w"))' h.json h0.json

# same_as_python MODEL WANT: length, every class, the top names and the wait counts agree
same_as_python() {
	python3 - "$1" "$2" <<'PY'
import json, sys
cp = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]
w = json.load(open(sys.argv[2]))
bad = []
if cp["length_ns"] != w["length_ns"] or cp["composition_ns"] != w["composition_ns"]:
    bad.append("length/composition %s %s, want %s %s" % (cp["length_ns"], cp["composition_ns"],
                                                         w["length_ns"], w["composition_ns"]))
for k in ("top_ops", "top_kernels"):
    if sorted((o["name"], o["ns"]) for o in cp[k]) != sorted((o["name"], o["ns"]) for o in w[k]):
        bad.append(k)
if cp["stream_waits"]["on_path"] != w["waits"]["on_path"] or \
        cp["stream_waits"]["rule"] != w["waits"]["rule"]:
    bad.append("waits %s, want %s" % (cp["stream_waits"], w["waits"]))
for b in bad:
    print("critpath:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

run "$P" report h.json --json h.model.json --timeline-points 0
expect_rc 0 "report of the trace with handles"
# By hand from gen_handles.py (us; the walk goes back from each step's end):
# step 1 [0,1000]: idle 760..1000 (240); cudaDeviceSynchronize ends 760, k_b (stream 8) ended
#   last within it (700): sync 60; k_b 560..700 (140); the Stream Wait Event (record corr 2,
#   recorded at 25 after k_a's launch at 10) says k_b waited for k_a (ended 500): sync 60
#   (event_record); k_a 30..500 (470); launch delay from its call at 10 (20); aten::fwd 0..10
#   (10): cpu_op 10, launch 20, kernel_compute 610, sync 120, idle 240.
#   Without the records k_b is 60 us past k_a's end (more than the inference's 10 us): its
#   launch at 40 is taken (launch 40..560, 520), then the thread back to 0: aten::fwd 33..40,
#   28..30, 20..25, 0..10 (24), cudaStreamWaitEvent 3 and cudaEventRecord 3 (they launch
#   nothing: cpu_op), cudaLaunchKernel 10..20 (launch 10): cpu_op 30, launch 530,
#   kernel_compute 140, sync 60, idle 240.
# step 2 [2000,3000]: idle 2520..3000 (480); cudaStreamSynchronize (Stream Sync on stream 8)
#   ends 2520: its stream's k_e ended 2500 (k_d on stream 9 ended later, 2510, and is not
#   awaited): sync 20; k_e 2450..2500 (50); the Stream Wait Event has wait_on_stream 7 only: the
#   last kernel put on stream 7 before the wait call (2030) is k_c (ended 2400): sync 50
#   (wait_on_stream); k_c 2030..2400 (370); launch delay from 2010 (20); idle 2000..2010 (10):
#   launch 20, kernel_compute 420, sync 70, idle 490.
python3 - h.model.json <<'PY' || fail "the paths with handles differ from the hand-derived ones"
import json, sys
cp = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]
keys = ["cpu_op", "launch", "kernel_compute", "kernel_communication", "kernel_memory", "sync", "idle"]
want = {"ProfilerStep#1": ([10, 20, 610, 0, 0, 120, 240], [1, 0, 0]),
        "ProfilerStep#2": ([0, 20, 420, 0, 0, 70, 490], [0, 1, 0])}
bad = []
for s in cp["steps"]:
    comp, waits = want[s["name"]]
    got = [s["composition_ns"][k] // 1000 for k in keys]
    gw = [s["waits"][k] for k in ("event_record", "wait_on_stream", "inferred")]
    if s["length_ns"] != 1000000 or got != comp or gw != waits:
        bad.append("%s: %s %s" % (s["name"], got, gw))
sw = cp["stream_waits"]
if (sw["rule"], sw["event_record"], sw["wait_on_stream"], sw["unmatched"]) != ("handles", 1, 1, 0):
    bad.append("stream_waits %s" % sw)
for b in bad:
    print("critpath:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
python3 "$CHECK" h.json >h.want.json || fail "critpath_check.py failed on the trace with handles"
same_as_python h.model.json h.want.json || fail "the path with handles differs from critpath_check.py's"

# summary names the records and the waits the paths took, by method
run "$P" summary h.json
expect_rc 0 "summary of the trace with handles"
expect_out_has "waits between streams from the trace's records: 1 by event record, 1 by" \
	"summary's record counts"
expect_out_has "stream, 0 unmatched; on the paths 1 and 1" "summary's waits on the paths"

run "$P" report h0.json --json h0.model.json --timeline-points 0
expect_rc 0 "report of the trace without handles"
python3 - h0.model.json <<'PY' || fail "without handles step 1 is not the inference's path"
import json, sys
cp = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]
s = cp["steps"][0]
keys = ["cpu_op", "launch", "kernel_compute", "sync", "idle"]
ok = [s["composition_ns"][k] // 1000 for k in keys] == [30, 530, 140, 60, 240]
ok = ok and cp["stream_waits"]["rule"] == "inferred"
sys.exit(0 if ok else 1)
PY
python3 "$CHECK" h0.json >h0.want.json || fail "critpath_check.py failed without handles"
same_as_python h0.model.json h0.want.json || fail "the path without handles differs from critpath_check.py's"

# -- the annotation window: a name no span has is a usage error
run "$P" report h.json --json bad.json --critpath-annotation 'no such span:3'
expect_error "profreport: report: --critpath-annotation 'no such span:3': run 1 has no span 3 whose name contains 'no such span'" \
	"an annotation no span has"

[ "$failures" -eq 0 ] || finish
need_trace "$SIMPLE"

# -- HTA's simple_add with HTA's test's window (tests/test_critical_path_analysis.py:
# annotation "[param|pytorch.model.alex_net|0|0|0|measure|forward]", instance_id 1): the second
# of the two measure/forward annotations, 243 351 us (DERIVATION: python over the trace's
# JSON: the user_annotations with that name start at ...9800762 and ...9854190, durations
# 296813 and 243351 us). The path, by the Python, is the window's: CPU-bound (cudaMalloc).
run "$P" report "$SIMPLE" --json win.json --timeline-points 0 --critpath-annotation "$ANN:1"
expect_rc 0 "report of simple_add's annotation window"
python3 "$CHECK" "$SIMPLE" "$ANN:1" >win.want.json || fail "critpath_check.py failed on the window"
same_as_python win.json win.want.json || fail "simple_add's window path differs from critpath_check.py's"
python3 - win.json <<'PY' || fail "simple_add's window is not HTA's"
import json, sys
cp = json.load(open(sys.argv[1]))["runs"][0]["critical_path"]
w = cp["window"]
ok = cp["scope"] == "annotation" and w["instance"] == 1 and w["dur_ns"] == 243351000
ok = ok and cp["length_ns"] == 243351000 and cp["steps"][0]["name"] == w["name"]
ok = ok and cp["stream_waits"]["rule"] == "handles"
sys.exit(0 if ok else 1)
PY
# a range of instances (HTA's instance_id (A, B)): "alex_net" is in 5 annotations' names
# (DERIVATION: python over the JSON's user_annotations, by ts: [param|...|0|0|0] at
# 1694039994139429, warmup|forward at ...994143232 and ...994167986, measure|forward at
# ...009800762 and ...009854190); 1-3 runs from the first warmup's start (...994143232) to the
# latest end of instances 1-3, the first measure's (...009800762 + 296813 = ...010097575; the
# warmups end at ...009800460 and ...009800411): 15 954 343 us
run "$P" report "$SIMPLE" --json range.json --timeline-points 0 --critpath-annotation "alex_net:1-3"
expect_rc 0 "report of simple_add's instance range"
python3 "$CHECK" "$SIMPLE" "alex_net:1-3" >range.want.json || fail "critpath_check.py failed on the range"
same_as_python range.json range.want.json || fail "simple_add's range path differs from critpath_check.py's"
python3 -c 'import json,sys; w=json.load(open("range.json"))["runs"][0]["critical_path"]["window"]
sys.exit(not ((w["instance"], w["last_instance"], w["dur_ns"]) == (1, 3, 15954343000)))' ||
	fail "simple_add's instance range is not HTA's window"
run "$P" report "$SIMPLE" --json bad.json --critpath-annotation "measure|forward:1-4"
expect_error "profreport: report: --critpath-annotation 'measure|forward:1-4': run 1 has spans whose name contains 'measure|forward' only up to instance 1" \
	"a range past the last instance"

run "$P" summary "$SIMPLE" --critpath-annotation "$ANN:1"
expect_rc 0 "summary of simple_add's annotation window"
expect_out_has "the window of $ANN (instance" "summary names the window"
run "$P" report "$SIMPLE" -o win.html --critpath-annotation "$ANN:1"
expect_rc 0 "page of simple_add's annotation window"
grep -q 'The window of \[param|pytorch.model.alex_net|0|0|0|measure|forward\] (instance 1' win.html ||
	fail "the page does not name the window"
# and the whole trace: its 20 Stream Wait Events (old Kineto: wait_on_stream only), 6 matched
# to a kernel (DERIVATION: critpath_check.py over the JSON; the other 14 wait on streams 21-27,
# which run nothing)
run "$P" report "$SIMPLE" --json simple.json --timeline-points 0
python3 "$CHECK" "$SIMPLE" >simple.want.json || fail "critpath_check.py failed on simple_add"
same_as_python simple.json simple.want.json || fail "simple_add's path differs from critpath_check.py's"
python3 -c 'import json,sys; w=json.load(open("simple.json"))["runs"][0]["critical_path"]["stream_waits"]
v=json.load(open("simple.want.json"))["waits"]
sys.exit(not ((w["wait_on_stream"], w["unmatched"]) == (v["wait_on_stream"], v["unmatched"]) == (6, 14)))' ||
	fail "simple_add's wait records are not matched as the Python matches them"
finish
