/*
 * an_spans.c - "spans": per (name, kind) statistics of every span of the
 * run but the profiler's own window (kind profiler): count, total, self,
 * min, max, sum of squares; the largest PR_SPANS_CAP by total time, and
 * for the PR_SPANSTAT_PER_STEP largest, the time spent in each step (spans
 * assigned to the step whose interval holds their start, whatever thread
 * or stream they ran on). These are the samples `compare` tests and
 * `aggregate` merges. Past 1310 steps fewer names get them (names x steps
 * <= 2^17, at least one name), so that a long run's model stays bounded:
 * compare tests the others on their run totals, as when a side lacks them.
 * unit (absent: ns) is the run's clock.x_unit where its positions are not
 * time (DHAT: bytes allocated; massif: instructions or bytes), or the weight
 * of a synthetic profile (perf's page faults, folded sample counts): the *_ns
 * values are then in that unit (the key names stay the same). A perf run of
 * several events counts one, `event` (perfev.c).
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/perfev.h"
#include "analyze/spanstat.h"

#define PR_SPANS_CAP 2000

/*
 * From the shared span statistics (spanstat.h: one unsorted pass, and one
 * more for the per-step times; before, a sorted GROUP BY query and a scan
 * of the steps' spans).
 */
static int run(struct pr_actx *ctx, struct pr_error *err)
{
	const struct pr_spanstat *ss = pr_spanstat_get(ctx, err);
	json_t *arr = json_array(), *out;
	size_t i, j,
		nps = ctx->nsteps ? pr_spanstat_per_step_groups(ctx->nsteps) : PR_SPANSTAT_PER_STEP;
	char rule[300];
	const char *xu = pr_actx_weight_unit(ctx);
	/* unit: what every *_ns value of a span measures where it is not ns (a run whose
	 * positions are not time: DHAT's bytes, massif's instructions; the weights of a
	 * synthetic profile: page faults, sample counts) */
	out = pr_jobj("items", arr, "unit", xu ? json_string(xu) : NULL, "event",
		      ctx->perf_event ? json_string(ctx->perf_event) : NULL, NULL);
	json_object_set_new(ctx->out, "spans", out);
	if (!ss || pr_spanstat_detail(ctx, err))
		return -1;
	for (i = 0; i < ss->nby_total && i < PR_SPANS_CAP; i++) {
		const struct pr_spanstat_group *g = &ss->g[ss->by_total[i]];
		json_t *item =
			pr_jobj("name", json_string(g->name), "kind",
				json_string(ss->kinds[g->kind]), "count", pr_jint(g->all.count),
				"total_ns", pr_jnum(g->all.total), "self_ns", pr_jnum(g->all.self),
				"min_ns", pr_jint(g->all.min), "max_ns", pr_jint(g->all.max),
				"sumsq_ns2", pr_jnum(g->all.sumsq), NULL);
		if (ctx->nsteps && i < nps) {
			json_t *v = json_array();
			for (j = 0; j < ctx->nsteps; j++)
				json_array_append_new(v, pr_jnum(g->per_step ? g->per_step[j] : 0));
			json_object_set_new(item, "per_step_ns", v);
		}
		json_array_append_new(arr, item);
	}
	if (ss->nby_total > PR_SPANS_CAP)
		json_object_set_new(out, "items_more",
				    pr_jint((int64_t)(ss->nby_total - PR_SPANS_CAP)));
	/* past 1310 steps fewer names, so that names x steps <= PR_SPANSTAT_STEP_VALUES */
	snprintf(
		rule, sizeof(rule),
		"per (name, kind); per_step_ns (the %zu largest by total, when the run has steps%s): "
		"time of the spans starting inside each step",
		nps, nps < PR_SPANSTAT_PER_STEP ? "; names x steps <= 131072" : "");
	json_object_set_new(out, "rule", json_string(rule));
	return 0;
}

const struct pr_analyzer pr_an_spans = {
	.name = "spans",
	.summary = "per-name span statistics (count, total, self, min, max) and per-step times",
	.run = run,
};
