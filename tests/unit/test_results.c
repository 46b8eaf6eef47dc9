/*
 * test_results.c - what the analyzers publish for later ones (analyze/results.h)
 * carries the numbers their sections have: for samples of every collector the
 * results are read from, each published number equals the one at its key in the
 * run's model (NAN where the model has null or no key), each string the string,
 * each list the list, in order. The numbers themselves are checked against
 * independent derivations in test_model.c and the goldens; this test holds the
 * two views of one analysis together.
 */
#include "tests/unit/helpers.h"

#include <math.h>

#include "analyze/model.h"
#include "analyze/results.h"
#include "base/jsonx.h"

struct seen {
	size_t runs, numbers, finite, items;
};

static void num_is(struct seen *sn, const json_t *o, const char *key, double got)
{
	double want = pr_mnum(o, key);
	sn->numbers++;
	if (isnan(want)) {
		if (!isnan(got))
			fail_msg("%s: model has none, published %.17g", key, got);
		return;
	}
	sn->finite++;
	if (got != want)
		fail_msg("%s: model %.17g, published %.17g", key, want, got);
}

static void str_is(const json_t *o, const char *key, const char *got)
{
	if (strcmp(pr_mstr(o, key), got))
		fail_msg("%s: model '%s', published '%s'", key, pr_mstr(o, key), got);
}

static const json_t *sec(const json_t *o, const char *a, const char *b)
{
	const json_t *v = json_object_get(o, a);
	return b ? json_object_get(v, b) : v;
}

static void check_phases(struct seen *sn, const struct pr_res_phases *r, const json_t *run)
{
	const json_t *occ = sec(run, "phases", "occurrences"), *st = sec(run, "phases", "stages");
	const json_t *v, *m;
	size_t i, j;
	assert_true(r->present);
	assert_int_equal(r->nocc, json_array_size(occ));
	json_array_foreach (occ, i, v) {
		double delta = NAN;
		str_is(v, "name", r->occ[i].name);
		num_is(sn, v, "dur_ns", r->occ[i].dur_ns);
		json_array_foreach (json_object_get(v, "memory"), j, m)
			if (!strcmp(pr_mstr(m, "series"), "mem.rss"))
				delta = json_number_value(json_object_get(m, "delta"));
		assert_true(isnan(delta) ? isnan(r->occ[i].rss_delta)
					 : delta == r->occ[i].rss_delta);
		sn->items++;
	}
	assert_int_equal(r->ntotals, json_array_size(sec(run, "phases", "totals")));
	json_array_foreach (sec(run, "phases", "totals"), i, v) {
		str_is(v, "name", r->totals[i].name);
		num_is(sn, v, "share", r->totals[i].share);
		num_is(sn, v, "union_ns", r->totals[i].union_ns);
		sn->items++;
	}
	assert_int_equal(r->nstages, json_array_size(st));
	json_array_foreach (st, i, v) {
		str_is(v, "name", r->stages[i].name);
		num_is(sn, v, "reported_percentage", r->stages[i].reported_percentage);
		num_is(sn, v, "share_of_wall", r->stages[i].share_of_wall);
		num_is(sn, v, "total_ns", r->stages[i].total_ns);
		sn->items++;
	}
}

static void check_lists(struct seen *sn, const struct pr_results *res, const json_t *run)
{
	const json_t *a = json_object_get(run, "peaks"), *v;
	size_t i;
	assert_int_equal(res->peaks.n, json_array_size(a));
	json_array_foreach (a, i, v) {
		str_is(v, "series", res->peaks.v[i].series);
		num_is(sn, v, "value", res->peaks.v[i].value);
		sn->items++;
	}
	a = json_object_get(run, "fragmentation");
	assert_int_equal(res->fragmentation.n, json_array_size(a));
	json_array_foreach (a, i, v) {
		str_is(v, "device", res->fragmentation.v[i].device);
		num_is(sn, v, "mean_ratio", res->fragmentation.v[i].mean_ratio);
		num_is(sn, v, "max_gap", res->fragmentation.v[i].max_gap);
		sn->items++;
	}
	a = sec(run, "leaks", "items");
	assert_int_equal(res->leaks.n, json_array_size(a));
	str_is(json_object_get(run, "leaks"), "rule", res->leaks.rule);
	json_array_foreach (a, i, v) {
		const struct pr_res_leak *l = &res->leaks.v[i];
		str_is(v, "series", l->series);
		str_is(v, "device", l->device);
		str_is(v, "scope", l->scope);
		str_is(v, "basis", l->basis);
		assert_int_equal(l->leak, json_is_true(json_object_get(v, "leak")));
		num_is(sn, v, "occurrences", l->occurrences);
		num_is(sn, v, "slope_per_occurrence", l->slope_per_occurrence);
		num_is(sn, v, "r2", l->r2);
		num_is(sn, v, "growth", l->growth);
		num_is(sn, v, "min", l->min);
		num_is(sn, v, "max", l->max);
		num_is(sn, v, "values_omitted", l->values_omitted);
		assert_ptr_equal(l->values, json_object_get(v, "values"));
		sn->items++;
	}
}

static void check_throughput(struct seen *sn, const struct pr_res_throughput *r, const json_t *run)
{
	const json_t *b = sec(run, "throughput", "blocks"),
		     *d = sec(run, "throughput", "diffusion");
	const json_t *t = sec(run, "throughput", "tokens"), *s = sec(run, "throughput", "steps");
	const json_t *v;
	size_t i;
	assert_true(r->present);
	num_is(sn, b, "count", r->blocks_count);
	num_is(sn, b, "frames", r->blocks_frames);
	num_is(sn, b, "first_block_ns", r->blocks_first_ns);
	num_is(sn, b, "fps", r->blocks_fps);
	num_is(sn, b, "bps", r->blocks_bps);
	num_is(sn, d, "steps", r->diffusion_steps);
	num_is(sn, d, "steps_per_s", r->diffusion_steps_per_s);
	num_is(sn, d, "frames_per_s", r->diffusion_frames_per_s);
	num_is(sn, t, "tokens_per_s", r->tokens_per_s);
	assert_int_equal(r->nsections, json_array_size(json_object_get(t, "sections")));
	json_array_foreach (json_object_get(t, "sections"), i, v) {
		str_is(v, "section", r->sections[i].section);
		num_is(sn, v, "tokens_per_s", r->sections[i].tokens_per_s);
		num_is(sn, v, "reported_tokens_per_s", r->sections[i].reported_tokens_per_s);
		sn->items++;
	}
	str_is(s, "rule", r->steps_rule);
	num_is(sn, s, "p50_ns", r->steps_p50_ns);
	assert_ptr_equal(r->stragglers, json_object_get(s, "stragglers"));
	assert_int_equal(r->nstragglers, json_array_size(r->stragglers));
	json_array_foreach (json_object_get(s, "stragglers"), i, v)
		num_is(sn, v, "x_median", r->x_median[i]);
}

static void check_bottlenecks(struct seen *sn, const struct pr_res_bottlenecks *r,
			      const json_t *run)
{
	const json_t *mp = sec(run, "bottlenecks", "memory_pressure");
	const json_t *st = sec(run, "bottlenecks", "stages");
	const json_t *gu = sec(run, "bottlenecks", "gpu_util");
	const json_t *k = sec(run, "bottlenecks", "gpu_kernels"), *v;
	size_t i;
	assert_true(r->present);
	str_is(mp, "zones", r->pressure_zones);
	assert_int_equal(r->npressure, json_array_size(json_object_get(mp, "items")));
	json_array_foreach (json_object_get(mp, "items"), i, v) {
		const struct pr_res_pressure *p = &r->pressure[i];
		str_is(v, "series", p->series);
		str_is(v, "device", p->device);
		str_is(v, "basis", p->basis);
		num_is(sn, v, "peak_pct", p->peak_pct);
		num_is(sn, json_object_get(v, "zones"), "high", p->zone_high);
		assert_ptr_equal(p->json, v);
		sn->items++;
	}
	assert_int_equal(r->ngpu_util, json_array_size(gu));
	json_array_foreach (gu, i, v) {
		str_is(v, "device", r->gpu_util[i].device);
		num_is(sn, v, "mean_pct", r->gpu_util[i].mean_pct);
		assert_ptr_equal(r->gpu_util[i].json, v);
		sn->items++;
	}
	str_is(st, "rule", r->stages_rule);
	str_is(st, "basis", r->stages_basis);
	assert_int_equal(r->nstages, json_array_size(json_object_get(st, "items")));
	json_array_foreach (json_object_get(st, "items"), i, v) {
		str_is(v, "name", r->stages[i].name);
		str_is(v, "source", r->stages[i].source);
		num_is(sn, v, "share", r->stages[i].share);
		assert_ptr_equal(r->stages[i].json, v);
		sn->items++;
	}
	assert_ptr_equal(r->gpu_kernels, k);
	str_is(k, "rule", r->gpu_kernels_rule);
	num_is(sn, k, "idle_share", r->idle_share);
	num_is(sn, k, "gaps_over_500ms", r->gaps_over_500ms);
	num_is(sn, k, "max_gap_ns", r->max_gap_ns);
	num_is(sn, k, "chunks", r->chunks);
	num_is(sn, k, "chunks_under_50pct", r->chunks_under_50pct);
}

static void check_gpu(struct seen *sn, const struct pr_results *res, const json_t *run)
{
	const struct pr_res_gpubreak *g = &res->gpubreak;
	const struct pr_res_gpulink *l = &res->gpulink;
	const json_t *gb = json_object_get(run, "gpu_breakdown");
	const json_t *avg = sec(run, "step_breakdown", "average");
	const json_t *sk = sec(sec(run, "gpu", "launches"), "short_kernels", NULL);
	assert_int_equal(g->present, gb != NULL);
	num_is(sn, json_object_get(gb, "rank"), "communication_share", g->rank_communication_share);
	num_is(sn, json_object_get(gb, "rank"), "idle_share", g->rank_idle_share);
	str_is(json_object_get(gb, "overlap"), "rule", g->overlap_rule);
	num_is(sn, json_object_get(gb, "overlap"), "share", g->overlap_share);
	num_is(sn, json_object_get(gb, "overlap"), "communication_ns", g->overlap_communication_ns);
	num_is(sn, json_object_get(gb, "overlap"), "overlapped_ns", g->overlap_overlapped_ns);
	str_is(json_object_get(gb, "idle"), "rule", g->idle_rule);
	num_is(sn, json_object_get(gb, "idle"), "host_wait_share", g->idle_host_wait_share);
	num_is(sn, json_object_get(gb, "idle"), "host_wait_ns", g->idle_host_wait_ns);
	num_is(sn, json_object_get(gb, "idle"), "kernel_wait_share", g->idle_kernel_wait_share);
	assert_int_equal(g->step_average, avg != NULL);
	num_is(sn, avg, "dur_ns", g->step_dur_ns);
	num_is(sn, avg, "kernel_ns", g->step_kernel_ns);
	num_is(sn, avg, "memcpy_ns", g->step_memcpy_ns);
	num_is(sn, avg, "dataloader_ns", g->step_dataloader_ns);
	num_is(sn, avg, "communication_ns", g->step_communication_ns);
	assert_int_equal(l->present, json_object_get(run, "gpu") != NULL);
	str_is(sk, "rule", l->short_rule);
	num_is(sn, sk, "kernels", l->short_kernels);
	num_is(sn, sk, "of_linked", l->short_of_linked);
	num_is(sn, sk, "device_ns", l->short_device_ns);
	num_is(sn, sk, "launch_ns", l->short_launch_ns);
}

static void look(void *arg, const struct pr_results *res, const struct json_t *run)
{
	struct seen *sn = arg;
	sn->runs++;
	check_phases(sn, &res->phases, run);
	check_lists(sn, res, run);
	check_throughput(sn, &res->throughput, run);
	check_bottlenecks(sn, &res->bottlenecks, run);
	check_gpu(sn, res, run);
}

/* Builds the model of one sample with the results hook; returns what was compared. */
static struct seen compare(const char *rel, const char *fmt)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	struct seen sn = { 0 };
	char *p = sample_path(rel);
	json_t *m;
	ingest_ok(st, p, fmt);
	free(p);
	o.timeline_points = 0;
	o.results = look;
	o.results_arg = &sn;
	if (!(m = pr_model_build(st, &o, &err)))
		fail_msg("model: %s", err.text);
	json_decref(m);
	pr_store_close(st);
	assert_int_equal(sn.runs, 1);
	return sn;
}

/* The inputs crosscheck and the Inferix rules read: throughput, stages, pressure. */
static void test_inferix(void **state)
{
	struct seen sn =
		compare("inferix/profiling_report_t2v_generation_20231114_221332.json", "inferix");
	(void)state;
	assert_true(sn.finite >= 20);
	assert_true(sn.items >= 5);
}

/* QEff: phase occurrences with their RSS deltas, the RSS peak. */
static void test_qeff(void **state)
{
	struct seen sn = compare("qeff/qeff_profile.json", "qeff");
	(void)state;
	assert_true(sn.items >= 4);
}

/* Diffulex: token sections. */
static void test_diffulex(void **state)
{
	struct seen sn = compare("diffulex/profile_20250101_120000.json", "diffulex");
	(void)state;
	assert_true(sn.items >= 4);
}

/* MemoryTracer: fragmentation. */
static void test_memtracer(void **state)
{
	struct seen sn = compare("memtracer/memory_timeline.json", "memtracer");
	(void)state;
	assert_true(sn.items >= 1);
}

/* A PyTorch trace with GPU work, steps, memory pressure and fragmentation. */
static void test_torch(void **state)
{
	struct seen sn = compare("torch/trace_rank0.pt.trace.json", "chrome");
	(void)state;
	assert_true(sn.finite >= 30);
}

/* A PyTorch trace whose device memory leaks over the steps. */
static void test_leak(void **state)
{
	struct seen sn = compare("compare/new_op/new.pt.trace.json", "chrome");
	(void)state;
	assert_true(sn.items >= 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inferix),	 cmocka_unit_test(test_qeff),
		cmocka_unit_test(test_diffulex), cmocka_unit_test(test_memtracer),
		cmocka_unit_test(test_torch),	 cmocka_unit_test(test_leak),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
