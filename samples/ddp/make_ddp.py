#!/usr/bin/python3
"""A real 4-rank DDP run (gloo, CPU) profiled with torch.profiler.

Run with Debian's python3-torch (1.13, built without Kineto), which writes
legacy bare-array Chrome traces whose events carry no "cat":
record_function("data_loading"), "forward", "backward", "optimizer" are
plain slices next to the aten:: ops, under ProfilerStep#N.

Rank SLOW_RANK loads its data SLOW_MS slower in every step. DDP's
all-reduce synchronises the steps, so every rank's step time is the same;
the slow rank is the one that waits least in gloo's all_reduce and whose
data_loading is several times the others'.

    /usr/bin/python3 make_ddp.py named   # -> named/rank<R>.pt.trace.json
    /usr/bin/python3 make_ddp.py hostpid # -> hostpid/<host>_<pid>.<ms>.pt.trace.json

"named" passes worker_name=f"rank{rank}" to tensorboard_trace_handler;
"hostpid" keeps the handler's default names, which carry no rank.
"""
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import ProfilerActivity, profile, record_function, schedule, tensorboard_trace_handler

WORLD = 4
SLOW_RANK = 2
SLOW_MS = 80
BASE_LOAD_MS = 20
STEPS = 8  # wait 1 + warmup 1 + active 5, plus one spare


def worker(rank, outdir, named, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    handler = tensorboard_trace_handler(outdir, worker_name=f"rank{rank}" if named else None)
    with profile(activities=[ProfilerActivity.CPU],
                 schedule=schedule(wait=1, warmup=1, active=5, repeat=1),
                 on_trace_ready=handler) as prof:
        for step in range(STEPS):
            with record_function("data_loading"):
                time.sleep((BASE_LOAD_MS + (SLOW_MS if rank == SLOW_RANK else 0)) / 1000.0)
                x = torch.randn(32, 64)
                y = torch.randint(0, 10, (32,))
            with record_function("forward"):
                out = model(x)
                loss = loss_fn(out, y)
            with record_function("backward"):
                opt.zero_grad()
                loss.backward()
            with record_function("optimizer"):
                opt.step()
            prof.step()
    dist.destroy_process_group()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "named"
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = os.path.join(here, mode)
    os.makedirs(outdir, exist_ok=True)
    port = 29500 + os.getpid() % 1000
    mp.spawn(worker, args=(outdir, mode == "named", port), nprocs=WORLD, join=True)


if __name__ == "__main__":
    main()
