/* test_inferix.c - the Inferix report and raw-data JSON formats end to end. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "ingest/format.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "base/strbuf.h"
#include "tests/unit/helpers.h"

/* ---- helpers ---- */

static char *write_temp_in(const char *dir, const char *data, size_t n)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int fd;
	char *path;
	pr_strbuf_addf(&sb, "%s/pr_test_inferix_XXXXXX", dir);
	path = pr_strbuf_detach(&sb, NULL);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	return path;
}

static void ingest_path(struct pr_store *st, const char *path, const char *format)
{
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	if (pr_ingest_file(st, path, format, &res, &err))
		fail_msg("ingest '%s' failed: %s", path, err.text);
	assert_string_equal(res.format, "inferix");
}

static void ingest_sample(struct pr_store *st, const char *rel)
{
	char *path;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	pr_strbuf_addf(&sb, "inferix/%s", rel);
	path = sample_path(sb.buf);
	pr_strbuf_release(&sb);
	ingest_path(st, path, NULL);
	free(path);
}

static void ix_ingest_text(struct pr_store *st, const char *text)
{
	char *path = write_temp_in("/tmp", text, strlen(text));
	ingest_path(st, path, NULL);
	unlink(path);
	free(path);
}

/* Ingest that must fail; returns the error (text and position). */
static struct pr_error ix_ingest_fail(struct pr_store *st, const char *text)
{
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	char *path = write_temp_in("/tmp", text, strlen(text));
	assert_int_not_equal(pr_ingest_file(st, path, "inferix", &res, &err), 0);
	unlink(path);
	free(path);
	assert_int_equal(pr_store_run_count(st), 0);
	return err;
}

static double metric(struct pr_store *st, const char *name)
{
	return qd(st, "SELECT value FROM metric WHERE name = ?1", name, NULL);
}

static const char *metric_unit(struct pr_store *st, const char *name)
{
	return qs(st, "SELECT unit FROM metric WHERE name = ?1", name, NULL);
}

static int64_t nth_ts(struct pr_store *st, const char *name, const char *device, const char *n)
{
	return qi(st,
		  "SELECT ts FROM sample_v WHERE name = ?1 AND device = ?2 ORDER BY ts "
		  "LIMIT 1 OFFSET ?3",
		  name, device, n, NULL);
}

#define MIB 1048576.0

/* ---- sniffing ---- */

static int sniff(const char *text)
{
	const struct pr_format *f = pr_format_find("inferix");
	return f->sniff((const unsigned char *)text, strlen(text), "x.json");
}

static void test_sniff(void **state)
{
	(void)state;
	assert_int_equal(sniff("{\n  \"session_info\": {\n    \"id\": \"s\",\n    \"start_time\": "
			       "1.0,\n    \"end_time\": 2.0, \"duration\": 1.0, \"tags\": {}, "
			       "\"generated_at\": 3.0},\n  \"summary\": {}"),
			 90);
	assert_int_equal(sniff("{\n  \"session_id\": \"s\",\n  \"gpu_data\": [\n    {\n      "
			       "\"timestamp\": 1700000000.0,"),
			 85);
	assert_int_equal(sniff("{\"session_id\": \"s\", \"gpu_data\": [], \"cpu_data\": [], "
			       "\"saved_at\": 1.0}"),
			 85);
	/* not ours: a chrome trace, a config with a session id, the aggregator output */
	assert_int_equal(sniff("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"session_info\"}]}"),
			 0);
	assert_int_equal(sniff("{\"session_id\": \"abc\", \"user\": \"x\"}"), 0);
	assert_int_equal(sniff("{\"traceEvents\": [], \"session_info\": {\"start_time\": 1, "
			       "\"generated_at\": 2}}"),
			 0);
	assert_int_equal(sniff("{\"total_reports\": 1, \"rank_count\": 1, "
			       "\"aggregated_gpu_metrics\": {}, \"reports_summary\": []}"),
			 0);
	assert_int_equal(sniff("session_info,start_time,generated_at\n1,2,3\n"), 0);
	assert_int_equal(sniff("[{\"session_info\": 1, \"summary\": 2}]"), 0);
}

/* ---- the samples ---- */

static void test_sample_report(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	ingest_sample(st, "profiling_report_t2v_generation_20231114_221332.json");
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL), "inferix");
	assert_int_equal(qi(st, "SELECT rank FROM run", NULL), 0);
	assert_int_equal(qi(st, "SELECT world_size FROM run", NULL), 1);
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1700000000000000000LL);
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 0);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.session_id') FROM run", NULL),
			    "t2v_generation");
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.tags.mode') FROM run", NULL),
			    "text_to_video");
	assert_int_equal(qi(st, "SELECT json_array_length(meta, '$.recommendations') FROM run",
			    NULL),
			 3);

	/* spans: the session, 2 blocks, 8 steps, 16 layer ops */
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 27);
	assert_int_equal(qi(st, "SELECT count(*) FROM span_v WHERE kind = 'session'", NULL), 1);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE kind = 'session'", NULL),
			 5736500000LL);
	assert_int_equal(qi(st, "SELECT count(*) FROM span_v WHERE kind = 'block'", NULL), 2);
	assert_int_equal(qi(st, "SELECT count(*) FROM span_v WHERE kind = 'step'", NULL), 8);
	assert_int_equal(qi(st, "SELECT count(*) FROM span_v WHERE kind = 'op'", NULL), 16);
	/* block 0 ends at 3.48625 s and lasts 986.25 ms; its 4 steps nest in it */
	assert_int_equal(qi(st, "SELECT ts FROM span_v WHERE kind = 'block' ORDER BY ts", NULL),
			 2500000000LL);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE kind = 'block' ORDER BY ts", NULL),
			 986250000LL);
	assert_int_equal(qi(st, "SELECT self FROM span_v WHERE kind = 'block' ORDER BY ts", NULL),
			 12500000LL);
	assert_int_equal(qi(st,
			    "SELECT count(*) FROM span_v s JOIN span p ON p.id = s.parent_id "
			    "WHERE s.kind = 'step' AND p.kind = 'block' AND s.depth = 2",
			    NULL),
			 8);
	/* the second step: ends at 2.9905 s, 240.5 ms */
	assert_int_equal(qi(st,
			    "SELECT ts FROM span_v WHERE kind = 'step' ORDER BY ts LIMIT 1 "
			    "OFFSET 1",
			    NULL),
			 2750000000LL);
	assert_int_equal(qi(st,
			    "SELECT dur FROM span_v WHERE kind = 'step' ORDER BY ts LIMIT 1 "
			    "OFFSET 1",
			    NULL),
			 240500000LL);
	assert_string_equal(qs(st,
			       "SELECT args ->> '$.timestep' FROM span_v WHERE kind = 'step' "
			       "ORDER BY ts LIMIT 1 OFFSET 1",
			       NULL),
			    "0.75");
	assert_int_equal(qi(st,
			    "SELECT count(*) FROM span_v WHERE kind = 'op' AND name = "
			    "'attention' AND dur = 150000000",
			    NULL),
			 8);
	assert_int_equal(diag_count(st, "overlapping_spans"), 0);
	assert_int_equal(diag_count(st, "unsorted_track"), 0);

	/* instants: every other event, data as args */
	assert_int_equal(qi(st, "SELECT count(*) FROM instant", NULL), 6);
	assert_int_equal(qi(st, "SELECT ts FROM instant_v WHERE name = 'checkpoint_loaded'", NULL),
			 1750000000LL);
	assert_string_equal(qs(st,
			       "SELECT args ->> '$.event_type' FROM instant_v WHERE name = "
			       "'cache_event' ORDER BY ts",
			       NULL),
			    "misses");

	/* timelines in canonical units */
	assert_int_equal(qi(st, "SELECT count(*) FROM sample_v WHERE name = 'gpu.util'", NULL), 12);
	assert_true(sample_nth(st, "gpu.util", "all", "4") == 95);
	assert_int_equal(nth_ts(st, "gpu.util", "all", "4"), 2000000000LL);
	assert_true(sample_nth(st, "gpu.mem.used", "all", "5") == 20220 * MIB);
	assert_true(sample_nth(st, "gpu.mem.total", "all", "0") == 81559 * MIB);
	assert_true(sample_nth(st, "gpu.temp", "all", "1") == 56);
	assert_true(sample_nth(st, "gpu.power", "all", "4") == 294.25);
	assert_true(sample_nth(st, "cpu.util", "", "1") == 30.0);
	assert_int_equal(nth_ts(st, "cpu.util", "", "1"), 1250000000LL);
	assert_true(sample_nth(st, "sys.mem.used", "", "0") == 12840 * MIB);
	/* the block memory is named after the field the collector recorded, not after
	 * what one caller happens to pass in it */
	assert_true(sample_nth(st, "inferix.block.memory_usage", "", "1") == 20490.0 * MIB);
	assert_int_equal(qi(st, "SELECT count(*) FROM series WHERE name LIKE 'torch.%'", NULL), 0);
	assert_non_null(strstr(qs(st,
				  "SELECT orig_unit FROM series WHERE name = "
				  "'inferix.block.memory_usage'",
				  NULL),
			       "memory_usage_mb"));

	/* reported numbers */
	assert_true(metric(st, "summary.gpu.peak_memory_usage") == 20220 * MIB);
	assert_string_equal(metric_unit(st, "summary.gpu.peak_memory_usage"), "bytes");
	assert_true(metric(st, "summary.cpu.peak_cpu_usage") == 30.0);
	assert_string_equal(metric_unit(st, "summary.cpu.peak_cpu_usage"), "percent");
	assert_true(metric(st, "stage_analysis.stages.model_loading.total_time") == 2e9);
	assert_string_equal(metric_unit(st, "stage_analysis.stages.model_loading.total_time"),
			    "ns");
	assert_true(metric(st, "stage_analysis.stages.vae_decode.call_count") == 1);
	assert_true(metric(st, "diffusion_analysis.total_steps") == 8);
	assert_true(metric(st, "diffusion_analysis.min_computation_time") == 238e6);
	assert_true(metric(st, "block_analysis.total_frames") == 6);
	assert_true(metric(st, "block_analysis.max_computation_time") == 1000.25e6);
	assert_true(metric(st, "cache_analysis.cache_efficiency.hit_rate") == 0.5);
	assert_true(metric(st, "model_analysis.total_parameters") == 6980000000.0);
	assert_true(metric(st, "computation_analysis.bottlenecks.attention.percentage") >
		    78.947368);
	assert_true(metric(st, "gpu_metrics.temperature_analysis.thermal_throttling_risk") == 0);
	assert_true(metric(st, "gpu_metrics.power_analysis.total_energy_wh") == 4.06625);
	assert_string_equal(qs(st,
			       "SELECT origin FROM metric WHERE name = "
			       "'summary.gpu.peak_memory_usage'",
			       NULL),
			    "reported");
	/* 2439.75 W * 0.5 s / 3600 */
	assert_true(fabs(metric(st, "gpu_metrics.power_analysis.total_energy") - 0.338854166) <
		    1e-6);
	assert_string_equal(qs(st,
			       "SELECT origin FROM metric WHERE name = "
			       "'gpu_metrics.power_analysis.total_energy'",
			       NULL),
			    "derived");
	assert_int_equal(qi(st, "SELECT count(*) FROM metric WHERE name = 'recommendation'", NULL),
			 3);
	assert_string_equal(qs(st,
			       "SELECT detail FROM metric WHERE name = 'recommendation' AND "
			       "value = 3",
			       NULL),
			    "[High] Computation Bottleneck: Layer 'attention' takes 78.9% of total "
			    "computation time -- Consider optimizing 'attention' layer computation "
			    "or redistributing workload.");

	/* the collector's quirks */
	assert_int_equal(diag_count(st, "inferix_energy_overcounted"), 1);
	assert_int_equal(diag_count(st, "inferix_diffusion_fps_per_step"), 1);
	assert_int_equal(diag_count(st, "inferix_stage_share_double_counted"), 1);
	assert_int_equal(diag_count(st, "inferix_block_memory_is_peak"), 1);
	assert_int_equal(diag_count(st, "inferix_first_block_delay_unconditional"), 1);
	assert_int_equal(diag_count(st, "inferix_gpu_data_zero"), 0);
	assert_int_equal(diag_count(st, "inferix_bad_value"), 0);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 5);
	pr_store_close(st);
}

static void test_sample_raw(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	ingest_sample(st, "raw_profiling_data_t2v_generation_20231114_221332.json");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1700000000000000000LL);
	assert_int_equal(qi(st, "SELECT rank FROM run", NULL), INT64_MIN);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.inferix_file') FROM run", NULL),
			    "raw");
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.gpu_devices.\"cuda:0\"') FROM run",
			       NULL),
			    "NVIDIA H100 80GB HBM3");
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 0);
	assert_true(sample_nth(st, "gpu.util", "cuda:0", "4") == 95);
	assert_true(sample_nth(st, "gpu.util", "all", "4") == 95);
	assert_true(sample_nth(st, "gpu.mem.used", "cuda:0", "5") == 20220 * MIB);
	assert_true(sample_nth(st, "gpu.mem.free", "cuda:0", "0") == (81559 - 20000) * MIB);
	assert_true(sample_nth(st, "dev.mem.allocated", "cuda:0", "0") == (20000 - 1024) * MIB);
	assert_true(sample_nth(st, "gpu.clock.sm", "cuda:0", "0") == 1755);
	assert_true(sample_nth(st, "gpu.mem.util", "cuda:0", "4") == 31);
	assert_true(sample_nth(st, "cpu.util", "", "1") == 30.0);
	assert_true(sample_nth(st, "cpu.util", "cpu1", "1") == 25.0);
	assert_int_equal(nth_ts(st, "cpu.util", "cpu1", "1"), 1250000000LL);
	assert_true(sample_nth(st, "sys.mem.available", "", "0") == (32768 - 12840) * MIB);
	assert_true(sample_nth(st, "load_average_1min", "", "0") == 1.25);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 0);
	pr_store_close(st);
}

static void test_sample_multirank(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	ingest_sample(st, "multirank/rank_1/profiling_report_t2v_generation_20231114_221333.json");
	ingest_sample(st, "multirank/rank_2/profiling_report_t2v_generation_20231114_221334.json");
	/* rank 1 from its tags, rank 2 (no rank tag) from its rank_2/ directory */
	assert_int_equal(qi(st, "SELECT rank FROM run WHERE id = 1", NULL), 1);
	assert_int_equal(qi(st, "SELECT world_size FROM run WHERE id = 1", NULL), 3);
	assert_int_equal(qi(st, "SELECT rank FROM run WHERE id = 2", NULL), 2);
	assert_int_equal(qi(st, "SELECT world_size FROM run WHERE id = 2", NULL), 3);
	assert_int_equal(qi(st,
			    "SELECT count(*) FROM metric WHERE run_id = 2 AND name = "
			    "'recommendation' AND detail LIKE '%Ring (3 GPUs)%'",
			    NULL),
			 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag WHERE code = 'overlapping_spans'", NULL),
			 0);
	pr_store_close(st);
}

/* ---- small inline inputs ---- */

#define REPORT_HEAD                                                                                \
	"{\n  \"session_info\": {\"id\": \"s\", \"start_time\": 1700000000.0, \"end_time\": "      \
	"1700000010.0, \"duration\": 10.0, \"tags\": {\"rank\": \"1\", \"world_size\": 4}, "       \
	"\"generated_at\": 1700000011.0},\n"

static void test_cpu_only(void **state)
{
	/* no NVML: zero GPU snapshots, the reporter's spurious utilization advice */
	static const char text[] = REPORT_HEAD
		"  \"summary\": {\"gpu\": {\"peak_memory_usage_mb\": 0, \"avg_memory_usage_mb\": "
		"0.0, \"peak_memory_utilization\": 0.0, \"avg_gpu_utilization\": 0.0, "
		"\"peak_gpu_utilization\": 0}},\n"
		"  \"gpu_metrics\": {\"total_samples\": 2, \"timeline\": [\n"
		"    {\"timestamp\": 1700000000.5, \"memory_used_mb\": 0, \"memory_total_mb\": 0, "
		"\"utilization\": 0, \"temperature\": 0, \"power\": 0.0},\n"
		"    {\"timestamp\": 1700000001.0, \"memory_used_mb\": 0, \"memory_total_mb\": 0, "
		"\"utilization\": 0, \"temperature\": 0, \"power\": 0.0}],\n"
		"    \"temperature_analysis\": {}, \"power_analysis\": {}},\n"
		"  \"cpu_metrics\": {},\n  \"stage_analysis\": {},\n  \"events\": [],\n"
		"  \"recommendations\": [{\"category\": \"GPU Utilization\", "
		"\"priority\": \"Medium\", "
		"\"issue\": \"Average GPU utilization is only 0.0%\", \"suggestion\": \"x\"}],\n"
		"  \"streaming_analysis\": {\"total_streaming_events\": 2, \"drop_rate_percent\": "
		"12.5, \"avg_encoding_time_ms\": 4.25},\n"
		"  \"memory_analysis\": {\"allocation_patterns\": {\"cuda\": "
		"{\"total_bytes_allocated\": 3145728, \"avg_allocation_size_bytes\": 1048576.0}}, "
		"\"fragmentation_analysis\": {\"small_allocation_ratio\": 0.5}},\n"
		"  \"cache_analysis\": {}\n}\n";
	struct pr_store *st = open_store();
	(void)state;
	ix_ingest_text(st, text);
	assert_true(metric(st, "streaming_analysis.drop_rate_percent") == 12.5);
	assert_true(metric(st, "streaming_analysis.avg_encoding_time") == 4250000);
	assert_string_equal(metric_unit(st, "streaming_analysis.avg_encoding_time"), "ns");
	assert_true(metric(st, "memory_analysis.allocation_patterns.cuda.total_bytes_allocated") ==
		    3145728);
	assert_string_equal(
		metric_unit(st, "memory_analysis.allocation_patterns.cuda.total_bytes_allocated"),
		"bytes");
	assert_string_equal(
		metric_unit(st, "memory_analysis.fragmentation_analysis.small_allocation_ratio"),
		"ratio");
	assert_int_equal(diag_count(st, "inferix_gpu_data_zero"), 1);
	assert_int_equal(diag_count(st, "inferix_energy_overcounted"), 0);
	/* a numeric string tag (default=str) still gives the rank */
	assert_int_equal(qi(st, "SELECT rank FROM run", NULL), 1);
	assert_int_equal(qi(st, "SELECT world_size FROM run", NULL), 4);
	/* the zeros are not stored as if the GPU were idle */
	assert_int_equal(qi(st, "SELECT count(*) FROM sample_v WHERE name LIKE 'gpu.%'", NULL), 0);
	assert_true(metric(st, "recommendation") == 2);
	pr_store_close(st);

	/* raw data with torch but no NVML: zero totals skipped, torch memory kept */
	st = open_store();
	ix_ingest_text(st, "{\"session_id\": \"t\", \"gpu_data\": [{\"timestamp\": 1700000000.25, "
			   "\"metrics\": {\"gpu_devices\": {\"gpu_0\": {\"device_id\": 0, "
			   "\"torch_memory_allocated_mb\": 512.5, "
			   "\"torch_device_name\": \"cuda dev\"}}, "
			   "\"total_gpu_memory_used_mb\": 0, \"total_gpu_memory_total_mb\": 0, "
			   "\"max_gpu_utilization\": 0, \"max_gpu_temperature\": 0, "
			   "\"total_gpu_power_watts\": 0}}], \"cpu_data\": [], \"saved_at\": 1.0}");
	assert_int_equal(diag_count(st, "inferix_gpu_data_zero"), 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM sample_v WHERE device = 'all'", NULL), 0);
	assert_true(sample_nth(st, "dev.mem.allocated", "cuda:0", "0") == 512.5 * MIB);
	assert_int_equal(nth_ts(st, "dev.mem.allocated", "cuda:0", "0"), 0);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.gpu_devices.\"cuda:0\"') FROM run",
			       NULL),
			    "cuda dev");
	pr_store_close(st);
}

static void test_bad_values(void **state)
{
	static const char text[] = REPORT_HEAD
		"  \"summary\": {},\n"
		"  \"gpu_metrics\": {\"total_samples\": 3, \"timeline\": [\n"
		"    {\"timestamp\": 1700000000.5, \"memory_used_mb\": \"20000\", "
		"\"memory_total_mb\": 81559, \"utilization\": 50, \"temperature\": 60, "
		"\"power\": NaN},\n"
		"    {\"timestamp\": \"later\", \"memory_used_mb\": 1, \"memory_total_mb\": 1, "
		"\"utilization\": 1, \"temperature\": 1, \"power\": 1.0},\n"
		"    {\"timestamp\": 1700000001.0, \"memory_used_mb\": 100, \"memory_total_mb\": "
		"81559, \"utilization\": 70, \"temperature\": 61, \"power\": 100.0}]},\n"
		"  \"cpu_metrics\": {},\n  \"stage_analysis\": {},\n"
		"  \"events\": [\n"
		"    {\"name\": \"diffusion_step\", \"timestamp\": 1700000002.0, "
		"\"data\": {\"step\": 0, "
		"\"computation_time_ms\": \"slow\"}},\n"
		"    {\"name\": \"custom\", \"data\": {}},\n"
		"    {\"name\": \"model_parameters\", \"timestamp\": 1700000003.0, \"data\": "
		"{\"model_name\": \"m\", \"parameters_count\": 10, \"model_type\": \"t\"}},\n"
		"    {\"name\": \"model_parameters\", \"timestamp\": 1700000003.5, \"data\": "
		"{\"model_name\": \"m\", \"parameters_count\": 10, \"model_type\": \"t\"}},\n"
		"    {\"name\": \"layer_computation\", \"timestamp\": 1700000004.0, \"data\": "
		"{\"layer_name\": \"attn\", \"computation_time_ms\": 0.5, "
		"\"parameters_count\": 1}}\n"
		"  ],\n"
		"  \"recommendations\": [{\"category\": 1}],\n"
		"  \"cache_analysis\": {}\n}\n";
	struct pr_store *st = open_store();
	(void)state;
	ix_ingest_text(st, text);
	/* sample 0: memory string skipped, power NaN -> null skipped; sample 1 skipped */
	assert_int_equal(qi(st, "SELECT count(*) FROM sample_v WHERE name = 'gpu.mem.used'", NULL),
			 1);
	assert_true(sample_nth(st, "gpu.mem.used", "all", "0") == 100 * MIB);
	assert_int_equal(qi(st, "SELECT count(*) FROM sample_v WHERE name = 'gpu.util'", NULL), 2);
	assert_int_equal(qi(st, "SELECT count(*) FROM sample_v WHERE name = 'gpu.power'", NULL), 1);
	assert_int_equal(diag_count(st, "inferix_nonfinite"), 1);
	assert_true(diag_count(st, "inferix_bad_value") >= 3);
	assert_string_equal(qs(st, "SELECT message FROM diag WHERE code = 'inferix_bad_value'",
			       NULL),
			    "'gpu_metrics.timeline[0].memory_used_mb': expected a number");
	/* the step without a usable duration is kept as an instant */
	assert_int_equal(diag_count(st, "inferix_bad_event"), 2);
	assert_int_equal(qi(st, "SELECT count(*) FROM instant_v WHERE name = 'diffusion_step'",
			    NULL),
			 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM instant_v WHERE name = 'custom'", NULL), 0);
	assert_int_equal(diag_count(st, "inferix_model_total_overcounted"), 1);
	/* 0.5 ms layer ending at 4 s */
	assert_int_equal(qi(st, "SELECT ts FROM span_v WHERE name = 'attn'", NULL), 3999500000LL);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'attn'", NULL), 500000LL);
	assert_int_equal(qi(st, "SELECT count(*) FROM metric WHERE name = 'recommendation'", NULL),
			 0);
	pr_store_close(st);
}

static void test_raw_capped(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_store *st = open_store();
	int i;
	(void)state;
	pr_strbuf_addf(&sb, "{\"session_id\": \"c\", \"gpu_data\": [], \"cpu_data\": [");
	for (i = 0; i < 10000; i++)
		pr_strbuf_addf(&sb,
			       "%s{\"timestamp\": %d.5, \"metrics\": {\"cpu_usage_percent\": "
			       "%d.0}}",
			       i ? "," : "", 1700000000 + i, i % 100);
	pr_strbuf_addf(&sb, "], \"saved_at\": 1700010001.0}");
	ix_ingest_text(st, sb.buf);
	pr_strbuf_release(&sb);
	assert_int_equal(diag_count(st, "inferix_samples_capped"), 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM sample", NULL), 10000);
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1700000000500000000LL);
	assert_int_equal(nth_ts(st, "cpu.util", "", "9999"), 9999000000000LL);
	pr_store_close(st);
}

static void test_errors(void **state)
{
	struct pr_store *st = open_store();
	struct pr_error err;
	(void)state;
	err = ix_ingest_fail(st, "{\"session_info\": {\"id\": \"s\", \"start_time\": \"x\"}}");
	assert_string_equal(err.text, "'session_info.start_time': expected a number");
	err = ix_ingest_fail(st, "{\"session_info\": [], \"summary\": {}}");
	assert_string_equal(err.text, "'session_info': expected an object");
	err = ix_ingest_fail(st, "{\"session_id\": \"s\", \"gpu_data\": {}}");
	assert_string_equal(err.text, "'gpu_data': expected an array");
	err = ix_ingest_fail(st, "[1, 2]");
	assert_non_null(strstr(err.text, "expected a JSON object"));
	err = ix_ingest_fail(st,
			     "{\"total_reports\": 0, \"rank_count\": 0, \"reports_summary\": []}");
	assert_non_null(strstr(err.text, "aggregated reports are not supported"));
	/* truncated: jansson's position */
	err = ix_ingest_fail(st, "{\n  \"session_info\": {\n    \"id\": \"s\",\n    \"start_");
	assert_int_equal(err.line, 4);
	assert_true(err.column > 0);
	pr_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sniff),	   cmocka_unit_test(test_sample_report),
		cmocka_unit_test(test_sample_raw), cmocka_unit_test(test_sample_multirank),
		cmocka_unit_test(test_cpu_only),   cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_raw_capped), cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
