#!/bin/sh
# t0120-perf-model: the perf model (docs/analysis.md, perf_model) on a constructed Kineto trace,
# tests/data/perfmodel/tiny.json (gen_tiny.py writes it): an A100-SXM4-80GB and seven ops, each
# launching one activity through a runtime call with the same correlation, plus one kernel
# without a call. Every number below is computed by hand from the ops' Input Dims:
#   aten::mm [64,128] x [128,32] bf16, 2 us: FLOPs 2*64*32*128 = 524288, bytes
#     (64*128 + 128*32 + 64*32) * 2 = 28672, 524288 / 2000 ns = 0.262144 TFLOP/s;
#   aten::convolution x [2,3,8,8], w [4,3,3,3], bias [4], stride 1, padding 1 (out 8x8), fp32,
#     4 us: 2 * (2*4*64) * 3*9 + 2*4*64 = 28160 FLOPs, (384 + 108 + 4 + 512) * 4 = 4032 bytes;
#   aten::_scaled_dot_product_flash_attention q, k, v [1,2,16,8] fp16, causal: 2*1*2*16*16*(8+8)
#     / 2 = 8192 FLOPs, (3*256 + 256) * 2 = 2048 bytes;
#   aten::add [4,4] + [4,4] fp32: 16 FLOPs, (16 + 16 + 16) * 4 = 192 bytes; aten::cos [4,4]:
#     16 FLOPs, 128 bytes (elementwise: 2 ops, 32 FLOPs, 320 bytes); aten::sum [4,4]: 64 bytes;
#   aten::_local_scalar_dense's Memcpy DtoH: "memory copy" (TraceLens: "other").
# Linked: 7 activities, 2+4+1+1+1+1+1 = 11 us; the orphan kernel: 1 unlinked, 3 us.
# A100 80GB SXM: 312 TFLOP/s bf16, 2.039 TB/s; the roofline's dtype is fp32 (the conv, 4 us,
# is the largest matrix-op time), ridge 19.5 / 2.039 = 9.56 FLOP/byte.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TINY=$PR_TESTS/data/perfmodel/tiny.json
run "$P" report "$TINY" --json model.json --no-cache -q
expect_rc 0 "report of tiny.json"
python3 - model.json <<'PY' >check.txt 2>&1 || fail "perf_model facts: $(cat check.txt)"
import json, sys
pm = json.load(open(sys.argv[1]))["runs"][0]["perf_model"]
bad = []
def eq(what, got, want):
    if got != want:
        bad.append("%s: got %r, want %r" % (what, got, want))
cats = {c["category"]: c for c in pm["categories"]}
eq("categories", sorted(cats), sorted(["GEMM", "convolution", "attention", "elementwise",
                                       "reduction", "memory copy"]))
eq("GEMM flops", cats["GEMM"]["flops"], 524288)
eq("GEMM bytes", cats["GEMM"]["bytes"], 28672)
eq("GEMM tflops", cats["GEMM"]["tflops"], 0.262144)
# TensorBoard's TC_Allowlist: "ampere_bf16_s16816gemm..." contains 16816, the conv's
# "implicit_convolve_sgemm" none of the patterns
eq("GEMM on Tensor Cores", cats["GEMM"]["tensor_core_share"], 1)
eq("conv on Tensor Cores", cats["convolution"]["tensor_core_share"], 0)
eq("conv flops", cats["convolution"]["flops"], 28160)
eq("conv bytes", cats["convolution"]["bytes"], 4032)
eq("attention flops", cats["attention"]["flops"], 8192)
eq("attention bytes", cats["attention"]["bytes"], 2048)
eq("elementwise ops", cats["elementwise"]["ops"], 2)
eq("elementwise flops", cats["elementwise"]["flops"], 32)
eq("elementwise bytes", cats["elementwise"]["bytes"], 320)
eq("reduction bytes", cats["reduction"]["bytes"], 64)
eq("memory copy ns", cats["memory copy"]["device_ns"], 1000)
eq("linked", (pm["linked_activities"], pm["linked_ns"]), (7, 11000))
eq("unlinked", (pm["unlinked_activities"], pm["unlinked_ns"]), (1, 3000))
tl = {c["category"]: c["ops"] for c in pm["tracelens_categories"]}
eq("tracelens", tl, {"GEMM": 1, "CONV_fwd": 1, "SDPA_fwd": 1, "elementwise": 2, "reduce": 1,
                     "other": 1})
eq("device", pm["device"]["model"], "NVIDIA A100 80GB SXM")
eq("bf16 peak", pm["device"]["peak_tflops"]["bf16"], 312)
eq("roofline", (pm["roofline"]["dtype"], pm["roofline"]["ridge_flop_per_byte"]), ("fp32", 9.56))
mm = [g for g in pm["groups"] if g["name"] == "aten::mm"][0]
eq("mm peak", (mm["dtype"], mm["peak_tflops"], mm["flop_per_byte"]), ("bf16", 312, 18.286))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY

# The peak table is keyed by the device name as a whole word: "NVIDIA L40S" is not the L4
# (no model, no roofline, no % of peak), "NVIDIA L4" is; the AMD names match MI300X.
for dev in "NVIDIA L40S|null" "NVIDIA L4|NVIDIA L4" "AMD Instinct MI300X|AMD Instinct MI300X"; do
	name=${dev%%|*}
	want=${dev#*|}
	sed "s/NVIDIA A100-SXM4-80GB/$name/" "$TINY" >dev.json
	run "$P" report dev.json --json dev.model.json --no-cache -q
	expect_rc 0 "report of tiny.json on $name"
	got=$(python3 -c 'import json,sys; pm = json.load(open(sys.argv[1]))["runs"][0]["perf_model"]
print("null" if pm["device"]["model"] is None and pm["roofline"] is None else pm["device"]["model"])' \
		dev.model.json)
	[ "$got" = "$want" ] || fail "device '$name': got '$got', want '$want'"
done

# Hostile shapes (strings, negative and nested dims, a non-array Concrete Inputs, a 9-dim
# tensor): the op keeps its device time, its FLOPs count 0, nothing crashes.
python3 - "$TINY" <<'PY' >bad.json || fail "writing bad.json"
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["traceEvents"]:
    if e.get("cat") != "cpu_op":
        continue
    if e["name"] == "aten::mm":
        e["args"]["Input Dims"] = [["x", -1], [[1]], [1] * 9]
    if e["name"] == "aten::convolution":
        e["args"]["Concrete Inputs"] = 7
        e["args"]["Input Dims"][0] = [2, 3, -8, 8]
json.dump(d, sys.stdout)
PY
run "$P" report bad.json --json bad.model.json --no-cache -q
expect_rc 0 "report of hostile shapes"
python3 -c 'import json,sys; pm = json.load(open(sys.argv[1]))["runs"][0]["perf_model"]
c = {x["category"]: x for x in pm["categories"]}
sys.exit(not (c["GEMM"]["flops"] == 0 and c["GEMM"]["device_ns"] == 2000 and
              c["convolution"]["flops"] == 0 and c["convolution"]["device_ns"] == 4000))' \
	bad.model.json || fail "hostile shapes: GEMM/conv keep their time with 0 FLOPs"

# cudnn_convolution (input, weight, padding, stride, dilation, groups, ...; no bias), the op
# that launches the kernels under aten::convolution: padding 1, stride 1, dilation 2 give
# out = (8 + 2 - 2*(3 - 1) - 1) / 1 + 1 = 6 per side, 2 * (2*4*36) * 3*9 = 15552 FLOPs,
# (384 + 108 + 288) * 4 = 3120 bytes (read at convolution's positions, padding 2 and
# dilation 1 would give 10x10).
python3 - "$TINY" <<'PY' >cudnn.json || fail "writing cudnn.json"
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["traceEvents"]:
    if e.get("cat") == "cpu_op" and e["name"] == "aten::convolution":
        e["name"] = "aten::cudnn_convolution"
        e["args"]["Input Dims"] = [[2, 3, 8, 8], [4, 3, 3, 3], [], [], [], []]
        e["args"]["Input type"] = ["float", "float", "ScalarList", "ScalarList", "ScalarList",
                                   "Scalar"]
        e["args"]["Concrete Inputs"] = ["", "", "[1, 1]", "[1, 1]", "[2, 2]", "1"]
json.dump(d, sys.stdout)
PY
run "$P" report cudnn.json --json cudnn.model.json --no-cache -q
expect_rc 0 "report of the cudnn_convolution copy"
python3 -c 'import json,sys; pm = json.load(open(sys.argv[1]))["runs"][0]["perf_model"]
c = {x["category"]: x for x in pm["categories"]}["convolution"]
sys.exit(not (c["flops"] == 15552 and c["bytes"] == 3120))' cudnn.model.json ||
	fail "cudnn_convolution: 15552 FLOPs and 3120 bytes"

# A trace without device activities has no perf_model.
run "$P" report "$VIZ" --json plain.json --no-cache -q
expect_rc 0 "report of the viztracer sample"
python3 -c 'import json,sys; sys.exit("perf_model" in json.load(open("plain.json"))["runs"][0])' ||
	fail "a run without linked device activities has no perf_model"
finish
