/*
 * an_phases.c - "phases": every phase occurrence (spans of kind phase,
 * section or stage: QEff operations, Diffulex sections, torch user
 * annotations, a CSV phase column) with start, duration, share of the run,
 * and per memory series the change (the phase's last sample minus the last
 * sample before it) and peak; disk read/write from cumulative counters (each
 * interval's increase in the phase of its closing sample); CPU mean/max. Repeated
 * names stay separate occurrences and are also totalled per name; shares
 * use the union of intervals, so nested or repeated phases are not double
 * counted. Inferix writes only per-stage aggregates (no call times): those
 * become "stages", with the share of the session's wall time.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/results.h"
#include "analyze/analyzers.h"
#include "analyze/model.h"
#include "analyze/primary.h"
#include "base/stats.h"
#include "base/xalloc.h"

/* Samples of s inside [t0, t1]: first and last index, or 0 when none. */
static int inside(const struct pr_aseries *s, int64_t t0, int64_t t1, size_t *a, size_t *b)
{
	size_t i = pr_aseries_lower(s, t0), j = i;
	if (i >= s->n || pr_aseries_t(s, i) > t1)
		return 0;
	j = pr_aseries_lower(s, t1 + 1);
	*a = i;
	*b = j - 1;
	return 1;
}

/*
 * The samples a phase observed: those in [t0, t1), and one at exactly t1 when
 * t1 is the series' last time (the last phase ends there). A phase mark is set
 * before the work it names, so a sample belongs to the phase it was taken in.
 */
static int observed(const struct pr_aseries *s, int64_t t0, int64_t t1, size_t *a, size_t *b)
{
	size_t i = pr_aseries_lower(s, t0), j;
	if (!s->n)
		return 0;
	j = t1 >= pr_aseries_t(s, s->n - 1) ? s->n : pr_aseries_lower(s, t1);
	if (i >= j)
		return 0;
	*a = i;
	*b = j - 1;
	return 1;
}

/*
 * Per memory series in primary.c's order (the primary series first, which the reports' delta
 * column shows), the phase's change: its last sample minus the last sample before the phase
 * (the first sample inside when none came before), so what changed between two phases'
 * samples belongs to the phase that observed it, not to none; peak and samples are of the
 * samples the phase observed. order[0..n) from pr_series_order.
 */
static json_t *memory_in(struct pr_actx *ctx, const size_t *order, size_t n, int64_t t0, int64_t t1)
{
	json_t *arr = json_array();
	size_t i, k, a, b;
	for (i = 0; i < n; i++) {
		struct pr_aseries *s = &ctx->series[order[i]];
		struct pr_sample pk, x;
		double first, last;
		if (!observed(s, t0, t1, &a, &b))
			continue;
		pk = pr_aseries_get(s, a);
		for (k = a + 1; k <= b; k++)
			if ((x = pr_aseries_get(s, k)).v > pk.v)
				pk = x;
		first = pr_aseries_v(s, a > 0 ? a - 1 : a);
		last = pr_aseries_v(s, b);
		json_array_append_new(arr, pr_jobj("series", json_string(s->name), "device",
						   json_string(s->device), "start", pr_jnum(first),
						   "end", pr_jnum(last), "delta",
						   pr_jnum(last - first), "peak", pr_jnum(pk.v),
						   "peak_t_ns", pr_actx_t(ctx, pk.ts), "samples",
						   pr_jint((int64_t)(b - a + 1)), NULL));
	}
	return arr;
}

/*
 * What a cumulative counter (disk.read, disk.write) counted in a phase: each
 * sampling interval's increase belongs to the phase of its closing sample
 * (the one that observed it: phase marks are set before the work they name,
 * so splitting an interval by time gave a phase that wrote nothing part of
 * its successor's writes). That is the phase's last sample minus the last
 * sample before the phase (the first sample inside when none came before);
 * back-to-back phases add up to the counter's whole increase. 0 when no
 * sample closed an interval in the phase; NULL when the phase lies outside
 * the sampled range.
 */
static json_t *counter_delta(struct pr_actx *ctx, const char *name, int64_t t0, int64_t t1)
{
	struct pr_aseries *s = pr_actx_series(ctx, name, NULL);
	size_t a, b;
	if (!s || !s->n || t1 < pr_aseries_t(s, 0) || t0 > pr_aseries_t(s, s->n - 1))
		return NULL;
	if (!observed(s, t0, t1, &a, &b))
		return pr_jnum(0);
	return pr_jnum(pr_aseries_v(s, b) - pr_aseries_v(s, a > 0 ? a - 1 : a));
}

static json_t *cpu_in(struct pr_actx *ctx, int64_t t0, int64_t t1)
{
	/* the system's CPU, else a process's (pidstat: device "pid N (comm)") */
	struct pr_aseries *s = pr_actx_series(ctx, "cpu.util", "");
	struct pr_moments m;
	if (!s)
		s = pr_actx_series(ctx, "cpu.util", NULL);
	size_t a, b, k;
	if (!s || !inside(s, t0, t1, &a, &b))
		return NULL;
	pr_moments_init(&m);
	for (k = a; k <= b; k++)
		pr_moments_add(&m, pr_aseries_v(s, k));
	return pr_jobj("mean", pr_jnum(m.mean), "max", pr_jnum(m.max), "samples",
		       pr_jint((int64_t)(b - a + 1)), NULL);
}

/* Length of the union of [ts, ts+dur) over the listed phases (in start order). */
static int64_t union_len(const struct pr_actx *ctx, const size_t *list, size_t n, int top_level)
{
	int64_t total = 0, cur_end = INT64_MIN;
	size_t i;
	for (i = 0; i < n; i++) {
		const struct pr_aspan *p = &ctx->phases[list ? list[i] : i];
		int64_t e = p->ts + p->dur;
		if (top_level && p->depth != 0)
			continue;
		if (p->ts >= cur_end) {
			total += p->dur;
			cur_end = e;
		} else if (e > cur_end) {
			total += e - cur_end;
			cur_end = e;
		}
	}
	return total;
}

static json_t *share(const struct pr_actx *ctx, int64_t ns)
{
	return ctx->dur > 0 ? pr_jnum((double)ns / (double)ctx->dur) : json_null();
}

#define TOTALS_MAX 1000 /* phase names totalled in the model */

struct name_total {
	size_t k;   /* the name's index (first-seen order) */
	double sum; /* its total time (a double: ten durations of 1e18 ns do not fit in
		     * int64; exact below 2^53 ns, 104 days) */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int cmp_total_desc(const void *a, const void *b)
{
	const struct name_total *x = a, *y = b;
	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static int cmp_name_index(const void *a, const void *b)
{
	const struct name_total *x = a, *y = b;
	return x->k < y->k ? -1 : x->k > y->k;
}

/*
 * Totals per phase name, in first-seen order. At most TOTALS_MAX names
 * (issue 12: a CSV whose 300 k rows each start a phase made 300 k
 * totals and an 800 MB report): those with the largest total time; the rest
 * are summed in totals_more {names, count, total_ns}.
 */
static void totals(struct pr_actx *ctx, json_t *out)
{
	json_t *arr = json_array();
	size_t k, j, nkeep = ctx->nphase_names, cap = TOTALS_MAX;
	struct name_total *nt = pr_xcalloc(ctx->nphase_names + 1, sizeof(*nt));
	for (k = 0; k < ctx->nphase_names; k++) {
		nt[k].k = k;
		for (j = ctx->phase_group_start[k]; j < ctx->phase_group_start[k + 1]; j++)
			nt[k].sum += (double)ctx->phases[ctx->phase_group[j]].dur;
	}
	if (nkeep > cap) {
		double more_ns = 0;
		int64_t more_count = 0;
		qsort(nt, ctx->nphase_names, sizeof(*nt), cmp_total_desc);
		for (k = cap; k < ctx->nphase_names; k++) {
			more_ns += nt[k].sum;
			more_count += (int64_t)(ctx->phase_group_start[nt[k].k + 1] -
						ctx->phase_group_start[nt[k].k]);
		}
		nkeep = cap;
		qsort(nt, nkeep, sizeof(*nt), cmp_name_index);
		json_object_set_new(out, "totals_more",
				    pr_jobj("names", pr_jint((int64_t)(ctx->nphase_names - cap)),
					    "count", pr_jint(more_count), "total_ns",
					    pr_jnum(more_ns), NULL));
	}
	for (j = 0; j < nkeep; j++) {
		size_t kk = nt[j].k, i;
		const size_t *g = ctx->phase_group + ctx->phase_group_start[kk];
		size_t n = ctx->phase_group_start[kk + 1] - ctx->phase_group_start[kk];
		const struct pr_aspan *p = &ctx->phases[g[0]];
		struct pr_moments m;
		int64_t u = union_len(ctx, g, n, 0);
		double *d = pr_xreallocarray(NULL, n, sizeof(*d));
		pr_moments_init(&m);
		for (i = 0; i < n; i++) {
			d[i] = (double)ctx->phases[g[i]].dur;
			pr_moments_add(&m, d[i]);
		}
		qsort(d, n, sizeof(*d), cmp_double);
		json_array_append_new(arr,
				      pr_jobj("name", json_string(p->name), "kind",
					      json_string(p->kind), "count", pr_jnum(m.n),
					      "total_ns", pr_jnum(nt[j].sum), "union_ns",
					      pr_jint(u), "mean_ns", pr_jnum(m.mean), "min_ns",
					      pr_jnum(m.min), "max_ns", pr_jnum(m.max), "std_ns",
					      pr_jnum(pr_moments_std(&m, 1)), "p50_ns",
					      pr_jnum(pr_quantile_sorted(d, n, 0.5)), "p95_ns",
					      pr_jnum(pr_quantile_sorted(d, n, 0.95)), "share",
					      share(ctx, u), NULL));
		free(d);
	}
	free(nt);
	json_object_set_new(out, "totals", arr);
}

/* Inferix: stage_analysis.stages.<name>.<field> metrics -> stages. */
static int inferix_stages(struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	static const char pre[] = "stage_analysis.stages.";
	sqlite3_stmt *st;
	json_t *arr = json_array();
	double wall = 0;
	int rc, have_wall = pr_actx_metric(ctx, "session_info.duration", &wall);
	if (pr_actx_prep(ctx,
			 "SELECT name, value FROM metric WHERE run_id = ?1 AND origin = 'reported' "
			 "AND name LIKE 'stage_analysis.stages.%.total_time' ORDER BY id",
			 &st, err)) {
		json_decref(arr);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *full = pr_actx_text(st, 0);
		size_t n = strlen(full) - strlen(pre) - strlen(".total_time");
		char *name = pr_xstrndup(full + strlen(pre), n), key[600];
		double total = sqlite3_column_double(st, 1), count = 0, mn = NAN, mx = NAN,
		       pct = NAN;
		snprintf(key, sizeof(key), "%s%s.call_count", pre, name);
		pr_actx_metric(ctx, key, &count);
		snprintf(key, sizeof(key), "%s%s.min_time", pre, name);
		pr_actx_metric(ctx, key, &mn);
		snprintf(key, sizeof(key), "%s%s.max_time", pre, name);
		pr_actx_metric(ctx, key, &mx);
		snprintf(key, sizeof(key), "%s%s.percentage_of_total", pre, name);
		pr_actx_metric(ctx, key, &pct);
		json_array_append_new(arr,
				      pr_jobj("name", json_string(name), "count", pr_jnum(count),
					      "total_ns", pr_jnum(total), "mean_ns",
					      pr_jnum(count > 0 ? total / count : NAN), "min_ns",
					      pr_jnum(mn), "max_ns", pr_jnum(mx), "share_of_wall",
					      have_wall && wall > 0 ? pr_jnum(total / wall)
								    : json_null(),
					      "reported_percentage", pr_jnum(pct), NULL));
		free(name);
	}
	if (pr_actx_done(ctx, st, rc, err)) {
		json_decref(arr);
		return -1;
	}
	if (json_array_size(arr)) {
		json_object_set_new(out, "stages", arr);
		json_object_set_new(out, "stages_wall_ns", have_wall ? pr_jnum(wall) : json_null());
	} else {
		json_decref(arr);
	}
	return 0;
}

/* What later analyzers read (results.h): the occurrences' durations and RSS deltas, the totals
 * per name, the stages. */
static void publish(struct pr_actx *ctx, const json_t *out)
{
	struct pr_res_phases *r = &pr_results(ctx)->phases;
	const json_t *occ = json_object_get(out, "occurrences"),
		     *st = json_object_get(out, "stages");
	const json_t *tot = json_object_get(out, "totals"), *v, *m;
	size_t i, j;
	r->present = 1;
	r->nocc = json_array_size(occ);
	r->occ = pr_res_array(r->nocc, sizeof(*r->occ));
	json_array_foreach (occ, i, v) {
		struct pr_res_phase_occ *o = &r->occ[i];
		o->name = pr_mstr(v, "name");
		o->dur_ns = pr_mnum(v, "dur_ns");
		o->rss_delta = NAN;
		json_array_foreach (json_object_get(v, "memory"), j, m)
			if (!strcmp(pr_mstr(m, "series"), "mem.rss"))
				o->rss_delta = pr_res_or0(pr_mnum(m, "delta"));
	}
	r->nstages = json_array_size(st);
	r->stages = pr_res_array(r->nstages, sizeof(*r->stages));
	json_array_foreach (st, i, v) {
		r->stages[i].name = pr_mstr(v, "name");
		r->stages[i].reported_percentage = pr_mnum(v, "reported_percentage");
		r->stages[i].share_of_wall = pr_mnum(v, "share_of_wall");
		r->stages[i].total_ns = pr_mnum(v, "total_ns");
	}
	r->ntotals = json_array_size(tot);
	r->totals = pr_res_array(r->ntotals, sizeof(*r->totals));
	json_array_foreach (tot, i, v) {
		r->totals[i].name = pr_mstr(v, "name");
		r->totals[i].share = pr_mnum(v, "share");
		r->totals[i].union_ns = pr_mnum(v, "union_ns");
	}
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *out = json_object(), *occ = json_array();
	size_t i, cap = ctx->opts->max_phases, *order, norder;
	json_object_set_new(ctx->out, "phases", out);
	json_object_set_new(out, "occurrences", occ);
	for (i = 0; i < ctx->nseries; i++)
		if (pr_actx_load(ctx, &ctx->series[i], err))
			return -1;
	norder = pr_series_order(ctx, &order);
	for (i = 0; i < ctx->nphases && i < cap; i++) {
		const struct pr_aspan *p = &ctx->phases[i];
		int64_t t1 = p->ts + p->dur;
		json_t *o = pr_jobj("name", json_string(p->name), "kind", json_string(p->kind),
				    "occurrence", pr_jint((int64_t)p->occurrence), "depth",
				    pr_jint(p->depth), "t_ns", pr_actx_t(ctx, p->ts), "dur_ns",
				    pr_jint(p->dur), "share", share(ctx, p->dur), "memory",
				    memory_in(ctx, order, norder, p->ts, t1), NULL);
		json_t *rd = counter_delta(ctx, "disk.read", p->ts, t1);
		json_t *wr = counter_delta(ctx, "disk.write", p->ts, t1);
		json_t *cpu = cpu_in(ctx, p->ts, t1);
		if (rd || wr)
			json_object_set_new(o, "disk",
					    pr_jobj("read", rd ? rd : json_null(), "write",
						    wr ? wr : json_null(), NULL));
		if (cpu)
			json_object_set_new(o, "cpu", cpu);
		json_array_append_new(occ, o);
	}
	free(order);
	if (ctx->nphases > cap)
		json_object_set_new(out, "occurrences_more",
				    pr_jint((int64_t)(ctx->nphases - cap)));
	totals(ctx, out);
	json_object_set_new(out, "coverage",
			    ctx->nphases ? share(ctx, union_len(ctx, NULL, ctx->nphases, 1))
					 : json_null());
	if (inferix_stages(ctx, out, err))
		return -1;
	publish(ctx, out);
	return 0;
}

const struct pr_analyzer pr_an_phases = {
	.name = "phases",
	.summary =
		"phase occurrences with duration, share, memory delta/peak, disk, CPU; totals per name",
	.run = run,
};
