/*
 * html_index.c - the archive index (html_report.h: pr_html_index*): a table
 * of runs linking to their reports, the trend panels and their changes.
 * Split from html_report.c (issue 31); the page frame is pr_html_page.
 */
#include "render/html_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/changes.h"
#include "analyze/model.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/names.h"
#include "render/panel_data.h"
#include "render/panels.h"
#include "render/units.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

#define ELLIPSIS "\xe2\x80\xa6" /* U+2026: directories left out */

size_t pr_html_index_rows = PR_HTML_INDEX_ROWS_DEFAULT;

/* ---- archive index ---- */

/* The memory a run is read for: physical, then device, then GPU, else its largest (not sys.). */
static const json_t *primary_peak(const json_t *run)
{
	static const char *const prefer[] = { "mem.rss", "dev.mem.allocated", "gpu.mem.used",
					      "dev.mem.total", "heap.used" };
	const json_t *pk, *best = NULL;
	size_t i, k;
	for (k = 0; k < PR_ARRAY_SIZE(prefer) && !best; k++)
		json_array_foreach (json_object_get(run, PRK_PEAKS), i, pk)
			if (!strcmp(pr_mstr(pk, PRK_PEAKS_SERIES), prefer[k]) &&
			    (!best ||
			     pr_mnum(pk, PRK_PEAKS_VALUE) > pr_mnum(best, PRK_PEAKS_VALUE)))
				best = pk;
	json_array_foreach (json_object_get(run, PRK_PEAKS), i, pk)
		if (!best && strncmp(pr_mstr(pk, PRK_PEAKS_SERIES), "sys.", 4))
			best = pk;
	return best;
}

static double throughput(const json_t *run, const char **what)
{
	json_t *t = json_object_get(run, PRK_THROUGHPUT);
	if (json_is_number(json_object_get(json_object_get(t, PRK_THROUGHPUT_TOKENS),
					   PRK_THROUGHPUT_TOKENS_TOKENS_PER_S))) {
		*what = "tokens/s";
		return pr_mnum(json_object_get(t, PRK_THROUGHPUT_TOKENS),
			       PRK_THROUGHPUT_TOKENS_TOKENS_PER_S);
	}
	if (json_is_object(json_object_get(t, PRK_THROUGHPUT_BLOCKS))) {
		*what = "FPS";
		return pr_mnum(json_object_get(t, PRK_THROUGHPUT_BLOCKS),
			       PRK_THROUGHPUT_BLOCKS_FPS);
	}
	if (json_is_object(json_object_get(t, PRK_THROUGHPUT_STEPS))) {
		*what = "steps/s";
		return pr_mnum(json_object_get(t, PRK_THROUGHPUT_STEPS),
			       PRK_THROUGHPUT_STEPS_PER_S);
	}
	*what = "";
	return NAN;
}

/* The numbers the index trends: one chart per metric (and its series or unit) and kind of run. */
enum {
	T_PEAK,
	T_STEP,
	T_THROUGHPUT,
	T_DURATION,
	T_METRICS
};
static const char *const trend_name[T_METRICS] = { "Peak memory", "Step time p50", "Throughput",
						   "Duration" };

/* Metric m of run: its value, its unit and what tells its kind apart (a series, a rate). 0 when
 * absent. */
static int trend_value(const json_t *run, int m, double *v, const char **unit, char *sub, size_t n)
{
	const json_t *clock = json_object_get(run, PRK_CLOCK);
	*sub = 0;
	*unit = "ns";
	if (m == T_PEAK) {
		const json_t *pk = primary_peak(run);
		if (!pk)
			return 0;
		snprintf(sub, n, "%s%s%s", pr_mstr(pk, PRK_PEAKS_SERIES),
			 *pr_mstr(pk, PRK_PEAKS_DEVICE) ? " " : "", pr_mstr(pk, PRK_PEAKS_DEVICE));
		*unit = "bytes";
		*v = pr_mnum(pk, PRK_PEAKS_VALUE);
	} else if (m == T_STEP) {
		*v = pr_mnum(json_object_get(json_object_get(run, PRK_THROUGHPUT),
					     PRK_THROUGHPUT_STEPS),
			     PRK_THROUGHPUT_STEPS_P50_NS);
	} else if (m == T_THROUGHPUT) {
		*v = throughput(run, unit);
		snprintf(sub, n, "%s", *unit);
	} else {
		/* a time extent only: not massif's instructions or bytes, not a synthetic clock */
		if (pr_run_x_unit(run) || json_is_true(json_object_get(clock, PRK_CLOCK_SYNTHETIC)))
			return 0;
		*v = pr_mnum(clock, PRK_CLOCK_DURATION_NS);
	}
	return isfinite(*v);
}

/* A run's kind for the trends: its format and collector ("chrome / torch.profiler"). */
static void run_kind(const json_t *run, char *buf, size_t n)
{
	snprintf(buf, n, "%s / %s", pr_mstr(run, PRK_FORMAT),
		 *pr_mstr(run, PRK_COLLECTOR) ? pr_mstr(run, PRK_COLLECTOR) : "-");
}

static int trend(struct pr_strbuf *sb, const char *title, const char *ylabel, const char *unit,
		 const double *x, const double *y, size_t n, size_t idx,
		 const struct pr_chart_vline *vl, size_t nvl, struct pr_error *err)
{
	struct pr_chart_line l = { ylabel, 0x2E86AB, x, y, n, 2.5, 0.1, 0, PR_LINE_LINEAR, 0 };
	struct pr_chart c;
	struct pr_output out;
	const char *data;
	size_t len;
	char prefix[32];
	int rc = 0;
	memset(&c, 0, sizeof(c));
	c.title = title;
	c.x_label = "Run (# in the table)";
	c.x_unit = "";
	c.y_label = ylabel;
	c.y_unit = unit;
	c.lines = &l;
	c.nlines = 1;
	c.vlines = vl;
	c.nvlines = nvl;
	c.width = 1200;
	c.height = 320;
	c.legend = PR_LEGEND_NONE;
	pr_output_init_memory(&out);
	if (pr_chart_render(&c, PR_GFX_SVG, &out, err) || pr_output_close(&out, err)) {
		pr_output_release(&out);
		return -1;
	}
	data = pr_output_data(&out, &len);
	snprintf(prefix, sizeof(prefix), "t%zu-", idx);
	pr_strbuf_addf(sb, "<figure id=\"trend-%zu\" aria-label=\"", idx);
	pr_html_esc(sb, title);
	pr_strbuf_addstr(sb, "\">");
	pr_html_inline_svg(sb, data, len, prefix);
	if (pr_panel_data(&c, sb, err) < 0)
		rc = -1;
	pr_strbuf_addstr(sb, "</figure>\n");
	pr_output_release(&out);
	return rc;
}

#define TREND_CHANGES_MAX 500

/* A trend's value as the change list writes it. */
static void trend_fmt(double v, int metric, char *buf, size_t n)
{
	if (metric == T_PEAK)
		pr_fmt_bytes(v, buf, n);
	else if (metric == T_THROUGHPUT)
		snprintf(buf, n, "%.4g", v);
	else
		pr_fmt_duration(v, buf, n);
}

/*
 * The change points of a trend (y[0..n) in table order, ridx their rows): E-Divisive means
 * (base/changes.h, as `profreport changes`), marked on the chart by dashed lines between the
 * two runs (*vl, *nvl) and listed under it, each run linked to its page.
 */
static void trend_changes(struct pr_strbuf *sb, const struct pr_html_index_row *rows,
			  const size_t *ridx, const double *x, const double *y, size_t n,
			  int metric, struct pr_chart_vline **vl, size_t *nvl)
{
	struct pr_changes_opts o = PR_CHANGES_OPTS_INIT;
	struct pr_change *c = NULL;
	size_t nc, k, side;
	*vl = NULL;
	*nvl = 0;
	/* O(n^2) per permutation: past TREND_CHANGES_MAX runs the page leaves it to `changes` */
	if (n > TREND_CHANGES_MAX) {
		pr_strbuf_addf(sb,
			       "<p class=\"capped\">%zu runs: change points are not searched on "
			       "the page past %d (<code>profreport changes</code> does).</p>\n",
			       n, TREND_CHANGES_MAX);
		return;
	}
	nc = pr_changes_detect(y, n, &o, &c);
	if (!nc) {
		free(c);
		return;
	}
	*vl = pr_xcalloc(nc, sizeof(**vl));
	pr_strbuf_addstr(sb, "<ul class=\"trend-changes\">\n");
	for (k = 0; k < nc; k++) {
		char b[64], a[64];
		(*vl)[k].x = (x[c[k].at - 1] + x[c[k].at]) / 2;
		(*vl)[k].rgb = 0xC0392B;
		(*vl)[k].dashed = 1;
		pr_strbuf_addstr(sb, "<li>Change point ");
		for (side = 0; side < 2; side++) {
			size_t r = ridx[c[k].at - 1 + side];
			pr_strbuf_addf(sb, "%s<a href=\"", side ? " and " : "between ");
			pr_html_esc(sb, rows[r].href);
			pr_strbuf_addf(sb, "\">#%zu ", r + 1);
			pr_html_esc(sb, pr_mstr(rows[r].run, PRK_LABEL));
			pr_strbuf_addstr(sb, "</a>");
		}
		if (c[k].kind == PR_CHANGE_SHIFT) {
			trend_fmt(c[k].before, metric, b, sizeof(b));
			trend_fmt(c[k].after, metric, a, sizeof(a));
			pr_strbuf_addf(sb, ": median %s &rarr; %s", b, a);
			if (isfinite(c[k].change))
				pr_strbuf_addf(sb, " (%+.1f %%)", c[k].change * 100);
		} else {
			pr_strbuf_addstr(sb, ": the spread changes");
		}
		pr_strbuf_addf(sb, ", p = %.3f</li>\n", c[k].p);
		*nvl = k + 1;
	}
	pr_strbuf_addstr(sb, "</ul>\n");
	free(c);
}

struct trend_key {
	char kind[300], sub[200];
	int metric;
	const char *unit;
};

static int cmp_trend_key(const void *a, const void *b)
{
	const struct trend_key *x = a, *y = b;
	int c = strcmp(x->kind, y->kind);
	if (c)
		return c;
	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	return strcmp(x->sub, y->sub);
}

/*
 * The trends: runs of one kind (format and collector) and one metric (the
 * peak of one series, a throughput in one unit) on one chart, x = the run's
 * row in the table (time order); only where at least two runs have it.
 */
static int trends(struct pr_strbuf *sb, const struct pr_html_index_row *rows, size_t lo, size_t n,
		  const char *window, struct pr_error *err)
{
	struct trend_key *keys = pr_xcalloc((n - lo) * T_METRICS + 1, sizeof(*keys)), k;
	double *x = pr_xcalloc(n - lo + 1, sizeof(double)),
	       *y = pr_xcalloc(n - lo + 1, sizeof(double)), v;
	size_t *ridx = pr_xcalloc(n - lo + 1, sizeof(*ridx));
	size_t nk = 0, i, j, charts = 0, single = 0;
	int m, rc = 0;
	for (i = lo; i < n; i++)
		for (m = 0; m < T_METRICS; m++)
			if (trend_value(rows[i].run, m, &v, &keys[nk].unit, keys[nk].sub,
					sizeof(keys[nk].sub))) {
				run_kind(rows[i].run, keys[nk].kind, sizeof(keys[nk].kind));
				keys[nk++].metric = m;
			}
	qsort(keys, nk, sizeof(*keys), cmp_trend_key);
	pr_strbuf_addstr(
		sb,
		"<h3>Trends across runs</h3>\n<p class=\"meta\">One chart per metric and "
		"kind of run (format / collector): runs of different kinds, or peaks of different "
		"series, are never on one line. x is the run's # in the table below (time "
		"order). Dashed lines mark change points (E-Divisive means, as <code>"
		"profreport changes</code>), listed under their chart.</p>\n");
	if (window)
		pr_strbuf_addstr(sb, window);
	for (i = 0; i < nk && !rc; i = j) {
		char title[800], ylabel[300];
		size_t cnt = 0, r;
		for (j = i; j < nk && !cmp_trend_key(&keys[i], &keys[j]); j++)
			;
		if (j - i < 2) {
			single++;
			continue;
		}
		k = keys[i];
		for (r = lo; r < n; r++) {
			struct trend_key t;
			run_kind(rows[r].run, t.kind, sizeof(t.kind));
			if (strcmp(t.kind, k.kind) ||
			    !trend_value(rows[r].run, k.metric, &v, &t.unit, t.sub,
					 sizeof(t.sub)) ||
			    strcmp(t.sub, k.sub))
				continue;
			x[cnt] = (double)(r + 1);
			ridx[cnt] = r;
			y[cnt++] = v;
		}
		snprintf(ylabel, sizeof(ylabel), "%s%s%s%s", trend_name[k.metric],
			 *k.sub ? " (" : "", k.sub, *k.sub ? ")" : "");
		snprintf(title, sizeof(title), "%s | %s | %zu runs", ylabel, k.kind, cnt);
		/* the axis says the metric, the title which series or rate and which kind */
		{
			struct pr_strbuf list = PR_STRBUF_INIT;
			struct pr_chart_vline *vl;
			size_t nvl;
			trend_changes(&list, rows, ridx, x, y, cnt, k.metric, &vl, &nvl);
			rc = trend(sb, title,
				   k.metric == T_THROUGHPUT ? k.sub : trend_name[k.metric],
				   k.metric == T_THROUGHPUT ? "" : k.unit, x, y, cnt, charts++, vl,
				   nvl, err);
			if (list.len)
				pr_strbuf_add(sb, list.buf, list.len);
			pr_strbuf_release(&list);
			free(vl);
		}
	}
	if (!rc && single)
		pr_strbuf_addf(sb,
			       "<p class=\"capped\">%zu metric%s of a kind with a single run: no "
			       "trend.</p>\n",
			       single, single == 1 ? "" : "s");
	free(keys);
	free(x);
	free(y);
	free(ridx);
	return rc;
}

/*
 * The index's Source cell: the directories every source shares become one
 * ELLIPSIS, so what tells two runs apart shows first; a rest still too long
 * keeps its first directory (where sources differ) and its file name.
 */
static void source_td(struct pr_strbuf *sb, const char *src, size_t common)
{
	struct pr_strbuf shown = PR_STRBUF_INIT;
	const char *rest = src + common, *slash = strchr(rest, '/'), *last = strrchr(rest, '/');
	if (common)
		pr_strbuf_addstr(&shown, ELLIPSIS "/");
	if (strlen(rest) > PR_HTML_NAME_SHOWN && slash && last > slash) {
		pr_strbuf_add(&shown, rest, (size_t)(slash - rest) + 1);
		pr_strbuf_addstr(&shown, ELLIPSIS);
		pr_strbuf_addstr(&shown, last);
	} else {
		pr_strbuf_addstr(&shown, rest);
	}
	if (common || strlen(src) > PR_HTML_NAME_SHOWN)
		pr_html_td_shown(sb, src, shown.buf);
	else
		pr_html_td(sb, src);
	pr_strbuf_release(&shown);
}

int pr_html_index(const struct pr_html_index_row *rows, size_t n, struct pr_output *out,
		  struct pr_error *err)
{
	return pr_html_index_note(rows, n, NULL, out, err);
}

int pr_html_index_note(const struct pr_html_index_row *rows, size_t n, const char *note,
		       struct pr_output *out, struct pr_error *err)
{
	static const char *const files[] = { "index.html" };
	struct pr_html_index_page p = { rows, n, 0, n, 0, 0, files, note, NULL };
	return pr_html_index_page(&p, out, err);
}

/*
 * The links between the pages of an index in parts (PR_HTML_INDEX_ROWS runs each): the newest
 * page names the total and links every full page; a full page names no total and links only
 * the pages there whenever it is (the newest and the older full pages).
 */
static void index_parts_nav(struct pr_strbuf *sb, const struct pr_html_index_page *p)
{
	size_t k, part = p->lo / PR_HTML_INDEX_ROWS, upto = p->stamp ? part : p->full;
	pr_strbuf_addstr(
		sb, "<nav class=\"index-parts\" aria-label=\"index pages\"><p class=\"meta\">");
	if (p->stamp) {
		pr_strbuf_addf(sb, "Runs %zu-%zu (%zu a page; the newest: <a href=\"", p->lo + 1,
			       p->hi, PR_HTML_INDEX_ROWS);
		pr_html_esc(sb, p->files[p->full]);
		pr_strbuf_addstr(sb, "\">");
		pr_html_esc(sb, p->files[p->full]);
		pr_strbuf_addstr(sb, "</a>):");
	} else {
		pr_strbuf_addf(sb, "Runs %zu-%zu of %zu (%zu a page):", p->lo + 1, p->hi, p->n,
			       PR_HTML_INDEX_ROWS);
	}
	for (k = 0; k < upto; k++) {
		size_t lo = k * PR_HTML_INDEX_ROWS + 1, hi = (k + 1) * PR_HTML_INDEX_ROWS;
		pr_strbuf_addstr(sb, " <a href=\"");
		pr_html_esc(sb, p->files[k]);
		pr_strbuf_addf(sb, "\">%zu-%zu</a>", lo, hi);
	}
	pr_strbuf_addf(sb, " <strong>%zu-%zu</strong></p></nav>\n", p->lo + 1, p->hi);
}

/* A run's --meta labels, "key=value" in key order (the model's), in one cell. */
static void meta_td(struct pr_strbuf *sb, const json_t *meta)
{
	const char *k;
	const json_t *v;
	int first = 1;
	pr_strbuf_addstr(sb, "<td class=\"labels\">");
	json_object_foreach ((json_t *)meta, k, v) {
		if (!json_is_string(v))
			continue;
		if (!first)
			pr_strbuf_addstr(sb, " ");
		first = 0;
		pr_html_esc(sb, k);
		pr_strbuf_addch(sb, '=');
		pr_html_esc(sb, json_string_value(v));
	}
	pr_strbuf_addstr(sb, "</td>");
}

/* The length of the directories (up to a '/') that every source of rows lo..hi starts with. */
static size_t common_dirs(const struct pr_html_index_row *rows, size_t lo, size_t hi)
{
	const char *first = hi > lo ? pr_mstr(rows[lo].run, PRK_SOURCE) : "";
	size_t len = strlen(first), i, k;
	if (hi - lo < 2)
		return 0;
	for (i = lo + 1; i < hi; i++) {
		const char *s = pr_mstr(rows[i].run, PRK_SOURCE);
		for (k = 0; k < len && s[k] == first[k]; k++)
			;
		len = k;
	}
	while (len > 0 && first[len - 1] != '/')
		len--;
	return len;
}

/* Where the newest page's trends come from when they are not every run's. */
static void trends_window(struct pr_strbuf *sb, const struct pr_html_index_page *p)
{
	size_t k;
	pr_strbuf_addf(sb,
		       "<p class=\"meta trends-window\">The trends of the last %zu of %zu runs "
		       "(#%zu-%zu); older runs:",
		       p->n - p->trend_lo, p->n, p->trend_lo + 1, p->n);
	for (k = 0; k < p->full; k++) {
		if (p->full > 3 && k > 0 && k < p->full - 1) {
			if (k == 1)
				pr_strbuf_addstr(sb, " " ELLIPSIS);
			continue;
		}
		pr_strbuf_addstr(sb, " <a href=\"");
		pr_html_esc(sb, p->files[k]);
		pr_strbuf_addstr(sb, "\">");
		pr_html_esc(sb, p->files[k]);
		pr_strbuf_addstr(sb, "</a>");
	}
	pr_strbuf_addstr(sb, ".</p>\n");
}

int pr_html_index_page(const struct pr_html_index_page *p, struct pr_output *out,
		       struct pr_error *err)
{
	static const char *const h[] = {
		"#",	       "Run",	      "Kind",	      "Source",
		"Start (UTC)", "#Duration",   "#Peak memory", "Series",
		"#Step p50",   "#Throughput", "Unit",	      "#Recommendations",
		NULL
	};
	/* with the runs' --meta labels (commit, branch, ...) after the run's name */
	static const char *const hl[] = {
		"#",	       "Run",	    "Labels",		"Kind",	  "Source",
		"Start (UTC)", "#Duration", "#Peak memory",	"Series", "#Step p50",
		"#Throughput", "Unit",	    "#Recommendations", NULL
	};
	const struct pr_html_index_row *rows = p->rows;
	const json_t **list = pr_xcalloc(p->hi - p->lo + 1, sizeof(*list));
	struct pr_strbuf body = PR_STRBUF_INIT, head = PR_STRBUF_INIT;
	char title[96], **names, kind[300], sub[96];
	size_t i, lo = p->lo, hi = p->hi, common = common_dirs(rows, lo, hi);
	int rc = 0, labels = 0;
	/* what the page shows of its own runs only: a full page does not change with later runs */
	for (i = lo; i < hi; i++) {
		list[i - lo] = rows[i].run;
		labels = labels || json_object_size(json_object_get(rows[i].run, PRK_META)) > 0;
	}
	names = pr_html_run_names(list, hi - lo);
	free(list);
	pr_strbuf_addstr(&body, "<section class=\"run\"><h2>Runs</h2>\n");
	if (p->note && !p->stamp) {
		pr_strbuf_addstr(&body, "<p class=\"meta archive-note\">");
		pr_html_esc(&body, p->note);
		pr_strbuf_addstr(&body, "</p>\n");
	}
	if (!p->stamp) { /* the trends first: where it changed */
		struct pr_strbuf window = PR_STRBUF_INIT;
		size_t before = body.len;
		if (p->trend_lo > 0)
			trends_window(&window, p);
		rc = trends(&body, rows, p->trend_lo, p->n, window.len ? window.buf : NULL, err);
		pr_strbuf_release(&window);
		if (body.len > before)
			pr_strbuf_addstr(&body, p->full ? "<h3>The newest runs</h3>\n"
							: "<h3>Every run</h3>\n");
	}
	if (p->full)
		index_parts_nav(&body, p);
	pr_strbuf_addstr(&body, "<div class=\"scroll\">");
	pr_html_table_begin(&body, labels ? hl : h);
	for (i = lo; i < hi; i++) {
		const json_t *r = rows[i].run, *pk = primary_peak(r);
		json_t *clock = json_object_get(r, PRK_CLOCK);
		const char *unit;
		double thr = throughput(r, &unit);
		pr_strbuf_addf(&body,
			       "<tr id=\"row-%zu\"><td class=\"n\" data-v=\"%zu\">%zu</td>"
			       "<td class=\"name\"><a href=\"",
			       i + 1, i + 1, i + 1);
		pr_html_esc(&body, rows[i].href);
		pr_strbuf_addstr(&body, "\">");
		pr_html_esc(&body, names[i - lo]);
		pr_strbuf_addstr(&body, "</a></td>");
		if (labels)
			meta_td(&body, json_object_get(r, PRK_META));
		run_kind(r, kind, sizeof(kind));
		pr_html_td(&body, kind);
		source_td(&body, pr_mstr(r, PRK_SOURCE), common);
		if (json_is_number(json_object_get(clock, PRK_CLOCK_EPOCH_START_NS))) {
			/* a date to read, the Unix seconds to sort by */
			char when[64];
			pr_fmt_utc(pr_mnum(clock, PRK_CLOCK_EPOCH_START_NS), when, sizeof(when));
			pr_strbuf_addf(&body, "<td class=\"n\" data-v=\"%.17g\">%s</td>",
				       pr_mnum(clock, PRK_CLOCK_EPOCH_START_NS) / 1e9, when);
		} else {
			pr_html_td(&body, "-");
		}
		pr_html_tdn(&body, pr_mnum(clock, PRK_CLOCK_DURATION_NS), "ns");
		pr_html_tdn(&body, pk ? pr_mnum(pk, PRK_PEAKS_VALUE) : NAN, "bytes");
		pr_html_td(&body, pk ? pr_mstr(pk, PRK_PEAKS_SERIES) : "");
		pr_html_tdn(&body,
			    pr_mnum(json_object_get(json_object_get(r, PRK_THROUGHPUT),
						    PRK_THROUGHPUT_STEPS),
				    PRK_THROUGHPUT_STEPS_P50_NS),
			    "ns");
		pr_html_tdf(&body, thr, 3);
		pr_html_td(&body, unit);
		pr_html_tdf(&body, (double)json_array_size(json_object_get(r, PRK_RECOMMENDATIONS)),
			    0);
		pr_strbuf_addstr(&body, "</tr>\n");
	}
	pr_html_model_table_end(&body, hi - lo, hi - lo);
	pr_strbuf_addstr(&body, "</div>\n");
	pr_strbuf_addstr(&body, "</section>\n");
	if (p->stamp)
		snprintf(title, sizeof(title), "profreport: archived runs %zu-%zu", lo + 1, hi);
	else
		snprintf(title, sizeof(title), "profreport: %zu archived runs", p->n);
	if (p->full)
		snprintf(sub, sizeof(sub), "Index of the reports in this directory: runs %zu-%zu",
			 lo + 1, hi);
	else
		snprintf(sub, sizeof(sub), "Index of the reports in this directory");
	if (p->stamp)
		pr_strbuf_addf(&head, "<meta name=\"" PR_HTML_INDEX_STAMP "\" content=\"%s\">\n",
			       p->stamp);
	if (!rc)
		rc = pr_html_page_head(title, sub, head.buf, body.buf, out, err);
	pr_html_run_names_free(names, hi - lo);
	pr_strbuf_release(&body);
	pr_strbuf_release(&head);
	return rc;
}
