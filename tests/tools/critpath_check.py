#!/usr/bin/env python3
"""The critical path of a Kineto trace, per ProfilerStep (the whole trace when it has
none), computed from the trace's JSON alone, by the rules of docs/analysis.md ("Critical path") but
without profreport's code or store: for t0115-critpath.sh, which compares profreport's
`critical_path` with it. Prints {"length_ns", "composition_ns", "top_ops", "top_kernels",
"waits"}. A second argument NAME[:N | :A-B] is --critpath-annotation's window (HTA's annotation
and instance_id): the N-th (A-th to B-th) op or annotation whose name contains NAME.

Each walk step asks the trace directly: on a thread, the path's current segment ends
at t and starts at the latest start or end of any of the thread's events before t, and
belongs to the innermost event open over it (the latest-starting one holding it);
on a stream, to the activity that started last before t."""
import bisect
import decimal
import gzip
import json
import re
import sys

path = sys.argv[1]
d = json.load(gzip.open(path) if path.endswith(".gz") else open(path), parse_float=decimal.Decimal)
CPU, RT, ACT = 0, 1, 2


def round_ns(us):  # exact: ints, and Decimal for "1.5" (ns times)
    return int(round(us * 1000))


cats = {"cpu_op": CPU, "cuda_runtime": RT, "kernel": ACT, "gpu_memcpy": ACT, "gpu_memset": ACT}
ev = []
for e in d["traceEvents"]:
    k = cats.get(e.get("cat"))
    if e.get("cat") == "user_annotation" and not (e["name"].startswith("ProfilerStep#")
                                                  and len(e["name"]) > 13):
        k = CPU  # an annotation (a DataLoader's __next__, a record_function): CPU time
    if e.get("ph") != "X" or k is None:
        continue
    ts = round_ns(e["ts"])
    ev.append({"k": k, "name": e["name"], "ts": ts, "end": ts + max(0, round_ns(e.get("dur", 0))),
               "lane": (k == ACT, str(e["pid"]), str(e["tid"])),
               "corr": (e.get("args") or {}).get("correlation"), "i": len(ev), "link": None,
               "launched": None, "stream": (e.get("args") or {}).get("stream")})
first_call = {}
for e in ev:
    if e["k"] == RT and e["corr"] is not None and e["corr"] not in first_call:
        first_call[e["corr"]] = e
for e in ev:
    if e["k"] == ACT and e["corr"] in first_call:
        c = first_call[e["corr"]]
        e["link"] = c
        if c["launched"] is None:
            c["launched"] = e


# Kineto's cuda_sync records (docs/analysis.md, "Critical path": waits from the trace's handles)
syncs = [e for e in d["traceEvents"] if e.get("cat") == "cuda_sync" and e.get("ph") == "X"]
want_sync = any(e["k"] == RT and (re.fullmatch(r"(?:cuda|hip)(?:Device|Stream|Event)Synchronize",
                                               e["name"]) or "StreamWaitEvent" in e["name"])
                for e in ev)
if not want_sync:
    syncs = []
has_waits = any(e["name"] == "Stream Wait Event" for e in syncs)
stream_lane = {}
for e in ev:
    if e["k"] == ACT and isinstance(e["stream"], int) and not isinstance(e["stream"], bool):
        stream_lane.setdefault(e["stream"], e["lane"])
launched = {}  # lane -> its launched activities by (call start, index)
for e in ev:
    if e["k"] == ACT and e["link"] is not None:
        launched.setdefault(e["lane"], []).append(e)
for v in launched.values():
    v.sort(key=lambda e: (e["link"]["ts"], e["i"]))


def launched_before(lane, t):
    v = [e for e in launched.get(lane, []) if e["link"]["ts"] < t]
    return v[-1] if v else None


wait_src, sync_on, nwaits, unmatched = {}, {}, {"event_record": 0, "wait_on_stream": 0}, 0
for r in syncs:
    a = r.get("args") or {}
    wait = r["name"] == "Stream Wait Event"
    call = first_call.get(a.get("correlation"))
    if call is None:
        unmatched += wait
        continue
    if r["name"] == "Stream Sync":
        if a.get("stream") in stream_lane:
            sync_on[call["i"]] = ("stream", stream_lane[a["stream"]])
        continue
    if not (wait or r["name"] == "Event Sync") or a.get("wait_on_stream") not in stream_lane:
        unmatched += wait
        continue
    t, method = call["ts"], "wait_on_stream"
    if "wait_on_cuda_event_record_corr_id" in a:
        rec = first_call.get(a["wait_on_cuda_event_record_corr_id"])
        if rec is None:
            unmatched += wait
            continue
        t, method = rec["ts"], "event_record"
    src = launched_before(stream_lane[a["wait_on_stream"]], t)
    if src is None:
        unmatched += wait
        continue
    if not wait:
        sync_on[call["i"]] = ("act", src)
        continue
    dl = stream_lane.get(a.get("stream"))
    dest = next((k for k in launched.get(dl, []) if k["link"]["ts"] > call["ts"]
                 and k["link"]["lane"] == call["lane"]), None)
    if dest is None or dest["lane"] == src["lane"]:
        unmatched += 1
        continue
    old = wait_src.get(dest["i"])
    if old is None or old[0]["end"] < src["end"]:
        wait_src[dest["i"]] = (src, method)
    nwaits[method] += 1
on_path = {"event_record": 0, "wait_on_stream": 0, "inferred": 0}


def rtclass(e):
    m = re.fullmatch(r"(?:cuda|hip)(DeviceSynchronize|StreamSynchronize|EventSynchronize|Memcpy|MemcpyAsync)",
                     e["name"])
    if m:
        return "memcpy" if m.group(1).startswith("Memcpy") else "sync"
    return "launch" if "launch" in e["name"].lower() or e["launched"] else "other"


def kclass(name):  # the kclass.c rules these traces need: memcpy/memset names, NCCL kernels
    if "Memcpy" in name or "Memset" in name:
        return "kernel_memory"
    return "kernel_communication" if re.match(r"(void )?nccl", name) else "kernel_compute"


steps = sorted(((round_ns(e["ts"]), round_ns(e["ts"]) + round_ns(e.get("dur", 0)), e)
                for e in d["traceEvents"]
                if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")
                and len(e["name"]) > 13 and e.get("cat") != "gpu_user_annotation"),
               key=lambda x: x[:2])


def step_of(t, after):  # CPU events: the step holding t; activities: the last started by t
    r = -1
    for i, (a, b, _) in enumerate(steps):
        if a <= t and (after or t < b):
            r = i
    return r


for e in ev:
    e["step"] = step_of(e["ts"], e["k"] == ACT) if steps else 0
for e in ev:  # an activity is its launching call's step (where that call is in one)
    if e["k"] == ACT and e["link"] is not None and e["link"]["step"] >= 0:
        e["step"] = e["link"]["step"]
comp = {c: 0 for c in ["cpu_op", "launch", "kernel_compute", "kernel_communication",
                       "kernel_memory", "sync", "idle"]}
ops, kernels = {}, {}


def charge(cat, e, ns):
    if ns <= 0:
        return
    comp[cat] += ns
    if e is not None:
        tab = kernels if cat.startswith("kernel") else ops
        tab[e["name"]] = tab.get(e["name"], 0) + ns


def walk(sev, s0, s1, sink_lane):
    """One step's path: its events sev, from s0 to the later of s1 and its activities' end."""
    lanes = {}
    for e in sev:
        lanes.setdefault(e["lane"], []).append(e)
    for v in lanes.values():
        v.sort(key=lambda e: (e["ts"], -e["end"], e["i"]))
    acts = sorted((e for e in sev if e["k"] == ACT), key=lambda e: (e["end"], e["i"]))
    act_ends = [e["end"] for e in acts]
    starts = {ln: [e["ts"] for e in v] for ln, v in lanes.items()}
    edges = {ln: sorted(x for e in v for x in (e["ts"], e["end"])) for ln, v in lanes.items()}
    last = acts[-1] if acts else None
    if last is not None and last["end"] > s1:
        lane, t = last["lane"], last["end"]
    else:
        lane, t = sink_lane, s1
    length = t - s0
    if length <= 0:
        return 0
    while t > s0 and lane in lanes:
        evs = lanes[lane]
        if not lane[0]:  # a thread
            b = edges[lane]
            n = bisect.bisect_left(b, t)  # the latest start or end before t
            if not n:
                break
            a = b[n - 1]
            # the innermost open over (a, t): the last in (ts, -end, i) order starting by a
            # that ends at or after t
            o = None
            for q in range(bisect.bisect_right(starts[lane], a) - 1, -1, -1):
                if evs[q]["end"] >= t:
                    o = evs[q]
                    break
            if o is not None and o["k"] == RT and t == o["end"] and rtclass(o) in ("sync", "memcpy"):
                if rtclass(o) == "memcpy":
                    w = o["launched"] if o["launched"] and o["ts"] < o["launched"]["end"] <= t else None
                elif sync_on.get(o["i"], ("",))[0] == "act":  # Event Sync: the event's work
                    w = sync_on[o["i"]][1]
                    w = w if w["step"] == o["step"] and o["ts"] < w["end"] <= t else None
                else:  # the last ending within the call (Stream Sync: of its stream)
                    sl = sync_on.get(o["i"], (None, None))[1]
                    w = None
                    for q in range(bisect.bisect_right(act_ends, t) - 1, -1, -1):
                        if acts[q]["end"] <= o["ts"]:
                            break
                        if sl is None or acts[q]["lane"] == sl:
                            w = acts[q]
                            break
                if w is not None:
                    we = max(w["end"], s0)
                    charge("sync", o, t - we)
                    lane, t = w["lane"], we
                    continue
            a = max(a, s0)
            if o is None:
                cat = "idle"
            elif o["k"] == CPU:
                cat = "cpu_op"
            else:
                r = rtclass(o)
                cat = "sync" if r == "sync" or (r == "memcpy" and not o["launched"]) else \
                    "launch" if r == "launch" or o["launched"] else "cpu_op"
            charge(cat, o, t - a)
            t = a
        else:  # a stream
            j = bisect.bisect_left(starts[lane], t) - 1
            if j < 0:
                break
            k = evs[j]
            if k["end"] < t:
                charge("idle", None, t - max(k["end"], s0))
                t = k["end"]
                continue
            a = max(k["ts"], s0)
            charge(kclass(k["name"]), k, t - a)
            t = a
            if t <= s0:
                break
            pend = min(evs[j - 1]["end"], t) if j > 0 else None
            link = k["link"] if k["link"] is not None and k["link"]["step"] == k["step"] else None
            lt = min(link["ts"], t) if link else None
            # free to start 10 us before t (call returned, stream free): it waited for the
            # latest end on another stream in (ready, t], if that came within 10 us of t
            ready = max(x for x in (pend, link["end"] if link else None, -2**63) if x is not None)
            w = None
            for q in range(bisect.bisect_right(act_ends, t) - 1, -1, -1):
                if acts[q]["end"] <= ready:
                    break
                if acts[q]["lane"] != lane:
                    w = acts[q]
                    break
            ws = wait_src.get(k["i"])
            if ws and ws[0]["step"] == k["step"] and ws[0]["end"] <= t and \
                    ws[0]["end"] > (pend if pend is not None else -2**63) and \
                    ws[0]["end"] >= (lt if lt is not None else -2**63):
                charge("sync", None, t - max(ws[0]["end"], s0))  # the trace's handles
                on_path[ws[1]] += 1
                lane, t = ws[0]["lane"], max(ws[0]["end"], s0)
            elif not has_waits and link and t - ready > 10000 and w is not None and \
                    t - w["end"] <= 10000:
                charge("sync", None, t - max(w["end"], s0))
                on_path["inferred"] += 1
                lane, t = w["lane"], max(w["end"], s0)
            elif lt is not None and (pend is None or lt > pend):
                charge("launch", link, t - max(lt, s0))
                lane, t = link["lane"], max(lt, s0)
            elif pend is None:
                break
    if t > s0:
        charge("idle", None, t - s0)
    return length



length = 0
win = None
if len(sys.argv) > 2:  # --critpath-annotation NAME[:N]
    m = re.fullmatch(r"(.*):([0-9]{1,9})(?:-([0-9]{1,9}))?", sys.argv[2])
    if m and m.group(3) and int(m.group(3)) < int(m.group(2)):
        m = None
    name, inst = (m.group(1), int(m.group(2))) if m else (sys.argv[2], 0)
    last = int(m.group(3)) if m and m.group(3) else inst
    cands = [(round_ns(e["ts"]), i, e) for i, e in enumerate(d["traceEvents"])
             if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "operator", "user_annotation")
             and name in str(e.get("name", ""))]
    cands.sort(key=lambda x: x[:2])
    a = cands[inst][2]  # the first instance's start to the instances' latest end
    win = (round_ns(a["ts"]), max(round_ns(b["ts"]) + max(0, round_ns(b.get("dur", 0)))
                                  for _, _, b in cands[inst:last + 1]),
           (False, str(a["pid"]), str(a["tid"])))
    for e in ev:
        if e["k"] != ACT:
            e["step"] = 0 if win[0] <= e["ts"] <= win[1] else -1
    for e in ev:  # the activities its calls launched
        if e["k"] == ACT:
            e["step"] = e["link"]["step"] if e["link"] is not None else -1
if win:
    length = walk([e for e in ev if e["step"] == 0], win[0], win[1], win[2])
elif steps:
    for i, (a, b, se) in enumerate(steps):
        sev = [e for e in ev if e["step"] == i]
        if sev:
            length += walk(sev, a, b, (False, str(se["pid"]), str(se["tid"])))
else:
    s1 = max(e["end"] for e in ev if e["k"] != ACT)
    sink = min((e for e in ev if e["k"] != ACT and e["end"] == s1), key=lambda e: e["lane"])
    length = walk(ev, min(e["ts"] for e in ev), s1, sink["lane"])

def top(tab):
    return [{"name": n, "ns": v} for n, v in sorted(tab.items(), key=lambda x: -x[1])[:10]]


print(json.dumps({"length_ns": length, "composition_ns": comp, "top_ops": top(ops),
                  "top_kernels": top(kernels),
                  "waits": {"rule": "handles" if has_waits else "inferred", **nwaits,
                            "unmatched": unmatched, "on_path": on_path}}, indent=1))
