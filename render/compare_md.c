/* compare_md.c - a comparison as a GitHub pull-request comment (asv-style table). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare_text.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "render/names.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

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
		ids[i] = pr_mstr(json_array_get(metrics, i), PRC_METRICS_ID);
	pr_name_column(lab, ids, n, PR_LABEL - 1);
	free(ids);
	return lab;
}

/* new - base in the metric's unit, signed ("+77.260 us"), and the change in percent ("+19.1%"). */
static void delta_cells(const json_t *m, char *d, size_t dn, char *p, size_t pn)
{
	const json_t *b = json_object_get(m, PRC_METRICS_BASE),
		     *n = json_object_get(m, PRC_METRICS_NEW);
	double x, y;
	json_t *abs_v;
	snprintf(d, dn, "-");
	snprintf(p, pn, "-");
	if (!json_is_number(b) || !json_is_number(n))
		return;
	x = json_number_value(b);
	y = json_number_value(n);
	abs_v = json_real(fabs(y - x));
	if (!strcmp(pr_mstr(m, PRC_METRICS_UNIT),
		    "share")) /* a share moves by points, as its threshold */
		snprintf(d + 1, dn - 1, "%.2fpp", fabs(y - x) * 100);
	else
		pr_compare_fmt_value(abs_v, pr_mstr(m, PRC_METRICS_UNIT), d + 1, dn - 1);
	d[0] = y >= x ? '+' : '-';
	json_decref(abs_v);
	if (x != 0)
		snprintf(p, pn, "%+.1f%%", (y / x - 1) * 100);
}

static void row(struct pr_strbuf *sb, const json_t *m, const char *shown, int details)
{
	char b[48], n[48], r[16], t[48], rule[96];
	const char *mark = pr_mstr(m, PRC_METRICS_MARK);
	pr_compare_fmt_value(json_object_get(m, PRC_METRICS_BASE), pr_mstr(m, PRC_METRICS_UNIT), b,
			     sizeof(b));
	pr_compare_fmt_value(json_object_get(m, PRC_METRICS_NEW), pr_mstr(m, PRC_METRICS_UNIT), n,
			     sizeof(n));
	pr_compare_fmt_ratio(m, r, sizeof(r));
	pr_compare_fmt_rule(m, 0, rule, sizeof(rule));
	if (!details) {
		char d[56], p[24];
		delta_cells(m, d, sizeof(d), p, sizeof(p));
		pr_strbuf_addf(sb, "| %s | ", strcmp(mark, " ") ? mark : "");
		code(sb, shown);
		pr_strbuf_addf(sb, " | %s | %s | %s | %s | %s | %s |\n", b, n, d, p,
			       pr_mstr(json_object_get(m, PRC_METRICS_THRESHOLD),
				       PRC_METRICS_THRESHOLD_TEXT),
			       rule);
		return;
	}
	pr_strbuf_addf(sb, "| %s | %s | %s | %s | ", strcmp(mark, " ") ? mark : "", b, n, r);
	code(sb, shown);
	if (details) {
		const json_t *test = json_object_get(m, PRC_METRICS_TEST),
			     *ci = json_object_get(test, PRC_METRICS_TEST_HL_CI);
		pr_compare_fmt_test(m, t, sizeof(t));
		pr_strbuf_addf(sb, " | %lld / %lld | %s",
			       (long long)json_integer_value(json_object_get(m, PRC_METRICS_N1)),
			       (long long)json_integer_value(json_object_get(m, PRC_METRICS_N2)),
			       t);
		if (json_is_number(json_object_get(test, PRC_METRICS_TEST_HL_SHIFT))) {
			char s[48], lo[48], hi[48];
			pr_compare_fmt_value(json_object_get(test, PRC_METRICS_TEST_HL_SHIFT),
					     pr_mstr(m, PRC_METRICS_UNIT), s, sizeof(s));
			pr_compare_fmt_value(json_array_get(ci, 0), pr_mstr(m, PRC_METRICS_UNIT),
					     lo, sizeof(lo));
			pr_compare_fmt_value(json_array_get(ci, 1), pr_mstr(m, PRC_METRICS_UNIT),
					     hi, sizeof(hi));
			pr_strbuf_addf(sb, ", shift %s [%s, %s]", s, lo, hi);
		}
		pr_compare_fmt_ratio_ci(m, t, sizeof(t));
		if (*t)
			pr_strbuf_addf(sb, ", ratio %s", t);
		pr_strbuf_addf(sb, " | %s | %s | %s",
			       pr_mstr(json_object_get(m, PRC_METRICS_THRESHOLD),
				       PRC_METRICS_THRESHOLD_TEXT),
			       pr_mstr(m, PRC_METRICS_VERDICT), rule);
	}
	pr_strbuf_addstr(sb, " |\n");
}

/*
 * GitHub refuses a comment over 65,536 characters: every row is written only
 * while the whole stays under PR_MD_LIMIT with room for what must follow
 * (MD_TAIL: the legend and the closing tags); the rows left out are counted
 * on one line that names --to json.
 */
#define PR_MD_LIMIT 65536
#define MD_TAIL 4096
#define MD_ROW_MAX 1536 /* a row's length at most: cells are bounded, names are labels */

struct md {
	struct pr_strbuf *sb;
	size_t start, left_out;
};

static int room(const struct md *c, size_t reserve)
{
	return c->sb->len - c->start + MD_ROW_MAX + reserve <= PR_MD_LIMIT;
}

static const char top_head[] =
	"| Change | Metric | Before | After | Delta | Change % | Threshold | Decided by |\n"
	"|:------:|:-------|-------:|------:|------:|---------:|:----------|:-----------|\n";
static const char all_head[] =
	"| Change | Before | After | Ratio | Metric | n base / new | Test | Threshold | Verdict | "
	"Decided by |\n"
	"|:------:|-------:|------:|------:|:-------|-------------:|:-----|:----------|:--------|"
	":-----------|\n";

/* "N more not shown ..." after a table cut short by the budget. */
static void cut_line(struct md *c, size_t more)
{
	if (!more)
		return;
	pr_strbuf_addf(c->sb,
		       "\n%zu more row(s) not shown: the comment stays under GitHub's %d "
		       "characters (`--to json` has every metric).\n",
		       more, PR_MD_LIMIT);
	c->left_out += more;
}

/*
 * GPU busy for the headline: gpu:idle_share turned around (busy = 1 - idle),
 * so the row reads as the other headline metrics; a new reference.
 */
static json_t *gpu_busy(const json_t *m)
{
	json_t *b = json_deep_copy(m), *th = json_object_get(b, PRC_METRICS_THRESHOLD);
	const json_t *x = json_object_get(m, PRC_METRICS_BASE),
		     *y = json_object_get(m, PRC_METRICS_NEW);
	char t[64];
	const char *tt = pr_mstr(th, PRC_METRICS_THRESHOLD_TEXT);
	if (json_is_number(x))
		json_object_set_new(b, "base", json_real(1 - json_number_value(x)));
	if (json_is_number(y))
		json_object_set_new(b, "new", json_real(1 - json_number_value(y)));
	/* the threshold of the idle share, +5pp, is -5pp of busy */
	snprintf(t, sizeof(t), "%c%s",
		 tt[0] == '+'	? '-'
		 : tt[0] == '-' ? '+'
				: tt[0],
		 tt[0] ? tt + 1 : "");
	json_object_set_new(th, "text", json_string(t));
	return b;
}

/* One section of changes: rows of metrics of rank r (in order), under a heading. */
static void section(struct md *c, const json_t *metrics, const size_t *order, pr_label_t *lab,
		    enum pr_cmp_rank r, const char *heading, int fold)
{
	size_t i, n = json_array_size(metrics), k = 0, shown = 0;
	for (i = 0; i < n; i++)
		k += pr_compare_rank(json_array_get(metrics, order[i])) == r;
	if (!k)
		return;
	if (!room(c, MD_TAIL)) {
		cut_line(c, k);
		return;
	}
	if (fold)
		pr_strbuf_addf(c->sb, "\n<details><summary>%s (%zu)</summary>\n\n", heading, k);
	else
		pr_strbuf_addf(c->sb, "\n**%s** (%zu)\n\n", heading, k);
	pr_strbuf_addstr(c->sb, top_head);
	for (i = 0; i < n; i++) {
		const json_t *m = json_array_get(metrics, order[i]);
		if (pr_compare_rank(m) != r)
			continue;
		if (!room(c, MD_TAIL))
			break;
		if (!strcmp(pr_mstr(m, PRC_METRICS_ID), "gpu:idle_share")) {
			json_t *b = gpu_busy(m);
			row(c->sb, b, "GPU busy", 0);
			json_decref(b);
		} else {
			row(c->sb, m, lab[order[i]], 0);
		}
		shown++;
	}
	cut_line(c, k - shown);
	if (fold)
		pr_strbuf_addstr(c->sb, "\n</details>\n");
}

void pr_compare_render_md(const json_t *cmp, struct pr_strbuf *sb)
{
	const json_t *metrics = json_object_get(cmp, PRC_METRICS), *m, *floor;
	const json_t *st = json_object_get(cmp, PRC_SETTINGS);
	size_t i, n = json_array_size(metrics), *order = pr_compare_order(metrics), shown;
	pr_label_t *lab = labels(metrics);
	struct md c;
	c.sb = sb;
	c.start = sb->len;
	c.left_out = 0;
	pr_strbuf_addstr(sb, "### profreport compare: **");
	pr_compare_summary_line(cmp, sb);
	pr_strbuf_addstr(sb, "**\n");
	/* what failed first: the headline pinned, then regressions, presence and counts */
	section(&c, metrics, order, lab, PR_RANK_HEADLINE,
		"Headline: step time, throughput, GPU busy, peak memory", 0);
	section(&c, metrics, order, lab, PR_RANK_FAILED, "Regressions", 0);
	section(&c, metrics, order, lab, PR_RANK_PRESENCE,
		"Ops and kernels added, removed or called a different number of times per step", 0);
	section(&c, metrics, order, lab, PR_RANK_OTHER,
		"Other changes: improvements, not significant, inconclusive", 1);
	pr_strbuf_addf(
		sb,
		"\nDelta = after - before; Change %% = after / before - 1; Threshold = how far "
		"the metric may move in its worse direction before it is a regression (`pp`: "
		"percentage points of a share).\n`+` worse, `-` better, `?` inconclusive "
		"(a headline metric beyond its threshold that the samples cannot confirm, a "
		"pass; it fails when the change beyond the threshold exceeds %g x the runs' "
		"spread), "
		"`~` beyond the threshold but not significant "
		"(Mann-Whitney p >= %g; with too few samples for p < %g, a 95 %% bootstrap CI "
		"of new/base not wholly beyond the threshold), `x` added, `!` removed "
		"(a missing step time, phase, peak or throughput fails, and so does a GPU "
		"metric when NEW has no GPU op), `#` calls per "
		"step changed.\n",
		4.0, json_number_value(json_object_get(st, PRC_SETTINGS_ALPHA)),
		json_number_value(json_object_get(st, PRC_SETTINGS_ALPHA)));
	if (room(&c, 512)) {
		pr_strbuf_addf(sb, "\n<details><summary>All %zu compared metrics</summary>\n\n", n);
		pr_strbuf_addstr(sb, all_head);
		for (shown = 0; shown < n && room(&c, 512); shown++)
			row(sb, json_array_get(metrics, order[shown]), lab[order[shown]], 1);
		cut_line(&c, n - shown);
		pr_strbuf_addstr(sb, "\n</details>\n");
	} else {
		cut_line(&c, n);
	}
	free(lab);
	free(order);
	floor = json_object_get(cmp, PRC_BELOW_NOISE_FLOOR);
	if (json_array_size(floor) && room(&c, 512)) {
		pr_strbuf_addf(
			sb,
			"\n<details><summary>%zu span and GPU time metrics below the noise floor (not gated: under "
			"%g %% of run time or %g us)</summary>\n\n",
			json_array_size(floor),
			100 * json_number_value(json_object_get(st, PRC_SETTINGS_NOISE_FLOOR)),
			json_number_value(json_object_get(st, PRC_SETTINGS_MIN_US)));
		lab = labels(floor);
		json_array_foreach (floor, i, m) {
			if (!room(&c, 512))
				break;
			pr_strbuf_addstr(sb, "- ");
			code(sb, lab[i]);
			pr_strbuf_addch(sb, '\n');
		}
		cut_line(&c, json_array_size(floor) - i);
		free(lab);
		pr_strbuf_addstr(sb, "\n</details>\n");
	} else if (json_array_size(floor)) {
		cut_line(&c, json_array_size(floor));
	}
	if (json_array_size(json_object_get(cmp, PRC_IGNORED)))
		pr_strbuf_addf(sb, "\n%zu metric(s) ignored by --ignore.\n",
			       json_array_size(json_object_get(cmp, PRC_IGNORED)));
}
