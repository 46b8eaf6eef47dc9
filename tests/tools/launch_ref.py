#!/usr/bin/python3
"""launch_ref.py - an independent reference for the gpu section's launch_delays
(HTA's kernel launch statistics): reads a Kineto trace (JSON, .gz allowed)
with the standard library only. Each kernel/memcpy/memset is linked to the
first runtime call (in file order) with its "correlation"; delay = start -
call end clipped at 0; latency = start - call start; HTA's cutoffs 50 us
(call) and 100 us (delay). With a second argument, per op: the innermost
cpu_op on the call's thread holding the call (ties: the later start).

usage: tests/tools/launch_ref.py TRACE [ops]
"""
import gzip, json, sys
from decimal import Decimal
def ns(v): return int((Decimal(str(v)) * 1000).to_integral_value())
path = sys.argv[1]
op = gzip.open if path.endswith(".gz") else open
doc = json.load(op(path, "rt"), parse_float=Decimal)
ev = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
RT = ("cuda_runtime", "cuda_driver", "runtime", "mtia_runtime")
calls = {}
for e in ev:
    if e.get("cat") in RT and "correlation" in e.get("args", {}):
        calls.setdefault(e["args"]["correlation"], e)
ops = {}
for e in ev:
    if e.get("cat") in ("cpu_op", "operator"):
        ops.setdefault((e["pid"], e["tid"]), []).append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]))
def op_of(c):
    s, t = ns(c["ts"]), ns(c["ts"]) + ns(c["dur"])
    best = None
    for a, b, n in ops.get((c["pid"], c["tid"]), []):
        if a <= s and t <= b and (best is None or (b - a) < (best[1] - best[0]) or ((b - a) == (best[1] - best[0]) and a > best[0])):
            best = (a, b, n)
    return best[2] if best else None
rows = []
for e in ev:
    if e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset"):
        continue
    c = calls.get(e.get("args", {}).get("correlation"))
    if not c:
        continue
    cs, cd = ns(c["ts"]), ns(c["dur"])
    ks, kd = ns(e["ts"]), ns(e["dur"])
    rows.append(dict(cpu=cd, gpu=kd, delay=max(0, ks - (cs + cd)), lat=ks - cs, name=e["name"], ts=ks, op=c))
n = len(rows)
print("launches", n)
print("cpu_mean %.6f gpu_mean %.6f delay_mean %.6f delay_max %d delay_total %d latency_mean %.6f" % (
    sum(r["cpu"] for r in rows) / n, sum(r["gpu"] for r in rows) / n, sum(r["delay"] for r in rows) / n,
    max(r["delay"] for r in rows), sum(r["delay"] for r in rows), sum(r["lat"] for r in rows) / n))
print("runtime_outliers", sum(r["cpu"] > 50000 for r in rows), "delay_outliers", sum(r["delay"] > 100000 for r in rows),
      "short", sum(r["cpu"] <= 50000 and r["gpu"] < r["cpu"] for r in rows))
top = sorted(rows, key=lambda r: (-r["delay"], r["ts"]))[:3]
for r in top:
    print("outlier", r["delay"], r["ts"], r["name"][:50])
if len(sys.argv) > 2:
    by, pairs = {}, {}
    for r in rows:
        o = op_of(r["op"])
        if o:
            x = by.setdefault(o, [0, 0])
            x[0] += 1; x[1] += r["delay"]
            y = pairs.setdefault((o, r["name"]), [0, 0])
            y[0] += 1; y[1] += r["delay"]
    for k, v in sorted(by.items(), key=lambda kv: -kv[1][1])[:3]:
        print("op", k, v[0], v[1])
        top = sorted(((n, c) for (o, n), c in pairs.items() if o == k), key=lambda x: -x[1][1])[:3]
        for n, c in top:
            print("  kernel", n[:40], c[0], c[1])
