/* agg_html.c - the HTML page of a multi-rank aggregate (see agg_panel.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/agg_panel.h"
#include "base/jsonx.h"
#include "base/escape.h"
#include "render/html_report.h"
#include "render/units.h"
#include "base/strbuf.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

static void esc(struct pr_strbuf *sb, const char *s)
{
	pr_xml_escape(sb, s);
}

/* A value in an agg.json unit: ns, bytes, count, per_s, or anything else. */
static void fmt(double v, const char *unit, char *buf, size_t n)
{
	if (!isfinite(v))
		snprintf(buf, n, "-");
	else if (!strcmp(unit, "count"))
		snprintf(buf, n, "%.6g", v);
	else if (!strcmp(unit, "per_s"))
		snprintf(buf, n, "%.4g/s", v);
	else if (!strcmp(unit, "share"))
		snprintf(buf, n, "%.1f%%", v * 100);
	else
		pr_fmt_value(v, unit, buf, n);
}

/* ---- tables (the page script sorts th.n columns by data-v) ---- */

/* A numeric cell: sorts by v, shows v in unit. */
static void tdn(struct pr_strbuf *sb, double v, const char *unit)
{
	char buf[64];
	if (!isfinite(v)) {
		pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
		return;
	}
	fmt(v, unit, buf, sizeof(buf));
	pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.12g\">", v);
	esc(sb, buf);
	pr_strbuf_addstr(sb, "</td>");
}

/* A card; red = the value in the stragglers' red. */
static void card(struct pr_strbuf *sb, const char *value, const char *label, int red)
{
	pr_strbuf_addstr(sb, red ? "<div class=\"card\"><div class=\"v\" style=\"color:#d62728\">"
				 : "<div class=\"card\"><div class=\"v\">");
	esc(sb, value);
	pr_strbuf_addstr(sb, "</div><div class=\"l\">");
	esc(sb, label);
	pr_strbuf_addstr(sb, "</div></div>");
}

/* ---- sections ---- */

static void cards(struct pr_strbuf *sb, const json_t *doc)
{
	const json_t *st = json_object_get(json_object_get(doc, PRA_STRAGGLERS),
					   PRA_STRAGGLERS_RANKS),
		     *s, *w;
	char a[160], b[64];
	size_t i;
	pr_strbuf_addstr(sb, "<div class=\"cards\">");
	snprintf(a, sizeof(a), "%.0f", pr_mnum(doc, PRA_RANK_COUNT));
	snprintf(b, sizeof(b), "Ranks (%.0f inputs)%s", pr_mnum(doc, PRA_INPUTS),
		 json_is_true(json_object_get(doc, PRA_RANKS_INFERRED)) ? ", inferred" : "");
	card(sb, a, b, 0);
	if (isfinite(pr_mnum(doc, PRA_WORLD_SIZE)))
		snprintf(a, sizeof(a), "%.0f", pr_mnum(doc, PRA_WORLD_SIZE));
	else
		snprintf(a, sizeof(a), "-");
	card(sb, a, "World size", 0);
	if (!json_array_size(st)) {
		card(sb, "none", "Stragglers", 0);
	} else {
		a[0] = 0;
		json_array_foreach (st, i, s) {
			size_t len = strlen(a);
			if (i == 8) {
				snprintf(a + len, sizeof(a) - len, ", ...");
				break;
			}
			snprintf(a + len, sizeof(a) - len, "%s%.0f", i ? ", " : "rank ",
				 pr_mnum(s, PRA_STRAGGLERS_RANKS_RANK));
		}
		snprintf(b, sizeof(b), "Straggler%s", json_array_size(st) > 1 ? "s" : "");
		card(sb, a, b, 1);
	}
	pr_strbuf_addstr(sb, "</div>\n");
	json_array_foreach (json_object_get(doc, PRA_WARNINGS), i, w) {
		pr_strbuf_addstr(sb, "<div class=\"rec medium\"><strong>Warning:</strong> ");
		esc(sb, json_string_value(w));
		pr_strbuf_addstr(sb, "</div>\n");
	}
}

static void stragglers(struct pr_strbuf *sb, const json_t *doc)
{
	const json_t *sg = json_object_get(doc, PRA_STRAGGLERS), *s, *e;
	size_t i, j;
	pr_strbuf_addstr(sb, "<h3>Stragglers</h3>\n");
	if (!json_array_size(json_object_get(sg, PRA_STRAGGLERS_RANKS))) {
		pr_strbuf_addstr(sb, "<div class=\"rec\">");
		esc(sb, pr_mnum(doc, PRA_RANK_COUNT) < 3
				? "No straggler check: it needs at least 3 ranks."
				: "No straggler: no rank is an outlier.");
		pr_strbuf_addstr(sb, "</div>\n");
	}
	json_array_foreach (json_object_get(sg, PRA_STRAGGLERS_RANKS), i, s) {
		pr_strbuf_addstr(sb, "<div class=\"rec high\"><strong>");
		esc(sb, pr_mstr(s, PRA_STRAGGLERS_RANKS_SUMMARY));
		pr_strbuf_addstr(sb, "</strong><ul>");
		json_array_foreach (json_object_get(s, PRA_STRAGGLERS_RANKS_EVIDENCE), j, e) {
			char v[64], m[64], d[64];
			/* GPU idle evidence is a share of the GPU span; the rest are times */
			int gpu = json_is_number(
				json_object_get(e, PRA_STRAGGLERS_RANKS_EVIDENCE_HOST_WAIT_SHARE));
			/* and critical-path evidence a share of the rank's critical path */
			int cp = !strcmp(pr_mstr(e, PRA_STRAGGLERS_RANKS_EVIDENCE_WHAT),
					 "critical path");
			const char *unit = gpu || cp ? "share" : "ns";
			fmt(pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_VALUE), unit, v, sizeof(v));
			fmt(pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_MEDIAN), unit, m, sizeof(m));
			fmt(pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_MAD), unit, d, sizeof(d));
			pr_strbuf_addstr(sb, "<li>");
			esc(sb, pr_mstr(e, PRA_STRAGGLERS_RANKS_EVIDENCE_TEXT));
			pr_strbuf_addstr(sb, " &mdash; ");
			esc(sb, pr_mstr(e, PRA_STRAGGLERS_RANKS_EVIDENCE_WHAT));
			pr_strbuf_addstr(sb, " <code>");
			esc(sb, pr_mstr(e, PRA_STRAGGLERS_RANKS_EVIDENCE_NAME));
			pr_strbuf_addstr(sb, "</code>: ");
			if (json_is_string(
				    json_object_get(e, PRA_STRAGGLERS_RANKS_EVIDENCE_DETAIL))) {
				esc(sb, pr_mstr(e, PRA_STRAGGLERS_RANKS_EVIDENCE_DETAIL));
				pr_strbuf_addstr(sb, "</li>");
				continue;
			}
			esc(sb, v);
			pr_strbuf_addstr(sb, " vs median ");
			esc(sb, m);
			pr_strbuf_addf(sb, " (%.2fx), MAD ",
				       pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_RATIO));
			esc(sb, d);
			pr_strbuf_addf(sb, ", z = %.1f",
				       pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_Z));
			if (gpu)
				pr_strbuf_addf(
					sb, "; host wait %.1f%% of its idle time",
					pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_HOST_WAIT_SHARE) *
						100);
			pr_strbuf_addstr(sb, "</li>");
		}
		pr_strbuf_addstr(sb, "</ul></div>\n");
	}
	pr_strbuf_addstr(sb, "<p class=\"meta\">Rule: ");
	esc(sb, pr_mstr(sg, PRA_STRAGGLERS_RULE));
	pr_strbuf_addstr(sb, "</p>\n");
}

static int panels(struct pr_strbuf *sb, const json_t *doc, struct pr_error *err)
{
	return pr_html_panels(sb, pr_agg_panels_build(doc), "agg-", err);
}

static void stats_table(struct pr_strbuf *sb, const json_t *doc)
{
	static const char *const h[] = { "Category", "Name",	"#Ranks",     "#Min",
					 "#Median",  "#Max",	"#Mean",      "#Std",
					 "#Argmin",  "#Argmax", "#Imbalance", NULL };
	const json_t *stats = json_object_get(doc, PRA_STATS), *s;
	size_t i, n = json_array_size(stats);
	pr_label_t *lab;
	if (!n)
		return;
	pr_strbuf_addstr(
		sb, "<h3>Across ranks</h3>\n<p class=\"meta\">One row per (category, name); "
		    "imbalance = max / mean; argmin/argmax = the rank (ties: the lowest).</p>\n");
	lab = pr_html_name_column(stats, PRA_STATS_NAME, PR_HTML_ROWS);
	pr_html_table_begin(sb, h);
	json_array_foreach (stats, i, s) {
		const char *u = pr_mstr(s, PRA_STATS_UNIT), *kind = pr_mstr(s, PRA_STATS_KIND);
		char name[600], shown[PR_LABEL + 160];
		if (i >= PR_HTML_ROWS)
			break;
		/* the name as its column shows it (names.h), the kind after it */
		if (*kind) {
			snprintf(name, sizeof(name), "%.400s (%.150s)", pr_mstr(s, PRA_STATS_NAME),
				 kind);
			snprintf(shown, sizeof(shown), "%s (%.150s)", lab[i], kind);
		} else {
			snprintf(name, sizeof(name), "%.500s", pr_mstr(s, PRA_STATS_NAME));
			snprintf(shown, sizeof(shown), "%s", lab[i]);
		}
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(s, PRA_STATS_CATEGORY));
		pr_html_td_shown(sb, name, shown);
		tdn(sb, pr_mnum(s, PRA_STATS_RANKS), "count");
		tdn(sb, pr_mnum(s, PRA_STATS_MIN), u);
		tdn(sb, pr_mnum(s, PRA_STATS_MEDIAN), u);
		tdn(sb, pr_mnum(s, PRA_STATS_MAX), u);
		tdn(sb, pr_mnum(s, PRA_STATS_MEAN), u);
		tdn(sb, pr_mnum(s, PRA_STATS_STD), u);
		tdn(sb, pr_mnum(s, PRA_STATS_ARGMIN), "count");
		tdn(sb, pr_mnum(s, PRA_STATS_ARGMAX), "count");
		if (isfinite(pr_mnum(s, PRA_STATS_IMBALANCE)))
			pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.12g\">%.2f</td>",
				       pr_mnum(s, PRA_STATS_IMBALANCE),
				       pr_mnum(s, PRA_STATS_IMBALANCE));
		else
			pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	free(lab);
	pr_html_table_end(sb, i, n, "agg.json");
}

/* The largest stage of a rank row ("" when none). */
static const char *largest_stage(const json_t *r, double *v)
{
	const char *k, *best = "";
	json_t *x;
	*v = NAN;
	json_object_foreach (json_object_get(r, PRA_RANKS_STAGES), k, x)
		if (json_is_number(x) && !(json_number_value(x) <= *v)) {
			*v = json_number_value(x);
			best = k;
		}
	return best;
}

/* The largest bytes peak of a rank row outside "sys.*" (else any); NAN when none. */
static double peak(const json_t *r, const char **series)
{
	json_t *p;
	size_t i;
	double best = NAN;
	int pass;
	*series = "";
	for (pass = 0; pass < 2 && isnan(best); pass++)
		json_array_foreach (json_object_get(r, PRA_RANKS_PEAKS), i, p) {
			if (strcmp(pr_mstr(p, PRA_RANKS_PEAKS_UNIT), "bytes") ||
			    (pass == 0 && !strncmp(pr_mstr(p, PRA_RANKS_PEAKS_SERIES), "sys.", 4)))
				continue;
			if (!(pr_mnum(p, PRA_RANKS_PEAKS_VALUE) <= best)) {
				best = pr_mnum(p, PRA_RANKS_PEAKS_VALUE);
				*series = pr_mstr(p, PRA_RANKS_PEAKS_SERIES);
			}
		}
	return best;
}

static int is_straggler(const json_t *doc, double rank)
{
	json_t *s;
	size_t i;
	json_array_foreach (json_object_get(json_object_get(doc, PRA_STRAGGLERS),
					    PRA_STRAGGLERS_RANKS),
			    i, s)
		if (pr_mnum(s, PRA_STRAGGLERS_RANKS_RANK) == rank)
			return 1;
	return 0;
}

static void ranks_table(struct pr_strbuf *sb, const json_t *doc)
{
	static const char *const h[] = { "#Rank",	  "",	       "Source",
					 "Format",	  "#Duration", "#Steps",
					 "#Step mean",	  "#Step p50", "#Collective wait",
					 "Largest stage", "#Its time", "#Peak memory",
					 "Peak series",	  NULL };
	const json_t *ranks = json_object_get(doc, PRA_RANKS), *r;
	size_t i, n = json_array_size(ranks);
	if (!n)
		return;
	pr_strbuf_addstr(sb, "<h3>Per rank</h3>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach (ranks, i, r) {
		const json_t *st = json_object_get(r, PRA_RANKS_STEPS);
		const char *series, *stage;
		double sv, pk = peak(r, &series);
		int strag = is_straggler(doc, pr_mnum(r, PRA_RANKS_RANK));
		if (i >= PR_HTML_ROWS)
			break;
		stage = largest_stage(r, &sv);
		pr_strbuf_addstr(sb, "<tr>");
		tdn(sb, pr_mnum(r, PRA_RANKS_RANK), "count");
		pr_strbuf_addf(sb, "<td class=\"%s\">%s</td>", strag ? "diff" : "ok",
			       strag ? "straggler" : "");
		pr_html_td(sb, pr_mstr(r, PRA_RANKS_SOURCE));
		pr_html_td(sb, pr_mstr(r, PRA_RANKS_FORMAT));
		tdn(sb, pr_mnum(r, PRA_RANKS_DURATION_NS), "ns");
		tdn(sb, pr_mnum(st, PRA_RANKS_STEPS_COUNT), "count");
		tdn(sb, pr_mnum(st, PRA_RANKS_STEPS_MEAN_NS), "ns");
		tdn(sb, pr_mnum(st, PRA_RANKS_STEPS_P50_NS), "ns");
		tdn(sb, pr_mnum(r, PRA_RANKS_COLLECTIVE_NS), "ns");
		pr_html_td(sb, stage);
		tdn(sb, sv, "ns");
		tdn(sb, pk, "bytes");
		pr_html_td(sb, series);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_table_end(sb, i, n, "agg.json");
}

/* Per rank GPU temporal breakdown (HTA) and overlap; nothing when no rank has GPU ops. */
static void gpu_table(struct pr_strbuf *sb, const json_t *doc)
{
	static const char *const h[] = {
		"#Rank", "",	       "#GPU span",    "#Compute",    "#Communication",	  "#Memory",
		"#Idle", "#Host wait", "#Kernel wait", "#Other idle", "#Comm overlapped", NULL
	};
	static const char *const k[] = {
		PRA_RANKS_GPU_COMPUTE_SHARE,	    PRA_RANKS_GPU_COMMUNICATION_SHARE,
		PRA_RANKS_GPU_MEMORY_SHARE,	    PRA_RANKS_GPU_IDLE_SHARE,
		PRA_RANKS_GPU_IDLE_HOST_WAIT_SHARE, PRA_RANKS_GPU_IDLE_KERNEL_WAIT_SHARE,
		PRA_RANKS_GPU_IDLE_OTHER_SHARE,	    PRA_RANKS_GPU_OVERLAP_SHARE
	};
	const json_t *ranks = json_object_get(doc, PRA_RANKS), *r;
	size_t i, j, n = 0, shown = 0;
	json_array_foreach (ranks, i, r)
		n += json_is_object(json_object_get(r, PRA_RANKS_GPU));
	if (!n)
		return;
	pr_strbuf_addstr(
		sb, "<h3>GPU per rank</h3>\n<p class=\"meta\">HTA's temporal breakdown over "
		    "each rank's first-to-last GPU op: compute, communication (not "
		    "overlapped by compute), memory and idle as shares of that span; host "
		    "wait, kernel wait and other as shares of the idle time; comm overlapped: "
		    "the share of communication kernel time that compute kernels overlap.</p>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach (ranks, i, r) {
		const json_t *g = json_object_get(r, PRA_RANKS_GPU);
		int strag = is_straggler(doc, pr_mnum(r, PRA_RANKS_RANK));
		if (!json_is_object(g))
			continue;
		if (shown >= PR_HTML_ROWS)
			break;
		shown++;
		pr_strbuf_addstr(sb, "<tr>");
		tdn(sb, pr_mnum(r, PRA_RANKS_RANK), "count");
		pr_strbuf_addf(sb, "<td class=\"%s\">%s</td>", strag ? "diff" : "ok",
			       strag ? "straggler" : "");
		tdn(sb, pr_mnum(g, PRA_RANKS_GPU_SPAN_NS), "ns");
		for (j = 0; j < PR_ARRAY_SIZE(k); j++)
			tdn(sb, pr_mnum(g, k[j]), "share");
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_table_end(sb, shown, n, "agg.json");
}

static void checks_table(struct pr_strbuf *sb, const json_t *doc)
{
	static const char *const h[] = { "Check",   "Name", "Straggler is", "#Ranks",
					 "#Median", "#MAD", "Outliers",	    NULL };
	const json_t *checks = json_object_get(json_object_get(doc, PRA_STRAGGLERS),
					       PRA_STRAGGLERS_CHECKS),
		     *c, *o;
	size_t i, j, n = json_array_size(checks);
	if (!n)
		return;
	pr_label_t *lab = pr_html_name_column(checks, PRA_STRAGGLERS_CHECKS_NAME, PR_HTML_ROWS);
	pr_strbuf_addstr(sb, "<h3>Straggler checks</h3>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach (checks, i, c) {
		struct pr_strbuf out = PR_STRBUF_INIT;
		if (i >= PR_HTML_ROWS)
			break;
		json_array_foreach (json_object_get(c, PRA_STRAGGLERS_CHECKS_OUTLIERS), j, o)
			pr_strbuf_addf(&out, "%srank %.0f (%.2fx, z = %.1f)", j ? ", " : "",
				       pr_mnum(o, PRA_STRAGGLERS_CHECKS_OUTLIERS_RANK),
				       pr_mnum(o, PRA_STRAGGLERS_CHECKS_OUTLIERS_RATIO),
				       pr_mnum(o, PRA_STRAGGLERS_CHECKS_OUTLIERS_Z));
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(c, PRA_STRAGGLERS_CHECKS_WHAT));
		pr_html_td_shown(sb, pr_mstr(c, PRA_STRAGGLERS_CHECKS_NAME), lab[i]);
		pr_html_td(sb, pr_mstr(c, PRA_STRAGGLERS_CHECKS_STRAGGLER_IS));
		tdn(sb, pr_mnum(c, PRA_STRAGGLERS_CHECKS_RANKS), "count");
		{
			int sh = !strcmp(pr_mstr(c, PRA_STRAGGLERS_CHECKS_WHAT), "gpu idle") ||
				 !strcmp(pr_mstr(c, PRA_STRAGGLERS_CHECKS_WHAT), "critical path");
			tdn(sb, pr_mnum(c, PRA_STRAGGLERS_CHECKS_MEDIAN), sh ? "share" : "ns");
			tdn(sb, pr_mnum(c, PRA_STRAGGLERS_CHECKS_MAD), sh ? "share" : "ns");
		}
		pr_html_td(sb, out.len ? out.buf : "none");
		pr_strbuf_addstr(sb, "</tr>\n");
		pr_strbuf_release(&out);
	}
	free(lab);
	pr_html_table_end(sb, i, n, "agg.json");
}

int pr_agg_html(const json_t *doc, struct pr_output *out, struct pr_error *err)
{
	struct pr_strbuf body = PR_STRBUF_INIT;
	char title[128], sub[160];
	int rc;
	pr_strbuf_addstr(&body, "<section class=\"run\" id=\"aggregate\"><h2>Aggregate</h2>\n");
	cards(&body, doc);
	stragglers(&body, doc);
	if (panels(&body, doc, err)) {
		pr_strbuf_release(&body);
		return -1;
	}
	stats_table(&body, doc);
	ranks_table(&body, doc);
	gpu_table(&body, doc);
	checks_table(&body, doc);
	pr_strbuf_addstr(&body, "</section>\n");
	snprintf(title, sizeof(title), "profreport aggregate: %.0f ranks",
		 pr_mnum(doc, PRA_RANK_COUNT));
	snprintf(sub, sizeof(sub), "%.60s v%.0f, %.0f inputs", pr_mstr(doc, PRA_SCHEMA),
		 pr_mnum(doc, PRA_VERSION), pr_mnum(doc, PRA_INPUTS));
	rc = pr_html_page(title, sub, body.buf, out, err);
	pr_strbuf_release(&body);
	return rc;
}
