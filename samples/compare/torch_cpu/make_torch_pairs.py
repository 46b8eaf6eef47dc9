#!/usr/bin/env python3
"""make_torch_pairs.py - real torch.profiler traces of short runs, for profreport compare.

Runs a small MLP training loop on the CPU under torch.profiler with the
schedule a CI job uses (wait=1, warmup=1, active=4: four ProfilerStep#N
steps are recorded) and writes, into this folder (or OUTDIR):

  base.pt.trace.json   the loop as it is
  noise.pt.trace.json  the same loop, run again (only timing noise differs)
  slow.pt.trace.json   the loop on a batch 1.5x as large (96 rows instead
                       of 64): forward and backward do 1.5x the matrix
                       work, the per-op overheads and the optimizer stay,
                       so a step takes between 1.2x and 1.5x as long

Each step is wrapped in record_function annotations "## forward ##",
"## backward ##" and "## optimizer ##", as in samples/compare/make_pairs.py.
Needs torch (Debian's python3-torch 1.13 is enough):
  /usr/bin/python3 samples/compare/torch_cpu/make_torch_pairs.py [OUTDIR]
Timings are real, so every run writes different numbers; the files in the
repository are one such run (see README.md here).
"""
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile, record_function, schedule

torch.manual_seed(0)
torch.set_num_threads(1)

DIM, HID, BATCH = 256, 512, 64


def run(path, batch):
	model = torch.nn.Sequential(torch.nn.Linear(DIM, HID), torch.nn.ReLU(), torch.nn.Linear(HID, DIM))
	opt = torch.optim.SGD(model.parameters(), lr=0.01)
	x = torch.randn(batch, DIM)
	y = torch.randn(batch, DIM)
	with profile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=1, warmup=1, active=4),
		     on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
		for _ in range(6):
			with record_function("## forward ##"):
				loss = torch.nn.functional.mse_loss(model(x), y)
			with record_function("## backward ##"):
				opt.zero_grad()
				loss.backward()
			with record_function("## optimizer ##"):
				opt.step()
			prof.step()


def main():
	out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
	os.makedirs(out, exist_ok=True)
	for name, batch in (("base", BATCH), ("noise", BATCH), ("slow", BATCH * 3 // 2)):
		path = os.path.join(out, name + ".pt.trace.json")
		run(path, batch)
		print("make_torch_pairs: wrote %s (%d bytes)" % (path, os.path.getsize(path)))


if __name__ == "__main__":
	main()
