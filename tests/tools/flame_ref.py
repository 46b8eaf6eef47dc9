#!/usr/bin/env python3
"""flame_ref.py TRACE[.gz] - the flame trees of a Kineto/Chrome trace, computed in plain
Python from the trace (not from profreport's store), to check analyze/an_flame.c.

Host tree: the complete ('X') events that are not device activity, GPU annotations or the
profiler's own window ("Trace" spans), nested per (pid, tid) by start (the longer first on a
tie): a span's parent is the innermost one still open at its start (open: end > start). A
path is the names from the top; a ProfilerStep#N span is named ProfilerStep#* (trailing
number as '*'), so identical stacks of all steps merge. A path's total is the sum of its
spans' durations (ns from the trace's us, decimal).

GPU tree: each kernel / gpu_memcpy / gpu_memset with args.correlation goes under the path
of the parent of the first runtime call (cuda_runtime / cuda_driver) of that correlation
(the call's own path where it has no parent); the activity's name is the leaf. Activities
without a call: "(no launching call)".

`flame_ref.py TRACE --search TERM` prints the share of the total in host paths whose last
name contains TERM (case-insensitive) and none above does (a match inside a match counts
once); `flame_ref.py TRACE --steps` the step names in start order, comma-separated;
`flame_ref.py TRACE --check MODEL.json` compares the model's flame section with these trees
(every node kept, host and gpu, by path; by_step's roots = the 8 slowest steps in start
order; the gpu activities and total), prints a line per tree and exits 1 on a difference.

Otherwise prints JSON: {"steps": [[name, dur_ns], ...] in start order, "host": {path: total},
"gpu": {path: total}, "gpu_activities": n, "gpu_unlinked": n}; a path is its names joined
by '\\x1f'.
"""
import gzip
import json
import re
import sys
from decimal import Decimal

SEP = "\x1f"
DEVICE = {"kernel", "gpu_memcpy", "memcpy", "gpu_memset", "memset"}
SKIP = DEVICE | {"gpu_user_annotation", "trace"}
RUNTIME = {"cuda_runtime", "cuda_driver", "runtime"}


def ns(x):
    return int((Decimal(str(x)) * 1000).to_integral_value())


def main(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        doc = json.load(f)
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    host, dev = [], []
    for i, e in enumerate(evs):
        if e.get("ph") != "X" or "dur" not in e:
            continue
        cat = str(e.get("cat", "")).lower()
        if cat in DEVICE:
            dev.append(e)
        elif cat not in SKIP and not str(e.get("name", "")).startswith("PyTorch Profiler"):
            host.append((e.get("pid"), e.get("tid"), ns(e["ts"]), ns(e["dur"]), i, e))
    host.sort(key=lambda h: (str(h[0]), str(h[1]), h[2], -h[3], h[4]))
    tree, steps, path_of = {}, [], {}
    stack, track = [], None
    for pid, tid, ts, dur, i, e in host:
        if (pid, tid) != track:
            stack, track = [], (pid, tid)
        while stack and stack[-1][0] <= ts:
            stack.pop()
        name = e["name"]
        if name.startswith("ProfilerStep#") and len(name) > 13:
            steps.append((ts, i, name, dur))
            name = re.sub(r"[0-9]+$", "*", name)
        parent = stack[-1][1] if stack else None
        p = (parent + SEP if parent is not None else "") + name
        tree[p] = tree.get(p, 0) + dur
        path_of[i] = (p, parent)
        stack.append((ts + dur, p))
    calls = {}
    for pid, tid, ts, dur, i, e in sorted(host, key=lambda h: h[4]):
        corr = (e.get("args") or {}).get("correlation")
        if str(e.get("cat", "")).lower() in RUNTIME and isinstance(corr, int) and corr not in calls:
            p, parent = path_of[i]
            calls[corr] = parent if parent is not None else p
    gpu, unlinked = {}, 0
    for e in dev:
        corr = (e.get("args") or {}).get("correlation")
        at = calls.get(corr) if isinstance(corr, int) else None
        if at is None:
            at, unlinked = "(no launching call)", unlinked + 1
        leaf = at + SEP + e["name"]
        d = max(ns(e["dur"]), 0)
        gpu[leaf] = gpu.get(leaf, 0) + d
        parts = at.split(SEP)
        for k in range(1, len(parts) + 1):
            q = SEP.join(parts[:k])
            gpu[q] = gpu.get(q, 0) + d
    steps.sort()
    if len(sys.argv) > 2 and sys.argv[2] == "--steps":
        print(",".join(n for _, _, n, _ in steps))
        return
    if len(sys.argv) > 3 and sys.argv[2] == "--search":
        term = sys.argv[3].lower()
        total = sum(v for p, v in tree.items() if SEP not in p)
        hit = 0
        for p, v in tree.items():
            parts = p.lower().split(SEP)
            if term in parts[-1] and not any(term in q for q in parts[:-1]):
                hit += v
        print(repr(hit / total))
        return
    if len(sys.argv) > 3 and sys.argv[2] == "--check":
        sys.exit(check(sys.argv[3], steps, tree, gpu, len(dev)))
    json.dump({"steps": [[n, d] for _, _, n, d in steps], "host": tree, "gpu": gpu,
               "gpu_activities": len(dev), "gpu_unlinked": unlinked}, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


def model_paths(nodes):
    out, stack = {}, []
    for n in nodes:
        del stack[n["depth"]:]
        stack.append(n["name"])
        out[SEP.join(stack)] = n["total"]
    return out


def check(model, steps, tree, gpu, nact):
    with open(model) as f:
        fl = json.load(f)["runs"][0]["flame"]
    bad = 0
    for what, nodes, ref in (("host", fl["nodes"], tree), ("gpu", fl.get("gpu", {}).get("nodes", []), gpu)):
        got = model_paths(nodes)
        wrong = [p for p, v in got.items() if ref.get(p) != v]
        for p in wrong[:5]:
            print("%s: %s: model %s, trace %s" % (what, p.replace(SEP, " / "), got[p], ref.get(p)))
        print("%s: %d nodes, %d differ" % (what, len(got), len(wrong)))
        bad += len(wrong)
    slow = sorted(steps, key=lambda s: (-s[3], s[1]))[:8]
    want = [(n, d) for _, _, n, d in sorted(slow)]
    got = [(n["name"], n["total"]) for n in fl.get("by_step", {}).get("nodes", []) if n["depth"] == 0]
    print("by_step: roots %s" % ("as the trace's slowest steps" if got == want else "%s, want %s" % (got, want)))
    bad += got != want
    if nact:
        g = fl.get("gpu", {})
        total = sum(v for p, v in gpu.items() if SEP not in p)
        ok = g.get("activities") == nact and g.get("total") == total
        print("gpu: %s activities, %s ns%s" % (nact, total, "" if ok else " (model %s, %s)" % (g.get("activities"), g.get("total"))))
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    main(sys.argv[1])
