/*
 * compare_text.h - renderers of a comparison (analyze/multi/compare.h):
 * console text, GitHub markdown, JUnit XML.
 *
 * USAGE
 *   struct pr_strbuf sb = PR_STRBUF_INIT;
 *   pr_compare_render_text(cmp, &sb);   (or _md, _junit)
 *   write sb.buf; pr_strbuf_release(&sb);
 *
 * OWNERSHIP: cmp is borrowed; output is appended to the caller's strbuf.
 * Output is a pure function of the comparison (no clock, no host name).
 *
 * Every renderer but JSON follows pr_compare_order (below): the headline
 * metrics, then failures, then presence and count changes, then the rest.
 * text   80-column console table: a summary line, then the headline metrics
 *        and every metric that is not unchanged, then counts of the rest.
 * md     a GitHub PR comment: summary line, a headline table, regressions,
 *        presence and count changes, the other changes and every metric
 *        with its test folded in <details>; under 65,536 characters whatever
 *        the comparison (rows that do not fit are counted, --to json named).
 * junit  JUnit XML (Jenkins/Ant schema, tests/tools/junit.xsd): one
 *        testcase per gated metric, <failure> for each regression and each
 *        key metric missing in NEW; added and removed ones pass with the
 *        change in <system-out>. Never a pass with nothing checked: a
 *        comparison without a gated metric (pr_compare refuses to make one)
 *        is one <error> testcase, and so is a comparison that could not be
 *        made (pr_compare_render_junit_error: the CLI's exit-2 errors).
 * Every verdict names the rule that decided it (pr_compare_fmt_rule).
 */
#ifndef PR_COMPARE_TEXT_H
#define PR_COMPARE_TEXT_H

#include <stddef.h>

#include <jansson.h>

#include "base/strbuf.h"

void pr_compare_render_text(const json_t *cmp, struct pr_strbuf *sb);
void pr_compare_render_md(const json_t *cmp, struct pr_strbuf *sb);
void pr_compare_render_junit(const json_t *cmp, struct pr_strbuf *sb);
/* A JUnit report of a comparison that could not be made: one testcase
 * "profreport.compare/comparison" with <error type="error" message=...>. */
void pr_compare_render_junit_error(const char *message, struct pr_strbuf *sb);

/* A metric value in its unit ("402.118 us", "6.38 GiB", "0.1161"); "-" for null. */
void pr_compare_fmt_value(const json_t *v, const char *unit, char *buf, size_t n);
/* "1.20x", or "-" without a ratio. */
void pr_compare_fmt_ratio(const json_t *metric, char *buf, size_t n);
/* The ratio's 95 % bootstrap CI, "[1.170x, 1.212x]", or "" when there is none. */
void pr_compare_fmt_ratio_ci(const json_t *metric, char *buf, size_t n);
/* "p=3.1e-08", "thresholds only". */
void pr_compare_fmt_test(const json_t *metric, char *buf, size_t n);
/*
 * The rule that decided the verdict (metric "rule"), for a table cell.
 * terse (console): "p=0.0079", "ci>=1.41x" (the CI end nearer 1), "(n 1/1)",
 * "2->1/step", "" for within the threshold or presence; else
 * "Mann-Whitney p=0.0079", "bootstrap CI [1.410x, 1.520x], n 4/4",
 * "thresholds only, n 1/1", "calls per step 2 -> 1", "only in NEW",
 * "key metric missing in NEW", "within the threshold"; when the calls per
 * step changed beside another verdict, "; calls per step 11 -> 10" is added.
 */
void pr_compare_fmt_rule(const json_t *metric, int terse, char *buf, size_t n);
/*
 * Where a metric goes in every report ("outputs lead with what failed"):
 * PR_RANK_HEADLINE step time, throughput, GPU busy (gpu:idle_share) and memory
 * peaks, pinned at the top whatever their verdict; PR_RANK_FAILED regressions
 * and missing key metrics; PR_RANK_PRESENCE spans added, removed or called a
 * different number of times per step; PR_RANK_OTHER every other change
 * (improvement, not significant, inconclusive); PR_RANK_UNCHANGED the rest.
 */
enum pr_cmp_rank {
	PR_RANK_HEADLINE,
	PR_RANK_FAILED,
	PR_RANK_PRESENCE,
	PR_RANK_OTHER,
	PR_RANK_UNCHANGED,
};
enum pr_cmp_rank pr_compare_rank(const json_t *metric);
/* 1 for a headline metric (step_time, throughput:*, peak:*, gpu:idle_share). */
int pr_compare_headline(const json_t *metric);
/* The indices of metrics (a JSON array) in report order: by rank, then as in the array. free(). */
size_t *pr_compare_order(const json_t *metrics);
/* The summary sentence: "FAIL: 2 regressions, 1 improvement, ...". */
void pr_compare_summary_line(const json_t *cmp, struct pr_strbuf *sb);

#endif
