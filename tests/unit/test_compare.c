/* test_compare.c - analyze/compare and analyze/gate: known verdicts on small models, spec parsing. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include <math.h>

#include "analyze/multi/compare.h"
#include "analyze/multi/gate.h"
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
	run = json_pack(
		"{s:s, s:{s:f}, s:{s:{s:o}, s:{s:f}}, s:[{s:s, s:s, s:s, s:f}], s:[], s:{s:[]}}",
		"label", "run", "clock", "duration_ns", total, "throughput", "steps", "list", list,
		"tokens", "tokens_per_s", tps, "peaks", "series", "dev.mem.allocated", "device",
		"cuda:0", "unit", "bytes", "value", peak, "fragmentation", "phases", "occurrences");
	json_object_set_new(run, "spans",
			    json_pack("{s:[{s:s, s:s, s:f, s:o}]}", "items", "name", span, "kind",
				      "op", "total_ns", op_total, "per_step_ns", ps));
	m = json_pack("{s:s, s:i, s:[o]}", "schema", "profreport-model", "version", 1, "runs", run);
	return m;
}

static const json_t *metric(const json_t *cmp, const char *id)
{
	size_t i;
	json_t *m;
	json_array_foreach (json_object_get(cmp, "metrics"), i, m)
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
	assert_string_equal(json_string_value(json_object_get(metric(cmp, "step_time"), "mark")),
			    "+");
	assert_string_equal(json_string_value(
				    json_object_get(json_object_get(metric(cmp, "step_time"),
								    "test"),
						    "method")),
			    "mann-whitney");
	assert_true(
		json_real_value(json_object_get(json_object_get(metric(cmp, "step_time"), "test"),
						"p")) < 0.01);
	{
		/* medians 1.002e6 -> 1.202e6 (1.1996x); resampled medians stay within
		 * [1.000e6, 1.004e6] and [1.200e6, 1.204e6], so the CI is inside [1.1952, 1.204] */
		const json_t *ci =
			json_object_get(json_object_get(metric(cmp, "step_time"), "test"),
					"ratio_ci");
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
	assert_string_equal(json_string_value(json_object_get(metric(cmp, "step_time"), "mark")),
			    "-");
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
	/* a key metric beyond its threshold is never "noise": inconclusive, a pass */
	assert_string_equal(verdict(cmp, "step_time"), "inconclusive");
	assert_string_equal(json_string_value(json_object_get(metric(cmp, "step_time"), "mark")),
			    "?");
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
	/* percentage points of a share */
	assert_int_equal(pr_gate_parse_rule("gpu:idle_share:+3pp", &r, &err), 0);
	assert_true(r.has_abs && !r.has_rel && r.abs_unit == PR_GATE_SHARE);
	assert_true(fabs(r.abs - 0.03) < 1e-15);
	pr_gate_rule_release(&r);
	assert_int_equal(pr_gate_parse_rule("gpu:idle:+3pp", &r, &err), -1);
	assert_non_null(strstr(err.text, "gpu:compute|communication|memory|idle_share|overlap"));
	assert_int_equal(pr_gate_parse_rule("gpu:*:+3pp", &r, &err), 0);
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
						   "step_time:+0%", "x:+5%,-1ms", "x:+5%,+6%",
						   /* unknown metric names (issue 11) */
						   "step_tme:+3%", "spans:aten::mm:+3%",
						   "span::+5%", "throughput:tps:-5%",
						   "step_time:x:+5%", NULL };
		static const char *const good[] = { "*:+5%",
						    "span:*:+5%",
						    "throughput:*:-5%",
						    "throughput:fps:-5%",
						    "phase:## forward ##:+3%",
						    "reported:latency p99:+1ms",
						    "peak:+1GiB",
						    "fragmentation:+0.02",
						    "s*:+5%",
						    NULL };
		size_t i;
		for (i = 0; bad[i]; i++) {
			err.code = PR_OK;
			assert_int_equal(pr_gate_parse_rule(bad[i], &r, &err), -1);
			assert_int_equal(err.code, PR_E_USAGE);
		}
		for (i = 0; good[i]; i++) {
			assert_int_equal(pr_gate_parse_rule(good[i], &r, &err), 0);
			pr_gate_rule_release(&r);
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
	assert_false(g.strict);
	cfg = json_pack("{s:b}", "strict", 1);
	assert_int_equal(pr_gate_config(&g, cfg, "gate.json", &err), 0);
	assert_true(g.strict);
	json_decref(cfg);
	cfg = json_pack("{s:i}", "strict", 1);
	assert_int_equal(pr_gate_config(&g, cfg, "gate.json", &err), -1);
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

/*
 * A one-run model of short runs: n steps; with_phase: a phase "fwd" per step
 * (0.4 of it); with_peak: a peak of 1 GiB; a span "op" (half of every step)
 * called `calls` times in the run.
 */
static json_t *short_model(const double *steps, size_t n, int with_phase, int with_peak,
			   double calls)
{
	json_t *list = json_array(), *occ = json_array(), *ps = json_array(), *run;
	double total = 0;
	size_t i;
	for (i = 0; i < n; i++) {
		json_array_append_new(list, json_pack("{s:s, s:f, s:f}", "name", "ProfilerStep#0",
						      "t_ns", total, "dur_ns", steps[i]));
		if (with_phase)
			json_array_append_new(occ, json_pack("{s:s, s:f}", "name", "fwd", "dur_ns",
							     0.4 * steps[i]));
		json_array_append_new(ps, json_real(0.5 * steps[i]));
		total += steps[i];
	}
	run = json_pack("{s:s, s:{s:f}, s:{s:{s:o}}, s:{s:o}, s:[], s:[]}", "label", "run", "clock",
			"duration_ns", total, "throughput", "steps", "list", list, "phases",
			"occurrences", occ, "peaks", "fragmentation");
	if (with_peak)
		json_array_append_new(json_object_get(run, "peaks"),
				      json_pack("{s:s, s:s, s:s, s:f}", "series",
						"dev.mem.allocated", "device", "cuda:0", "unit",
						"bytes", "value", 1073741824.0));
	json_object_set_new(run, "spans",
			    json_pack("{s:[{s:s, s:s, s:f, s:f, s:o}]}", "items", "name", "op",
				      "kind", "op", "count", calls, "total_ns", 0.5 * total,
				      "per_step_ns", ps));
	return json_pack("{s:s, s:i, s:[o]}", "schema", "profreport-model", "version", 1, "runs",
			 run);
}

static const char *field(const json_t *cmp, const char *id, const char *key)
{
	const json_t *m = metric(cmp, id);
	assert_non_null(m);
	return json_string_value(json_object_get(m, key));
}

/* The smallest two-sided exact Mann-Whitney p is 2 / C(n1 + n2, n1). */
static void test_min_p(void **state)
{
	(void)state;
	assert_true(fabs(pr_compare_min_p(3, 3) - 2.0 / 20) < 1e-12);
	assert_true(fabs(pr_compare_min_p(4, 4) - 2.0 / 70) <
		    1e-12); /* 0.0286: the issue's 0.029 */
	assert_true(fabs(pr_compare_min_p(5, 5) - 2.0 / 252) < 1e-12); /* 0.0079 < 0.01 */
	assert_true(fabs(pr_compare_min_p(3, 5) - 2.0 / 56) < 1e-12);
	assert_true(fabs(pr_compare_min_p(2, 2) - 2.0 / 6) < 1e-12);
	assert_true(pr_compare_min_p(1, 1) == 1.0);
	assert_true(pr_compare_min_p(0, 4) == 1.0);
}

/*
 * Short runs (issue 11): 1.5x slower steps over 3, 4 and 5 steps fail. With
 * 3 or 4 steps a side Mann-Whitney cannot reach p < 0.01 (smallest p 0.1 and
 * 0.029), so the bootstrap CI decides: every resampled median lies within
 * the sample's range, so the CI's low end is >= min(new) / max(base) =
 * 1.47 / 1.02 = 1.44 > 1.05. With 5 the exact p is 2/252 = 0.0079 < 0.01.
 */
static void test_short_runs_fail_on_slowdown(void **state)
{
	static const double a[5] = { 1.00e6, 1.02e6, 0.98e6, 1.01e6, 0.99e6 };
	double b[5];
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	size_t n, i;
	(void)state;
	pr_gate_init(&g);
	for (i = 0; i < 5; i++)
		b[i] = 1.5 * a[i];
	for (n = 3; n <= 5; n++) {
		json_t *base = short_model(a, n, 1, 1, (double)n),
		       *newm = short_model(b, n, 1, 1, (double)n);
		json_t *cmp = pr_compare(base, newm, &g, &err);
		const json_t *test;
		assert_non_null(cmp);
		assert_string_equal(verdict(cmp, "step_time"), "regression");
		assert_string_equal(verdict(cmp, "phase:fwd"), "regression");
		assert_string_equal(verdict(cmp, "span:op"), "regression");
		test = json_object_get(metric(cmp, "step_time"), "test");
		assert_string_equal(json_string_value(json_object_get(test, "separated")), "above");
		if (n < 5) {
			const json_t *ci = json_object_get(test, "ratio_ci");
			assert_string_equal(field(cmp, "step_time", "rule"), "bootstrap-ci");
			assert_true(json_is_false(json_object_get(test, "reaches_alpha")));
			assert_true(json_number_value(json_object_get(test, "p")) >= 0.01);
			assert_true(json_number_value(json_array_get(ci, 0)) >=
				    1.47 / 1.02 - 1e-12);
			assert_non_null(
				strstr(field(cmp, "step_time", "why"), "wholly beyond +5%"));
		} else {
			assert_string_equal(field(cmp, "step_time", "rule"), "mann-whitney");
			assert_true(fabs(json_number_value(json_object_get(test, "p")) -
					 2.0 / 252) < 1e-12);
		}
		assert_int_equal(pr_compare_failures(cmp), 3);
		json_decref(cmp);
		/* the other way round: an improvement by the same rule, no failure */
		cmp = pr_compare(newm, base, &g, &err);
		assert_string_equal(verdict(cmp, "step_time"), "improvement");
		assert_string_equal(field(cmp, "step_time", "rule"),
				    n < 5 ? "bootstrap-ci" : "mann-whitney");
		assert_int_equal(pr_compare_failures(cmp), 0);
		json_decref(cmp);
		json_decref(base);
		json_decref(newm);
	}
	pr_gate_release(&g);
}

/*
 * Short runs that must pass: identical ones, noise within the threshold,
 * and a change beyond the threshold that the samples do not support.
 * Overlap: base 1.00 1.01 1.02 1.20, new 1.05 1.08 1.10 1.12 (x 1e6): medians
 * 1.015 and 1.09 (+7.4 %, beyond +5 %), not separated (1.05 < 1.20); the
 * exact bootstrap distribution of the ratio of medians (all 4^4 x 4^4
 * resamples, enumerated in python3) puts 34 % of its mass at or below 1.05,
 * so the CI's 2.5 % end is below 1.05: "noise", not a regression.
 */
static void test_short_runs_pass_on_noise(void **state)
{
	static const double a[4] = { 1.00e6, 1.03e6, 0.97e6, 1.01e6 };
	static const double b[4] = { 1.02e6, 0.99e6, 1.04e6, 0.98e6 };
	static const double oa[4] = { 1.00e6, 1.01e6, 1.02e6, 1.20e6 };
	static const double ob[4] = { 1.05e6, 1.08e6, 1.10e6, 1.12e6 };
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *newm, *cmp;
	(void)state;
	pr_gate_init(&g);
	base = short_model(a, 4, 1, 1, 4);
	cmp = pr_compare(base, base, &g, &err);
	assert_string_equal(verdict(cmp, "step_time"), "unchanged");
	assert_string_equal(field(cmp, "step_time", "rule"), "threshold");
	assert_int_equal(pr_compare_failures(cmp), 0);
	json_decref(cmp);
	newm = short_model(b, 4, 1, 1, 4); /* medians 1.005e6 and 1.005e6 */
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "step_time"), "unchanged");
	assert_int_equal(pr_compare_failures(cmp), 0);
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	base = short_model(oa, 4, 0, 0, 4);
	newm = short_model(ob, 4, 0, 0, 4);
	cmp = pr_compare(base, newm, &g, &err);
	/* step time, a key metric: the CI does not confirm it, and the change beyond the
	 * threshold (+2.4 % of base) is not above 4 spreads (1.4826 x 12.5e3 each): inconclusive */
	assert_string_equal(verdict(cmp, "step_time"), "inconclusive");
	assert_string_equal(field(cmp, "step_time", "mark"), "?");
	assert_string_equal(field(cmp, "step_time", "rule"), "consistent");
	assert_string_equal(json_string_value(
				    json_object_get(json_object_get(metric(cmp, "step_time"),
								    "test"),
						    "separated")),
			    "no");
	assert_int_equal(pr_compare_failures(cmp), 0);
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

/*
 * The key-metric rule (pr_compare_decide, t.key): +39 % median step time over
 * 5 steps a side whose BASE has one slow warm-up step (200): Mann-Whitney
 * p = 0.15 (5 of the 25 pairs reversed), so a span would be "noise"; for a key
 * metric the change beyond +10 % (49.8 - 12.65 = 37.15) exceeds 4 x the
 * pooled spread: deviations from each side's median without the median
 * itself, base 6.5 2.5 3.5 73.5 and new 6.3 1.3 3.7 8.7, median (3.7 + 6.3) / 2
 * = 5.0, x 1.4826 = 7.41, x 4 = 29.65 (by hand). Noise-sized changes stay
 * inconclusive.
 */
static void test_decide_key_metric(void **state)
{
	static const double a[5] = { 120, 124, 126.5, 130, 200 };
	static const double b[5] = { 170, 175, 176.3, 180, 185 };
	static const double c[5] = { 128, 131, 133, 119, 140 };
	struct pr_cmp_threshold t = { 1, 1, 0, 0.10, 0, 0 };
	struct pr_cmp_decision d;
	(void)state;
	pr_compare_decide(a, 5, b, 5, 126.5, 176.3, &t, 0.01, 0, &d);
	assert_int_equal(d.verdict, PR_CMP_NOISE);
	assert_int_equal(d.rule, PR_CMP_RULE_MWU);
	t.key = 1;
	pr_compare_decide(a, 5, b, 5, 126.5, 176.3, &t, 0.01, 0, &d);
	assert_int_equal(d.verdict, PR_CMP_REGRESSION);
	assert_int_equal(d.rule, PR_CMP_RULE_CONSISTENT);
	assert_true(fabs(d.excess - 37.15) < 1e-9);
	assert_true(fabs(d.spread - 1.4826 * 5.0) < 1e-9);
	/* +5 % of median (126.5 -> 131) with a spread as wide: beyond a +3 % threshold, but
	 * not by 4 spreads: inconclusive, not a failure */
	t.rel = 0.03;
	pr_compare_decide(a, 5, c, 5, 126.5, 131, &t, 0.01, 0, &d);
	assert_int_equal(d.verdict, PR_CMP_INCONCLUSIVE);
	assert_int_equal(d.rule, PR_CMP_RULE_CONSISTENT);
}

/* Two steps a side: min p 1/3, the bootstrap CI decides; one a side: the threshold alone. */
static void test_one_and_two_steps(void **state)
{
	static const double a[2] = { 1.00e6, 1.02e6 }, b[2] = { 1.50e6, 1.52e6 };
	static const double c[2] = { 1.00e6, 1.20e6 }, e[2] = { 1.10e6, 1.12e6 };
	static const double one[1] = { 1.0e6 }, one_b[1] = { 1.06e6 };
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *newm, *cmp;
	(void)state;
	pr_gate_init(&g);
	/* CI low end >= 1.50 / 1.02 = 1.47 */
	base = short_model(a, 2, 0, 0, 2);
	newm = short_model(b, 2, 0, 0, 2);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "step_time"), "regression");
	assert_string_equal(field(cmp, "step_time", "rule"), "bootstrap-ci");
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	/* medians 1.10 -> 1.11 is within +5 %: unchanged; 1.00, 1.20 vs 1.10, 1.12 overlap */
	base = short_model(c, 2, 0, 0, 2);
	newm = short_model(e, 2, 0, 0, 2);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "step_time"), "unchanged");
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	/* one step a side, +6 %: the threshold alone decides */
	base = short_model(one, 1, 0, 0, 1);
	newm = short_model(one_b, 1, 0, 0, 1);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "step_time"), "regression");
	assert_string_equal(field(cmp, "step_time", "rule"), "thresholds-only");
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

/* pr_compare_decide directly: an absolute threshold also bounds the CI. */
static void test_decide_abs_threshold(void **state)
{
	static const double a[3] = { 100, 101, 102 }, b[3] = { 110, 111, 112 };
	struct pr_cmp_threshold t = { 1, 1, 1, 0.05, 20, 0 }; /* +5 % and +20 */
	struct pr_cmp_decision d;
	(void)state;
	/* +10 % but only +10 in absolute terms: within the +20 */
	pr_compare_decide(a, 3, b, 3, 101, 111, &t, 0.01, 0, &d);
	assert_int_equal(d.verdict, PR_CMP_UNCHANGED);
	assert_int_equal(d.rule, PR_CMP_RULE_THRESHOLD);
	assert_int_equal(d.has_ci, 0); /* not needed, not asked for */
	t.abs = 5;
	/* beyond both; CI low end >= 110 / 102 = 1.078: +7.8 % and +7.9 of 101, beyond both */
	pr_compare_decide(a, 3, b, 3, 101, 111, &t, 0.01, 0, &d);
	assert_int_equal(d.verdict, PR_CMP_REGRESSION);
	assert_int_equal(d.rule, PR_CMP_RULE_BOOTSTRAP);
	assert_true(d.has_ci && d.ci_lo >= 110.0 / 102 - 1e-12);
	assert_int_equal(d.separated, 1);
	assert_true(fabs(d.min_p - 0.1) < 1e-12);
	t.abs = 9; /* CI low end 1.078 * 101 - 101 = 7.9 < 9: not wholly beyond */
	pr_compare_decide(a, 3, b, 3, 101, 111, &t, 0.01, 1, &d);
	assert_int_equal(d.verdict, PR_CMP_NOISE);
	assert_true(d.ci_lo <= 110.0 / 101 + 1e-12); /* resamples can pick 110 over 101 */
}

/* A key metric of BASE missing in NEW fails; a span on one side only does not. */
static void test_missing_key_metric(void **state)
{
	static const double a[4] = { 1.00e6, 1.03e6, 0.97e6, 1.01e6 };
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *newm, *cmp, *steps;
	(void)state;
	pr_gate_init(&g);
	base = short_model(a, 4, 1, 1, 4);
	newm = short_model(a, 4, 0, 0, 4); /* no phase, no peak */
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "phase:fwd"), "missing");
	assert_string_equal(field(cmp, "phase:fwd", "mark"), "!");
	assert_string_equal(field(cmp, "phase:fwd", "rule"), "presence");
	assert_string_equal(verdict(cmp, "peak:dev.mem.allocated"), "missing");
	assert_string_equal(verdict(cmp, "step_time"), "unchanged");
	assert_int_equal(pr_compare_regressions(cmp), 0);
	assert_int_equal(pr_compare_failures(cmp), 2);
	assert_string_equal(json_string_value(
				    json_object_get(json_object_get(cmp, "summary"), "status")),
			    "fail");
	json_decref(cmp);
	/* the other way round they are only added */
	cmp = pr_compare(newm, base, &g, &err);
	assert_string_equal(verdict(cmp, "phase:fwd"), "added");
	assert_int_equal(pr_compare_failures(cmp), 0);
	json_decref(cmp);
	/* no steps in NEW: step_time is missing */
	steps = json_object_get(json_object_get(json_array_get(json_object_get(newm, "runs"), 0),
						"throughput"),
				"steps");
	json_array_clear(json_object_get(steps, "list"));
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "step_time"), "missing");
	assert_int_equal(pr_compare_failures(cmp), 3);
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

/*
 * A one-run GPU model: n steps, each with kern[i] ms of compute kernels, 10 ms
 * of communication and 1 ms of memcpy (its step breakdown), lasting so that
 * the rest, with no GPU op, is the share idle[i] of the step; the run's
 * gpu_breakdown (the sums of the steps) and an overlap share (< 0: no
 * communication kernel, so no overlap).
 */
static json_t *gpu_model(size_t n, const double *kern, const double *idle, double overlap,
			 int with_steps)
{
	json_t *list = json_array(), *sb = json_array(), *run, *ov;
	double span = 0, comp = 0, idl = 0;
	size_t i;
	for (i = 0; i < n; i++) {
		double k = kern[i] * 1e6, dur = (k + 11e6) / (1 - idle[i]), id = dur - k - 11e6;
		/* the time with no GPU op goes to runtime: the step sums to dur */
		json_array_append_new(list, json_pack("{s:s, s:f, s:f}", "name", "ProfilerStep#0",
						      "t_ns", span, "dur_ns", dur));
		json_array_append_new(sb, json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "dur_ns", dur,
						    "kernel_ns", k, "communication_ns", 10e6,
						    "memcpy_ns", 1e6, "memset_ns", 0.0,
						    "runtime_ns", id));
		span += dur;
		comp += k;
		idl += id;
	}
	ov = overlap < 0 ? json_pack("{s:i, s:i, s:n}", "communication_ns", 0, "overlapped_ns", 0,
				     "share")
			 : json_pack("{s:f, s:f, s:f}", "communication_ns", 10e6 * (double)n,
				     "overlapped_ns", overlap * 10e6 * (double)n, "share", overlap);
	run = json_pack("{s:s, s:{s:f}, s:{s:{s:o}}}", "label", "run", "clock", "duration_ns", span,
			"throughput", "steps", "list", list);
	json_object_set_new(run, "gpu_breakdown",
			    json_pack("{s:{s:f, s:f, s:f, s:f, s:f}, s:o}", "rank", "span_ns", span,
				      "compute_ns", comp, "communication_ns",
				      overlap < 0 ? 0.0 : 10e6 * (double)n, "memory_ns",
				      1e6 * (double)n, "idle_ns", idl, "overlap", ov));
	if (with_steps)
		json_object_set_new(run, "step_breakdown", json_pack("{s:o}", "steps", sb));
	else
		json_decref(sb);
	return json_pack("{s:s, s:i, s:[o]}", "schema", "profreport-model", "version", 1, "runs",
			 run);
}

static double mnum(const json_t *cmp, const char *id, const char *key)
{
	const json_t *m = metric(cmp, id);
	assert_non_null(m);
	return json_number_value(json_object_get(m, key));
}

/* compare's GPU metrics: per-step samples, share thresholds in points, direction, presence. */
static void test_gpu_metrics(void **state)
{
	static const double k10[5] = { 10, 10.2, 9.9, 10.1, 9.8 },
			    k15[5] = { 15, 15.3, 14.9, 15.1, 14.7 };
	static const double i10[5] = { 0.10, 0.101, 0.099, 0.102, 0.098 };
	static const double i13[5] = { 0.13, 0.131, 0.129, 0.132, 0.128 };
	static const double i17[5] = { 0.17, 0.171, 0.169, 0.172, 0.168 };
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *newm, *cmp;
	(void)state;
	pr_gate_init(&g);
	base = gpu_model(5, k10, i10, 0.30, 1);
	/* compute 1.5x per step: 5 samples a side, Mann-Whitney p = 0.0079 (separated) */
	newm = gpu_model(5, k15, i10, 0.30, 1);
	cmp = pr_compare(base, newm, &g, &err);
	assert_non_null(cmp);
	assert_string_equal(verdict(cmp, "gpu:compute"), "regression");
	assert_string_equal(field(cmp, "gpu:compute", "rule"), "mann-whitney");
	assert_true(mnum(cmp, "gpu:compute", "n1") == 5 && mnum(cmp, "gpu:compute", "n2") == 5);
	/* the medians of the steps: 10 ms and 15 ms */
	assert_true(mnum(cmp, "gpu:compute", "base") == 10e6);
	assert_true(mnum(cmp, "gpu:compute", "new") == 15e6);
	assert_string_equal(verdict(cmp, "gpu:communication"), "unchanged");
	assert_string_equal(verdict(cmp, "gpu:overlap"), "unchanged");
	assert_string_equal(field(cmp, "gpu:overlap", "better"), "higher");
	assert_string_equal(field(cmp, "gpu:idle_share", "better"), "lower");
	assert_string_equal(field(cmp, "gpu:idle_share", "kind"), "share");
	json_decref(cmp);
	json_decref(newm);
	/* idle 10 % -> 13 %: +30 % but 3 points, within +5pp; -> 17 %: 7 points, a regression */
	newm = gpu_model(5, k10, i13, 0.30, 1);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "gpu:idle_share"), "unchanged");
	assert_string_equal(json_string_value(
				    json_object_get(json_object_get(metric(cmp, "gpu:idle_share"),
								    "threshold"),
						    "text")),
			    "+5pp");
	json_decref(cmp);
	json_decref(newm);
	newm = gpu_model(5, k10, i17, 0.30, 1);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "gpu:idle_share"), "regression");
	assert_string_equal(field(cmp, "gpu:idle_share", "rule"), "mann-whitney");
	assert_true(fabs(mnum(cmp, "gpu:idle_share", "new") - 0.17) < 1e-9);
	json_decref(cmp);
	json_decref(newm);
	/* overlap 30 % -> 27 %: -10 % but 3 points: unchanged; -> 20 %: regression (one value a
	 * side: thresholds only); -> 40 %: an improvement (higher is better) */
	newm = gpu_model(5, k10, i10, 0.27, 1);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "gpu:overlap"), "unchanged");
	json_decref(cmp);
	/* --fail-on with points: -2pp makes the 3-point drop a regression */
	assert_int_equal(pr_gate_add_fail_on(&g, "gpu:overlap:-2pp", &err), 0);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "gpu:overlap"), "regression");
	assert_string_equal(field(cmp, "gpu:overlap", "rule"), "thresholds-only");
	json_decref(cmp);
	json_decref(newm);
	pr_gate_release(&g);
	pr_gate_init(&g);
	newm = gpu_model(5, k10, i10, 0.20, 1);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "gpu:overlap"), "regression");
	assert_string_equal(field(cmp, "gpu:overlap", "rule"), "thresholds-only");
	json_decref(cmp);
	json_decref(newm);
	newm = gpu_model(5, k10, i10, 0.40, 1);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "gpu:overlap"), "improvement");
	json_decref(cmp);
	json_decref(newm);
	/* no step breakdown in NEW: one run total a side (50 ms vs 75 ms), thresholds only;
	 * the idle share is the run's idle / span: 0.1 of every step, so 0.1 */
	newm = gpu_model(5, k15, i10, 0.30, 0);
	cmp = pr_compare(base, newm, &g, &err);
	assert_true(mnum(cmp, "gpu:compute", "n1") == 1 && mnum(cmp, "gpu:compute", "n2") == 1);
	assert_true(fabs(mnum(cmp, "gpu:compute", "base") - 50e6) < 1e-3);
	assert_true(fabs(mnum(cmp, "gpu:compute", "new") - 75e6) < 1e-3);
	assert_true(fabs(mnum(cmp, "gpu:idle_share", "new") - 0.1) < 1e-3);
	assert_string_equal(field(cmp, "gpu:compute", "rule"), "thresholds-only");
	json_decref(cmp);
	json_decref(newm);
	/* NEW without communication kernels: the overlap is removed, not a failure */
	newm = gpu_model(5, k10, i10, -1, 1);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "gpu:overlap"), "removed");
	assert_int_equal(pr_compare_failures(cmp), 0);
	json_decref(cmp);
	/* NEW with no GPU op: every GPU metric of BASE is missing, a failure */
	json_object_del(json_array_get(json_object_get(newm, "runs"), 0), "gpu_breakdown");
	json_object_del(json_array_get(json_object_get(newm, "runs"), 0), "step_breakdown");
	cmp = pr_compare(base, newm, &g, &err);
	assert_non_null(cmp);
	assert_string_equal(verdict(cmp, "gpu:compute"), "missing");
	assert_string_equal(verdict(cmp, "gpu:overlap"), "missing");
	assert_string_equal(field(cmp, "gpu:idle_share", "rule"), "presence");
	assert_non_null(strstr(field(cmp, "gpu:compute", "why"), "NEW has no GPU op"));
	/* compute, communication, memory, idle_share, overlap */
	assert_int_equal(pr_compare_failures(cmp), 5);
	json_decref(cmp);
	/* a CPU-only BASE against a GPU NEW: added, a pass */
	cmp = pr_compare(newm, base, &g, &err);
	assert_string_equal(verdict(cmp, "gpu:compute"), "added");
	assert_int_equal(pr_compare_failures(cmp), 0);
	json_decref(cmp);
	json_decref(newm);
	/* a GPU time that is not a measurement is an input error naming its path */
	newm = gpu_model(5, k10, i10, 0.30, 1);
	json_object_set_new(
		json_array_get(json_object_get(
				       json_object_get(json_array_get(json_object_get(newm, "runs"),
								      0),
						       "step_breakdown"),
				       "steps"),
			       2),
		"kernel_ns", json_null());
	cmp = pr_compare(base, newm, &g, &err);
	assert_null(cmp);
	assert_non_null(strstr(err.text, "runs[0].step_breakdown.steps[2].kernel_ns is null"));
	json_decref(newm);
	json_decref(base);
	pr_gate_release(&g);
}

/* Runs with no metric in common are an input error, not a pass. */
static void test_nothing_comparable(void **state)
{
	static const double a[4] = { 1.00e6, 1.03e6, 0.97e6, 1.01e6 };
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *mem;
	(void)state;
	pr_gate_init(&g);
	base = short_model(a, 4, 1, 0, 4);
	/* a memory CSV's model: one peak of another series, nothing else */
	mem = json_pack("{s:s, s:i, s:[{s:s, s:[{s:s, s:s, s:s, s:f}]}]}", "schema",
			"profreport-model", "version", 1, "runs", "label", "gpu_log.csv", "peaks",
			"series", "gpu.mem.used", "device", "gpu0", "unit", "bytes", "value", 1e9);
	assert_null(pr_compare(base, mem, &g, &err));
	assert_int_equal(err.code, PR_E_FORMAT);
	assert_non_null(strstr(err.text, "nothing to compare"));
	assert_non_null(strstr(err.text, "peak:gpu.mem.used"));
	json_decref(base);
	json_decref(mem);
	pr_gate_release(&g);
}

/*
 * Calls per step: "op" called 8 times in 4 steps (2 per step) in BASE and 4
 * times (1 per step) in NEW with the same time is "calls changed"; 9 calls
 * (2.25 per step, a change of 0.25 < 0.5) is not.
 */
static void test_calls_per_step(void **state)
{
	static const double a[4] = { 1.00e6, 1.03e6, 0.97e6, 1.01e6 };
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *newm, *cmp;
	const json_t *calls;
	(void)state;
	pr_gate_init(&g);
	base = short_model(a, 4, 0, 0, 8);
	newm = short_model(a, 4, 0, 0, 4);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "span:op"), "calls changed");
	assert_string_equal(field(cmp, "span:op", "mark"), "#");
	calls = json_object_get(metric(cmp, "span:op"), "calls");
	assert_true(json_number_value(json_object_get(calls, "base")) == 2.0);
	assert_true(json_number_value(json_object_get(calls, "new")) == 1.0);
	assert_true(json_is_true(json_object_get(calls, "changed")));
	assert_int_equal(json_integer_value(
				 json_object_get(json_object_get(cmp, "summary"), "calls_changed")),
			 1);
	assert_int_equal(pr_compare_failures(cmp), 0);
	json_decref(cmp);
	json_decref(newm);
	newm = short_model(a, 4, 0, 0, 9);
	cmp = pr_compare(base, newm, &g, &err);
	assert_string_equal(verdict(cmp, "span:op"), "unchanged");
	assert_true(json_is_false(
		json_object_get(json_object_get(metric(cmp, "span:op"), "calls"), "changed")));
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

/* Rules and globs that select nothing are warnings in the comparison. */
static void test_gate_warnings(void **state)
{
	static const double a[4] = { 1.00e6, 1.03e6, 0.97e6, 1.01e6 };
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *cmp, *w;
	(void)state;
	pr_gate_init(&g);
	base = short_model(a, 4, 1, 1, 4);
	assert_int_equal(pr_gate_add_fail_on(&g, "phase:bwd:+3%", &err), 0);   /* no such phase */
	assert_int_equal(pr_gate_add_fail_on(&g, "step_time:+1MiB", &err), 0); /* wrong unit */
	assert_int_equal(pr_gate_add_fail_on(&g, "phase:f*:+3%", &err), 0);    /* fine */
	assert_int_equal(pr_gate_add_ignore(&g, "aten::nothing*", &err), 0);   /* no match */
	assert_int_equal(pr_gate_add_ignore(&g, "op", &err), 0);	       /* fine */
	cmp = pr_compare(base, base, &g, &err);
	w = json_object_get(cmp, "warnings");
	assert_int_equal(json_array_size(w), 3);
	assert_non_null(strstr(json_string_value(json_array_get(w, 0)),
			       "'phase:bwd:+3%' matches no metric"));
	assert_non_null(strstr(json_string_value(json_array_get(w, 1)), "none measured in bytes"));
	assert_non_null(strstr(json_string_value(json_array_get(w, 2)),
			       "'aten::nothing*' matches no metric"));
	json_decref(cmp);
	json_decref(base);
	pr_gate_release(&g);
}

/* pr_compare's error text for base / newm, or NULL when it compared them. */
static char *compare_error(const json_t *base, const json_t *newm, const struct pr_gate *g)
{
	static char text[sizeof(((struct pr_error *)0)->text)];
	struct pr_error err = PR_ERROR_INIT;
	json_t *cmp = pr_compare(base, newm, g, &err);
	if (cmp) {
		json_decref(cmp);
		return NULL;
	}
	assert_int_equal(err.code, PR_E_FORMAT);
	memcpy(text, err.text, sizeof(text));
	return text;
}

static json_t *run0(json_t *m)
{
	return json_array_get(json_object_get(m, "runs"), 0);
}

/*
 * Values that are not measurements (issue 12): a per-step value null or
 * negative, a step time null, negative or 0, a phase time negative. Each is
 * an error naming the value's path and side, not a comparison (before, a
 * null per-step value read as 0 and showed an improvement).
 */
static void test_bad_values(void **state)
{
	static const double a[4] = { 1.00e6, 1.03e6, 0.97e6, 1.01e6 };
	struct pr_gate g;
	json_t *base, *newm, *ps, *steps;
	const char *t;
	(void)state;
	pr_gate_init(&g);
	base = model(a, 4, 1.0, 1e9, 1000, "op");
	newm = model(a, 4, 1.0, 1e9, 1000, "op");
	assert_null(compare_error(base, newm, &g));
	ps = json_object_get(json_array_get(json_object_get(json_object_get(run0(newm), "spans"),
							    "items"),
					    0),
			     "per_step_ns");
	steps = json_object_get(json_object_get(json_object_get(run0(newm), "throughput"), "steps"),
				"list");
	json_array_set_new(ps, 1, json_null());
	t = compare_error(base, newm, &g);
	assert_non_null(t);
	assert_non_null(strstr(t, "NEW: runs[0].spans.items[0].per_step_ns[1] is null"));
	assert_non_null(strstr(t, "(span 'op', step 2)"));
	json_array_set_new(ps, 1, json_real(-3));
	assert_non_null(strstr(compare_error(base, newm, &g),
			       "NEW: runs[0].spans.items[0].per_step_ns[1] is -3, not a time"));
	/* BASE is checked the same way */
	assert_non_null(strstr(compare_error(newm, base, &g), "BASE: runs[0].spans.items[0]"));
	json_array_set_new(ps, 1, json_real(5e5));
	assert_null(compare_error(base, newm, &g));
	json_object_set_new(json_array_get(steps, 2), "dur_ns", json_null());
	assert_non_null(strstr(compare_error(base, newm, &g),
			       "NEW: runs[0].throughput.steps.list[2].dur_ns is null"));
	json_object_set_new(json_array_get(steps, 2), "dur_ns", json_integer(-970000));
	assert_non_null(strstr(compare_error(base, newm, &g),
			       "NEW: runs[0].throughput.steps.list[2].dur_ns is -970000"));
	/* a step of 0 ns: a trace whose events lost "dur" */
	json_object_set_new(json_array_get(steps, 2), "dur_ns", json_integer(0));
	t = compare_error(base, newm, &g);
	assert_non_null(strstr(t,
			       "NEW: the step 'ProfilerStep#0' (runs[0].throughput.steps.list[2]) "
			       "lasts 0 ns"));
	json_object_set_new(json_array_get(steps, 2), "dur_ns", json_real(0.97e6));
	/* a phase occurrence of negative time */
	json_array_append_new(json_object_get(json_object_get(run0(newm), "phases"), "occurrences"),
			      json_pack("{s:s, s:i}", "name", "fwd", "dur_ns", -1));
	assert_non_null(strstr(compare_error(base, newm, &g),
			       "NEW: runs[0].phases.occurrences[0].dur_ns is -1"));
	json_array_clear(json_object_get(json_object_get(run0(newm), "phases"), "occurrences"));
	/* null where the model writes null for "not measured" is no error: a rate
	 * unknown in NEW is then missing, a key metric, so the gate fails */
	json_object_set_new(json_object_get(json_object_get(run0(newm), "throughput"), "tokens"),
			    "tokens_per_s", json_null());
	{
		struct pr_error err = PR_ERROR_INIT;
		json_t *cmp = pr_compare(base, newm, &g, &err);
		assert_non_null(cmp);
		assert_string_equal(verdict(cmp, "throughput:tokens_per_s"), "missing");
		assert_int_equal(pr_compare_failures(cmp), 1);
		json_decref(cmp);
	}
	/* a negative rate is not */
	json_object_set_new(json_object_get(json_object_get(run0(newm), "throughput"), "tokens"),
			    "tokens_per_s", json_real(-2));
	assert_non_null(strstr(compare_error(base, newm, &g),
			       "NEW: runs[0].throughput.tokens.tokens_per_s is -2"));
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

/*
 * Ingest diagnostics (issue 12): one that means data was dropped or made up
 * (bad_duration: a "dur" taken as 0) makes the side an error, named with its
 * count; one that notes a quirk (unsorted_track) does not; a code this
 * version does not know is treated as lost.
 */
static void test_lost_diagnostics(void **state)
{
	static const double a[4] = { 1.00e6, 1.03e6, 0.97e6, 1.01e6 };
	struct pr_gate g;
	json_t *base, *newm, *diags;
	const char *t;
	(void)state;
	pr_gate_init(&g);
	base = model(a, 4, 1.0, 1e9, 1000, "op");
	newm = model(a, 4, 1.0, 1e9, 1000, "op");
	diags = json_array();
	json_object_set_new(run0(newm), "diagnostics", diags);
	json_array_append_new(diags, json_pack("{s:s, s:i, s:s}", "code", "unsorted_track", "count",
					       1, "message", "nesting recomputed"));
	assert_null(compare_error(base, newm, &g));
	json_array_append_new(diags,
			      json_pack("{s:s, s:i, s:s}", "code", "bad_duration", "count", 680,
					"message", "event \"dur\" is not a number; taken as 0"));
	t = compare_error(base, newm, &g);
	assert_non_null(t);
	assert_non_null(strstr(t, "NEW: its ingest dropped or made up data (bad_duration x680; "
				  "first: event \"dur\" is not a number; taken as 0)"));
	assert_non_null(strstr(compare_error(newm, base, &g), "BASE: its ingest dropped"));
	json_array_remove(diags, 1);
	json_array_append_new(diags, json_pack("{s:s, s:i, s:s}", "code", "made_up_code", "count",
					       2, "message", "?"));
	assert_non_null(strstr(compare_error(base, newm, &g),
			       "made_up_code x2 (a diagnostic this version does not know)"));
	assert_int_equal(pr_compare_diag_class("truncated"), PR_CMP_DIAG_LOST);
	assert_int_equal(pr_compare_diag_class("overlapping_spans"), PR_CMP_DIAG_NOTE);
	assert_int_equal(pr_compare_diag_class("critical_path_over_budget"), PR_CMP_DIAG_NOTE);
	assert_int_equal(pr_compare_diag_class("made_up_code"), PR_CMP_DIAG_UNKNOWN);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
}

/* Collects every diagnostic code the ingest sources write: the first string
 * literal of each "diag(" call, when it is a bare code ([a-z0-9_]+). */
static size_t scan_codes(const char *dir, char codes[][64], size_t n, size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[1024], *buf, *p;
		size_t len = strlen(e->d_name), got;
		FILE *f;
		if (len < 3 || strcmp(e->d_name + len - 2, ".c"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		assert_non_null(f);
		buf = malloc(1 << 22);
		got = fread(buf, 1, (1 << 22) - 1, f);
		buf[got] = '\0';
		fclose(f);
		for (p = strstr(buf, "diag("); p; p = strstr(p + 1, "diag(")) {
			char *end = strchr(p, ';'), *q = strchr(p, '"'), *r;
			size_t k;
			if (!end || !q || q > end || !(r = strchr(q + 1, '"')) || r - q - 1 <= 0 ||
			    r - q - 1 >= 64 ||
			    strspn(q + 1, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
				    (size_t)(r - q - 1))
				continue;
			for (k = 0; k < n; k++)
				if (!strncmp(codes[k], q + 1, (size_t)(r - q - 1)) &&
				    !codes[k][r - q - 1])
					break;
			if (k == n && n < max) {
				memcpy(codes[n], q + 1, (size_t)(r - q - 1));
				codes[n][r - q - 1] = '\0';
				n++;
			}
		}
		free(buf);
	}
	closedir(d);
	return n;
}

/*
 * Every diagnostic code that ingest writes is classified for the gate (lost
 * or note): a new code must be given a class here, in analyze/multi/compare.c,
 * or compare treats it as lost data.
 */
static void test_diag_codes_classified(void **state)
{
	static char codes[512][64];
	const char *tests = getenv("PR_TESTS");
	char dir[1024];
	size_t n = 0, i, unknown = 0;
	(void)state;
	if (!tests) {
		skip();
		return;
	}
	snprintf(dir, sizeof(dir), "%s/../ingest", tests);
	n = scan_codes(dir, codes, n, 512);
	snprintf(dir, sizeof(dir), "%s/../store", tests);
	n = scan_codes(dir, codes, n, 512);
	assert_true(n > 100); /* 132 when this test was written */
	for (i = 0; i < n; i++) {
		if (pr_compare_diag_class(codes[i]) == PR_CMP_DIAG_UNKNOWN) {
			print_error("diagnostic '%s' has no class in analyze/multi/compare.c\n",
				    codes[i]);
			unknown++;
		}
	}
	assert_int_equal(unknown, 0);
	/* the known answers of both classes are among them */
	for (i = 0; i < n && strcmp(codes[i], "bad_duration"); i++)
		;
	assert_true(i < n);
}

/* A side with no metric at all (an empty trace) is an error naming the side. */
static void test_empty_side(void **state)
{
	static const double a[4] = { 1.00e6, 1.03e6, 0.97e6, 1.01e6 };
	struct pr_gate g;
	struct pr_error err = PR_ERROR_INIT;
	json_t *base, *empty;
	(void)state;
	pr_gate_init(&g);
	base = model(a, 4, 1.0, 1e9, 1000, "op");
	empty = json_pack("{s:s, s:i, s:[{s:s, s:{s:[]}, s:[]}]}", "schema", "profreport-model",
			  "version", 1, "runs", "label", "empty.json", "spans", "items", "peaks");
	assert_non_null(strstr(compare_error(base, empty, &g), "NEW has no metrics"));
	assert_non_null(strstr(compare_error(empty, base, &g), "BASE has no metrics"));
	assert_int_equal(pr_compare_check_side(empty, "NEW", &err), -1);
	assert_non_null(strstr(err.text, "NEW has no metrics"));
	assert_int_equal(pr_compare_check_side(base, "BASE", &err), 0);
	json_decref(base);
	json_decref(empty);
	pr_gate_release(&g);
}

/*
 * A gate that judged nothing (every metric ignored) is an error, and JUnit
 * never reports a pass without a testcase: a comparison without a gated
 * metric, or one that could not be made, is one <error> testcase.
 */
static void test_nothing_compared(void **state)
{
	static const double a[4] = { 1.00e6, 1.03e6, 0.97e6, 1.01e6 };
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_gate g;
	json_t *base, *cmp;
	const char *t;
	(void)state;
	pr_gate_init(&g);
	base = model(a, 4, 1.0, 1e9, 1000, "op");
	assert_int_equal(pr_gate_add_ignore(&g, "*", NULL), 0);
	/* step_time, span:op, peak, tokens/s: 4 ignored */
	t = compare_error(base, base, &g);
	assert_non_null(t);
	assert_non_null(
		strstr(t, "nothing compared: no gated metric is in both inputs (4 ignored"));
	cmp = json_pack("{s:[], s:{s:s}, s:{s:f}}", "metrics", "summary", "status", "pass",
			"settings", "alpha", 0.01);
	pr_compare_render_junit(cmp, &sb);
	assert_non_null(strstr(sb.buf, "tests=\"1\" failures=\"0\" errors=\"1\""));
	assert_non_null(strstr(sb.buf, "<error type=\"error\" message=\"nothing compared"));
	assert_null(strstr(sb.buf, "value=\"pass\""));
	json_decref(cmp);
	pr_strbuf_reset(&sb);
	pr_compare_render_junit_error("'a<b>.json': NEW has no metrics", &sb);
	assert_non_null(strstr(sb.buf, "<property name=\"status\" value=\"error\"/>"));
	assert_non_null(
		strstr(sb.buf, "message=\"&#39;a&lt;b&gt;.json&#39;: NEW has no metrics\""));
	pr_strbuf_release(&sb);
	json_decref(base);
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
		cmocka_unit_test(test_min_p),
		cmocka_unit_test(test_short_runs_fail_on_slowdown),
		cmocka_unit_test(test_short_runs_pass_on_noise),
		cmocka_unit_test(test_one_and_two_steps),
		cmocka_unit_test(test_decide_abs_threshold),
		cmocka_unit_test(test_missing_key_metric),
		cmocka_unit_test(test_gpu_metrics),
		cmocka_unit_test(test_nothing_comparable),
		cmocka_unit_test(test_calls_per_step),
		cmocka_unit_test(test_gate_warnings),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_lost_diagnostics),
		cmocka_unit_test(test_diag_codes_classified),
		cmocka_unit_test(test_empty_side),
		cmocka_unit_test(test_nothing_compared),
		cmocka_unit_test(test_decide_key_metric),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
