/*
 * an_leaks.c - "leaks": memory that grows step over step or across the
 * repeated occurrences of a phase. For each memory series the run owns and
 * each basis (the step spans; each phase name seen at least 3 times) it
 * takes the value held at the end of every occurrence and fits a line
 * against the occurrence index. A leak is reported when the slope is
 * positive, the fit explains the values (R^2 >= 0.8) and the fitted growth
 * exceeds max(1 MiB, 1 % of the series' peak).
 *
 * Only memory the run owns is checked (leak_scope): the process's own
 * memory (RSS/VMS, massif's heap and stacks) and the device memory of its
 * allocator (torch's allocated/reserved and memory categories). Not
 * checked, and listed under "excluded" with the reason: system-wide memory
 * (sys.*, shared with every other process), device-wide GPU memory (NVML's
 * used memory counts every process on the GPU), series that are cumulative
 * by design (a process-lifetime peak such as Inferix's block memory, a KV
 * cache that grows with the sequence) and memory-like series of unknown
 * ownership (a CSV's own columns). "excluded" is empty when the run has no
 * basis (fewer than 3 steps and no phase seen 3 times): nothing could have
 * been checked.
 *
 * Evidence is bounded: at most VALUES_CAP values per item (the first and
 * the last half when there are more), with n, min and max of all of them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/results.h"
#include "analyze/analyzers.h"
#include "base/stats.h"
#include "base/xalloc.h"

#define MIN_OCC 3
#define MIN_R2 0.8
#define MIN_GROWTH 1048576.0
#define MIN_GROWTH_SHARE 0.01
#define VALUES_CAP 20 /* values per item: all up to 20, else the first and last 10 */

enum scope {
	S_PROCESS,
	S_DEVICE,
	S_SHARED,
	S_CUMULATIVE,
	S_UNKNOWN
};

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* Case-insensitive substring test for ASCII names. */
static int has(const char *s, const char *needle)
{
	size_t n = strlen(needle), i, k;
	for (i = 0; s[i]; i++) {
		for (k = 0; k < n && s[i + k]; k++) {
			char c = s[i + k];
			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != needle[k])
				break;
		}
		if (k == n)
			return 1;
	}
	return 0;
}

/* Who owns the memory a series measures, and why (a sentence for the model). */
static enum scope leak_scope(const char *name, const char **reason)
{
	static const char *const process[] = { "mem.rss", "mem.vms", "heap.used", "heap.extra",
					       "stack.used" };
	static const char *const device[] = { "dev.mem.allocated", "dev.mem.reserved",
					      "dev.mem.total" };
	size_t i;
	/* cumulative by design first: a name can look owned and still be a running peak */
	if (starts(name, "inferix.block.") || has(name, "max_memory") || has(name, "peak")) {
		*reason =
			"cumulative by design: a running peak (Inferix's block memory is what the "
			"pipeline passes, torch.cuda.max_memory_allocated) only ever grows";
		return S_CUMULATIVE;
	}
	if (has(name, "kv_cache") || has(name, "kvcache") || has(name, "kv.cache")) {
		*reason = "cumulative by design: a KV cache grows with the sequence it holds";
		return S_CUMULATIVE;
	}
	for (i = 0; i < PR_ARRAY_SIZE(process); i++)
		if (!strcmp(name, process[i])) {
			*reason = "the process's own memory";
			return S_PROCESS;
		}
	for (i = 0; i < PR_ARRAY_SIZE(device); i++)
		if (!strcmp(name, device[i])) {
			*reason = "the device memory of the run's own allocator";
			return S_DEVICE;
		}
	if (starts(name, "dev.mem.category.")) {
		*reason = "the device memory of the run's own allocator";
		return S_DEVICE;
	}
	if (starts(name, "sys.")) {
		*reason = "system-wide: shared with every other process on the machine";
		return S_SHARED;
	}
	if (starts(name, "gpu.mem.")) {
		*reason = "device-wide: NVML's used memory counts every process on the GPU";
		return S_SHARED;
	}
	*reason = "ownership unknown: not a series profreport knows to be the run's own memory";
	return S_UNKNOWN;
}

static const char *scope_name(enum scope s)
{
	switch (s) {
	case S_PROCESS:
		return "process";
	case S_DEVICE:
		return "device";
	case S_SHARED:
		return "shared";
	case S_CUMULATIVE:
		return "cumulative";
	default:
		return "unknown";
	}
}

static json_t *bounded_values(const double *y, size_t n)
{
	json_t *vals = json_array();
	size_t i, half = VALUES_CAP / 2;
	for (i = 0; i < n; i++)
		if (n <= VALUES_CAP || i < half || i >= n - half)
			json_array_append_new(vals, pr_jnum(y[i]));
	return vals;
}

/* The spans are spans[list[i]] (list NULL: spans[i]) for i < nspans, in start order. */
static void check(json_t *arr, const struct pr_aseries *s, enum scope scope, const char *basis,
		  const struct pr_aspan *spans, const size_t *list, size_t nspans, int *checked)
{
	double *x = pr_xcalloc(nspans + 1, sizeof(double)),
	       *y = pr_xcalloc(nspans + 1, sizeof(double));
	struct pr_linreg lr;
	size_t i, n = 0;
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
		double mn = y[0], mx = y[0];
		int leak = lr.slope > 0 && lr.r2 >= MIN_R2 && growth > floor_;
		for (i = 1; i < n; i++) {
			mn = fmin(mn, y[i]);
			mx = fmax(mx, y[i]);
		}
		(*checked)++;
		json_array_append_new(arr,
				      pr_jobj("series", json_string(s->name), "device",
					      json_string(s->device), "scope",
					      json_string(scope_name(scope)), "basis",
					      json_string(basis), "occurrences",
					      pr_jint((int64_t)n), "slope_per_occurrence",
					      pr_jnum(lr.slope), "r2", pr_jnum(lr.r2), "growth",
					      pr_jnum(growth), "first", pr_jnum(y[0]), "last",
					      pr_jnum(y[n - 1]), "min", pr_jnum(mn), "max",
					      pr_jnum(mx), "values", bounded_values(y, n),
					      "values_omitted",
					      n > VALUES_CAP ? pr_jint((int64_t)(n - VALUES_CAP))
							     : NULL,
					      "leak", json_boolean(leak), NULL));
	}
	free(x);
	free(y);
}

/* What recommendations read (results.h): the rule and every item (leaking or not). */
static void publish(struct pr_actx *ctx, const json_t *items)
{
	struct pr_res_leaks *r = &pr_results(ctx)->leaks;
	const json_t *v;
	size_t i;
	r->present = 1;
	r->rule = pr_mstr(json_object_get(ctx->out, "leaks"), "rule");
	r->n = json_array_size(items);
	r->v = pr_res_array(r->n, sizeof(*r->v));
	json_array_foreach (items, i, v) {
		struct pr_res_leak *l = &r->v[i];
		l->series = pr_mstr(v, "series");
		l->device = pr_mstr(v, "device");
		l->scope = pr_mstr(v, "scope");
		l->basis = pr_mstr(v, "basis");
		l->leak = json_is_true(json_object_get(v, "leak"));
		l->occurrences = pr_mnum(v, "occurrences");
		l->slope_per_occurrence = pr_mnum(v, "slope_per_occurrence");
		l->r2 = pr_mnum(v, "r2");
		l->growth = pr_mnum(v, "growth");
		l->min = pr_mnum(v, "min");
		l->max = pr_mnum(v, "max");
		l->values_omitted = pr_mnum(v, "values_omitted");
		l->values = json_object_get(v, "values");
	}
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *items = json_array(), *excluded = json_array();
	size_t i, j;
	int checked = 0, any_basis = ctx->nsteps >= MIN_OCC;
	char rule[400];
	for (j = 0; j < ctx->nphase_names; j++)
		any_basis |= ctx->phase_group_start[j + 1] - ctx->phase_group_start[j] >= MIN_OCC;
	/* the rule text from the same constants the check uses */
	snprintf(
		rule, sizeof(rule),
		"memory the run owns (process, device allocator), held at the end of each step (or "
		"each occurrence of a phase seen >= %d times), fitted against the occurrence index: "
		"leak when slope > 0, R^2 >= %g and growth > max(%g MiB, %g %% of the peak)",
		MIN_OCC, MIN_R2, MIN_GROWTH / 1048576.0, MIN_GROWTH_SHARE * 100);
	json_object_set_new(ctx->out, "leaks",
			    pr_jobj("rule", json_string(rule), "items", items, "excluded", excluded,
				    NULL));
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		const char *why;
		enum scope scope;
		if (!s->memory)
			continue;
		scope = leak_scope(s->name, &why);
		if (scope != S_PROCESS && scope != S_DEVICE) {
			if (any_basis) /* without one, nothing could have been checked */
				json_array_append_new(excluded,
						      pr_jobj("series", json_string(s->name),
							      "device", json_string(s->device),
							      "scope",
							      json_string(scope_name(scope)),
							      "reason", json_string(why), NULL));
			continue;
		}
		if (pr_actx_load(ctx, s, err))
			return -1;
		if (!s->n)
			continue;
		check(items, s, scope, "steps", ctx->steps, NULL, ctx->nsteps, &checked);
		for (j = 0; j < ctx->nphase_names; j++) {
			const size_t *g = ctx->phase_group + ctx->phase_group_start[j];
			size_t count = ctx->phase_group_start[j + 1] - ctx->phase_group_start[j];
			char basis[300];
			if (count < MIN_OCC)
				continue;
			snprintf(basis, sizeof(basis), "phase '%s'", ctx->phases[g[0]].name);
			check(items, s, scope, basis, ctx->phases, g, count, &checked);
		}
	}
	json_object_set_new(json_object_get(ctx->out, "leaks"), "checked", pr_jint(checked));
	publish(ctx, items);
	return 0;
}

const struct pr_analyzer pr_an_leaks = {
	.name = "leaks",
	.summary =
		"owned memory growing step over step or across repeated phases (slope, R^2, evidence)",
	.run = run,
	.stage = PR_STAGE_LAST,
};
