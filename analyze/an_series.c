/*
 * an_series.c - "series": every time series of the run with its statistics
 * and a timeline for the panels, reduced to min/max per bucket (in time
 * order) when longer than opts->timeline_points, so a 10 M-sample series
 * costs the model as much as a 2 k one and draws the same. Each series has
 * a human label; "primary_series" names the memory series that speaks
 * first (primary.c). mean_weighted (sadf only): sar's interval-weighted mean,
 * as its Average: line, from the reader's sar.average metrics.
 * t_max_ns is the time of the series' maximum (its first
 * sample at that value), for every series: a rate or a utilisation has no
 * peak entry (peaks are memory), so this is where its time is.
 *
 * "counters": perf stat's counters, one item per event (and CPU with -A):
 * from a totals file the totals perf printed (reported metrics perf.EVENT,
 * .counted, .metric), from an interval file (-I) the sum of the per-interval
 * counts (perf prints each interval's increase), with intervals, mean, min,
 * max and the time of the max (t_max_ns), counted_pct the lowest share of
 * the time counting. Absent for other runs.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/model.h"
#include "analyze/primary.h"
#include "base/stats.h"
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
			int64_t end =
				t0 + (int64_t)((double)span * (double)(b + 1) / (double)buckets);
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

static const char *const perf_suffix[] = { ".run_time", ".counted", ".stddev", ".metric" };

/* "perf.EVENT[CPUn]SUFFIX" -> suffix index (-1: the count itself, -2: not perf's); event, cpu */
static int perf_name(const char *name, char *event, size_t en, char *cpu, size_t cn)
{
	const char *e, *b;
	size_t n, k, len;
	int suf = -1;
	if (strncmp(name, "perf.", 5))
		return -2;
	e = name + 5;
	n = strlen(e);
	for (k = 0; k < PR_ARRAY_SIZE(perf_suffix); k++) {
		len = strlen(perf_suffix[k]);
		if (n > len && !strcmp(e + n - len, perf_suffix[k])) {
			n -= len;
			suf = (int)k;
			break;
		}
	}
	*cpu = '\0';
	if (n > 2 && e[n - 1] == ']' && (b = memchr(e, '[', n)) != NULL) {
		snprintf(cpu, cn, "%.*s", (int)(e + n - 1 - b - 1), b + 1);
		n = (size_t)(b - e);
	}
	if (!n || n >= en)
		return -2;
	memcpy(event, e, n);
	event[n] = '\0';
	return suf;
}

static json_t *counter_item(json_t *items, const char *event, const char *cpu)
{
	json_t *o;
	size_t i;
	json_array_foreach (items, i, o)
		if (!strcmp(pr_mstr(o, "event"), event) && !strcmp(pr_mstr(o, "device"), cpu))
			return o;
	o = pr_jobj("event", json_string(event), "device", json_string(cpu), NULL);
	json_array_append_new(items, o);
	return o;
}

/* perf stat's totals: the reported metrics perf.EVENT[...] */
static int counters_totals(struct pr_actx *ctx, json_t *items, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (pr_actx_prep(ctx,
			 "SELECT name, value, ifnull(unit, '') FROM metric WHERE run_id = ?1 AND "
			 "origin = 'reported' AND name LIKE 'perf.%' ORDER BY id",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char event[256], cpu[64];
		int suf = perf_name(pr_actx_text(st, 0), event, sizeof(event), cpu, sizeof(cpu));
		double v = sqlite3_column_double(st, 1);
		json_t *o;
		if (suf == -2 || suf == 0 || suf == 2)
			continue;
		o = counter_item(items, event, cpu);
		if (suf == -1) {
			json_object_set_new(o, "unit", json_string(pr_actx_text(st, 2)));
			json_object_set_new(o, "total", pr_jnum(v));
		} else if (suf == 1) {
			json_object_set_new(o, "counted_pct", pr_jnum(v));
		} else {
			json_object_set_new(o, "metric", pr_jnum(v));
			json_object_set_new(o, "metric_unit", json_string(pr_actx_text(st, 2)));
		}
	}
	return pr_actx_done(ctx, st, rc, err);
}

/* perf stat -I: each series perf.EVENT is the count of each interval; the total is their sum */
static void counters_intervals(struct pr_actx *ctx, json_t *items)
{
	size_t i, j;
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		char event[256], cpu[64];
		int suf = perf_name(s->name, event, sizeof(event), cpu, sizeof(cpu));
		double sum = 0, mn = 0, mx = 0;
		size_t at = 0, n = 0;
		json_t *o;
		if (suf == -2 || suf == 0 || suf == 2 || suf == 3 || !s->n)
			continue; /* perf's metric is a rate per interval: the series keeps it */
		o = counter_item(items, event, *s->device ? s->device : cpu);
		for (j = 0; j < s->n; j++) {
			double x = pr_aseries_v(s, j);
			if (!isfinite(x))
				continue;
			if (!n || x < mn)
				mn = x;
			if (!n || x > mx) {
				mx = x;
				at = j;
			}
			sum += x;
			n++;
		}
		if (!n)
			continue;
		if (suf == 1) {
			json_object_set_new(o, "counted_pct", pr_jnum(mn));
			continue;
		}
		json_object_set_new(o, "unit", json_string(s->unit));
		json_object_set_new(o, "total", pr_jnum(sum));
		json_object_set_new(o, "intervals", pr_jint((int64_t)n));
		json_object_set_new(o, "mean", pr_jnum(sum / (double)n));
		json_object_set_new(o, "min", pr_jnum(mn));
		json_object_set_new(o, "max", pr_jnum(mx));
		json_object_set_new(o, "t_max_ns", pr_actx_t(ctx, pr_aseries_t(s, at)));
	}
}

static const char rule_intervals[] =
	"total: the sum of the per-interval counts (perf stat -I prints each interval's "
	"increase); mean, min, max over the intervals, t_max_ns the end of the interval with the "
	"max; counted_pct the lowest share of the time counting";
static const char rule_totals[] =
	"total: the count perf printed for the whole run; metric: perf's own derived metric; "
	"counted_pct the share of the time counting (below 100: multiplexed, scaled by perf)";

static int counters(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *items = json_array(), *o;
	size_t i;
	int intervals = 0;
	if (strcmp(ctx->format, "perf-stat")) {
		json_decref(items);
		return 0;
	}
	counters_intervals(ctx, items);
	intervals = json_array_size(items) > 0;
	if (!intervals && counters_totals(ctx, items, err)) {
		json_decref(items);
		return -1;
	}
	/* an event perf could not count (<not supported>) has no total: not listed */
	for (i = json_array_size(items); i-- > 0;) {
		o = json_array_get(items, i);
		if (!json_object_get(o, "total"))
			json_array_remove(items, i);
	}
	if (!json_array_size(items)) {
		json_decref(items);
		return 0;
	}
	json_object_set_new(ctx->out, "counters",
			    pr_jobj("source",
				    json_string(intervals ? "perf stat -I: per-interval counts"
							  : "perf stat: totals"),
				    "items", items, "rule",
				    json_string(intervals ? rule_intervals : rule_totals), NULL));
	return 0;
}

/* sar's interval-weighted means (fmt_sadf.c: metric sar.average, detail "NAME[ DEVICE]") */
static json_t *sar_averages(struct pr_actx *ctx, struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *o = json_object();
	int rc;
	if (pr_actx_prep(ctx,
			 "SELECT ifnull(detail, ''), value FROM metric WHERE run_id = ?1 AND "
			 "name = 'sar.average' ORDER BY id",
			 &st, err)) {
		json_decref(o);
		return NULL;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_object_set_new(o, pr_actx_text(st, 0), pr_jnum(sqlite3_column_double(st, 1)));
	if (pr_actx_done(ctx, st, rc, err)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *arr = json_array(), *sar = sar_averages(ctx, err);
	char key[600];
	if (!sar) {
		json_decref(arr);
		return -1;
	}
	size_t i, j, at;
	double *max = pr_xcalloc(ctx->nseries + 1, sizeof(*max));
	json_object_set_new(ctx->out, "series", arr);
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		struct pr_moments m;
		json_t *o;
		if (pr_actx_load(ctx, s, err)) {
			free(max);
			json_decref(sar);
			return -1;
		}
		pr_moments_init(&m);
		at = 0;
		for (j = 0; j < s->n; j++) {
			double x = pr_aseries_v(s, j);
			if (isfinite(x)) {
				if (!m.n || x > m.max)
					at = j;
				pr_moments_add(&m, x);
			}
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
			if (m.n)
				json_object_set_new(o, "t_max_ns",
						    pr_actx_t(ctx, pr_aseries_t(s, at)));
			json_object_set_new(o, "mean", pr_jnum(m.mean));
			snprintf(key, sizeof(key), "%s%s%s", s->name, *s->device ? " " : "",
				 s->device);
			if (json_is_number(json_object_get(sar, key)))
				json_object_set(o, "mean_weighted", json_object_get(sar, key));
			json_object_set_new(o, "first", pr_jnum(pr_aseries_v(s, 0)));
			json_object_set_new(o, "last", pr_jnum(pr_aseries_v(s, s->n - 1)));
			json_object_set_new(o, "t_first_ns", pr_actx_t(ctx, pr_aseries_t(s, 0)));
			json_object_set_new(o, "t_last_ns",
					    pr_actx_t(ctx, pr_aseries_t(s, s->n - 1)));
		}
		if (ctx->opts->timeline_points)
			json_object_set_new(o, "timeline", timeline(ctx, s));
		json_array_append_new(arr, o);
	}
	json_object_set_new(ctx->out, "primary_series", primary(ctx, max));
	free(max);
	json_decref(sar);
	return counters(ctx, err);
}

const struct pr_analyzer pr_an_series = {
	.name = "series",
	.summary = "every time series: count, min, max, mean, first, last, reduced timeline",
	.run = run,
};
