#!/usr/bin/env python3
"""The critical path of a Kineto trace with no ProfilerStep (the whole trace), computed
from the trace's JSON alone, by the rules of docs/analysis.md ("Critical path") but
without profreport's code or store: for t0115-critpath.sh, which compares profreport's
`critical_path` with it. Prints {"length_ns", "composition_ns", "top_ops", "top_kernels"}.

Each walk step asks the trace directly: on a thread, the path's current segment ends
at t and starts at the latest start or end of any of the thread's events before t, and
belongs to the innermost event open over it (the latest-starting one holding it);
on a stream, to the activity that started last before t."""
import decimal
import gzip
import json
import re
import sys

path = sys.argv[1]
d = json.load(gzip.open(path) if path.endswith(".gz") else open(path), parse_float=decimal.Decimal)
CPU, RT, ACT = 0, 1, 2
cats = {"cpu_op": CPU, "cuda_runtime": RT, "kernel": ACT, "gpu_memcpy": ACT, "gpu_memset": ACT}
ev = []
for e in d["traceEvents"]:
    k = cats.get(e.get("cat"))
    if e.get("cat") == "user_annotation" and not (e["name"].startswith("ProfilerStep#")
                                                  and len(e["name"]) > 13):
        k = CPU  # an annotation (a DataLoader's __next__, a record_function): CPU time
    if e.get("ph") != "X" or k is None:
        continue
    ts = int(round(e["ts"] * 1000))  # exact: ints, and Decimal for "1.5" (ns times)
    ev.append({"k": k, "name": e["name"], "ts": ts, "end": ts + max(0, int(round(e.get("dur", 0) * 1000))),
               "lane": (k == ACT, str(e["pid"]), str(e["tid"])),
               "corr": (e.get("args") or {}).get("correlation"), "i": len(ev), "link": None,
               "launched": None})
first_call = {}
for e in ev:
    if e["k"] == RT and e["corr"] is not None and e["corr"] not in first_call:
        first_call[e["corr"]] = e
for e in ev:
    if e["k"] == ACT and e["corr"] in first_call:
        c = first_call[e["corr"]]
        e["link"] = c
        if c["launched"] is None:
            c["launched"] = e


def rtclass(e):
    m = re.fullmatch(r"(?:cuda|hip)(DeviceSynchronize|StreamSynchronize|EventSynchronize|Memcpy|MemcpyAsync)",
                     e["name"])
    if m:
        return "memcpy" if m.group(1).startswith("Memcpy") else "sync"
    return "launch" if "launch" in e["name"].lower() or e["launched"] else "other"


def kclass(name):  # the kclass.c rules these traces need: memcpy/memset names, NCCL kernels
    if "Memcpy" in name or "Memset" in name:
        return "kernel_memory"
    return "kernel_communication" if re.match(r"(void )?nccl", name) else "kernel_compute"


lanes = {}
for e in ev:
    lanes.setdefault(e["lane"], []).append(e)
for v in lanes.values():
    v.sort(key=lambda e: (e["ts"], -e["end"], e["i"]))
acts = [e for e in ev if e["k"] == ACT]
s0 = min(e["ts"] for e in ev)
s1 = max(e["end"] for e in ev if e["k"] != ACT)
sink_cpu = min((e for e in ev if e["k"] != ACT and e["end"] == s1), key=lambda e: e["lane"])
last = max(acts, key=lambda e: (e["end"], e["i"]))
comp = {c: 0 for c in ["cpu_op", "launch", "kernel_compute", "kernel_communication",
                       "kernel_memory", "sync", "idle"]}
ops, kernels = {}, {}


def charge(cat, e, ns):
    if ns <= 0:
        return
    comp[cat] += ns
    if e is not None:
        tab = kernels if cat.startswith("kernel") else ops
        tab[e["name"]] = tab.get(e["name"], 0) + ns


lane, t = (last["lane"], last["end"]) if last["end"] > s1 else (sink_cpu["lane"], s1)
while t > s0:
    evs = lanes[lane]
    if not lane[0]:  # a thread
        bounds = [x for e in evs for x in (e["ts"], e["end"]) if x < t]
        if not bounds:
            break
        a = max(bounds)
        inner = [e for e in evs if e["ts"] <= a and e["end"] >= t]
        o = max(inner, key=lambda e: (e["ts"], -e["end"], e["i"])) if inner else None
        if o is not None and o["k"] == RT and t == o["end"] and rtclass(o) in ("sync", "memcpy"):
            if rtclass(o) == "memcpy":
                w = o["launched"] if o["launched"] and o["ts"] < o["launched"]["end"] <= t else None
            else:
                c = [x for x in acts if x["end"] <= t]
                w = max(c, key=lambda e: (e["end"], e["i"])) if c else None
                w = w if w and w["end"] > o["ts"] else None
            if w is not None:
                we = max(w["end"], s0)
                charge("sync", o, t - we)
                lane, t = w["lane"], we
                continue
        a = max(a, s0)
        if o is None:
            cat = "idle"
        elif o["k"] == CPU:
            cat = "cpu_op"
        else:
            r = rtclass(o)
            cat = "sync" if r == "sync" or (r == "memcpy" and not o["launched"]) else \
                "launch" if r == "launch" or o["launched"] else "cpu_op"
        charge(cat, o, t - a)
        t = a
    else:  # a stream
        before = [j for j, e in enumerate(evs) if e["ts"] < t]
        if not before:
            break
        j = before[-1]
        k = evs[j]
        if k["end"] < t:
            charge("idle", None, t - max(k["end"], s0))
            t = k["end"]
            continue
        a = max(k["ts"], s0)
        charge(kclass(k["name"]), k, t - a)
        t = a
        if t <= s0:
            break
        pend = min(evs[j - 1]["end"], t) if j > 0 else None
        lt = min(k["link"]["ts"], t) if k["link"] else None
        # free to start 10 us before t (call returned, stream free): it waited for the
        # latest end on another stream in (ready, t], if that came within 10 us of t
        ready = max(x for x in (pend, k["link"]["end"] if k["link"] else None, -2**63)
                    if x is not None)
        other = [x for x in acts if x["lane"] != lane and ready < x["end"] <= t]
        w = max(other, key=lambda e: (e["end"], e["i"])) if other else None
        if k["link"] and t - ready > 10000 and w is not None and t - w["end"] <= 10000:
            charge("sync", None, t - max(w["end"], s0))
            lane, t = w["lane"], max(w["end"], s0)
        elif lt is not None and (pend is None or lt > pend):
            charge("launch", k["link"], t - max(lt, s0))
            lane, t = k["link"]["lane"], max(lt, s0)
        elif pend is None:
            break
if t > s0:
    charge("idle", None, t - s0)
length = (last["end"] if last["end"] > s1 else s1) - s0


def top(tab):
    return [{"name": n, "ns": v} for n, v in sorted(tab.items(), key=lambda x: -x[1])[:10]]


print(json.dumps({"length_ns": length, "composition_ns": comp, "top_ops": top(ops),
                  "top_kernels": top(kernels)}, indent=1))
