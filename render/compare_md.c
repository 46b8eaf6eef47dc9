/* compare_md.c - a comparison as a GitHub pull-request comment (asv-style table). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare_text.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "render/names.h"

/* A name as inline code inside a table cell: '|' escaped, '`' replaced. */
static void code(struct pr_strbuf *sb, const char *s)
{
	pr_strbuf_addch(sb, '`');
	for (; *s; s++) {
		if (*s == '|')
			pr_strbuf_addstr(sb, "\\|");
		else if (*s == '`')
			pr_strbuf_addch(sb, '\'');
		else if (*s == '\n' || *s == '\r')
			pr_strbuf_addch(sb, ' ');
		else
			pr_strbuf_addch(sb, *s);
	}
	pr_strbuf_addch(sb, '`');
}

/*
 * The metric names of a table as shown (render/names.h: demangled, no return
 * type or argument list, never two alike); free() the result. A comment has
 * no hover: the width is the widest label (PR_LABEL - 1 bytes).
 */
static pr_label_t *labels(const json_t *metrics)
{
	size_t i, n = json_array_size(metrics);
	const char **ids = pr_xcalloc(n + 1, sizeof(*ids));
	pr_label_t *lab = pr_xcalloc(n + 1, sizeof(*lab));
	for (i = 0; i < n; i++)
		ids[i] = pr_mstr(json_array_get(metrics, i), "id");
	pr_name_column(lab, ids, n, PR_LABEL - 1);
	free(ids);
	return lab;
}

/* new - base in the metric's unit, signed ("+77.260 us"), and the change in percent ("+19.1%"). */
static void delta_cells(const json_t *m, char *d, size_t dn, char *p, size_t pn)
{
	const json_t *b = json_object_get(m, "base"), *n = json_object_get(m, "new");
	double x, y;
	json_t *abs_v;
	snprintf(d, dn, "-");
	snprintf(p, pn, "-");
	if (!json_is_number(b) || !json_is_number(n))
		return;
	x = json_number_value(b);
	y = json_number_value(n);
	abs_v = json_real(fabs(y - x));
	pr_compare_fmt_value(abs_v, pr_mstr(m, "unit"), d + 1, dn - 1);
	d[0] = y >= x ? '+' : '-';
	json_decref(abs_v);
	if (x != 0)
		snprintf(p, pn, "%+.1f%%", (y / x - 1) * 100);
}

static void row(struct pr_strbuf *sb, const json_t *m, const char *shown, int details)
{
	char b[48], n[48], r[16], t[48], rule[96];
	const char *mark = pr_mstr(m, "mark");
	pr_compare_fmt_value(json_object_get(m, "base"), pr_mstr(m, "unit"), b, sizeof(b));
	pr_compare_fmt_value(json_object_get(m, "new"), pr_mstr(m, "unit"), n, sizeof(n));
	pr_compare_fmt_ratio(m, r, sizeof(r));
	pr_compare_fmt_rule(m, 0, rule, sizeof(rule));
	if (!details) {
		char d[56], p[24];
		delta_cells(m, d, sizeof(d), p, sizeof(p));
		pr_strbuf_addf(sb, "| %s | ", strcmp(mark, " ") ? mark : "");
		code(sb, shown);
		pr_strbuf_addf(sb, " | %s | %s | %s | %s | %s | %s |\n", b, n, d, p,
			       pr_mstr(json_object_get(m, "threshold"), "text"), rule);
		return;
	}
	pr_strbuf_addf(sb, "| %s | %s | %s | %s | ", strcmp(mark, " ") ? mark : "", b, n, r);
	code(sb, shown);
	if (details) {
		const json_t *test = json_object_get(m, "test"), *ci = json_object_get(test, "hl_ci");
		pr_compare_fmt_test(m, t, sizeof(t));
		pr_strbuf_addf(sb, " | %lld / %lld | %s", (long long)json_integer_value(json_object_get(m, "n1")),
			       (long long)json_integer_value(json_object_get(m, "n2")), t);
		if (json_is_number(json_object_get(test, "hl_shift"))) {
			char s[48], lo[48], hi[48];
			pr_compare_fmt_value(json_object_get(test, "hl_shift"), pr_mstr(m, "unit"), s, sizeof(s));
			pr_compare_fmt_value(json_array_get(ci, 0), pr_mstr(m, "unit"), lo, sizeof(lo));
			pr_compare_fmt_value(json_array_get(ci, 1), pr_mstr(m, "unit"), hi, sizeof(hi));
			pr_strbuf_addf(sb, ", shift %s [%s, %s]", s, lo, hi);
		}
		pr_compare_fmt_ratio_ci(m, t, sizeof(t));
		if (*t)
			pr_strbuf_addf(sb, ", ratio %s", t);
		pr_strbuf_addf(sb, " | %s | %s | %s", pr_mstr(json_object_get(m, "threshold"), "text"),
			       pr_mstr(m, "verdict"), rule);
	}
	pr_strbuf_addstr(sb, " |\n");
}

void pr_compare_render_md(const json_t *cmp, struct pr_strbuf *sb)
{
	const json_t *metrics = json_object_get(cmp, "metrics"), *m, *floor;
	const json_t *st = json_object_get(cmp, "settings");
	size_t i, changed = 0;
	pr_label_t *lab = labels(metrics);
	pr_strbuf_addstr(sb, "### profreport compare: **");
	pr_compare_summary_line(cmp, sb);
	pr_strbuf_addstr(sb, "**\n\n");
	json_array_foreach(metrics, i, m)
		changed += strcmp(pr_mstr(m, "verdict"), "unchanged") != 0;
	if (changed) {
		pr_strbuf_addstr(sb, "| Change | Metric | Before | After | Delta | Change % | Threshold | Decided by |\n"
				     "|:------:|:-------|-------:|------:|------:|---------:|:----------|:-----------|\n");
		json_array_foreach(metrics, i, m)
			if (strcmp(pr_mstr(m, "verdict"), "unchanged"))
				row(sb, m, lab[i], 0);
	} else {
		pr_strbuf_addstr(sb, "No metric changed beyond its threshold.\n");
	}
	pr_strbuf_addf(sb,
		       "\nDelta = after - before; Change %% = after / before - 1; Threshold = how far "
		       "the metric may move in its worse direction before it is a regression (`pp`: "
		       "percentage points of a share).\n`+` worse, `-` better, `~` beyond the threshold but not significant "
		       "(Mann-Whitney p >= %g; with too few samples for p < %g, a 95 %% bootstrap CI "
		       "of new/base not wholly beyond the threshold), `x` added, `!` removed "
		       "(a missing step time, phase, peak or throughput fails, and so does a GPU "
		       "metric when NEW has no GPU op), `#` calls per "
		       "step changed.\n",
		       json_number_value(json_object_get(st, "alpha")),
		       json_number_value(json_object_get(st, "alpha")));
	pr_strbuf_addf(sb, "\n<details><summary>All %zu compared metrics</summary>\n\n",
		       json_array_size(metrics));
	pr_strbuf_addstr(sb, "| Change | Before | After | Ratio | Metric | n base / new | Test | Threshold | Verdict | Decided by |\n"
			     "|:------:|-------:|------:|------:|:-------|-------------:|:-----|:----------|:--------|:-----------|\n");
	json_array_foreach(metrics, i, m)
		row(sb, m, lab[i], 1);
	free(lab);
	pr_strbuf_addstr(sb, "\n</details>\n");
	floor = json_object_get(cmp, "below_noise_floor");
	if (json_array_size(floor)) {
		pr_strbuf_addf(sb,
			       "\n<details><summary>%zu span and GPU time metrics below the noise floor (not gated: under "
			       "%g %% of run time or %g us)</summary>\n\n",
			       json_array_size(floor), 100 * json_number_value(json_object_get(st, "noise_floor")),
			       json_number_value(json_object_get(st, "min_us")));
		lab = labels(floor);
		json_array_foreach(floor, i, m) {
			pr_strbuf_addstr(sb, "- ");
			code(sb, lab[i]);
			pr_strbuf_addch(sb, '\n');
		}
		free(lab);
		pr_strbuf_addstr(sb, "\n</details>\n");
	}
	if (json_array_size(json_object_get(cmp, "ignored")))
		pr_strbuf_addf(sb, "\n%zu metric(s) ignored by --ignore.\n",
			       json_array_size(json_object_get(cmp, "ignored")));
}
