/* compare_text.c - the console table of a comparison, and shared formatting. */
#include "render/compare_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "render/names.h"
#include "render/units.h"
#include "base/jsonx.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

void pr_compare_fmt_value(const json_t *v, const char *unit, char *buf, size_t n)
{
	double d;
	if (!json_is_number(v)) {
		snprintf(buf, n, "-");
		return;
	}
	d = json_number_value(v);
	if (!unit[0])
		snprintf(buf, n, "%.4f", d);
	else if (!strcmp(unit, "share"))
		snprintf(buf, n, "%.2f%%", d * 100);
	else
		pr_fmt_value(d, unit, buf, n);
}

void pr_compare_fmt_ratio(const json_t *metric, char *buf, size_t n)
{
	const json_t *r = json_object_get(metric, PRC_METRICS_RATIO);
	if (json_is_number(r))
		snprintf(buf, n, "%.2fx", json_number_value(r));
	else
		snprintf(buf, n, "-");
}

void pr_compare_fmt_ratio_ci(const json_t *metric, char *buf, size_t n)
{
	const json_t *ci = json_object_get(json_object_get(metric, PRC_METRICS_TEST),
					   PRC_METRICS_TEST_RATIO_CI);
	if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1)))
		snprintf(buf, n, "[%.3fx, %.3fx]", json_number_value(json_array_get(ci, 0)),
			 json_number_value(json_array_get(ci, 1)));
	else
		snprintf(buf, n, "%s", "");
}

void pr_compare_fmt_test(const json_t *metric, char *buf, size_t n)
{
	const json_t *t = json_object_get(metric, PRC_METRICS_TEST);
	const json_t *p = json_object_get(t, PRC_METRICS_TEST_P);
	if (!strcmp(pr_mstr(t, PRC_METRICS_TEST_METHOD), "mann-whitney") && json_is_number(p))
		snprintf(buf, n, "p=%.2g", json_number_value(p));
	else
		snprintf(buf, n, "thresholds only");
}

void pr_compare_fmt_rule(const json_t *m, int terse, char *buf, size_t n)
{
	const char *rule = pr_mstr(m, PRC_METRICS_RULE), *v = pr_mstr(m, PRC_METRICS_VERDICT);
	const json_t *test = json_object_get(m, PRC_METRICS_TEST),
		     *ci = json_object_get(test, PRC_METRICS_TEST_RATIO_CI);
	const json_t *calls = json_object_get(m, PRC_METRICS_CALLS);
	long long n1 = (long long)json_integer_value(json_object_get(m, PRC_METRICS_N1));
	long long n2 = (long long)json_integer_value(json_object_get(m, PRC_METRICS_N2));
	double r = pr_mnum(m, PRC_METRICS_RATIO);
	if (!strcmp(v, "calls changed")) {
		snprintf(buf, n, terse ? "%.3g->%.3g" : "calls per step %.3g -> %.3g",
			 pr_mnum(calls, PRC_METRICS_CALLS_BASE),
			 pr_mnum(calls, PRC_METRICS_CALLS_NEW));
	} else if (!strcmp(rule, "consistent")) {
		/* a key metric's change the tests could not confirm */
		const char *what =
			!strcmp(pr_mstr(m, PRC_METRICS_GROUP), "step") ? "steps" : "samples";
		int inc = !strcmp(v, "inconclusive");
		if (terse && inc)
			snprintf(buf, n, "n %lld/%lld p=%.2g", n1, n2,
				 pr_mnum(test, PRC_METRICS_TEST_P));
		else if (terse)
			snprintf(buf, n, ">4 spreads");
		else if (n1 == n2)
			snprintf(buf, n, "%s: %+.1f %% over %lld %s, p = %.2g",
				 inc ? "inconclusive" : "beyond the threshold by > 4 spreads",
				 (r - 1) * 100, n1, what, pr_mnum(test, PRC_METRICS_TEST_P));
		else
			snprintf(buf, n, "%s: %+.1f %% over %lld and %lld %s, p = %.2g",
				 inc ? "inconclusive" : "beyond the threshold by > 4 spreads",
				 (r - 1) * 100, n1, n2, what, pr_mnum(test, PRC_METRICS_TEST_P));
	} else if (!strcmp(rule, "mann-whitney")) {
		snprintf(buf, n, terse ? "p=%.2g" : "Mann-Whitney p=%.2g",
			 pr_mnum(test, PRC_METRICS_TEST_P));
	} else if (!strcmp(rule, "bootstrap-ci") && json_array_size(ci) == 2) {
		double lo = json_number_value(json_array_get(ci, 0)),
		       hi = json_number_value(json_array_get(ci, 1));
		if (terse)
			snprintf(buf, n, r >= 1 ? "ci>=%.2fx" : "ci<=%.2fx", r >= 1 ? lo : hi);
		else
			snprintf(buf, n, "bootstrap CI [%.3fx, %.3fx], n %lld/%lld", lo, hi, n1,
				 n2);
	} else if (!strcmp(rule, "bootstrap-ci")) {
		snprintf(buf, n, terse ? "no ci" : "bootstrap CI (none), n %lld/%lld", n1, n2);
	} else if (!strcmp(rule, "thresholds-only")) {
		snprintf(buf, n, terse ? "(n %lld/%lld)" : "thresholds only, n %lld/%lld", n1, n2);
	} else if (!strcmp(rule, "presence")) {
		snprintf(buf, n, "%s",
			 terse			 ? ""
			 : !strcmp(v, "added")	 ? "only in NEW"
			 : !strcmp(v, "missing") ? "key metric missing in NEW"
						 : "only in BASE");
	} else if (!strcmp(rule, "not-gated")) {
		snprintf(buf, n, "%s", terse ? "" : "not gated");
	} else {
		snprintf(buf, n, "%s", terse ? "" : "within the threshold");
	}
	/* a call count change beside a time verdict */
	if (!terse && strcmp(v, "calls changed") &&
	    json_is_true(json_object_get(calls, PRC_METRICS_CALLS_CHANGED))) {
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, "; calls per step %.3g -> %.3g",
			 pr_mnum(calls, PRC_METRICS_CALLS_BASE),
			 pr_mnum(calls, PRC_METRICS_CALLS_NEW));
	}
}

int pr_compare_headline(const json_t *m)
{
	const char *group = pr_mstr(m, PRC_METRICS_GROUP);
	return !strcmp(group, "step") || !strcmp(group, "throughput") || !strcmp(group, "peak") ||
	       !strcmp(pr_mstr(m, PRC_METRICS_ID), "gpu:idle_share");
}

enum pr_cmp_rank pr_compare_rank(const json_t *m)
{
	const char *v = pr_mstr(m, PRC_METRICS_VERDICT);
	if (pr_compare_headline(m))
		return PR_RANK_HEADLINE;
	if (!strcmp(v, "regression") || !strcmp(v, "missing"))
		return PR_RANK_FAILED;
	if (!strcmp(v, "added") || !strcmp(v, "removed") || !strcmp(v, "calls changed") ||
	    json_is_true(json_object_get(json_object_get(m, PRC_METRICS_CALLS),
					 PRC_METRICS_CALLS_CHANGED)))
		return PR_RANK_PRESENCE;
	return strcmp(v, "unchanged") ? PR_RANK_OTHER : PR_RANK_UNCHANGED;
}

size_t *pr_compare_order(const json_t *metrics)
{
	size_t n = json_array_size(metrics), *idx = pr_xcalloc(n + 1, sizeof(*idx)), i, k = 0;
	int r;
	for (r = PR_RANK_HEADLINE; r <= PR_RANK_UNCHANGED; r++)
		for (i = 0; i < n; i++)
			if ((int)pr_compare_rank(json_array_get(metrics, i)) == r)
				idx[k++] = i;
	return idx;
}

static size_t count(const json_t *sum, const char *key)
{
	return (size_t)json_integer_value(json_object_get(sum, key));
}

void pr_compare_summary_line(const json_t *cmp, struct pr_strbuf *sb)
{
	const json_t *s = json_object_get(cmp, PRC_SUMMARY);
	static const char *const keys[] = {
		PRC_SUMMARY_REGRESSIONS,       PRC_SUMMARY_MISSING,	  PRC_SUMMARY_INCONCLUSIVE,
		PRC_SUMMARY_IMPROVEMENTS,      PRC_SUMMARY_CALLS_CHANGED, PRC_SUMMARY_NOISE,
		PRC_SUMMARY_UNCHANGED,	       PRC_SUMMARY_ADDED,	  PRC_SUMMARY_REMOVED,
		PRC_SUMMARY_BELOW_NOISE_FLOOR, PRC_SUMMARY_IGNORED
	};
	static const char *const one[] = { "regression",
					   "key metric missing",
					   "inconclusive",
					   "improvement",
					   "calls/step changed",
					   "not significant",
					   "unchanged",
					   "added",
					   "removed",
					   "below noise floor",
					   "ignored" };
	static const char *const many[] = { "regressions",
					    "key metrics missing",
					    "inconclusive",
					    "improvements",
					    "calls/step changed",
					    "not significant",
					    "unchanged",
					    "added",
					    "removed",
					    "below noise floor",
					    "ignored" };
	size_t i;
	int first = 1;
	pr_strbuf_addstr(sb, strcmp(pr_mstr(s, PRC_SUMMARY_STATUS), "fail") ? "PASS" : "FAIL");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t c = count(s, keys[i]);
		if (!c && i > 0)
			continue;
		pr_strbuf_addf(sb, "%s%zu %s", first ? ": " : ", ", c, c == 1 ? one[i] : many[i]);
		first = 0;
	}
}

/* 1 when the console table lists metric m (headline ones and every change). */
static int listed(const json_t *m)
{
	return pr_compare_rank(m) != PR_RANK_UNCHANGED;
}

void pr_compare_render_text(const json_t *cmp, struct pr_strbuf *sb)
{
	const json_t *metrics = json_object_get(cmp, PRC_METRICS), *m, *s;
	const json_t *st = json_object_get(cmp, PRC_SETTINGS);
	struct pr_strbuf line = PR_STRBUF_INIT;
	size_t i, j, hidden = 0, col, start, nids = 0, *order = pr_compare_order(metrics);
	const char **ids;
	pr_label_t *lab;
	int used[5] = { 0, 0, 0, 0, 0 };
	/* the summary, wrapped after a comma to stay within 80 columns */
	pr_strbuf_addstr(&line, "profreport compare: ");
	pr_compare_summary_line(cmp, &line);
	for (i = start = col = 0; i <= line.len; i++) {
		if (i < line.len && line.buf[i] != ',')
			continue;
		if (col + (i - start) > 79 && col > 0) {
			pr_strbuf_addstr(sb, "\n   ");
			col = 3;
			start++; /* the space after the comma */
		}
		pr_strbuf_add(sb, line.buf + start, i - start + (i < line.len));
		col += i - start + 1;
		start = i + 1;
	}
	pr_strbuf_release(&line);
	pr_strbuf_addch(sb, '\n');
	pr_strbuf_addf(
		sb, "base: %lld run(s), new: %lld run(s); alpha %g, noise floor %g %% or %g us\n\n",
		(long long)json_integer_value(
			json_object_get(json_object_get(cmp, PRC_BASE), PRC_BASE_RUNS)),
		(long long)json_integer_value(
			json_object_get(json_object_get(cmp, PRC_NEW), PRC_NEW_RUNS)),
		json_number_value(
			json_object_get(json_object_get(cmp, PRC_SETTINGS), PRC_SETTINGS_ALPHA)),
		100 * json_number_value(json_object_get(json_object_get(cmp, PRC_SETTINGS),
							PRC_SETTINGS_NOISE_FLOOR)),
		json_number_value(
			json_object_get(json_object_get(cmp, PRC_SETTINGS), PRC_SETTINGS_MIN_US)));
	pr_strbuf_addf(sb, "  %-26s %10s %10s %6s  %s\n", "metric", "base", "new", "ratio",
		       "verdict");
	/* the metric column: display names (names.h), never two alike */
	ids = pr_xcalloc(json_array_size(metrics) + 1, sizeof(*ids));
	for (j = 0; j < json_array_size(metrics); j++)
		if (listed(m = json_array_get(metrics, order[j])))
			ids[nids++] = pr_mstr(m, PRC_METRICS_ID);
	lab = pr_xcalloc(nids + 1, sizeof(*lab));
	pr_name_column(lab, ids, nids, 26);
	nids = 0;
	/* headline metrics first, then failures, presence and count changes, the rest */
	for (j = 0; j < json_array_size(metrics); j++) {
		const char *verdict, *rule;
		char b[32], n[32], r[16], t[32];
		const char *name;
		m = json_array_get(metrics, order[j]);
		verdict = pr_mstr(m, PRC_METRICS_VERDICT);
		rule = pr_mstr(m, PRC_METRICS_RULE);
		if (!listed(m)) {
			hidden++;
			continue;
		}
		name = lab[nids++];
		pr_compare_fmt_value(json_object_get(m, PRC_METRICS_BASE),
				     pr_mstr(m, PRC_METRICS_UNIT), b, sizeof(b));
		pr_compare_fmt_value(json_object_get(m, PRC_METRICS_NEW),
				     pr_mstr(m, PRC_METRICS_UNIT), n, sizeof(n));
		pr_compare_fmt_ratio(m, r, sizeof(r));
		pr_compare_fmt_rule(m, 1, t, sizeof(t));
		pr_strbuf_addf(sb, "%s %-26s %10s %10s %6s  %s", pr_mstr(m, PRC_METRICS_MARK), name,
			       b, n, r, verdict);
		if (*t)
			pr_strbuf_addf(sb, " %s", t);
		pr_strbuf_addch(sb, '\n');
		used[0] |= !strcmp(rule, "mann-whitney");
		used[1] |= !strcmp(rule, "bootstrap-ci");
		used[2] |= !strcmp(rule, "thresholds-only");
		used[3] |= !strcmp(verdict, "calls changed");
		used[4] |= !strcmp(rule, "consistent");
	}
	free(order);
	free(ids);
	free(lab);
	if (hidden)
		pr_strbuf_addf(sb, "  (%zu more unchanged; --to json lists every metric)\n",
			       hidden);
	/* which rule decided each verdict, for the tags that appear above */
	if (used[0])
		pr_strbuf_addf(sb, "  p=: Mann-Whitney p, significant when < %g\n",
			       json_number_value(json_object_get(st, PRC_SETTINGS_ALPHA)));
	if (used[1])
		pr_strbuf_addf(sb,
			       "  ci>= / ci<=: too few samples for p < %g; the nearer end of the\n"
			       "    95 %% bootstrap CI of new/base must be beyond the threshold\n",
			       json_number_value(json_object_get(st, PRC_SETTINGS_ALPHA)));
	if (used[2])
		pr_strbuf_addstr(sb,
				 "  (n a/b): one value on a side; the threshold alone decides\n");
	if (used[4])
		pr_strbuf_addstr(sb, "  ?: a headline metric beyond its threshold that the test\n"
				     "    cannot confirm: inconclusive (a pass) unless the change\n"
				     "    beyond the threshold exceeds 4 x the runs' spread\n"
				     "    (>4 spreads: it fails)\n");
	if (used[3])
		pr_strbuf_addstr(
			sb, "  #: calls per step changed, base->new (reported, not a failure)\n");
	s = json_object_get(cmp, PRC_SUMMARY);
	if (json_integer_value(json_object_get(s, PRC_SUMMARY_BELOW_NOISE_FLOOR)))
		pr_strbuf_addf(
			sb, "  %lld span(s) or GPU time(s) below the noise floor were not gated\n",
			(long long)json_integer_value(
				json_object_get(s, PRC_SUMMARY_BELOW_NOISE_FLOOR)));
}
