# gen_conv.py - writes the perf model's constructed trace of transposed and backward
# convolutions and _foreach_* ops (tests/cli/t0156; its FLOPs and bytes derived by hand there):
# each op launches one kernel of 10 us on an H100. Run: python3 gen_conv.py OUT.json
import json
import sys
ev = []


def op(name, ts, dims, types, conc, corr, kname):
    ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": 20,
               "args": {"External id": corr, "Input Dims": dims, "Input type": types,
                        "Concrete Inputs": conc}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
               "ts": ts + 1, "dur": 2, "args": {"correlation": corr}})
    ev.append({"ph": "X", "cat": "kernel", "name": kname, "pid": 0, "tid": 7, "ts": ts + 5,
               "dur": 10, "args": {"device": 0, "stream": 7, "correlation": corr}})


SL, S = "ScalarList", "Scalar"
# conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)
op("aten::conv_transpose2d", 10, [[2, 4, 5, 5], [4, 3, 3, 3], [3], [], [], [], [], []],
   ["float", "float", "float", SL, SL, SL, S, SL],
   ["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "1", "[1, 1]"], 1, "dgrad_engine_kernel")
# convolution(input, weight, bias=None, stride, padding, dilation, transposed=True,
# output_padding, groups)
op("aten::convolution", 40, [[1, 2, 4, 4], [2, 2, 2, 2], [], [], [], [], [], [], []],
   ["c10::Half", "c10::Half", "", SL, SL, SL, S, SL, S],
   ["", "", "", "[2, 2]", "[0, 0]", "[1, 1]", "True", "[0, 0]", "1"], 2, "dgrad_engine_kernel")
# convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
# transposed, output_padding, groups, output_mask)
op("aten::convolution_backward", 70,
   [[2, 4, 8, 8], [2, 3, 8, 8], [4, 3, 3, 3], [], [], [], [], [], [], [], []],
   ["float", "float", "float", SL, SL, SL, SL, S, SL, S, ""],
   ["", "", "", "[4]", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1",
    "[True, True, True]"], 3, "wgrad_kernel")
# the same without grad_bias and grad_input (output_mask [False, True, False])
op("aten::convolution_backward", 100,
   [[2, 4, 8, 8], [2, 3, 8, 8], [4, 3, 3, 3], [], [], [], [], [], [], [], []],
   ["float", "float", "float", SL, SL, SL, SL, S, SL, S, ""],
   ["", "", "", "[4]", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1",
    "[False, True, False]"], 4, "wgrad_kernel")
# _foreach_add_(self, other, alpha): two TensorLists of a [128, 128] weight and a [128] bias
op("aten::_foreach_add_", 130, [[[128, 128], [128]], [[128, 128], [128]], []],
   ["TensorList", "TensorList", S], ["", "", "-0.001"], 5,
   "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<>()")
# _foreach_mul(self, other): a TensorList and a 0-dim BFloat16 tensor
op("aten::_foreach_mul", 160, [[[10], [20]], []], ["TensorList", "c10::BFloat16"], ["", ""], 6,
   "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<>()")
json.dump({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
           "traceEvents": ev}, open(sys.argv[1], "w"), indent=0)
