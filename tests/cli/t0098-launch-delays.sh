#!/bin/sh
# t0098-launch-delays: issue 28, HTA's kernel launch statistics in the gpu
# section (gpu.launch_delays) and the console's GPU block, on real Kineto
# traces (tests/data/traces/hta, see its README).
#
# DERIVATION: tests/tools/launch_ref.py (standard-library Python over the
# trace JSON, no profreport code) printed the numbers below; HTA's own tests
# assert nothing about launch statistics on these files, so the reference is
# the definition (docs/analysis.md, launch_delays) computed the plain way:
#   ns_resolution rank-0: 6095 launches, delay mean 68685352.489089 ns, max
#   90937999 ns, total 418637223421 ns, latency mean 68729002.930271 ns, CPU
#   mean 43650.768335 ns, GPU mean 77515.084660 ns; 936 calls > 50 us, 5932
#   delays > 100 us, 2682 short kernels; longest delay 90937999 ns at trace ns
#   1712195495792743866 (a vectorized_elementwise_kernel); by op: aten::copy_
#   1600 launches, 116861602084 ns; aten::convolution_backward 1465,
#   98494840233 ns (its kernels of most delay: Memset (Device) 135 / 9332070420,
#   cudnn reduce_wgrad_nchw_helper 115 / 7548882786, volta_sgemm_64x64_nt 105 /
#   7059626688); aten::mul 815, 55137068887 ns.
#   negative_queue rank0: 6875 launches, delay max 198774000 ns, total
#   833447965000 ns; 386 / 6686 / 2135 outliers; aten::add_ first (850,
#   142328712000 ns).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

H=$TRACES/hta
NS=$H/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz
NQ=$H/negative_queue_length_values_check/rank0.json.gz
need_trace "$NS" "$NQ"

# ld FILE EXPR WANT DESC: the Python expression over gpu.launch_delays (d) is WANT
ld() {
	got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["runs"][0]["gpu"]["launch_delays"]
print(eval(sys.argv[2]))' "$1" "$2" 2>&1) || true
	[ "$got" = "$3" ] || fail "$4: $2 is '$got', expected '$3'"
}

run "$P" summary "$NS" --json ns.json
expect_rc 0 "summary of ns_resolution"
ld ns.json 'd["launches"]' 6095 "linked launches"
ld ns.json '"%.3f %.3f %.3f" % (d["delay_mean_ns"], d["latency_mean_ns"], d["cpu_duration_mean_ns"])' \
	"68685352.489 68729002.930 43650.768" "delay, latency and CPU means"
ld ns.json '"%.3f" % d["gpu_duration_mean_ns"]' "77515.085" "GPU duration mean"
ld ns.json '[d["delay_max_ns"], int(d["delay_total_ns"])]' '[90937999, 418637223421]' "delay max, total"
ld ns.json '[d["runtime_outliers"], d["delay_outliers"], d["short_kernels"]]' '[936, 5932, 2682]' \
	"HTA's outliers and short kernels"
ld ns.json 'len(d["outliers"]), d["outliers"][0]["delay_ns"], d["outliers"][0]["name"][:40]' \
	"(10, 90937999, 'void at::native::vectorized_elementwise_')" "the longest delay listed first"
ld ns.json '[(o["name"], o["activities"], int(o["delay_total_ns"])) for o in d["by_op"][:3]]' \
	"[('aten::copy_', 1600, 116861602084), ('aten::convolution_backward', 1465, 98494840233), ('aten::mul', 815, 55137068887)]" \
	"the three ops with most delay"
ld ns.json '[(k["name"][:40], k["activities"], int(k["delay_total_ns"])) for k in d["by_op"][1]["kernels"]]' \
	"[('Memset (Device)', 135, 9332070420), ('void cudnn::cnn::reduce_wgrad_nchw_helpe', 115, 7548882786), ('volta_sgemm_64x64_nt', 105, 7059626688)]" \
	"aten::convolution_backward's three kernels with most delay"
expect_out_has "  launch delay     mean 68.685 ms  max  90.938 ms  (HTA: start - call end)" \
	"console: delay line"
expect_out_has "    5932 delays > 100.000 us, 936 calls > 50.000 us, 2682 short kernels of 6095" \
	"console: outliers line"
expect_out_has "    most delayed op aten::copy_: 1600 launches, mean 73.039 ms" "console: op line"

run "$P" summary "$NQ" --json nq.json
expect_rc 0 "summary of negative_queue rank0"
ld nq.json '[d["launches"], d["delay_max_ns"], int(d["delay_total_ns"])]' '[6875, 198774000, 833447965000]' \
	"negative_queue: launches, delay max and total"
ld nq.json '[d["runtime_outliers"], d["delay_outliers"], d["short_kernels"]]' '[386, 6686, 2135]' \
	"negative_queue: outliers"
ld nq.json '[(o["name"], o["activities"], int(o["delay_total_ns"])) for o in d["by_op"][:1]]' \
	"[('aten::add_', 850, 142328712000)]" "negative_queue: the op with most delay"

# the reference agrees now (not only when the numbers above were written)
python3 "$PR_TESTS/tools/launch_ref.py" "$NQ" >ref.txt || fail "launch_ref.py failed"
grep -q "^launches 6875$" ref.txt || fail "launch_ref: $(head -1 ref.txt)"
grep -q "^runtime_outliers 386 delay_outliers 6686 short 2135$" ref.txt ||
	fail "launch_ref outliers: $(grep outliers ref.txt)"

finish
