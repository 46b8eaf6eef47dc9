#!/bin/sh
# t0141-compare-perf: compare's perf-model metrics (docs/compare.md, "Perf model"):
# perf:CATEGORY (device time of the ops of a category) and tflops:OP (an op's
# achieved TFLOP/s), reported by default and gated only when a --fail-on or
# config rule names them; --ignore takes them out by name; a model JSON input
# gives the verdict of its trace.
# DERIVATION (without profreport): samples/compare/slower_op's GEMM time, by a
# short Python over the trace JSON (below, gemm_ns): every kernel whose
# correlation names a runtime call, charged to the innermost cpu_op holding
# that call, summed where the op is aten::mm/addmm/bmm/baddbmm/_scaled_mm/
# linear/matmul: base 13.198 ms, new 14.376 ms (+8.9 %: aten::mm is 20 % slower,
# its share of the GEMM time less). tiny.json's aten::mm: 2*64*32*128 = 524288
# FLOPs in 2 us = 0.262144 TFLOP/s (t0120); its kernel made 4 us long in
# slow.json: 0.131072 TFLOP/s (-50 %).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

S=$PR_SAMPLES/compare/slower_op
cat >gemm.py <<'PY'
import json, sys
GEMM = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::_scaled_mm",
        "aten::linear", "aten::matmul"}
t = json.load(open(sys.argv[1]))["traceEvents"]
calls, ops = {}, {}
for e in t:
    if e.get("ph") != "X":
        continue
    if e.get("cat") in ("cuda_runtime", "cuda_driver"):
        calls[e["args"].get("correlation")] = e
    elif e.get("cat") == "cpu_op":
        ops.setdefault((e["pid"], e["tid"]), []).append(e)
def inner(c):
    best = None
    for o in ops.get((c["pid"], c["tid"]), []):
        s, d = float(o["ts"]), float(o["dur"])
        if s <= float(c["ts"]) and s + d >= float(c["ts"]) + float(c["dur"]):
            if best is None or (s >= float(best["ts"]) and d <= float(best["dur"])):
                best = o
    return best
tot = 0.0
for e in t:
    if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
        c = calls.get(e.get("args", {}).get("correlation"))
        o = inner(c) if c else None
        if o is not None and o["name"] in GEMM:
            tot += float(e["dur"])
print(round(tot * 1000))
PY
b=$(/usr/bin/python3 gemm.py "$S/base.pt.trace.json") || fail "gemm.py base"
n=$(/usr/bin/python3 gemm.py "$S/new.pt.trace.json") || fail "gemm.py new"

# default: the span regressions fail as before; perf:GEMM is reported, not gated
run "$P" compare "$S/base.pt.trace.json" "$S/new.pt.trace.json" --to json -o def.json
expect_rc 1 "compare slower_op (span:aten::mm and its kernel)"
cat >check.py <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want, b, n = sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
m = {x["id"]: x for x in d["metrics"]}
g = m["perf:GEMM"]
assert g["group"] == "perf" and g["unit"] == "ns", g
assert g["base"] == b and g["new"] == n, (g["base"], g["new"], b, n)
assert g["verdict"] == want, g
if want == "unchanged":
    assert g["rule"] == "not-gated" and not g["threshold"]["gated"], g
    assert "by the default threshold, a regression" in g["why"], g["why"]
else:
    assert g["threshold"]["gated"] and g["threshold"]["source"] == "perf:GEMM:+5%", g
regs = sorted(k for k, x in m.items() if x["verdict"] == "regression")
print(" ".join(regs))
PY
/usr/bin/python3 check.py def.json unchanged "$b" "$n" >regs.txt 2>&1 || fail "default: $(cat regs.txt)"
grep -q '^span:aten::mm span:sm90_xmma_gemm' regs.txt || fail "default regressions: $(cat regs.txt)"

# the op ignored: still a pass (perf:GEMM is not gated by default)
run "$P" compare "$S/base.pt.trace.json" "$S/new.pt.trace.json" --ignore aten::mm \
	--ignore 'sm90_*_nn_n_*'
expect_rc 0 "the slow op ignored"
# a rule names it: GEMM's +8.9 % fails the gate by itself
run "$P" compare "$S/base.pt.trace.json" "$S/new.pt.trace.json" --ignore aten::mm \
	--ignore 'sm90_*_nn_n_*' --fail-on 'perf:GEMM:+5%' --to json -o fail.json
expect_rc 1 "--fail-on perf:GEMM:+5%"
/usr/bin/python3 check.py fail.json regression "$b" "$n" >regs.txt 2>&1 || fail "gated: $(cat regs.txt)"
[ "$(cat regs.txt)" = "perf:GEMM" ] || fail "gated: regressions $(cat regs.txt)"
run "$P" compare "$S/base.pt.trace.json" "$S/new.pt.trace.json" --ignore aten::mm \
	--ignore 'sm90_*_nn_n_*' --fail-on 'perf:*:+10%'
expect_rc 0 "+8.9 % is within --fail-on perf:*:+10%"
run "$P" compare "$S/base.pt.trace.json" "$S/new.pt.trace.json" --ignore aten::mm \
	--ignore 'sm90_*_nn_n_*' --fail-on 'perf:GEMM:+5%' --ignore 'perf:*'
expect_rc 0 "--ignore perf:* takes the rule's metric out"
# model JSON inputs: the same verdict
run "$P" report "$S/base.pt.trace.json" -q --no-cache --json base.model.json -o base.html
expect_rc 0 "report base"
run "$P" report "$S/new.pt.trace.json" -q --no-cache --json new.model.json -o new.html
expect_rc 0 "report new"
run "$P" compare base.model.json new.model.json --ignore aten::mm --ignore 'sm90_*_nn_n_*' \
	--fail-on 'perf:GEMM:+5%' --to json -o model.json
expect_rc 1 "--fail-on perf:GEMM:+5% on model JSON inputs"
/usr/bin/python3 check.py model.json regression "$b" "$n" >regs.txt 2>&1 ||
	fail "model JSON: $(cat regs.txt)"
# a model JSON whose perf model holds a string where a time goes: one line, exit 2
/usr/bin/python3 - base.model.json bad.model.json <<'PY' || fail "making bad.model.json"
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"][0]["perf_model"]["categories"][0]["device_ns"] = "x"
json.dump(d, open(sys.argv[2], "w"))
PY
run "$P" compare bad.model.json new.model.json
expect_rc 2 "a bad perf_model value"
expect_err_has "BASE: runs[0].perf_model.categories[0].device_ns is a string, not a time in ns (>= 0)" \
	"the bad value named"

# tflops:OP on tiny.json and its aten::mm kernel made 2x longer
TINY=$PR_TESTS/data/perfmodel/tiny.json
/usr/bin/python3 - "$TINY" slow.json <<'PY' || fail "making slow.json"
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["traceEvents"]:
    if e.get("name", "").startswith("ampere_bf16_s16816gemm"):
        e["dur"] = e["dur"] * 2
json.dump(d, open(sys.argv[2], "w"))
PY
cat >tf.py <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["id"]: x for x in d["metrics"]}["tflops:aten::mm"]
assert m["unit"] == "TFLOP/s" and m["better"] in ("unknown", "higher"), m
assert abs(m["base"] - 0.262144) < 1e-9 and abs(m["new"] - 0.131072) < 1e-9, m
assert m["verdict"] == sys.argv[2], m
PY
run "$P" compare "$TINY" slow.json --min-us 0 --to json -o tf0.json
/usr/bin/python3 tf.py tf0.json unchanged >c.txt 2>&1 || fail "tflops default: $(cat c.txt)"
run "$P" compare "$TINY" slow.json --min-us 0 --fail-on 'tflops:aten::mm:-10%' --to json -o tf1.json
expect_rc 1 "--fail-on tflops:aten::mm:-10%"
/usr/bin/python3 tf.py tf1.json regression >c.txt 2>&1 || fail "tflops gated: $(cat c.txt)"

finish
