/*
 * test_gpu_traces.c - gpu_breakdown, step_breakdown and collectives on the real
 * Kineto traces of HolisticTraceAnalysis's test data (tests/data/traces/hta,
 * see its README). Exits 77 (skipped) only in a tree without tests/data/traces.
 *
 * Expected numbers come from three independent places, never from profreport:
 *  - what HTA's own tests assert about these files (README of the traces);
 *  - the values measured independently there (README: GPU busy, overlap,
 *    mean all-reduce);
 *  - tests/tools/gpu_ref.py, a plain Python implementation of HTA's and
 *    TensorBoard's definitions over sorted interval lists, run as
 *    `/usr/bin/python3 tests/tools/gpu_ref.py TRACE` (outputs quoted below).
 */
#include "tests/unit/helpers.h"
#include "tests/unit/jpath.h"
#include "tests/unit/traces.h"

#include <math.h>
#include <sys/stat.h>

#include "analyze/model.h"

static char *trace_path(const char *rel)
{
	char buf[1200];
	struct pr_strbuf sb = PR_STRBUF_INIT;
	pr_strbuf_addf(&sb, "%s/hta/%s", pr_test_traces_dir(buf, sizeof(buf)), rel);
	return pr_strbuf_detach(&sb, NULL);
}

static json_t *model_of(const char *rel)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	char *p = trace_path(rel);
	json_t *m;
	ingest_ok(st, p, "chrome");
	free(p);
	o.timeline_points = 0;
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	return m;
}

/*
 * ns_resolution: README "GPU busy (kernel + memcpy + memset union) 472462 us
 * of 480029 us = 98.42 %". The exact figures, from the decimal text of ts/dur
 * (Python's Decimal), are 472454.441 us busy of 480029.179 us: no two ops of
 * its single stream overlap, so busy is also the plain sum of the 6095
 * durations. 472462 us is what float64 parsing gives (at ~1.7e15 us a double
 * holds ts only to 0.25 us, and 6095 ops add up those errors); both round to
 * 98.42 %, the stated precision.
 * gpu_ref.py: idle host wait 1347125, other 6227613 ns; 4350 compute kernels
 * (468153602 ns), 1745 memory ops; 5 steps, all device-adjusted, TensorBoard
 * GPU utilisation 0.9682245280493429, SM efficiency 0.9492225014954087,
 * occupancy 46.45183770902611 %; ProfilerStep#102: 95736858 ns, kernel
 * 93734470, memcpy 739070, memset 117598, runtime 607784, CPU exec 413718,
 * other 124218.
 */
static void test_ns_resolution(void **state)
{
	json_t *m = model_of("ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
	json_t *g = at(m, "runs/0/gpu_breakdown"), *b = at(m, "runs/0/step_breakdown"), *st;
	(void)state;
	near(100 * d(g, "rank/busy_share"), 98.42, 0.005);
	near(d(g, "rank/span_ns") / 1000, 480029, 0.5);
	assert_int_equal((int64_t)d(g, "rank/busy_ns"), 472454441);
	assert_int_equal((int64_t)d(g, "rank/span_ns"), 480029179);
	assert_int_equal((int64_t)d(g, "idle/host_wait_ns"), 1347125);
	assert_int_equal((int64_t)d(g, "idle/other_ns"), 6227613);
	assert_int_equal((int)d(find(at(g, "kernels/by_type"), "type", "compute"), "count"), 4350);
	assert_int_equal((int64_t)d(find(at(g, "kernels/by_type"), "type", "compute"), "time_ns"),
			 468153602);
	assert_int_equal((int)d(find(at(g, "kernels/by_type"), "type", "memory"), "count"), 1745);
	assert_true(json_is_null(at(g, "overlap/share"))); /* no communication kernel */
	assert_int_equal((int)json_array_size(at(b, "steps")), 5);
	near(d(b, "gpu_utilization"), 0.9682245280493429, 1e-10);
	near(d(b, "sm_efficiency"), 0.9492225014954087, 1e-10);
	near(d(b, "achieved_occupancy_pct"), 46.45183770902611, 1e-8);
	st = find(at(b, "steps"), "name", "ProfilerStep#102");
	assert_int_equal((int64_t)d(st, "dur_ns"), 95736858);
	near(d(st, "kernel_ns"), 93734470, 1e-6);
	near(d(st, "memcpy_ns"), 739070, 1e-6);
	near(d(st, "memset_ns"), 117598, 1e-6);
	near(d(st, "runtime_ns"), 607784, 1e-6);
	near(d(st, "cpu_exec_ns"), 413718, 1e-6);
	near(d(st, "other_ns"), 124218, 1e-6);
	json_decref(m);
}

/*
 * nccl_data (rank 0 of a 2-GPU DDP ResNet). README: GPU busy 23.84 %; NCCL
 * kernel time overlapped by compute kernels 15.6 %; 21 ncclKernel kernels,
 * the longest an all-reduce with In/Out msg nelems 2049000, process group
 * "0" / "default_pg" / "[0, 1]"; mean all-reduce 19.498 MiB.
 * gpu_ref.py: rank span 660551005, compute 115655847, communication
 * 39559468, memory 2284699, idle 503050991 ns (host wait 501050857, other
 * 2000134); overlap 7317025 of 46876493 ns; TensorBoard GPU utilisation
 * 0.23262781242093103, SM efficiency 0.16868843442376666, occupancy
 * 35.31433352279306 %; ProfilerStep#6: communication 18711653, CPU exec
 * 132047574 ns.
 */
static void test_nccl_data(void **state)
{
	json_t *m = model_of("nccl_parser_config/nccl_data.json.gz"), *r = at(m, "runs/0");
	json_t *g = at(r, "gpu_breakdown"), *b = at(r, "step_breakdown"), *items, *v,
	       *longest = NULL;
	size_t i, ann = 0;
	(void)state;
	near(100 * d(g, "rank/busy_share"), 23.84, 0.005);
	near(100 * d(g, "overlap/share"), 15.6, 0.05);
	assert_int_equal((int64_t)d(g, "overlap/overlapped_ns"), 7317025);
	assert_int_equal((int64_t)d(g, "overlap/communication_ns"), 46876493);
	assert_int_equal((int64_t)d(g, "rank/span_ns"), 660551005);
	assert_int_equal((int64_t)d(g, "rank/compute_ns"), 115655847);
	assert_int_equal((int64_t)d(g, "rank/communication_ns"), 39559468);
	assert_int_equal((int64_t)d(g, "rank/memory_ns"), 2284699);
	assert_int_equal((int64_t)d(g, "rank/idle_ns"), 503050991);
	assert_int_equal((int64_t)d(g, "idle/host_wait_ns"), 501050857);
	assert_int_equal((int64_t)d(g, "idle/other_ns"), 2000134);
	/* 21 ncclKernel kernels */
	assert_int_equal((int)d(find(at(g, "kernels/communication"), "library", "nccl"), "count"),
			 21);
	assert_int_equal((int)d(find(at(g, "kernels/by_type"), "type", "communication"), "count"),
			 21);

	items = at(r, "collectives/items");
	json_array_foreach (items, i, v) {
		if (!strcmp(s(v, "layer"), "gpu_kernel") &&
		    (!longest || d(v, "longest/dur_ns") > d(longest, "longest/dur_ns")))
			longest = v;
		if (!strcmp(s(v, "name"), "nccl:all_reduce")) {
			/* 15 CPU annotations and 15 GPU annotations: two items, not 30 calls */
			assert_int_equal((int)d(v, "calls"), 15);
			ann++;
		}
	}
	assert_int_equal((int)ann, 2);
	assert_non_null(longest);
	assert_string_equal(s(longest, "op"), "allreduce");
	assert_int_equal((int)d(longest, "longest/in_nelems"), 2049000);
	assert_int_equal((int)d(longest, "longest/out_nelems"), 2049000);
	assert_string_equal(s(longest, "process_group/name"), "0");
	assert_string_equal(s(longest, "process_group/description"), "default_pg");
	assert_string_equal(s(longest, "process_group/ranks"), "[0, 1]");
	near(d(longest, "bytes_per_call") / 1048576.0, 19.498, 0.0005);

	near(d(b, "gpu_utilization"), 0.23262781242093103, 1e-10);
	near(d(b, "sm_efficiency"), 0.16868843442376666, 1e-10);
	near(d(b, "achieved_occupancy_pct"), 35.31433352279306, 1e-8);
	v = find(at(b, "steps"), "name", "ProfilerStep#6");
	near(d(v, "communication_ns"), 18711653, 1e-6);
	near(d(v, "cpu_exec_ns"), 132047574, 1e-6);
	json_decref(m);
}

/*
 * negative_queue_length (rank 0 of 16, NCCL SendRecv). HTA's tests: 6 streams;
 * 4 memcpy/memset types (Memcpy DtoH, Memcpy HtoD, Memcpy DtoD, Memset);
 * memory bandwidth never negative. gpu_ref.py: overlap 2553000 of 187870000
 * ns; 80 nccl kernels; stream 84: 36 ops, communication 171521000 ns, idle
 * host wait 94810000, other 835309000.
 */
static void test_negative_queue(void **state)
{
	json_t *m = model_of("negative_queue_length_values_check/rank0.json.gz");
	json_t *g = at(m, "runs/0/gpu_breakdown"), *mem = at(g, "kernels/memory_ops"), *v;
	size_t i;
	(void)state;
	assert_int_equal((int)json_array_size(at(g, "streams")), 6);
	assert_int_equal((int)json_array_size(mem), 4);
	find(mem, "direction", "DtoH");
	find(mem, "direction", "HtoD");
	find(mem, "direction", "DtoD");
	find(mem, "direction", "Memset");
	json_array_foreach (mem, i, v)
		assert_true(d(v, "bandwidth_Bps") >= 0);
	assert_int_equal((int64_t)d(g, "overlap/overlapped_ns"), 2553000);
	assert_int_equal((int64_t)d(g, "overlap/communication_ns"), 187870000);
	assert_int_equal((int)d(find(at(g, "kernels/communication"), "library", "nccl"), "count"),
			 80);
	v = find(at(g, "streams"), "stream", "84");
	assert_int_equal((int)d(v, "ops"), 36);
	assert_int_equal((int64_t)d(v, "communication_ns"), 171521000);
	assert_int_equal((int64_t)d(v, "idle/host_wait_ns"), 94810000);
	assert_int_equal((int64_t)d(v, "idle/other_ns"), 835309000);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ns_resolution),
		cmocka_unit_test(test_nccl_data),
		cmocka_unit_test(test_negative_queue),
	};
	char dir[1200];
	if (!pr_test_trace(dir, sizeof(dir), "hta"))
		return 77;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
