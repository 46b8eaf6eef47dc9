#!/bin/sh
# t0070-flame-ref: the model's flame trees against tests/tools/flame_ref.py, which builds them
# from the trace itself in plain Python (nesting per thread, ProfilerStep#N merged as
# ProfilerStep#*, each device activity under the op whose runtime call has its correlation):
# every node kept in the host and gpu trees has Python's total for its path, by_step's
# roots are the 8 slowest steps in start order, and the gpu tree holds every activity's
# time. On the torch sample, and on HTA's traces in tests/data/traces
# (nccl_data: DDP on CUDA, 3 steps; the ROCm trace; negative_queue_length: 7747
# activities).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ref=$PR_TESTS/tools/flame_ref.py
hta=$TRACES/hta
n=0
for t in "$TORCH" "$hta/nccl_parser_config/nccl_data.json.gz" \
	"$hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz" \
	"$hta/negative_queue_length_values_check/rank0.json.gz"; do
	need_trace "$t"
	n=$((n + 1))
	run "$P" summary "$t" --json "m$n.json"
	expect_rc 0 "summary of $(basename "$t")"
	if ! /usr/bin/python3 "$ref" "$t" --check "m$n.json" >"c$n.txt" 2>&1; then
		cat "c$n.txt"
		fail "flame of $(basename "$t") differs from flame_ref.py"
	fi
done
[ "$n" -ge 1 ] || fail "no trace checked"
finish
