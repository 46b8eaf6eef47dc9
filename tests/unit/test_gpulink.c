/*
 * test_gpulink.c - the "gpu" section (analyze/an_gpulink.c) on a trace
 * designed by hand, every expected number derived in the comments from the
 * events below; and the PyTorch 1.8-1.10 vintage sample against its
 * lowercase twin (samples/torch-legacy-vintage): the same model.
 */
#include "tests/unit/helpers.h"
#include "tests/unit/traces.h"
#include "tests/unit/jpath.h"

#include <math.h>
#include <sys/stat.h>

#include "analyze/gpuscan.h"
#include "analyze/model.h"
#include "base/xsort.h"

static json_t *model_text(const char *text, size_t timeline_points)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *m;
	ingest_text(st, text, "chrome");
	o.timeline_points = timeline_points;
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	return m;
}

/*
 * Times in us; the run starts at 100 (ProfilerStep#1): the profiler's window
 * at 0 is not the start. Host thread 1/1, streams 0/7 and 0/8.
 *   step 1 [100, 400): fwd [110, 210): aten::linear [120, 200)
 *       aten::addmm [130, 170): launch corr 1 [140, 150) -> gemm on 7 [160, 210)
 *       launch corr 2 [180, 185) (in linear)           -> bias on 7 [215, 225)
 *     aten::copy_ [250, 280): cudaMemcpyAsync corr 3 [255, 275) -> memcpy on 8 [260, 300)
 *   step 2 [400, 700):
 *     aten::add [410, 440): corr 4 [415, 421) -> add on 7 [430, 450)
 *     aten::mul [445, 465): a call without "correlation" [450, 454), ac2g flow id 5
 *         -> mul on 7 [470, 480), no "correlation" either: linked by the flow
 *     aten::relu [595, 615): corr 6 [600, 605) -> relu on 8 [590, 595): it ends
 *         before its call starts (clock skew): latency -10, queued until 600
 *   orphan on 8 [500, 505), corr 99: no call has it
 *   GPU annotation fwd on 7 [155, 235): holds gemm and bias
 *   a [memory] event at 800, when only the profiler's window is open
 */
static const char trace[] =
	"{\"traceEvents\": [\n"
	"{\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"PyTorch Profiler (0)\", \"pid\": \"Spans\","
	" \"tid\": \"PyTorch Profiler\", \"ts\": 0, \"dur\": 1000},\n"
	"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 300},\n"
	"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"fwd\", \"pid\": 1, \"tid\": 1, \"ts\": 110, \"dur\": 100},\n"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", \"pid\": 1, \"tid\": 1, \"ts\": 120, \"dur\": 80},\n"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", \"pid\": 1, \"tid\": 1, \"ts\": 130, \"dur\": 40},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 140, \"dur\": 10,"
	" \"args\": {\"External id\": 4, \"correlation\": 1}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 180, \"dur\": 5,"
	" \"args\": {\"correlation\": 2}},\n"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::copy_\", \"pid\": 1, \"tid\": 1, \"ts\": 250, \"dur\": 30},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaMemcpyAsync\", \"pid\": 1, \"tid\": 1, \"ts\": 255, \"dur\": 20,"
	" \"args\": {\"correlation\": 3}},\n"
	"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#2\", \"pid\": 1, \"tid\": 1, \"ts\": 400, \"dur\": 300},\n"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, \"tid\": 1, \"ts\": 410, \"dur\": 30},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 415, \"dur\": 6,"
	" \"args\": {\"correlation\": 4}},\n"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mul\", \"pid\": 1, \"tid\": 1, \"ts\": 445, \"dur\": 20},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 450, \"dur\": 4},\n"
	"{\"ph\": \"s\", \"id\": 5, \"pid\": 1, \"tid\": 1, \"ts\": 450, \"cat\": \"ac2g\", \"name\": \"ac2g\"},\n"
	"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::relu\", \"pid\": 1, \"tid\": 1, \"ts\": 595, \"dur\": 20},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 600, \"dur\": 5,"
	" \"args\": {\"correlation\": 6}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 160, \"dur\": 50,"
	" \"args\": {\"stream\": 7, \"correlation\": 1}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"bias\", \"pid\": 0, \"tid\": 7, \"ts\": 215, \"dur\": 10,"
	" \"args\": {\"stream\": 7, \"correlation\": 2}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"add\", \"pid\": 0, \"tid\": 7, \"ts\": 430, \"dur\": 20,"
	" \"args\": {\"stream\": 7, \"correlation\": 4}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"mul\", \"pid\": 0, \"tid\": 7, \"ts\": 470, \"dur\": 10,"
	" \"args\": {\"stream\": 7}},\n"
	"{\"ph\": \"f\", \"id\": 5, \"pid\": 0, \"tid\": 7, \"ts\": 470, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"},\n"
	"{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pageable -> Device)\", \"pid\": 0, \"tid\": 8,"
	" \"ts\": 260, \"dur\": 40, \"args\": {\"stream\": 8, \"correlation\": 3}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"orphan\", \"pid\": 0, \"tid\": 8, \"ts\": 500, \"dur\": 5,"
	" \"args\": {\"correlation\": 99}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"relu\", \"pid\": 0, \"tid\": 8, \"ts\": 590, \"dur\": 5,"
	" \"args\": {\"correlation\": 6}},\n"
	"{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"fwd\", \"pid\": 0, \"tid\": 7, \"ts\": 155, \"dur\": 80},\n"
	"{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 800,"
	" \"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Bytes\": 512, \"Total Allocated\": 512}}\n"
	"]}\n";

static void test_launches(void **state)
{
	json_t *m = model_text(trace, 0), *r = at(m, "runs/0"), *g = at(r, "gpu");
	(void)state;
	assert_non_null(g);
	assert_string_equal(s(g, "device_type"), "cuda");
	/* 7 activities; 6 linked (mul by the ac2g flow), the orphan not */
	assert_int_equal(d(g, "launches/activities"), 7);
	assert_int_equal(d(g, "launches/linked"), 6);
	assert_int_equal(d(g, "launches/linked_by_flow"), 1);
	assert_int_equal(d(g, "launches/unlinked"), 1);
	/* latencies (activity start - call start): 20, 35, 5, 15, 20, -10 us;
	 * sorted -10 5 15 20 20 35: mean 85/6, p50 (15+20)/2, p95 at 0.95*5 = 4.75: 20 + .75*15 */
	assert_int_equal(d(g, "launches/latency/min_ns"), -10000);
	assert_int_equal(d(g, "launches/latency/max_ns"), 35000);
	assert_true(fabs(d(g, "launches/latency/mean_ns") - 85000.0 / 6) < 1e-6);
	assert_int_equal(d(g, "launches/latency/p50_ns"), 17500);
	assert_int_equal(d(g, "launches/latency/p95_ns"), 31250);
	assert_int_equal(d(g, "launches/negative_latency"), 1);
	/* overheads of the 6 launching calls: 10 5 20 6 4 5 us; sorted 4 5 5 6 10 20:
	 * total 50, p50 5.5, p95 10 + .75*10 */
	assert_int_equal(d(g, "launches/calls"), 6);
	assert_int_equal(d(g, "launches/overhead/total_ns"), 50000);
	assert_int_equal(d(g, "launches/overhead/min_ns"), 4000);
	assert_int_equal(d(g, "launches/overhead/p50_ns"), 5500);
	assert_int_equal(d(g, "launches/overhead/p95_ns"), 17500);
	/* per API, most overhead first: cudaLaunchKernel 5 calls 10+5+6+4+5 = 30 us,
	 * latency mean (20+35+15+20-10)/5 = 16 us; cudaMemcpyAsync 20 us, latency 5 */
	assert_string_equal(s(g, "launches/by_api/0/name"), "cudaLaunchKernel");
	assert_int_equal(d(g, "launches/by_api/0/calls"), 5);
	assert_int_equal(d(g, "launches/by_api/0/overhead_total_ns"), 30000);
	assert_int_equal(d(g, "launches/by_api/0/latency_mean_ns"), 16000);
	assert_string_equal(s(g, "launches/by_api/1/name"), "cudaMemcpyAsync");
	assert_int_equal(d(g, "launches/by_api/1/latency_mean_ns"), 5000);
	/* per type: 6 kernels (100 us, 5 linked, latency max 35 us), 1 Memcpy HtoD */
	assert_string_equal(s(g, "launches/by_type/0/type"), "kernel");
	assert_int_equal(d(g, "launches/by_type/0/activities"), 6);
	assert_int_equal(d(g, "launches/by_type/0/linked"), 5);
	assert_int_equal(d(g, "launches/by_type/0/device_ns"), 100000);
	assert_int_equal(d(g, "launches/by_type/0/latency_max_ns"), 35000);
	assert_string_equal(s(g, "launches/by_type/1/type"), "Memcpy HtoD");
	json_decref(m);
}

static void test_ops(void **state)
{
	json_t *m = model_text(trace, 0), *g = at(m, "runs/0/gpu");
	(void)state;
	/* device total: linear 50 + 10 = 60 (gemm through addmm, bias itself), addmm 50,
	 * copy_ 40, add 20, mul 10, relu 5; self: linear only bias, 10 */
	assert_string_equal(s(g, "ops/items/0/name"), "aten::linear");
	assert_int_equal(d(g, "ops/items/0/device_total_ns"), 60000);
	assert_int_equal(d(g, "ops/items/0/device_self_ns"), 10000);
	assert_int_equal(d(g, "ops/items/0/activities"), 1);
	assert_int_equal(d(g, "ops/items/0/activities_total"), 2);
	/* host self of linear: 80 - addmm 40 - its call 5 */
	assert_int_equal(d(g, "ops/items/0/calls"), 1);
	assert_int_equal(d(g, "ops/items/0/host_total_ns"), 80000);
	assert_int_equal(d(g, "ops/items/0/host_self_ns"), 35000);
	assert_string_equal(s(g, "ops/items/1/name"), "aten::addmm");
	assert_int_equal(d(g, "ops/items/1/device_self_ns"), 50000);
	assert_string_equal(s(g, "ops/items/2/name"), "aten::copy_");
	assert_string_equal(s(g, "ops/items/3/name"), "aten::add");
	assert_string_equal(s(g, "ops/items/4/name"), "aten::mul");
	assert_string_equal(s(g, "ops/items/5/name"), "aten::relu");
	assert_int_equal(d(g, "ops/items/5/device_total_ns"), 5000);
	assert_null(at(g, "ops/items/6"));
	assert_int_equal(d(g, "ops/no_op/activities"), 0);
	json_decref(m);
}

static void test_streams(void **state)
{
	json_t *m = model_text(trace, 100), *g = at(m, "runs/0/gpu");
	json_t *t, *v;
	static const double t7[] = { 40, 80, 110, 125, 315, 350, 380 },
			    v7[] = { 1, 2, 1, 0, 1, 1, 0 };
	size_t i;
	(void)state;
	/* stream 7: launches at 140 180 415 450, ends at 210 225 450 480 (at 450 the mul
	 * launch and the add end): 1 2 1 0 1 1 0; area 40*1 + 30*2 + 15*1 + 35*1 + 30*1 = 180
	 * over [140, 480]; max 2 at 180 (t = 80 us after the run's start at 100) */
	assert_string_equal(s(g, "streams/items/0/stream"), "7");
	assert_int_equal(d(g, "streams/items/0/activities"), 4);
	assert_int_equal(d(g, "streams/items/0/busy_ns"), 90000);
	assert_int_equal(d(g, "streams/items/0/queue/max"), 2);
	assert_int_equal(d(g, "streams/items/0/queue/max_t_ns"), 80000);
	assert_true(fabs(d(g, "streams/items/0/queue/mean") - 180.0 / 340) < 1e-9);
	t = at(g, "streams/items/0/queue/timeline/t_ns");
	v = at(g, "streams/items/0/queue/timeline/v");
	assert_int_equal(json_array_size(t), 7);
	for (i = 0; i < 7; i++) {
		assert_int_equal(json_integer_value(json_array_get(t, i)),
				 (json_int_t)(t7[i] * 1000));
		assert_int_equal(json_integer_value(json_array_get(v, i)), (json_int_t)v7[i]);
	}
	/* stream 8: memcpy queued [255, 300); relu's end (595) is before its call (600):
	 * counted at 600, so never -1; the orphan is not linked: 1 0 0, mean 45/345 */
	assert_string_equal(s(g, "streams/items/1/stream"), "8");
	assert_int_equal(d(g, "streams/items/1/activities"), 3);
	assert_int_equal(d(g, "streams/items/1/linked"), 2);
	assert_int_equal(d(g, "streams/items/1/memcpys"), 1);
	assert_int_equal(d(g, "streams/items/1/queue/max"), 1);
	assert_true(fabs(d(g, "streams/items/1/queue/mean") - 45.0 / 345) < 1e-9);
	v = at(g, "streams/items/1/queue/timeline/v");
	assert_int_equal(json_array_size(v), 3);
	for (i = 0; i < 3; i++)
		assert_true(json_integer_value(json_array_get(v, i)) >= 0);
	json_decref(m);
}

static void test_annotations(void **state)
{
	json_t *m = model_text(trace, 0), *g = at(m, "runs/0/gpu");
	(void)state;
	/* GPU annotation fwd [155, 235) on stream 7 holds gemm and bias: 60 us */
	assert_string_equal(s(g, "annotations/gpu/0/name"), "fwd");
	assert_int_equal(d(g, "annotations/gpu/0/activities"), 2);
	assert_int_equal(d(g, "annotations/gpu/0/device_ns"), 60000);
	assert_int_equal(d(g, "annotations/gpu_unattributed"), 5);
	/* CPU: fwd around corr 1 and 2 (60 us), ProfilerStep#1 around the memcpy (40),
	 * ProfilerStep#2 around add, mul, relu (35); the orphan has no call */
	assert_string_equal(s(g, "annotations/cpu/0/name"), "fwd");
	assert_int_equal(d(g, "annotations/cpu/0/device_ns"), 60000);
	assert_string_equal(s(g, "annotations/cpu/1/name"), "ProfilerStep#1");
	assert_int_equal(d(g, "annotations/cpu/1/activities"), 1);
	assert_string_equal(s(g, "annotations/cpu/2/name"), "ProfilerStep#2");
	assert_int_equal(d(g, "annotations/cpu/2/activities"), 3);
	assert_int_equal(d(g, "annotations/cpu/2/device_ns"), 35000);
	assert_int_equal(d(g, "annotations/cpu_unattributed"), 1);
	/* HTA's window ends at the last step's start (400 us, t = 300 us): calls at 140,
	 * 180, 255 are inside; ProfilerStep#2 is not */
	assert_int_equal(d(g, "annotations/hta_window/end_t_ns"), 300000);
	assert_int_equal(d(g, "annotations/hta_window/activities"), 3);
	assert_int_equal(d(g, "annotations/gpu/0/hta/activities"), 2);
	assert_int_equal(d(g, "annotations/cpu/2/hta/count"), 0);
	assert_int_equal(d(g, "annotations/cpu/1/hta/count"), 1);
	json_decref(m);
}

/* The profiler's window is not the run's start nor a row of the top-span tables. */
static void test_window_not_workload(void **state)
{
	json_t *m = model_text(trace, 0), *r = at(m, "runs/0"), *it;
	size_t i;
	(void)state;
	assert_int_equal(d(r, "clock/start_ns"), 100000);
	json_array_foreach (at(r, "spans/items"), i, it)
		assert_string_not_equal(json_string_value(json_object_get(it, "name")),
					"PyTorch Profiler (0)");
	json_array_foreach (at(r, "bottlenecks/top_total"), i, it)
		assert_string_not_equal(json_string_value(json_object_get(it, "name")),
					"PyTorch Profiler (0)");
	json_array_foreach (at(r, "bottlenecks/top_self"), i, it)
		assert_string_not_equal(json_string_value(json_object_get(it, "name")),
					"PyTorch Profiler (0)");
	/* without the exclusion it would top both tables (1000 us, no children) */
	assert_string_equal(s(r, "bottlenecks/top_total/0/name"), "ProfilerStep#1");
	/* nor a lane of the timeline (it would start before the run) */
	json_array_foreach (at(r, "timeline/lanes"), i, it)
		assert_null(
			strstr(json_string_value(json_object_get(it, "name")), "PyTorch Profiler"));
	assert_int_equal(json_array_size(at(r, "timeline/lanes")),
			 3); /* thread 1/1, streams 7, 8 */
	/* nor the span that holds a memory peak: at 800 us no workload span is open */
	assert_string_equal(s(r, "peaks/0/series"), "dev.mem.allocated");
	assert_true(json_is_null(at(r, "peaks/0/span")));
	json_decref(m);
}

/* A CPU-only trace has no "gpu" section. */
static void test_absent(void **state)
{
	json_t *m = model_text("[{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", "
			       "\"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 5}]",
			       0);
	(void)state;
	assert_null(at(m, "runs/0/gpu"));
	json_decref(m);
}

/* PyTorch 1.8-1.10 vintage and its lowercase twin: the same model but for the
 * source, the hash and the diagnostic that says memory was rebuilt. */
static void test_legacy_twin(void **state)
{
	static const char *const files[] = { "torch-legacy-vintage/legacy.pt.trace.json",
					     "torch-legacy-vintage/twin.pt.trace.json" };
	static const char *const differ[] = { "id", "label", "source", "content_hash",
					      "diagnostics" };
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	json_t *runs[2], *m[2];
	size_t i, k;
	(void)state;
	for (i = 0; i < 2; i++) {
		struct pr_store *st = open_store();
		char *p = sample_path(files[i]);
		ingest_ok(st, p, "chrome");
		free(p);
		m[i] = pr_model_build(st, &o, &err);
		if (!m[i])
			fail_msg("model: %s", err.text);
		pr_store_close(st);
		runs[i] = at(m[i], "runs/0");
	}
	/* the legacy file says its memory was rebuilt from Bytes; the twin has totals */
	assert_string_equal(s(runs[0], "diagnostics/0/code"), "memory_reconstructed");
	assert_int_equal(json_array_size(json_object_get(runs[1], "diagnostics")), 0);
	for (i = 0; i < 2; i++)
		for (k = 0; k < PR_ARRAY_SIZE(differ); k++)
			json_object_del(runs[i], differ[k]);
	if (!json_equal(runs[0], runs[1])) {
		char *a = json_dumps(runs[0], JSON_SORT_KEYS),
		     *b = json_dumps(runs[1], JSON_SORT_KEYS);
		print_error("legacy: %s\ntwin:   %s\n", a, b);
		free(a);
		free(b);
		fail();
	}
	/* and it is a real model: steps, phases, kernels linked, memory */
	assert_int_equal(d(runs[0], "gpu/launches/linked"), 8);
	assert_int_equal(d(runs[0], "throughput/steps/count"), 2);
	assert_string_equal(s(runs[0], "gpu/streams/items/0/name"), "stream 7");
	/* memory: +1 MiB, +4 KiB, -4 KiB, -1 MiB per step: peak 1052672 B */
	assert_int_equal(d(runs[0], "peaks/0/value"), 1052672);
	for (i = 0; i < 2; i++)
		json_decref(m[i]);
}

/*
 * Which call keeps a correlation (the links' sort and merge): two calls
 * with the arg 10 (A, then B: B is a duplicate), a call C without the arg
 * whose ac2g flow has the id 20 that a later call D has as its arg (D keeps
 * it: C gets no correlation), two calls E and F without the arg whose flows
 * both have the id 30 (E, the first, gets it). Times in us, one host thread,
 * stream 7:
 *   A [100, 105) corr 10    -> k1 [110, 112): latency 110 - 100 = 10 us
 *   B [200, 250) corr 10       (a duplicate: launches nothing)
 *   C [300, 302) flow 20
 *   D [400, 407) corr 20    -> k2 [430, 431): latency 430 - 400 = 30 us
 *   E [500, 509) flow 30    -> k3 [560, 561) by flow 30: latency 560 - 500 = 60 us
 *   F [600, 601) flow 30
 * launches: 3 activities, 3 linked, 1 by flow, 3 calls; latency min 10000,
 * max 60000, mean 100000 / 3 ns, p50 30000 (the middle of three); overhead
 * = A + D + E = 5 + 7 + 9 = 21 us (B would add 50, C 2, F 1);
 * duplicate_correlations 1 (B).
 */
static const char dup_trace[] =
	"{\"traceEvents\": [\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 5,"
	" \"args\": {\"correlation\": 10}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 200, \"dur\": 50,"
	" \"args\": {\"correlation\": 10}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 300, \"dur\": 2},\n"
	"{\"ph\": \"s\", \"id\": 20, \"pid\": 1, \"tid\": 1, \"ts\": 300, \"cat\": \"ac2g\", \"name\": \"ac2g\"},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 400, \"dur\": 7,"
	" \"args\": {\"correlation\": 20}},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 500, \"dur\": 9},\n"
	"{\"ph\": \"s\", \"id\": 30, \"pid\": 1, \"tid\": 1, \"ts\": 500, \"cat\": \"ac2g\", \"name\": \"ac2g\"},\n"
	"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 600, \"dur\": 1},\n"
	"{\"ph\": \"s\", \"id\": 30, \"pid\": 1, \"tid\": 1, \"ts\": 600, \"cat\": \"ac2g\", \"name\": \"ac2g\"},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k1\", \"pid\": 0, \"tid\": 7, \"ts\": 110, \"dur\": 2,"
	" \"args\": {\"stream\": 7, \"correlation\": 10}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k2\", \"pid\": 0, \"tid\": 7, \"ts\": 430, \"dur\": 1,"
	" \"args\": {\"stream\": 7, \"correlation\": 20}},\n"
	"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k3\", \"pid\": 0, \"tid\": 7, \"ts\": 560, \"dur\": 1,"
	" \"args\": {\"stream\": 7}},\n"
	"{\"ph\": \"f\", \"id\": 30, \"pid\": 0, \"tid\": 7, \"ts\": 560, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}\n"
	"]}\n";

static char *dump_gpu(json_t *m);

static void check_dup(json_t *m)
{
	json_t *r = json_array_get(json_object_get(m, "runs"), 0);
	assert_int_equal(d(r, "gpu/launches/activities"), 3);
	assert_int_equal(d(r, "gpu/launches/linked"), 3);
	assert_int_equal(d(r, "gpu/launches/linked_by_flow"), 1);
	assert_int_equal(d(r, "gpu/launches/calls"), 3);
	assert_int_equal(d(r, "gpu/launches/latency/min_ns"), 10000);
	assert_int_equal(d(r, "gpu/launches/latency/max_ns"), 60000);
	assert_int_equal(d(r, "gpu/launches/latency/p50_ns"), 30000);
	near(d(r, "gpu/launches/latency/mean_ns"), 100000.0 / 3, 1e-6);
	assert_int_equal(d(r, "gpu/launches/negative_latency"), 0);
	assert_int_equal(d(r, "gpu/launches/overhead/total_ns"), 21000);
	assert_int_equal(d(r, "gpu/duplicate_correlations"), 1);
}

/* The in-memory sorts and the ones through scratch files (pr_xsort_mem 1: a run per record). */
static void test_duplicates_and_flows(void **state)
{
	size_t keep_sort = pr_xsort_mem, keep_rows = pr_gpuscan_mem;
	json_t *m = model_text(dup_trace, 2000), *t;
	char *a, *b;
	(void)state;
	check_dup(m);
	pr_xsort_mem = 1;
	pr_gpuscan_mem = 1;
	t = model_text(dup_trace, 2000);
	pr_xsort_mem = keep_sort;
	pr_gpuscan_mem = keep_rows;
	check_dup(t);
	a = dump_gpu(m);
	b = dump_gpu(t);
	assert_string_equal(a, b);
	free(a);
	free(b);
	json_decref(m);
	json_decref(t);
}

static char traces[1024]; /* tests/data/traces/hta; "" in a tree without it */

static json_t *model_file(const char *path, size_t timeline_points)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *m;
	ingest_ok(st, path, "chrome");
	o.timeline_points = timeline_points;
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model of %s: %s", path, err.text);
	pr_store_close(st);
	return m;
}

/* The gpu section of the model's first run as a string (the rest: the shared pass's, and
 * the runs' labels are the temporary files' names). */
static char *dump_gpu(json_t *m)
{
	json_t *gpu = json_object_get(json_array_get(json_object_get(m, "runs"), 0), "gpu");
	char *t;
	assert_non_null(gpu);
	t = json_dumps(gpu, JSON_COMPACT);
	assert_non_null(t);
	return t;
}

/*
 * The gpu analysis with every stream and sort in scratch files (the
 * activities', calls' and queue series' streams with pr_gpuscan_mem 1: one
 * record in memory; the sorts by correlation, call, activity, stream, the
 * latencies and overheads with pr_xsort_mem 1 KiB: 18 to 128 records a run,
 * so up to thousands of runs merged) gives the very model of the defaults,
 * byte for byte, on real Kineto traces (HTA's): the hand trace above, then
 * ns_resolution (6095 GPU ops), nccl_data (flows, two streams),
 * negative_queue_length_values_check (activities ending before their call),
 * a sampled trace_filter rank and the AMD trace; with the queue timelines
 * reduced (16 points) and in full (the hand trace's).
 */
static void test_scratch_files(void **state)
{
	static const char *const rel[] = {
		"ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
		"nccl_parser_config/nccl_data.json.gz",
		"negative_queue_length_values_check/rank0.json.gz",
		"trace_filter/sampled_rank-0.json.gz",
		"amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
	};
	size_t keep_rows = pr_gpuscan_mem, keep_sort = pr_xsort_mem, i;
	json_t *def, *tiny;
	char *a, *b;
	(void)state;
	def = model_text(trace, 2000);
	pr_gpuscan_mem = 1;
	pr_xsort_mem = 1;
	tiny = model_text(trace, 2000);
	pr_gpuscan_mem = keep_rows;
	pr_xsort_mem = keep_sort;
	a = dump_gpu(def);
	b = dump_gpu(tiny);
	assert_string_equal(a, b);
	free(a);
	free(b);
	json_decref(def);
	json_decref(tiny);
	if (!*traces)
		skip();
	for (i = 0; i < PR_ARRAY_SIZE(rel); i++) {
		char path[1200];
		snprintf(path, sizeof(path), "%s/%s", traces, rel[i]);
		def = model_file(path, 16);
		pr_gpuscan_mem = 1;
		pr_xsort_mem = 1024;
		tiny = model_file(path, 16);
		pr_gpuscan_mem = keep_rows;
		pr_xsort_mem = keep_sort;
		a = dump_gpu(def);
		b = dump_gpu(tiny);
		if (strcmp(a, b))
			fail_msg("%s: the model with scratch files differs", rel[i]);
		free(a);
		free(b);
		json_decref(def);
		json_decref(tiny);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_launches),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_annotations),
		cmocka_unit_test(test_window_not_workload),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_legacy_twin),
		cmocka_unit_test(test_duplicates_and_flows),
		cmocka_unit_test(test_scratch_files),
	};
	int rc;
	if (!pr_test_trace(traces, sizeof(traces), "hta"))
		traces[0] = '\0'; /* the traces' test skipped */
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	return rc == 0 && !*traces ? 77 : rc; /* skipped (77) only when the rest passed */
}
