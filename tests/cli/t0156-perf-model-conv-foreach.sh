#!/bin/sh
# t0156-perf-model-conv-foreach: the perf model's FLOPs and bytes of transposed and backward
# convolutions and of _foreach_* ops (analyze/an_perfmodel.c, docs/analysis.md perf_model) on
# a constructed trace (tests/data/perfmodel/gen_conv.py), each number derived by hand below,
# and on it and HTA's MI250 trace against tests/tools/perfmodel_check.py (the same rules in
# Python over the trace's JSON).
# By hand (H100; one 10 us kernel an op):
#   aten::conv_transpose2d x [2,4,5,5], w [4,3,3,3] (C_in 4, C_out/g 3), bias [3], stride 2,
#     padding 1, output_padding 1, dilation 1: out (5-1)*2 - 2 + (3-1) + 1 + 1 = 10 per dim;
#     FLOPs 2 * 200 (input elements) * 3 * 9 + 2*3*100 (bias) = 11400; bytes (200 + 108 + 3 +
#     600) * 4 = 3644.
#   aten::convolution transposed=True, x [1,2,4,4] fp16, w [2,2,2,2], no bias, stride 2: out
#     (4-1)*2 + (2-1) + 1 = 8; FLOPs 2 * 32 * 2 * 4 = 512; bytes (32 + 16 + 2*64) * 2 = 352.
#   aten::convolution_backward grad_output [2,4,8,8] (512), input [2,3,8,8] (384), weight
#     [4,3,3,3] (108), fp32: F = 2 * 512 * 3 * 9 = 27648; mask [T,T,T]: 2F + 512 = 55808 FLOPs,
#     (512 + 384 + 108) * 4 read + 384*4 + 108*4 + 4*4 written = 6000 bytes; mask [F,T,F]:
#     27648 FLOPs, 4016 + 432 = 4448 bytes; the group (same dims and types): 83456, 10448.
#   aten::_foreach_add_ (in place) over two lists of [128,128] and [128] (16512 elements each,
#     no element type recorded: 4 bytes): 16512 FLOPs, 2 * 16512 * 4 = 132096 bytes.
#   aten::_foreach_mul [[10],[20]] and a 0-dim BFloat16 tensor (its 2 bytes an element): 30
#     FLOPs, (30 + 1) * 2 read + 30 * 2 written = 122 bytes.
#   convolution: 4 ops, 83456 + 11400 + 512 = 95368 FLOPs; elementwise: 2 ops, 16542 FLOPs.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

GEN=$PR_TESTS/data/perfmodel/gen_conv.py
CHECK=$PR_TESTS/tools/perfmodel_check.py
AMD=$TRACES/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz

python3 "$GEN" conv.json
run "$P" report conv.json --json model.json --no-cache -q
expect_rc 0 "report of the constructed trace"
python3 - model.json <<'PY' >check.txt 2>&1 || fail "perf_model facts: $(cat check.txt)"
import json, sys
pm = json.load(open(sys.argv[1]))["runs"][0]["perf_model"]
want = {"aten::conv_transpose2d": ("convolution", 11400, 3644, "fp32"),
        "aten::convolution": ("convolution", 512, 352, "fp16"),
        "aten::convolution_backward": ("convolution", 83456, 10448, "fp32"),
        "aten::_foreach_add_": ("elementwise", 16512, 132096, "fp32"),
        "aten::_foreach_mul": ("elementwise", 30, 122, "bf16")}
got = {g["name"]: (g["category"], g["flops"], g["bytes"], g["dtype"]) for g in pm["groups"]}
bad = ["%s: got %s, want %s" % (k, got.get(k), v) for k, v in want.items() if got.get(k) != v]
cats = {c["category"]: (c["ops"], c["flops"]) for c in pm["categories"]}
if cats != {"convolution": (4, 95368), "elementwise": (2, 16542)}:
    bad.append("categories %s" % cats)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY

# same_as_python MODEL WANT: every group the Python models has the model's FLOPs and bytes
same_as_python() {
	python3 - "$1" "$2" <<'PY'
import json, sys
pm = json.load(open(sys.argv[1]))["runs"][0]["perf_model"]
got = {(g["name"], g["input_dims"], g["input_type"]): (g["calls"], g["flops"], g["bytes"])
       for g in pm["groups"]}
want = json.load(open(sys.argv[2]))
bad = ["%s: got %s, want %s" % (w["name"], got.get((w["name"], w["input_dims"], w["input_type"])),
                                 (w["calls"], w["flops"], w["bytes"]))
       for w in want
       if got.get((w["name"], w["input_dims"], w["input_type"])) != (w["calls"], w["flops"], w["bytes"])]
for b in bad:
    print("perf_model:", b, file=sys.stderr)
sys.exit(1 if bad or not want else 0)
PY
}
python3 "$CHECK" conv.json >conv.want.json || fail "perfmodel_check.py failed on the constructed trace"
same_as_python model.json conv.want.json || fail "the constructed trace's groups differ from perfmodel_check.py's"

# the torch sample's AdamW step: five _foreach_* ops over the same six tensors (18 885 120
# elements, fp32 by the 4-byte default), at 32-67 % of the H100's bandwidth
run "$P" report "$PR_SAMPLES/torch/trace_rank0.pt.trace.json" --json torch.json --no-cache -q
expect_rc 0 "report of the torch sample"
python3 "$CHECK" "$PR_SAMPLES/torch/trace_rank0.pt.trace.json" >torch.want.json ||
	fail "perfmodel_check.py failed on the torch sample"
same_as_python torch.json torch.want.json || fail "the torch sample's _foreach_ groups differ from perfmodel_check.py's"
python3 -c 'import json,sys; w=json.load(open("torch.want.json"))
sys.exit(not (len(w) == 5 and all(g["flops"] == 18885120 for g in w)))' ||
	fail "perfmodel_check.py's torch sample numbers changed"

[ "$failures" -eq 0 ] || finish
need_trace "$AMD"
# HTA's MI250 trace (record_shapes): its optimizer's aten::_foreach_add_ over a [128,128] weight
# and a [128] bias (DERIVATION: perfmodel_check.py over the JSON: 16512 FLOPs, 132096 bytes)
run "$P" report "$AMD" --json amd.json --no-cache -q
expect_rc 0 "report of the MI250 trace"
python3 "$CHECK" "$AMD" >amd.want.json || fail "perfmodel_check.py failed on the MI250 trace"
same_as_python amd.json amd.want.json || fail "the MI250 trace's _foreach_add_ differs from perfmodel_check.py's"
python3 -c 'import json,sys; w=json.load(open("amd.want.json"))
sys.exit(not (len(w) == 1 and (w[0]["flops"], w[0]["bytes"]) == (16512, 132096)))' ||
	fail "perfmodel_check.py's MI250 numbers changed"
finish
