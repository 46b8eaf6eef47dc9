#!/bin/sh
# t0062-trace-view: the model's "trace" section (analyze/an_trace.c) on a real
# Kineto trace (tests/data/traces: hta's nccl_data, CUDA + DDP, 3 ProfilerSteps),
# against facts a python script reads
# from the trace file itself (not from the store or the model): which steps
# are the slowest and the median and their [ts, ts + dur], each window's end
# extended to the device activities its runtime calls launched (same
# "correlation"), the spans meeting the windows and the correlation pairs
# inside them, some kernels' args. Then --window SPEC (good and bad), the
# model cache keyed by the window, and report --trace FILE.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TRACE=$TRACES/hta/nccl_parser_config/nccl_data.json.gz
need_trace "$TRACE"

run "$P" ingest -q "$TRACE" -o st.db
expect_rc 0 "ingest of nccl_data"

# check.py TRACE MODEL MODE [ARG]: the model's trace section against the trace file.
# MODE steps (slowest + median), step N (the N-th step), time A_NS B_NS (since the model's
# run start; only the window's bounds come from the model's clock).
cat >check.py <<'PY'
import gzip, json, sys
from decimal import Decimal
trace, model, mode = sys.argv[1], sys.argv[2], sys.argv[3]
ns = lambda x: int((Decimal(x) * 1000).to_integral_value())
ev = json.load(gzip.open(trace), parse_float=Decimal)["traceEvents"]
# the spans: complete events but the profiler's own ("Trace", kind profiler: left out)
X = [e for e in ev if e.get("ph") == "X" and e.get("cat") != "Trace"]
steps = sorted((e for e in X if e["name"].startswith("ProfilerStep#")), key=lambda e: ns(e["ts"]))
run = json.load(open(model))["runs"][0]
t = run["trace"]
start = run["clock"]["start_ns"]
DEV = ("kernel", "gpu_memcpy", "gpu_memset")
calls = {}
for e in X:
    if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {}):
        calls.setdefault(e["args"]["correlation"], []).append(ns(e["ts"]))
def step_window(i):
    s = steps[i]
    t0 = ns(s["ts"]); e0 = t0 + ns(s["dur"])
    hi = (ns(steps[i + 1]["ts"]) if i + 1 < len(steps) else e0) + ns(s["dur"])
    end = e0
    for e in X:
        c = e.get("args", {}).get("correlation")
        if e.get("cat") in DEV and c in calls and any(t0 <= x < e0 for x in calls[c]):
            end = max(end, min(ns(e["ts"]) + ns(e["dur"]), hi))
    return (t0, end)
if mode == "steps":
    slow = min(range(len(steps)), key=lambda i: (-ns(steps[i]["dur"]), ns(steps[i]["ts"])))
    med = sorted(range(len(steps)), key=lambda i: (ns(steps[i]["dur"]), ns(steps[i]["ts"])))[(len(steps) - 1) // 2]
    idx = sorted({slow, med})
    labels = [("slowest and median step " if slow == med else "slowest step " if i == slow else "median step ") + steps[i]["name"] for i in idx]
    wins = [step_window(i) for i in idx]
elif mode == "step":
    i = int(sys.argv[4]) - 1
    labels, wins = ["step " + steps[i]["name"]], [step_window(i)]
else:
    labels, wins = None, [(start + int(sys.argv[4]), start + int(sys.argv[5]))]
bad = []
def check(what, got, want):
    if got != want:
        bad.append(("%s: got %r, want %r" % (what, got, want))[:400])
got_w = [(w["t0_ns"] + start, w["t1_ns"] + start) for w in t["windows"]]
check("windows", got_w, wins)
if labels:
    check("labels", [w["label"] for w in t["windows"]], labels)
def meets(e, a, b):
    ts, d = ns(e["ts"]), ns(e["dur"])
    return ts < b and ts + d > a if d > 0 else a <= ts < b
inw = [e for e in X if any(meets(e, a, b) for a, b in wins)]
check("in_windows", t["in_windows"], len(inw))
check("shown", t["shown"], len(inw))
check("left_out", t["left_out"], 0)
# every slice is one of the spans (name, start, duration), and each once
S = t["slices"]
key = lambda name, ts, d: (name, ts, d)
want = sorted(key(e["name"], ns(e["ts"]), ns(e["dur"])) for e in inw)
got = sorted(key(t["names"][s[4]], s[2] + start, s[3]) for s in S)
check("slices (name, start, duration)", got, want)
# sorted by (lane, t, depth); lane depths; indexes in range
order = [(s[0], s[2], s[1]) for s in S]
check("slices sorted by (lane, t, depth)", order, sorted(order))
for li, l in enumerate(t["lanes"]):
    check("lane %d depth" % li, l["depth"], 1 + max(s[1] for s in S if s[0] == li))
check("lane kinds", sorted({l["kind"] for l in t["lanes"]}), ["gpu_stream", "thread"])
check("threads first", [l["kind"] for l in t["lanes"]], sorted((l["kind"] for l in t["lanes"]), key=lambda k: k != "thread"))
# the links: the runtime call and the device activity of each correlation, both in the windows
rt = {}
for e in inw:
    if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {}):
        rt.setdefault(e["args"]["correlation"], e)
pairs = sorted(((rt[c]["name"], ns(rt[c]["ts"])), (e["name"], ns(e["ts"])))
               for e in inw if e.get("cat") in DEV for c in [e.get("args", {}).get("correlation")] if c in rt)
gotp = sorted(((t["names"][S[a][4]], S[a][2] + start), (t["names"][S[b][4]], S[b][2] + start)) for a, b in t["links"])
check("links", gotp, pairs)
check("links sorted", t["links"], sorted(t["links"]))
# a kernel's args as in the trace (grid, block, registers, correlation)
kin = [e for e in inw if e.get("cat") == "kernel"]
byk = {(t["names"][s[4]], s[2] + start): s for s in S}
for e in kin[:50]:
    s = byk[(e["name"], ns(e["ts"]))]
    a = t["args"][s[7]] if s[7] >= 0 else {}
    for k in ("grid", "block", "registers per thread", "correlation", "stream"):
        check("kernel %s arg %s" % (e["name"][:30], k), json.loads(json.dumps(a.get(k), default=str)), json.loads(json.dumps(e["args"].get(k), default=str)))
    check("kernel kind", t["kinds"][s[5]], "kernel")
print("\n".join(bad[:20]))
sys.exit(1 if bad else 0)
PY

run "$P" report st.db --json m.json -q
expect_rc 0 "report"
python3 check.py "$TRACE" m.json steps >py.out 2>&1 || fail "default windows: $(cat py.out)"
grep -q '"label": "median step ProfilerStep#4"' m.json || fail "no median step ProfilerStep#4 window"
grep -q '"label": "slowest step ProfilerStep#6"' m.json || fail "no slowest step ProfilerStep#6 window"

run "$P" summary st.db --window '#2' --json m2.json
expect_rc 0 "summary --window #2"
python3 check.py "$TRACE" m2.json step 2 >py.out 2>&1 || fail "--window #2: $(cat py.out)"
run "$P" report st.db --window ProfilerStep#6 --json m3.json -q
expect_rc 0 "report --window ProfilerStep#6"
python3 check.py "$TRACE" m3.json step 3 >py.out 2>&1 || fail "--window ProfilerStep#6: $(cat py.out)"
run "$P" report st.db --window 100ms:0.2s --json m4.json -q
expect_rc 0 "report --window 100ms:0.2s"
python3 check.py "$TRACE" m4.json time 100000000 200000000 >py.out 2>&1 ||
	fail "--window 100ms:0.2s: $(cat py.out)"
grep -q '"label": "time 100ms:0.2s"' m4.json || fail "the time window's label"
# the cache (report on a store keeps models): another window is never the cached one
run "$P" report st.db --window '#1' --json m5.json -q
expect_rc 0 "report --window #1"
python3 check.py "$TRACE" m5.json step 1 >py.out 2>&1 || fail "--window #1 after others (cache): $(cat py.out)"
run "$P" report st.db --json m6.json -q
cmp -s m.json m6.json || fail "the default window's model, read from the cache, differs"

# bad SPECs: usage errors, one line, exit 2
for spec in '#0' '#x' '#' '5ms:2ms' 'a:b' '1parsec:2s' '1:2:3' ':' '-5:' ''; do
	run "$P" summary st.db --window "$spec"
	expect_rc 2 "--window '$spec'"
	expect_one_err_line "--window '$spec'"
done
run "$P" report st.db --window 'ProfilerStep#9' --json x.json
expect_rc 2 "--window naming no step"
expect_one_err_line "--window naming no step"
expect_err_has "#1 ProfilerStep#4, #2 ProfilerStep#5, #3 ProfilerStep#6" "the error names the steps"
run "$P" summary st.db --window '#4'
expect_rc 2 "--window #4 of 3 steps"
expect_err_has "ProfilerStep#6" "the error names the steps"

# report --trace FILE: the run's spans as a Chrome trace (B/E pairs), loadable JSON
run "$P" report st.db --trace run.json
expect_rc 0 "report --trace"
expect_err_has "wrote the Chrome trace 'run.json'" "report --trace says what it wrote"
python3 - "$TRACE" run.json >py.out 2>&1 <<'PY' || fail "--trace: $(cat py.out)"
import gzip, json, sys
src = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
out = json.load(open(sys.argv[2]))["traceEvents"]
b = [e for e in out if e["ph"] == "B"]
assert len(b) == len([e for e in out if e["ph"] == "E"]), "unbalanced B/E"
from collections import Counter
# every ProfilerStep and kernel of the trace is there by name
for cat in ("kernel",):
    want = Counter(e["name"] for e in src if e.get("cat") == cat)
    got = Counter(e["name"] for e in b)
    missing = [n for n in want if got[n] < want[n]]
    assert not missing, "kernels missing: %r" % missing[:3]
for s in ("ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6"):
    assert any(e["name"] == s for e in b), s
PY

finish
