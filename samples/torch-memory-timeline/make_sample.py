#!/usr/bin/env python3
"""make_sample.py - writes what prof.export_memory_timeline() writes for
".json" (memory_timeline.json) and "raw.json.gz" (memory_timeline.raw.json.gz),
from one synthetic timeline (no torch, no GPU): two training steps of a tiny
model. The two exporters are copied from torch/profiler/_memory_profiler.py
(_coalesce_timeline, export_memory_timeline_raw); Action values are
enum.auto() (PREEXISTING=1, CREATE=2, INCREMENT_VERSION=3, DESTROY=4).
json.dump without indent, as torch writes it; gzip with mtime=0 so the file
is byte-for-byte reproducible.
"""
import gzip
import json

PREEXISTING, CREATE, INCREMENT_VERSION, DESTROY = 1, 2, 3, 4
# _CATEGORY_TO_INDEX order
PARAMETER, OPTIMIZER_STATE, INPUT, TEMPORARY, ACTIVATION, GRADIENT, AUTOGRAD_DETAIL, UNKNOWN = range(8)

T0 = 1718000000123456789  # epoch ns
# (t_ns or -1, action, key, version, numbytes); categories per (key, version)
timeline = []
cats = {}


def ev(t, action, key, ver, nbytes, cat, cat_next=None):
    timeline.append((t, action, key, ver, nbytes))
    cats[(key, ver)] = cat
    if cat_next is not None:
        cats[(key, ver + 1)] = cat_next


ev(-1, PREEXISTING, "w1", 0, 4194304, PARAMETER)
ev(-1, PREEXISTING, "w2", 0, 1048576, PARAMETER)
t = T0
for step in range(2):
    ev(t + 1000, CREATE, f"x{step}", 0, 524288, INPUT)
    ev(t + 15500, CREATE, f"a{step}", 0, 2097152, ACTIVATION)
    ev(t + 15500, CREATE, f"tmp{step}", 0, 65536, TEMPORARY)
    ev(t + 22750, DESTROY, f"tmp{step}", 0, 65536, TEMPORARY)
    ev(t + 40000, CREATE, f"g1_{step}", 0, 4194304, GRADIENT)
    ev(t + 41000, CREATE, f"g2_{step}", 0, 1048576, GRADIENT)
    ev(t + 41000, CREATE, f"ad{step}", 0, 8192, AUTOGRAD_DETAIL)
    ev(t + 43000, DESTROY, f"a{step}", 0, 2097152, ACTIVATION)
    if step == 0:
        ev(t + 50000, CREATE, "m1", 0, 4194304, OPTIMIZER_STATE)
        ev(t + 50000, CREATE, "m2", 0, 1048576, OPTIMIZER_STATE)
        ev(t + 50500, CREATE, "ws", 0, 12288, None)
    ev(t + 52000, INCREMENT_VERSION, "w1", step, 4194304, PARAMETER, PARAMETER)
    ev(t + 52000, DESTROY, f"g1_{step}", 0, 4194304, GRADIENT)
    ev(t + 52000, DESTROY, f"g2_{step}", 0, 1048576, GRADIENT)
    ev(t + 53000, DESTROY, f"x{step}", 0, 524288, INPUT)
    ev(t + 53000, DESTROY, f"ad{step}", 0, 8192, AUTOGRAD_DETAIL)
    t += 60000

IDX = {c: c for c in range(8)}
IDX[None] = UNKNOWN


def category(key, ver):
    return IDX[cats.get((key, ver))]


def coalesce():
    times, sizes = [], []

    def update(key, version, delta):
        sizes[-1][category(key, version) + 1] += int(delta)

    t_min = -1
    for t, action, key, version, numbytes in timeline:
        if t != -1:
            t = int(t / 1000)
        if t_min == -1 or (t < t_min and t > 0):
            t_min = t
        if len(times) == 0:
            times.append(t)
            sizes.append([0] + [0 for _ in range(8)])
        elif t != times[-1]:
            times.append(t)
            sizes.append(sizes[-1].copy())
        if action in (PREEXISTING, CREATE):
            update(key, version, numbytes)
        elif action == INCREMENT_VERSION:
            update(key, version, -numbytes)
            update(key, version + 1, numbytes)
        elif action == DESTROY:
            update(key, version, -numbytes)
    times = [t_min if t < 0 else t for t in times]
    return times, sizes


def raw():
    out = []
    for t, action, key, version, numbytes in timeline:
        if action in (PREEXISTING, CREATE):
            out.append((t, action, numbytes, category(key, version)))
        elif action == INCREMENT_VERSION:
            out.append((t, action, -numbytes, category(key, version)))
            out.append((t, action, numbytes, category(key, version + 1)))
        elif action == DESTROY:
            out.append((t, action, -numbytes, category(key, version)))
    return out


times, sizes = coalesce()
with open("memory_timeline.json", "w") as f:
    json.dump([times, sizes], f)
with open("memory_timeline.raw.json.gz", "wb") as fb:
    with gzip.GzipFile(filename="", mode="wb", fileobj=fb, mtime=0) as gz:
        gz.write(json.dumps(raw()).encode())
print(len(times), "timesteps; last", sizes[-1], "total", sum(sizes[-1]))
print("max total", max(sum(s) for s in sizes))
