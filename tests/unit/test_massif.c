/* test_massif.c - the massif format (valgrind massif.out.<pid>). */
#include "memfmt_helpers.h"

extern const struct pr_format pr_format_massif;

#define SEP "#-----------\n"
#define SNAP(n, t, h, e, s, tree)                                                                  \
	SEP "snapshot=" #n "\n" SEP "time=" #t "\nmem_heap_B=" #h "\nmem_heap_extra_B=" #e         \
	    "\nmem_stacks_B=" #s "\nheap_tree=" tree "\n"

static void test_massif_sample(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_sample(st, "massif/massif.out.12345", "massif");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 0);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.\"massif.cmd\"') FROM run", NULL),
			    "./prog 10");
	assert_int_equal(mf_count(st, "heap.used"), 8);
	assert_int_equal(mf_count(st, "heap.extra"), 8);
	assert_int_equal(mf_count(st, "stack.used"), 8);
	assert_int_equal(mf_nth_ts(st, "heap.used", "5"), 262000000);
	assert_float_equal(mf_nth(st, "heap.used", "5"), 30400, 0);
	assert_float_equal(mf_nth(st, "heap.extra", "5"), 616, 0);
	assert_float_equal(mf_nth(st, "heap.used", "7"), 0, 0);
	assert_float_equal(mf_metric(st, "massif.peak.heap"), 30400, 0);
	assert_float_equal(mf_metric(st, "massif.peak.heap_extra"), 616, 0);
	assert_float_equal(mf_metric(st, "massif.peak.snapshot"), 5, 0);
	assert_int_equal(qi(st, "SELECT count(*) FROM metric WHERE name = 'massif.peak.tree'",
			    NULL),
			 5);
	assert_float_equal(qd(st,
			      "SELECT value FROM metric WHERE detail = "
			      "'g (prog.c:6) <- main (prog.c:21)'",
			      NULL),
			   18000, 0);
	assert_float_equal(qd(st, "SELECT value FROM metric WHERE detail = 'f (prog.c:12)'", NULL),
			   12000, 0);
	assert_float_equal(qd(st, "SELECT value FROM metric WHERE detail LIKE 'in 2 places%'",
			      NULL),
			   400, 0);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 0);
	pr_store_close(st);
}

/* time_unit i: a synthetic x axis; the peak is not the largest snapshot; a
 * snapshot without mem_stacks_B; a bad number; a tree that does not add up. */
static const char instr_text[] =
	"desc: (none)\r\ncmd: ./a\r\ntime_unit: i\r\n" SNAP(0, 1000, 10, 2, 0, "empty")
		SNAP(1, 2000, 100, 8, 16, "peak") "n1: 100 (heap allocation functions) malloc\n"
						  " n0: 90 0x1: h (a.c:1)\n" SNAP(2, 3000, 101, 8,
										  0, "empty") SEP
	"snapshot=3\n" SEP "time=4000\nmem_heap_B=1\nmem_heap_extra_B=0\nheap_tree=empty\n" SEP
	"snapshot=4\n" SEP "time=5000\nmem_heap_B=12x\nmem_heap_extra_B=0\nmem_stacks_B=0\n"
	"heap_tree=empty\n"
	"bogus line\n";

static void test_massif_instructions(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_text(st, instr_text, "massif");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.time_unit') FROM run", NULL),
			    "i: ts counts instructions executed, not ns");
	assert_int_equal(mf_count(st, "heap.used"), 3);
	assert_int_equal(mf_nth_ts(st, "heap.used", "2"), 3000);
	assert_float_equal(mf_nth(st, "stack.used", "1"), 16, 0);
	assert_int_equal(mf_diag(st, "massif_peak_not_max"), 1);
	assert_int_equal(mf_diag(st, "massif_incomplete_snapshot"), 2);
	assert_int_equal(mf_diag(st, "massif_bad_value"), 1);
	assert_int_equal(mf_diag(st, "massif_tree_sum"), 1);
	assert_int_equal(mf_diag(st, "massif_bad_line"), 1);
	assert_float_equal(qd(st, "SELECT value FROM metric WHERE detail = 'h (a.c:1)'", NULL), 90,
			   0);
	pr_store_close(st);

	st = open_store();
	mf_ingest_text(st, "desc: x\ncmd: y\ntime_unit: B\n" SNAP(0, 0, 0, 0, 0, "empty"),
		       "massif");
	assert_int_equal(mf_diag(st, "massif_no_peak"), 1);
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	pr_store_close(st);

	/* heap_tree= twice after a tree (a fuzzer find: the labels leaked) */
	st = open_store();
	mf_ingest_text(
		st,
		"desc: x\ncmd: y\ntime_unit: ms\n" SNAP(
			0, 1, 10, 0, 0,
			"peak") "n1: 10 (heap allocation functions) malloc\n"
				" n0: 10 0x1: h (a.c:1)\nheap_tree=peak\n n0: 10 0x1: h (a.c:1)\n",
		"massif");
	assert_int_equal(mf_diag(st, "massif_bad_line"), 1);
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 0);
	pr_store_close(st);
}

/*
 * Real valgrind 3.19 output (samples/massif/real, made by make_sample.py):
 * --time-unit=i has 80 snapshots; the peak is snapshot 79 (massif.out.i
 * line 910) at time=1068802 with mem_heap_B=180224, mem_heap_extra_B=328,
 * and a tree of 6 nodes below the root (lines 917-923). --time-unit=B has
 * 56 snapshots, the peak snapshot 46 at time=1459128. The x axis is not
 * time: time_synthetic, meta x_unit, and the peak's time as written.
 */
static void test_massif_real(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_sample(st, "massif/real/massif.out.i", "massif");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.x_unit') FROM run", NULL),
			    "instructions");
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.\"massif.cmd\"') FROM run", NULL),
			    "./prog 40");
	assert_int_equal(mf_count(st, "heap.used"), 80);
	assert_float_equal(mf_metric(st, "massif.peak.snapshot"), 79, 0);
	assert_float_equal(mf_metric(st, "massif.peak.time"), 1068802, 0);
	assert_float_equal(mf_metric(st, "massif.peak.heap"), 180224, 0);
	assert_float_equal(mf_metric(st, "massif.peak.heap_extra"), 328, 0);
	assert_int_equal(qi(st, "SELECT count(*) FROM metric WHERE name = 'massif.peak.tree'",
			    NULL),
			 6);
	/* in file order: the first node is the allocation site, the third its outermost caller */
	assert_string_equal(qs(st,
			       "SELECT detail FROM metric WHERE name = 'massif.peak.tree' "
			       "ORDER BY id LIMIT 1 OFFSET 2",
			       NULL),
			    "cache_add (prog.c:18) <- step (prog.c:41) <- main (prog.c:51)");
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 0);
	pr_store_close(st);

	st = open_store();
	mf_ingest_sample(st, "massif/real/massif.out.B", "massif");
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.x_unit') FROM run", NULL),
			    "bytes");
	assert_int_equal(mf_count(st, "heap.used"), 56);
	assert_float_equal(mf_metric(st, "massif.peak.snapshot"), 46, 0);
	assert_float_equal(mf_metric(st, "massif.peak.time"), 1459128, 0);
	pr_store_close(st);

	/* time_unit ms: no x_unit, the peak's time in ns (snapshot 5 at time=262 ms) */
	st = open_store();
	mf_ingest_sample(st, "massif/massif.out.12345", "massif");
	assert_int_equal(qi(st, "SELECT json_type(meta, '$.x_unit') IS NULL FROM run", NULL), 1);
	assert_float_equal(mf_metric(st, "massif.peak.time"), 262e6, 0);
	pr_store_close(st);
}

static void test_massif_errors(void **state)
{
	long line = 0, col = 0;
	(void)state;
	assert_string_equal(mf_ingest_fail("cmd: x\n", "massif", &line, &col),
			    "massif header: expected 'desc:'");
	assert_int_equal(line, 1);
	assert_string_equal(mf_ingest_fail("desc: a\ncmd: b\ntime_unit: s\n", "massif", &line,
					   &col),
			    "'time_unit': expected i, ms or B");
	assert_int_equal(line, 3);
	assert_int_equal(col, 12);
	assert_string_equal(mf_ingest_fail("desc: a\ncmd: b\n", "massif", &line, &col),
			    "massif header incomplete: expected desc:, cmd: and time_unit:");
	assert_string_equal(mf_ingest_fail("", "massif", &line, &col),
			    "massif header incomplete: expected desc:, cmd: and time_unit:");
}

/*
 * The file is read a line at a time (issue 12: it was read whole, so a big or
 * endless input took GBs): a line may outgrow the 64 KiB first window, up to
 * 1 MiB; a longer one is no massif output (PR_E_LIMIT, its line number).
 */
static void test_massif_long_lines(void **state)
{
	const char head[] = "desc: x\ncmd: y\ntime_unit: ms\n" SNAP(
		0, 1, 10, 0, 0, "peak") "n1: 10 (heap allocation functions) malloc\n n0: 10 0x1: ";
	size_t big = 600000, hl = strlen(head);
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_store *st = open_store();
	long line = 0, col = 0;
	(void)state;
	/* a 600 000-byte function name, and a last line without LF */
	pr_strbuf_add(&sb, head, hl);
	while (sb.len < hl + big)
		pr_strbuf_addch(&sb, 'f');
	pr_strbuf_addstr(&sb, "\nheap_tree=empty");
	mf_ingest_text(st, sb.buf, "massif");
	assert_int_equal(qi(st,
			    "SELECT length(detail) FROM metric WHERE name = 'massif.peak.tree' "
			    "AND value = 10 AND detail LIKE 'fff%'",
			    NULL),
			 (int64_t)big);
	assert_int_equal(mf_diag(st, "massif_bad_line"), 0);
	assert_int_equal(mf_count(st, "heap.used"), 1);
	pr_store_close(st);

	/* line 4 (snapshot=) is 1 MiB long: refused */
	pr_strbuf_reset(&sb);
	pr_strbuf_addstr(&sb, "desc: x\ncmd: y\ntime_unit: ms\nsnapshot=");
	while (sb.len < 3 * 1048576)
		pr_strbuf_addch(&sb, '7');
	pr_strbuf_addstr(&sb, "\ntime=1\n");
	assert_string_equal(mf_ingest_fail(sb.buf, "massif", &line, &col),
			    "massif line longer than 1024 KiB: not massif output");
	assert_int_equal(line, 4);
	pr_strbuf_release(&sb);
}

static void test_massif_sniff(void **state)
{
	(void)state;
	assert_int_equal(mf_sniff(&pr_format_massif, "desc: (none)\ncmd: ./a\ntime_unit: i\n#"),
			 95);
	assert_int_equal(mf_sniff(&pr_format_massif, "desc,cmd\n1,2\n"), 0);
	assert_int_equal(mf_sniff(&pr_format_massif, "desc: x\nfoo: y\n"), 0);
	assert_int_equal(mf_sniff(&pr_format_massif, "{\"desc\": 1}"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_massif_sample),
		cmocka_unit_test(test_massif_instructions),
		cmocka_unit_test(test_massif_real),
		cmocka_unit_test(test_massif_errors),
		cmocka_unit_test(test_massif_long_lines),
		cmocka_unit_test(test_massif_sniff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
