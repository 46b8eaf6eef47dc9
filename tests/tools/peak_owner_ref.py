#!/usr/bin/python3
"""peak_owner_ref.py TRACE DEVICE_ID [--check MODEL.json] - what holds the peak of a torch.profiler trace's
dev.mem.allocated on cuda:DEVICE_ID, in plain Python (no profreport), for the golden
checks of peaks[].held_by (docs/analysis.md, peaks).

The [memory] events of the device (Device Type 1), in time order (file order within a
time), are replayed up to the first one with the largest Total Allocated: an allocation
(Bytes > 0) lives until a free (Bytes < 0) of its Addr before that time. Each live
allocation counts for the frame open at its time on its thread (pid, tid): the innermost
user_annotation (not ProfilerStep#N) or nn.Module python_function, else the outermost
cpu_op. Prints the peak, its time, the frame with the most live bytes (ties: the first
name), its bytes and allocations, and the bytes no allocation explains. With --check, the
model's peaks[] of dev.mem.allocated on that device must say the same in held_by (exit 1
when not).
"""
import collections
import gzip
import json
import sys

path, dev = sys.argv[1], int(sys.argv[2])
model = sys.argv[4] if len(sys.argv) == 5 and sys.argv[3] == "--check" else None
doc = json.load((gzip.open if path.endswith(".gz") else open)(path, "rt"))
ev = doc["traceEvents"] if isinstance(doc, dict) else doc
mem = [e for e in ev if e.get("name") == "[memory]" and
       (e["args"].get("Device Type"), e["args"].get("Device Id")) == (1, dev)]
mem.sort(key=lambda e: e["ts"])
top = max(e["args"]["Total Allocated"] for e in mem)
peak = next(e for e in mem if e["args"]["Total Allocated"] == top)
live = {}
for e in mem:
    if e["ts"] > peak["ts"]:
        break
    b, a = e["args"]["Bytes"], e["args"]["Addr"]
    if b > 0:
        live[a] = (e["ts"], (e["pid"], e["tid"]), b)
    elif b < 0 and e["ts"] < peak["ts"]:
        live.pop(a, None)
spans = collections.defaultdict(list)
for e in ev:
    if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation", "python_function"):
        spans[(e["pid"], e["tid"])].append(e)


def frame(ts, thread):
    open_ = [e for e in spans[thread] if e["ts"] <= ts <= e["ts"] + e["dur"]]
    user = [e for e in open_ if (e["cat"] == "user_annotation" and
                                 not e["name"].startswith("ProfilerStep#")) or
            (e["cat"] == "python_function" and e["name"].startswith("nn.Module:"))]
    if user:
        return min(user, key=lambda e: e["dur"])["name"]
    ops = [e for e in open_ if e["cat"] == "cpu_op"]
    return max(ops, key=lambda e: e["dur"])["name"] if ops else "(no span)"


held, count = collections.Counter(), collections.Counter()
for ts, thread, b in live.values():
    f = frame(ts, thread)
    held[f] += b
    count[f] += 1
name, b = sorted(held.items(), key=lambda kv: (-kv[1], kv[0]))[0]
print("peak %d B at ts %s: held by %r, %d B in %d allocations; %d B untracked" %
      (top, peak["ts"], name, b, count[name], top - sum(held.values())))
if model:
    runs = json.load(open(model))["runs"]
    pk = [p for p in runs[0]["peaks"]
          if p["series"] == "dev.mem.allocated" and p["device"] == "cuda:%d" % dev]
    want = {"name": name, "rule": "live bytes by address", "bytes": b,
            "allocations": count[name], "untracked_bytes": top - sum(held.values())}
    got = pk[0].get("held_by") if pk else None
    bad = [k for k in want if not got or got.get(k) != want[k]]
    if not pk or pk[0]["value"] != top or bad:
        print("model: peak %s, held_by %s; want %d and %s" %
              (pk[0]["value"] if pk else None, got, top, want))
        sys.exit(1)
    print("model agrees")
