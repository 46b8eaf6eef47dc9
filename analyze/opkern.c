/* opkern.c - see opkern.h. */
#include "analyze/opkern.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "base/imap.h"
#include "base/jsonx.h"
#include "analyze/opview.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

#define KV_KEEP 100000 /* distinct kernel rows held while the kernels are read */

struct kkey { /* a kernel row's key, compared as bytes (no padding) */
	int64_t name, op;
	struct pr_launch lp;
};

struct kstat {
	struct kkey key;
	int64_t count, total, min, max;
	double bps_w, bps_d, occ_w, occ_d, sm_w;
	int tc;
	char *name, *op; /* at the end */
};

struct pr_opk {
	struct pr_actx *ctx;
	json_t *ov, *rows; /* op_view and its rows (borrowed), NULL when none */
	struct pr_strmap row_by_key;
	int64_t *dself, *dtotal, *nself;
	size_t nrows;
	int32_t other;
	int64_t unmatched;
	struct pr_strbuf key, dims, types;
	struct pr_imap
		pos; /* argkeys id -> positions of "Input Dims" + 1, "Input type" + 1 << 32 */
	struct kstat *k;
	size_t nk, kcap;
	struct pr_strmap k_by_key;
	struct kstat over; /* kernels of rows past KV_KEEP */
	int64_t over_rows;
	struct pr_imap tc_name, tc_opname; /* name id -> 1 + rule (0/1) */
	double tc_ns, all_ns, elig_ns, elig_tc_ns, op_ns;
	sqlite3_stmt *name_st;
};

/* tb_plugin/torch_tb_profiler/profiler/tensor_core.py, TC_Allowlist: a kernel whose name
 * contains one of these uses Tensor Cores. */
static const char *const tc_kernels[] = {
	"h884",
	"s884",
	"h1688",
	"s1688",
	"hmma",
	"i8816",
	"16816",
	"dgrad_1x1_stride_2x2",
	"first_layer_wgrad_kernel",
	"conv1x1",
	"conv2d_c1_k1",
	"direct_group",
	"xmma_implicit_gemm",
	"xmma_sparse_conv",
	"xmma_warp_specialized_implicit_gemm",
	"xmma_gemm",
	"xmma_sparse_gemm",
	"c1688",
};

/* The same file, TC_OP_Allowlist: ops (exact names) eligible for Tensor Cores. */
static const char *const tc_ops[] = {
	"aten::_convolution",
	"aten::_convolution_nogroup",
	"aten::conv1d",
	"aten::conv2d",
	"aten::conv3d",
	"aten::conv_tbc",
	"aten::conv_transpose1d",
	"aten::conv_transpose2d",
	"aten::conv_transpose3d",
	"aten::convolution",
	"aten::cudnn_convolution",
	"aten::cudnn_convolution_transpose",
	"aten::prelu",
	"aten::addmm",
	"aten::addmv",
	"aten::addr",
	"aten::matmul",
	"aten::mm",
	"aten::mv",
	"aten::linear",
	"aten::addbmm",
	"aten::baddbmm",
	"aten::bmm",
	"aten::chain_matmul",
	"aten::linalg_multi_dot",
	"aten::_thnn_fused_lstm_cell",
	"aten::_thnn_fused_gru_cell",
	"aten::lstm_cell",
	"aten::gru_cell",
	"aten::rnn_tanh_cell",
	"aten::rnn_relu_cell",
	"CudnnConvolutionBackward",
	"BmmBackward0",
	"aten::cudnn_convolution_transpose_backward",
	"CudnnConvolutionTransposeBackward",
	"MmBackward",
	"aten::cudnn_convolution_backward_weight",
	"aten::addmm_",
	"AddmvBackward",
	"MvBackward",
	"aten::cudnn_convolution_transpose_backward_weight",
	"aten::cudnn_convolution_transpose_backward_input",
	"AddmmBackward",
	"aten::cudnn_convolution_backward_input",
	"AddbmmBackward",
	"aten::cudnn_convolution_backward",
};

int pr_tc_kernel(const char *name)
{
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(tc_kernels); i++)
		if (strstr(name, tc_kernels[i]))
			return 1;
	return 0;
}

int pr_tc_op(const char *name)
{
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(tc_ops); i++)
		if (!strcmp(name, tc_ops[i]))
			return 1;
	return 0;
}

static void add_ns(int64_t *acc, int64_t v)
{
	*acc = v > 0 && *acc > INT64_MAX - v ? INT64_MAX : *acc + v;
}

struct pr_opk *pr_opk_new(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_opk *k = pr_xcalloc(1, sizeof(*k));
	json_t *r;
	size_t i;
	sqlite3_stmt *st;
	int rc;
	k->ctx = ctx;
	k->other = -1;
	pr_strbuf_init(&k->key);
	pr_strbuf_init(&k->dims);
	pr_strbuf_init(&k->types);
	k->ov = json_object_get(ctx->out, "op_view");
	k->rows = json_object_get(k->ov, "rows");
	if (!json_is_array(k->rows))
		k->ov = k->rows = NULL;
	k->nrows = k->rows ? json_array_size(k->rows) : 0;
	k->dself = pr_xcalloc(k->nrows + 1, sizeof(int64_t));
	k->dtotal = pr_xcalloc(k->nrows + 1, sizeof(int64_t));
	k->nself = pr_xcalloc(k->nrows + 1, sizeof(int64_t));
	json_array_foreach (k->rows, i, r) {
		json_t *d = json_object_get(r, "input_dims"), *t = json_object_get(r, "input_type");
		if (json_is_true(json_object_get(r, "other"))) {
			k->other = (int32_t)i;
			continue;
		}
		pr_opview_key(&k->key, pr_mstr(r, "name"),
			      json_is_string(d) ? json_string_value(d) : NULL,
			      json_is_string(t) ? json_string_value(t) : NULL);
		pr_strmap_put(&k->row_by_key, k->key.buf, k->key.len, (int64_t)i);
	}
	k->over.min = INT64_MAX;
	if (!k->rows)
		return k;
	/* the shapes' positions per argkeys list, as an_ops.c reads them */
	if (pr_actx_prep(ctx, OPV_KEYS_CTE "SELECT id, d, t FROM k WHERE ?1 IS NOT NULL", &st,
			 err)) {
		pr_opk_free(k);
		return NULL;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t d = sqlite3_column_type(st, 1) == SQLITE_INTEGER
				    ? sqlite3_column_int64(st, 1)
				    : -1;
		int64_t t = sqlite3_column_type(st, 2) == SQLITE_INTEGER
				    ? sqlite3_column_int64(st, 2)
				    : -1;
		if (d < INT32_MAX && t < INT32_MAX)
			pr_imap_put(&k->pos, sqlite3_column_int64(st, 0),
				    (d + 1) | ((t + 1) << 32));
	}
	if (pr_actx_done(ctx, st, rc, err)) {
		pr_opk_free(k);
		return NULL;
	}
	return k;
}

/* An element's text s[0..n) cut as pr_opview_elem cuts it, to sb. */
static void add_cut(struct pr_strbuf *sb, const char *s, size_t n)
{
	if (n > OPV_SHAPE_MAX) { /* cut on a UTF-8 character's first byte */
		n = OPV_SHAPE_MAX;
		while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	pr_strbuf_add(sb, s, n);
}

/* pr_opview_elem of positions p0 and p1 (-1: none) in one walk: the same texts in k->dims
 * and k->types, *h0 and *h1 as its returns. */
static void elems2(struct pr_opk *k, const char *s, size_t n, int64_t p0, int64_t p1, int *h0,
		   int *h1)
{
	size_t i = 1, e;
	int64_t idx = 0, maxpos = p0 > p1 ? p0 : p1;
	pr_strbuf_reset(&k->dims);
	pr_strbuf_reset(&k->types);
	*h0 = *h1 = 0;
	if (!s || n < 2 || s[0] != '[' || maxpos < 0)
		return;
	for (;;) {
		e = pr_json_elem_end(s, i, n);
		if (e >= n || e == i)
			return; /* unterminated, or an empty element */
		if (idx == p0) {
			add_cut(&k->dims, s + i, e - i);
			*h0 = 1;
		}
		if (idx == p1) {
			add_cut(&k->types, s + i, e - i);
			*h1 = 1;
		}
		if (idx >= maxpos || s[e] != ',')
			return; /* both read, or the array ends */
		i = e + 1;
		idx++;
	}
}

int32_t pr_opk_op_row(struct pr_opk *k, const char *name, int64_t akeys, const char *args,
		      size_t alen)
{
	int64_t v, p = 0;
	int hd = 0, ht = 0;
	if (!k->rows)
		return -1;
	if (akeys >= 0 && pr_imap_get(&k->pos, akeys, &p) && p) {
		elems2(k, args, alen, (p & 0xffffffff) - 1, (p >> 32) - 1, &hd, &ht);
	}
	pr_opview_key(&k->key, name, hd ? k->dims.buf : NULL, ht ? k->types.buf : NULL);
	if (pr_strmap_get(&k->row_by_key, k->key.buf, k->key.len, &v))
		return (int32_t)v;
	if (k->other >= 0)
		return k->other;
	return (int32_t)k->nrows; /* not in the view: counted apart */
}

void pr_opk_op_dev(struct pr_opk *k, int32_t row, int self, int64_t dur)
{
	if (row < 0 || (size_t)row > k->nrows)
		return;
	if (self) {
		add_ns(&k->dself[row], dur);
		k->nself[row]++;
	}
	add_ns(&k->dtotal[row], dur);
}

/* The text of a string id ("" when none), borrowed until the next call. */
static const char *str_of(struct pr_opk *k, int64_t id)
{
	if (!k->name_st && sqlite3_prepare_v2(k->ctx->db, "SELECT value FROM string WHERE id = ?1",
					      -1, &k->name_st, NULL) != SQLITE_OK)
		return "";
	sqlite3_reset(k->name_st);
	sqlite3_bind_int64(k->name_st, 1, id);
	if (sqlite3_step(k->name_st) == SQLITE_ROW)
		return pr_actx_text(k->name_st, 0);
	return "";
}

/* A cached rule of a name id: 0 or 1. */
static int rule_of(struct pr_opk *k, struct pr_imap *m, int64_t id, int (*rule)(const char *))
{
	int64_t v;
	if (!pr_imap_get(m, id, &v)) {
		v = rule(str_of(k, id));
		pr_imap_put(m, id, v);
	}
	return (int)v;
}

static void kadd(struct kstat *s, int64_t dur, double bps, double occ)
{
	s->count++;
	add_ns(&s->total, dur);
	if (dur < s->min)
		s->min = dur;
	if (dur > s->max)
		s->max = dur;
	/* gpu_breakdown's reading of the args (an_gpubreak.c) */
	if (bps > 0) {
		s->bps_w += bps * (double)dur;
		s->sm_w += (bps < 1 ? bps : 1) * (double)dur;
		s->bps_d += (double)dur;
	}
	if (occ >= 0) {
		s->occ_w += occ * (double)dur;
		s->occ_d += (double)dur;
	}
}

void pr_opk_kernel(struct pr_opk *k, int64_t name_id, int64_t op_name_id,
		   const struct pr_launch *lp, int64_t dur, double bps, double occ)
{
	struct kkey key;
	struct kstat *s;
	int64_t v;
	int tc = rule_of(k, &k->tc_name, name_id, pr_tc_kernel);
	memset(&key, 0, sizeof(key));
	key.name = name_id;
	key.op = op_name_id;
	key.lp = *lp;
	if (pr_strmap_get(&k->k_by_key, &key, sizeof(key), &v)) {
		s = &k->k[v];
	} else if (k->nk < KV_KEEP) {
		if (k->nk == k->kcap) {
			k->kcap = k->kcap ? k->kcap * 2 : 64;
			k->k = pr_xreallocarray(k->k, k->kcap, sizeof(*k->k));
		}
		s = &k->k[k->nk];
		memset(s, 0, sizeof(*s));
		s->key = key;
		s->min = INT64_MAX;
		s->tc = tc;
		pr_strmap_put(&k->k_by_key, &key, sizeof(key), (int64_t)k->nk++);
	} else {
		s = &k->over;
		k->over_rows++; /* kernels, not rows: how many were summed apart */
	}
	kadd(s, dur, bps, occ);
	k->all_ns += (double)dur;
	if (tc)
		k->tc_ns += (double)dur;
	if (op_name_id > 0) {
		k->op_ns += (double)dur;
		if (rule_of(k, &k->tc_opname, op_name_id, pr_tc_op)) {
			k->elig_ns += (double)dur;
			if (tc)
				k->elig_tc_ns += (double)dur;
		}
	}
}

static int cmp_k(const void *a, const void *b)
{
	const struct kstat *x = a, *y = b;
	int c;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if ((c = strcmp(x->name, y->name)))
		return c;
	if ((c = strcmp(x->op, y->op)))
		return c;
	return memcmp(&x->key.lp, &y->key.lp, sizeof(x->key.lp));
}

static json_t *dim3_json(const int32_t *d)
{
	if (d[0] < 0)
		return json_null();
	return json_pack("[iii]", (json_int_t)d[0], (json_int_t)d[1], (json_int_t)d[2]);
}

static json_t *int_or_null(int32_t v)
{
	return v < 0 ? json_null() : pr_jint(v);
}

static json_t *krow(const struct kstat *s, int other)
{
	json_t *o =
		pr_jobj("name", json_string(s->name), "op",
			*s->op ? json_string(s->op) : json_null(), "grid",
			other ? json_null() : dim3_json(s->key.lp.grid), "block",
			other ? json_null() : dim3_json(s->key.lp.block), "registers",
			other ? json_null() : int_or_null(s->key.lp.regs), "shared_memory",
			other ? json_null() : int_or_null(s->key.lp.smem), "calls",
			pr_jint(s->count), "total_ns", pr_jint(s->total), "mean_ns",
			pr_jnum(s->count ? (double)s->total / (double)s->count : NAN), "min_ns",
			pr_jint(s->count ? s->min : 0), "max_ns", pr_jint(s->max),
			"mean_blocks_per_sm",
			s->bps_d > 0 ? pr_jnum(s->bps_w / s->bps_d) : json_null(),
			"mean_occupancy_pct",
			s->occ_d > 0 ? pr_jnum(s->occ_w / s->occ_d) : json_null(), "sm_efficiency",
			s->bps_d > 0 ? pr_jnum(s->sm_w / s->bps_d) : json_null(), "tensor_cores",
			other ? json_null() : json_boolean(s->tc), NULL);
	if (other)
		json_object_set_new(o, "other", json_true());
	return o;
}

static void kmerge(struct kstat *d, const struct kstat *s)
{
	d->count += s->count;
	add_ns(&d->total, s->total);
	if (s->count && s->min < d->min)
		d->min = s->min;
	if (s->max > d->max)
		d->max = s->max;
	d->bps_w += s->bps_w;
	d->bps_d += s->bps_d;
	d->occ_w += s->occ_w;
	d->occ_d += s->occ_d;
	d->sm_w += s->sm_w;
}

static json_t *share(double a, double b)
{
	return b > 0 ? pr_jnum(a / b) : json_null();
}

static void kernel_view(struct pr_opk *k)
{
	json_t *rows = json_array(), *o;
	size_t i, keep = k->nk;
	int64_t kernels = 0, total = 0, folded_rows = 0;
	struct kstat fold;
	if (!k->nk && !k->over.count) {
		json_decref(rows);
		return;
	}
	for (i = 0; i < k->nk; i++) {
		k->k[i].name = pr_xstrdup(str_of(k, k->k[i].key.name));
		k->k[i].op = pr_xstrdup(k->k[i].key.op > 0 ? str_of(k, k->k[i].key.op) : "");
		kernels += k->k[i].count;
		add_ns(&total, k->k[i].total);
	}
	kernels += k->over.count;
	add_ns(&total, k->over.total);
	if (k->nk)
		qsort(k->k, k->nk, sizeof(*k->k), cmp_k);
	memset(&fold, 0, sizeof(fold));
	fold.min = INT64_MAX;
	if (k->nk > OPV_ROWS || (k->over.count && k->nk >= OPV_ROWS))
		keep = OPV_ROWS - 1;
	for (i = keep; i < k->nk; i++) {
		kmerge(&fold, &k->k[i]);
		folded_rows++;
	}
	if (k->over.count)
		kmerge(&fold, &k->over);
	for (i = 0; i < keep; i++)
		json_array_append_new(rows, krow(&k->k[i], 0));
	if (fold.count) {
		fold.name = (char *)PR_KVIEW_OTHER;
		fold.op = (char *)"";
		json_array_append_new(rows, krow(&fold, 1));
	}
	o = pr_jobj("rows", rows, "distinct", pr_jint((int64_t)k->nk), "folded",
		    pr_jint(folded_rows), "kernels", pr_jint(kernels), "total_ns", pr_jint(total),
		    NULL);
	if (k->over.count)
		json_object_set_new(o, "kernels_past_keep", pr_jint(k->over.count));
	json_object_set_new(
		o, "tensor_cores",
		pr_jobj("kernel_share", share(k->tc_ns, k->all_ns), "eligible_op_share",
			share(k->elig_ns, k->op_ns), "eligible_on_tc_share",
			share(k->elig_tc_ns, k->elig_ns), "rule",
			json_string(
				"TensorBoard's (tb_plugin profiler/tensor_core.py): a kernel uses "
				"Tensor Cores when its name contains one of TC_Allowlist's "
				"patterns; an op is eligible when its name is in TC_OP_Allowlist. "
				"kernel_share = TC kernels' time / all kernels' time; "
				"eligible_op_share = time of kernels launched by eligible ops "
				"(nearest op) / kernels launched by any op; eligible_on_tc_share "
				"= the part of the latter on TC kernels; whole run, not steps"),
			NULL));
	json_object_set_new(
		o, "rule",
		json_string(
			"every kernel grouped by (name, launching op = nearest op ancestor of "
			"its runtime call, grid, block, registers per thread, shared memory); "
			"mean blocks per SM, est. achieved occupancy and SM efficiency (min(blocks "
			"per SM, 1)) weighted by duration over the kernels with the arg "
			"(TensorBoard's kernel view); at most 5000 rows, the smallest by total "
			"folded into \"(other kernels)\""));
	json_object_set_new(k->ctx->out, "kernel_view", o);
}

int pr_opk_finish(struct pr_opk *k, struct pr_error *err)
{
	size_t i;
	json_t *r;
	int64_t self = 0, tot = 0;
	(void)err;
	json_array_foreach (k->rows, i, r) {
		json_object_set_new(r, "device_self_ns", pr_jint(k->dself[i]));
		json_object_set_new(r, "device_total_ns", pr_jint(k->dtotal[i]));
		json_object_set_new(r, "activities", pr_jint(k->nself[i]));
		add_ns(&self, k->dself[i]);
		add_ns(&tot, k->dtotal[i]);
	}
	if (k->ov) {
		json_object_set_new(k->ov, "has_device", json_true());
		json_object_set_new(k->ov, "device_self_ns", pr_jint(self));
		if (k->dtotal[k->nrows])
			json_object_set_new(k->ov, "device_unmatched_ns",
					    pr_jint(k->dtotal[k->nrows]));
	}
	kernel_view(k);
	return 0;
}

void pr_opk_free(struct pr_opk *k)
{
	size_t i;
	if (!k)
		return;
	for (i = 0; i < k->nk; i++) {
		free(k->k[i].name);
		free(k->k[i].op);
	}
	free(k->k);
	free(k->dself);
	free(k->dtotal);
	free(k->nself);
	pr_strmap_release(&k->row_by_key);
	pr_strmap_release(&k->k_by_key);
	pr_imap_release(&k->tc_name);
	pr_imap_release(&k->tc_opname);
	pr_strbuf_release(&k->key);
	pr_strbuf_release(&k->dims);
	pr_strbuf_release(&k->types);
	pr_imap_release(&k->pos);
	if (k->name_st)
		sqlite3_finalize(k->name_st);
	free(k);
}
