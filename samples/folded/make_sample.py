#!/usr/bin/python3
"""Makes torch_cpu.stacks: a REAL torch.profiler export_stacks file (folded stacks).

Run with Debian's /usr/bin/python3 (python3-torch 1.13, CPU only):
    /usr/bin/python3 samples/folded/make_sample.py
A small MLP, 3 forward+backward passes under torch.profiler with
with_stack=True; prof.export_stacks(path, "self_cpu_time_total") writes one
line per event that has a Python stack and a self CPU time > 0: the stack
root first, spaces/';'/tabs turned into '_', then int(self time in us).
The timings (and the object addresses in some frame names) change on every
run: the committed file is one run, and the tests derive their numbers from it.
"""
import os

import torch
from torch.profiler import ProfilerActivity, profile

here = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
x = torch.randn(32, 64)
with profile(activities=[ProfilerActivity.CPU], with_stack=True) as prof:
    for _ in range(3):
        y = model(x).sum()
        y.backward()
prof.export_stacks(os.path.join(here, "torch_cpu.stacks"), "self_cpu_time_total")
