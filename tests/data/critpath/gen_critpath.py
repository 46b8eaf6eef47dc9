#!/usr/bin/env python3
"""Writes critpath.json: a Kineto-shaped trace of four ProfilerSteps whose critical
paths are known by hand (tests/cli/t0115-critpath.sh states each answer and its
derivation). Times are us; thread 100 of pid 1, streams 7 and 8 of GPU 0.

  step 1 [0, 1000]     CPU-bound: a 600 us CPU op, then one short kernel
  step 2 [2000, 2500]  GPU-bound: two queued kernels (300 + 100 us), a device sync
  step 3 [3000, 3600]  sync-bound: a 500 us cudaStreamSynchronize that no traced
                       activity explains (the kernel ended before it began)
  step 4 [4000, 4400]  two overlapping streams: 200 us on stream 7, a 300 us NCCL
                       kernel on stream 8, then a device sync
  step 5 [5000, 5500]  a wait between streams: k_b on stream 8 starts 2 us after k_a
                       on stream 7 ends (as after cudaStreamWaitEvent), long after its
                       launch returned
"""
import json
import sys

ev = []
corr = [0]


def x(cat, name, ts, dur, tid=100, pid=1, args=None):
    e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
    if args:
        e["args"] = args
    ev.append(e)


def launch(ts, dur, kname, kts, kdur, stream=7):
    corr[0] += 1
    c = corr[0]
    x("cuda_runtime", "cudaLaunchKernel", ts, dur, args={"correlation": c, "cbid": 211})
    x("kernel", kname, kts, kdur, tid=stream, pid=0,
      args={"correlation": c, "stream": stream, "device": 0})


for i, (t0, d) in enumerate([(0, 1000), (2000, 500), (3000, 600), (4000, 400), (5000, 500)], 1):
    x("user_annotation", "ProfilerStep#%d" % i, t0, d)

# step 1
x("cpu_op", "aten::cpu_heavy", 100, 600)
x("cpu_op", "aten::mm", 750, 50)
launch(760, 10, "gemm_k1", 780, 50)
# step 2
x("cpu_op", "aten::mm", 2010, 30)
launch(2015, 10, "gemm_k2", 2030, 300)
x("cpu_op", "aten::add", 2045, 15)
launch(2050, 5, "add_k", 2335, 100)
x("cuda_runtime", "cudaDeviceSynchronize", 2070, 370, args={"cbid": 165})
# step 3
x("cpu_op", "aten::item", 3010, 550)
launch(3020, 10, "small_k", 3032, 13)
x("cuda_runtime", "cudaStreamSynchronize", 3050, 500, args={"cbid": 131})
# step 4
x("cpu_op", "aten::fwd", 4005, 45)
launch(4010, 5, "k_s7", 4020, 200, stream=7)
launch(4020, 5, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 4030, 300, stream=8)
x("cuda_runtime", "cudaDeviceSynchronize", 4060, 280, args={"cbid": 165})
# step 5
x("cpu_op", "aten::fwd2", 5005, 33)
launch(5010, 5, "k_a", 5020, 280, stream=7)
x("cuda_runtime", "cudaStreamWaitEvent", 5020, 5, args={"cbid": 147})
launch(5030, 5, "k_b", 5302, 98, stream=8)
x("cuda_runtime", "cudaDeviceSynchronize", 5040, 370, args={"cbid": 165})

ev.sort(key=lambda e: (e["ts"], -e["dur"]))
doc = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100"}],
       "traceEvents": ev}
out = sys.argv[1] if len(sys.argv) > 1 else "critpath.json"
with open(out, "w") as f:
    json.dump(doc, f, indent=0)
