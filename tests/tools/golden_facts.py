#!/usr/bin/python3
"""golden_facts.py - facts for the analyze goldens' `checks` files, derived from the input
alone (standard-library Python, no profreport code, no model read).

usage: tests/tools/golden_facts.py kineto TRACE    a Kineto/Chrome trace (JSON, .gz allowed)
       tests/tools/golden_facts.py csv FILE SERIES COLUMN [SCALE]
                                                   one numeric CSV column as a series
       tests/tools/golden_facts.py memtracer FILE  a memory_timeline.json's events
       tests/tools/golden_facts.py massif FILE     a massif.out's snapshots
       tests/tools/golden_facts.py speedscope FILE a speedscope file's frames as spans

Prints fact lines (`model SUBJECT == VALUE # DERIVATION`, tests/tools/checks.py) on stdout:
  kineto: the GPU temporal breakdown of the rank and its idle split (HTA's definitions) and
          each step's TensorBoard breakdown, from tests/tools/gpu_ref.py (itself plain Python
          over the trace); the phase occurrences (user_annotation events on the CPU: start from
          the earliest X event and duration); the self time of every span name on the CPU
          threads (duration minus the durations of the spans directly inside it on the same
          thread, summed per name; every X event where no cpu_op is there); the [memory] instants' Total Allocated series (count, min,
          max).
  csv:    the series' count, min, max and first value (the column's numbers times SCALE).
  memtracer: dev.mem.allocated and dev.mem.reserved from the events' allocated_bytes and
          reserved_bytes (count, min, max, first).
  speedscope: per frame name, the spans' count, total and self time: an evented profile's
          O/C pairs (self = dur - the spans directly inside), a sampled profile's samples laid
          end to end by weight from startValue, a frame at depth d one span over each run of
          samples sharing the stack up to d (self = the weight of the samples it ends).
  massif: heap.used, heap.extra and massif.total (mem_heap_B, mem_heap_extra_B and their sum
          with mem_stacks_B per snapshot; count, min, max, first).
Times are integer ns from the decimal text of ts/dur (Decimal, exact).
"""
import ast
import csv
import gzip
import json
import os
import subprocess
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
CPU_CATS = ("cpu_op", "user_annotation", "cuda_runtime", "cuda_driver", "runtime", "python_function")


def ns(v):
    return int((Decimal(str(v)) * 1000).to_integral_value())


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f)


def subject(*parts):
    s = "/".join(str(p) for p in parts)
    return json.dumps(s) if (" " in s or "#" in s) else s


def fact(subj, value, why):
    if isinstance(value, float):  # a product of decimal text: equal to 1e-9 of itself
        print("model %s ~ %s %s # %s" % (subj, repr(round(value, 6)), "%.3g" % max(abs(value) * 1e-9,
                                                                               1e-6), why))
    else:
        print("model %s == %s # %s" % (subj, json.dumps(value), why))


def selectable(name):
    return "/" not in name and "]" not in name and "=" not in name


def kineto(path):
    base = os.path.basename(path)
    doc = load(path)
    events = doc if isinstance(doc, list) else doc["traceEvents"]
    gpu = any(e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") for e in events)
    ref = ""
    if gpu and isinstance(doc, dict):
        ref = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "gpu_ref.py"), path],
                             capture_output=True, text=True, check=True).stdout
    why = "tests/tools/gpu_ref.py %s" % base
    for line in ref.splitlines():
        if line.startswith("rank "):
            i = line.index("} {")
            t, idle = ast.literal_eval(line[5:i + 1]), ast.literal_eval(line[i + 2:])
            for k in ("span", "busy", "compute", "communication", "memory", "idle"):
                fact(subject("runs/0/gpu_breakdown/rank", k + "_ns"), t[k],
                     why + ": HTA's %s over the union of the rank's GPU ops" % k)
            for k, key in (("host", "host_wait_ns"), ("kernel", "kernel_wait_ns"),
                           ("other", "other_ns")):
                fact(subject("runs/0/gpu_breakdown/idle", key), idle[k],
                     why + ": the rank's idle gaps split (%s wait)" % k)
        elif line.startswith("step "):
            head, d = line[:line.index(" {")], ast.literal_eval(line[line.index(" {") + 1:])
            _, name, _, dur = head.rsplit(" ", 3)
            name = head.split(" ", 1)[1].rsplit(" ", 2)[0]
            if not selectable(name):
                continue
            sel = "runs/0/step_breakdown/steps/[name=%s]" % name
            fact(subject(sel, "dur_ns"), int(dur), why + ": TensorBoard's step (to its last GPU op)")
            for k in ("kernel", "memcpy", "memset", "communication", "runtime", "dataloader",
                      "cpu_exec", "other"):
                fact(subject(sel, k + "_ns"), d[k], why + ": TensorBoard's %s time of the step" % k)
    ev = [e for e in events if e.get("ph") == "X" and "dur" in e]
    kineto_cats = any(e.get("cat") == "cpu_op" for e in ev)
    t0 = min(ns(e["ts"]) for e in ev)
    # phases: the user_annotation spans (the profiler's ProfilerStep ones are steps)
    occ = {}
    for e in sorted(ev, key=lambda e: (ns(e["ts"]), -ns(e["dur"]))):
        if e.get("cat") != "user_annotation" or e["name"].startswith("ProfilerStep#"):
            continue
        occ.setdefault(e["name"], []).append(e)
    for name, es in sorted(occ.items()):
        if len(es) != 1 or not selectable(name):
            continue
        sel = "runs/0/phases/occurrences/[name=%s]" % name
        why = ("python3 over %s (tests/tools/golden_facts.py): the user_annotation %r, ts - "
               "the earliest X event's ts" % (base, name))
        fact(subject(sel, "t_ns"), ns(es[0]["ts"]) - t0, why)
        fact(subject(sel, "dur_ns"), ns(es[0]["dur"]), why.replace("ts - the earliest", "its dur; ts"))
    # self time per name on the CPU threads: nesting by containment per (pid, tid)
    threads = {}
    for e in ev:
        if not kineto_cats or e.get("cat") in CPU_CATS or e["name"].startswith("ProfilerStep#"):
            threads.setdefault((e["pid"], e["tid"]), []).append(e)
    total, self_ = {}, {}
    for es in threads.values():
        es.sort(key=lambda e: (ns(e["ts"]), -ns(e["dur"])))
        stack = []
        for e in es:
            s, d = ns(e["ts"]), ns(e["dur"])
            while stack and s >= stack[-1][0] + stack[-1][1]:
                stack.pop()
            if stack:
                self_[stack[-1][2]] -= d
            key = id(e)
            self_[key] = d
            total.setdefault(e["name"], []).append(key)
            stack.append((s, d, key))
    rows = sorted(((sum(self_[k] for k in keys), n, len(keys)) for n, keys in total.items()),
                  key=lambda r: (-r[0], r[1]))
    for s, name, cnt in rows[:8]:
        if not selectable(name):
            continue
        sel = "runs/0/spans/items/[name=%s]" % name
        why = ("python3 over %s (tests/tools/golden_facts.py): %d CPU span(s) %r, dur minus "
               "the spans directly inside on the same thread" % (base, cnt, name))
        fact(subject(sel, "self_ns"), s, why)
        fact(subject(sel, "count"), cnt, why.split(", dur")[0])
    mem = [e for e in events if e.get("name") == "[memory]" and
           "Total Allocated" in e.get("args", {})]
    if mem:
        v = [e["args"]["Total Allocated"] for e in mem]
        sel = "runs/0/series/[name=dev.mem.allocated]"
        why = "python3 over %s: the %d [memory] instants' args[\"Total Allocated\"]" % (base, len(v))
        fact(subject(sel, "count"), len(v), why)
        fact(subject(sel, "min"), min(v), why + ", min")
        fact(subject(sel, "max"), max(v), why + ", max")


def csv_series(path, series, column, scale=1):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f)]
    v = []
    for r in rows:
        try:
            v.append(float(r[column]) * scale)
        except (TypeError, ValueError):
            pass
    v = [int(x) if float(x).is_integer() else x for x in v]
    sel = "runs/0/series/[name=%s]" % series
    why = "python3 csv over %s: column %r x %s (%d numbers)" % (os.path.basename(path), column,
                                                              scale, len(v))
    fact(subject(sel, "count"), len(v), why)
    fact(subject(sel, "min"), min(v), why + ", min")
    fact(subject(sel, "max"), max(v), why + ", max")
    fact(subject(sel, "first"), v[0], why + ", the first")


def series_facts(name, v, why):
    sel = "runs/0/series/[name=%s]" % name
    fact(subject(sel, "count"), len(v), why + " (%d values)" % len(v))
    fact(subject(sel, "min"), min(v), why + ", min")
    fact(subject(sel, "max"), max(v), why + ", max")
    fact(subject(sel, "first"), v[0], why + ", the first")


def memtracer(path):
    ev = load(path)["events"]
    base = os.path.basename(path)
    for name, key in (("dev.mem.allocated", "allocated_bytes"), ("dev.mem.reserved", "reserved_bytes")):
        series_facts(name, [e[key] for e in ev], "python3 over %s: events[].%s" % (base, key))


def massif(path):
    snaps, cur = [], None
    with open(path) as f:
        for line in f:
            k, _, v = line.strip().partition("=")
            if k == "snapshot":
                cur = {}
                snaps.append(cur)
            elif cur is not None and k in ("mem_heap_B", "mem_heap_extra_B", "mem_stacks_B"):
                cur[k] = int(v)
    base = os.path.basename(path)
    why = "python3 over %s: the snapshots' " % base
    series_facts("heap.used", [x["mem_heap_B"] for x in snaps], why + "mem_heap_B")
    series_facts("heap.extra", [x["mem_heap_extra_B"] for x in snaps], why + "mem_heap_extra_B")
    series_facts("massif.total", [sum(x.values()) for x in snaps], why + "mem_heap_B + "
                 "mem_heap_extra_B + mem_stacks_B")


def speedscope(path):
    doc = load(path)
    scale = {"nanoseconds": 1, "microseconds": 1000, "milliseconds": 1000000, "seconds": 10 ** 9}
    frames = doc["shared"]["frames"]
    spans = []  # (name, dur, self)
    for p in doc["profiles"]:
        k = scale[p["unit"]]
        if p["type"] == "evented":
            stack = []
            for e in p["events"]:
                at = Decimal(str(e["at"])) * k
                if e["type"] == "O":
                    stack.append([e["frame"], at, Decimal(0)])
                else:
                    f, t, inner = stack.pop()
                    if stack:
                        stack[-1][2] += at - t
                    spans.append((frames[f]["name"], at - t, at - t - inner))
        else:
            runs = {}  # depth -> [frame, dur, self, prefix]
            for st, w in zip(p["samples"] + [[]], p["weights"] + [0]):
                w = Decimal(str(w)) * k
                for d in sorted(runs):
                    r = runs[d]
                    if d >= len(st) or list(st[:d + 1]) != r[3]:
                        for dd in sorted(x for x in runs if x >= d):
                            f, dur, sf, _ = runs.pop(dd)
                            spans.append((frames[f]["name"], dur, sf))
                        break
                for d, f in enumerate(st):
                    r = runs.setdefault(d, [f, Decimal(0), Decimal(0), list(st[:d + 1])])
                    r[1] += w
                    if d == len(st) - 1:
                        r[2] += w
    by = {}
    for name, dur, sf in spans:
        b = by.setdefault(name, [0, 0, 0])
        b[0] += 1
        b[1] += int(dur)
        b[2] += int(sf)
    base = os.path.basename(path)
    for name, (cnt, tot, sf) in sorted(by.items()):
        if not selectable(name):
            continue
        sel = "runs/0/spans/items/[name=%s]" % name
        why = "python3 over %s (tests/tools/golden_facts.py speedscope): frame %r" % (base, name)
        fact(subject(sel, "count"), cnt, why + ", its spans in every profile")
        fact(subject(sel, "total_ns"), tot, why + ", their summed duration")
        fact(subject(sel, "self_ns"), sf, why + ", less the spans directly inside")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "kineto":
        kineto(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] in ("memtracer", "massif", "speedscope"):
        {"memtracer": memtracer, "massif": massif, "speedscope": speedscope}[sys.argv[1]](sys.argv[2])
    elif len(sys.argv) in (5, 6) and sys.argv[1] == "csv":
        csv_series(sys.argv[2], sys.argv[3], sys.argv[4],
                   float(sys.argv[5]) if len(sys.argv) == 6 else 1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
