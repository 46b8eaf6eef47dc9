/*
 * test_flame.c - the flame section (analyze/an_flame.c) on designed traces,
 * every number by hand below.
 *
 * Host spans (us), thread 1:
 *   A [0, 100]: B [10, 40], C [50, 90] with B [60, 70] inside C
 *   A [200, 250]: B [210, 220]
 * and a kernel on a GPU stream (not on a call stack: left out).
 * Paths merge whatever their time: A total 100 + 50 = 150, children
 * A/B 30 + 10 = 40, A/C 40 -> A self 150 - 80 = 70; A/C/B 10, C self 30.
 * Children largest first, ties by the name's first appearance: A, A/B, A/C, A/C/B.
 */
#include "tests/unit/helpers.h"
#include "tests/unit/jpath.h"

#include <math.h>

#include "analyze/actx.h"
#include "analyze/model.h"

static json_t *model_text(const char *text)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *m;
	ingest_text(st, text, "chrome");
	o.timeline_points = 0;
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	return m;
}

static void node_is(json_t *n, const char *name, int depth, double total, double self)
{
	assert_string_equal(pr_mstr(n, "name"), name);
	assert_int_equal(pr_mll(n, "depth"), depth);
	near(pr_mnum(n, "total"), total, 0);
	near(pr_mnum(n, "self"), self, 0);
}

/*
 * A tree of at most 3 nodes: spans (us) A [0, 100] with B [0, 10], C [10, 30],
 * D [30, 60] inside, then E [100, 150] with F [100, 120] inside. A, B and C
 * make the 3 nodes (id order); D goes to A's "(other paths)", E to the
 * root's, F (under E, now folded) to that one's own: spans_folded 3. Totals
 * stay where they were: root 150 = A 100 + (other) 50; A self 100 - 60 = 40;
 * A's children by total: (other) 30, C 20, B 10; (other)/(other) 20, its
 * parent's self 30.
 */
static void test_tree_bound(void **state)
{
	static const char trace[] =
		"{\"traceEvents\": [\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"B\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"C\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":20},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"D\",\"pid\":1,\"tid\":1,\"ts\":30,\"dur\":30},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"E\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":50},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"F\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":20}\n"
		"]}\n";
	size_t keep = pr_flame_max_tree;
	json_t *m, *f, *n;
	(void)state;
	pr_flame_max_tree = 3;
	m = model_text(trace);
	pr_flame_max_tree = keep;
	f = at(m, "runs/0/flame");
	n = json_object_get(f, "nodes");
	near(pr_mnum(f, "total"), 150000, 0);
	assert_int_equal(pr_mll(f, "spans_folded"), 3);
	assert_int_equal(json_array_size(n), 6);
	node_is(json_array_get(n, 0), "A", 0, 100000, 40000);
	node_is(json_array_get(n, 1), "(other paths)", 1, 30000, 30000);
	node_is(json_array_get(n, 2), "C", 1, 20000, 20000);
	node_is(json_array_get(n, 3), "B", 1, 10000, 10000);
	node_is(json_array_get(n, 4), "(other paths)", 0, 50000, 30000);
	node_is(json_array_get(n, 5), "(other paths)", 1, 20000, 20000);
	json_decref(m);
	/* the default bound: no fold, no key */
	m = model_text(trace);
	assert_null(json_object_get(at(m, "runs/0/flame"), "spans_folded"));
	assert_int_equal(json_array_size(json_object_get(at(m, "runs/0/flame"), "nodes")), 6); /* A B C D E F */
	json_decref(m);
}

static void test_paths_merge(void **state)
{
	static const char trace[] =
		"{\"traceEvents\": [\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"B\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":30},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"C\",\"pid\":1,\"tid\":1,\"ts\":50,\"dur\":40},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"B\",\"pid\":1,\"tid\":1,\"ts\":60,\"dur\":10},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":200,\"dur\":50},\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"B\",\"pid\":1,\"tid\":1,\"ts\":210,\"dur\":10},\n"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":500,"
		"\"args\":{\"device\":0,\"stream\":7}}\n"
		"]}\n";
	json_t *m = model_text(trace), *f = at(m, "runs/0/flame"), *n = json_object_get(f, "nodes");
	(void)state;
	assert_string_equal(pr_mstr(f, "unit"), "ns");
	assert_string_equal(pr_mstr(f, "source"), "spans");
	near(pr_mnum(f, "total"), 150000, 0); /* the kernel's 500 us are not a stack */
	assert_int_equal(json_array_size(n), 4);
	node_is(json_array_get(n, 0), "A", 0, 150000, 70000);
	node_is(json_array_get(n, 1), "B", 1, 40000, 40000);
	node_is(json_array_get(n, 2), "C", 1, 40000, 30000);
	node_is(json_array_get(n, 3), "B", 2, 10000, 10000);
	json_decref(m);
}

/*
 * A sampled profile (speedscope, unit none): frames, weights 3 and 1 on the
 * stacks [main, f] and [main, g]: main 4, main/f 3, main/g 1, in samples.
 */
static void test_frames_weight(void **state)
{
	static const char prof[] =
		"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
		"\"shared\":{\"frames\":[{\"name\":\"main\"},{\"name\":\"f\"},{\"name\":\"g\"}]},"
		"\"profiles\":[{\"type\":\"sampled\",\"name\":\"p\",\"unit\":\"none\",\"startValue\":0,"
		"\"endValue\":4,\"samples\":[[0,1],[0,2]],\"weights\":[3,1]}]}";
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *m, *f, *n;
	(void)state;
	ingest_text(st, prof, "speedscope");
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	f = at(m, "runs/0/flame");
	n = json_object_get(f, "nodes");
	assert_string_equal(pr_mstr(f, "source"), "frames");
	assert_string_not_equal(pr_mstr(f, "unit"), "ns"); /* synthetic time: the weight's unit */
	near(pr_mnum(f, "total"), 4, 0);
	assert_int_equal(json_array_size(n), 3);
	node_is(json_array_get(n, 0), "main", 0, 4, 0);
	node_is(json_array_get(n, 1), "f", 1, 3, 3);
	node_is(json_array_get(n, 2), "g", 1, 1, 1);
	json_decref(m);
	pr_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths_merge),
		cmocka_unit_test(test_tree_bound),
		cmocka_unit_test(test_frames_weight),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
