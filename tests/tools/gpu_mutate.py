#!/usr/bin/python3
"""gpu_mutate.py - a changed copy of a Kineto trace, for compare's GPU metrics.

usage: tests/tools/gpu_mutate.py MODE IN OUT
MODE:
  stretch-compute   every compute kernel (a "kernel" event that is not
                    communication by gpu_ref.py's names) lasts 1.5x as long
  serialize-comm    every communication kernel is moved later, keeping its
                    duration and stream order, to the first time where it
                    overlaps no compute kernel: comm/compute overlap becomes 0
  drop-gpu          kernels, memcpy, memset, GPU annotations, the CUDA runtime/driver calls and
                    the launch flows removed (a CPU-only run: what the profiler
                    writes without CUDA activity)
  drop-comm         communication kernels removed (GPU ops, no communication)
IN may be gzipped; OUT is plain JSON. Times are rewritten with 3 decimals (ns),
through doubles: exact while ts * 1000 < 2^53 (nccl_data: ts ~ 4.5e12 us).
"""
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_ref import comm_lib  # noqa: E402  the same communication names as the reference

GPU = ("kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver", "gpu_user_annotation")


def main():
    mode, src, dst = sys.argv[1:4]
    op = gzip.open if src.endswith(".gz") else open
    with op(src, "rt") as f:
        doc = json.load(f)
    ev = doc["traceEvents"]

    def is_comm(e):
        return e.get("ph") == "X" and e.get("cat") == "kernel" and comm_lib(e["name"], None)

    def is_comp(e):
        return e.get("ph") == "X" and e.get("cat") == "kernel" and not comm_lib(e["name"], None)

    if mode == "stretch-compute":
        for e in ev:
            if is_comp(e):
                e["dur"] = round(float(e["dur"]) * 1.5, 3)
    elif mode == "serialize-comm":
        comp = sorted((float(e["ts"]), float(e["ts"]) + float(e["dur"])) for e in ev if is_comp(e))
        last = {}
        for e in sorted((e for e in ev if is_comm(e)), key=lambda e: float(e["ts"])):
            d = float(e["dur"])
            t = max(float(e["ts"]), last.get((e["pid"], e["tid"]), 0.0))
            moved = True
            while moved:
                moved = False
                for a, b in comp:
                    if a >= t + d:
                        break
                    if b > t:
                        t = b
                        moved = True
            e["ts"] = round(t, 3)
            last[(e["pid"], e["tid"])] = t + d
    elif mode == "drop-gpu":
        doc["traceEvents"] = [e for e in ev if e.get("cat") not in GPU and
                              not (e.get("ph") in ("s", "f") and e.get("cat") == "ac2g")]
    elif mode == "drop-comm":
        doc["traceEvents"] = [e for e in ev if not is_comm(e)]
    else:
        sys.exit("unknown mode " + mode)
    with open(dst, "w") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    main()
