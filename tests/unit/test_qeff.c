/* test_qeff.c - the qeff format (QEff synchronized data + operations JSON). */
#include "memfmt_helpers.h"

extern const struct pr_format pr_format_qeff;

#define MIB 1048576.0

static void test_qeff_sample(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_sample(st, "qeff/qeff_profile.json", "qeff");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL),
			 1741944413589793000LL); /* 2025-03-14T09:26:53.589793, as UTC */
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 0);
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL), "qeff-memory-profiler");
	assert_int_equal(mf_count(st, "mem.rss"), 129);
	assert_int_equal(mf_count(st, "disk.write_rate"), 129);
	assert_float_equal(mf_nth(st, "mem.rss", "0"), 258.737146695698 * MIB, 1e-3);
	assert_float_equal(mf_nth(st, "mem.rss", "128"), 2425.4148964383203 * MIB, 1e-3);
	assert_int_equal(mf_nth_ts(st, "mem.rss", "128"), 6796800000LL);
	assert_float_equal(mf_nth(st, "cpu.util", "5"), 41.873822925146214, 1e-12);
	assert_float_equal(mf_nth(st, "disk.read", "93"), 721.4637292792322 * MIB, 1e-3);
	assert_string_equal(qs(st, "SELECT unit FROM series WHERE name = 'disk.read_rate'", NULL),
			    "bytes/s");
	/* phases: 5 spans, Export twice, Completion an instant */
	assert_int_equal(qi(st, "SELECT count(*) FROM span WHERE kind = 'phase'", NULL), 5);
	assert_int_equal(qi(st, "SELECT count(*) FROM span_v WHERE name = 'Export'", NULL), 2);
	assert_int_equal(qi(st, "SELECT ts FROM span_v WHERE name = 'Model Loading'", NULL),
			 700000);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'Generation'", NULL),
			 1327200000);
	assert_int_equal(qi(st, "SELECT ts FROM instant_v WHERE name = 'Completion'", NULL),
			 6850300000LL);
	/* mark_operation() replayed: the values make_sample.py prints */
	assert_float_equal(mf_metric(st, "qeff.phase_duration_s.Model Loading"), 1.6461, 1e-9);
	assert_float_equal(mf_metric(st, "qeff.phase_delta_mb.Model Loading"), 1423.151735870354,
			   1e-9);
	assert_float_equal(mf_metric(st, "qeff.phase_duration_s.Export"), 0.531, 1e-9);
	assert_float_equal(mf_metric(st, "qeff.phase_delta_mb.Export"), -86.95976192146463, 1e-9);
	assert_float_equal(mf_metric(st, "qeff.phase_delta_mb.Compilation"), 660.324288341299,
			   1e-9);
	assert_float_equal(mf_metric(st, "qeff.phase_delta_mb.Generation"), 56.5196109550302, 1e-9);
	assert_int_equal(qi(st, "SELECT count(*) FROM metric WHERE name LIKE 'qeff.phase_%'", NULL),
			 8);
	/* the Export value belongs to its last occurrence */
	assert_int_equal(qi(st,
			    "SELECT s.ts FROM metric m JOIN span s ON s.id = m.span_id WHERE "
			    "m.name = 'qeff.phase_delta_mb.Export'",
			    NULL),
			 4992100000LL);
	assert_float_equal(mf_metric(st, "qeff.peak_rss_mb"), 2480.8680905176807, 1e-9);
	assert_string_equal(qs(st, "SELECT detail FROM metric WHERE name = 'qeff.peak_rss_mb'",
			       NULL),
			    "at 4.938 s; Peak during: Compilation");
	assert_string_equal(qs(st, "SELECT origin FROM metric WHERE name = 'qeff.peak_rss_mb'",
			       NULL),
			    "reported");
	assert_int_equal(mf_diag(st, "qeff_repeated_phase_name"), 1);
	assert_int_equal(mf_diag(st, "qeff_delta_start_estimated"), 1);
	assert_int_equal(mf_diag(st, "qeff_disk_counter_decreased"), 1);
	assert_int_equal(mf_diag(st, "qeff_naive_datetime"), 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 4);
	pr_store_close(st);
}

/* Numeric operation times, no start_time; the quirk computed by hand. */
static void test_qeff_numeric_ops(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_text(st,
		       "{\"timestamps\": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6],\n"
		       " \"rss_memory\": [100, 110, 120, 130, 140, 150, 160],\n"
		       " \"sampling_interval\": 0.1,\n"
		       " \"operations\": [[0.0, \"A\"], [0.25, \"B\"], [0.5, \"A\"], "
		       "[0.6, \"Completion\"]]}",
		       "qeff");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), INT64_MIN);
	assert_int_equal(mf_count(st, "mem.rss"), 7);
	assert_float_equal(mf_nth(st, "mem.rss", "2"), 120 * MIB, 0);
	assert_int_equal(mf_count(st, "mem.vms"), 0);
	assert_int_equal(mf_diag(st, "qeff_missing_series"), 6);
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 3);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'B'", NULL), 250000000);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'A' ORDER BY ts DESC", NULL),
			 100000000);
	/* B: 6 samples before the mark at 0.5 s, 0.25/0.1 = 2 back: rss[5] - rss[4] */
	assert_float_equal(mf_metric(st, "qeff.phase_delta_mb.B"), 10, 1e-9);
	assert_float_equal(mf_metric(st, "qeff.phase_duration_s.B"), 0.25, 1e-12);
	/* A's last occurrence (0.5..0.6 s) overwrote the first (0.25 s, +10) */
	assert_float_equal(mf_metric(st, "qeff.phase_duration_s.A"), 0.1, 1e-12);
	assert_float_equal(mf_metric(st, "qeff.phase_delta_mb.A"), 0, 1e-12);
	assert_int_equal(mf_diag(st, "qeff_repeated_phase_name"), 1);
	assert_int_equal(mf_diag(st, "qeff_delta_start_estimated"), 0);
	pr_store_close(st);
}

/* The real period (0.1 s) is twice the interval: the start index falls early. */
static void test_qeff_estimated_start(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_text(st,
		       "{\"timestamps\": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5],\n"
		       " \"rss_memory\": [100, 200, 300, 400, 500, 600],\n"
		       " \"operations\": [[0.0, \"Load\"], [0.3, \"Run\"], [0.5, \"Completion\"]]}",
		       "qeff");
	/* Run: 6 samples before 0.5; 0.2/0.05 = 4 back -> rss[5] - rss[2] = 300, where
	 * the phase started at sample 3 (true delta 200) */
	assert_float_equal(mf_metric(st, "qeff.phase_delta_mb.Run"), 300, 1e-9);
	/* Load: 4 samples before 0.3; 0.3/0.05 = 6 back -> index 0 */
	assert_float_equal(mf_metric(st, "qeff.phase_delta_mb.Load"), 300, 1e-9);
	assert_int_equal(mf_diag(st, "qeff_delta_start_estimated"), 1);
	assert_string_equal(qs(st,
			       "SELECT message FROM diag WHERE code = "
			       "'qeff_delta_start_estimated'",
			       NULL),
			    "1 phase memory delta(s) start before the phase: QEff estimates the "
			    "start sample as duration/sampling_interval samples back, but the real "
			    "sampling period is longer than the interval, so the reported delta "
			    "includes part of the previous phase");
	/* an open last phase (no Completion) would end at the last sample */
	pr_store_close(st);
}

static void test_qeff_datetimes(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	mf_ingest_text(st,
		       "{\"timestamps\": [0.0, 1.0], \"rss_memory\": [1, 2],\n"
		       " \"start_time\": \"2025-01-01T10:00:00+01:00\",\n"
		       " \"operations\": [[\"2025-01-01T09:00:00.5Z\", \"Gen\"]]}",
		       "qeff");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1735722000000000000LL);
	assert_int_equal(qi(st, "SELECT ts FROM span_v WHERE name = 'Gen'", NULL), 500000000);
	/* no Completion: the open phase ends at the last sample */
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'Gen'", NULL), 500000000);
	assert_int_equal(mf_diag(st, "qeff_naive_datetime"), 0);
	pr_store_close(st);

	st = open_store();
	mf_ingest_text(
		st,
		"{\"timestamps\": [0.0], \"rss_memory\": [1],\n"
		" \"operations\": [[\"2025-01-01T09:00:00\", \"Gen\"], [\"yesterday\", \"X\"]]}",
		"qeff");
	assert_int_equal(mf_diag(st, "qeff_missing_start_time"), 1);
	assert_int_equal(mf_diag(st, "qeff_bad_operation"), 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM span", NULL), 0);
	pr_store_close(st);
}

static void test_qeff_broken(void **state)
{
	struct pr_store *st = open_store();
	long line = 0, col = 0;
	(void)state;
	mf_ingest_text(st,
		       "{\"timestamps\": [0.0, 0.05, \"x\", 0.15], \"rss_memory\": [1, \"2\", 3, "
		       "NaN, 5],\n \"vms_memory\": [1, 2],\n"
		       " \"operations\": [[0.0, \"A\"], [1], \"B\"]}",
		       "qeff");
	assert_int_equal(mf_count(st, "mem.rss"), 1); /* [0]; [1] string, [2] bad ts, [3] NaN */
	assert_int_equal(mf_diag(st, "qeff_bad_value"), 3);
	assert_int_equal(mf_diag(st, "qeff_nonfinite"), 1);
	assert_int_equal(mf_diag(st, "qeff_length_mismatch"), 2);
	assert_int_equal(mf_diag(st, "qeff_bad_operation"), 2);
	assert_int_equal(mf_count(st, "mem.vms"), 2);
	pr_store_close(st);
	(void)line;
	(void)col;
	assert_string_equal(mf_ingest_fail("{\"timestamps\": {}, \"rss_memory\": []}", "qeff", NULL,
					   NULL),
			    "'timestamps': expected an array");
	assert_string_equal(mf_ingest_fail("{\"timestamps\": [], \"cpu_usage\": 3}", "qeff", NULL,
					   NULL),
			    "'cpu_usage': expected an array");
	assert_string_equal(mf_ingest_fail("{\"rss_memory\": []}", "qeff", NULL, NULL),
			    "'timestamps': missing (not a QEff file?)");
	assert_string_equal(mf_ingest_fail("[1, 2]", "qeff", NULL, NULL),
			    "expected a JSON object (QEff synchronized data)");
	assert_string_equal(mf_ingest_fail("{\"timestamps\": [0], \"sampling_interval\": \"0.1\"}",
					   "qeff", NULL, NULL),
			    "'sampling_interval': expected a positive number of seconds");
	assert_string_equal(mf_ingest_fail("{\"timestamps\": [0], \"start_time\": 5}", "qeff", NULL,
					   NULL),
			    "'start_time': expected an ISO-8601 datetime string");
	mf_ingest_fail("{\"timestamps\": [0.0,\n 0.1", "qeff", &line, &col);
	assert_int_equal(line, 2);
	/* an empty file: line and column both known */
	mf_ingest_fail("", "qeff", &line, &col);
	assert_int_equal(line, 1);
	assert_int_equal(col, 1);
	/* get_synchronized_data() == {} with operations: no samples */
	st = open_store();
	mf_ingest_text(st, "{\"operations\": [[0.0, \"A\"], [1.0, \"Completion\"]]}", "qeff");
	assert_int_equal(mf_diag(st, "qeff_no_samples"), 1);
	assert_int_equal(qi(st, "SELECT dur FROM span_v WHERE name = 'A'", NULL), 1000000000);
	pr_store_close(st);
}

static void test_qeff_sniff(void **state)
{
	(void)state;
	assert_int_equal(mf_sniff(&pr_format_qeff, "{\n  \"timestamps\": [\n    0.0\n  ],\n"
						   "  \"rss_memory\": [1.5]}"),
			 90);
	assert_int_equal(mf_sniff(&pr_format_qeff, "{\"traceEvents\": [{\"ph\": \"X\"}]}"), 0);
	assert_int_equal(mf_sniff(&pr_format_qeff, "{\"timestamps\": [1, 2]}"), 0);
	assert_int_equal(mf_sniff(&pr_format_qeff, "timestamps,rss_memory\n1,2\n"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qeff_sample),
		cmocka_unit_test(test_qeff_numeric_ops),
		cmocka_unit_test(test_qeff_estimated_start),
		cmocka_unit_test(test_qeff_datetimes),
		cmocka_unit_test(test_qeff_broken),
		cmocka_unit_test(test_qeff_sniff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
