#!/bin/sh
# t0125-dataloader-grade: the DataLoader finding (tensorboard.dataloader) is graded by its
# share of the step and advises pin_memory only where there is a device to copy to.
# Generated traces (python3 below): 4 ProfilerStep#N of 1000 us, each opening with an
# enumerate(DataLoader) span of DL us, an aten::mm at +400 us; with GPU=1 each step also has a
# cudaLaunchKernel at +410 us (10 us) and its kernel at +430 us (60 us), inside the step and
# clear of the DataLoader span, so TensorBoard's step = the host step (1000 us) and its
# DataLoader category = the whole span: share = DL / 1000 by construction (no profreport):
#   DL  50 -> 0.050: not over TensorBoard's 5 % threshold, no finding
#   DL  51 -> 0.051: fires, [low] (under 10 %)
#   DL 100 -> 0.100: [medium] (10 % <= share < 20 %)
#   DL 120 -> 0.120: [medium]
#   DL 200 -> 0.200: [high] (20 % and over)
#   DL 250 -> 0.250: [high]
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "$test_name: python3 is needed to write the traces" >&2
	exit 77
fi
cat >gen.py <<'PY'
import json, sys
dl, gpu, out = int(sys.argv[1]), sys.argv[2] == "1", sys.argv[3]
ev = [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python"}}]
for i in range(4):
    t0 = 1000 + i * 1000
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % i, "pid": 1,
               "tid": 1, "ts": t0, "dur": 1000, "args": {}})
    ev.append({"ph": "X", "cat": "user_annotation",
               "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
               "pid": 1, "tid": 1, "ts": t0 + 1, "dur": dl, "args": {}})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
               "ts": t0 + 400, "dur": 100, "args": {}})
    if gpu:
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                   "tid": 1, "ts": t0 + 410, "dur": 10, "args": {"correlation": i + 1}})
        ev.append({"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7,
                   "ts": t0 + 430, "dur": 60,
                   "args": {"correlation": i + 1, "device": 0, "stream": 7}})
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(out, "w"))
PY

# finding DL GPU: "severity|share|pin" of the run's DataLoader finding, "none" without one
finding() {
	python3 gen.py "$1" "$2" "dl$1_$2.json"
	run "$P" report "dl$1_$2.json" --json "m$1_$2.json" -q
	expect_rc 0 "report of DL $1 GPU $2"
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
f = [x for x in r.get("recommendations", []) if x["id"] == "tensorboard.dataloader"]
print("none" if not f else "%s|%.3f|%s" % (f[0]["severity"], f[0]["evidence"]["share_of_step"],
      "pin" if "pin_memory)" in f[0]["suggestion"] else "nopin"))' "m$1_$2.json"
}

check() { # DL GPU WANT
	got=$(finding "$1" "$2")
	[ "$got" = "$3" ] || fail "DataLoader $1 us of 1000, GPU $2: got $got, want $3"
}

check 50 0 none
check 51 0 "low|0.051|nopin"
check 100 0 "medium|0.100|nopin"
check 120 0 "medium|0.120|nopin"
check 200 0 "high|0.200|nopin"
check 51 1 "low|0.051|pin"
check 250 1 "high|0.250|pin"

# the console says the same: the grade in brackets, no pin_memory on the CPU-only run
run "$P" summary dl51_0.json
expect_rc 0 "summary of DL 51 GPU 0"
expect_out_has "[low] DataLoader: DataLoader takes 5.1% of the step time" "summary's grade"
if grep -q "use pin_memory" "$tmp/out"; then
	fail "summary of a CPU-only run advises pin_memory"
fi
finish
