/*
 * an_fragmentation.c - "fragmentation": for every device with both
 * dev.mem.allocated and dev.mem.reserved, the gap reserved - allocated
 * and the ratio (reserved - allocated) / reserved over time (both series
 * sampled at the union of their sample times, each holding its last
 * value), its mean/p95/max, the worst moments (largest gaps) with the
 * span open then, and per-layer means over the samples inside each layer
 * span (MemoryTracer), next to the collector's own per-layer numbers.
 * Ratios are fractions 0..1.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/results.h"
#include "analyze/analyzers.h"
#include "analyze/spans_at.h"
#include "analyze/spanstat.h"
#include "base/stats.h"
#include "base/parray.h"
#include "base/xalloc.h"
#include "base/xsort.h"

struct fpoint {
	int64_t ts;
	double gap, ratio;
};

#define WORST 3

/* The two series sampled at the union of their times, each holding its last value. */
struct merge {
	const struct pr_aseries *a, *r;
	size_t i, j;
	double va, vr;
};

static void merge_start(struct merge *m, const struct pr_aseries *a, const struct pr_aseries *r)
{
	*m = (struct merge){ a, r, 0, 0, NAN, NAN };
}

/* The next point where both values are known and reserved is positive: 1, or 0 at the end. */
static int merge_next(struct merge *m, struct fpoint *out)
{
	const struct pr_aseries *a = m->a, *r = m->r;
	while (m->i < a->n || m->j < r->n) {
		struct pr_sample x = { 0, 0 }, y = { 0, 0 };
		int64_t t;
		if (m->i < a->n)
			x = pr_aseries_get(a, m->i);
		if (m->j < r->n)
			y = pr_aseries_get(r, m->j);
		t = m->j >= r->n || (m->i < a->n && x.ts <= y.ts) ? x.ts : y.ts;
		while (m->i < a->n && x.ts == t) {
			m->va = x.v;
			if (++m->i < a->n)
				x = pr_aseries_get(a, m->i);
		}
		while (m->j < r->n && y.ts == t) {
			m->vr = y.v;
			if (++m->j < r->n)
				y = pr_aseries_get(r, m->j);
		}
		if (isnan(m->va) || isnan(m->vr) || m->vr <= 0)
			continue;
		out->ts = t;
		out->gap = m->vr - m->va;
		out->ratio = (m->vr - m->va) / m->vr;
		return 1;
	}
	return 0;
}

/*
 * The WORST largest positive gaps, largest first, a gap tied with an
 * earlier point's after it: points are offered in time order (one each
 * time), so that this is the first point of the largest gap, then the
 * first of the largest among the rest, and so on.
 */
struct worst {
	struct fpoint p[WORST];
	size_t n;
};

static void worst_offer(struct worst *w, const struct fpoint *q)
{
	size_t k;
	if (!(q->gap > 0))
		return;
	for (k = 0; k < w->n && !(q->gap > w->p[k].gap); k++)
		;
	if (k >= WORST)
		return;
	memmove(&w->p[k + 1], &w->p[k], (WORST - 1 - k) * sizeof(w->p[0]));
	w->p[k] = *q;
	if (w->n < WORST)
		w->n++;
}

/* A worst moment waiting for its span: all devices' are looked up in one scan. */
struct pending {
	json_t *arr;
	int64_t ts;
	double gap, ratio;
};

struct pendings {
	struct pending *v;
	size_t n, cap;
};

static void worst_pend(const struct worst *w, json_t *arr, struct pendings *pend)
{
	size_t k;
	for (k = 0; k < w->n; k++) {
		const struct fpoint *q = &w->p[k];
		if (pend->n == pend->cap) {
			pend->cap = pend->cap ? pend->cap * 2 : 16;
			pend->v = pr_xreallocarray(pend->v, pend->cap, sizeof(*pend->v));
		}
		pend->v[pend->n++] = (struct pending){ arr, q->ts, q->gap, q->ratio };
	}
}

/* The devices' allocated and reserved series, loaded, or NULL (a is not one). */
static struct pr_aseries *reserved_of(struct pr_actx *ctx, struct pr_aseries *a)
{
	if (strcmp(a->name, "dev.mem.allocated"))
		return NULL;
	return pr_actx_series(ctx, "dev.mem.reserved", a->device);
}

int pr_fragmentation_points(struct pr_actx *ctx, int64_t **t, size_t *n, size_t *cap,
			    struct pr_error *err)
{
	size_t i, k;
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *a = &ctx->series[i], *r = reserved_of(ctx, a);
		struct worst w = { .n = 0 };
		struct merge m;
		struct fpoint q;
		if (!r)
			continue;
		if (pr_actx_load(ctx, a, err) || pr_actx_load(ctx, r, err))
			return -1;
		merge_start(&m, a, r);
		while (merge_next(&m, &q))
			worst_offer(&w, &q);
		for (k = 0; k < w.n; k++) {
			if (*n == *cap) {
				*cap = *cap ? *cap * 2 : 16;
				*t = pr_xreallocarray(*t, *cap, sizeof(**t));
			}
			(*t)[(*n)++] = w.p[k].ts;
		}
	}
	return 0;
}

/* The spans at the worst moments of every device, in one scan. */
static int worst_spans(struct pr_actx *ctx, const struct pendings *pend, struct pr_error *err)
{
	int64_t *t = pr_xcalloc(pend->n + 1, sizeof(*t));
	json_t **spans = pr_xcalloc(pend->n + 1, sizeof(*spans));
	size_t k;
	int rc;
	for (k = 0; k < pend->n; k++)
		t[k] = pend->v[k].ts;
	rc = pr_actx_spans_at(ctx, t, pend->n, spans, err);
	for (k = 0; !rc && k < pend->n; k++) {
		const struct pending *q = &pend->v[k];
		json_array_append_new(q->arr,
				      pr_jobj("t_ns", pr_actx_t(ctx, q->ts), "gap", pr_jnum(q->gap),
					      "ratio", pr_jnum(q->ratio), "span", spans[k], NULL));
	}
	free(t);
	free(spans);
	return rc;
}

/* Per layer: mean ratio of the points inside each span of kind 'layer', by name (first-seen order). */
static int layers(struct pr_actx *ctx, struct pr_parray *p, json_t *arr, struct pr_error *err)
{
	size_t n = pr_parray_count(p);
	sqlite3_stmt *st;
	int rc;
	if (pr_actx_prep(
		    ctx,
		    "SELECT n.value, group_concat(s.ts || ':' || s.dur), min(s.id), "
		    "(SELECT m.value FROM metric m WHERE m.run_id = ?1 AND m.origin = 'reported' "
		    " AND m.name = 'layer.avg_fragmentation' AND m.detail = n.value) "
		    "FROM span s JOIN string n ON n.id = s.name_id "
		    "WHERE s.run_id = ?1 AND s.kind = 'layer' GROUP BY s.name_id ORDER BY 3",
		    &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *iv = pr_actx_text(st, 1);
		struct pr_moments m;
		double gapmax = NAN;
		pr_moments_init(&m);
		while (*iv) {
			char *end;
			long long ts = strtoll(iv, &end, 10), dur = 0;
			size_t k;
			struct fpoint q;
			if (*end == ':')
				dur = strtoll(end + 1, &end, 10);
			/* the points are in time order: those at ts .. ts + dur follow one another */
			for (k = pr_parray_lower(p, ts); k < n; k++) {
				memcpy(&q, pr_parray_at(p, k), sizeof(q));
				if (q.ts > ts + dur)
					break;
				pr_moments_add(&m, q.ratio);
				if (isnan(gapmax) || q.gap > gapmax)
					gapmax = q.gap;
			}
			iv = *end == ',' ? end + 1 : end;
			if (!*end)
				break;
		}
		json_array_append_new(arr, pr_jobj("layer", json_string(pr_actx_text(st, 0)),
						   "samples", pr_jnum(m.n), "mean_ratio",
						   m.n ? pr_jnum(m.mean) : json_null(), "max_gap",
						   pr_jnum(gapmax), "reported_avg_ratio",
						   sqlite3_column_type(st, 3) == SQLITE_NULL
							   ? json_null()
							   : pr_jnum(sqlite3_column_double(st, 3) /
								     100.0),
						   NULL));
	}
	return pr_actx_done(ctx, st, rc, err);
}

/* A key of a double whose unsigned order is the numbers' order: its bits, negatives reversed. */
static uint64_t dkey(double d)
{
	uint64_t b;
	memcpy(&b, &d, sizeof(b));
	return b >> 63 ? ~b : b | (uint64_t)1 << 63;
}

static double dval(uint64_t k)
{
	uint64_t b = k >> 63 ? k & ~((uint64_t)1 << 63) : ~k;
	double d;
	memcpy(&d, &b, sizeof(d));
	return d;
}

/* Quantile q (0 < q < 1) of the n (> 0) keys (dkey) sorted in xs: pr_quantile_sorted's. */
static double xquantile(struct pr_xsort *xs, uint64_t n, double q)
{
	double pos = q * (double)(n - 1), v[2] = { NAN, NAN };
	uint64_t lo = (uint64_t)pos, i, k;
	const void *p;
	for (i = 0; i <= lo + 1 && (p = pr_xsort_next(xs)); i++)
		if (i >= lo) {
			memcpy(&k, p, sizeof(k));
			v[i - lo] = dval(k);
		}
	if (lo + 1 >= n)
		return v[0];
	return v[0] + (v[1] - v[0]) * (pos - (double)lo);
}

/*
 * One device: its points come one at a time from the two series (which may
 * be in scratch files, actx.h); the ratios go to an external sort for their
 * p95 and, when there are layer spans to look them up in, the points to a
 * paged array: the memory does not grow with the samples.
 */
static int device(struct pr_actx *ctx, const struct pr_aseries *a, const struct pr_aseries *r,
		  int with_layers, json_t *arr, struct pendings *pend, struct pr_error *err)
{
	struct pr_xsort *xs =
		pr_xsort_new("fragmentation's ratios", sizeof(uint64_t), pr_xsort_mem / 4, 0);
	struct pr_parray *pts = NULL;
	struct worst wst = { .n = 0 };
	struct merge mg;
	struct fpoint q, last = { 0, 0, 0 };
	struct pr_moments m;
	double gapmax = 0, p95;
	uint64_t n = 0, key;
	json_t *o, *w, *l;
	int rc = -1;
	if (with_layers)
		pts = pr_parray_new(ctx->pcache, "fragmentation's points", sizeof(q), a->n + r->n);
	pr_moments_init(&m);
	merge_start(&mg, a, r);
	while (merge_next(&mg, &q)) {
		pr_moments_add(&m, q.ratio);
		key = dkey(q.ratio);
		pr_xsort_put(xs, &key); /* failures are sticky: pr_xsort_sort says */
		if (q.gap > gapmax)
			gapmax = q.gap;
		worst_offer(&wst, &q);
		if (pts)
			pr_parray_put(pts, &q); /* as is pr_parray_failed */
		last = q;
		n++;
	}
	if (!n) {
		rc = 0;
		goto out;
	}
	if (pr_xsort_sort(xs, err) || (pts && pr_parray_failed(pts, err)))
		goto out;
	p95 = xquantile(xs, n, 0.95);
	if (pr_xsort_failed(xs, err))
		goto out;
	w = json_array();
	l = json_array();
	o = pr_jobj("device", json_string(a->device), "samples", pr_jint((int64_t)n), "mean_ratio",
		    pr_jnum(m.mean), "p95_ratio", pr_jnum(p95), "max_ratio", pr_jnum(m.max),
		    "max_gap", pr_jnum(gapmax), "final_gap", pr_jnum(last.gap), "worst", w,
		    "layers", l, NULL);
	json_array_append_new(arr, o);
	worst_pend(&wst, w, pend);
	if (pts && (layers(ctx, pts, l, err) || pr_parray_failed(pts, err)))
		goto out;
	rc = 0;
out:
	pr_xsort_free(xs);
	pr_parray_free(pts);
	return rc;
}

/* What later analyzers read (results.h): each device's mean ratio and largest gap. */
static void publish(struct pr_actx *ctx, const json_t *arr)
{
	struct pr_res_fragmentation *r = &pr_results(ctx)->fragmentation;
	const json_t *v;
	size_t i;
	r->present = 1;
	r->n = json_array_size(arr);
	r->v = pr_res_array(r->n, sizeof(*r->v));
	json_array_foreach (arr, i, v) {
		r->v[i].device = pr_mstr(v, "device");
		r->v[i].mean_ratio = pr_mnum(v, "mean_ratio");
		r->v[i].max_gap = pr_mnum(v, "max_gap");
	}
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *arr = json_array();
	struct pendings pend = { 0 };
	const struct pr_spanstat *ss;
	size_t i;
	int rc = -1, with_layers = -1;
	json_object_set_new(ctx->out, "fragmentation", arr);
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *a = &ctx->series[i], *r;
		if (!(r = reserved_of(ctx, a)))
			continue;
		if (pr_actx_load(ctx, a, err) || pr_actx_load(ctx, r, err))
			goto out;
		if (with_layers < 0) {
			/* no layer span: no scan (the shared pass counted them) */
			if (!(ss = pr_spanstat_get(ctx, err)))
				goto out;
			with_layers = pr_spanstat_kind_count(ss, "layer") != 0;
		}
		if (device(ctx, a, r, with_layers, arr, &pend, err))
			goto out;
	}
	rc = worst_spans(ctx, &pend, err);
	if (!rc)
		publish(ctx, arr);
out:
	free(pend.v);
	return rc;
}

const struct pr_analyzer pr_an_fragmentation = {
	.name = "fragmentation",
	.summary =
		"reserved - allocated over time, (reserved - allocated)/reserved, worst moments, per layer",
	.run = run,
};
