/*
 * test_aggregate.c - analyze/aggregate: exact merge, robust straggler score,
 * rank discovery; rows through the scratch file unchanged, agg.json written
 * and read a row at a time, and memory that does not grow with the ranks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include <malloc.h>
#include <math.h>

#include "analyze/multi/aggregate.h"
#include "analyze/kclass.h"
#include "analyze/model.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "render/agg_text.h"

/*
 * jansson's allocations counted (installed in main, before any): the bytes
 * live now and the most live since the last reset, as malloc_usable_size
 * tells. A string of jansson's that its caller frees with free() (json_dumps)
 * stays counted; the windows measured make none.
 */
static size_t json_live, json_peak;

static void *count_malloc(size_t n)
{
	void *p = malloc(n);
	if (!p)
		return NULL;
	json_live += malloc_usable_size(p);
	if (json_live > json_peak)
		json_peak = json_live;
	return p;
}

static void count_free(void *p)
{
	if (!p)
		return;
	json_live -= malloc_usable_size(p);
	free(p);
}

static char *pr_xstrndup_test(const char *s, size_t n)
{
	char *p = malloc(n + 1);
	assert_non_null(p);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static uint64_t lcg = 88172645463325252ULL;

static double urand(void)
{
	lcg ^= lcg << 13;
	lcg ^= lcg >> 7;
	lcg ^= lcg << 17;
	return (double)(lcg >> 11) / 9007199254740992.0;
}

/* A generated per-rank model run: stages, spans (one a collective), peaks, metrics. */
static json_t *gen_run(long rank, double dl_scale)
{
	json_t *run = json_object(), *ph = json_object(), *tot = json_array(), *sp = json_array();
	json_t *peaks = json_array(), *rep = json_array(), *steps, *per_step;
	int k;
	double dl = (10e6 + urand() * 1e5) * dl_scale, step = 92e6 + urand() * 1e3;
	json_object_set_new(run, "format", json_string("chrome"));
	json_object_set_new(run, "source", json_string("gen"));
	json_object_set_new(run, "rank", json_integer(rank));
	json_object_set_new(run, "world_size", json_integer(64));
	json_object_set_new(run, "clock", json_pack("{s:f}", "duration_ns", 1.8e9 + urand() * 1e6));
	steps = json_pack("{s:s,s:i,s:f,s:f,s:f,s:f,s:f}", "name", "ProfilerStep#0", "count", 20,
			  "mean_ns", step, "p50_ns", step, "min_ns", step - 5, "max_ns", step + 5,
			  "per_s", 1e9 / step);
	json_object_set_new(run, "throughput", json_pack("{s:o}", "steps", steps));
	json_array_append_new(tot, json_pack("{s:s,s:i,s:f}", "name", "enumerate(DataLoader)#x",
					     "count", 20, "total_ns", dl * 20));
	json_array_append_new(tot, json_pack("{s:s,s:i,s:f}", "name", "forward", "count", 20,
					     "total_ns", 4e8 + urand() * 1e4));
	json_object_set_new(ph, "totals", tot);
	json_object_set_new(run, "phases", ph);
	/* per step: the slow rank spends the least time in the all-reduce except in step 7;
	 * step 3 is a tie (the lowest rank wins); step 11 has no call on even ranks */
	per_step = json_array();
	for (k = 0; k < 20; k++) {
		double v = dl_scale > 1 && k != 7 ? 1e6 + urand() * 1e3 : 20e6 + urand() * 1e6;
		if (k == 3)
			v = 5e6;
		if (k == 11 && rank % 2 == 0)
			v = 0;
		json_array_append_new(per_step, json_real(v));
	}
	json_array_append_new(sp,
			      json_pack("{s:s,s:s,s:i,s:f,s:o}", "name", "ncclDevKernel_AllReduce",
					"kind", "kernel", "count", 20, "total_ns",
					(30e6 - dl) * 20 / dl_scale, "per_step_ns", per_step));
	json_array_append_new(sp, json_pack("{s:s,s:s,s:i,s:f}", "name", "gemm", "kind", "kernel",
					    "count", 40, "total_ns", 3.8e8 * (1 + urand() * 1e-3)));
	json_object_set_new(run, "spans", json_pack("{s:o}", "items", sp));
	json_array_append_new(peaks, json_pack("{s:s,s:s,s:s,s:f}", "series", "dev.mem.allocated",
					       "device", "cuda:0", "unit", "bytes", "value",
					       6e10 + floor(urand() * 1e9)));
	json_object_set_new(run, "peaks", peaks);
	json_array_append_new(rep, json_pack("{s:s,s:f,s:s}", "name", "gpu.util", "value",
					     urand() * 100 - 3.3, "unit", "percent"));
	json_object_set_new(run, "reported", rep);
	{
		/* the GPU breakdown (integer ns, as the model writes): the slow rank's GPU idles
		 * 3x longer, mostly waiting on its host */
		double span = 1.8e9 + floor(urand() * 1e6), idle = floor(0.1 * span * dl_scale);
		double mem = floor(urand() * 1e6), comm = floor(0.3 * span), hw = floor(idle * 0.9);
		double comp = span - idle - mem - comm;
		json_object_set_new(
			run, "gpu_breakdown",
			json_pack("{s:{s:f,s:f,s:f,s:f,s:f,s:f},s:{s:f,s:f,s:f,s:f},s:{s:f,s:f}}",
				  "rank", "span_ns", span, "busy_ns", span - idle, "compute_ns",
				  comp, "communication_ns", comm, "memory_ns", mem, "idle_ns", idle,
				  "idle", "host_wait_ns", hw, "kernel_wait_ns", 0.0, "other_ns",
				  idle - hw, "launch_linked_share", 1.0, "overlap",
				  "communication_ns", comm + 1e6, "overlapped_ns",
				  floor(urand() * 1e6)));
	}
	return run;
}

/* Drops what Chan's merge may change in the last bits: the moments' m2 and mean, std. */
static void strip(json_t *j)
{
	const char *k;
	json_t *v;
	size_t i;
	void *tmp;
	if (json_is_object(j)) {
		if (json_object_get(j, "m2")) {
			json_object_del(j, "m2");
			json_object_del(j, "mean");
		}
		json_object_del(j, "std");
		json_object_foreach_safe (j, tmp, k, v)
			strip(v);
	} else if (json_is_array(j)) {
		json_array_foreach (j, i, v)
			strip(v);
	}
}

static void test_merge_exact(void **state)
{
	enum {
		N = 37
	};
	json_t *runs[N], *all_doc, *m_doc, *j_doc, *p1_doc, *p2_doc;
	struct pr_agg *all = pr_agg_new(), *p1 = pr_agg_new(), *p2 = pr_agg_new();
	struct pr_agg *m = pr_agg_new(), *viajson = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	long i;
	(void)state;
	for (i = 0; i < N; i++)
		runs[i] = gen_run(i, i == 5 ? 3.0 : 1.0);
	/* all ranks in order; parts in another order and split */
	for (i = 0; i < N; i++)
		assert_int_equal(pr_agg_add_model_run(all, runs[i], NULL, NULL, &err), 1);
	for (i = N - 1; i >= 0; i--)
		assert_int_equal(pr_agg_add_model_run(i % 3 ? p1 : p2, runs[i], NULL, NULL, &err),
				 1);
	assert_int_equal(pr_agg_merge(m, p2, &err), 0);
	assert_int_equal(pr_agg_merge(m, p1, &err), 0);
	p1_doc = pr_agg_to_json(p1);
	p2_doc = pr_agg_to_json(p2);
	assert_int_equal(pr_agg_merge_json(viajson, p1_doc, &err), 0);
	assert_int_equal(pr_agg_merge_json(viajson, p2_doc, &err), 0);
	all_doc = pr_agg_to_json(all);
	m_doc = pr_agg_to_json(m);
	j_doc = pr_agg_to_json(viajson);
	/* the stragglers section and the std are present before stripping */
	assert_true(json_array_size(
			    json_object_get(json_object_get(all_doc, "stragglers"), "ranks")) == 1);
	{
		/* rank 5 arrived last in 18 of 20 steps (not in step 7, nor in the tie of step 3) */
		const json_t *ar =
			json_array_get(json_object_get(all_doc, "collective_arrivals"), 0);
		const json_t *top = json_object_get(ar, "last_to_arrive");
		const char *sum = json_string_value(json_object_get(
			json_array_get(json_object_get(json_object_get(all_doc, "stragglers"),
						       "ranks"),
				       0),
			"summary"));
		assert_string_equal(json_string_value(json_object_get(ar, "name")),
				    "ncclDevKernel_AllReduce");
		assert_int_equal(json_integer_value(json_object_get(ar, "decided")), 20);
		assert_int_equal(json_integer_value(
					 json_object_get(json_array_get(top, 0), "rank")),
				 5);
		assert_int_equal(json_integer_value(
					 json_object_get(json_array_get(top, 0), "steps")),
				 18);
		assert_int_equal(json_integer_value(
					 json_array_get(json_object_get(json_object_get(ar,
											"state"),
									"rank"),
							3)),
				 0);
		/* 37 * P(Binomial(20, 1/37) >= 18) */
		assert_true(json_number_value(json_object_get(ar, "p_value")) < 1e-20);
		assert_non_null(strstr(sum, "last into ncclDevKernel_AllReduce in 18 of 20 steps"));
		/* idle 30 % of the GPU span vs 10 % (rounded), 90 % of it host wait */
		assert_non_null(
			strstr(sum, "GPU idle 30 % vs a median of 10 %, 90 % of it host wait"));
	}
	strip(all_doc);
	strip(m_doc);
	strip(j_doc);
	if (!json_equal(all_doc, m_doc) && getenv("AGG_DEBUG")) {
		json_dump_file(all_doc, "/tmp/ta.json", JSON_INDENT(1) | JSON_REAL_PRECISION(17));
		json_dump_file(m_doc, "/tmp/tm.json", JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	}
	assert_true(json_equal(all_doc, m_doc));
	assert_true(json_equal(all_doc, j_doc));
	for (i = 0; i < N; i++)
		json_decref(runs[i]);
	json_decref(all_doc);
	json_decref(m_doc);
	json_decref(j_doc);
	json_decref(p1_doc);
	json_decref(p2_doc);
	pr_agg_free(all);
	pr_agg_free(p1);
	pr_agg_free(p2);
	pr_agg_free(m);
	pr_agg_free(viajson);
}

/* A stat entry of the document by category and name. */
static const json_t *find_stat(const json_t *doc, const char *cat, const char *name)
{
	const json_t *s;
	size_t i;
	json_array_foreach (json_object_get(doc, "stats"), i, s)
		if (!strcmp(json_string_value(json_object_get(s, "category")), cat) &&
		    !strcmp(json_string_value(json_object_get(s, "name")), name))
			return s;
	return NULL;
}

static void test_sums_and_extrema(void **state)
{
	struct pr_agg *a = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	json_t *doc, *r;
	const json_t *s;
	static const double v[] = { 1e16, 1.0, -1e16, 0.5, 3.0 };
	long i;
	(void)state;
	for (i = 0; i < 5; i++) {
		r = json_pack("{s:s,s:I,s:{s:f},s:[{s:s,s:f,s:s}]}", "format", "chrome", "rank",
			      (json_int_t)(10 - i), "clock", "duration_ns", 1.0, "reported", "name",
			      "x", "value", v[i], "unit", "");
		assert_int_equal(pr_agg_add_model_run(a, r, NULL, NULL, &err), 1);
		json_decref(r);
	}
	doc = pr_agg_to_json(a);
	s = find_stat(doc, "metric", "x");
	assert_non_null(s);
	/* exact sum: 1e16 + 1 - 1e16 + 0.5 + 3 = 4.5 (a naive double sum gives 3.5) */
	assert_true(json_real_value(json_object_get(s, "sum")) == 4.5);
	assert_int_equal(json_integer_value(json_object_get(s, "argmax")), 10);
	assert_int_equal(json_integer_value(json_object_get(s, "argmin")), 8);
	/* equal durations: the lowest rank has both extrema */
	s = find_stat(doc, "run", "duration");
	assert_int_equal(json_integer_value(json_object_get(s, "argmin")), 6);
	assert_int_equal(json_integer_value(json_object_get(s, "argmax")), 6);
	assert_true(json_real_value(json_object_get(s, "imbalance")) == 1.0 ||
		    json_integer_value(json_object_get(s, "imbalance")) == 1);
	json_decref(doc);
	pr_agg_free(a);
}

static void test_robust_score(void **state)
{
	/* dataloader totals 10, 10.1, 9.9, 30 (ms): median 10.05, MAD 0.1, z = 0.6745 * 19.95 / 0.1 */
	static const double dl[] = { 10e6, 10.1e6, 9.9e6, 30e6 };
	struct pr_agg *a = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	json_t *doc, *r;
	const json_t *named, *ev;
	long i;
	(void)state;
	for (i = 0; i < 4; i++) {
		r = json_pack("{s:s,s:I,s:{s:[{s:s,s:i,s:f}]}}", "format", "chrome", "rank",
			      (json_int_t)i, "phases", "totals", "name", "dataloader", "count", 1,
			      "total_ns", dl[i]);
		assert_int_equal(pr_agg_add_model_run(a, r, NULL, NULL, &err), 1);
		json_decref(r);
	}
	doc = pr_agg_to_json(a);
	named = json_object_get(json_object_get(doc, "stragglers"), "ranks");
	assert_int_equal(json_array_size(named), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(named, 0), "rank")), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(named, 0), "summary")),
			    "rank 3: dataloader 2.99x the median");
	ev = json_array_get(json_object_get(json_array_get(named, 0), "evidence"), 0);
	assert_true(fabs(json_number_value(json_object_get(ev, "median")) - 10.05e6) < 1e-3);
	assert_true(fabs(json_number_value(json_object_get(ev, "mad")) - 0.1e6) < 1e-3);
	assert_true(fabs(json_number_value(json_object_get(ev, "z")) - 0.6745 * 19.95 / 0.1) <
		    1e-6);
	json_decref(doc);
	pr_agg_free(a);
}

/* A run with only a GPU breakdown: span 1 s, idle and its host-wait part in ns. */
static json_t *gpu_run(long rank, double idle, double host_wait)
{
	double span = 1e9;
	return json_pack("{s:s,s:I,s:{s:f},s:{s:{s:f,s:f,s:f,s:f,s:f,s:f},s:{s:f,s:f,s:f,s:f},"
			 "s:{s:f,s:f}}}",
			 "format", "chrome", "rank", (json_int_t)rank, "clock", "duration_ns", span,
			 "gpu_breakdown", "rank", "span_ns", span, "busy_ns", span - idle,
			 "compute_ns", (span - idle) / 2, "communication_ns", (span - idle) / 2,
			 "memory_ns", 0.0, "idle_ns", idle, "idle", "host_wait_ns", host_wait,
			 "kernel_wait_ns", 0.0, "other_ns", idle - host_wait, "launch_linked_share",
			 1.0, "overlap", "communication_ns", 4e8, "overlapped_ns", 1e8);
}

/* The named ranks' summaries of an aggregate of runs (idle, host wait) in ns, "" when none. */
static void gpu_case(size_t n, const double (*v)[2], char *out, size_t len, json_t **check)
{
	struct pr_agg *a = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	json_t *doc, *r;
	const json_t *named, *c;
	size_t i;
	for (i = 0; i < n; i++) {
		r = gpu_run((long)i, v[i][0], v[i][1]);
		assert_int_equal(pr_agg_add_model_run(a, r, NULL, NULL, &err), 1);
		json_decref(r);
	}
	doc = pr_agg_to_json(a);
	named = json_object_get(json_object_get(doc, "stragglers"), "ranks");
	out[0] = '\0';
	json_array_foreach (named, i, r)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? " | " : "",
			 json_string_value(json_object_get(r, "summary")));
	*check = NULL;
	json_array_foreach (json_object_get(json_object_get(doc, "stragglers"), "checks"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "what")), "gpu idle"))
			*check = json_deep_copy(c);
	json_decref(doc);
	pr_agg_free(a);
}

/*
 * The GPU-idle straggler rule: z > 3.5, >= 1.2x and >= 5 points above the
 * median idle share, and >= 50 % of the rank's idle time host wait.
 */
static void test_gpu_idle_rule(void **state)
{
	/* idle shares 10, 10.5, 9.5, 10.2, 40 %: median 10.2 %, MAD 0.3 points,
	 * z(40 %) = 0.6745 * 29.8 / 0.3 = 67.0; rank 4's idle is 90 % host wait */
	static const double named[][2] = { { 1.00e8, 0.9e8 },
					   { 1.05e8, 0.9e8 },
					   { 0.95e8, 0.9e8 },
					   { 1.02e8, 0.9e8 },
					   { 4e8, 3.6e8 } };
	/* the same idle, but rank 4's is only 20 % host wait (it waits on something else) */
	static const double other[][2] = { { 1.00e8, 0.9e8 },
					   { 1.05e8, 0.9e8 },
					   { 0.95e8, 0.9e8 },
					   { 1.02e8, 0.9e8 },
					   { 4e8, 0.8e8 } };
	/* 14 % vs a median of 10.2 %: 1.37x and z = 8.5, but 3.8 points: below the floor */
	static const double small[][2] = { { 1.00e8, 0.9e8 },
					   { 1.05e8, 0.9e8 },
					   { 0.95e8, 0.9e8 },
					   { 1.02e8, 0.9e8 },
					   { 1.4e8, 1.4e8 } };
	/* the other GPUs never idle (median 0, MAD 0, meanAD 4 points): z = 20 / (1.2533 * 4) = 4.0 */
	static const double zero[][2] = { { 0, 0 }, { 0, 0 }, { 2e8, 2e8 }, { 0, 0 }, { 0, 0 } };
	char out[512];
	json_t *check;
	const json_t *ev;
	(void)state;
	gpu_case(5, named, out, sizeof(out), &check);
	assert_string_equal(out, "rank 4: GPU idle 40 % vs a median of 10 %, 90 % of it host wait");
	assert_non_null(check);
	assert_true(fabs(json_number_value(json_object_get(check, "median")) - 0.102) < 1e-12);
	assert_true(fabs(json_number_value(json_object_get(check, "mad")) - 0.003) < 1e-12);
	assert_true(json_number_value(json_object_get(check, "min_excess")) == 0.05);
	assert_true(json_number_value(json_object_get(check, "host_wait_min")) == 0.5);
	ev = json_array_get(json_object_get(check, "outliers"), 0);
	assert_int_equal(json_integer_value(json_object_get(ev, "rank")), 4);
	assert_true(fabs(json_number_value(json_object_get(ev, "z")) - 0.6745 * 0.298 / 0.003) <
		    1e-6);
	json_decref(check);
	gpu_case(5, other, out, sizeof(out), &check);
	assert_string_equal(out, "");
	assert_int_equal(json_array_size(json_object_get(check, "outliers")), 0);
	json_decref(check);
	gpu_case(5, small, out, sizeof(out), &check);
	assert_string_equal(out, "");
	json_decref(check);
	gpu_case(5, zero, out, sizeof(out), &check);
	assert_string_equal(out, "rank 2: GPU idle 20 % vs a median of 0 %, 100 % of it host wait");
	json_decref(check);
	/* two ranks: no check at all (>= 3 needed) */
	gpu_case(2, named + 3, out, sizeof(out), &check);
	assert_string_equal(out, "");
	assert_null(check);
}

static void test_rank_from_path(void **state)
{
	(void)state;
	assert_int_equal(pr_agg_rank_from_path("prof/rank_3/profiling_report_x.json"), 3);
	assert_int_equal(pr_agg_rank_from_path("traces/rank0.pt.trace.json"), 0);
	assert_int_equal(pr_agg_rank_from_path("trace_rank12.json"), 12);
	assert_int_equal(pr_agg_rank_from_path("run/worker7.json"), 7);
	assert_int_equal(pr_agg_rank_from_path("rank_1/rank-4.json"), 4);
	assert_int_equal(pr_agg_rank_from_path("run/host-a.json"), -1);
	assert_int_equal(pr_agg_rank_from_path("frank3.json"), -1);
	assert_int_equal(pr_agg_rank_from_path("rank.json"), -1);
	assert_int_equal(pr_kclass_is_collective("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), 1);
	assert_int_equal(pr_kclass_is_collective("c10d::allreduce_"), 1);
	assert_int_equal(pr_kclass_is_collective("aten::mm"), 0);
}

static void test_inferred_ranks(void **state)
{
	struct pr_agg *a = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	json_t *doc, *r;
	(void)state;
	r = json_pack("{s:s,s:n}", "format", "chrome", "rank");
	assert_int_equal(pr_agg_add_model_run(a, r, NULL, "x/host-a.json", &err), 1);
	assert_int_equal(pr_agg_add_model_run(a, r, NULL, "x/worker2.json", &err), 1);
	assert_int_equal(pr_agg_add_model_run(a, r, NULL, "x/host-b.json", &err), 1);
	json_decref(r);
	doc = pr_agg_to_json(a);
	assert_true(json_is_true(json_object_get(doc, "ranks_inferred")));
	/* host-a -> 0, worker2 -> 2 (path), host-b -> 1 (lowest unused) */
	assert_string_equal(json_string_value(
				    json_object_get(json_array_get(json_object_get(doc, "ranks"),
								   1),
						    "source")),
			    "x/host-b.json");
	json_decref(doc);
	pr_agg_free(a);
}

/* ---- rows through the scratch file; agg.json a row at a time ------------ */

/* agg.json as pr_agg_write writes it (a new string). */
static char *written(const struct pr_agg *a)
{
	struct pr_output out;
	struct pr_error err = PR_ERROR_INIT;
	json_t *head = pr_agg_head_json(a);
	size_t n;
	char *text;
	assert_non_null(head);
	pr_output_init_memory(&out);
	assert_int_equal(pr_agg_write(a, head, &out, &err), 0);
	text = pr_output_detach(&out, &n);
	pr_output_release(&out);
	json_decref(head);
	return text;
}

/* agg.json as the whole document dumps: what pr_agg_write must equal byte for byte. */
static char *dumped(const struct pr_agg *a)
{
	json_t *doc = pr_agg_to_json(a);
	struct pr_strbuf sb = PR_STRBUF_INIT;
	char *t;
	assert_non_null(doc);
	t = pr_model_dumps(doc);
	pr_strbuf_addf(&sb, "%s\n", t);
	free(t);
	json_decref(doc);
	return pr_strbuf_detach(&sb, NULL);
}

static void assert_written_is_dumped(const struct pr_agg *a)
{
	char *w = written(a), *d = dumped(a);
	assert_string_equal(w, d);
	free(w);
	free(d);
}

/* Exact text of a tree: key order kept, every real to 17 digits (-0.0 stays -0.0). */
static char *exact(const json_t *j)
{
	return json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
}

/* A path in TMPDIR (or /tmp) holding text; the caller unlinks and frees it. */
static char *temp_file(const char *text)
{
	const char *dir = getenv("TMPDIR");
	struct pr_strbuf sb = PR_STRBUF_INIT;
	FILE *f;
	int fd;
	pr_strbuf_addf(&sb, "%s/pr_test_agg_XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(sb.buf);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
	return pr_strbuf_detach(&sb, NULL);
}

/*
 * A row that a hand-made agg.json may hold, with what is easy to lose when
 * a tree becomes text and back: int64's extremes, 2^53 + 1 (no double has
 * it), reals that need 17 digits, the least subnormal, -0.0, a real 1.0,
 * unicode (2-, 3- and 4-byte UTF-8) and escapes in keys and strings, empty
 * and nested containers, key order. NaN and infinities cannot be in a tree
 * (JSON has none; pr_jnum writes null), see test_row_nonfinite.
 */
static const char tricky_row[] =
	"{\"rank\": 3, \"rank_source\": \"trace\", \"world_size\": null, \"source\": "
	"\"d\\u00e9j\\u00e0/\\u65e5\\u672c/\\ud83d\\ude80 \\\"q\\\" \\\\ \\u0001\\n.json\", "
	"\"format\": \"chrome\", \"z_last_first\": 1, \"duration_ns\": 9223372036854775807, "
	"\"min\": -9223372036854775808, \"big\": 9007199254740993, "
	"\"reals\": [0.1, 1e308, 5e-324, -0.0, 1.0, 0.30000000000000004, -2.5e-10, "
	"123456789.01234567, 1.7976931348623157e308], "
	"\"steps\": {\"mean_ns\": 92000000.5}, "
	"\"stages\": {\"fw\\u00fcrd \\ud83d\\ude80\": 0.1, \"back\\\"ward\": 5e-324, \"none\": null}, "
	"\"collectives\": {}, \"top_spans\": [], "
	"\"peaks\": [[], {}, [[1, [2]], {\"a\": {\"b\": true}}]], \"gpu\": null, \"a\": false}";

static json_t *doc_with_rows(json_t *rows)
{
	return json_pack("{s:s,s:i,s:[],s:o}", "schema", "profreport-aggregate", "version", 1,
			 "stats", "ranks", rows);
}

static void test_row_roundtrip(void **state)
{
	struct pr_agg *a = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	json_t *row = json_loads(tricky_row, 0, NULL), *doc, *out;
	const json_t *got;
	char *want, *have;
	(void)state;
	assert_non_null(row);
	doc = doc_with_rows(json_pack("[O]", row));
	assert_int_equal(pr_agg_merge_json(a, doc, &err), 0);
	out = pr_agg_to_json(a);
	assert_non_null(out);
	got = json_array_get(json_object_get(out, "ranks"), 0);
	assert_true(json_equal(got, row));
	/* the same types, bits and key order: the exact texts are equal */
	want = exact(row);
	have = exact(got);
	assert_string_equal(have, want);
	assert_non_null(strstr(have, "\"duration_ns\":9223372036854775807,"));
	assert_non_null(strstr(have, "4.9406564584124654e-324"));
	assert_non_null(strstr(have, "-0.0,1.0,"));
	/* and the agg.json written a row at a time is the whole document's dump */
	assert_written_is_dumped(a);
	free(want);
	free(have);
	json_decref(out);
	json_decref(doc);
	json_decref(row);
	pr_agg_free(a);
}

/* int64's least rank (only a hand-made agg.json has one) is a rank like any other. */
static void test_rank_extremes(void **state)
{
	struct pr_agg *a = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	json_t *doc, *out;
	const json_t *ranks;
	(void)state;
	doc = doc_with_rows(json_pack("[{s:I,s:s},{s:I,s:s},{s:I,s:s},{s:I,s:s},{s:I,s:s}]", "rank",
				      (json_int_t)0, "source", "z", "rank", (json_int_t)INT64_MIN,
				      "source", "b", "rank", (json_int_t)(INT64_MIN + 1), "source",
				      "c", "rank", (json_int_t)INT64_MIN, "source", "a", "rank",
				      (json_int_t)INT64_MAX, "source", "m"));
	assert_int_equal(pr_agg_merge_json(a, doc, &err), 0);
	out = pr_agg_to_json(a);
	assert_non_null(out);
	/* 4 distinct ranks; the least one twice, warned, its rows by source */
	assert_int_equal(json_integer_value(json_object_get(out, "rank_count")), 4);
	assert_string_equal(json_string_value(json_array_get(json_object_get(out, "warnings"), 0)),
			    "rank -9223372036854775808 appears in more than one input");
	ranks = json_object_get(out, "ranks");
	assert_string_equal(json_string_value(json_object_get(json_array_get(ranks, 0), "source")),
			    "a");
	assert_string_equal(json_string_value(json_object_get(json_array_get(ranks, 1), "source")),
			    "b");
	assert_string_equal(json_string_value(json_object_get(json_array_get(ranks, 2), "source")),
			    "c");
	assert_string_equal(json_string_value(json_object_get(json_array_get(ranks, 3), "source")),
			    "z");
	assert_string_equal(json_string_value(json_object_get(json_array_get(ranks, 4), "source")),
			    "m");
	assert_written_is_dumped(a);
	json_decref(out);
	json_decref(doc);
	pr_agg_free(a);
}

/* What the model has as NaN (an absent or non-numeric value) is null in the row, and stays so. */
static void test_row_nonfinite(void **state)
{
	struct pr_agg *a = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	json_t *r, *doc;
	const json_t *row;
	(void)state;
	r = json_pack("{s:s,s:i,s:{s:s},s:{s:{s:f,s:s}}}", "format", "chrome", "rank", 0, "clock",
		      "duration_ns", "nan", "throughput", "steps", "count", 2.0, "mean_ns", "inf");
	assert_int_equal(pr_agg_add_model_run(a, r, NULL, "r0.json", &err), 1);
	json_decref(r);
	/* 2^62 + 2^10: integral but past 2^53, so pr_jnum makes it a real; exact through the file */
	r = json_pack("{s:s,s:i,s:{s:f}}", "format", "chrome", "rank", 1, "clock", "duration_ns",
		      4611686018427388928.0 + 1024.0);
	assert_int_equal(pr_agg_add_model_run(a, r, NULL, "r1.json", &err), 1);
	json_decref(r);
	doc = pr_agg_to_json(a);
	assert_non_null(doc);
	row = json_array_get(json_object_get(doc, "ranks"), 0);
	assert_true(json_is_null(json_object_get(row, "duration_ns")));
	assert_true(json_is_null(json_object_get(json_object_get(row, "steps"), "mean_ns")));
	row = json_array_get(json_object_get(doc, "ranks"), 1);
	assert_true(json_is_real(json_object_get(row, "duration_ns")));
	assert_true(json_real_value(json_object_get(row, "duration_ns")) ==
		    4611686018427388928.0 + 1024.0);
	assert_written_is_dumped(a);
	json_decref(doc);
	pr_agg_free(a);
}

/* No rows, one, many, and one rank from two inputs (ordered by source, not by arrival). */
static void test_write_streams(void **state)
{
	struct pr_agg *e = pr_agg_new(), *p1 = pr_agg_new(), *p2 = pr_agg_new(), *m = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	json_t *doc, *r;
	long i;
	char *w;
	(void)state;
	w = written(e);
	assert_non_null(strstr(w, "\n \"ranks\": []\n}\n"));
	free(w);
	assert_written_is_dumped(e);
	for (i = 0; i < 6; i++) {
		r = gen_run(i, i == 4 ? 3.0 : 1.0);
		assert_int_equal(pr_agg_add_model_run(p1, r, NULL, "b/r.json", &err), 1);
		if (i < 3)
			assert_int_equal(pr_agg_add_model_run(p2, r, NULL, "a/r.json", &err), 1);
		json_decref(r);
	}
	assert_written_is_dumped(p1);
	assert_int_equal(pr_agg_merge(m, p1, &err), 0);
	assert_int_equal(pr_agg_merge(m, p2, &err), 0);
	assert_int_equal(pr_agg_rank_count(m), 9);
	doc = pr_agg_to_json(m);
	assert_non_null(doc);
	/* ranks 0-2 twice: "a/r.json" (added last) before "b/r.json" */
	assert_string_equal(json_string_value(
				    json_object_get(json_array_get(json_object_get(doc, "ranks"),
								   0),
						    "source")),
			    "a/r.json");
	assert_string_equal(json_string_value(
				    json_object_get(json_array_get(json_object_get(doc, "ranks"),
								   1),
						    "source")),
			    "b/r.json");
	assert_int_equal(json_integer_value(json_object_get(doc, "rank_count")), 6);
	assert_written_is_dumped(m);
	json_decref(doc);
	pr_agg_free(e);
	pr_agg_free(p1);
	pr_agg_free(p2);
	pr_agg_free(m);
}

/* An agg.json file read a row at a time gives what its whole document gives. */
static void test_merge_file(void **state)
{
	struct pr_agg *a = pr_agg_new(), *viajson = pr_agg_new(), *viafile, *b;
	struct pr_error err = PR_ERROR_INIT;
	json_t *doc, *re;
	const char *k;
	json_t *v;
	char *text, *path, *w1, *w2, *bad, *p;
	long i;
	(void)state;
	for (i = 0; i < 7; i++) {
		json_t *r = gen_run(i, i == 5 ? 3.0 : 1.0);
		assert_int_equal(pr_agg_add_model_run(a, r, NULL, NULL, &err), 1);
		json_decref(r);
	}
	text = written(a);
	doc = json_loads(text, 0, NULL);
	assert_non_null(doc);
	assert_int_equal(pr_agg_merge_json(viajson, doc, &err), 0);
	w1 = written(viajson);
	/* the file as written */
	viafile = pr_agg_new();
	path = temp_file(text);
	assert_int_equal(pr_agg_merge_file(viafile, path, &err), 0);
	w2 = written(viafile);
	assert_string_equal(w2, w1);
	free(w2);
	pr_agg_free(viafile);
	unlink(path);
	free(path);
	/* keys in reverse order ("ranks" first), a key of no use, compact: the same */
	re = json_object();
	json_object_set_new(re, "extra", json_pack("{s:[i,{}]}", "x", 1));
	{
		const char *keys[32];
		size_t n = 0;
		json_object_foreach (doc, k, v)
			keys[n++] = k;
		while (n--)
			json_object_set(re, keys[n], json_object_get(doc, keys[n]));
	}
	p = json_dumps(re, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	assert_non_null(strstr(p, "\"stats\":[{"));
	assert_true(strstr(p, "\"ranks\":[{") < strstr(p, "\"stats\":[{"));
	viafile = pr_agg_new();
	path = temp_file(p);
	assert_int_equal(pr_agg_merge_file(viafile, path, &err), 0);
	w2 = written(viafile);
	assert_string_equal(w2, w1);
	free(w2);
	pr_agg_free(viafile);
	unlink(path);
	free(path);
	free(p);
	json_decref(re);

	/* broken files: an error, and the aggregate unchanged */
	b = pr_agg_new();
	/* cut inside the rows */
	bad = pr_xstrndup_test(text, strlen(text) / 2);
	path = temp_file(bad);
	pr_error_init(&err);
	assert_int_equal(pr_agg_merge_file(b, path, &err), -1);
	assert_int_equal(err.code, PR_E_PARSE);
	assert_int_equal(pr_agg_rank_count(b), 0);
	unlink(path);
	free(path);
	free(bad);
	/* something after the object */
	{
		struct pr_strbuf sb = PR_STRBUF_INIT;
		pr_strbuf_addf(&sb, "%s x", text);
		path = temp_file(sb.buf);
		pr_strbuf_release(&sb);
	}
	pr_error_init(&err);
	assert_int_equal(pr_agg_merge_file(b, path, &err), -1);
	assert_int_equal(err.code, PR_E_PARSE);
	assert_non_null(strstr(err.text, "end of file expected near 'x'"));
	unlink(path);
	free(path);
	/* a row whose rank is no integer: the check of the whole document, with its index */
	bad = pr_xstrndup_test(text, strlen(text));
	p = strstr(bad, "\"rank\": 2,");
	assert_non_null(p);
	memcpy(p, "\"rank\":[],", 10);
	path = temp_file(bad);
	pr_error_init(&err);
	assert_int_equal(pr_agg_merge_file(b, path, &err), -1);
	assert_string_equal(err.text, "aggregate: ranks[2] has no rank");
	assert_int_equal(pr_agg_rank_count(b), 0);
	unlink(path);
	free(path);
	free(bad);
	/* a syntax error inside the 4th row: reported at its line of the file */
	bad = pr_xstrndup_test(text, strlen(text));
	p = strstr(bad, "\"rank\": 3,");
	assert_non_null(p);
	p = strstr(p, "\"format\": \"chrome\"");
	assert_non_null(p);
	p[10] = '['; /* "format": [chrome" */
	path = temp_file(bad);
	pr_error_init(&err);
	assert_int_equal(pr_agg_merge_file(b, path, &err), -1);
	assert_int_equal(err.code, PR_E_PARSE);
	{
		long line = 1;
		const char *c;
		for (c = bad; c < p; c++)
			line += *c == '\n';
		if (err.line != line)
			print_message("%s at %ld:%ld\n", err.text, err.line, err.column);
		assert_int_equal(err.line, line);
	}
	assert_int_equal(pr_agg_rank_count(b), 0);
	unlink(path);
	free(path);
	free(bad);
	/* another schema; no such file */
	path = temp_file(
		"{\"schema\": \"profreport-model\", \"version\": 1, \"stats\": [], \"ranks\": []}");
	pr_error_init(&err);
	assert_int_equal(pr_agg_merge_file(b, path, &err), -1);
	assert_string_equal(err.text, "not a profreport aggregate");
	unlink(path);
	pr_error_init(&err);
	assert_int_equal(pr_agg_merge_file(b, path, &err), -1);
	assert_int_equal(err.code, PR_E_IO);
	free(path);
	pr_agg_free(b);

	free(w1);
	free(text);
	json_decref(doc);
	pr_agg_free(a);
	pr_agg_free(viajson);
}

/*
 * The console table from the brief document (the rows it shows, null for
 * the rest) is the table from the whole document: 150 ranks, some without
 * GPU ops among the first 64 and after, so both per-rank tables reach their
 * cap. Fails when render/agg_text.c reads more rows than pr_agg_ranks_into
 * keeps.
 */
static char *console(const json_t *doc)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_non_null(f);
	pr_render_agg_text(doc, f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_console_brief(void **state)
{
	struct pr_agg *a = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	json_t *full, *brief;
	char *t1, *t2;
	size_t i, nulls = 0;
	long r;
	(void)state;
	for (r = 0; r < 150; r++) {
		json_t *run = gen_run(r, r == 70 ? 3.0 : 1.0);
		if (r == 3 || (r >= 60 && r < 70) || r == 100 || r == 149)
			json_object_del(run, "gpu_breakdown");
		assert_int_equal(pr_agg_add_model_run(a, run, NULL, NULL, &err), 1);
		json_decref(run);
	}
	full = pr_agg_to_json(a);
	brief = pr_agg_head_json(a);
	assert_non_null(full);
	assert_non_null(brief);
	assert_int_equal(pr_agg_ranks_into(a, brief, 64, &err), 0);
	for (i = 0; i < json_array_size(json_object_get(brief, "ranks")); i++)
		nulls += json_is_null(json_array_get(json_object_get(brief, "ranks"), i));
	/* rows 0-63 (59 with GPU: not 3, 60-63), then GPU rows up to the 65th: 70-75 (64-69 have
	 * none) */
	assert_int_equal(nulls, 150 - 70);
	t1 = console(full);
	t2 = console(brief);
	assert_non_null(strstr(t1, "... and 86 more ranks"));
	assert_non_null(strstr(t1, "... more ranks (see agg.json)"));
	assert_string_equal(t2, t1);
	free(t1);
	free(t2);
	json_decref(full);
	json_decref(brief);
	pr_agg_free(a);
}

/* Heap bytes in use (glibc), or 0 when it cannot be told (another libc, ASan's allocator). */
static size_t heap_used(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33) && !defined(__SANITIZE_ADDRESS__)
	return mallinfo2().uordblks;
#else
	return 0;
#endif
}

/*
 * Memory does not grow with the ranks by more than what the straggler
 * checks need: after 64 ranks, 2000 more leave jansson's live bytes where
 * they were (a row is no tree once folded: the old rows cost about 9 KB a
 * rank) and the heap at most 400 bytes a rank; reading the aggregate's
 * agg.json back holds one row at a time (jansson's peak stays under
 * 512 KB, where the file's 2064 rows as trees take about 19 MB).
 */
static void test_memory_flat(void **state)
{
	enum {
		WARM = 64,
		N = 2000
	};
	struct pr_agg *a = pr_agg_new(), *b = pr_agg_new();
	struct pr_error err = PR_ERROR_INIT;
	size_t live0 = 0, heap0 = 0, heap1, base;
	char *text, *path, *w1, *w2;
	long i;
	(void)state;
	for (i = 0; i < WARM + N; i++) {
		json_t *r = gen_run(i, i == 1000 ? 3.0 : 1.0);
		if (i == WARM) {
			live0 = json_live;
			heap0 = heap_used();
		}
		assert_int_equal(pr_agg_add_model_run(a, r, NULL, NULL, &err), 1);
		json_decref(r);
	}
	heap1 = heap_used();
	print_message("aggregate: jansson live %zu -> %zu bytes; heap %.1f bytes a rank\n", live0,
		      json_live, heap0 ? (double)(heap1 - heap0) / N : NAN);
	assert_true(json_live <= live0 + 1024);
	if (heap0)
		assert_true(heap1 < heap0 + 400 * (size_t)N);
	/* the reduce: the file read back a row at a time */
	text = written(a);
	path = temp_file(text);
	base = json_peak = json_live;
	heap0 = heap_used();
	assert_int_equal(pr_agg_merge_file(b, path, &err), 0);
	heap1 = heap_used();
	print_message("merge_file: jansson peak %zu bytes over %zu; heap %.1f bytes a rank\n",
		      json_peak - base, base, heap0 ? (double)(heap1 - heap0) / (WARM + N) : NAN);
	assert_true(json_peak - base < 512 * 1024);
	assert_true(json_live <= base + 1024);
	if (heap0)
		assert_true(heap1 < heap0 + 400 * (size_t)(WARM + N));
	assert_int_equal(pr_agg_rank_count(b), WARM + N);
	/* the rows came through unchanged */
	w1 = strstr(text, "\n \"ranks\": [");
	w2 = written(b);
	assert_non_null(w1);
	assert_non_null(strstr(w2, "\n \"ranks\": ["));
	assert_string_equal(strstr(w2, "\n \"ranks\": ["), w1);
	free(w2);
	unlink(path);
	free(path);
	free(text);
	pr_agg_free(a);
	pr_agg_free(b);
}

/*
 * pr_agg_run_slim keeps exactly the paths of its table: keys the fold does
 * not read are gone at every depth, array items keep their places (with only
 * the keys read), a path's value is kept whole (critical_path.composition_ns),
 * key order is the run's, and a value whose type is not the one the paths
 * take (a number where they name keys, an object where they name items) is
 * kept as it is, so that what the fold reads of it is the same.
 */
static void test_run_slim(void **state)
{
	static const char run_text[] =
		"{\"zz\": 1, \"source\": \"r.json\", \"rank\": 2, \"format\": \"chrome\","
		" \"clock\": {\"start_ns\": 5, \"duration_ns\": 100, \"synthetic\": false},"
		" \"spans\": {\"rule\": \"r\", \"items\": [{\"name\": \"a\", \"kind\": \"op\","
		" \"count\": 2, \"total_ns\": 10, \"self_ns\": 9, \"per_step_ns\": [4, 6]},"
		" 7, {\"min_ns\": 1}]},"
		" \"critical_path\": {\"steps\": [1], \"length_ns\": 50, \"composition_ns\":"
		" {\"cpu_op\": 20, \"idle\": 30, \"new_class\": {\"x\": 1}}},"
		" \"gpu_breakdown\": {\"rule\": \"r\", \"rank\": {\"span_ns\": 10, \"busy_share\": 1},"
		" \"scopes\": {\"all\": {\"ops\": 3}, \"linked\": {\"ops\": 2, \"t_ns\": 1}}},"
		" \"throughput\": 3, \"peaks\": {\"series\": \"s\"}, \"phases\": []}";
	static const char want_text[] =
		"{\"source\": \"r.json\", \"rank\": 2, \"format\": \"chrome\","
		" \"clock\": {\"duration_ns\": 100},"
		" \"spans\": {\"items\": [{\"name\": \"a\", \"kind\": \"op\", \"count\": 2,"
		" \"total_ns\": 10, \"per_step_ns\": [4, 6]}, 7, {}]},"
		" \"critical_path\": {\"length_ns\": 50, \"composition_ns\":"
		" {\"cpu_op\": 20, \"idle\": 30, \"new_class\": {\"x\": 1}}},"
		" \"gpu_breakdown\": {\"rank\": {\"span_ns\": 10},"
		" \"scopes\": {\"linked\": {\"ops\": 2}}},"
		" \"throughput\": 3, \"peaks\": {\"series\": \"s\"}, \"phases\": []}";
	json_t *run = json_loads(run_text, 0, NULL), *want = json_loads(want_text, 0, NULL);
	json_t *slim;
	char *got, *exp;
	(void)state;
	assert_non_null(run);
	assert_non_null(want);
	slim = pr_agg_run_slim(run);
	got = json_dumps(slim, JSON_COMPACT | JSON_PRESERVE_ORDER);
	exp = json_dumps(want, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(got, exp);
	free(got);
	free(exp);
	json_decref(slim);
	json_decref(want);
	json_decref(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_exact),    cmocka_unit_test(test_sums_and_extrema),
		cmocka_unit_test(test_robust_score),   cmocka_unit_test(test_gpu_idle_rule),
		cmocka_unit_test(test_rank_from_path), cmocka_unit_test(test_inferred_ranks),
		cmocka_unit_test(test_row_roundtrip),  cmocka_unit_test(test_row_nonfinite),
		cmocka_unit_test(test_rank_extremes),  cmocka_unit_test(test_write_streams),
		cmocka_unit_test(test_merge_file),     cmocka_unit_test(test_console_brief),
		cmocka_unit_test(test_memory_flat),    cmocka_unit_test(test_run_slim),
	};
	json_set_alloc_funcs(count_malloc, count_free); /* before any tree: see count_malloc */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
