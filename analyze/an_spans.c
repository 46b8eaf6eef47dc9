/*
 * an_spans.c - "spans": per (name, kind) statistics of every span of the
 * run but the profiler's own window (kind profiler): count, total, self,
 * min, max, sum of squares; the largest PR_SPANS_CAP by total time, and
 * for the PR_PER_STEP_CAP largest, the time spent in each step (spans
 * assigned to the step whose interval holds their start, whatever thread
 * or stream they ran on). These are
 * the samples `compare` tests and `aggregate` merges.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "base/xalloc.h"

#define PR_SPANS_CAP 2000
#define PR_PER_STEP_CAP 100

struct tracked {
	int64_t name_id;
	char *kind;
	double *per_step;
};

static int per_step(struct pr_actx *ctx, struct tracked *tr, size_t ntr, struct pr_error *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;
	if (!ctx->nsteps || !ntr)
		return 0;
	if (pr_actx_prep(ctx,
			 "SELECT name_id, kind, ts, dur FROM span WHERE run_id = ?1 AND kind <> 'step' "
			 "AND kind <> 'session' AND ts >= ?2 AND ts < ?3",
			 &st, err))
		return -1;
	sqlite3_bind_int64(st, 2, ctx->steps[0].ts);
	sqlite3_bind_int64(st, 3, ctx->steps[ctx->nsteps - 1].ts + ctx->steps[ctx->nsteps - 1].dur);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *kind = pr_actx_text(st, 1);
		long k;
		for (i = 0; i < ntr; i++)
			if (tr[i].name_id == id && !strcmp(tr[i].kind, kind))
				break;
		if (i == ntr || (k = pr_actx_step_index(ctx, sqlite3_column_int64(st, 2))) < 0)
			continue;
		tr[i].per_step[k] += (double)sqlite3_column_int64(st, 3);
	}
	return pr_actx_done(ctx, st, rc, err);
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *arr = json_array(), *out;
	struct tracked *tr = NULL;
	size_t ntr = 0, i, j, more = 0;
	int rc;
	out = pr_jobj("items", arr, NULL);
	json_object_set_new(ctx->out, "spans", out);
	if (pr_actx_prep(ctx,
			 "SELECT s.name_id, n.value, s.kind, count(*), total(s.dur), total(s.self), "
			 "min(s.dur), max(s.dur), sum(CAST(s.dur AS REAL) * s.dur) "
			 "FROM span s JOIN string n ON n.id = s.name_id WHERE s.run_id = ?1 "
			 "AND s.kind NOT IN ('session', 'profiler') GROUP BY s.name_id, s.kind "
			 "ORDER BY 5 DESC, 2, 3",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (json_array_size(arr) >= PR_SPANS_CAP) {
			more++;
			continue;
		}
		json_array_append_new(
			arr, pr_jobj("name", json_string(pr_actx_text(st, 1)), "kind",
				     json_string(pr_actx_text(st, 2)), "count",
				     pr_jint(sqlite3_column_int64(st, 3)), "total_ns",
				     pr_jnum(sqlite3_column_double(st, 4)), "self_ns",
				     pr_jnum(sqlite3_column_double(st, 5)), "min_ns",
				     pr_jint(sqlite3_column_int64(st, 6)), "max_ns",
				     pr_jint(sqlite3_column_int64(st, 7)), "sumsq_ns2",
				     pr_jnum(sqlite3_column_double(st, 8)), NULL));
		if (ntr < PR_PER_STEP_CAP && ctx->nsteps) {
			tr = pr_xreallocarray(tr, ntr + 1, sizeof(*tr));
			tr[ntr].name_id = sqlite3_column_int64(st, 0);
			tr[ntr].kind = pr_xstrdup(pr_actx_text(st, 2));
			tr[ntr].per_step = pr_xcalloc(ctx->nsteps, sizeof(double));
			ntr++;
		}
	}
	if (pr_actx_done(ctx, st, rc, err) || per_step(ctx, tr, ntr, err)) {
		for (i = 0; i < ntr; i++) {
			free(tr[i].kind);
			free(tr[i].per_step);
		}
		free(tr);
		return -1;
	}
	if (more)
		json_object_set_new(out, "items_more", pr_jint((int64_t)more));
	for (i = 0; i < ntr; i++) {
		json_t *v = json_array();
		for (j = 0; j < ctx->nsteps; j++)
			json_array_append_new(v, pr_jnum(tr[i].per_step[j]));
		json_object_set_new(json_array_get(arr, i), "per_step_ns", v);
		free(tr[i].kind);
		free(tr[i].per_step);
	}
	free(tr);
	json_object_set_new(out, "rule",
			    json_string("per (name, kind); per_step_ns (the 100 largest by total, when "
					"the run has steps): time of the spans starting inside each step"));
	return 0;
}

const struct pr_analyzer pr_an_spans = {
	.name = "spans",
	.summary = "per-name span statistics (count, total, self, min, max) and per-step times",
	.run = run,
};
