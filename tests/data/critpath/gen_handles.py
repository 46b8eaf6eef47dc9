#!/usr/bin/env python3
"""A Kineto trace whose two steps' critical paths depend on the trace's synchronisation
handles (cuda_sync records; t0155-critpath-handles.sh derives the answers by hand):
step 1, a Stream Wait Event with wait_on_cuda_event_record_corr_id (newer PyTorch); step 2, one
with wait_on_stream only (older Kineto) and a Stream Sync on one stream. Times in us."""
import json
import sys

ev = []


def x(cat, name, ts, dur, pid=1, tid=1, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur,
               "args": args})


def call(name, ts, dur, corr):
    x("cuda_runtime", name, ts, dur, correlation=corr)


def kernel(name, stream, ts, dur, corr):
    x("kernel", name, ts, dur, pid=0, tid=stream, stream=stream, correlation=corr, device=0)


def sync(name, stream, ts, dur, corr, **args):
    x("cuda_sync", name, ts, dur, pid=0, tid=stream, stream=stream, correlation=corr, device=0,
      cuda_sync_kind=name, **args)


# step 1: stream 8 waits on stream 7 through an event recorded after k_a's launch
x("user_annotation", "ProfilerStep#1", 0, 1000)
x("cpu_op", "aten::fwd", 0, 100)
call("cudaLaunchKernel", 10, 10, 1)
kernel("k_a", 7, 30, 470, 1)
call("cudaEventRecord", 25, 3, 2)
call("cudaStreamWaitEvent", 30, 3, 3)
sync("Stream Wait Event", 8, 31, 0, 3, wait_on_stream=7, wait_on_cuda_event_record_corr_id=2)
call("cudaLaunchKernel", 40, 10, 4)
kernel("k_b", 8, 560, 140, 4)
call("cudaDeviceSynchronize", 100, 660, 5)
sync("Context Sync", -1, 700, 1, 5)
# step 2: an older record (wait_on_stream and the event's id only) and a Stream Sync
x("user_annotation", "ProfilerStep#2", 2000, 1000)
call("cudaLaunchKernel", 2010, 10, 11)
kernel("k_c", 7, 2030, 370, 11)
call("cudaLaunchKernel", 2022, 6, 12)
kernel("k_d", 9, 2030, 480, 12)
call("cudaStreamWaitEvent", 2030, 2, 13)
sync("Stream Wait Event", 8, 2031, 0, 13, wait_on_stream=7, wait_on_cuda_event_id=1)
call("cudaLaunchKernel", 2040, 10, 14)
kernel("k_e", 8, 2450, 50, 14)
call("cudaStreamSynchronize", 2060, 460, 15)
sync("Stream Sync", 8, 2500, 20, 15)
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"), indent=0)
