/*
 * gen_trace - deterministic generator of large torch.profiler / Kineto-like
 * Chrome Trace Event JSON files, for benchmarking profreport.
 *
 * Usage: gen_trace SIZE_MB [SEED] [-o FILE]
 *
 * Writes a trace of approximately SIZE_MB * 10^6 bytes to stdout (or FILE).
 * The output is a pure function of SIZE_MB and SEED: a private splitmix64
 * PRNG drives every choice, nothing depends on time, locale or rand().
 *
 * Shape: Kineto's ChromeTraceLogger layout (header with deviceProperties and
 * distributedInfo, multi-line event objects separated by ",\n", trailing
 * "Record Window End" instant and traceName).  Per training step the host
 * thread gets a ProfilerStep#N user_annotation containing forward / backward
 * / optimizer phases with nested cpu_op events, cudaLaunchKernel /
 * cudaMemcpyAsync runtime events (with ac2g flow pairs), [memory] instants
 * and queue_depth counters; the GPU (pid 0) gets kernels on stream 7 and
 * memcpys on stream 20; a dataloader thread gets one annotation per step.
 *
 * Timestamps are kept as integer nanoseconds relative to baseTimeNanoseconds
 * and printed as microseconds with exactly three decimals.
 *
 * The size target is met by choosing the number of steps; the last step is
 * shrunk (fewer layers / optimizer parameter groups) so that the total lands
 * as close as possible to the target.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST_PID 12345
#define HOST_TID 12345
#define DL_TID 12400
#define GPU_PID 0
#define KSTREAM 7
#define MSTREAM 20
#define NUM_SMS 132

#define MIB (1024LL * 1024LL)
#define TWO_MIB (2LL * MIB)

/* ------------------------------------------------------------------------ */
/* growable byte buffer with fast integer formatting                         */
/* ------------------------------------------------------------------------ */

typedef struct {
	char *p;
	size_t n, cap;
} buf_t;

static void die_oom(void)
{
	fputs("gen_trace: out of memory\n", stderr);
	exit(1);
}

static void breserve(buf_t *b, size_t extra)
{
	if (b->cap - b->n >= extra)
		return;
	size_t nc = b->cap ? b->cap : (size_t)1 << 16;
	while (nc - b->n < extra)
		nc *= 2;
	char *np = realloc(b->p, nc);
	if (!np)
		die_oom();
	b->p = np;
	b->cap = nc;
}

static inline void bput(buf_t *b, const char *s, size_t len)
{
	breserve(b, len);
	memcpy(b->p + b->n, s, len);
	b->n += len;
}

#define BL(b, lit) bput((b), (lit), sizeof(lit) - 1)

static inline void bs(buf_t *b, const char *s)
{
	bput(b, s, strlen(s));
}

static inline void bc(buf_t *b, char c)
{
	breserve(b, 1);
	b->p[b->n++] = c;
}

static inline void bu(buf_t *b, uint64_t v)
{
	char t[20];
	int i = 20;
	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	bput(b, t + i, (size_t)(20 - i));
}

static inline void bi(buf_t *b, int64_t v)
{
	if (v < 0) {
		bc(b, '-');
		bu(b, (uint64_t)0 - (uint64_t)v);
	} else {
		bu(b, (uint64_t)v);
	}
}

/* v is a fixed-point value scaled by 10^dec (dec <= 9) */
static void bfix(buf_t *b, uint64_t v, int dec)
{
	uint64_t p = 1;
	for (int i = 0; i < dec; i++)
		p *= 10;
	bu(b, v / p);
	bc(b, '.');
	uint64_t f = v % p;
	char t[10];
	for (int i = dec - 1; i >= 0; i--) {
		t[i] = (char)('0' + f % 10);
		f /= 10;
	}
	bput(b, t, (size_t)dec);
}

/* nanoseconds -> "us.nnn" (Kineto's "%ld.%03ld"); ns is never negative */
static inline void bts(buf_t *b, int64_t ns)
{
	bfix(b, (uint64_t)ns, 3);
}

/* small decimal into a char array (for concrete-input strings) */
static char *cu(char *d, uint64_t v)
{
	char t[20];
	int i = 20;
	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(d, t + i, (size_t)(20 - i));
	return d + (20 - i);
}

/* ------------------------------------------------------------------------ */
/* generator state (snapshot-able: plain data, no pointers)                  */
/* ------------------------------------------------------------------------ */

#define MAXLIVE 2048
#define KRING 64

typedef struct {
	uint64_t addr;
	int64_t size;
} live_t;

typedef struct {
	uint64_t rng;
	int64_t ext, corr, evidx, seq;
	int64_t cur;		 /* host thread cursor, ns */
	int64_t s7_end, s20_end; /* GPU stream busy-until, ns */
	int64_t dl_end;
	int64_t last_ts; /* max end time of any event so far */
	int64_t alloc, reserved;
	int64_t step;
	int phase; /* 0 other, 1 forward, 2 backward, 3 optimizer */
	int nlive;
	int kpos;
	int64_t kend[KRING];
	live_t live[MAXLIVE];
} st_t;

typedef struct {
	int64_t b, s;	  /* batch, sequence length */
	int64_t B, H, FF; /* tokens per batch (b*s), hidden, ffn */
	int D;		  /* model depth (layers) */
	int dropout;
} cfg_t;

static st_t S;
static st_t SNAP;
static cfg_t C;

static uint64_t sm64(void)
{
	uint64_t z = (S.rng += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* uniform in [0, n) */
static inline uint32_t rnd(uint32_t n)
{
	return (uint32_t)(((sm64() >> 32) * (uint64_t)n) >> 32);
}

/* uniform in [lo, hi] */
static inline int64_t rr(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(sm64() % (uint64_t)(hi - lo + 1));
}

static inline int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* ------------------------------------------------------------------------ */
/* per-step event storage                                                    */
/* ------------------------------------------------------------------------ */

enum {
	K_X,
	K_S,
	K_F,
	K_MEM,
	K_CTR
};

typedef struct {
	int64_t ts, dur, id;
	const char *cat, *name;
	int32_t pid, tid;
	uint32_t aoff, alen;
	int kind;
} ev_t;

typedef struct {
	ev_t *v;
	size_t n, cap;
} evlist_t;

static evlist_t HL; /* host-side events (host thread + dataloader thread) */
static evlist_t GL; /* GPU events */
static buf_t ARENA; /* pre-formatted args bodies */
static buf_t SB;    /* serialized step */
static char STEPNAME[48];

#define MAXDEPTH 64
static int OSTK[MAXDEPTH];
static int64_t OEXT[MAXDEPTH];
static int ODEPTH;

static size_t ev_push(evlist_t *l)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 4096;
		ev_t *nv = realloc(l->v, nc * sizeof(ev_t));
		if (!nv)
			die_oom();
		l->v = nv;
		l->cap = nc;
	}
	ev_t *e = &l->v[l->n];
	memset(e, 0, sizeof *e);
	return l->n++;
}

static inline void note_end(int64_t t)
{
	if (t > S.last_ts)
		S.last_ts = t;
}

/* ------------------------------------------------------------------------ */
/* operator inputs (Input Dims / Input type / Input Strides / Concrete)      */
/* ------------------------------------------------------------------------ */

enum {
	IN_T,
	IN_S,
	IN_L
};

typedef struct {
	int nd;
	int64_t d[3];
} shp_t;

typedef struct {
	const char *type;
	const char *conc;
	char cbuf[40];
	int kind;
	int tr; /* transposed 2-D strides */
	int nl;
	shp_t s[6];
} inp_t;

typedef struct {
	int n;
	inp_t v[8];
} ins_t;

static inp_t *in_add(ins_t *x, int kind, const char *type)
{
	inp_t *p = &x->v[x->n++];
	p->type = type;
	p->conc = "";
	p->kind = kind;
	p->tr = 0;
	p->nl = 0;
	p->s[0].nd = 0;
	return p;
}

static void T1(ins_t *x, const char *type, int64_t a)
{
	inp_t *p = in_add(x, IN_T, type);
	p->s[0].nd = 1;
	p->s[0].d[0] = a;
}

static void T2(ins_t *x, int64_t a, int64_t b)
{
	inp_t *p = in_add(x, IN_T, "float");
	p->s[0].nd = 2;
	p->s[0].d[0] = a;
	p->s[0].d[1] = b;
}

static void T2t(ins_t *x, int64_t a, int64_t b)
{
	T2(x, a, b);
	x->v[x->n - 1].tr = 1;
}

static void T0(ins_t *x, const char *type)
{
	in_add(x, IN_T, type); /* 0-dim tensor */
}

static void SC(ins_t *x, const char *type, const char *conc)
{
	inp_t *p = in_add(x, IN_S, type);
	p->conc = conc;
}

/* ScalarList with concrete value "[a]", "[a, b]" or "[a, b, c]" */
static void SL3(ins_t *x, int n, int64_t a, int64_t b, int64_t c)
{
	inp_t *p = in_add(x, IN_S, "ScalarList");
	char *d = p->cbuf;
	*d++ = '[';
	d = cu(d, (uint64_t)a);
	if (n > 1) {
		*d++ = ',';
		*d++ = ' ';
		d = cu(d, (uint64_t)b);
	}
	if (n > 2) {
		*d++ = ',';
		*d++ = ' ';
		d = cu(d, (uint64_t)c);
	}
	*d++ = ']';
	*d = 0;
	p->conc = p->cbuf;
}

static void SL(ins_t *x, int n, int64_t a, int64_t b)
{
	SL3(x, n, a, b, 0);
}

/* activation tensor [batch, seq, last] */
static void TA(ins_t *x, int64_t last)
{
	inp_t *p = in_add(x, IN_T, "float");
	p->s[0].nd = 3;
	p->s[0].d[0] = C.b;
	p->s[0].d[1] = C.s;
	p->s[0].d[2] = last;
}

/* TensorList of one layer's parameters */
static void TLP(ins_t *x)
{
	inp_t *p = in_add(x, IN_L, "TensorList");
	shp_t *s = p->s;
	s[0] = (shp_t){ 2, { C.FF, C.H, 0 } };
	s[1] = (shp_t){ 1, { C.FF, 0, 0 } };
	s[2] = (shp_t){ 2, { C.H, C.FF, 0 } };
	s[3] = (shp_t){ 1, { C.H, 0, 0 } };
	s[4] = (shp_t){ 1, { C.H, 0, 0 } };
	s[5] = (shp_t){ 1, { C.H, 0, 0 } };
	p->nl = 6;
}

static void put_shape(buf_t *b, const shp_t *s)
{
	bc(b, '[');
	for (int i = 0; i < s->nd; i++) {
		if (i)
			BL(b, ", ");
		bi(b, s->d[i]);
	}
	bc(b, ']');
}

static void put_strides(buf_t *b, const shp_t *s, int tr)
{
	bc(b, '[');
	if (s->nd == 2 && tr) {
		BL(b, "1, ");
		bi(b, s->d[0]);
	} else {
		int64_t st[3];
		int64_t acc = 1;
		for (int i = s->nd - 1; i >= 0; i--) {
			st[i] = acc;
			acc *= s->d[i];
		}
		for (int i = 0; i < s->nd; i++) {
			if (i)
				BL(b, ", ");
			bi(b, st[i]);
		}
	}
	bc(b, ']');
}

static void put_inputs(buf_t *b, const ins_t *x)
{
	BL(b, ", \"Input Dims\": [");
	for (int i = 0; i < x->n; i++) {
		const inp_t *p = &x->v[i];
		if (i)
			BL(b, ", ");
		if (p->kind == IN_L) {
			bc(b, '[');
			for (int j = 0; j < p->nl; j++) {
				if (j)
					BL(b, ", ");
				put_shape(b, &p->s[j]);
			}
			bc(b, ']');
		} else if (p->kind == IN_T) {
			put_shape(b, &p->s[0]);
		} else {
			BL(b, "[]");
		}
	}
	BL(b, "], \"Input type\": [");
	for (int i = 0; i < x->n; i++) {
		if (i)
			BL(b, ", ");
		bc(b, '"');
		bs(b, x->v[i].type);
		bc(b, '"');
	}
	BL(b, "], \"Input Strides\": [");
	for (int i = 0; i < x->n; i++) {
		const inp_t *p = &x->v[i];
		if (i)
			BL(b, ", ");
		if (p->kind == IN_L) {
			bc(b, '[');
			for (int j = 0; j < p->nl; j++) {
				if (j)
					BL(b, ", ");
				put_strides(b, &p->s[j], 0);
			}
			bc(b, ']');
		} else if (p->kind == IN_T) {
			put_strides(b, &p->s[0], p->tr);
		} else {
			BL(b, "[]");
		}
	}
	BL(b, "], \"Concrete Inputs\": [");
	for (int i = 0; i < x->n; i++) {
		if (i)
			BL(b, ", ");
		bc(b, '"');
		bs(b, x->v[i].conc);
		bc(b, '"');
	}
	bc(b, ']');
}

/* ------------------------------------------------------------------------ */
/* kernels                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct {
	const char *name;
	int regs, smem, block, occ;
} ktpl_t;

enum {
	KT_GEMM_TN,
	KT_GEMM_NN,
	KT_GEMM_NT,
	KT_LN,
	KT_LN_BWD_IN,
	KT_LN_BWD_GB,
	KT_RELU,
	KT_THRESH,
	KT_DROPOUT,
	KT_MUL,
	KT_ADD,
	KT_SUM,
	KT_LSM,
	KT_LSM_BWD,
	KT_NLL,
	KT_NLL_BWD,
	KT_FE_LERP,
	KT_FE_MUL,
	KT_FE_ADDCMUL,
	KT_FE_SQRT,
	KT_FE_ADDCDIV,
	KT_FILL,
	KT_N
};

static const ktpl_t
	KT
		[KT_N] = {
			{ "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
			  168, 213504, 384, 19 },
			{ "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x256x32_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
			  168, 230400, 384, 19 },
			{ "sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize256x128x32_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
			  168, 230400, 384, 19 },
			{ "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, float const*, float const*, float*, float*, float*)",
			  30, 0, 256, 95 },
			{ "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<float, float>(float const*, float const*, float const*, float const*, float const*, float*, int)",
			  40, 0, 128, 88 },
			{ "void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32<float, float>(long, long, float const*, float const*, float const*, float const*, float*, float*)",
			  64, 8448, 1024, 48 },
			{ "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
			  20, 0, 128, 92 },
			{ "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, at::detail::Array<char*, 3>)",
			  24, 0, 128, 91 },
			{ "void at::native::(anonymous namespace)::fused_dropout_kernel_vec<float, float, unsigned int, 1, 4, bool>(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<bool, unsigned int>, unsigned int, float, at::PhiloxCudaState)",
			  38, 0, 256, 85 },
			{ "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3>)",
			  24, 0, 128, 91 },
			{ "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
			  24, 0, 128, 92 },
			{ "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4>)",
			  32, 16, 512, 73 },
			{ "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)",
			  37, 4096, 512, 80 },
			{ "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, int)",
			  30, 4096, 512, 81 },
			{ "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)",
			  30, 4096, 32, 3 },
			{ "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, long)",
			  16, 0, 32, 3 },
			{ "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::TernaryOpScalarFunctor<float, 2, 2, 0>, at::native::LerpFunctor<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::TernaryOpScalarFunctor<float, 2, 2, 0>, at::native::LerpFunctor<float>, float)",
			  32, 0, 512, 61 },
			{ "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::BinaryOpScalarFunctor<float, 1, 1, 0>, std::multiplies<float>, float)",
			  30, 0, 512, 62 },
			{ "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<3>, at::native::(anonymous namespace)::PointwiseOpScalarFunctor<float, 3, 3, 0>, std::multiplies<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<3>, at::native::(anonymous namespace)::PointwiseOpScalarFunctor<float, 3, 3, 0>, std::multiplies<float>, float)",
			  40, 0, 512, 58 },
			{ "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::UnaryOpFunctor<float, 2, 1, 1>, at::native::(anonymous namespace)::Sqrt<float> >(at::native::(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::UnaryOpFunctor<float, 2, 1, 1>, at::native::(anonymous namespace)::Sqrt<float>)",
			  28, 0, 512, 63 },
			{ "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<3>, at::native::(anonymous namespace)::PointwiseOpScalarFunctor<float, 3, 3, 0>, std::divides<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<3>, at::native::(anonymous namespace)::PointwiseOpScalarFunctor<float, 3, 3, 0>, std::divides<float>, float)", 40,
			  0, 512, 57 },
			{ "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
			  16, 0, 128, 94 },
		};

/* duration models (ns) */
static int64_t jit(int64_t ns)
{
	return ns * rr(92, 112) / 100;
}
static int64_t gemm_ns(int64_t m, int64_t n, int64_t k)
{
	return jit(2 * m * n * k / 280000 + 4000);
}
static int64_t ew_ns(int64_t bytes)
{
	return jit(bytes / 2400 + 2200);
}

/* ------------------------------------------------------------------------ */
/* memory instants                                                           */
/* ------------------------------------------------------------------------ */

static void mem_ev(int64_t bytes, uint64_t addr)
{
	S.alloc += bytes;
	if (S.alloc > S.reserved)
		S.reserved =
			(S.alloc + TWO_MIB - 1) / TWO_MIB * TWO_MIB + TWO_MIB * (int64_t)rnd(48);
	size_t i = ev_push(&HL);
	ev_t *e = &HL.v[i];
	e->kind = K_MEM;
	e->ts = S.cur;
	e->aoff = (uint32_t)ARENA.n;
	buf_t *a = &ARENA;
	BL(a, "\"Total Reserved\": ");
	bi(a, S.reserved);
	BL(a, ", \"Total Allocated\": ");
	bi(a, S.alloc);
	BL(a, ", \"Bytes\": ");
	bi(a, bytes);
	BL(a, ", \"Addr\": ");
	bu(a, addr);
	BL(a, ", \"Device Id\": 0, \"Device Type\": 1, \"Ev Idx\": ");
	bi(a, S.evidx++);
	e->alen = (uint32_t)(ARENA.n - e->aoff);
	S.cur += rr(30, 250);
}

static int64_t act_size(void)
{
	uint32_t r = rnd(100);
	if (r < 30)
		return C.B * C.H * 4;
	if (r < 45)
		return C.B * C.FF * 4;
	if (r < 55)
		return C.B * 4;
	if (r < 65)
		return C.H * 4;
	return rr(512, 262144);
}

static void mem_alloc(int64_t sz, int keep)
{
	sz = (sz + 511) / 512 * 512;
	uint64_t addr = 140000000000000ull + ((sm64() % 999000000000ull) & ~(uint64_t)511);
	if (keep) {
		if (S.nlive >= MAXLIVE)
			return;
		S.live[S.nlive].addr = addr;
		S.live[S.nlive].size = sz;
		S.nlive++;
	}
	mem_ev(sz, addr);
}

static void mem_free(void)
{
	if (S.nlive == 0)
		return;
	S.nlive--;
	mem_ev(-S.live[S.nlive].size, S.live[S.nlive].addr);
}

/* random allocator activity inside a cpu_op, ~1 in 4 ops overall */
static void mem_auto(void)
{
	if (rnd(100) >= 17)
		return;
	uint32_t r = rnd(100);
	switch (S.phase) {
	case 1:
		if (r < 88)
			mem_alloc(act_size(), 1);
		else
			mem_free();
		break;
	case 2:
		if (r < 72)
			mem_free();
		else
			mem_alloc(act_size(), 1);
		break;
	default:
		if (r < 50)
			mem_alloc(act_size(), 1);
		else
			mem_free();
		break;
	}
}

/* ------------------------------------------------------------------------ */
/* host-side event builders                                                  */
/* ------------------------------------------------------------------------ */

static void counter_ev(void)
{
	int64_t v = 0;
	for (int i = 0; i < KRING; i++)
		if (S.kend[i] > S.cur)
			v++;
	size_t i = ev_push(&HL);
	ev_t *e = &HL.v[i];
	e->kind = K_CTR;
	e->ts = S.cur;
	e->id = v;
	S.cur += rr(50, 300);
}

/* size for the next aten::empty allocation (0: random activation size) */
static int64_t EMPTY_SZ;

/* opens an X event on the host thread at the cursor */
static void op_begin(const char *cat, const char *name, const ins_t *in, int64_t seq, int fwd)
{
	S.cur += rr(300, 2600);
	if (rnd(28) == 0)
		counter_ev();
	size_t i = ev_push(&HL);
	ev_t *e = &HL.v[i];
	e->kind = K_X;
	e->cat = cat;
	e->name = name;
	e->pid = HOST_PID;
	e->tid = HOST_TID;
	e->ts = S.cur;
	e->aoff = (uint32_t)ARENA.n;
	int64_t ext = ++S.ext;
	buf_t *a = &ARENA;
	BL(a, "\"External id\": ");
	bi(a, ext);
	BL(a, ",\"Record function id\": 0, ");
	if (seq >= 0) {
		BL(a, "\"Sequence number\": ");
		bi(a, seq);
		BL(a, ", \"Fwd thread id\": ");
		bi(a, fwd);
		BL(a, ", ");
	}
	BL(a, "\"Ev Idx\": ");
	bi(a, S.evidx++);
	if (in)
		put_inputs(a, in);
	e->alen = (uint32_t)(ARENA.n - e->aoff);
	if (ODEPTH >= MAXDEPTH) {
		fputs("gen_trace: internal error: nesting too deep\n", stderr);
		exit(1);
	}
	OSTK[ODEPTH] = (int)i;
	OEXT[ODEPTH] = ext;
	ODEPTH++;
	S.cur += rr(200, 1600);
	if (in && strcmp(name, "aten::empty") == 0) {
		mem_alloc(EMPTY_SZ > 0 ? EMPTY_SZ : act_size(), 1);
		EMPTY_SZ = 0;
	} else if (in && strcmp(name, "aten::empty_like") == 0) {
		int64_t n = 1;
		for (int d = 0; d < in->v[0].s[0].nd; d++)
			n *= in->v[0].s[0].d[d];
		mem_alloc(n * 4, 1);
	} else if (in) {
		mem_auto();
	}
}

static void op_end(void)
{
	ODEPTH--;
	ev_t *e = &HL.v[OSTK[ODEPTH]];
	S.cur += rr(100, 900);
	e->dur = S.cur - e->ts;
	note_end(S.cur);
}

static void ua_begin(const char *name)
{
	op_begin("user_annotation", name, NULL, -1, 0);
}

static void cpu(const char *name, const ins_t *in)
{
	op_begin("cpu_op", name, in, -1, 0);
}

static void cpuf(const char *name, const ins_t *in)
{
	op_begin("cpu_op", name, in, S.seq++, 0);
}

static void cpub(const char *name, const ins_t *in, int64_t seq)
{
	op_begin("cpu_op", name, in, seq, 1);
}

static void flow(evlist_t *l, int kind, int64_t ts, int64_t id, int pid, int tid)
{
	size_t i = ev_push(l);
	ev_t *e = &l->v[i];
	e->kind = kind;
	e->ts = ts;
	e->id = id;
	e->pid = pid;
	e->tid = tid;
}

/* runtime X event under the current op; returns index */
static size_t rt_begin(const char *name, int cbid, int64_t corr)
{
	S.cur += rr(300, 1500);
	size_t i = ev_push(&HL);
	ev_t *e = &HL.v[i];
	e->kind = K_X;
	e->cat = "cuda_runtime";
	e->name = name;
	e->pid = HOST_PID;
	e->tid = HOST_TID;
	e->ts = S.cur;
	e->aoff = (uint32_t)ARENA.n;
	buf_t *a = &ARENA;
	BL(a, "\"External id\": ");
	bi(a, OEXT[ODEPTH - 1]);
	BL(a, ",\n      \"cbid\": ");
	bi(a, cbid);
	BL(a, ", \"correlation\": ");
	bi(a, corr);
	e->alen = (uint32_t)(ARENA.n - e->aoff);
	return i;
}

static void rt_end(size_t i, int64_t self_ns)
{
	S.cur += self_ns;
	HL.v[i].dur = S.cur - HL.v[i].ts;
	note_end(S.cur);
}

static void launch(int kt, int64_t dur, int64_t gx, int64_t gy)
{
	const ktpl_t *k = &KT[kt];
	int64_t corr = ++S.corr;
	size_t ri = rt_begin("cudaLaunchKernel", 211, corr);
	int64_t lts = S.cur;
	flow(&HL, K_S, lts, corr, HOST_PID, HOST_TID);

	/* one PRNG call per statement: argument / operand evaluation order is
     * unspecified in C and would make the output compiler-dependent */
	int64_t launch_lat = rr(2500, 6500);
	int64_t queue_gap = rr(600, 2200);
	int64_t kts = max64(lts + launch_lat, S.s7_end + queue_gap);
	S.s7_end = kts + dur;
	S.kend[S.kpos] = S.s7_end;
	S.kpos = (S.kpos + 1) % KRING;
	note_end(S.s7_end);

	size_t gi = ev_push(&GL);
	ev_t *e = &GL.v[gi];
	e->kind = K_X;
	e->cat = "kernel";
	e->name = k->name;
	e->pid = GPU_PID;
	e->tid = KSTREAM;
	e->ts = kts;
	e->dur = dur;
	e->aoff = (uint32_t)ARENA.n;
	if (gx < 1)
		gx = 1;
	if (gy < 1)
		gy = 1;
	int64_t blocks = gx * gy;
	buf_t *a = &ARENA;
	BL(a, "\"External id\": ");
	bi(a, OEXT[ODEPTH - 1]);
	BL(a,
	   ",\n      \"queued\": 0, \"device\": 0, \"context\": 1,\n      \"stream\": 7, \"correlation\": ");
	bi(a, corr);
	BL(a, ",\n      \"registers per thread\": ");
	bi(a, k->regs);
	BL(a, ",\n      \"shared memory\": ");
	bi(a, k->smem);
	BL(a, ",\n      \"blocks per SM\": ");
	bfix(a, (uint64_t)(blocks * 1000000 / NUM_SMS), 6);
	BL(a, ",\n      \"warps per SM\": ");
	bfix(a, (uint64_t)(blocks * (k->block / 32) * 1000000 / NUM_SMS), 6);
	BL(a, ",\n      \"grid\": [");
	bi(a, gx);
	BL(a, ", ");
	bi(a, gy);
	BL(a, ", 1],\n      \"block\": [");
	bi(a, k->block);
	BL(a, ", 1, 1],\n      \"est. achieved occupancy %\": ");
	bi(a, k->occ);
	e->alen = (uint32_t)(ARENA.n - e->aoff);
	flow(&GL, K_F, kts, corr, GPU_PID, KSTREAM);

	rt_end(ri, rr(2200, 6500));
}

static void launch_ew(int kt, int64_t elems, int64_t bytes_per_elem)
{
	int64_t per = KT[kt].block * 4;
	launch(kt, ew_ns(elems * bytes_per_elem), (elems + per - 1) / per, 1);
}

static void launch_gemm(int kt, int64_t m, int64_t n, int64_t k)
{
	launch(kt, gemm_ns(m, n, k), (n + 127) / 128, (m + 127) / 128);
}

/* cudaMemcpyAsync + gpu_memcpy on stream 20 */
static void memcpy_ev(int htod, int64_t bytes)
{
	int64_t corr = ++S.corr;
	size_t ri = rt_begin("cudaMemcpyAsync", 41, corr);
	int64_t lts = S.cur;
	flow(&HL, K_S, lts, corr, HOST_PID, HOST_TID);

	int64_t dur;
	if (htod) {
		int64_t bw_mbps = rr(18000, 24500); /* MB/s == bytes/us */
		dur = bytes * 1000 / bw_mbps;
		dur += rr(1200, 2500);
	} else {
		dur = rr(1300, 2600);
	}
	int64_t copy_lat = rr(2000, 5000);
	int64_t queue_gap = rr(500, 1500);
	int64_t mts = max64(lts + copy_lat, S.s20_end + queue_gap);
	if (!htod)
		mts = max64(mts, S.s7_end + rr(800, 1600)); /* waits for the compute stream */
	S.s20_end = mts + dur;
	note_end(S.s20_end);

	size_t gi = ev_push(&GL);
	ev_t *e = &GL.v[gi];
	e->kind = K_X;
	e->cat = "gpu_memcpy";
	e->name = htod ? "Memcpy HtoD (Pinned -> Device)" : "Memcpy DtoH (Device -> Pageable)";
	e->pid = GPU_PID;
	e->tid = MSTREAM;
	e->ts = mts;
	e->dur = dur;
	e->aoff = (uint32_t)ARENA.n;
	buf_t *a = &ARENA;
	BL(a, "\"External id\": ");
	bi(a, OEXT[ODEPTH - 1]);
	BL(a, ",\n      \"device\": 0, \"context\": 1,\n      \"stream\": 20, \"correlation\": ");
	bi(a, corr);
	BL(a, ",\n      \"bytes\": ");
	bi(a, bytes);
	BL(a, ", \"memory bandwidth (GB/s)\": ");
	/* GB/s == bytes/ns; 6 decimals */
	bfix(a, (uint64_t)(bytes * 1000000 / dur), 6);
	e->alen = (uint32_t)(ARENA.n - e->aoff);
	flow(&GL, K_F, mts, corr, GPU_PID, MSTREAM);

	rt_end(ri, rr(1500, 4000));
}

static void sync_ev(void)
{
	int64_t corr = ++S.corr;
	size_t ri = rt_begin("cudaStreamSynchronize", 131, corr);
	int64_t until = max64(max64(S.cur, S.s7_end), S.s20_end) + rr(1500, 4000);
	rt_end(ri, until - S.cur);
}

/* ------------------------------------------------------------------------ */
/* the model                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct {
	int64_t ln, l1, relu, drop, l2, add;
} lseq_t;

static lseq_t LSEQ[64];
static int64_t LOSS_SEQ[2];

static void ins_empty(ins_t *x, int64_t a, int64_t b, int two)
{
	x->n = 0;
	SL(x, two ? 2 : 1, a, b);
	SC(x, "Scalar", "6");
	SC(x, "Scalar", "0");
	SC(x, "Device", "cuda:0");
	SC(x, "Scalar", "False");
	SC(x, "", "");
}

static void op_empty_act(int64_t last)
{
	ins_t x;
	x.n = 0;
	SL3(&x, 3, C.b, C.s, last);
	SC(&x, "Scalar", "6");
	SC(&x, "Scalar", "0");
	SC(&x, "Device", "cuda:0");
	SC(&x, "Scalar", "False");
	SC(&x, "", "");
	EMPTY_SZ = C.B * last * 4;
	cpu("aten::empty", &x);
	op_end();
}

static void op_t(int64_t r, int64_t c)
{
	ins_t x;
	x.n = 0;
	T2(&x, r, c);
	cpu("aten::t", &x);
	x.n = 0;
	T2(&x, r, c);
	SC(&x, "Scalar", "0");
	SC(&x, "Scalar", "1");
	cpu("aten::transpose", &x);
	x.n = 0;
	T2(&x, r, c);
	SL(&x, 2, c, r);
	SL(&x, 2, 1, c);
	SC(&x, "", "");
	cpu("aten::as_strided", &x);
	op_end();
	op_end();
	op_end();
}

static void linear_fwd(int64_t in, int64_t out, int64_t *seq)
{
	ins_t x;
	x.n = 0;
	TA(&x, in);
	T2(&x, out, in);
	T1(&x, "float", out);
	*seq = S.seq;
	cpuf("aten::linear", &x);
	op_t(out, in);
	x.n = 0;
	TA(&x, in);
	SL(&x, 2, C.B, in);
	cpuf("aten::view", &x);
	op_end();
	x.n = 0;
	T1(&x, "float", out);
	T2(&x, C.B, in);
	T2t(&x, in, out);
	SC(&x, "Scalar", "1");
	SC(&x, "Scalar", "1");
	cpuf("aten::addmm", &x);
	launch_gemm(KT_GEMM_TN, C.B, out, in);
	op_end();
	x.n = 0;
	T2(&x, C.B, out);
	SL3(&x, 3, C.b, C.s, out);
	cpuf("aten::view", &x);
	op_end();
	op_end();
}

static void layer_fwd(int l)
{
	ins_t x;
	lseq_t *q = &LSEQ[l];

	/* layer norm */
	x.n = 0;
	TA(&x, C.H);
	SL(&x, 1, C.H, 0);
	T1(&x, "float", C.H);
	T1(&x, "float", C.H);
	SC(&x, "Scalar", "1e-05");
	SC(&x, "Scalar", "True");
	q->ln = S.seq;
	cpuf("aten::layer_norm", &x);
	x.n--;
	cpuf("aten::native_layer_norm", &x);
	op_empty_act(C.H);
	op_empty_act(1);
	launch_ew(KT_LN, C.B * C.H, 8);
	op_end();
	op_end();

	linear_fwd(C.H, C.FF, &q->l1);

	/* relu -> clamp_min */
	x.n = 0;
	TA(&x, C.FF);
	q->relu = S.seq;
	cpuf("aten::relu", &x);
	SC(&x, "Scalar", "0");
	cpuf("aten::clamp_min", &x);
	launch_ew(KT_RELU, C.B * C.FF, 8);
	op_end();
	op_end();

	if (C.dropout) {
		x.n = 0;
		TA(&x, C.FF);
		SC(&x, "Scalar", "0.1");
		SC(&x, "Scalar", "True");
		q->drop = S.seq;
		cpuf("aten::dropout", &x);
		cpuf("aten::native_dropout", &x);
		x.n = 0;
		TA(&x, C.FF);
		SC(&x, "Scalar", "11");
		SC(&x, "", "");
		SC(&x, "", "");
		SC(&x, "Scalar", "False");
		SC(&x, "Scalar", "0");
		cpu("aten::empty_like", &x);
		op_end();
		launch_ew(KT_DROPOUT, C.B * C.FF, 9);
		op_end();
		op_end();
	}

	linear_fwd(C.FF, C.H, &q->l2);

	/* residual */
	x.n = 0;
	TA(&x, C.H);
	TA(&x, C.H);
	SC(&x, "Scalar", "1");
	q->add = S.seq;
	cpuf("aten::add_", &x);
	launch_ew(KT_ADD, C.B * C.H, 12);
	op_end();
}

static void accumulate_grad(int64_t a, int64_t b)
{
	ins_t x;
	x.n = 0;
	if (b)
		T2(&x, a, b);
	else
		T1(&x, "float", a);
	cpu("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", &x);
	cpu("torch::autograd::AccumulateGrad", &x);
	cpu("aten::detach", &x);
	cpu("detach", &x);
	op_end();
	op_end();
	op_end();
	op_end();
}

static void addmm_bwd(int64_t in, int64_t out, int64_t seq)
{
	ins_t x;
	x.n = 0;
	TA(&x, out);
	cpub("autograd::engine::evaluate_function: ViewBackward0", &x, seq + 3);
	cpub("ViewBackward0", &x, seq + 3);
	SL(&x, 2, C.B, out);
	cpu("aten::reshape", &x);
	cpu("aten::view", &x);
	op_end();
	op_end();
	op_end();
	op_end();
	x.n = 0;
	T2(&x, C.B, out);
	cpub("autograd::engine::evaluate_function: AddmmBackward0", &x, seq + 2);
	cpub("AddmmBackward0", &x, seq + 2);
	x.n = 0;
	T2(&x, C.B, out);
	T2(&x, out, in);
	cpu("aten::mm", &x);
	launch_gemm(KT_GEMM_NN, C.B, in, out);
	op_end();
	op_t(C.B, out);
	x.n = 0;
	T2t(&x, out, C.B);
	T2(&x, C.B, in);
	cpu("aten::mm", &x);
	launch_gemm(KT_GEMM_NT, out, in, C.B);
	op_end();
	x.n = 0;
	T2(&x, C.B, out);
	SL(&x, 1, 0, 0);
	SC(&x, "Scalar", "True");
	SC(&x, "", "");
	cpu("aten::sum", &x);
	launch(KT_SUM, ew_ns(C.B * out * 4), out / 4 > 0 ? out / 4 : 1, 1);
	op_end();
	op_end();
	op_end();
	x.n = 0;
	T2(&x, in, out);
	cpub("autograd::engine::evaluate_function: TBackward0", &x, seq);
	cpub("TBackward0", &x, seq);
	op_t(in, out);
	op_end();
	op_end();
	accumulate_grad(out, in);
	accumulate_grad(out, 0);
}

static void layer_bwd(int l)
{
	ins_t x;
	lseq_t *q = &LSEQ[l];

	x.n = 0;
	TA(&x, C.H);
	cpub("autograd::engine::evaluate_function: AddBackward0", &x, q->add);
	cpub("AddBackward0", &x, q->add);
	op_end();
	op_end();

	addmm_bwd(C.FF, C.H, q->l2);

	if (C.dropout) {
		x.n = 0;
		TA(&x, C.FF);
		cpub("autograd::engine::evaluate_function: NativeDropoutBackward0", &x, q->drop);
		cpub("NativeDropoutBackward0", &x, q->drop);
		x.n = 0;
		TA(&x, C.FF);
		TA(&x, C.FF);
		SC(&x, "Scalar", "1.1111111111111112");
		cpu("aten::native_dropout_backward", &x);
		x.n = 0;
		TA(&x, C.FF);
		TA(&x, C.FF);
		cpu("aten::mul", &x);
		launch_ew(KT_MUL, C.B * C.FF, 9);
		op_end();
		op_end();
		op_end();
		op_end();
	}

	x.n = 0;
	TA(&x, C.FF);
	cpub("autograd::engine::evaluate_function: ReluBackward0", &x, q->relu);
	cpub("ReluBackward0", &x, q->relu);
	TA(&x, C.FF);
	SC(&x, "Scalar", "0");
	cpu("aten::threshold_backward", &x);
	launch_ew(KT_THRESH, C.B * C.FF, 12);
	op_end();
	op_end();
	op_end();

	addmm_bwd(C.H, C.FF, q->l1);

	x.n = 0;
	TA(&x, C.H);
	cpub("autograd::engine::evaluate_function: NativeLayerNormBackward0", &x, q->ln);
	cpub("NativeLayerNormBackward0", &x, q->ln);
	x.n = 0;
	TA(&x, C.H);
	TA(&x, C.H);
	SL(&x, 1, C.H, 0);
	TA(&x, 1);
	TA(&x, 1);
	T1(&x, "float", C.H);
	T1(&x, "float", C.H);
	SC(&x, "ScalarList", "[True, True, True]");
	cpu("aten::native_layer_norm_backward", &x);
	x.n = 0;
	TA(&x, C.H);
	SC(&x, "", "");
	SC(&x, "", "");
	SC(&x, "", "");
	SC(&x, "", "");
	SC(&x, "Scalar", "0");
	cpu("aten::empty_like", &x);
	op_end();
	launch_ew(KT_LN_BWD_IN, C.B * C.H, 12);
	launch(KT_LN_BWD_GB, ew_ns(C.B * C.H * 8), (C.H + 31) / 32, 1);
	op_end();
	op_end();
	op_end();
	accumulate_grad(C.H, 0);
	accumulate_grad(C.H, 0);
}

static void loss_fwd(void)
{
	ins_t x;
	x.n = 0;
	T2(&x, C.B, C.H);
	T1(&x, "long int", C.B);
	SC(&x, "", "");
	SC(&x, "Scalar", "1");
	SC(&x, "Scalar", "-100");
	SC(&x, "Scalar", "0.0");
	LOSS_SEQ[0] = S.seq;
	cpuf("aten::cross_entropy_loss", &x);
	x.n = 0;
	T2(&x, C.B, C.H);
	SC(&x, "Scalar", "1");
	SC(&x, "", "");
	cpuf("aten::log_softmax", &x);
	x.n--;
	SC(&x, "Scalar", "False");
	cpuf("aten::_log_softmax", &x);
	launch(KT_LSM, ew_ns(C.B * C.H * 8), C.B, 1);
	op_end();
	op_end();
	x.n = 0;
	T2(&x, C.B, C.H);
	T1(&x, "long int", C.B);
	SC(&x, "", "");
	SC(&x, "Scalar", "1");
	SC(&x, "Scalar", "-100");
	LOSS_SEQ[1] = S.seq;
	cpuf("aten::nll_loss_nd", &x);
	cpuf("aten::nll_loss", &x);
	cpuf("aten::nll_loss_forward", &x);
	launch(KT_NLL, ew_ns(C.B * 8), 1, 1);
	op_end();
	op_end();
	op_end();
	op_end();
}

static void loss_bwd(void)
{
	ins_t x;
	x.n = 0;
	T0(&x, "float");
	cpu("autograd::engine::evaluate_function: torch::autograd::GraphRoot", &x);
	cpu("torch::autograd::GraphRoot", &x);
	op_end();
	op_end();
	cpub("autograd::engine::evaluate_function: NllLossBackward0", &x, LOSS_SEQ[1]);
	cpub("NllLossBackward0", &x, LOSS_SEQ[1]);
	x.n = 0;
	T0(&x, "float");
	T2(&x, C.B, C.H);
	T1(&x, "long int", C.B);
	SC(&x, "", "");
	SC(&x, "Scalar", "1");
	SC(&x, "Scalar", "-100");
	T0(&x, "float");
	cpu("aten::nll_loss_backward", &x);
	launch(KT_FILL, ew_ns(C.B * C.H * 4), C.B * C.H / 512, 1);
	launch(KT_NLL_BWD, ew_ns(C.B * 8), 1, 1);
	op_end();
	op_end();
	op_end();
	x.n = 0;
	T2(&x, C.B, C.H);
	cpub("autograd::engine::evaluate_function: LogSoftmaxBackward0", &x, LOSS_SEQ[0] + 1);
	cpub("LogSoftmaxBackward0", &x, LOSS_SEQ[0] + 1);
	T2(&x, C.B, C.H);
	SC(&x, "Scalar", "1");
	SC(&x, "Scalar", "6");
	cpu("aten::_log_softmax_backward_data", &x);
	launch(KT_LSM_BWD, ew_ns(C.B * C.H * 12), C.B, 1);
	op_end();
	op_end();
	op_end();
}

static void opt_group(void)
{
	ins_t x;
	x.n = 0;
	TLP(&x);
	TLP(&x);
	SC(&x, "Scalar", "0.09999999999999998");
	cpu("aten::_foreach_lerp_", &x);
	launch(KT_FE_LERP, ew_ns((C.FF * C.H * 2 + C.FF + 3 * C.H) * 8), 320, 1);
	op_end();
	x.n = 0;
	TLP(&x);
	SC(&x, "Scalar", "0.999");
	cpu("aten::_foreach_mul_", &x);
	launch(KT_FE_MUL, ew_ns((C.FF * C.H * 2 + C.FF + 3 * C.H) * 8), 320, 1);
	op_end();
	x.n = 0;
	TLP(&x);
	TLP(&x);
	TLP(&x);
	SC(&x, "Scalar", "0.0010000000000000009");
	cpu("aten::_foreach_addcmul_", &x);
	launch(KT_FE_ADDCMUL, ew_ns((C.FF * C.H * 2 + C.FF + 3 * C.H) * 12), 320, 1);
	op_end();
	x.n = 0;
	TLP(&x);
	cpu("aten::_foreach_sqrt", &x);
	x.n = 0;
	ins_empty(&x, C.FF, C.H, 1);
	cpu("aten::empty", &x);
	op_end();
	launch(KT_FE_SQRT, ew_ns((C.FF * C.H * 2 + C.FF + 3 * C.H) * 8), 320, 1);
	op_end();
	x.n = 0;
	TLP(&x);
	TLP(&x);
	TLP(&x);
	SC(&x, "Scalar", "-0.001");
	cpu("aten::_foreach_addcdiv_", &x);
	launch(KT_FE_ADDCDIV, ew_ns((C.FF * C.H * 2 + C.FF + 3 * C.H) * 12), 320, 1);
	op_end();
}

static void input_copy(int64_t d0, int64_t d1, int is_long)
{
	ins_t x;
	x.n = 0;
	if (d1)
		T2(&x, d0, d1);
	else
		T1(&x, is_long ? "long int" : "float", d0);
	SC(&x, "Device", "cuda:0");
	SC(&x, "Scalar", "True");
	SC(&x, "Scalar", "False");
	SC(&x, "", "");
	cpu("aten::to", &x);
	x.n = 0;
	if (d1)
		T2(&x, d0, d1);
	else
		T1(&x, is_long ? "long int" : "float", d0);
	SC(&x, "", "");
	SC(&x, "", "");
	SC(&x, "Device", "cuda:0");
	SC(&x, "", "");
	SC(&x, "Scalar", "True");
	cpu("aten::_to_copy", &x);
	x.n = 0;
	SL(&x, d1 ? 2 : 1, d0, d1);
	SL(&x, d1 ? 2 : 1, d1 ? d1 : 1, 1);
	SC(&x, "Scalar", is_long ? "4" : "6");
	SC(&x, "Scalar", "0");
	SC(&x, "Device", "cuda:0");
	SC(&x, "Scalar", "False");
	cpu("aten::empty_strided", &x);
	mem_alloc(d0 * (d1 ? d1 : 1) * (is_long ? 8 : 4), 1);
	op_end();
	x.n = 0;
	if (d1) {
		T2(&x, d0, d1);
		T2(&x, d0, d1);
	} else {
		T1(&x, is_long ? "long int" : "float", d0);
		T1(&x, is_long ? "long int" : "float", d0);
	}
	SC(&x, "Scalar", "True");
	cpu("aten::copy_", &x);
	memcpy_ev(1, d0 * (d1 ? d1 : 1) * (is_long ? 8 : 4));
	op_end();
	op_end();
	op_end();
}

/* ------------------------------------------------------------------------ */
/* serialization                                                             */
/* ------------------------------------------------------------------------ */

static uint64_t NEVENTS_STEP;

static void ser_ev(buf_t *b, const ev_t *e)
{
	BL(b, ",\n  {\n    ");
	switch (e->kind) {
	case K_X:
		BL(b, "\"ph\": \"X\", \"cat\": \"");
		bs(b, e->cat);
		BL(b, "\", \"name\": \"");
		bs(b, e->name);
		BL(b, "\", \"pid\": ");
		bi(b, e->pid);
		BL(b, ", \"tid\": ");
		bi(b, e->tid);
		BL(b, ",\n    \"ts\": ");
		bts(b, e->ts);
		BL(b, ", \"dur\": ");
		bts(b, e->dur);
		BL(b, ",\n    \"args\": {\n      ");
		bput(b, ARENA.p + e->aoff, e->alen);
		BL(b, "\n    }\n  }");
		break;
	case K_S:
	case K_F:
		BL(b, "\"ph\": \"");
		bc(b, e->kind == K_S ? 's' : 'f');
		BL(b, "\", \"id\": ");
		bi(b, e->id);
		BL(b, ", \"pid\": ");
		bi(b, e->pid);
		BL(b, ", \"tid\": ");
		bi(b, e->tid);
		BL(b, ", \"ts\": ");
		bts(b, e->ts);
		if (e->kind == K_S)
			BL(b, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  }");
		else
			BL(b, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  }");
		break;
	case K_MEM:
		BL(b,
		   "\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n"
		   "    \"pid\": 12345, \"tid\": 12345,\n    \"ts\": ");
		bts(b, e->ts);
		BL(b, ",\n    \"args\": {\n      ");
		bput(b, ARENA.p + e->aoff, e->alen);
		BL(b, "\n    }\n  }");
		break;
	case K_CTR:
		BL(b,
		   "\"ph\": \"C\", \"name\": \"queue_depth\", \"pid\": 12345, \"tid\": 12345, \"ts\": ");
		bts(b, e->ts);
		BL(b, ",\n    \"args\": {\n      \"value\": ");
		bi(b, e->id);
		BL(b, "\n    }\n  }");
		break;
	default:
		break;
	}
}

/* ------------------------------------------------------------------------ */
/* one training step                                                         */
/* ------------------------------------------------------------------------ */

static void gen_step(int L, int K)
{
	HL.n = 0;
	GL.n = 0;
	ARENA.n = 0;
	SB.n = 0;
	ODEPTH = 0;
	S.phase = 0;

	S.cur += rr(15000, 90000);
	{
		char *d = STEPNAME;
		memcpy(d, "ProfilerStep#", 13);
		d = cu(d + 13, (uint64_t)S.step);
		*d = 0;
	}
	ua_begin(STEPNAME);

	/* dataloader thread; the host waits for the batch */
	{
		size_t i = ev_push(&HL);
		ev_t *e = &HL.v[i];
		e->kind = K_X;
		e->cat = "user_annotation";
		e->name = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
		e->pid = HOST_PID;
		e->tid = DL_TID;
		e->ts = max64(S.cur + rr(800, 3000), S.dl_end + 1000);
		e->dur = rr(40000, 420000);
		S.dl_end = e->ts + e->dur;
		e->aoff = (uint32_t)ARENA.n;
		BL(&ARENA, "\"External id\": ");
		bi(&ARENA, ++S.ext);
		BL(&ARENA, ",\"Record function id\": 0, \"Ev Idx\": ");
		bi(&ARENA, S.evidx++);
		e->alen = (uint32_t)(ARENA.n - e->aoff);
		S.cur = S.dl_end + rr(1000, 6000);
	}

	ua_begin("Optimizer.zero_grad#AdamW.zero_grad");
	op_end();

	if (rnd(100) < 65)
		input_copy(C.B, C.H, 0);
	if (rnd(100) < 40)
		input_copy(C.B, 0, 1);

	S.phase = 1;
	ua_begin("## forward ##");
	for (int l = 0; l < L; l++)
		layer_fwd(l);
	loss_fwd();
	op_end();

	S.phase = 2;
	ua_begin("## backward ##");
	loss_bwd();
	for (int l = L - 1; l >= 0; l--)
		layer_bwd(l);
	op_end();

	S.phase = 3;
	ua_begin("## optimizer ##");
	ua_begin("Optimizer.step#AdamW.step");
	for (int l = 0; l < K; l++)
		opt_group();
	/* optimizer state growth: never freed, gives a slow upward drift */
	mem_alloc(rr(64 * 1024, 512 * 1024), 0);
	/* release the step's remaining temporaries */
	while (S.nlive > 0)
		mem_free();
	op_end();
	op_end();

	/* loss.item(): DtoH copy + stream sync */
	S.phase = 0;
	{
		ins_t x;
		x.n = 0;
		T0(&x, "float");
		cpu("aten::item", &x);
		cpu("aten::_local_scalar_dense", &x);
		memcpy_ev(0, 4);
		sync_ev();
		op_end();
		op_end();
	}
	op_end(); /* ProfilerStep */
	S.step++;

	for (size_t i = 0; i < HL.n; i++)
		ser_ev(&SB, &HL.v[i]);
	for (size_t i = 0; i < GL.n; i++)
		ser_ev(&SB, &GL.v[i]);
	NEVENTS_STEP = HL.n + GL.n;
}

/* ------------------------------------------------------------------------ */
/* output                                                                    */
/* ------------------------------------------------------------------------ */

static FILE *OUT;
static const char *OUTNAME = "<stdout>";
static uint64_t WRITTEN;
static char IOBUF[1 << 20];

static void out_write(const buf_t *b)
{
	if (b->n && fwrite(b->p, 1, b->n, OUT) != b->n) {
		fprintf(stderr, "gen_trace: write error on %s: %s\n", OUTNAME, strerror(errno));
		exit(1);
	}
	WRITTEN += b->n;
}

static const char HEADER[] =
	"{\n"
	"  \"schemaVersion\": 1,\n"
	"  \"deviceProperties\": [\n"
	"    {\n"
	"      \"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 84942979072,\n"
	"      \"computeMajor\": 9, \"computeMinor\": 0,\n"
	"      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
	"      \"regsPerBlock\": 65536, \"regsPerMultiprocessor\": 65536, \"warpSize\": 32,\n"
	"      \"sharedMemPerBlock\": 49152, \"sharedMemPerMultiprocessor\": 233472,\n"
	"      \"numSms\": 132, \"sharedMemPerBlockOptin\": 232448\n"
	"    }\n"
	"  ],\n"
	"  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8, \"pg_count\": 1, "
	"\"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", \"backend_config\": \"cuda:nccl\", "
	"\"pg_size\": 8, \"ranks\": [0, 1, 2, 3, 4, 5, 6, 7]}], \"nccl_version\": \"2.21.5\"},\n"
	"  \"record_shapes\": 1,\n"
	"  \"with_stack\": 0,\n"
	"  \"profile_memory\": 1,\n"
	"  \"displayTimeUnit\": \"ms\",\n"
	"  \"baseTimeNanoseconds\": 1732000000000000000,\n"
	"  \"traceEvents\": [\n";

static uint64_t NMETA;

static void meta(buf_t *b, const char *name, int pid, int tid, const char *akey, const char *sval,
		 int64_t ival)
{
	if (NMETA++)
		BL(b, ",\n");
	BL(b, "  {\n    \"name\": \"");
	bs(b, name);
	BL(b, "\", \"ph\": \"M\", \"ts\": 0.000, \"pid\": ");
	bi(b, pid);
	BL(b, ", \"tid\": ");
	bi(b, tid);
	BL(b, ",\n    \"args\": {\n      \"");
	bs(b, akey);
	BL(b, "\": ");
	if (sval) {
		bc(b, '"');
		bs(b, sval);
		bc(b, '"');
	} else {
		bi(b, ival);
	}
	BL(b, "\n    }\n  }");
}

static void write_header(buf_t *b)
{
	BL(b, HEADER);
	meta(b, "process_name", HOST_PID, 0, "name", "python3", 0);
	meta(b, "process_labels", HOST_PID, 0, "labels", "CPU", 0);
	meta(b, "process_sort_index", HOST_PID, 0, "sort_index", NULL, HOST_PID);
	meta(b, "process_name", GPU_PID, 0, "name", "python3", 0);
	meta(b, "process_labels", GPU_PID, 0, "labels", "CUDA:0", 0);
	meta(b, "process_sort_index", GPU_PID, 0, "sort_index", NULL, 0x1000000);
	meta(b, "thread_name", HOST_PID, HOST_TID, "name", "thread 12345 (python3)", 0);
	meta(b, "thread_sort_index", HOST_PID, HOST_TID, "sort_index", NULL, HOST_TID);
	meta(b, "thread_name", HOST_PID, DL_TID, "name", "thread 12400 (pt_data_worker)", 0);
	meta(b, "thread_sort_index", HOST_PID, DL_TID, "sort_index", NULL, DL_TID);
	meta(b, "thread_name", GPU_PID, KSTREAM, "name", "stream 7", 0);
	meta(b, "thread_sort_index", GPU_PID, KSTREAM, "sort_index", NULL, KSTREAM);
	meta(b, "thread_name", GPU_PID, MSTREAM, "name", "stream 20 ", 0);
	meta(b, "thread_sort_index", GPU_PID, MSTREAM, "sort_index", NULL, MSTREAM);
}

static void write_trailer(buf_t *b)
{
	BL(b, ",\n  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
	      "    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
	bts(b, S.last_ts + 1000);
	BL(b, "\n  }\n],\n  \"traceName\": \"/tmp/trace_rank0.json\"\n}\n");
}

#define TRAILER_EST 150

static void usage(void)
{
	fputs("usage: gen_trace SIZE_MB [SEED] [-o FILE]\n"
	      "  Writes a deterministic Kineto-like Chrome trace of about SIZE_MB * 10^6 bytes.\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *pos[2] = { NULL, NULL };
	int npos = 0;
	const char *ofile = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0) {
			if (i + 1 >= argc || ofile)
				usage();
			ofile = argv[++i];
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage();
		} else if (argv[i][0] == '-' && argv[i][1] != 0 &&
			   !(argv[i][1] >= '0' && argv[i][1] <= '9')) {
			fprintf(stderr, "gen_trace: unknown option '%s'\n", argv[i]);
			usage();
		} else {
			if (npos >= 2)
				usage();
			pos[npos++] = argv[i];
		}
	}
	if (npos < 1)
		usage();

	char *end = NULL;
	errno = 0;
	double mb = strtod(pos[0], &end);
	if (errno || end == pos[0] || *end || !(mb > 0.0) || mb > 1e7) {
		fprintf(stderr, "gen_trace: bad SIZE_MB '%s'\n", pos[0]);
		usage();
	}
	uint64_t seed = 1;
	if (pos[1]) {
		errno = 0;
		end = NULL;
		unsigned long long sv = strtoull(pos[1], &end, 0);
		if (errno || end == pos[1] || *end || pos[1][0] == '-') {
			fprintf(stderr, "gen_trace: bad SEED '%s'\n", pos[1]);
			usage();
		}
		seed = (uint64_t)sv;
	}
	uint64_t target = (uint64_t)(mb * 1e6 + 0.5);

	if (ofile) {
		OUT = fopen(ofile, "wb");
		if (!OUT) {
			fprintf(stderr, "gen_trace: cannot open %s: %s\n", ofile, strerror(errno));
			return 1;
		}
		OUTNAME = ofile;
	} else {
		OUT = stdout;
	}
	if (setvbuf(OUT, IOBUF, _IOFBF, sizeof IOBUF) != 0) {
		fputs("gen_trace: setvbuf failed\n", stderr);
		return 1;
	}

	/* run configuration (fixed model for the whole trace) */
	memset(&S, 0, sizeof S);
	S.rng = seed ^ 0x5DEECE66Dull;
	(void)sm64();
	{
		static const int64_t batch_opts[] = { 2, 4, 8 };
		static const int64_t ss[] = { 256, 512, 1024 };
		static const int64_t Hs[] = { 768, 1024, 1536, 2048 };
		C.b = batch_opts[rnd(3)];
		C.s = ss[rnd(3)];
		C.B = C.b * C.s;
		C.H = Hs[rnd(4)];
		C.FF = 4 * C.H;
		C.D = (int)rr(4, 8);
		C.dropout = rnd(2) == 0;
	}
	S.ext = rr(1, 40);
	S.corr = rr(1, 200);
	S.seq = rr(100, 900);
	S.cur = rr(500000, 2000000);
	S.alloc = (C.FF * C.H * 2 + C.FF + 3 * C.H) * 4 * C.D * 3 + rr(1, 4096) * 512;
	S.reserved = (S.alloc + TWO_MIB - 1) / TWO_MIB * TWO_MIB + 64 * TWO_MIB;

	buf_t hb = { NULL, 0, 0 };
	write_header(&hb);
	out_write(&hb);

	uint64_t nevents = NMETA + 1; /* + Record Window End */
	uint64_t nsteps = 0;
	static uint64_t shape_sz[64][64];
	for (;;) {
		SNAP = S;
		gen_step(C.D, C.D);
		if (WRITTEN + 2 * SB.n + TRAILER_EST <= target) {
			out_write(&SB);
			nevents += NEVENTS_STEP;
			nsteps++;
			continue;
		}
		/* Near the end: at most two more steps.  Measure every final-step
         * shape (layers l, optimizer parameter groups k) from the current
         * state, then pick "stop", one step, or two steps (using the
         * measured sizes as estimates for the second one) whichever lands
         * closest to the target.  Only the first chosen step is committed;
         * the next round re-measures exactly. */
		int64_t rem = (int64_t)target - (int64_t)WRITTEN - TRAILER_EST;
		int64_t best_err = nsteps > 0 ? (rem < 0 ? -rem : rem) : INT64_MAX;
		int bl = 0, bk = 0, two = 0;
		for (int l = 1; l <= C.D; l++) {
			for (int k = 1; k <= l; k++) {
				S = SNAP;
				gen_step(l, k);
				shape_sz[l][k] = SB.n;
			}
		}
		for (int l = 1; l <= C.D; l++) {
			for (int k = 1; k <= l; k++) {
				int64_t a = (int64_t)shape_sz[l][k];
				int64_t err = rem - a;
				if (err < 0)
					err = -err;
				if (err < best_err) {
					best_err = err;
					bl = l;
					bk = k;
					two = 0;
				}
				for (int l2 = 1; l2 <= C.D; l2++) {
					for (int k2 = 1; k2 <= l2; k2++) {
						err = rem - a - (int64_t)shape_sz[l2][k2];
						if (err < 0)
							err = -err;
						if (err < best_err) {
							best_err = err;
							bl = l;
							bk = k;
							two = 1;
						}
					}
				}
			}
		}
		S = SNAP;
		if (bl == 0)
			break;
		gen_step(bl, bk);
		out_write(&SB);
		nevents += NEVENTS_STEP;
		nsteps++;
		if (!two)
			break;
	}

	hb.n = 0;
	write_trailer(&hb);
	out_write(&hb);

	if (fflush(OUT) != 0 || ferror(OUT)) {
		fprintf(stderr, "gen_trace: write error on %s: %s\n", OUTNAME, strerror(errno));
		return 1;
	}
	if (fclose(OUT) != 0) {
		fprintf(stderr, "gen_trace: error closing %s: %s\n", OUTNAME, strerror(errno));
		return 1;
	}
	free(hb.p);
	free(SB.p);
	free(ARENA.p);
	free(HL.v);
	free(GL.v);
	fprintf(stderr, "gen_trace: wrote %llu bytes, %llu events, %llu steps\n",
		(unsigned long long)WRITTEN, (unsigned long long)nevents,
		(unsigned long long)nsteps);
	return 0;
}
