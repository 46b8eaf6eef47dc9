#!/usr/bin/python3
"""scope_ref.py - an independent reference for gpu_breakdown's scopes
(TraceLens's gpu_timeline): reads a Kineto trace (JSON, .gz allowed) with the
standard library only, no profreport. Times are exact ns (ts, dur in us with
decimals, read as decimals).

GPU events: cat kernel, gpu_memcpy, gpu_memset; those without a "stream" arg
are left out when others have one (HTA's rule, profreport's; TraceLens keeps
them: the printout says how many there are, none on the H100 trace). Scopes:
  all     every GPU event;
  linked  TraceLens's include_unlinked_kernels=False: a GPU event whose
          "correlation" is that of a cuda_runtime/cuda_driver call (any name)
          that has an ac2g flow start, the flow's end naming the event (its
          pid, tid and id = correlation);
  steps   GPU events launched by a runtime call inside a host ProfilerStep#N span.
Per scope (TraceLens's GPUEventAnalyser.compute_metrics_dict): computation =
union of kernels and memsets whose name lacks "nccl"; communication = union
of those with "nccl"; exposed comm = communication minus computation; exposed
memcpy = memcpy union minus computation and communication; busy = union of
all; total = last end - first start; idle = total - busy.

With --float the times are TraceLens's: float64 us (ts + dur added as
floats), printed in ms with repr(). That reproduces TraceLens's reference
gpu_timeline.csv to the last digit, and shows where it differs from the exact
ns: at ts ~1.4e12 us a float64 holds 0.24 ns steps, and the rounding of ~1200
ends adds up to ~10 ns (computation 31.903115234375 ms in floats, 31903105 ns
exact on the H100 trace).

usage: tests/tools/scope_ref.py TRACE [--float]
"""
import gzip, json, sys
from decimal import Decimal


FLOAT = "--float" in sys.argv[2:]


def ns(v):
    if FLOAT:
        return float(v)
    return int((Decimal(str(v)) * 1000).to_integral_value())


def union(iv):
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def minus(sub, iv):
    """iv minus sub, both unions"""
    out = []
    for a, b in iv:
        cur = a
        for s, e in sub:
            if e <= cur or s >= b:
                continue
            if s > cur:
                out.append([cur, s])
            cur = max(cur, e)
            if cur >= b:
                break
        if cur < b:
            out.append([cur, b])
    return out


def tot(iv):
    return sum(b - a for a, b in iv)


def metrics(evs):
    comp = union([(s, e) for s, e, c in evs if c == "comp"])
    comm = union([(s, e) for s, e, c in evs if c == "comm"])
    mem = union([(s, e) for s, e, c in evs if c == "mem"])
    allu = union([(s, e) for s, e, c in evs])
    total = max(e for s, e, c in evs) - min(s for s, e, c in evs)
    busy = tot(allu)
    return dict(computation=tot(comp), exposed_comm=tot(minus(comp, comm)),
                exposed_memcpy=tot(minus(comm, minus(comp, mem))), busy=busy,
                idle=total - busy, total=total, comm=tot(comm), memcpy=tot(mem), n=len(evs))


path = sys.argv[1]
op = gzip.open if path.endswith(".gz") else open
doc = json.load(op(path, "rt"), parse_float=Decimal)
ev = doc["traceEvents"]
GPU = ("kernel", "gpu_memcpy", "gpu_memset")
flow_s, flow_f = set(), {}
for e in ev:
    if e.get("cat") == "ac2g":
        if e.get("ph") == "s":
            flow_s.add(e["id"])
        elif e.get("ph") == "f":
            flow_f[e["id"]] = (e["pid"], e["tid"])
# the host's ProfilerStep spans (not Kineto's gpu_user_annotation copy on the GPU's timeline)
steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in ev
               if e.get("ph") == "X" and e.get("name", "").startswith("ProfilerStep#")
               and e.get("cat") != "gpu_user_annotation")
calls = {}
for e in ev:
    if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver"):
        c = e.get("args", {}).get("correlation")
        if c is not None:
            calls[c] = e
scopes = {"all": [], "linked": [], "steps": []}
streamed = any("stream" in e.get("args", {}) for e in ev
               if e.get("ph") == "X" and e.get("cat") in GPU)
nostream = bycorr = 0
for e in ev:
    if e.get("ph") != "X" or e.get("cat") not in GPU:
        continue
    a = e.get("args", {})
    if streamed and "stream" not in a:
        nostream += 1
        continue
    bycorr += a.get("correlation") in calls
    s = ns(e["ts"])
    t = s + ns(e["dur"])  # as floats: TraceLens's t_end
    c = "mem" if e["cat"] == "gpu_memcpy" else "comm" if "nccl" in e["name"] else "comp"
    x = (s, t, c)
    scopes["all"].append(x)
    corr = a.get("correlation")
    rt = calls.get(corr)
    if rt is not None and corr in flow_s and flow_f.get(corr) == (e["pid"], e["tid"]):
        scopes["linked"].append(x)
    if rt is not None:
        rs = ns(rt["ts"])
        re_ = rs + ns(rt["dur"])
        if any(a0 <= rs and re_ <= b0 for a0, b0 in steps):
            scopes["steps"].append(x)
print("nostream", nostream, "linked_by_correlation_alone", bycorr)
# TraceLens's kernel_summary counts every kernel (linked or not), in rows of (parent op
# category, parent cpu_op, name, stream); profreport's kernel table is by name
kern = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "kernel"]
print("kernels", len(kern), "total_ns", sum(ns(e["dur"]) for e in kern), "names",
      len({e["name"] for e in kern}), "gpu_op_names",
      len({e["name"] for e in ev if e.get("ph") == "X" and e.get("cat") in GPU}))
for k, evs in scopes.items():
    if not evs:
        print(k, "none")
        continue
    m = metrics(evs)
    if FLOAT:
        print(k, " ".join("%s %r" % (n, v / 1e3 if n != "n" else v) for n, v in m.items()))
    else:
        print(k, " ".join("%s %d" % (n, v) for n, v in m.items()))
