/*
 * an_peaks.c - "peaks": for every memory-like series, the global peak
 * (first sample reaching the maximum), the phase and step it fell in,
 * the innermost host span open at that time, the user-level frame that
 * holds the peak (held_by, peak_owner.c), and the peak inside each phase name
 * (at most PER_PHASE_MAX names, the highest; per_phase_more counts the rest).
 * A run without memory series gets an empty list: absent, never zero; a
 * series that never rises above 0 has no peak. The list is in primary.c's
 * order (the primary series first), each peak with its series' label.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/results.h"
#include "analyze/analyzers.h"
#include "analyze/peak_owner.h"
#include "analyze/primary.h"
#include "analyze/spans_at.h"
#include "base/xalloc.h"

static json_t *span_ref(const struct pr_actx *ctx, const struct pr_aspan *p)
{
	if (!p)
		return json_null();
	return pr_jobj("name", json_string(p->name), "occurrence", pr_jint((int64_t)p->occurrence),
		       "t_ns", pr_actx_t(ctx, p->ts), "dur_ns", pr_jint(p->dur), NULL);
}

#define PER_PHASE_MAX 1000 /* phase names with their own peak, per series */

struct phase_peak {
	size_t k; /* the name's index (first-seen order) */
	size_t occ;
	double value;
	int64_t t;
};

static int cmp_peak_desc(const void *a, const void *b)
{
	const struct phase_peak *x = a, *y = b;
	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static int cmp_peak_name(const void *a, const void *b)
{
	const struct phase_peak *x = a, *y = b;
	return x->k < y->k ? -1 : x->k > y->k;
}

/*
 * The peak of s inside each phase name, in first-seen order; at most
 * PER_PHASE_MAX names, those with the largest peaks (issue 12: 300 k phase
 * names made 300 k entries per memory series), the number left out in
 * *more.
 */
static json_t *per_phase(const struct pr_actx *ctx, const struct pr_aseries *s, size_t *more)
{
	json_t *arr = json_array();
	struct phase_peak *pp = pr_xcalloc(ctx->nphase_names + 1, sizeof(*pp));
	size_t k, j, n = 0;
	for (k = 0; k < ctx->nphase_names; k++) {
		double best = 0;
		int64_t best_t = 0;
		size_t best_occ = 0;
		for (j = ctx->phase_group_start[k]; j < ctx->phase_group_start[k + 1]; j++) {
			const struct pr_aspan *q = &ctx->phases[ctx->phase_group[j]];
			size_t i;
			struct pr_sample x;
			for (i = pr_aseries_lower(s, q->ts);
			     i < s->n && (x = pr_aseries_get(s, i)).ts <= q->ts + q->dur; i++)
				if (!best_occ || x.v > best) {
					best = x.v;
					best_t = x.ts;
					best_occ = q->occurrence;
				}
		}
		if (best_occ)
			pp[n++] = (struct phase_peak){ k, best_occ, best, best_t };
	}
	*more = 0;
	if (n > PER_PHASE_MAX) {
		qsort(pp, n, sizeof(*pp), cmp_peak_desc);
		*more = n - PER_PHASE_MAX;
		n = PER_PHASE_MAX;
		qsort(pp, n, sizeof(*pp), cmp_peak_name);
	}
	for (j = 0; j < n; j++) {
		const struct pr_aspan *first =
			&ctx->phases[ctx->phase_group[ctx->phase_group_start[pp[j].k]]];
		json_array_append_new(arr, pr_jobj("phase", json_string(first->name), "occurrence",
						   pr_jint((int64_t)pp[j].occ), "value",
						   pr_jnum(pp[j].value), "t_ns",
						   pr_actx_t(ctx, pp[j].t), NULL));
	}
	free(pp);
	return arr;
}

/* Index of the first sample at the series' maximum. */
static size_t peak_index(const struct pr_aseries *s)
{
	size_t pk = 0, k;
	double best = s->n ? pr_aseries_v(s, 0) : 0, x;
	for (k = 1; k < s->n; k++)
		if ((x = pr_aseries_v(s, k)) > best) {
			pk = k;
			best = x;
		}
	return pk;
}

int pr_peaks_points(struct pr_actx *ctx, int64_t **t, size_t *n, size_t *cap, struct pr_error *err)
{
	size_t i;
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		if (!s->memory)
			continue;
		if (pr_actx_load(ctx, s, err))
			return -1;
		if (!s->n || !(pr_aseries_v(s, peak_index(s)) > 0))
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*t = pr_xreallocarray(*t, *cap, sizeof(**t));
		}
		(*t)[(*n)++] = pr_aseries_t(s, peak_index(s));
	}
	return 0;
}

/* The peaks first, then the spans at all of them in one scan (pr_actx_spans_at). */
/* What later analyzers read (results.h): each peak's series and value. */
static void publish(struct pr_actx *ctx, const json_t *arr)
{
	struct pr_res_peaks *r = &pr_results(ctx)->peaks;
	const json_t *v;
	size_t i;
	r->present = 1;
	r->n = json_array_size(arr);
	r->v = pr_res_array(r->n, sizeof(*r->v));
	json_array_foreach (arr, i, v) {
		r->v[i].series = pr_mstr(v, "series");
		r->v[i].value = pr_mnum(v, "value");
	}
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *arr = json_array(), **spans;
	size_t i, n = 0, *which, *at, *order, norder;
	int64_t *t;
	json_object_set_new(ctx->out, "peaks", arr);
	which = pr_xcalloc(ctx->nseries + 1, sizeof(*which));
	at = pr_xcalloc(ctx->nseries + 1, sizeof(*at));
	t = pr_xcalloc(ctx->nseries + 1, sizeof(*t));
	norder = pr_series_order(ctx, &order);
	for (i = 0; i < norder; i++) {
		struct pr_aseries *s = &ctx->series[order[i]];
		size_t pk;
		if (pr_actx_load(ctx, s, err)) {
			free(order);
			goto fail;
		}
		if (!s->n)
			continue;
		pk = peak_index(s);
		if (!(pr_aseries_v(s, pk) > 0))
			continue; /* all zero: no peak */
		which[n] = order[i];
		at[n] = pk;
		t[n++] = pr_aseries_t(s, pk);
	}
	free(order);
	spans = pr_xcalloc(n + 1, sizeof(*spans));
	if (pr_actx_spans_at(ctx, t, n, spans, err)) {
		free(spans);
		goto fail;
	}
	for (i = 0; i < n; i++) {
		struct pr_aseries *s = &ctx->series[which[i]];
		struct pr_sample pk = pr_aseries_get(s, at[i]);
		size_t more;
		json_t *o, *held;
		if (pr_peak_owner(ctx, s, pk.ts, pk.v, &held, err)) {
			for (; i < n; i++)
				json_decref(spans[i]);
			free(spans);
			goto fail;
		}
		o = pr_jobj("series", json_string(s->name), "label",
			    pr_series_label_json(s->name, s->device), "device",
			    json_string(s->device), "unit", json_string(s->unit), "value",
			    pr_jnum(pk.v), "t_ns", pr_actx_t(ctx, pk.ts), "phase",
			    span_ref(ctx, pr_actx_phase_at(ctx, pk.ts)), "step",
			    span_ref(ctx, pr_actx_step_at(ctx, pk.ts)), "span", spans[i], "held_by",
			    held, "per_phase", per_phase(ctx, s, &more), NULL);
		if (more)
			json_object_set_new(o, "per_phase_more", pr_jint((int64_t)more));
		json_array_append_new(arr, o);
	}
	free(spans);
	free(which);
	free(at);
	free(t);
	publish(ctx, arr);
	return 0;
fail:
	free(which);
	free(at);
	free(t);
	return -1;
}

const struct pr_analyzer pr_an_peaks = {
	.name = "peaks",
	.summary =
		"global and per-phase peak of every memory series, with the phase, step and span at the peak",
	.run = run,
};
