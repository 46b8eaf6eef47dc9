/* compare_panel.c - chart specs from a comparison (see compare_panel.h). */
#include "render/compare_panel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare_text.h"
#include "render/units.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "render/names.h"
#include "render/panels.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

#define MAX_THRESHOLDS 4
#define NAME_BYTES 48 /* a metric's axis label (render/names.h), as the GPU panels' */

#define RGB_REGRESSION 0xD62728
#define RGB_IMPROVEMENT 0x2CA02C
#define RGB_NOISE 0xFF7F0E
#define RGB_UNCHANGED 0x9E9E9E

/* ---- allocation: everything a panel points to lives in the pool ---- */

/* ---- changes ---- */

struct change {
	const json_t *m;
	double pct;  /* (ratio - 1) * 100 */
	int flagged; /* 2 regression, 1 improvement or not significant, 0 unchanged */
	size_t index;
};

/* Regressions first (never cut by the cap), then the other flagged ones, then by size. */
static int by_size(const void *a, const void *b)
{
	const struct change *x = a, *y = b;
	double ax = fabs(x->pct), ay = fabs(y->pct);
	if (x->flagged != y->flagged)
		return y->flagged - x->flagged;
	if (ax != ay)
		return ax < ay ? 1 : -1;
	return (x->index > y->index) - (x->index < y->index);
}

static uint32_t verdict_color(const char *v)
{
	if (!strcmp(v, "regression"))
		return RGB_REGRESSION;
	if (!strcmp(v, "improvement"))
		return RGB_IMPROVEMENT;
	if (!strcmp(v, "noise") || !strcmp(v, "inconclusive"))
		return RGB_NOISE;
	return RGB_UNCHANGED;
}

/* The metric's kind for the threshold note: time, memory, throughput, ... */
static const char *kind_of(const json_t *m)
{
	const char *k = pr_mstr(m, PRC_METRICS_KIND);
	return *k && strcmp(k, "ratio") ? k : pr_mstr(m, PRC_METRICS_GROUP);
}

struct threshold {
	double at;	 /* % on the change axis */
	char kinds[120]; /* "time, memory" */
};

static void note_threshold(struct threshold *t, size_t *nt, const json_t *m)
{
	const json_t *th = json_object_get(m, PRC_METRICS_THRESHOLD);
	double rel = pr_mnum(th, PRC_METRICS_THRESHOLD_REL), at;
	const char *kind = kind_of(m);
	size_t i;
	if (!isfinite(rel) || json_is_false(json_object_get(th, PRC_METRICS_THRESHOLD_GATED)))
		return;
	at = (strcmp(pr_mstr(m, PRC_METRICS_BETTER), "higher") ? 1 : -1) * fabs(rel) * 100;
	for (i = 0; i < *nt; i++) {
		if (fabs(t[i].at - at) < 1e-9) {
			size_t len = strlen(t[i].kinds);
			if (!strstr(t[i].kinds, kind) &&
			    len + strlen(kind) + 3 < sizeof(t[i].kinds))
				snprintf(t[i].kinds + len, sizeof(t[i].kinds) - len, ", %s", kind);
			return;
		}
	}
	if (*nt == MAX_THRESHOLDS)
		return;
	t[*nt].at = at;
	snprintf(t[*nt].kinds, sizeof(t[*nt].kinds), "%.100s", kind);
	(*nt)++;
}

double pr_ratio_axis_max(const double *ratio, size_t n, const struct pr_chart_hline *h, size_t nh)
{
	static const double m125[] = { 2, 5, 10 };
	double dev = 1, dec = 1;
	size_t i;
	for (i = 0; i < n + nh; i++) {
		double r = i < n ? ratio[i] : h[i - n].y;
		if (isfinite(r) && r > 0)
			dev = fmax(dev, r >= 1 ? r : 1 / r);
	}
	dev = fmin(dev, 1e12) * 1.6; /* room for the value labels past the longest bar */
	for (;; dec *= 10)
		for (i = 0; i < 3; i++)
			if (m125[i] * dec >= dev)
				return m125[i] * dec;
}

static void changes(struct pr_panelset *ps, const json_t *cmp)
{
	const json_t *metrics = json_object_get(cmp, PRC_METRICS), *m;
	struct change *ch = pr_xcalloc(json_array_size(metrics) + 1, sizeof(*ch));
	struct threshold th[MAX_THRESHOLDS];
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart_hline *h;
	struct pr_chart *c;
	struct pr_strbuf sum = PR_STRBUF_INIT, note = PR_STRBUF_INIT;
	const char **cat, **vt;
	double *val;
	uint32_t *col;
	size_t i, n = 0, nt = 0, shown, same = 0, total = json_array_size(metrics);
	const char **ids;
	pr_label_t *lab;
	int seen[4] = { 0, 0, 0, 0 };
	char title[400];

	json_array_foreach (metrics, i, m) {
		double r = pr_mnum(m, PRC_METRICS_RATIO);
		if (!isfinite(r) || !strcmp(pr_mstr(m, PRC_METRICS_VERDICT), "added") ||
		    !strcmp(pr_mstr(m, PRC_METRICS_VERDICT), "removed") ||
		    json_is_false(json_object_get(json_object_get(m, PRC_METRICS_THRESHOLD),
						  PRC_METRICS_THRESHOLD_GATED)))
			continue;
		if (fabs(r - 1) < 1e-12) {
			same++;
			continue;
		}
		ch[n].m = m;
		ch[n].pct = (r - 1) * 100;
		ch[n].index = i;
		ch[n].flagged = !strcmp(pr_mstr(m, PRC_METRICS_VERDICT), "regression")	? 2
				: !strcmp(pr_mstr(m, PRC_METRICS_VERDICT), "unchanged") ? 0
											: 1;
		n++;
	}
	pr_compare_summary_line(cmp, &sum);
	if (!n) {
		snprintf(title, sizeof(title), "Changes new vs base | %s", sum.buf);
		c = pr_panelset_add(ps, "changes", title);
		snprintf(title, sizeof(title), "%s (%zu metric%s compared)",
			 same ? "No metric changed" : "No gated metric with a value on both sides",
			 total, total == 1 ? "" : "s");
		c->empty_text = pr_panelset_strdup(ps, title);
		c->height = 240;
		free(ch);
		pr_strbuf_release(&sum);
		return;
	}
	qsort(ch, n, sizeof(*ch), by_size);
	shown = n < PR_COMPARE_PANEL_METRICS ? n : PR_COMPARE_PANEL_METRICS;
	cat = pr_panelset_alloc(ps, shown, sizeof(*cat));
	vt = pr_panelset_alloc(ps, shown, sizeof(*vt));
	val = pr_panelset_alloc(ps, shown, sizeof(*val));
	col = pr_panelset_alloc(ps, shown, sizeof(*col));
	ids = pr_xcalloc(shown + 1, sizeof(*ids));
	lab = pr_xcalloc(shown + 1, sizeof(*lab));
	for (i = 0; i < shown; i++)
		ids[i] = pr_mstr(ch[i].m, PRC_METRICS_ID);
	pr_name_column(lab, ids, shown, NAME_BYTES); /* names.h: never two alike */
	for (i = 0; i < shown; i++) {
		const char *v = pr_mstr(ch[i].m, PRC_METRICS_VERDICT);
		char buf[64];
		cat[i] = pr_panelset_strdup(ps, lab[i]);
		val[i] = pr_mnum(ch[i].m, PRC_METRICS_RATIO);
		col[i] = verdict_color(v);
		snprintf(buf, sizeof(buf), "%+.1f%% (%.2fx)", ch[i].pct,
			 pr_mnum(ch[i].m, PRC_METRICS_RATIO));
		vt[i] = pr_panelset_strdup(ps, buf);
		seen[!strcmp(v, "regression")				 ? 0
		     : !strcmp(v, "improvement")			 ? 1
		     : !strcmp(v, "noise") || !strcmp(v, "inconclusive") ? 2
									 : 3] = 1;
		note_threshold(th, &nt, ch[i].m);
	}
	free(ids);
	free(lab);
	g = pr_panelset_alloc(ps, 1, sizeof(*g));
	*g = (struct pr_chart_bar_group){ "change", RGB_UNCHANGED, val, col, vt };
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ cat, shown, g, 1, 1, 1, 0, 1 };
	h = pr_panelset_alloc(ps, nt, sizeof(*h));
	for (i = 0; i < nt; i++) /* a threshold of -100 % or less has no ratio: not drawn */
		h[i] = (struct pr_chart_hline){ th[i].at > -100 ? 1 + th[i].at / 100 : NAN, NULL,
						0x555555, 1 };

	{
		static const char *const what[] = {
			"red: regression", "green: improvement",
			"orange: beyond the threshold, not significant or inconclusive",
			"grey: unchanged"
		};
		int first = 1;
		for (i = 0; i < 4; i++) {
			if (!seen[i])
				continue;
			pr_strbuf_addstr(&note, first ? "" : (i == 2 ? "\n" : ", "));
			pr_strbuf_addstr(&note, what[i]);
			first = 0;
		}
		for (i = 0; i < nt; i++)
			pr_strbuf_addf(&note, "\ndashed line: threshold %+g%% (%s)", th[i].at,
				       th[i].kinds);
		if (same)
			pr_strbuf_addf(&note, "\n%zu metric%s with no change not drawn", same,
				       same == 1 ? "" : "s");
	}
	if (shown < n)
		snprintf(title, sizeof(title),
			 "Changes new vs base (log ratio): the %zu largest of %zu | %s", shown, n,
			 sum.buf);
	else
		snprintf(title, sizeof(title), "Changes new vs base (log ratio) | %s", sum.buf);
	c = pr_panelset_add(ps, "changes", title);
	c->x_label = "Ratio new / base";
	c->x_unit = "x";
	c->bars = b;
	c->hlines = h;
	c->nhlines = nt;
	c->legend = PR_LEGEND_NONE;
	c->value_scale = PR_SCALE_LOG;
	c->y_fixed = 1;
	c->y_max = pr_ratio_axis_max(val, shown, h, nt);
	c->y_min = 1 / c->y_max;
	c->width = 1200;
	c->height = (int)fmax(280, fmin(1400, 150 + 26 * (double)shown));
	c->note = pr_panelset_strdup(ps, note.buf);
	pr_strbuf_release(&note);
	pr_strbuf_release(&sum);
	free(ch);
}

/* ---- step times ---- */

/* The step list of the first run with steps; *nruns = runs with steps. */
static const json_t *first_steps(const json_t *model, const json_t **run, size_t *nruns)
{
	const json_t *r, *found = NULL;
	size_t i;
	*nruns = 0;
	*run = NULL;
	json_array_foreach (json_object_get(model, PRK_RUNS), i, r) {
		const json_t *l =
			json_object_get(json_object_get(json_object_get(r, PRK_THROUGHPUT),
							PRK_THROUGHPUT_STEPS),
					PRK_THROUGHPUT_STEPS_LIST);
		if (!json_array_size(l))
			continue;
		(*nruns)++;
		if (!found) {
			found = l;
			*run = r;
		}
	}
	return found;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of(const double *v, size_t n)
{
	double *s = pr_xcalloc(n + 1, sizeof(double)), m;
	size_t i, k = 0;
	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			s[k++] = v[i];
	if (!k) {
		free(s);
		return NAN;
	}
	qsort(s, k, sizeof(double), cmp_double);
	m = k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
	free(s);
	return m;
}

/* The step times and their numbers as the trace names them (render/panels.h). */
static size_t step_line(struct pr_panelset *ps, const json_t *list, double **x, double **y)
{
	const json_t *o;
	size_t i, n = json_array_size(list);
	char kind[256];
	*x = pr_panelset_alloc(ps, n, sizeof(double));
	*y = pr_panelset_alloc(ps, n, sizeof(double));
	pr_step_numbers(list, *x, n, kind, sizeof(kind));
	json_array_foreach (list, i, o)
		(*y)[i] = pr_mnum(o, PRK_THROUGHPUT_STEPS_LIST_DUR_NS);
	return n;
}

static void step_time(struct pr_panelset *ps, const json_t *base, const json_t *newm)
{
	const json_t *rb, *rn, *lb, *ln;
	size_t kb, kn, nb, nn;
	double *xb, *xn, *yb, *yn, mb, mn;
	struct pr_chart_line *l;
	struct pr_chart_hline *h;
	struct pr_chart *c;
	char a[40], b[40], t1[80], t2[80], title[300], note[200];
	if (!base || !newm)
		return;
	lb = first_steps(base, &rb, &kb);
	ln = first_steps(newm, &rn, &kn);
	if (!lb || !ln)
		return;
	nb = step_line(ps, lb, &xb, &yb);
	nn = step_line(ps, ln, &xn, &yn);
	mb = median_of(yb, nb);
	mn = median_of(yn, nn);
	l = pr_panelset_alloc(ps, 2, sizeof(*l));
	l[0] = (struct pr_chart_line){ "base", 0x1F77B4, xb, yb, nb, 2, 0, 0, PR_LINE_LINEAR, 0 };
	l[1] = (struct pr_chart_line){ "new", 0xFF7F0E, xn, yn, nn, 2, 0, 0, PR_LINE_LINEAR, 0 };
	h = pr_panelset_alloc(ps, 2, sizeof(*h));
	pr_fmt_duration(mb, a, sizeof(a));
	pr_fmt_duration(mn, b, sizeof(b));
	snprintf(t1, sizeof(t1), "base median %s", a);
	snprintf(t2, sizeof(t2), "new median %s", b);
	h[0] = (struct pr_chart_hline){ mb, pr_panelset_strdup(ps, t1), 0x1F77B4, 1 };
	h[1] = (struct pr_chart_hline){ mn, pr_panelset_strdup(ps, t2), 0xFF7F0E, 1 };
	snprintf(title, sizeof(title), "Step time per step: base %s vs new %s (median, %.2fx)", a,
		 b, mn / mb);
	c = pr_panelset_add(ps, "step_time", title);
	c->x_label = "Step";
	c->x_unit = "";
	c->y_label = "Step time";
	c->y_unit = "ns";
	c->lines = l;
	c->nlines = 2;
	c->hlines = h;
	c->nhlines = 2;
	c->height = 420;
	/* a few steps: from zero, so 3 % jitter is not a V across the plot */
	if (nb <= 8 && nn <= 8) {
		size_t i;
		c->y_fixed = 1;
		c->y_min = 0;
		c->y_max = 0;
		for (i = 0; i < nb + nn; i++)
			c->y_max = fmax(c->y_max, i < nb ? yb[i] : yn[i - nb]);
		c->y_max = isfinite(c->y_max) && c->y_max > 0 ? c->y_max * 1.15 : 1;
	}
	if (kb > 1 || kn > 1) {
		snprintf(note, sizeof(note),
			 "First run with steps on each side (base: %zu, new: %zu runs have steps)",
			 kb, kn);
		c->note = pr_panelset_strdup(ps, note);
	}
}

struct pr_panelset *pr_compare_panels_build(const json_t *cmp, const json_t *base,
					    const json_t *newm)
{
	struct pr_panelset *ps = pr_panelset_new();
	changes(ps, cmp);
	step_time(ps, base, newm);
	return ps;
}
