/* test_phaselog.c - the phase log reader (ingest/phaselog.c): shapes, times, clocks, errors. */
#include "helpers.h"

#include "ingest/phaselog.h"

#define S 1000000000LL

/* A run of one memory series sampled at the given times (ns on the run's
 * clock), origin < 0 for none; the log text attached; committed. Returns
 * pr_phaselog_attach's result (the run is committed only on success). */
struct run_spec {
	int64_t origin;
	int synthetic;
	int64_t t[8];
	size_t n;
};

static int attach(struct pr_store *st, const struct run_spec *rs, const char *log, size_t len,
		  struct pr_phaselog_stats *ps, struct pr_error *err)
{
	struct pr_run_info info = { "csv", "run.csv", NULL };
	struct pr_writer *w = NULL;
	char *path = write_temp(log, len);
	int64_t series, run;
	char hash[33];
	size_t i;
	int rc;
	pr_error_init(err);
	assert_int_equal(pr_writer_begin(st, &info, &w, err), 0);
	if (rs->origin >= 0)
		pr_writer_set_time_origin(w, rs->origin);
	pr_writer_set_time_synthetic(w, rs->synthetic);
	series = pr_writer_series(w, "mem.rss", "", "bytes", "B");
	for (i = 0; i < rs->n; i++)
		pr_writer_sample(w, series, rs->t[i], (double)(i + 1));
	pr_writer_end_input(w);
	rc = pr_phaselog_attach(w, path, ps, err);
	if (rc) {
		pr_writer_abort(w);
	} else {
		snprintf(hash, sizeof(hash), "%s", ps->hash);
		hash[0] = (char)('a' + (int)pr_store_run_count(st)); /* one run per call */
		assert_int_equal(pr_writer_commit(w, hash, 1, &run, NULL, err), 0);
	}
	unlink(path);
	free(path);
	return rc;
}

/* "name@ts+dur/depth" of the phases of the last run, in time order. */
static const char *phases(struct pr_store *st)
{
	return qs(st,
		  "SELECT group_concat(name || '@' || ts || '+' || dur || '/' || depth, ' ') FROM "
		  "(SELECT name, ts, dur, depth FROM span_v WHERE kind = 'phase' AND run_id = "
		  "(SELECT max(id) FROM run) ORDER BY ts, dur DESC)",
		  NULL);
}

static int64_t last_diag(struct pr_store *st, const char *code)
{
	int64_t v =
		qi(st,
		   "SELECT count FROM diag WHERE code = ?1 AND run_id = (SELECT max(id) FROM run)",
		   code, NULL);
	return v == INT64_MIN ? 0 : v;
}

static const struct run_spec rel_run = { -1, 0, { 10 * S, 12 * S, 20 * S }, 3 };
/* the run's clock 0 is epoch 1700000000 s; samples at 1..30 s */
static const struct run_spec abs_run = { 1700000000 * S, 0, { 1 * S, 10 * S, 30 * S }, 3 };

static void test_relative_shapes(void **state)
{
	struct pr_store *st = open_store();
	struct pr_phaselog_stats ps;
	struct pr_error err;
	static const char log[] =
		"\xEF\xBB\xBF# a BOM, a comment, a header\n"
		"offset\tphase\n"
		"0\twarm up\r\n"      /* blanks in names, CRLF */
		"1.5  LOAD  model \n" /* inner blanks kept, ends trimmed */
		"3 begin x\n"	      /* a pair inside the sequence */
		"4 End x\n"
		"5 end\n"	      /* ends "LOAD  model" */
		"6,7,c,with,commas\n" /* START,END,NAME: the name keeps its commas */
		"8 9 spaced range\n"; /* START END NAME with blanks */
	(void)state;
	assert_int_equal(attach(st, &rel_run, log, sizeof(log) - 1, &ps, &err), 0);
	assert_int_equal(ps.phases, 5);
	/* offsets from the run's start, its first sample at 10 s */
	assert_string_equal(phases(st), "warm up@10000000000+1500000000/0 "
					"LOAD  model@11500000000+3500000000/0 "
					"x@13000000000+1000000000/1 "
					"c,with,commas@16000000000+1000000000/0 "
					"spaced range@18000000000+1000000000/0");
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.phase_log.time') FROM run", NULL),
			    "relative");
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 0);
	pr_store_close(st);
}

static void test_absolute_times(void **state)
{
	struct pr_store *st = open_store();
	struct pr_phaselog_stats ps;
	struct pr_error err;
	/* 1700000000 s = 2023-11-14 22:13:20 UTC */
	static const char log[] = "1700000002.25 a\n"
				  "2023-11-14 22:13:25.5 b\n"	    /* naive: UTC */
				  "[2023-11-14T23:13:27+01:00] c\n" /* 22:13:27 UTC */
				  "2023/11/14 22:13:28 end\n";
	(void)state;
	assert_int_equal(attach(st, &abs_run, log, sizeof(log) - 1, &ps, &err), 0);
	assert_string_equal(phases(st), "a@2250000000+3250000000/0 b@5500000000+1500000000/0 "
					"c@7000000000+1000000000/0");
	assert_int_equal(last_diag(st, "phase_naive_time_utc"), 1);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.phase_log.time') FROM run", NULL),
			    "epoch");
	/* the same log on a run without an absolute clock: an error at its first time */
	assert_int_equal(attach(st, &rel_run, log, sizeof(log) - 1, &ps, &err), -1);
	assert_int_equal(err.code, PR_E_FORMAT);
	assert_int_equal(err.line, 1);
	assert_int_equal(err.column, 1);
	assert_non_null(strstr(err.text, "no absolute clock"));
	assert_non_null(strstr(err.source, "pr_test_"));
	pr_store_close(st);
}

static void test_open_ends_and_range(void **state)
{
	struct pr_store *st = open_store();
	struct pr_phaselog_stats ps;
	struct pr_error err;
	/* the run: 10..20 s; what is still open at the end runs until 20 s */
	static const char log[] = "0 start never\n"  /* never ended */
				  "2 tail\n"	     /* the last TIME NAME line */
				  "-5 neg\n"	     /* not a time */
				  "10 start late\n"  /* at the run's last sample: inside, 0 long */
				  "30 start gone\n"; /* after the run */
	(void)state;
	assert_int_equal(attach(st, &rel_run, log, sizeof(log) - 1, &ps, &err), 0);
	assert_string_equal(phases(st), "never@10000000000+10000000000/0 "
					"tail@12000000000+8000000000/1 "
					"late@20000000000+0/0");
	assert_int_equal(last_diag(st, "phase_bad_line"), 1);
	assert_int_equal(last_diag(st, "phase_unclosed"), 3);
	assert_int_equal(last_diag(st, "phase_outside_run"), 1);
	assert_int_equal(last_diag(st, "phase_beyond_run"), 0);
	pr_store_close(st);
}

static void test_errors(void **state)
{
	struct pr_store *st = open_store();
	struct pr_phaselog_stats ps;
	struct pr_error err;
	static const struct run_spec empty_run = { -1, 0, { 0 }, 0 };
	static const struct run_spec synthetic = { -1, 1, { 0, 1 * S }, 2 };
	(void)state;
	assert_int_equal(attach(st, &rel_run, "", 0, &ps, &err), -1);
	assert_non_null(strstr(err.text, "empty phase log"));
	assert_int_equal(attach(st, &rel_run, "a b\nc d\n", 8, &ps, &err), -1);
	assert_int_equal(err.code, PR_E_FORMAT);
	assert_int_equal(err.line, 2); /* line 1 is a header */
	assert_non_null(strstr(err.text, "not a phase log"));
	assert_int_equal(attach(st, &rel_run, "1 a\n\0", 5, &ps, &err), -1);
	assert_non_null(strstr(err.text, "binary"));
	assert_int_equal(attach(st, &empty_run, "1 a\n", 4, &ps, &err), -1);
	assert_non_null(strstr(err.text, "no events"));
	assert_int_equal(attach(st, &synthetic, "1 a\n", 4, &ps, &err), -1);
	assert_non_null(strstr(err.text, "synthetic"));
	assert_int_equal(attach(st, &rel_run, "100 a\n200 b\n", 12, &ps, &err), -1);
	assert_non_null(strstr(err.text, "no phase falls within the run"));
	/* epoch times near the end of int64 ns: far after the run */
	assert_int_equal(attach(st, &abs_run, "9223372036 a\n9223372036.5 b\n", 28, &ps, &err), -1);
	assert_non_null(strstr(err.text, "no phase falls within the run"));
	assert_int_equal(pr_store_run_count(st), 0);
	pr_store_close(st);
}

static void test_hash_follows_content(void **state)
{
	struct pr_store *st = open_store();
	struct pr_phaselog_stats a, b, c;
	struct pr_error err;
	(void)state;
	assert_int_equal(attach(st, &rel_run, "1 a\n", 4, &a, &err), 0);
	assert_int_equal(attach(st, &rel_run, "1 a\n", 4, &b, &err), 0);
	assert_int_equal(attach(st, &rel_run, "1 b\n", 4, &c, &err), 0);
	assert_string_equal(a.hash, b.hash);
	assert_string_not_equal(a.hash, c.hash);
	pr_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_relative_shapes),	     cmocka_unit_test(test_absolute_times),
		cmocka_unit_test(test_open_ends_and_range),  cmocka_unit_test(test_errors),
		cmocka_unit_test(test_hash_follows_content),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
