#!/usr/bin/env python3
"""gen_tbsteps.py [OUT] - writes a small Kineto trace shaped like torch.profiler's
output for a ResNet training loop (written here, deterministic, no randomness):

- 4 ProfilerStep#N spans (user_annotation) back to back on the main CPU thread;
- in each, an `enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__` span
  (the input batch), then aten::conv2d / aten::batch_norm ops, each calling
  cudaLaunchKernel (cuda_runtime, args.correlation + an ac2g flow);
- each launch's kernel on stream 7 of device 0, queued behind the previous one,
  so the GPU work of a step runs past the step's host end, into the next
  step's DataLoader (as TensorBoard's ResNet50 sample does).

TensorBoard extends a step to the end of the GPU work its launches started, so
its step time (and the DataLoader share of it) differs from the host spans'.
"""
import json
import sys

STEPS = 4
FIRST = 4            # ProfilerStep#4..#7 as a schedule(wait=1, warmup=3, active=4) names them
T0 = 1_000_000.0     # us
PID, TID = 4242, 4242

ev = [
    {"ph": "M", "name": "process_name", "pid": PID, "tid": 0, "args": {"name": "python3"}},
    {"ph": "M", "name": "thread_name", "pid": PID, "tid": TID, "args": {"name": "python3"}},
    {"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "python3"}},
    {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}},
]
# per step: DataLoader time and the number of launches (varied a little, deterministic)
loader_us = [52000.0, 47000.0, 55000.0, 50000.0]
launches = [60, 60, 60, 60]
op_us = 1800.0       # host time per op (one launch each)
launch_us = 12.0
kernel_us = [1850.0, 1840.0, 1860.0, 1845.0]  # GPU time per kernel: a little over the host's
t = T0
gpu_free = T0
corr = 1000
ext = 1
for s in range(STEPS):
    step_ts = t
    host = []
    dl_ts = t + 20.0
    host.append({"ph": "X", "cat": "user_annotation",
                 "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                 "pid": PID, "tid": TID, "ts": dl_ts, "dur": loader_us[s], "args": {"External id": ext}})
    ext += 1
    t = dl_ts + loader_us[s] + 30.0
    for k in range(launches[s]):
        name = "aten::conv2d" if k % 2 == 0 else "aten::batch_norm"
        kname = ("void cudnn::cnn::implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, true, "
                 "false, true>(int, int, int, float const*, int, float*, float const*, kernel_conv_params, "
                 "unsigned long long, int, float, float, int, float const*, float const*, bool, int, int)"
                 if k % 2 == 0 else
                 "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, "
                 "float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, "
                 "float*, float*, float*, float, float)")
        host.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": PID, "tid": TID, "ts": t,
                     "dur": op_us - 10.0, "args": {"External id": ext}})
        lts = t + 400.0
        host.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": PID,
                     "tid": TID, "ts": lts, "dur": launch_us,
                     "args": {"External id": ext, "cbid": 211, "correlation": corr}})
        host.append({"ph": "s", "id": corr, "pid": PID, "tid": TID, "ts": lts, "cat": "ac2g",
                     "name": "ac2g"})
        kts = max(lts + launch_us + 5.0, gpu_free)
        host.append({"ph": "X", "cat": "kernel", "name": kname, "pid": 0, "tid": 7, "ts": kts,
                     "dur": kernel_us[s], "args": {"External id": ext, "queued": 0, "device": 0,
                     "context": 1, "stream": 7, "correlation": corr, "registers per thread": 64,
                     "shared memory": 0, "blocks per SM": 1.2, "warps per SM": 9.6,
                     "grid": [256, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 25}})
        host.append({"ph": "f", "id": corr, "pid": 0, "tid": 7, "ts": kts, "cat": "ac2g",
                     "name": "ac2g", "bp": "e"})
        gpu_free = kts + kernel_us[s]
        corr += 1
        ext += 1
        t += op_us
    t += 200.0
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % (FIRST + s),
               "pid": PID, "tid": TID, "ts": step_ts, "dur": t - step_ts, "args": {"External id": ext}})
    ext += 1
    ev.extend(host)
ev.append({"ph": "X", "cat": "Trace", "ts": T0 - 100.0, "dur": gpu_free - T0 + 200.0, "pid": "Spans",
           "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {"Op count": 0}})
doc = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB",
       "totalGlobalMem": 42297524224, "computeMajor": 8, "computeMinor": 0, "numSms": 108}],
       "displayTimeUnit": "ms", "traceEvents": ev}
out = sys.argv[1] if len(sys.argv) > 1 else "tbsteps.pt.trace.json"
with open(out, "w") as f:
    json.dump(doc, f, separators=(",", ":"))
    f.write("\n")
