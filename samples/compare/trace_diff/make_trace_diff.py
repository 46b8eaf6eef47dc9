#!/usr/bin/env python3
"""make_trace_diff.py - a pair shaped like HolisticTraceAnalysis's trace-diff test data.

HTA's tests/test_trace_diff.py compares tests/data/trace_compare/base and
.../test (rank 1, iterations 1009 and 1010) and expects, on the CPU side,
AddmmBackward0, All2All_Pooled_Req and CatBackward0 "added" and
nccl:all_reduce changed, with every op tiny next to its 122 ms step. Those
files are not in this repository (nor in ../shared/traces), so this script
writes a pair with the same names and the same kind of differences, to test
profreport compare's presence and count verdicts (tests/cli/t0086):

  base.pt.trace.json  ProfilerStep#1009 and #1010 (122.149 ms each); per step
                      aten::empty, aten::as_strided, aten::zeros,
                      cudaEventQuery, cudaLaunchKernel (2 calls) and 2
                      nccl:all_reduce (67 us), each launching an
                      ncclKernel_AllReduce_RING_LL_Sum_float on stream 7
  new.pt.trace.json   the same steps; aten::zeros gone; AddmmBackward0,
                      All2All_Pooled_Req and CatBackward0 added; one
                      nccl:all_reduce and one kernel per step (2 -> 1), and
                      one cudaLaunchKernel (2 -> 1)

Python 3 standard library only, no randomness: the output is a pure
function of this script.
  python3 samples/compare/trace_diff/make_trace_diff.py [OUTDIR]
"""
import json
import os
import sys

STEP_US = 122149.0


def trace(new):
    ev = [
        {"name": "process_name", "ph": "M", "ts": 0, "pid": 1, "tid": 0, "args": {"name": "python3"}},
        {"name": "process_labels", "ph": "M", "ts": 0, "pid": 0, "tid": 0, "args": {"labels": "CUDA:0"}},
        {"name": "thread_name", "ph": "M", "ts": 0, "pid": 0, "tid": 7, "args": {"name": "stream 7"}},
    ]
    corr = 100
    t0 = 1000.0
    for it in (1009, 1010):
        ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % it,
                   "pid": 1, "tid": 1, "ts": t0, "dur": STEP_US})
        t = t0 + 100.0
        ops = [("aten::empty", 3.0), ("aten::as_strided", 1.0)]
        if not new:
            ops.append(("aten::zeros", 5.0))
        else:
            ops += [("AddmmBackward0", 40.0), ("All2All_Pooled_Req", 25.0), ("CatBackward0", 12.0)]
        ops.append(("cudaEventQuery", 4.0))
        for name, dur in ops:
            ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": t,
                       "dur": dur})
            t += dur + 20.0
        for _ in range(1 if new else 2):
            ev.append({"ph": "X", "cat": "cpu_op", "name": "nccl:all_reduce", "pid": 1, "tid": 1,
                       "ts": t, "dur": 67.0})
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                       "tid": 1, "ts": t + 50.0, "dur": 4.0, "args": {"correlation": corr}})
            ev.append({"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float",
                       "pid": 0, "tid": 7, "ts": t + 60.0, "dur": 180.0,
                       "args": {"correlation": corr, "stream": 7, "device": 0}})
            corr += 1
            t += 300.0
        t0 += STEP_US + 50.0
    return {"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 2},
            "baseTimeNanoseconds": 1700000000000000000, "traceEvents": ev}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, new in (("base.pt.trace.json", False), ("new.pt.trace.json", True)):
        with open(os.path.join(out, name), "w") as f:
            json.dump(trace(new), f, indent=0)
            f.write("\n")


if __name__ == "__main__":
    main()
