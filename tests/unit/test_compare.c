/* test_compare.c - analyze/compare and analyze/gate: known verdicts on small models, spec parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <math.h>

#include "analyze/compare.h"
#include "analyze/gate.h"
#include "render/compare_text.h"

/* A one-run model: steps (dur_ns each), a span "op" with per_step_ns, a peak, a tokens/s. */
static json_t *model(const double *steps, size_t n, double op_scale, double peak, double tps,
		     const char *span)
{
	json_t *list = json_array(), *ps = json_array(), *run, *m;
	double total = 0, op_total = 0;
	size_t i;
	for (i = 0; i < n; i++) {
		json_array_append_new(list, json_pack("{s:s, s:f, s:f}", "name", "ProfilerStep#0",
						      "t_ns", total, "dur_ns", steps[i]));
		json_array_append_new(ps, json_real(steps[i] * 0.5 * op_scale));
		op_total += steps[i] * 0.5 * op_scale;
		total += steps[i];
	}
	run = json_pack("{s:s, s:{s:f}, s:{s:{s:o}, s:{s:f}}, s:[{s:s, s:s, s:s, s:f}], s:[], s:{s:[]}}",
			"label", "run", "clock", "duration_ns", total, "throughput", "steps", "list",
			list, "tokens", "tokens_per_s", tps, "peaks", "series", "dev.mem.allocated",
			"device", "cuda:0", "unit", "bytes", "value", peak, "fragmentation", "phases",
			"occurrences");
	json_object_set_new(run, "spans",
			    json_pack("{s:[{s:s, s:s, s:f, s:o}]}", "items", "name", span, "kind", "op",
				      "total_ns", op_total, "per_step_ns", ps));
	m = json_pack("{s:s, s:i, s:[o]}", "schema", "profreport-model", "version", 1, "runs", run);
	return m;
}

static const json_t *metric(const json_t *cmp, const char *id)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(cmp, "metrics"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "id")), id))
			return m;
	return NULL;
}

static const char *verdict(const json_t *cmp, const char *id)
{
	const json_t *m = metric(cmp, id);
	assert_non_null(m);
	return json_string_value(json_object_get(m, "verdict"));
}

static void fill(double *v, size_t n, double base, double step)
{
	size_t i;
	for (i = 0; i < n; i++)
		v[i] = base + step * (double)(i % 5); /* a little spread, ties across sides */
}

static void test_regression_and_improvement(void **state)
{
	double a[20], b[20];
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *newm, *cmp;
	(void)state;
	pr_gate_init(&g);
	fill(a, 20, 1e6, 1e3);
	fill(b, 20, 1.2e6, 1e3); /* steps 20 % slower */
	base = model(a, 20, 1.0, 1e9, 1000, "aten::mm");
	newm = model(b, 20, 1.0, 1e9, 900, "aten::mm"); /* throughput -10 % */
	cmp = pr_compare(base, newm, &g, &err);
	assert_non_null(cmp);
	assert_string_equal(verdict(cmp, "step_time"), "regression");
	assert_string_equal(json_string_value(json_object_get(metric(cmp, "step_time"), "mark")), "+");
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(metric(cmp, "step_time"), "test"), "method")),
			    "mann-whitney");
	assert_true(json_real_value(json_object_get(json_object_get(metric(cmp, "step_time"), "test"),
						   "p")) < 0.01);
	{
		/* medians 1.002e6 -> 1.202e6 (1.1996x); resampled medians stay within
		 * [1.000e6, 1.004e6] and [1.200e6, 1.204e6], so the CI is inside [1.1952, 1.204] */
		const json_t *ci = json_object_get(
			json_object_get(metric(cmp, "step_time"), "test"), "ratio_ci");
		double lo = json_number_value(json_array_get(ci, 0)),
		       hi = json_number_value(json_array_get(ci, 1));
		assert_true(json_array_size(ci) == 2);
		assert_true(lo >= 1.2 / 1.004 - 1e-12 && hi <= 1.204 + 1e-12);
		assert_true(lo <= 1.202 / 1.002 && 1.202 / 1.002 <= hi);
	}
	assert_string_equal(verdict(cmp, "throughput:tokens_per_s"), "regression");
	assert_string_equal(json_string_value(json_object_get(
				    json_object_get(metric(cmp, "throughput:tokens_per_s"), "test"),
				    "method")),
			    "thresholds only");
	assert_string_equal(verdict(cmp, "peak:dev.mem.allocated"), "unchanged");
	assert_int_equal(pr_compare_regressions(cmp), 3); /* steps, the span, throughput */
	json_decref(cmp);
	/* the other way round: improvements, no regression */
	cmp = pr_compare(newm, base, &g, &err);
	assert_string_equal(verdict(cmp, "step_time"), "improvement");
	assert_string_equal(json_string_value(json_object_get(metric(cmp, "step_time"), "mark")), "-");
	assert_string_equal(verdict(cmp, "throughput:tokens_per_s"), "improvement");
	assert_int_equal(pr_compare_regressions(cmp), 0);
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

static void test_noise_not_significant(void **state)
{
	double a[2] = { 1e6, 1.4e6 }, b[2] = { 1.1e6, 1.5e6 }; /* +8 % median, 2 samples */
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *newm, *cmp;
	(void)state;
	pr_gate_init(&g);
	base = model(a, 2, 1.0, 1e9, 1000, "op");
	newm = model(b, 2, 1.0, 1e9, 1000, "op");
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "step_time"), "noise");
	assert_string_equal(json_string_value(json_object_get(metric(cmp, "step_time"), "mark")), "~");
	assert_int_equal(pr_compare_regressions(cmp), 0);
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

static void test_memory_rule(void **state)
{
	double a[3] = { 1e6, 1e6, 1e6 };
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *small, *big, *cmp;
	(void)state;
	pr_gate_init(&g);
	base = model(a, 3, 1.0, 100.0 * 1048576, 1000, "op");
	small = model(a, 3, 1.0, 150.0 * 1048576, 1000, "op"); /* +50 %, but only +50 MiB */
	big = model(a, 3, 1.0, 200.0 * 1048576, 1000, "op");   /* +100 %, +100 MiB */
	cmp = pr_compare(base, small, &g, &err);
	assert_string_equal(verdict(cmp, "peak:dev.mem.allocated"), "unchanged");
	json_decref(cmp);
	cmp = pr_compare(base, big, &g, &err);
	assert_string_equal(verdict(cmp, "peak:dev.mem.allocated"), "regression");
	json_decref(cmp);
	/* a rule overrides the default: +256MiB */
	assert_int_equal(pr_gate_add_fail_on(&g, "peak:dev.mem.allocated:+256MiB", &err), 0);
	cmp = pr_compare(base, big, &g, &err);
	assert_string_equal(verdict(cmp, "peak:dev.mem.allocated"), "unchanged");
	json_decref(cmp);
	json_decref(base);
	json_decref(small);
	json_decref(big);
	pr_gate_release(&g);
}

static void test_added_removed_ignored(void **state)
{
	double a[20];
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *newm, *cmp;
	(void)state;
	pr_gate_init(&g);
	fill(a, 20, 1e6, 1e3);
	base = model(a, 20, 1.0, 1e9, 1000, "aten::relu");
	newm = model(a, 20, 1.0, 1e9, 1000, "aten::gelu");
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "span:aten::relu"), "removed");
	assert_string_equal(verdict(cmp, "span:aten::gelu"), "added");
	assert_int_equal(pr_compare_regressions(cmp), 0);
	json_decref(cmp);
	assert_int_equal(pr_gate_add_ignore(&g, "aten::*elu", &err), 0);
	cmp = pr_compare(base, newm, &g, &err);
	assert_null(metric(cmp, "span:aten::relu"));
	assert_int_equal(json_array_size(json_object_get(cmp, "ignored")), 2);
	json_decref(cmp);
	/* a tiny span is below the noise floor */
	pr_gate_release(&g);
	pr_gate_init(&g);
	json_decref(newm);
	newm = model(a, 20, 1.0, 1e9, 1000, "aten::relu");
	assert_int_equal(pr_gate_set_min_us(&g, "1000000", &err), 0);
	cmp = pr_compare(base, newm, &g, &err);
	assert_null(metric(cmp, "span:aten::relu"));
	assert_int_equal(json_array_size(json_object_get(cmp, "below_noise_floor")), 1);
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

static void test_not_a_model(void **state)
{
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *x = json_pack("{s:s}", "schema", "other");
	(void)state;
	pr_gate_init(&g);
	assert_null(pr_compare(x, x, &g, &err));
	assert_int_equal(err.code, PR_E_FORMAT);
	json_decref(x);
	pr_gate_release(&g);
}

static void test_spec_parsing(void **state)
{
	struct pr_gate_rule r;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_gate g;
	json_t *cfg;
	(void)state;
	assert_int_equal(pr_gate_parse_rule("step_time:+3%", &r, &err), 0);
	assert_string_equal(r.pattern, "step_time");
	assert_int_equal(r.dir, 1);
	assert_true(r.has_rel && !r.has_abs);
	assert_true(fabs(r.rel - 0.03) < 1e-12);
	pr_gate_rule_release(&r);
	assert_int_equal(pr_gate_parse_rule("peak:dev.mem.allocated:+256MiB", &r, &err), 0);
	assert_string_equal(r.pattern, "peak:dev.mem.allocated");
	assert_true(r.has_abs && !r.has_rel);
	assert_true(r.abs == 256.0 * 1048576 && r.abs_unit == PR_GATE_BYTES);
	assert_true(pr_gate_rule_matches(&r, "peak:dev.mem.allocated"));
	assert_false(pr_gate_rule_matches(&r, "peak:dev.mem.reserved"));
	pr_gate_rule_release(&r);
	assert_int_equal(pr_gate_parse_rule("throughput:-5%", &r, &err), 0);
	assert_int_equal(r.dir, -1);
	assert_true(pr_gate_rule_matches(&r, "throughput:tokens_per_s"));
	assert_false(pr_gate_rule_matches(&r, "step_time"));
	pr_gate_rule_release(&r);
	assert_int_equal(pr_gate_parse_rule("span:*:+5%,+2ms", &r, &err), 0);
	assert_true(r.has_rel && r.has_abs && r.abs == 2e6 && r.abs_unit == PR_GATE_NS);
	assert_true(pr_gate_rule_matches(&r, "span:aten::copy_"));
	pr_gate_rule_release(&r);
	{
		static const char *const bad[] = { "step_time", "step_time:5%", ":+5%",
						   "step_time:+5parsecs", "step_time:+-5%",
						   "step_time:+0%", "x:+5%,-1ms", "x:+5%,+6%", NULL };
		size_t i;
		for (i = 0; bad[i]; i++) {
			err.code = PR_OK;
			assert_int_equal(pr_gate_parse_rule(bad[i], &r, &err), -1);
			assert_int_equal(err.code, PR_E_USAGE);
		}
	}
	pr_gate_init(&g);
	assert_int_equal(pr_gate_set_alpha(&g, "0.05", &err), 0);
	assert_int_equal(pr_gate_set_alpha(&g, "1", &err), -1);
	assert_int_equal(pr_gate_set_min_us(&g, "x", &err), -1);
	cfg = json_pack("{s:f, s:f, s:[s], s:[s]}", "alpha", 0.002, "min_us", 50.0, "fail_on",
			"step_time:+3%", "ignore", "aten::copy_*");
	assert_int_equal(pr_gate_config(&g, cfg, "gate.json", &err), 0);
	assert_true(g.alpha == 0.002 && g.min_us == 50.0 && g.nrules == 1 && g.nignore == 1);
	assert_true(pr_gate_ignored(&g, "aten::copy_", "span:aten::copy_"));
	assert_false(pr_gate_ignored(&g, "aten::mm", "span:aten::mm"));
	json_decref(cfg);
	cfg = json_pack("{s:i}", "nope", 1);
	assert_int_equal(pr_gate_config(&g, cfg, "gate.json", &err), -1);
	assert_int_equal(err.code, PR_E_USAGE);
	json_decref(cfg);
	pr_gate_release(&g);
	assert_int_equal(g.nrules, 0);
}

static void test_renderers(void **state)
{
	double a[20], b[20];
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *base, *newm, *cmp;
	(void)state;
	pr_gate_init(&g);
	fill(a, 20, 1e6, 1e3);
	fill(b, 20, 1e6, 1e3);
	base = model(a, 20, 1.0, 1e9, 1000, "a|b<&>");
	newm = model(b, 20, 1.3, 1e9, 1000, "a|b<&>");
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "span:a|b<&>"), "regression");
	pr_compare_render_md(cmp, &sb);
	assert_non_null(strstr(sb.buf, "`span:a\\|b<&>`"));
	assert_non_null(strstr(sb.buf, "FAIL: 1 regression"));
	pr_strbuf_reset(&sb);
	pr_compare_render_junit(cmp, &sb);
	assert_non_null(strstr(sb.buf, "name=\"span:a|b&lt;&amp;&gt;\""));
	assert_non_null(strstr(sb.buf, "<failure type=\"regression\""));
	pr_strbuf_release(&sb);
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regression_and_improvement),
		cmocka_unit_test(test_noise_not_significant),
		cmocka_unit_test(test_memory_rule),
		cmocka_unit_test(test_added_removed_ignored),
		cmocka_unit_test(test_not_a_model),
		cmocka_unit_test(test_spec_parsing),
		cmocka_unit_test(test_renderers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
