#!/usr/bin/python3
"""Facts about the DDP traces, derived from the JSON alone (no profreport).

For every rank: the phase totals of the direct children of ProfilerStep#N
that are not operators (data_loading, forward, backward, optimizer), the
time in gloo:all_reduce, and the mean step; then the median across ranks
and each rank's ratio to it. tests/cli/t0014-ddp.sh asserts these numbers.

    /usr/bin/python3 facts.py named
"""
import glob
import json
import os
import re
import statistics
import sys

d = sys.argv[1] if len(sys.argv) > 1 else "named"
rows = {}
for path in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), d, "*.json"))):
    ev = json.load(open(path))
    m = re.search(r"rank(\d+)", os.path.basename(path))
    key = int(m.group(1)) if m else os.path.basename(path)
    steps = [e for e in ev if e["name"].startswith("ProfilerStep#")]
    tot = {}
    for e in ev:
        # a direct child of a step: inside it, and no other non-step span between
        for s in steps:
            if s["ts"] <= e["ts"] and e["ts"] + e["dur"] <= s["ts"] + s["dur"] and e is not s:
                break
        else:
            continue
        if "::" in e["name"] or e["name"].startswith("ProfilerStep#"):
            continue
        if e["name"] in ("data_loading", "forward", "backward", "optimizer"):
            tot[e["name"]] = tot.get(e["name"], 0) + int(round(e["dur"] * 1000))
    tot["gloo:all_reduce"] = sum(int(round(e["dur"] * 1000)) for e in ev if e["name"] == "gloo:all_reduce")
    tot["step_mean"] = statistics.mean(int(round(s["dur"] * 1000)) for s in steps)
    tot["steps"] = len(steps)
    rows[key] = tot
for k, v in rows.items():
    print(k, v)
for name in ("data_loading", "backward", "gloo:all_reduce"):
    vals = [v[name] for v in rows.values()]
    med = statistics.median(vals)
    print(name, "median_ns", med, "ratios", {k: round(v[name] / med, 2) for k, v in rows.items()})
