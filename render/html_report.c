/*
 * html_report.c - the single-file HTML report: the page frame, the run
 * sections and what they hold but the GPU part (html_gpu.c); the archive
 * index is html_index.c, the cells, tables and panels html_util.c.
 */
#include "base/changes.h"
#include "analyze/model.h"
#include "render/html_report.h"
#include "render/html_gpu.h"
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
#include "render/tables.h"
#include "render/units.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

extern const char pr_tpl_report_html[], pr_tpl_report_css[], pr_tpl_report_js[];
extern const char pr_tpl_trace_css[], pr_tpl_views_css[], pr_tpl_flame_css[];
extern const char pr_tpl_trace_js[], pr_tpl_views_js[], pr_tpl_flame_js[];

/* ---- sections ---- */

/* A card: value, label, an optional second line (sub), data-card key and title (hover). */
static void card_k(struct pr_strbuf *sb, const char *value, const char *label, const char *sub,
		   const char *key, const char *title)
{
	pr_strbuf_addstr(sb, "<div class=\"card\"");
	if (key) {
		pr_strbuf_addstr(sb, " data-card=\"");
		pr_html_esc(sb, key);
		pr_strbuf_addch(sb, '"');
	}
	if (title) {
		pr_strbuf_addstr(sb, " title=\"");
		pr_html_esc(sb, title);
		pr_strbuf_addch(sb, '"');
	}
	pr_strbuf_addstr(sb, "><div class=\"v\">");
	pr_html_esc(sb, value);
	pr_strbuf_addstr(sb, "</div><div class=\"l\">");
	pr_html_esc(sb, label);
	if (sub) {
		pr_strbuf_addstr(sb, "</div><div class=\"l held\">");
		pr_html_esc(sb, sub);
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
	const char *l = pr_mstr(o, PRK_PEAKS_LABEL);
	return *l ? l : pr_mstr(o, name_key);
}

/*
 * The first screen: the GPU-busy share on a GPU page (as the GPU section states it), the peaks
 * of the memory series in the model's order (the primary series first; the model has no peak
 * for a series that stays at 0), then the run's duration, steps, rates and findings.
 */
static void cards(struct pr_strbuf *sb, const json_t *run)
{
	json_t *pk, *t = json_object_get(run, PRK_THROUGHPUT),
		    *st = json_object_get(t, PRK_THROUGHPUT_STEPS);
	json_t *recs = json_object_get(run, PRK_RECOMMENDATIONS), *r;
	json_t *gr =
		json_object_get(json_object_get(run, PRK_GPU_BREAKDOWN), PRK_GPU_BREAKDOWN_RANK);
	char a[64], b[160], c[160], d[96], h[400];
	size_t i, high = 0;
	pr_strbuf_addstr(sb, "<div class=\"cards\">");
	if (json_is_number(json_object_get(gr, PRK_GPU_BREAKDOWN_RANK_BUSY_SHARE))) {
		snprintf(a, sizeof(a), "%.2f %%",
			 pr_mnum(gr, PRK_GPU_BREAKDOWN_RANK_BUSY_SHARE) * 100);
		card_k(sb, a, "GPU busy (scope all: first to last GPU op)", NULL, "gpu-busy",
		       "gpu_breakdown.rank.busy_share: GPU ops' union over the first to last op");
	}
	json_array_foreach (json_object_get(run, PRK_PEAKS), i, pk) {
		const char *dev = pr_mstr(pk, PRK_PEAKS_DEVICE);
		const json_t *hb = json_object_get(pk, PRK_PEAKS_HELD_BY);
		const char *sub = NULL;
		char e[64];
		if (i >= 3)
			break;
		pr_fmt_bytes(pr_mnum(pk, PRK_PEAKS_VALUE), a, sizeof(a));
		snprintf(b, sizeof(b), "Peak %s%s%s", series_label(pk, PRK_PEAKS_SERIES),
			 *dev ? " " : "", dev);
		/* the raw name, and what holds the peak by which rule (peaks[].held_by) */
		snprintf(c, sizeof(c), "%s%s%s", pr_mstr(pk, PRK_PEAKS_SERIES), *dev ? " " : "",
			 dev);
		if (json_is_object(hb)) {
			snprintf(h, sizeof(h), "%s; held by %s (%s), %s", c,
				 pr_mstr(hb, PRK_PEAKS_HELD_BY_NAME),
				 pr_mstr(hb, PRK_PEAKS_HELD_BY_KIND),
				 pr_mstr(hb, PRK_PEAKS_HELD_BY_RULE));
			snprintf(d, sizeof(d), "held by %s",
				 pr_elide_end(pr_mstr(hb, PRK_PEAKS_HELD_BY_NAME), 24, e,
					      sizeof(e)));
			sub = d;
		}
		card_k(sb, a, b, sub, "peak", sub ? h : c);
	}
	if (json_is_number(json_object_get(json_object_get(run, PRK_HEAP_TOTALS),
					   PRK_HEAP_TOTALS_PEAK_BYTES))) {
		const json_t *ht = json_object_get(run, PRK_HEAP_TOTALS);
		pr_fmt_value(pr_mnum(ht, PRK_HEAP_TOTALS_PEAK_BYTES),
			     pr_mstr(ht, PRK_HEAP_TOTALS_UNIT), a, sizeof(a));
		snprintf(d, sizeof(d), "%.0f blocks", pr_mnum(ht, PRK_HEAP_TOTALS_PEAK_BLOCKS));
		card_k(sb, a, "Peak heap (t-gmax)", d, NULL,
		       "heap_totals.peak_bytes: live at DHAT's global peak t-gmax");
		pr_fmt_value(pr_mnum(ht, PRK_HEAP_TOTALS_TOTAL_BYTES),
			     pr_mstr(ht, PRK_HEAP_TOTALS_UNIT), a, sizeof(a));
		snprintf(d, sizeof(d), "%.0f blocks", pr_mnum(ht, PRK_HEAP_TOTALS_TOTAL_BLOCKS));
		card_k(sb, a, "Allocated in all", d, NULL, "heap_totals.total_bytes");
	}
	if (!pr_run_x_unit(run) && strcmp(pr_run_span_unit(run), "ns")) {
		/* a profile weighed in page faults or sample counts (an_spans.c's unit) */
		pr_fmt_value(pr_mnum(json_object_get(run, PRK_CLOCK), PRK_CLOCK_DURATION_NS),
			     pr_run_span_unit(run), a, sizeof(a));
		card(sb, a, "Extent (weights, not time)");
	} else {
		pr_fmt_x(run, pr_mnum(json_object_get(run, PRK_CLOCK), PRK_CLOCK_DURATION_NS), a,
			 sizeof(a));
		card(sb, a, pr_run_x_unit(run) ? "Extent (not time)" : "Duration");
	}
	if (json_is_object(st)) {
		pr_fmt_duration(pr_mnum(st, PRK_THROUGHPUT_STEPS_P50_NS), a, sizeof(a));
		card(sb, a, "Step time p50");
		snprintf(a, sizeof(a), "%.2f", pr_mnum(st, PRK_THROUGHPUT_STEPS_PER_S));
		card(sb, a, "Steps / s");
	}
	if (json_is_number(json_object_get(json_object_get(t, PRK_THROUGHPUT_TOKENS),
					   PRK_THROUGHPUT_TOKENS_TOKENS_PER_S))) {
		snprintf(a, sizeof(a), "%.1f",
			 pr_mnum(json_object_get(t, PRK_THROUGHPUT_TOKENS),
				 PRK_THROUGHPUT_TOKENS_TOKENS_PER_S));
		card(sb, a, "Tokens / s");
	}
	if (json_is_object(json_object_get(t, PRK_THROUGHPUT_BLOCKS))) {
		snprintf(a, sizeof(a), "%.2f / %.2f",
			 pr_mnum(json_object_get(t, PRK_THROUGHPUT_BLOCKS),
				 PRK_THROUGHPUT_BLOCKS_FPS),
			 pr_mnum(json_object_get(t, PRK_THROUGHPUT_BLOCKS),
				 PRK_THROUGHPUT_BLOCKS_BPS));
		card(sb, a, "FPS / BPS (blocks)");
	}
	json_array_foreach (recs, i, r)
		high += !strcmp(pr_mstr(r, PRK_RECOMMENDATIONS_SEVERITY), "high");
	snprintf(a, sizeof(a), "%zu (%zu high)", json_array_size(recs), high);
	card(sb, a, "Recommendations");
	snprintf(a, sizeof(a), "%zu", json_array_size(json_object_get(run, PRK_DIAGNOSTICS)));
	card(sb, a, "Ingest diagnostics");
	pr_strbuf_addstr(sb, "</div>\n");
}

#define HTML_RECS 50 /* recommendations shown */

/*
 * A finding's impact: the share of the run (or of a step) that its evidence
 * states, the first of these keys it has (0..1; percents / 100); NAN when
 * it states none (a rate below a threshold, a leak's slope). The schema leaves
 * recommendations[].evidence open (each rule states its own), so these keys have no macro.
 */
static double rec_impact(const json_t *r)
{
	static const struct {
		const char *key;
		double div;
	} keys[] = { { "share", 1 },	       { "share_of_run", 1 }, { "share_of_step", 1 },
		     { "host_wait_share", 1 }, { "idle_share", 1 },   { "communication_share", 1 },
		     { "percent", 100 },       { "peak_pct", 100 } };
	const json_t *ev = json_object_get(r, PRK_RECOMMENDATIONS_EVIDENCE);
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
	const char *s = pr_mstr(r, PRK_RECOMMENDATIONS_SEVERITY);
	return !strcmp(s, "high") ? 0 : !strcmp(s, "medium") ? 1 : !strcmp(s, "low") ? 2 : 3;
}

struct rec_item {
	const json_t *r;
	size_t idx;    /* in the model */
	int sev;       /* 0 high .. 3 other */
	double imp;    /* rec_impact, -1 when it states none */
	double gimp;   /* the largest impact of its group (rule and severity) */
	size_t gfirst; /* the group's first finding in the model */
};

static int same_group(const struct rec_item *a, const struct rec_item *b)
{
	return a->sev == b->sev && !strcmp(pr_mstr(a->r, PRK_RECOMMENDATIONS_ID),
					   pr_mstr(b->r, PRK_RECOMMENDATIONS_ID));
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
	pr_strbuf_addf(sb, "<div class=\"rec %s\"><strong>[",
		       pr_mstr(r, PRK_RECOMMENDATIONS_SEVERITY));
	pr_html_esc(sb, pr_mstr(r, PRK_RECOMMENDATIONS_SEVERITY));
	pr_strbuf_addstr(sb, "] ");
	pr_html_esc(sb, pr_mstr(r, PRK_RECOMMENDATIONS_CATEGORY));
	pr_strbuf_addstr(sb, ":</strong> ");
	pr_html_esc(sb, pr_mstr(r, PRK_RECOMMENDATIONS_MESSAGE));
	if (n > 1) {
		pr_strbuf_addstr(sb, "<ul class=\"also\">");
		for (i = 1; i < n; i++) {
			pr_strbuf_addstr(sb, "<li>");
			pr_html_esc(sb, pr_mstr(it[i].r, PRK_RECOMMENDATIONS_MESSAGE));
			pr_strbuf_addstr(sb, "</li>");
		}
		pr_strbuf_addstr(sb, "</ul>");
	} else {
		pr_strbuf_addstr(sb, "<br>");
	}
	pr_html_esc(sb, pr_mstr(r, PRK_RECOMMENDATIONS_SUGGESTION));
	pr_strbuf_addstr(sb, "<details class=\"ev\"><summary>Evidence");
	if (n > 1)
		pr_strbuf_addf(sb, " (%zu findings)", n);
	pr_strbuf_addstr(sb, "</summary><div class=\"why\">Rule <code>");
	pr_html_esc(sb, pr_mstr(r, PRK_RECOMMENDATIONS_ID));
	pr_strbuf_addstr(sb, "</code> (");
	pr_html_esc(sb, pr_mstr(r, PRK_RECOMMENDATIONS_SOURCE));
	pr_strbuf_addstr(sb, "): ");
	pr_html_esc(sb, pr_mstr(r, PRK_RECOMMENDATIONS_RULE));
	pr_strbuf_addstr(sb, "</div>");
	for (i = 0; i < n; i++) {
		char *ev = json_dumps(json_object_get(it[i].r, PRK_RECOMMENDATIONS_EVIDENCE),
				      JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		pr_strbuf_addstr(sb, "<pre>");
		pr_html_esc(sb, ev ? ev : "null");
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
	const json_t *recs = json_object_get(run, PRK_RECOMMENDATIONS);
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
	pr_strbuf_addf(
		sb,
		"<p class=\"meta\">%zu finding%s: %zu high, %zu medium, %zu low. One box per rule, "
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
		pr_strbuf_addf(
			sb,
			"<p class=\"capped\">Showing %d of %zu recommendations (capped at %d; "
			"the JSON model has all of them).</p>\n",
			HTML_RECS, n, HTML_RECS);
}

#define HTML_TREE_DEPTH 10 /* levels of the peak allocation tree shown */
#define HTML_TREE_ROWS 100 /* rows of it shown */

/*
 * The peak snapshot's allocation tree (massif) as an indented table in
 * massif's depth-first order (not sortable: the order is the tree): at most
 * HTML_TREE_DEPTH levels and HTML_TREE_ROWS rows, the rest counted.
 */
static void alloc_tree(struct pr_strbuf *sb, const json_t *run)
{
	const json_t *t = json_object_get(run, PRK_ALLOC_TREE), *v;
	size_t i, rows = 0, cut = 0;
	char a[48], b[48];
	if (!json_is_object(t))
		return;
	pr_fmt_x(run, pr_mnum(t, PRK_ALLOC_TREE_T_NS), a, sizeof(a));
	pr_strbuf_addf(sb, "<h3>Peak allocation tree (massif snapshot %lld at ",
		       pr_mll(t, PRK_ALLOC_TREE_SNAPSHOT));
	pr_html_esc(sb, a);
	pr_fmt_bytes(pr_mnum(t, PRK_ALLOC_TREE_HEAP), a, sizeof(a));
	pr_fmt_bytes(pr_mnum(t, PRK_ALLOC_TREE_HEAP_EXTRA), b, sizeof(b));
	pr_strbuf_addstr(sb, ")</h3>\n<p class=\"meta\">Heap ");
	pr_html_esc(sb, a);
	pr_strbuf_addstr(sb, " (+");
	pr_html_esc(sb, b);
	pr_strbuf_addstr(
		sb,
		" allocator overhead). Each row is a call site; its children (indented) are "
		"its callers, and add up to it. Sites below massif's threshold are folded "
		"by massif into one row.</p>\n"
		"<table class=\"tree\"><thead><tr><th class=\"n\">Bytes</th>"
		"<th class=\"n\">Share %</th><th>Call site &larr; callers</th></tr></thead><tbody>\n");
	json_array_foreach (json_object_get(t, PRK_ALLOC_TREE_NODES), i, v) {
		long long depth = pr_mll(v, PRK_ALLOC_TREE_NODES_DEPTH);
		if (depth > HTML_TREE_DEPTH || rows >= HTML_TREE_ROWS) {
			cut++;
			continue;
		}
		rows++;
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_tdn(sb, pr_mnum(v, PRK_ALLOC_TREE_NODES_BYTES), "bytes");
		pr_html_tdf(sb, pr_mnum(v, PRK_ALLOC_TREE_NODES_SHARE) * 100, 1);
		pr_strbuf_addf(sb, "<td class=\"name\" style=\"padding-left:%.1fem\">",
			       0.4 + 1.2 * (double)(depth > 1 ? depth - 1 : 0));
		pr_html_esc(sb, pr_mstr(v, PRK_ALLOC_TREE_NODES_LABEL));
		pr_strbuf_addstr(sb, "</td></tr>\n");
	}
	pr_strbuf_addstr(sb, "</tbody></table>\n");
	cut += (size_t)(pr_mll(t, PRK_ALLOC_TREE_NODES_MORE) > 0
				? pr_mll(t, PRK_ALLOC_TREE_NODES_MORE)
				: 0);
	if (cut)
		pr_strbuf_addf(
			sb,
			"<p class=\"capped\">%zu more node(s) not shown (deeper than %d levels or "
			"past %d rows; the JSON model has the first " PR_STR(
				PR_MODEL_ALLOC_NODES) ", the store all of them).</p>\n",
			cut, HTML_TREE_DEPTH, HTML_TREE_ROWS);
}

/* A table row's opening and its first cell: a name (escaped). */
static void tr_name(struct pr_strbuf *sb, const char *name)
{
	pr_strbuf_addstr(sb, "<tr><td class=\"name\">");
	pr_html_esc(sb, name);
	pr_strbuf_addstr(sb, "</td>");
}

/*
 * A PyTorch CUDA memory snapshot (cuda_snapshot): the allocator's numbers per
 * device, its pools, the sites live at the allocated peak (all the model
 * has: at most 10 and the rest summed) and the last OOM.
 */
static void cuda_snapshot(struct pr_strbuf *sb, const json_t *run)
{
	const json_t *cs = json_object_get(run, PRK_CUDA_SNAPSHOT), *d, *v;
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
	json_array_foreach (json_object_get(cs, PRK_CUDA_SNAPSHOT_DEVICES), i, d) {
		tr_name(sb, pr_mstr(d, PRK_CUDA_SNAPSHOT_DEVICES_DEVICE));
		pr_html_tdn(sb, pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_RESERVED), "bytes");
		pr_html_tdn(sb, pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_ALLOCATED), "bytes");
		pr_html_tdn(sb, pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_ACTIVE), "bytes");
		pr_html_tdn(sb, pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_REQUESTED), "bytes");
		pr_html_tdf(sb,
			    pr_mnum(json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_SEGMENTS),
				    PRK_CUDA_SNAPSHOT_DEVICES_SEGMENTS_COUNT),
			    0);
		pr_html_tdn(sb, pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_FREE_IN_SEGMENTS), "bytes");
		pr_html_tdn(sb, pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_LARGEST_FREE_BLOCK), "bytes");
		pr_html_tdf(sb, pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_EXTERNAL_FRAGMENTATION) * 100,
			    1);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_strbuf_addstr(sb, "</tbody></table></div>\n");
	json_array_foreach (json_object_get(cs, PRK_CUDA_SNAPSHOT_DEVICES), i, d) {
		const json_t *pk = json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_PEAK),
			     *ooms = json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_OOMS);
		double top = pr_mnum(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_ALLOCATED);
		pr_strbuf_addstr(sb, "<div class=\"scroll\"><table><thead><tr><th>Pool (");
		pr_html_esc(sb, pr_mstr(d, PRK_CUDA_SNAPSHOT_DEVICES_DEVICE));
		pr_strbuf_addstr(sb,
				 ")</th><th class=\"n\">Segments</th><th class=\"n\">Reserved"
				 "</th><th class=\"n\">Allocated</th><th class=\"n\">Active</th>"
				 "<th class=\"n\">Requested</th></tr></thead><tbody>\n");
		json_array_foreach (json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_POOLS), j, v) {
			tr_name(sb, pr_mstr(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_POOL));
			pr_html_tdf(sb, pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_SEGMENTS), 0);
			pr_html_tdn(sb, pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_RESERVED),
				    "bytes");
			pr_html_tdn(sb, pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_ALLOCATED),
				    "bytes");
			pr_html_tdn(sb, pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_ACTIVE),
				    "bytes");
			pr_html_tdn(sb, pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_REQUESTED),
				    "bytes");
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		pr_strbuf_addstr(sb, "</tbody></table></div>\n");
		if (json_is_object(pk)) {
			if (!strcmp(pr_mstr(cs, PRK_CUDA_SNAPSHOT_TIME), "time_us"))
				pr_fmt_x(run, pr_mnum(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_T_NS), b,
					 sizeof(b));
			else
				snprintf(b, sizeof(b), "trace event %lld",
					 pr_mll(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_EVENT));
			pr_fmt_bytes(pr_mnum(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_ALLOCATED), a,
				     sizeof(a));
			pr_strbuf_addstr(sb, "<p class=\"meta\">");
			pr_html_esc(sb, pr_mstr(d, PRK_CUDA_SNAPSHOT_DEVICES_DEVICE));
			pr_strbuf_addstr(sb, ": allocated peak ");
			pr_html_esc(sb, a);
			pr_strbuf_addstr(sb, " at ");
			pr_html_esc(sb, b);
			pr_strbuf_addstr(sb,
					 " (the history replayed, anchored at the snapshot); "
					 "the blocks live then, by their first user frame:</p>\n"
					 "<div class=\"scroll\"><table><thead><tr>"
					 "<th>Allocation site</th>"
					 "<th class=\"n\">Live bytes</th>"
					 "<th class=\"n\">Share %</th>"
					 "<th class=\"n\">Blocks</th></tr></thead><tbody>\n");
			json_array_foreach (json_object_get(pk,
							    PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES),
					    j, v) {
				tr_name(sb, pr_mstr(v, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_SITE));
				pr_html_tdn(sb,
					    pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_BYTES),
					    "bytes");
				pr_html_tdf(sb,
					    pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_SHARE) *
						    100,
					    1);
				pr_html_tdf(sb,
					    pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_BLOCKS),
					    0);
				pr_strbuf_addstr(sb, "</tr>\n");
			}
			if (pr_mll(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_MORE) > 0) {
				pr_strbuf_addf(sb, "<tr><td class=\"name\">%lld more site(s)</td>",
					       pr_mll(pk,
						      PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_MORE));
				pr_html_tdn(sb,
					    pr_mnum(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_OTHER_BYTES),
					    "bytes");
				pr_html_tdf(
					sb,
					top > 0 ? pr_mnum(pk,
							  PRK_CUDA_SNAPSHOT_DEVICES_PEAK_OTHER_BYTES) /
							  top * 100
						: NAN,
					1);
				pr_html_tdf(sb,
					    pr_mnum(pk,
						    PRK_CUDA_SNAPSHOT_DEVICES_PEAK_OTHER_BLOCKS),
					    0);
				pr_strbuf_addstr(sb, "</tr>\n");
			}
			pr_strbuf_addstr(sb, "<tr><td class=\"name\">allocated before the history "
					     "began</td>");
			pr_html_tdn(sb, pr_mnum(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_UNTRACKED_BYTES),
				    "bytes");
			pr_html_tdf(
				sb,
				top > 0 ? pr_mnum(pk,
						  PRK_CUDA_SNAPSHOT_DEVICES_PEAK_UNTRACKED_BYTES) /
						  top * 100
					: NAN,
				1);
			pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td></tr>\n"
					     "</tbody></table></div>\n");
		}
		if (json_array_size(ooms)) {
			const json_t *oom = json_array_get(ooms, json_array_size(ooms) - 1);
			pr_fmt_bytes(pr_mnum(oom, PRK_CUDA_SNAPSHOT_DEVICES_OOMS_REQUESTED), a,
				     sizeof(a));
			pr_fmt_bytes(pr_mnum(oom,
					     PRK_CUDA_SNAPSHOT_DEVICES_OOMS_LARGEST_FREE_BLOCK),
				     b, sizeof(b));
			pr_fmt_bytes(pr_mnum(oom, PRK_CUDA_SNAPSHOT_DEVICES_OOMS_DEVICE_FREE), c,
				     sizeof(c));
			pr_strbuf_addf(sb,
				       "<p class=\"meta\">OOM (%zu on this device; the last): "
				       "requested ",
				       json_array_size(ooms));
			pr_html_esc(sb, a);
			pr_strbuf_addstr(sb, ", largest free block ");
			pr_html_esc(sb, b);
			pr_strbuf_addstr(sb, json_is_true(json_object_get(
						     oom, PRK_CUDA_SNAPSHOT_DEVICES_OOMS_FITS))
						     ? " (the request fits in it)"
						     : " (the request does not fit in it)");
			pr_strbuf_addstr(sb, ", ");
			pr_html_esc(sb, c);
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
	const json_t *t = json_object_get(run, PRK_HEAP_TOTALS);
	const char *u, *tu, *mode;
	if (!json_is_object(t))
		return;
	u = pr_mstr(t, PRK_HEAP_TOTALS_UNIT);
	tu = *pr_mstr(t, PRK_HEAP_TOTALS_T_UNIT) ? pr_mstr(t, PRK_HEAP_TOTALS_T_UNIT) : "count";
	mode = pr_mstr(t, PRK_HEAP_TOTALS_MODE);
	pr_strbuf_addstr(sb, !strcmp(mode, "heap") ? "<h3>Heap peak and totals (valgrind DHAT)"
						   : "<h3>Program totals (valgrind DHAT)");
	pr_strbuf_addstr(sb, "</h3>\n");
	pr_strbuf_addstr(sb, "<p class=\"meta\">");
	pr_html_esc(sb, pr_mstr(t, PRK_HEAP_TOTALS_RULE));
	pr_strbuf_addstr(sb, ".</p>\n");
	pr_html_table_begin(sb, h);
	pr_strbuf_addf(sb, "<tr><td>%s in all</td>",
		       !strcmp(mode, "heap")   ? "allocated"
		       : !strcmp(mode, "copy") ? "copied"
					       : "counted");
	pr_html_tdn(sb, pr_mnum(t, PRK_HEAP_TOTALS_TOTAL_BYTES), u);
	pr_html_tdf(sb, pr_mnum(t, PRK_HEAP_TOTALS_TOTAL_BLOCKS), 0);
	pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td></tr>\n");
	if (json_is_number(json_object_get(t, PRK_HEAP_TOTALS_PEAK_BYTES))) {
		pr_strbuf_addstr(sb, "<tr><td>peak (t-gmax)</td>");
		pr_html_tdn(sb, pr_mnum(t, PRK_HEAP_TOTALS_PEAK_BYTES), u);
		pr_html_tdf(sb, pr_mnum(t, PRK_HEAP_TOTALS_PEAK_BLOCKS), 0);
		pr_html_tdn(sb, pr_mnum(t, PRK_HEAP_TOTALS_PEAK_T), tu);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	if (json_is_number(json_object_get(t, PRK_HEAP_TOTALS_END_BYTES))) {
		pr_strbuf_addstr(sb, "<tr><td>live at the end (t-end)</td>");
		pr_html_tdn(sb, pr_mnum(t, PRK_HEAP_TOTALS_END_BYTES), u);
		pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
		pr_html_tdn(sb, pr_mnum(t, PRK_HEAP_TOTALS_END_T), tu);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_model_table_end(sb, 3, 3);
}

/* perf stat's counters (model "counters"): totals as perf printed them, or -I's sums */
static void counters_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const ht[] = { "Event",	"Device",	  "#Total",
					  "#Counted %", "#perf's metric", NULL };
	static const char *const hi[] = { "Event", "Device", "#Total",	"#Intervals", "#Mean",
					  "#Min",  "#Max",   "#Max at", "#Counted %", NULL };
	const json_t *c = json_object_get(run, PRK_COUNTERS), *v;
	size_t i, n = json_array_size(json_object_get(c, PRK_COUNTERS_ITEMS));
	int iv = json_is_number(
		json_object_get(json_array_get(json_object_get(c, PRK_COUNTERS_ITEMS), 0),
				PRK_COUNTERS_ITEMS_INTERVALS));
	char a[48];
	if (!n)
		return;
	pr_strbuf_addstr(sb, iv ? "<h3>Counters (perf stat -I: sums over the intervals)</h3>\n"
				: "<h3>Counters (perf stat totals)</h3>\n");
	pr_strbuf_addstr(sb, "<p class=\"meta\">");
	pr_html_esc(sb, pr_mstr(c, PRK_COUNTERS_RULE));
	pr_strbuf_addstr(sb, ".</p>\n");
	pr_html_table_begin(sb, iv ? hi : ht);
	json_array_foreach (json_object_get(c, PRK_COUNTERS_ITEMS), i, v) {
		const char *u = pr_mstr(v, PRK_COUNTERS_ITEMS_UNIT);
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(v, PRK_COUNTERS_ITEMS_EVENT));
		pr_html_td(sb, pr_mstr(v, PRK_COUNTERS_ITEMS_DEVICE));
		pr_html_tdn(sb, pr_mnum(v, PRK_COUNTERS_ITEMS_TOTAL), u);
		if (iv) {
			pr_html_tdf(sb, pr_mnum(v, PRK_COUNTERS_ITEMS_INTERVALS), 0);
			pr_html_tdn(sb, pr_mnum(v, PRK_COUNTERS_ITEMS_MEAN), u);
			pr_html_tdn(sb, pr_mnum(v, PRK_COUNTERS_ITEMS_MIN), u);
			pr_html_tdn(sb, pr_mnum(v, PRK_COUNTERS_ITEMS_MAX), u);
			pr_fmt_x(run, pr_mnum(v, PRK_COUNTERS_ITEMS_T_MAX_NS), a, sizeof(a));
			pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.17g\" data-u=\"ns\">",
				       pr_mnum(v, PRK_COUNTERS_ITEMS_T_MAX_NS));
			pr_html_esc(sb, a);
			pr_strbuf_addstr(sb, "</td>");
			pr_html_tdf(sb, pr_mnum(v, PRK_COUNTERS_ITEMS_COUNTED_PCT), 1);
		} else {
			pr_html_tdf(sb, pr_mnum(v, PRK_COUNTERS_ITEMS_COUNTED_PCT), 1);
			pr_html_tdn(sb, pr_mnum(v, PRK_COUNTERS_ITEMS_METRIC),
				    pr_mstr(v, PRK_COUNTERS_ITEMS_METRIC_UNIT));
		}
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_model_table_end(sb, n, n);
}

#define PHASES_UNFOLDED 20 /* phase occurrences listed open; more are behind a fold */

static void phases_tables(struct pr_strbuf *sb, const json_t *run)
{
	json_t *ph = json_object_get(run, PRK_PHASES);
	struct pr_table_ctx x = { 0 };
	size_t n = json_array_size(json_object_get(ph, PRK_PHASES_OCCURRENCES));
	if (n) {
		size_t nall = n + (size_t)(pr_mll(ph, PRK_PHASES_OCCURRENCES_MORE) > 0
						   ? pr_mll(ph, PRK_PHASES_OCCURRENCES_MORE)
						   : 0);
		size_t ntot;
		pr_strbuf_addstr(sb, "<h3>Phases</h3>\n");
		/* grouped by name first: a long run's 7000 occurrences read as a few names */
		ntot = json_array_size(json_object_get(ph, PRK_PHASES_TOTALS)) +
		       (size_t)(pr_mll(json_object_get(ph, PRK_PHASES_TOTALS_MORE),
				       PRK_PHASES_TOTALS_MORE_NAMES) > 0
					? pr_mll(json_object_get(ph, PRK_PHASES_TOTALS_MORE),
						 PRK_PHASES_TOTALS_MORE_NAMES)
					: 0);
		x.cap = PR_HTML_ROWS;
		x.all_in = "the store";
		if (ntot >= nall) {
			/* no name repeats: a table by name would say each occurrence twice */
			pr_strbuf_addf(sb, "<h4>%zu occurrence%s, each name once</h4>\n", nall,
				       nall == 1 ? "" : "s");
		} else {
			pr_strbuf_addf(sb, "<h4>By name: %zu occurrence%s of %zu name%s</h4>\n",
				       nall, nall == 1 ? "" : "s", ntot, ntot == 1 ? "" : "s");
			x.total = ntot;
			pr_html_table_ctx(sb, &pr_table_phase_totals,
					  json_object_get(ph, PRK_PHASES_TOTALS), &x);
		}
		/* every occurrence in time order, folded when there are many */
		pr_strbuf_addf(
			sb,
			"<details class=\"occ\"%s><summary>Timeline: %s%zu occurrence%s</summary>\n",
			nall <= PHASES_UNFOLDED ? " open" : "", nall > 1 ? "all " : "", nall,
			nall == 1 ? "" : "s");
		/* the model lists the first PR_MODEL_MAX_PHASES occurrences: the store has them all */
		x.unit = pr_run_x_unit(run) ? pr_run_x_unit(run) : "ns";
		x.total = nall;
		pr_html_table_ctx(sb, &pr_table_phase_occurrences,
				  json_object_get(ph, PRK_PHASES_OCCURRENCES), &x);
		pr_strbuf_addstr(sb, "</details>\n");
	}
	if (json_array_size(json_object_get(ph, PRK_PHASES_STAGES))) {
		pr_strbuf_addstr(sb, "<h3>Stages (Inferix aggregates)</h3>\n");
		pr_html_table(sb, &pr_table_phase_stages, json_object_get(ph, PRK_PHASES_STAGES),
			      NULL);
	}
}

static void spans_table(struct pr_strbuf *sb, const json_t *run)
{
	json_t *arr = json_object_get(json_object_get(run, PRK_BOTTLENECKS),
				      PRK_BOTTLENECKS_TOP_SELF),
	       *o;
	const char *u = pr_run_span_unit(run);
	size_t i, restated = 0;
	if (!json_array_size(arr))
		return;
	json_array_foreach (arr, i, o)
		restated += !strcmp(pr_mstr(o, PRK_BOTTLENECKS_TOP_SELF_KIND), "phase") &&
			    pr_mnum(o, PRK_BOTTLENECKS_TOP_SELF_COUNT) == 1;
	if (restated == json_array_size(arr))
		return; /* one phase each: the phase table has them */
	/* spans.unit: DHAT's frames weigh bytes allocated, not time */
	pr_strbuf_addstr(sb, strcmp(u, "ns") ? "<h3>Top frames by self weight</h3>\n"
					     : "<h3>Top spans by self time</h3>\n");
	pr_html_table(sb, &pr_table_spans, arr, u);
}

static void layers_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = {
		"Device",	  "Layer",	  "#Samples", "#Mean fragmentation %",
		"#Collector's %", "#Largest gap", NULL
	};
	json_t *f, *l;
	size_t i, j, rows = 0, shown = 0;
	json_array_foreach (json_object_get(run, PRK_FRAGMENTATION), i, f)
		rows += json_array_size(json_object_get(f, PRK_FRAGMENTATION_LAYERS));
	if (!rows)
		return;
	pr_strbuf_addstr(sb, "<h3>Layers</h3>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach (json_object_get(run, PRK_FRAGMENTATION), i, f)
		json_array_foreach (json_object_get(f, PRK_FRAGMENTATION_LAYERS), j, l) {
			if (shown >= PR_HTML_ROWS)
				break;
			shown++;
			pr_strbuf_addstr(sb, "<tr>");
			pr_html_td(sb, pr_mstr(f, PRK_FRAGMENTATION_DEVICE));
			pr_html_td(sb, pr_mstr(l, PRK_FRAGMENTATION_LAYERS_LAYER));
			pr_html_tdf(sb, pr_mnum(l, PRK_FRAGMENTATION_LAYERS_SAMPLES), 0);
			pr_html_tdf(sb, pr_mnum(l, PRK_FRAGMENTATION_LAYERS_MEAN_RATIO) * 100, 1);
			pr_html_tdf(sb,
				    pr_mnum(l, PRK_FRAGMENTATION_LAYERS_REPORTED_AVG_RATIO) * 100,
				    1);
			pr_html_tdn(sb, pr_mnum(l, PRK_FRAGMENTATION_LAYERS_MAX_GAP), "bytes");
			pr_strbuf_addstr(sb, "</tr>\n");
		}
	pr_html_model_table_end(sb, shown, rows);
}

static void series_table(struct pr_strbuf *sb, const json_t *run)
{
	json_t *arr = json_object_get(run, PRK_SERIES);
	struct pr_table_ctx x = { 0 };
	if (!json_array_size(arr))
		return;
	pr_strbuf_addstr(sb, "<h3>Series</h3>\n");
	x.run = run; /* series.t_max_ns: the time of the max, on the run's x axis */
	x.cap = PR_HTML_ROWS;
	pr_html_table_ctx(sb, &pr_table_series, arr, &x);
}

/* A sentence cell: the text whole, wrapped (a name cell would cut it in the middle). */
static void td_msg(struct pr_strbuf *sb, const char *text)
{
	pr_strbuf_addstr(sb, "<td class=\"msg\">");
	pr_html_esc(sb, text);
	pr_strbuf_addstr(sb, "</td>");
}

static void crosscheck_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = {
		"", "What", "#Collector", "#Recomputed", "Unit", "Why they differ", NULL
	};
	json_t *arr = json_object_get(run, PRK_CROSSCHECK), *c;
	size_t i;
	if (!json_array_size(arr))
		return;
	pr_strbuf_addstr(sb, "<h3>The collector's numbers vs recomputed</h3>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach (arr, i, c) {
		int ok = json_is_true(json_object_get(c, PRK_CROSSCHECK_AGREE));
		pr_strbuf_addf(sb, "<tr><td class=\"%s\">%s</td>", ok ? "ok" : "diff",
			       ok ? "ok" : "differs");
		pr_html_td(sb, pr_mstr(c, PRK_CROSSCHECK_TOPIC));
		pr_html_tdf(sb, pr_mnum(c, PRK_CROSSCHECK_REPORTED), -1);
		pr_html_tdf(sb, pr_mnum(c, PRK_CROSSCHECK_RECOMPUTED), -1);
		pr_html_td(sb, pr_mstr(c, PRK_CROSSCHECK_UNIT));
		td_msg(sb, pr_mstr(c, PRK_CROSSCHECK_REASON));
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_model_table_end(sb, i, i);
}

static void diagnostics_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "Code", "#Count", "#Line", "#Column", "Message", NULL };
	json_t *arr = json_object_get(run, PRK_DIAGNOSTICS), *d;
	size_t i;
	if (!json_array_size(arr))
		return;
	pr_strbuf_addstr(sb, "<h3>Ingest diagnostics</h3>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach (arr, i, d) {
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(d, PRK_DIAGNOSTICS_CODE));
		pr_html_tdf(sb, pr_mnum(d, PRK_DIAGNOSTICS_COUNT), 0);
		pr_html_tdf(sb, pr_mnum(d, PRK_DIAGNOSTICS_LINE), 0);
		pr_html_tdf(sb, pr_mnum(d, PRK_DIAGNOSTICS_COLUMN), 0);
		td_msg(sb, pr_mstr(d, PRK_DIAGNOSTICS_MESSAGE));
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_model_table_end(sb, i, i);
}

/* The user's labels of the run (--meta: commit, branch, build, time, ...), keys sorted. */
static void run_meta(struct pr_strbuf *sb, const json_t *run)
{
	json_t *m = json_object_get(run, PRK_META), *v;
	const char *k;
	int first = 1;
	if (!json_is_object(m) || !json_object_size(m))
		return;
	pr_strbuf_addstr(sb, "<p class=\"meta run-meta\">");
	json_object_foreach (m, k, v) {
		if (!json_is_string(v))
			continue;
		pr_strbuf_addstr(sb, first ? "" : " &middot; ");
		pr_html_esc(sb, k);
		pr_strbuf_addstr(sb, " <code>");
		pr_html_esc(sb, json_string_value(v));
		pr_strbuf_addstr(sb, "</code>");
		first = 0;
	}
	pr_strbuf_addstr(sb, "</p>\n");
}

static void metadata(struct pr_strbuf *sb, const json_t *run)
{
	json_t *clock = json_object_get(run, PRK_CLOCK);
	char a[64];
	pr_strbuf_addstr(sb, "<p class=\"meta\">Source <code>");
	pr_html_esc(sb, pr_mstr(run, PRK_SOURCE));
	pr_strbuf_addstr(sb, "</code> &middot; format ");
	pr_html_esc(sb, pr_mstr(run, PRK_FORMAT));
	pr_strbuf_addstr(sb, " &middot; collector ");
	pr_html_esc(sb, pr_mstr(run, PRK_COLLECTOR));
	if (json_is_integer(json_object_get(run, PRK_RANK))) {
		pr_strbuf_addf(sb, " &middot; rank %lld", pr_mll(run, PRK_RANK));
		if (json_is_integer(json_object_get(run, PRK_WORLD_SIZE)))
			pr_strbuf_addf(sb, " of %lld", pr_mll(run, PRK_WORLD_SIZE));
	}
	if (json_is_number(json_object_get(clock, PRK_CLOCK_EPOCH_START_NS))) {
		char when[64];
		pr_fmt_utc(pr_mnum(clock, PRK_CLOCK_EPOCH_START_NS), when, sizeof(when));
		pr_strbuf_addf(sb, " &middot; started %s", when);
	}
	pr_fmt_x(run, pr_mnum(clock, PRK_CLOCK_DURATION_NS), a, sizeof(a));
	if (pr_run_x_unit(run)) {
		pr_strbuf_addstr(sb, " &middot; x axis: ");
		pr_html_esc(sb, pr_run_x_desc(run));
		pr_strbuf_addstr(sb, "; extent ");
		pr_html_esc(sb, a);
	} else {
		pr_strbuf_addf(sb, " &middot; duration %s%s", a,
			       json_is_true(json_object_get(clock, PRK_CLOCK_SYNTHETIC))
				       ? " (synthetic clock)"
				       : "");
	}
	{
		/* a sampled profile's records per event (perf script: reported perf.samples) */
		const json_t *m;
		size_t i, k = 0;
		json_array_foreach (json_object_get(run, PRK_REPORTED), i, m) {
			if (strcmp(pr_mstr(m, PRK_REPORTED_NAME), "perf.samples"))
				continue;
			pr_strbuf_addf(sb, "%s%.0f ", k++ ? ", " : " &middot; ",
				       pr_mnum(m, PRK_REPORTED_VALUE));
			pr_html_esc(sb, pr_mstr(m, PRK_REPORTED_DETAIL));
			pr_strbuf_addstr(sb, " samples");
		}
		if (k) {
			pr_strbuf_addf(sb, " &middot; %lld spans</p>\n",
				       pr_mll(json_object_get(run, PRK_COUNTS), PRK_COUNTS_SPANS));
			return;
		}
	}
	pr_strbuf_addf(sb, " &middot; %lld spans, %lld samples</p>\n",
		       pr_mll(json_object_get(run, PRK_COUNTS), PRK_COUNTS_SPANS),
		       pr_mll(json_object_get(run, PRK_COUNTS), PRK_COUNTS_SAMPLES));
	run_meta(sb, run);
}

/* format, extent, findings: what the navigation and a folded section say of a run */
static void run_brief(struct pr_strbuf *sb, const json_t *run)
{
	json_t *recs = json_object_get(run, PRK_RECOMMENDATIONS), *r;
	size_t i, high = 0;
	char a[64];
	json_array_foreach (recs, i, r)
		high += !strcmp(pr_mstr(r, PRK_RECOMMENDATIONS_SEVERITY), "high");
	pr_fmt_x(run, pr_mnum(json_object_get(run, PRK_CLOCK), PRK_CLOCK_DURATION_NS), a,
		 sizeof(a));
	pr_strbuf_addstr(sb, "<span class=\"brief\">");
	pr_html_esc(sb, pr_mstr(run, PRK_FORMAT));
	pr_strbuf_addstr(sb, " &middot; ");
	pr_html_esc(sb, a);
	pr_strbuf_addf(sb, " &middot; %zu finding%s", json_array_size(recs),
		       json_array_size(recs) == 1 ? "" : "s");
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
	pr_strbuf_addf(
		sb, "<nav class=\"toc\" aria-label=\"runs\"><p class=\"meta\">%zu runs%s</p><ol>",
		n,
		n > PR_HTML_RUNS_OPEN
			? " (folded: a link opens its run, a click on a run's heading folds "
			  "or unfolds it)"
			: "");
	for (i = 0; i < n; i++) {
		pr_strbuf_addf(sb, "<li><a href=\"#run-%lld\" title=\"", pr_mll(runs[i], PRK_ID));
		pr_html_esc(sb, pr_mstr(runs[i], PRK_SOURCE));
		pr_strbuf_addf(sb, "\"><span class=\"no\">%lld</span>", pr_mll(runs[i], PRK_ID));
		pr_html_esc(sb, names[i]);
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

#define NAME_DIRS 16		/* directories of a source looked at to tell two runs apart */
#define ELLIPSIS "\xe2\x80\xa6" /* U+2026: directories left out */

/* The last `dirs` directories of run's source, then its label: "sub/dir/label". */
static char *name_with_dirs(const json_t *run, size_t dirs)
{
	const char *part[NAME_DIRS + 1];
	size_t len[NAME_DIRS + 1],
		k = path_parts(pr_mstr(run, PRK_SOURCE), part, len, NAME_DIRS + 1), i;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	/* part[0] is the file itself: the label names it */
	if (dirs > (k ? k - 1 : 0))
		dirs = k ? k - 1 : 0;
	for (i = dirs; i >= 1; i--) {
		pr_strbuf_add(&sb, part[i], len[i]);
		pr_strbuf_addstr(&sb, "/");
	}
	pr_strbuf_addstr(&sb, pr_mstr(run, PRK_LABEL));
	return pr_strbuf_detach(&sb, NULL);
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
	size_t k = path_parts(pr_mstr(run, PRK_SOURCE), part, len, NAME_DIRS + 1);
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
	pr_strbuf_addstr(&sb, pr_mstr(run, PRK_LABEL));
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

/* A run of a group of one label: its source's directories, depth 1 (the file's) first. */
struct dir_seq {
	const char *part[NAME_DIRS + 1];
	size_t len[NAME_DIRS + 1], k; /* part[1..k-1] are its directories */
	size_t at;		      /* its place in the group */
};

/* Directories compared one by one from depth 1 up; a path that runs out sorts first. */
static int cmp_dir_seq(const void *x, const void *y)
{
	const struct dir_seq *a = *(const struct dir_seq *const *)x;
	const struct dir_seq *b = *(const struct dir_seq *const *)y;
	size_t d;
	int c;
	for (d = 1; d <= NAME_DIRS && (d < a->k || d < b->k); d++) {
		if (d >= a->k || d >= b->k)
			return d >= a->k ? -1 : 1;
		c = memcmp(a->part[d], b->part[d], a->len[d] < b->len[d] ? a->len[d] : b->len[d]);
		if (c || a->len[d] != b->len[d])
			return c ? c : a->len[d] < b->len[d] ? -1 : 1;
	}
	return a->at < b->at ? -1 : a->at > b->at;
}

/* How many directories a and b share from depth 1 on (1 = the file's directory), or NAME_DIRS +
 * 1 when they do not differ within NAME_DIRS: the first depth where they differ, less 1. */
static size_t shared_dirs(const struct dir_seq *a, const struct dir_seq *b)
{
	size_t d;
	for (d = 1; d <= NAME_DIRS && (d < a->k || d < b->k); d++)
		if (d >= a->k || d >= b->k || a->len[d] != b->len[d] ||
		    memcmp(a->part[d], b->part[d], a->len[d]))
			return d - 1;
	return NAME_DIRS + 1;
}

/*
 * For each run r of a group of m runs of one label (runs[idx[0..m)]), the mask over the others s
 * of the first depth where their sources differ: bit d when some s first differs from r at depth
 * d, bit 0 when some s does not differ within NAME_DIRS.
 * Sorted by their directories, the runs that share at least L directories with r are a block of
 * neighbours around it; some run shares exactly L when that block is larger than the block of
 * L + 1. So 18 passes over the sorted group, where comparing every pair was O(m^2) (an archive of
 * 16 000 runs of one file name, each in a directory of its own: 21 s for the names).
 */
static void group_masks(const json_t *const *runs, const size_t *idx, size_t m, unsigned long *mask)
{
	struct dir_seq *seq = pr_xcalloc(m + 1, sizeof(*seq));
	struct dir_seq **by = pr_xcalloc(m + 1, sizeof(*by));
	size_t *adj = pr_xcalloc(m + 1, sizeof(*adj)), *lo = pr_xcalloc(m + 1, sizeof(*lo));
	size_t i, L, start;
	for (i = 0; i < m; i++) {
		seq[i].k = path_parts(pr_mstr(runs[idx[i]], PRK_SOURCE), seq[i].part, seq[i].len,
				      NAME_DIRS + 1);
		seq[i].at = i;
		by[i] = &seq[i];
		mask[i] = 0;
	}
	qsort(by, m, sizeof(*by), cmp_dir_seq);
	for (i = 1; i < m; i++)
		adj[i] = shared_dirs(by[i - 1], by[i]); /* between places i - 1 and i */
	/* block sizes for L = NAME_DIRS + 1 (no difference) down to 0; bit of "exactly L" */
	for (L = NAME_DIRS + 1;; L--) {
		size_t *size = lo; /* reused: the block's size at each place */
		for (start = 0; start < m;) {
			size_t end = start + 1, j;
			while (end < m && adj[end] >= L)
				end++;
			for (j = start; j < end; j++) {
				size_t prev = size[j], bit;
				size[j] = end - start;
				/* exactly L = in the block of L, not in that of L + 1 */
				if (size[j] > (L == NAME_DIRS + 1 ? 1 : prev)) {
					bit = L == NAME_DIRS + 1 ? 0 : L + 1;
					mask[by[j]->at] |= 1UL << bit;
				}
			}
			start = end;
		}
		if (!L)
			break;
	}
	free(seq);
	free(by);
	free(adj);
	free(lo);
}

char **pr_html_run_names(const json_t *const *runs, size_t n)
{
	char **names = pr_xcalloc(n + 1, sizeof(char *)), *same;
	const char **labels = pr_xcalloc(n + 1, sizeof(*labels));
	struct name_key *k;
	size_t i, g, e;
	for (i = 0; i < n; i++)
		labels[i] = pr_mstr(runs[i], PRK_LABEL);
	/* runs of one label (neighbours in k): each named by every directory
	 * where it first differs from another of them */
	k = sorted_keys(labels, n);
	for (g = 0; g < n; g = e) {
		for (e = g + 1; e < n && !strcmp(k[e].s, k[g].s); e++)
			;
		size_t *idx = pr_xcalloc(e - g + 1, sizeof(*idx));
		unsigned long *masks = pr_xcalloc(e - g + 1, sizeof(*masks));
		for (i = g; i < e; i++)
			idx[i - g] = k[i].i;
		if (e - g > 1)
			group_masks(runs, idx, e - g, masks);
		for (i = g; i < e; i++) {
			const json_t *r = runs[k[i].i];
			unsigned long mask = masks[i - g];
			if (e - g == 1)
				names[k[i].i] = pr_xstrdup(k[i].s);
			else if (mask & ~1UL)
				names[k[i].i] = name_with_mask(r, mask & ~1UL);
			else /* one source given twice (different content), or too deep */
				names[k[i].i] = name_with_dirs(r, 1);
		}
		free(idx);
		free(masks);
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
			snprintf(s, m, "%s (run %lld)", names[i], pr_mll(runs[i], PRK_ID));
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
		pr_strbuf_addf(sb, "<details class=\"run\" id=\"run-%lld\"%s><summary><h2>",
			       pr_mll(run, PRK_ID), nruns <= PR_HTML_RUNS_OPEN ? " open" : "");
		pr_strbuf_addf(sb, "Run %lld: ", pr_mll(run, PRK_ID));
		pr_html_esc(sb, name);
		pr_strbuf_addstr(sb, "</h2> ");
		run_brief(sb, run);
		pr_strbuf_addstr(sb, "</summary>\n");
	} else {
		pr_strbuf_addf(sb, "<section class=\"run\" id=\"run-%lld\"><h2>",
			       pr_mll(run, PRK_ID));
		pr_strbuf_addf(sb, "Run %lld: ", pr_mll(run, PRK_ID));
		pr_html_esc(sb, name);
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
			pr_strbuf_addf(
				sb,
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
		if (pr_html_gpu_section(sb, run, idp, err) ||
		    pr_html_critpath_section(sb, run, idp, err))
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
	return pr_html_page_head(title, subtitle, NULL, body, out, err);
}

int pr_html_page_head(const char *title, const char *subtitle, const char *head, const char *body,
		      struct pr_output *out, struct pr_error *err)
{
	struct pr_strbuf sb = PR_STRBUF_INIT, t = PR_STRBUF_INIT, s = PR_STRBUF_INIT;
	const char *p = pr_tpl_report_html;
	int rc;
	pr_html_esc(&t, title);
	pr_html_esc(&s, subtitle);
	while (*p) {
		const char *q = strstr(p, "{{");
		const char *e = q ? strstr(q, "}}") : NULL;
		if (!q || !e) {
			pr_strbuf_addstr(&sb, p);
			break;
		}
		pr_strbuf_add(&sb, p, (size_t)(q - p));
		if (head && !strncmp(q, "{{title}}", 9) && q - p >= 7 &&
		    !strncmp(q - 7, "<title>", 7)) {
			/* the head's part before the <title> it goes in (read back by its first KB) */
			sb.len -= 7;
			pr_strbuf_addstr(&sb, head);
			pr_strbuf_addstr(&sb, "<title>");
			head = NULL;
		}
		if (!strncmp(q, "{{title}}", 9))
			pr_strbuf_addstr(&sb, t.buf);
		else if (!strncmp(q, "{{subtitle}}", 12))
			pr_strbuf_addstr(&sb, s.buf);
		else if (!strncmp(q, "{{body}}", 8))
			pr_strbuf_addstr(&sb, body);
		else if (!strncmp(q, "{{css}}", 7)) {
			pr_strbuf_addstr(&sb, pr_tpl_report_css);
			pr_strbuf_addstr(&sb, pr_tpl_trace_css);
			pr_strbuf_addstr(&sb, pr_tpl_views_css);
			pr_strbuf_addstr(&sb, pr_tpl_flame_css);
		} else if (!strncmp(q, "{{js}}", 6)) {
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
	json_t *all = json_object_get(model, PRK_RUNS);
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
			progress_fn(progress_ctx, i + 1, n, pr_mstr(list[i], PRK_LABEL));
		rc = run_section(&body, list[i], i, names[i], n, err);
	}
	if (!n)
		pr_strbuf_addstr(&body, "<p>No runs.</p>");
	if (n == 1)
		snprintf(title, sizeof(title), "profreport: %s", pr_mstr(list[0], PRK_LABEL));
	else
		snprintf(title, sizeof(title), "profreport: %zu runs", n);
	snprintf(sub, sizeof(sub), "Analysis model %s v%lld", pr_mstr(model, PRK_SCHEMA),
		 pr_mll(model, PRK_VERSION));
	if (!rc)
		rc = pr_html_page(title, sub, body.buf, out, err);
	pr_html_run_names_free(names, n);
	free(list);
	pr_strbuf_release(&body);
	return rc;
}
