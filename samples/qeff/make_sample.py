#!/usr/bin/env python3
"""make_sample.py - writes qeff_profile.json: what the README's five lines
write after a QEffMemoryProfiler run (synthetic: no QEfficient, no device).

The sampler is simulated like profiler.py does it: a sample every
sampling_interval (0.05 s) plus ~3.1 ms of collection time, RSS/VMS in MiB
(bytes / 1024 / 1024), CPU EMA-smoothed (0.3 x + 0.7 prev), cumulative disk
MiB and MiB/s rates. Operations are marked like mark_operation() does, with
naive datetime.now() values; "Export" is marked twice (QEff keys its
durations and deltas by name), one child process exits during Compilation
(the cumulative disk counters drop). Deterministic: fixed seed and clock.
"""
import datetime
import json
import random

rnd = random.Random(7)
interval = 0.05
t0 = datetime.datetime(2025, 3, 14, 9, 26, 53, 589793)   # naive, like datetime.now()
period = interval + 0.0031

phases = [  # (name, seconds, rss MiB/s slope)
    ("Model Loading", 1.6, 900.0),
    ("Export", 1.1, 120.0),
    ("Compilation", 2.2, 300.0),
    ("Export", 0.5, -200.0),
    ("Generation", 1.3, 40.0),
]

samples = []       # (datetime, rss, vms, cpu, dread, dwrite, rrate, wrate)
operations = []    # (datetime, name)
rss, vms, ema = 212.34375, 1342.51171875, 0.0
dread, dwrite = 3.25, 0.5
child_read = 0.0
now = 0.0
for pi, (name, secs, slope) in enumerate(phases):
    operations.append((t0 + datetime.timedelta(seconds=round(now + 0.0007, 6)), name))
    end = now + secs
    while now < end:
        x = min(100.0, rnd.uniform(20, 95) if name != "Export" else rnd.uniform(5, 30))
        ema = 0.3 * x + 0.7 * ema
        rss += slope * period + rnd.uniform(-2, 2)
        vms += slope * period * 1.3 + rnd.uniform(0, 3)
        prev_r, prev_w = dread, dwrite
        dread += rnd.uniform(0, 40) if name == "Model Loading" else rnd.uniform(0, 2)
        dwrite += rnd.uniform(0, 25) if name == "Export" else rnd.uniform(0, 0.5)
        if name == "Compilation":
            child_read += rnd.uniform(1, 5)
            if now + period >= end:          # the compiler child exits
                child_read = 0.0
        shown_r = dread + child_read
        ts = t0 + datetime.timedelta(seconds=round(now, 6))
        if samples:
            dt = (ts - samples[-1][0]).total_seconds()
            rr = (shown_r - samples[-1][4]) / dt
            wr = (dwrite - samples[-1][5]) / dt
        else:
            rr = wr = 0.0
        samples.append((ts, rss, vms, ema, shown_r, dwrite, rr, wr))
        now += period
operations.append((t0 + datetime.timedelta(seconds=round(now + 0.0004, 6)), "Completion"))

# get_synchronized_data(), as profiler.py builds it
start = samples[0][0]
data = {
    "timestamps": [(s[0] - start).total_seconds() for s in samples],
    "rss_memory": [s[1] for s in samples],
    "vms_memory": [s[2] for s in samples],
    "cpu_usage": [s[3] for s in samples],
    "disk_read_bytes": [s[4] for s in samples],
    "disk_write_bytes": [s[5] for s in samples],
    "disk_read_rate": [s[6] for s in samples],
    "disk_write_rate": [s[7] for s in samples],
}
# the README's lines
data["start_time"] = start.isoformat()
data["sampling_interval"] = interval
data["operations"] = [[t.isoformat(), name] for t, name in operations]
with open("qeff_profile.json", "w") as f:
    json.dump(data, f, indent=2)

# What mark_operation() computes (printed, for the tests).
durations, deltas = {}, {}
cur, cur_start = "Initialization", None
for t, name in operations:
    seen = [s for s in samples if s[0] <= t]
    if cur != "Initialization" and seen:
        d = (t - cur_start).total_seconds()
        durations[cur] = d
        si = max(0, len(seen) - max(1, int(d / interval)))
        deltas[cur] = seen[-1][1] - seen[si][1]
    cur, cur_start = name, t
print(len(samples), "samples")
for k in durations:
    print(repr(k), repr(durations[k]), repr(deltas[k]))
