#!/bin/sh
# t0016-gpu: --comm-kernels on report and summary (gpu_breakdown's own
# numbers are checked in tests/unit/test_gpu.c and test_gpu_traces.c).
# The torch sample (bench/gen_trace) runs its kernels named
# "void at::native::...multi_tensor_apply_kernel<...>" on stream 7, none of
# which is communication by the built-in names.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

run "$P" report "$TORCH" --json model.json --timeline-points 0
expect_rc 0 "report of the torch sample"
tr -d ' \n' <model.json | grep -q '"type":"communication","count":0,' ||
	fail "no kernel of the sample is communication by the built-in names"

run "$P" report "$TORCH" --json model.json --timeline-points 0 --comm-kernels 'multi_tensor_apply'
expect_rc 0 "report with --comm-kernels"
tr -d ' \n' <model.json | grep -q '"comm_kernels_pattern":"multi_tensor_apply"' ||
	fail "the model does not record the pattern"
tr -d ' \n' <model.json | grep -q '"library":"user","count":[1-9]' ||
	fail "the pattern made no kernel communication"

run "$P" summary "$TORCH" --comm-kernels '('
expect_rc 2 "a bad --comm-kernels is a usage error"
expect_one_err_line "bad pattern"
expect_err_has "profreport: summary: --comm-kernels '(':" "the error names the option"
expect_out_empty "nothing printed on a bad pattern"

finish
