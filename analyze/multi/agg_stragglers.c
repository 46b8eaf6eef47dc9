/*
 * agg_stragglers.c - the aggregate's straggler checks (see aggregate.h):
 * per stage, collective, mean step time and GPU idle share a robust z-score
 * across ranks, and per collective the rank that arrived last in most steps
 * (binomial p-value); agg.json's "stragglers" and "collective_arrivals".
 */
#include "analyze/multi/aggregate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/multi/agg_impl.h"
#include "base/stats.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

static const char *short_name(const char *name, char *buf, size_t n)
{
	if (strstr(name, "DataLoader") || strstr(name, "dataloader"))
		return "dataloader";
	if (strlen(name) < n)
		return name;
	snprintf(buf, n, "%.*s...", (int)n - 4, name);
	return buf;
}

struct check {
	const char *what; /* "stage", "collective", "step time" */
	const char *name;
	int low;	   /* 1: the straggler has the LOWEST value (waits least) */
	double min_excess; /* |x - median| must reach this (in x's unit; 0: no floor) */
	/* GPU idle: a rank is named only when its aux value (the host-wait share
	 * of its idle time) is at least aux_min; NULL: no such condition. */
	const double *aux;
	double aux_min;
	int share; /* 1: x is a share of the rank's critical path (any when the median is 0) */
};

/* One cross-rank comparison; appends its record to checks, outliers to per-rank reasons. */
static void run_check(const struct pr_agg *a, struct agg_row **rows, const struct check *c,
		      double *vals, long *ranks, size_t n, json_t *checks, json_t *reasons)
{
	double *tmp, med, mad, meanad;
	json_t *rec, *outl;
	size_t i;
	if (n < 3)
		return;
	(void)a;
	(void)rows;
	tmp = pr_xmalloc(n * sizeof(tmp[0]));
	memcpy(tmp, vals, n * sizeof(tmp[0]));
	med = pr_median(tmp, n);
	mad = pr_mad(vals, n, med);
	meanad = pr_meanad(vals, n, med);
	free(tmp);
	rec = json_object();
	outl = json_array();
	json_object_set_new(rec, "what", json_string(c->what));
	json_object_set_new(rec, "name", json_string(c->name));
	json_object_set_new(rec, "straggler_is", json_string(c->low ? "lowest" : "highest"));
	json_object_set_new(rec, "ranks", json_integer((json_int_t)n));
	json_object_set_new(rec, "median", pr_jnum(med));
	json_object_set_new(rec, "mad", pr_jnum(mad));
	if (c->min_excess > 0)
		json_object_set_new(rec, "min_excess", pr_jnum(c->min_excess));
	if (c->aux)
		json_object_set_new(rec, "host_wait_min", pr_jnum(c->aux_min));
	for (i = 0; i < n; i++) {
		double z = pr_robust_z_meanad(vals[i], med, mad, meanad);
		double ratio = med > 0 ? vals[i] / med : NAN;
		int hit;
		/* a GPU that idles where the others never do: infinitely many times the median */
		if ((c->aux || c->share) && med == 0 && vals[i] > 0)
			ratio = INFINITY;
		hit = c->low ? (z < -PR_AGG_Z && ratio <= PR_AGG_WAIT_RATIO)
			     : (z > PR_AGG_Z && ratio >= PR_AGG_SLOW_RATIO);
		if (fabs(vals[i] - med) < c->min_excess)
			hit = 0;
		if (c->aux && !(c->aux[i] >= c->aux_min))
			hit = 0;
		json_t *o, *why;
		char sb[48], line[256];
		if (!hit)
			continue;
		o = json_object();
		json_object_set_new(o, "rank", json_integer(ranks[i]));
		json_object_set_new(o, "value", pr_jnum(vals[i]));
		json_object_set_new(o, "ratio", pr_jnum(ratio));
		json_object_set_new(o, "z",
				    isfinite(z) ? json_real(z)
						: json_string(z > 0 ? "inf" : "-inf"));
		json_array_append_new(outl, o);
		if (c->aux)
			snprintf(line, sizeof(line),
				 "GPU idle %.0f %% vs a median of %.0f %%, %.0f %% of it host wait",
				 vals[i] * 100, med * 100, c->aux[i] * 100);
		else if (c->share)
			snprintf(line, sizeof(line),
				 "critical path %.0f %% %s vs a median of %.0f %%", vals[i] * 100,
				 c->name, med * 100);
		else if (c->low)
			snprintf(line, sizeof(line), "waits %.0f %% less in %s", (1 - ratio) * 100,
				 short_name(c->name, sb, sizeof(sb)));
		else if (!strcmp(c->what, "step time"))
			snprintf(line, sizeof(line), "step time %.2fx the median", ratio);
		else
			snprintf(line, sizeof(line), "%s%s %.2fx the median",
				 strcmp(c->what, "perf category") ? "" : "perf: ",
				 short_name(c->name, sb, sizeof(sb)), ratio);
		why = json_object();
		json_object_set_new(why, "rank", json_integer(ranks[i]));
		json_object_set_new(why, "text", json_string(line));
		json_object_set_new(why, "what", json_string(c->what));
		json_object_set_new(why, "name", json_string(c->name));
		json_object_set_new(why, "value", pr_jnum(vals[i]));
		json_object_set_new(why, "median", pr_jnum(med));
		json_object_set_new(why, "mad", pr_jnum(mad));
		json_object_set_new(why, "z",
				    isfinite(z) ? json_real(z)
						: json_string(z > 0 ? "inf" : "-inf"));
		json_object_set_new(why, "ratio", pr_jnum(ratio));
		if (c->aux)
			json_object_set_new(why, "host_wait_share", pr_jnum(c->aux[i]));
		json_array_append_new(reasons, why);
	}
	json_object_set_new(rec, "outliers", outl);
	json_array_append_new(checks, rec);
}

static int cmp_col(const void *x, const void *y)
{
	return strcmp((*(const struct agg_col *const *)x)->name,
		      (*(const struct agg_col *const *)y)->name);
}

/* The columns of one field (the keys of the rows' "stages" or "collectives"), by name. */
static const struct agg_col **field_cols(const struct pr_agg *a, int field, size_t *nk)
{
	const struct agg_col **k = pr_xcalloc(a->ncols + 1, sizeof(k[0]));
	size_t i, n = 0;
	for (i = 0; i < a->ncols; i++)
		if (a->cols[i].field == field)
			k[n++] = &a->cols[i];
	qsort(k, n, sizeof(k[0]), cmp_col);
	*nk = n;
	return k;
}

struct arrcount {
	long rank;
	size_t steps;
};

static int cmp_long(const void *x, const void *y)
{
	long u = *(const long *)x, v = *(const long *)y;
	return (u > v) - (u < v);
}

static int cmp_arrcount(const void *x, const void *y)
{
	const struct arrcount *u = x, *v = y;
	if (u->steps != v->steps)
		return u->steps > v->steps ? -1 : 1;
	return (u->rank > v->rank) - (u->rank < v->rank);
}

/* Steps in which each rank arrived last, most first (ties: lower rank); *decided = steps with a rank. */
static struct arrcount *arrival_counts(const struct agg_arrival *ar, size_t *nc, size_t *decided)
{
	long *r = pr_xmalloc((ar->n + 1) * sizeof(r[0]));
	struct arrcount *c;
	size_t m = 0, i, k = 0;
	for (i = 0; i < ar->n; i++)
		if (ar->rank[i] >= 0)
			r[m++] = ar->rank[i];
	qsort(r, m, sizeof(r[0]), cmp_long);
	c = pr_xmalloc((m + 1) * sizeof(c[0]));
	for (i = 0; i < m; i++) {
		if (k && c[k - 1].rank == r[i]) {
			c[k - 1].steps++;
		} else {
			c[k].rank = r[i];
			c[k++].steps = 1;
		}
	}
	free(r);
	qsort(c, k, sizeof(c[0]), cmp_arrcount);
	*nc = k;
	*decided = m;
	return c;
}

/* P(one of nranks ranks arrives last in >= k of d steps by chance), Bonferroni-bounded. */
static double arrival_p(size_t k, size_t d, size_t nranks)
{
	if (nranks < 2 || !d)
		return NAN;
	return fmin(1, (double)nranks * pr_binom_sf(k, d, 1.0 / (double)nranks));
}

static int cmp_arrival(const void *x, const void *y)
{
	const struct agg_arrival *const *u = x, *const *v = y;
	int c = strcmp((*u)->name, (*v)->name);
	return c ? c : strcmp((*u)->kind, (*v)->kind);
}

static json_t *arrival_json(const struct agg_arrival *ar, size_t nranks)
{
	size_t nc, d, i;
	struct arrcount *c = arrival_counts(ar, &nc, &d);
	json_t *o = json_object(), *top = json_array(), *least = json_array(), *rank = json_array(),
	       *state = json_object();
	json_object_set_new(o, "kind", json_string(ar->kind));
	json_object_set_new(o, "name", json_string(ar->name));
	json_object_set_new(o, "steps", json_integer((json_int_t)ar->n));
	json_object_set_new(o, "decided", json_integer((json_int_t)d));
	for (i = 0; i < nc && i < 5; i++) {
		json_t *t = json_object();
		json_object_set_new(t, "rank", json_integer(c[i].rank));
		json_object_set_new(t, "steps", json_integer((json_int_t)c[i].steps));
		json_array_append_new(top, t);
	}
	json_object_set_new(o, "last_to_arrive", top);
	json_object_set_new(o, "p_value", pr_jnum(nc ? arrival_p(c[0].steps, d, nranks) : NAN));
	for (i = 0; i < ar->n; i++) {
		json_array_append_new(least, pr_jnum(ar->least[i]));
		json_array_append_new(rank, json_integer(ar->rank[i]));
	}
	json_object_set_new(state, "least_ns", least);
	json_object_set_new(state, "rank", rank);
	json_object_set_new(o, "state", state);
	free(c);
	return o;
}

json_t *pr_agg_arrivals_json(const struct pr_agg *a, size_t nranks)
{
	const struct agg_arrival **av = pr_xcalloc(a->narr + 1, sizeof(av[0]));
	json_t *arr = json_array();
	size_t i;
	for (i = 0; i < a->narr; i++)
		av[i] = &a->arr[i];
	qsort(av, a->narr, sizeof(av[0]), cmp_arrival);
	for (i = 0; i < a->narr; i++)
		json_array_append_new(arr, arrival_json(av[i], nranks));
	free(av);
	return arr;
}

/* A rank that arrived last in most steps of a collective, far beyond chance, is a straggler. */
static void arrival_reasons(const struct pr_agg *a, size_t nranks, json_t *reasons)
{
	size_t i;
	for (i = 0; i < a->narr; i++) {
		size_t nc, d;
		struct arrcount *c = arrival_counts(&a->arr[i], &nc, &d);
		double p = nc ? arrival_p(c[0].steps, d, nranks) : NAN;
		if (d >= 3 && 2 * c[0].steps > d && p < ARRIVAL_P) {
			json_t *why = json_object();
			char sb[48], line[256], detail[256];
			snprintf(line, sizeof(line), "last into %s in %zu of %zu steps",
				 short_name(a->arr[i].name, sb, sizeof(sb)), c[0].steps, d);
			snprintf(detail, sizeof(detail),
				 "least time in it in %zu of %zu steps, so the other ranks waited "
				 "for it; by chance 1 in %zu per step: p = %.2g",
				 c[0].steps, d, nranks, p);
			json_object_set_new(why, "rank", json_integer(c[0].rank));
			json_object_set_new(why, "text", json_string(line));
			json_object_set_new(why, "what", json_string("arrival"));
			json_object_set_new(why, "name", json_string(a->arr[i].name));
			json_object_set_new(why, "steps", json_integer((json_int_t)c[0].steps));
			json_object_set_new(why, "of", json_integer((json_int_t)d));
			json_object_set_new(why, "p_value", pr_jnum(p));
			json_object_set_new(why, "detail", json_string(detail));
			json_array_append_new(reasons, why);
		}
		free(c);
	}
}

void pr_agg_stragglers(const struct pr_agg *a, struct agg_row **rows, size_t n, size_t nranks,
		       json_t *out)
{
	json_t *checks = json_array(), *reasons = json_array(), *named = json_array();
	double *vals = pr_xmalloc((n + 1) * sizeof(vals[0]));
	long *rk = pr_xmalloc((n + 1) * sizeof(rk[0]));
	/* one column's values by row index (NAN: the row has none; JSON numbers are finite) */
	double *byrow = pr_xmalloc((a->nrows + 1) * sizeof(byrow[0]));
	size_t f, i, k, m;
	double floor_ns = 0;
	for (i = m = 0; i < n; i++)
		if (isfinite(rows[i]->duration_ns))
			vals[m++] = rows[i]->duration_ns;
	if (m)
		floor_ns = PR_AGG_MIN_SHARE * pr_median(vals, m);
	/* stages, collectives, perf-model categories (device ns), critical-path shares */
	for (f = 0; f < 4; f++) {
		static const char *const what[] = { "stage", "collective", "perf category",
						    "critical path" };
		size_t nk;
		const struct agg_col **cols = field_cols(a, (int)f, &nk);
		for (k = 0; k < nk; k++) {
			struct check c = { what[f],
					   cols[k]->name,
					   f == AGG_F_COLLECTIVE,
					   f == AGG_F_CRITPATH ? PR_AGG_CP_POINTS : floor_ns,
					   NULL,
					   0,
					   f == AGG_F_CRITPATH };
			for (i = 0; i < a->nrows; i++)
				byrow[i] = NAN;
			for (i = 0; i < cols[k]->n; i++)
				byrow[cols[k]->row[i]] = cols[k]->val[i];
			for (i = m = 0; i < n; i++) {
				double v = byrow[rows[i] - a->rows];
				if (!isnan(v)) {
					vals[m] = v;
					rk[m++] = rows[i]->rank;
				}
			}
			run_check(a, rows, &c, vals, rk, m, checks, reasons);
		}
		free(cols);
	}
	free(byrow);
	{
		struct check c = { "step time", "mean step", 0, 0, NULL, 0, 0 };
		for (i = m = 0; i < n; i++) {
			double v = rows[i]->step_mean_ns;
			if (isfinite(v)) {
				vals[m] = v;
				rk[m++] = rows[i]->rank;
			}
		}
		run_check(a, rows, &c, vals, rk, m, checks, reasons);
	}
	{
		/* a rank whose GPU idles while the others' compute, waiting on its own host */
		double *hw = pr_xmalloc((n + 1) * sizeof(hw[0]));
		struct check c = { "gpu idle", "GPU idle share",     0, PR_AGG_GPU_IDLE_POINTS,
				   NULL,       PR_AGG_GPU_HOST_WAIT, 0 };
		for (i = m = 0; i < n; i++) {
			double v = rows[i]->gpu_idle, h = rows[i]->gpu_host_wait;
			if (isfinite(v)) {
				vals[m] = v;
				hw[m] = isfinite(h) ? h : 0;
				rk[m++] = rows[i]->rank;
			}
		}
		c.aux = hw;
		run_check(a, rows, &c, vals, rk, m, checks, reasons);
		free(hw);
	}
	arrival_reasons(a, nranks, reasons);
	/* name each rank once, in rank order, with all its reasons */
	for (i = 0; i < n; i++) {
		struct pr_strbuf sb = PR_STRBUF_INIT;
		json_t *ev, *r, *o;
		size_t j;
		if (i > 0 && rows[i - 1]->rank == rows[i]->rank)
			continue;
		ev = json_array();
		json_array_foreach (reasons, j, r) {
			if (json_integer_value(
				    json_object_get(r, PRA_STRAGGLERS_RANKS_EVIDENCE_RANK)) !=
			    rows[i]->rank)
				continue;
			pr_strbuf_addstr(&sb, json_array_size(ev) ? "; " : "");
			pr_strbuf_addstr(&sb, json_string_value(json_object_get(
						      r, PRA_STRAGGLERS_RANKS_EVIDENCE_TEXT)));
			json_array_append(ev, r);
		}
		if (!json_array_size(ev)) {
			json_decref(ev);
			pr_strbuf_release(&sb);
			continue;
		}
		o = json_object();
		json_object_set_new(o, "rank", json_integer(rows[i]->rank));
		{
			struct pr_strbuf line = PR_STRBUF_INIT;
			const char *src = pr_agg_row_source(a, rows[i]), *base;
			src = src ? src : ""; /* the scratch file failed: the caller sees it */
			base = strrchr(src, '/');
			json_object_set_new(o, "source", json_string(src));
			pr_strbuf_addf(&line, "rank %ld", rows[i]->rank);
			if (rows[i]->inferred)
				pr_strbuf_addf(&line, " (%s)", base ? base + 1 : src);
			pr_strbuf_addf(&line, ": %s", sb.buf);
			json_object_set_new(o, "summary", json_string(line.buf));
			pr_strbuf_release(&line);
		}
		json_object_set_new(o, "evidence", ev);
		json_array_append_new(named, o);
		pr_strbuf_release(&sb);
	}
	free(vals);
	free(rk);
	json_decref(reasons);
	json_object_set_new(
		out, "rule",
		json_string(
			"per stage/phase total, collective time and mean step time across ranks: "
			"modified z = 0.6745 (x - median) / MAD (meanAD fallback when MAD = 0); "
			"straggler when a stage or the step time has z > 3.5 and x >= 1.2 x "
			"median, or a collective has z < -3.5 and x <= 0.8 x median (the "
			"straggler waits least), and for stages and collectives |x - median| >= "
			"1 % of the median run duration; needs >= 3 ranks. GPU idle: a rank "
			"whose GPU idle share (of its first-to-last GPU op span) has z > 3.5, is "
			">= 1.2 x the median (any idle when the median is 0) and >= 5 points "
			"above it, with >= 50 % of its idle time host wait (the GPU waited for "
			"its own CPU to launch work), while the other ranks' GPUs were busy. "
			"Perf-model categories (device ns): as a stage. Critical path: a rank "
			"whose path has a share of cpu_op, sync or idle with z > 3.5, >= 1.2 x "
			"the median (any when the median is 0) and >= 5 points above it. Also: a "
			"rank that spent the least time in a collective in most of its steps, "
			"with p < 0.01 against 1 in N ranks per step (binomial, times N), "
			"arrived last"));
	json_object_set_new(out, "z_threshold", json_real(PR_AGG_Z));
	json_object_set_new(out, "ranks", named);
	json_object_set_new(out, "checks", checks);
}
