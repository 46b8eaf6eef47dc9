/*
 * test_names.c - display names (render/names.c, base/demangle.c): mangled
 * names demangled, C++ signatures shown without return type and argument
 * list, other names untouched, hostile text never a crash, and a column
 * never prints two different names alike. Expectations are written by hand
 * from the C++ ABI and the names' text (the real ones come from the traces
 * in tests/data/traces, HTA's test data).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include "base/demangle.h"
#include "render/names.h"
#include "render/panels.h"

/* the two cutlass kernels of nccl_data.json.gz, mangled (1644 and 1677 bytes) */
static const char cutlass128[] =
	"_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22Impl"
	"icitGemmMultistageINS_4gemm9GemmShapeILi128ELi128ELi32EEENS4_52Conv2dWgradOutputGradientTileAcce"
	"ssIteratorOptimizedINS_11MatrixShapeILi128ELi32EEENS_10tfloat32_tENS_9transform29PitchLinearWarp"
	"RakedThreadMapINS_16PitchLinearShapeILi128ELi32EEELi128ENSF_ILi8ELi4EEELi4EEENS_12AlignedArrayIS"
	"C_Li4ELi16EEEEENSD_11threadblock25RegularTileAccessIteratorISB_SC_NS_6layout40ColumnMajorTensorO"
	"pMultiplicandCongruousILi32ELi32EEELi1ESI_Li16EEELNS_4arch14CacheOperation4KindE0ENS4_48Conv2dWg"
	"radActivationTileAccessIteratorOptimizedINSA_ILi32ELi128EEESC_SI_SK_EENSN_ISW_SC_NSO_37RowMajorT"
	"ensorOpMultiplicandCongruousILi32ELi32EEELi0ESI_Li16EEELSU_0ENS6_11threadblock9MmaPolicyINS6_4wa"
	"rp11MmaTensorOpINS7_ILi64ELi64ELi32EEESC_SQ_SC_SZ_fNSO_8RowMajorENS13_17MmaTensorOpPolicyINSS_3M"
	"maINS7_ILi16ELi8ELi8EEELi32ESC_S16_SC_NSO_11ColumnMajorEfS16_NSS_13OpMultiplyAddEEENSA_ILi1ELi1E"
	"EEEELi1ELb0EbEENSA_ILi0ELi0EEES1G_Li1EEELi4EbEENS_8epilogue11threadblock8EpilogueIS8_S1F_Li1ENS1"
	"K_22PredicatedTileIteratorINS1K_26OutputTileOptimalThreadMapINS1K_15OutputTileShapeILi128ELi8ELi"
	"2ELi1ELi1EEENS1O_ILi1ELi8ELi1ELi1ELi8EEELi128ELi4ELi32EEEfLb0ENSO_9NoPermuteELb0EEENS1J_4warp24F"
	"ragmentIteratorTensorOpIS15_S19_fNS_5ArrayIfLi4ELb1EEES16_EENS1U_20TileIteratorTensorOpIS15_S19_"
	"fS16_EENS1K_18SharedLoadIteratorINS1R_18CompactedThreadMapEfLi16EEENS1J_6thread17LinearCombinati"
	"onIfLi4EffLNS24_9ScaleType4KindE0ELNS_15FloatRoundStyleE2EEENSA_ILi0ELi8EEELi2ELi1EEENS11_30Gemm"
	"IdentityThreadblockSwizzleILi4EEELNS1_8OperatorE2ENS1_17Conv2dProblemSizeELNS1_9GroupModeE0EEEEE"
	"vNT_6ParamsE";
static const char cutlass64[] =
	"_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_11threadblock22Impl"
	"icitGemmMultistageINS_4gemm9GemmShapeILi64ELi128ELi32EEENS4_52Conv2dWgradOutputGradientTileAcces"
	"sIteratorOptimizedINS_11MatrixShapeILi64ELi32EEENS_10tfloat32_tENS_9transform29PitchLinearWarpRa"
	"kedThreadMapINS_16PitchLinearShapeILi64ELi32EEELi128ENSF_ILi8ELi4EEELi4EEENS_12AlignedArrayISC_L"
	"i4ELi16EEEEENSD_11threadblock25RegularTileAccessIteratorISB_SC_NS_6layout40ColumnMajorTensorOpMu"
	"ltiplicandCongruousILi32ELi32EEELi1ESI_Li16EEELNS_4arch14CacheOperation4KindE0ENS4_48Conv2dWgrad"
	"ActivationTileAccessIteratorOptimizedINSA_ILi32ELi128EEESC_NSE_INSF_ILi128ELi32EEELi128ESH_Li4EE"
	"ESK_EENSN_ISW_SC_NSO_37RowMajorTensorOpMultiplicandCongruousILi32ELi32EEELi0ESY_Li16EEELSU_0ENS6"
	"_11threadblock9MmaPolicyINS6_4warp11MmaTensorOpINS7_ILi32ELi64ELi32EEESC_SQ_SC_S11_fNSO_8RowMajo"
	"rENS15_17MmaTensorOpPolicyINSS_3MmaINS7_ILi16ELi8ELi8EEELi32ESC_S18_SC_NSO_11ColumnMajorEfS18_NS"
	"S_13OpMultiplyAddEEENSA_ILi1ELi1EEEEELi1ELb0EbEENSA_ILi0ELi0EEES1I_Li1EEELi3EbEENS_8epilogue11th"
	"readblock8EpilogueIS8_S1H_Li1ENS1M_22PredicatedTileIteratorINS1M_26OutputTileOptimalThreadMapINS"
	"1M_15OutputTileShapeILi128ELi8ELi2ELi1ELi1EEENS1Q_ILi1ELi4ELi1ELi1ELi4EEELi128ELi4ELi32EEEfLb0EN"
	"SO_9NoPermuteELb0EEENS1L_4warp24FragmentIteratorTensorOpIS17_S1B_fNS_5ArrayIfLi4ELb1EEES18_EENS1"
	"W_20TileIteratorTensorOpIS17_S1B_fS18_EENS1M_18SharedLoadIteratorINS1T_18CompactedThreadMapEfLi1"
	"6EEENS1L_6thread17LinearCombinationIfLi4EffLNS26_9ScaleType4KindE0ELNS_15FloatRoundStyleE2EEENSA"
	"_ILi0ELi8EEELi2ELi1EEENS13_30GemmIdentityThreadblockSwizzleILi4EEELNS1_8OperatorE2ENS1_17Conv2dP"
	"roblemSizeELNS1_9GroupModeE0EEEEEvNT_6ParamsE";

/* The three bn_bw kernels of nccl_data.json.gz that the console printed alike. */
#define BN_ARGS                                                                                           \
	"(float, float, float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, " \
	"cudnnTensorStruct, float*, float const*, float*, float*, float const*, float const*, float)"
static const char *const bn_bw[] = {
	"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>" BN_ARGS,
	"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 32, true, 1>" BN_ARGS,
	"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>" BN_ARGS,
	"void cudnn::bn_bw_1C11_singleread<float, 512, true, 1, 2, 0>(cudnn::bn_bw_1C11_args<float>)",
};

/* 1 when s is valid UTF-8 (no sequence cut). */
static int utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = *p < 0x80	      ? 0
			: (*p & 0xE0) == 0xC0 ? 1
			: (*p & 0xF0) == 0xE0 ? 2
			: (*p & 0xF8) == 0xF0 ? 3
					      : -1;
		if (n < 0)
			return 0;
		for (p++; n > 0; n--, p++)
			if ((*p & 0xC0) != 0x80)
				return 0;
	}
	return 1;
}

static int display_bad; /* mismatches so far: every one is printed, the test fails at its end */

static void display_is(const char *full, const char *want)
{
	char b[1024];
	pr_name_display(full, b, sizeof(b));
	if (strcmp(b, want)) {
		print_error("display of \"%s\":\n got  \"%s\"\n want \"%s\"\n", full, b, want);
		display_bad++;
	}
}

static void test_demangle(void **state)
{
	char *s;
	(void)state;
	/* _Z N 5cudnn 21bn_bw_1C11_kernel_new I f f 6float2 Li32E Lb1E Li1E E E, then v (void), f f f PKf */
	s = pr_demangle("_ZN5cudnn21bn_bw_1C11_kernel_newIff6float2Li32ELb1ELi1EEEvfffPKf");
	assert_non_null(s);
	assert_string_equal(s,
			    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 32, true, 1>"
			    "(float, float, float, float const*)");
	free(s);
	/* a lambda's call operator: Z <encoding> E, then the closure's operator() const */
	s = pr_demangle("_ZZN2at6native3fooEvENKUlvE_clEv");
	assert_non_null(s);
	assert_string_equal(s, "at::native::foo()::{lambda()#1}::operator()() const");
	free(s);
	assert_null(pr_demangle("aten::conv2d"));
	assert_null(pr_demangle("_Zx"));
	/* a word that happens to be a mangled name is one: "oo" is operator||, "m" unsigned long */
	s = pr_demangle("_Zoom");
	assert_non_null(s);
	assert_string_equal(s, "operator||(unsigned long)");
	free(s);
	assert_null(pr_demangle(""));
	assert_null(pr_demangle(NULL));
	/* over 1024 bytes libstdc++ refuses: the head, its template arguments folded */
	s = pr_demangle(cutlass128);
	assert_non_null(s);
	assert_string_equal(s, "cutlass_cudnn_train::Kernel<...>");
	free(s);
}

static void test_signatures(void **state)
{
	(void)state;
	display_is(bn_bw[0], "cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, true, 1>");
	display_is(bn_bw[1], "cudnn::bn_bw_1C11_kernel_new<float, float, float2, 32, true, 1>");
	display_is(bn_bw[3], "cudnn::bn_bw_1C11_singleread<float, 512, true, 1, 2, 0>");
	display_is("_ZN5cudnn21bn_bw_1C11_kernel_newIff6float2Li32ELb1ELi1EEEvfffPKf",
		   "cudnn::bn_bw_1C11_kernel_new<float, float, float2, 32, true, 1>");
	display_is("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
		   "ncclKernel_AllReduce_RING_LL_Sum_float");
	display_is(
		"cask_cudnn_infer::computeBOffsetsKernel(cask_cudnn_infer::ComputeBOffsetsParams)",
		"cask_cudnn_infer::computeBOffsetsKernel");
	/* (anonymous namespace) right after the return type */
	display_is(
		"void (anonymous namespace)::softmax_warp_backward<float, float, float, 1, false, false>"
		"(float*, float const*, float const*, int, int, int, bool const*)",
		"softmax_warp_backward<float, float, float, 1, false, false>");
	display_is(
		"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 1, 64, 64>"
		"(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 64, 64>, "
		"at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)",
		"CatArrayBatchedCopy<float, unsigned int, 1, 64, 64>");
	/* a return type with parentheses and spaces of its own */
	display_is(
		"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, float, 7>(cublasGemvParams<float>)",
		"gemvx::kernel<int, float, 7>");
	display_is("__global__ void k<1>(int)", "k<1>");
	/* parentheses inside the template arguments: a lambda of a function */
	display_is(
		"void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::AddFunctor<float> >"
		"(at::TensorIteratorBase&, at::native::AddFunctor<float> const&)::{lambda(int)#1}>(int, "
		"at::native::gpu_kernel_impl<at::native::AddFunctor<float> >(at::TensorIteratorBase&, "
		"at::native::AddFunctor<float> const&)::{lambda(int)#1})",
		"elementwise_kernel<128, 4, gpu_kernel_impl<AddFunctor<float>>>");
	/* operators: the symbol stays, the arguments and " const" go */
	display_is("at::native::foo()::{lambda()#1}::operator()() const", "foo");
	display_is("_ZZN2at6native3fooEvENKUlvE_clEv", "foo");
	display_is("std::ostream& operator<<(std::ostream&, foo const&)", "operator<<");
	display_is("bool foo::operator<(foo const&) const", "foo::operator<");
	display_is("foo::operator[](unsigned long) &&", "foo::operator[]");
	display_is("void f(int (*)(int), b)", "f");
	/* an operator() inside the template arguments (HTA's negative_queue_length trace) */
	display_is(
		"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
		"at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
		"unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
		"at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, "
		"unsigned int, float, 4>)",
		"reduce_kernel<512, 1, ReduceOp<float, func_wrapper_t<float, sum_functor<float, float, float>>, "
		"unsigned int, float, 4>>");
	display_is("bool operator==(a const&, a const&)", "operator==");
	display_is("x::operator->() const", "x::operator->");
	display_is("x::operator<<=(int)", "x::operator<<=");
	display_is("a<int>::operator int() const", "a<int>::operator int");
	display_is("void* operator new(unsigned long)", "operator new");
	/* names that are not C++ signatures stay as they are */
	display_is("aten::conv2d", "aten::conv2d");
	display_is("ProfilerStep#5", "ProfilerStep#5");
	display_is("autograd::engine::evaluate_function: ConvolutionBackward0",
		   "autograd::engine::evaluate_function: ConvolutionBackward0");
	display_is("## forward ##", "## forward ##");
	display_is("## Request wait() ##", "## Request wait() ##");
	display_is("Memcpy DtoD (Device -> Device)", "Memcpy DtoD (Device -> Device)");
	display_is("Memset (Device)", "Memset (Device)");
	display_is("PyTorch Profiler (0)", "PyTorch Profiler (0)");
	display_is("torch/nn/functional.py(2358): silu", "torch/nn/functional.py(2358): silu");
	display_is("<frozen os>(709): __getitem__", "<frozen os>(709): __getitem__");
	display_is("foo.py(12)", "foo.py(12)");
	display_is("nn.Module: Linear(in=3)", "nn.Module: Linear(in=3)");
	display_is("torch::jit::(anonymous namespace)::DifferentiableGraphBackward",
		   "torch::jit::(anonymous namespace)::DifferentiableGraphBackward");
	display_is("(x)", "(x)");
	/* a compare metric's "span:" prefix stays; the name after it follows the rules */
	display_is("span:void at::native::multi_tensor_apply_kernel<AdamW>(int, float*)",
		   "span:multi_tensor_apply_kernel<AdamW>");
	display_is("gpu:_ZN5cudnn21bn_bw_1C11_kernel_newIff6float2Li32ELb1ELi1EEEvfffPKf",
		   "gpu:cudnn::bn_bw_1C11_kernel_new<float, float, float2, 32, true, 1>");
	display_is("nccl:all_reduce", "nccl:all_reduce");
	display_is("busbw: void k<2>(int)", "busbw: k<2>");
	display_is("busbw: ncclDevKernel_AllReduce_Sum_f32_RING_LL",
		   "busbw: ncclDevKernel_AllReduce_Sum_f32_RING_LL");
	display_is("", "");
	/* a kernel's terse form (rule 3 of names.h): H100 Qwen trace's kernels, by hand */
	display_is(
		"void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
		"at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, "
		"at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, "
		"at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, "
		"at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, "
		"at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, "
		"c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >("
		"at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, "
		"c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::"
		"{lambda(int)#1})",
		"elementwise_kernel<128, 4, gpu_kernel_impl_nocast<BinaryFunctor<BFloat16, BFloat16, "
		"BFloat16, MulFunctor<float>>>>");
	display_is(
		"void at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, "
		"c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#10}::operator()() "
		"const::{lambda(bool)#1}",
		"masked_fill_kernel");
	display_is(
		"void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 64, 4, false, "
		"false, cutlass::bfloat16_t, Flash_kernel_traits<64, 128, 64, 4, "
		"cutlass::bfloat16_t> >, false, true>(pytorch_flash::Flash_fwd_params)",
		"pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 64, 4, false, "
		"false, bfloat16_t, Flash_kernel_traits<64, 128, 64, 4, bfloat16_t>>, false, true>");
	display_is("cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>",
		   "cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>");
	/* not a kernel: Python frames, ops and labels keep their text */
	display_is("<built-in method add of type object at 0x7f00>",
		   "<built-in method add of type object at 0x7f00>");
	display_is("torch/nn/modules/module.py(1743): _call_impl",
		   "torch/nn/modules/module.py(1743): _call_impl");
	display_is("aten::_flash_attention_forward", "aten::_flash_attention_forward");
	display_is("c10d::allreduce_", "c10d::allreduce_");
	assert_int_equal(display_bad, 0);
}

/* Unbalanced, huge and invalid text: shown as it is (cut to the buffer), never a crash. */
static void test_hostile(void **state)
{
	static const char *const bad[] = { "f<(int)",
					   ")(",
					   "(((((",
					   "void f<<<>(int)",
					   "a>b(c)",
					   "\xff\xfe(a)",
					   "void (x",
					   "operator()",
					   "_Z",
					   "_ZN",
					   "_ZN999999999999999999999x",
					   "_ZNSt",
					   "void ()",
					   " (a)",
					   "x() const const &&&" };
	char b[64], *big;
	size_t i, n = 1 << 20;
	(void)state;
	display_is("f<(int)", "f<(int)");
	display_is("void f<<<>(int)", "void f<<<>(int)");
	display_is("a>b(c)", "a>b(c)");
	display_is("\xff\xfe(a)", "\xff\xfe(a)");
	display_is("operator()", "operator()");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *d = pr_demangle(bad[i]);
		free(d);
		pr_name_display(bad[i], b, sizeof(b));
		assert_true(strlen(b) < sizeof(b));
	}
	pr_name_display(NULL, b, sizeof(b));
	assert_string_equal(b, "");
	assert_ptr_equal(pr_name_display("x", b, 0), b);
	/* a megabyte of "<" then "(x)", and of "_ZN1a": cut to the buffer, UTF-8 intact */
	big = malloc(n + 4);
	assert_non_null(big);
	memset(big, '<', n);
	memcpy(big + n, "(x)", 4);
	pr_name_display(big, b, sizeof(b));
	assert_true(strlen(b) == sizeof(b) - 1);
	memcpy(big, "_ZN", 3);
	for (i = 3; i + 2 < n; i += 2)
		memcpy(big + i, "1a", 2);
	big[i] = 0;
	pr_name_display(big, b, sizeof(b));
	assert_true(strlen(b) == sizeof(b) - 1);
	for (i = 0; i + 2 <= n; i += 2)
		memcpy(big + i, "\xC3\xA9", 2);
	big[n] = 0;
	pr_name_display(big, b, sizeof(b));
	assert_true(utf8_ok(b));
	free(big);
}

/* The real columns: the bn_bw kernels, the cutlass ones, overloads, mangled vs plain. */
static void test_column(void **state)
{
	pr_label_t out[8];
	const char *cut[] = { cutlass128, cutlass64, "aten::conv2d" };
	const char *ov[] = { "void f<int>(int)", "void f<int>(float)", "g", "void f<int>(int)" };
	const char *same[] = { "_Z1fv", "f()", "void f()" };
	size_t i, j;
	(void)state;
	/* wide enough: the display forms themselves */
	pr_name_column(out, bn_bw, 4, 100);
	for (i = 0; i < 4; i++) {
		char b[200];
		assert_string_equal(out[i], pr_name_display(bn_bw[i], b, sizeof(b)));
	}
	/* 42 bytes: cut, each tells its block size (128, 32, 512) */
	pr_name_column(out, bn_bw, 4, 42);
	for (i = 0; i < 4; i++) {
		assert_true(strlen(out[i]) <= 42);
		for (j = i + 1; j < 4; j++)
			assert_true(strcmp(out[i], out[j]) != 0);
	}
	assert_non_null(strstr(out[0], "128"));
	assert_non_null(strstr(out[1], " 32,"));
	assert_non_null(strstr(out[2], "512"));
	assert_non_null(strstr(out[3], "cudnn::bn_bw_1C11_s"));
	assert_non_null(strstr(out[3], ", 2, 0>"));
	/* alike once shortened: the argument lists come back, only for those */
	pr_name_column(out, ov, 4, 60);
	assert_string_equal(out[0], "f<int>(int)");
	assert_string_equal(out[1], "f<int>(float)");
	assert_string_equal(out[2], "g");
	assert_string_equal(out[3], "f<int>(int)");
	/* a mangled name and its demangled text: alike until the raw texts */
	pr_name_column(out, same, 3, 60);
	assert_string_equal(out[0], "_Z1fv");
	assert_string_equal(out[1], "f()");
	assert_string_equal(out[2], "void f()");
	/* the two long cutlass names share their head: the labels show where they differ */
	pr_name_column(out, cut, 3, 42);
	assert_true(strcmp(out[0], out[1]) != 0);
	assert_non_null(strstr(out[0], "GemmShapeILi128"));
	assert_non_null(strstr(out[1], "GemmShapeILi64"));
	assert_string_equal(out[2], "aten::conv2d");
	pr_name_column(out, cut, 1, 42);
	assert_string_equal(out[0], "cutlass_cudnn_train::Kernel<...>");
	pr_name_column(out, NULL, 0, 42);
}

/* Random signature-shaped names: widths hold, UTF-8 holds, distinct names never alike. */
static void test_column_property(void **state)
{
	enum {
		N = 10
	};
	static const char *const piece[] = { "void ",
					     "a::",
					     "k<",
					     "int",
					     ", ",
					     ">",
					     "(",
					     ")",
					     "float*",
					     " const",
					     "(anonymous namespace)::",
					     "\xC3\xA9",
					     "{lambda()#1}",
					     "operator()",
					     "_Z" };
	char names[N][160];
	const char *ptr[N];
	pr_label_t out[N];
	uint32_t seed = 777;
	size_t w, i, j, trial;
	(void)state;
	for (trial = 0; trial < 2000; trial++) {
		w = 6 + trial % 50;
		for (i = 0; i < N; i++) {
			size_t len = 0, parts;
			seed = seed * 1103515245u + 12345u;
			parts = 1 + (seed >> 16) % 12;
			names[i][0] = 0;
			while (parts-- > 0) {
				const char *p;
				seed = seed * 1103515245u + 12345u;
				p = piece[(seed >> 16) % (sizeof(piece) / sizeof(piece[0]))];
				if (len + strlen(p) + 1 >= sizeof(names[i]))
					break;
				memcpy(names[i] + len, p, strlen(p) + 1);
				len += strlen(p);
			}
			ptr[i] = names[i];
		}
		pr_name_column(out, ptr, N, w);
		for (i = 0; i < N; i++) {
			assert_true(strlen(out[i]) <= w);
			assert_true(utf8_ok(out[i]));
			for (j = i + 1; j < N; j++)
				if (strcmp(names[i], names[j]))
					assert_true(strcmp(out[i], out[j]) != 0);
				else
					assert_string_equal(out[i], out[j]);
		}
	}
}

/*
 * Steps numbered as the trace names them: nccl_data's ProfilerStep#4..#6 are
 * 4, 5, 6 on the chart's axis (they were 0..2) and their kind is
 * "ProfilerStep"; names without numbers, or numbers that do not increase,
 * count on from the first one's number.
 */
static void test_step_numbers(void **state)
{
	char kind[64];
	long long num = -1;
	double x[3];
	json_t *l;
	(void)state;
	assert_int_equal(pr_step_split("ProfilerStep#12", kind, sizeof(kind), &num), 1);
	assert_string_equal(kind, "ProfilerStep");
	assert_int_equal(num, 12);
	num = -1;
	assert_int_equal(pr_step_split("step#", kind, sizeof(kind), &num), 0);
	assert_string_equal(kind, "step#");
	assert_int_equal(pr_step_split("train#3a", kind, sizeof(kind), &num), 0);
	assert_int_equal(num, -1);
	l = json_pack("[{s:s},{s:s},{s:s}]", "name", "ProfilerStep#4", "name", "ProfilerStep#5",
		      "name", "ProfilerStep#6");
	assert_true(pr_step_numbers(l, x, 3, kind, sizeof(kind)) == 4);
	assert_true(x[0] == 4 && x[1] == 5 && x[2] == 6);
	assert_string_equal(kind, "ProfilerStep");
	json_decref(l);
	l = json_pack("[{s:s},{s:s},{s:s}]", "name", "ProfilerStep#7", "name", "ProfilerStep#7",
		      "name", "iteration");
	assert_true(pr_step_numbers(l, x, 3, kind, sizeof(kind)) == 7);
	assert_true(x[0] == 7 && x[1] == 8 && x[2] == 9);
	json_decref(l);
	l = json_pack("[{s:s},{s:s}]", "name", "step", "name", "step");
	assert_true(pr_step_numbers(l, x, 2, kind, sizeof(kind)) == 0);
	assert_true(x[0] == 0 && x[1] == 1);
	assert_string_equal(kind, "step");
	json_decref(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demangle),	cmocka_unit_test(test_signatures),
		cmocka_unit_test(test_hostile),		cmocka_unit_test(test_column),
		cmocka_unit_test(test_column_property), cmocka_unit_test(test_step_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
