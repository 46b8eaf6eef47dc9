#!/usr/bin/python3
"""agg_facts.py - facts for an aggregate of Kineto rank traces (agg.json), derived from the
traces alone (standard-library Python, no profreport code, no agg.json read).

usage: tests/tools/agg_facts.py TRACE...      prints `model SUBJECT OP VALUE # DERIVATION`
                                             lines (tests/tools/checks.py) for agg.json
       tests/tools/agg_facts.py --p TRACE...  prints only the arrival p-value ("%.2g")
       tests/tools/agg_facts.py --inferix DIR  facts for `aggregate DIR --to inferix` of the
                                             Inferix reports DIR/rank_<R>/*.json: per rank
                                             from its gpu/cpu timelines (max and mean of
                                             memory_used_mb, utilization, cpu_usage), then
                                             min, max, mean and sum over the ranks

Per rank (distributedInfo.rank): the total time of the data-loading user_annotation
(enumerate(DataLoader)#...) and of the NCCL kernels, and per step (the k-th NCCL kernel in
time order is step k's all-reduce: every rank issues them in the same order) the rank with the
least time in it, which arrived last (the others waited for it). The straggler's facts: its
data loading over the median of the ranks', its NCCL time over the median, how many steps it
arrived last in, and p = N x P(Binomial(steps, 1/N) >= that count) (docs/aggregate.md), the
binomial tail summed exactly with fractions.
"""
import gzip
import json
import os
import sys
from decimal import Decimal
from fractions import Fraction
from math import comb


def ns(v):
    return int((Decimal(str(v)) * 1000).to_integral_value())


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f)


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def inferix(top):
    import glob
    ranks = []
    for path in sorted(glob.glob(os.path.join(top, "rank_*", "*.json"))):
        d = load(path)
        g, c = d["gpu_metrics"]["timeline"], d["cpu_metrics"]["timeline"]
        mem = [x["memory_used_mb"] for x in g]
        util = [x["utilization"] for x in g]
        cpu = [x["cpu_usage"] for x in c]
        ranks.append(dict(rank=int(os.path.basename(os.path.dirname(path))[5:]),
                          duration=d["session_info"]["duration"],
                          peak_memory_usage_mb=max(mem), avg_memory_usage_mb=sum(mem) / len(mem),
                          avg_gpu_utilization=sum(util) / len(util),
                          peak_gpu_utilization=max(util), avg_cpu_usage=sum(cpu) / len(cpu),
                          peak_cpu_usage=max(cpu)))
    why = "python3 tests/tools/agg_facts.py --inferix over the %d reports" % len(ranks)
    print("model total_reports == %d # %s: one per rank directory" % (len(ranks), why))
    for i, r in enumerate(sorted(ranks, key=lambda r: r["rank"])):
        print("model reports_summary/%d/rank == %d # %s: its rank_<R> directory" % (i, r["rank"], why))
        print("model reports_summary/%d/duration ~ %r 1e-9 # %s: session_info.duration"
              % (i, r["duration"], why))
    for sect, keys in (("aggregated_gpu_metrics", ("peak_memory_usage_mb", "avg_memory_usage_mb",
                                                   "avg_gpu_utilization", "peak_gpu_utilization")),
                       ("aggregated_cpu_metrics", ("avg_cpu_usage", "peak_cpu_usage"))):
        for k in keys:
            v = [r[k] for r in ranks]
            for agg, x in (("min", min(v)), ("max", max(v)), ("avg", sum(v) / len(v)),
                           ("sum", sum(v))):
                print("model %s/%s_%s ~ %r %.3g # %s: %s of the ranks' %s (the timelines' %s)"
                      % (sect, k, agg, x, abs(x) * 1e-9 or 1e-12, why, agg, k,
                         "max" if k.startswith("peak") else "mean"))


def main():
    args = sys.argv[1:]
    if args[:1] == ["--inferix"] and len(args) == 2:
        inferix(args[1])
        return
    only_p = args[:1] == ["--p"]
    paths = args[1:] if only_p else args
    if not paths:
        sys.exit(__doc__)
    ranks = {}
    for p in paths:
        doc = load(p)
        r = doc["distributedInfo"]["rank"]
        ev = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
        dl = sum(ns(e["dur"]) for e in ev if e.get("cat") == "user_annotation" and
                 e["name"].startswith("enumerate(DataLoader)#"))
        nccl = sorted((ns(e["ts"]), ns(e["dur"]), e["name"]) for e in ev
                      if e.get("cat") == "kernel" and e["name"].startswith("nccl"))
        ranks[r] = dict(dl=dl, nccl=[d for _, d, _ in nccl], name=nccl[0][2], src=os.path.basename(p))
    n = len(ranks)
    steps = min(len(x["nccl"]) for x in ranks.values())
    last = [min(ranks, key=lambda r: (ranks[r]["nccl"][k], r)) for k in range(steps)]
    s = max(set(last), key=lambda r: (last.count(r), -r))
    k = last.count(s)
    q = Fraction(1, n)
    p = min(1, n * sum(comb(steps, j) * q ** j * (1 - q) ** (steps - j) for j in range(k, steps + 1)))
    if only_p:
        print("%.2g" % float(p))
        return
    name = ranks[s]["name"]
    why = "python3 tests/tools/agg_facts.py over the %d rank traces" % n
    sel = "stragglers/ranks/[rank=%d]" % s
    dl_med = median([x["dl"] for x in ranks.values()])
    nc_med = median([sum(x["nccl"]) for x in ranks.values()])
    ev_dl = sel + "/evidence/[what=stage]"
    ev_nc = sel + "/evidence/[what=collective]"
    ev_ar = sel + "/evidence/[what=arrival]"
    out = [
        ("stragglers/ranks", "len", 1, "one rank stands out"),
        (sel + "/rank", "==", s, "the rank that arrived last most often"),
        (ev_dl + "/value", "==", ranks[s]["dl"], "its data-loading user_annotations' total dur"),
        (ev_dl + "/median", "==", dl_med, "the median of the %d ranks' totals" % n),
        (ev_dl + "/ratio", "~", round(ranks[s]["dl"] / dl_med, 9), "their ratio"),
        (ev_nc + "/value", "==", sum(ranks[s]["nccl"]), "its %d NCCL kernels' total dur" % steps),
        (ev_nc + "/median", "==", nc_med, "the median of the ranks' NCCL totals"),
        (ev_ar + "/steps", "==", k, "steps whose k-th NCCL kernel is shortest on this rank"),
        (ev_ar + "/of", "==", steps, "NCCL kernels per rank"),
        (ev_ar + "/p_value", "~", float(p), "%d x P(Binomial(%d, 1/%d) >= %d), exact fractions"
         % (n, steps, n, k)),
        ("collective_arrivals/[name=%s]/decided" % name, "==", steps, "every step has one least"),
    ]
    for subj, op, v, d in out:
        tol = ""
        if op == "~":
            tol = " %.3g" % (abs(v) * 1e-9 or 1e-12)
        print("model %s %s %s%s # %s: %s" % (subj, op, json.dumps(v), tol, why, d))


if __name__ == "__main__":
    main()
