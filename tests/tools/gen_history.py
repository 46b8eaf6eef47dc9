#!/usr/bin/env python3
"""gen_history.py - a history of runs for `profreport changes` (tests t0089, t0090).

    gen_history.py SRC OUTDIR N STEP_AT FACTOR SEED

SRC is a real trace in torch.profiler's legacy Chrome format (a JSON array of
"X" events, microsecond integers: samples/compare/torch_cpu/base.pt.trace.json).
Run k (0 <= k < N) is SRC with every time scaled by f_k = (1 + 0.02 * N(0, 1)) *
(FACTOR if STEP_AT >= 0 and k >= STEP_AT else 1), which scales each step's
duration by f_k. Written as OUTDIR/run_KK.json, and OUTDIR/manifest.tsv with
one line per run: file, time (2026-01-01T00:00:00Z plus k hours), commit (cKK),
f_k and the expected median step time in ns (the median of the ProfilerStep#
durations of the run, computed here from the written file). Standard library
only; the output is a pure function of the arguments.
"""
import json
import random
import statistics
import sys


def main():
    src, out, n, step_at, factor, seed = sys.argv[1:7]
    n, step_at, factor, seed = int(n), int(step_at), float(factor), int(seed)
    with open(src) as f:
        events = json.load(f)
    t0 = min(e["ts"] for e in events)
    rng = random.Random(seed)
    lines = []
    for k in range(n):
        f_k = 1 + 0.02 * rng.gauss(0, 1)
        if step_at >= 0 and k >= step_at:
            f_k *= factor
        run = []
        for e in events:
            e = dict(e)
            start = t0 + round((e["ts"] - t0) * f_k)
            end = t0 + round((e["ts"] + e["dur"] - t0) * f_k)
            e["ts"], e["dur"] = start, end - start
            run.append(e)
        name = "run_%02d.json" % k
        with open("%s/%s" % (out, name), "w") as f:
            json.dump(run, f)
        steps = [e["dur"] * 1000 for e in run if e["name"].startswith("ProfilerStep#")]
        lines.append("%s\t2026-01-%02dT%02d:00:00Z\tc%02d\t%.6f\t%.1f\n" % (
            name, 1 + k // 24, k % 24, k, f_k, statistics.median(steps)))
    with open("%s/manifest.tsv" % out, "w") as f:
        f.writelines(lines)


main()
