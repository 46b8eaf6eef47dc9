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
#include "tests/unit/traces.h"

#include <math.h>
#include <sys/stat.h>

#include "analyze/actx.h"
#include "analyze/flame_impl.h"
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
	assert_int_equal(json_array_size(json_object_get(at(m, "runs/0/flame"), "nodes")),
			 6); /* A B C D E F */
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

/*
 * Steps and device time. Spans (us), thread 1, and activities on stream 7:
 *   ProfilerStep#1 [0, 100]:   A [10, 40] with cudaLaunchKernel [20, 25] (corr 1); B [50, 60]
 *   ProfilerStep#2 [200, 350]: A [210, 260] with cudaLaunchKernel [220, 222] (corr 2) and
 *                              cudaLaunchKernel [230, 232] (corr 3)
 *   ProfilerStep#3 [400, 450]: B [410, 440]
 *   k1 (corr 1) 30, k2 (corr 2) 10, k1 (corr 3) 5, a memcpy of corr 99 (no call) 7, and k3
 *   without a correlation 3.
 * Merged: ProfilerStep#* 100 + 150 + 50 = 300; its A 30 + 50 = 80 (cudaLaunchKernel
 * 5 + 2 + 2 = 9, A self 71), B 10 + 30 = 40, self 300 - 120 = 180.
 * by_step (3 steps, all kept), roots in start order: #1 100 (A 30 (call 5), B 10),
 * #2 150 (A 50 (call 4)), #3 50 (B 30).
 * gpu: under A (the calls' parent): k1 30 + 5 = 35, k2 10: ProfilerStep#* 45 / A 45;
 * "(no launching call)" 7 + 3 = 10; total 55; 5 activities. by_step's gpu: #1 30 / A / k1 30,
 * #2 15 / A 15 / k2 10, k1 5; total 45, 3 activities.
 */
static const char steps_trace[] =
	"{\"traceEvents\": [\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":30},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":5,"
	"\"args\":{\"correlation\":1}},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"B\",\"pid\":1,\"tid\":1,\"ts\":50,\"dur\":10},\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":200,\"dur\":150},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":210,\"dur\":50},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":220,\"dur\":2,"
	"\"args\":{\"correlation\":2}},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":230,\"dur\":2,"
	"\"args\":{\"correlation\":3}},\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#3\",\"pid\":1,\"tid\":1,\"ts\":400,\"dur\":50},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"B\",\"pid\":1,\"tid\":1,\"ts\":410,\"dur\":30},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k1\",\"pid\":0,\"tid\":7,\"ts\":30,\"dur\":30,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":1}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k2\",\"pid\":0,\"tid\":7,\"ts\":225,\"dur\":10,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":2}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k1\",\"pid\":0,\"tid\":7,\"ts\":240,\"dur\":5,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":3}},\n"
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD\",\"pid\":0,\"tid\":7,\"ts\":300,\"dur\":7,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":99}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k3\",\"pid\":0,\"tid\":7,\"ts\":500,\"dur\":3,"
	"\"args\":{\"device\":0,\"stream\":7}}\n"
	"]}\n";

static void dev_is(json_t *n, const char *name, int depth, double total, int dev)
{
	assert_string_equal(pr_mstr(n, "name"), name);
	assert_int_equal(pr_mll(n, "depth"), depth);
	near(pr_mnum(n, "total"), total, 0);
	assert_int_equal(json_is_true(json_object_get(n, "device")), dev);
}

static void test_steps_gpu(void **state)
{
	json_t *m = model_text(steps_trace), *f = at(m, "runs/0/flame"), *n, *b, *g;
	(void)state;
	n = json_object_get(f, "nodes");
	near(pr_mnum(f, "total"), 300000, 0);
	assert_int_equal(pr_mll(f, "steps_merged"), 3);
	assert_int_equal(json_array_size(n), 4);
	node_is(json_array_get(n, 0), "ProfilerStep#*", 0, 300000, 180000);
	node_is(json_array_get(n, 1), "A", 1, 80000, 71000);
	node_is(json_array_get(n, 2), "cudaLaunchKernel", 2, 9000, 9000);
	node_is(json_array_get(n, 3), "B", 1, 40000, 40000);
	b = json_object_get(f, "by_step");
	assert_int_equal(pr_mll(b, "steps"), 3);
	assert_int_equal(pr_mll(b, "of_steps"), 3);
	near(pr_mnum(b, "total"), 300000, 0);
	n = json_object_get(b, "nodes");
	assert_int_equal(json_array_size(n), 9);
	node_is(json_array_get(n, 0), "ProfilerStep#1", 0, 100000, 60000);
	node_is(json_array_get(n, 1), "A", 1, 30000, 25000);
	node_is(json_array_get(n, 2), "cudaLaunchKernel", 2, 5000, 5000);
	node_is(json_array_get(n, 3), "B", 1, 10000, 10000);
	node_is(json_array_get(n, 4), "ProfilerStep#2", 0, 150000, 100000);
	node_is(json_array_get(n, 5), "A", 1, 50000, 46000);
	node_is(json_array_get(n, 6), "cudaLaunchKernel", 2, 4000, 4000);
	node_is(json_array_get(n, 7), "ProfilerStep#3", 0, 50000, 20000);
	node_is(json_array_get(n, 8), "B", 1, 30000, 30000);
	g = json_object_get(f, "gpu");
	assert_string_equal(pr_mstr(g, "unit"), "ns");
	near(pr_mnum(g, "total"), 55000, 0);
	assert_int_equal(pr_mll(g, "activities"), 5);
	n = json_object_get(g, "nodes");
	assert_int_equal(json_array_size(n), 7);
	dev_is(json_array_get(n, 0), "ProfilerStep#*", 0, 45000, 0);
	dev_is(json_array_get(n, 1), "A", 1, 45000, 0);
	dev_is(json_array_get(n, 2), "k1", 2, 35000, 1);
	dev_is(json_array_get(n, 3), "k2", 2, 10000, 1);
	dev_is(json_array_get(n, 4), "(no launching call)", 0, 10000, 0);
	dev_is(json_array_get(n, 5), "Memcpy HtoD", 1, 7000, 1);
	dev_is(json_array_get(n, 6), "k3", 1, 3000, 1);
	near(pr_mnum(json_array_get(n, 1), "self"), 0, 0);
	g = json_object_get(b, "gpu");
	near(pr_mnum(g, "total"), 45000, 0);
	assert_int_equal(pr_mll(g, "activities"), 3);
	n = json_object_get(g, "nodes");
	assert_int_equal(json_array_size(n), 7);
	dev_is(json_array_get(n, 0), "ProfilerStep#1", 0, 30000, 0);
	dev_is(json_array_get(n, 1), "A", 1, 30000, 0);
	dev_is(json_array_get(n, 2), "k1", 2, 30000, 1);
	dev_is(json_array_get(n, 3), "ProfilerStep#2", 0, 15000, 0);
	dev_is(json_array_get(n, 4), "A", 1, 15000, 0);
	dev_is(json_array_get(n, 5), "k2", 2, 10000, 1);
	dev_is(json_array_get(n, 6), "k1", 2, 5000, 1);
	json_decref(m);
}

/*
 * The bounds. The trace above with trees of 3 nodes: gpu makes ProfilerStep#*, A, k1; k2
 * goes to A's "(other paths)" (10), the memcpy and k3 to the root's (NOCALL folded) and
 * below it (10): 3 activities folded, every total kept (55).
 * Ten steps of 50, 10, 90, 30, 70, 20, 100, 40, 80, 60 us: by_step keeps the 8 slowest
 * (all but #1 and #5) in start order, total 550 - 30 = 520 us.
 */
static void test_bounds_steps_gpu(void **state)
{
	static const int durs[10] = { 50, 10, 90, 30, 70, 20, 100, 40, 80, 60 };
	static const int kept[8] = { 0, 2, 3, 4, 6, 7, 8, 9 };
	size_t keep = pr_flame_max_tree, i;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m, *g, *n;
	(void)state;
	pr_flame_max_tree = 3;
	m = model_text(steps_trace);
	pr_flame_max_tree = keep;
	g = at(m, "runs/0/flame/gpu");
	near(pr_mnum(g, "total"), 55000, 0);
	assert_int_equal(pr_mll(g, "spans_folded"), 3);
	n = json_object_get(g, "nodes");
	assert_int_equal(json_array_size(n), 6);
	dev_is(json_array_get(n, 0), "ProfilerStep#*", 0, 45000, 0);
	dev_is(json_array_get(n, 1), "A", 1, 45000, 0);
	dev_is(json_array_get(n, 2), "k1", 2, 35000, 1);
	dev_is(json_array_get(n, 3), "(other paths)", 2, 10000, 0);
	dev_is(json_array_get(n, 4), "(other paths)", 0, 10000, 0);
	dev_is(json_array_get(n, 5), "(other paths)", 1, 10000, 0);
	json_decref(m);
	pr_strbuf_addstr(&sb, "{\"traceEvents\": [\n");
	for (i = 0; i < 10; i++)
		pr_strbuf_addf(
			&sb,
			"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%zu\",\"pid\":1,"
			"\"tid\":1,\"ts\":%zu,\"dur\":%d},\n"
			"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":%zu,\"dur\":5}%s\n",
			i, i * 1000, durs[i], i * 1000 + 1, i < 9 ? "," : "");
	pr_strbuf_addstr(&sb, "]}\n");
	m = model_text(sb.buf);
	pr_strbuf_release(&sb);
	n = json_object_get(at(m, "runs/0/flame"), "nodes");
	node_is(json_array_get(n, 0), "ProfilerStep#*", 0, 550000, 500000);
	g = at(m, "runs/0/flame/by_step");
	assert_int_equal(pr_mll(g, "steps"), 8);
	assert_int_equal(pr_mll(g, "of_steps"), 10);
	near(pr_mnum(g, "total"), 520000, 0);
	n = json_object_get(g, "nodes");
	assert_int_equal(json_array_size(n), 16);
	for (i = 0; i < 8; i++) {
		char name[32];
		snprintf(name, sizeof(name), "ProfilerStep#%d", kept[i]);
		node_is(json_array_get(n, 2 * i), name, 0, durs[kept[i]] * 1000.0,
			(durs[kept[i]] - 5) * 1000.0);
	}
	assert_null(json_object_get(at(m, "runs/0/flame"), "gpu"));
	json_decref(m);
}

/*
 * HTA's nccl_data (3 ProfilerSteps, DDP). Numbers from tests/tools/flame_ref.py, a Python
 * reading of the trace (not of the store): steps #4 222442191, #5 219726905, #6 224936243
 * ns, merged 667105339; 3774 device activities, 165185838 ns; the NCCL all-reduce kernel
 * under AccumulateGrad / c10d::allreduce_ / record_param_comms / nccl:all_reduce (the op
 * whose runtime calls launched it) 46762159 ns, the device time under ProfilerStep#*
 * 40903612. Skipped only in a tree without tests/data/traces.
 */
static void test_nccl(void **state)
{
	static const char *const path[] = {
		"autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
		"c10d::allreduce_", "record_param_comms", "nccl:all_reduce",
		"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
	};
	char file[1200];
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st;
	json_t *m, *f, *n, *v;
	size_t i, roots = 0, k = 0, steps = 0;
	(void)state;
	if (!pr_test_trace(file, sizeof(file), "hta/nccl_parser_config/nccl_data.json.gz"))
		skip();
	st = open_store();
	ingest_ok(st, file, "chrome");
	o.timeline_points = 0;
	if (!(m = pr_model_build(st, &o, &err)))
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	f = at(m, "runs/0/flame");
	n = json_object_get(f, "nodes");
	json_array_foreach (n, i, v)
		if (!pr_mll(v, "depth")) {
			roots++;
			steps += !strncmp(pr_mstr(v, "name"), "ProfilerStep", 12);
		}
	assert_int_equal(steps, 1);
	assert_true(roots >= 1);
	node_is(json_array_get(n, 0), "ProfilerStep#*", 0, 667105339,
		pr_mnum(json_array_get(n, 0), "self"));
	assert_int_equal(pr_mll(f, "steps_merged"), 3);
	n = at(m, "runs/0/flame/by_step/nodes");
	k = 0;
	json_array_foreach (n, i, v)
		if (!pr_mll(v, "depth")) {
			static const char *const names[] = { "ProfilerStep#4", "ProfilerStep#5",
							     "ProfilerStep#6" };
			static const double durs[] = { 222442191, 219726905, 224936243 };
			assert_true(k < 3);
			assert_string_equal(pr_mstr(v, "name"), names[k]);
			near(pr_mnum(v, "total"), durs[k], 0);
			k++;
		}
	assert_int_equal(k, 3);
	f = at(m, "runs/0/flame/gpu");
	assert_int_equal(pr_mll(f, "activities"), 3774);
	near(pr_mnum(f, "total"), 165185838, 0);
	n = json_object_get(f, "nodes");
	k = 0;
	json_array_foreach (n, i, v) {
		if ((size_t)pr_mll(v, "depth") == k && k < 5 &&
		    !strcmp(pr_mstr(v, "name"), path[k]))
			k++;
		if (k == 5) {
			near(pr_mnum(v, "total"), 46762159, 0);
			assert_true(json_is_true(json_object_get(v, "device")));
			break;
		}
		if (!pr_mll(v, "depth") && !strcmp(pr_mstr(v, "name"), "ProfilerStep#*"))
			near(pr_mnum(v, "total"), 40903612, 0);
	}
	assert_int_equal(k, 5);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths_merge),	 cmocka_unit_test(test_tree_bound),
		cmocka_unit_test(test_frames_weight),	 cmocka_unit_test(test_steps_gpu),
		cmocka_unit_test(test_bounds_steps_gpu), cmocka_unit_test(test_nccl),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
