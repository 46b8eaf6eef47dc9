/*
 * an_leaks.c - "leaks": memory that grows step over step or across the
 * repeated occurrences of a phase. For each memory series and basis (the
 * step spans; each phase name seen at least 3 times) it takes the value
 * held at the end of every occurrence and fits a line against the
 * occurrence index. A leak is reported when the slope is positive, the
 * fit explains the values (R^2 >= 0.8) and the fitted growth exceeds
 * max(1 MiB, 1 % of the series' peak).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/stats.h"
#include "store/xalloc.h"

#define MIN_OCC 3
#define MIN_R2 0.8
#define MIN_GROWTH 1048576.0
#define MIN_GROWTH_SHARE 0.01
#define VALUES_CAP 50

/* The spans are spans[list[i]] (list NULL: spans[i]) for i < nspans, in start order. */
static void check(json_t *arr, const struct pr_aseries *s, const char *basis,
		  const struct pr_aspan *spans, const size_t *list, size_t nspans, int *checked)
{
	double *x = pr_xcalloc(nspans + 1, sizeof(double)), *y = pr_xcalloc(nspans + 1, sizeof(double));
	struct pr_linreg lr;
	size_t i, n = 0;
	json_t *vals;
	for (i = 0; i < nspans; i++) {
		const struct pr_aspan *sp = &spans[list ? list[i] : i];
		double v = pr_aseries_at(s, sp->ts + sp->dur);
		if (isnan(v))
			continue;
		x[n] = (double)n;
		y[n++] = v;
	}
	if (n >= MIN_OCC && !pr_linreg(x, y, n, &lr)) {
		double growth = lr.slope * (double)(n - 1);
		double floor_ = fmax(MIN_GROWTH, MIN_GROWTH_SHARE * s->max);
		int leak = lr.slope > 0 && lr.r2 >= MIN_R2 && growth > floor_;
		(*checked)++;
		vals = json_array();
		for (i = 0; i < n && i < VALUES_CAP; i++)
			json_array_append_new(vals, pr_jnum(y[i]));
		json_array_append_new(
			arr, pr_jobj("series", json_string(s->name), "device", json_string(s->device),
				     "basis", json_string(basis), "occurrences", pr_jint((int64_t)n),
				     "slope_per_occurrence", pr_jnum(lr.slope), "r2", pr_jnum(lr.r2),
				     "growth", pr_jnum(growth), "first", pr_jnum(y[0]), "last",
				     pr_jnum(y[n - 1]), "values", vals, "leak", json_boolean(leak),
				     NULL));
	}
	free(x);
	free(y);
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *items = json_array();
	size_t i, j;
	int checked = 0;
	json_object_set_new(
		ctx->out, "leaks",
		pr_jobj("rule",
			json_string("value held at the end of each step (or each occurrence of a phase "
				    "seen >= 3 times), fitted against the occurrence index: leak when "
				    "slope > 0, R^2 >= 0.8 and growth > max(1 MiB, 1 % of the peak)"),
			"items", items, NULL));
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		if (!s->memory)
			continue;
		if (pr_actx_load(ctx, s, err))
			return -1;
		if (!s->n)
			continue;
		check(items, s, "steps", ctx->steps, NULL, ctx->nsteps, &checked);
		for (j = 0; j < ctx->nphase_names; j++) {
			const size_t *g = ctx->phase_group + ctx->phase_group_start[j];
			size_t count = ctx->phase_group_start[j + 1] - ctx->phase_group_start[j];
			char basis[300];
			if (count < MIN_OCC)
				continue;
			snprintf(basis, sizeof(basis), "phase '%s'", ctx->phases[g[0]].name);
			check(items, s, basis, ctx->phases, g, count, &checked);
		}
	}
	json_object_set_new(json_object_get(ctx->out, "leaks"), "checked", pr_jint(checked));
	return 0;
}

const struct pr_analyzer pr_an_leaks = {
	.name = "leaks",
	.summary = "memory growing step over step or across repeated phases (slope, R^2, evidence)",
	.run = run,
};
