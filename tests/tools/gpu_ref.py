#!/usr/bin/python3
"""gpu_ref.py - an independent reference for profreport's gpu_breakdown and
step_breakdown: reads a Kineto trace (JSON, .gz allowed) with the standard
library only, and prints the HTA and TensorBoard numbers computed the plain
way (sorted interval lists, no streaming), for tests to quote.

usage: tests/tools/gpu_ref.py TRACE [--comm-kernels REGEX]

Times are converted to integer ns from the decimal text of "ts"/"dur"
(Decimal, so ns-resolution traces stay exact). Definitions: README, "The
analysis model" (gpu_breakdown, step_breakdown), after HTA's
breakdown_analysis.py / communication_analysis.py and TensorBoard's
step_parser.py / overall_parser.py / gpu_metrics_parser.py.
"""
import gzip
import json
import re
import sys
from decimal import Decimal

GPU_CATS = {"kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset"}
RUNTIME_CATS = ("cuda_runtime", "cuda_driver", "runtime", "mtia_runtime", "xpu_runtime", "xpu_driver",
                "privateuse1_runtime", "privateuse1_driver")


def family(doc, ev):
    """the device family the classification is read for (docs/analysis.md, gpu_breakdown)"""
    props = doc.get("deviceProperties") or []
    backend = str((doc.get("distributedInfo") or {}).get("backend", "")).lower()
    cats = {e.get("cat") for e in ev}
    names = [str(d.get("name", "")) for d in props if isinstance(d, dict)]
    if cats & {"mtia_runtime", "mtia_ccp_events"} or "mtia" in backend or \
            any("mtia" in n.lower() for n in names):
        return "mtia"
    rt = [e["name"] for e in ev if e.get("cat") in RUNTIME_CATS]
    if any(n.startswith("hip") for n in rt) or \
            any(w in n for n in names for w in ("AMD", "Radeon", "Instinct")):
        return "rocm"
    if any(n.startswith("cu") for n in rt) or names:
        return "cuda"
    return "unknown"


def ns(v):
    return int((Decimal(str(v)) * 1000).to_integral_value())


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f, parse_float=Decimal)


def comm_lib(name, user):
    b = name[5:] if name.startswith("void ") else name
    if b.startswith("nccl"):
        return "nccl"
    if b.startswith("rccl"):
        return "rccl"
    if "gloo:" in name:
        return "gloo"
    if "msccl" in name.lower():
        return "msccl"
    if "nvshmem" in name.lower():
        return "nvshmem"
    if ("deep_ep::" in name or "dpsk::ep::" in name) and "layout" not in name and any(
            w in name for w in ("dispatch", "combine", "notify")):
        return "deepep"
    if user and re.search(user, name):
        return "user"
    return None


def merge(iv):
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def total(u):
    return sum(b - a for a, b in u)


def clip(u, s, e):
    return sum(max(0, min(b, e) - max(a, s)) for a, b in u)


def main():
    path = sys.argv[1]
    user = sys.argv[sys.argv.index("--comm-kernels") + 1] if "--comm-kernels" in sys.argv else None
    doc = load(path)
    ev = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    fam = family(doc, ev)
    # HTA drops GPU rows without a stream arg (stream -1) when the others have one
    streamed = any("stream" in e.get("args", {}) for e in ev if e.get("cat") in GPU_CATS)
    runtime = {}
    for e in ev:
        if e.get("cat") in RUNTIME_CATS and "correlation" in e.get("args", {}):
            runtime.setdefault(e["args"]["correlation"], (ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])))
    ops = []
    for e in ev:
        kind = GPU_CATS.get(e.get("cat"))
        if not kind:
            continue
        a = e.get("args", {})
        if streamed and "stream" not in a:
            continue
        lib = comm_lib(e["name"], user) if kind == "kernel" else None
        b = e["name"][5:] if e["name"].startswith("void ") else e["name"]
        cls = "memory" if kind != "kernel" else "communication" if lib else \
            "memory" if ("Memcpy" in e["name"] or "Memset" in e["name"]) else \
            "memory" if b.startswith("dma") and fam in ("mtia", "unknown") else "compute"
        ts = ns(e["ts"])
        ops.append(dict(kind=kind, name=e["name"], ts=ts, end=ts + ns(e["dur"]), cls=cls, lib=lib,
                        stream=(e["pid"], e["tid"]), rt=runtime.get(a.get("correlation")), args=a))
    ops.sort(key=lambda o: o["ts"])
    first, last = min(o["ts"] for o in ops), max(o["end"] for o in ops)

    def temporal(sel):
        span = max(o["end"] for o in sel) - min(o["ts"] for o in sel)
        busy = total(merge([(o["ts"], o["end"]) for o in sel]))
        comp = total(merge([(o["ts"], o["end"]) for o in sel if o["cls"] == "compute"]))
        cc = total(merge([(o["ts"], o["end"]) for o in sel if o["cls"] != "memory"]))
        return dict(span=span, busy=busy, compute=comp, communication=cc - comp, memory=busy - cc,
                    idle=span - busy)

    def idle_split(sel):
        """gaps between consecutive ops in start order (prev_end = latest end so far)"""
        out = dict(host=0, kernel=0, other=0)
        prev = None
        for o in sel:
            if prev is not None and o["ts"] > prev:
                gap = o["ts"] - prev
                if o["rt"] and o["rt"][0] > prev:
                    out["host"] += gap
                elif gap < 30:
                    out["kernel"] += gap
                else:
                    out["other"] += gap
            prev = o["end"] if prev is None else max(prev, o["end"])
        return out

    print("family", fam)
    print("rank", temporal(ops), idle_split(ops))
    for s in sorted({o["stream"] for o in ops}):
        sel = [o for o in ops if o["stream"] == s]
        print("stream", s, len(sel), temporal(sel), idle_split(sel))
    # queue length per stream (the gpu section; HTA's queue length summary): +1 at the linked
    # call's start, -1 at the op's end (not before the call's start); launches before ends at one
    # time; HTA's mean = mean of the length after each event; time at the maximum length
    for s in sorted({o["stream"] for o in ops}):
        evs = []
        for o in ops:
            if o["stream"] == s and o["rt"]:
                evs.append((o["rt"][0], 0))
                evs.append((max(o["end"], o["rt"][0]), 1))
        if not evs:
            continue
        evs.sort()
        q = qmax = 0
        vals, after = [], []
        for t, e in evs:
            q += -1 if e else 1
            vals.append(q)
            after.append((t, q))
        qmax = max(vals)
        at = 0
        for (t, v), (t2, _) in zip(after, after[1:]):
            if v == qmax:
                at += t2 - t
        sid = next(o["args"].get("stream") for o in ops if o["stream"] == s)
        print("queue", sid, len(vals), sum(vals) / len(vals), qmax, at)
    cu = merge([(o["ts"], o["end"]) for o in ops if o["cls"] == "communication"])
    pu = merge([(o["ts"], o["end"]) for o in ops if o["cls"] == "compute"])
    over = sum(clip(pu, a, b) for a, b in cu)
    print("overlap", total(cu), over, over / total(cu) if cu else None)
    for c in ("compute", "communication", "memory"):
        sel = [o for o in ops if o["cls"] == c]
        print("type", c, len(sel), sum(o["end"] - o["ts"] for o in sel))
    libs = {}
    for o in ops:
        if o["lib"]:
            libs.setdefault(o["lib"], []).append(o["end"] - o["ts"])
    print("libs", {k: (len(v), sum(v)) for k, v in libs.items()})
    dirs = {}
    for o in ops:
        if o["cls"] != "memory":
            continue
        n = o["name"]
        d = "Memset" if o["kind"] == "memset" or "Memset" in n else next(
            (x for x, y in (("HtoD", "HostToDevice"), ("DtoH", "DeviceToHost"), ("DtoD", "DeviceToDevice"),
                            ("PtoP", "PeerToPeer"), ("HtoH", "HostToHost")) if x in n or y in n), "other")
        r = dirs.setdefault(d, [0, 0, 0, 0])
        r[0] += 1
        r[1] += o["end"] - o["ts"]
        if "bytes" in o["args"]:
            r[2] += int(o["args"]["bytes"])
            r[3] += o["end"] - o["ts"]
    print("memory", {k: (v[0], v[1], v[2], v[2] / (v[3] / 1e9) if v[3] else None) for k, v in dirs.items()})
    byname = {}
    for o in ops:
        byname.setdefault(o["name"], []).append(o["end"] - o["ts"])
    top = sorted(byname.items(), key=lambda kv: -sum(kv[1]))[:3]
    for n, v in top:
        v = sorted(v)
        m = len(v)
        med = v[(m - 1) // 2] if m % 2 else (v[m // 2 - 1] + v[m // 2]) / 2
        print("top", n[:60], m, sum(v), med)

    # ---- TensorBoard ----
    steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]) for e in ev
                   if e["name"].startswith("ProfilerStep#") and e.get("cat") != "gpu_user_annotation")
    if not steps:
        return
    dev = [[None, None, 0] for _ in steps]  # min start, max end, count
    matched = set()
    for i, o in enumerate(ops):
        if not o["rt"]:
            continue
        for k, (hs, he, _) in enumerate(steps):
            if hs <= o["rt"][0] and o["rt"][1] <= he:
                d = dev[k]
                d[0] = o["ts"] if d[0] is None else min(d[0], o["ts"])
                d[1] = o["end"] if d[1] is None else max(d[1], o["end"])
                d[2] += 1
                matched.add(i)
                break
    adj = []
    if matched:
        prev = steps[0][0]
        if dev[0][0] is not None:
            for i, o in enumerate(ops):
                if i not in matched and o["end"] < dev[0][0]:
                    prev = max(prev, o["end"])
        for k, (hs, he, _) in enumerate(steps):
            s = max(prev, hs)
            if dev[k][0] is None:
                e = max(he, s)
            else:
                e = max(he, dev[k][1])
                if e < s:
                    e = s
            adj.append((s, e))
            prev = e
        keep = len(steps)
        if len(steps) > 1:
            j = len(steps) - 1
            while j >= 0 and dev[j][2] == 0:
                j -= 1
            if j >= 0:
                keep = j + 1
                if j > 0 and dev[j - 1][2] * 0.8 > dev[j][2]:
                    keep = j
        adj = adj[:keep]
    else:
        adj = [(hs, he) for hs, he, _ in steps]
    roles = [[] for _ in range(7)]
    for o in ops:
        r = {"memcpy": 1, "memset": 2}.get(o["kind"], 3 if o["lib"] else 0)
        roles[r].append((o["ts"], o["end"]))
    for e in ev:
        c, n = e.get("cat"), e["name"]
        t0 = ns(e["ts"])
        t1 = t0 + ns(e["dur"])
        if c in ("cuda_runtime", "cuda_driver"):
            roles[4].append((t0, t1))
        elif c in ("cpu_op", "user_annotation") and n.startswith("enumerate(DataLoader)#") and \
                n.endswith(".__next__"):
            roles[5].append((t0, t1))
        elif c == "cpu_op":
            roles[6].append((t0, t1))
    cum = []
    acc = []
    for r in roles:
        acc = acc + r
        cum.append(merge(acc))
    kern = merge([(o["ts"], o["end"]) for o in ops if o["kind"] == "kernel"])
    names = ["kernel", "memcpy", "memset", "communication", "runtime", "dataloader", "cpu_exec"]
    for (s, e), st in zip(adj, steps):
        prevc = 0
        row = {}
        for n, u in zip(names, cum):
            c = clip(u, s, e)
            row[n] = c - prevc
            prevc = c
        row["other"] = (e - s) - prevc
        row["gpu_util"] = clip(kern, s, e) / (e - s) if e > s else None
        print("step", st[2], s - first, e - s, row)
    s0, e0 = adj[0][0], adj[-1][1]
    print("steps gpu_utilization", clip(kern, s0, e0) / (e0 - s0))
    # SM efficiency and occupancy (TensorBoard): sweep over kernel endpoints
    pts = []
    occ_w = occ_d = 0
    for o in ops:
        if o["kind"] != "kernel":
            continue
        b = o["args"].get("blocks per SM")
        if b is not None and b > 0:
            pts.append((o["ts"], 0, float(b)))
            pts.append((o["end"], 1, float(b)))
        oc = o["args"].get("est. achieved occupancy %")
        if oc is not None and oc >= 0:
            d = max(0, min(o["end"], e0) - max(o["ts"], s0))
            occ_w += float(oc) * d
            occ_d += d
    pts.sort()
    sm = 0.0
    cur = 0.0
    for i, (t, typ, v) in enumerate(pts):
        cur = cur + v if typ == 0 else cur - v
        if i + 1 < len(pts) and cur > 1e-12:
            a, b = max(t, s0), min(pts[i + 1][0], e0)
            if b > a:
                sm += min(cur, 1.0) * (b - a)
    print("steps sm_efficiency", sm / (e0 - s0) if pts else None,
          "occupancy", occ_w / occ_d if occ_d else None)


if __name__ == "__main__":
    main()
