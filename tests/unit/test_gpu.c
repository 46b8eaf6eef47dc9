/*
 * test_gpu.c - gpu_breakdown, step_breakdown and the collective layers on a
 * hand-made Kineto trace whose every number is derived by hand below.
 *
 * The trace (times in us; CPU thread pid 100, GPU pid 0 with streams 7 and 20):
 *
 *   CPU  ProfilerStep#1 [0, 80]      ProfilerStep#2 [80, 100]
 *        enumerate(DataLoader)#...__next__ [2, 10]     (user annotation)
 *        aten::mm [12, 32]         cudaLaunchKernel [14, 18] corr 1 -> K1
 *                                  cudaLaunchKernel [20, 24] corr 2 -> K2
 *        aten::copy_ [34, 44]      cudaMemcpyAsync  [36, 40] corr 3 -> M1
 *        c10d::allreduce_ [50, 60] nccl:all_reduce (annotation) [51, 59]
 *                                  cudaLaunchKernel [52, 56] corr 4 -> NC
 *        aten::zero_ [62, 68]      cudaMemsetAsync  [63, 65] corr 5 -> MS
 *        aten::add [74, 79.5]      cudaLaunchKernel [76, 79] corr 6 -> K3
 *   s7   K1 gemm_kernel [20, 50]            blocks/SM 0.5,  occupancy 50 %
 *        M1 Memcpy HtoD [60, 68]            1 000 000 bytes
 *        MS Memset [68.02, 75]              4 096 bytes
 *        K3 add_kernel [80, 89]             blocks/SM 2,    occupancy 25 %
 *   s20  K2 dpsk::ep::intranode::dispatch [30, 58]  (DeepEP)  0.25, 10 %
 *        NC ncclKernel_AllReduce [60, 70]   1024 Float, group 2   0.1, 0 %
 *        nccl:all_reduce (gpu_user_annotation) [60, 70]
 *
 * HTA (gpu_breakdown), rank = both streams, span 20 .. 89 = 69 us:
 *   union of all ops  [20,58] + [60,75] + [80,89] = 38 + 15 + 9 = 62 us
 *   compute (K1, K3)  [20,50] + [80,89]            = 39 us
 *   compute + comm    [20,58] + [60,70] + [80,89]  = 57 us -> communication 18 us
 *   memory            62 - 57 = 5 us ([70, 75] of MS)
 *   idle              69 - 62 = 7 us: [58,60] before M1/NC, whose launches (36, 52)
 *                     started before 58 -> other 2 us; [75,80] before K3, launched
 *                     at 76 > 75 -> host wait 5 us
 *   overlap           communication union [30,58] + [60,70] = 38 us, of which
 *                     [30,50] = 20 us under K1 -> 20/38
 *   stream 7          span 20 .. 89 = 69, busy 30 + 8 + 6.98 + 9 = 53.98,
 *                     compute 39, memory 14.98, idle 15.02 us: [50,60] other 10 us
 *                     (M1 launched at 36), [68,68.02] kernel wait 20 ns (< 30 ns,
 *                     MS launched at 63), [75,80] host wait 5 us
 *   stream 20         span 30 .. 70 = 40, busy = communication 38, idle 2 us other
 *   by type           compute 2 ops 39 us, communication 2 ops 28 + 10 = 38 us
 *                     (deepep 28, nccl 10), memory 2 ops 8 + 6.98 = 14.98 us;
 *                     all 91.98 us
 *   memory ops        HtoD 1e6 B / 8 us = 1.25e11 B/s; Memset 4096 B / 6.98 us
 *   top               K1 30, K2 28, NC 10, K3 9, M1 8, MS 6.98 us
 *
 * TensorBoard (step_breakdown): all six launches lie inside ProfilerStep#1's host
 * span [0, 80]; the last op launched there ends at 89, so step 1 = [0, 89]
 * (device-extended); ProfilerStep#2 launched nothing and is the last step:
 * dropped. In [0, 89], first role active wins:
 *   Kernel     K1 + K3                          = 39 us
 *   Memcpy     M1 [60,68]                       =  8 us
 *   Memset     MS [68.02,75]                    =  6.98 us
 *   Comm.      K2 [50,58] + NC [68,68.02]       =  8.02 us  (cumulative 62)
 *   Runtime    [14,18] + [76,79] (the others are under GPU time) = 7 us
 *   DataLoader [2,10]                           =  8 us
 *   CPU Exec   aten::mm [12,14] + [18,20], c10d [58,60], aten::add [75,76] +
 *              [79,79.5]                        =  7.5 us
 *   Other      89 - 62 - 7 - 8 - 7.5            =  4.5 us ([0,2], [10,12], [79.5,80])
 *   GPU util   kernels K1, K2, NC, K3: [20,58] + [60,70] + [80,89] = 57 / 89
 *   SM eff.    min(sum of blocks/SM, 1): [20,30] 0.5, [30,50] 0.75, [50,58] 0.25,
 *              [60,70] 0.1, [80,89] 1 -> 5 + 15 + 2 + 1 + 9 = 32 / 89
 *   occupancy  (50*30 + 10*28 + 0*10 + 25*9) / (30 + 28 + 10 + 9) = 2005 / 77 %
 */
#include "analyze/analyzers.h"
#include "tests/unit/helpers.h"
#include "tests/unit/jpath.h"

#include <math.h>

#include "analyze/actx.h"
#include "analyze/model.h"

static const char trace[] =
	"{\"schemaVersion\": 1, \"traceEvents\": [\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":100,\"tid\":100,\"ts\":0,\"dur\":80},\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__\",\"pid\":100,\"tid\":100,\"ts\":2,\"dur\":8},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":100,\"tid\":100,\"ts\":12,\"dur\":20},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":14,\"dur\":4,\"args\":{\"correlation\":1}},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":20,\"dur\":4,\"args\":{\"correlation\":2}},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::copy_\",\"pid\":100,\"tid\":100,\"ts\":34,\"dur\":10},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemcpyAsync\",\"pid\":100,\"tid\":100,\"ts\":36,\"dur\":4,\"args\":{\"correlation\":3}},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"c10d::allreduce_\",\"pid\":100,\"tid\":100,\"ts\":50,\"dur\":10},\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"nccl:all_reduce\",\"pid\":100,\"tid\":100,\"ts\":51,\"dur\":8},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":52,\"dur\":4,\"args\":{\"correlation\":4}},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::zero_\",\"pid\":100,\"tid\":100,\"ts\":62,\"dur\":6},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemsetAsync\",\"pid\":100,\"tid\":100,\"ts\":63,\"dur\":2,\"args\":{\"correlation\":5}},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":100,\"tid\":100,\"ts\":74,\"dur\":5.5},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":100,\"ts\":76,\"dur\":3,\"args\":{\"correlation\":6}},\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":100,\"tid\":100,\"ts\":80,\"dur\":20},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void gemm_kernel<float>(float*)\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":30,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":1,\"blocks per SM\":0.5,\"est. achieved occupancy %\":50}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void dpsk::ep::intranode::dispatch<8>(int*)\",\"pid\":0,\"tid\":20,\"ts\":30,\"dur\":28,"
	"\"args\":{\"device\":0,\"stream\":20,\"correlation\":2,\"blocks per SM\":0.25,\"est. achieved occupancy %\":10}},\n"
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pinned -> Device)\",\"pid\":0,\"tid\":7,\"ts\":60,\"dur\":8,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":3,\"bytes\":1000000,\"memory bandwidth (GB/s)\":125}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)\",\"pid\":0,\"tid\":20,\"ts\":60,\"dur\":10,"
	"\"args\":{\"device\":0,\"stream\":20,\"correlation\":4,\"blocks per SM\":0.1,\"est. achieved occupancy %\":0,"
	"\"Collective name\":\"allreduce\",\"In msg nelems\":1024,\"Out msg nelems\":1024,\"Group size\":2,\"dtype\":\"Float\","
	"\"Process Group Name\":\"0\",\"Process Group Description\":\"default_pg\",\"Process Group Ranks\":\"[0, 1]\"}},\n"
	"{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"nccl:all_reduce\",\"pid\":0,\"tid\":20,\"ts\":60,\"dur\":10},\n"
	"{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset (Device)\",\"pid\":0,\"tid\":7,\"ts\":68.02,\"dur\":6.98,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":5,\"bytes\":4096}},\n"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void add_kernel<float>(float*)\",\"pid\":0,\"tid\":7,\"ts\":80,\"dur\":9,"
	"\"args\":{\"device\":0,\"stream\":7,\"correlation\":6,\"blocks per SM\":2,\"est. achieved occupancy %\":25}}\n"
	"]}\n";

static json_t *model_opts(const char *text, const char *comm)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *m;
	ingest_text(st, text, "chrome");
	o.timeline_points = 0;
	o.comm_kernels = comm;
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	return m;
}

static void test_hta_breakdown(void **state)
{
	json_t *m = model_opts(trace, NULL), *g = at(m, "runs/0/gpu_breakdown"), *s7, *s20, *v;
	(void)state;
	assert_non_null(g);
	assert_int_equal((int)d(g, "ops"), 6);
	assert_int_equal((int64_t)d(g, "rank/span_ns"), 69000);
	assert_int_equal((int64_t)d(g, "rank/busy_ns"), 62000);
	assert_int_equal((int64_t)d(g, "rank/compute_ns"), 39000);
	assert_int_equal((int64_t)d(g, "rank/communication_ns"), 18000);
	assert_int_equal((int64_t)d(g, "rank/memory_ns"), 5000);
	assert_int_equal((int64_t)d(g, "rank/idle_ns"), 7000);
	near(d(g, "rank/idle_share"), 7.0 / 69, 1e-12);
	assert_int_equal((int64_t)d(g, "idle/host_wait_ns"), 5000);
	assert_int_equal((int64_t)d(g, "idle/kernel_wait_ns"), 0);
	assert_int_equal((int64_t)d(g, "idle/other_ns"), 2000);
	assert_int_equal((int)d(g, "idle/launch_linked_share"), 1);
	/* the DeepEP all-to-all is communication, overlapped 20 of 38 us by K1 */
	assert_int_equal((int64_t)d(g, "overlap/communication_ns"), 38000);
	assert_int_equal((int64_t)d(g, "overlap/overlapped_ns"), 20000);
	near(d(g, "overlap/share"), 20.0 / 38, 1e-12);

	s7 = find(at(g, "streams"), "stream", "7");
	s20 = find(at(g, "streams"), "stream", "20");
	assert_string_equal(s(s7, "device"), "0");
	assert_int_equal((int)d(s7, "ops"), 4);
	assert_int_equal((int64_t)d(s7, "span_ns"), 69000);
	assert_int_equal((int64_t)d(s7, "busy_ns"), 53980);
	assert_int_equal((int64_t)d(s7, "compute_ns"), 39000);
	assert_int_equal((int64_t)d(s7, "communication_ns"), 0);
	assert_int_equal((int64_t)d(s7, "memory_ns"), 14980);
	assert_int_equal((int64_t)d(s7, "idle_ns"), 15020);
	assert_int_equal((int64_t)d(s7, "idle/host_wait_ns"), 5000);
	assert_int_equal((int64_t)d(s7, "idle/kernel_wait_ns"), 20);
	assert_int_equal((int64_t)d(s7, "idle/other_ns"), 10000);
	assert_int_equal((int64_t)d(s20, "span_ns"), 40000);
	assert_int_equal((int64_t)d(s20, "communication_ns"), 38000);
	assert_int_equal((int64_t)d(s20, "idle/other_ns"), 2000);
	/* the busiest stream first */
	assert_string_equal(s(g, "streams/0/stream"), "7");

	v = find(at(g, "kernels/by_type"), "type", "communication");
	assert_int_equal((int)d(v, "count"), 2);
	assert_int_equal((int64_t)d(v, "time_ns"), 38000);
	near(d(v, "share"), 38.0 / 91.98, 1e-12);
	assert_int_equal((int64_t)d(find(at(g, "kernels/by_type"), "type", "compute"), "time_ns"),
			 39000);
	assert_int_equal((int64_t)d(find(at(g, "kernels/by_type"), "type", "memory"), "time_ns"),
			 14980);
	assert_int_equal((int64_t)d(find(at(g, "kernels/communication"), "library", "deepep"),
				    "time_ns"),
			 28000);
	assert_int_equal((int64_t)d(find(at(g, "kernels/communication"), "library", "nccl"),
				    "time_ns"),
			 10000);
	v = find(at(g, "kernels/memory_ops"), "direction", "HtoD");
	assert_int_equal((int64_t)d(v, "bytes"), 1000000);
	near(d(v, "bandwidth_Bps"), 1.25e11, 1);
	v = find(at(g, "kernels/memory_ops"), "direction", "Memset");
	near(d(v, "bandwidth_Bps"), 4096 / 6.98e-6, 1e-3);
	assert_int_equal((int)json_array_size(at(g, "kernels/memory_ops")), 2);

	assert_int_equal((int)json_array_size(at(g, "kernels/top")), 6);
	assert_string_equal(s(g, "kernels/top/0/name"), "void gemm_kernel<float>(float*)");
	assert_string_equal(s(g, "kernels/top/1/library"), "deepep");
	assert_string_equal(s(g, "kernels/top/2/type"), "communication");
	assert_string_equal(s(g, "kernels/top/3/name"), "void add_kernel<float>(float*)");
	assert_string_equal(s(g, "kernels/top/4/type"), "memory");
	assert_int_equal((int64_t)d(g, "kernels/top/5/total_ns"), 6980);
	assert_int_equal((int64_t)d(g, "kernels/top/0/median_ns"), 30000);
	near(d(g, "kernels/top/0/share"), 30 / 91.98, 1e-12);
	near(d(g, "kernels/top/0/mean_blocks_per_sm"), 0.5, 1e-12);
	near(d(g, "kernels/top/3/mean_occupancy_pct"), 25, 1e-12);
	assert_null(at(g, "kernels/others"));
	json_decref(m);
}

static void test_tensorboard_steps(void **state)
{
	json_t *m = model_opts(trace, NULL), *b = at(m, "runs/0/step_breakdown"), *st;
	(void)state;
	assert_non_null(b);
	assert_true(json_is_true(at(b, "device_adjusted")));
	assert_int_equal((int)d(b, "dropped_tail_steps"), 1);
	assert_int_equal((int)json_array_size(at(b, "steps")), 1);
	st = at(b, "steps/0");
	assert_string_equal(s(st, "name"), "ProfilerStep#1");
	assert_int_equal((int64_t)d(st, "t_ns"), 0);
	assert_int_equal((int64_t)d(st, "dur_ns"), 89000);
	assert_int_equal((int64_t)d(st, "host_dur_ns"), 80000);
	assert_int_equal((int)d(st, "gpu_ops"), 6);
	near(d(st, "kernel_ns"), 39000, 1e-6);
	near(d(st, "memcpy_ns"), 8000, 1e-6);
	near(d(st, "memset_ns"), 6980, 1e-6);
	near(d(st, "communication_ns"), 8020, 1e-6);
	near(d(st, "runtime_ns"), 7000, 1e-6);
	near(d(st, "dataloader_ns"), 8000, 1e-6);
	near(d(st, "cpu_exec_ns"), 7500, 1e-6);
	near(d(st, "other_ns"), 4500, 1e-6);
	near(d(st, "gpu_util"), 57.0 / 89, 1e-12);
	near(d(st, "sm_efficiency"), 32.0 / 89, 1e-12);
	near(d(st, "occupancy_pct"), 2005.0 / 77, 1e-9);
	near(d(b, "gpu_utilization"), 57.0 / 89, 1e-12);
	near(d(b, "sm_efficiency"), 32.0 / 89, 1e-12);
	near(d(b, "achieved_occupancy_pct"), 2005.0 / 77, 1e-9);
	near(d(b, "average/dur_ns"), 89000, 1e-6);
	json_decref(m);
}

/*
 * The CPU annotation, its GPU projection, the c10d op, the NCCL kernel and
 * the DeepEP dispatch kernel (communication by the one classification,
 * kclass.h): 5 items of 1 call.
 */
static void test_collective_layers(void **state)
{
	json_t *m = model_opts(trace, NULL), *items = at(m, "runs/0/collectives/items"), *v;
	size_t i, ann = 0;
	(void)state;
	json_array_foreach (items, i, v) {
		assert_int_equal((int)d(v, "calls"), 1);
		if (!strcmp(s(v, "name"), "nccl:all_reduce"))
			ann++;
	}
	assert_int_equal((int)ann, 2);
	assert_int_equal((int)json_array_size(items), 5);
	assert_string_equal(s(find(items, "layer", "cpu_annotation"), "name"), "nccl:all_reduce");
	assert_string_equal(s(find(items, "layer", "gpu_annotation"), "name"), "nccl:all_reduce");
	assert_string_equal(s(find(items, "layer", "cpu_op"), "name"), "c10d::allreduce_");
	v = find(items, "name", "void dpsk::ep::intranode::dispatch<8>(int*)");
	assert_string_equal(s(v, "layer"), "gpu_kernel");
	v = find(items, "name",
		 "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)");
	assert_string_equal(s(v, "layer"), "gpu_kernel");
	assert_string_equal(s(v, "process_group/description"), "default_pg");
	assert_string_equal(s(v, "process_group/ranks"), "[0, 1]");
	assert_int_equal((int64_t)d(v, "longest/dur_ns"), 10000);
	assert_int_equal((int64_t)d(v, "longest/in_nelems"), 1024);
	/* 1024 Float = 4096 B in 10 us */
	near(d(v, "algbw_Bps"), 4096 / 10e-6, 1e-3);
	json_decref(m);
}

/*
 * --comm-kernels "add_kernel": K3 [80, 89] becomes communication (library
 * "user"): compute = K1 = 30 us, compute + comm still 57 us -> communication
 * 27 us; the overlap is unchanged (K3 overlaps nothing): 20 / (38 + 9).
 */
static void test_comm_pattern(void **state)
{
	json_t *m = model_opts(trace, "add_kern[e]l"), *g = at(m, "runs/0/gpu_breakdown");
	(void)state;
	assert_int_equal((int64_t)d(g, "rank/compute_ns"), 30000);
	assert_int_equal((int64_t)d(g, "rank/communication_ns"), 27000);
	near(d(g, "overlap/share"), 20.0 / 47, 1e-12);
	assert_int_equal((int64_t)d(find(at(g, "kernels/communication"), "library", "user"),
				    "count"),
			 1);
	assert_string_equal(s(g, "comm_kernels_pattern"), "add_kern[e]l");
	json_decref(m);
}

static void test_bad_pattern(void **state)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, trace, "chrome");
	o.comm_kernels = "(";
	assert_null(pr_model_build(st, &o, &err));
	assert_int_equal(err.code, PR_E_USAGE);
	assert_non_null(strstr(err.text, "--comm-kernels"));
	pr_store_close(st);
}

/*
 * Medians from the ordered SQL pass (more durations than gpu_breakdown keeps):
 * the same numbers. A trace with one kernel name run 4 times (10, 40, 20, 30
 * us) and one twice (5, 7 us): medians (20 + 30) / 2 = 25 and (5 + 7) / 2 = 6.
 */
static void test_medians_sql(void **state)
{
	static const char t[] =
		"[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"a\",\"pid\":0,\"tid\":7,\"ts\":0,\"dur\":10},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"a\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":40},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"b\",\"pid\":0,\"tid\":7,\"ts\":70,\"dur\":5},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"a\",\"pid\":0,\"tid\":7,\"ts\":80,\"dur\":20},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"b\",\"pid\":0,\"tid\":7,\"ts\":110,\"dur\":7},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"a\",\"pid\":0,\"tid\":7,\"ts\":120,\"dur\":30}]";
	size_t keep = pr_gpubreak_keep_max, round;
	(void)state;
	for (round = 0; round < 2; round++) {
		json_t *m;
		pr_gpubreak_keep_max = round ? 3 : keep;
		m = model_opts(t, NULL);
		assert_string_equal(s(m, "runs/0/gpu_breakdown/kernels/top/0/name"), "a");
		near(d(m, "runs/0/gpu_breakdown/kernels/top/0/median_ns"), 25000, 1e-9);
		near(d(m, "runs/0/gpu_breakdown/kernels/top/1/median_ns"), 6000, 1e-9);
		json_decref(m);
	}
	pr_gpubreak_keep_max = keep;
}

/* No GPU op and no ProfilerStep: neither section (absent data stays absent). */
static void test_cpu_only(void **state)
{
	json_t *m = model_opts("[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,"
			       "\"tid\":1,\"ts\":0,\"dur\":5}]",
			       NULL);
	(void)state;
	assert_null(at(m, "runs/0/gpu_breakdown"));
	assert_null(at(m, "runs/0/step_breakdown"));
	json_decref(m);
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
 * The GPU advice on the trace above (numbers from the header):
 *  - hta.idle_host_wait: idle 7 of 69 us (10.1 % >= 10 %), host wait 5 of 7 (71 % > 50 %);
 *  - hta.comm_overlap: communication 18/69 = 26 % of the span, overlapped 20/38 = 52.6 %,
 *    not below 50 %: silent;
 *  - hta.short_kernels: K1 30 > 4, K2 28 > 4, NC 10 > 4, K3 9 > 3 us: none shorter than
 *    its launch (0 of 4 linked kernels): silent.
 */
static void test_gpu_advice(void **state)
{
	json_t *m = model_opts(trace, NULL), *run = at(m, "runs/0"), *f;
	(void)state;
	f = finding(run, "hta.idle_host_wait");
	assert_non_null(f);
	near(d(f, "evidence/idle_share"), 7.0 / 69, 1e-12);
	near(d(f, "evidence/host_wait_share"), 5.0 / 7, 1e-12);
	assert_null(finding(run, "hta.comm_overlap"));
	assert_int_equal((int)d(run, "gpu/launches/short_kernels/kernels"), 0);
	assert_int_equal((int)d(run, "gpu/launches/short_kernels/of_linked"), 4);
	assert_null(finding(run, "hta.short_kernels"));
	/* 8.02 us of communication kernels per 89 us step: under 10 % */
	assert_null(finding(run, "tensorboard.communication"));
	json_decref(m);
}

/*
 * Synchronous copies in a step (times in us), one step [0, 1000]:
 *   aten::item [100, 400]:  cudaMemcpyAsync [110, 120] then cudaStreamSynchronize
 *                           [125, 385] -> a synchronous copy, 260 us blocked
 *   aten::copy_ [500, 520]: cudaMemcpyAsync [505, 515], no synchronize -> not one
 *   cudaDeviceSynchronize [600, 700] under the step, not under aten::copy_ -> not
 *                           the copy's (a different parent)
 *   aten::to [800, 860]:    cudaMemcpy [800, 850] (a blocking API) -> one, 50 us
 *   after the step: aten::item [1100, 1200] with the same pair -> outside any step
 * -> 2 copies in 1 step, 310 us of 1000 = 31 %, ops aten::item 1, aten::to 1.
 */
static const char sync_trace[] =
	"{\"traceEvents\": [\n"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1000},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::item\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":300},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemcpyAsync\",\"pid\":1,\"tid\":1,\"ts\":110,\"dur\":10,\"args\":{\"correlation\":1}},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaStreamSynchronize\",\"pid\":1,\"tid\":1,\"ts\":125,\"dur\":260},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::copy_\",\"pid\":1,\"tid\":1,\"ts\":500,\"dur\":20},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemcpyAsync\",\"pid\":1,\"tid\":1,\"ts\":505,\"dur\":10,\"args\":{\"correlation\":2}},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaDeviceSynchronize\",\"pid\":1,\"tid\":1,\"ts\":600,\"dur\":100},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::to\",\"pid\":1,\"tid\":1,\"ts\":800,\"dur\":60},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemcpy\",\"pid\":1,\"tid\":1,\"ts\":800,\"dur\":50,\"args\":{\"correlation\":3}},\n"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::item\",\"pid\":1,\"tid\":1,\"ts\":1100,\"dur\":100},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemcpyAsync\",\"pid\":1,\"tid\":1,\"ts\":1110,\"dur\":10,\"args\":{\"correlation\":4}},\n"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaStreamSynchronize\",\"pid\":1,\"tid\":1,\"ts\":1125,\"dur\":60},\n"
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy DtoH (Device -> Pinned)\",\"pid\":0,\"tid\":7,\"ts\":130,\"dur\":10,\"args\":{\"device\":0,\"stream\":7,\"correlation\":1,\"bytes\":4}},\n"
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pinned -> Device)\",\"pid\":0,\"tid\":7,\"ts\":520,\"dur\":10,\"args\":{\"device\":0,\"stream\":7,\"correlation\":2,\"bytes\":4}},\n"
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy DtoH (Device -> Pinned)\",\"pid\":0,\"tid\":7,\"ts\":810,\"dur\":10,\"args\":{\"device\":0,\"stream\":7,\"correlation\":3,\"bytes\":4}},\n"
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy DtoH (Device -> Pinned)\",\"pid\":0,\"tid\":7,\"ts\":1130,\"dur\":10,\"args\":{\"device\":0,\"stream\":7,\"correlation\":4,\"bytes\":4}}\n"
	"]}\n";

static void test_sync_copy(void **state)
{
	json_t *m = model_opts(sync_trace, NULL),
	       *f = finding(at(m, "runs/0"), "nsys.cuda_memcpy_sync");
	(void)state;
	assert_non_null(f);
	assert_int_equal((int)d(f, "evidence/copies"), 2);
	assert_int_equal((int)d(f, "evidence/steps"), 1);
	assert_int_equal((int64_t)d(f, "evidence/blocked_ns"), 310000);
	near(d(f, "evidence/share_of_step"), 0.31, 1e-12);
	assert_string_equal(pr_mstr(at(f, "evidence/ops/0"), "op"), "aten::item");
	assert_string_equal(pr_mstr(at(f, "evidence/ops/1"), "op"), "aten::to");
	assert_null(at(f, "evidence/ops/2"));
	assert_string_equal(
		pr_mstr(f, "message"),
		"2 synchronous copies in 1 step(s) block the host for 31.0% of the step "
		"time (most under aten::item)");
	json_decref(m);
}

/* CUDA runtime calls without any GPU op (a profile whose activities were not
 * collected): the GPU sections say there is nothing linked, and nothing breaks
 * (qsort of no types was undefined behaviour under UBSan). */
static void test_runtime_only(void **state)
{
	static const char text[] =
		"{\"traceEvents\": [\n"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":20},\n"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":5,\"args\":{\"correlation\":1}},\n"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":9,\"dur\":5,\"args\":{\"correlation\":2}}\n"
		"]}\n";
	json_t *m = model_opts(text, NULL), *l = at(m, "runs/0/gpu/launches");
	(void)state;
	if (l) {
		assert_int_equal((int)d(l, "activities"), 0);
		assert_int_equal(json_array_size(json_object_get(l, "by_type")), 0);
		assert_int_equal((int)d(l, "short_kernels/of_linked"), 0);
	}
	assert_null(at(m, "runs/0/recommendations/0/evidence/short_kernels"));
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hta_breakdown),	  cmocka_unit_test(test_tensorboard_steps),
		cmocka_unit_test(test_collective_layers), cmocka_unit_test(test_comm_pattern),
		cmocka_unit_test(test_bad_pattern),	  cmocka_unit_test(test_cpu_only),
		cmocka_unit_test(test_gpu_advice),	  cmocka_unit_test(test_sync_copy),
		cmocka_unit_test(test_runtime_only),	  cmocka_unit_test(test_medians_sql),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
