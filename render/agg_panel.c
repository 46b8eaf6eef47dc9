/* agg_panel.c - chart specs from agg.json (see agg_panel.h). */
#include "render/agg_panel.h"
#include "render/gpu_panel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/units.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

#define RED 0xD62728
#define LIGHT_RED 0xFF9896
#define MAX_SERIES 4

/* The palette without its red (index 3) and grey (index 7): red marks stragglers. */
static uint32_t group_color(size_t i)
{
	static const size_t pick[] = { 0, 1, 2, 4, 5, 6, 8, 9 };
	return pr_chart_color(pick[i % PR_ARRAY_SIZE(pick)]);
}

/* ---- allocation: everything a panel points to lives in the pool ---- */

/* ---- agg.json access ---- */

/* The straggler entry of rank r, or NULL. */
static const json_t *straggler(const json_t *doc, double r)
{
	json_t *s;
	size_t i;
	json_array_foreach (json_object_get(json_object_get(doc, PRA_STRAGGLERS),
					    PRA_STRAGGLERS_RANKS),
			    i, s)
		if (pr_mnum(s, PRA_STRAGGLERS_RANKS_RANK) == r)
			return s;
	return NULL;
}

/* 1 when the straggler's evidence names (what, name); name NULL = any name. */
static int evidence_has(const json_t *s, const char *what, const char *name)
{
	json_t *e;
	size_t i;
	json_array_foreach (json_object_get(s, PRA_STRAGGLERS_RANKS_EVIDENCE), i, e)
		if (!strcmp(pr_mstr(e, PRA_STRAGGLERS_RANKS_EVIDENCE_WHAT), what) &&
		    (!name || !strcmp(pr_mstr(e, PRA_STRAGGLERS_RANKS_EVIDENCE_NAME), name)))
			return 1;
	return 0;
}

/* Ranks drawn: all, or the stragglers and then the lowest ranks; in rank order. */
struct sel {
	const json_t **row;
	size_t n, total;
	const char **label;  /* "rank 2", "rank 2 (straggler)"; more than 8 ranks: "2", "2*" */
	const char *x_label; /* "Rank (* = straggler)" with the short labels, else NULL */
	const json_t **strag;
};

static int by_rank(const void *a, const void *b)
{
	double x = pr_mnum(*(const json_t *const *)a, PRA_RANKS_RANK),
	       y = pr_mnum(*(const json_t *const *)b, PRA_RANKS_RANK);
	return (x > y) - (x < y);
}

static void select_ranks(struct pr_panelset *ps, const json_t *doc, struct sel *s)
{
	json_t *ranks = json_object_get(doc, PRA_RANKS), *r;
	size_t i, cap = PR_AGG_PANEL_RANKS;
	char *taken;
	s->total = json_array_size(ranks);
	s->row = pr_panelset_alloc(ps, cap, sizeof(*s->row));
	s->label = pr_panelset_alloc(ps, cap, sizeof(*s->label));
	s->strag = pr_panelset_alloc(ps, cap, sizeof(*s->strag));
	taken = pr_xcalloc(s->total + 1, 1);
	s->n = 0;
	s->x_label = NULL;
	if (s->total > cap) {
		json_array_foreach (ranks, i, r)
			if (s->n < cap / 2 && straggler(doc, pr_mnum(r, PRA_RANKS_RANK))) {
				s->row[s->n++] = r;
				taken[i] = 1;
			}
	}
	json_array_foreach (ranks, i, r)
		if (s->n < cap && !taken[i])
			s->row[s->n++] = r;
	free(taken);
	qsort(s->row, s->n, sizeof(*s->row), by_rank);
	if (s->n > 8) {
		/* narrow categories may lose labels: the stragglers go first, where one shows */
		const json_t **tmp = pr_xcalloc(s->n, sizeof(*tmp));
		size_t k = 0, pass;
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < s->n; i++)
				if ((straggler(doc, pr_mnum(s->row[i], PRA_RANKS_RANK)) == NULL) ==
				    (int)pass)
					tmp[k++] = s->row[i];
		memcpy(s->row, tmp, s->n * sizeof(*tmp));
		free(tmp);
		s->x_label = "Rank (stragglers first, marked *)";
	}
	for (i = 0; i < s->n; i++) {
		char buf[80];
		double rk = pr_mnum(s->row[i], PRA_RANKS_RANK);
		s->strag[i] = straggler(doc, rk);
		if (s->n > 8) /* narrow categories: the number only */
			snprintf(buf, sizeof(buf), "%.0f%s", rk, s->strag[i] ? "*" : "");
		else
			snprintf(buf, sizeof(buf), "rank %.0f%s", rk,
				 s->strag[i] ? " (straggler)" : "");
		s->label[i] = pr_panelset_strdup(ps, buf);
	}
}

/* " (64 of 1000 ranks: stragglers, then the lowest)" when capped, else "". */
static void cap_text(const struct sel *s, char *buf, size_t n)
{
	if (s->n < s->total)
		snprintf(buf, n, " (%zu of %zu ranks: stragglers, then the lowest)", s->n,
			 s->total);
	else
		buf[0] = 0;
}

/* Stragglers' summaries for a note ("" when none). */
static void straggler_note(const json_t *doc, char *buf, size_t n, const char *extra)
{
	const json_t *st = json_object_get(doc, PRA_STRAGGLERS), *s;
	size_t i, k = json_array_size(json_object_get(st, PRA_STRAGGLERS_RANKS)), len;
	buf[0] = 0;
	if (!k) {
		snprintf(buf, n, "%s",
			 json_array_size(json_object_get(doc, PRA_RANKS)) < 3
				 ? "No straggler check: it needs at least 3 ranks"
				 : "No straggler: no rank is an outlier (modified z-score)");
		return;
	}
	json_array_foreach (json_object_get(st, PRA_STRAGGLERS_RANKS), i, s) {
		const json_t *e;
		size_t j;
		len = strlen(buf);
		if (i == 3) {
			snprintf(buf + len, n - len, "\n... and %zu more stragglers", k - 3);
			break;
		}
		snprintf(buf + len, n - len, "%sStraggler: rank %.0f", i ? "\n" : "",
			 pr_mnum(s, PRA_STRAGGLERS_RANKS_RANK));
		json_array_foreach (json_object_get(s, PRA_STRAGGLERS_RANKS_EVIDENCE), j, e) {
			len = strlen(buf);
			if (j == 3) {
				snprintf(buf + len, n - len, "\n  ...");
				break;
			}
			snprintf(buf + len, n - len, "\n  %s",
				 pr_mstr(e, PRA_STRAGGLERS_RANKS_EVIDENCE_TEXT));
		}
	}
	len = strlen(buf);
	if (extra && *extra)
		snprintf(buf + len, n - len, "\n%s", extra);
}

/* ---- the panels ---- */

struct stage_total {
	const char *name;
	double total;
};

static int by_total(const void *a, const void *b)
{
	const struct stage_total *x = a, *y = b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void rank_comparison(struct pr_panelset *ps, const json_t *doc, const struct sel *s)
{
	json_t *sums = json_object(), *ranks = json_object_get(doc, PRA_RANKS), *r, *v;
	struct stage_total *st;
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart *c;
	const char *k;
	size_t i, j, nst = 0, ng, any_coll = 0;
	char title[300], capt[120], note[2000];
	int any_red = 0;

	/* totals per stage over every rank (not only those drawn) */
	json_array_foreach (ranks, i, r) {
		json_object_foreach (json_object_get(r, PRA_RANKS_STAGES), k, v) {
			json_t *t = json_object_get(sums, k);
			double x = json_is_number(v) ? json_number_value(v) : 0;
			json_object_set_new(sums, k, json_real((t ? json_real_value(t) : 0) + x));
		}
		any_coll += isfinite(pr_mnum(r, PRA_RANKS_COLLECTIVE_NS));
	}
	st = pr_xcalloc(json_object_size(sums) + 1, sizeof(*st));
	json_object_foreach (sums, k, v) {
		st[nst].name = k;
		st[nst++].total = json_real_value(v);
	}
	qsort(st, nst, sizeof(*st), by_total);
	if (nst > PR_AGG_PANEL_STAGES)
		nst = PR_AGG_PANEL_STAGES;
	ng = nst + (any_coll ? 1 : 0);
	if (!ng || !s->n) {
		free(st);
		json_decref(sums);
		return;
	}
	g = pr_panelset_alloc(ps, ng, sizeof(*g));
	for (j = 0; j < ng; j++) {
		int coll = j == nst;
		double *val = pr_panelset_alloc(ps, s->n, sizeof(double));
		uint32_t *col = pr_panelset_alloc(ps, s->n, sizeof(uint32_t));
		const char *name = coll ? "collectives (wait)" : pr_panelset_strdup(ps, st[j].name);
		for (i = 0; i < s->n; i++) {
			const json_t *strag = s->strag[i];
			val[i] = coll ? pr_mnum(s->row[i], PRA_RANKS_COLLECTIVE_NS)
				      : pr_mnum(json_object_get(s->row[i], PRA_RANKS_STAGES),
						st[j].name);
			col[i] = group_color(j);
			if (strag && (coll ? (evidence_has(strag, "collective", NULL) ||
					      evidence_has(strag, "arrival", NULL))
					   : evidence_has(strag, "stage", st[j].name))) {
				col[i] = RED;
				any_red = 1;
			}
		}
		g[j] = (struct pr_chart_bar_group){ name, group_color(j), val, col, NULL };
	}
	/* a straggler by step time alone is red in step_time: nothing here is its evidence */
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ s->label, s->n, g, ng, 0, 0, 0, 0 };
	cap_text(s, capt, sizeof(capt));
	if (json_object_size(sums) > nst)
		snprintf(title, sizeof(title), "Time per rank: the %zu largest stages%s%s", nst,
			 any_coll ? " and waiting in collectives" : "", capt);
	else
		snprintf(title, sizeof(title), "Time per rank: stages%s%s",
			 any_coll ? " and waiting in collectives" : "", capt);
	c = pr_panelset_add(ps, "rank_comparison", title);
	c->y_label = "Total time";
	c->x_label = s->x_label;
	c->y_unit = "ns";
	c->bars = b;
	c->height = 480;
	c->legend_title = "Stages";
	straggler_note(doc, note, sizeof(note),
		       any_red ? "Red bars: the straggler's evidence" : "");
	c->note = pr_panelset_strdup(ps, note);
	free(st);
	json_decref(sums);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void step_time(struct pr_panelset *ps, const struct sel *s)
{
	double *mean = pr_panelset_alloc(ps, s->n, sizeof(double)),
	       *max = pr_panelset_alloc(ps, s->n, sizeof(double));
	uint32_t *c0 = pr_panelset_alloc(ps, s->n, sizeof(uint32_t)),
		 *c1 = pr_panelset_alloc(ps, s->n, sizeof(uint32_t));
	double *sorted = pr_xcalloc(s->n + 1, sizeof(double)), med = NAN;
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart_hline *h;
	struct pr_chart *c;
	size_t i, have = 0, nslow = 0, other = 0;
	char title[300], capt[120], t[64], lab[100];
	const char *name = "";
	int slow;
	for (i = 0; i < s->n; i++) {
		const json_t *st = json_object_get(s->row[i], PRA_RANKS_STEPS);
		mean[i] = pr_mnum(st, PRA_RANKS_STEPS_MEAN_NS);
		max[i] = pr_mnum(st, PRA_RANKS_STEPS_MAX_NS);
		/* red only when the evidence is the step time: DDP syncs steps, so a
		 * straggler by a stage or collective has the others' step time */
		slow = s->strag[i] && evidence_has(s->strag[i], "step time", NULL);
		other += s->strag[i] && !slow;
		nslow += slow;
		c0[i] = slow ? RED : 0x1F77B4;
		c1[i] = slow ? LIGHT_RED : 0xAEC7E8;
		if (isfinite(mean[i])) {
			sorted[have++] = mean[i];
			if (!*name)
				name = pr_mstr(st, PRA_RANKS_STEPS_NAME);
		}
	}
	if (!have) {
		free(sorted);
		return;
	}
	qsort(sorted, have, sizeof(double), cmp_double);
	med = have % 2 ? sorted[have / 2] : (sorted[have / 2 - 1] + sorted[have / 2]) / 2;
	free(sorted);
	g = pr_panelset_alloc(ps, 2, sizeof(*g));
	g[0] = (struct pr_chart_bar_group){ "mean", 0x1F77B4, mean, c0, NULL };
	g[1] = (struct pr_chart_bar_group){ "max", 0xAEC7E8, max, c1, NULL };
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ s->label, s->n, g, 2, 0, 0, 0, 0 };
	h = pr_panelset_alloc(ps, 1, sizeof(*h));
	pr_fmt_duration(med, t, sizeof(t));
	snprintf(lab, sizeof(lab), "median of means %s", t);
	*h = (struct pr_chart_hline){ med, pr_panelset_strdup(ps, lab), 0x333333, 1 };
	cap_text(s, capt, sizeof(capt));
	snprintf(t, sizeof(t), "%.60s", *name ? name : "steps");
	{
		/* "ProfilerStep#0" (the first step's name) -> "ProfilerStep" */
		char *hash = strrchr(t, '#');
		if (hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1))
			*hash = 0;
	}
	snprintf(title, sizeof(title), "Step time per rank (%s)%s", t, capt);
	c = pr_panelset_add(ps, "step_time", title);
	c->y_label = "Step time";
	c->x_label = s->x_label;
	c->y_unit = "ns";
	c->bars = b;
	c->hlines = h;
	c->nhlines = 1;
	c->height = 420;
	if (nslow)
		c->note = other ? "Red: stragglers by step time (others: see the rank comparison)"
				: "Red bars: stragglers by step time";
	else if (other)
		c->note = "No rank's step time stands out: see the rank comparison";
}

/* Adds name to out[] (n so far, MAX_SERIES at most) unless it is there. */
static void add_series(const char *name, const char **out, size_t *n)
{
	size_t q;
	for (q = 0; q < *n; q++)
		if (!strcmp(out[q], name))
			return;
	if (*n < MAX_SERIES)
		out[(*n)++] = name;
}

/*
 * Memory series to draw: peaks in bytes; the preferred ones first, then the
 * others in first-seen order; "sys.*" (the whole machine) only when there is
 * nothing else.
 */
enum scan {
	SCAN_NAMED,
	SCAN_OTHER,
	SCAN_SYS
};

/* Adds the bytes peaks of every rank that match (mode, name) to out[]. */
static void scan_peaks(const json_t *doc, enum scan mode, const char *want,
		       const char *const *prefer, size_t nprefer, const char **out, size_t *n)
{
	json_t *r, *p;
	size_t i, j, k;
	json_array_foreach (json_object_get(doc, PRA_RANKS), i, r)
		json_array_foreach (json_object_get(r, PRA_RANKS_PEAKS), j, p) {
			const char *name = pr_mstr(p, PRA_RANKS_PEAKS_SERIES);
			int sys = !strncmp(name, "sys.", 4), pref = 0;
			if (strcmp(pr_mstr(p, PRA_RANKS_PEAKS_UNIT), "bytes") ||
			    !isfinite(pr_mnum(p, PRA_RANKS_PEAKS_VALUE)))
				continue;
			for (k = 0; k < nprefer; k++)
				pref |= !strcmp(name, prefer[k]);
			if ((mode == SCAN_NAMED && !strcmp(name, want)) ||
			    (mode == SCAN_OTHER && !pref && !sys) || (mode == SCAN_SYS && sys))
				add_series(name, out, n);
		}
}

static size_t memory_series(const json_t *doc, const char **out)
{
	static const char *const prefer[] = {
		"mem.rss",	"dev.mem.allocated",	      "dev.mem.reserved",
		"gpu.mem.used", "inferix.block.memory_usage", "heap.used"
	};
	size_t k, n = 0;
	for (k = 0; k < PR_ARRAY_SIZE(prefer); k++)
		scan_peaks(doc, SCAN_NAMED, prefer[k], prefer, PR_ARRAY_SIZE(prefer), out, &n);
	scan_peaks(doc, SCAN_OTHER, NULL, prefer, PR_ARRAY_SIZE(prefer), out, &n);
	if (!n)
		scan_peaks(doc, SCAN_SYS, NULL, prefer, PR_ARRAY_SIZE(prefer), out, &n);
	return n;
}

static void peak_memory(struct pr_panelset *ps, const json_t *doc, const struct sel *s)
{
	const char *names[MAX_SERIES];
	size_t ns = memory_series(doc, names), i, j, k;
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart *c;
	char title[300], capt[120];
	if (!ns)
		return;
	g = pr_panelset_alloc(ps, ns, sizeof(*g));
	for (j = 0; j < ns; j++) {
		double *v = pr_panelset_alloc(ps, s->n, sizeof(double));
		for (i = 0; i < s->n; i++) {
			json_t *p;
			v[i] = NAN;
			json_array_foreach (json_object_get(s->row[i], PRA_RANKS_PEAKS), k, p)
				if (!strcmp(pr_mstr(p, PRA_RANKS_PEAKS_SERIES), names[j]) &&
				    isfinite(pr_mnum(p, PRA_RANKS_PEAKS_VALUE)) &&
				    !(pr_mnum(p, PRA_RANKS_PEAKS_VALUE) <= v[i]))
					v[i] = pr_mnum(p, PRA_RANKS_PEAKS_VALUE);
		}
		g[j] = (struct pr_chart_bar_group){ pr_panelset_strdup(ps, names[j]),
						    group_color(j), v, NULL, NULL };
	}
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ s->label, s->n, g, ns, 0, ns == 1, 0, 0 };
	cap_text(s, capt, sizeof(capt));
	if (ns == 1)
		snprintf(title, sizeof(title), "Peak memory per rank: %.100s (max over devices)%s",
			 names[0], capt);
	else
		snprintf(title, sizeof(title), "Peak memory per rank (max over devices)%s", capt);
	c = pr_panelset_add(ps, "peak_memory", title);
	c->y_label = "Peak";
	c->x_label = s->x_label;
	c->y_unit = "bytes";
	c->bars = b;
	c->height = 420;
	c->legend_title = "Series";
}

/*
 * GPU temporal breakdown per rank: compute, communication, memory and idle as
 * % of each rank's GPU span (HTA), one stacked bar per rank (100 %) in the GPU
 * panels' colours (pr_gpu_color); the idle segment of a rank named by the
 * GPU-idle rule is red.
 */
static void gpu_breakdown(struct pr_panelset *ps, const json_t *doc, const struct sel *s)
{
	static const char *const key[] = { PRA_RANKS_GPU_COMPUTE_SHARE,
					   PRA_RANKS_GPU_COMMUNICATION_SHARE,
					   PRA_RANKS_GPU_MEMORY_SHARE, PRA_RANKS_GPU_IDLE_SHARE };
	static const char *const name[] = { "compute", "communication", "memory", "idle" };
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart *c;
	size_t i, j, have = 0;
	char title[300], capt[120], note[2000];
	int any_red = 0;
	for (i = 0; i < s->n; i++)
		have += json_is_object(json_object_get(s->row[i], PRA_RANKS_GPU));
	if (!have)
		return;
	g = pr_panelset_alloc(ps, PR_ARRAY_SIZE(key), sizeof(*g));
	for (j = 0; j < PR_ARRAY_SIZE(key); j++) {
		double *v = pr_panelset_alloc(ps, s->n, sizeof(double));
		uint32_t *col = pr_panelset_alloc(ps, s->n, sizeof(uint32_t));
		for (i = 0; i < s->n; i++) {
			v[i] = pr_mnum(json_object_get(s->row[i], PRA_RANKS_GPU), key[j]) * 100;
			col[i] = pr_gpu_color(name[j]);
			if (j == 3 && s->strag[i] && evidence_has(s->strag[i], "gpu idle", NULL)) {
				col[i] = RED;
				any_red = 1;
			}
		}
		g[j] = (struct pr_chart_bar_group){ name[j], pr_gpu_color(name[j]), v, col, NULL };
	}
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ s->label, s->n, g, PR_ARRAY_SIZE(key), 0, 0, 1, 0 };
	cap_text(s, capt, sizeof(capt));
	snprintf(title, sizeof(title),
		 "GPU time per rank: compute, communication, memory, idle "
		 "(%% of the GPU span)%s",
		 capt);
	c = pr_panelset_add(ps, "gpu_breakdown", title);
	c->y_label = "Share of the GPU span";
	c->x_label = s->x_label;
	c->y_unit = "percent";
	c->bars = b;
	c->height = 420;
	c->legend_title = "GPU time";
	straggler_note(doc, note, sizeof(note),
		       any_red ? "Red bars: idle of a rank named by the GPU-idle rule" : "");
	c->note = pr_panelset_strdup(ps, note);
}

struct pr_panelset *pr_agg_panels_build(const json_t *doc)
{
	struct pr_panelset *ps = pr_panelset_new();
	struct sel s;
	memset(&s, 0, sizeof(s));
	select_ranks(ps, doc, &s);
	if (!s.n)
		return ps;
	rank_comparison(ps, doc, &s);
	step_time(ps, &s);
	gpu_breakdown(ps, doc, &s);
	peak_memory(ps, doc, &s);
	return ps;
}
