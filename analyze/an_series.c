/*
 * an_series.c - "series": every time series of the run with its statistics
 * and a timeline for the panels, reduced to min/max per bucket (in time
 * order) when longer than opts->timeline_points, so a 10 M-sample series
 * costs the model as much as a 2 k one and draws the same. Each series has
 * a human label; "primary_series" names the memory series that speaks
 * first (primary.c).
 */
#include <math.h>
#include <stdlib.h>

#include "analyze/actx.h"
#include "analyze/primary.h"
#include "analyze/stats.h"
#include "base/xalloc.h"

static json_t *timeline(const struct pr_actx *ctx, const struct pr_aseries *s)
{
	json_t *t = json_array(), *v = json_array();
	size_t cap = ctx->opts->timeline_points, i;
	if (s->n <= cap) {
		for (i = 0; i < s->n; i++) {
			json_array_append_new(t, pr_actx_t(ctx, pr_aseries_t(s, i)));
			json_array_append_new(v, pr_jnum(pr_aseries_v(s, i)));
		}
	} else {
		size_t buckets = cap / 2 ? cap / 2 : 1, b;
		int64_t t0 = pr_aseries_t(s, 0), span = pr_aseries_t(s, s->n - 1) - t0 + 1;
		i = 0;
		for (b = 0; b < buckets && i < s->n; b++) {
			int64_t end = t0 + (int64_t)((double)span * (double)(b + 1) / (double)buckets);
			size_t lo = i, hi = i;
			struct pr_sample x, slo = { 0, 0 }, shi = { 0, 0 };
			if (b + 1 == buckets)
				end = INT64_MAX;
			for (; i < s->n && (x = pr_aseries_get(s, i)).ts < end; i++) {
				if (i == lo || x.v < slo.v) {
					lo = i;
					slo = x;
				}
				if (i == hi || x.v > shi.v) {
					hi = i;
					shi = x;
				}
			}
			if (i == lo && i == hi)
				continue; /* empty bucket */
			if (lo > hi) {
				x = slo;
				slo = shi;
				shi = x;
			}
			json_array_append_new(t, pr_actx_t(ctx, slo.ts));
			json_array_append_new(v, pr_jnum(slo.v));
			if (hi != lo) {
				json_array_append_new(t, pr_actx_t(ctx, shi.ts));
				json_array_append_new(v, pr_jnum(shi.v));
			}
		}
	}
	return pr_jobj("t_ns", t, "v", v, "reduced", json_boolean(s->n > cap), NULL);
}

/* The first memory series of primary.c's order that rises above 0, or null. */
static json_t *primary(const struct pr_actx *ctx, const double *max)
{
	size_t *order, n = pr_series_order(ctx, &order), i;
	json_t *o = json_null();
	for (i = 0; i < n; i++) {
		const struct pr_aseries *s = &ctx->series[order[i]];
		if (max[order[i]] > 0) {
			o = pr_jobj("name", json_string(s->name), "device", json_string(s->device),
				    "label", pr_series_label_json(s->name, s->device), "rule",
				    json_string(pr_series_order_rule), NULL);
			break;
		}
	}
	free(order);
	return o;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *arr = json_array();
	size_t i, j;
	double *max = pr_xcalloc(ctx->nseries + 1, sizeof(*max));
	json_object_set_new(ctx->out, "series", arr);
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		struct pr_moments m;
		json_t *o;
		if (pr_actx_load(ctx, s, err)) {
			free(max);
			return -1;
		}
		pr_moments_init(&m);
		for (j = 0; j < s->n; j++) {
			double x = pr_aseries_v(s, j);
			if (isfinite(x))
				pr_moments_add(&m, x);
		}
		max[i] = m.n > 0 ? m.max : 0;
		o = pr_jobj("name", json_string(s->name), "label",
			    pr_series_label_json(s->name, s->device), "device",
			    json_string(s->device), "unit", json_string(s->unit), "orig_unit",
			    json_string(s->orig_unit), "memory", json_boolean(s->memory), "count",
			    pr_jint((int64_t)s->n), NULL);
		if (s->n) {
			json_object_set_new(o, "min", pr_jnum(m.min));
			json_object_set_new(o, "max", pr_jnum(m.max));
			json_object_set_new(o, "mean", pr_jnum(m.mean));
			json_object_set_new(o, "first", pr_jnum(pr_aseries_v(s, 0)));
			json_object_set_new(o, "last", pr_jnum(pr_aseries_v(s, s->n - 1)));
			json_object_set_new(o, "t_first_ns", pr_actx_t(ctx, pr_aseries_t(s, 0)));
			json_object_set_new(o, "t_last_ns", pr_actx_t(ctx, pr_aseries_t(s, s->n - 1)));
		}
		if (ctx->opts->timeline_points)
			json_object_set_new(o, "timeline", timeline(ctx, s));
		json_array_append_new(arr, o);
	}
	json_object_set_new(ctx->out, "primary_series", primary(ctx, max));
	free(max);
	return 0;
}

const struct pr_analyzer pr_an_series = {
	.name = "series",
	.summary = "every time series: count, min, max, mean, first, last, reduced timeline",
	.run = run,
};
