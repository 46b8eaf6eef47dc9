#!/usr/bin/python3
"""Writes legacy.pt.trace.json (PyTorch 1.8-1.10 Kineto vintage) and its twin
twin.pt.trace.json (today's category names) from one list of events, so the
two differ only in what each vintage wrote, never in the workload.

Legacy: capitalized categories (Operator, Runtime, Kernel, Memcpy, Memset,
Python), "external id" in lowercase on GPU and runtime events, string tids
("7392", "stream 7"), absolute epoch microseconds, and [memory] events with
only "Device Type", "Device Id" and "Bytes" (no "Total Allocated").
Twin: cpu_op, cuda_runtime, kernel, gpu_memcpy, gpu_memset,
python_function, cpu_instant_event, "External id", and [memory] events that
also carry "Total Allocated" (the running total of Bytes).
Both: the profiler's window span ("Trace", "PyTorch Profiler (0)"), two
ProfilerStep#N, user annotations "forward"/"backward".

Usage: /usr/bin/python3 make_sample.py   (writes next to this script)
"""
import json
import os

T0 = 1617870343400000  # epoch us, as Kineto before baseTimeNanoseconds
PID = 7392
MAIN = "7392"
STREAM = "stream 7"

LEGACY = {"op": "Operator", "step": "Operator", "runtime": "Runtime", "kernel": "Kernel",
          "memcpy": "Memcpy", "memset": "Memset", "python": "Python"}
TODAY = {"op": "cpu_op", "step": "user_annotation", "runtime": "cuda_runtime",
         "kernel": "kernel", "memcpy": "gpu_memcpy", "memset": "gpu_memset",
         "python": "python_function"}


def events():
    ev = []
    ext = [0]

    def x(kind, name, pid, tid, ts, dur, **args):
        ev.append(("X", kind, name, pid, tid, ts, dur, args))

    def launch(api, corr, ts, dur, gkind, gname, gts, gdur, ext_id):
        x("runtime", api, PID, MAIN, ts, dur, cbid=211, correlation=corr, ext=ext_id)
        x(gkind, gname, 0, STREAM, gts, gdur, queued=0, device=0, context=1, stream=7,
          correlation=corr, ext=ext_id)

    def op(name, ts, dur):
        ext[0] += 1
        x("op", name, PID, MAIN, ts, dur, ext_op=ext[0])
        return ext[0]

    x("trace", "PyTorch Profiler (0)", "Spans", "PyTorch Profiler", T0, 3000)
    for s in (1, 2):
        b = T0 + 100 + 1000 * (s - 1)
        x("step", "ProfilerStep#%d" % s, PID, MAIN, b, 1000)
        x("python", "train.py(%d): train_step" % (40 + s), PID, MAIN, b + 5, 890)
        x("user_annotation", "forward", PID, MAIN, b + 10, 400)
        e = op("aten::linear", b + 20, 200)
        e2 = op("aten::addmm", b + 30, 100)
        launch("cudaLaunchKernel", 10 * s + 1, b + 40, 10, "kernel",
               "volta_sgemm_128x64_nn", b + 60, 150, e2)
        ev.append(("i", "memory", b + 35, 1048576))
        e = op("aten::relu", b + 250, 50)
        launch("cudaLaunchKernel", 10 * s + 2, b + 260, 8, "kernel",
               "void at::native::vectorized_elementwise_kernel<4, relu>", b + 270, 20, e)
        ev.append(("i", "memory", b + 280, 4096))
        x("user_annotation", "backward", PID, MAIN, b + 450, 400)
        e = op("aten::copy_", b + 460, 60)
        launch("cudaMemcpyAsync", 10 * s + 3, b + 470, 30, "memcpy",
               "Memcpy DtoH (Device -> Pageable)", b + 500, 10, e)
        ev.append(("i", "memory", b + 480, -4096))
        e = op("aten::zero_", b + 600, 40)
        launch("cudaMemsetAsync", 10 * s + 4, b + 610, 10, "memset", "Memset (Device)",
               b + 620, 5, e)
        ev.append(("i", "memory", b + 615, -1048576))
    return ev


def render(vintage):
    legacy = vintage == "legacy"
    cats = LEGACY if legacy else TODAY
    out, total = [], 0
    out.append({"name": "process_name", "ph": "M", "pid": PID, "tid": 0,
                "args": {"name": "python3"}})
    out.append({"name": "thread_name", "ph": "M", "pid": 0, "tid": STREAM,
                "args": {"name": "stream 7"}})
    for e in events():
        if e[0] == "i":
            _, _, ts, nbytes = e
            total += nbytes
            args = {"Device Type": 1, "Device Id": 0, "Bytes": nbytes}
            ev = {"ph": "i", "s": "t", "name": "[memory]", "pid": PID, "tid": MAIN, "ts": ts}
            if not legacy:
                ev["cat"] = "cpu_instant_event"
                args["Total Allocated"] = total
            ev["args"] = args
            out.append(ev)
            continue
        _, kind, name, pid, tid, ts, dur, args = e
        cat = {"trace": "Trace", "user_annotation": "user_annotation"}.get(kind) or cats[kind]
        a = {}
        for k, v in args.items():
            if k == "ext":
                a["external id" if legacy else "External id"] = v
            elif k == "ext_op":
                a["External id"] = v
            else:
                a[k] = v
        ev = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
        if kind == "trace":
            a = {"Op count": 0}
        if a:
            ev["args"] = a
        out.append(ev)
    out.append({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "",
                "ts": T0 + 3000})
    return {"schemaVersion": 1, "traceEvents": out}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for vintage, fname in (("legacy", "legacy.pt.trace.json"), ("twin", "twin.pt.trace.json")):
        with open(os.path.join(here, fname), "w") as f:
            text = json.dumps(render(vintage), indent=1)
            f.write(text + "\n")


if __name__ == "__main__":
    main()
