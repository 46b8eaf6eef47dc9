#!/usr/bin/env python3
"""make_ranks.py - a synthetic N-rank torch.profiler (Kineto JSON) set with a designed straggler.

Usage: python3 make_ranks.py [--ranks N] [--steps S] [--straggler R] [--out DIR]
Defaults: 4 ranks, 20 steps, straggler rank 2, output in this script's folder.

Deterministic (no clock; a fixed-seed LCG for the jitter). Python 3 stdlib only.

Per step on every rank (times in microseconds, relative to baseTimeNanoseconds):
  ProfilerStep#N  (user_annotation, the whole step)
    enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__   (data loading)
    forward / backward / optimizer                                   (user annotations)
  GPU stream 7: one kernel under forward, one under backward, one under optimizer
  GPU stream 20: ncclDevKernel_AllReduce_Sum_f32_RING_LL, launched when this rank's
    backward is done and ending when the slowest rank's backward is done plus the transfer;
    with Kineto's collective args (allreduce of 125 M fp32 elements, group size = ranks).
The straggler loads data 3x slower; because the all-reduce synchronises the ranks, every
rank's step time is the same and the other ranks wait longer in the NCCL kernel.
"""
import argparse
import json
import os

DL_US = 10000.0       # data loading per step, normal ranks
FWD_US = 20000.0
BWD_US = 30000.0
XFER_US = 5000.0      # all-reduce transfer once every rank has arrived
OPT_US = 5000.0
GAP_US = 2000.0       # host gap at the end of a step
ALLREDUCE_NELEMS = 125000000  # fp32 gradients: 500 MB per all-reduce (100 GB/s in 5 ms)


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


def kernel(name, stream, ts, dur, corr, extra=None):
    args = {"queued": 0, "device": 0, "context": 1, "stream": stream, "correlation": corr}
    args.update(extra or {})
    return ev("X", "kernel", name, 0, stream, ts, dur, args)


def allreduce_args(world):
    # Kineto copies the collective's metadata (CollectiveMetadataFields) onto the NCCL kernel.
    return {"Collective name": "allreduce", "dtype": "Float",
            "In msg nelems": ALLREDUCE_NELEMS, "Out msg nelems": ALLREDUCE_NELEMS,
            "In split size": "[]", "Out split size": "[]", "Group size": world,
            "Process Group Name": "0", "Process Group Description": "default_pg",
            "Process Group Ranks": "[%s]" % ", ".join(str(i) for i in range(world))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--straggler", type=int, default=2)
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = Lcg(20240601)
    # data-loading time of every (step, rank), drawn in a fixed order
    dl = [[DL_US * (3.0 if r == a.straggler else 1.0) + 200.0 * rng.unit()
           for r in range(a.ranks)] for _ in range(a.steps)]
    step_start = []
    t = 1000.0
    for s in range(a.steps):
        step_start.append(t)
        arrive = max(dl[s]) + FWD_US + BWD_US
        t += arrive + XFER_US + OPT_US + GAP_US
    for r in range(a.ranks):
        evs = [
            ev("M", "", "process_name", 100 + r, 0, 0, args={"name": "python3"}),
            ev("M", "", "process_name", 0, 0, 0, args={"name": "python3"}),
            ev("M", "", "process_labels", 0, 0, 0, args={"labels": "CUDA:0"}),
            ev("M", "", "thread_name", 100 + r, 100 + r, 0,
               args={"name": "thread %d (python3)" % (100 + r)}),
            ev("M", "", "thread_name", 0, 7, 0, args={"name": "stream 7"}),
            ev("M", "", "thread_name", 0, 20, 0, args={"name": "stream 20"}),
        ]
        pid = tid = 100 + r
        corr = 1
        for s in range(a.steps):
            t0 = step_start[s]
            arrive = max(dl[s]) + FWD_US + BWD_US
            mine = dl[s][r] + FWD_US + BWD_US
            step_dur = arrive + XFER_US + OPT_US + GAP_US
            evs.append(ev("X", "user_annotation", "ProfilerStep#%d" % s, pid, tid, t0, step_dur))
            c = t0 + 10.0
            evs.append(ev("X", "user_annotation",
                          "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                          pid, tid, c, dl[s][r] - 20.0))
            c = t0 + dl[s][r]
            evs.append(ev("X", "user_annotation", "forward", pid, tid, c, FWD_US - 10.0))
            evs.append(ev("X", "cpu_op", "aten::mm", pid, tid, c + 100.0, 400.0))
            evs.append(kernel("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_fwd", 7, c + 600.0,
                              FWD_US - 1000.0, corr))
            corr += 1
            c += FWD_US
            evs.append(ev("X", "user_annotation", "backward", pid, tid, c, BWD_US - 10.0))
            evs.append(kernel("sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_bwd", 7, c + 600.0,
                              BWD_US - 1000.0, corr))
            corr += 1
            # the all-reduce: starts at this rank's arrival, ends when all arrived + transfer
            evs.append(kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 20, t0 + mine,
                              arrive - mine + XFER_US, corr, allreduce_args(a.ranks)))
            corr += 1
            c = t0 + arrive + XFER_US
            evs.append(ev("X", "user_annotation", "optimizer", pid, tid, c, OPT_US - 10.0))
            evs.append(kernel("multi_tensor_apply_kernel_adam", 7, c + 200.0, OPT_US - 600.0, corr))
            corr += 1
        doc = {
            "schemaVersion": 1,
            "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3",
                                  "totalGlobalMem": 84942979072, "computeMajor": 9,
                                  "computeMinor": 0, "numSms": 132}],
            "distributedInfo": {"backend": "nccl", "rank": r, "world_size": a.ranks,
                                "pg_count": 1, "nccl_version": "2.21.5"},
            "displayTimeUnit": "ms",
            "baseTimeNanoseconds": 1732000000000000000,
            "traceEvents": evs,
            "traceName": "rank%d.pt.trace.json" % r,
        }
        path = os.path.join(a.out, "rank%d.pt.trace.json" % r)
        with open(path, "w") as f:
            f.write("{\n")
            keys = list(doc.keys())
            for i, k in enumerate(keys):
                sep = ",\n" if i + 1 < len(keys) else "\n"
                if k == "traceEvents":
                    f.write('  "traceEvents": [\n')
                    f.write(",\n".join("  " + json.dumps(e) for e in evs))
                    f.write("\n  ]" + sep)
                else:
                    f.write("  %s: %s%s" % (json.dumps(k), json.dumps(doc[k]), sep))
            f.write("}\n")


if __name__ == "__main__":
    main()
