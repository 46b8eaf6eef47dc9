#!/usr/bin/python3
"""kseq_check.py - an independent reference for gpu.kernel_sequences (frequent
kernel sequences, docs/analysis.md): reads a Kineto trace (JSON, .gz allowed)
with the standard library only, finds the patterns by brute force (every
window as a tuple of names in a dict, containment tested against every longer
pattern) and compares them with a model written by `profreport summary --json`.

Definition: per stream (the activity's pid and tid), its kernels, memcpys and
memsets in start order (ties: file order); each linked to the first runtime
call of its "correlation" (file order), its op = the innermost cpu_op on the
call's thread holding the call (of two with one extent, the later in the file); a piece = a run of activities whose step (the
outermost ProfilerStep#N user annotation holding the call's start, else the
activity's) is the same; in each piece every window of 3..16 names; count =
non-overlapping occurrences, greedy from the left; kept when count >= 2 and no
longer pattern of the same stream containing it has the same count; ranked by
device time of the counted occurrences (then count, length, stream, first
position); listed: the first 10 whose first occurrence overlaps no listed one.

usage: tests/tools/kseq_check.py TRACE MODEL.json   (exit 1 on a difference)
       tests/tools/kseq_check.py TRACE              (prints the reference)
"""
import gzip, json, re, sys
from decimal import Decimal

MINL, MAXL, TOP = 3, 16, 10


def ns(v):
    return int((Decimal(str(v)) * 1000).to_integral_value())


def reference(path):
    op = gzip.open if path.endswith(".gz") else open
    doc = json.load(op(path, "rt"), parse_float=Decimal)
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    ev = [e for e in evs if e.get("ph") == "X"]
    calls = {}
    for e in ev:
        if e.get("cat") in ("cuda_runtime", "cuda_driver", "runtime") and "correlation" in e.get("args", {}):
            calls.setdefault(e["args"]["correlation"], e)
    ops = {}
    for e in ev:
        if e.get("cat") in ("cpu_op", "operator"):
            ops.setdefault((e["pid"], e["tid"]), []).append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]))
    # two ops of one extent: the later in the file is the inner one (the store nests it so)
    steps = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in ev
                   if e.get("cat") == "user_annotation" and re.fullmatch(r"ProfilerStep#\d+", e.get("name", "")))
    outer, end = [], None
    for a, b in steps:
        if end is None or a >= end:
            outer.append((a, b))
            end = b
    steps = outer

    def step_of(t):
        for i, (a, b) in enumerate(steps):
            if a <= t < b:
                return i
        return -1

    def op_of(c):
        s, t = ns(c["ts"]), ns(c["ts"]) + ns(c["dur"])
        best = None
        for a, b, n in ops.get((c["pid"], c["tid"]), []):
            if a <= s and t <= b and (best is None or (b - a) < (best[1] - best[0]) or
                                      ((b - a) == (best[1] - best[0]) and a >= best[0])):
                best = (a, b, n)
        return best[2] if best else None

    streams = {}
    for i, e in enumerate(ev):
        if e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        c = calls.get(e.get("args", {}).get("correlation"))
        ts = ns(e["ts"])
        a = dict(name=e["name"], ts=ts, dur=ns(e["dur"]), end=ts + ns(e["dur"]),
                 op=op_of(c) if c else None, seg=step_of(ns(c["ts"]) if c else ts), i=i,
                 label=str(e.get("args", {}).get("stream", e["tid"])))
        streams.setdefault((e["pid"], e["tid"]), []).append(a)
    pats = {}  # (stream, names) -> entry
    for sk in sorted(streams, key=lambda k: str(k)):
        acts = sorted(streams[sk], key=lambda a: (a["ts"], a["i"]))
        pieces, cur = [], []
        for p, a in enumerate(acts):
            a["pos"] = p
            if cur and cur[-1]["seg"] != a["seg"]:
                pieces.append(cur)
                cur = []
            cur.append(a)
        if cur:
            pieces.append(cur)
        for L in range(MINL, MAXL + 1):
            for piece in pieces:
                for j in range(0, len(piece) - L + 1):
                    w = piece[j:j + L]
                    key = (sk, tuple(a["name"] for a in w))
                    e = pats.get(key)
                    if e is None:
                        e = pats[key] = dict(stream=sk, label=w[0]["label"], names=key[1], count=0,
                                             kns=0, gap=0, last=-1, first=w[-1]["pos"],
                                             t=w[0]["ts"], ops=None, ops0=[a["op"] for a in w])
                    if w[0]["pos"] <= e["last"]:
                        continue
                    e["count"] += 1
                    e["last"] = w[-1]["pos"]
                    e["kns"] += sum(a["dur"] for a in w)
                    e["gap"] += sum(max(0, w[k + 1]["ts"] - w[k]["end"]) for k in range(L - 1))
                    if e["ops"] is None and all(a["op"] for a in w):
                        e["ops"] = [a["op"] for a in w]
    kept = [e for e in pats.values() if e["count"] >= 2]
    by_stream = {}
    for e in kept:
        by_stream.setdefault(e["stream"], []).append(e)

    def inside(p, q):
        n, m = len(p), len(q)
        return any(q[i:i + n] == p for i in range(m - n + 1))

    cand = []
    for e in kept:
        if any(len(q["names"]) > len(e["names"]) and q["count"] == e["count"] and inside(e["names"], q["names"])
               for q in by_stream[e["stream"]]):
            continue
        cand.append(e)
    order = {k: i for i, k in enumerate(sorted(streams, key=lambda k: str(k)))}
    cand.sort(key=lambda e: (-e["kns"], -e["count"], -len(e["names"]), order[e["stream"]], e["first"]))
    top, over = [], 0

    def overlap(x, y):
        return x["stream"] == y["stream"] and x["first"] - len(x["names"]) < y["first"] and \
            y["first"] - len(y["names"]) < x["first"]

    for e in cand:
        if any(overlap(e, t) for t in top):
            over += 1
        elif len(top) < TOP:
            top.append(e)
    items = []
    for e in top:
        seen = []
        for o in (e["ops"] if e["ops"] is not None else e["ops0"]):
            if o and o not in seen:
                seen.append(o)
        items.append(dict(stream=e["label"], count=e["count"], length=len(e["names"]), names=list(e["names"]),
                          ops=seen, kernel_ns=e["kns"], gap_ns=e["gap"]))
    return dict(patterns=len(cand), overlapping=over, activities=sum(len(v) for v in streams.values()),
                items=items)


def main():
    ref = reference(sys.argv[1])
    if len(sys.argv) < 3:
        print(json.dumps(ref, indent=1))
        return 0
    model = json.load(open(sys.argv[2]))
    got = model["runs"][0]["gpu"]["kernel_sequences"]
    bad = 0
    for k in ("patterns", "overlapping", "activities"):
        if got[k] != ref[k]:
            print("kseq_check: %s: model %s, reference %s" % (k, got[k], ref[k]))
            bad += 1
    if len(got["items"]) != len(ref["items"]):
        print("kseq_check: items: model %d, reference %d" % (len(got["items"]), len(ref["items"])))
        bad += 1
    for i, (g, r) in enumerate(zip(got["items"], ref["items"])):
        for k in r:
            if g.get(k) != r[k]:
                print("kseq_check: item %d %s: model %s, reference %s" % (i, k, g.get(k), r[k]))
                bad += 1
    print("kseq_check: %d items, %d patterns, %d overlapping, %d activities: %s" % (
        len(ref["items"]), ref["patterns"], ref["overlapping"], ref["activities"],
        "equal" if not bad else "%d differences" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
