#!/usr/bin/python3
"""check_gpu_panels.py - the numbers the GPU panels draw, derived again from the trace.

usage: tests/tools/check_gpu_panels.py TRACE DIR

DIR holds the layout dumps that tests/tools/panel_dump writes (gpu_*.layout.txt)
for the model of TRACE. The reference numbers come from tests/tools/gpu_ref.py
(HTA's and TensorBoard's definitions over the trace with the standard library,
no profreport code) and, for the queue lengths, from a sweep over the trace
below. Checked:
  gpu_temporal  every bar (the rank, each stream) has the segments compute /
                communication / memory / idle host wait / kernel wait / other
                = 100 * the reference's ns / span (1e-6), they sum to 100 %, and
                every label drawn inside a segment is that share as "%.1f%%"
  gpu_overlap   overlapped = 100 * overlapped ns / communication ns, the rest
                the complement, labels "%.1f%% (...)"
  gpu_kernel_types  the bar of each type = the reference's total ns and count
  gpu_top_kernels   bar values = the GPU ops' totals per name summed here, the
                    largest first, labels "total  share%  xcount" with share =
                    total / all GPU op time (the reference's types summed)
  gpu_queue     the y axis starts at 0 (never negative), each stream's legend
                "max N" = the maximum of the sweep: +1 at the runtime call's
                start, -1 at the activity's end (at least the call's start),
                ends before starts at one instant; "mean M" = its time-weighted
                mean from the first call start to the last end (to 0.05)
  gpu_steps     each step's segments = the reference's ns per category, they
                sum to the step's duration, and the labels are their shares
Exits 1 with one line per failure.
"""
import collections
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_ref  # noqa: E402  (the trace loader and ns conversion)

fails = []
checked = [0]


def fail(msg):
    fails.append(msg)


def close(a, b, tol, what):
    checked[0] += 1
    if abs(a - b) > tol:
        fail(f"{what}: drawn {a!r}, derived {b!r}")


def parse(path):
    """bars [(cat, group, value, (x, y, w, h))], texts [(role, x, y, text)], yticks, y range"""
    bars, texts, lo = [], [], None
    with open(path) as f:
        for line in f:
            m = re.match(r'bar (\d+) (\d+) #\w+ value (\S+) rect (\S+) (\S+) (\S+) (\S+)', line)
            if m:
                bars.append((int(m[1]), int(m[2]), float(m[3]), tuple(float(m[i]) for i in range(4, 8))))
            m = re.match(r'text (\S+) (\S+) (\S+) size .*"(.*)"$', line.rstrip("\n"))
            if m:
                texts.append((m[1], float(m[2]), float(m[3]), m[4]))
            m = re.match(r'y range (\S+) (\S+)', line)
            if m:
                lo = float(m[1])
    return bars, texts, lo


def label_in(texts, rect):
    x, y, w, h = rect
    for role, tx, ty, t in texts:
        if role == "value" and x <= tx <= x + w and y <= ty <= y + h + 1:
            return t
    return None


def reference(trace):
    out = subprocess.run([sys.executable, os.path.join(HERE, "gpu_ref.py"), trace], check=True,
                         capture_output=True, text=True).stdout
    import ast
    ref = dict(streams={}, types={}, top=[], steps=[])
    for line in out.splitlines():
        key, _, rest = line.partition(" ")
        if key == "rank":
            ref["rank"] = ast.literal_eval("(" + rest.replace("} {", "}, {") + ")")
        elif key == "stream":
            m = re.match(r"(\(.*?\)) (\d+) (.*)", rest)
            ref["streams"][ast.literal_eval(m[1])] = ast.literal_eval("(" + m[3].replace("} {", "}, {") + ")")
        elif key == "overlap":
            c, o, _ = rest.split(" ")
            ref["overlap"] = (int(c), int(o))
        elif key == "type":
            t, n, ns_ = rest.split(" ")
            ref["types"][t] = (int(n), int(ns_))
        elif key == "top":
            m = re.match(r"(.*) (\d+) (\d+) (\S+)$", rest)
            ref["top"].append((m[1], int(m[2]), int(m[3])))
        elif key == "step":
            m = re.match(r"(\S+) (-?\d+) (\d+) (\{.*\})$", rest)
            ref["steps"].append((m[1], int(m[3]), ast.literal_eval(m[4])))
    return ref


def segments(span, t, idle):
    return [t["compute"], t["communication"], t["memory"], idle["host"], idle["kernel"], idle["other"]]


def check_temporal(d, ref):
    bars, texts, _ = parse(os.path.join(d, "gpu_temporal.layout.txt"))
    names = [t for role, _, _, t in texts if role == "ytick"]
    by_cat = collections.defaultdict(dict)
    for c, g, v, r in bars:
        by_cat[c][g] = (v, r)
    for c, name in enumerate(names):
        if name == "rank (all streams)":
            t, idle = ref["rank"]
        else:
            m = re.match(r"GPU (\S+) stream (\S+)$", name)  # as the trace view names the lane
            t, idle = ref["streams"][(int(m[1]), int(m[2]))]
        want = [100 * x / t["span"] for x in segments(t["span"], t, idle)]
        close(sum(want), 100, 1e-9, f"temporal {name}: reference shares sum")
        got = by_cat[c]
        close(sum(v for v, _ in got.values()), 100, 1e-5, f"temporal {name}: drawn segments sum")
        for g, w in enumerate(want):
            v, r = got.get(g, (0.0, None))
            close(v, w, 1e-5, f"temporal {name} segment {g}")
            lab = label_in(texts, r) if r else None
            if lab is not None and lab != f"{w:.1f}%":
                fail(f"temporal {name} segment {g}: label {lab!r}, derived {w:.1f}%")


def check_overlap(d, ref):
    p = os.path.join(d, "gpu_overlap.layout.txt")
    if "overlap" not in ref or not ref["overlap"][0]:
        if os.path.exists(p):
            fail("an overlap panel without communication kernels")
        return
    bars, texts, _ = parse(p)
    c, o = ref["overlap"]
    want = [100 * o / c, 100 - 100 * o / c]
    for (cat, g, v, r), w in zip(sorted(bars), want):
        close(v, w, 1e-5, f"overlap segment {g}")
        lab = label_in(texts, r)
        if lab is not None and not lab.startswith(f"{w:.1f}% ("):
            fail(f"overlap segment {g}: label {lab!r}, derived {w:.1f}%")


def check_types(d, ref):
    bars, texts, _ = parse(os.path.join(d, "gpu_kernel_types.layout.txt"))
    names = [t for role, _, _, t in texts if role == "ytick"]
    for c, v, in [(b[0], b[2]) for b in bars]:
        m = re.match(r"(\w+) \((\d+)\)", names[c])
        n, ns_ = ref["types"][m[1]]
        close(v, ns_, 0.5, f"kernel type {m[1]} time")
        close(int(m[2]), n, 0, f"kernel type {m[1]} count")


def top_ops(trace):
    """(total ns, count) of every GPU op name (kernel, memcpy, memset), the largest total first"""
    by = collections.defaultdict(lambda: [0, 0])
    for e in gpu_ref.load(trace)["traceEvents"]:
        if e.get("ph") == "X" and e.get("cat") in gpu_ref.GPU_CATS:
            by[e["name"]][0] += gpu_ref.ns(e["dur"])
            by[e["name"]][1] += 1
    return sorted((tuple(v) for v in by.values()), key=lambda v: -v[0])


def check_top(d, ref, trace):
    bars, texts, _ = parse(os.path.join(d, "gpu_top_kernels.layout.txt"))
    all_ns = sum(ns_ for _, ns_ in ref["types"].values())
    top = top_ops(trace)
    if len(bars) != min(15, len(top)):
        fail(f"top kernels: {len(bars)} bars, derived {min(15, len(top))}")
    for (c, g, v, r), (tot, _) in zip(sorted(bars), top):
        close(v, tot, 0.5, f"top kernel {c} total")
        lab = [t for role, tx, ty, t in texts if role == "value" and r[1] <= ty <= r[1] + r[3] + 1]
        share = f"{100 * tot / all_ns:.1f}%"
        counts = {f"x{n}" for t_, n in top if t_ == tot}  # ties: any name with that total
        if not lab or share not in lab[0].split() or not counts & set(lab[0].split()):
            fail(f"top kernel {c}: label {lab!r}, derived share {share} count {counts}")


def queues(trace):
    ev = [e for e in gpu_ref.load(trace)["traceEvents"] if e.get("ph") == "X"]
    calls = {}
    for e in ev:
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            calls.setdefault(e["args"]["correlation"], gpu_ref.ns(e["ts"]))
    per = collections.defaultdict(list)
    for e in ev:
        if e.get("cat") not in gpu_ref.GPU_CATS:
            continue
        a = e.get("args", {})
        s = calls.get(a.get("correlation"))
        if s is None:
            continue
        end = max(s, gpu_ref.ns(e["ts"]) + gpu_ref.ns(e["dur"]))
        per[str(a.get("stream", e["tid"]))] += [(s, 1), (end, -1)]
    out = {}
    for st, pts in per.items():
        pts.sort(key=lambda p: (p[0], p[1]))  # ends first at one instant
        q = mx = area = 0
        prev = pts[0][0]
        for t, dv in pts:
            area += q * (t - prev)
            prev = t
            q += dv
            if q < 0:
                fail(f"queue of stream {st} goes below zero in the reference")
            mx = max(mx, q)
        out[st] = (mx, area / (pts[-1][0] - pts[0][0]) if pts[-1][0] > pts[0][0] else 0)
    return out


def check_queue(d, trace):
    _, texts, lo = parse(os.path.join(d, "gpu_queue.layout.txt"))
    if lo is None or lo < 0:
        fail(f"queue axis starts at {lo}, below zero")
    ref = queues(trace)
    legends = [t for role, _, _, t in texts if role == "legend"]
    if not legends:
        fail("queue panel without a legend")
    for t in legends:
        m = re.match(r"GPU \S+ stream (\S+): mean (\S+), max (\d+)$", t)
        if not m:
            fail(f"queue legend {t!r} unreadable")
            continue
        mx, mean = ref[m[1]]
        close(int(m[3]), mx, 0, f"queue max of stream {m[1]}")
        close(float(m[2]), mean, 0.05 + 1e-9, f"queue mean of stream {m[1]}")


def check_steps(d, ref):
    bars, texts, _ = parse(os.path.join(d, "gpu_steps.layout.txt"))
    names = [t for role, _, _, t in texts if role == "xtick"]
    keys = ["kernel", "memcpy", "memset", "communication", "runtime", "dataloader", "cpu_exec", "other"]
    steps = {n: (dur, row) for n, dur, row in ref["steps"]}
    by_cat = collections.defaultdict(dict)
    for c, g, v, r in bars:
        by_cat[c][g] = (v, r)
    if len(names) != len(steps):
        fail(f"steps: {len(names)} bars, derived {len(steps)}")
    for c, name in enumerate(names):
        dur, row = steps[name]
        close(sum(row[k] for k in keys), dur, 0, f"step {name}: reference categories sum")
        close(sum(v for v, _ in by_cat[c].values()), dur, 1, f"step {name}: drawn segments sum")
        for g, k in enumerate(keys):
            v, r = by_cat[c].get(g, (0.0, None))
            close(v, row[k], 0.5, f"step {name} {k}")
            lab = label_in(texts, r) if r else None
            if lab is not None and lab != f"{100 * row[k] / dur:.1f}%":
                fail(f"step {name} {k}: label {lab!r}, derived {100 * row[k] / dur:.1f}%")


def main():
    trace, d = sys.argv[1], sys.argv[2]
    ref = reference(trace)
    check_temporal(d, ref)
    check_overlap(d, ref)
    check_types(d, ref)
    check_top(d, ref, trace)
    check_queue(d, trace)
    check_steps(d, ref)
    for f in fails:
        print("check_gpu_panels: FAIL:", f)
    if not fails:
        print(f"check_gpu_panels: ok ({checked[0]} numbers)")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
