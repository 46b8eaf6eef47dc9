#!/usr/bin/env python3
"""make_torch_slow.py - a real torch.profiler pair whose NEW step is about 1.4x slower.

Runs a small MLP training loop (Linear 256->1024, ReLU, Linear 1024->256,
MSE loss, SGD; batch 64; one CPU thread) on the CPU under
torch.profiler.profile(schedule=schedule(wait=1, warmup=1, active=5)), so
five ProfilerStep#N steps are recorded, and writes into this folder (or
OUTDIR):

  base.pt.trace.json   the loop as it is
  rerun.pt.trace.json  the same loop run again (only timing noise differs)
  slow.pt.trace.json   the loop with a deliberate regression: the forward pass
                       also multiplies the hidden activations (64 x 1024) by
                       a 1024 x 640 matrix, without gradient, and sums the
                       result (aten::mm under "extra_matmul"): a debug
                       statistic left in the loop; about 0.4x of the step's
                       matrix work, so a step takes about 1.4x as long

Each step is wrapped in record_function "## forward ##", "## backward ##"
and "## optimizer ##", as in samples/compare/make_pairs.py. Needs torch
(Debian 12's python3-torch 1.13, which writes the legacy Chrome trace):
  /usr/bin/python3 samples/compare/torch-slow/make_torch_slow.py [OUTDIR]
Timings are real: every run writes other numbers; the files here are the
run described in README.md.
"""
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile, record_function, schedule

DIM, HID, BATCH = 256, 1024, 64


def run(path, extra):
	torch.manual_seed(0)
	torch.set_num_threads(1)
	model = torch.nn.Sequential(torch.nn.Linear(DIM, HID), torch.nn.ReLU(), torch.nn.Linear(HID, DIM))
	opt = torch.optim.SGD(model.parameters(), lr=0.01)
	x = torch.randn(BATCH, DIM)
	y = torch.randn(BATCH, DIM)
	w = torch.randn(HID, extra or 1) / HID
	with profile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=1, warmup=1, active=5),
		     on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
		for _ in range(7):
			with record_function("## forward ##"):
				h = model[1](model[0](x))
				if extra:
					# the regression: a debug statistic of the hidden activations,
					# computed every step and thrown away (no gradient)
					with record_function("extra_matmul"), torch.no_grad():
						torch.mm(h, w).abs().sum()
				loss = torch.nn.functional.mse_loss(model[2](h), y)
			with record_function("## backward ##"):
				opt.zero_grad()
				loss.backward()
			with record_function("## optimizer ##"):
				opt.step()
			prof.step()


def main():
	out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
	extra = int(os.environ.get("EXTRA", "640"))
	run(os.path.join(out, "base.pt.trace.json"), 0)
	run(os.path.join(out, "rerun.pt.trace.json"), 0)
	run(os.path.join(out, "slow.pt.trace.json"), extra)


if __name__ == "__main__":
	main()
