/* html_report.c - the single-file HTML report and the archive index. */
#include "analyze/changes.h"
#include "analyze/model.h"
#include "render/html_report.h"
#include "render/html_util.h"
#include "render/html_views.h"
#include "render/elide.h"
#include "render/names.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "render/gpu_panel.h"
#include "render/perf_panel.h"
#include "render/panel_data.h"
#include "render/panels.h"
#include "render/units.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

extern const char pr_tpl_report_html[], pr_tpl_report_css[], pr_tpl_report_js[];
extern const char pr_tpl_trace_css[], pr_tpl_views_css[], pr_tpl_flame_css[];
extern const char pr_tpl_trace_js[], pr_tpl_views_js[], pr_tpl_flame_js[];

static void esc(struct pr_strbuf *sb, const char *s)
{
	pr_xml_escape(sb, s);
}

static const char *fmt_val(double v, const char *unit, char *buf, size_t n)
{
	return pr_html_fmt_val(v, unit, buf, n);
}

/* ---- tables ---- */

void pr_html_table_begin(struct pr_strbuf *sb, const char *const *heads)
{
	size_t i;
	/* in a scroll box: a table wider than its card scrolls inside it */
	pr_strbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\"><thead><tr>");
	for (i = 0; heads[i]; i++) {
		const char *h = heads[i];
		int numeric = h[0] == '#';
		pr_strbuf_addstr(sb, numeric ? "<th class=\"n\">" : "<th>");
		esc(sb, numeric ? h + 1 : h);
		pr_strbuf_addstr(sb, "</th>");
	}
	pr_strbuf_addstr(sb, "</tr></thead><tbody>\n");
}

void pr_html_table_end(struct pr_strbuf *sb, size_t shown, size_t total, const char *all_in)
{
	pr_strbuf_addstr(sb, "</tbody></table></div>\n");
	if (total > shown) {
		pr_strbuf_addf(sb, "<p class=\"capped\">Showing %zu of %zu rows (capped at %d; ", shown,
			       total, PR_HTML_ROWS);
		esc(sb, all_in);
		pr_strbuf_addstr(sb, " has all of them).</p>\n");
	}
}

static void table_end(struct pr_strbuf *sb, size_t shown, size_t total)
{
	pr_html_table_end(sb, shown, total, "the JSON model");
}

/*
 * A name cell: shown is what the cell says; when it differs from the full
 * name (demangled, shortened, cut), the full name is the cell's title
 * (hover), data-full (what copying the cell puts on the clipboard,
 * report.js) and what the column filters and sorts by.
 */
void pr_html_td_shown(struct pr_strbuf *sb, const char *full, const char *shown)
{
	if (!strcmp(full, shown)) {
		pr_strbuf_addstr(sb, "<td class=\"name\">");
		esc(sb, full);
		pr_strbuf_addstr(sb, "</td>");
		return;
	}
	pr_strbuf_addstr(sb, "<td class=\"name el\" title=\"");
	esc(sb, full);
	pr_strbuf_addstr(sb, "\" data-full=\"");
	esc(sb, full);
	pr_strbuf_addstr(sb, "\">");
	esc(sb, shown);
	pr_strbuf_addstr(sb, "</td>");
}

void pr_html_td(struct pr_strbuf *sb, const char *text)
{
	char shown[PR_HTML_NAME_SHOWN + 1];
	pr_html_td_shown(sb, text, pr_name_display(text, shown, sizeof(shown)));
}

pr_label_t *pr_html_name_column(const json_t *items, const char *key, size_t max)
{
	size_t n = json_array_size(items), i;
	const char **names;
	pr_label_t *lab;
	if (n > max)
		n = max;
	names = pr_xcalloc(n ? n : 1, sizeof(*names));
	lab = pr_xcalloc(n ? n : 1, sizeof(*lab));
	for (i = 0; i < n; i++)
		names[i] = pr_mstr(json_array_get(items, i), key);
	pr_name_column(lab, names, n, PR_HTML_NAME_SHOWN);
	free(names);
	return lab;
}

/* A numeric cell: sorts by v, shows v formatted in unit. */
static void tdn(struct pr_strbuf *sb, double v, const char *unit)
{
	char buf[64];
	if (isnan(v))
		pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
	else {
		/* data-u: the unit of data-v, for the table's CSV (templates/views.js) */
		pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.17g\" data-u=\"", v);
		esc(sb, unit);
		pr_strbuf_addstr(sb, "\">");
		esc(sb, fmt_val(v, unit, buf, sizeof(buf)));
		pr_strbuf_addstr(sb, "</td>");
	}
}

/* A numeric cell with `prec` decimals (prec < 0: 6 significant digits). */
static void tdf(struct pr_strbuf *sb, double v, int prec)
{
	char buf[64];
	if (isnan(v)) {
		pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
		return;
	}
	if (prec < 0)
		snprintf(buf, sizeof(buf), "%.6g", v);
	else
		snprintf(buf, sizeof(buf), "%.*f", prec, v);
	pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.17g\">%s</td>", v, buf);
}

/* ---- inline SVG panels: ids made unique per panel ---- */

void pr_html_inline_svg(struct pr_strbuf *sb, const char *svg, size_t len, const char *prefix)
{
	const char *p = svg, *end = svg + len, *start = strstr(svg, "<svg");
	static const char *const pats[] = { "id=\"", "href=\"#", "url(#" };
	if (start)
		p = start;
	while (p < end) {
		const char *best = NULL;
		size_t bl = 0, k;
		for (k = 0; k < PR_ARRAY_SIZE(pats); k++) {
			const char *q = strstr(p, pats[k]);
			if (q && q < end && (!best || q < best)) {
				best = q;
				bl = strlen(pats[k]);
			}
		}
		if (!best) {
			pr_strbuf_add(sb, p, (size_t)(end - p));
			break;
		}
		pr_strbuf_add(sb, p, (size_t)(best - p) + bl);
		pr_strbuf_addstr(sb, prefix);
		p = best + bl;
	}
}

/*
 * Panel i of ps as <figure id="IDPREFIX NAME"> with the SVG inline, its
 * ids prefixed with SVGPREFIX "p<i>-".
 */
static int html_panel(struct pr_strbuf *sb, const struct pr_panelset *ps, size_t i,
		      const char *idprefix, const char *svgprefix, struct pr_error *err)
{
	struct pr_output out;
	const char *data;
	size_t len;
	char prefix[96];
	int rc = 0;
	pr_output_init_memory(&out);
	if (pr_panelset_render(ps, i, PR_GFX_SVG, &out, err) || pr_output_close(&out, err)) {
		rc = -1;
	} else {
		data = pr_output_data(&out, &len);
		snprintf(prefix, sizeof(prefix), "%sp%zu-", svgprefix, i);
		pr_strbuf_addf(sb, "<figure id=\"%s%s\" aria-label=\"", idprefix, pr_panelset_name(ps, i));
		esc(sb, pr_panelset_title(ps, i));
		pr_strbuf_addstr(sb, "\">");
		pr_html_inline_svg(sb, data, len, prefix);
		/* a line chart's data for hover and zoom (templates/report.js) */
		if (pr_panel_data(pr_panelset_chart(ps, i), sb, err) < 0)
			rc = -1;
		pr_strbuf_addstr(sb, "</figure>\n");
	}
	pr_output_release(&out);
	return rc;
}

int pr_html_panels(struct pr_strbuf *sb, struct pr_panelset *ps, const char *idprefix,
		   struct pr_error *err)
{
	size_t i;
	int rc = 0;
	if (pr_panelset_count(ps))
		pr_strbuf_addstr(sb, "<h3>Panels</h3>\n");
	for (i = 0; i < pr_panelset_count(ps) && !rc; i++)
		rc = html_panel(sb, ps, i, idprefix, idprefix, err);
	for (i = 0; i < pr_panelset_skipped_count(ps); i++) { /* panels that would say nothing */
		pr_strbuf_addstr(sb, i ? "; " : "<p class=\"skipped\">Not drawn: ");
		esc(sb, pr_panelset_skipped_name(ps, i));
		pr_strbuf_addstr(sb, " (");
		esc(sb, pr_panelset_skipped_reason(ps, i));
		pr_strbuf_addch(sb, ')');
	}
	if (pr_panelset_skipped_count(ps))
		pr_strbuf_addstr(sb, ".</p>\n");
	pr_panelset_free(ps);
	return rc;
}

/* ---- sections ---- */

/* A card: value, label, an optional second line (sub), data-card key and title (hover). */
static void card_k(struct pr_strbuf *sb, const char *value, const char *label, const char *sub,
		   const char *key, const char *title)
{
	pr_strbuf_addstr(sb, "<div class=\"card\"");
	if (key) {
		pr_strbuf_addstr(sb, " data-card=\"");
		esc(sb, key);
		pr_strbuf_addch(sb, '"');
	}
	if (title) {
		pr_strbuf_addstr(sb, " title=\"");
		esc(sb, title);
		pr_strbuf_addch(sb, '"');
	}
	pr_strbuf_addstr(sb, "><div class=\"v\">");
	esc(sb, value);
	pr_strbuf_addstr(sb, "</div><div class=\"l\">");
	esc(sb, label);
	if (sub) {
		pr_strbuf_addstr(sb, "</div><div class=\"l held\">");
		esc(sb, sub);
	}
	pr_strbuf_addstr(sb, "</div></div>");
}

static void card(struct pr_strbuf *sb, const char *value, const char *label)
{
	card_k(sb, value, label, NULL, NULL, NULL);
}

/* A series' label as the model gives it (analyze/primary.c), its internal name when it has none. */
static const char *series_label(const json_t *o, const char *name_key)
{
	const char *l = pr_mstr(o, "label");
	return *l ? l : pr_mstr(o, name_key);
}

/*
 * The first screen: the GPU-busy share on a GPU page (as the GPU section states it), the peaks
 * of the memory series in the model's order (the primary series first; the model has no peak
 * for a series that stays at 0), then the run's duration, steps, rates and findings.
 */
static void cards(struct pr_strbuf *sb, const json_t *run)
{
	json_t *pk, *t = json_object_get(run, "throughput"), *st = json_object_get(t, "steps");
	json_t *recs = json_object_get(run, "recommendations"), *r;
	json_t *gr = json_object_get(json_object_get(run, "gpu_breakdown"), "rank");
	char a[64], b[160], c[160], d[96], h[400];
	size_t i, high = 0;
	pr_strbuf_addstr(sb, "<div class=\"cards\">");
	if (json_is_number(json_object_get(gr, "busy_share"))) {
		snprintf(a, sizeof(a), "%.2f %%", pr_mnum(gr, "busy_share") * 100);
		card_k(sb, a, "GPU busy (scope all: first to last GPU op)", NULL, "gpu-busy",
		       "gpu_breakdown.rank.busy_share: GPU ops' union over the first to last op");
	}
	json_array_foreach(json_object_get(run, "peaks"), i, pk)
	{
		const char *dev = pr_mstr(pk, "device");
		const json_t *hb = json_object_get(pk, "held_by");
		const char *sub = NULL;
		char e[64];
		if (i >= 3)
			break;
		pr_fmt_bytes(pr_mnum(pk, "value"), a, sizeof(a));
		snprintf(b, sizeof(b), "Peak %s%s%s", series_label(pk, "series"), *dev ? " " : "",
			 dev);
		/* the raw name, and what holds the peak by which rule (peaks[].held_by) */
		snprintf(c, sizeof(c), "%s%s%s", pr_mstr(pk, "series"), *dev ? " " : "", dev);
		if (json_is_object(hb)) {
			snprintf(h, sizeof(h), "%s; held by %s (%s), %s", c, pr_mstr(hb, "name"),
				 pr_mstr(hb, "kind"), pr_mstr(hb, "rule"));
			snprintf(d, sizeof(d), "held by %s",
				 pr_elide_end(pr_mstr(hb, "name"), 24, e, sizeof(e)));
			sub = d;
		}
		card_k(sb, a, b, sub, "peak", sub ? h : c);
	}
	if (json_is_number(json_object_get(json_object_get(run, "heap_totals"), "peak_bytes"))) {
		const json_t *ht = json_object_get(run, "heap_totals");
		pr_fmt_value(pr_mnum(ht, "peak_bytes"), pr_mstr(ht, "unit"), a, sizeof(a));
		snprintf(d, sizeof(d), "%.0f blocks", pr_mnum(ht, "peak_blocks"));
		card_k(sb, a, "Peak heap (t-gmax)", d, NULL,
		       "heap_totals.peak_bytes: live at DHAT's global peak t-gmax");
		pr_fmt_value(pr_mnum(ht, "total_bytes"), pr_mstr(ht, "unit"), a, sizeof(a));
		snprintf(d, sizeof(d), "%.0f blocks", pr_mnum(ht, "total_blocks"));
		card_k(sb, a, "Allocated in all", d, NULL, "heap_totals.total_bytes");
	}
	if (!pr_run_x_unit(run) && strcmp(pr_run_span_unit(run), "ns")) {
		/* a profile weighed in page faults or sample counts (an_spans.c's unit) */
		pr_fmt_value(pr_mnum(json_object_get(run, "clock"), "duration_ns"),
			     pr_run_span_unit(run), a, sizeof(a));
		card(sb, a, "Extent (weights, not time)");
	} else {
		pr_fmt_x(run, pr_mnum(json_object_get(run, "clock"), "duration_ns"), a, sizeof(a));
		card(sb, a, pr_run_x_unit(run) ? "Extent (not time)" : "Duration");
	}
	if (json_is_object(st)) {
		pr_fmt_duration(pr_mnum(st, "p50_ns"), a, sizeof(a));
		card(sb, a, "Step time p50");
		snprintf(a, sizeof(a), "%.2f", pr_mnum(st, "per_s"));
		card(sb, a, "Steps / s");
	}
	if (json_is_number(json_object_get(json_object_get(t, "tokens"), "tokens_per_s"))) {
		snprintf(a, sizeof(a), "%.1f", pr_mnum(json_object_get(t, "tokens"), "tokens_per_s"));
		card(sb, a, "Tokens / s");
	}
	if (json_is_object(json_object_get(t, "blocks"))) {
		snprintf(a, sizeof(a), "%.2f / %.2f", pr_mnum(json_object_get(t, "blocks"), "fps"),
			 pr_mnum(json_object_get(t, "blocks"), "bps"));
		card(sb, a, "FPS / BPS (blocks)");
	}
	json_array_foreach(recs, i, r)
		high += !strcmp(pr_mstr(r, "severity"), "high");
	snprintf(a, sizeof(a), "%zu (%zu high)", json_array_size(recs), high);
	card(sb, a, "Recommendations");
	snprintf(a, sizeof(a), "%zu", json_array_size(json_object_get(run, "diagnostics")));
	card(sb, a, "Ingest diagnostics");
	pr_strbuf_addstr(sb, "</div>\n");
}

#define HTML_RECS 50 /* recommendations shown */

/*
 * A finding's impact: the share of the run (or of a step) that its evidence
 * states, the first of these keys it has (0..1; percents / 100); NAN when
 * it states none (a rate below a threshold, a leak's slope).
 */
static double rec_impact(const json_t *r)
{
	static const struct {
		const char *key;
		double div;
	} keys[] = { { "share", 1 },	   { "share_of_run", 1 },	  { "share_of_step", 1 },
		     { "host_wait_share", 1 }, { "idle_share", 1 },	  { "communication_share", 1 },
		     { "percent", 100 },       { "peak_pct", 100 } };
	const json_t *ev = json_object_get(r, "evidence");
	size_t k;
	for (k = 0; k < PR_ARRAY_SIZE(keys); k++) {
		double v = pr_mnum(ev, keys[k].key);
		if (isfinite(v))
			return v / keys[k].div;
	}
	return NAN;
}

static int rec_severity(const json_t *r)
{
	const char *s = pr_mstr(r, "severity");
	return !strcmp(s, "high") ? 0 : !strcmp(s, "medium") ? 1 : !strcmp(s, "low") ? 2 : 3;
}

struct rec_item {
	const json_t *r;
	size_t idx;	      /* in the model */
	int sev;	      /* 0 high .. 3 other */
	double imp;	      /* rec_impact, -1 when it states none */
	double gimp;	      /* the largest impact of its group (rule and severity) */
	size_t gfirst;	      /* the group's first finding in the model */
};

static int same_group(const struct rec_item *a, const struct rec_item *b)
{
	return a->sev == b->sev && !strcmp(pr_mstr(a->r, "id"), pr_mstr(b->r, "id"));
}

static int cmp_rec(const void *pa, const void *pb)
{
	const struct rec_item *a = pa, *b = pb;
	if (a->sev != b->sev)
		return a->sev < b->sev ? -1 : 1;
	if (a->gimp != b->gimp)
		return a->gimp > b->gimp ? -1 : 1;
	if (a->gfirst != b->gfirst)
		return a->gfirst < b->gfirst ? -1 : 1;
	if (a->imp != b->imp)
		return a->imp > b->imp ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* One rule's findings: the first message and suggestion, the others' messages, the evidence folded. */
static void rec_group(struct pr_strbuf *sb, const struct rec_item *it, size_t n)
{
	const json_t *r = it[0].r;
	size_t i;
	pr_strbuf_addf(sb, "<div class=\"rec %s\"><strong>[", pr_mstr(r, "severity"));
	esc(sb, pr_mstr(r, "severity"));
	pr_strbuf_addstr(sb, "] ");
	esc(sb, pr_mstr(r, "category"));
	pr_strbuf_addstr(sb, ":</strong> ");
	esc(sb, pr_mstr(r, "message"));
	if (n > 1) {
		pr_strbuf_addstr(sb, "<ul class=\"also\">");
		for (i = 1; i < n; i++) {
			pr_strbuf_addstr(sb, "<li>");
			esc(sb, pr_mstr(it[i].r, "message"));
			pr_strbuf_addstr(sb, "</li>");
		}
		pr_strbuf_addstr(sb, "</ul>");
	} else {
		pr_strbuf_addstr(sb, "<br>");
	}
	esc(sb, pr_mstr(r, "suggestion"));
	pr_strbuf_addstr(sb, "<details class=\"ev\"><summary>Evidence");
	if (n > 1)
		pr_strbuf_addf(sb, " (%zu findings)", n);
	pr_strbuf_addstr(sb, "</summary><div class=\"why\">Rule <code>");
	esc(sb, pr_mstr(r, "id"));
	pr_strbuf_addstr(sb, "</code> (");
	esc(sb, pr_mstr(r, "source"));
	pr_strbuf_addstr(sb, "): ");
	esc(sb, pr_mstr(r, "rule"));
	pr_strbuf_addstr(sb, "</div>");
	for (i = 0; i < n; i++) {
		char *ev = json_dumps(json_object_get(it[i].r, "evidence"),
				      JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		pr_strbuf_addstr(sb, "<pre>");
		esc(sb, ev ? ev : "null");
		pr_strbuf_addstr(sb, "</pre>");
		free(ev);
	}
	pr_strbuf_addstr(sb, "</details></div>\n");
}

/*
 * The findings, at the top of a run's section: grouped by rule (one box per
 * rule and severity, its findings' messages listed), the groups ranked by
 * severity, then by the largest impact (rec_impact) of their findings, then
 * in the model's order; the evidence folded in a <details>.
 */
static void recommendations(struct pr_strbuf *sb, const json_t *run)
{
	const json_t *recs = json_object_get(run, "recommendations");
	size_t i, j, n = json_array_size(recs), shown, cnt[4] = { 0, 0, 0, 0 };
	struct rec_item *it;
	if (!n)
		return;
	/* the first HTML_RECS of the model (one rule can fire per device or per series:
	 * thousands on a big machine), ranked */
	shown = n < HTML_RECS ? n : HTML_RECS;
	it = pr_xcalloc(shown, sizeof(*it));
	for (i = 0; i < shown; i++) {
		double imp;
		it[i].r = json_array_get(recs, i);
		it[i].idx = i;
		it[i].sev = rec_severity(it[i].r);
		imp = rec_impact(it[i].r);
		it[i].imp = isnan(imp) ? -1 : imp;
	}
	for (i = 0; i < n; i++)
		cnt[rec_severity(json_array_get(recs, i))]++;
	for (i = 0; i < shown; i++) {
		it[i].gimp = it[i].imp;
		it[i].gfirst = i;
		for (j = 0; j < shown; j++)
			if (same_group(&it[i], &it[j])) {
				it[i].gimp = fmax(it[i].gimp, it[j].imp);
				if (j < it[i].gfirst)
					it[i].gfirst = j;
			}
	}
	qsort(it, shown, sizeof(*it), cmp_rec);
	pr_strbuf_addstr(sb, "<h3>Recommendations</h3>\n");
	pr_strbuf_addf(sb, "<p class=\"meta\">%zu finding%s: %zu high, %zu medium, %zu low. One box per rule, "
			   "the most severe first, then the largest share of the run a finding states; "
			   "the evidence is folded.</p>\n",
		       n, n == 1 ? "" : "s", cnt[0], cnt[1], cnt[2]);
	for (i = 0; i < shown; i = j) {
		for (j = i + 1; j < shown && same_group(&it[i], &it[j]); j++)
			;
		rec_group(sb, it + i, j - i);
	}
	free(it);
	if (n > HTML_RECS)
		pr_strbuf_addf(sb,
			       "<p class=\"capped\">Showing %d of %zu recommendations (capped at %d; "
			       "the JSON model has all of them).</p>\n",
			       HTML_RECS, n, HTML_RECS);
}

#define HTML_TREE_DEPTH 10 /* levels of the peak allocation tree shown */
#define HTML_TREE_ROWS 100  /* rows of it shown */

/*
 * The peak snapshot's allocation tree (massif) as an indented table in
 * massif's depth-first order (not sortable: the order is the tree): at most
 * HTML_TREE_DEPTH levels and HTML_TREE_ROWS rows, the rest counted.
 */
static void alloc_tree(struct pr_strbuf *sb, const json_t *run)
{
	const json_t *t = json_object_get(run, "alloc_tree"), *v;
	size_t i, rows = 0, cut = 0;
	char a[48], b[48];
	if (!json_is_object(t))
		return;
	pr_fmt_x(run, pr_mnum(t, "t_ns"), a, sizeof(a));
	pr_strbuf_addf(sb, "<h3>Peak allocation tree (massif snapshot %lld at ", pr_mll(t, "snapshot"));
	esc(sb, a);
	pr_fmt_bytes(pr_mnum(t, "heap"), a, sizeof(a));
	pr_fmt_bytes(pr_mnum(t, "heap_extra"), b, sizeof(b));
	pr_strbuf_addstr(sb, ")</h3>\n<p class=\"meta\">Heap ");
	esc(sb, a);
	pr_strbuf_addstr(sb, " (+");
	esc(sb, b);
	pr_strbuf_addstr(sb, " allocator overhead). Each row is a call site; its children (indented) are "
			     "its callers, and add up to it. Sites below massif's threshold are folded "
			     "by massif into one row.</p>\n"
			     "<table class=\"tree\"><thead><tr><th class=\"n\">Bytes</th>"
			     "<th class=\"n\">Share %</th><th>Call site &larr; callers</th></tr></thead><tbody>\n");
	json_array_foreach(json_object_get(t, "nodes"), i, v)
	{
		long long depth = pr_mll(v, "depth");
		if (depth > HTML_TREE_DEPTH || rows >= HTML_TREE_ROWS) {
			cut++;
			continue;
		}
		rows++;
		pr_strbuf_addstr(sb, "<tr>");
		tdn(sb, pr_mnum(v, "bytes"), "bytes");
		tdf(sb, pr_mnum(v, "share") * 100, 1);
		pr_strbuf_addf(sb, "<td class=\"name\" style=\"padding-left:%.1fem\">",
			       0.4 + 1.2 * (double)(depth > 1 ? depth - 1 : 0));
		esc(sb, pr_mstr(v, "label"));
		pr_strbuf_addstr(sb, "</td></tr>\n");
	}
	pr_strbuf_addstr(sb, "</tbody></table>\n");
	cut += (size_t)(pr_mll(t, "nodes_more") > 0 ? pr_mll(t, "nodes_more") : 0);
	if (cut)
		pr_strbuf_addf(sb,
			       "<p class=\"capped\">%zu more node(s) not shown (deeper than %d levels or "
			       "past %d rows; the JSON model has the first " PR_STR(PR_MODEL_ALLOC_NODES)
			       ", the store all of them).</p>\n",
			       cut, HTML_TREE_DEPTH, HTML_TREE_ROWS);
}

/* A table row's opening and its first cell: a name (escaped). */
static void tr_name(struct pr_strbuf *sb, const char *name)
{
	pr_strbuf_addstr(sb, "<tr><td class=\"name\">");
	esc(sb, name);
	pr_strbuf_addstr(sb, "</td>");
}

/*
 * A PyTorch CUDA memory snapshot (cuda_snapshot): the allocator's numbers per
 * device, its pools, the sites live at the allocated peak (all the model
 * has: at most 10 and the rest summed) and the last OOM.
 */
static void cuda_snapshot(struct pr_strbuf *sb, const json_t *run)
{
	const json_t *cs = json_object_get(run, "cuda_snapshot"), *d, *v;
	size_t i, j;
	char a[48], b[48], c[48];
	if (!json_is_object(cs))
		return;
	pr_strbuf_addstr(sb, "<h3>CUDA memory snapshot (torch allocator)</h3>\n"
			     "<p class=\"meta\">From the snapshot's segments and blocks; "
			     "external fragmentation = 1 &minus; largest free block / free bytes "
			     "inside segments.</p>\n"
			     "<div class=\"scroll\"><table><thead><tr><th>Device</th>"
			     "<th class=\"n\">Reserved</th>"
			     "<th class=\"n\">Allocated</th><th class=\"n\">Active</th>"
			     "<th class=\"n\">Requested</th><th class=\"n\">Segments</th>"
			     "<th class=\"n\">Free in segments</th><th class=\"n\">Largest free "
			     "block</th><th class=\"n\">External fragmentation %</th></tr></thead>"
			     "<tbody>\n");
	json_array_foreach(json_object_get(cs, "devices"), i, d) {
		tr_name(sb, pr_mstr(d, "device"));
		tdn(sb, pr_mnum(d, "reserved"), "bytes");
		tdn(sb, pr_mnum(d, "allocated"), "bytes");
		tdn(sb, pr_mnum(d, "active"), "bytes");
		tdn(sb, pr_mnum(d, "requested"), "bytes");
		tdf(sb, pr_mnum(json_object_get(d, "segments"), "count"), 0);
		tdn(sb, pr_mnum(d, "free_in_segments"), "bytes");
		tdn(sb, pr_mnum(d, "largest_free_block"), "bytes");
		tdf(sb, pr_mnum(d, "external_fragmentation") * 100, 1);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_strbuf_addstr(sb, "</tbody></table></div>\n");
	json_array_foreach(json_object_get(cs, "devices"), i, d) {
		const json_t *pk = json_object_get(d, "peak"), *ooms = json_object_get(d, "ooms");
		double top = pr_mnum(pk, "allocated");
		pr_strbuf_addstr(sb, "<div class=\"scroll\"><table><thead><tr><th>Pool (");
		esc(sb, pr_mstr(d, "device"));
		pr_strbuf_addstr(sb,
				 ")</th><th class=\"n\">Segments</th><th class=\"n\">Reserved"
				 "</th><th class=\"n\">Allocated</th><th class=\"n\">Active</th>"
				 "<th class=\"n\">Requested</th></tr></thead><tbody>\n");
		json_array_foreach(json_object_get(d, "pools"), j, v) {
			tr_name(sb, pr_mstr(v, "pool"));
			tdf(sb, pr_mnum(v, "segments"), 0);
			tdn(sb, pr_mnum(v, "reserved"), "bytes");
			tdn(sb, pr_mnum(v, "allocated"), "bytes");
			tdn(sb, pr_mnum(v, "active"), "bytes");
			tdn(sb, pr_mnum(v, "requested"), "bytes");
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		pr_strbuf_addstr(sb, "</tbody></table></div>\n");
		if (json_is_object(pk)) {
			if (!strcmp(pr_mstr(cs, "time"), "time_us"))
				pr_fmt_x(run, pr_mnum(pk, "t_ns"), b, sizeof(b));
			else
				snprintf(b, sizeof(b), "trace event %lld", pr_mll(pk, "event"));
			pr_fmt_bytes(pr_mnum(pk, "allocated"), a, sizeof(a));
			pr_strbuf_addstr(sb, "<p class=\"meta\">");
			esc(sb, pr_mstr(d, "device"));
			pr_strbuf_addstr(sb, ": allocated peak ");
			esc(sb, a);
			pr_strbuf_addstr(sb, " at ");
			esc(sb, b);
			pr_strbuf_addstr(sb,
					 " (the history replayed, anchored at the snapshot); "
					 "the blocks live then, by their first user frame:</p>\n"
					 "<div class=\"scroll\"><table><thead><tr>"
					 "<th>Allocation site</th>"
					 "<th class=\"n\">Live bytes</th>"
					 "<th class=\"n\">Share %</th>"
					 "<th class=\"n\">Blocks</th></tr></thead><tbody>\n");
			json_array_foreach(json_object_get(pk, "sites"), j, v) {
				tr_name(sb, pr_mstr(v, "site"));
				tdn(sb, pr_mnum(v, "bytes"), "bytes");
				tdf(sb, pr_mnum(v, "share") * 100, 1);
				tdf(sb, pr_mnum(v, "blocks"), 0);
				pr_strbuf_addstr(sb, "</tr>\n");
			}
			if (pr_mll(pk, "sites_more") > 0) {
				pr_strbuf_addf(sb, "<tr><td class=\"name\">%lld more site(s)</td>",
					       pr_mll(pk, "sites_more"));
				tdn(sb, pr_mnum(pk, "other_bytes"), "bytes");
				tdf(sb, top > 0 ? pr_mnum(pk, "other_bytes") / top * 100 : NAN, 1);
				tdf(sb, pr_mnum(pk, "other_blocks"), 0);
				pr_strbuf_addstr(sb, "</tr>\n");
			}
			pr_strbuf_addstr(sb, "<tr><td class=\"name\">allocated before the history "
					     "began</td>");
			tdn(sb, pr_mnum(pk, "untracked_bytes"), "bytes");
			tdf(sb, top > 0 ? pr_mnum(pk, "untracked_bytes") / top * 100 : NAN, 1);
			pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td></tr>\n"
					     "</tbody></table></div>\n");
		}
		if (json_array_size(ooms)) {
			v = json_array_get(ooms, json_array_size(ooms) - 1);
			pr_fmt_bytes(pr_mnum(v, "requested"), a, sizeof(a));
			pr_fmt_bytes(pr_mnum(v, "largest_free_block"), b, sizeof(b));
			pr_fmt_bytes(pr_mnum(v, "device_free"), c, sizeof(c));
			pr_strbuf_addf(sb, "<p class=\"meta\">OOM (%zu on this device; the last): "
					   "requested ",
				       json_array_size(ooms));
			esc(sb, a);
			pr_strbuf_addstr(sb, ", largest free block ");
			esc(sb, b);
			pr_strbuf_addstr(sb, json_is_true(json_object_get(v, "fits"))
						 ? " (the request fits in it)"
						 : " (the request does not fit in it)");
			pr_strbuf_addstr(sb, ", ");
			esc(sb, c);
			pr_strbuf_addstr(sb, " free on the device.</p>\n");
		}
	}
}

/*
 * A heap profiler's program totals (heap_totals: valgrind DHAT): everything
 * allocated, what was live at the global peak (t-gmax) and at the end.
 */
static void heap_totals(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "When", "#Bytes", "#Blocks", "#At", NULL };
	const json_t *t = json_object_get(run, "heap_totals");
	const char *u, *tu, *mode;
	if (!json_is_object(t))
		return;
	u = pr_mstr(t, "unit");
	tu = *pr_mstr(t, "t_unit") ? pr_mstr(t, "t_unit") : "count";
	mode = pr_mstr(t, "mode");
	pr_strbuf_addstr(sb, !strcmp(mode, "heap") ? "<h3>Heap peak and totals (valgrind DHAT)"
						   : "<h3>Program totals (valgrind DHAT)");
	pr_strbuf_addstr(sb, "</h3>\n");
	pr_strbuf_addstr(sb, "<p class=\"meta\">");
	esc(sb, pr_mstr(t, "rule"));
	pr_strbuf_addstr(sb, ".</p>\n");
	pr_html_table_begin(sb, h);
	pr_strbuf_addf(sb, "<tr><td>%s in all</td>",
		       !strcmp(mode, "heap")   ? "allocated"
		       : !strcmp(mode, "copy") ? "copied"
					       : "counted");
	tdn(sb, pr_mnum(t, "total_bytes"), u);
	tdf(sb, pr_mnum(t, "total_blocks"), 0);
	pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td></tr>\n");
	if (json_is_number(json_object_get(t, "peak_bytes"))) {
		pr_strbuf_addstr(sb, "<tr><td>peak (t-gmax)</td>");
		tdn(sb, pr_mnum(t, "peak_bytes"), u);
		tdf(sb, pr_mnum(t, "peak_blocks"), 0);
		tdn(sb, pr_mnum(t, "peak_t"), tu);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	if (json_is_number(json_object_get(t, "end_bytes"))) {
		pr_strbuf_addstr(sb, "<tr><td>live at the end (t-end)</td>");
		tdn(sb, pr_mnum(t, "end_bytes"), u);
		pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
		tdn(sb, pr_mnum(t, "end_t"), tu);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	table_end(sb, 3, 3);
}

/* perf stat's counters (model "counters"): totals as perf printed them, or -I's sums */
static void counters_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const ht[] = { "Event",	 "Device",	   "#Total",
					  "#Counted %", "#perf's metric", NULL };
	static const char *const hi[] = { "Event", "Device", "#Total",  "#Intervals", "#Mean",
					  "#Min",  "#Max",   "#Max at", "#Counted %", NULL };
	const json_t *c = json_object_get(run, "counters"), *v;
	size_t i, n = json_array_size(json_object_get(c, "items"));
	int iv = json_is_number(json_object_get(json_array_get(json_object_get(c, "items"), 0),
						 "intervals"));
	char a[48];
	if (!n)
		return;
	pr_strbuf_addstr(sb, iv ? "<h3>Counters (perf stat -I: sums over the intervals)</h3>\n"
				: "<h3>Counters (perf stat totals)</h3>\n");
	pr_strbuf_addstr(sb, "<p class=\"meta\">");
	esc(sb, pr_mstr(c, "rule"));
	pr_strbuf_addstr(sb, ".</p>\n");
	pr_html_table_begin(sb, iv ? hi : ht);
	json_array_foreach(json_object_get(c, "items"), i, v)
	{
		const char *u = pr_mstr(v, "unit");
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(v, "event"));
		pr_html_td(sb, pr_mstr(v, "device"));
		tdn(sb, pr_mnum(v, "total"), u);
		if (iv) {
			tdf(sb, pr_mnum(v, "intervals"), 0);
			tdn(sb, pr_mnum(v, "mean"), u);
			tdn(sb, pr_mnum(v, "min"), u);
			tdn(sb, pr_mnum(v, "max"), u);
			pr_fmt_x(run, pr_mnum(v, "t_max_ns"), a, sizeof(a));
			pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.17g\" data-u=\"ns\">",
				       pr_mnum(v, "t_max_ns"));
			esc(sb, a);
			pr_strbuf_addstr(sb, "</td>");
			tdf(sb, pr_mnum(v, "counted_pct"), 1);
		} else {
			tdf(sb, pr_mnum(v, "counted_pct"), 1);
			tdn(sb, pr_mnum(v, "metric"), pr_mstr(v, "metric_unit"));
		}
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	table_end(sb, n, n);
}

#define PHASES_UNFOLDED 20 /* phase occurrences listed open; more are behind a fold */

static void phases_tables(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const occ_h[] = { "#", "Phase", "Kind", "#Start", "#Duration", "#Share %",
					     "#Memory delta", "Series", "#Peak inside", NULL };
	static const char *const tot_h[] = { "Phase", "#Count", "#Total", "#Mean", "#P50", "#P95",
					     "#Min", "#Max", "#Share %", NULL };
	static const char *const st_h[] = { "Stage", "#Calls", "#Total", "#Mean", "#Of wall %",
					    "#Inferix %", NULL };
	json_t *ph = json_object_get(run, "phases"), *o;
	const char *xu = pr_run_x_unit(run) ? pr_run_x_unit(run) : "ns";
	size_t i, n = json_array_size(json_object_get(ph, "occurrences"));
	if (n) {
		size_t nall = n + (size_t)(pr_mll(ph, "occurrences_more") > 0 ? pr_mll(ph, "occurrences_more") : 0);
		size_t ntot;
		pr_strbuf_addstr(sb, "<h3>Phases</h3>\n");
		/* grouped by name first: a long run's 7000 occurrences read as a few names */
		ntot = json_array_size(json_object_get(ph, "totals")) +
		       (size_t)(pr_mll(json_object_get(ph, "totals_more"), "names") > 0
					? pr_mll(json_object_get(ph, "totals_more"), "names")
					: 0);
		if (ntot >= nall) {
			/* no name repeats: a table by name would say each occurrence twice */
			pr_strbuf_addf(sb, "<h4>%zu occurrence%s, each name once</h4>\n", nall,
				       nall == 1 ? "" : "s");
			goto occurrences;
		}
		pr_strbuf_addf(sb, "<h4>By name: %zu occurrence%s of %zu name%s</h4>\n", nall,
			       nall == 1 ? "" : "s", ntot, ntot == 1 ? "" : "s");
		pr_html_table_begin(sb, tot_h);
		json_array_foreach(json_object_get(ph, "totals"), i, o)
		{
			if (i >= PR_HTML_ROWS)
				break;
			pr_strbuf_addstr(sb, "<tr>");
			pr_html_td(sb, pr_mstr(o, "name"));
			tdf(sb, pr_mnum(o, "count"), 0);
			tdn(sb, pr_mnum(o, "total_ns"), "ns");
			tdn(sb, pr_mnum(o, "mean_ns"), "ns");
			tdn(sb, pr_mnum(o, "p50_ns"), "ns");
			tdn(sb, pr_mnum(o, "p95_ns"), "ns");
			tdn(sb, pr_mnum(o, "min_ns"), "ns");
			tdn(sb, pr_mnum(o, "max_ns"), "ns");
			tdf(sb, pr_mnum(o, "share") * 100, 1);
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		pr_html_table_end(sb, i, ntot, "the store");
	occurrences:
		/* every occurrence in time order, folded when there are many */
		pr_strbuf_addf(sb, "<details class=\"occ\"%s><summary>Timeline: %s%zu occurrence%s</summary>\n",
			       nall <= PHASES_UNFOLDED ? " open" : "", nall > 1 ? "all " : "", nall,
			       nall == 1 ? "" : "s");
		pr_html_table_begin(sb, occ_h);
		json_array_foreach(json_object_get(ph, "occurrences"), i, o)
		{
			json_t *m = json_array_get(json_object_get(o, "memory"), 0);
			if (i >= PR_HTML_ROWS)
				break;
			pr_strbuf_addf(sb, "<tr><td class=\"n\" data-v=\"%zu\">%zu</td>", i + 1, i + 1);
			pr_html_td(sb, pr_mstr(o, "name"));
			pr_html_td(sb, pr_mstr(o, "kind"));
			tdn(sb, pr_mnum(o, "t_ns"), xu);
			tdn(sb, pr_mnum(o, "dur_ns"), xu);
			tdf(sb, pr_mnum(o, "share") * 100, 1);
			tdn(sb, m ? pr_mnum(m, "delta") : NAN, "bytes");
			pr_html_td(sb, m ? pr_mstr(m, "series") : "");
			tdn(sb, m ? pr_mnum(m, "peak") : NAN, "bytes");
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		/* the model lists the first PR_MODEL_MAX_PHASES occurrences: the store has them all */
		pr_html_table_end(sb, i, nall, "the store");
		pr_strbuf_addstr(sb, "</details>\n");
	}
	n = json_array_size(json_object_get(ph, "stages"));
	if (n) {
		pr_strbuf_addstr(sb, "<h3>Stages (Inferix aggregates)</h3>\n");
		pr_html_table_begin(sb, st_h);
		json_array_foreach(json_object_get(ph, "stages"), i, o)
		{
			pr_strbuf_addstr(sb, "<tr>");
			pr_html_td(sb, pr_mstr(o, "name"));
			tdf(sb, pr_mnum(o, "count"), 0);
			tdn(sb, pr_mnum(o, "total_ns"), "ns");
			tdn(sb, pr_mnum(o, "mean_ns"), "ns");
			tdf(sb, pr_mnum(o, "share_of_wall") * 100, 1);
			tdf(sb, pr_mnum(o, "reported_percentage"), 1);
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		table_end(sb, i, n);
	}
}

static void spans_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "Name", "Kind", "#Count", "#Self", "#Total", "#Mean",
					 "#Median", "#Min", "#Max", "#StdDev", NULL };
	json_t *arr = json_object_get(json_object_get(run, "bottlenecks"), "top_self"), *o;
	const char *u = pr_run_span_unit(run);
	pr_label_t *lab;
	size_t i, restated = 0;
	if (!json_array_size(arr))
		return;
	json_array_foreach(arr, i, o)
		restated += !strcmp(pr_mstr(o, "kind"), "phase") && pr_mnum(o, "count") == 1;
	if (restated == json_array_size(arr))
		return; /* one phase each: the phase table has them */
	/* spans.unit: DHAT's frames weigh bytes allocated, not time */
	pr_strbuf_addstr(sb, strcmp(u, "ns") ? "<h3>Top frames by self weight</h3>\n"
					     : "<h3>Top spans by self time</h3>\n");
	pr_html_table_begin(sb, h);
	lab = pr_html_name_column(arr, "name", json_array_size(arr));
	json_array_foreach(arr, i, o)
	{
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td_shown(sb, pr_mstr(o, "name"), lab[i]);
		pr_html_td(sb, pr_mstr(o, "kind"));
		tdf(sb, pr_mnum(o, "count"), 0);
		tdn(sb, pr_mnum(o, "self_ns"), u);
		tdn(sb, pr_mnum(o, "total_ns"), u);
		tdn(sb, pr_mnum(o, "mean_ns"), u);
		tdn(sb, pr_mnum(o, "median_ns"), u);
		tdn(sb, pr_mnum(o, "min_ns"), u);
		tdn(sb, pr_mnum(o, "max_ns"), u);
		tdn(sb, pr_mnum(o, "std_ns"), u);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	free(lab);
	table_end(sb, i, i);
}

static void layers_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "Device", "Layer", "#Samples", "#Mean fragmentation %",
					 "#Collector's %", "#Largest gap", NULL };
	json_t *f, *l;
	size_t i, j, rows = 0, shown = 0;
	json_array_foreach(json_object_get(run, "fragmentation"), i, f)
		rows += json_array_size(json_object_get(f, "layers"));
	if (!rows)
		return;
	pr_strbuf_addstr(sb, "<h3>Layers</h3>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach(json_object_get(run, "fragmentation"), i, f)
		json_array_foreach(json_object_get(f, "layers"), j, l)
		{
			if (shown >= PR_HTML_ROWS)
				break;
			shown++;
			pr_strbuf_addstr(sb, "<tr>");
			pr_html_td(sb, pr_mstr(f, "device"));
			pr_html_td(sb, pr_mstr(l, "layer"));
			tdf(sb, pr_mnum(l, "samples"), 0);
			tdf(sb, pr_mnum(l, "mean_ratio") * 100, 1);
			tdf(sb, pr_mnum(l, "reported_avg_ratio") * 100, 1);
			tdn(sb, pr_mnum(l, "max_gap"), "bytes");
			pr_strbuf_addstr(sb, "</tr>\n");
		}
	table_end(sb, shown, rows);
}

static void series_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "Series", "Device", "Unit", "#Samples", "#Min", "#Mean",
					 "#Max", "#Max at", "#Last", NULL };
	json_t *arr = json_object_get(run, "series"), *s;
	char a[48];
	size_t i;
	if (!json_array_size(arr))
		return;
	pr_strbuf_addstr(sb, "<h3>Series</h3>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach(arr, i, s)
	{
		const char *u = pr_mstr(s, "unit"), *mk;
		if (i >= PR_HTML_ROWS)
			break;
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(s, "name"));
		pr_html_td(sb, pr_mstr(s, "device"));
		pr_html_td(sb, u);
		tdf(sb, pr_mnum(s, "count"), 0);
		tdn(sb, pr_mnum(s, "min"), u);
		/* sadf: sar's interval-weighted mean (its Average: line) */
		mk = json_object_get(s, "mean_weighted") ? "mean_weighted" : "mean";
		tdn(sb, pr_mnum(s, mk), u);
		tdn(sb, pr_mnum(s, "max"), u);
		/* series.t_max_ns: the time of the max, on the run's x axis */
		pr_fmt_x(run, pr_mnum(s, "t_max_ns"), a, sizeof(a));
		if (isnan(pr_mnum(s, "t_max_ns")))
			pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
		else
			pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.17g\">%s</td>",
				       pr_mnum(s, "t_max_ns"), a);
		tdn(sb, pr_mnum(s, "last"), u);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	table_end(sb, i, json_array_size(arr));
}

/* A sentence cell: the text whole, wrapped (a name cell would cut it in the middle). */
static void td_msg(struct pr_strbuf *sb, const char *text)
{
	pr_strbuf_addstr(sb, "<td class=\"msg\">");
	esc(sb, text);
	pr_strbuf_addstr(sb, "</td>");
}

static void crosscheck_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "", "What", "#Collector", "#Recomputed", "Unit", "Why they differ", NULL };
	json_t *arr = json_object_get(run, "crosscheck"), *c;
	size_t i;
	if (!json_array_size(arr))
		return;
	pr_strbuf_addstr(sb, "<h3>The collector's numbers vs recomputed</h3>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach(arr, i, c)
	{
		int ok = json_is_true(json_object_get(c, "agree"));
		pr_strbuf_addf(sb, "<tr><td class=\"%s\">%s</td>", ok ? "ok" : "diff", ok ? "ok" : "differs");
		pr_html_td(sb, pr_mstr(c, "topic"));
		tdf(sb, pr_mnum(c, "reported"), -1);
		tdf(sb, pr_mnum(c, "recomputed"), -1);
		pr_html_td(sb, pr_mstr(c, "unit"));
		td_msg(sb, pr_mstr(c, "reason"));
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	table_end(sb, i, i);
}

static void diagnostics_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "Code", "#Count", "#Line", "#Column", "Message", NULL };
	json_t *arr = json_object_get(run, "diagnostics"), *d;
	size_t i;
	if (!json_array_size(arr))
		return;
	pr_strbuf_addstr(sb, "<h3>Ingest diagnostics</h3>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach(arr, i, d)
	{
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(d, "code"));
		tdf(sb, pr_mnum(d, "count"), 0);
		tdf(sb, pr_mnum(d, "line"), 0);
		tdf(sb, pr_mnum(d, "column"), 0);
		td_msg(sb, pr_mstr(d, "message"));
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	table_end(sb, i, i);
}

/* The user's labels of the run (--meta: commit, branch, build, time, ...), keys sorted. */
static void run_meta(struct pr_strbuf *sb, const json_t *run)
{
	json_t *m = json_object_get(run, "meta"), *v;
	const char *k;
	int first = 1;
	if (!json_is_object(m) || !json_object_size(m))
		return;
	pr_strbuf_addstr(sb, "<p class=\"meta run-meta\">");
	json_object_foreach(m, k, v) {
		if (!json_is_string(v))
			continue;
		pr_strbuf_addstr(sb, first ? "" : " &middot; ");
		esc(sb, k);
		pr_strbuf_addstr(sb, " <code>");
		esc(sb, json_string_value(v));
		pr_strbuf_addstr(sb, "</code>");
		first = 0;
	}
	pr_strbuf_addstr(sb, "</p>\n");
}

static void metadata(struct pr_strbuf *sb, const json_t *run)
{
	json_t *clock = json_object_get(run, "clock");
	char a[64];
	pr_strbuf_addstr(sb, "<p class=\"meta\">Source <code>");
	esc(sb, pr_mstr(run, "source"));
	pr_strbuf_addstr(sb, "</code> &middot; format ");
	esc(sb, pr_mstr(run, "format"));
	pr_strbuf_addstr(sb, " &middot; collector ");
	esc(sb, pr_mstr(run, "collector"));
	if (json_is_integer(json_object_get(run, "rank"))) {
		pr_strbuf_addf(sb, " &middot; rank %lld", pr_mll(run, "rank"));
		if (json_is_integer(json_object_get(run, "world_size")))
			pr_strbuf_addf(sb, " of %lld", pr_mll(run, "world_size"));
	}
	if (json_is_number(json_object_get(clock, "epoch_start_ns"))) {
		char when[64];
		pr_fmt_utc(pr_mnum(clock, "epoch_start_ns"), when, sizeof(when));
		pr_strbuf_addf(sb, " &middot; started %s", when);
	}
	pr_fmt_x(run, pr_mnum(clock, "duration_ns"), a, sizeof(a));
	if (pr_run_x_unit(run)) {
		pr_strbuf_addstr(sb, " &middot; x axis: ");
		esc(sb, pr_run_x_desc(run));
		pr_strbuf_addstr(sb, "; extent ");
		esc(sb, a);
	} else {
		pr_strbuf_addf(sb, " &middot; duration %s%s", a,
			       json_is_true(json_object_get(clock, "synthetic")) ? " (synthetic clock)" : "");
	}
	{
		/* a sampled profile's records per event (perf script: reported perf.samples) */
		const json_t *m;
		size_t i, k = 0;
		json_array_foreach(json_object_get(run, "reported"), i, m)
		{
			if (strcmp(pr_mstr(m, "name"), "perf.samples"))
				continue;
			pr_strbuf_addf(sb, "%s%.0f ", k++ ? ", " : " &middot; ",
				       pr_mnum(m, "value"));
			esc(sb, pr_mstr(m, "detail"));
			pr_strbuf_addstr(sb, " samples");
		}
		if (k) {
			pr_strbuf_addf(sb, " &middot; %lld spans</p>\n",
				       pr_mll(json_object_get(run, "counts"), "spans"));
			return;
		}
	}
	pr_strbuf_addf(sb, " &middot; %lld spans, %lld samples</p>\n",
		       pr_mll(json_object_get(run, "counts"), "spans"),
		       pr_mll(json_object_get(run, "counts"), "samples"));
	run_meta(sb, run);
}

/* ---- GPU: HTA's breakdowns, the CPU-GPU link, TensorBoard's steps, collectives ---- */

/* A short text cell (a type, a layer): never broken inside a word, unlike a name. */
static void tdt(struct pr_strbuf *sb, const char *text)
{
	pr_strbuf_addstr(sb, "<td>");
	esc(sb, text);
	pr_strbuf_addstr(sb, "</td>");
}

/* A share (0..1) as a percent cell with `prec` decimals; absent stays "-". */
static void tdpct(struct pr_strbuf *sb, const json_t *o, const char *key, int prec)
{
	json_t *v = json_object_get(o, key);
	tdf(sb, json_is_number(v) ? json_number_value(v) * 100 : NAN, prec);
}

/* One row of the temporal breakdown: the rank's or a stream's shares. */
static void temporal_row(struct pr_strbuf *sb, const char *scope, const json_t *o, const json_t *idle)
{
	pr_strbuf_addstr(sb, "<tr>");
	pr_html_td(sb, scope);
	tdn(sb, pr_mnum(o, "span_ns"), "ns");
	tdpct(sb, o, "busy_share", 2);
	tdpct(sb, o, "compute_share", 1);
	tdpct(sb, o, "communication_share", 1);
	tdpct(sb, o, "memory_share", 1);
	tdpct(sb, o, "idle_share", 1);
	tdpct(sb, idle, "host_wait_share", 1);
	tdpct(sb, idle, "kernel_wait_share", 1);
	tdpct(sb, idle, "other_share", 1);
	pr_strbuf_addstr(sb, "</tr>\n");
}

/* The GPU panels of a run and where rendering them failed (the first error wins). */
struct gfig {
	const struct pr_panelset *ps;
	const char *idp;
	struct pr_error *err;
	int rc;
};

static void gpu_figures(struct pr_strbuf *sb, struct gfig *f, const char *name);
static void kernel_types_table(struct pr_strbuf *sb, const json_t *gb, struct gfig *f);

#define FEW_ROWS 4 /* rows a GPU table says better without a chart of the same numbers */

/* gpu_breakdown.scopes side by side: TraceLens's gpu_timeline per scope (issue 28). */
static void gpu_scopes_table(struct pr_strbuf *sb, const json_t *sc)
{
	static const char *const th[] = { "Scope",	   "#GPU ops",	    "#Total",
					  "#Busy",	   "#Busy %",	    "#Computation",
					  "#Exposed comm", "#Exposed memcpy", "#Idle",
					  NULL };
	static const char *const names[] = { "all", "linked", "steps" };
	static const char *const what[] = { "all: every GPU op",
					    "linked: launched by a traced runtime call",
					    "steps: launched inside a ProfilerStep" };
	size_t i, n = 0;
	if (!json_is_object(sc))
		return;
	pr_strbuf_addstr(sb, "<h4>GPU time by scope (TraceLens's gpu_timeline)</h4>\n<p>Each "
			     "number names its scope: <em>all</em> counts every GPU op (the HTA "
			     "breakdown above), <em>linked</em> only those a traced CPU call "
			     "launched (TraceLens's default), <em>steps</em> those launched inside "
			     "a ProfilerStep. Memsets count as computation here.</p>\n");
	pr_html_table_begin(sb, th);
	for (i = 0; i < PR_ARRAY_SIZE(names); i++) {
		const json_t *v = json_object_get(sc, names[i]);
		if (!json_is_object(v))
			continue;
		pr_strbuf_addstr(sb, "<tr>");
		tdt(sb, what[i]);
		tdf(sb, pr_mnum(v, "ops"), 0);
		tdn(sb, pr_mnum(v, "total_ns"), "ns");
		tdn(sb, pr_mnum(v, "busy_ns"), "ns");
		tdpct(sb, v, "busy_share", 2);
		tdn(sb, pr_mnum(v, "computation_ns"), "ns");
		tdn(sb, pr_mnum(v, "exposed_comm_ns"), "ns");
		tdn(sb, pr_mnum(v, "exposed_memcpy_ns"), "ns");
		tdn(sb, pr_mnum(v, "idle_ns"), "ns");
		pr_strbuf_addstr(sb, "</tr>\n");
		n++;
	}
	table_end(sb, n, n);
}

static void gpu_breakdown_tables(struct pr_strbuf *sb, const json_t *gb, struct gfig *f)
{
	static const char *const th[] = { "Scope", "#Span", "#Busy %", "#Compute %", "#Communication %",
					  "#Memory %", "#Idle %", "#Idle: host wait %", "#Idle: kernel wait %",
					  "#Idle: other %", NULL };
	static const char *const kh[] = { "Name", "Type", "#Count", "#Total", "#Mean", "#Median", "#Min",
					  "#Max", "#Share %", NULL };
	static const char *const mh[] = { "Direction", "#Count", "#Time", "#Bytes", "#Bandwidth", NULL };
	const json_t *r = json_object_get(gb, "rank"), *ov = json_object_get(gb, "overlap");
	const json_t *k = json_object_get(gb, "kernels"), *v;
	char a[64], b[64];
	size_t i, n;
	pr_strbuf_addstr(sb, "<h4>Temporal breakdown (HTA)</h4>\n<p>");
	if (json_is_number(json_object_get(r, "busy_share")))
		pr_strbuf_addf(sb, "GPU busy %.2f%% of %s (scope all: first to last GPU op). ",
			       pr_mnum(r, "busy_share") * 100,
			       fmt_val(pr_mnum(r, "span_ns"), "ns", a, sizeof(a)));
	if (json_is_number(json_object_get(ov, "share")))
		pr_strbuf_addf(sb, "Comm/compute overlap %.1f%% of %s of communication kernels.",
			       pr_mnum(ov, "share") * 100,
			       fmt_val(pr_mnum(ov, "communication_ns"), "ns", b, sizeof(b)));
	else if (json_is_object(ov))
		pr_strbuf_addstr(sb, "Comm/compute overlap: no communication kernels.");
	pr_strbuf_addstr(sb, "</p>\n");
	gpu_figures(sb, f, "gpu_temporal");
	gpu_figures(sb, f, "gpu_overlap");
	pr_html_table_begin(sb, th);
	temporal_row(sb, "rank (all streams)", r, json_object_get(gb, "idle"));
	n = 1;
	json_array_foreach(json_object_get(gb, "streams"), i, v)
	{
		if (n >= PR_HTML_ROWS)
			break;
		pr_stream_label(pr_mstr(v, "device"), pr_mstr(v, "stream"), a, sizeof(a));
		temporal_row(sb, a, v, json_object_get(v, "idle"));
		n++;
	}
	table_end(sb, n, 1 + json_array_size(json_object_get(gb, "streams")));
	gpu_scopes_table(sb, json_object_get(gb, "scopes"));
	kernel_types_table(sb, gb, f);
	n = json_array_size(json_object_get(k, "top"));
	if (n) {
		pr_strbuf_addstr(sb, "<h4>Top GPU ops by total time</h4>\n");
		if (n > FEW_ROWS)
			gpu_figures(sb, f, "gpu_top_kernels");
		pr_label_t *lab = pr_html_name_column(json_object_get(k, "top"), "name", n);
		pr_html_table_begin(sb, kh);
		json_array_foreach(json_object_get(k, "top"), i, v)
		{
			pr_strbuf_addstr(sb, "<tr>");
			pr_html_td_shown(sb, pr_mstr(v, "name"), lab[i]);
			tdt(sb, pr_mstr(v, "type"));
			tdf(sb, pr_mnum(v, "count"), 0);
			tdn(sb, pr_mnum(v, "total_ns"), "ns");
			tdn(sb, pr_mnum(v, "mean_ns"), "ns");
			tdn(sb, pr_mnum(v, "median_ns"), "ns");
			tdn(sb, pr_mnum(v, "min_ns"), "ns");
			tdn(sb, pr_mnum(v, "max_ns"), "ns");
			tdpct(sb, v, "share", 1);
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		free(lab);
		table_end(sb, n, n);
	}
	n = json_array_size(json_object_get(k, "memory_ops"));
	if (n) {
		pr_strbuf_addstr(sb, "<h4>Memcpy / memset by direction</h4>\n");
		pr_html_table_begin(sb, mh);
		json_array_foreach(json_object_get(k, "memory_ops"), i, v)
		{
			pr_strbuf_addstr(sb, "<tr>");
			tdt(sb, pr_mstr(v, "direction"));
			tdf(sb, pr_mnum(v, "count"), 0);
			tdn(sb, pr_mnum(v, "time_ns"), "ns");
			tdn(sb, pr_mnum(v, "sized_count") > 0 ? pr_mnum(v, "bytes") : NAN, "bytes");
			tdn(sb, pr_mnum(v, "bandwidth_Bps"), "bytes_per_s");
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		table_end(sb, n, n);
	}
}

static void launch_row(struct pr_strbuf *sb, const char *what, const json_t *o)
{
	pr_strbuf_addstr(sb, "<tr>");
	pr_html_td(sb, what);
	tdn(sb, pr_mnum(o, "p50_ns"), "ns");
	tdn(sb, pr_mnum(o, "p95_ns"), "ns");
	tdn(sb, pr_mnum(o, "mean_ns"), "ns");
	tdn(sb, pr_mnum(o, "min_ns"), "ns");
	tdn(sb, pr_mnum(o, "max_ns"), "ns");
	pr_strbuf_addstr(sb, "</tr>\n");
}

/* HTA's kernel launch statistics: the summary, the ops with most delay, the outliers. */
static void launch_delay_tables(struct pr_strbuf *sb, const json_t *ld)
{
	static const char *const oh[] = { "Op", "#Launches", "#Delay total", "#Delay mean",
					  "#Delay max", "#Latency mean", "Activity with most delay",
					  NULL };
	static const char *const xh[] = { "Activity", "Call", "Op", "#Start", "#CPU", "#GPU",
					  "#Delay", NULL };
	const json_t *v, *k, *ops = json_object_get(ld, "by_op");
	const json_t *out = json_object_get(ld, "outliers");
	const json_t *more = json_object_get(ld, "by_op_more");
	char a[40], b[40], c[40], d[40], e[40], f[40];
	size_t i, n = 0;
	if (!json_is_object(ld))
		return;
	pr_strbuf_addstr(sb, "<h4>Launch delays (HTA's kernel launch statistics)</h4>\n<p>");
	fmt_val(pr_mnum(ld, "delay_mean_ns"), "ns", a, sizeof(a));
	fmt_val(pr_mnum(ld, "delay_max_ns"), "ns", b, sizeof(b));
	fmt_val(pr_mnum(ld, "cpu_duration_mean_ns"), "ns", c, sizeof(c));
	fmt_val(pr_mnum(ld, "gpu_duration_mean_ns"), "ns", d, sizeof(d));
	fmt_val(pr_mnum(ld, "delay_cutoff_ns"), "ns", e, sizeof(e));
	fmt_val(pr_mnum(ld, "runtime_cutoff_ns"), "ns", f, sizeof(f));
	pr_strbuf_addf(sb,
		       "%lld launches: delay (activity start - call end, at least 0) mean %s, "
		       "max %s; CPU duration mean %s, GPU duration mean %s. %lld delays over %s, "
		       "%lld calls over %s, %lld short kernels (GPU shorter than its call).</p>\n",
		       pr_mll(ld, "launches"), a, b, c, d, pr_mll(ld, "delay_outliers"), e,
		       pr_mll(ld, "runtime_outliers"), f, pr_mll(ld, "short_kernels"));
	if (json_array_size(ops)) {
		/* names shown by the column rule: two different names never print alike */
		size_t nops = json_array_size(ops);
		pr_label_t *lab = pr_html_name_column(ops, "name", nops);
		pr_label_t *klab = pr_xcalloc(nops, sizeof(*klab));
		const char **kn = pr_xcalloc(nops, sizeof(*kn));
		json_array_foreach(ops, i, v)
			kn[i] = pr_mstr(json_array_get(json_object_get(v, "kernels"), 0), "name");
		pr_name_column(klab, kn, nops, PR_HTML_NAME_SHOWN);
		pr_html_table_begin(sb, oh);
		json_array_foreach(ops, i, v) {
			pr_strbuf_addstr(sb, "<tr>");
			pr_html_td_shown(sb, pr_mstr(v, "name"), lab[i]);
			tdf(sb, pr_mnum(v, "activities"), 0);
			tdn(sb, pr_mnum(v, "delay_total_ns"), "ns");
			tdn(sb, pr_mnum(v, "delay_mean_ns"), "ns");
			tdn(sb, pr_mnum(v, "delay_max_ns"), "ns");
			tdn(sb, pr_mnum(v, "latency_mean_ns"), "ns");
			k = json_array_get(json_object_get(v, "kernels"), 0);
			pr_html_td_shown(sb, pr_mstr(k, "name"), klab[i]);
			pr_strbuf_addstr(sb, "</tr>\n");
			n++;
		}
		table_end(sb, n,
			  n + (size_t)(pr_mll(more, "names") > 0 ? pr_mll(more, "names") : 0));
		free(lab);
		free(klab);
		free(kn);
	}
	if (json_array_size(out)) {
		size_t nout = json_array_size(out);
		pr_label_t *ln = pr_html_name_column(out, "name", nout);
		pr_label_t *lc = pr_html_name_column(out, "call", nout);
		pr_label_t *lo = pr_html_name_column(out, "op", nout);
		n = 0;
		pr_html_table_begin(sb, xh);
		json_array_foreach(out, i, v) {
			pr_strbuf_addstr(sb, "<tr>");
			pr_html_td_shown(sb, pr_mstr(v, "name"), ln[i]);
			pr_html_td_shown(sb, pr_mstr(v, "call"), lc[i]);
			pr_html_td_shown(sb, pr_mstr(v, "op"), lo[i]);
			tdn(sb, pr_mnum(v, "t_ns"), "ns");
			tdn(sb, pr_mnum(v, "cpu_ns"), "ns");
			tdn(sb, pr_mnum(v, "gpu_ns"), "ns");
			tdn(sb, pr_mnum(v, "delay_ns"), "ns");
			pr_strbuf_addstr(sb, "</tr>\n");
			n++;
		}
		table_end(sb, n, (size_t)pr_mll(ld, "delay_outliers"));
		free(ln);
		free(lc);
		free(lo);
	}
}

static void gpu_link_tables(struct pr_strbuf *sb, const json_t *g, struct gfig *f)
{
	static const char *const lh[] = { "Measure", "#p50", "#p95", "#Mean", "#Min", "#Max", NULL };
	static const char *const qh[] = { "Device", "Stream", "#Activities", "#Busy", "#Queue mean",
					  "#Queue mean (HTA)", "#Queue max", "#Time at max", NULL };
	const json_t *l = json_object_get(g, "launches"), *v;
	size_t i, n = 0, total;
	if (json_is_object(l)) {
		pr_strbuf_addf(sb, "<h4>Launches</h4>\n<p>%lld of %lld activities linked to their runtime call.</p>\n",
			       pr_mll(l, "linked"), pr_mll(l, "activities"));
		pr_html_table_begin(sb, lh);
		launch_row(sb, "latency (activity start - call start)", json_object_get(l, "latency"));
		launch_row(sb, "CPU overhead (call duration)", json_object_get(l, "overhead"));
		table_end(sb, 2, 2);
	}
	launch_delay_tables(sb, json_object_get(g, "launch_delays"));
	total = json_array_size(json_object_get(json_object_get(g, "streams"), "items"));
	if (!total)
		return;
	pr_strbuf_addstr(sb, "<h4>Queue length per stream</h4>\n");
	gpu_figures(sb, f, "gpu_queue");
	pr_html_table_begin(sb, qh);
	json_array_foreach(json_object_get(json_object_get(g, "streams"), "items"), i, v)
	{
		const json_t *q = json_object_get(v, "queue");
		if (n >= PR_HTML_ROWS)
			break;
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(v, "device"));
		pr_html_td(sb, pr_mstr(v, "stream"));
		tdf(sb, pr_mnum(v, "activities"), 0);
		tdn(sb, pr_mnum(v, "busy_ns"), "ns");
		tdf(sb, json_is_object(q) ? pr_mnum(q, "mean") : NAN, 2);
		tdf(sb, json_is_object(q) ? pr_mnum(q, "sample_mean") : NAN, 2);
		tdf(sb, json_is_object(q) ? pr_mnum(q, "max") : NAN, 0);
		tdn(sb, json_is_object(q) ? pr_mnum(q, "at_max_ns") : NAN, "ns");
		pr_strbuf_addstr(sb, "</tr>\n");
		n++;
	}
	table_end(sb, n, total);
}

/* One step's categories as shares of its duration. */
static void step_row(struct pr_strbuf *sb, const char *name, const json_t *o, const json_t *util)
{
	static const char *const keys[] = { "kernel_ns", "memcpy_ns", "memset_ns", "communication_ns",
					    "runtime_ns", "dataloader_ns", "cpu_exec_ns", "other_ns" };
	double dur = pr_mnum(o, "dur_ns");
	size_t j;
	pr_strbuf_addstr(sb, "<tr>");
	pr_html_td(sb, name);
	tdn(sb, dur, "ns");
	for (j = 0; j < PR_ARRAY_SIZE(keys); j++)
		tdf(sb, dur > 0 ? 100 * pr_mnum(o, keys[j]) / dur : NAN, 1);
	tdf(sb, json_is_number(util) ? json_number_value(util) * 100 : NAN, 1);
	pr_strbuf_addstr(sb, "</tr>\n");
}

static void step_breakdown_table(struct pr_strbuf *sb, const json_t *s, struct gfig *f)
{
	static const char *const h[] = { "Step", "#Duration", "#Kernel %", "#Memcpy %", "#Memset %",
					 "#Communication %", "#Runtime %", "#DataLoader %", "#CPU Exec %",
					 "#Other %", "#GPU util %", NULL };
	const json_t *v;
	size_t i, n = 0, total;
	total = json_array_size(json_object_get(s, "steps"));
	pr_strbuf_addstr(sb, "<h4>Step breakdown (TensorBoard)</h4>\n");
	gpu_figures(sb, f, "gpu_steps");
	pr_html_table_begin(sb, h);
	step_row(sb, "average", json_object_get(s, "average"), json_object_get(s, "gpu_utilization"));
	json_array_foreach(json_object_get(s, "steps"), i, v)
	{
		if (n + 1 >= PR_HTML_ROWS)
			break;
		step_row(sb, pr_mstr(v, "name"), v, json_object_get(v, "gpu_util"));
		n++;
	}
	if (pr_mll(s, "steps_more") > 0)
		total += (size_t)pr_mll(s, "steps_more");
	table_end(sb, n + 1, total + 1);
}

static void collectives_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "Name", "Layer", "#Calls", "#Time", "#Bytes per call", "#algbw",
					 "#busbw", NULL };
	const json_t *items = json_object_get(json_object_get(run, "collectives"), "items"), *v;
	size_t i, n = json_array_size(items);
	if (!n)
		return;
	pr_strbuf_addstr(sb, "<h4>Collectives (bandwidth includes waiting for the other ranks)</h4>\n");
	pr_label_t *lab = pr_html_name_column(items, "name", n);
	pr_html_table_begin(sb, h);
	json_array_foreach(items, i, v)
	{
		int sized = json_is_number(json_object_get(v, "busbw_Bps"));
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td_shown(sb, pr_mstr(v, "name"), lab[i]);
		tdt(sb, pr_mstr(v, "layer"));
		tdf(sb, pr_mnum(v, "calls"), 0);
		tdn(sb, pr_mnum(v, "time_ns"), "ns");
		tdn(sb, sized ? pr_mnum(v, "bytes_per_call") : NAN, "bytes");
		tdn(sb, sized ? pr_mnum(v, "algbw_Bps") : NAN, "bytes_per_s");
		tdn(sb, sized ? pr_mnum(v, "busbw_Bps") : NAN, "bytes_per_s");
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	free(lab);
	table_end(sb, n, n);
}

/* The GPU kernels' busy share of their active range, gaps and chunks (nsys's rules), as `summary`. */
static void gpu_kernels_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "#Active range", "#Busy", "#Busy %", "#Gaps > 500 ms", "#Longest gap",
					 "#Chunks", "#Chunks < 50 % busy", NULL };
	const json_t *gk = json_object_get(json_object_get(run, "bottlenecks"), "gpu_kernels");
	if (!json_is_object(gk))
		return;
	pr_strbuf_addstr(sb, "<h4>GPU kernels (busy time over the active range)</h4>\n");
	pr_html_table_begin(sb, h);
	pr_strbuf_addstr(sb, "<tr>");
	tdn(sb, pr_mnum(gk, "active_ns"), "ns");
	tdn(sb, pr_mnum(gk, "busy_ns"), "ns");
	tdf(sb, json_is_number(json_object_get(gk, "idle_share")) ? (1 - pr_mnum(gk, "idle_share")) * 100 : NAN, 1);
	tdf(sb, pr_mnum(gk, "gaps_over_500ms"), 0);
	tdn(sb, pr_mnum(gk, "max_gap_ns"), "ns");
	tdf(sb, pr_mnum(gk, "chunks"), 0);
	tdf(sb, pr_mnum(gk, "chunks_under_50pct"), 0);
	pr_strbuf_addstr(sb, "</tr>\n");
	table_end(sb, 1, 1);
}

/* Sampled GPU utilisation per device (nvidia-smi, Diffulex), as `summary`'s "GPU utilisation". */
static void gpu_util_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "Device", "#Samples", "#Mean %", "#Max %", "#Idle (0 %) samples %", NULL };
	const json_t *items = json_object_get(json_object_get(run, "bottlenecks"), "gpu_util"), *v;
	size_t i, n = json_array_size(items);
	if (!n)
		return;
	pr_strbuf_addstr(sb, "<h4>GPU utilisation (sampled)</h4>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach(items, i, v)
	{
		pr_strbuf_addstr(sb, "<tr>");
		tdt(sb, pr_mstr(v, "device"));
		tdf(sb, pr_mnum(v, "samples"), 0);
		tdf(sb, pr_mnum(v, "mean_pct"), 1);
		tdf(sb, pr_mnum(v, "max_pct"), 1);
		tdpct(sb, v, "idle_share", 1);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	table_end(sb, n, n);
}

/* GPU op time by type (compute / communication / memory) and communication kernels by library. */
static void kernel_types_table(struct pr_strbuf *sb, const json_t *gb, struct gfig *f)
{
	static const char *const h[] = { "Type", "#Count", "#Time", "#Share %", NULL };
	static const char *const lh[] = { "Library", "#Count", "#Time", NULL };
	const json_t *k = json_object_get(gb, "kernels"), *v;
	size_t i, n = json_array_size(json_object_get(k, "by_type"));
	if (n) {
		pr_strbuf_addstr(sb, "<h4>GPU op time by type</h4>\n");
		/* a few types: the table says them, a chart would say them again */
		if (n > FEW_ROWS)
			gpu_figures(sb, f, "gpu_kernel_types");
		pr_html_table_begin(sb, h);
		size_t shown = 0;
		json_array_foreach(json_object_get(k, "by_type"), i, v)
		{
			if (!(pr_mnum(v, "count") > 0))
				continue; /* a type the run has none of: nothing to say */
			pr_strbuf_addstr(sb, "<tr>");
			tdt(sb, pr_mstr(v, "type"));
			tdf(sb, pr_mnum(v, "count"), 0);
			tdn(sb, pr_mnum(v, "time_ns"), "ns");
			tdpct(sb, v, "share", 1);
			pr_strbuf_addstr(sb, "</tr>\n");
			shown++;
		}
		table_end(sb, shown, shown);
	}
	n = json_array_size(json_object_get(k, "communication"));
	if (n) {
		pr_strbuf_addstr(sb, "<h4>Communication kernels by library</h4>\n");
		pr_html_table_begin(sb, lh);
		json_array_foreach(json_object_get(k, "communication"), i, v)
		{
			pr_strbuf_addstr(sb, "<tr>");
			tdt(sb, pr_mstr(v, "library"));
			tdf(sb, pr_mnum(v, "count"), 0);
			tdn(sb, pr_mnum(v, "time_ns"), "ns");
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		table_end(sb, n, n);
	}
}

/* The GPU panels named `name` (and `name`-2, ...), inline; a failure is kept in f->rc. */
static void gpu_figures(struct pr_strbuf *sb, struct gfig *f, const char *name)
{
	size_t i, len = strlen(name);
	char svgp[48];
	snprintf(svgp, sizeof(svgp), "%sg", f->idp);
	for (i = 0; i < pr_panelset_count(f->ps) && !f->rc; i++) {
		const char *pn = pr_panelset_name(f->ps, i);
		if (strncmp(pn, name, len) || (pn[len] && pn[len] != '-'))
			continue;
		f->rc = html_panel(sb, f->ps, i, f->idp, svgp, f->err);
	}
}

/* ---- the perf model (perf_model, docs/analysis.md) ---- */

static void pm_peaks_line(struct pr_strbuf *sb, const json_t *pm)
{
	const json_t *dev = json_object_get(pm, "device"), *roof = json_object_get(pm, "roofline");
	const json_t *pk = json_object_get(dev, "peak_tflops"), *v;
	const char *k;
	int first = 1;
	pr_strbuf_addstr(sb, "<p>Device ");
	esc(sb, *pr_mstr(dev, "name") ? pr_mstr(dev, "name") : "unknown");
	if (!json_is_object(roof)) {
		pr_strbuf_addstr(sb, ": not in the table of peaks (no % of peak).</p>\n");
		return;
	}
	pr_strbuf_addstr(sb, " = ");
	esc(sb, pr_mstr(dev, "model"));
	pr_strbuf_addstr(sb, ": peak TFLOP/s ");
	json_object_foreach((json_t *)pk, k, v)
	{
		if (!json_is_number(v))
			continue;
		pr_strbuf_addf(sb, "%s%s %.4g", first ? "" : ", ", k, json_number_value(v));
		first = 0;
	}
	pr_strbuf_addf(sb, "; memory %.4g TB/s. Roofline: %s, ridge %.4g FLOP/byte.</p>\n",
		       pr_mnum(dev, "hbm_tbps"), pr_mstr(roof, "dtype"),
		       pr_mnum(roof, "ridge_flop_per_byte"));
}

static void perf_model_tables(struct pr_strbuf *sb, const json_t *pm, struct gfig *f)
{
	static const char *const ch[] = { "Category", "#Ops",	  "#Activities", "#Device time",
					  "#Share %", "#FLOPs",	  "#Bytes",	 "#TFLOP/s",
					  "#TB/s",    NULL };
	static const char *const th[] = { "TraceLens category", "#Ops", "#Device time", NULL };
	static const char *const gh[] = { "Op", "Input Dims", "Category", "dtype", "#Calls",
					  "#Device time", "#TFLOP/s", "#% of peak", "#TB/s",
					  "#% of bandwidth", "#FLOP/byte", NULL };
	const json_t *v, *groups = json_object_get(pm, "groups");
	size_t i, n = 0;
	pr_label_t *lab, *dlab;
	pr_strbuf_addstr(sb, "<h4>Perf model: op categories, FLOPs, bytes, roofline</h4>\n<p>");
	esc(sb, pr_mstr(pm, "scope"));
	pr_strbuf_addf(sb, ": %lld activities linked, %lld not (left out).</p>\n",
		       pr_mll(pm, "linked_activities"), pr_mll(pm, "unlinked_activities"));
	pm_peaks_line(sb, pm);
	pr_html_table_begin(sb, ch);
	json_array_foreach(json_object_get(pm, "categories"), i, v)
	{
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(v, "category"));
		tdf(sb, pr_mnum(v, "ops"), 0);
		tdf(sb, pr_mnum(v, "activities"), 0);
		tdn(sb, pr_mnum(v, "device_ns"), "ns");
		tdf(sb, pr_mnum(v, "pct"), 2);
		tdf(sb, pr_mnum(v, "flops"), -1);
		tdn(sb, pr_mnum(v, "bytes"), "bytes");
		tdf(sb, pr_mnum(v, "tflops"), 3);
		tdf(sb, pr_mnum(v, "tbps"), 3);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	table_end(sb, i, i);
	pr_html_table_begin(sb, th);
	json_array_foreach(json_object_get(pm, "tracelens_categories"), i, v)
	{
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(v, "category"));
		tdf(sb, pr_mnum(v, "ops"), 0);
		tdn(sb, pr_mnum(v, "device_ns"), "ns");
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	table_end(sb, i, i);
	gpu_figures(sb, f, "perf_roofline");
	if (!json_array_size(groups))
		return;
	lab = pr_html_name_column(groups, "name", PR_HTML_ROWS);
	dlab = pr_html_name_column(groups, "input_dims", PR_HTML_ROWS); /* distinct when cut */
	pr_strbuf_addstr(sb, "<p>Op groups (name, Input Dims, Input type), largest device time "
			     "first; % of peak against the group's dtype.</p>\n");
	pr_html_table_begin(sb, gh);
	json_array_foreach(groups, i, v)
	{
		if (n >= PR_HTML_ROWS)
			break;
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td_shown(sb, pr_mstr(v, "name"), lab[i]);
		pr_html_td_shown(sb, pr_mstr(v, "input_dims"), dlab[i]);
		pr_html_td(sb, pr_mstr(v, "category"));
		pr_html_td(sb, pr_mstr(v, "dtype"));
		tdf(sb, pr_mnum(v, "calls"), 0);
		tdn(sb, pr_mnum(v, "device_ns"), "ns");
		tdf(sb, pr_mnum(v, "tflops"), 3);
		tdf(sb, pr_mnum(v, "pct_peak_flops"), 1);
		tdf(sb, pr_mnum(v, "tbps"), 3);
		tdf(sb, pr_mnum(v, "pct_peak_bw"), 1);
		tdf(sb, pr_mnum(v, "flop_per_byte"), 3);
		pr_strbuf_addstr(sb, "</tr>\n");
		n++;
	}
	free(lab);
	free(dlab);
	table_end(sb, n, (size_t)pr_mll(pm, "groups_total"));
}

/*
 * The CUPTI range profiler's counters per op (cupti_ranges): the ops by FLOPs with their
 * ranges and the first RANGE_COLS counters (in name order), and what the ranges' time is.
 */
#define RANGE_COLS 4
static void cupti_ranges_table(struct pr_strbuf *sb, const json_t *run)
{
	const json_t *cr = json_object_get(run, "cupti_ranges");
	const json_t *ops = json_object_get(cr, "by_op"), *cs = json_object_get(cr, "counters"), *v;
	const char *h[RANGE_COLS + 4] = { "Op (nearest above the launch)", "#Ranges", "#FLOPs" };
	char *heads[RANGE_COLS];
	size_t i, j, n = json_array_size(ops), nc = json_array_size(cs);
	char a[64];
	if (!json_is_object(cr))
		return;
	if (nc > RANGE_COLS)
		nc = RANGE_COLS;
	pr_fmt_duration(pr_mnum(cr, "replay_ns"), a, sizeof(a));
	pr_strbuf_addf(sb,
		       "<h4>CUPTI range profiler: counters per op</h4>\n<p>%.0f ranges, "
		       "%.0f linked to their cudaLaunchKernel call; their %s are kernel "
		       "replay, kept out of GPU time and utilisation.</p>\n",
		       pr_mnum(cr, "ranges"), pr_mnum(cr, "linked"), a);
	if (!n)
		return;
	for (j = 0; j < nc; j++) {
		const char *name = pr_mstr(json_array_get(cs, j), "name");
		size_t len = strlen(name);
		heads[j] = pr_xmalloc(len + 2);
		heads[j][0] = '#';
		memcpy(heads[j] + 1, name, len + 1);
		h[3 + j] = heads[j];
	}
	h[3 + nc] = NULL;
	pr_html_table_begin(sb, h);
	json_array_foreach(ops, i, v)
	{
		const json_t *cv = json_object_get(v, "counters");
		if (i == PR_HTML_ROWS)
			break;
		pr_strbuf_addstr(sb, "<tr>");
		tdt(sb, pr_mstr(v, "op"));
		tdf(sb, pr_mnum(v, "ranges"), 0);
		tdf(sb, pr_mnum(v, "flops"), 0);
		for (j = 0; j < nc; j++)
			tdf(sb, pr_mnum(cv, pr_mstr(json_array_get(cs, j), "name")), 0);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	for (j = 0; j < nc; j++)
		free(heads[j]);
	table_end(sb, n < PR_HTML_ROWS ? n : PR_HTML_ROWS, n);
}

/*
 * The "GPU" section: present when the run has any GPU section, collectives
 * or GPU samples. Each panel (render/gpu_panel.h) comes right before the
 * table with its numbers.
 */
static int gpu_section(struct pr_strbuf *sb, const json_t *run, const char *idp, struct pr_error *err)
{
	const json_t *g = json_object_get(run, "gpu"), *gb = json_object_get(run, "gpu_breakdown");
	const json_t *s = json_object_get(run, "step_breakdown");
	const json_t *b = json_object_get(run, "bottlenecks");
	struct pr_panelset *ps;
	struct gfig f;
	if (!json_is_object(g) && !json_is_object(gb) && !json_is_object(s) &&
	    !json_array_size(json_object_get(json_object_get(run, "collectives"), "items")) &&
	    !json_is_object(json_object_get(run, "cupti_ranges")) &&
	    !json_is_object(json_object_get(b, "gpu_kernels")) && !json_array_size(json_object_get(b, "gpu_util")))
		return 0;
	ps = pr_panelset_new();
	pr_gpu_panels_add(ps, run);
	pr_perf_panels_add(ps, run);
	f = (struct gfig){ ps, idp, err, 0 };
	pr_strbuf_addstr(sb, "<h3>GPU");
	if (json_is_string(json_object_get(g, "device_type"))) {
		pr_strbuf_addstr(sb, " (");
		esc(sb, pr_mstr(g, "device_type"));
		pr_strbuf_addstr(sb, ")");
	}
	pr_strbuf_addstr(sb, "</h3>\n");
	gpu_util_table(sb, run);
	gpu_kernels_table(sb, run);
	if (json_is_object(gb))
		gpu_breakdown_tables(sb, gb, &f);
	if (json_is_object(g))
		gpu_link_tables(sb, g, &f);
	if (json_is_object(s))
		step_breakdown_table(sb, s, &f);
	if (json_is_object(json_object_get(run, "perf_model")))
		perf_model_tables(sb, json_object_get(run, "perf_model"), &f);
	collectives_table(sb, run);
	cupti_ranges_table(sb, run);
	pr_panelset_free(ps);
	return f.rc;
}

/* ---- critical path (an_critpath.c) ---- */

static const char *const cp_keys[] = { "cpu_op",	  "launch",
				       "kernel_compute", "kernel_communication",
				       "kernel_memory",	  "sync",
				       "idle" };
static const char *const cp_labels[] = { "CPU ops",		  "launch",
					 "kernels: compute",	  "kernels: communication",
					 "kernels: memory",	  "sync",
					 "idle" };
static const char *const cp_colors[] = { "cpu_exec", "runtime", "compute", "communication",
					 "memory",   "host_wait", "idle" };

/* One stacked bar per analysed step (the first 40): each class's share of the step's path. */
static int critpath_bar(struct pr_strbuf *sb, const json_t *cp, const char *idp,
			struct pr_error *err)
{
	const json_t *st = json_object_get(cp, "steps"), *v;
	size_t n = json_array_size(st), i, k, nk = PR_ARRAY_SIZE(cp_keys);
	struct pr_panelset *ps;
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart *c;
	const char **cat;
	char svgp[48];
	int rc;
	if (!n)
		return 0;
	if (n > PR_GPU_PANEL_MAX_STEPS)
		n = PR_GPU_PANEL_MAX_STEPS;
	ps = pr_panelset_new();
	cat = pr_panelset_alloc(ps, n, sizeof(*cat));
	g = pr_panelset_alloc(ps, nk, sizeof(*g));
	for (k = 0; k < nk; k++) {
		g[k].label = cp_labels[k];
		g[k].rgb = pr_gpu_color(cp_colors[k]);
		g[k].values = pr_panelset_alloc(ps, n, sizeof(double));
	}
	json_array_foreach(st, i, v)
	{
		const json_t *comp = json_object_get(v, "composition_ns");
		double len = pr_mnum(v, "length_ns");
		if (i == n)
			break;
		cat[i] = pr_panelset_strdup(ps, pr_mstr(v, "name"));
		for (k = 0; k < nk; k++) {
			double x = pr_mnum(comp, cp_keys[k]);
			((double *)g[k].values)[i] = len > 0 ? 100 * x / len : 0;
		}
	}
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ cat, n, g, nk, 1, 0, 1, 0 };
	c = pr_panelset_add(ps, "critical_path", "Critical path by class, per step");
	c->bars = b;
	c->x_label = "Share of the step's path";
	c->x_unit = "%";
	c->y_label = json_array_size(st) > n ? "Step (the first 40)" : "Step";
	c->legend_title = "On the path";
	snprintf(svgp, sizeof(svgp), "%sc", idp);
	rc = html_panel(sb, ps, 0, idp, svgp, err);
	pr_panelset_free(ps);
	return rc;
}

/* A top list of the path (ops or kernels): name, time on the path, share. */
static void critpath_top(struct pr_strbuf *sb, const json_t *l, const char *what, int kernels)
{
	static const char *const h[] = { "Name", "#On the path", "#Share %", NULL };
	static const char *const hk[] = { "Name", "Class", "#On the path", "#Share %", NULL };
	pr_label_t *lab;
	const json_t *v;
	size_t i, n = json_array_size(l);
	if (!n)
		return;
	pr_strbuf_addf(sb, "<h4>%s on the critical path</h4>\n", what);
	lab = pr_html_name_column(l, "name", n);
	pr_html_table_begin(sb, kernels ? hk : h);
	json_array_foreach(l, i, v)
	{
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td_shown(sb, pr_mstr(v, "name"), lab[i]);
		if (kernels)
			tdt(sb, pr_mstr(v, "class"));
		tdn(sb, pr_mnum(v, "ns"), "ns");
		tdpct(sb, v, "share", 1);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	free(lab);
	table_end(sb, n, n);
}

/*
 * The "Critical path" section: the composition of the analysed steps' paths
 * (a table, and a stacked bar per step), then the ops and kernels on them.
 */
static int critpath_section(struct pr_strbuf *sb, const json_t *run, const char *idp,
			    struct pr_error *err)
{
	static const char *const h[] = { "On the path", "#Time", "#Share %", NULL };
	const json_t *cp = json_object_get(run, "critical_path");
	const json_t *comp = json_object_get(cp, "composition_ns");
	double len = pr_mnum(cp, "length_ns");
	char a[40];
	size_t k;
	if (!json_is_object(cp))
		return 0;
	pr_strbuf_addstr(sb, "<h3>Critical path</h3>\n<p>");
	if (!strcmp(pr_mstr(cp, "scope"), "steps"))
		pr_strbuf_addf(sb, "%lld step%s analysed", pr_mll(cp, "steps_analysed"),
			       pr_mll(cp, "steps_analysed") == 1 ? "" : "s");
	else
		pr_strbuf_addstr(sb, "The whole trace (it has no steps)");
	pr_fmt_duration(len, a, sizeof(a));
	pr_strbuf_addf(sb, ", %s on the path%s: at each point, the dependency it waited for "
			   "(CPU op order, launches, stream order, synchronisations).",
		       a, pr_mll(cp, "steps_analysed") == 1 ? "" : "s");
	if (pr_mll(cp, "steps_over_budget") > 0 && strcmp(pr_mstr(cp, "scope"), "steps"))
		pr_strbuf_addf(sb, " No path: the trace is past the budget of %lld events.",
			       pr_mll(cp, "events_budget"));
	else if (pr_mll(cp, "steps_over_budget") > 0)
		pr_strbuf_addf(sb, " %lld step%s left out: over the budget of %lld events.",
			       pr_mll(cp, "steps_over_budget"),
			       pr_mll(cp, "steps_over_budget") == 1 ? "" : "s",
			       pr_mll(cp, "events_budget"));
	pr_strbuf_addstr(sb, "</p>\n");
	if (critpath_bar(sb, cp, idp, err))
		return -1;
	pr_html_table_begin(sb, h);
	for (k = 0; k < PR_ARRAY_SIZE(cp_keys); k++) {
		double v = pr_mnum(comp, cp_keys[k]);
		pr_strbuf_addstr(sb, "<tr>");
		tdt(sb, cp_labels[k]);
		tdn(sb, v, "ns");
		tdf(sb, len > 0 ? 100 * v / len : NAN, 1);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	table_end(sb, PR_ARRAY_SIZE(cp_keys), PR_ARRAY_SIZE(cp_keys));
	critpath_top(sb, json_object_get(cp, "top_ops"), "Ops", 0);
	critpath_top(sb, json_object_get(cp, "top_kernels"), "Kernels", 1);
	return 0;
}

/* format, extent, findings: what the navigation and a folded section say of a run */
static void run_brief(struct pr_strbuf *sb, const json_t *run)
{
	json_t *recs = json_object_get(run, "recommendations"), *r;
	size_t i, high = 0;
	char a[64];
	json_array_foreach(recs, i, r)
		high += !strcmp(pr_mstr(r, "severity"), "high");
	pr_fmt_x(run, pr_mnum(json_object_get(run, "clock"), "duration_ns"), a, sizeof(a));
	pr_strbuf_addstr(sb, "<span class=\"brief\">");
	esc(sb, pr_mstr(run, "format"));
	pr_strbuf_addstr(sb, " &middot; ");
	esc(sb, a);
	pr_strbuf_addf(sb, " &middot; %zu finding%s", json_array_size(recs), json_array_size(recs) == 1 ? "" : "s");
	if (high)
		pr_strbuf_addf(sb, " (%zu high)", high);
	pr_strbuf_addstr(sb, "</span>");
}

/*
 * The navigation of a page of several runs: one entry per run, numbered with
 * the run's number (its section is #run-<ID>), named by pr_html_run_names, in
 * a grid that wraps; a name too long for its cell ends in an ellipsis, the
 * whole in its title.
 */
static void runs_nav(struct pr_strbuf *sb, const json_t *const *runs, char *const *names, size_t n)
{
	size_t i;
	pr_strbuf_addf(sb, "<nav class=\"toc\" aria-label=\"runs\"><p class=\"meta\">%zu runs%s</p><ol>", n,
		       n > PR_HTML_RUNS_OPEN ? " (folded: a link opens its run, a click on a run's heading folds "
					       "or unfolds it)"
					     : "");
	for (i = 0; i < n; i++) {
		pr_strbuf_addf(sb, "<li><a href=\"#run-%lld\" title=\"", pr_mll(runs[i], "id"));
		esc(sb, pr_mstr(runs[i], "source"));
		pr_strbuf_addf(sb, "\"><span class=\"no\">%lld</span>", pr_mll(runs[i], "id"));
		esc(sb, names[i]);
		pr_strbuf_addstr(sb, "</a> ");
		run_brief(sb, runs[i]);
		pr_strbuf_addstr(sb, "</li>");
	}
	pr_strbuf_addstr(sb, "</ol></nav>\n");
}

/* The components of a path, last first: "a/b/c.json" -> "c.json", "b", "a". */
static size_t path_parts(const char *path, const char **part, size_t *len, size_t max)
{
	const char *end = path + strlen(path), *p;
	size_t k = 0;
	while (end > path && k < max) {
		while (end > path && end[-1] == '/')
			end--;
		for (p = end; p > path && p[-1] != '/'; p--)
			;
		if (p == end)
			break;
		part[k] = p;
		len[k++] = (size_t)(end - p);
		end = p;
	}
	return k;
}

#define NAME_DIRS 16 /* directories of a source looked at to tell two runs apart */
#define ELLIPSIS "\xe2\x80\xa6" /* U+2026: directories left out */

/* The last `dirs` directories of run's source, then its label: "sub/dir/label". */
static char *name_with_dirs(const json_t *run, size_t dirs)
{
	const char *part[NAME_DIRS + 1];
	size_t len[NAME_DIRS + 1], k = path_parts(pr_mstr(run, "source"), part, len, NAME_DIRS + 1), i;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	/* part[0] is the file itself: the label names it */
	if (dirs > (k ? k - 1 : 0))
		dirs = k ? k - 1 : 0;
	for (i = dirs; i >= 1; i--) {
		pr_strbuf_add(&sb, part[i], len[i]);
		pr_strbuf_addstr(&sb, "/");
	}
	pr_strbuf_addstr(&sb, pr_mstr(run, "label"));
	return pr_strbuf_detach(&sb, NULL);
}

/*
 * The depth (1 = the file's directory) of the first directory, going up,
 * where the sources of a and b differ; 0 when they do not within NAME_DIRS.
 */
static size_t first_diff(const json_t *a, const json_t *b)
{
	const char *pa[NAME_DIRS + 1], *pb[NAME_DIRS + 1];
	size_t la[NAME_DIRS + 1], lb[NAME_DIRS + 1], d;
	size_t ka = path_parts(pr_mstr(a, "source"), pa, la, NAME_DIRS + 1);
	size_t kb = path_parts(pr_mstr(b, "source"), pb, lb, NAME_DIRS + 1);
	for (d = 1; d <= NAME_DIRS && (d < ka || d < kb); d++) {
		if (d >= ka || d >= kb || la[d] != lb[d] || memcmp(pa[d], pb[d], la[d]))
			return d;
	}
	return 0;
}

/*
 * The directories at the depths of `mask` (bit d = depth d), outermost
 * first, then the label; a run of left-out directories between them (or
 * before the label) is one ELLIPSIS: "resnet50_num_workers_0/.../trace.json".
 */
static char *name_with_mask(const json_t *run, unsigned long mask)
{
	const char *part[NAME_DIRS + 1];
	size_t len[NAME_DIRS + 1], d;
	size_t k = path_parts(pr_mstr(run, "source"), part, len, NAME_DIRS + 1);
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int gap = 0, any = 0;
	for (d = k ? k - 1 : 0; d >= 1; d--) {
		if (!(mask & (1UL << d))) {
			gap = any;
			continue;
		}
		if (gap)
			pr_strbuf_addstr(&sb, ELLIPSIS "/");
		pr_strbuf_add(&sb, part[d], len[d]);
		pr_strbuf_addstr(&sb, "/");
		gap = 0;
		any = 1;
	}
	if (any && !(mask & 2UL))
		pr_strbuf_addstr(&sb, ELLIPSIS "/");
	pr_strbuf_addstr(&sb, pr_mstr(run, "label"));
	return pr_strbuf_detach(&sb, NULL);
}

struct name_key {
	const char *s;
	size_t i;
};

static int cmp_name_key(const void *x, const void *y)
{
	const struct name_key *a = x, *b = y;
	int c = strcmp(a->s, b->s);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* keys[0..n) sorted by text: runs of equal texts are neighbours. */
static struct name_key *sorted_keys(const char *const *texts, size_t n)
{
	struct name_key *k = pr_xcalloc(n + 1, sizeof(*k));
	size_t i;
	for (i = 0; i < n; i++) {
		k[i].s = texts[i];
		k[i].i = i;
	}
	qsort(k, n, sizeof(*k), cmp_name_key);
	return k;
}

char **pr_html_run_names(const json_t *const *runs, size_t n)
{
	char **names = pr_xcalloc(n + 1, sizeof(char *)), *same;
	const char **labels = pr_xcalloc(n + 1, sizeof(*labels));
	struct name_key *k;
	size_t i, j, g, e;
	for (i = 0; i < n; i++)
		labels[i] = pr_mstr(runs[i], "label");
	/* runs of one label (neighbours in k): each named by every directory
	 * where it first differs from another of them */
	k = sorted_keys(labels, n);
	for (g = 0; g < n; g = e) {
		for (e = g + 1; e < n && !strcmp(k[e].s, k[g].s); e++)
			;
		for (i = g; i < e; i++) {
			const json_t *r = runs[k[i].i];
			unsigned long mask = 0;
			for (j = g; j < e; j++)
				if (j != i)
					mask |= 1UL << first_diff(r, runs[k[j].i]);
			if (e - g == 1)
				names[k[i].i] = pr_xstrdup(k[i].s);
			else if (mask & ~1UL)
				names[k[i].i] = name_with_mask(r, mask & ~1UL);
			else /* one source given twice (different content), or too deep */
				names[k[i].i] = name_with_dirs(r, 1);
		}
	}
	free(k);
	free(labels);
	/* names still alike (one source twice): the run's number tells them apart */
	same = pr_xcalloc(n + 1, 1);
	k = sorted_keys((const char *const *)names, n);
	for (i = 1; i < n; i++)
		if (!strcmp(k[i].s, k[i - 1].s))
			same[k[i].i] = same[k[i - 1].i] = 1;
	free(k);
	for (i = 0; i < n; i++) {
		if (same[i]) {
			size_t m = strlen(names[i]) + 32;
			char *s = pr_xmalloc(m);
			snprintf(s, m, "%s (run %lld)", names[i], pr_mll(runs[i], "id"));
			free(names[i]);
			names[i] = s;
		}
	}
	free(same);
	return names;
}

void pr_html_run_names_free(char **names, size_t n)
{
	size_t i;
	if (!names)
		return;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * A run's section: a <section> on a page of one run; on a page of several a
 * <details> whose summary is the heading (open when there are few runs, folded
 * when there are many: the navigation above lists them). The id is "run-<ID>",
 * the run number shown in the heading and the navigation.
 */
static int run_section(struct pr_strbuf *sb, const json_t *run, size_t runi, const char *name,
		       size_t nruns, struct pr_error *err)
{
	if (nruns > 1) {
		pr_strbuf_addf(sb, "<details class=\"run\" id=\"run-%lld\"%s><summary><h2>", pr_mll(run, "id"),
			       nruns <= PR_HTML_RUNS_OPEN ? " open" : "");
		pr_strbuf_addf(sb, "Run %lld: ", pr_mll(run, "id"));
		esc(sb, name);
		pr_strbuf_addstr(sb, "</h2> ");
		run_brief(sb, run);
		pr_strbuf_addstr(sb, "</summary>\n");
	} else {
		pr_strbuf_addf(sb, "<section class=\"run\" id=\"run-%lld\"><h2>", pr_mll(run, "id"));
		pr_strbuf_addf(sb, "Run %lld: ", pr_mll(run, "id"));
		esc(sb, name);
		pr_strbuf_addstr(sb, "</h2>\n");
	}
	metadata(sb, run);
	cards(sb, run);
	recommendations(sb, run);
	/* where the time goes: named slices, operators, kernels, call stacks */
	pr_html_trace_view(sb, run, runi);
	pr_html_op_view(sb, run, runi);
	pr_html_kernel_view(sb, run, runi);
	pr_html_flame(sb, run, runi);
	{
		char idp[32];
		snprintf(idp, sizeof(idp), "r%zu-", runi);
		if (pr_html_panels(sb, pr_panels_build_general(run), idp, err))
			return -1;
	}
	{
		size_t nd = pr_panels_device_count(run);
		if (nd > PR_PANELS_MAX_DEVICES)
			pr_strbuf_addf(sb,
				       "<p class=\"capped\">Device memory: %zu devices; the %d with "
				       "the largest reserved peak have a panel, %zu more do not (the "
				       "JSON model has them all).</p>\n",
				       nd, PR_PANELS_MAX_DEVICES, nd - PR_PANELS_MAX_DEVICES);
	}
	alloc_tree(sb, run);
	cuda_snapshot(sb, run);
	heap_totals(sb, run);
	counters_table(sb, run);
	phases_tables(sb, run);
	{
		char idp[32];
		snprintf(idp, sizeof(idp), "r%zu-", runi);
		if (gpu_section(sb, run, idp, err) || critpath_section(sb, run, idp, err))
			return -1;
	}
	spans_table(sb, run);
	layers_table(sb, run);
	crosscheck_table(sb, run);
	series_table(sb, run);
	diagnostics_table(sb, run);
	pr_strbuf_addstr(sb, nruns > 1 ? "</details>\n" : "</section>\n");
	return 0;
}

/* Expands {{name}} in the page template; values are already HTML. */
int pr_html_page(const char *title, const char *subtitle, const char *body, struct pr_output *out,
		 struct pr_error *err)
{
	struct pr_strbuf sb = PR_STRBUF_INIT, t = PR_STRBUF_INIT, s = PR_STRBUF_INIT;
	const char *p = pr_tpl_report_html;
	int rc;
	esc(&t, title);
	esc(&s, subtitle);
	while (*p) {
		const char *q = strstr(p, "{{");
		const char *e = q ? strstr(q, "}}") : NULL;
		if (!q || !e) {
			pr_strbuf_addstr(&sb, p);
			break;
		}
		pr_strbuf_add(&sb, p, (size_t)(q - p));
		if (!strncmp(q, "{{title}}", 9))
			pr_strbuf_addstr(&sb, t.buf);
		else if (!strncmp(q, "{{subtitle}}", 12))
			pr_strbuf_addstr(&sb, s.buf);
		else if (!strncmp(q, "{{body}}", 8))
			pr_strbuf_addstr(&sb, body);
		else if (!strncmp(q, "{{css}}", 7))
		{
			pr_strbuf_addstr(&sb, pr_tpl_report_css);
			pr_strbuf_addstr(&sb, pr_tpl_trace_css);
			pr_strbuf_addstr(&sb, pr_tpl_views_css);
			pr_strbuf_addstr(&sb, pr_tpl_flame_css);
		}
		else if (!strncmp(q, "{{js}}", 6))
		{
			pr_strbuf_addstr(&sb, pr_tpl_report_js);
			pr_strbuf_addstr(&sb, pr_tpl_trace_js);
			pr_strbuf_addstr(&sb, pr_tpl_views_js);
			pr_strbuf_addstr(&sb, pr_tpl_flame_js);
			/* every view is built: bench/page_bench.js reads this mark */
			pr_strbuf_addstr(&sb, "if (window.performance && performance.mark) "
					      "performance.mark(\"pr-ready\");\n");
		}
		p = e + 2;
	}
	rc = pr_output_write(out, sb.buf, sb.len);
	pr_strbuf_release(&sb);
	pr_strbuf_release(&t);
	pr_strbuf_release(&s);
	return rc ? pr_output_error(out, err) : 0;
}

static pr_html_progress_fn *progress_fn;
static void *progress_ctx;

void pr_html_set_progress(pr_html_progress_fn *fn, void *ctx)
{
	progress_fn = fn;
	progress_ctx = ctx;
}

int pr_html_report(const json_t *model, json_t *const *runs, size_t nruns, struct pr_output *out,
		   struct pr_error *err)
{
	struct pr_strbuf body = PR_STRBUF_INIT;
	json_t *all = json_object_get(model, "runs");
	char title[300], sub[300], **names;
	const json_t **list;
	size_t i, n = runs ? nruns : json_array_size(all);
	int rc = 0;
	list = pr_xcalloc(n + 1, sizeof(*list));
	for (i = 0; i < n; i++)
		list[i] = runs ? runs[i] : json_array_get(all, i);
	names = pr_html_run_names(list, n);
	if (n > 1)
		runs_nav(&body, list, names, n);
	for (i = 0; i < n && !rc; i++) {
		if (progress_fn)
			progress_fn(progress_ctx, i + 1, n, pr_mstr(list[i], "label"));
		rc = run_section(&body, list[i], i, names[i], n, err);
	}
	if (!n)
		pr_strbuf_addstr(&body, "<p>No runs.</p>");
	if (n == 1)
		snprintf(title, sizeof(title), "profreport: %s", pr_mstr(list[0], "label"));
	else
		snprintf(title, sizeof(title), "profreport: %zu runs", n);
	snprintf(sub, sizeof(sub), "Analysis model %s v%lld", pr_mstr(model, "schema"),
		 pr_mll(model, "version"));
	if (!rc)
		rc = pr_html_page(title, sub, body.buf, out, err);
	pr_html_run_names_free(names, n);
	free(list);
	pr_strbuf_release(&body);
	return rc;
}

/* ---- archive index ---- */

/* The memory a run is read for: physical, then device, then GPU, else its largest (not sys.). */
static const json_t *primary_peak(const json_t *run)
{
	static const char *const prefer[] = { "mem.rss", "dev.mem.allocated", "gpu.mem.used", "dev.mem.total",
					      "heap.used" };
	const json_t *pk, *best = NULL;
	size_t i, k;
	for (k = 0; k < PR_ARRAY_SIZE(prefer) && !best; k++)
		json_array_foreach(json_object_get(run, "peaks"), i, pk)
			if (!strcmp(pr_mstr(pk, "series"), prefer[k]) &&
			    (!best || pr_mnum(pk, "value") > pr_mnum(best, "value")))
				best = pk;
	json_array_foreach(json_object_get(run, "peaks"), i, pk)
		if (!best && strncmp(pr_mstr(pk, "series"), "sys.", 4))
			best = pk;
	return best;
}

static double throughput(const json_t *run, const char **what)
{
	json_t *t = json_object_get(run, "throughput");
	if (json_is_number(json_object_get(json_object_get(t, "tokens"), "tokens_per_s"))) {
		*what = "tokens/s";
		return pr_mnum(json_object_get(t, "tokens"), "tokens_per_s");
	}
	if (json_is_object(json_object_get(t, "blocks"))) {
		*what = "FPS";
		return pr_mnum(json_object_get(t, "blocks"), "fps");
	}
	if (json_is_object(json_object_get(t, "steps"))) {
		*what = "steps/s";
		return pr_mnum(json_object_get(t, "steps"), "per_s");
	}
	*what = "";
	return NAN;
}

/* The numbers the index trends: one chart per metric (and its series or unit) and kind of run. */
enum { T_PEAK, T_STEP, T_THROUGHPUT, T_DURATION, T_METRICS };
static const char *const trend_name[T_METRICS] = { "Peak memory", "Step time p50", "Throughput", "Duration" };

/* Metric m of run: its value, its unit and what tells its kind apart (a series, a rate). 0 when absent. */
static int trend_value(const json_t *run, int m, double *v, const char **unit, char *sub, size_t n)
{
	const json_t *clock = json_object_get(run, "clock");
	*sub = 0;
	*unit = "ns";
	if (m == T_PEAK) {
		const json_t *pk = primary_peak(run);
		if (!pk)
			return 0;
		snprintf(sub, n, "%s%s%s", pr_mstr(pk, "series"), *pr_mstr(pk, "device") ? " " : "",
			 pr_mstr(pk, "device"));
		*unit = "bytes";
		*v = pr_mnum(pk, "value");
	} else if (m == T_STEP) {
		*v = pr_mnum(json_object_get(json_object_get(run, "throughput"), "steps"), "p50_ns");
	} else if (m == T_THROUGHPUT) {
		*v = throughput(run, unit);
		snprintf(sub, n, "%s", *unit);
	} else {
		/* a time extent only: not massif's instructions or bytes, not a synthetic clock */
		if (pr_run_x_unit(run) || json_is_true(json_object_get(clock, "synthetic")))
			return 0;
		*v = pr_mnum(clock, "duration_ns");
	}
	return isfinite(*v);
}

/* A run's kind for the trends: its format and collector ("chrome / torch.profiler"). */
static void run_kind(const json_t *run, char *buf, size_t n)
{
	snprintf(buf, n, "%s / %s", pr_mstr(run, "format"),
		 *pr_mstr(run, "collector") ? pr_mstr(run, "collector") : "-");
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
	esc(sb, title);
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
 * (analyze/changes.h, as `profreport changes`), marked on the chart by dashed lines between the
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
			esc(sb, rows[r].href);
			pr_strbuf_addf(sb, "\">#%zu ", r + 1);
			esc(sb, pr_mstr(rows[r].run, "label"));
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
static int trends(struct pr_strbuf *sb, const struct pr_html_index_row *rows, size_t n, struct pr_error *err)
{
	struct trend_key *keys = pr_xcalloc(n * T_METRICS + 1, sizeof(*keys)), k;
	double *x = pr_xcalloc(n + 1, sizeof(double)), *y = pr_xcalloc(n + 1, sizeof(double)), v;
	size_t *ridx = pr_xcalloc(n + 1, sizeof(*ridx));
	size_t nk = 0, i, j, charts = 0, single = 0;
	int m, rc = 0;
	for (i = 0; i < n; i++)
		for (m = 0; m < T_METRICS; m++)
			if (trend_value(rows[i].run, m, &v, &keys[nk].unit, keys[nk].sub, sizeof(keys[nk].sub))) {
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
		for (r = 0; r < n; r++) {
			struct trend_key t;
			run_kind(rows[r].run, t.kind, sizeof(t.kind));
			if (strcmp(t.kind, k.kind) ||
			    !trend_value(rows[r].run, k.metric, &v, &t.unit, t.sub, sizeof(t.sub)) ||
			    strcmp(t.sub, k.sub))
				continue;
			x[cnt] = (double)(r + 1);
			ridx[cnt] = r;
			y[cnt++] = v;
		}
		snprintf(ylabel, sizeof(ylabel), "%s%s%s%s", trend_name[k.metric], *k.sub ? " (" : "", k.sub,
			 *k.sub ? ")" : "");
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
		pr_strbuf_addf(sb, "<p class=\"capped\">%zu metric%s of a kind with a single run: no trend.</p>\n",
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

/* The length of the directories (up to a '/') that every run's source starts with. */
static size_t common_dirs(const struct pr_html_index_row *rows, size_t n)
{
	const char *first = n ? pr_mstr(rows[0].run, "source") : "";
	size_t len = strlen(first), i, k;
	if (n < 2)
		return 0;
	for (i = 1; i < n; i++) {
		const char *s = pr_mstr(rows[i].run, "source");
		for (k = 0; k < len && s[k] == first[k]; k++)
			;
		len = k;
	}
	while (len > 0 && first[len - 1] != '/')
		len--;
	return len;
}

int pr_html_index(const struct pr_html_index_row *rows, size_t n, struct pr_output *out,
		  struct pr_error *err)
{
	return pr_html_index_note(rows, n, NULL, out, err);
}

int pr_html_index_note(const struct pr_html_index_row *rows, size_t n, const char *note,
		       struct pr_output *out, struct pr_error *err)
{
	return pr_html_index_part(rows, n, 0, NULL, 1, note, out, err);
}

static size_t min_z(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The links between the pages of an index split in parts (PR_HTML_INDEX_ROWS runs each). */
static void index_parts_nav(struct pr_strbuf *sb, size_t n, size_t part,
			    const char *const *parts, size_t nparts)
{
	size_t k;
	pr_strbuf_addf(sb,
		       "<nav class=\"index-parts\" aria-label=\"index pages\"><p class=\"meta\">"
		       "Runs %zu-%zu of %zu (%zu a page):", part * PR_HTML_INDEX_ROWS + 1,
		       min_z(n, (part + 1) * PR_HTML_INDEX_ROWS), n, PR_HTML_INDEX_ROWS);
	for (k = 0; k < nparts; k++) {
		size_t lo = k * PR_HTML_INDEX_ROWS + 1, hi = min_z(n, (k + 1) * PR_HTML_INDEX_ROWS);
		if (k == part) {
			pr_strbuf_addf(sb, " <strong>%zu-%zu</strong>", lo, hi);
			continue;
		}
		pr_strbuf_addstr(sb, " <a href=\"");
		esc(sb, parts[k]);
		pr_strbuf_addf(sb, "\">%zu-%zu</a>", lo, hi);
	}
	pr_strbuf_addstr(sb, "</p></nav>\n");
}

/* A run's --meta labels, "key=value" in key order (the model's), in one cell. */
static void meta_td(struct pr_strbuf *sb, const json_t *meta)
{
	const char *k;
	const json_t *v;
	int first = 1;
	pr_strbuf_addstr(sb, "<td class=\"labels\">");
	json_object_foreach((json_t *)meta, k, v) {
		if (!json_is_string(v))
			continue;
		if (!first)
			pr_strbuf_addstr(sb, " ");
		first = 0;
		esc(sb, k);
		pr_strbuf_addch(sb, '=');
		esc(sb, json_string_value(v));
	}
	pr_strbuf_addstr(sb, "</td>");
}

int pr_html_index_part(const struct pr_html_index_row *rows, size_t n, size_t part,
		       const char *const *parts, size_t nparts, const char *note,
		       struct pr_output *out, struct pr_error *err)
{
	static const char *const h[] = { "#", "Run", "Kind", "Source", "Start (UTC)", "#Duration",
					 "#Peak memory", "Series", "#Step p50", "#Throughput", "Unit",
					 "#Recommendations", NULL };
	/* with the runs' --meta labels (commit, branch, ...) after the run's name */
	static const char *const hl[] = { "#", "Run", "Labels", "Kind", "Source", "Start (UTC)",
					  "#Duration", "#Peak memory", "Series", "#Step p50",
					  "#Throughput", "Unit", "#Recommendations", NULL };
	int labels = 0;
	struct pr_strbuf body = PR_STRBUF_INIT;
	const json_t **list = pr_xcalloc(n + 1, sizeof(*list));
	char title[64], **names, kind[300], sub[96];
	size_t i, common = common_dirs(rows, n), lo = part * PR_HTML_INDEX_ROWS;
	size_t hi = min_z(n, lo + PR_HTML_INDEX_ROWS);
	int rc = 0;
	if (nparts < 2)
		hi = n;
	for (i = 0; i < n; i++)
		list[i] = rows[i].run;
	names = pr_html_run_names(list, n);
	pr_strbuf_addstr(&body, "<section class=\"run\"><h2>Runs</h2>\n");
	if (note) {
		pr_strbuf_addstr(&body, "<p class=\"meta archive-note\">");
		esc(&body, note);
		pr_strbuf_addstr(&body, "</p>\n");
	}
	if (part == 0) { /* the trends of every run first, on the first page: where it changed */
		size_t before = body.len;
		rc = trends(&body, rows, n, err);
		if (body.len > before)
			pr_strbuf_addstr(&body, "<h3>Every run</h3>\n");
	}
	if (nparts > 1)
		index_parts_nav(&body, n, part, parts, nparts);
	for (i = 0; i < n && !labels; i++)
		labels = json_object_size(json_object_get(rows[i].run, "meta")) > 0;
	pr_strbuf_addstr(&body, "<div class=\"scroll\">");
	pr_html_table_begin(&body, labels ? hl : h);
	for (i = lo; i < hi; i++) {
		const json_t *r = rows[i].run, *pk = primary_peak(r);
		json_t *clock = json_object_get(r, "clock");
		const char *unit;
		double thr = throughput(r, &unit);
		pr_strbuf_addf(&body, "<tr id=\"row-%zu\"><td class=\"n\" data-v=\"%zu\">%zu</td><td class=\"name\"><a href=\"",
			       i + 1, i + 1, i + 1);
		esc(&body, rows[i].href);
		pr_strbuf_addstr(&body, "\">");
		esc(&body, names[i]);
		pr_strbuf_addstr(&body, "</a></td>");
		if (labels)
			meta_td(&body, json_object_get(r, "meta"));
		run_kind(r, kind, sizeof(kind));
		pr_html_td(&body, kind);
		source_td(&body, pr_mstr(r, "source"), common);
		if (json_is_number(json_object_get(clock, "epoch_start_ns"))) {
			/* a date to read, the Unix seconds to sort by */
			char when[64];
			pr_fmt_utc(pr_mnum(clock, "epoch_start_ns"), when, sizeof(when));
			pr_strbuf_addf(&body, "<td class=\"n\" data-v=\"%.17g\">%s</td>",
				       pr_mnum(clock, "epoch_start_ns") / 1e9, when);
		} else {
			pr_html_td(&body, "-");
		}
		tdn(&body, pr_mnum(clock, "duration_ns"), "ns");
		tdn(&body, pk ? pr_mnum(pk, "value") : NAN, "bytes");
		pr_html_td(&body, pk ? pr_mstr(pk, "series") : "");
		tdn(&body, pr_mnum(json_object_get(json_object_get(r, "throughput"), "steps"), "p50_ns"), "ns");
		tdf(&body, thr, 3);
		pr_html_td(&body, unit);
		tdf(&body, (double)json_array_size(json_object_get(r, "recommendations")), 0);
		pr_strbuf_addstr(&body, "</tr>\n");
	}
	table_end(&body, hi - lo, hi - lo);
	pr_strbuf_addstr(&body, "</div>\n");
	pr_strbuf_addstr(&body, "</section>\n");
	snprintf(title, sizeof(title), "profreport: %zu archived runs", n);
	if (nparts > 1)
		snprintf(sub, sizeof(sub), "Index of the reports in this directory: runs %zu-%zu",
			 lo + 1, hi);
	else
		snprintf(sub, sizeof(sub), "Index of the reports in this directory");
	if (!rc)
		rc = pr_html_page(title, sub, body.buf, out, err);
	pr_strbuf_release(&body);
	pr_html_run_names_free(names, n);
	free(list);
	return rc;
}
