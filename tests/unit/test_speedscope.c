/* test_speedscope.c - the speedscope JSON format end to end (and MemoryTracer's export). */
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

#define SCHEMA "\"$schema\": \"https://www.speedscope.app/file-format-schema.json\""
#define FRAMES "\"shared\": {\"frames\": [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"c\"}]}"

static int64_t span_i(struct pr_store *st, const char *col, const char *name, const char *n)
{
	struct pr_strbuf sql = PR_STRBUF_INIT;
	int64_t v;
	pr_strbuf_addf(&sql, "SELECT %s FROM span_v WHERE name = ?1 ORDER BY ts LIMIT 1 OFFSET ?2",
		       col);
	v = qi(st, sql.buf, name, n, NULL);
	pr_strbuf_release(&sql);
	return v;
}

/* ---- tests ---- */

static void test_sniff(void **state)
{
	(void)state;
	assert_int_equal(sniff_conf("{" SCHEMA ", " FRAMES ", \"profiles\": []}", "speedscope"),
			 95);
	assert_int_equal(sniff_conf("{" FRAMES ", \"profiles\": []}", "speedscope"), 70);
	assert_int_equal(sniff_conf("{\"traceEvents\": [{\"ph\": \"X\"}]}", "speedscope"), 0);
	assert_int_equal(sniff_conf("{\"events\": [], \"layer_stats\": {}, \"summary\": "
				    "{\"peak_allocated_mb\": 0}}",
				    "speedscope"),
			 0);
}

static void test_sample(void **state)
{
	struct pr_store *st = open_store();
	char *path = sample_path("speedscope/profile.speedscope.json");
	(void)state;
	ingest_ok(st, path, "speedscope");
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL), "speedscope");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 0);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 0);
	assert_int_equal(qi(st, "SELECT count(*) FROM track", NULL), 2);
	assert_string_equal(qs(st, "SELECT name FROM track WHERE tid = '1'", NULL), "Worker");
	/* evented, milliseconds, startValue 100 = time 0 */
	assert_int_equal(span_i(st, "dur", "main", "0"), 12500000);
	assert_int_equal(qi(st, "SELECT self FROM span_v WHERE name = 'main' AND tid = '0'", NULL),
			 1500000);
	assert_int_equal(span_i(st, "ts", "load", "1"), 1000000);
	assert_int_equal(span_i(st, "dur", "parse", "1"), 1750000);
	assert_int_equal(span_i(st, "depth", "parse", "1"), 2);
	assert_string_equal(qs(st, "SELECT args FROM span_v WHERE name = 'parse' LIMIT 1", NULL),
			    "{\"file\":\"parser.py\",\"line\":5,\"col\":3}");
	/* sampled, microseconds: end to end, shared prefixes merged */
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'main' AND tid = '1'", NULL),
			 700000);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'parse' AND tid = '1'", NULL),
			 350000);
	assert_int_equal(qi(st, "SELECT ts FROM span_v WHERE name = 'parse' AND tid = '1'", NULL),
			 100000);
	assert_int_equal(qi(st, "SELECT self FROM span_v WHERE name = 'load' AND tid = '1'", NULL),
			 100000);
	assert_int_equal(qi(st,
			    "SELECT sum(self) FROM span_v WHERE name = 'compute' AND "
			    "tid = '1'",
			    NULL),
			 450000);
	free(path);
	pr_store_close(st);
}

static void test_memtracer_export(void **state)
{
	struct pr_store *st = open_store();
	char *path = sample_path("memtracer/memory_flame_graph.json");
	(void)state;
	ingest_ok(st, path, "speedscope");
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL),
			    "gpu_optimizer.MemoryTracer");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	assert_int_equal(diag_count(st, "speedscope_invalid_unit"), 1);
	assert_int_equal(diag_count(st, "speedscope_end_value"), 1);
	assert_int_equal(diag_count(st, "speedscope_flat_stacks"), 1);
	assert_int_equal(diag_count(st, "speedscope_synthetic_time"), 1);
	/* frames are used by index: the file's order is not event order */
	assert_int_equal(qi(st, "SELECT count(*) FROM span_v WHERE kind = 'layer'", NULL), 10);
	assert_string_equal(qs(st, "SELECT name FROM span_v ORDER BY ts LIMIT 1", NULL),
			    "__start__");
	assert_string_equal(qs(st, "SELECT name FROM span_v ORDER BY ts LIMIT 1 OFFSET 1", NULL),
			    "features.0");
	assert_int_equal(span_i(st, "dur", "features.0", "0"), 2);
	/* weights: current allocated MiB -> bytes, one per sample */
	assert_int_equal(qi(st, "SELECT count(*) FROM sample_v WHERE name = 'dev.mem.allocated'",
			    NULL),
			 18);
	assert_true(sample_nth(st, "dev.mem.allocated", "cuda:0", "12") == 31.0 * 1048576);
	assert_true(sample_nth(st, "dev.mem.allocated", "cuda:0", "17") == 12.0 * 1048576);
	free(path);
	pr_store_close(st);
}

static void test_evented_broken(void **state)
{
	static const char text[] =
		"{" SCHEMA ", " FRAMES ", \"profiles\": [{\"type\": \"evented\", \"name\": \"p\", "
		"\"unit\": \"nanoseconds\", \"startValue\": 0, \"endValue\": 100, \"events\": ["
		"{\"type\": \"O\", \"frame\": 0, \"at\": 0},"
		"{\"type\": \"O\", \"frame\": 1, \"at\": 10},"
		"{\"type\": \"O\", \"frame\": 2, \"at\": 20},"
		"{\"type\": \"C\", \"frame\": 1, \"at\": 30},"	/* c still on top */
		"{\"type\": \"C\", \"frame\": 2, \"at\": 35},"	/* not open */
		"{\"type\": \"O\", \"frame\": 9, \"at\": 40},"	/* bad index */
		"{\"type\": \"O\", \"frame\": -1, \"at\": 40}," /* bad index */
		"{\"type\": \"O\", \"frame\": \"1\", \"at\": 40},"
		"{\"type\": \"O\", \"frame\": 1, \"at\": 25}," /* backwards: taken as 35 */
		"{\"type\": \"X\", \"frame\": 1, \"at\": 50},"
		"{\"type\": \"O\", \"frame\": 2}"
		"]}, {\"type\": \"flame\"}]}";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "speedscope");
	assert_int_equal(diag_count(st, "speedscope_unbalanced"), 1);
	assert_int_equal(diag_count(st, "speedscope_unmatched_close"), 1);
	assert_int_equal(diag_count(st, "speedscope_bad_frame"), 3);
	assert_int_equal(diag_count(st, "speedscope_time_backwards"), 1);
	assert_int_equal(diag_count(st, "speedscope_bad_event"), 2);
	assert_int_equal(diag_count(st, "speedscope_unclosed"), 1);
	assert_int_equal(diag_count(st, "speedscope_bad_profile"), 1);
	/* c and b closed at 30; a and the second b open until endValue 100 */
	assert_int_equal(span_i(st, "dur", "c", "0"), 10);
	assert_int_equal(span_i(st, "dur", "b", "0"), 20);
	assert_int_equal(span_i(st, "ts", "b", "1"), 35);
	assert_int_equal(span_i(st, "dur", "b", "1"), 65);
	assert_int_equal(span_i(st, "dur", "a", "0"), 100);
	assert_int_equal(span_i(st, "depth", "b", "1"), 1);
	pr_store_close(st);
}

static void test_units(void **state)
{
	static const char text[] =
		"{" SCHEMA ", " FRAMES ", \"profiles\": ["
		"{\"type\": \"sampled\", \"name\": \"heap\", \"unit\": \"bytes\", \"startValue\": 0, "
		"\"endValue\": 30, \"samples\": [[0], [0, 1], [2, 7], 5], \"weights\": [10, 20, -1]},"
		"{\"type\": \"evented\", \"name\": \"s\", \"unit\": \"seconds\", \"startValue\": 2, "
		"\"endValue\": 3, \"events\": [{\"type\": \"O\", \"frame\": 2, \"at\": 2.5},"
		"{\"type\": \"C\", \"frame\": 2, \"at\": 2.75}]},"
		"{\"type\": \"evented\", \"name\": \"u\", \"unit\": \"microseconds\", "
		"\"startValue\": 1000000, \"endValue\": 1000001, \"events\": "
		"[{\"type\": \"O\", \"frame\": 1, \"at\": 1000000.5},"
		"{\"type\": \"C\", \"frame\": 1, \"at\": 1000001}]}"
		"]}";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "speedscope");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	assert_int_equal(diag_count(st, "speedscope_synthetic_time"), 1);
	assert_int_equal(diag_count(st, "speedscope_length_mismatch"), 1);
	assert_int_equal(diag_count(st, "speedscope_bad_weight"), 1);
	assert_int_equal(diag_count(st, "speedscope_bad_frame"), 1);
	/* bytes: 1 byte = 1 synthetic ns; a = 0..30, b = 10..30; c (valid prefix of [2, 7])
	 * gets weight 0 */
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'a' AND tid = '0'", NULL), 30);
	assert_int_equal(qi(st, "SELECT ts FROM span_v WHERE name = 'b' AND tid = '0'", NULL), 10);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'c' AND tid = '0'", NULL), 0);
	/* seconds and microseconds: time 0 = min(2 s, 1 s) */
	assert_int_equal(qi(st, "SELECT ts FROM span_v WHERE tid = '1'", NULL), 1500000000);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE tid = '1'", NULL), 250000000);
	assert_int_equal(qi(st, "SELECT ts FROM span_v WHERE tid = '2'", NULL), 500);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE tid = '2'", NULL), 500);
	pr_store_close(st);
}

static void test_schema_and_errors(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st,
		    "{\"$schema\": \"x\", " FRAMES ", \"profiles\": [{\"type\": \"sampled\", "
		    "\"name\": \"m\", \"unit\": \"megabytes\", \"startValue\": 0, \"endValue\": 1, "
		    "\"samples\": [[1]], \"weights\": [1.5]}]}",
		    "speedscope");
	assert_int_equal(diag_count(st, "speedscope_schema"), 1);
	assert_int_equal(diag_count(st, "speedscope_invalid_unit"), 1);
	assert_true(sample_nth(st, "dev.mem.allocated", "cuda:0", "0") == 1.5 * 1048576);
	pr_store_close(st);
	assert_string_equal(ingest_fail("{" SCHEMA ", \"profiles\": []}", "speedscope"),
			    "'shared.frames': missing");
	assert_string_equal(ingest_fail("{" SCHEMA ", \"shared\": {\"frames\": 1}, "
					"\"profiles\": []}",
					"speedscope"),
			    "'shared.frames': expected an array");
	assert_string_equal(ingest_fail("{" SCHEMA ", " FRAMES ", \"profiles\": {}}", "speedscope"),
			    "'profiles': expected an array");
	assert_non_null(ingest_fail("{" SCHEMA ", " FRAMES ", \"profiles\": [", "speedscope"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_memtracer_export),
		cmocka_unit_test(test_evented_broken),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_schema_and_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
