/* test_stacks.c - the stack-sample formats (folded, perf-script), perf-stat and
 * their detection next to the other text formats. */
#include "memfmt_helpers.h"

/* Which format wins for a head (NULL: none). */
static const char *winner(const char *text)
{
	int conf = 0;
	const struct pr_format *f =
		pr_format_sniff((const unsigned char *)text, strlen(text), "x", &conf);
	return f ? f->name : "(none)";
}

static void test_detection(void **state)
{
	(void)state;
	/* each of the three by its content */
	assert_string_equal(winner("main;a;b 3\nmain;c 4\n"), "folded");
	assert_string_equal(winner("t.py(6):_<module>;nn.Module:_Linear_0 33\n"), "folded");
	assert_string_equal(winner("64.33,msec,task-clock,64329196,100.00,0.235,CPUs utilized\n"
				   "28,,context-switches,64329196,100.00,435.261,/sec\n"),
			    "perf-stat");
	assert_string_equal(winner("python3  1468 12378.633927:    1001001 cpu-clock:ppp: \n"
				   "\tffffffff821f278b exc_page_fault+0x17b ([kernel.kallsyms])\n"
				   "\n"),
			    "perf-script");
	/* the other text formats keep theirs */
	assert_string_equal(winner("time,gpu_util,mem_used_mb\n0,5,100\n1,6,120\n"), "csv");
	assert_string_equal(winner("timestamp,gpu\n1700000000.5,3\n1700000001.5,4\n"), "csv");
	assert_string_equal(winner("desc: (none)\ncmd: ./a\ntime_unit: i\n"), "massif");
	/* a phase log (`date +%s.%3N NAME`) and prose are nobody's */
	assert_string_equal(winner("1734601800.123 load_model\n1734601805.456 inference\n"),
			    "(none)");
	assert_string_equal(winner("This is a README.\nIt has 2 lines\n"), "(none)");
	/* sysstat's sadf -d (semicolon CSV with a # header) is not perf stat */
	assert_int_equal(sniff_conf("# hostname;interval;timestamp;CPU;%user\n"
				    "h;600;2024-01-01 00:10:00 UTC;-1;1.20\n",
				    "perf-stat"),
			 0);
	/* perf script output is not folded stacks, folded stacks not perf script */
	assert_int_equal(sniff_conf("python3  1468 12378.633927:    1001001 cpu-clock:ppp: \n"
				    "\tffffffff821f278b exc_page_fault+0x17b ([kernel.kallsyms])\n",
				    "folded"),
			 0);
	assert_int_equal(sniff_conf("main;a 3\n", "perf-script"), 0);
	/* stacks ('a;b 1') tolerate one stray line in three, the first one included
	 * (issue 29: a few malformed lines refused the whole file); lines without a
	 * ';' one in five, and the first line must be one */
	assert_string_equal(winner("a;b 1\na;c 2\na;d 3\na;e 4\nstray\n"), "folded");
	assert_string_equal(winner("stray\na;b 1\na;c 2\na;d 3\na;e 4\n"), "folded");
	assert_string_equal(winner("stray\nmore\na;b 1\na;c 2\nx y\n"), "(none)");
	assert_int_equal(sniff_conf("stray\nb 1\nc 2\nd 3\ne 4\n", "folded"), 0);
}

/* Adjacent samples share their common prefix; an empty stack closes all. */
static void test_folded_layout(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_text(st, "a;b;c 2\na;b 3\n\na;d 1\nx 4\na;b;c 5\n", "folded");
	/* a: [0,6) (the first three lines), then again at 10 */
	assert_string_equal(qs(st,
			       "SELECT group_concat(ts || '+' || dur || '/' || self, ' ') FROM "
			       "(SELECT * FROM span_v WHERE name = 'a' ORDER BY ts)",
			       NULL),
			    "0+6/0 10+5/0");
	assert_string_equal(qs(st,
			       "SELECT group_concat(ts || '+' || dur || '/' || self, ' ') FROM "
			       "(SELECT * FROM span_v WHERE name = 'b' ORDER BY ts)",
			       NULL),
			    "0+5/3 10+5/0");
	assert_int_equal(qi(st, "SELECT ts_max FROM run", NULL), 15); /* 2+3+1+4+5 */
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	pr_store_close(st);
}

/* torch.profiler's whole-us weights -> ns exactly, a fraction rounded half away from zero. */
static void test_folded_us(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_text(st, "t.py(6):_<module>;f 1.0005\nt.py(6):_<module>;g 3000000000000000.001\n",
		       "folded");
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'f'", NULL), 1001);
	/* 3e18 + 1 ns: a double would round it; the decimal text does not */
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'g'", NULL),
			 (int64_t)3000000000000000001LL);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.weight_unit') FROM run", NULL),
			    "us");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 0);
	pr_store_close(st);
}

static void test_folded_errors(void **state)
{
	long line = 0, col = 0;
	(void)state;
	/* no line of stacks: the first line that is not one */
	assert_non_null(strstr(mf_ingest_fail("\n\nnot folded\nnor this\n", "folded", &line, &col),
			       "not folded stacks"));
	assert_int_equal(line, 3);
	assert_int_equal(col, 1);
	assert_non_null(strstr(mf_ingest_fail("", "folded", NULL, NULL), "no stack lines"));
}

/* A few malformed lines (the first one too) are skipped with their line; the stacks stay. */
static void test_folded_bad_lines(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_text(st, "# a header\na;b 2\na;b;c oops\na;c 3\n", "folded");
	assert_string_equal(qs(st, "SELECT code || ' ' || count || ' ' || line FROM diag", NULL),
			    "folded_bad_line 2 1");
	/* a: both kept lines, 2 + 3 samples; b 2, c 3 */
	assert_int_equal(qi(st, "SELECT sum(dur) FROM span_v WHERE name = 'a'", NULL), 5);
	assert_int_equal(qi(st, "SELECT sum(dur) FROM span_v WHERE name = 'c'", NULL), 3);
	pr_store_close(st);
}

/* perf 3.x: 'COMM  PID EVENT:' with neither CPU nor time (FlameGraph's perf-vertx test file). */
static void test_perf_script_3x(void **state)
{
	static const char text[] = "# ========\n# perf version : 3.2.50\n# ========\n#\n"
				   "java  3244 cpu-clock: \n"
				   "\t    7f1e214c24d9 SpinPause (/x/libjvm.so)\n"
				   "\t    7f1e21c41e9a start_thread (/lib/libpthread-2.15.so)\n\n"
				   "java  3244 cpu-clock: \n"
				   "\t    7f1e216ccd20 Steal::do_it(GCTaskManager*, unsigned int) "
				   "(/x/libjvm.so)\n"
				   "\t    7f1e21c41e9a start_thread (/lib/libpthread-2.15.so)\n\n";
	struct pr_store *st = open_store();
	(void)state;
	assert_string_equal(winner(text), "perf-script");
	mf_ingest_text(st, text, "perf-script");
	/* two records of 1 sample each on thread 3244: start_thread holds both */
	assert_int_equal(qi(st, "SELECT sum(dur) FROM span_v WHERE name = 'start_thread'", NULL),
			 2);
	assert_int_equal(qi(st,
			    "SELECT count(*) FROM span_v WHERE name = 'SpinPause' AND tid = '3244'",
			    NULL),
			 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 0);
	pr_store_close(st);
}

/* Records on two threads, a stack line that is no frame, a record without period. */
static void test_perf_script(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_text(st,
		       "# ========\n# captured on: x\n# ========\n"
		       "a b  10/11 [001] 5.000001:     300 cpu-clock: \n"
		       "\t   400 leaf+0x1f (/lib/x.so)\n\t   300 root (/bin/a)\n\n"
		       "other  12 5.000002:     200 cpu-clock: \n"
		       "\t   500 work (/bin/o)\n\t   zz not a frame\n\n"
		       "a b  10/11 [001] 5.000003:     100 cpu-clock: \n"
		       "\t   300 root (/bin/a)\n\n",
		       "perf-script");
	/* thread 11 of pid 10 (COMM "a b"): root 300+100, leaf 300 */
	assert_string_equal(qs(st, "SELECT name FROM track WHERE pid = '10' AND tid = '11'", NULL),
			    "a b");
	assert_int_equal(qi(st, "SELECT sum(dur) FROM span_v WHERE name = 'root' AND tid = '11'",
			    NULL),
			 400);
	assert_int_equal(qi(st, "SELECT self FROM span_v WHERE name = 'leaf'", NULL), 300);
	assert_string_equal(qs(st, "SELECT args FROM span_v WHERE name = 'leaf'", NULL),
			    "{\"dso\":\"/lib/x.so\"}");
	/* pid 12 with only a tid: pid = tid */
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'work' AND pid = '12'", NULL),
			 200);
	assert_int_equal(mf_diag(st, "perf_script_bad_frame"), 1);
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 0);
	pr_store_close(st);

	/* no period: 1 sample each, synthetic */
	st = open_store();
	mf_ingest_text(st, "p 1 1.5: cycles: \n\t 1 f (/x)\n\np 1 1.6: cycles: \n\t 1 f (/x)\n",
		       "perf-script");
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'f'", NULL), 2);
	pr_store_close(st);

	/* -F ip: an address alone names its frame */
	st = open_store();
	mf_ingest_text(st, "p 1 1.5: 7 cycles: \n\t 7f00aa01\n\t 7f00aa00\n\n", "perf-script");
	assert_string_equal(qs(st, "SELECT name FROM span_v WHERE depth = 1", NULL), "7f00aa01");
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = '7f00aa00'", NULL), 7);
	assert_int_equal(mf_diag(st, "perf_script_bad_frame"), 0);
	pr_store_close(st);
	st = open_store();
	mf_ingest_text(st, "p 1 1.5: cycles: \n\t 1 f (/x)\n\np 1 1.6: cycles: \n\t 1 f (/x)\n",
		       "perf-script");
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.weight_unit') FROM run", NULL),
			    "samples");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	pr_store_close(st);
}

static void test_perf_stat(void **state)
{
	struct pr_store *st = open_store();
	long line = 0, col = 0;
	(void)state;
	/* -x';' and a multiplexed counter */
	mf_ingest_text(st,
		       "0.44;msec;task-clock;439312;100.00;0.337;CPUs utilized\n"
		       "900;;cycles;219656;50.00;2.049;GHz\n",
		       "perf-stat");
	assert_float_equal(mf_metric(st, "perf.task-clock"), 440000, 0);
	assert_float_equal(mf_metric(st, "perf.cycles"), 900, 0);
	assert_float_equal(mf_metric(st, "perf.cycles.counted"), 50, 0);
	assert_int_equal(mf_diag(st, "perf_stat_multiplexed"), 1);
	pr_store_close(st);
	assert_non_null(
		strstr(mf_ingest_fail("# started on x\n\nhello,world\n", "perf-stat", &line, &col),
		       "not perf stat -x output"));
	assert_int_equal(line, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detection),	 cmocka_unit_test(test_folded_layout),
		cmocka_unit_test(test_folded_us),	 cmocka_unit_test(test_folded_errors),
		cmocka_unit_test(test_folded_bad_lines), cmocka_unit_test(test_perf_script),
		cmocka_unit_test(test_perf_script_3x),	 cmocka_unit_test(test_perf_stat),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
