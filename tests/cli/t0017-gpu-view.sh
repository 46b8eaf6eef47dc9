#!/bin/sh
# t0017-gpu-view: the GPU block of `summary` and the GPU section of the HTML
# report on a real Kineto trace (tests/data/traces, see its README). nccl_data is rank 0 of a 2-GPU DDP ResNet;
# its README (numbers from HTA, also asserted on the model by
# tests/unit/test_gpu_traces.c): GPU busy 23.84 %, NCCL kernel time
# overlapped by compute kernels 15.6 %; 15 all-reduces, seen once per layer
# (the record_function annotation on the CPU, its GPU projection, the kernel).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

NCCL=$TRACES/hta/nccl_parser_config/nccl_data.json.gz
need_trace "$NCCL"

run "$P" summary "$NCCL"
expect_rc 0 "summary of nccl_data"
cp "$tmp/out" summary.txt
expect_out_has "GPU busy 23.84% of" "HTA's GPU busy share"
expect_out_has "comm/compute overlap 15.6% of" "HTA's comm/compute overlap"
grep -q '^  nccl:all_reduce  *cpu ann  *15 ' summary.txt ||
	fail "the CPU annotation of nccl:all_reduce is its own row with 15 calls"
grep -q '^  nccl:all_reduce  *gpu ann  *15 ' summary.txt ||
	fail "the GPU annotation of nccl:all_reduce is its own row with 15 calls"
# The GPU block leads: right after throughput, before the span tables.
awk '/^Throughput$/ { t = NR } /^GPU \(cuda\)$/ { g = NR } /^Top spans/ { s = NR }
	END { exit !(t && g && s && t < g && g < s) }' summary.txt ||
	fail "the GPU block comes right after throughput"
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' summary.txt ||
	fail "a summary line is wider than 80 columns"

# Queue length: the 3 streams with the longest mean queue, longest first.
# sampled_rank-0's streams in track order are 23, 84, 25, 7, 203 with mean
# queues of about 0.01, 0.49, 1.20, 16.27 and 0.30 (the model's
# gpu.streams.items), so the summary lists 7, 25, 84 and neither 23 nor 203.
run "$P" summary "$(dirname "$NCCL")/../trace_filter/sampled_rank-0.json.gz"
expect_rc 0 "summary of sampled_rank-0"
grep -o '^  GPU 0 stream [0-9]*' "$tmp/out" | tr '\n' ' ' >streams.txt
[ "$(cat streams.txt)" = "  GPU 0 stream 7   GPU 0 stream 25   GPU 0 stream 84 " ] ||
	fail "queue streams by mean queue length, got: $(cat streams.txt)"

# Every real trace's summary (ROCm, Triton, ns resolution, multi-stream) fits 80 columns.
for f in "$(dirname "$NCCL")"/../*/*.json.gz "$(dirname "$NCCL")"/../*/*/*.json.gz; do
	[ -f "$f" ] || continue
	run "$P" summary "$f"
	expect_rc 0 "summary of $f"
	awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$tmp/out" ||
		fail "a line of the summary of $f is wider than 80 columns"
done

run "$P" report "$NCCL" -o page.html
expect_rc 0 "report of nccl_data"
grep -q 'GPU busy 23.84%' page.html || fail "the page shows GPU busy 23.84%"
grep -q 'Comm/compute overlap 15.6%' page.html || fail "the page shows the overlap 15.6%"
grep -q '<h3>GPU (cuda)</h3>' page.html || fail "the page has a GPU section"
grep -q '<td>cpu_annotation</td>' page.html || fail "the collectives table names the layer"
# Kernel names are escaped: at::detail::Array<char*, 3> appears only as text.
grep -q 'Array&lt;char\*, 3&gt;' page.html || fail "kernel names are escaped"
if grep -q 'Array<char\*, 3>' page.html; then
	fail "a kernel name went into the page unescaped"
fi

finish
