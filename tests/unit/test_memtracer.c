/* test_memtracer.c - the MemoryTracer timeline JSON format end to end. */
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

#define EV(ts, type, layer, alloc, res, frag)                                                      \
	"{\"timestamp\": " ts ", \"event_type\": \"" type "\", \"size_bytes\": 0, "                \
	"\"layer_name\": \"" layer "\", \"allocated_bytes\": " alloc ", \"reserved_bytes\": " res  \
	", \"fragmentation_ratio\": " frag "}"

/* ---- tests ---- */

static void test_sniff(void **state)
{
	(void)state;
	assert_int_equal(sniff_conf("{\"events\": [" EV("0.0", "snapshot", "__start__", "1", "2",
							"0.5") "]}",
				    "memtracer"),
			 95);
	assert_int_equal(
		sniff_conf("{\n  \"events\": [],\n  \"layer_stats\": {},\n  \"summary\": "
			   "{\"total_events\": 0, \"total_layers\": 0, \"peak_allocated_mb\": "
			   "0, \"peak_reserved_mb\": 0, \"avg_fragmentation\": 0.0}}",
			   "memtracer"),
		95);
	/* not ours: chrome traces, plain JSON, speedscope */
	assert_int_equal(sniff_conf("{\"traceEvents\": [{\"ph\": \"X\"}]}", "memtracer"), 0);
	assert_int_equal(sniff_conf("{\"events\": [1, 2]}", "memtracer"), 0);
	assert_int_equal(sniff_conf("{\"$schema\": \"https://www.speedscope.app/file-format-schema."
				    "json\", \"shared\": {\"frames\": []}, \"profiles\": []}",
				    "memtracer"),
			 0);
}

static void test_sample(void **state)
{
	struct pr_store *st = open_store();
	char *path = sample_path("memtracer/memory_timeline.json");
	(void)state;
	ingest_ok(st, path, "memtracer");
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL),
			    "gpu_optimizer.MemoryTracer");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 0);
	/* 8 layer calls on one track, back to back, not nested */
	assert_int_equal(qi(st, "SELECT count(*) FROM span_v WHERE kind = 'layer'", NULL), 8);
	assert_int_equal(qi(st, "SELECT count(DISTINCT track_id) FROM span", NULL), 1);
	assert_int_equal(qi(st, "SELECT max(depth) FROM span", NULL), 0);
	assert_int_equal(qi(st, "SELECT ts FROM span_v WHERE name = 'features.0' ORDER BY ts",
			    NULL),
			 412000);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'features.0' ORDER BY ts",
			    NULL),
			 1458000);
	assert_int_equal(qi(st,
			    "SELECT dur FROM span_v WHERE name = 'classifier' ORDER BY ts "
			    "DESC",
			    NULL),
			 670000);
	assert_int_equal(qi(st,
			    "SELECT json_extract(args, '$.allocated_bytes_exit') FROM span_v "
			    "WHERE name = 'features.1' ORDER BY ts DESC",
			    NULL),
			 32505856);
	/* snapshots are instants */
	assert_int_equal(qi(st, "SELECT ts FROM instant_v WHERE name = '__end__'", NULL), 8100000);
	/* series: 18 events each */
	assert_int_equal(qi(st,
			    "SELECT count(*) FROM sample_v WHERE name = 'dev.mem.allocated' "
			    "AND device = 'cuda:0'",
			    NULL),
			 18);
	assert_true(sample_nth(st, "dev.mem.allocated", "cuda:0", "2") == 18874368.0);
	assert_true(sample_nth(st, "dev.mem.reserved", "cuda:0", "2") == 23068672.0);
	/* recomputed (reserved - allocated) / reserved vs as written */
	assert_true(sample_nth(st, "dev.mem.frag", "cuda:0", "0") == 50.0);
	assert_true(sample_nth(st, "fragmentation_ratio", "cuda:0", "0") == 10.0);
	assert_true(sample_nth(st, "dev.mem.frag", "cuda:0", "17") == 62.5);
	assert_true(sample_nth(st, "fragmentation_ratio", "cuda:0", "17") == 25.0);
	assert_string_equal(qs(st, "SELECT unit FROM series WHERE name = 'dev.mem.frag'", NULL),
			    "percent");
	assert_int_equal(diag_count(st, "memtracer_frag_formula"), 1);
	assert_non_null(strstr(qs(st,
				  "SELECT message FROM diag WHERE code = "
				  "'memtracer_frag_formula'",
				  NULL),
			       "in 13 events"));
	assert_int_equal(diag_count(st, "memtracer_size_bytes_zero"), 1);
	assert_int_equal(diag_count(st, "memtracer_oldest_dropped"), 0);
	assert_int_equal(diag_count(st, "memtracer_no_layer_events"), 0);
	/* reported metrics */
	assert_true(qd(st,
		       "SELECT value FROM metric WHERE name = 'summary.peak_allocated' AND "
		       "origin = 'reported'",
		       NULL) == 31.0 * 1048576);
	assert_true(qd(st, "SELECT value FROM metric WHERE name = 'summary.total_events'", NULL) ==
		    18);
	assert_true(qd(st,
		       "SELECT value FROM metric WHERE name = 'layer.duration' AND detail = "
		       "'features.1'",
		       NULL) == 4896000);
	assert_true(qd(st,
		       "SELECT value FROM metric WHERE name = 'layer.total_allocations' AND "
		       "detail = 'classifier'",
		       NULL) == 2);
	assert_true(qd(st,
		       "SELECT value FROM metric WHERE name = 'layer.avg_fragmentation' AND "
		       "detail = 'classifier'",
		       NULL) == 16.25);
	/* derived peak attribution: first hook that saw 31 MiB */
	assert_string_equal(qs(st,
			       "SELECT detail FROM metric WHERE name = 'peak_allocated' AND "
			       "origin = 'derived'",
			       NULL),
			    "features.1");
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.fragmentation_formula') FROM run",
			       NULL),
			    "inactive_split/reserved (6176cc5)");
	free(path);
	pr_store_close(st);
}

static void test_readme_formula_and_nesting(void **state)
{
	/* ce0af65-style fragmentation (agrees); a layer without exit; an exit without enter;
	 * the deque dropped the oldest events (no __start__) */
	static const char text[] =
		"{\"events\": [" EV("0.5", "layer_exit", "stale", "100", "200", "0.5") "," EV(
			"1.0", "layer_enter", "outer", "100", "200",
			"0.5") "," EV("1.25", "layer_enter", "inner", "150", "200",
				      "0.25") "," EV("1.5", "layer_exit", "inner", "160", "200",
						     "0.2") "," EV("1.75", "layer_enter", "raises",
								   "160", "200",
								   "0.2") "," EV("2.0",
										 "layer_exit",
										 "outer", "120",
										 "240",
										 "0.5") "," EV("2.5",
											       "layer_enter",
											       "open",
											       "0",
											       "0",
											       "0.0") "], \"layer_stats\": {}, \"summary\": {\"total_events\": 9}}";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "memtracer");
	assert_int_equal(diag_count(st, "memtracer_frag_formula"), 0);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.fragmentation_formula') FROM run",
			       NULL),
			    "(reserved-allocated)/reserved (ce0af65, README)");
	assert_int_equal(diag_count(st, "memtracer_unmatched_exit"), 1);
	assert_int_equal(diag_count(st, "memtracer_unclosed_layer"), 2);
	assert_int_equal(diag_count(st, "memtracer_oldest_dropped"), 1);
	assert_int_equal(diag_count(st, "memtracer_summary_mismatch"), 1);
	assert_int_equal(qi(st, "SELECT depth FROM span_v WHERE name = 'inner'", NULL), 1);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'outer'", NULL), 1000000000);
	/* 'raises' is closed when 'outer' exits */
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'raises'", NULL), 250000000);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'open'", NULL), 0);
	/* reserved 0: fragmentation 0, as the tool does */
	assert_true(sample_nth(st, "dev.mem.frag", "cuda:0", "6") == 0.0);
	assert_true(sample_nth(st, "dev.mem.frag", "cuda:0", "5") == 50.0);
	pr_store_close(st);
}

static void test_only_snapshots(void **state)
{
	static const char text[] =
		"{\"events\": [" EV("0.0", "snapshot", "__start__", "10", "20",
				    "0.5") "," EV("0.1", "alloc", "x", "10", "20",
						  "0.5") "," EV("0.2", "snapshot", "__end__", "10",
								"20", "0.5") "]}";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "memtracer");
	assert_int_equal(diag_count(st, "memtracer_no_layer_events"), 1);
	assert_int_equal(diag_count(st, "memtracer_alloc_event"), 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM instant", NULL), 3);
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 0);
	pr_store_close(st);
}

static void test_bad_values(void **state)
{
	static const char text[] =
		"{\"events\": ["
		"{\"timestamp\": 0.0, \"event_type\": \"snapshot\", \"layer_name\": \"__start__\", "
		"\"allocated_bytes\": \"10\", \"reserved_bytes\": 20, \"fragmentation_ratio\": "
		"NaN},"
		"{\"event_type\": \"layer_enter\", \"layer_name\": \"a\"},"
		"7,"
		"{\"timestamp\": 0.3, \"event_type\": 5, \"layer_name\": \"a\", "
		"\"allocated_bytes\": 1, \"reserved_bytes\": 2, \"fragmentation_ratio\": 1.5},"
		"{\"timestamp\": 0.2, \"event_type\": \"weird\", \"layer_name\": \"a\", "
		"\"allocated_bytes\": 1, \"reserved_bytes\": 2, \"fragmentation_ratio\": 0.5}"
		"], \"layer_stats\": [], \"summary\": {\"peak_allocated_mb\": \"x\"}}";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "memtracer");
	assert_int_equal(diag_count(st, "nonfinite_number"), 1);
	/* "10", NaN (null), 1.5 out of range, summary "x" */
	assert_int_equal(diag_count(st, "memtracer_bad_value"), 4);
	assert_string_equal(qs(st, "SELECT message FROM diag WHERE code = 'memtracer_bad_value'",
			       NULL),
			    "'events[0].allocated_bytes': expected a number");
	/* missing timestamp, 7, event_type 5 */
	assert_int_equal(diag_count(st, "memtracer_bad_event"), 3);
	assert_int_equal(diag_count(st, "memtracer_unknown_event_type"), 1);
	assert_int_equal(diag_count(st, "memtracer_time_backwards"), 1);
	assert_int_equal(diag_count(st, "memtracer_bad_section"), 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM sample_v WHERE name = 'dev.mem.reserved'",
			    NULL),
			 3);
	assert_int_equal(qi(st, "SELECT count(*) FROM sample_v WHERE name = 'dev.mem.allocated'",
			    NULL),
			 2);
	pr_store_close(st);
}

static void test_errors(void **state)
{
	(void)state;
	assert_string_equal(ingest_fail("{\"events\": {}}", "memtracer"),
			    "'events': expected an array");
	assert_string_equal(ingest_fail("{\"layer_stats\": {}}", "memtracer"), "'events': missing");
	assert_string_equal(ingest_fail("[1]", "memtracer"),
			    "expected a JSON object with \"events\"");
	/* truncated: a JSON error with a position */
	assert_non_null(ingest_fail("{\"events\": [{\"timestamp\": 0.0", "memtracer"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_readme_formula_and_nesting),
		cmocka_unit_test(test_only_snapshots),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
