/* test_torch_memtl.c - the torch-memory-timeline format ([times, sizes] and raw tuples). */
#include "memfmt_helpers.h"

extern const struct pr_format pr_format_torch_memtl;

static void test_tml_sample_json(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_sample(st, "torch-memory-timeline/memory_timeline.json", "torch-memory-timeline");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1718000000123457000LL);
	assert_int_equal(mf_count(st, "dev.mem.total"), 19);
	assert_int_equal(mf_count(st, "dev.mem.category.parameter"), 19);
	assert_int_equal(qi(st, "SELECT count(*) FROM series", NULL), 9);
	/* pre-existing parameters at the smallest time, then the first input */
	assert_int_equal(mf_nth_ts(st, "dev.mem.total", "0"), 0);
	assert_float_equal(mf_nth(st, "dev.mem.total", "0"), 5242880, 0);
	assert_int_equal(mf_nth_ts(st, "dev.mem.total", "2"), 15000);
	assert_float_equal(mf_nth(st, "dev.mem.category.temporary", "2"), 65536, 0);
	assert_float_equal(qd(st,
			      "SELECT max(value) FROM sample_v WHERE name = "
			      "'dev.mem.total'",
			      NULL),
			   18370560, 0);
	assert_float_equal(mf_nth(st, "dev.mem.total", "18"), 10498048, 0);
	assert_float_equal(mf_nth(st, "dev.mem.category.unknown", "18"), 12288, 0);
	assert_float_equal(mf_nth(st, "dev.mem.category.optimizer_state", "18"), 5242880, 0);
	assert_int_equal(mf_nth_ts(st, "dev.mem.total", "18"), 112000);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 0);
	pr_store_close(st);
}

static void test_tml_sample_raw(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_sample(st, "torch-memory-timeline/memory_timeline.raw.json.gz",
			 "torch-memory-timeline");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1718000000123457789LL);
	assert_int_equal(mf_count(st, "dev.mem.total"), 18);
	assert_float_equal(mf_nth(st, "dev.mem.total", "0"), 5242880 + 524288, 0);
	assert_int_equal(mf_nth_ts(st, "dev.mem.total", "1"), 14500);
	assert_float_equal(qd(st,
			      "SELECT max(value) FROM sample_v WHERE name = "
			      "'dev.mem.total'",
			      NULL),
			   18370560, 0);
	assert_float_equal(mf_nth(st, "dev.mem.total", "17"), 10498048, 0);
	assert_float_equal(mf_nth(st, "dev.mem.category.parameter", "17"), 5242880, 0);
	assert_int_equal(qi(st,
			    "SELECT json_extract(meta, '$.\"torch_memtl.actions\".DESTROY') "
			    "FROM run",
			    NULL),
			 12);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 0);
	pr_store_close(st);
}

static void test_tml_inline(void **state)
{
	struct pr_store *st = open_store();
	long line = 0, col = 0;
	(void)state;
	/* relative times, a float time, slot 0 set, a bad entry, a negative category */
	mf_ingest_text(
		st,
		"[[0, 10.5, 20, 30], [[0, 1, 0, 0, 0, 0, 0, 0, 2], [7, 1, 0, 0, 0, 0, 0, 0, 3],"
		" [0, 1, 0], [0, -4, 0, 0, 0, 0, 0, 0, 0]]]",
		"torch-memory-timeline");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), INT64_MIN);
	assert_int_equal(mf_count(st, "dev.mem.total"), 3);
	assert_int_equal(mf_nth_ts(st, "dev.mem.total", "1"), 10500);
	assert_float_equal(mf_nth(st, "dev.mem.total", "1"), 4, 0);
	assert_float_equal(mf_nth(st, "dev.mem.total", "2"), -4, 0);
	assert_int_equal(mf_diag(st, "torch_memtl_slot0_nonzero"), 1);
	assert_int_equal(mf_diag(st, "torch_memtl_bad_entry"), 1);
	assert_int_equal(mf_diag(st, "torch_memtl_negative_category"), 1);
	pr_store_close(st);

	/* two raw tuples are raw, not [times, sizes]; -1 goes to the smallest time */
	st = open_store();
	mf_ingest_text(st, "[[-1, 1, 100, 0], [5000, 4, -100, 0], [6000, 9, 1, 0]]",
		       "torch-memory-timeline");
	assert_int_equal(mf_count(st, "dev.mem.total"), 1);
	assert_float_equal(mf_nth(st, "dev.mem.category.parameter", "0"), 0, 0);
	assert_int_equal(mf_nth_ts(st, "dev.mem.total", "0"), 5000);
	assert_int_equal(mf_diag(st, "torch_memtl_bad_entry"), 1);
	pr_store_close(st);

	st = open_store();
	mf_ingest_text(st, "[[1, 2], [[0, 0, 0, 0, 0, 0, 0, 0, 5]]]", "torch-memory-timeline");
	assert_int_equal(mf_diag(st, "torch_memtl_length_mismatch"), 1);
	assert_float_equal(mf_nth(st, "dev.mem.category.unknown", "0"), 5, 0);
	pr_store_close(st);

	mf_ingest_fail("", "torch-memory-timeline", &line, &col);
	assert_int_equal(line, 1);
	assert_int_equal(col, 1);
	assert_string_equal(mf_ingest_fail("{\"a\": 1}", "torch-memory-timeline", NULL, NULL),
			    "expected a JSON array ([times, sizes] or raw tuples)");
}

static void test_tml_sniff(void **state)
{
	(void)state;
	assert_int_equal(mf_sniff(&pr_format_torch_memtl,
				  "[[1718000000123457, 1718000000123472], [[0, 1, 2, 3, 4, 5, 6, "
				  "7, 8], [0, 1, 2, 3, 4, 5, 6, 7, 8]]]"),
			 90);
	assert_int_equal(mf_sniff(&pr_format_torch_memtl, "[[-1, 1, 4194304, 0], [5, 2, 1, 7]]"),
			 70);
	assert_int_equal(mf_sniff(&pr_format_torch_memtl, "[[1, 2], [3, 4]]"), 0);
	assert_int_equal(mf_sniff(&pr_format_torch_memtl, "[{\"ph\": \"X\", \"ts\": 1}]"), 0);
	assert_int_equal(mf_sniff(&pr_format_torch_memtl, "[[1, 9, 3, 0]]"), 0);
	assert_int_equal(mf_sniff(&pr_format_torch_memtl, "[[1, 2], [[0, 1, 2]]]"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tml_sample_json),
		cmocka_unit_test(test_tml_sample_raw),
		cmocka_unit_test(test_tml_inline),
		cmocka_unit_test(test_tml_sniff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
