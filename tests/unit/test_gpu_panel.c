/* test_gpu_panel.c - render/gpu_panel: which GPU panels a run gets, their data, short kernel names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "render/gpu_panel.h"
#include "render/panels.h"

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);
	if (!j)
		fail_msg("bad JSON in the test: %s", e.text);
	return j;
}

static const struct pr_chart *find(const struct pr_panelset *ps, const char *name)
{
	size_t i;
	for (i = 0; i < pr_panelset_count(ps); i++)
		if (!strcmp(pr_panelset_name(ps, i), name))
			return pr_panelset_chart(ps, i);
	return NULL;
}

static void test_short_name(void **state)
{
	char buf[200];
	(void)state;
	/* "void ", the argument list and PyTorch's namespaces go; templates stay */
	assert_string_equal(pr_gpu_short_name("void at::native::f<float>(int, float*)", 48, buf,
					      sizeof(buf)),
			    "f<float>");
	/* nested parentheses in the argument list */
	assert_string_equal(pr_gpu_short_name("k(a (*)(int), b)", 48, buf, sizeof(buf)), "k");
	/* a name that is only parentheses keeps them (nothing before the list) */
	assert_string_equal(pr_gpu_short_name("(x)", 48, buf, sizeof(buf)), "(x)");
	/* not a C++ signature (a space before the list): the name stays whole (names.h) */
	assert_string_equal(pr_gpu_short_name("Memcpy DtoD (Device -> Device)", 48, buf,
					      sizeof(buf)),
			    "Memcpy DtoD (Device -> Device)");
	/* too long: head (3/5 of 19 = 11 bytes) ... tail (8 bytes), 20 characters in all */
	assert_string_equal(
		pr_gpu_short_name("cutlass::Kernel<cutlass_80_tensorop_s1688gemm_tn_align1>", 20,
				  buf, sizeof(buf)),
		"cutlass::Ke\xE2\x80\xA6_align1>");
	/* never cut inside a UTF-8 sequence: the head backs off to the lead byte */
	assert_string_equal(pr_gpu_short_name("abcdefghij\xC3\xA9klmnopqrstuvwxyz", 20, buf,
					      sizeof(buf)),
			    "abcdefghij\xE2\x80\xA6stuvwxyz");
	assert_string_equal(pr_gpu_short_name("", 20, buf, sizeof(buf)), "");
}

static void test_cpu_only_run_has_none(void **state)
{
	json_t *run = parse("{\"id\": 1, \"series\": [], \"bottlenecks\": {}}");
	struct pr_panelset *ps = pr_panelset_new();
	(void)state;
	assert_int_equal(pr_gpu_panels_add(ps, run), 0);
	pr_panelset_free(ps);
	ps = pr_panels_build(run);
	assert_int_equal(pr_panelset_count(ps), 0);
	pr_panelset_free(ps);
	json_decref(run);
}

/*
 * A small hand-made run. Temporal: rank shares 0.5 / 0.2 / 0.1 / 0.2 with the
 * idle split 0.5 / 0 / 0.5 -> segments 50, 20, 10, 10, 0, 10 (%); the stream
 * has no split, so the panel shows idle whole for every bar (one legend).
 * Overlap 0.25 -> 25 | 75. Queue: timeline 0 -> 3 -> 1 at 0, 1, 2 s, drawn
 * as steps (0,0) (1,0) (1,3) (2,3) (2,1). Steps: one step of 10 ns, kernel
 * 4, cpu_exec 6.
 */
static void test_panels_from_model(void **state)
{
	json_t *run = parse(
		"{\"id\": 1,"
		" \"gpu_breakdown\": {\"rank\": {\"span_ns\": 1000, \"busy_share\": 0.8, \"compute_share\": 0.5,"
		"   \"communication_share\": 0.2, \"memory_share\": 0.1, \"idle_share\": 0.2},"
		"  \"idle\": {\"host_wait_share\": 0.5, \"kernel_wait_share\": 0, \"other_share\": 0.5},"
		"  \"streams\": [{\"device\": \"0\", \"stream\": \"7\", \"compute_share\": 0.9,"
		"   \"communication_share\": 0, \"memory_share\": 0, \"idle_share\": 0.1}],"
		"  \"overlap\": {\"communication_ns\": 400, \"overlapped_ns\": 100, \"share\": 0.25},"
		"  \"kernels\": {\"by_type\": [{\"type\": \"compute\", \"count\": 2, \"time_ns\": 600, \"share\": 0.6},"
		"   {\"type\": \"communication\", \"count\": 1, \"time_ns\": 400, \"share\": 0.4}],"
		"   \"top\": [{\"name\": \"void k<int>(int)\", \"type\": \"compute\", \"count\": 2, \"total_ns\": 600,"
		"     \"share\": 0.6}]}},"
		" \"gpu\": {\"streams\": {\"items\": [{\"device\": \"0\", \"stream\": \"7\", \"queue\": {\"mean\": 1.5,"
		"   \"max\": 3, \"max_t_ns\": 1000000000, \"timeline\": {\"t_ns\": [0, 1000000000, 2000000000],"
		"   \"v\": [0, 3, 1]}}}]}},"
		" \"step_breakdown\": {\"steps\": [{\"name\": \"ProfilerStep#1\", \"dur_ns\": 10, \"kernel_ns\": 4,"
		"   \"cpu_exec_ns\": 6}], \"gpu_utilization\": 0.4}}");
	struct pr_panelset *ps = pr_panelset_new();
	const struct pr_chart *c;
	static const double qx[] = { 0, 1, 1, 2, 2 }, qy[] = { 0, 0, 3, 3, 1 };
	size_t i;
	(void)state;
	assert_int_equal(pr_gpu_panels_add(ps, run), 6);

	c = find(ps, "gpu_temporal");
	assert_non_null(c);
	assert_true(c->bars && c->bars->stacked && c->bars->horizontal);
	assert_int_equal(c->bars->ncategories, 2);
	assert_int_equal(c->bars->ngroups, 4); /* the stream has no idle split */
	assert_true(fabs(c->bars->groups[0].values[0] - 50) < 1e-9);
	assert_true(fabs(c->bars->groups[3].values[0] - 20) < 1e-9);
	assert_true(fabs(c->bars->groups[0].values[1] - 90) < 1e-9);
	assert_string_equal(c->bars->groups[1].value_text[0], "20.0%");
	assert_int_equal(c->bars->groups[0].rgb, pr_gpu_color("compute"));

	c = find(ps, "gpu_overlap");
	assert_non_null(c);
	assert_true(fabs(c->bars->groups[0].values[0] - 25) < 1e-9);
	assert_true(fabs(c->bars->groups[1].values[0] - 75) < 1e-9);

	c = find(ps, "gpu_top_kernels");
	assert_non_null(c);
	assert_string_equal(c->bars->categories[0], "k<int>");
	assert_int_equal(c->bars->groups[0].colors[0], pr_gpu_color("compute"));

	c = find(ps, "gpu_queue");
	assert_non_null(c);
	assert_int_equal(c->nlines, 1);
	assert_int_equal(c->lines[0].n, 5);
	for (i = 0; i < 5; i++) {
		assert_true(c->lines[0].x[i] == qx[i]);
		assert_true(c->lines[0].y[i] == qy[i]);
	}
	assert_true(c->y_fixed && c->y_min == 0);
	assert_string_equal(c->lines[0].label, "GPU 0 stream 7: mean 1.5, max 3");

	c = find(ps, "gpu_steps");
	assert_non_null(c);
	assert_int_equal(c->bars->ngroups, 8);
	assert_true(c->bars->groups[0].values[0] == 4 && c->bars->groups[6].values[0] == 6);
	assert_string_equal(c->bars->groups[6].value_text[0], "60.0%");
	assert_int_equal(c->bars->groups[0].rgb, pr_gpu_color("compute")); /* Kernel = compute */
	pr_panelset_free(ps);

	/* the general builder leaves them out; the full one appends them */
	ps = pr_panels_build_general(run);
	assert_null(find(ps, "gpu_temporal"));
	pr_panelset_free(ps);
	ps = pr_panels_build(run);
	assert_non_null(find(ps, "gpu_temporal"));
	pr_panelset_free(ps);
	json_decref(run);
}

/*
 * Two names alike once cut (same 22-byte head, same 23-byte tail at 48
 * bytes): the labels show where they differ (AddFunctor / MulFunctor), no
 * " #2" row number.
 */
static void test_top_names_alike(void **state)
{
	json_t *run = parse(
		"{\"gpu_breakdown\": {\"kernels\": {\"top\": ["
		"{\"name\": \"void at::native::vectorized_elementwise_kernel<4, AddFunctor<float>, Array<char*, 3> >(int)\","
		" \"type\": \"compute\", \"count\": 1, \"total_ns\": 20, \"share\": 0.5},"
		"{\"name\": \"void at::native::vectorized_elementwise_kernel<4, MulFunctor<float>, Array<char*, 3> >(int)\","
		" \"type\": \"compute\", \"count\": 1, \"total_ns\": 10, \"share\": 0.25}]}}}");
	struct pr_panelset *ps = pr_panelset_new();
	const struct pr_chart *c;
	char a[200];
	(void)state;
	assert_int_equal(pr_gpu_panels_add(ps, run), 1);
	c = find(ps, "gpu_top_kernels");
	assert_non_null(c);
	(void)a;
	assert_non_null(strstr(c->bars->categories[0], "AddFunctor"));
	assert_non_null(strstr(c->bars->categories[1], "MulFunctor"));
	assert_null(strstr(c->bars->categories[1], " #"));
	assert_true(strlen(c->bars->categories[0]) <= PR_GPU_PANEL_NAME_MAX);
	assert_true(strlen(c->bars->categories[1]) <= PR_GPU_PANEL_NAME_MAX);
	pr_panelset_free(ps);
	json_decref(run);
}

/* 20 streams: the rank and the first 16 streams get a bar; the axis title says how many there are. */
static void test_streams_capped(void **state)
{
	json_t *run = parse("{\"gpu_breakdown\": {\"rank\": {\"span_ns\": 10, \"busy_share\": 1,"
			    " \"compute_share\": 1, \"idle_share\": 0}, \"streams\": []}}");
	json_t *streams = json_object_get(json_object_get(run, "gpu_breakdown"), "streams");
	struct pr_panelset *ps = pr_panelset_new();
	const struct pr_chart *c;
	int i;
	(void)state;
	for (i = 0; i < 20; i++)
		json_array_append_new(streams, json_pack("{s:s, s:i, s:f}", "device", "0", "stream",
							 i, "compute_share", 1.0));
	assert_int_equal(pr_gpu_panels_add(ps, run), 1);
	c = find(ps, "gpu_temporal");
	assert_non_null(c);
	assert_int_equal(c->bars->ncategories, 1 + PR_GPU_PANEL_MAX_STREAMS);
	assert_non_null(strstr(c->x_label, "20 streams: the first 16 are shown"));
	pr_panelset_free(ps);
	json_decref(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_name),
		cmocka_unit_test(test_cpu_only_run_has_none),
		cmocka_unit_test(test_panels_from_model),
		cmocka_unit_test(test_top_names_alike),
		cmocka_unit_test(test_streams_capped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
