/* test_aggregate.c - analyze/aggregate: exact merge, robust straggler score, rank discovery. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include <math.h>

#include "analyze/aggregate.h"
#include "base/strbuf.h"

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
	json_array_append_new(sp, json_pack("{s:s,s:s,s:i,s:f,s:o}", "name", "ncclDevKernel_AllReduce",
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
				  "rank", "span_ns", span, "busy_ns", span - idle, "compute_ns", comp,
				  "communication_ns", comm, "memory_ns", mem, "idle_ns", idle, "idle",
				  "host_wait_ns", hw, "kernel_wait_ns", 0.0, "other_ns", idle - hw,
				  "launch_linked_share", 1.0, "overlap", "communication_ns",
				  comm + 1e6, "overlapped_ns", floor(urand() * 1e6)));
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
		json_object_foreach_safe(j, tmp, k, v) strip(v);
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v) strip(v);
	}
}

static void test_merge_exact(void **state)
{
	enum { N = 37 };
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
		assert_int_equal(pr_agg_add_model_run(i % 3 ? p1 : p2, runs[i], NULL, NULL, &err), 1);
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
	assert_true(json_array_size(json_object_get(json_object_get(all_doc, "stragglers"), "ranks")) ==
		    1);
	{
		/* rank 5 arrived last in 18 of 20 steps (not in step 7, nor in the tie of step 3) */
		const json_t *ar = json_array_get(json_object_get(all_doc, "collective_arrivals"), 0);
		const json_t *top = json_object_get(ar, "last_to_arrive");
		const char *sum = json_string_value(json_object_get(
			json_array_get(json_object_get(json_object_get(all_doc, "stragglers"), "ranks"), 0),
			"summary"));
		assert_string_equal(json_string_value(json_object_get(ar, "name")),
				    "ncclDevKernel_AllReduce");
		assert_int_equal(json_integer_value(json_object_get(ar, "decided")), 20);
		assert_int_equal(json_integer_value(json_object_get(json_array_get(top, 0), "rank")), 5);
		assert_int_equal(json_integer_value(json_object_get(json_array_get(top, 0), "steps")), 18);
		assert_int_equal(json_integer_value(json_array_get(
					 json_object_get(json_object_get(ar, "state"), "rank"), 3)),
				 0);
		/* 37 * P(Binomial(20, 1/37) >= 18) */
		assert_true(json_number_value(json_object_get(ar, "p_value")) < 1e-20);
		assert_non_null(strstr(sum, "last into ncclDevKernel_AllReduce in 18 of 20 steps"));
		/* idle 30 % of the GPU span vs 10 % (rounded), 90 % of it host wait */
		assert_non_null(strstr(sum, "GPU idle 30 % vs a median of 10 %, 90 % of it host wait"));
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
	json_array_foreach(json_object_get(doc, "stats"), i, s)
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
			      (json_int_t)(10 - i), "clock", "duration_ns", 1.0, "reported", "name", "x",
			      "value", v[i], "unit", "");
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
	assert_true(fabs(json_number_value(json_object_get(ev, "z")) - 0.6745 * 19.95 / 0.1) < 1e-6);
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
	json_array_foreach(named, i, r)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? " | " : "",
			 json_string_value(json_object_get(r, "summary")));
	*check = NULL;
	json_array_foreach(json_object_get(json_object_get(doc, "stragglers"), "checks"), i, c)
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
	static const double named[][2] = {
		{ 1.00e8, 0.9e8 }, { 1.05e8, 0.9e8 }, { 0.95e8, 0.9e8 }, { 1.02e8, 0.9e8 }, { 4e8, 3.6e8 }
	};
	/* the same idle, but rank 4's is only 20 % host wait (it waits on something else) */
	static const double other[][2] = {
		{ 1.00e8, 0.9e8 }, { 1.05e8, 0.9e8 }, { 0.95e8, 0.9e8 }, { 1.02e8, 0.9e8 }, { 4e8, 0.8e8 }
	};
	/* 14 % vs a median of 10.2 %: 1.37x and z = 8.5, but 3.8 points: below the floor */
	static const double small[][2] = {
		{ 1.00e8, 0.9e8 }, { 1.05e8, 0.9e8 }, { 0.95e8, 0.9e8 }, { 1.02e8, 0.9e8 }, { 1.4e8, 1.4e8 }
	};
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
	assert_true(fabs(json_number_value(json_object_get(ev, "z")) - 0.6745 * 0.298 / 0.003) < 1e-6);
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
	assert_int_equal(pr_agg_is_collective("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), 1);
	assert_int_equal(pr_agg_is_collective("c10d::allreduce_"), 1);
	assert_int_equal(pr_agg_is_collective("aten::mm"), 0);
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
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(doc, "ranks"), 1), "source")),
			    "x/host-b.json");
	json_decref(doc);
	pr_agg_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_exact),
		cmocka_unit_test(test_sums_and_extrema),
		cmocka_unit_test(test_robust_score),
		cmocka_unit_test(test_gpu_idle_rule),
		cmocka_unit_test(test_rank_from_path),
		cmocka_unit_test(test_inferred_ranks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
