#!/usr/bin/python3
"""trace_facts.py TRACE.json[.gz] KERNEL_TEXT > FACTS.json

What the trace view of TRACE's page must show, from the Chrome trace file itself (not from
profreport), for check_trace.js:
  windows   the labels of the windows: the slowest step and the median step (by duration, ties
            by start; the median is the lower middle), in start order; one window when they
            are the same step; no steps: the whole run
  search    {"text": KERNEL_TEXT, "count": how many complete events whose name holds the text
            (case-insensitive) overlap a window}
  in_windows_x  how many complete events (less the profiler's own, cat "Trace") overlap a window
  pairs     runtime call -> device activity pairs by their "correlation" arg, both overlapping
            a window: {"launch", "kernel", "launch_dur", "kernel_dur"} (durations in ns)
A step is a complete ("X") event named ProfilerStep#N on a CPU (cat cpu_op/user_annotation, or
none). A window is a step's [ts, ts + dur], its end extended to the end of the device work that
the step's runtime calls launched (correlation), but not past the next step's start plus the
step's own duration. Times are read as exact decimals of microseconds and kept in ns.
"""
import decimal
import gzip
import json
import sys


LAUNCH = ("cuda_runtime", "cuda_driver")  # runtime and driver API calls launch device work


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        d = json.load(f, parse_float=decimal.Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d


def ns(v):
    return int((decimal.Decimal(v) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_EVEN))


def main():
    # complete events, less the profiler's own span over the whole capture (cat "Trace")
    ev = [e for e in load(sys.argv[1]) if e.get("ph") == "X" and e.get("cat") != "Trace"]
    text = sys.argv[2].lower()
    for e in ev:
        e["_t"], e["_d"] = ns(e["ts"]), ns(e.get("dur", 0))
    steps = [e for e in ev if str(e.get("name", "")).startswith("ProfilerStep#")
             and e.get("cat", "cpu_op") in ("cpu_op", "user_annotation")]
    steps.sort(key=lambda e: e["_t"])
    dev_cats = ("kernel", "gpu_memcpy", "gpu_memset")
    by_corr = {}
    for e in ev:
        c = (e.get("args") or {}).get("correlation")
        if c is not None and e.get("cat") in dev_cats:
            by_corr.setdefault(c, []).append(e)
    wins = []
    if steps:
        slow = sorted(steps, key=lambda e: (-e["_d"], e["_t"]))[0]
        med = sorted(steps, key=lambda e: (e["_d"], e["_t"]))[(len(steps) - 1) // 2]
        chosen = [slow] if slow is med else sorted([slow, med], key=lambda e: e["_t"])
        for s in chosen:
            t0, t1 = s["_t"], s["_t"] + s["_d"]
            nxt = [x["_t"] for x in steps if x["_t"] > s["_t"]]
            cap = (nxt[0] if nxt else t1) + s["_d"]
            end = t1
            for e in ev:
                if e.get("cat") in LAUNCH and t0 <= e["_t"] < t1:
                    for a in by_corr.get((e.get("args") or {}).get("correlation"), []):
                        end = max(end, a["_t"] + a["_d"])
            what = "slowest and median" if slow is med else "slowest" if s is slow else "median"
            wins.append(("%s step %s" % (what, s["name"]),
                         t0, min(end, max(cap, t1))))
    else:
        t0 = min(e["_t"] for e in ev)
        wins.append(("whole run", t0, max(e["_t"] + e["_d"] for e in ev)))

    def inside(e):
        return any(e["_t"] < b and e["_t"] + e["_d"] > a or (e["_d"] == 0 and a <= e["_t"] <= b)
                   for _, a, b in wins)

    shown = [e for e in ev if inside(e)]
    count = sum(1 for e in shown if text in str(e.get("name", "")).lower())
    launches = {}
    for e in shown:
        c = (e.get("args") or {}).get("correlation")
        if c is not None and e.get("cat") in LAUNCH:
            launches[c] = e
    pairs = []
    for e in shown:
        c = (e.get("args") or {}).get("correlation")
        if e.get("cat") in dev_cats and c in launches:
            pairs.append({"launch": launches[c]["name"], "kernel": e["name"],
                          "launch_dur": launches[c]["_d"], "kernel_dur": e["_d"]})
    json.dump({"windows": [w[0] for w in wins], "search": {"text": sys.argv[2], "count": count},
               "pairs": pairs, "in_windows_x": len(shown)}, sys.stdout)


main()
