#!/usr/bin/env python3
"""make_gpuranks.py - a synthetic N-rank Kineto set whose straggler's GPU idles on host wait.

Usage: python3 make_gpuranks.py [--ranks N] [--steps S] [--straggler R] [--out DIR] [--ops]
Defaults: 4 ranks, 6 steps, straggler rank 1, output DIR = ./gpuranks.
--straggler -1 writes the balanced set (every rank the same, up to jitter).

--ops also writes the host's CPU work as ops and a synchronisation: the straggler's
1500 us before each launch is an `aten::host_work` cpu_op, and every rank ends its step
with a cudaDeviceSynchronize that returns 5 us after its all-reduce ends. The critical
path (docs/analysis.md) of a normal rank then runs through its kernels and the
all-reduce; the straggler's runs through its host work (cpu_op). Without --ops the
output is byte for byte what it was before the option existed.

Deterministic (no clock; a fixed-seed LCG for the jitter). Python 3 stdlib only.

Per step on every rank (times in microseconds, relative to baseTimeNanoseconds):
  ProfilerStep#N (user_annotation) on the host thread;
  cudaMemcpyAsync -> one 200 us "Memcpy HtoD (Pageable -> Device)" on stream 7;
  KERNELS x cudaLaunchKernel -> compute kernels of 2000 us each on stream 7,
    each with the correlation of its runtime call (what links a kernel to its launch);
  cudaLaunchKernel -> ncclDevKernel_AllReduce_Sum_f32_RING_LL on stream 20, starting
    when this rank's last compute kernel ends and ending when the slowest rank's
    ends plus 3000 us of transfer (the all-reduce synchronises the ranks).
A normal rank launches everything at the start of the step (its host runs ahead, the
kernels queue back to back: the GPU never waits for the host). The straggler's host is
slow: it does 1500 us of CPU work before each launch, after the previous kernel has
finished, so its GPU idles between kernels waiting for the host (HTA's "host wait":
the kernel's runtime call starts after the previous GPU op ended). The other ranks'
GPUs meanwhile sit in the all-reduce kernel (communication, busy). Step times are
equal on every rank.
"""
import argparse
import json
import os

KERNELS = 8
KERNEL_US = 2000.0
HOST_US = 1500.0     # the straggler's CPU work before each launch
MEMCPY_US = 200.0
XFER_US = 3000.0
GAP_US = 1000.0      # host gap at the end of a step
LAUNCH_US = 8.0      # a cudaLaunchKernel call


class Lcg:
    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFF

    def unit(self):
        self.s = (1103515245 * self.s + 12345) & 0x7FFFFFFF
        return self.s / 0x7FFFFFFF


def fmt(us):
    return "%.3f" % us


def ev(ph, cat, name, pid, tid, ts, dur=None, args=None):
    e = {"ph": ph, "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": fmt(ts)}
    if dur is not None:
        e["dur"] = fmt(dur)
    if args:
        e["args"] = args
    return e


def gpu(cat, name, stream, ts, dur, corr):
    args = {"queued": 0, "device": 0, "context": 1, "stream": stream, "correlation": corr}
    return ev("X", cat, name, 0, stream, ts, dur, args)


def rank_step(straggler, t0, jitter):
    """(runtime calls, gpu ops) of one step, before the all-reduce: lists of (ts, dur, name)."""
    calls, ops, work = [], [], []
    c = t0 + 20.0
    calls.append((c, LAUNCH_US, "cudaMemcpyAsync"))
    g = c + 15.0
    ops.append(("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", g, MEMCPY_US))
    g += MEMCPY_US
    c += LAUNCH_US + 2.0
    for k in range(KERNELS):
        dur = KERNEL_US + jitter[k]
        if straggler:
            # the host works after the previous op ended, then launches: the GPU waits
            work.append(max(c, g))
            c = max(c, g) + HOST_US
            start = c + 5.0
        else:
            start = max(g, c + 5.0)
        calls.append((c, LAUNCH_US, "cudaLaunchKernel"))
        ops.append(("kernel", "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n", start, dur))
        g = start + dur
        c += LAUNCH_US + 2.0
    return calls, ops, c, g, work


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--straggler", type=int, default=1)
    ap.add_argument("--out", default="gpuranks")
    ap.add_argument("--ops", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = Lcg(20261124)
    jit = [[[20.0 * rng.unit() for _ in range(KERNELS)] for _ in range(a.ranks)]
           for _ in range(a.steps)]
    # step starts: every rank's step lasts until the slowest arrives, plus the transfer
    plans = []
    t = 1000.0
    for s in range(a.steps):
        per = [rank_step(r == a.straggler, t, jit[s][r]) for r in range(a.ranks)]
        arrive = max(p[3] for p in per)
        plans.append((t, per, arrive))
        t = arrive + XFER_US + GAP_US
    for r in range(a.ranks):
        pid = tid = 100 + r
        evs = [
            ev("M", "", "process_name", pid, 0, 0, args={"name": "python3"}),
            ev("M", "", "process_name", 0, 0, 0, args={"name": "python3"}),
            ev("M", "", "process_labels", 0, 0, 0, args={"labels": "CUDA:0"}),
            ev("M", "", "thread_name", pid, tid, 0, args={"name": "thread %d (python3)" % tid}),
            ev("M", "", "thread_name", 0, 7, 0, args={"name": "stream 7"}),
            ev("M", "", "thread_name", 0, 20, 0, args={"name": "stream 20"}),
        ]
        corr = 1
        for s, (t0, per, arrive) in enumerate(plans):
            calls, ops, c, g, work = per[r]
            end = arrive + XFER_US + GAP_US
            evs.append(ev("X", "user_annotation", "ProfilerStep#%d" % s, pid, tid, t0,
                          end - t0 - 1.0))
            for (cts, cdur, cname), (cat, name, ots, odur) in zip(calls, ops):
                evs.append(ev("X", "cuda_runtime", cname, pid, tid, cts, cdur,
                              {"correlation": corr, "external id": corr}))
                evs.append(gpu(cat, name, 7, ots, odur, corr))
                corr += 1
            # the all-reduce: launched after this rank's last launch, runs from its arrival
            evs.append(ev("X", "cuda_runtime", "cudaLaunchKernel", pid, tid, c, LAUNCH_US,
                          {"correlation": corr, "external id": corr}))
            evs.append(gpu("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 20,
                           max(g, c + 5.0), arrive + XFER_US - max(g, c + 5.0), corr))
            corr += 1
            if a.ops:
                for w in work:
                    evs.append(ev("X", "cpu_op", "aten::host_work", pid, tid, w, HOST_US - 1.0))
                sync = c + LAUNCH_US + 2.0
                evs.append(ev("X", "cuda_runtime", "cudaDeviceSynchronize", pid, tid, sync,
                              arrive + XFER_US + 5.0 - sync, {"correlation": corr}))
                corr += 1
        doc = {
            "schemaVersion": 1,
            "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3",
                                  "totalGlobalMem": 84942979072, "computeMajor": 9,
                                  "computeMinor": 0, "numSms": 132}],
            "distributedInfo": {"backend": "nccl", "rank": r, "world_size": a.ranks},
            "displayTimeUnit": "ms",
            "baseTimeNanoseconds": 1764000000000000000,
            "traceEvents": evs,
            "traceName": "rank%d.pt.trace.json" % r,
        }
        with open(os.path.join(a.out, "rank%d.pt.trace.json" % r), "w") as f:
            json.dump(doc, f, indent=None, separators=(",", ":"))
            f.write("\n")


if __name__ == "__main__":
    main()
