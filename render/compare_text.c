/* compare_text.c - the console table of a comparison, and shared formatting. */
#include "render/compare_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/units.h"

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

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
	else
		pr_fmt_value(d, unit, buf, n);
}

void pr_compare_fmt_ratio(const json_t *metric, char *buf, size_t n)
{
	const json_t *r = json_object_get(metric, "ratio");
	if (json_is_number(r))
		snprintf(buf, n, "%.2fx", json_number_value(r));
	else
		snprintf(buf, n, "-");
}

void pr_compare_fmt_ratio_ci(const json_t *metric, char *buf, size_t n)
{
	const json_t *ci = json_object_get(json_object_get(metric, "test"), "ratio_ci");
	if (json_is_number(json_array_get(ci, 0)) && json_is_number(json_array_get(ci, 1)))
		snprintf(buf, n, "[%.3fx, %.3fx]", json_number_value(json_array_get(ci, 0)),
			 json_number_value(json_array_get(ci, 1)));
	else
		snprintf(buf, n, "%s", "");
}

void pr_compare_fmt_test(const json_t *metric, char *buf, size_t n)
{
	const json_t *t = json_object_get(metric, "test");
	const json_t *p = json_object_get(t, "p");
	if (!strcmp(str(t, "method"), "mann-whitney") && json_is_number(p))
		snprintf(buf, n, "p=%.2g", json_number_value(p));
	else
		snprintf(buf, n, "thresholds only");
}

static size_t count(const json_t *sum, const char *key)
{
	return (size_t)json_integer_value(json_object_get(sum, key));
}

void pr_compare_summary_line(const json_t *cmp, struct pr_strbuf *sb)
{
	const json_t *s = json_object_get(cmp, "summary");
	static const char *const keys[] = { "regressions", "improvements", "noise", "unchanged",
					    "added", "removed", "below_noise_floor", "ignored" };
	static const char *const one[] = { "regression", "improvement", "not significant",
					   "unchanged", "added", "removed", "below noise floor",
					   "ignored" };
	static const char *const many[] = { "regressions", "improvements", "not significant",
					    "unchanged", "added", "removed", "below noise floor",
					    "ignored" };
	size_t i;
	int first = 1;
	pr_strbuf_addstr(sb, strcmp(str(s, "status"), "fail") ? "PASS" : "FAIL");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t c = count(s, keys[i]);
		if (!c && i > 0)
			continue;
		pr_strbuf_addf(sb, "%s%zu %s", first ? ": " : ", ", c, c == 1 ? one[i] : many[i]);
		first = 0;
	}
}

/* Trims a name to w columns (bytes; names are mostly ASCII), "..." in the middle. */
static void fit(const char *s, size_t w, char *buf, size_t n)
{
	size_t len = strlen(s), head;
	if (len <= w) {
		snprintf(buf, n, "%s", s);
		return;
	}
	head = (w - 3) / 2;
	snprintf(buf, n, "%.*s...%s", (int)head, s, s + len - (w - 3 - head));
}

void pr_compare_render_text(const json_t *cmp, struct pr_strbuf *sb)
{
	const json_t *metrics = json_object_get(cmp, "metrics"), *m, *s;
	size_t i, hidden = 0;
	pr_strbuf_addstr(sb, "profreport compare: ");
	pr_compare_summary_line(cmp, sb);
	pr_strbuf_addch(sb, '\n');
	pr_strbuf_addf(sb, "base: %lld run(s), new: %lld run(s); alpha %g, noise floor %g %% or %g us\n\n",
		       (long long)json_integer_value(json_object_get(json_object_get(cmp, "base"), "runs")),
		       (long long)json_integer_value(json_object_get(json_object_get(cmp, "new"), "runs")),
		       json_number_value(json_object_get(json_object_get(cmp, "settings"), "alpha")),
		       100 * json_number_value(json_object_get(json_object_get(cmp, "settings"), "noise_floor")),
		       json_number_value(json_object_get(json_object_get(cmp, "settings"), "min_us")));
	pr_strbuf_addf(sb, "  %-26s %10s %10s %6s  %s\n", "metric", "base", "new", "ratio", "verdict");
	json_array_foreach(metrics, i, m) {
		const char *verdict = str(m, "verdict"), *group = str(m, "group");
		char name[40], b[32], n[32], r[16], t[32];
		if (!strcmp(verdict, "unchanged") && strcmp(group, "step") && strcmp(group, "throughput") &&
		    strcmp(group, "peak")) {
			hidden++;
			continue;
		}
		fit(str(m, "id"), 26, name, sizeof(name));
		pr_compare_fmt_value(json_object_get(m, "base"), str(m, "unit"), b, sizeof(b));
		pr_compare_fmt_value(json_object_get(m, "new"), str(m, "unit"), n, sizeof(n));
		pr_compare_fmt_ratio(m, r, sizeof(r));
		pr_compare_fmt_test(m, t, sizeof(t));
		pr_strbuf_addf(sb, "%s %-26s %10s %10s %6s  %s", str(m, "mark"), name, b, n, r, verdict);
		if (strcmp(verdict, "added") && strcmp(verdict, "removed") && strcmp(t, "thresholds only"))
			pr_strbuf_addf(sb, " %s", t);
		pr_strbuf_addch(sb, '\n');
	}
	if (hidden)
		pr_strbuf_addf(sb, "  (%zu more unchanged; --format json lists every metric)\n", hidden);
	s = json_object_get(cmp, "summary");
	if (json_integer_value(json_object_get(s, "below_noise_floor")))
		pr_strbuf_addf(sb, "  %lld span(s) below the noise floor were not gated\n",
			       (long long)json_integer_value(json_object_get(s, "below_noise_floor")));
}
