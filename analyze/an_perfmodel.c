/*
 * an_perfmodel.c - "perf_model": op categories, FLOPs, bytes and the
 * roofline (issue 28; TraceLens's perf model and ops_summary_by_category).
 *
 * Scope: the device activities (kernels, memcpys, memsets) linked to a CPU
 * op: the activity's "correlation" names a runtime call, and the call's
 * nearest op ancestor (the store's nesting) is the op that launched it
 * (TraceLens's "direct kernel time", include_unlinked_kernels=False). Each
 * op instance with at least one such activity is counted once, with the
 * sum of its activities' durations.
 *
 * Each op gets a category (profreport's, category_of) and TraceLens's
 * (tl_category_of, to compare with its reports); FLOPs and bytes come from
 * its "Input Dims", "Input type" and "Concrete Inputs" args (docs/analysis.md
 * states each formula). Achieved TFLOP/s and TB/s = FLOPs or bytes over the
 * device time; the peaks come from a table of accelerators keyed by the
 * name of the trace's first deviceProperties entry.
 *
 * MEMORY: one map entry per runtime call (correlation -> call parent), 32
 * bytes per linked activity until the scan ends, one entry per op with
 * device time, per distinct (name, first kernel, shapes) and per op group.
 * COST: one read of the shared GPU pass's rows (gpuscan.h: no scan of the
 * span table of its own; it runs before gpu, which frees them), one
 * primary-key walk from each distinct call parent that is not an op up to
 * its op (memoised), one read of each op with device time; shapes are
 * parsed once per distinct key (docs/performance.md, "perf_model").
 */
#include <ctype.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/gpuscan.h"
#include "base/imap.h"
#include "analyze/kclass.h"
#include "analyze/model.h"
#include "analyze/opkern.h"
#include "analyze/opview.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

#define PM_GROUPS 200 /* op groups listed (largest device time first) */

enum pm_cat {
	PC_GEMM,
	PC_CONV,
	PC_ATTN,
	PC_ELEM,
	PC_RED,
	PC_NORM,
	PC_COMM,
	PC_MEM,
	PC_OTHER,
	PC_N
};
static const char *const cat_names[PC_N] = { "GEMM",	      "convolution", "attention",
					     "elementwise",   "reduction",   "normalization",
					     "communication", "memory copy", "other" };

enum tl_cat {
	TL_GEMM,
	TL_CONV,
	TL_SDPA,
	TL_ELEM,
	TL_RED,
	TL_NORM,
	TL_OTHER,
	TL_N
};
static const char *const tl_names[TL_N] = { "GEMM",   "CONV_fwd", "SDPA_fwd", "elementwise",
					    "reduce", "NORM_fwd", "other" };

/* ---- the peaks ---- */
enum pm_dtype {
	DT_FP64,
	DT_FP32,
	DT_TF32,
	DT_BF16,
	DT_FP16,
	DT_FP8,
	DT_INT8,
	DT_N
};
static const char *const dt_names[DT_N] = { "fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8" };

/* Dense peaks (no sparsity) from the vendors' data sheets, TFLOP/s (TOP/s for int8); 0: the
 * device has no such unit. fp64 and fp32 are the matrix/vector peaks a GEMM can reach
 * (FP64 Tensor Core on NVIDIA, matrix cores on AMD); tf32, bf16, fp16, fp8, int8 the Tensor
 * Core / matrix core peaks. Memory: HBM (GDDR6 on L4) bandwidth, TB/s. */
static const struct device {
	const char *key, *alt, *label; /* key (and alt, when set) in the name, any case */
	double tflops[DT_N], tbps, vec_fp32;
} devices[] = {
	{ "h100",
	  "pcie",
	  "NVIDIA H100 PCIe",
	  { 51.2, 51.2, 378, 756, 756, 1513, 1513 },
	  2.0,
	  51.2 },
	{ "h100",
	  NULL,
	  "NVIDIA H100 SXM5",
	  { 66.9, 66.9, 494.7, 989.4, 989.4, 1978.9, 1978.9 },
	  3.35,
	  66.9 },
	{ "a100", "40gb", "NVIDIA A100 40GB", { 19.5, 19.5, 156, 312, 312, 0, 624 }, 1.555, 19.5 },
	{ "a100",
	  "pcie",
	  "NVIDIA A100 80GB PCIe",
	  { 19.5, 19.5, 156, 312, 312, 0, 624 },
	  1.935,
	  19.5 },
	{ "a100",
	  NULL,
	  "NVIDIA A100 80GB SXM",
	  { 19.5, 19.5, 156, 312, 312, 0, 624 },
	  2.039,
	  19.5 },
	{ "v100", "pcie", "NVIDIA V100 PCIe", { 7, 14, 0, 0, 112, 0, 0 }, 0.9, 14 },
	{ "v100", NULL, "NVIDIA V100 SXM2", { 7.8, 15.7, 0, 0, 125, 0, 0 }, 0.9, 15.7 },
	{ "l4", NULL, "NVIDIA L4", { 0.49, 30.3, 60, 121, 121, 242.5, 242.5 }, 0.3, 30.3 },
	{ "mi300x",
	  NULL,
	  "AMD Instinct MI300X",
	  { 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9 },
	  5.3,
	  163.4 },
	{ "mi250x",
	  NULL,
	  "AMD Instinct MI250X",
	  { 95.7, 95.7, 0, 383, 383, 0, 383 },
	  3.2768,
	  47.9 },
	{ "mi210", NULL, "AMD Instinct MI210", { 45.3, 45.3, 0, 181, 181, 0, 181 }, 1.6, 22.6 },
};

/* The key as a whole word of the name (so "L4" is not "L40"), any case. */
static int has_word(const char *name, const char *key)
{
	size_t n = strlen(key), i;
	const char *s;
	for (s = name; *s; s++) {
		for (i = 0; i < n && s[i] && tolower((unsigned char)s[i]) == key[i]; i++)
			;
		if (i == n && (s == name || !isalnum((unsigned char)s[-1])) &&
		    !isalnum((unsigned char)s[n]))
			return 1;
	}
	return 0;
}

static const struct device *device_of(const char *name)
{
	size_t i;
	if (!name)
		return NULL;
	for (i = 0; i < PR_ARRAY_SIZE(devices); i++)
		if (has_word(name, devices[i].key) &&
		    (!devices[i].alt || pr_kclass_has_ci(name, devices[i].alt)))
			return &devices[i];
	return NULL;
}

/* ---- shapes ---- */
static int dtype_of(const char *t, size_t *elsize)
{
	size_t sz = 0;
	int dt = -1;
	if (!t)
		t = "";
	if (strstr(t, "BFloat16"))
		sz = 2, dt = DT_BF16;
	else if (strstr(t, "Half"))
		sz = 2, dt = DT_FP16;
	else if (strstr(t, "Float8"))
		sz = 1, dt = DT_FP8;
	else if (strstr(t, "complex<double>"))
		sz = 16, dt = DT_FP64;
	else if (strstr(t, "complex"))
		sz = 8, dt = DT_FP32;
	else if (!strcmp(t, "float"))
		sz = 4, dt = DT_FP32;
	else if (!strcmp(t, "double"))
		sz = 8, dt = DT_FP64;
	else if (!strcmp(t, "long int") || !strcmp(t, "unsigned long"))
		sz = 8, dt = DT_INT8;
	else if (!strcmp(t, "int") || !strcmp(t, "unsigned int"))
		sz = 4, dt = DT_INT8;
	else if (!strcmp(t, "short int"))
		sz = 2, dt = DT_INT8;
	else if (!strcmp(t, "bool") || !strcmp(t, "signed char") || !strcmp(t, "unsigned char"))
		sz = 1, dt = DT_INT8;
	if (elsize)
		*elsize = sz;
	return dt;
}

#define MAXD 8
struct tensor {
	int nd; /* -1: not a tensor (a scalar, a list, absent) */
	int64_t d[MAXD];
	double n;  /* elements */
	size_t es; /* bytes an element (0: unknown type) */
	int dt;
};

struct opin {
	json_t *dims, *types, *conc; /* parsed args (NULL: absent) */
	struct tensor t[8];
	int nt;
};

static void read_tensors(struct opin *in)
{
	size_t i, j;
	in->nt = 0;
	for (i = 0; i < 8; i++) {
		struct tensor *t = &in->t[i];
		json_t *d = json_array_get(in->dims, i);
		t->nd = -1;
		t->n = 0;
		t->dt = dtype_of(json_string_value(json_array_get(in->types, i)), &t->es);
		if (i >= json_array_size(in->dims))
			continue;
		in->nt = (int)i + 1;
		if (!json_is_array(d) || json_array_size(d) > MAXD || !t->es)
			continue;
		t->nd = (int)json_array_size(d);
		t->n = 1;
		for (j = 0; j < json_array_size(d); j++) {
			json_t *v = json_array_get(d, j);
			if (!json_is_integer(v) || json_integer_value(v) < 0) {
				t->nd = -1;
				break;
			}
			t->d[j] = json_integer_value(v);
			t->n *= (double)t->d[j];
		}
		if (t->nd < 0)
			t->n = 0;
	}
}

static int is_t(const struct opin *in, int i, int nd)
{
	return i < in->nt && in->t[i].nd == nd;
}

static int conc_true(const struct opin *in, size_t i)
{
	const char *s = json_string_value(json_array_get(in->conc, i));
	return s && !strcmp(s, "True");
}

/* an int list "[1, 1]" of Concrete Inputs at i into v[0..n) (missing: def) */
static void conc_list(const struct opin *in, size_t i, int64_t *v, int n, int64_t def)
{
	const char *s = json_string_value(json_array_get(in->conc, i));
	int k = 0;
	char *e;
	while (s && *s && *s != '[')
		s++;
	if (s && *s == '[')
		s++;
	while (s && *s && k < n) {
		long long x = strtoll(s, &e, 10);
		if (e == s)
			break;
		v[k++] = x;
		s = e;
		while (*s == ',' || *s == ' ')
			s++;
	}
	if (k == 1) /* one value for every dimension */
		for (; k < n; k++)
			v[k] = v[0];
	for (; k < n; k++)
		v[k] = def;
}

/* an int of Concrete Inputs at i ("2"; missing or not a number: def) */
static int64_t conc_int(const struct opin *in, size_t i, int64_t def)
{
	const char *s = json_string_value(json_array_get(in->conc, i));
	char *e;
	long long x;
	if (!s || !*s)
		return def;
	x = strtoll(s, &e, 10);
	return e == s || *e ? def : x;
}

/* a bool list "[True, True, False]" of Concrete Inputs at i into v[0..3) (missing: def) */
static void conc_bools(const struct opin *in, size_t i, int *v, const int *def)
{
	const char *s = json_string_value(json_array_get(in->conc, i));
	int k;
	for (k = 0; k < 3; k++)
		v[k] = def[k];
	if (!s || s[0] != '[')
		return;
	for (k = 0, s++; k < 3 && *s && *s != ']'; k++) {
		while (*s == ' ')
			s++;
		v[k] = !strncmp(s, "True", 4);
		while (*s && *s != ',' && *s != ']')
			s++;
		if (*s == ',')
			s++;
	}
}

struct work {
	double flops, bytes;
	int dt; /* the dtype of the peak (-1: none) */
};

static double tbytes(const struct tensor *t)
{
	return t->nd >= 0 ? t->n * (double)t->es : 0;
}

/* C = A(M x K) * B(K x N), with a batch; the bias (if any) of nb elements */
static void gemm(struct work *w, double batch, double m, double n, double k, const struct tensor *a,
		 double nbias)
{
	w->flops = 2 * batch * m * n * k + batch * m * n * (nbias > 0);
	w->bytes = ((batch * m * k) + (k * n * (a[1].nd > 2 ? batch : 1)) + batch * m * n + nbias) *
		   (double)a[0].es;
	w->dt = a[0].dt;
}

static void gemm_work(const char *name, const struct opin *in, struct work *w)
{
	const struct tensor *t = in->t;
	if (!strcmp(name, "aten::mm") && is_t(in, 0, 2) && is_t(in, 1, 2)) {
		gemm(w, 1, (double)t[0].d[0], (double)t[1].d[1], (double)t[0].d[1], t, 0);
	} else if (!strcmp(name, "aten::addmm") && is_t(in, 1, 2) && is_t(in, 2, 2)) {
		gemm(w, 1, (double)t[1].d[0], (double)t[2].d[1], (double)t[1].d[1], t + 1, t[0].n);
	} else if (!strcmp(name, "aten::bmm") && is_t(in, 0, 3) && is_t(in, 1, 3)) {
		gemm(w, (double)t[0].d[0], (double)t[0].d[1], (double)t[1].d[2], (double)t[0].d[2],
		     t, 0);
	} else if (!strcmp(name, "aten::baddbmm") && is_t(in, 1, 3) && is_t(in, 2, 3)) {
		gemm(w, (double)t[1].d[0], (double)t[1].d[1], (double)t[2].d[2], (double)t[1].d[2],
		     t + 1, t[0].n);
	} else if (!strcmp(name, "aten::linear") && in->nt >= 2 && t[0].nd >= 1 && is_t(in, 1, 2)) {
		double m = t[0].n / (double)(t[0].d[t[0].nd - 1] ? t[0].d[t[0].nd - 1] : 1);
		gemm(w, 1, m, (double)t[1].d[0], (double)t[1].d[1], t,
		     in->nt > 2 && t[2].nd >= 0 ? t[2].n : 0);
	} else if (!strcmp(name, "aten::matmul") && in->nt >= 2 && t[0].nd >= 1 && t[1].nd >= 1) {
		/* vectors as 1 x K and K x 1; the batch: the larger leading dims' product */
		double m = t[0].nd >= 2 ? (double)t[0].d[t[0].nd - 2] : 1;
		double k = (double)t[0].d[t[0].nd - 1];
		double n = t[1].nd >= 2 ? (double)t[1].d[t[1].nd - 1] : 1;
		double ba = t[0].nd > 2 ? t[0].n / (m * k > 0 ? m * k : 1) : 1;
		double bb = t[1].nd > 2 ? t[1].n / (k * n > 0 ? k * n : 1) : 1;
		double b = ba > bb ? ba : bb;
		w->flops = 2 * b * m * n * k;
		w->bytes = tbytes(&t[0]) + tbytes(&t[1]) + b * m * n * (double)t[0].es;
		w->dt = t[0].dt;
	}
}

/* The spatial product of dims 2.. of t */
static double spatial(const struct tensor *t)
{
	double p = 1;
	int i;
	for (i = 2; i < t->nd; i++)
		p *= (double)t->d[i];
	return p;
}

/*
 * aten::convolution_backward (grad_output, input, weight, bias_sizes, stride, padding,
 * dilation, transposed, output_padding, groups, output_mask): the forward's multiply-adds F =
 * 2 * (elements of grad_output, or of input when transposed) * C_in/groups (or C_out/groups:
 * weight dim 1) * kernel elements, once for grad_input and once for grad_weight as output_mask
 * asks (absent: both), grad_bias 1 FLOP a grad_output element; bytes: grad_output, input and
 * weight read, the gradients asked for written (input's, weight's, C_out elements).
 */
static void conv_bwd_work(const struct opin *in, struct work *w)
{
	const struct tensor *go = &in->t[0], *x = &in->t[1], *wt = &in->t[2];
	static const int def[3] = { 1, 1, 0 };
	int mask[3];
	double f;
	if (in->nt < 3 || go->nd < 3 || x->nd != go->nd || wt->nd != go->nd)
		return;
	conc_bools(in, 10, mask, def);
	f = 2 * (conc_true(in, 7) ? x->n : go->n) * (double)wt->d[1] * spatial(wt);
	w->flops = f * (mask[0] + mask[1]) + (mask[2] ? go->n : 0);
	w->bytes = tbytes(go) + tbytes(x) + tbytes(wt) + (mask[0] ? tbytes(x) : 0) +
		   (mask[1] ? tbytes(wt) : 0) + (mask[2] ? (double)go->d[1] * (double)go->es : 0);
	w->dt = go->dt;
}

/*
 * convolution / _convolution (input, weight, bias, stride, padding, dilation, transposed,
 * output_padding, groups), conv1d/2d/3d (input, weight, bias, stride, padding, dilation,
 * groups), cudnn_convolution (input, weight, padding, stride, dilation, groups, ...) and
 * miopen_convolution (input, weight, bias, padding, stride, dilation, groups, ...); transposed:
 * convolution with transposed True, conv_transpose1d/2d/3d (input, weight, bias, stride,
 * padding, output_padding, groups, dilation), cudnn_convolution_transpose (input, weight,
 * padding, output_padding, stride, dilation, groups, ...); convolution_backward apart.
 */
static void conv_work(const char *name, const struct opin *in, struct work *w)
{
	const struct tensor *x = &in->t[0], *wt = &in->t[1];
	int64_t st[MAXD], pad[MAXD], dil[MAXD], opad[MAXD], groups = 1;
	int sp, i,
		full = !strstr(name, "conv1d") && !strstr(name, "conv2d") &&
		       !strstr(name, "conv3d") && !strstr(name, "conv_transpose");
	int cudnn = strstr(name, "cudnn_convolution") != NULL;
	int miopen = strstr(name, "miopen_convolution") != NULL;
	int tr = strstr(name, "transpose") != NULL;
	double out = 1, kprod = 1, cin, nout, bias;
	if (!strcmp(name, "aten::convolution_backward")) {
		conv_bwd_work(in, w);
		return;
	}
	if (in->nt < 2 || x->nd < 3 || wt->nd != x->nd || strstr(name, "backward"))
		return;
	sp = x->nd - 2;
	if (tr && cudnn) { /* cudnn_convolution_transpose */
		conc_list(in, 2, pad, sp, 0);
		conc_list(in, 3, opad, sp, 0);
		conc_list(in, 4, st, sp, 1);
		conc_list(in, 5, dil, sp, 1);
		groups = conc_int(in, 6, 1);
	} else if (tr) { /* conv_transpose1d/2d/3d */
		conc_list(in, 3, st, sp, 1);
		conc_list(in, 4, pad, sp, 0);
		conc_list(in, 5, opad, sp, 0);
		groups = conc_int(in, 6, 1);
		conc_list(in, 7, dil, sp, 1);
	} else if (cudnn) {
		conc_list(in, 2, pad, sp, 0);
		conc_list(in, 3, st, sp, 1);
		conc_list(in, 4, dil, sp, 1);
	} else if (miopen) {
		conc_list(in, 3, pad, sp, 0);
		conc_list(in, 4, st, sp, 1);
		conc_list(in, 5, dil, sp, 1);
	} else {
		conc_list(in, 3, st, sp, 1);
		conc_list(in, 4, pad, sp, 0);
		conc_list(in, 5, dil, sp, 1);
		if (full && conc_true(in, 6)) { /* convolution(..., transposed=True, ...) */
			tr = 1;
			conc_list(in, 7, opad, sp, 0);
			groups = conc_int(in, 8, 1);
		}
	}
	if (groups < 1)
		groups = 1;
	for (i = 0; i < sp; i++) {
		int64_t k = wt->d[2 + i], o;
		if (tr) /* out = (in - 1) s - 2p + d (k - 1) + output_padding + 1 */
			o = (x->d[2 + i] - 1) * st[i] - 2 * pad[i] + dil[i] * (k - 1) + opad[i] + 1;
		else
			o = st[i] > 0
				    ? (x->d[2 + i] + 2 * pad[i] - dil[i] * (k - 1) - 1) / st[i] + 1
				    : 0;
		if (o < 0)
			o = 0;
		out *= (double)o;
		kprod *= (double)k;
	}
	if (tr) { /* weight [C_in, C_out / groups, k...]: each input element meets C_out/g x k */
		double cout = (double)wt->d[1] * (double)groups;
		nout = (double)x->d[0] * cout * out;
		bias = !cudnn && in->nt > 2 && in->t[2].nd == 1 ? tbytes(&in->t[2]) : 0;
		w->flops = 2 * x->n * (double)wt->d[1] * kprod + (bias > 0 ? nout : 0);
		w->bytes = tbytes(x) + tbytes(wt) + bias + nout * (double)x->es;
		w->dt = x->dt;
		return;
	}
	cin = (double)wt->d[1]; /* C / groups */
	nout = (double)x->d[0] * (double)wt->d[0] * out;
	bias = !cudnn && in->nt > 2 && in->t[2].nd == 1 ? tbytes(&in->t[2]) : 0;
	w->flops = 2 * nout * cin * kprod + (bias > 0 ? nout : 0);
	w->bytes = tbytes(x) + tbytes(wt) + bias + nout * (double)x->es;
	w->dt = x->dt;
}

/* q, k, v: [B, H, L, E] (aten SDPA) or [B, L, H, E] (flash's own ops: blhe) */
static void attn_work(const char *name, const struct opin *in, struct work *w)
{
	const struct tensor *q = &in->t[0], *k = &in->t[1], *v = &in->t[2];
	int blhe = strstr(name, "flash_attn") || strstr(name, "_flash_attention_forward") ||
		   strstr(name, "_efficient_attention_forward");
	double b, h, l, s, e, ev, f;
	size_t causal_at;
	if (in->nt < 3 || q->nd != 4 || k->nd != 4 || v->nd != 4 || strstr(name, "backward"))
		return;
	b = (double)q->d[0];
	h = (double)q->d[blhe ? 2 : 1];
	l = (double)q->d[blhe ? 1 : 2];
	s = (double)k->d[blhe ? 1 : 2];
	e = (double)q->d[3];
	ev = (double)v->d[3];
	/* is_causal: aten SDPA flash/efficient (q, k, v, dropout, is_causal) at 4 (efficient: 5,
	 * after compute_log_sumexp), scaled_dot_product_attention (q, k, v, mask, dropout,
	 * is_causal) at 5, _flash_attention_forward (..., max_q, max_k, dropout, is_causal) at 8 */
	if (strstr(name, "_flash_attention_forward"))
		causal_at = 8;
	else if (!strcmp(name, "aten::scaled_dot_product_attention"))
		causal_at = 5;
	else if (strstr(name, "efficient_attention"))
		causal_at = 5;
	else
		causal_at = 4;
	f = 2 * b * h * l * s * (e + ev);
	if (conc_true(in, causal_at))
		f /= 2;
	w->flops = f;
	w->bytes = tbytes(q) + tbytes(k) + tbytes(v) + b * h * l * ev * (double)q->es;
	w->dt = q->dt;
}

/* Elementwise: every tensor input read once, one output of the largest input's size written;
 * an in-place op (name ending in '_', copy_) writes its first input. 1 FLOP an output
 * element. Reduction and normalization: the inputs read, the first input's size written
 * (normalization) or nothing counted for the (smaller) output (reduction). */
static void mem_work(int cat, const char *name, const struct opin *in, struct work *w)
{
	double rd = 0, big = 0;
	size_t es = 0;
	int i, dt = -1;
	size_t nl = strlen(name);
	int inplace = nl && name[nl - 1] == '_';
	for (i = 0; i < in->nt; i++) {
		const struct tensor *t = &in->t[i];
		if (t->nd < 0)
			continue;
		rd += tbytes(t);
		if (dt < 0 || t->n > big) { /* the largest input: the output's size and type */
			big = t->n;
			es = t->es;
			dt = t->dt;
		}
	}
	if (dt < 0)
		return;
	w->dt = dt; /* the peak: the vector fp32 (fp64) one, peak_of */
	if (cat == PC_ELEM) {
		w->bytes = inplace ? rd : rd + big * (double)es;
		w->flops = big;
	} else if (cat == PC_NORM) {
		w->bytes = rd + in->t[0].n * (double)in->t[0].es;
		w->flops = 5 * in->t[0].n;
	} else {
		w->bytes = rd;
		w->flops = in->t[0].n;
	}
}

/*
 * aten::_foreach_* (multi-tensor apply; Kineto records a TensorList's dims as a list of shapes
 * and its type as "TensorList", without the element type): elementwise over the lists, each
 * list input read, one output list of the first list's size written (not for in-place ops,
 * names ending '_'), 1 FLOP an output element (_foreach_norm: a reduction, its inputs read, 1
 * FLOP an input element). The element size is that of the op's first typed tensor input, else
 * 4 bytes (float, PyTorch's default dtype).
 */
static void foreach_work(const char *name, const struct opin *in, struct work *w)
{
	double rd = 0, first = -1;
	size_t es = 4, i, j, k, nl = strlen(name);
	int dt = DT_FP32, inplace = nl && name[nl - 1] == '_', typed = 0;
	for (i = 0; i < (size_t)in->nt && !typed; i++)
		if (in->t[i].nd >= 0) {
			es = in->t[i].es;
			dt = in->t[i].dt;
			typed = 1;
		}
	for (i = 0; i < (size_t)in->nt; i++) {
		json_t *l = json_array_get(in->dims, i);
		const char *ty = json_string_value(json_array_get(in->types, i));
		double n = 0;
		if (in->t[i].nd >= 0) { /* a plain tensor (a scalar tensor of _foreach_add) */
			rd += tbytes(&in->t[i]);
			continue;
		}
		if (!ty || strcmp(ty, "TensorList") || !json_is_array(l))
			continue;
		for (j = 0; j < json_array_size(l); j++) {
			json_t *d = json_array_get(l, j);
			double e = 1;
			if (!json_is_array(d))
				continue;
			for (k = 0; k < json_array_size(d); k++) {
				json_t *v = json_array_get(d, k);
				if (!json_is_integer(v) || json_integer_value(v) < 0) {
					e = 0;
					break;
				}
				e *= (double)json_integer_value(v);
			}
			n += e;
		}
		rd += n * (double)es;
		if (first < 0)
			first = n;
	}
	if (first < 0)
		return;
	w->dt = dt;
	if (strstr(name, "norm")) {
		w->bytes = rd;
		w->flops = rd / (double)es;
		return;
	}
	w->bytes = inplace ? rd : rd + first * (double)es;
	w->flops = first;
}

/* ---- categories ---- */
static int in_list(const char *name, const char *const *list, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

static const char *const gemm_ops[] = { "aten::mm",	 "aten::addmm",	     "aten::bmm",
					"aten::baddbmm", "aten::_scaled_mm", "aten::linear",
					"aten::matmul",	 "aten::addmv",	     "aten::mv" };
/* TraceLens's GEMM ops (its torch_op_mapping at the reference's commit) */
static const char *const tl_gemm[] = { "aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm",
				       "aten::_scaled_mm" };
static const char *const tl_conv[] = { "aten::convolution", "aten::miopen_convolution",
				       "aten::cudnn_convolution" };
static const char *const tl_sdpa[] = { "aten::_scaled_dot_product_cudnn_attention",
				       "aten::_scaled_dot_product_efficient_attention",
				       "aten::_scaled_dot_product_flash_attention",
				       "aten::_efficient_attention_forward",
				       "flash_attn::_flash_attn_forward",
				       "FlashAttnFunc" };
static const char *const elem_ops[] = {
	"aten::copy",
	"aten::copy_",
	"aten::clamp_min",
	"aten::clamp_min_",
	"aten::clamp_max",
	"aten::clamp_max_",
	"aten::sigmoid",
	"aten::rsqrt",
	"aten::silu",
	"aten::neg",
	"aten::pow",
	"aten::div",
	"aten::div_",
	"aten::mul",
	"aten::mul_",
	"aten::add",
	"aten::add_",
	"aten::sigmoid_backward",
	"aten::threshold_backward",
};
static const char *const red_ops[] = { "aten::sum", "aten::mean", "aten::max",
				       "aten::min", "aten::norm", "aten::linalg_norm" };

/* TraceLens's rule: its op lists, else the first kernel's name "void at::native..." with
 * "elementwise" or "reduce" in it, else other. */
static int tl_category_of(const char *name, const char *k0)
{
	if (in_list(name, tl_gemm, PR_ARRAY_SIZE(tl_gemm)))
		return TL_GEMM;
	if (in_list(name, tl_conv, PR_ARRAY_SIZE(tl_conv)))
		return TL_CONV;
	if (in_list(name, tl_sdpa, PR_ARRAY_SIZE(tl_sdpa)))
		return TL_SDPA;
	if (in_list(name, elem_ops, PR_ARRAY_SIZE(elem_ops)))
		return TL_ELEM;
	if (in_list(name, red_ops, PR_ARRAY_SIZE(red_ops)))
		return TL_RED;
	if (!strncmp(name, "aten::", 6) && strstr(name, "_norm") && !strstr(name, "backward") &&
	    strcmp(name, "aten::linalg_norm"))
		return TL_NORM;
	if (k0 && !strncmp(k0, "void at::native", 15)) {
		if (strstr(k0, "elementwise"))
			return TL_ELEM;
		if (strstr(k0, "reduce"))
			return TL_RED;
	}
	return TL_OTHER;
}

/* profreport's: TraceLens's where they agree, and attention, normalization, communication and
 * memory copy by name or kernels (docs/analysis.md, perf_model). kmem: every activity of the
 * op is a memcpy/memset; kcomm: one is a communication kernel. */
static int category_of(const char *name, const char *k0, int kmem, int kcomm)
{
	int tl;
	if (kcomm || pr_kclass_has_ci(name, "nccl") || !strncmp(name, "c10d::", 6) ||
	    !strncmp(name, "record_param_comms", 18))
		return PC_COMM;
	if (in_list(name, gemm_ops, PR_ARRAY_SIZE(gemm_ops)))
		return PC_GEMM;
	if (strstr(name, "conv") && (strstr(name, "aten::") || strstr(name, "Conv")) &&
	    !strstr(name, "convert"))
		return PC_CONV;
	if (strstr(name, "attention") || strstr(name, "flash_attn") || strstr(name, "FlashAttn") ||
	    strstr(name, "attn_"))
		return PC_ATTN;
	if (!strncmp(name, "aten::_foreach_", 15)) /* multi-tensor apply (foreach_work) */
		return strstr(name, "norm") ? PC_RED : PC_ELEM;
	if (strstr(name, "norm") && !in_list(name, red_ops, PR_ARRAY_SIZE(red_ops)))
		return PC_NORM;
	if (strstr(name, "softmax"))
		return PC_RED;
	tl = tl_category_of(name, k0);
	if (tl == TL_ELEM)
		return PC_ELEM;
	if (tl == TL_RED)
		return PC_RED;
	if (kmem)
		return PC_MEM;
	if (k0 && (strstr(k0, "elementwise") || strstr(k0, "Elementwise")))
		return PC_ELEM;
	if (k0 && (strstr(k0, "reduce") || strstr(k0, "Reduce")))
		return PC_RED;
	return PC_OTHER;
}

/* ---- the pass ---- */
struct opacc { /* an op instance with device time */
	int64_t op_id, ns, nact;
	int64_t k0, k0_act; /* name id and span id of its first activity */
	int64_t tc_ns;	    /* of its kernels on Tensor Cores (TensorBoard's name rule) */
	int nonmem, comm;
};

struct group {
	char *name, *dims, *types;
	int cat, tl, dt;
	int64_t calls, ns;
	double flops, bytes;
};

struct memo { /* an op's categories, work and group, by its key (add_op) */
	int cat, tl;
	struct work w;
	int64_t gi;
};

struct catsum {
	int64_t ops, ns, acts, tc_ns;
	double flops, bytes;
};

struct pm {
	struct pr_actx *ctx;
	struct pr_kclassify kc;
	struct pr_imap ipos;	/* argkeys id -> dims + 1 | types + 1 << 20 | concrete + 1 << 40 */
	struct pr_imap call;	/* correlation -> runtime call's parent id */
	struct pr_imap opof;	/* parent id -> nearest op id (0: none) */
	struct pr_imap acc_of;	/* op id -> index in acc */
	struct pr_imap kcomm;	/* kernel name id -> 1: a communication kernel */
	struct pr_imap name_ix; /* name id -> index in names */
	char **names;
	size_t nnames, cnames;
	struct memo *memo;
	size_t nmemo, cmemo;
	struct pr_strmap memo_of;
	struct opacc *acc;
	size_t nacc, cacc;
	struct group *g;
	size_t ng, cg;
	struct pr_strmap g_of;
	struct catsum cat[PC_N], tl[TL_N];
	int64_t linked, linked_ns, unlinked, unlinked_ns;
	double dt_ns[DT_N];    /* device time of GEMM/conv/attention groups by their peak's dtype */
	struct pr_gpuanc *anc; /* the launching ops' rows from the shared pass (gpuscan.h) */
	sqlite3_stmt *up, *opst, *namest;
};

static int64_t key_pos(const char *keys, const char *want)
{
	json_t *a = json_loads(keys, 0, NULL), *v;
	size_t i;
	int64_t p = -1;
	json_array_foreach (a, i, v) {
		if (json_is_string(v) && !strcmp(json_string_value(v), want)) {
			p = (int64_t)i;
			break;
		}
	}
	json_decref(a);
	return p;
}

static int load_keys(struct pm *m, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (pr_actx_prep(m->ctx, "SELECT id, keys FROM argkeys WHERE ?1 IS NOT NULL", &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = pr_actx_text(st, 1);
		int64_t id = sqlite3_column_int64(st, 0);
		int64_t d = key_pos(k, "Input Dims"), t = key_pos(k, "Input type");
		int64_t x = key_pos(k, "Concrete Inputs");
		if (d >= 0 && d < 0xfffff && t < 0xfffff && x < 0xfffff)
			pr_imap_put(&m->ipos, id, (d + 1) | ((t + 1) << 20) | ((x + 1) << 40));
	}
	return pr_actx_done(m->ctx, st, rc, err);
}

/* The nearest op at or above span id (0: none), memoised. */
static int nearest_op(struct pm *m, int64_t id, int64_t *op, struct pr_error *err)
{
	int64_t path[64], v;
	size_t n = 0, i;
	int rc;
	*op = 0;
	while (id > 0 && n < PR_ARRAY_SIZE(path)) {
		if (pr_imap_get(&m->opof, id, &v)) {
			*op = v;
			break;
		}
		path[n++] = id;
		sqlite3_reset(m->up);
		sqlite3_bind_int64(m->up, 2, id);
		rc = sqlite3_step(m->up);
		if (rc != SQLITE_ROW) {
			if (rc != SQLITE_DONE)
				return pr_error_set(err, PR_E_STORE, "sqlite: %s",
						    sqlite3_errmsg(m->ctx->db));
			break;
		}
		if (!strcmp(pr_actx_text(m->up, 0), "op")) {
			*op = id;
			break;
		}
		id = sqlite3_column_type(m->up, 1) == SQLITE_NULL ? 0
								  : sqlite3_column_int64(m->up, 1);
	}
	for (i = 0; i < n; i++)
		pr_imap_put(&m->opof, path[i], *op);
	return 0;
}

/* The string of a name id (borrowed from the cache; "" when none). */
static const char *name_of(struct pm *m, int64_t id)
{
	int64_t ix;
	if (!pr_imap_get(&m->name_ix, id, &ix)) {
		sqlite3_reset(m->namest);
		sqlite3_bind_int64(m->namest, 2, id);
		if (m->nnames == m->cnames) {
			m->cnames = m->cnames ? m->cnames * 2 : 64;
			m->names = pr_xreallocarray(m->names, m->cnames, sizeof(*m->names));
		}
		m->names[m->nnames] = pr_xstrdup(
			sqlite3_step(m->namest) == SQLITE_ROW ? pr_actx_text(m->namest, 0) : "");
		ix = (int64_t)m->nnames++;
		pr_imap_put(&m->name_ix, id, ix);
	}
	return m->names[ix];
}

/* An activity (span id, duration, name id, memcpy/memset or kernel) charged to op `op`. */
static void attach(struct pm *m, int64_t op, int64_t act, int64_t dur, int64_t nid, int kmem)
{
	int64_t idx, comm;
	struct opacc *o;
	m->linked++;
	m->linked_ns = pr_add_sat(m->linked_ns, dur);
	if (!pr_imap_get(&m->acc_of, op, &idx)) {
		if (m->nacc == m->cacc) {
			m->cacc = m->cacc ? m->cacc * 2 : 256;
			m->acc = pr_xreallocarray(m->acc, m->cacc, sizeof(*m->acc));
		}
		idx = (int64_t)m->nacc++;
		m->acc[idx] = (struct opacc){ op, 0, 0, nid, act, 0, 0, 0 };
		pr_imap_put(&m->acc_of, op, idx);
	}
	o = &m->acc[idx];
	o->ns = pr_add_sat(o->ns, dur);
	o->nact++;
	if (act < o->k0_act) { /* the first activity in id order names the op's kernel */
		o->k0 = nid;
		o->k0_act = act;
	}
	if (kmem)
		return;
	o->nonmem = 1;
	if (!pr_imap_get(&m->kcomm, nid, &comm)) { /* once per kernel name: 1 comm, 2 TC */
		int lib;
		const char *kn = name_of(m, nid);
		comm = (pr_kclass_of(&m->kc, kn, &lib) == PR_KC_COMM) | pr_tc_kernel(kn) << 1;
		pr_imap_put(&m->kcomm, nid, comm);
	}
	if (comm & 1)
		o->comm = 1;
	if (comm & 2)
		o->tc_ns = pr_add_sat(o->tc_ns, dur);
}

struct pend { /* an activity met before its runtime call */
	int64_t corr, act, dur, nid;
	int kmem;
};

/*
 * One read of the shared GPU pass's rows (gpuscan.h; in id order, with the
 * calls' parents' kinds from span_up): each runtime call's correlation -> its
 * parent; each activity charged to the nearest op above its call, those met
 * before their call once the read is done. The correlation is read as an
 * integer text (PR_GC_PMINT); a call whose parent is an op needs no lookup.
 */
static int link(struct pm *m, struct pr_error *err)
{
	struct pr_gpuscan *gs = pr_gpuscan_get(m->ctx, err);
	struct pr_gpuread *rd;
	const struct pr_gpurow *r;
	struct pend *pd = NULL;
	size_t np = 0, cp = 0, i;
	int ret = -1;
	if (!gs || !(rd = pr_gpuscan_open(m->ctx, gs, 1, err)))
		return -1;
	while ((r = pr_gpuread_next(rd))) {
		int64_t dur = r->dur;
		if (r->kind == PR_GK_RUNTIME) {
			if (r->u.call.parent > 0 && (r->cflags & PR_GC_PMINT)) {
				pr_imap_put(&m->call, r->corr, r->u.call.parent);
				if (r->pkind == PR_GK_OP)
					pr_imap_put(&m->opof, r->u.call.parent, r->u.call.parent);
			}
			continue;
		}
		if (r->kind != PR_GK_KERNEL && r->kind != PR_GK_MEMCPY && r->kind != PR_GK_MEMSET)
			continue;
		if (!(r->cflags & PR_GC_PMINT)) {
			m->unlinked++;
			m->unlinked_ns = pr_add_sat(m->unlinked_ns, dur);
			continue;
		}
		if (np == cp) {
			cp = cp ? cp * 2 : 1024;
			pd = pr_xreallocarray(pd, cp, sizeof(*pd));
		}
		pd[np++] = (struct pend){ r->corr, r->id, dur, r->name, r->kind != PR_GK_KERNEL };
	}
	if (pr_gpuread_close(rd, err))
		goto out;
	for (i = 0; i < np; i++) {
		int64_t parent, op = 0;
		if (pr_imap_get(&m->call, pd[i].corr, &parent) && nearest_op(m, parent, &op, err))
			goto out;
		if (op) {
			attach(m, op, pd[i].act, pd[i].dur, pd[i].nid, pd[i].kmem);
		} else {
			m->unlinked++;
			m->unlinked_ns = pr_add_sat(m->unlinked_ns, pd[i].dur);
		}
	}
	ret = 0;
out:
	free(pd);
	return ret;
}

/*
 * The elements at pos[0..3) of an args array text s[0..n) in one walk, as
 * pr_opview_elem reads each (cut to OPV_SHAPE_MAX bytes): off[k], len[k],
 * got[k] 0 when there is none.
 */
static void elems3(const char *s, size_t n, const int64_t *pos, size_t *off, size_t *len, int *got)
{
	size_t i = 1, e, l;
	int64_t idx = 0, maxpos = -1;
	int k;
	for (k = 0; k < 3; k++) {
		got[k] = 0;
		if (pos[k] > maxpos)
			maxpos = pos[k];
	}
	if (!s || n < 2 || s[0] != '[' || maxpos < 0)
		return;
	for (;;) {
		e = pr_json_elem_end(s, i, n);
		if (e >= n || e == i)
			return; /* unterminated, or an empty element */
		for (k = 0; k < 3; k++) {
			if (pos[k] != idx)
				continue;
			l = e - i;
			if (l > OPV_SHAPE_MAX) { /* cut on a UTF-8 character's first byte */
				l = OPV_SHAPE_MAX;
				while (l && ((unsigned char)s[i + l] & 0xC0) == 0x80)
					l--;
			}
			got[k] = 1;
			off[k] = i;
			len[k] = l;
		}
		if (s[e] != ',' || idx >= maxpos)
			return; /* the array ends, or every position is read */
		i = e + 1;
		idx++;
	}
}

/* An op's categories and work from its name, first kernel and shapes (new texts, taken). */
static void op_work(struct pm *m, const struct opacc *a, const char *name, char *dims, char *types,
		    const char *conc, struct memo *mo)
{
	const char *k0 = name_of(m, a->k0);
	struct opin in;
	struct work w = { 0, 0, -1 };
	struct pr_strbuf key = PR_STRBUF_INIT;
	int64_t gi;
	memset(&in, 0, sizeof(in));
	in.dims = dims ? json_loads(dims, 0, NULL) : NULL;
	in.types = types ? json_loads(types, 0, NULL) : NULL;
	in.conc = conc ? json_loads(conc, 0, NULL) : NULL;
	read_tensors(&in);
	mo->tl = tl_category_of(name, k0);
	mo->cat = category_of(name, k0, !a->nonmem, a->comm);
	if (mo->cat == PC_GEMM)
		gemm_work(name, &in, &w);
	else if (mo->cat == PC_CONV)
		conv_work(name, &in, &w);
	else if (mo->cat == PC_ATTN)
		attn_work(name, &in, &w);
	else if (!strncmp(name, "aten::_foreach_", 15))
		foreach_work(name, &in, &w);
	else if (mo->cat == PC_ELEM || mo->cat == PC_RED || mo->cat == PC_NORM)
		mem_work(mo->cat, name, &in, &w);
	json_decref(in.dims);
	json_decref(in.types);
	json_decref(in.conc);
	mo->w = w;
	pr_opview_key(&key, name, dims, types);
	if (!pr_strmap_get(&m->g_of, key.buf, key.len, &gi)) {
		if (m->ng == m->cg) {
			m->cg = m->cg ? m->cg * 2 : 64;
			m->g = pr_xreallocarray(m->g, m->cg, sizeof(*m->g));
		}
		gi = (int64_t)m->ng++;
		m->g[gi] = (struct group){
			pr_xstrdup(name), dims, types, mo->cat, mo->tl, w.dt, 0, 0, 0, 0
		};
		pr_strmap_put(&m->g_of, key.buf, key.len, gi);
	} else {
		free(dims);
		free(types);
	}
	mo->gi = gi;
	pr_strbuf_release(&key);
}

static void key_text(struct pr_strbuf *key, const char *args, size_t off, size_t len, int got)
{
	uint32_t l = got ? (uint32_t)len : ~0u;
	pr_strbuf_add(key, &l, sizeof(l));
	if (got)
		pr_strbuf_add(key, args + off, len);
}

static char *dup_elem(const char *args, size_t off, size_t len, int got)
{
	return got ? pr_xstrndup(args + off, len) : NULL;
}

/* One op with device time: its categories, work and group, computed once per (name, first
 * kernel, activity kinds, Input Dims, Input type, Concrete Inputs). */
static int add_op(struct pm *m, const struct opacc *a, struct pr_strbuf *key, struct pr_error *err)
{
	int rc, got[3] = { 0, 0, 0 };
	int64_t p = 0, name_id, mi, pos[3];
	size_t off[3], len[3];
	char flags;
	const char *args;
	size_t alen;
	struct memo *mo;
	const struct pr_gpuanc_row *ar = pr_gpuanc_find(m->anc, a->op_id);
	int has_keys;
	int64_t akeys;
	if (ar) { /* the row as the shared pass read it (gpuscan.h) */
		name_id = ar->name;
		args = ar->args;
		alen = ar->alen;
		has_keys = ar->has_keys;
		akeys = ar->akeys;
	} else {
		sqlite3_reset(m->opst);
		sqlite3_bind_int64(m->opst, 2, a->op_id);
		rc = sqlite3_step(m->opst);
		if (rc != SQLITE_ROW)
			return rc == SQLITE_DONE ? 0
						 : pr_error_set(err, PR_E_STORE, "sqlite: %s",
								sqlite3_errmsg(m->ctx->db));
		name_id = sqlite3_column_int64(m->opst, 0);
		args = (const char *)sqlite3_column_text(m->opst, 2);
		alen = args ? (size_t)sqlite3_column_bytes(m->opst, 2) : 0;
		has_keys = sqlite3_column_type(m->opst, 1) == SQLITE_INTEGER;
		akeys = sqlite3_column_int64(m->opst, 1);
	}
	if (args && has_keys && pr_imap_get(&m->ipos, akeys, &p)) {
		pos[0] = (p & 0xfffff) - 1;
		pos[1] = ((p >> 20) & 0xfffff) - 1;
		pos[2] = ((p >> 40) & 0xfffff) - 1;
		elems3(args, alen, pos, off, len, got);
	}
	flags = (char)(a->nonmem | a->comm << 1);
	pr_strbuf_reset(key);
	pr_strbuf_add(key, &name_id, sizeof(name_id));
	pr_strbuf_add(key, &a->k0, sizeof(a->k0));
	pr_strbuf_add(key, &flags, 1);
	key_text(key, args, off[0], len[0], got[0]);
	key_text(key, args, off[1], len[1], got[1]);
	key_text(key, args, off[2], len[2], got[2]);
	if (!pr_strmap_get(&m->memo_of, key->buf, key->len, &mi)) {
		char *conc = dup_elem(args, off[2], len[2], got[2]);
		if (m->nmemo == m->cmemo) {
			m->cmemo = m->cmemo ? m->cmemo * 2 : 64;
			m->memo = pr_xreallocarray(m->memo, m->cmemo, sizeof(*m->memo));
		}
		mi = (int64_t)m->nmemo++;
		pr_strmap_put(&m->memo_of, key->buf, key->len, mi);
		op_work(m, a, name_of(m, name_id), dup_elem(args, off[0], len[0], got[0]),
			dup_elem(args, off[1], len[1], got[1]), conc, &m->memo[mi]);
		free(conc);
	}
	mo = &m->memo[mi];
	m->cat[mo->cat].ops++;
	m->cat[mo->cat].ns = pr_add_sat(m->cat[mo->cat].ns, a->ns);
	m->cat[mo->cat].acts += a->nact;
	m->cat[mo->cat].tc_ns = pr_add_sat(m->cat[mo->cat].tc_ns, a->tc_ns);
	m->cat[mo->cat].flops += mo->w.flops;
	m->cat[mo->cat].bytes += mo->w.bytes;
	m->tl[mo->tl].ops++;
	m->tl[mo->tl].ns = pr_add_sat(m->tl[mo->tl].ns, a->ns);
	m->tl[mo->tl].acts += a->nact;
	m->g[mo->gi].calls++;
	m->g[mo->gi].ns = pr_add_sat(m->g[mo->gi].ns, a->ns);
	m->g[mo->gi].flops += mo->w.flops;
	m->g[mo->gi].bytes += mo->w.bytes;
	return 0;
}

static int cmp_acc(const void *pa, const void *pb)
{
	const struct opacc *a = pa, *b = pb;
	return a->op_id < b->op_id ? -1 : a->op_id > b->op_id;
}

static int cmp_opt(const char *x, const char *y)
{
	if (!x || !y)
		return x ? 1 : y ? -1 : 0;
	return strcmp(x, y);
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;
	int c;
	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	if ((c = strcmp(a->name, b->name)))
		return c;
	if ((c = cmp_opt(a->dims, b->dims)))
		return c;
	return cmp_opt(a->types, b->types);
}

/* TFLOP/s and TB/s from a total over ns (null when either is 0) */
static json_t *rate(double v, int64_t ns)
{
	return v > 0 && ns > 0 ? pr_jnum(round(v / (double)ns / 1e3 * 1e6) / 1e6) : json_null();
}

static json_t *pct(double achieved, double peak)
{
	return achieved > 0 && peak > 0 ? pr_jnum(round(achieved / peak * 1e4) / 100) : json_null();
}

static double peak_of(const struct device *dv, int cat, int dt)
{
	if (!dv || dt < 0)
		return 0;
	if (cat == PC_GEMM || cat == PC_CONV || cat == PC_ATTN)
		return dv->tflops[dt];
	return dt == DT_FP64 ? dv->tflops[DT_FP64] : dv->vec_fp32;
}

static int matrix_cat(int cat)
{
	return cat == PC_GEMM || cat == PC_CONV || cat == PC_ATTN;
}

/* The dtype of a group's peak: its inputs', but an fp32 matrix op faster than the fp32 peak
 * ran on TF32 Tensor Cores. */
static int eff_dt(const struct group *g, const struct device *dv)
{
	double tf = g->ns > 0 ? g->flops / (double)g->ns / 1e3 : 0;
	if (g->dt == DT_FP32 && dv && dv->tflops[DT_TF32] > 0 && matrix_cat(g->cat) &&
	    tf > peak_of(dv, g->cat, g->dt))
		return DT_TF32;
	return g->dt;
}

static json_t *group_json(const struct group *g, const struct device *dv)
{
	double tf = g->ns > 0 ? g->flops / (double)g->ns / 1e3 : 0;
	double tb = g->ns > 0 ? g->bytes / (double)g->ns / 1e3 : 0;
	int dt = eff_dt(g, dv);
	double pk = peak_of(dv, g->cat, dt);
	return pr_jobj("name", json_string(g->name), "input_dims",
		       g->dims ? json_string(g->dims) : json_null(), "input_type",
		       g->types ? json_string(g->types) : json_null(), "category",
		       json_string(cat_names[g->cat]), "tracelens_category",
		       json_string(tl_names[g->tl]), "dtype",
		       dt >= 0 ? json_string(dt_names[dt]) : json_null(), "calls",
		       pr_jint(g->calls), "device_ns", pr_jint(g->ns), "flops",
		       pr_jnum(round(g->flops)), "bytes", pr_jnum(round(g->bytes)), "tflops",
		       rate(g->flops, g->ns), "tbps", rate(g->bytes, g->ns), "flop_per_byte",
		       g->bytes > 0 && g->flops > 0
			       ? pr_jnum(round(g->flops / g->bytes * 1e3) / 1e3)
			       : json_null(),
		       "peak_tflops", pk > 0 ? pr_jnum(pk) : json_null(), "pct_peak_flops",
		       pct(tf, pk), "pct_peak_bw", pct(tb, dv ? dv->tbps : 0), NULL);
}

static json_t *build(struct pm *m, const struct device *dv, const char *devname)
{
	json_t *cats = json_array(), *tls = json_array(), *groups = json_array(), *dev, *roof;
	int64_t all_ns = 0;
	size_t i;
	int best = -1;
	for (i = 0; i < PC_N; i++)
		all_ns = pr_add_sat(all_ns, m->cat[i].ns);
	for (i = 0; i < PC_N; i++) {
		const struct catsum *c = &m->cat[i];
		if (!c->ops)
			continue;
		json_array_append_new(cats,
				      pr_jobj("category", json_string(cat_names[i]), "ops",
					      pr_jint(c->ops), "activities", pr_jint(c->acts),
					      "device_ns", pr_jint(c->ns), "pct",
					      pr_jnum(round((double)c->ns / (double)all_ns * 1e4) /
						      100),
					      "flops", pr_jnum(round(c->flops)), "bytes",
					      pr_jnum(round(c->bytes)), "tflops",
					      rate(c->flops, c->ns), "tbps", rate(c->bytes, c->ns),
					      "tensor_core_share",
					      c->ns > 0 ? pr_jnum(round((double)c->tc_ns /
									(double)c->ns * 1e4) /
								  1e4)
							: json_null(),
					      NULL));
	}
	for (i = 0; i < TL_N; i++) {
		const struct catsum *c = &m->tl[i];
		if (!c->ops)
			continue;
		json_array_append_new(tls,
				      pr_jobj("category", json_string(tl_names[i]), "ops",
					      pr_jint(c->ops), "device_ns", pr_jint(c->ns), NULL));
	}
	if (m->ng)
		qsort(m->g, m->ng, sizeof(*m->g), cmp_group);
	for (i = 0; i < m->ng && i < PM_GROUPS; i++)
		json_array_append_new(groups, group_json(&m->g[i], dv));
	for (i = 0; i < m->ng; i++) /* the roofline's dtype: the most matrix-op time */
		if (matrix_cat(m->g[i].cat) && m->g[i].dt >= 0)
			m->dt_ns[eff_dt(&m->g[i], dv)] += (double)m->g[i].ns;
	for (i = 0; i < DT_N; i++)
		if (m->dt_ns[i] > 0 && (best < 0 || m->dt_ns[i] > m->dt_ns[best]))
			best = (int)i;
	if (best < 0)
		best = DT_BF16;
	dev = pr_jobj("name", devname ? json_string(devname) : json_null(), "model",
		      dv ? json_string(dv->label) : json_null(), NULL);
	roof = json_null();
	if (dv) {
		json_t *pk = json_object();
		for (i = 0; i < DT_N; i++)
			json_object_set_new(pk, dt_names[i],
					    dv->tflops[i] > 0 ? pr_jnum(dv->tflops[i])
							      : json_null());
		json_object_set_new(dev, "peak_tflops", pk);
		json_object_set_new(dev, "vector_fp32_tflops", pr_jnum(dv->vec_fp32));
		json_object_set_new(dev, "hbm_tbps", pr_jnum(dv->tbps));
		if (dv->tflops[best] <= 0)
			best = DT_FP32;
		roof = pr_jobj("dtype", json_string(dt_names[best]), "peak_tflops",
			       pr_jnum(dv->tflops[best]), "hbm_tbps", pr_jnum(dv->tbps),
			       "ridge_flop_per_byte",
			       pr_jnum(round(dv->tflops[best] / dv->tbps * 100) / 100), NULL);
	}
	return pr_jobj(
		"scope",
		json_string("device activities linked to a CPU op (correlation -> runtime call -> "
			    "nearest op above it), charged to that op (TraceLens's direct kernel "
			    "time)"),
		"device", dev, "roofline", roof, "linked_activities", pr_jint(m->linked),
		"linked_ns", pr_jint(m->linked_ns), "unlinked_activities", pr_jint(m->unlinked),
		"unlinked_ns", pr_jint(m->unlinked_ns), "categories", cats, "tracelens_categories",
		tls, "groups", groups, "groups_total", pr_jint((int64_t)m->ng), NULL);
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct pm m;
	struct pr_strbuf key = PR_STRBUF_INIT;
	const char *devname = NULL;
	const struct device *dv;
	json_t *props = json_object_get(ctx->meta, "deviceProperties");
	size_t i;
	int ret = -1;
	memset(&m, 0, sizeof(m));
	m.ctx = ctx;
	m.g_of = (struct pr_strmap)PR_STRMAP_INIT;
	m.memo_of = (struct pr_strmap)PR_STRMAP_INIT;
	if (pr_kclassify_init(&m.kc, ctx->meta, ctx->opts ? ctx->opts->comm_kernels : NULL, err))
		return -1;
	if (json_is_array(props) && json_array_size(props))
		devname = json_string_value(json_object_get(json_array_get(props, 0), "name"));
	dv = device_of(devname);
	if (pr_actx_prep(ctx, "SELECT kind, parent_id FROM span WHERE id = ?2 AND ?1 IS NOT NULL",
			 &m.up, err) ||
	    pr_actx_prep(ctx,
			 "SELECT name_id, args_keys, args FROM span "
			 "WHERE id = ?2 AND ?1 IS NOT NULL",
			 &m.opst, err) ||
	    pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL",
			 &m.namest, err))
		goto out;
	if (load_keys(&m, err) || link(&m, err))
		goto out;
	ret = 0;
	if (!m.nacc)
		goto out;
	if (m.nacc > 1) /* op id order: deterministic sums */
		qsort(m.acc, m.nacc, sizeof(*m.acc), cmp_acc);
	if (!(m.anc = pr_gpuanc_open(ctx->gpuscan ? ctx->gpuscan->anc : NULL, err))) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < m.nacc; i++)
		if (add_op(&m, &m.acc[i], &key, err)) {
			ret = -1;
			goto out;
		}
	if (pr_gpuanc_close(m.anc, err)) {
		m.anc = NULL;
		ret = -1;
		goto out;
	}
	m.anc = NULL;
	json_object_set_new(ctx->out, "perf_model", build(&m, dv, devname));
out:
	pr_gpuanc_close(m.anc, NULL);
	if (m.up)
		sqlite3_finalize(m.up);
	if (m.opst)
		sqlite3_finalize(m.opst);
	if (m.namest)
		sqlite3_finalize(m.namest);
	for (i = 0; i < m.ng; i++) {
		free(m.g[i].name);
		free(m.g[i].dims);
		free(m.g[i].types);
	}
	free(m.g);
	free(m.acc);
	pr_imap_release(&m.ipos);
	pr_imap_release(&m.call);
	pr_imap_release(&m.opof);
	pr_imap_release(&m.acc_of);
	pr_imap_release(&m.kcomm);
	pr_imap_release(&m.name_ix);
	for (i = 0; i < m.nnames; i++)
		free(m.names[i]);
	free(m.names);
	free(m.memo);
	pr_strmap_release(&m.memo_of);
	pr_strmap_release(&m.g_of);
	pr_strbuf_release(&key);
	pr_kclassify_release(&m.kc);
	return ret;
}

const struct pr_analyzer pr_an_perfmodel = {
	.name = "perf_model",
	.summary = "perf model: op categories, FLOPs, bytes, achieved TFLOP/s and TB/s, roofline",
	.run = run,
	.stage = PR_STAGE_GPU_MODEL,
};
