/*
 * test_trace.c - the trace section (analyze/an_trace.c) on a designed trace,
 * every number by hand below, and --window's SPEC parser.
 *
 * Thread 1 (us): ProfilerStep#1 [0, 100) with aten::mm [5, 30) holding
 * cudaLaunchKernel [10, 15) (correlation 1); then a span named like an XSS
 * probe [105, 110) and "later" [125, 130); ProfilerStep#2 [150, 210) with
 * cudaLaunchKernel [160, 165) (corr 4); ProfilerStep#3 [300, 380) with
 * cudaLaunchKernel [310, 315) (corr 3). Kernels: K1 [90, 120) corr 1 and
 * K3 [400, 500) corr 3 on stream 7, K4 [115, 117) corr 4 on stream 8.
 *
 * Steps by duration: 60 (#2), 80 (#3), 100 (#1): slowest #1, median #3.
 * Window of #1: [0, 100) extended to K1's end 120 (launched from the step;
 * the bound is #2's start + 100 = 250). Window of #3: [300, 380) extended
 * to K3's end 500, cut at its bound 380 + 80 = 460. Spans meeting them:
 * #1, mm, launch@10, probe (105 < 120), K1, K4 (115 < 120: it meets the
 * window, whoever launched it); #3, launch@310, K3: 9. Not: later (125),
 * #2, launch@160. Lanes: the thread, then streams 7 and 8. Depths on the
 * thread: #1 0, mm 1, launch 2, probe 0, #3 0, launch 1 (lane depth 3).
 * Slices in order: 0 #1, 1 mm, 2 launch@10, 3 probe, 4 #3, 5 launch@310,
 * 6 K1, 7 K3, 8 K4; links [2, 6], [5, 7] (K4's call is not shown).
 */
#include "tests/unit/helpers.h"
#include "tests/unit/jpath.h"

#include "analyze/actx.h"
#include "analyze/model.h"
#include "analyze/trace_impl.h"

#define PROBE "<img src=x onerror=alert(1)>"

static const char trace[] =
	"{\"traceEvents\": [\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":25,"
	"\"args\":{\"Input Dims\":[[2,3],[3,4]],\"Input type\":[\"float\",\"float\"],\"Ignored\":7}},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5,"
	"\"args\":{\"correlation\":1,\"External id\":11}},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" PROBE
	"\",\"pid\":1,\"tid\":1,\"ts\":105,\"dur\":5},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"later\",\"pid\":1,\"tid\":1,\"ts\":125,\"dur\":5},\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":150,\"dur\":60},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":160,\"dur\":5,"
	"\"args\":{\"correlation\":4}},\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#3\",\"pid\":1,\"tid\":1,\"ts\":300,\"dur\":80},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":310,\"dur\":5,"
	"\"args\":{\"correlation\":3}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"K1\",\"pid\":0,\"tid\":7,\"ts\":90,\"dur\":30,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":1,\"grid\":[4,1,1],\"block\":[128,1,1]}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"K3\",\"pid\":0,\"tid\":7,\"ts\":400,\"dur\":100,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":3,\"grid\":[4,1,1],\"block\":[128,1,1]}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"K4\",\"pid\":0,\"tid\":8,\"ts\":115,\"dur\":2,"
	"\"args\":{\"device\":0,\"stream\":8,\"correlation\":4}}\n"
	"]}\n";

static json_t *model_of(const char *text, const char *window, struct pr_error *err)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_store *st = open_store();
	json_t *m;
	ingest_text(st, text, "chrome");
	o.timeline_points = 0;
	o.window = window;
	m = pr_model_build(st, &o, err);
	pr_store_close(st);
	return m;
}

static json_t *model(const char *window)
{
	struct pr_error err = PR_ERROR_INIT;
	json_t *m = model_of(trace, window, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	return m;
}

/* slice i is [lane, depth, t_ns, dur_ns, name, kind, self, args]: name and kind as text */
static void slice_is(json_t *t, size_t i, long long lane, long long depth, long long t_ns,
		     long long dur_ns, const char *name, const char *kind)
{
	json_t *s = json_array_get(json_object_get(t, "slices"), i);
	assert_int_equal(json_array_size(s), 8);
	assert_int_equal(json_integer_value(json_array_get(s, 0)), lane);
	assert_int_equal(json_integer_value(json_array_get(s, 1)), depth);
	assert_int_equal(json_integer_value(json_array_get(s, 2)), t_ns);
	assert_int_equal(json_integer_value(json_array_get(s, 3)), dur_ns);
	assert_string_equal(json_string_value(json_array_get(json_object_get(t, "names"),
							     (size_t)json_integer_value(
								     json_array_get(s, 4)))),
			    name);
	assert_string_equal(json_string_value(json_array_get(json_object_get(t, "kinds"),
							     (size_t)json_integer_value(
								     json_array_get(s, 5)))),
			    kind);
}

static json_t *slice_args(json_t *t, size_t i)
{
	json_t *s = json_array_get(json_object_get(t, "slices"), i);
	json_int_t a = json_integer_value(json_array_get(s, 7));
	return a < 0 ? NULL : json_array_get(json_object_get(t, "args"), (size_t)a);
}

static void window_is(json_t *t, size_t i, const char *label, long long t0, long long t1)
{
	json_t *w = json_array_get(json_object_get(t, "windows"), i);
	assert_string_equal(pr_mstr(w, "label"), label);
	assert_int_equal(pr_mll(w, "t0_ns"), t0);
	assert_int_equal(pr_mll(w, "t1_ns"), t1);
}

static void test_windows_slices_links(void **state)
{
	json_t *m = model(NULL), *t = at(m, "runs/0/trace"), *l, *a;
	(void)state;
	assert_int_equal(json_array_size(json_object_get(t, "windows")), 2);
	window_is(t, 0, "slowest step ProfilerStep#1", 0, 120000);
	window_is(t, 1, "median step ProfilerStep#3", 300000, 460000);
	assert_int_equal(pr_mll(t, "bound"), PR_TRACE_BOUND);
	assert_int_equal(pr_mll(t, "in_windows"), 9);
	assert_int_equal(pr_mll(t, "shown"), 9);
	assert_int_equal(pr_mll(t, "left_out"), 0);
	assert_int_equal(pr_mll(t, "left_out_below_ns"), 0);
	l = json_object_get(t, "lanes");
	assert_int_equal(json_array_size(l), 3);
	assert_string_equal(pr_mstr(json_array_get(l, 0), "kind"), "thread");
	assert_int_equal(pr_mll(json_array_get(l, 0), "depth"), 3);
	assert_string_equal(pr_mstr(json_array_get(l, 1), "kind"), "gpu_stream");
	assert_int_equal(pr_mll(json_array_get(l, 1), "depth"), 1);
	assert_string_equal(pr_mstr(json_array_get(l, 2), "kind"), "gpu_stream");
	assert_non_null(strstr(pr_mstr(json_array_get(l, 1), "name"), "7"));
	assert_non_null(strstr(pr_mstr(json_array_get(l, 2), "name"), "8"));
	assert_int_equal(json_array_size(json_object_get(t, "slices")), 9);
	slice_is(t, 0, 0, 0, 0, 100000, "ProfilerStep#1", "step");
	slice_is(t, 1, 0, 1, 5000, 25000, "aten::mm", "op");
	slice_is(t, 2, 0, 2, 10000, 5000, "cudaLaunchKernel", "runtime");
	slice_is(t, 3, 0, 0, 105000, 5000, PROBE, "op"); /* the name stays data */
	slice_is(t, 4, 0, 0, 300000, 80000, "ProfilerStep#3", "step");
	slice_is(t, 5, 0, 1, 310000, 5000, "cudaLaunchKernel", "runtime");
	slice_is(t, 6, 1, 0, 90000, 30000, "K1", "kernel");
	slice_is(t, 7, 1, 0, 400000, 100000, "K3", "kernel");
	slice_is(t, 8, 2, 0, 115000, 2000, "K4", "kernel");
	/* self: the step 100 - mm 25 = 75 us; mm 25 - 5 = 20 us */
	assert_int_equal(json_integer_value(json_array_get(at(m, "runs/0/trace/slices/0"), 6)),
			 75000);
	assert_int_equal(json_integer_value(json_array_get(at(m, "runs/0/trace/slices/1"), 6)),
			 20000);
	/* args: only the useful keys, values as in the trace; identical objects share one */
	a = slice_args(t, 1);
	assert_non_null(a);
	assert_int_equal(json_object_size(a), 2);
	assert_int_equal(json_integer_value(
				 json_array_get(json_array_get(json_object_get(a, "Input Dims"), 1),
						1)),
			 4);
	assert_string_equal(json_string_value(json_array_get(json_object_get(a, "Input type"), 0)),
			    "float");
	a = slice_args(t, 2);
	assert_int_equal(pr_mll(a, "correlation"), 1);
	assert_int_equal(pr_mll(a, "External id"), 11);
	a = slice_args(t, 6);
	assert_int_equal(pr_mll(a, "correlation"), 1);
	assert_int_equal(pr_mll(a, "stream"), 7);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(a, "block"), 0)), 128);
	assert_null(slice_args(t, 0)); /* a step: no useful args */
	assert_null(slice_args(t, 3));
	/* links: [call, kernel], sorted */
	l = json_object_get(t, "links");
	assert_int_equal(json_array_size(l), 2);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(l, 0), 0)), 2);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(l, 0), 1)), 6);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(l, 1), 0)), 5);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(l, 1), 1)), 7);
	json_decref(m);
}

/*
 * The bound: 4 of the 9 kept, the longest (100 #1 and K3, 80 #3, 30 K1); left
 * out mm 25, the three 5 us calls/probe and K4 2: every one shorter than
 * 25 us + 1 ns. Bound 6: mm and, of the three 5 us spans, the earliest id
 * (the launch at 10 us, first in the file) stay.
 */
static void test_bound(void **state)
{
	size_t keep = pr_trace_bound;
	json_t *m, *t;
	(void)state;
	pr_trace_bound = 4;
	m = model(NULL);
	pr_trace_bound = keep;
	t = at(m, "runs/0/trace");
	assert_int_equal(pr_mll(t, "bound"), 4);
	assert_int_equal(pr_mll(t, "in_windows"), 9);
	assert_int_equal(pr_mll(t, "shown"), 4);
	assert_int_equal(pr_mll(t, "left_out"), 5);
	assert_int_equal(pr_mll(t, "left_out_below_ns"), 25001);
	slice_is(t, 0, 0, 0, 0, 100000, "ProfilerStep#1", "step");
	slice_is(t, 1, 0, 0, 300000, 80000, "ProfilerStep#3", "step");
	slice_is(t, 2, 1, 0, 90000, 30000, "K1", "kernel");
	slice_is(t, 3, 1, 0, 400000, 100000, "K3", "kernel");
	assert_int_equal(json_array_size(json_object_get(t, "lanes")), 2); /* stream 8 has none */
	assert_int_equal(json_array_size(json_object_get(t, "links")), 0);
	json_decref(m);
	pr_trace_bound = 6;
	m = model(NULL);
	pr_trace_bound = keep;
	t = at(m, "runs/0/trace");
	assert_int_equal(pr_mll(t, "shown"), 6);
	assert_int_equal(pr_mll(t, "left_out"), 3);
	assert_int_equal(pr_mll(t, "left_out_below_ns"), 5001);
	slice_is(t, 1, 0, 1, 5000, 25000, "aten::mm", "op");
	slice_is(t, 2, 0, 2, 10000, 5000, "cudaLaunchKernel", "runtime");
	slice_is(t, 3, 0, 0, 300000, 80000, "ProfilerStep#3", "step");
	assert_int_equal(json_array_size(json_object_get(t, "links")), 1); /* [2, 4]: K1 */
	assert_int_equal(json_integer_value(at(m, "runs/0/trace/links/0/1")), 4);
	json_decref(m);
}

/* --window: a step by #N or name (extended as the default's), a time range, no step */
static void test_window_option(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	json_t *m, *t;
	(void)state;
	m = model("#2");
	t = at(m, "runs/0/trace");
	/* #2 [150, 210): its launch (corr 4) ran K4 at [115, 117), before: no extension */
	window_is(t, 0, "step ProfilerStep#2", 150000, 210000);
	assert_int_equal(pr_mll(t, "in_windows"), 2); /* #2, launch@160 */
	json_decref(m);
	m = model("ProfilerStep#3");
	window_is(at(m, "runs/0/trace"), 0, "step ProfilerStep#3", 300000, 460000);
	json_decref(m);
	/* [100 us, 126 us): the probe, later (125 < 126), K1 (ends 120) and K4 */
	m = model("0.1ms:126us");
	t = at(m, "runs/0/trace");
	window_is(t, 0, "time 0.1ms:126us", 100000, 126000);
	assert_int_equal(pr_mll(t, "in_windows"), 4);
	json_decref(m);
	/* open end: to the run's end (500 us), a zero-length span there would be in */
	m = model("400us:");
	t = at(m, "runs/0/trace");
	window_is(t, 0, "time 400us:", 400000, 500000);
	assert_int_equal(pr_mll(t, "in_windows"), 1); /* K3 */
	json_decref(m);
	assert_null(model_of(trace, "ProfilerStep#7", &err));
	assert_int_equal(err.code, PR_E_USAGE);
	assert_non_null(
		strstr(err.text, "#1 ProfilerStep#1, #2 ProfilerStep#2, #3 ProfilerStep#3"));
	pr_error_init(&err);
	assert_null(model_of(trace, "#4", &err));
	assert_int_equal(err.code, PR_E_USAGE);
	pr_error_init(&err);
}

/* Without steps: one window, the whole run. */
static void test_no_steps(void **state)
{
	static const char text[] =
		"{\"traceEvents\": [\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"B\",\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":20},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"Z\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":0}\n"
		"]}\n";
	struct pr_error err = PR_ERROR_INIT;
	json_t *m = model_of(text, NULL, &err), *t;
	(void)state;
	assert_non_null(m);
	t = at(m, "runs/0/trace");
	assert_int_equal(json_array_size(json_object_get(t, "windows")), 1);
	window_is(t, 0, "whole run", 0, 100000);
	assert_int_equal(pr_mll(t, "in_windows"), 3); /* Z at the run's end too */
	assert_int_equal(json_array_size(json_object_get(t, "lanes")), 2);
	slice_is(t, 0, 0, 0, 0, 100000, "A", "op");
	/* a zero-length span at its parent's end is inside it (as model.c nests steps) */
	slice_is(t, 1, 0, 1, 100000, 0, "Z", "op");
	assert_int_equal(pr_mll(json_array_get(json_object_get(t, "lanes"), 0), "depth"), 2);
	slice_is(t, 2, 1, 0, 10000, 20000, "B", "op");
	json_decref(m);
}

/*
 * Links from Kineto's ac2g flows where the events lack "correlation": the
 * flow 5 starts at the call's start on its thread and ends at the kernel's
 * start on its stream; the flow 6 ends where no slice starts (no link).
 * Slices: 0 the call [0, 10), 1 the other call [20, 30), 2 K [12, 20).
 */
static void test_flow_links(void **state)
{
	static const char text[] =
		"{\"traceEvents\": [\n"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},\n"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemsetAsync\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":10},\n"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"K\",\"pid\":0,\"tid\":7,\"ts\":12,\"dur\":8,"
		"\"args\":{\"device\":0,\"stream\":7}},\n"
		"{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":5,\"pid\":1,\"tid\":1,\"ts\":0},\n"
		"{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":5,\"pid\":0,\"tid\":7,\"ts\":12},\n"
		"{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":6,\"pid\":1,\"tid\":1,\"ts\":20},\n"
		"{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":6,\"pid\":0,\"tid\":7,\"ts\":25}\n"
		"]}\n";
	struct pr_error err = PR_ERROR_INIT;
	json_t *m = model_of(text, NULL, &err), *t;
	(void)state;
	assert_non_null(m);
	t = at(m, "runs/0/trace");
	assert_int_equal(pr_mll(t, "shown"), 3);
	slice_is(t, 0, 0, 0, 0, 10000, "cudaLaunchKernel", "runtime");
	slice_is(t, 1, 0, 0, 20000, 10000, "cudaMemsetAsync", "runtime");
	slice_is(t, 2, 1, 0, 12000, 8000, "K", "kernel");
	assert_int_equal(json_array_size(json_object_get(t, "links")), 1);
	assert_int_equal(json_integer_value(at(m, "runs/0/trace/links/0/0")), 0);
	assert_int_equal(json_integer_value(at(m, "runs/0/trace/links/0/1")), 2);
	json_decref(m);
}

static void parse_ok(const char *spec, enum pr_trace_window_kind kind, long long t0, long long t1,
		     int open_end, size_t index)
{
	struct pr_trace_window w;
	struct pr_error err = PR_ERROR_INIT;
	assert_int_equal(pr_trace_window_parse(spec, &w, &err), 0);
	assert_int_equal(w.kind, kind);
	if (kind == PR_TW_TIME) {
		assert_int_equal(w.t0, t0);
		assert_int_equal(w.t1, t1);
		assert_int_equal(w.open_end, open_end);
	}
	if (kind == PR_TW_INDEX)
		assert_int_equal(w.index, index);
	if (kind == PR_TW_NAME)
		assert_string_equal(w.name, spec);
}

static void test_parse(void **state)
{
	static const char *const bad[] = {
		"",	   "#",	     "#0",  "#x",	 "#-1",	  "#12345678901",
		"5ms:2ms", "1:1",    "a:b", "1parsec:2", "1:2:3", ":",
		"-5:",	   "1e400:", "12",  ".5",	 "#1a"
	};
	size_t i;
	(void)state;
	parse_ok("ProfilerStep#5", PR_TW_NAME, 0, 0, 0, 0);
	parse_ok("#3", PR_TW_INDEX, 0, 0, 0, 3);
	parse_ok("120ms:180ms", PR_TW_TIME, 120000000, 180000000, 0, 0);
	parse_ok("1.5s:2s", PR_TW_TIME, 1500000000, 2000000000, 0, 0);
	parse_ok("500us:", PR_TW_TIME, 500000, 0, 1, 0);
	parse_ok("10:20", PR_TW_TIME, 10000000, 20000000, 0, 0); /* bare numbers are ms */
	parse_ok(":250ns", PR_TW_TIME, 0, 250, 0, 0);
	for (i = 0; i < PR_ARRAY_SIZE(bad); i++) {
		struct pr_trace_window w;
		struct pr_error err = PR_ERROR_INIT;
		if (pr_trace_window_parse(bad[i], &w, &err) != -1)
			fail_msg("'%s' parsed", bad[i]);
		assert_int_equal(err.code, PR_E_USAGE);
		assert_null(strchr(err.text, '\n'));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windows_slices_links), cmocka_unit_test(test_bound),
		cmocka_unit_test(test_window_option),	     cmocka_unit_test(test_no_steps),
		cmocka_unit_test(test_flow_links),	     cmocka_unit_test(test_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
