# gen_tiny.py - writes tiny.json, the perf model's constructed Kineto trace (tests/cli/t0120):
# seven ops, each launching one activity of a known duration, on an A100, and one kernel
# without a runtime call. Run: python3 gen_tiny.py (in this folder).
import json
ev = []
def op(name, ts, dur, dims, types, conc, corr, kname, kdur, kcat="kernel", rt="cudaLaunchKernel"):
    ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": dur,
               "args": {"External id": corr, "Input Dims": dims, "Input type": types,
                        "Concrete Inputs": conc}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": rt, "pid": 1, "tid": 1, "ts": ts + 1,
               "dur": 2, "args": {"correlation": corr}})
    ev.append({"ph": "X", "cat": kcat, "name": kname, "pid": 0, "tid": 7, "ts": ts + 5,
               "dur": kdur, "args": {"device": 0, "stream": 7, "correlation": corr}})
op("aten::mm", 10, 10, [[64, 128], [128, 32]], ["c10::BFloat16", "c10::BFloat16"], ["", ""],
   1, "ampere_bf16_s16816gemm_bf16_64x64_sliced1x2_ldg8_f2f_tn", 2)
op("aten::convolution", 30, 10, [[2, 3, 8, 8], [4, 3, 3, 3], [4], [], [], [], [], [], []],
   ["float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar"],
   ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"],
   2, "implicit_convolve_sgemm", 4)
op("aten::_scaled_dot_product_flash_attention", 50, 10, [[1, 2, 16, 8]] * 3 + [[], [], []],
   ["c10::Half"] * 3 + ["Scalar"] * 3, ["", "", "", "0.", "True", "False"],
   3, "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64> >(Flash_fwd_params)", 1)
op("aten::add", 70, 10, [[4, 4], [4, 4], []], ["float", "float", "Scalar"], ["", "", "1"],
   4, "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float> >()", 1)
op("aten::sum", 90, 10, [[4, 4], [], [], []], ["float", "ScalarList", "Scalar", ""], ["", "[1]", "False", ""],
   5, "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float> >()", 1)
op("aten::cos", 110, 10, [[4, 4]], ["float"], [""],
   6, "void at::native::vectorized_elementwise_kernel<4, at::native::cos_kernel_cuda>()", 1)
op("aten::_local_scalar_dense", 130, 10, [[]], ["float"], [""],
   7, "Memcpy DtoH (Device -> Pinned)", 1, kcat="gpu_memcpy", rt="cudaMemcpyAsync")
# a kernel without a runtime call: unlinked
ev.append({"ph": "X", "cat": "kernel", "name": "orphan_kernel", "pid": 0, "tid": 7, "ts": 150,
           "dur": 3, "args": {"device": 0, "stream": 7, "correlation": 99}})
json.dump({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB",
           "totalGlobalMem": 85899345920}], "traceEvents": ev}, open("tiny.json", "w"), indent=0)
