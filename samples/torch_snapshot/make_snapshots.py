#!/usr/bin/env python3
"""make_snapshots.py - writes the torch_snapshot samples with Python's pickle,
in the structure torch.cuda.memory._dump_snapshot() writes (torch 2.1 and
later: the dict torch.cuda.memory._snapshot() returns, pickled with the
default protocol; key names and their order as in a real snapshot, see
README.md). Run from this folder: python3 make_snapshots.py

snapshot.pickle: one device, a history with time_us (a segment_alloc,
allocations from Python and from the autograd thread, a block still
pending its free, a cached segment freed before an OOM, the OOM).
notime-2dev.pickle: two devices, a history without time_us.
"""
import pickle

MiB = 1 << 20
T0 = 1700000000000000  # time_us of the first event


def frame(filename, line, name):
    return {"name": name, "filename": filename, "line": line}


CXX = [frame("", 0, "torch::unwind::unwind()"),
       frame("CUDACachingAllocator.cpp", 0,
             "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc("
             "int, unsigned long, CUstream_st*)")]
LINEAR = frame("/usr/lib/python3/dist-packages/torch/nn/modules/linear.py", 125, "forward")
MAIN = frame("/home/user/proj/train.py", 80, "<module>")


def py(line, name, torch_frame=None, cxx=False):
    """A stack, innermost first: C++ frames (stacks='all'), a torch frame, then user code."""
    fr = list(CXX) if cxx else []
    if torch_frame:
        fr.append(torch_frame)
    fr.append(frame("/home/user/proj/train.py", line, name))
    fr.append(MAIN)
    return fr


BACKWARD = CXX + [frame("", 0, "torch::autograd::generated::MmBackward0::apply("
                          "std::vector<at::Tensor, std::allocator<at::Tensor> >&&)"),
                  frame("??", 0, "torch::autograd::Engine::thread_main("
                        "std::shared_ptr<torch::autograd::GraphTask> const&)")]


def block(addr, size, state, requested=None, frames=()):
    return {"address": addr, "size": size,
            "requested_size": size if requested is None else requested,
            "state": state, "frames": list(frames)}


def segment(device, addr, stype, blocks, pool=(0, 0)):
    total = sum(b["size"] for b in blocks)
    alloc = sum(b["size"] for b in blocks if b["state"] == "active_allocated")
    active = sum(b["size"] for b in blocks if b["state"] != "inactive")
    req = sum(b["requested_size"] for b in blocks if b["state"] != "inactive")
    return {"device": device, "address": addr, "total_size": total, "allocated_size": alloc,
            "active_size": active, "requested_size": req, "stream": 0, "segment_type": stype,
            "segment_pool_id": pool, "is_expandable": False, "frames": [], "blocks": blocks}


def ev(action, addr, size, t=None, frames=(), **extra):
    e = {"action": action, "addr": addr, "size": size, "stream": 0}
    if t is not None:
        e["time_us"] = T0 + t
    e["frames"] = list(frames)
    e.update(extra)
    return e


def main_snapshot():
    A, B, C, D, E = (0x7f0000000000, 0x7f0002000000, 0x7f0004000000, 0x7f0006000000,
                     0x7f0008000000)
    w_frames = py(12, "__init__")
    segs = [
        segment(0, A, "large", [
            block(A, 8 * MiB, "active_allocated", frames=w_frames),  # before the history
            block(A + 8 * MiB, 6 * MiB, "inactive"),
            block(A + 14 * MiB, 4 * MiB, "active_pending_free", 4000000),
            block(A + 18 * MiB, 2 * MiB, "inactive")]),
        segment(0, B, "large", [
            block(B, 12 * MiB, "active_allocated", 12 * MiB - 100, BACKWARD),
            block(B + 12 * MiB, 8 * MiB, "inactive")]),
        segment(0, C, "small", [
            block(C, 512, "inactive"),
            block(C + 512, 512, "active_allocated", 400, py(50, "step")),
            block(C + 1024, 2 * MiB - 1024, "inactive")]),
        # a CUDA graph's private pool, allocated before the history
        segment(0, D, "large", [block(D, 2 * MiB, "active_allocated")], pool=(1, 7)),
    ]
    trace = [
        ev("alloc", A + 8 * MiB, 6 * MiB, 0, py(30, "forward", LINEAR)),
        ev("alloc", A + 14 * MiB, 4 * MiB, 40, py(31, "forward", LINEAR)),
        ev("segment_alloc", B, 20 * MiB, 95, py(32, "forward", cxx=True)),
        ev("alloc", B, 10 * MiB, 100, py(32, "forward", cxx=True)),
        ev("segment_alloc", C, 2 * MiB, 150, py(35, "loss")),
        ev("alloc", C, 512, 151, py(35, "loss")),
        ev("alloc", C + 512, 512, 160, py(50, "step")),
        ev("free_requested", A + 8 * MiB, 6 * MiB, 200),
        ev("free_completed", A + 8 * MiB, 6 * MiB, 200),
        ev("free_requested", B, 10 * MiB, 210),
        ev("free_completed", B, 10 * MiB, 211),
        ev("alloc", B, 12 * MiB, 300, BACKWARD),
        ev("segment_free", E, 20 * MiB, 350, py(61, "backward_step")),
        ev("oom", 0, 16 * MiB, 351, py(61, "backward_step"), device_free=3 * MiB),
        ev("free_requested", C, 512, 400),
        ev("free_completed", C, 512, 400),
        ev("free_requested", A + 14 * MiB, 4 * MiB, 410),  # record_stream: still pending
        ev("snapshot", 0, 0, 500),
    ]
    for e in trace:  # torch writes device_free instead of addr for an oom
        if e["action"] == "oom":
            del e["addr"]
    return {"segments": segs, "device_traces": [trace]}


def notime_2dev():
    A, B = 0x7f1000000000, 0x7f2000000000
    segs = [
        segment(0, A, "large", [block(A, 4 * MiB, "active_allocated", frames=py(20, "f")),
                                block(A + 4 * MiB, 16 * MiB, "inactive")]),
        segment(1, B, "large", [block(B, 6 * MiB, "active_allocated", frames=py(21, "g")),
                                block(B + 6 * MiB, 2 * MiB, "inactive"),
                                block(B + 8 * MiB, 4 * MiB, "active_allocated",
                                      frames=py(22, "g")),
                                block(B + 12 * MiB, 8 * MiB, "inactive")]),
    ]
    t0 = [ev("segment_alloc", A, 20 * MiB, None, py(20, "f")),
          ev("alloc", A, 4 * MiB, None, py(20, "f")),
          ev("alloc", A + 4 * MiB, 8 * MiB, None, py(23, "h")),
          ev("free_requested", A + 4 * MiB, 8 * MiB),
          ev("free_completed", A + 4 * MiB, 8 * MiB)]
    t1 = [ev("alloc", B + 6 * MiB, 2 * MiB, None, py(24, "k")),
          ev("alloc", B + 8 * MiB, 4 * MiB, None, py(22, "g")),
          ev("free_requested", B + 6 * MiB, 2 * MiB),
          ev("free_completed", B + 6 * MiB, 2 * MiB)]
    return {"segments": segs, "device_traces": [t0, t1]}


for name, doc in (("snapshot.pickle", main_snapshot()), ("notime-2dev.pickle", notime_2dev())):
    with open(name, "wb") as f:
        pickle.dump(doc, f, protocol=4)
