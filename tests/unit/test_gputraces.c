/*
 * test_gputraces.c - the real Kineto traces of tests/data/traces (HTA's test
 * data, see its README) against the numbers HTA's own tests assert and the
 * values measured independently there. Exits 77 (skipped) only in a tree
 * without tests/data/traces (tests/unit/traces.h).
 *
 * HTA's numbers come with its default window (include_last_profiler_step =
 * False): only events before the start of the last ProfilerStep; the model
 * carries them under gpu.annotations.hta_window and each annotation's "hta".
 * Independently (python3, json + decimal over the .gz):
 *   ns_resolution: GPU events (kernel, gpu_memcpy, gpu_memset) whose
 *     correlation is on a CPU event starting before the last ProfilerStep:
 *     4876; of those under the GPU annotation Optimizer.step#SGD.step that
 *     itself starts before it: 27 (3 of its 5 spans, 9 kernels each).
 */
#include "tests/unit/helpers.h"
#include "tests/unit/jpath.h"
#include "tests/unit/traces.h"

#include <math.h>
#include <sys/stat.h>

#include "analyze/model.h"

static char dir[1024];

struct trace {
	struct pr_store *st;
	json_t *model, *run;
};

static void load(struct trace *t, const char *rel, size_t timeline_points)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	char path[1200];
	snprintf(path, sizeof(path), "%s/hta/%s", dir, rel);
	t->st = open_store();
	ingest_ok(t->st, path, "chrome");
	o.timeline_points = timeline_points;
	t->model = pr_model_build(t->st, &o, &err);
	if (!t->model)
		fail_msg("model of %s: %s", rel, err.text);
	t->run = json_array_get(json_object_get(t->model, "runs"), 0);
}

static void unload(struct trace *t)
{
	json_decref(t->model);
	pr_store_close(t->st);
}

/* An integer of the model, exactly (pr_mll goes through a double: epoch ns do not fit). */
static int64_t ival(json_t *o, const char *path)
{
	json_t *v = at(o, path);
	if (!json_is_integer(v))
		fail_msg("%s: not an integer", path);
	return json_integer_value(v);
}

/* The item of a list with that "name". */
static json_t *named(json_t *list, const char *name)
{
	json_t *it;
	size_t i;
	json_array_foreach (list, i, it) {
		if (!strcmp(pr_mstr(it, "name"), name))
			return it;
	}
	fail_msg("no item named '%s'", name);
	return NULL;
}

/* Items of a list (and its "_more" summary's names) whose "hta"."count" is > 0. */
static size_t in_hta_window(json_t *list)
{
	json_t *it;
	size_t i, n = 0;
	json_array_foreach (list, i, it) {
		n += pr_mnum(json_object_get(it, "hta"), "count") > 0;
	}
	return n;
}

static void test_ns_resolution(void **state)
{
	struct trace t;
	json_t *ann;
	(void)state;
	load(&t, "ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 0);
	ann = at(t.run, "gpu/annotations");
	/* HTA: 4876 GPU kernels (with or without an annotation) */
	assert_int_equal(pr_mll(at(ann, "hta_window"), "activities"), 4876);
	/* 3 gpu_user_annotation names, 12 user_annotation names (ProfilerStep#105 is the
	 * last step: outside) */
	assert_null(at(ann, "gpu_more"));
	assert_null(at(ann, "cpu_more"));
	assert_int_equal(in_hta_window(at(ann, "gpu")), 3);
	assert_int_equal(json_array_size(at(ann, "cpu")), 13);
	assert_int_equal(in_hta_window(at(ann, "cpu")), 12);
	/* 27 kernels under Optimizer.step#SGD.step (45 in the whole trace: 5 x 9) */
	assert_int_equal(pr_mll(at(named(at(ann, "gpu"), "Optimizer.step#SGD.step"), "hta"),
				"activities"),
			 27);
	assert_int_equal(pr_mll(named(at(ann, "gpu"), "Optimizer.step#SGD.step"), "activities"),
			 45);
	/* correlation 135139: Memcpy DtoD (Device -> Device), and the GPU annotation it is
	 * attributed to (its parent on the stream) is DistributedDataParallel.forward */
	assert_string_equal(
		qs(t.st,
		   "SELECT s.name || ' | ' || p.kind || ' ' || p.name FROM span_v s "
		   "JOIN span_v p ON p.id = s.parent_id WHERE s.kind IN ('kernel', "
		   "'memcpy', 'memset') AND json_extract(s.args, '$.correlation') = 135139",
		   NULL),
		"Memcpy DtoD (Device -> Device) | gpu_annotation "
		"DistributedDataParallel.forward");
	/* and every activity is linked to its cudaLaunchKernel/cudaMemcpyAsync/cudaMemsetAsync */
	assert_int_equal(pr_mll(at(t.run, "gpu/launches"), "unlinked"), 0);
	assert_int_equal(pr_mll(at(t.run, "gpu/launches"), "linked"), 6095);
	unload(&t);
}

static void test_negative_queue_length(void **state)
{
	struct trace t;
	json_t *it, *v, *x;
	size_t i, j, types = 0;
	(void)state;
	/* every change of the queue, unreduced */
	load(&t, "negative_queue_length_values_check/rank0.json.gz", 100000000);
	assert_int_equal(json_array_size(at(t.run, "gpu/streams/items")), 6);
	json_array_foreach (at(t.run, "gpu/streams/items"), i, it) {
		assert_false(json_is_true(at(it, "queue/timeline/reduced")));
		v = at(it, "queue/timeline/v");
		assert_true(json_array_size(v) > 0);
		json_array_foreach (v, j, x) {
			assert_true(json_integer_value(x) >= 0);
		}
		assert_true(pr_mnum(json_object_get(it, "queue"), "mean") >= 0);
	}
	/* 4 memcpy/memset types: Memcpy DtoH, Memcpy HtoD, Memcpy DtoD, Memset */
	json_array_foreach (at(t.run, "gpu/launches/by_type"), i, it) {
		const char *ty = pr_mstr(it, "type");
		if (!strncmp(ty, "Memcpy", 6) || !strncmp(ty, "Memset", 6))
			types++;
	}
	assert_int_equal(types, 4);
	unload(&t);
}

static void test_triton_start(void **state)
{
	struct trace t;
	(void)state;
	load(&t, "triton_example/triton_example.json.gz", 0);
	/* HTA: trace start = 2413669096090100 ns (ProfilerStep#1) + baseTimeNanoseconds; the
	 * profiler's window starts 353.821 ms earlier and is not the start */
	assert_int_equal(ival(t.run, "clock/epoch_start_ns"),
			 2413669096090100LL + 1727743122000000000LL);
	assert_int_equal(pr_mll(at(t.run, "gpu/launches"), "linked"), 1);
	unload(&t);
}

static void test_df_index_resolver_memory(void **state)
{
	struct trace t;
	json_t *p;
	size_t i;
	int seen = 0;
	int64_t window;
	(void)state;
	load(&t, "df_index_resolver/df_index_resolver.json.gz", 0);
	/* measured: peak Total Allocated 6629508096 B at 226.886 ms after the first event,
	 * which is the profiler's window (kind profiler, not the run's start); peak Total
	 * Reserved 12782141440 B */
	window = qi(t.st, "SELECT min(ts) FROM span WHERE kind = 'profiler'", NULL);
	json_array_foreach (at(t.run, "peaks"), i, p) {
		if (strcmp(pr_mstr(p, "device"), "cuda:1"))
			continue;
		if (!strcmp(pr_mstr(p, "series"), "dev.mem.allocated")) {
			assert_int_equal(pr_mll(p, "value"), 6629508096LL);
			assert_int_equal(ival(t.run, "clock/start_ns") + ival(p, "t_ns") - window,
					 226886000LL);
			seen++;
		} else if (!strcmp(pr_mstr(p, "series"), "dev.mem.reserved")) {
			assert_int_equal(pr_mll(p, "value"), 12782141440LL);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	unload(&t);
}

static void test_rocm(void **state)
{
	struct trace t;
	(void)state;
	load(&t, "amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 0);
	/* 14 kernels and 2 memcpys (HIP), on the device's stream track, type named */
	assert_int_equal(qi(t.st,
			    "SELECT count(*) FROM span s JOIN track k ON k.id = s.track_id "
			    "WHERE s.kind = 'kernel' AND k.kind = 'gpu_stream'",
			    NULL),
			 14);
	assert_string_equal(pr_mstr(at(t.run, "gpu"), "device_type"), "rocm");
	assert_string_equal(pr_mstr(at(t.run, "gpu/streams/items/0"), "device"), "2");
	assert_int_equal(pr_mll(at(t.run, "gpu/launches"), "linked"), 16);
	/* launch overhead per HIP API (python over the file: the calls whose correlation a
	 * GPU event carries): hipLaunchKernel 6626.497 us, hipMemcpyWithStream 95.772,
	 * hipExtModuleLaunchKernel 12.064 */
	assert_string_equal(pr_mstr(at(t.run, "gpu/launches/by_api/0"), "name"), "hipLaunchKernel");
	assert_int_equal(pr_mll(at(t.run, "gpu/launches/by_api/0"), "overhead_total_ns"), 6626497);
	assert_string_equal(pr_mstr(at(t.run, "gpu/launches/by_api/1"), "name"),
			    "hipMemcpyWithStream");
	assert_int_equal(pr_mll(at(t.run, "gpu/launches/by_api/1"), "overhead_total_ns"), 95772);
	assert_int_equal(pr_mll(at(t.run, "gpu/launches/by_api/2"), "overhead_total_ns"), 12064);
	unload(&t);
}

/* The finding with that id in a run's recommendations, or NULL. */
static json_t *finding(json_t *run, const char *id)
{
	json_t *f;
	size_t i;
	json_array_foreach (json_object_get(run, "recommendations"), i, f) {
		if (!strcmp(pr_mstr(f, "id"), id))
			return f;
	}
	return NULL;
}

/*
 * GPU advice on real traces. Short kernels, independently (python3 over the
 * .gz: kernels whose "correlation" names a cuda_runtime/cuda_driver call, and
 * of those the ones with kernel dur < call dur):
 *   nccl_data  2700 linked, 1027 short, 3827.073 us of kernels, 10367.541 us of calls
 *   amd_trace  14 linked, 8 short (40.961 / 6606.32 us)
 * Overlap: the traces README measures 15.6 % of NCCL kernel time under compute
 * kernels on nccl_data (communication 6.0 % of the span: material).
 * Synchronous copies: amd_trace's two hipMemcpyWithStream calls (blocking HIP
 * copies, 95.772 us together, see test_rocm) lie in ProfilerStep#1, under
 * aten::copy_; negative_queue_length's 75 cudaMemcpyAsync + cudaStreamSynchronize
 * pairs under aten::copy_ block 2799 us of 1 074 033 us of steps (0.26 %): below 1 %.
 */
static void test_gpu_advice(void **state)
{
	struct trace t;
	json_t *f;
	(void)state;
	load(&t, "nccl_parser_config/nccl_data.json.gz", 0);
	assert_int_equal(ival(t.run, "gpu/launches/short_kernels/of_linked"), 2700);
	assert_int_equal(ival(t.run, "gpu/launches/short_kernels/kernels"), 1027);
	assert_int_equal(ival(t.run, "gpu/launches/short_kernels/device_ns"), 3827073);
	assert_int_equal(ival(t.run, "gpu/launches/short_kernels/launch_ns"), 10367541);
	assert_null(finding(t.run, "hta.short_kernels")); /* 38 % of the kernels */
	f = finding(t.run, "hta.comm_overlap");
	assert_non_null(f);
	assert_true(fabs(pr_mnum(json_object_get(f, "evidence"), "overlap_share") - 0.156) <
		    0.0005);
	assert_non_null(finding(t.run, "hta.idle_host_wait"));
	unload(&t);

	load(&t, "amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 0);
	assert_int_equal(ival(t.run, "gpu/launches/short_kernels/kernels"), 8);
	assert_int_equal(ival(t.run, "gpu/launches/short_kernels/of_linked"), 14);
	assert_non_null(finding(t.run, "hta.short_kernels"));
	f = finding(t.run, "nsys.cuda_memcpy_sync");
	assert_non_null(f);
	assert_int_equal((int64_t)pr_mnum(json_object_get(f, "evidence"), "copies"), 2);
	assert_int_equal((int64_t)pr_mnum(json_object_get(f, "evidence"), "blocked_ns"), 95772);
	assert_string_equal(pr_mstr(at(f, "evidence/ops/0"), "op"), "aten::copy_");
	unload(&t);

	load(&t, "negative_queue_length_values_check/rank0.json.gz", 0);
	assert_null(finding(t.run, "nsys.cuda_memcpy_sync"));
	unload(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ns_resolution),
		cmocka_unit_test(test_negative_queue_length),
		cmocka_unit_test(test_triton_start),
		cmocka_unit_test(test_df_index_resolver_memory),
		cmocka_unit_test(test_rocm),
		cmocka_unit_test(test_gpu_advice),
	};
	if (!pr_test_trace(dir, sizeof(dir), ""))
		return 77;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
