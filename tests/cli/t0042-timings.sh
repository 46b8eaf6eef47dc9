#!/bin/sh
# t0042-timings: PR_TIMINGS=1 makes a model build print one line per run and
# analyzer on stderr ("profreport: timing: run ID NAME WALL_S CPU_S rss MB hwm MB"; used by
# bench/gpu_bench.sh), and changes nothing else: same stdout, same model.
# The analyzers, in the order model.c runs them (run_order: timeline and flame
# and trace before the GPU analyses; critical_path and perf_model before gpu, which frees the
# shared GPU pass they read): context (the driver's loads), then 18.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

in=$PR_SAMPLES/torch/trace_rank0.pt.trace.json
run "$P" summary "$in" --json plain.json
expect_rc 0 "summary without PR_TIMINGS"
expect_err_empty "summary without PR_TIMINGS"
cp "$tmp/out" plain.out
PR_TIMINGS=1 run "$P" summary "$in" --json timed.json
expect_rc 0 "summary with PR_TIMINGS=1"
cmp -s plain.out "$tmp/out" || fail "PR_TIMINGS changed summary's output"
cmp -s plain.json timed.json || fail "PR_TIMINGS changed the model"
names=$(sed -n 's/^profreport: timing: run 1 \([a-z_]*\) [0-9]*\.[0-9]* [0-9]*\.[0-9]* rss -*[0-9]*\.[0-9] hwm -*[0-9]*\.[0-9]$/\1/p' "$tmp/err" | tr '\n' ' ')
[ "$names" = "context series phases peaks alloc_tree fragmentation throughput bottlenecks spans op_view collectives timeline flame trace gpu_breakdown critical_path perf_model gpu cupti_ranges leaks crosscheck recommendations " ] ||
	fail "PR_TIMINGS lines are not one per analyzer in order: '$names'"
# and, last, the CPU seconds of the process and of its -j workers (bench/parallel.sh reads it)
[ "$(wc -l <"$tmp/err")" -eq 23 ] || fail "PR_TIMINGS printed other lines on stderr"
tail -n 1 "$tmp/err" | grep -Eq '^profreport: timing: cpu self [0-9]+\.[0-9]{3} workers [0-9]+\.[0-9]{3}$' ||
	fail "PR_TIMINGS' last line is not the CPU seconds: $(tail -n 1 "$tmp/err")"
PR_TIMINGS=0 run "$P" summary "$in"
expect_err_empty "PR_TIMINGS=0 is off"

finish
