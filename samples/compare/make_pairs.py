#!/usr/bin/env python3
"""make_pairs.py - writes the base/new trace pairs of samples/compare/.

Each pair is a directory <pair>/ with base.pt.trace.json and new.pt.trace.json:
small torch.profiler (Kineto) traces in the JSON object form (see
../../../shared/REFERENCE.md section 2): deviceProperties, distributedInfo,
baseTimeNanoseconds, 20 ProfilerStep#N user annotations, the phases
'## forward ##', '## backward ##' and '## optimizer ##', cpu_ops with
cudaLaunchKernel runtime calls, kernels on GPU stream 7 linked by ac2g flows,
and [memory] instants with Total Allocated / Total Reserved.

The output is a pure function of this script (fixed seeds, Python 3 stdlib
only):  python3 samples/compare/make_pairs.py [OUTDIR]
"""
import json
import os
import random
import sys

STEPS = 20
MiB = 1 << 20
GiB = 1 << 30

# (phase, [(op, mean duration in us, kernel name or None)])
PLAN = [
	("## forward ##", [
		("aten::linear", 420.0, "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32"),
		("aten::mm", 400.0, "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x64x32"),
		("aten::relu", 260.0, "void at::native::vectorized_elementwise_kernel<4, relu>"),
		("aten::layer_norm", 380.0, "void at::native::vectorized_layer_norm_kernel<float, float>"),
		("aten::copy_", 150.0, None),
		("aten::cross_entropy_loss", 310.0, "void at::native::nll_loss_forward_kernel<float>"),
	]),
	("## backward ##", [
		("autograd::engine::evaluate_function: MmBackward0", 900.0,
		 "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x64x32"),
		("autograd::engine::evaluate_function: AddmmBackward0", 820.0,
		 "sm90_xmma_gemm_f32f32_tf32f32_f32_tt_n_tilesize64x128x32"),
		("autograd::engine::evaluate_function: NativeLayerNormBackward0", 540.0,
		 "void at::native::layer_norm_backward_kernel<float>"),
		("aten::add_", 120.0, None),
	]),
	("## optimizer ##", [
		("Optimizer.step#AdamW.step", 700.0, "void at::native::multi_tensor_apply_kernel<AdamW>"),
		("aten::zero_", 90.0, None),
	]),
]


class Variant:
	def __init__(self, seed, jitter=0.03, scale=None, rename=None, extra_mem=0, steps=STEPS,
		     memory=True, step_marks=True, drop_phases=(), extra_ops=None, allreduce=None):
		self.seed = seed
		self.jitter = jitter           # relative sd of every duration
		self.scale = scale or {}       # op or phase name -> duration factor
		self.rename = rename or {}     # op name -> (new op name, new kernel name)
		self.extra_mem = extra_mem     # bytes held during backward
		self.steps = steps             # ProfilerStep#N count (a profiler schedule's active=N)
		self.memory = memory           # write the [memory] instants (profile_memory=True)
		self.step_marks = step_marks   # write the ProfilerStep#N annotations
		self.drop_phases = set(drop_phases)  # phase annotations left out (their ops stay)
		self.extra_ops = extra_ops or {}     # phase -> [(op, mean us, kernel)] appended
		self.allreduce = allreduce     # (calls per step, mean us per call) in backward, or None


def us(ns):
	return "%d.%03d" % (ns // 1000, ns % 1000)


def trace(v):
	rng = random.Random(v.seed)
	ev = []
	pid, tid, gpid, stream = 12345, 12345, 0, 7
	for p, t, name, args in ((pid, 0, "process_name", {"name": "python3"}),
				 (pid, 0, "process_labels", {"labels": "CPU"}),
				 (gpid, 0, "process_name", {"name": "python3"}),
				 (gpid, 0, "process_labels", {"labels": "CUDA:0"}),
				 (pid, tid, "thread_name", {"name": "thread 12345 (python3)"}),
				 (gpid, stream, "thread_name", {"name": "stream 7"})):
		ev.append({"name": name, "ph": "M", "ts": 0.0, "pid": p, "tid": t, "args": args})
	alloc, reserved = 6 * GiB, 7 * GiB
	corr, ext = 1000, 1
	t = 1000000  # ns
	gpu_free = t

	def dur(mean_us, key, phase):
		f = v.scale.get(key, 1.0) * v.scale.get(phase, 1.0)
		d = mean_us * f * (1.0 + rng.gauss(0.0, v.jitter))
		return int(max(d, 1.0) * 1000)

	def mem(ts, nbytes):
		nonlocal alloc, reserved
		if not v.memory:
			return
		alloc += nbytes
		if alloc > reserved:
			reserved = alloc + 256 * MiB
		ev.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]",
			   "pid": pid, "tid": tid, "ts": us(ts),
			   "args": {"Total Reserved": reserved, "Total Allocated": alloc,
				    "Bytes": nbytes, "Device Id": 0, "Device Type": 1}})

	for step in range(v.steps):
		step_start = t
		body = []
		t += 40000
		for phase, ops in PLAN:
			ph_start = t
			t += 5000
			if phase == "## backward ##" and v.extra_mem:
				mem(t, v.extra_mem)
			ops = ops + v.extra_ops.get(phase, [])
			if phase == "## backward ##" and v.allreduce:
				ops = ops + [("nccl:all_reduce", v.allreduce[1],
					      "ncclKernel_AllReduce_RING_LL_Sum_float")] * v.allreduce[0]
			for op, mean_us, kernel in ops:
				if op in v.rename:
					op, kernel = v.rename[op]
				d = dur(mean_us, op, phase)
				o_start = t
				body.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": pid, "tid": tid,
					     "ts": us(o_start), "dur": us(d), "args": {"External id": ext}})
				if kernel:
					l_start = o_start + d // 3
					body.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
						     "pid": pid, "tid": tid, "ts": us(l_start), "dur": us(6000),
						     "args": {"External id": ext, "correlation": corr}})
					k_start = max(gpu_free, l_start + 8000)
					kd = int(d * 0.8)
					body.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": gpid,
						     "tid": stream, "ts": us(k_start), "dur": us(kd),
						     "args": {"External id": ext, "device": 0, "stream": stream,
							      "correlation": corr}})
					body.append({"ph": "s", "id": corr, "pid": pid, "tid": tid,
						     "ts": us(l_start), "cat": "ac2g", "name": "ac2g"})
					body.append({"ph": "f", "id": corr, "pid": gpid, "tid": stream,
						     "ts": us(k_start), "cat": "ac2g", "name": "ac2g", "bp": "e"})
					gpu_free = k_start + kd
					corr += 1
				if phase == "## forward ##":
					mem(o_start + 1000, 64 * MiB)
				t = o_start + d + 3000
				ext += 1
			if phase == "## backward ##":
				if v.extra_mem:
					mem(t, -v.extra_mem)
				mem(t + 500, -6 * 64 * MiB)
			if phase not in v.drop_phases:
				ev.append({"ph": "X", "cat": "user_annotation", "name": phase, "pid": pid,
					   "tid": tid, "ts": us(ph_start), "dur": us(t - ph_start),
					   "args": {"External id": ext}})
			ext += 1
			t += 2000
		t = max(t, gpu_free) + 10000
		if v.step_marks:
			ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % step,
				   "pid": pid, "tid": tid, "ts": us(step_start), "dur": us(t - step_start),
				   "args": {"External id": ext}})
		ext += 1
		ev.extend(body)
		t += 20000
	ev.append({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": us(t)})
	return {
		"schemaVersion": 1,
		"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 84942979072,
				      "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
		"distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 1},
		"displayTimeUnit": "ms",
		"baseTimeNanoseconds": 1732000000000000000,
		"traceEvents": ev,
		"traceName": "/tmp/trace_rank0.json",
	}


PAIRS = {
	# the same run twice: nothing changes
	"identical": (Variant(1), Variant(1)),
	# aten::mm made 20 % slower, everything else the same distribution
	"slower_op": (Variant(1), Variant(2, scale={"aten::mm": 1.20})),
	# two runs of the same program: only per-step jitter (3 % sd) differs
	"noise": (Variant(1), Variant(2)),
	# 512 MiB more held during the backward pass of every step
	"memory": (Variant(1), Variant(1, extra_mem=512 * MiB)),
	# the backward pass 25 % faster
	"improvement": (Variant(1), Variant(2, scale={"## backward ##": 0.75})),
	# aten::relu (and its kernel) replaced by aten::gelu
	"span_sets": (Variant(1), Variant(2, rename={
		"aten::relu": ("aten::gelu", "void at::native::vectorized_elementwise_kernel<4, gelu>")})),
}

# Short runs, as a profiler schedule records them (active=3..5): every phase 1.5x slower, noise only
# (another seed), the same run twice.
SLOWER = {"## forward ##": 1.5, "## backward ##": 1.5, "## optimizer ##": 1.5}
for _n in (3, 4, 5):
	PAIRS["short%d_slow" % _n] = (Variant(1, steps=_n), Variant(2, steps=_n, scale=SLOWER))
	PAIRS["short%d_noise" % _n] = (Variant(1, steps=_n), Variant(2, steps=_n))
PAIRS["short4_identical"] = (Variant(1, steps=4), Variant(1, steps=4))
# A key metric of BASE missing in NEW (4 steps): the memory instants, a phase, the step marks.
PAIRS["missing_peak"] = (Variant(1, steps=4), Variant(2, steps=4, memory=False))
PAIRS["missing_phase"] = (Variant(1, steps=4), Variant(2, steps=4, drop_phases=["## optimizer ##"]))
PAIRS["missing_steps"] = (Variant(1, steps=4), Variant(2, steps=4, step_marks=False))
# Two all-reduce buckets per step fused into one of twice the size: the same time, half the calls.
PAIRS["allreduce_calls"] = (Variant(1, steps=4, allreduce=(2, 300.0)),
			    Variant(2, steps=4, allreduce=(1, 600.0)))
# An op (and its kernel) new in NEW, 5 % of the step.
PAIRS["new_op"] = (Variant(1, steps=4), Variant(2, steps=4, extra_ops={"## forward ##": [
	("aten::contiguous", 250.0, "void at::native::elementwise_kernel<128, 2>")]}))


def write(path, doc):
	with open(path, "w", encoding="utf-8") as f:
		f.write("{\n")
		keys = list(doc)
		for i, k in enumerate(keys):
			if k == "traceEvents":
				f.write('  "traceEvents": [\n')
				f.write(",\n".join("  " + json.dumps(e, separators=(",", ":")) for e in doc[k]))
				f.write("\n  ]")
			else:
				f.write("  %s: %s" % (json.dumps(k), json.dumps(doc[k])))
			f.write(",\n" if i + 1 < len(keys) else "\n")
		f.write("}\n")


def main():
	out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
	for name, (base, new) in PAIRS.items():
		d = os.path.join(out, name)
		os.makedirs(d, exist_ok=True)
		write(os.path.join(d, "base.pt.trace.json"), trace(base))
		write(os.path.join(d, "new.pt.trace.json"), trace(new))
		print("make_pairs: wrote %s/" % d)


if __name__ == "__main__":
	main()
