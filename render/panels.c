/* panels.c - chart specs from one run of the analysis model. */
#include "analyze/model.h"
#include "render/panels.h"
#include "render/time_axis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "render/gpu_panel.h"
#include "render/perf_panel.h"
#include "render/names.h"
#include "render/units.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

#define MAX_BANDS 200
#define MAX_LINES 8
#define MAX_BARS 40
#define CATEGORY_PREFIX "dev.mem.category."

/* ---- model access ---- */

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

const char *pr_run_x_unit(const json_t *run)
{
	const char *u = pr_mstr(json_object_get(run, PRK_CLOCK), PRK_CLOCK_X_UNIT);
	return *u ? u : NULL;
}

void pr_fmt_x(const json_t *run, double v, char *buf, size_t n)
{
	const char *u = pr_run_x_unit(run);
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (!u)
		pr_fmt_duration(v, buf, n);
	else if (!strcmp(u, "events"))
		snprintf(buf, n, "event %.0f", v);
	else if (!strcmp(u, "bytes")) {
		/* DHAT --mode=copy weighs bytes copied (heap_totals.mode) */
		int copied = !strcmp(pr_mstr(json_object_get(run, PRK_HEAP_TOTALS),
					     PRK_HEAP_TOTALS_MODE),
				     "copy");
		pr_fmt_bytes(v, buf, n);
		snprintf(buf + strlen(buf), n - strlen(buf), copied ? " copied" : " allocated");
	} else if (a >= 1e9)
		snprintf(buf, n, "%.3f G %s", v / 1e9, u);
	else if (a >= 1e6)
		snprintf(buf, n, "%.3f M %s", v / 1e6, u);
	else if (a >= 1e3)
		snprintf(buf, n, "%.3f k %s", v / 1e3, u);
	else
		snprintf(buf, n, "%.0f %s", v, u);
}

const char *pr_run_span_unit(const json_t *run)
{
	const char *u = pr_mstr(json_object_get(run, PRK_SPANS), PRK_SPANS_UNIT);
	return *u ? u : pr_run_x_unit(run) ? pr_run_x_unit(run) : "ns";
}

const char *pr_run_x_desc(const json_t *run)
{
	const char *u = pr_run_x_unit(run);
	if (!u)
		return "time";
	if (!strcmp(pr_mstr(run, PRK_FORMAT), "dhat"))
		return !strcmp(pr_mstr(json_object_get(run, PRK_HEAP_TOTALS), PRK_HEAP_TOTALS_MODE),
			       "copy")
			       ? "bytes copied (DHAT's tb: each copy site's bytes laid end to "
				 "end), not time"
		       : !strcmp(u, "bytes") ? "bytes allocated (DHAT's tb: each allocation site's "
					       "bytes laid end to end), not time"
					     : "DHAT's ad-hoc units (each site's laid end to end), "
					       "not time";
	if (!strcmp(u, "bytes"))
		return "heap bytes allocated and freed (massif --time-unit=B), not time";
	if (!strcmp(u, "instructions"))
		return "instructions executed (massif --time-unit=i), not time";
	if (!strcmp(u, "events"))
		return "the allocator trace's event index, not time (no time_us in the snapshot)";
	return "not time";
}

/* The run's x axis for charts: seconds since the start, or massif's instructions / bytes. */
struct xaxis {
	double div; /* model value / div = chart x */
	const char *label, *unit;
};

static struct xaxis xaxis_of(const json_t *run)
{
	const char *u = pr_run_x_unit(run);
	struct xaxis x = { 1e9, "Time", "s" };
	if (u && !strcmp(u, "bytes"))
		x = (struct xaxis){ 1, "Heap allocated and freed so far (not time)", "bytes" };
	else if (u && !strcmp(u, "events"))
		x = (struct xaxis){ 1, "Allocator trace events (not time)", "" };
	else if (u)
		x = (struct xaxis){ 1, "Instructions executed (not time)", "" };
	return x;
}

/* A series' timeline as x (the run's x axis) and y arrays in the pool; 0 when it has none. */
static size_t timeline(struct pr_panelset *ps, const json_t *run, const json_t *s, double scale,
		       double **x, double **y)
{
	double div = xaxis_of(run).div;
	json_t *tl = json_object_get(s, PRK_SERIES_TIMELINE),
	       *t = json_object_get(tl, PRK_SERIES_TIMELINE_T_NS),
	       *v = json_object_get(tl, PRK_SERIES_TIMELINE_V);
	size_t n = json_array_size(t), i;
	if (!n || json_array_size(v) != n)
		return 0;
	*x = pr_panelset_alloc(ps, n, sizeof(double));
	*y = pr_panelset_alloc(ps, n, sizeof(double));
	for (i = 0; i < n; i++) {
		json_t *yv = json_array_get(v, i);
		(*x)[i] = json_number_value(json_array_get(t, i)) / div;
		(*y)[i] = json_is_number(yv) ? json_number_value(yv) * scale : NAN;
	}
	return n;
}

/* Whether timeline() gives s any point. */
static int has_timeline(const json_t *s)
{
	json_t *tl = json_object_get(s, PRK_SERIES_TIMELINE);
	size_t n = json_array_size(json_object_get(tl, PRK_SERIES_TIMELINE_T_NS));
	return n && json_array_size(json_object_get(tl, PRK_SERIES_TIMELINE_V)) == n;
}

static const json_t *series(const json_t *run, const char *name, const char *device)
{
	json_t *s;
	size_t i;
	json_array_foreach (json_object_get(run, PRK_SERIES), i, s)
		if (!strcmp(pr_mstr(s, PRK_SERIES_NAME), name) &&
		    (!device || !strcmp(pr_mstr(s, PRK_SERIES_DEVICE), device)))
			return s;
	return NULL;
}

/* A series as the page names it: its human label (the model's, analyze/primary.c), device first. */
static const char *series_label(struct pr_panelset *ps, const json_t *s)
{
	char buf[300];
	const char *label = *pr_mstr(s, PRK_SERIES_LABEL) ? pr_mstr(s, PRK_SERIES_LABEL)
							  : pr_mstr(s, PRK_SERIES_NAME);
	snprintf(buf, sizeof(buf), "%s%s%s", pr_mstr(s, PRK_SERIES_DEVICE),
		 *pr_mstr(s, PRK_SERIES_DEVICE) ? " " : "", label);
	return pr_panelset_strdup(ps, buf);
}

/* Where a series comes in the model's peaks (primary first), or SIZE_MAX. */
static size_t peak_rank(const json_t *run, const json_t *s)
{
	const json_t *p;
	size_t i;
	json_array_foreach (json_object_get(run, PRK_PEAKS), i, p)
		if (!strcmp(pr_mstr(p, PRK_PEAKS_SERIES), pr_mstr(s, PRK_SERIES_NAME)) &&
		    !strcmp(pr_mstr(p, PRK_PEAKS_DEVICE), pr_mstr(s, PRK_SERIES_DEVICE)))
			return i;
	return SIZE_MAX;
}

/* ---- colours ---- */

static const struct {
	const char *name;
	uint32_t rgb;
} qeff_colors[] = {
	{ "Initialization", 0xE8E8E8 }, { "Model Loading", 0xFF6B6B },
	{ "Export", 0xFFEAA7 },		{ "Model Export", 0xFFEAA7 },
	{ "Compilation", 0x98D8C8 },	{ "Model Compilation", 0x98D8C8 },
	{ "Generation", 0xF7DC6F },	{ "Text Generation", 0xF7DC6F },
	{ "Cleanup", 0xAED6F1 },	{ "Completion", 0xD5DBDB },
};

uint32_t pr_phase_color(const char *name, size_t index)
{
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(qeff_colors); i++)
		if (!strcmp(qeff_colors[i].name, name))
			return qeff_colors[i].rgb;
	return pr_chart_color(index);
}

/* Index of name among the distinct top-level phase names (first-seen order). */
static size_t phase_index(const json_t *occ, const char *name)
{
	json_t *o;
	size_t i, k = 0, j;
	json_array_foreach (occ, i, o) {
		int seen = 0;
		if (pr_mnum(o, PRK_PHASES_OCCURRENCES_DEPTH) != 0)
			continue;
		for (j = 0; j < i; j++) {
			json_t *p = json_array_get(occ, j);
			if (pr_mnum(p, PRK_PHASES_OCCURRENCES_DEPTH) == 0 &&
			    !strcmp(pr_mstr(p, PRK_PHASES_OCCURRENCES_NAME),
				    pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME)))
				seen = 1;
		}
		if (!strcmp(pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME), name))
			return k;
		k += !seen;
	}
	return k;
}

/* Phase bands and boundaries (top-level occurrences) onto a line chart. */
static void phase_bands(struct pr_panelset *ps, const json_t *run, struct pr_chart *c)
{
	json_t *occ = json_object_get(json_object_get(run, PRK_PHASES), PRK_PHASES_OCCURRENCES), *o;
	struct pr_chart_band *b;
	struct pr_chart_vline *v;
	double div = xaxis_of(run).div;
	size_t i, n = 0;
	json_array_foreach (occ, i, o)
		n += pr_mnum(o, PRK_PHASES_OCCURRENCES_DEPTH) == 0;
	if (!n || n > MAX_BANDS)
		return;
	b = pr_panelset_alloc(ps, n, sizeof(*b));
	v = pr_panelset_alloc(ps, n, sizeof(*v));
	json_array_foreach (occ, i, o) {
		double t0 = pr_mnum(o, PRK_PHASES_OCCURRENCES_T_NS) / div,
		       t1 = t0 + pr_mnum(o, PRK_PHASES_OCCURRENCES_DUR_NS) / div;
		if (pr_mnum(o, PRK_PHASES_OCCURRENCES_DEPTH) != 0)
			continue;
		b[c->nbands].x0 = t0;
		b[c->nbands].x1 = t1;
		b[c->nbands].label =
			pr_panelset_strdup(ps, pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME));
		b[c->nbands].rgb =
			pr_phase_color(pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME),
				       phase_index(occ, pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME)));
		b[c->nbands].alpha = 0.18;
		c->nbands++;
		if (c->nbands > 1) {
			v[c->nvlines].x = t0;
			v[c->nvlines].rgb = 0x666666;
			v[c->nvlines].dashed = 1;
			c->nvlines++;
		}
	}
	c->bands = b;
	c->vlines = v;
	c->legend_title = "Phases";
}

/*
 * Model series are samples of a gauge (memory, utilisation, power...): the
 * value read holds until the next sample, so they are drawn as steps.
 */
static struct pr_chart *timechart(struct pr_panelset *ps, const json_t *run, const char *name,
				  const char *title, const char *ylabel, const char *yunit,
				  struct pr_chart_line *lines, size_t nlines)
{
	struct pr_chart *c = pr_panelset_add(ps, name, title);
	struct xaxis x = xaxis_of(run);
	size_t i;
	for (i = 0; i < nlines; i++)
		lines[i].style = PR_LINE_STEP;
	c->x_label = pr_run_x_unit(run) ? x.label : pr_time_axis_label(ps, run);
	c->x_unit = x.unit;
	c->y_label = ylabel;
	c->y_unit = yunit;
	c->lines = lines;
	c->nlines = nlines;
	if (!strcmp(yunit, "percent")) {
		c->y_fixed = 1;
		c->y_min = 0;
		c->y_max = 100;
	}
	return c;
}

/* ---- the panels ---- */

static void memory(struct pr_panelset *ps, const json_t *run)
{
	json_t *s, *pk, *best = NULL;
	const char *over;
	struct pr_chart_line *l = pr_panelset_alloc(ps, MAX_LINES, sizeof(*l));
	struct pr_chart *c;
	const json_t *all = json_object_get(run, PRK_SERIES);
	size_t i, n = 0, ns = json_array_size(all), no = 0;
	/* the legend in the model's peak order (the primary series first), then the other series */
	const json_t **order = pr_panelset_alloc(ps, ns + 1, sizeof(*order));
	json_array_foreach (json_object_get(run, PRK_PEAKS), i, pk) {
		const json_t *m =
			series(run, pr_mstr(pk, PRK_PEAKS_SERIES), pr_mstr(pk, PRK_PEAKS_DEVICE));
		if (m && no < ns)
			order[no++] = m;
	}
	json_array_foreach (all, i, s) {
		size_t k;
		for (k = 0; k < no && order[k] != s; k++)
			;
		if (k == no && no < ns)
			order[no++] = s;
	}
	for (i = 0; i < no; i++) {
		double *x, *y;
		size_t k;
		s = (json_t *)order[i];
		if (!json_is_true(json_object_get(s, PRK_SERIES_MEMORY)) ||
		    starts(pr_mstr(s, PRK_SERIES_NAME), "sys.") ||
		    starts(pr_mstr(s, PRK_SERIES_NAME), CATEGORY_PREFIX) ||
		    (!strcmp(pr_mstr(s, PRK_SERIES_NAME), "dev.mem.total") &&
		     series(run, CATEGORY_PREFIX "parameter", NULL)) ||
		    n == MAX_LINES || !(k = timeline(ps, run, s, 1, &x, &y)))
			continue;
		l[n].label = series_label(ps, s);
		l[n].rgb = n == 0 ? 0x2E86AB : pr_chart_color(n);
		l[n].x = x;
		l[n].y = y;
		l[n].n = k;
		l[n].width = n == 0 ? 3 : 2;
		l[n].fill_alpha = n == 0 ? 0.15 : 0;
		n++;
	}
	if (!n)
		return;
	/* annotate the memory that matters most: physical, then device, then GPU, else the largest */
	{
		static const char *const prefer[] = { "mem.rss", "dev.mem.allocated",
						      "gpu.mem.used", "dev.mem.total",
						      "heap.used" };
		size_t k;
		for (k = 0; k < PR_ARRAY_SIZE(prefer) && !best; k++)
			json_array_foreach (json_object_get(run, PRK_PEAKS), i, pk)
				if (!strcmp(pr_mstr(pk, PRK_PEAKS_SERIES), prefer[k]) &&
				    (!best ||
				     pr_mnum(pk, PRK_PEAKS_VALUE) > pr_mnum(best, PRK_PEAKS_VALUE)))
					best = pk;
		json_array_foreach (json_object_get(run, PRK_PEAKS), i, pk)
			if (!best && !starts(pr_mstr(pk, PRK_PEAKS_SERIES), "sys."))
				best = pk;
	}
	over = !pr_run_x_unit(run)		      ? "Memory usage over time"
	       : !strcmp(pr_run_x_unit(run), "bytes") ? "Memory usage by heap bytes allocated"
						      : "Memory usage by instructions executed";
	c = timechart(ps, run, "memory", over, "Memory", "bytes", l, n);
	phase_bands(ps, run, c);
	if (best) {
		struct pr_chart_mark *m = pr_panelset_alloc(ps, 1, sizeof(*m));
		char v[40], text[300];
		json_t *ph = json_object_get(best, PRK_PEAKS_PHASE);
		pr_fmt_bytes(pr_mnum(best, PRK_PEAKS_VALUE), v, sizeof(v));
		if (json_is_object(ph))
			snprintf(text, sizeof(text), "Peak: %s\nPhase: %s", v,
				 pr_mstr(ph, PRK_PEAKS_PHASE_NAME));
		else
			snprintf(text, sizeof(text), "Peak: %s", v);
		m->x = pr_mnum(best, PRK_PEAKS_T_NS) / xaxis_of(run).div;
		m->y = pr_mnum(best, PRK_PEAKS_VALUE);
		m->text = pr_panelset_strdup(ps, text);
		m->rgb = 0xE74C3C;
		c->marks = m;
		c->nmarks = 1;
		snprintf(text, sizeof(text), "%s | Peak: %s (%s)", over, v,
			 pr_mstr(best, PRK_PEAKS_SERIES));
		c->title = pr_panelset_strdup(ps, text);
	}
}

/*
 * torch.profiler's memory categories, in the order torch's own
 * export_memory_timeline plot stacks them (bottom first) and with its
 * colours (_CATEGORY_TO_COLORS, CSS named colours: darkgreen, goldenrod,
 * black, mediumpurple, red, mediumblue, royalblue, grey).
 */
static const struct {
	const char *series, *label;
	uint32_t rgb;
} categories[] = {
	{ CATEGORY_PREFIX "parameter", "Parameter", 0x006400 },
	{ CATEGORY_PREFIX "optimizer_state", "Optimizer state", 0xDAA520 },
	{ CATEGORY_PREFIX "input", "Input", 0x000000 },
	{ CATEGORY_PREFIX "temporary", "Temporary", 0x9370DB },
	{ CATEGORY_PREFIX "activation", "Activation", 0xFF0000 },
	{ CATEGORY_PREFIX "gradient", "Gradient", 0x0000CD },
	{ CATEGORY_PREFIX "autograd_detail", "Autograd detail", 0x4169E1 },
	{ CATEGORY_PREFIX "unknown", "Unknown", 0x808080 },
};

/* Device memory by category (a torch memory timeline): stacked areas, the total on top. */
static void memory_categories(struct pr_panelset *ps, const json_t *run)
{
	struct pr_chart_line *l = pr_panelset_alloc(ps, PR_ARRAY_SIZE(categories) + 1, sizeof(*l));
	const json_t *s;
	struct pr_chart *c;
	char title[200], v[40];
	size_t i, n = 0, k;
	double *x, *y;
	for (i = 0; i < PR_ARRAY_SIZE(categories); i++) {
		if (!(s = series(run, categories[i].series, NULL)) ||
		    !(k = timeline(ps, run, s, 1, &x, &y)))
			continue;
		l[n] = (struct pr_chart_line){
			categories[i].label, categories[i].rgb, x, y, k, 0, 0.7, 0, PR_LINE_STEP, 1
		};
		n++;
	}
	if (!n)
		return;
	s = series(run, "dev.mem.total", NULL);
	if (s && (k = timeline(ps, run, s, 1, &x, &y))) {
		l[n] = (struct pr_chart_line){
			"Total", 0x222222, x, y, k, 2, 0, 0, PR_LINE_STEP, 0
		};
		n++;
		pr_fmt_bytes(pr_mnum(s, PRK_SERIES_MAX), v, sizeof(v));
		snprintf(title, sizeof(title), "Device memory by category | Peak total: %s", v);
	} else {
		snprintf(title, sizeof(title), "Device memory by category");
	}
	c = timechart(ps, run, "memory_categories", title, "Memory", "bytes", l, n);
	phase_bands(ps, run, c);
}

/*
 * A CUDA memory snapshot (cuda_snapshot): the allocated bytes of the device
 * with the largest peak, stacked by the allocation sites live at the peak
 * (bottom first, in the peak's order: the largest at the bottom), the other
 * sites and what was allocated before the history on top in grey.
 */
static void cuda_sites(struct pr_panelset *ps, const json_t *run)
{
	const json_t *cs = json_object_get(run, PRK_CUDA_SNAPSHOT), *d, *best = NULL, *tl, *st;
	struct pr_chart_line *l;
	double *x, div = xaxis_of(run).div;
	size_t i, j, n, ns;
	char title[200], v[40];
	json_array_foreach (json_object_get(cs, PRK_CUDA_SNAPSHOT_DEVICES), i, d)
		if (json_is_object(json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_TIMELINE)) &&
		    (!best || pr_mnum(json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_PEAK),
				      PRK_CUDA_SNAPSHOT_DEVICES_PEAK_ALLOCATED) >
				      pr_mnum(json_object_get(best, PRK_CUDA_SNAPSHOT_DEVICES_PEAK),
					      PRK_CUDA_SNAPSHOT_DEVICES_PEAK_ALLOCATED)))
			best = d;
	tl = json_object_get(best, PRK_CUDA_SNAPSHOT_DEVICES_TIMELINE);
	n = json_array_size(json_object_get(tl, PRK_CUDA_SNAPSHOT_DEVICES_TIMELINE_T_NS));
	ns = json_array_size(json_object_get(tl, PRK_CUDA_SNAPSHOT_DEVICES_TIMELINE_SITES));
	if (!best || !n || !ns)
		return;
	l = pr_panelset_alloc(ps, ns, sizeof(*l));
	x = pr_panelset_alloc(ps, n, sizeof(double));
	for (i = 0; i < n; i++)
		x[i] = json_number_value(json_array_get(
			       json_object_get(tl, PRK_CUDA_SNAPSHOT_DEVICES_TIMELINE_T_NS), i)) /
		       div;
	json_array_foreach (json_object_get(tl, PRK_CUDA_SNAPSHOT_DEVICES_TIMELINE_SITES), j, st) {
		const json_t *vv = json_object_get(st, PRK_CUDA_SNAPSHOT_DEVICES_TIMELINE_SITES_V);
		double *y = pr_panelset_alloc(ps, n, sizeof(double));
		for (i = 0; i < n; i++)
			y[i] = i < json_array_size(vv) ? json_number_value(json_array_get(vv, i))
						       : NAN;
		l[j] = (struct pr_chart_line){
			pr_panelset_strdup(ps,
					   pr_mstr(st,
						   PRK_CUDA_SNAPSHOT_DEVICES_TIMELINE_SITES_SITE)),
			j + 1 < ns ? pr_chart_color(j) : 0xD3D3D3,
			x,
			y,
			n,
			0,
			0.7,
			0,
			PR_LINE_STEP,
			1
		};
	}
	pr_fmt_bytes(pr_mnum(json_object_get(best, PRK_CUDA_SNAPSHOT_DEVICES_PEAK),
			     PRK_CUDA_SNAPSHOT_DEVICES_PEAK_ALLOCATED),
		     v, sizeof(v));
	snprintf(title, sizeof(title), "Allocated memory by allocation site (%s) | Peak: %s",
		 pr_mstr(best, PRK_CUDA_SNAPSHOT_DEVICES_DEVICE), v);
	timechart(ps, run, "cuda_sites", title, "Memory", "bytes", l, ns);
}

static void cpu(struct pr_panelset *ps, const json_t *run)
{
	const json_t *s = series(run, "cpu.util", "");
	static const struct pr_chart_zone zones[] = {
		{ 0, 25, "0-25%", 0x4CAF50, 0.08 },
		{ 25, 50, "25-50%", 0xFFC107, 0.08 },
		{ 50, 75, "50-75%", 0xFF9800, 0.08 },
		{ 75, 100, "75-100%", 0xF44336, 0.08 },
	};
	struct pr_chart_line *l;
	struct pr_chart_hline *h;
	struct pr_chart *c;
	double *x, *y;
	char buf[200];
	size_t n;
	if (!s || !(n = timeline(ps, run, s, 1, &x, &y)))
		return;
	l = pr_panelset_alloc(ps, 1, sizeof(*l));
	h = pr_panelset_alloc(ps, 1, sizeof(*h));
	*l = (struct pr_chart_line){ "CPU", 0xFF6B35, x, y, n, 3, 0.2, 0, PR_LINE_LINEAR, 0 };
	snprintf(buf, sizeof(buf), "Average: %.1f%%", pr_mnum(s, PRK_SERIES_MEAN));
	*h = (struct pr_chart_hline){ pr_mnum(s, PRK_SERIES_MEAN), pr_panelset_strdup(ps, buf),
				      0xE74C3C, 1 };
	snprintf(buf, sizeof(buf), "CPU usage over time | Peak: %.1f%% | Average: %.1f%%",
		 pr_mnum(s, PRK_SERIES_MAX), pr_mnum(s, PRK_SERIES_MEAN));
	c = timechart(ps, run, "cpu", buf, "CPU", "percent", l, 1);
	c->y_max = fmax(100, pr_mnum(s, PRK_SERIES_MAX) * 1.1);
	c->hlines = h;
	c->nhlines = 1;
	c->zones = zones;
	c->nzones = PR_ARRAY_SIZE(zones);
	phase_bands(ps, run, c);
}

static const char *occ_label(struct pr_panelset *ps, const json_t *occ, const json_t *o)
{
	json_t *p;
	size_t i, same = 0;
	char buf[300], name[240];
	json_array_foreach (occ, i, p)
		same += pr_mnum(p, PRK_PHASES_OCCURRENCES_DEPTH) == 0 &&
			!strcmp(pr_mstr(p, PRK_PHASES_OCCURRENCES_NAME),
				pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME));
	pr_name_display(pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME), name,
			sizeof(name)); /* render/names.h */
	if (same > 1)		       /* the occurrence of a name: its " #N" says which */
		snprintf(buf, sizeof(buf), "%s #%.0f", name,
			 pr_mnum(o, PRK_PHASES_OCCURRENCES_OCCURRENCE));
	else
		snprintf(buf, sizeof(buf), "%s", name);
	return pr_panelset_strdup(ps, buf);
}

static void disk(struct pr_panelset *ps, const json_t *run)
{
	json_t *occ = json_object_get(json_object_get(run, PRK_PHASES), PRK_PHASES_OCCURRENCES), *o;
	const char **cat = pr_panelset_alloc(ps, MAX_BARS, sizeof(char *));
	double *rd = pr_panelset_alloc(ps, MAX_BARS, sizeof(double)),
	       *wr = pr_panelset_alloc(ps, MAX_BARS, sizeof(double));
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart *c;
	double sr = 0, sw = 0;
	size_t i, n = 0;
	char note[200], a[40], w[40];
	json_array_foreach (occ, i, o) {
		json_t *d = json_object_get(o, PRK_PHASES_OCCURRENCES_DISK);
		double r = fmax(0, pr_mnum(d, PRK_PHASES_OCCURRENCES_DISK_READ)),
		       x = fmax(0, pr_mnum(d, PRK_PHASES_OCCURRENCES_DISK_WRITE));
		if (!json_is_object(d) || pr_mnum(o, PRK_PHASES_OCCURRENCES_DEPTH) != 0 ||
		    n == MAX_BARS)
			continue;
		if (!(r > 0.01 * 1048576) && !(x > 0.01 * 1048576))
			continue; /* QEff's rule: > 0.01 MB read or written */
		cat[n] = occ_label(ps, occ, o);
		rd[n] = isnan(r) ? 0 : r;
		wr[n] = isnan(x) ? 0 : x;
		sr += rd[n];
		sw += wr[n];
		n++;
	}
	if (!n)
		return;
	g = pr_panelset_alloc(ps, 2, sizeof(*g));
	g[0] = (struct pr_chart_bar_group){ "Read", 0x2196F3, rd, NULL, NULL };
	g[1] = (struct pr_chart_bar_group){ "Write", 0xFF5722, wr, NULL, NULL };
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ cat, n, g, 2, 0, 1, 0, 0 };
	c = pr_panelset_add(ps, "disk", "Disk I/O per phase");
	c->y_label = "Total I/O";
	c->y_unit = "bytes";
	c->bars = b;
	pr_fmt_bytes(sr, a, sizeof(a));
	pr_fmt_bytes(sw, w, sizeof(w));
	snprintf(note, sizeof(note), "Total I/O: %s read, %s write", a, w);
	c->note = pr_panelset_strdup(ps, note);
	c->legend = PR_LEGEND_INSIDE;
}

/* A bar chart of one series: categories cat[n], values v (colours per bar or one rgb). */
static struct pr_chart *bars1(struct pr_panelset *ps, const char *name, const char *title,
			      const char **cat, size_t n, double *v, const uint32_t *col,
			      const char *label, uint32_t rgb, int horizontal)
{
	struct pr_chart_bar_group *g = pr_panelset_alloc(ps, 1, sizeof(*g));
	struct pr_chart_bars *b = pr_panelset_alloc(ps, 1, sizeof(*b));
	struct pr_chart *c;
	*g = (struct pr_chart_bar_group){ label, rgb, v, col, NULL };
	*b = (struct pr_chart_bars){ cat, n, g, 1, horizontal, 1, 0, 0 };
	c = pr_panelset_add(ps, name, title);
	c->bars = b;
	c->legend = PR_LEGEND_NONE;
	return c;
}

static void phase_durations(struct pr_panelset *ps, const json_t *run)
{
	json_t *occ = json_object_get(json_object_get(run, PRK_PHASES), PRK_PHASES_OCCURRENCES), *o;
	const char **cat = pr_panelset_alloc(ps, MAX_BARS, sizeof(char *));
	double *v = pr_panelset_alloc(ps, MAX_BARS, sizeof(double)), total = 0;
	uint32_t *col = pr_panelset_alloc(ps, MAX_BARS, sizeof(uint32_t));
	struct pr_chart *c;
	size_t i, n = 0;
	char note[100], dur[40];
	json_array_foreach (occ, i, o) {
		if (pr_mnum(o, PRK_PHASES_OCCURRENCES_DEPTH) != 0 || n == MAX_BARS)
			continue;
		cat[n] = occ_label(ps, occ, o);
		v[n] = pr_mnum(o, PRK_PHASES_OCCURRENCES_DUR_NS) / 1e9;
		col[n] = pr_phase_color(pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME),
					phase_index(occ, pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME)));
		total += v[n];
		n++;
	}
	if (!n)
		return;
	c = bars1(ps, "phases", "Phase durations", cat, n, v, col, NULL, 0x666666, 1);
	c->x_label = "Duration";
	c->x_unit = "s";
	c->width = 1200;
	c->height = (int)fmax(200, fmin(1200, 140 + 34 * (double)n));
	pr_fmt_duration(total * 1e9, dur, sizeof(dur));
	snprintf(note, sizeof(note), "Total: %s", dur);
	c->note = pr_panelset_strdup(ps, note);
}

/* Lines of every series whose name starts with prefix (and, when unit given, has that unit). */
static size_t lines_of(struct pr_panelset *ps, const json_t *run, const char *prefix,
		       const char *exact, double scale, int skip_zero, struct pr_chart_line **out)
{
	struct pr_chart_line *l = pr_panelset_alloc(ps, MAX_LINES, sizeof(*l));
	size_t *rank = pr_panelset_alloc(ps, MAX_LINES, sizeof(*rank));
	json_t *s;
	size_t i, j, n = 0;
	json_array_foreach (json_object_get(run, PRK_SERIES), i, s) {
		double *x, *y;
		size_t k;
		const char *name = pr_mstr(s, PRK_SERIES_NAME);
		if ((exact ? strcmp(name, exact) != 0 : !starts(name, prefix)) || n == MAX_LINES)
			continue;
		if (skip_zero && !(pr_mnum(s, PRK_SERIES_MAX) > 0))
			continue;
		if (!(k = timeline(ps, run, s, scale, &x, &y)))
			continue;
		l[n].label = series_label(ps, s);
		l[n].x = x;
		l[n].y = y;
		l[n].n = k;
		l[n].width = 2;
		rank[n] = peak_rank(run, s);
		n++;
	}
	/* the legend in the peaks' order, the primary series first (stable: the
	 * series without a peak keep the model's order after them) */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && rank[j - 1] > rank[j]; j--) {
			struct pr_chart_line t = l[j];
			size_t r = rank[j];
			l[j] = l[j - 1];
			rank[j] = rank[j - 1];
			l[j - 1] = t;
			rank[j - 1] = r;
		}
	for (i = 0; i < n; i++)
		l[i].rgb = pr_chart_color(i);
	*out = l;
	return n;
}

static void simple(struct pr_panelset *ps, const json_t *run, const char *name, const char *title,
		   const char *exact, const char *prefix, const char *ylabel, const char *yunit,
		   int skip_zero)
{
	struct pr_chart_line *l;
	struct pr_chart *c;
	size_t n = lines_of(ps, run, prefix, exact, 1, skip_zero, &l);
	if (!n)
		return;
	c = timechart(ps, run, name, title, ylabel, yunit, l, n);
	phase_bands(ps, run, c);
}

static void pressure(struct pr_panelset *ps, const json_t *run)
{
	static const struct pr_chart_zone zones[] = {
		{ 0, 70, "Low (<70%)", 0x4CAF50, 0.12 },
		{ 70, 85, "Medium (70-85%)", 0xFFC107, 0.15 },
		{ 85, 100, "High (>=85%)", 0xF44336, 0.15 },
	};
	json_t *items = json_object_get(json_object_get(json_object_get(run, PRK_BOTTLENECKS),
							PRK_BOTTLENECKS_MEMORY_PRESSURE),
					PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS);
	json_t *it;
	struct pr_chart_line *l = pr_panelset_alloc(ps, MAX_LINES, sizeof(*l));
	struct pr_chart *c;
	size_t i, n = 0;
	char note[300] = "";
	json_array_foreach (items, i, it) {
		const json_t *s =
			series(run, pr_mstr(it, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_SERIES),
			       pr_mstr(it, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_DEVICE));
		double *x, *y, total = pr_mnum(it, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_TOTAL);
		size_t k;
		if (!s || !(total > 0) || n == MAX_LINES ||
		    !(k = timeline(ps, run, s, 100.0 / total, &x, &y)))
			continue;
		l[n] = (struct pr_chart_line){ series_label(ps, s),
					       n ? pr_chart_color(n) : 0x000000,
					       x,
					       y,
					       k,
					       2,
					       0,
					       0,
					       PR_LINE_LINEAR,
					       0 };
		if (!n)
			snprintf(note, sizeof(note), "Peak pressure: %.1f%%\nAverage: %.1f%%",
				 pr_mnum(it, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_PEAK_PCT),
				 pr_mnum(it, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_MEAN_PCT));
		n++;
	}
	if (!n)
		return;
	c = timechart(ps, run, "pressure", "Memory pressure (used / total)", "Pressure", "percent",
		      l, n);
	c->zones = zones;
	c->nzones = PR_ARRAY_SIZE(zones);
	c->note = pr_panelset_strdup(ps, note);
}

static void gpu_memory(struct pr_panelset *ps, const json_t *run)
{
	struct pr_chart_line *l;
	struct pr_chart *c;
	size_t n = lines_of(ps, run, NULL, "gpu.mem.used", 1, 1, &l), i;
	json_t *s;
	struct pr_chart_hline *h;
	if (!n)
		return;
	c = timechart(ps, run, "gpu_memory", "GPU memory used", "Memory", "bytes", l, n);
	h = pr_panelset_alloc(ps, 1, sizeof(*h));
	json_array_foreach (json_object_get(run, PRK_SERIES), i, s)
		if (!strcmp(pr_mstr(s, PRK_SERIES_NAME), "gpu.mem.total") &&
		    pr_mnum(s, PRK_SERIES_MAX) > 0) {
			*h = (struct pr_chart_hline){ pr_mnum(s, PRK_SERIES_MAX), "Total", 0x888888,
						      1 };
			c->hlines = h;
			c->nhlines = 1;
			break;
		}
	phase_bands(ps, run, c);
}

struct dev_rank {
	const json_t *frag, *alloc, *resv;
	double peak; /* the reserved series' max */
	size_t order;
};

static int cmp_dev_rank(const void *a, const void *b)
{
	const struct dev_rank *x = a, *y = b;
	if (x->peak != y->peak)
		return x->peak > y->peak ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The devices that get an allocated-vs-reserved panel (a fragmentation entry
 * and both series with a timeline), ranked: the largest reserved peak first,
 * ties in the model's order. The series are found through a map (name,
 * device) -> series, one pass over the run's series. *out is freed by the caller.
 */
static size_t rank_devices(const json_t *run, struct dev_rank **out)
{
	json_t *f, *s, *frag = json_object_get(run, PRK_FRAGMENTATION);
	struct pr_strmap idx = PR_STRMAP_INIT;
	struct pr_strbuf key = PR_STRBUF_INIT;
	struct dev_rank *d;
	size_t i, n = 0;
	*out = NULL;
	if (!json_array_size(frag))
		return 0;
	json_array_foreach (json_object_get(run, PRK_SERIES), i, s) {
		const char *name = pr_mstr(s, PRK_SERIES_NAME);
		int64_t seen;
		if (strcmp(name, "dev.mem.allocated") && strcmp(name, "dev.mem.reserved"))
			continue;
		pr_strbuf_reset(&key);
		pr_strbuf_addf(&key, "%s%c%s", name, 0, pr_mstr(s, PRK_SERIES_DEVICE));
		/* pr_strmap_get stores the value: never NULL (a model naming a series twice) */
		if (!pr_strmap_get(&idx, key.buf, key.len, &seen))
			pr_strmap_put(&idx, key.buf, key.len,
				      (int64_t)i); /* the first, as series() */
	}
	d = pr_xcalloc(json_array_size(frag), sizeof(*d));
	json_array_foreach (frag, i, f) {
		int64_t ai, ri;
		const char *dev = pr_mstr(f, PRK_FRAGMENTATION_DEVICE);
		pr_strbuf_reset(&key);
		pr_strbuf_addf(&key, "dev.mem.allocated%c%s", 0, dev);
		if (!pr_strmap_get(&idx, key.buf, key.len, &ai))
			continue;
		pr_strbuf_reset(&key);
		pr_strbuf_addf(&key, "dev.mem.reserved%c%s", 0, dev);
		if (!pr_strmap_get(&idx, key.buf, key.len, &ri))
			continue;
		d[n].frag = f;
		d[n].alloc = json_array_get(json_object_get(run, PRK_SERIES), (size_t)ai);
		d[n].resv = json_array_get(json_object_get(run, PRK_SERIES), (size_t)ri);
		if (!has_timeline(d[n].alloc) || !has_timeline(d[n].resv))
			continue;
		d[n].peak = pr_mnum(d[n].resv, PRK_SERIES_MAX);
		if (isnan(d[n].peak))
			d[n].peak = -1;
		d[n].order = i;
		n++;
	}
	pr_strbuf_release(&key);
	pr_strmap_release(&idx);
	qsort(d, n, sizeof(*d), cmp_dev_rank);
	*out = d;
	return n;
}

size_t pr_panels_device_count(const json_t *run)
{
	struct dev_rank *d;
	size_t n = rank_devices(run, &d);
	free(d);
	return n;
}

/*
 * One allocated-vs-reserved panel per device, at most PR_PANELS_MAX_DEVICES:
 * the devices with the largest reserved peak, in that order (issue 12: 2000
 * devices made a 175 MB page); the last panel's note says how many were left out.
 */
static void device_memory(struct pr_panelset *ps, const json_t *run)
{
	json_t *f;
	struct dev_rank *d;
	size_t i, n = rank_devices(run, &d), shown;
	shown = n < PR_PANELS_MAX_DEVICES ? n : PR_PANELS_MAX_DEVICES;
	for (i = 0; i < shown; i++) {
		struct pr_chart_line *l = pr_panelset_alloc(ps, 2, sizeof(*l));
		struct pr_chart *c;
		double *x, *y;
		size_t k;
		char title[200], note[400], g[40];
		f = (json_t *)d[i].frag;
		k = timeline(ps, run, d[i].resv, 1, &x, &y);
		l[0] = (struct pr_chart_line){ "Reserved", 0x9467BD,	   x, y, k, 2, 0.12,
					       0,	   PR_LINE_LINEAR, 0 };
		k = timeline(ps, run, d[i].alloc, 1, &x, &y);
		l[1] = (struct pr_chart_line){ "Allocated", 0x2E86AB,	    x, y, k, 2, 0.15,
					       0,	    PR_LINE_LINEAR, 0 };
		snprintf(title, sizeof(title), "Device memory %s: allocated vs reserved",
			 pr_mstr(f, PRK_FRAGMENTATION_DEVICE));
		c = timechart(ps, run, "device_memory", title, "Memory", "bytes", l, 2);
		pr_fmt_bytes(pr_mnum(f, PRK_FRAGMENTATION_MAX_GAP), g, sizeof(g));
		snprintf(
			note, sizeof(note),
			"Fragmentation (reserved - allocated) / reserved\nmean %.1f%%, max %.1f%%, largest gap %s",
			pr_mnum(f, PRK_FRAGMENTATION_MEAN_RATIO) * 100,
			pr_mnum(f, PRK_FRAGMENTATION_MAX_RATIO) * 100, g);
		if (i + 1 == shown && n > shown)
			snprintf(
				note + strlen(note), sizeof(note) - strlen(note),
				"\n%zu devices: the %zu with the largest reserved peak are shown,\n"
				"%zu more are not (the JSON model has them all)",
				n, shown, n - shown);
		c->note = pr_panelset_strdup(ps, note);
		phase_bands(ps, run, c);
	}
	free(d);
}

static void layers(struct pr_panelset *ps, const json_t *run)
{
	json_t *m;
	const char **cat = pr_panelset_alloc(ps, MAX_BARS, sizeof(char *));
	double *v = pr_panelset_alloc(ps, MAX_BARS, sizeof(double));
	struct pr_chart *c;
	size_t i, n = 0;
	json_array_foreach (json_object_get(run, PRK_REPORTED), i, m) {
		if (strcmp(pr_mstr(m, PRK_REPORTED_NAME), "layer.peak_allocated") || n == MAX_BARS)
			continue;
		cat[n] = pr_panelset_strdup(ps, pr_mstr(m, PRK_REPORTED_DETAIL));
		v[n++] = pr_mnum(m, PRK_REPORTED_VALUE);
	}
	if (!n)
		return;
	c = bars1(ps, "layers", "Peak memory per layer (device allocated at the layer's hooks)",
		  cat, n, v, NULL, "Peak allocated", 0x2E86AB, 0);
	c->y_label = "Peak allocated";
	c->y_unit = "bytes";
}

/* render/panels.h */
double pr_step_numbers(const json_t *list, double *x, size_t n, char *kind, size_t kn)
{
	const json_t *o;
	long long num = 0, first = 0;
	size_t i, ok = 0;
	char k[256];
	kind[0] = 0;
	json_array_foreach (list, i, o) {
		int has = pr_step_split(pr_mstr(o, PRK_THROUGHPUT_STEPS_LIST_NAME), i ? k : kind,
					i ? sizeof(k) : kn, &num);
		if (i >= n)
			break;
		if (!i)
			first = has ? num : 0;
		x[i] = (double)num;
		ok += has && (!i || x[i] > x[i - 1]);
	}
	if (ok != n)
		for (i = 0; i < n; i++)
			x[i] = (double)first + (double)i;
	return (double)first;
}

#define PR_FEW_STEPS 8 /* at most this many steps: bars, not a line */

static void steps(struct pr_panelset *ps, const json_t *run)
{
	json_t *st = json_object_get(json_object_get(run, PRK_THROUGHPUT), PRK_THROUGHPUT_STEPS);
	json_t *list = json_object_get(st, PRK_THROUGHPUT_STEPS_LIST), *o,
	       *red = json_object_get(st, PRK_THROUGHPUT_STEPS_REDUCED);
	size_t n = json_array_size(list), i, nl = 1;
	double *x, *y, first;
	struct pr_chart_line *l;
	struct pr_chart_hline *h;
	struct pr_chart *c;
	char a[40], b[40], t1[80], t2[80], title[400], kind[256];
	if (json_is_object(red)) {
		/* a long run: every step, as the model's reduced profile (mean per point, with
		 * the min and max of its steps), not the first steps listed */
		const char *key[] = { PRK_THROUGHPUT_STEPS_REDUCED_MEAN_NS,
				      PRK_THROUGHPUT_STEPS_REDUCED_MIN_NS,
				      PRK_THROUGHPUT_STEPS_REDUCED_MAX_NS };
		static const char *const lab[] = { "step time (mean per point)", "min", "max" };
		static const uint32_t rgb[] = { 0x1F77B4, 0x9ECAE1, 0x9ECAE1 };
		size_t k;
		double first_x;
		n = json_array_size(json_object_get(red, PRK_THROUGHPUT_STEPS_REDUCED_MEAN_NS));
		if (n < 2)
			return;
		first = pr_step_numbers(list, &first_x, 1, kind, sizeof(kind));
		nl = 3;
		x = pr_panelset_alloc(ps, n, sizeof(double));
		l = pr_panelset_alloc(ps, nl, sizeof(*l));
		for (i = 0; i < n; i++) /* steps are numbered on from the first one's number */
			x[i] = first +
			       json_number_value(json_array_get(
				       json_object_get(red, PRK_THROUGHPUT_STEPS_REDUCED_FIRST),
				       i)) +
			       (json_number_value(json_array_get(
					json_object_get(red, PRK_THROUGHPUT_STEPS_REDUCED_COUNT),
					i)) -
				1) / 2;
		for (k = 0; k < nl; k++) {
			y = pr_panelset_alloc(ps, n, sizeof(double));
			for (i = 0; i < n; i++)
				y[i] = json_number_value(
					json_array_get(json_object_get(red, key[k]), i));
			l[k] = (struct pr_chart_line){
				lab[k], rgb[k], x, y, n, k ? 1 : 2, 0, 0, PR_LINE_LINEAR, 0
			};
		}
	} else {
		if (n < 2)
			return;
		x = pr_panelset_alloc(ps, n, sizeof(double));
		y = pr_panelset_alloc(ps, n, sizeof(double));
		pr_step_numbers(list, x, n, kind, sizeof(kind));
		json_array_foreach (list, i, o)
			y[i] = pr_mnum(o, PRK_THROUGHPUT_STEPS_LIST_DUR_NS);
		l = pr_panelset_alloc(ps, 1, sizeof(*l));
		*l = (struct pr_chart_line){ "step time", 0x1F77B4,	  x, y, n, 2, 0,
					     0,		  PR_LINE_LINEAR, 0 };
	}
	h = pr_panelset_alloc(ps, 2, sizeof(*h));
	pr_fmt_duration(pr_mnum(st, PRK_THROUGHPUT_STEPS_P50_NS), a, sizeof(a));
	pr_fmt_duration(pr_mnum(st, PRK_THROUGHPUT_STEPS_P95_NS), b, sizeof(b));
	snprintf(t1, sizeof(t1), "p50 %s", a);
	snprintf(t2, sizeof(t2), "p95 %s", b);
	h[0] = (struct pr_chart_hline){ pr_mnum(st, PRK_THROUGHPUT_STEPS_P50_NS),
					pr_panelset_strdup(ps, t1), 0x2CA02C, 1 };
	h[1] = (struct pr_chart_hline){ pr_mnum(st, PRK_THROUGHPUT_STEPS_P95_NS),
					pr_panelset_strdup(ps, t2), 0xD62728, 1 };
	if (!kind[0])
		snprintf(kind, sizeof(kind), "steps");
	if (json_is_object(red)) {
		snprintf(title, sizeof(title),
			 "Step time, all %lld steps (%.80s; 1 point = %lld steps) | %.2f steps/s | "
			 "jitter %.1f%%",
			 pr_mll(st, PRK_THROUGHPUT_STEPS_COUNT), kind,
			 pr_mll(red, PRK_THROUGHPUT_STEPS_REDUCED_STEPS_PER_POINT),
			 pr_mnum(st, PRK_THROUGHPUT_STEPS_PER_S),
			 pr_mnum(st, PRK_THROUGHPUT_STEPS_JITTER) * 100);
	} else {
		pr_fmt_duration(pr_mnum(st, PRK_THROUGHPUT_STEPS_MIN_NS), a, sizeof(a));
		pr_fmt_duration(pr_mnum(st, PRK_THROUGHPUT_STEPS_MAX_NS), b, sizeof(b));
		snprintf(title, sizeof(title),
			 "Step time per step (%.80s #%.0f-#%.0f: %s to %s) | %.2f steps/s | "
			 "jitter %.1f%%",
			 kind, x[0], x[n - 1], a, b, pr_mnum(st, PRK_THROUGHPUT_STEPS_PER_S),
			 pr_mnum(st, PRK_THROUGHPUT_STEPS_JITTER) * 100);
	}
	c = pr_panelset_add(ps, "steps", title);
	c->x_label = pr_panelset_strdup(ps, kind); /* "ProfilerStep": the ticks are its numbers */
	c->x_unit = "";
	c->y_label = "Step time";
	c->y_unit = "ns";
	c->lines = l;
	c->nlines = nl;
	c->hlines = h;
	c->nhlines = 2;
	if (!json_is_object(red) && n <= PR_FEW_STEPS) {
		/* a few steps: one bar each from zero, named as the trace numbers them,
		 * so 2 % jitter is 2 % of a bar, not a V across a plot from 219 ms */
		const char **cat = pr_panelset_alloc(ps, n, sizeof(*cat));
		struct pr_chart_bar_group *g = pr_panelset_alloc(ps, 1, sizeof(*g));
		struct pr_chart_bars *bs = pr_panelset_alloc(ps, 1, sizeof(*bs));
		for (i = 0; i < n; i++) {
			snprintf(t1, sizeof(t1), "#%.0f", x[i]);
			cat[i] = pr_panelset_strdup(ps, t1);
		}
		*g = (struct pr_chart_bar_group){ "step time", 0x1F77B4, y, NULL, NULL };
		*bs = (struct pr_chart_bars){ cat, n, g, 1, 0, 1, 0, 0 };
		c->lines = NULL;
		c->nlines = 0;
		c->hlines = NULL; /* p50/p95 of a few bars: their value labels say it */
		c->nhlines = 0;
		c->bars = bs;
	}
}

/* RSS / VSS in percent (the QNN plot's "Memory Efficiency"), where both timelines share their times. */
static void efficiency(struct pr_panelset *ps, const json_t *run)
{
	const json_t *rss = series(run, "mem.rss", NULL), *vms = series(run, "mem.vms", NULL);
	double *xr, *yr, *xv, *yv, *y;
	size_t n, i, k = 0;
	struct pr_chart_line *l;
	struct pr_chart *c;
	char note[120];
	double sr = 0, sv = 0;
	if (!rss || !vms || !(n = timeline(ps, run, rss, 1, &xr, &yr)) ||
	    timeline(ps, run, vms, 1, &xv, &yv) != n)
		return;
	y = pr_panelset_alloc(ps, n, sizeof(double));
	for (i = 0; i < n; i++) {
		if (xr[i] != xv[i])
			return; /* sampled apart: no per-sample ratio */
		y[i] = yv[i] > 0 ? yr[i] / yv[i] * 100 : NAN;
		if (yv[i] > 0) {
			sr += yr[i];
			sv += yv[i];
			k++;
		}
	}
	if (!k)
		return;
	l = pr_panelset_alloc(ps, 1, sizeof(*l));
	*l =
		(struct pr_chart_line){ "RSS / VSS", 0x2CA02C,	     xr, y, n, 2, 0.12,
					0,	     PR_LINE_LINEAR, 0 };
	c = timechart(ps, run, "efficiency", "Process memory efficiency (RSS / VSS)", "Efficiency",
		      "percent", l, 1);
	c->legend = PR_LEGEND_NONE;
	snprintf(note, sizeof(note), "mean(RSS) / mean(VSS) = %.1f%%", sr / sv * 100);
	c->note = pr_panelset_strdup(ps, note);
	phase_bands(ps, run, c);
}

/* Busy intervals of the top-level spans per thread / stream, one lane each. */
static void timeline_panel(struct pr_panelset *ps, const json_t *run)
{
	json_t *lanes = json_object_get(json_object_get(run, PRK_TIMELINE), PRK_TIMELINE_LANES), *l,
	       *iv;
	size_t nl = json_array_size(lanes), total = 0, i, j, k = 0;
	struct pr_chart_rect *r;
	struct pr_chart_ylabel *yl;
	struct pr_chart *c;
	if (!nl || pr_run_x_unit(run))
		return; /* positions not time (DHAT's bytes): the flame graph weighs them */
	/* perf events weigh different units (ns, page faults): no lanes on one axis */
	if (json_array_size(json_object_get(json_object_get(run, PRK_FLAME), PRK_FLAME_EVENTS)) > 1)
		return;
	json_array_foreach (lanes, i, l)
		total += json_array_size(json_object_get(l, PRK_TIMELINE_LANES_INTERVALS));
	if (!total)
		return;
	r = pr_panelset_alloc(ps, total, sizeof(*r));
	yl = pr_panelset_alloc(ps, nl, sizeof(*yl));
	json_array_foreach (lanes, i, l) {
		double y = (double)(nl - 1 - i);
		const char *label = pr_panelset_strdup(ps, pr_mstr(l, PRK_TIMELINE_LANES_NAME));
		yl[i].y = y + 0.5;
		yl[i].text = label;
		json_array_foreach (json_object_get(l, PRK_TIMELINE_LANES_INTERVALS), j, iv) {
			r[k].x0 = json_number_value(json_array_get(iv, 0)) / 1e9;
			r[k].x1 = json_number_value(json_array_get(iv, 1)) / 1e9;
			r[k].y0 = y + 0.15;
			r[k].y1 = y + 0.85;
			r[k].rgb = pr_chart_color(i);
			r[k].label = label;
			k++;
		}
	}
	c = pr_panelset_add(ps, "timeline",
			    "Timeline: busy time of top-level spans per thread / stream");
	c->x_label = pr_time_axis_label(ps, run);
	c->x_unit = "s";
	c->rects = r;
	c->nrects = k;
	c->y_labels = yl;
	c->ny_labels = nl;
	c->legend = PR_LEGEND_NONE; /* the lanes are named on the y axis */
	c->y_fixed = 1;
	c->y_min = 0;
	c->y_max = (double)nl;
	c->width = 1200;
	c->height = (int)fmax(200, fmin(900, 150 + 30 * (double)nl));
}

/* ---- panels that say nothing ---- */

/* Whether two lines draw the same points (NaN equal to NaN). */
static int same_line(const struct pr_chart_line *a, const struct pr_chart_line *b)
{
	size_t i;
	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		double ax = a->x ? a->x[i] : (double)i, bx = b->x ? b->x[i] : (double)i;
		if (!(ax == bx || (isnan(ax) && isnan(bx))) ||
		    !(a->y[i] == b->y[i] || (isnan(a->y[i]) && isnan(b->y[i]))))
			return 0;
	}
	return 1;
}

/* Distinct finite values of a line, counted up to 2; *v gets the first. */
static int distinct(const struct pr_chart_line *l, double *v)
{
	size_t i;
	int n = 0;
	for (i = 0; i < l->n; i++) {
		if (!isfinite(l->y[i]))
			continue;
		if (!n) {
			*v = l->y[i];
			n = 1;
		} else if (l->y[i] != *v) {
			return 2;
		}
	}
	return n;
}

static void fmt_value(const char *unit, double v, char *buf, size_t n)
{
	if (!strcmp(unit, "bytes"))
		pr_fmt_bytes(v, buf, n);
	else if (!strcmp(unit, "percent"))
		snprintf(buf, n, "%.1f %%", v);
	else
		snprintf(buf, n, "%g%s%s", v, *unit ? " " : "", unit);
}

/*
 * Why line chart c says nothing, or NULL when it says something: every
 * line has fewer than 2 distinct values ("constant 1.8 %", "no data"), or
 * every line is drawn the same in one earlier panel ("same data as
 * memory"). Bar charts, span timelines and stacks always say something.
 */
static const char *uninformative(const struct pr_panelset *ps, size_t i, char *buf, size_t n)
{
	const struct pr_chart *c = pr_panelset_chart(ps, i);
	size_t j, k, m;
	double v0 = 0, v = 0;
	int all_const = 1, same_v = 1, any = 0;
	if (c->bars || c->nrects || !c->nlines)
		return NULL;
	for (k = 0; k < c->nlines; k++) {
		int d = distinct(&c->lines[k], &v);
		if (c->lines[k].stack > 0 || d == 2)
			all_const = 0;
		if (d == 1) {
			same_v &= !any || v == v0;
			v0 = any ? v0 : v;
			any = 1;
		}
	}
	if (all_const) {
		char val[64];
		if (!any) {
			snprintf(buf, n, "no data");
		} else if (same_v) {
			fmt_value(c->y_unit ? c->y_unit : "", v0, val, sizeof(val));
			snprintf(buf, n, "constant %s", val);
		} else {
			snprintf(buf, n, "every series constant");
		}
		return buf;
	}
	for (j = 0; j < i; j++) {
		const struct pr_chart *e = pr_panelset_chart(ps, j);
		for (k = 0; k < c->nlines; k++) {
			for (m = 0; m < e->nlines && !same_line(&c->lines[k], &e->lines[m]); m++)
				;
			if (m == e->nlines)
				break;
		}
		if (k == c->nlines && !e->bars) {
			snprintf(buf, n, "same data as %s", pr_panelset_name(ps, j));
			return buf;
		}
	}
	return NULL;
}

/* Remove the panels that say nothing; the set lists them with the reason. */
#define FEW_PHASES 12 /* phases the phase table lists better than a chart */

/*
 * A chart that only restates what the page says in a table or the trace
 * view: one bar, one timeline lane, a few phase durations (the phase
 * table has each of them, with its start and memory delta).
 */
static const char *said_elsewhere(const struct pr_panelset *ps, size_t i, char *buf, size_t n)
{
	const struct pr_chart *c = pr_panelset_chart(ps, i);
	const char *name = pr_panelset_name(ps, i);
	if (c->bars && c->bars->ncategories <= 1)
		return "one bar: its table says it";
	if (!strcmp(name, "timeline") && c->ny_labels <= 1)
		return "one lane: the trace view shows it";
	if (!strcmp(name, "phases") && c->bars && c->bars->ncategories <= FEW_PHASES) {
		snprintf(buf, n, "%zu phases: the phase table lists them", c->bars->ncategories);
		return buf;
	}
	return NULL;
}

static void prune(struct pr_panelset *ps)
{
	size_t i = 0;
	char buf[200];
	while (i < pr_panelset_count(ps)) {
		const char *why = uninformative(ps, i, buf, sizeof(buf));
		if (!why)
			why = said_elsewhere(ps, i, buf, sizeof(buf));
		if (why)
			pr_panelset_remove(ps, i, why);
		else
			i++;
	}
}

struct pr_panelset *pr_panels_build(const json_t *run)
{
	struct pr_panelset *ps = pr_panels_build_general(run);
	pr_gpu_panels_add(ps, run);
	pr_perf_panels_add(ps, run); /* the roofline (perf_panel.h) */
	return ps;
}

/*
 * The general panels in page order. Each entry adds at most the one panel
 * of its name (none when the run lacks the data). An entry without a
 * builder is a simple() panel: the series named exact, or those whose name
 * starts with prefix, on one time chart (skip_zero: not the all-zero ones).
 */
static const struct panel_def {
	const char *name;
	void (*build)(struct pr_panelset *ps, const json_t *run);
	const char *title, *exact, *prefix, *ylabel, *yunit; /* simple() */
	int skip_zero;
} general_panels[] = {
	{ .name = "memory", .build = memory },
	{ .name = "memory_categories", .build = memory_categories },
	{ .name = "cuda_sites", .build = cuda_sites },
	{ .name = "efficiency", .build = efficiency },
	{ .name = "cpu", .build = cpu },
	{ .name = "disk", .build = disk },
	{ .name = "phases", .build = phase_durations },
	{ .name = "system_memory",
	  .title = "System memory",
	  .prefix = "sys.",
	  .ylabel = "Memory",
	  .yunit = "bytes" },
	{ .name = "pressure", .build = pressure },
	{ .name = "gpu_util",
	  .title = "GPU utilisation",
	  .exact = "gpu.util",
	  .ylabel = "Utilisation",
	  .yunit = "percent",
	  .skip_zero = 1 },
	{ .name = "gpu_memory", .build = gpu_memory },
	{ .name = "gpu_temp",
	  .title = "GPU temperature",
	  .exact = "gpu.temp",
	  .ylabel = "Temperature",
	  .yunit = "C",
	  .skip_zero = 1 },
	{ .name = "gpu_power",
	  .title = "GPU power",
	  .exact = "gpu.power",
	  .ylabel = "Power",
	  .yunit = "W",
	  .skip_zero = 1 },
	{ .name = "device_memory", .build = device_memory },
	{ .name = "layers", .build = layers },
	{ .name = "steps", .build = steps },
	{ .name = "timeline", .build = timeline_panel },
};

struct pr_panelset *pr_panels_build_general(const json_t *run)
{
	struct pr_panelset *ps = pr_panelset_new();
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(general_panels); i++) {
		const struct panel_def *p = &general_panels[i];
		if (p->build)
			p->build(ps, run);
		else
			simple(ps, run, p->name, p->title, p->exact, p->prefix, p->ylabel, p->yunit,
			       p->skip_zero);
	}
	prune(ps);
	return ps;
}
