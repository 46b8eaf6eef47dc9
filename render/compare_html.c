/* compare_html.c - the HTML page of a comparison (see compare_panel.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare_panel.h"
#include "render/compare_text.h"
#include "base/jsonx.h"
#include "base/escape.h"
#include "render/html_report.h"
#include "base/strbuf.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

static void esc(struct pr_strbuf *sb, const char *s)
{
	pr_xml_escape(sb, s);
}

/* ---- tables (the page script sorts th.n columns by data-v) ---- */

/* A numeric cell: sorts by the JSON number v, shows text. */
static void tdv(struct pr_strbuf *sb, const json_t *v, const char *text)
{
	if (!json_is_number(v) || !isfinite(json_number_value(v))) {
		pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
		return;
	}
	pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.17g\">", json_number_value(v));
	esc(sb, text);
	pr_strbuf_addstr(sb, "</td>");
}

/* A metric value in its unit. */
static void tdu(struct pr_strbuf *sb, const json_t *v, const char *unit)
{
	char buf[64];
	pr_compare_fmt_value(v, unit, buf, sizeof(buf));
	tdv(sb, v, buf);
}

/* A count card; color "" = the default, else a CSS colour for the number. */
static void card(struct pr_strbuf *sb, size_t value, const char *label, const char *color)
{
	pr_strbuf_addstr(sb, "<div class=\"card\"><div class=\"v\"");
	if (*color)
		pr_strbuf_addf(sb, " style=\"color:%s\"", color);
	pr_strbuf_addf(sb, ">%zu</div><div class=\"l\">", value);
	esc(sb, label);
	pr_strbuf_addstr(sb, "</div></div>");
}

/* ---- sections ---- */

static void side(struct pr_strbuf *sb, const char *what, const json_t *s)
{
	const json_t *l;
	size_t i, n = json_array_size(json_object_get(s, PRC_BASE_LABELS));
	pr_strbuf_addf(sb, "%s: %lld run%s (", what,
		       (long long)json_integer_value(json_object_get(s, PRC_BASE_RUNS)),
		       pr_mnum(s, PRC_BASE_RUNS) == 1 ? "" : "s");
	json_array_foreach (json_object_get(s, PRC_BASE_LABELS), i, l) {
		if (i == 8) {
			pr_strbuf_addf(sb, ", ... %zu more", n - i);
			break;
		}
		if (i)
			pr_strbuf_addstr(sb, ", ");
		pr_strbuf_addstr(sb, "<code>");
		esc(sb, json_string_value(l));
		pr_strbuf_addstr(sb, "</code>");
	}
	pr_strbuf_addstr(sb, ")");
}

static size_t count(const json_t *sum, const char *k)
{
	json_int_t v = json_integer_value(json_object_get(sum, k));
	return v > 0 ? (size_t)v : 0;
}

static void banner(struct pr_strbuf *sb, const json_t *cmp)
{
	const json_t *sum = json_object_get(cmp, PRC_SUMMARY);
	struct pr_strbuf line = PR_STRBUF_INIT;
	int fail = !strcmp(pr_mstr(sum, PRC_SUMMARY_STATUS), "fail");
	pr_compare_summary_line(cmp, &line);
	pr_strbuf_addf(sb, "<div class=\"rec%s\" id=\"verdict\" style=\"font-size:18px\"><strong>",
		       fail ? " high" : "");
	esc(sb, line.buf);
	pr_strbuf_addstr(sb, "</strong><div class=\"why\">");
	side(sb, "base", json_object_get(cmp, PRC_BASE));
	pr_strbuf_addstr(sb, " &middot; ");
	side(sb, "new", json_object_get(cmp, PRC_NEW));
	pr_strbuf_addf(sb, " &middot; exit status %d</div></div>\n", fail ? 1 : 0);
	pr_strbuf_release(&line);

	pr_strbuf_addstr(sb, "<div class=\"cards\">");
	card(sb, count(sum, PRC_SUMMARY_METRICS), "Metrics compared", "");
	card(sb, count(sum, PRC_SUMMARY_REGRESSIONS), "Regressions (+)",
	     count(sum, PRC_SUMMARY_REGRESSIONS) ? "#d62728" : "");
	if (count(sum, PRC_SUMMARY_MISSING))
		card(sb, count(sum, PRC_SUMMARY_MISSING), "Key metrics missing (!)", "#d62728");
	card(sb, count(sum, PRC_SUMMARY_IMPROVEMENTS), "Improvements (-)",
	     count(sum, PRC_SUMMARY_IMPROVEMENTS) ? "#2ca02c" : "");
	if (count(sum, PRC_SUMMARY_CALLS_CHANGED))
		card(sb, count(sum, PRC_SUMMARY_CALLS_CHANGED), "Calls/step changed (#)", "");
	if (count(sum, PRC_SUMMARY_INCONCLUSIVE))
		card(sb, count(sum, PRC_SUMMARY_INCONCLUSIVE), "Inconclusive (?)", "#ff7f0e");
	card(sb, count(sum, PRC_SUMMARY_NOISE), "Not significant (~)", "");
	card(sb, count(sum, PRC_SUMMARY_UNCHANGED), "Unchanged", "");
	card(sb, count(sum, PRC_SUMMARY_ADDED), "Added (x)", "");
	card(sb, count(sum, PRC_SUMMARY_REMOVED), "Removed (!)", "");
	card(sb, count(sum, PRC_SUMMARY_BELOW_NOISE_FLOOR), "Below noise floor", "");
	card(sb, count(sum, PRC_SUMMARY_IGNORED), "Ignored", "");
	pr_strbuf_addstr(sb, "</div>\n");
}

static int panels(struct pr_strbuf *sb, const json_t *cmp, const json_t *base, const json_t *newm,
		  struct pr_error *err)
{
	return pr_html_panels(sb, pr_compare_panels_build(cmp, base, newm), "cmp-", err);
}

static void metrics_table(struct pr_strbuf *sb, const json_t *cmp)
{
	static const char *const h[] = { "",	   "Metric",	 "Kind",	   "#Before",
					 "#After", "#Ratio",	 "#Ratio 95 % CI", "#Change %",
					 "#p",	   "Decided by", "Threshold",	   "Verdict",
					 NULL };
	const json_t *all = json_object_get(cmp, PRC_METRICS), *m;
	size_t i, n = json_array_size(all), *order = pr_compare_order(all);
	json_t *metrics = json_array(); /* borrowed rows in report order: what failed first */
	pr_label_t *lab;
	pr_strbuf_addstr(
		sb,
		"<h3>Metrics</h3>\n<p class=\"meta\">Marks as in asv: + regression, - improvement, "
		"? inconclusive (a headline metric beyond its threshold that the "
		"samples cannot confirm; it fails when the change beyond the "
		"threshold exceeds 4 x the runs' spread), "
		"~ beyond the threshold but not significant, x added, ! removed "
		"(a missing key metric fails), # calls per step changed. "
		"Ratio = new / base; its 95 % CI is a percentile bootstrap of the "
		"ratio of medians. Decided by: Mann-Whitney p when the samples can reach "
		"alpha, else that CI wholly beyond the threshold; one value a side: the "
		"threshold alone.</p>\n");
	for (i = 0; i < n; i++)
		json_array_append(metrics, json_array_get(all, order[i]));
	free(order);
	if (!n) {
		pr_strbuf_addstr(sb, "<p>No metrics.</p>\n");
		json_decref(metrics);
		return;
	}
	lab = pr_html_name_column(metrics, PRC_METRICS_ID, PR_HTML_ROWS);
	pr_html_table_begin(sb, h);
	json_array_foreach (metrics, i, m) {
		const char *v = pr_mstr(m, PRC_METRICS_VERDICT),
			   *unit = pr_mstr(m, PRC_METRICS_UNIT);
		const char *cls = !strcmp(v, "regression")    ? "diff"
				  : !strcmp(v, "improvement") ? "ok"
							      : "";
		const json_t *test = json_object_get(m, PRC_METRICS_TEST),
			     *th = json_object_get(m, PRC_METRICS_THRESHOLD);
		json_t *pct = NULL;
		char buf[96];
		if (i >= PR_HTML_ROWS)
			break;
		pr_strbuf_addf(sb, "<tr><td class=\"%s\">", *cls ? cls : "name");
		esc(sb, pr_mstr(m, PRC_METRICS_MARK));
		pr_strbuf_addstr(sb, "</td>");
		pr_html_td_shown(sb, pr_mstr(m, PRC_METRICS_ID), lab[i]);
		pr_html_td(sb, pr_mstr(m, PRC_METRICS_KIND));
		tdu(sb, json_object_get(m, PRC_METRICS_BASE), unit);
		tdu(sb, json_object_get(m, PRC_METRICS_NEW), unit);
		pr_compare_fmt_ratio(m, buf, sizeof(buf));
		tdv(sb, json_object_get(m, PRC_METRICS_RATIO), buf);
		pr_compare_fmt_ratio_ci(m, buf, sizeof(buf));
		tdv(sb, json_array_get(json_object_get(test, PRC_METRICS_TEST_RATIO_CI), 0), buf);
		if (isfinite(pr_mnum(m, PRC_METRICS_RATIO)))
			pct = json_real((pr_mnum(m, PRC_METRICS_RATIO) - 1) * 100);
		snprintf(buf, sizeof(buf), "%+.1f", pct ? json_real_value(pct) : 0.0);
		tdv(sb, pct, buf);
		json_decref(pct);
		snprintf(buf, sizeof(buf), "%.2g", pr_mnum(test, PRC_METRICS_TEST_P));
		tdv(sb, json_object_get(test, PRC_METRICS_TEST_P), buf);
		pr_compare_fmt_rule(m, 0, buf, sizeof(buf));
		pr_html_td(sb, buf);
		pr_html_td(sb, json_is_false(json_object_get(th, PRC_METRICS_THRESHOLD_GATED))
				       ? "not gated"
				       : pr_mstr(th, PRC_METRICS_THRESHOLD_TEXT));
		pr_strbuf_addf(sb, "<td class=\"%s\">", *cls ? cls : "name");
		esc(sb, v);
		pr_strbuf_addstr(sb, "</td></tr>\n");
	}
	free(lab);
	json_decref(metrics);
	pr_html_table_end(sb, i, n, "compare --to json");
}

static void floor_table(struct pr_strbuf *sb, const json_t *cmp)
{
	static const char *const h[] = { "Metric", "#Before", "#After", NULL };
	const json_t *arr = json_object_get(cmp, PRC_BELOW_NOISE_FLOOR), *m, *ig;
	size_t i, n = json_array_size(arr);
	if (n) {
		pr_label_t *lab = pr_html_name_column(arr, PRC_BELOW_NOISE_FLOOR_ID, PR_HTML_ROWS);
		pr_strbuf_addstr(sb, "<h3>Below the noise floor (not gated)</h3>\n");
		pr_html_table_begin(sb, h);
		json_array_foreach (arr, i, m) {
			if (i >= PR_HTML_ROWS)
				break;
			pr_strbuf_addstr(sb, "<tr>");
			pr_html_td_shown(sb, pr_mstr(m, PRC_BELOW_NOISE_FLOOR_ID), lab[i]);
			tdu(sb, json_object_get(m, PRC_BELOW_NOISE_FLOOR_BASE), "ns");
			tdu(sb, json_object_get(m, PRC_BELOW_NOISE_FLOOR_NEW), "ns");
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		free(lab);
		pr_html_table_end(sb, i, n, "compare --to json");
	}
	if (json_array_size(json_object_get(cmp, PRC_IGNORED))) {
		pr_strbuf_addstr(sb, "<h3>Ignored (--ignore)</h3>\n<p>");
		json_array_foreach (json_object_get(cmp, PRC_IGNORED), i, ig) {
			if (i)
				pr_strbuf_addstr(sb, ", ");
			pr_strbuf_addstr(sb, "<code>");
			esc(sb, json_string_value(ig));
			pr_strbuf_addstr(sb, "</code>");
		}
		pr_strbuf_addstr(sb, "</p>\n");
	}
}

static void settings(struct pr_strbuf *sb, const json_t *cmp)
{
	const json_t *s = json_object_get(cmp, PRC_SETTINGS), *v;
	const char *k;
	size_t i;
	pr_strbuf_addf(
		sb,
		"<p class=\"meta\">Gate: alpha %g, noise floor %g %% of run time or %g us; defaults ",
		pr_mnum(s, PRC_SETTINGS_ALPHA), 100 * pr_mnum(s, PRC_SETTINGS_NOISE_FLOOR),
		pr_mnum(s, PRC_SETTINGS_MIN_US));
	i = 0;
	json_object_foreach (json_object_get(s, PRC_SETTINGS_DEFAULTS), k, v) {
		pr_strbuf_addstr(sb, i++ ? ", " : "");
		esc(sb, k);
		pr_strbuf_addstr(sb, " ");
		esc(sb, json_string_value(v));
	}
	json_array_foreach (json_object_get(s, PRC_SETTINGS_FAIL_ON), i, v) {
		pr_strbuf_addstr(sb, i ? ", " : "; --fail-on ");
		esc(sb, json_string_value(v));
	}
	json_array_foreach (json_object_get(s, PRC_SETTINGS_IGNORE), i, v) {
		pr_strbuf_addstr(sb, i ? ", " : "; --ignore ");
		esc(sb, json_string_value(v));
	}
	pr_strbuf_addstr(sb, ".</p>\n");
}

int pr_compare_html(const json_t *cmp, const json_t *base, const json_t *newm,
		    struct pr_output *out, struct pr_error *err)
{
	struct pr_strbuf body = PR_STRBUF_INIT;
	char sub[160];
	int rc;
	pr_strbuf_addstr(&body, "<section class=\"run\" id=\"compare\"><h2>Comparison</h2>\n");
	banner(&body, cmp);
	if (panels(&body, cmp, base, newm, err)) {
		pr_strbuf_release(&body);
		return -1;
	}
	metrics_table(&body, cmp);
	floor_table(&body, cmp);
	settings(&body, cmp);
	pr_strbuf_addstr(&body, "</section>\n");
	snprintf(sub, sizeof(sub), "%.60s v%.0f: %s", pr_mstr(cmp, PRC_SCHEMA),
		 pr_mnum(cmp, PRC_VERSION),
		 strcmp(pr_mstr(json_object_get(cmp, PRC_SUMMARY), PRC_SUMMARY_STATUS), "fail")
			 ? "PASS"
			 : "FAIL");
	rc = pr_html_page("profreport compare", sub, body.buf, out, err);
	pr_strbuf_release(&body);
	return rc;
}
