#!/usr/bin/env python3
"""snapshot_ref.py - the numbers of a PyTorch CUDA memory snapshot, derived
in Python from the pickle without profreport (the rules of docs/formats.md,
`torch-snapshot`), named as profreport's reported metrics.

  snapshot_ref.py SNAPSHOT.pickle            prints NAME<TAB>VALUE lines
  snapshot_ref.py SNAPSHOT.pickle --check TSV
      compares with TSV (`profreport query STORE "SELECT name, value FROM
      metric"`): every derived name must be there with the same value
      (relative 1e-9), and TSV must have no torch_snapshot metric this script
      does not derive; prints the differences, exit 1 if any.

The pickle is read by an Unpickler that refuses every global, so it
cannot run code either.
"""
import pickle
import sys


class PlainData(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError("refused global %s.%s" % (module, name))


def site(frames):
    py = [f for f in frames if f["filename"].endswith(".py")]
    user = [f for f in py if "/torch/" not in f["filename"] and
            not f["filename"].startswith("torch/")]
    pick = user[0] if user else (py[0] if py else None)
    if pick is None:
        pre = "torch::autograd::generated::"
        for f in frames:
            n = f["name"]
            if n.startswith(pre) and "::apply(" in n:
                cls = n[len(pre):n.index("::apply(")]
                if ":" not in cls:
                    return "backward:" + cls
        return "(no Python frame)"
    return "%s:%d:%s" % (pick["filename"].split("/")[-1], pick["line"], pick["name"])


def derive(snap):
    out = {}
    devs = {}
    for s in snap["segments"]:
        devs.setdefault(s["device"], []).append(s)
    traces = snap.get("device_traces") or []
    for i, t in enumerate(traces):
        if t:
            devs.setdefault(i, [])
    for dev in sorted(devs):
        segs = devs[dev]
        P = "torch_snapshot.cuda:%d." % dev
        tot = {k: sum(s[k + "_size"] for s in segs)
               for k in ("total", "allocated", "active", "requested")}
        out[P + "reserved"] = tot["total"]
        out[P + "allocated"] = tot["allocated"]
        out[P + "active"] = tot["active"]
        out[P + "requested"] = tot["requested"]
        out[P + "segments"] = len(segs)
        out[P + "segments.large"] = sum(s["segment_type"] == "large" for s in segs)
        out[P + "segments.small"] = sum(s["segment_type"] == "small" for s in segs)
        blocks = [b for s in segs for b in s["blocks"]]
        for st in ("active_allocated", "inactive", "active_pending_free"):
            bs = [b for b in blocks if b["state"] == st or
                  (st == "active_pending_free" and b["state"] == "active_awaiting_free")]
            if bs or st != "active_pending_free":
                out[P + "blocks." + st] = len(bs)
                out[P + "blocks." + st + ".bytes"] = sum(b["size"] for b in bs)
        free = [b["size"] for b in blocks if b["state"] == "inactive"]
        out[P + "free_in_segments"] = sum(free)
        out[P + "largest_free_block"] = max(free, default=0)
        out[P + "external_fragmentation"] = 1 - max(free) / sum(free) if sum(free) else 0
        pools = {}
        for s in segs:
            pid = tuple(s["segment_pool_id"])
            name = s["segment_type"] + (" (%d,%d)" % pid if pid != (0, 0) else "")
            p = pools.setdefault(name, [0, 0])
            p[0] += s["total_size"]
            p[1] += s["allocated_size"]
        for name, (res, alloc) in pools.items():
            out[P + "pool." + name + ".reserved"] = res
            out[P + "pool." + name + ".allocated"] = alloc
        trace = traces[dev] if dev < len(traces) else []
        if not trace:
            continue
        # allocated timeline: alloc +, free_requested -, anchored at the snapshot's allocated
        delta = sum(e["size"] if e["action"] == "alloc" else -e["size"]
                    for e in trace if e["action"] in ("alloc", "free_requested"))
        start = tot["allocated"] - delta
        out[P + "history.events"] = len(trace)
        out[P + "history.start_allocated"] = start
        v, peak, peak_i = start, start, 0
        for i, e in enumerate(trace):
            if e["action"] == "alloc":
                v += e["size"]
            elif e["action"] == "free_requested":
                v -= e["size"]
            if v > peak:
                peak, peak_i = v, i
        live = {}
        for e in trace[:peak_i + 1]:
            if e["action"] == "alloc":
                live[e["addr"]] = e
            elif e["action"] == "free_requested":
                live.pop(e["addr"], None)
        by = {}
        for e in live.values():
            k = site(e["frames"])
            by[k] = by.get(k, 0) + e["size"]
        ranked = sorted(by.items(), key=lambda kv: (-kv[1], kv[0]))
        for k, b in ranked[:10]:
            out[P + "peak.site." + k] = b
        if len(ranked) > 10:
            out[P + "peak.site.(other sites)"] = sum(b for _, b in ranked[10:])
        out[P + "peak.allocated"] = peak
        out[P + "peak.untracked"] = peak - sum(by.values())
        ooms = [e for e in trace if e["action"] == "oom"]
        if ooms:
            out[P + "oom.count"] = len(ooms)
            out[P + "oom.requested"] = ooms[-1]["size"]
            out[P + "oom.device_free"] = ooms[-1].get("device_free", ooms[-1].get("addr"))
            out[P + "oom.largest_free_block"] = max(free, default=0)
    return out


def main():
    with open(sys.argv[1], "rb") as f:
        want = derive(PlainData(f).load())
    if len(sys.argv) == 2:
        for k, v in want.items():
            print("%s\t%r" % (k, v))
        return 0
    got = {}
    with open(sys.argv[3]) as f:
        for line in f.read().splitlines()[1:]:
            name, value = line.rsplit("\t", 1)
            if name.startswith("torch_snapshot."):
                got[name] = float(value)
    bad = 0
    for k, v in want.items():
        if k not in got:
            print("missing: %s (want %r)" % (k, v))
            bad += 1
        elif abs(got[k] - v) > 1e-9 * max(abs(v), 1):
            print("%s: profreport %r, derived %r" % (k, got[k], v))
            bad += 1
    for k in got:
        if k not in want:
            print("not derived: %s = %r" % (k, got[k]))
            bad += 1
    print("%d numbers compared, %d differ" % (len(want), bad))
    return 1 if bad else 0


sys.exit(main())
