#!/bin/sh
# t0020-compare-gpu: compare's GPU metrics on a real Kineto trace
# (nccl_parser_config/nccl_data, rank 0 of a 2-GPU DDP ResNet, 3 steps;
# tests/data/traces) against copies changed by
# tests/tools/gpu_mutate.py. The values are checked against
# tests/tools/gpu_ref.py (TensorBoard's step breakdown and HTA's overlap,
# computed from the trace JSON alone): the same trace passes; compute kernels
# 1.5x longer fail gpu:compute by the bootstrap CI (3 steps a side);
# communication kernels moved off the compute kernels fail gpu:overlap
# (15.6 % -> 0, one value a side: thresholds only); a CPU-only NEW fails with
# every GPU metric missing, a CPU-only BASE passes with them added; a NEW
# without communication kernels passes with gpu:overlap removed.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

NCCL=$TRACES/hta/nccl_parser_config/nccl_data.json.gz
need_trace "$NCCL"
MUT=$PR_TESTS/tools/gpu_mutate.py
REF=$PR_TESTS/tools/gpu_ref.py
for m in stretch-compute serialize-comm drop-gpu drop-comm; do
	/usr/bin/python3 "$MUT" "$m" "$NCCL" "$m.json" || fail "gpu_mutate.py $m"
done

# the JSON metric ID's field
field() {
	/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = [m for m in d["metrics"] if m["id"] == sys.argv[2]]
print(m[0][sys.argv[3]] if m else "absent")' "$1" "$2" "$3"
}
# the median over steps of a step-breakdown column of gpu_ref.py's output
ref_median() {
	/usr/bin/python3 -c '
import ast, statistics, sys
v = []
for line in open(sys.argv[1]):
    if line.startswith("step "):
        row = ast.literal_eval(line[line.index("{"):])
        v.append(sum(row[k] for k in sys.argv[2].split("+")))
print(statistics.median(v))' "$1" "$2"
}
/usr/bin/python3 "$REF" "$NCCL" >ref.txt || fail "gpu_ref.py on nccl_data"
/usr/bin/python3 "$REF" stretch-compute.json >ref.stretch.txt || fail "gpu_ref.py on the stretched copy"
/usr/bin/python3 "$REF" serialize-comm.json >ref.serial.txt || fail "gpu_ref.py on the serialized copy"

# -- the same trace: pass, every GPU metric unchanged
run "$P" compare "$NCCL" "$NCCL" --to json -o self.json
expect_rc 0 "the trace against itself"
for id in gpu:compute gpu:communication gpu:idle_share gpu:overlap; do
	[ "$(field self.json "$id" verdict)" = unchanged ] || fail "$id is not unchanged against itself"
done
# per step (TensorBoard's Kernel): 38506406 ns median of 3 steps (gpu_ref.py)
[ "$(field self.json gpu:compute base)" = "$(ref_median ref.txt kernel).0" ] ||
	fail "gpu:compute base $(field self.json gpu:compute base) is not gpu_ref's $(ref_median ref.txt kernel)"
[ "$(field self.json gpu:compute n1)" = 3 ] || fail "gpu:compute is not tested on the 3 steps"
# HTA overlap 46876493 / 7317025 ns: 15.6 % (README)
/usr/bin/python3 -c '
import json, sys
m = [m for m in json.load(open(sys.argv[1]))["metrics"] if m["id"] == "gpu:overlap"][0]
for line in open(sys.argv[2]):
    if line.startswith("overlap "):
        c, o, _ = line.split()[1:]
assert abs(m["base"] - int(o) / int(c)) < 1e-11, (m["base"], o, c)
assert round(m["base"] * 100, 1) == 15.6
assert m["better"] == "higher" and m["threshold"]["text"] == "-5pp", m
' self.json ref.txt || fail "gpu:overlap is not HTA's 15.6 % with a -5pp threshold"

# -- compute kernels 1.5x longer: gpu:compute fails, decided by the bootstrap CI
run "$P" compare "$NCCL" stretch-compute.json --to json -o stretch.json
expect_rc 1 "compute kernels 1.5x longer"
[ "$(field stretch.json gpu:compute verdict)" = regression ] || fail "stretched compute: gpu:compute is not a regression"
[ "$(field stretch.json gpu:compute rule)" = bootstrap-ci ] || fail "stretched compute: not decided by the bootstrap CI"
[ "$(field stretch.json gpu:compute new)" = "$(ref_median ref.stretch.txt kernel).0" ] ||
	fail "stretched compute: gpu:compute new is not gpu_ref's $(ref_median ref.stretch.txt kernel)"
run "$P" compare "$NCCL" stretch-compute.json
expect_out_has "+ gpu:compute                 38.506 ms  50.440 ms  1.31x  regression ci>=1.30x" "console row of gpu:compute"

# -- communication off the compute kernels: overlap 15.6 % -> 0 fails, thresholds only
run "$P" compare "$NCCL" serialize-comm.json --to json -o serial.json
expect_rc 1 "communication no longer overlapped"
[ "$(field serial.json gpu:overlap verdict)" = regression ] || fail "serialized: gpu:overlap is not a regression"
[ "$(field serial.json gpu:overlap rule)" = thresholds-only ] || fail "serialized: gpu:overlap not decided by the threshold"
grep -q '^overlap [0-9]* 0 0.0$' ref.serial.txt || fail "the serialized copy still overlaps (gpu_ref.py)"
[ "$(field serial.json gpu:overlap new)" = 0.0 ] || fail "serialized: gpu:overlap new is not 0"
run "$P" compare "$NCCL" serialize-comm.json --to junit
expect_rc 1 "junit of the overlap regression"
expect_out_has 'name="gpu:overlap"' "the JUnit testcase of gpu:overlap"
run "$P" compare "$NCCL" serialize-comm.json --fail-on 'gpu:overlap:-20pp'
expect_rc 0 "a 15.6-point drop passes --fail-on gpu:overlap:-20pp"

# -- GPU against CPU-only (documented: missing in NEW fails, added in NEW passes)
run "$P" compare "$NCCL" drop-gpu.json --to json -o nogpu.json
expect_rc 1 "a CPU-only NEW"
expect_err_has "4 key metric(s) of BASE missing in NEW" "stderr counts the missing GPU metrics"
for id in gpu:compute gpu:communication gpu:idle_share gpu:overlap; do
	[ "$(field nogpu.json "$id" verdict)" = missing ] || fail "$id is not missing in a CPU-only NEW"
	[ "$(field nogpu.json "$id" rule)" = presence ] || fail "$id: not the presence rule"
done
run "$P" compare drop-gpu.json "$NCCL" --to json -o addgpu.json
expect_rc 0 "a CPU-only BASE against the GPU run"
[ "$(field addgpu.json gpu:compute verdict)" = added ] || fail "gpu:compute is not added"
run "$P" compare "$NCCL" drop-comm.json --to json -o nocomm.json
expect_rc 0 "a NEW without communication kernels"
[ "$(field nocomm.json gpu:overlap verdict)" = removed ] || fail "gpu:overlap is not removed"

finish
