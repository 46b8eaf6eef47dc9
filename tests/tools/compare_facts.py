#!/usr/bin/python3
"""compare_facts.py - facts for `profreport compare BASE NEW --to json`, derived from the two
traces alone (standard-library Python, no profreport code, no comparison read).

usage: tests/tools/compare_facts.py BASE NEW SPAN...

For each SPAN (a CPU op or user_annotation name; one event per step in these samples' design)
its per-step time on each side: the summed dur of the events of that name that start inside
each ProfilerStep#N user_annotation. Facts (`model SUBJECT OP VALUE # DERIVATION`,
tests/tools/checks.py) on the comparison's metric `span:SPAN` (or `phase:SPAN` for a name
between `## `): n1, n2, base and new (the medians), the Mann-Whitney U of BASE over NEW
(pairs with base > new, ties one half), and its two-sided p from the normal approximation with
the tie correction and a continuity correction of 1/2 (docs/compare.md: 20 steps a side are
past the exact table), and the verdict: a regression (an improvement) when new/base - 1 is
beyond +5 % (-5 %; the default time threshold) and p < 0.01, unchanged within 5 %; no verdict
fact otherwise.
"""
import gzip
import json
import math
import sys
from decimal import Decimal


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


def per_step(path, name):
    ev = [e for e in load(path)["traceEvents"] if e.get("ph") == "X"]
    steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in ev
                   if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#"))
    out = []
    for s, t in steps:
        out.append(sum(ns(e["dur"]) for e in ev if e["name"] == name and
                       e.get("cat") in ("cpu_op", "user_annotation") and s <= ns(e["ts"]) < t))
    return out


def mann_whitney(a, b):
    n1, n2 = len(a), len(b)
    u = sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in a for y in b)
    allv = sorted(a + b)
    ties = {}
    for v in allv:
        ties[v] = ties.get(v, 0) + 1
    n = n1 + n2
    tc = sum(t ** 3 - t for t in ties.values())
    sd = math.sqrt(n1 * n2 / 12.0 * ((n + 1) - tc / (n * (n - 1))))
    mu = n1 * n2 / 2.0
    z = (abs(u - mu) - 0.5) / sd if sd > 0 else 0.0
    p = math.erfc(max(z, 0.0) / math.sqrt(2))
    return u, min(1.0, p)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    base, new = sys.argv[1:3]
    for name in sys.argv[3:]:
        a, b = per_step(base, name), per_step(new, name)
        mid = ("phase:" if name.startswith("## ") else "span:") + name
        sel = "metrics/[id=%s]" % mid
        u, p = mann_whitney(a, b)
        mb, mn = median(a), median(b)
        change = mn / mb - 1
        verdict = "unchanged" if abs(change) <= 0.05 else None
        if p < 0.01 and abs(change) > 0.05:
            verdict = "regression" if change > 0 else "improvement"
        why = "python3 tests/tools/compare_facts.py over the two traces: %s" % name
        facts = [("n1", "==", len(a), "its ProfilerSteps in BASE"),
                 ("n2", "==", len(b), "its ProfilerSteps in NEW"),
                 ("base", "==", mb, "the median of its per-step time in BASE"),
                 ("new", "==", mn, "the median in NEW"),
                 ("test/u", "==", u, "Mann-Whitney U, pairs with BASE > NEW (ties 1/2)"),
                 ("test/p", "~", p, "two-sided, normal approximation, tie and continuity corrected"),
                 ("verdict", "==", verdict, "change %+.1f%% against 5%%, p against 0.01"
                  % (100 * change))]
        facts = [f for f in facts if f[2] is not None]
        for key, op, v, d in facts:
            subj = json.dumps(sel + "/" + key)
            tol = " %.3g" % (abs(v) * 1e-6 or 1e-12) if op == "~" else ""
            print("model %s %s %s%s # %s: %s" % (subj, op, json.dumps(v), tol, why, d))


if __name__ == "__main__":
    main()
