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
#include "analyze/spanstat.h"
#include "analyze/stats.h"
#include "base/xalloc.h"

struct fpoint {
	int64_t ts;
	double gap, ratio;
};

#define WORST 3

static size_t merge(const struct pr_aseries *a, const struct pr_aseries *r, struct fpoint *out)
{
	size_t i = 0, j = 0, n = 0;
	double va = NAN, vr = NAN;
	while (i < a->n || j < r->n) {
		int64_t t;
		if (j >= r->n || (i < a->n && a->ts[i] <= r->ts[j]))
			t = a->ts[i];
		else
			t = r->ts[j];
		while (i < a->n && a->ts[i] == t)
			va = a->v[i++];
		while (j < r->n && r->ts[j] == t)
			vr = r->v[j++];
		if (isnan(va) || isnan(vr) || vr <= 0)
			continue;
		out[n].ts = t;
		out[n].gap = vr - va;
		out[n].ratio = (vr - va) / vr;
		n++;
	}
	return n;
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

/* The WORST largest gaps at distinct times: indexes into p, how many. */
static size_t pick_worst(const struct fpoint *p, size_t n, size_t picked[WORST])
{
	size_t np = 0, i, k;
	while (np < WORST) {
		size_t best = n;
		for (i = 0; i < n; i++) {
			int used = 0;
			for (k = 0; k < np; k++)
				used |= picked[k] == i || p[picked[k]].ts == p[i].ts;
			if (!used && (best == n || p[i].gap > p[best].gap))
				best = i;
		}
		if (best == n || p[best].gap <= 0)
			break;
		picked[np++] = best;
	}
	return np;
}

static void worst(const struct fpoint *p, size_t n, json_t *arr, struct pendings *pend)
{
	size_t picked[WORST], np = pick_worst(p, n, picked), k;
	for (k = 0; k < np; k++) {
		const struct fpoint *q = &p[picked[k]];
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
		size_t picked[WORST], np, m;
		struct fpoint *p;
		if (!r)
			continue;
		if (pr_actx_load(ctx, a, err) || pr_actx_load(ctx, r, err))
			return -1;
		p = pr_xcalloc(a->n + r->n + 1, sizeof(*p));
		m = merge(a, r, p);
		np = m ? pick_worst(p, m, picked) : 0;
		for (k = 0; k < np; k++) {
			if (*n == *cap) {
				*cap = *cap ? *cap * 2 : 16;
				*t = pr_xreallocarray(*t, *cap, sizeof(**t));
			}
			(*t)[(*n)++] = p[picked[k]].ts;
		}
		free(p);
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
		json_array_append_new(q->arr, pr_jobj("t_ns", pr_actx_t(ctx, q->ts), "gap",
						      pr_jnum(q->gap), "ratio", pr_jnum(q->ratio),
						      "span", spans[k], NULL));
	}
	free(t);
	free(spans);
	return rc;
}

/* Per layer: mean ratio of the points inside each span of kind 'layer', by name (first-seen order). */
static int layers(struct pr_actx *ctx, const struct fpoint *p, size_t n, json_t *arr,
		  struct pr_error *err)
{
	const struct pr_spanstat *ss = pr_spanstat_get(ctx, err);
	sqlite3_stmt *st;
	int rc;
	if (!ss)
		return -1;
	if (!pr_spanstat_kind_count(ss, "layer"))
		return 0; /* no layer span: no scan (the shared pass counted them) */
	if (pr_actx_prep(ctx,
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
			if (*end == ':')
				dur = strtoll(end + 1, &end, 10);
			for (k = 0; k < n; k++)
				if (p[k].ts >= ts && p[k].ts <= ts + dur) {
					pr_moments_add(&m, p[k].ratio);
					if (isnan(gapmax) || p[k].gap > gapmax)
						gapmax = p[k].gap;
				}
			iv = *end == ',' ? end + 1 : end;
			if (!*end)
				break;
		}
		json_array_append_new(
			arr, pr_jobj("layer", json_string(pr_actx_text(st, 0)), "samples", pr_jnum(m.n),
				     "mean_ratio", m.n ? pr_jnum(m.mean) : json_null(), "max_gap",
				     pr_jnum(gapmax), "reported_avg_ratio",
				     sqlite3_column_type(st, 3) == SQLITE_NULL
					     ? json_null()
					     : pr_jnum(sqlite3_column_double(st, 3) / 100.0),
				     NULL));
	}
	return pr_actx_done(ctx, st, rc, err);
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *arr = json_array();
	struct pendings pend = { 0 };
	size_t i;
	int rc;
	json_object_set_new(ctx->out, "fragmentation", arr);
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *a = &ctx->series[i], *r;
		struct fpoint *p;
		struct pr_moments m;
		double *sorted, gapmax = 0;
		size_t n, k;
		json_t *o, *w, *l;
		if (!(r = reserved_of(ctx, a)))
			continue;
		if (pr_actx_load(ctx, a, err) || pr_actx_load(ctx, r, err)) {
			free(pend.v);
			return -1;
		}
		p = pr_xcalloc(a->n + r->n + 1, sizeof(*p));
		n = merge(a, r, p);
		if (!n) {
			free(p);
			continue;
		}
		pr_moments_init(&m);
		sorted = pr_xcalloc(n, sizeof(*sorted));
		for (k = 0; k < n; k++) {
			pr_moments_add(&m, p[k].ratio);
			sorted[k] = p[k].ratio;
			if (p[k].gap > gapmax)
				gapmax = p[k].gap;
		}
		pr_sort_doubles(sorted, n);
		w = json_array();
		l = json_array();
		o = pr_jobj("device", json_string(a->device), "samples", pr_jint((int64_t)n),
			    "mean_ratio", pr_jnum(m.mean), "p95_ratio",
			    pr_jnum(pr_quantile_sorted(sorted, n, 0.95)), "max_ratio", pr_jnum(m.max),
			    "max_gap", pr_jnum(gapmax), "final_gap", pr_jnum(p[n - 1].gap), "worst", w,
			    "layers", l, NULL);
		free(sorted);
		json_array_append_new(arr, o);
		worst(p, n, w, &pend);
		if (layers(ctx, p, n, l, err)) {
			free(p);
			free(pend.v);
			return -1;
		}
		free(p);
	}
	rc = worst_spans(ctx, &pend, err);
	free(pend.v);
	return rc;
}

const struct pr_analyzer pr_an_fragmentation = {
	.name = "fragmentation",
	.summary = "reserved - allocated over time, (reserved - allocated)/reserved, worst moments, per layer",
	.run = run,
};
