/* compare_junit.c - a comparison as JUnit XML: one testcase per gated metric. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/compare_text.h"
#include "base/jsonx.h"
#include "base/escape.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

static int gated(const json_t *m)
{
	return json_is_true(json_object_get(json_object_get(m, PRC_METRICS_THRESHOLD),
					    PRC_METRICS_THRESHOLD_GATED)) ||
	       !strcmp(pr_mstr(m, PRC_METRICS_RULE), "presence");
}

/* "regression: 1.20x (base 400.118 us, new 481.2 us), p=1e-07, ratio 95% CI [...],
 * threshold +5%; decided by: <why>". */
static void message(struct pr_strbuf *sb, const json_t *m)
{
	char b[48], n[48], r[16], t[48];
	pr_compare_fmt_value(json_object_get(m, PRC_METRICS_BASE), pr_mstr(m, PRC_METRICS_UNIT), b,
			     sizeof(b));
	pr_compare_fmt_value(json_object_get(m, PRC_METRICS_NEW), pr_mstr(m, PRC_METRICS_UNIT), n,
			     sizeof(n));
	pr_compare_fmt_ratio(m, r, sizeof(r));
	pr_compare_fmt_test(m, t, sizeof(t));
	pr_strbuf_addf(sb, "%s: %s (base %s, new %s), %s", pr_mstr(m, PRC_METRICS_VERDICT), r, b, n,
		       t);
	pr_compare_fmt_ratio_ci(m, t, sizeof(t));
	if (*t)
		pr_strbuf_addf(sb, ", ratio 95%% CI %s", t);
	pr_strbuf_addf(sb, ", threshold %s; rule %s: %s",
		       pr_mstr(json_object_get(m, PRC_METRICS_THRESHOLD),
			       PRC_METRICS_THRESHOLD_TEXT),
		       pr_mstr(m, PRC_METRICS_RULE), pr_mstr(m, PRC_METRICS_WHY));
}

void pr_compare_render_junit_error(const char *message, struct pr_strbuf *sb)
{
	pr_strbuf_addstr(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	pr_strbuf_addstr(sb, "<testsuites name=\"profreport compare\" tests=\"1\" failures=\"0\" "
			     "errors=\"1\" skipped=\"0\" time=\"0\">\n");
	pr_strbuf_addstr(sb, "  <testsuite name=\"profreport.compare\" tests=\"1\" failures=\"0\" "
			     "errors=\"1\" skipped=\"0\" time=\"0\">\n");
	pr_strbuf_addstr(sb, "    <properties>\n      <property name=\"status\" value=\"error\"/>\n"
			     "    </properties>\n");
	pr_strbuf_addstr(sb, "    <testcase classname=\"profreport.compare\" name=\"comparison\" "
			     "time=\"0\">\n      <error type=\"error\" message=\"");
	pr_xml_escape(sb, message);
	pr_strbuf_addstr(sb, "\">");
	pr_xml_escape(sb, message);
	pr_strbuf_addstr(sb, "</error>\n    </testcase>\n  </testsuite>\n</testsuites>\n");
}

void pr_compare_render_junit(const json_t *cmp, struct pr_strbuf *sb)
{
	const json_t *metrics = json_object_get(cmp, PRC_METRICS), *m;
	struct pr_strbuf msg = PR_STRBUF_INIT;
	size_t i, j, tests = 0, failures = 0, *order;
	json_array_foreach (metrics, i, m) {
		if (!gated(m))
			continue;
		tests++;
		failures += !strcmp(pr_mstr(m, PRC_METRICS_VERDICT), "regression") ||
			    !strcmp(pr_mstr(m, PRC_METRICS_VERDICT), "missing");
	}
	if (!tests) {
		/* a pass with nothing checked would hide a gate that judged nothing */
		pr_compare_render_junit_error(
			"nothing compared: the comparison has no gated metric", sb);
		return;
	}
	pr_strbuf_addstr(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	pr_strbuf_addf(sb,
		       "<testsuites name=\"profreport compare\" tests=\"%zu\" failures=\"%zu\" "
		       "errors=\"0\" skipped=\"0\" time=\"0\">\n",
		       tests, failures);
	pr_strbuf_addf(sb,
		       "  <testsuite name=\"profreport.compare\" tests=\"%zu\" failures=\"%zu\" "
		       "errors=\"0\" skipped=\"0\" time=\"0\">\n",
		       tests, failures);
	pr_strbuf_addf(sb, "    <properties>\n      <property name=\"alpha\" value=\"%g\"/>\n",
		       json_number_value(json_object_get(json_object_get(cmp, PRC_SETTINGS),
							 PRC_SETTINGS_ALPHA)));
	pr_strbuf_addf(sb, "      <property name=\"status\" value=\"%s\"/>\n    </properties>\n",
		       pr_mstr(json_object_get(cmp, PRC_SUMMARY), PRC_SUMMARY_STATUS));
	/* in report order: the headline metrics, then failures, presence and count changes */
	order = pr_compare_order(metrics);
	for (j = 0; j < json_array_size(metrics); j++) {
		const char *v;
		m = json_array_get(metrics, order[j]);
		v = pr_mstr(m, PRC_METRICS_VERDICT);
		if (!gated(m))
			continue;
		pr_strbuf_addstr(sb, "    <testcase classname=\"profreport.compare.");
		pr_xml_escape(sb, pr_mstr(m, PRC_METRICS_GROUP));
		pr_strbuf_addstr(sb, "\" name=\"");
		pr_xml_escape(sb, pr_mstr(m, PRC_METRICS_ID));
		/* a time metric's testcase lasts its NEW value, so CI trend charts of test
		 * times plot it; other metrics (bytes, shares) take no time */
		if (!strcmp(pr_mstr(m, PRC_METRICS_UNIT), "ns") &&
		    json_is_number(json_object_get(m, PRC_METRICS_NEW)) &&
		    json_number_value(json_object_get(m, PRC_METRICS_NEW)) >= 0)
			pr_strbuf_addf(sb, "\" time=\"%.9f\"",
				       json_number_value(json_object_get(m, PRC_METRICS_NEW)) /
					       1e9);
		else
			pr_strbuf_addstr(sb, "\" time=\"0\"");
		pr_strbuf_reset(&msg);
		message(&msg, m);
		if (!strcmp(v, "regression") || !strcmp(v, "missing")) {
			pr_strbuf_addf(sb, ">\n      <failure type=\"%s\" message=\"", v);
			pr_xml_escape(sb, msg.buf);
			pr_strbuf_addstr(sb, "\">");
			pr_xml_escape(sb, msg.buf);
			pr_strbuf_addstr(sb, "</failure>\n    </testcase>\n");
		} else {
			pr_strbuf_addstr(sb, ">\n      <system-out>");
			pr_xml_escape(sb, msg.buf);
			pr_strbuf_addstr(sb, "</system-out>\n    </testcase>\n");
		}
	}
	free(order);
	pr_strbuf_addstr(sb, "  </testsuite>\n</testsuites>\n");
	pr_strbuf_release(&msg);
}
