/* test_diffulex.c - the Diffulex profiler formats (diffulex, diffulex-csv,
 * diffulex-summary) end to end, from the samples and from small inline
 * inputs, broken ones included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "ingest/format.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "base/strbuf.h"
#include "tests/unit/helpers.h"

/* ---- helpers ---- */

static void dx_ingest_ok(struct pr_store *st, const char *path, const char *force,
			 const char *expect_format)
{
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	int rc = pr_ingest_file(st, path, force, &res, &err);
	if (rc)
		fail_msg("ingest '%s' failed: %s", path, err.text);
	assert_string_equal(res.format, expect_format);
}

static void dx_ingest_text(struct pr_store *st, const char *text, const char *expect_format)
{
	char *path = write_temp(text, strlen(text));
	dx_ingest_ok(st, path, NULL, expect_format);
	unlink(path);
	free(path);
}

/* Ingest that must fail; returns the error (static). */
static const struct pr_error *dx_ingest_fail(struct pr_store *st, const char *text,
					     const char *force)
{
	static struct pr_error err;
	struct pr_ingest_result res;
	char *path = write_temp(text, strlen(text));
	pr_error_init(&err);
	assert_int_equal(pr_ingest_file(st, path, force, &res, &err), -1);
	unlink(path);
	free(path);
	return &err;
}

/* A section-scoped metric: (metric name, origin, section name). */
static double smetric(struct pr_store *st, const char *name, const char *origin,
		      const char *section)
{
	return qd(st,
		  "SELECT m.value FROM metric m JOIN span_v s ON s.id = m.span_id "
		  "WHERE m.name = ?1 AND m.origin = ?2 AND s.name = ?3",
		  name, origin, section, NULL);
}

static double rmetric(struct pr_store *st, const char *name, const char *origin)
{
	return qd(st,
		  "SELECT value FROM metric WHERE name = ?1 AND origin = ?2 AND span_id IS NULL",
		  name, origin, NULL);
}

static int64_t span_i(struct pr_store *st, const char *col_sql, const char *section)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int64_t v;
	pr_strbuf_addf(&sb, "SELECT %s FROM span_v WHERE name = ?1", col_sql);
	v = qi(st, sb.buf, section, NULL);
	pr_strbuf_release(&sb);
	return v;
}

static const char *span_s(struct pr_store *st, const char *col_sql, const char *section)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const char *v;
	pr_strbuf_addf(&sb, "SELECT %s FROM span_v WHERE name = ?1", col_sql);
	v = qs(st, sb.buf, section, NULL);
	pr_strbuf_release(&sb);
	return v;
}

#define CLOSE_ENOUGH(a, b) assert_true(fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-9)

/* ---- the JSON export ---- */

static void test_json_sample(void **state)
{
	struct pr_store *st = open_store();
	char *path = sample_path("diffulex/profile_20250101_120000.json");
	(void)state;
	dx_ingest_ok(st, path, NULL, "diffulex");
	free(path);
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL), "diffulex");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	assert_true(qi(st, "SELECT time_origin_ns FROM run", NULL) == INT64_MIN);
	assert_int_equal(qi(st, "SELECT count(*) FROM span_v WHERE kind = 'section'", NULL), 4);
	assert_int_equal(qi(st, "SELECT count(DISTINCT track_id) FROM span", NULL), 1);
	/* end to end, in file order */
	assert_int_equal(span_i(st, "ts", "model_loading"), 0);
	assert_int_equal(span_i(st, "dur", "model_loading"), 50258119);
	assert_int_equal(span_i(st, "ts", "decode"), 50258119);
	assert_int_equal(span_i(st, "dur", "decode"), 100182764);
	assert_int_equal(span_i(st, "ts", "batch_0"), 150440883);
	assert_int_equal(span_i(st, "dur", "batch_0"), 20144275);
	assert_int_equal(span_i(st, "ts", "batch_1"), 170585158);
	assert_int_equal(span_i(st, "dur", "batch_1"), 250000000);
	assert_int_equal(qi(st, "SELECT ts_max FROM run", NULL), 420585158);
	/* args: metadata, custom metrics, backend data */
	assert_int_equal(span_i(st, "json_extract(args, '$.metadata.batch_size')", "decode"), 10);
	assert_string_equal(span_s(st, "json_extract(args, '$.custom_metrics.avg_diff_steps')",
				   "decode"),
			    "37.5");
	assert_string_equal(span_s(st, "json_extract(args, '$.backend_data.name')", "batch_0"),
			    "batch_0");
	assert_string_equal(span_s(st, "json_extract(args, '$.metadata.model')", "batch_1"),
			    "dream, v0 \xc3\xa9");
	assert_int_equal(span_i(st, "json_extract(args, '$.metadata.greedy')", "batch_1"), 1);
	assert_string_equal(span_s(st, "args", "model_loading"),
			    "{\"backend_data\":{\"duration_sec\":0.050263445999986452,"
			    "\"name\":\"model_loading\"}}");
	/* reported numbers */
	CLOSE_ENOUGH(smetric(st, "duration", "reported", "decode"), 100182764.00001014);
	assert_true(smetric(st, "total_tokens", "reported", "batch_0") == 1000);
	assert_true(smetric(st, "throughput", "reported", "batch_0") == 2000.0);
	CLOSE_ENOUGH(smetric(st, "throughput", "derived", "batch_0"), 1000 / 0.020144275000006928);
	assert_true(smetric(st, "throughput", "derived", "batch_1") == -1e300);
	assert_true(smetric(st, "total_tokens", "reported", "decode") == -1e300);
	assert_true(smetric(st, "gpu_utilization_delta", "reported", "batch_0") == 12.0);
	assert_true(smetric(st, "gpu_utilization_delta", "reported", "batch_1") == -7.0);
	assert_string_equal(qs(st, "SELECT unit FROM metric WHERE name = 'gpu_utilization_delta'",
			       NULL),
			    "percent");
	assert_true(smetric(st, "memory_delta", "reported", "model_loading") == 512.25 * 1048576);
	assert_true(smetric(st, "memory_delta", "reported", "batch_0") == -3.5 * 1048576);
	assert_true(smetric(st, "custom.num_outputs", "reported", "decode") == 2);
	assert_true(smetric(st, "custom.accept_rate", "reported", "batch_1") == 0.8125);
	assert_int_equal(qi(st, "SELECT count(*) FROM metric WHERE name = 'custom.stop'", NULL), 0);
	CLOSE_ENOUGH(smetric(st, "backend.duration", "reported", "decode"), 100188455.00002271);
	assert_true(rmetric(st, "summary.total_sections", "reported") == 4);
	assert_true(rmetric(st, "summary.total_tokens", "reported") == 1512);
	CLOSE_ENOUGH(rmetric(st, "summary.total_duration", "reported"), 420585158.00005125);
	CLOSE_ENOUGH(rmetric(st, "summary.avg_throughput", "reported"), 3594.991338234089);
	CLOSE_ENOUGH(rmetric(st, "summary.avg_throughput", "derived"),
		     1512 / (0.020144275000006928 + 0.25));
	/* the collector's quirks */
	assert_int_equal(diag_count(st, "diffulex_throughput_not_recorded"), 2);
	assert_int_equal(diag_count(st, "diffulex_throughput_other_duration"), 1);
	assert_int_equal(diag_count(st, "diffulex_avg_throughput_diluted"), 1);
	assert_int_equal(diag_count(st, "diffulex_gpu_util_negative"), 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 4);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.backend') FROM run", NULL),
			    "simple");
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.summary.total_tokens') FROM run",
			    NULL),
			 1512);
	assert_true(strstr(qs(st, "SELECT json_extract(meta, '$.time_base') FROM run", NULL),
			   "synthetic") != NULL);
	assert_true(strstr(qs(st, "SELECT json_extract(meta, '$.gpu_utilization') FROM run", NULL),
			   "stop minus at start") != NULL);
	pr_store_close(st);
}

/* What json.dump leaves when a metadata value is not serializable
 * (make_sample.py --truncated writes exactly this shape). */
static const char truncated_json[] =
	"{\n  \"metrics\": [\n    {\n      \"name\": \"a\",\n      \"metadata\": {},\n"
	"      \"duration_sec\": 0.5,\n      \"total_tokens\": 0,\n"
	"      \"throughput_tokens_per_sec\": 0.0,\n      \"gpu_utilization\": 0.0,\n"
	"      \"memory_delta_mb\": 0.0,\n      \"custom_metrics\": {},\n"
	"      \"backend_data\": {\n        \"duration_sec\": 0.5,\n        \"name\": \"a\"\n"
	"      }\n    },\n    {\n      \"name\": \"b\",\n      \"metadata\": {\n"
	"        \"tokenizer\": ";

static void test_json_truncated(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	dx_ingest_text(st, truncated_json, "diffulex");
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 1);
	assert_int_equal(span_i(st, "dur", "a"), 500000000);
	assert_int_equal(diag_count(st, "diffulex_json_truncated"), 1);
	/* the position of the cut, as jansson reports it */
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'diffulex_json_truncated'",
			    NULL),
			 20);
	assert_true(qi(st, "SELECT json_extract(meta, '$.truncated_after_bytes') FROM run", NULL) >
		    0);
	assert_int_equal(qi(st, "SELECT count(*) FROM metric WHERE name LIKE 'summary.%'", NULL),
			 0);
	pr_store_close(st);
}

static void test_json_bad_values(void **state)
{
	static const char text[] =
		"{\"metrics\": [\n"
		" {\"name\": \"ok\", \"metadata\": {}, \"duration_sec\": 1.0, \"total_tokens\": 100,"
		"  \"throughput_tokens_per_sec\": 0.0, \"gpu_utilization\": 0,"
		"  \"memory_delta_mb\": NaN, \"custom_metrics\": {\"flag\": true, \"s\": \"x\"},"
		"  \"backend_data\": {\"backend\": \"pytorch\", \"trace_file\": \"t.json\","
		"  \"stacks_file\": null, \"top_table_file\": \"top.txt\", \"name\": \"ok\","
		"  \"summary\": {\"total_events\": 7, \"cpu_time_total_ms\": 1.5,"
		"  \"cuda_time_total_ms\": 2.0}}},\n"
		" {\"name\": \"str\", \"duration_sec\": \"0.5\"},\n"
		" {\"name\": 3, \"duration_sec\": 0.5},\n"
		" 42,\n"
		" {\"name\": \"neg\", \"duration_sec\": -1},\n"
		" {\"name\": \"viz\", \"duration_sec\": 0.25, \"total_tokens\": \"many\","
		"  \"metadata\": [1], \"backend_data\": {\"backend\": \"viztracer\","
		"  \"output_file\": \"log/profiles/viztracer_viz.json\"}}\n"
		"], \"summary\": {\"total_sections\": 9, \"total_duration_sec\": 1.25,"
		" \"total_tokens\": 100, \"avg_throughput_tokens_per_sec\": 80.0}}";
	struct pr_store *st = open_store();
	(void)state;
	dx_ingest_text(st, text, "diffulex");
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 2);
	assert_int_equal(span_i(st, "ts", "viz"), 1000000000);
	assert_int_equal(diag_count(st, "diffulex_throughput_zero"), 1);
	assert_int_equal(diag_count(st, "diffulex_gpu_util_no_nvml"), 1);
	assert_int_equal(diag_count(st, "diffulex_nonfinite"), 1);
	/* "0.5", "many", -1, metadata [1] */
	assert_int_equal(diag_count(st, "diffulex_bad_value"), 4);
	assert_true(
		strstr(qs(st, "SELECT message FROM diag WHERE code = 'diffulex_bad_value'", NULL),
		       "'metrics[1].duration_sec': expected a number") != NULL);
	/* name 3, the bare 42 */
	assert_int_equal(diag_count(st, "diffulex_bad_section"), 2);
	assert_int_equal(diag_count(st, "diffulex_summary_mismatch"), 1);
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.sections_skipped') FROM run", NULL),
			 4);
	assert_true(smetric(st, "custom.flag", "reported", "ok") == 1);
	assert_true(smetric(st, "pytorch.total_events", "reported", "ok") == 7);
	assert_true(smetric(st, "pytorch.cpu_time_total", "reported", "ok") == 1.5e6);
	assert_true(smetric(st, "pytorch.cuda_time_total", "reported", "ok") == 2.0e6);
	assert_true(smetric(st, "memory_delta", "reported", "ok") == -1e300);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.backend') FROM run", NULL),
			    "pytorch");
	assert_string_equal(qs(st,
			       "SELECT json_extract(meta, '$.backend_files[0].trace_file') "
			       "FROM run",
			       NULL),
			    "t.json");
	assert_int_equal(qi(st,
			    "SELECT json_type(meta, '$.backend_files[0].stacks_file') = "
			    "'null' FROM run",
			    NULL),
			 1);
	assert_string_equal(qs(st,
			       "SELECT json_extract(meta, '$.backend_files[1].output_file') "
			       "FROM run",
			       NULL),
			    "log/profiles/viztracer_viz.json");
	pr_store_close(st);
}

static void test_json_errors(void **state)
{
	struct pr_store *st = open_store();
	const struct pr_error *e;
	(void)state;
	e = dx_ingest_fail(st, "{\"metrics\": {\"name\": \"a\"}, \"summary\": {}}", "diffulex");
	assert_string_equal(e->text, "'metrics': expected an array of sections");
	e = dx_ingest_fail(st, "{\"metrics\": [\n  {\"name\": \"a\" \"duration_sec\": 1}\n]}",
			   "diffulex");
	assert_int_equal(e->line, 2);
	assert_true(e->column > 0);
	/* cut before any complete section: nothing to keep */
	e = dx_ingest_fail(st, "{\n  \"metrics\": [\n    {\n      \"name\": ", "diffulex");
	assert_int_equal(e->code, PR_E_PARSE);
	e = dx_ingest_fail(st, "", "diffulex");
	assert_int_equal(e->code, PR_E_PARSE);
	assert_string_equal(e->text, "empty file");
	assert_int_equal(e->line, 0);
	e = dx_ingest_fail(st, "{\"metrics\": [1, 2", "diffulex");
	assert_int_equal(e->line > 0, e->column > 0);
	assert_int_equal(qi(st, "SELECT count(*) FROM run", NULL), 0);
	pr_store_close(st);
}

/* ---- the CSV export ---- */

static void test_csv_sample(void **state)
{
	struct pr_store *st = open_store();
	char *path = sample_path("diffulex/profile_20250101_120000.csv");
	(void)state;
	dx_ingest_ok(st, path, NULL, "diffulex-csv");
	free(path);
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL), "diffulex");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.rows') FROM run", NULL), 4);
	assert_int_equal(qi(st, "SELECT json_array_length(meta, '$.csv_header') FROM run", NULL),
			 13);
	assert_int_equal(span_i(st, "ts", "batch_1"), 170585158);
	assert_int_equal(span_i(st, "dur", "decode"), 100182764);
	assert_string_equal(span_s(st, "args", "decode"),
			    "{\"metadata\":{\"batch_size\":10,\"num_prompts\":2},"
			    "\"custom_metrics\":{\"avg_diff_steps\":37.5,\"num_outputs\":2}}");
	/* Python reprs typed back; a list stays its repr; a quoted comma survives */
	assert_string_equal(span_s(st, "args", "batch_1"),
			    "{\"metadata\":{\"batch_size\":4,\"greedy\":true,"
			    "\"model\":\"dream, v0 \xc3\xa9\",\"prompt_lens\":\"[12, 40]\"},"
			    "\"custom_metrics\":{\"accept_rate\":0.8125}}");
	assert_true(qi(st, "SELECT count(*) FROM span_v WHERE args IS NULL", NULL) == 1);
	assert_true(smetric(st, "throughput", "reported", "batch_0") == 2000.0);
	CLOSE_ENOUGH(smetric(st, "throughput", "derived", "batch_0"), 1000 / 0.020144275000006928);
	assert_true(smetric(st, "total_tokens", "reported", "batch_1") == 512);
	assert_true(smetric(st, "custom.avg_diff_steps", "reported", "decode") == 37.5);
	assert_int_equal(qi(st, "SELECT count(*) FROM metric WHERE name = 'memory_delta'", NULL),
			 0);
	assert_int_equal(diag_count(st, "diffulex_throughput_not_recorded"), 2);
	assert_int_equal(qi(st,
			    "SELECT line FROM diag WHERE code = "
			    "'diffulex_throughput_not_recorded'",
			    NULL),
			 2);
	assert_int_equal(diag_count(st, "diffulex_throughput_other_duration"), 1);
	assert_int_equal(qi(st,
			    "SELECT line FROM diag WHERE code = "
			    "'diffulex_throughput_other_duration'",
			    NULL),
			 4);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 2);
	pr_store_close(st);
}

static void test_csv_bad(void **state)
{
	static const char text[] =
		"duration_sec,metadata_k,name,throughput_tokens_per_sec,total_tokens,z\r\n"
		"0.5,False,a,100.0,50,inf\r\n"
		"abc,,b,0.0,0,\r\n"
		"0.25,,c,0.0\r\n"
		"1e-05,None,d,x,7,\"{'a': 1}\"\r\n";
	static const char unsorted[] = "name,duration_sec,total_tokens,throughput_tokens_per_sec\n"
				       "a,0.5,0,0.0\n";
	struct pr_store *st = open_store();
	const struct pr_error *e;
	(void)state;
	dx_ingest_text(st, text, "diffulex-csv");
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 2);
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.rows_skipped') FROM run", NULL), 2);
	assert_int_equal(diag_count(st, "diffulex_csv_bad_value"), 2); /* abc, x */
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'diffulex_csv_bad_value'",
			    NULL),
			 3);
	assert_int_equal(diag_count(st, "diffulex_csv_bad_field_count"), 1);
	assert_int_equal(diag_count(st, "diffulex_csv_nonfinite"), 1);
	assert_int_equal(span_i(st, "json_extract(args, '$.metadata.k')", "a"), 0);
	assert_string_equal(span_s(st, "json_extract(args, '$.custom_metrics.z')", "a"), "inf");
	assert_string_equal(span_s(st, "json_extract(args, '$.metadata.k')", "d"), "None");
	assert_string_equal(span_s(st, "json_extract(args, '$.custom_metrics.z')", "d"),
			    "{'a': 1}");
	assert_int_equal(span_i(st, "dur", "d"), 10000);
	assert_int_equal(span_i(st, "ts", "d"), 500000000);
	/* 50 tokens at 100/s over 0.5 s: consistent, no diagnostic */
	assert_int_equal(diag_count(st, "diffulex_throughput_other_duration"), 0);
	pr_store_close(st);

	st = open_store();
	dx_ingest_text(st, unsorted, "diffulex-csv");
	assert_int_equal(diag_count(st, "diffulex_csv_header_unsorted"), 2);
	e = dx_ingest_fail(st, "name,duration_sec,total_tokens\r\na,1,0\r\n", "diffulex-csv");
	assert_string_equal(e->text, "not a Diffulex CSV header: no 'throughput_tokens_per_sec' "
				     "column");
	e = dx_ingest_fail(st, "", "diffulex-csv");
	assert_int_equal(e->code, PR_E_FORMAT);
	pr_store_close(st);
}

/* ---- the summary text ---- */

static void test_txt_sample(void **state)
{
	struct pr_store *st = open_store();
	char *path = sample_path("diffulex/profile_20250101_120000.txt");
	(void)state;
	dx_ingest_ok(st, path, NULL, "diffulex-summary");
	free(path);
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 4);
	/* %.4f seconds */
	assert_int_equal(span_i(st, "dur", "model_loading"), 50300000);
	assert_int_equal(span_i(st, "ts", "decode"), 50300000);
	assert_int_equal(span_i(st, "ts", "batch_1"), 170600000);
	assert_string_equal(span_s(st, "args", "decode"),
			    "{\"custom_metrics\":{\"num_outputs\":2,\"avg_diff_steps\":37.5},"
			    "\"metadata\":{\"num_prompts\":2,\"batch_size\":10}}");
	assert_string_equal(
		span_s(st, "args", "batch_1"),
		"{\"custom_metrics\":{\"accept_rate\":0.8125,\"stop\":null},"
		"\"metadata\":{\"batch_size\":4,\"prompt_lens\":[12,40],\"greedy\":true,"
		"\"model\":\"dream, v0 \xc3\xa9\"}}");
	assert_true(smetric(st, "memory_delta", "reported", "model_loading") == 512.25 * 1048576);
	assert_true(smetric(st, "memory_delta", "reported", "decode") == -1e300);
	assert_true(smetric(st, "gpu_utilization_delta", "reported", "batch_1") == -7.0);
	assert_true(smetric(st, "throughput", "reported", "batch_0") == 2000.0);
	CLOSE_ENOUGH(smetric(st, "throughput", "derived", "batch_0"), 1000 / 0.0201);
	assert_true(smetric(st, "custom.num_outputs", "reported", "decode") == 2);
	assert_true(rmetric(st, "summary.total_duration", "reported") == 420000000);
	assert_true(rmetric(st, "summary.avg_throughput", "reported") == 3594.99);
	assert_true(rmetric(st, "summary.total_sections", "reported") == 4);
	assert_int_equal(diag_count(st, "diffulex_throughput_not_recorded"), 2);
	assert_int_equal(qi(st,
			    "SELECT line FROM diag WHERE code = "
			    "'diffulex_throughput_not_recorded'",
			    NULL),
			 14);
	assert_int_equal(diag_count(st, "diffulex_throughput_other_duration"), 1);
	assert_int_equal(diag_count(st, "diffulex_avg_throughput_diluted"), 1);
	assert_int_equal(diag_count(st, "diffulex_gpu_util_negative"), 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 4);
	pr_store_close(st);
}

#define RULE_EQ "================================================================================"
#define RULE_DASH "--------------------------------------------------------------------------------"

static void test_txt_bad(void **state)
{
	static const char text[] =
		RULE_EQ "\nDiffulex Profiling Summary\n" RULE_EQ "\n\n"
			"Total Sections: 3\nTotal Duration: 1.50 seconds\nTotal Tokens: 0\n"
			"Average Throughput: 0.00 tokens/sec\n\n" RULE_DASH
			"\nSection Details:\n" RULE_DASH "\n"
			"\nSection: gen\n  Duration: 1.5000 seconds\n"
			"  Custom Metrics: {'tok': <Tok object at 0x7f00>}\n"
			"  Metadata: {'t': (1, 'a\\'b'), 5: None, 'u': '\\u00e9\\x41'}\n"
			"  VizTracer Output: log/profiles/viztracer_gen.json\n"
			"  Wobble: 3\n"
			"\nSection: bad\n  Duration: fast seconds\n";
	struct pr_store *st = open_store();
	(void)state;
	dx_ingest_text(st, text, "diffulex-summary");
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 1);
	assert_int_equal(span_i(st, "dur", "gen"), 1500000000);
	assert_string_equal(span_s(st, "json_extract(args, '$.custom_metrics')", "gen"),
			    "{'tok': <Tok object at 0x7f00>}");
	assert_string_equal(span_s(st, "json_extract(args, '$.metadata')", "gen"),
			    "{\"t\":[1,\"a'b\"],\"5\":null,\"u\":\"\xc3\xa9"
			    "A\"}");
	assert_string_equal(span_s(st, "json_extract(args, '$.backend_data.output_file')", "gen"),
			    "log/profiles/viztracer_gen.json");
	assert_string_equal(qs(st,
			       "SELECT json_extract(meta, '$.backend_files[0].output_file') "
			       "FROM run",
			       NULL),
			    "log/profiles/viztracer_gen.json");
	assert_int_equal(diag_count(st, "diffulex_txt_unparsed_repr"), 1);
	assert_int_equal(diag_count(st, "diffulex_txt_bad_line"), 1);
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'diffulex_txt_bad_line'", NULL),
			 19);
	/* "fast seconds", then the section without a Duration */
	assert_int_equal(diag_count(st, "diffulex_txt_bad_value"), 2);
	assert_int_equal(diag_count(st, "diffulex_txt_truncated"), 1);
	assert_int_equal(diag_count(st, "diffulex_summary_mismatch"), 1);
	assert_int_equal(diag_count(st, "diffulex_throughput_not_recorded"), 1);
	pr_store_close(st);
}

static void test_txt_errors(void **state)
{
	struct pr_store *st = open_store();
	const struct pr_error *e;
	(void)state;
	e = dx_ingest_fail(st, RULE_EQ "\nSomething Else\n", "diffulex-summary");
	assert_int_equal(e->code, PR_E_FORMAT);
	assert_int_equal(e->line, 1);
	e = dx_ingest_fail(st, "", "diffulex-summary");
	assert_int_equal(e->code, PR_E_FORMAT);
	pr_store_close(st);
}

/* ---- sniffing ---- */

static int sniff(const char *fmt, const char *text)
{
	const struct pr_format *f = pr_format_find(fmt);
	assert_non_null(f);
	return f->sniff((const unsigned char *)text, strlen(text), "x");
}

static void test_sniff(void **state)
{
	static const char csv_head[] =
		"avg_diff_steps,duration_sec,metadata_batch_size,name,throughput_tokens_per_sec,"
		"total_tokens\r\n,0.05,,a,0.0,0\r\n";
	int best;
	(void)state;
	assert_int_equal(sniff("diffulex", truncated_json), 90);
	assert_int_equal(sniff("diffulex", "{\"traceEvents\": [{\"ph\": \"X\"}]}"), 0);
	assert_int_equal(sniff("diffulex", "{\"metrics\": [], \"summary\": {}}"), 0);
	assert_int_equal(sniff("diffulex-csv", csv_head), 90);
	assert_true(sniff("diffulex-csv", csv_head) > sniff("csv", csv_head));
	assert_int_equal(sniff("diffulex-csv", "name,duration_sec,total_tokens,"
					       "throughput_tokens_per_sec\n"),
			 80);
	assert_int_equal(sniff("diffulex-csv", "timestamp,name,duration_sec\n1,a,2\n"), 0);
	assert_int_equal(sniff("diffulex-csv", "{\"metrics\": []}"), 0);
	assert_int_equal(sniff("diffulex-summary",
			       RULE_EQ "\nDiffulex Profiling Summary\n" RULE_EQ "\n"),
			 95);
	assert_int_equal(sniff("diffulex-summary", RULE_EQ "\nOther\n"), 0);
	assert_ptr_equal(pr_format_sniff((const unsigned char *)csv_head, strlen(csv_head), "x.csv",
					 &best),
			 pr_format_find("diffulex-csv"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_sample),	cmocka_unit_test(test_json_truncated),
		cmocka_unit_test(test_json_bad_values), cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_csv_sample),	cmocka_unit_test(test_csv_bad),
		cmocka_unit_test(test_txt_sample),	cmocka_unit_test(test_txt_bad),
		cmocka_unit_test(test_txt_errors),	cmocka_unit_test(test_sniff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
