/*
 * an_peaks.c - "peaks": for every memory-like series, the global peak
 * (first sample reaching the maximum), the phase and step it fell in,
 * the innermost host span open at that time (for torch traces the op or
 * annotation that held the peak), and the peak inside each phase name.
 * A run without memory series gets an empty list: absent, never zero.
 */
#include <string.h>

#include "analyze/actx.h"

static json_t *span_ref(const struct pr_actx *ctx, const struct pr_aspan *p)
{
	if (!p)
		return json_null();
	return pr_jobj("name", json_string(p->name), "occurrence", pr_jint((int64_t)p->occurrence),
		       "t_ns", pr_actx_t(ctx, p->ts), "dur_ns", pr_jint(p->dur), NULL);
}

static json_t *per_phase(const struct pr_actx *ctx, const struct pr_aseries *s)
{
	json_t *arr = json_array();
	size_t k, j;
	for (k = 0; k < ctx->nphase_names; k++) {
		double best = 0;
		int64_t best_t = 0;
		size_t best_occ = 0;
		for (j = ctx->phase_group_start[k]; j < ctx->phase_group_start[k + 1]; j++) {
			const struct pr_aspan *q = &ctx->phases[ctx->phase_group[j]];
			size_t i;
			for (i = pr_aseries_lower(s, q->ts); i < s->n && s->ts[i] <= q->ts + q->dur; i++)
				if (!best_occ || s->v[i] > best) {
					best = s->v[i];
					best_t = s->ts[i];
					best_occ = q->occurrence;
				}
		}
		if (best_occ)
			json_array_append_new(
				arr, pr_jobj("phase",
					     json_string(ctx->phases[ctx->phase_group[ctx->phase_group_start[k]]].name),
					     "occurrence", pr_jint((int64_t)best_occ), "value", pr_jnum(best),
					     "t_ns", pr_actx_t(ctx, best_t), NULL));
	}
	return arr;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *arr = json_array();
	size_t i, k;
	json_object_set_new(ctx->out, "peaks", arr);
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		size_t pk = 0;
		json_t *span;
		if (!s->memory)
			continue;
		if (pr_actx_load(ctx, s, err))
			return -1;
		if (!s->n)
			continue;
		for (k = 1; k < s->n; k++)
			if (s->v[k] > s->v[pk])
				pk = k;
		span = pr_actx_span_at(ctx, s->ts[pk], err);
		if (!span)
			return -1;
		json_array_append_new(
			arr, pr_jobj("series", json_string(s->name), "device", json_string(s->device),
				     "unit", json_string(s->unit), "value", pr_jnum(s->v[pk]), "t_ns",
				     pr_actx_t(ctx, s->ts[pk]), "phase",
				     span_ref(ctx, pr_actx_phase_at(ctx, s->ts[pk])), "step",
				     span_ref(ctx, pr_actx_step_at(ctx, s->ts[pk])), "span", span,
				     "per_phase", per_phase(ctx, s), NULL));
	}
	return 0;
}

const struct pr_analyzer pr_an_peaks = {
	.name = "peaks",
	.summary = "global and per-phase peak of every memory series, with the phase, step and span at the peak",
	.run = run,
};
