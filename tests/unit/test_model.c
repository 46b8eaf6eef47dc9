/*
 * test_model.c - the analysis model against numbers computed by hand (or
 * by a few lines of Python over the sample files, written out in the
 * comments), never copied from the program's output.
 */
#include "tests/unit/helpers.h"
#include "tests/unit/jpath.h"

#include <fcntl.h>
#include <math.h>

#include "analyze/model.h"
#include "analyze/spanstat.h"
#include "base/strbuf.h"
#include "render/html_report.h"
#include "render/text_report.h"
#include "tests/unit/text_of.h"

/* LeakSanitizer: fontconfig (under Cairo's toy fonts, for the HTML report's
 * panels) keeps its caches for the process. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

static json_t *model_of(const char *const *rel, size_t n, const char *fmt)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *m;
	size_t i;
	for (i = 0; i < n; i++) {
		char *p = sample_path(rel[i]);
		ingest_ok(st, p, fmt);
		free(p);
	}
	o.timeline_points = 0;
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	return m;
}

static json_t *model_text(const char *text, const char *fmt)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *m;
	ingest_text(st, text, fmt);
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	return m;
}

/*
 * QEff sample: max(rss_memory) = 2480.8680905176807 MiB at timestamps[i] =
 * 4.9383 s after the first sample; the operations put 4.938 s inside
 * "Compilation" (marked 09:26:56.351693, next mark 09:26:58.581893, first
 * sample 09:26:53.589793 -> [2.7619, 4.9921] s). The report's own
 * "Peak during: Compilation" agrees.
 */
static void test_qeff(void **state)
{
	const char *in[] = { "qeff/qeff_profile.json" };
	json_t *m = model_of(in, 1, "qeff"), *r = at(m, "runs/0"), *pk;
	(void)state;
	pk = find(at(r, "peaks"), "series", "mem.rss");
	near(d(pk, "value") / 1048576.0, 2480.8680905176807, 1e-6);
	near(d(pk, "t_ns") / 1e9, 4.9383, 1e-3);
	assert_string_equal(s(pk, "phase/name"), "Compilation");
	/* Export is marked twice: two occurrences, totalled once per name */
	assert_int_equal((int)d(find(at(r, "phases/totals"), "name", "Export"), "count"), 2);
	/*
	 * Its reported phase delta is the last occurrence's: QEff's -86.96 MiB (its start sample
	 * estimated) against rss[104] - rss[94] = -99.51 MiB (the last sample before the phase,
	 * python3): they differ; Model Loading's 1423.15 MiB (rss[31] - rss[0]) agrees.
	 */
	assert_true(json_is_false(
		at(find(at(r, "crosscheck"), "topic", "phase 'Export' RSS delta (last occurrence)"),
		   "agree")));
	assert_true(json_is_true(
		at(find(at(r, "crosscheck"), "topic", "phase 'Model Loading' RSS delta"),
		   "agree")));
	/*
	 * Disk I/O of the first Export (marked 1.6468 s after the first sample,
	 * ended by Compilation at 2.7619 s): each interval's increase goes to the
	 * phase of its closing sample, so it is the cumulative disk_write_bytes
	 * at Export's last sample (index 52) minus at the last sample before it
	 * (index 31), (w[52] - w[31]) * 2^20 = 306011936.5 bytes (python3 over the
	 * sample: the samples with 1.6468 <= t < 2.7619 are 32..52).
	 */
	near(d(find(at(r, "phases/occurrences"), "name", "Export"), "disk/write"), 306011936.5,
	     0.5);
	/* Model Loading observed samples 1..31 (marked 0.0007 s, after sample 0): its RSS change
	 * is rss[31] - rss[0] = 1423.1534 MiB = 1492282754.6 bytes (python3) */
	near(d(at(find(at(r, "phases/occurrences"), "name", "Model Loading"), "memory/0"), "delta"),
	     1492282754.6, 0.5);
	json_decref(m);
}

/*
 * QNN sample: used = total_memory_kb - free_memory_kb; max = 20990247 kB
 * (21494012928 bytes) at 21.015 s; 20990247 / 24683620 = 85.037 %;
 * pressure of the 60 rows: 46 < 70 %, 6 in 70-85 %, 8 >= 85 % (0.7667,
 * 0.1, 0.1333); mean 45.328 %.
 */
static void test_qnn(void **state)
{
	const char *in[] = { "qnn/memory_20241219_143000.csv" };
	json_t *m = model_of(in, 1, "qnn-csv"), *r = at(m, "runs/0"), *p;
	(void)state;
	near(d(find(at(r, "peaks"), "series", "sys.mem.used"), "value"), 21494012928.0, 0.5);
	p = find(at(r, "bottlenecks/memory_pressure/items"), "series", "sys.mem.used");
	near(d(p, "peak_pct"), 85.03715014248316, 1e-6);
	near(d(p, "mean_pct"), 45.32778775290387, 1e-6);
	near(d(p, "zones/low"), 46.0 / 60, 1e-9);
	near(d(p, "zones/medium"), 6.0 / 60, 1e-9);
	near(d(p, "zones/high"), 8.0 / 60, 1e-9);
	assert_string_equal(s(r, "recommendations/0/id"), "profreport.memory_pressure");
	json_decref(m);
}

/*
 * Inferix report: blocks 986.25 + 1000.25 ms with block_size 3 each:
 * FPS = 6 / 1.9865 = 3.020387616, BPS = 2 / 1.9865 = 1.006795872.
 * Diffusion steps: 8 steps, 1961.5 ms: steps/s = 4.078511343 (Inferix's
 * "bps"); frames of distinct blocks / step time = 6 / 1.9615 = 3.058883508
 * while Inferix's fps counts 24 frame-steps: 12.2355. Stage shares of the
 * 5.7365 s session: model_loading 2.0 / 5.7365 = 0.348644644 (Inferix
 * prints 26.76 %, dividing by the 7.473 s sum of nested stage totals).
 * Energy: sum(power) = 1626.5 W over 12 samples 0.5 s apart ->
 * 1626.5 * 0.75 / 3600 ... = 0.338854167 Wh; Inferix writes 4.06625.
 */
static void test_inferix(void **state)
{
	const char *in[] = { "inferix/profiling_report_t2v_generation_20231114_221332.json" };
	json_t *m = model_of(in, 1, "inferix"), *r = at(m, "runs/0"), *c;
	(void)state;
	near(d(r, "throughput/blocks/fps"), 3.020387616410773, 1e-9);
	near(d(r, "throughput/blocks/bps"), 1.0067958721369243, 1e-9);
	near(d(r, "throughput/diffusion/steps_per_s"), 4.078511343359674, 1e-9);
	near(d(r, "throughput/diffusion/frames_per_s"), 3.0588835075197554, 1e-9);
	near(d(r, "throughput/diffusion/frame_steps_per_s"), 24 / 1.9615, 1e-9);
	near(d(find(at(r, "phases/stages"), "name", "model_loading"), "share_of_wall"),
	     0.34864464394665734, 1e-9);
	c = find(at(r, "crosscheck"), "topic", "total energy (power_analysis.total_energy_wh)");
	near(d(c, "recomputed"), 0.3388541666666667, 1e-9);
	near(d(c, "reported"), 4.06625, 1e-9);
	assert_true(json_is_false(at(c, "agree")));
	assert_true(json_is_true(
		at(find(at(r, "crosscheck"), "topic", "block FPS (block_analysis.fps)"), "agree")));
	/* GPU data present: no "utilization 0 %" advice from missing data */
	assert_int_equal(json_array_size(at(r, "recommendations")) > 0, 1);
	json_decref(m);
}

/*
 * MemoryTracer timeline: mean over the 18 events of (reserved - allocated)
 * / reserved = 0.24936868686868685; max gap 20971520 bytes. The file's
 * summary.avg_fragmentation 0.1335 uses inactive_split / reserved.
 */
static void test_memtracer(void **state)
{
	const char *in[] = { "memtracer/memory_timeline.json" };
	json_t *m = model_of(in, 1, "memtracer"), *r = at(m, "runs/0");
	(void)state;
	near(d(r, "fragmentation/0/mean_ratio"), 0.24936868686868685, 1e-12);
	near(d(r, "fragmentation/0/max_gap"), 20971520, 0);
	assert_int_equal((int)d(r, "fragmentation/0/samples"), 18);
	assert_int_equal(json_array_size(at(r, "fragmentation/0/layers")), 4);
	json_decref(m);
}

/*
 * Diffulex JSON: tokens 1000 (batch_0, 0.020144275 s) and 512 (batch_1,
 * 0.25 s): 1512 / 0.270144275 = 5597.009227754 tokens/s; the collector's
 * 3594.99 divides by all four sections (0.420585158 s).
 */
static void test_diffulex(void **state)
{
	const char *in[] = { "diffulex/profile_20250101_120000.json" };
	json_t *m = model_of(in, 1, "diffulex"), *r = at(m, "runs/0");
	(void)state;
	near(d(r, "throughput/tokens/tokens_per_s"), 5597.009227754174, 1e-6);
	near(d(r, "throughput/tokens/reported_tokens_per_s"), 1512 / 0.42058515800005107, 1e-6);
	json_decref(m);
}

/*
 * A torch-like trace built so the answers are known: 6 steps of 10 ms
 * except step 4 (40 ms); allocated memory at each step end grows by
 * 8 MiB (a leak); reserved is twice allocated (fragmentation 50 %).
 */
static void test_designed_trace(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m, *r, *st, *lk;
	int i;
	int64_t t = 0;
	(void)state;
	pr_strbuf_addstr(&sb, "{\"traceEvents\":[");
	for (i = 0; i < 6; i++) {
		int64_t dur = i == 4 ? 40000 : 10000; /* us */
		double alloc = (double)(100 + 8 * i) * 1048576.0;
		pr_strbuf_addf(
			&sb,
			"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%d\","
			"\"pid\":1,\"tid\":1,\"ts\":%lld,\"dur\":%lld},",
			i, (long long)t, (long long)dur);
		pr_strbuf_addf(
			&sb,
			"{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"name\":\"[memory]\",\"s\":\"t\","
			"\"pid\":1,\"tid\":1,\"ts\":%lld,\"args\":{\"Device Type\":1,\"Device Id\":0,"
			"\"Addr\":1,\"Bytes\":8388608,\"Total Allocated\":%.0f,\"Total Reserved\":%.0f}},",
			(long long)(t + dur - 1), alloc, 2 * alloc);
		t += dur;
	}
	pr_strbuf_addstr(
		&sb,
		"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"python\"}}]}");
	m = model_text(sb.buf, "chrome");
	pr_strbuf_release(&sb);
	r = at(m, "runs/0");
	st = at(r, "throughput/steps");
	/* durations 10,10,10,10,40,10 ms: median 10 ms, MAD 0 -> mean-abs-dev fallback */
	assert_int_equal((int)d(st, "count"), 6);
	near(d(st, "p50_ns"), 10e6, 0);
	near(d(st, "mean_ns"), 15e6, 0);
	assert_int_equal(json_array_size(at(st, "stragglers")), 1);
	assert_string_equal(s(st, "stragglers/0/name"), "ProfilerStep#4");
	near(d(st, "stragglers/0/x_median"), 4.0, 1e-12);
	lk = find(at(r, "leaks/items"), "series", "dev.mem.allocated");
	assert_true(json_is_true(at(lk, "leak")));
	near(d(lk, "slope_per_occurrence"), 8388608.0, 1e-3);
	near(d(lk, "r2"), 1.0, 1e-12);
	near(d(r, "fragmentation/0/mean_ratio"), 0.5, 1e-12);
	assert_non_null(find(at(r, "recommendations"), "id", "profreport.leak"));
	assert_non_null(find(at(r, "recommendations"), "id", "profreport.fragmentation"));
	assert_non_null(find(at(r, "recommendations"), "id", "profreport.straggling_step"));
	json_decref(m);
}

/*
 * Collectives with Kineto's args, computed by hand:
 *  all-reduce: 3 calls of 2 ms, 50 M BFloat16 (2 B) = 1e8 B per call; algbw = 3e8 B / 6 ms =
 *    5e10 B/s; busbw = 5e10 x 2 x 7/8 = 8.75e10 (group of 8).
 *  all-gather: 1 call of 1 ms, Float, in 1 M, out 8 M -> 3.2e7 B; algbw 3.2e10; busbw x 7/8 = 2.8e10.
 *  a collective with an unknown dtype has time but no bytes; aten::mm is no collective.
 * samples/ranks rank 2 (make_ranks.py): 20 all-reduces of 125 M Float = 1e10 B in 100 ms (it
 * arrives last, so its calls are the 5 ms transfer): algbw 1e11, busbw 1.5e11 (group of 4).
 */
static void test_collectives(void **state)
{
	static const char *const rank2[] = { "ranks/rank2.pt.trace.json" };
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m, *items, *c;
	size_t i;
	(void)state;
	pr_strbuf_addstr(&sb, "{\"traceEvents\":[");
	for (i = 0; i < 3; i++)
		pr_strbuf_addf(
			&sb,
			"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_bf16\","
			"\"pid\":0,\"tid\":20,\"ts\":%d,\"dur\":2000,\"args\":{\"Collective name\":"
			"\"allreduce\",\"dtype\":\"BFloat16\",\"In msg nelems\":50000000,"
			"\"Out msg nelems\":50000000,\"Group size\":8}},",
			(int)i * 10000);
	pr_strbuf_addstr(
		&sb,
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllGather_RING_LL\","
		"\"pid\":0,\"tid\":20,\"ts\":40000,\"dur\":1000,\"args\":{\"Collective name\":"
		"\"allgather\",\"dtype\":\"Float\",\"In msg nelems\":1000000,"
		"\"Out msg nelems\":8000000,\"Group size\":8}},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_Broadcast_odd\","
		"\"pid\":0,\"tid\":20,\"ts\":50000,\"dur\":500,\"args\":{\"Collective name\":"
		"\"broadcast\",\"dtype\":\"Quantum\",\"In msg nelems\":10}},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":0,\"tid\":1,"
		"\"ts\":0,\"dur\":100}]}");
	m = model_text(sb.buf, "chrome");
	pr_strbuf_release(&sb);
	items = at(m, "runs/0/collectives/items");
	assert_int_equal(json_array_size(items), 3);
	c = find(items, "name", "ncclDevKernel_AllReduce_Sum_bf16");
	assert_string_equal(s(c, "op"), "allreduce");
	assert_string_equal(s(c, "dtype"), "BFloat16");
	near(d(c, "calls"), 3, 0);
	near(d(c, "bytes_per_call"), 1e8, 0);
	near(d(c, "algbw_Bps") / 5e10, 1, 1e-12);
	near(d(c, "busbw_Bps") / 8.75e10, 1, 1e-12);
	assert_string_equal(s(c, "busbw_factor"), "2(n-1)/n");
	c = find(items, "name", "ncclDevKernel_AllGather_RING_LL");
	near(d(c, "bytes"), 3.2e7, 0);
	near(d(c, "algbw_Bps") / 3.2e10, 1, 1e-12);
	near(d(c, "busbw_Bps") / 2.8e10, 1, 1e-12);
	c = find(items, "name", "ncclDevKernel_Broadcast_odd");
	near(d(c, "time_ns"), 500000, 0);
	assert_null(json_object_get(c, "bytes"));
	json_array_foreach (items, i, c) /* aten::mm is none of the 3 */
		assert_string_not_equal(s(c, "name"), "aten::mm");
	json_decref(m);

	m = model_of(rank2, 1, "chrome");
	c = find(at(m, "runs/0/collectives/items"), "name",
		 "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
	near(d(c, "calls"), 20, 0);
	near(d(c, "bytes"), 1e10, 0);
	near(d(c, "time_ns"), 1e8, 0);
	near(d(c, "algbw_Bps") / 1e11, 1, 1e-12);
	near(d(c, "busbw_Bps") / 1.5e11, 1, 1e-12);
	near(d(c, "group_size"), 4, 0);
	json_decref(m);
}

static char *html_report(json_t *m)
{
	struct pr_output out;
	struct pr_error err = PR_ERROR_INIT;
	size_t len;
	char *html;
	pr_output_init_memory(&out);
	assert_int_equal(pr_html_report(m, NULL, 0, &out, &err), 0);
	html = strdup(pr_output_data(&out, &len));
	pr_output_release(&out);
	return html;
}

/* Every line of a text report fits 80 columns (bytes; the reports are ASCII but for the degree sign). */
static void assert_80_columns(const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		if (n > 80)
			fail_msg("line over 80 columns: %.*s", (int)n, text);
		text += n + (text[n] == '\n');
	}
}

/* How many recommendations of this id the run has. */
static size_t count_id(json_t *recs, const char *id)
{
	json_t *v;
	size_t i, n = 0;
	json_array_foreach (recs, i, v)
		n += !strcmp(s(v, "id"), id);
	return n;
}

static size_t count_prefix(json_t *recs, const char *prefix)
{
	json_t *v;
	size_t i, n = 0;
	json_array_foreach (recs, i, v)
		n += !strncmp(s(v, "id"), prefix, strlen(prefix));
	return n;
}

/*
 * A training loop as torch.profiler (Kineto) writes it: 30 ProfilerStep#i
 * of 10 ms, each with user annotations forward (6 ms: 60 % of the run),
 * backward and optimizer, and [memory] events on cuda:0 whose "Total
 * Allocated" grows by 1 MiB per step (a list that keeps one tensor per
 * step); reserved is twice allocated. The leak shows over the steps and in
 * each of the 3 phases, for both allocated and reserved: 8 analysis items,
 * but 2 root causes (one per series and device), so 2 leak findings.
 * Evidence of the step basis: 30 values 101 .. 130 MiB (the value at each
 * step's end), shown as the first 10 (101 .. 110) and the last 10
 * (121 .. 130), 10 omitted. The 60 % forward phase is no Inferix stage and
 * no bottleneck (the step's structure).
 */
static void test_leak_one_finding(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m, *r, *recs, *lk, *ev, *v;
	char *txt;
	size_t i;
	int k;
	(void)state;
	pr_strbuf_addstr(&sb, "{\"schemaVersion\": 1, \"traceEvents\": [\n");
	for (k = 0; k < 30; k++) {
		long long t = 1000000LL + 10000LL * k; /* us */
		double base = (100.0 + k) * 1048576.0;
		pr_strbuf_addf(
			&sb,
			"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", "
			"\"pid\": 7, \"tid\": 7, \"ts\": %lld, \"dur\": 10000, \"args\": {}},\n"
			"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"forward\", "
			"\"pid\": 7, \"tid\": 7, \"ts\": %lld, \"dur\": 6000, \"args\": {}},\n"
			"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"backward\", "
			"\"pid\": 7, \"tid\": 7, \"ts\": %lld, \"dur\": 2900, \"args\": {}},\n"
			"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"optimizer\", "
			"\"pid\": 7, \"tid\": 7, \"ts\": %lld, \"dur\": 900, \"args\": {}},\n",
			k, t, t + 100, t + 6100, t + 9000);
		/* in forward (+4 MiB activations), backward (+2 MiB), optimizer (+1 MiB), step end */
		pr_strbuf_addf(
			&sb,
			"{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
			"\"pid\": 7, \"tid\": 7, \"ts\": %lld, \"args\": {\"Device Type\": 1, \"Device Id\": 0, "
			"\"Addr\": 1, \"Bytes\": 1, \"Total Allocated\": %.0f, \"Total Reserved\": %.0f}},\n"
			"{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
			"\"pid\": 7, \"tid\": 7, \"ts\": %lld, \"args\": {\"Device Type\": 1, \"Device Id\": 0, "
			"\"Addr\": 1, \"Bytes\": 1, \"Total Allocated\": %.0f, \"Total Reserved\": %.0f}},\n"
			"{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
			"\"pid\": 7, \"tid\": 7, \"ts\": %lld, \"args\": {\"Device Type\": 1, \"Device Id\": 0, "
			"\"Addr\": 1, \"Bytes\": 1, \"Total Allocated\": %.0f, \"Total Reserved\": %.0f}},\n"
			"{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
			"\"pid\": 7, \"tid\": 7, \"ts\": %lld, \"args\": {\"Device Type\": 1, \"Device Id\": 0, "
			"\"Addr\": 1, \"Bytes\": 1, \"Total Allocated\": %.0f, \"Total Reserved\": %.0f}},\n",
			t + 1000, base + 4 * 1048576.0, 2 * (base + 4 * 1048576.0), t + 8000,
			base + 2 * 1048576.0, 2 * (base + 2 * 1048576.0), t + 9500,
			base + 1048576.0, 2 * (base + 1048576.0), t + 9999, base + 1048576.0,
			2 * (base + 1048576.0));
		/* host memory that does not grow (checked, no leak) */
		pr_strbuf_addf(
			&sb,
			"{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
			"\"pid\": 7, \"tid\": 7, \"ts\": %lld, \"args\": {\"Device Type\": 0, \"Device Id\": -1, "
			"\"Addr\": 2, \"Bytes\": 1, \"Total Allocated\": %d, \"Total Reserved\": 0}},\n",
			t + 5000, 4096 * (1 + k % 2));
	}
	pr_strbuf_addstr(
		&sb,
		"{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 7, \"args\": {\"name\": \"python\"}}\n"
		"], \"deviceProperties\": []}\n");
	m = model_text(sb.buf, "chrome");
	pr_strbuf_release(&sb);
	r = at(m, "runs/0");
	recs = at(r, "recommendations");
	/* the analysis keeps one item per basis: steps + 3 phases, for 2 series */
	k = 0;
	json_array_foreach (at(r, "leaks/items"), i, v)
		k += json_is_true(json_object_get(v, "leak"));
	assert_int_equal(k, 8);
	assert_true(json_is_false(at(find(at(r, "leaks/items"), "device", "cpu"), "leak")));
	/* the findings: one per series and device */
	assert_int_equal((int)count_id(recs, "profreport.leak"), 2);
	lk = find(recs, "id", "profreport.leak");
	ev = at(lk, "evidence");
	assert_string_equal(s(ev, "series"), "dev.mem.allocated");
	assert_string_equal(s(ev, "device"), "cuda:0");
	assert_string_equal(s(ev, "basis"), "steps");
	near(d(ev, "slope_per_occurrence"), 1048576.0, 1e-3);
	assert_int_equal((int)d(ev, "n"), 30);
	near(d(ev, "min"), 101 * 1048576.0, 0);
	near(d(ev, "max"), 130 * 1048576.0, 0);
	assert_int_equal(json_array_size(at(ev, "values")), 20);
	near(d(ev, "values/9"), 110 * 1048576.0, 0);
	near(d(ev, "values/10"), 121 * 1048576.0, 0);
	assert_int_equal((int)d(ev, "values_omitted"), 10);
	assert_int_equal(json_array_size(at(ev, "bases")), 4);
	assert_string_equal(s(lk, "message"),
			    "dev.mem.allocated on cuda:0 grows by 1.0 MiB per step (R^2 1.00, 30 "
			    "occurrences); also across phase 'forward', phase 'backward', phase "
			    "'optimizer'");
	/* the analysis items are bounded the same way */
	assert_int_equal(json_array_size(
				 at(find(at(r, "leaks/items"), "basis", "steps"), "values")),
			 20);
	/* the summary: one line per leaking series, within 80 columns */
	txt = text_of(m);
	assert_80_columns(txt);
	assert_non_null(strstr(
		txt,
		"  dev.mem.allocated cuda:0 grows 1.00 MiB per step (R^2 1.00, 30 occurrences);\n"
		"  also per phase 'forward', phase 'backward', phase 'optimizer'\n"));
	assert_null(strstr(strstr(txt, "dev.mem.allocated cuda:0 grows") + 1,
			   "dev.mem.allocated cuda:0 grows"));
	free(txt);
	/* an ordinary PyTorch forward pass is no Inferix stage, and no bottleneck: the step's
	 * structure (6000 of each step's 10000 us) */
	assert_int_equal(json_array_size(at(r, "bottlenecks/stages/items")), 0);
	near(d(find(at(r, "bottlenecks/stages/structure"), "name", "forward"), "share"), 0.6, 1e-3);
	assert_int_equal((int)count_prefix(recs, "inferix."), 0);
	json_decref(m);
}

/*
 * An Inferix report (FORMATS.md, key order as written) of 6 blocks of 2
 * diffusion steps, 1 s apart. Three memory series grow step over step and
 * none of them is the run's own memory:
 *   cpu_metrics memory_used_mb 12000 + 400 per s (other processes: system-wide)
 *   gpu_metrics memory_used_mb 20000 + 100 per block (NVML: every process on the GPU)
 *   block_computation memory_usage_mb 20480 + 512 per block (the pipeline
 *   passes torch.cuda.max_memory_allocated: a running peak)
 * so no leak finding, and all three are listed as excluded with their scope.
 * The block memory keeps the collector's field name. A stage of 80 % is an
 * Inferix stage (this is an Inferix run).
 */
static void ix_report(struct pr_strbuf *sb, int world_size, int with_gpu)
{
	int k;
	double t0 = 1700000000.0;
	pr_strbuf_addf(
		sb,
		"{\n  \"session_info\": {\"id\": \"t2v_generation\", \"start_time\": %.1f, "
		"\"end_time\": %.1f, \"duration\": 7.0, \"tags\": {\"mode\": \"text_to_video\", "
		"\"rank\": 0, \"world_size\": %d, \"ulysses_size\": 1, \"ring_size\": %d}, "
		"\"generated_at\": %.1f},\n",
		t0, t0 + 7, world_size, world_size, t0 + 7.5);
	if (with_gpu)
		pr_strbuf_addstr(
			sb, "  \"summary\": {\"gpu\": {\"peak_memory_usage_mb\": 20500, "
			    "\"avg_memory_usage_mb\": 20250.0, \"peak_memory_utilization\": 25.1, "
			    "\"avg_gpu_utilization\": 90.0, \"peak_gpu_utilization\": 90}, ");
	else
		pr_strbuf_addstr(sb, "  \"summary\": {");
	pr_strbuf_addstr(sb,
			 "\"cpu\": {\"avg_cpu_usage\": 20.0, \"peak_cpu_usage\": 20.0, "
			 "\"avg_memory_usage_mb\": 13400.0, \"peak_memory_usage_mb\": 14800}},\n");
	if (with_gpu) {
		pr_strbuf_addstr(sb, "  \"gpu_metrics\": {\"total_samples\": 29, \"timeline\": [");
		for (k = 0; k <= 28; k++) /* every 0.25 s; block b ends at 1 + b s */
			pr_strbuf_addf(
				sb,
				"%s{\"timestamp\": %.2f, \"memory_used_mb\": %d, \"memory_total_mb\": 81559, "
				"\"utilization\": 90, \"temperature\": 60, \"power\": 300.0}",
				k ? ", " : "", t0 + 0.25 * k,
				20000 + 100 * (k / 4 > 5 ? 5 : k / 4));
		pr_strbuf_addstr(sb, "]},\n");
	} else {
		pr_strbuf_addstr(sb, "  \"gpu_metrics\": {},\n");
	}
	pr_strbuf_addstr(sb, "  \"cpu_metrics\": {\"total_samples\": 15, \"timeline\": [");
	for (k = 0; k <= 14; k++)
		pr_strbuf_addf(
			sb,
			"%s{\"timestamp\": %.1f, \"cpu_usage\": 20.0, \"memory_used_mb\": %d, "
			"\"memory_total_mb\": 32768}",
			k ? ", " : "", t0 + 0.5 * k, 12000 + 200 * k);
	pr_strbuf_addf(
		sb,
		"]},\n  \"stage_analysis\": {\"total_stages\": 1, \"total_time\": 5.6, "
		"\"stages\": {\"denoise\": {\"total_time\": 5.6, \"call_count\": 1, \"avg_time\": 5.6, "
		"\"min_time\": 5.6, \"max_time\": 5.6, \"percentage_of_total\": 100.0}}, "
		"\"bottlenecks\": [{\"stage\": \"denoise\", \"percentage\": 100.0, \"total_time\": 5.6}]},\n"
		"  \"events\": [");
	for (k = 0; k < 6; k++) {
		double end = t0 + 1 + k;
		pr_strbuf_addf(
			sb,
			"%s{\"name\": \"diffusion_step\", \"timestamp\": %.2f, \"data\": {\"step\": %d, "
			"\"timestep\": 1.0, \"block_size\": 3, \"computation_time_ms\": 400.0, "
			"\"guidance_scale\": null}}, "
			"{\"name\": \"diffusion_step\", \"timestamp\": %.2f, \"data\": {\"step\": %d, "
			"\"timestep\": 0.5, \"block_size\": 3, \"computation_time_ms\": 400.0, "
			"\"guidance_scale\": null}}, "
			"{\"name\": \"block_computation\", \"timestamp\": %.2f, \"data\": {\"block_index\": %d, "
			"\"block_size\": 3, \"computation_time_ms\": 900.0, \"memory_usage_mb\": %d}}",
			k ? ", " : "", end - 0.45, 2 * k, end, 2 * k + 1, end, k, 20480 + 512 * k);
	}
	pr_strbuf_addstr(sb, "],\n  \"recommendations\": [],\n  \"cache_analysis\": {}\n}\n");
}

static void test_leak_not_owned(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m, *r, *x;
	(void)state;
	ix_report(&sb, 1, 1);
	m = model_text(sb.buf, "inferix");
	pr_strbuf_release(&sb);
	r = at(m, "runs/0");
	assert_int_equal((int)count_id(at(r, "recommendations"), "profreport.leak"), 0);
	assert_int_equal(json_array_size(at(r, "leaks/items")), 0);
	x = at(r, "leaks/excluded");
	assert_string_equal(s(find(x, "series", "sys.mem.used"), "scope"), "shared");
	assert_string_equal(s(find(x, "series", "gpu.mem.used"), "scope"), "shared");
	assert_string_equal(s(find(x, "series", "inferix.block.memory_usage"), "scope"),
			    "cumulative");
	/* the block memory is named after what the collector recorded */
	assert_non_null(find(at(r, "series"), "name", "inferix.block.memory_usage"));
	x = at(r, "series");
	{
		json_t *v;
		size_t i;
		json_array_foreach (x, i, v)
			assert_string_not_equal(s(v, "name"), "torch.max_memory_allocated");
	}
	/* an Inferix run gets Inferix's stage advice */
	assert_int_equal((int)count_id(at(r, "recommendations"), "inferix.stage"), 1);
	json_decref(m);
}

/*
 * The same Inferix run on 3 ranks but with the GPU monitor off (gpu_metrics
 * {}, no GPU summary): world_size 3 alone is no evidence of 3 GPUs, so no
 * "Using 3 GPUs" advice. With GPU data it is given.
 */
static void test_multi_gpu_needs_gpu_data(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m;
	(void)state;
	ix_report(&sb, 3, 0);
	m = model_text(sb.buf, "inferix");
	assert_int_equal((int)count_id(at(m, "runs/0/recommendations"), "inferix.multi_gpu"), 0);
	json_decref(m);
	pr_strbuf_reset(&sb);
	ix_report(&sb, 3, 1);
	m = model_text(sb.buf, "inferix");
	pr_strbuf_release(&sb);
	assert_string_equal(s(find(at(m, "runs/0/recommendations"), "id", "inferix.multi_gpu"),
			      "message"),
			    "Using 3 GPUs");
	json_decref(m);
}

/*
 * One finding per root cause for memory pressure too: the same Inferix run
 * on a GPU with 20600 MiB, so GPU memory peaks at 20500 / 20600 = 99.5 %.
 * Inferix's own rule reports it (> 90 %); profreport.memory_pressure (a
 * sample >= 85 %) does not repeat it.
 */
static void test_pressure_once(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m, *recs, *f;
	char *p;
	(void)state;
	ix_report(&sb, 1, 1);
	while ((p = strstr(sb.buf, "\"memory_total_mb\": 81559")) != NULL)
		memcpy(p + strlen("\"memory_total_mb\": "), "20600", 5);
	m = model_text(sb.buf, "inferix");
	pr_strbuf_release(&sb);
	recs = at(m, "runs/0/recommendations");
	assert_int_equal((int)count_id(recs, "profreport.memory_pressure"), 0);
	f = find(recs, "id", "inferix.gpu_memory");
	near(d(f, "evidence/peak_pct"), 20500.0 / 20600 * 100, 1e-9);
	assert_string_equal(s(f, "rule"), "peak GPU memory used / total > 90 %");
	near(d(f, "evidence/threshold"), 90, 0);
	json_decref(m);
}

/*
 * QEff disk I/O per phase: 5 samples 1 s apart, disk_write_bytes (MiB,
 * cumulative) 0, 64, 128, 192, 256; "Load" marked at 0 s, "Save" at 1.5 s,
 * Completion at 4 s. The interval 1 s .. 2 s (64 MiB) straddles the
 * boundary: it was observed by the sample at 2 s, in Save, so it is Save's
 * (a mark is set before the work it names): Load wrote 64 MiB (its samples
 * at 0 and 1 s), Save 256 - 64 = 192 MiB (its last sample minus Load's
 * last); together all 256 MiB. (Split by time it was 96 and 160.)
 */
static void test_qeff_disk_split(void **state)
{
	json_t *m, *occ;
	(void)state;
	m = model_text(
		"{\"timestamps\": [0.0, 1.0, 2.0, 3.0, 4.0],\n"
		" \"rss_memory\": [100.0, 100.0, 100.0, 100.0, 100.0],\n"
		" \"vms_memory\": [400.0, 400.0, 400.0, 400.0, 400.0],\n"
		" \"cpu_usage\": [10.0, 10.0, 10.0, 10.0, 10.0],\n"
		" \"disk_read_bytes\": [0.0, 0.0, 0.0, 0.0, 0.0],\n"
		" \"disk_write_bytes\": [0.0, 64.0, 128.0, 192.0, 256.0],\n"
		" \"disk_read_rate\": [0.0, 0.0, 0.0, 0.0, 0.0],\n"
		" \"disk_write_rate\": [0.0, 64.0, 64.0, 64.0, 64.0],\n"
		" \"sampling_interval\": 1.0,\n"
		" \"operations\": [[0.0, \"Load\"], [1.5, \"Save\"], [4.0, \"Completion\"]]}",
		"qeff");
	occ = at(m, "runs/0/phases/occurrences");
	assert_int_equal(json_array_size(occ), 2);
	near(d(find(occ, "name", "Load"), "disk/write"), 64 * 1048576.0, 1e-3);
	near(d(find(occ, "name", "Save"), "disk/write"), 192 * 1048576.0, 1e-3);
	near(d(find(occ, "name", "Load"), "disk/read"), 0, 0);
	json_decref(m);
}

/*
 * A real massif run (samples/massif/real, valgrind 3.19 --time-unit=i): the
 * x axis counts instructions, not time, so no time unit may appear where
 * times are shown. Peak snapshot 79 at time=1068802 instructions with
 * mem_heap_B=180224: cache_add 163840 (40 x 4096) <- step <- main and
 * scratch_work 16384 <- step <- main (massif.out.i lines 912-923).
 */
static void test_massif_real_units_and_tree(void **state)
{
	const char *in[] = { "massif/real/massif.out.i" }, *inb[] = { "massif/real/massif.out.B" };
	json_t *m = model_of(in, 1, "massif"), *r = at(m, "runs/0"), *t;
	char *txt, *html;
	(void)state;
	assert_string_equal(s(r, "clock/x_unit"), "instructions");
	t = at(r, "alloc_tree");
	assert_int_equal((int)d(t, "snapshot"), 79);
	near(d(t, "t_ns"), 1068802, 0);
	near(d(t, "heap"), 180224, 0);
	assert_int_equal(json_array_size(at(t, "nodes")), 6);
	assert_string_equal(s(t, "nodes/0/label"), "cache_add (prog.c:18)");
	near(d(t, "nodes/0/bytes"), 163840, 0);
	assert_int_equal((int)d(t, "nodes/0/depth"), 1);
	assert_string_equal(s(t, "nodes/2/label"), "main (prog.c:51)");
	assert_int_equal((int)d(t, "nodes/2/depth"), 3);
	near(d(t, "nodes/3/bytes"), 16384, 0);
	txt = text_of(m);
	assert_80_columns(txt);
	assert_null(strstr(txt, " ms"));
	assert_null(strstr(txt, " us ")); /* a time in us; "Heap used" is the series' label */
	assert_null(strstr(txt, " us\n"));
	assert_non_null(strstr(txt, "Heap used"));
	assert_null(strstr(txt, "Stack used")); /* stack.used is 0 B throughout: no peak */
	assert_non_null(strstr(txt, "1.069 M instructions"));
	assert_non_null(strstr(txt, "Peak allocation tree"));
	assert_non_null(strstr(txt, "scratch_work (prog.c:28)"));
	html = html_report(m);
	assert_non_null(strstr(html, "Peak allocation tree"));
	assert_non_null(strstr(html, "cache_add (prog.c:18)"));
	assert_non_null(strstr(html, "instructions executed"));
	free(txt);
	free(html);
	json_decref(m);

	/* --time-unit=B: bytes allocated and freed so far (time=1459128 at the peak) */
	m = model_of(inb, 1, "massif");
	r = at(m, "runs/0");
	assert_string_equal(s(r, "clock/x_unit"), "bytes");
	near(d(r, "alloc_tree/t_ns"), 1459128, 0);
	txt = text_of(m);
	assert_80_columns(txt);
	assert_null(strstr(txt, " ms"));
	assert_non_null(strstr(txt, "1.39 MiB allocated"));
	free(txt);
	json_decref(m);
}

/* The synthetic ms sample: times stay times; its tree (snapshot 5) is in summary too. */
static void test_massif_ms_tree(void **state)
{
	const char *in[] = { "massif/massif.out.12345" };
	json_t *m = model_of(in, 1, "massif"), *r = at(m, "runs/0");
	char *txt;
	(void)state;
	assert_null(json_object_get(at(r, "clock"), "x_unit"));
	assert_int_equal((int)d(r, "alloc_tree/snapshot"), 5);
	txt = text_of(m);
	assert_non_null(strstr(txt, "at 262.000 ms"));
	assert_non_null(strstr(txt, "g (prog.c:6)"));
	free(txt);
	json_decref(m);
}

/*
 * Straggling steps: 120 ProfilerStep#i of 10 ms, except 21 of 30 ms
 * (i = 5, 10, .., 105) and step 110 of 100 ms. Median 10 ms, MAD 0, so the
 * mean-absolute-deviation fallback: meanad = (21 x 20 + 90) / 120 = 4.25 ms;
 * z(30 ms) = 20 / (sqrt(pi/2) x 4.25) = 3.75 > 3.5, z(100 ms) = 16.9: 22
 * stragglers. The slowest is step 110, 10.0x the median (not the first
 * straggler's 3.0x); the evidence lists 20 of them and counts 2 more.
 */
static void test_straggler_evidence(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m, *f;
	long long t = 0;
	int i;
	(void)state;
	pr_strbuf_addstr(&sb, "{\"traceEvents\": [\n");
	for (i = 0; i < 120; i++) {
		long long dur = i == 110			    ? 100000
				: (i % 5 == 0 && i > 0 && i <= 105) ? 30000
								    : 10000;
		pr_strbuf_addf(
			&sb,
			"{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", "
			"\"pid\": 1, \"tid\": 1, \"ts\": %lld, \"dur\": %lld, \"args\": {}},\n",
			i, t, dur);
		t += dur;
	}
	pr_strbuf_addstr(
		&sb,
		"{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": \"python\"}}]}\n");
	m = model_text(sb.buf, "chrome");
	pr_strbuf_release(&sb);
	assert_int_equal(json_array_size(at(m, "runs/0/throughput/steps/stragglers")), 22);
	f = find(at(m, "runs/0/recommendations"), "id", "profreport.straggling_step");
	assert_string_equal(s(f, "message"),
			    "22 straggling step(s); the slowest is 10.0x the median");
	assert_int_equal(json_array_size(at(f, "evidence/stragglers")), 20);
	assert_int_equal((int)d(f, "evidence/stragglers_more"), 2);
	json_decref(m);
}

/*
 * Every sample's summary fits 80 columns (the golden summaries are these
 * reports; long names get lines of their own or are cut with "...").
 */
static void test_summary_80_columns(void **state)
{
	static const char *const samples[][2] = {
		{ "torch/trace_rank0.pt.trace.json", "chrome" },
		{ "chrome/viztracer_like.json", "chrome" },
		{ "qnn/memory_20241219_143000.csv", "qnn-csv" },
		{ "nvidia-smi/gpu_log.csv", "csv" },
		{ "psutil/process_log.csv", "csv" },
		{ "inferix/profiling_report_t2v_generation_20231114_221332.json", "inferix" },
		{ "inferix/raw_profiling_data_t2v_generation_20231114_221332.json", "inferix" },
		{ "diffulex/profile_20250101_120000.json", "diffulex" },
		{ "diffulex/profile_20250101_120000.csv", "diffulex-csv" },
		{ "diffulex/profile_20250101_120000.txt", "diffulex-summary" },
		{ "memtracer/memory_timeline.json", "memtracer" },
		{ "memtracer/memory_flame_graph.json", "speedscope" },
		{ "speedscope/profile.speedscope.json", "speedscope" },
		{ "qeff/qeff_profile.json", "qeff" },
		{ "torch-memory-timeline/memory_timeline.json", "torch-memory-timeline" },
		{ "massif/massif.out.12345", "massif" },
		{ "massif/real/massif.out.i", "massif" },
		{ "massif/real/massif.out.B", "massif" },
	};
	size_t i;
	(void)state;
	for (i = 0; i < PR_ARRAY_SIZE(samples); i++) {
		const char *in[1];
		json_t *m;
		char *txt;
		in[0] = samples[i][0];
		m = model_of(in, 1, samples[i][1]);
		txt = text_of(m);
		assert_80_columns(txt);
		free(txt);
		json_decref(m);
	}
}

/* Absent data stays absent: a trace without memory events has no peaks, no fragmentation. */
static void test_absent(void **state)
{
	json_t *m =
		model_text("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":5}]",
			   "chrome");
	json_t *r = at(m, "runs/0");
	(void)state;
	assert_int_equal(json_array_size(at(r, "peaks")), 0);
	assert_int_equal(json_array_size(at(r, "fragmentation")), 0);
	assert_true(json_is_null(at(r, "throughput/steps")));
	assert_int_equal(json_array_size(at(r, "recommendations")), 0);
	json_decref(m);
}

/*
 * Phases of a trace without categories (legacy torch.profiler): 4 steps of
 * 100 us; "load" and "fwd" are direct children of every step; "rare" of one
 * step only (1 < 4/2); "aten::mm" (an op), "AddmmBackward0" (an autograd
 * node), "cudaLaunchKernel" (a runtime call) and "inner" (a child of "fwd",
 * not of a step) are not phases. Hand-derived: 8 occurrences, load total
 * 4 x 30 us = 120 us, fwd 4 x 50 us = 200 us.
 */
static void test_inferred_phases(void **state)
{
	struct pr_strbuf t = PR_STRBUF_INIT;
	json_t *m, *r, *names;
	int k;
	(void)state;
	pr_strbuf_addstr(&t, "[");
	for (k = 0; k < 4; k++) {
		int b = k * 100;
		pr_strbuf_addf(
			&t,
			"%s{\"ph\":\"X\",\"name\":\"ProfilerStep#%d\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":100},"
			"{\"ph\":\"X\",\"name\":\"load\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":30},"
			"{\"ph\":\"X\",\"name\":\"fwd\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":50},"
			"{\"ph\":\"X\",\"name\":\"inner\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":10},"
			"{\"ph\":\"X\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":5},"
			"{\"ph\":\"X\",\"name\":\"AddmmBackward0\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":2},"
			"{\"ph\":\"X\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":2}",
			k ? "," : "", k, b, b, b + 30, b + 31, b + 85, b + 91, b + 94);
		if (k == 2)
			pr_strbuf_addf(
				&t,
				",{\"ph\":\"X\",\"name\":\"rare\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":2}",
				b + 97);
	}
	pr_strbuf_addstr(&t, "]");
	m = model_text(t.buf, "chrome");
	r = at(m, "runs/0");
	names = at(r, "phases/inferred/names");
	assert_int_equal(json_array_size(names), 2);
	assert_string_equal(s(names, "0"), "load");
	assert_string_equal(s(names, "1"), "fwd");
	assert_int_equal(json_array_size(at(r, "phases/occurrences")), 8);
	near(d(find(at(r, "phases/totals"), "name", "load"), "total_ns"), 120000, 0);
	near(d(find(at(r, "phases/totals"), "name", "fwd"), "total_ns"), 200000, 0);
	json_decref(m);
	pr_strbuf_release(&t);

	/* with a categorised phase (Kineto's user_annotation) nothing is inferred */
	m = model_text(
		"[{\"ph\":\"X\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},"
		"{\"ph\":\"X\",\"name\":\"load\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":30},"
		"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"fwd\",\"pid\":1,\"tid\":1,\"ts\":30,\"dur\":50}]",
		"chrome");
	r = at(m, "runs/0");
	assert_null(at(r, "phases/inferred"));
	assert_int_equal(json_array_size(at(r, "phases/occurrences")), 1);
	json_decref(m);
}

/* The model round-trips through a file and is rejected when it is not one. */
/*
 * Many phase names (issue 12: a CSV whose 300 k rows each start a phase took
 * 800 MB in report): phases.totals keeps the 1000 names with the largest
 * total time and sums the rest in totals_more; each peak's per_phase keeps
 * the 1000 highest. The CSV: row i (0..1002) at t_i = i(i+1)/2 s, phase
 * "p<i>", rss_mb = i. Phase i runs t_i..t_(i+1): i + 1 s (the last, p1002,
 * 0 s). Largest totals: p2..p1001 (3..1002 s); left out p0 (1 s), p1 (2 s),
 * p1002 (0 s): 3 names, 3 occurrences, 3 s. The peak inside p_i holds the
 * samples at both ends (the end is inclusive): i + 1 MiB, and p1002 its own
 * 1002 MiB; the 1000 highest are p3..p1002, left out p0, p1, p2.
 */
static void test_many_phase_names(void **state)
{
	struct pr_strbuf csv = PR_STRBUF_INIT;
	json_t *m, *r, *pk;
	int i;
	(void)state;
	pr_strbuf_addstr(&csv, "time,rss_mb,phase\n");
	for (i = 0; i <= 1002; i++)
		pr_strbuf_addf(&csv, "%d,%d,p%d\n", i * (i + 1) / 2, i, i);
	m = model_text(csv.buf, "csv");
	r = at(m, "runs/0");
	assert_int_equal(json_array_size(at(r, "phases/occurrences")), 500);
	assert_int_equal(json_array_size(at(r, "phases/totals")), 1000);
	assert_string_equal(s(r, "phases/totals/0/name"), "p2");
	assert_string_equal(s(r, "phases/totals/999/name"), "p1001");
	near(d(r, "phases/totals/999/total_ns"), 1002e9, 0);
	near(d(r, "phases/totals_more/names"), 3, 0);
	near(d(r, "phases/totals_more/count"), 3, 0);
	near(d(r, "phases/totals_more/total_ns"), 3e9, 0);
	pk = find(at(r, "peaks"), "series", "mem.rss");
	assert_int_equal(json_array_size(at(pk, "per_phase")), 1000);
	assert_string_equal(s(pk, "per_phase/0/phase"), "p3");
	near(d(pk, "per_phase/0/value"), 4 * 1048576.0, 0);
	assert_string_equal(s(pk, "per_phase/999/phase"), "p1002");
	near(d(pk, "per_phase/999/value"), 1002 * 1048576.0, 0);
	near(d(pk, "per_phase_more"), 3, 0);
	json_decref(m);
	pr_strbuf_release(&csv);
}

static void test_write_load(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	json_t *m = model_text(
		       "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":5}]",
		       "chrome"),
	       *back;
	char path[] = "/tmp/pr_model_XXXXXX";
	int fd = mkstemp(path);
	(void)state;
	close(fd);
	assert_int_equal(pr_model_write(m, path, &err), 0);
	assert_true(pr_model_sniff(path));
	back = pr_model_load(path, &err);
	assert_non_null(back);
	assert_true(json_equal(m, back));
	json_decref(back);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, "{\"schema\":\"x\"}", 14), 14);
	close(fd);
	assert_null(pr_model_load(path, &err));
	assert_int_equal(err.code, PR_E_FORMAT);
	unlink(path);
	json_decref(m);
}

/*
 * Ten annotations of 1e15 us = 1e18 ns on ten threads, starting 0..9 us: each
 * fits in int64, their sum 1e19 does not (INT64_MAX ~ 9.22e18); summary,
 * report and compare failed with "sqlite: integer overflow" (SUM) or UB.
 * Sums are doubles now: 1e19 is exact (10 x 5^18 x 2^18, 10 x 5^18 < 2^53).
 * The run lasts from 0 to 9 us + 1e18 ns; so does the union of the phases.
 */
static void test_durations_sum_past_int64(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m, *r, *tot;
	char *text;
	int i;
	(void)state;
	pr_strbuf_addstr(&sb, "[");
	for (i = 0; i < 10; i++)
		pr_strbuf_addf(
			&sb,
			"%s{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ann\",\"pid\":1,"
			"\"tid\":%d,\"ts\":%d,\"dur\":1e15}",
			i ? "," : "", i + 1, i);
	pr_strbuf_addstr(&sb, "]");
	m = model_text(sb.buf, "chrome");
	pr_strbuf_release(&sb);
	r = at(m, "runs/0");
	near(d(r, "clock/duration_ns"), 1000000000000009000.0, 0);
	tot = find(at(r, "phases/totals"), "name", "ann");
	near(d(tot, "count"), 10, 0);
	near(d(tot, "total_ns"), 1e19, 0);
	near(d(tot, "union_ns"), 1000000000000009000.0, 0);
	near(d(find(at(r, "spans/items"), "name", "ann"), "total_ns"), 1e19, 0);
	near(d(find(at(r, "bottlenecks/top_total"), "name", "ann"), "total_ns"), 1e19, 0);
	near(d(find(at(r, "bottlenecks/top_self"), "name", "ann"), "self_ns"), 1e19, 0);
	text = text_of(m);
	assert_non_null(strstr(text, "duration 1000000000.000 s"));
	free(text);
	free(html_report(m));
	json_decref(m);
}

/*
 * Top spans and per-name statistics (bottlenecks, spans) from the shared
 * span statistics (analyze/spanstat.c), with the medians from its second
 * pass and, past pr_spanstat_keep_max durations, from SQLite, and with the
 * second pass's stream in a scratch file (pr_spanstat_rec_mem): the same
 * numbers. By hand, in us (x 1000 = ns): ProfilerStep#1 [0, 100) holds mm
 * 10 (at 10) and 40 (at 30) and add 5 (at 80), self 100 - 55 = 45;
 * ProfilerStep#2 [100, 200) holds mm 20 (at 110) and 30 (at 140) and add 7
 * (at 180), self 43. mm: 4 calls, total 100, median (20 + 30) / 2 = 25,
 * mean 25, std sqrt((15^2 + 15^2 + 5^2 + 5^2) / 3) = 12.909944487358056,
 * per step 50 and 50; add: median (5 + 7) / 2 = 6, per step 5 and 7. By
 * total the two steps and mm tie at 100: name order puts "ProfilerStep#1",
 * "ProfilerStep#2" ('P' < 'm') before "mm"; by self mm (100) leads, then
 * the steps (45, 43), then add (12). Steps have no per-step time of their own.
 */
static void test_top_spans_medians(void **state)
{
	static const char t[] =
		"[{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},"
		"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":100},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"mm\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":10},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"mm\",\"pid\":1,\"tid\":1,\"ts\":30,\"dur\":40},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"add\",\"pid\":1,\"tid\":1,\"ts\":80,\"dur\":5},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"mm\",\"pid\":1,\"tid\":1,\"ts\":110,\"dur\":20},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"mm\",\"pid\":1,\"tid\":1,\"ts\":140,\"dur\":30},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"add\",\"pid\":1,\"tid\":1,\"ts\":180,\"dur\":7}]";
	size_t keep = pr_spanstat_keep_max, rec_mem = pr_spanstat_rec_mem, round;
	(void)state;
	for (round = 0; round < 3; round++) {
		json_t *m, *r, *v;
		pr_spanstat_keep_max = round == 1 ? 1 : keep;
		/* round 2: the second pass's stream in a scratch file from its fourth span */
		pr_spanstat_rec_mem = round == 2 ? 0 : rec_mem;
		m = model_text(t, "chrome");
		r = at(m, "runs/0");
		assert_string_equal(s(r, "bottlenecks/top_total/0/name"), "ProfilerStep#1");
		assert_string_equal(s(r, "bottlenecks/top_total/0/kind"), "step");
		assert_string_equal(s(r, "bottlenecks/top_total/1/name"), "ProfilerStep#2");
		assert_string_equal(s(r, "bottlenecks/top_total/2/name"), "mm");
		assert_string_equal(s(r, "bottlenecks/top_total/3/name"), "add");
		assert_string_equal(s(r, "bottlenecks/top_self/0/name"), "mm");
		assert_string_equal(s(r, "bottlenecks/top_self/1/name"), "ProfilerStep#1");
		near(d(r, "bottlenecks/top_self/1/self_ns"), 45000, 0);
		near(d(r, "bottlenecks/top_self/2/self_ns"), 43000, 0);
		assert_string_equal(s(r, "bottlenecks/top_self/3/name"), "add");
		v = find(at(r, "bottlenecks/top_total"), "name", "mm");
		near(d(v, "count"), 4, 0);
		near(d(v, "total_ns"), 100000, 0);
		near(d(v, "median_ns"), 25000, 0);
		near(d(v, "std_ns"), 12909.944487358056, 1e-6);
		near(d(v, "min_ns"), 10000, 0);
		near(d(v, "max_ns"), 40000, 0);
		near(d(find(at(r, "bottlenecks/top_self"), "name", "add"), "median_ns"), 6000, 0);
		near(d(find(at(r, "bottlenecks/top_total"), "name", "ProfilerStep#2"), "median_ns"),
		     100000, 0);
		assert_string_equal(s(r, "spans/items/0/name"), "ProfilerStep#1");
		assert_string_equal(s(r, "spans/items/2/name"), "mm");
		near(d(r, "spans/items/2/self_ns"), 100000, 0);
		near(d(r, "spans/items/2/sumsq_ns2"), 3e9, 0); /* 100 + 1600 + 400 + 900 us^2 */
		near(d(r, "spans/items/2/per_step_ns/0"), 50000, 0);
		near(d(r, "spans/items/2/per_step_ns/1"), 50000, 0);
		near(d(r, "spans/items/3/per_step_ns/0"), 5000, 0);
		near(d(r, "spans/items/3/per_step_ns/1"), 7000, 0);
		near(d(r, "spans/items/0/per_step_ns/0"), 0, 0);
		near(d(r, "spans/items/0/per_step_ns/1"), 0, 0);
		assert_int_equal(json_array_size(at(r, "spans/items")), 4);
		json_decref(m);
	}
	pr_spanstat_keep_max = keep;
	pr_spanstat_rec_mem = rec_mem;
}

/*
 * Timeline's merged intervals are made in the span pass, in the spans' id
 * (file) order, not from the spans sorted by start: the same intervals as a
 * sweep in start order must come out whatever the order. Derived here, not
 * by profreport: 2 x 5000 disjoint top-level spans (so the writer nests none)
 * on two threads, 1-20 us long, apart by 0-3 us or, one in ten, 200-400 us,
 * written to the file in a shuffled order; the test sorts each thread's
 * spans and merges those that start within the gap (the run's extent /
 * 4000, about 50 us here) after
 * the end so far, as the timeline documents; every interval, the busy time
 * and the span count must match. About half the spans come after a later
 * one of their thread: more than a batch of them (TL_BATCH, 4096) wait.
 */
#define TL_SPANS 5000
static void test_timeline_any_order(void **state)
{
	int64_t st[2][TL_SPANS], en[2][TL_SPANS], lo = INT64_MAX, hi = INT64_MIN, gap;
	size_t order[2 * TL_SPANS], i, k, n = 2 * TL_SPANS;
	uint32_t x = 2024;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *m, *lanes;
	(void)state;
	for (k = 0; k < 2; k++) {
		int64_t t = (int64_t)k * 777;
		for (i = 0; i < TL_SPANS; i++) {
			x = x * 1103515245u + 12345u;
			/* gap 0-3 us, one in ten 200-400 us */
			t += (x >> 8) % 10 ? (int64_t)((x >> 12) % 3001)
					   : 200000 + (int64_t)((x >> 12) % 200001);
			st[k][i] = t;
			x = x * 1103515245u + 12345u;
			t += 1000 + (int64_t)((x >> 8) % 19001); /* 1-20 us */
			en[k][i] = t;
			lo = st[k][i] < lo ? st[k][i] : lo;
			hi = en[k][i] > hi ? en[k][i] : hi;
		}
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) { /* Fisher-Yates with the same generator */
		size_t j, tmp;
		x = x * 1103515245u + 12345u;
		j = (x >> 8) % (i + 1);
		tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	pr_strbuf_addstr(&sb, "[");
	for (i = 0; i < n; i++) {
		size_t th = order[i] / TL_SPANS, j = order[i] % TL_SPANS;
		pr_strbuf_addf(
			&sb,
			"%s{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op\",\"pid\":1,\"tid\":%zu,"
			"\"ts\":%lld.%03lld,\"dur\":%lld.%03lld}",
			i ? "," : "", th + 1, (long long)(st[th][j] / 1000),
			(long long)(st[th][j] % 1000), (long long)((en[th][j] - st[th][j]) / 1000),
			(long long)((en[th][j] - st[th][j]) % 1000));
	}
	pr_strbuf_addstr(&sb, "]");
	m = model_text(sb.buf, "chrome");
	pr_strbuf_release(&sb);
	gap = (hi - lo) / 4000;
	near(d(at(m, "runs/0"), "timeline/merged_below_ns"), (double)gap, 0);
	lanes = at(m, "runs/0/timeline/lanes");
	assert_int_equal(json_array_size(lanes), 2);
	for (k = 0; k < 2; k++) {
		/* lanes in track order, named by their tid (no thread_name) */
		json_t *lane = find(lanes, "name", k ? "thread 2" : "thread 1"),
		       *iv = json_object_get(lane, "intervals");
		int64_t cs = st[k][0], ce = en[k][0], busy = 0;
		size_t ni = 0, merged = 0;
		/* the spans of a thread are generated in start order already */
		for (i = 1; i <= TL_SPANS; i++) {
			if (i < TL_SPANS && st[k][i] <= ce + gap) {
				ce = en[k][i] > ce ? en[k][i] : ce;
				merged++;
				continue;
			}
			assert_true(ni < json_array_size(iv));
			near(json_number_value(json_array_get(json_array_get(iv, ni), 0)),
			     (double)(cs - lo), 0);
			near(json_number_value(json_array_get(json_array_get(iv, ni), 1)),
			     (double)(ce - lo), 0);
			busy += ce - cs;
			ni++;
			if (i < TL_SPANS) {
				cs = st[k][i];
				ce = en[k][i];
			}
		}
		assert_int_equal(json_array_size(iv), ni);
		assert_true(merged > 20 && ni > 20); /* both happen: the test tests something */
		near(d(lane, "busy_ns"), (double)busy, 0);
		near(d(lane, "spans"), TL_SPANS, 0);
	}
	json_decref(m);
}

/*
 * Bottlenecks' GPU idle reads the device activities through an external sort
 * (spanstat.h, pr_spanstat_dev_mem): in memory, one activity a run, three a
 * run, the same union. By a python sketch over the sample (its 180 kernels'
 * ts and dur as exact decimals x 1000, sorted, merged): busy 75883345 ns,
 * active range 104457287 ns, longest gap 307049 ns.
 */
static void test_gpu_idle_runs(void **state)
{
	const char *in[] = { "compare/slower_op/base.pt.trace.json" };
	size_t keep = pr_spanstat_dev_mem, round;
	static const size_t mem[] = { 0, 16, 48 };
	json_t *first = NULL;
	(void)state;
	for (round = 0; round < PR_ARRAY_SIZE(mem); round++) {
		json_t *m, *g;
		pr_spanstat_dev_mem = mem[round] ? mem[round] : keep;
		m = model_of(in, 1, "chrome");
		g = at(m, "runs/0/bottlenecks/gpu_kernels");
		near(d(g, "busy_ns"), 75883345, 0);
		near(d(g, "active_ns"), 104457287, 0);
		near(d(g, "max_gap_ns"), 307049, 0);
		if (!first)
			first = json_incref(g);
		else
			assert_true(json_equal(first, g));
		json_decref(m);
	}
	json_decref(first);
	pr_spanstat_dev_mem = keep;
}

/*
 * Flame's tree of host spans maps span ids to nodes densely when a run's ids
 * are close together (as the store writes them) and in a hash map when not
 * (a store another program wrote): the same flame section either way. The
 * ids of a nested trace are spread 100 000 apart in a second store
 * (parents too), which takes the map; by hand: a (100 us) holds b (40) and
 * c (30), c holds d (10): total 100 us, a's self 30, c's self 20.
 */
static void test_flame_sparse_ids(void **state)
{
	static const char t[] =
		"[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":40},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":60,\"dur\":30},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"d\",\"pid\":1,\"tid\":1,\"ts\":70,\"dur\":10}]";
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *dense = model_text(t, "chrome"), *sparse, *f;
	(void)state;
	ingest_text(st, t, "chrome");
	assert_int_equal(
		sqlite3_exec(pr_store_db(st),
			     "UPDATE span SET id = id * 100000, parent_id = parent_id * 100000",
			     NULL, NULL, NULL),
		SQLITE_OK);
	sparse = pr_model_build(st, &o, &err);
	if (!sparse)
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	f = at(dense, "runs/0/flame");
	near(d(f, "total"), 100000, 0);
	assert_string_equal(s(f, "nodes/0/name"), "a");
	near(d(f, "nodes/0/self"), 30000, 0);
	near(d(find(at(f, "nodes"), "name", "c"), "self"), 20000, 0);
	near(d(find(at(f, "nodes"), "name", "d"), "depth"), 2, 0);
	assert_true(json_equal(f, at(sparse, "runs/0/flame")));
	json_decref(dense);
	json_decref(sparse);
}

/*
 * The synchronizing-API and pageable-copy rules count from the shared span
 * pass's per-name groups (no query): names as SQLite's IN list (exact) and
 * LIKE '%Pageable%' (ASCII letters in any case) take them. By hand, in us:
 * memcpys "Memcpy HtoD (PAGEABLE -> Device)" 3 and "Memcpy DtoH (Device ->
 * Pageable)" 4 match, "Memcpy HtoD (Pinned -> Device)" 5 does not: 2
 * copies, 7 us; runtime calls cudaStreamSynchronize 10 and cudaMemcpy 20
 * match, cudaStreamSynchronizeX 40 does not: 2 calls, 30 us of a run of
 * 100 us (0.3 > 1 %).
 */
static void test_sync_and_pageable_counts(void **state)
{
	static const char t[] =
		"[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaStreamSynchronize\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":10},"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemcpy\",\"pid\":1,\"tid\":2,\"ts\":20,\"dur\":20},"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaStreamSynchronizeX\",\"pid\":1,\"tid\":2,\"ts\":50,\"dur\":40},"
		"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (PAGEABLE -> Device)\",\"pid\":0,\"tid\":7,\"ts\":1,\"dur\":3},"
		"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy DtoH (Device -> Pageable)\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":4},"
		"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pinned -> Device)\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":5}]";
	json_t *m = model_text(t, "chrome"), *recs = at(m, "runs/0/recommendations"), *v;
	size_t i;
	int seen = 0;
	(void)state;
	assert_int_equal(count_id(recs, "nsys.cuda_memcpy_async"), 1);
	assert_int_equal(count_id(recs, "nsys.cuda_api_sync"), 1);
	json_array_foreach (recs, i, v) {
		if (!strcmp(s(v, "id"), "nsys.cuda_memcpy_async")) {
			near(d(v, "evidence/memcpys"), 2, 0);
			near(d(v, "evidence/total_ns"), 7000, 0);
			seen++;
		} else if (!strcmp(s(v, "id"), "nsys.cuda_api_sync")) {
			near(d(v, "evidence/calls"), 2, 0);
			near(d(v, "evidence/total_ns"), 30000, 0);
			near(d(v, "evidence/share_of_run"), 0.3, 1e-12);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	json_decref(m);
}

/*
 * A store another program wrote may hold any int64 time: spans from INT64_MIN
 * lasting INT64_MAX, samples at INT64_MAX, a run extent of the whole int64
 * range, an origin at INT64_MAX. Analysis reads times clamped to
 * +-(2^62 - 1) ns (base/timecheck.h), so every difference fits: the run
 * lasts 2 x (2^62 - 1) = 9223372036854775806 ns (it was INT64_MAX - INT64_MIN,
 * undefined, printed as "duration -0.000 s"), every span starts at the run's
 * start and lasts as long, and the epoch start is INT64_MAX - (2^62 - 1) = 2^62.
 * The sanitizer build checks that nothing on the way overflows.
 */
static void test_times_beyond_the_limit_in_a_store(void **state)
{
	static const char trace[] =
		"[{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,"
		"\"tid\":1,\"ts\":0,\"dur\":10},"
		"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"fwd\",\"pid\":1,\"tid\":1,"
		"\"ts\":1,\"dur\":5},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":1,\"tid\":2,\"ts\":2,\"dur\":3},"
		"{\"ph\":\"i\",\"name\":\"[memory]\",\"s\":\"t\",\"pid\":1,\"tid\":1,\"ts\":3,"
		"\"args\":{\"Device Type\":1,\"Device Id\":0,\"Addr\":1,\"Bytes\":8,"
		"\"Total Allocated\":8,\"Total Reserved\":16}}]";
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *m, *r;
	char *text;
	(void)state;
	ingest_text(st, trace, "chrome");
	assert_int_equal(
		sqlite3_exec(pr_store_db(st),
			     "UPDATE span SET ts = -9223372036854775808, "
			     "dur = 9223372036854775807, self = 9223372036854775807;"
			     "UPDATE sample SET ts = 9223372036854775807;"
			     "UPDATE series SET ts_min = -9223372036854775808, "
			     "ts_max = 9223372036854775807;"
			     "UPDATE instant SET ts = 9223372036854775807;"
			     "UPDATE run SET ts_min = -9223372036854775808, "
			     "ts_max = 9223372036854775807, time_origin_ns = 9223372036854775807",
			     NULL, NULL, NULL),
		SQLITE_OK);
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	r = at(m, "runs/0");
	assert_true(json_integer_value(at(r, "clock/duration_ns")) == 9223372036854775806LL);
	assert_true(json_integer_value(at(r, "clock/epoch_start_ns")) == 4611686018427387904LL);
	assert_true(json_integer_value(at(r, "phases/occurrences/0/dur_ns")) ==
		    9223372036854775806LL);
	assert_true(json_integer_value(at(r, "phases/occurrences/0/t_ns")) == 0);
	near(d(r, "throughput/steps/count"), 1, 0);
	text = text_of(m);
	assert_non_null(strstr(text, "duration 9223372036.855 s"));
	free(text);
	free(html_report(m));
	json_decref(m);
}

/* The archive index of the runs of m, from the runs themselves or from their digests. */
static char *index_of(json_t *m, int digests)
{
	json_t *runs = json_object_get(m, "runs"), *keep = json_array();
	struct pr_html_index_row rows[16];
	struct pr_output out;
	struct pr_error err = PR_ERROR_INIT;
	size_t i, n = json_array_size(runs), len;
	char *html;
	assert_true(n <= 16);
	for (i = 0; i < n; i++) {
		json_t *r = json_array_get(runs, i);
		if (digests) {
			r = pr_model_digest(r);
			json_array_append_new(keep, r);
		}
		rows[i].run = r;
		rows[i].href = "x.html";
	}
	pr_output_init_memory(&out);
	assert_int_equal(pr_html_index(rows, n, &out, &err), 0);
	html = strdup(pr_output_data(&out, &len));
	pr_output_release(&out);
	json_decref(keep);
	return html;
}

/*
 * An archive's index is written from the runs' digests (report -o DIR, the
 * model cache): a digest must hold everything the index reads. Runs with
 * peaks of device and system series, steps (step time and steps/s),
 * Inferix's frames per second, tokens per second (Diffulex) and
 * recommendations: the index from the digests is the index from the runs,
 * byte for byte, and a digest is much smaller than its run.
 */
static void test_digest_index(void **state)
{
	const char *in[] = { "qeff/qeff_profile.json",
			     "torch/trace_rank0.pt.trace.json",
			     "inferix/profiling_report_t2v_generation_20231114_221332.json",
			     "diffulex/profile_20250101_120000.json",
			     "nvidia-smi/gpu_log.csv",
			     "massif/massif.out.12345" };
	static const char *const fmt[] = {
		"qeff", "chrome", "inferix", "diffulex", "csv", "massif"
	};
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_store *st = open_store();
	json_t *m, *r;
	char *whole, *dig;
	size_t i, recs = 0, tok = 0, fps = 0, steps = 0;
	(void)state;
	for (i = 0; i < PR_ARRAY_SIZE(in); i++) {
		char *p = sample_path(in[i]);
		ingest_ok(st, p, fmt[i]);
		free(p);
	}
	m = pr_model_build(st, &o, &err);
	if (!m)
		fail_msg("model: %s", err.text);
	pr_store_close(st);
	json_array_foreach (json_object_get(m, "runs"), i, r) {
		json_t *t = json_object_get(r, "throughput"), *dg = pr_model_digest(r);
		char *rt = json_dumps(r, JSON_COMPACT), *dt = json_dumps(dg, JSON_COMPACT);
		recs += json_array_size(json_object_get(r, "recommendations")) > 0;
		tok += json_is_number(
			json_object_get(json_object_get(t, "tokens"), "tokens_per_s"));
		fps += json_is_number(json_object_get(json_object_get(t, "blocks"), "fps"));
		steps += json_is_number(json_object_get(json_object_get(t, "steps"), "p50_ns"));
		assert_true(strlen(dt) * 4 < strlen(rt));
		free(rt);
		free(dt);
		json_decref(dg);
	}
	/* the index's every column has something to show in these runs */
	assert_true(recs >= 2 && tok >= 1 && fps >= 1 && steps >= 1);
	whole = index_of(m, 0);
	dig = index_of(m, 1);
	assert_string_equal(whole, dig);
	free(whole);
	free(dig);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qeff),
		cmocka_unit_test(test_qnn),
		cmocka_unit_test(test_digest_index),
		cmocka_unit_test(test_inferix),
		cmocka_unit_test(test_memtracer),
		cmocka_unit_test(test_diffulex),
		cmocka_unit_test(test_designed_trace),
		cmocka_unit_test(test_collectives),
		cmocka_unit_test(test_inferred_phases),
		cmocka_unit_test(test_leak_one_finding),
		cmocka_unit_test(test_leak_not_owned),
		cmocka_unit_test(test_multi_gpu_needs_gpu_data),
		cmocka_unit_test(test_pressure_once),
		cmocka_unit_test(test_qeff_disk_split),
		cmocka_unit_test(test_massif_real_units_and_tree),
		cmocka_unit_test(test_massif_ms_tree),
		cmocka_unit_test(test_summary_80_columns),
		cmocka_unit_test(test_straggler_evidence),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_write_load),
		cmocka_unit_test(test_durations_sum_past_int64),
		cmocka_unit_test(test_times_beyond_the_limit_in_a_store),
		cmocka_unit_test(test_many_phase_names),
		cmocka_unit_test(test_top_spans_medians),
		cmocka_unit_test(test_timeline_any_order),
		cmocka_unit_test(test_gpu_idle_runs),
		cmocka_unit_test(test_flame_sparse_ids),
		cmocka_unit_test(test_sync_and_pageable_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
