/* test_csv.c - the CSV record reader, and the qnn-csv and csv formats end to end. */
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

#include "ingest/csv.h"
#include "ingest/format.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "base/strbuf.h"
#include "tests/unit/helpers.h"

/* ---- helpers ---- */

struct rec {
	size_t n;
	char f[8][64];
	size_t len[8];
	long line;
};

/* Reads every record of a memory buffer; returns the count, or -1 (err filled). */
static int read_all(const char *text, size_t n, int flags, struct rec *out, int max,
		    struct pr_error *err)
{
	struct pr_csv_opts o = { 0, 0, flags };
	struct pr_csv *c = pr_csv_new_mem(text, n, &o);
	int k = 0, rc;
	while ((rc = pr_csv_next(c, err)) > 0) {
		size_t nf, i;
		const struct pr_csv_field *f = pr_csv_fields(c, &nf);
		assert_true(k < max);
		out[k].n = nf;
		out[k].line = pr_csv_line(c);
		for (i = 0; i < nf && i < 8; i++) {
			assert_true(f[i].n < 64);
			memcpy(out[k].f[i], f[i].p, f[i].n);
			out[k].f[i][f[i].n] = '\0';
			out[k].len[i] = f[i].n;
			assert_int_equal(f[i].p[f[i].n], '\0');
		}
		k++;
	}
	pr_csv_free(c);
	return rc < 0 ? -1 : k;
}

/* The value of a series' n-th sample (0-based, in time order). */
static int64_t nth_ts(struct pr_store *st, const char *name, const char *device, const char *n)
{
	return qi(st,
		  "SELECT ts FROM sample_v WHERE name = ?1 AND device = ?2 ORDER BY ts "
		  "LIMIT 1 OFFSET ?3",
		  name, device, n, NULL);
}

#define QNN_HEADER                                                                                 \
	"timestamp,total_memory_kb,free_memory_kb,available_memory_kb,buffers_kb,cached_kb,"       \
	"swap_total_kb,swap_free_kb,proc_rss_kb,proc_vss_kb"

/* ---- the record reader ---- */

static void test_reader_quotes(void **state)
{
	static const char text[] = "a,\"b,c\",\"say \"\"hi\"\"\"\n1,,\"\"\n,,\n";
	struct rec r[4];
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	assert_int_equal(read_all(text, sizeof(text) - 1, 0, r, 4, &err), 3);
	assert_int_equal(r[0].n, 3);
	assert_string_equal(r[0].f[0], "a");
	assert_string_equal(r[0].f[1], "b,c");
	assert_string_equal(r[0].f[2], "say \"hi\"");
	assert_int_equal(r[1].n, 3);
	assert_string_equal(r[1].f[0], "1");
	assert_int_equal(r[1].len[1], 0);
	assert_int_equal(r[1].len[2], 0);
	assert_int_equal(r[2].n, 3);
	assert_int_equal(r[2].line, 3);
}

static void test_reader_crlf_embedded_newline(void **state)
{
	static const char text[] = "x,\"line1\r\nline2\"\r\ny,z\r\n\r\nlast,1";
	struct rec r[4];
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	assert_int_equal(read_all(text, sizeof(text) - 1, 0, r, 4, &err), 3);
	assert_string_equal(r[0].f[1], "line1\r\nline2");
	assert_int_equal(r[0].line, 1);
	assert_string_equal(r[1].f[0], "y");
	assert_string_equal(r[1].f[1], "z");
	assert_int_equal(r[1].line, 3);
	/* blank line 4 skipped; last record without a line break */
	assert_string_equal(r[2].f[0], "last");
	assert_string_equal(r[2].f[1], "1");
	assert_int_equal(r[2].line, 5);
}

static void test_reader_lone_cr_and_bom(void **state)
{
	static const char text[] = "\xEF\xBB\xBF"
				   "a,b\rc,d\r";
	struct rec r[4];
	struct pr_error err = PR_ERROR_INIT;
	struct pr_csv *c;
	size_t n;
	(void)state;
	assert_int_equal(read_all(text, sizeof(text) - 1, 0, r, 4, &err), 2);
	assert_string_equal(r[0].f[0], "a");
	assert_string_equal(r[1].f[1], "d");
	assert_int_equal(r[1].line, 2);
	/* the BOM is not part of the first field and columns count after it */
	c = pr_csv_new_mem(text, sizeof(text) - 1, NULL);
	assert_int_equal(pr_csv_next(c, &err), 1);
	assert_int_equal(pr_csv_fields(c, &n)[0].col, 1);
	assert_int_equal(pr_csv_fields(c, &n)[1].col, 3);
	assert_int_equal(pr_csv_offset(c), 3);
	pr_csv_free(c);
}

static void test_reader_trim(void **state)
{
	static const char text[] = "  a , b b ,  \"c \" \t\n \t \n1,2,3";
	struct rec r[4];
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	assert_int_equal(read_all(text, sizeof(text) - 1, PR_CSV_TRIM, r, 4, &err), 2);
	assert_string_equal(r[0].f[0], "a");
	assert_string_equal(r[0].f[1], "b b");
	assert_string_equal(r[0].f[2], "c "); /* quoted: kept as written */
	assert_int_equal(r[1].line, 3);	      /* a line of blanks is blank */
	/* without trimming, blanks are data */
	assert_int_equal(read_all(text, sizeof(text) - 1, 0, r, 4, &err), 3);
	assert_string_equal(r[0].f[0], "  a ");
}

static void test_reader_unterminated_quote(void **state)
{
	static const char text[] = "a,b\n1,\"abc\ndef\n";
	struct rec r[4];
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	assert_int_equal(read_all(text, sizeof(text) - 1, 0, r, 4, &err), -1);
	assert_int_equal(err.code, PR_E_PARSE);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 3);
}

static void test_reader_after_quote(void **state)
{
	static const char text[] = "ok\n\"a\" ,\"b\"x\n";
	struct rec r[4];
	struct pr_error err = PR_ERROR_INIT;
	struct pr_csv *c;
	(void)state;
	assert_int_equal(read_all(text, sizeof(text) - 1, 0, r, 4, &err), -1);
	assert_int_equal(err.code, PR_E_PARSE);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 9);
	/* the failure is sticky */
	c = pr_csv_new_mem(text, sizeof(text) - 1, NULL);
	assert_int_equal(pr_csv_next(c, &err), 1);
	assert_int_equal(pr_csv_next(c, &err), -1);
	pr_error_init(&err);
	assert_int_equal(pr_csv_next(c, &err), -1);
	assert_int_equal(err.code, PR_E_PARSE);
	assert_int_equal(err.column, 9);
	pr_csv_free(c);
}

static void test_reader_limits(void **state)
{
	struct pr_csv_opts small = { 10, 3, 0 };
	struct pr_error err = PR_ERROR_INIT;
	struct pr_csv *c;
	(void)state;
	/* 10 field bytes fit, the 11th is over: line 2, column 12 (after a comma) */
	c = pr_csv_new_mem("x\nabcde,fghijk\n", 15, &small);
	assert_int_equal(pr_csv_next(c, &err), 1);
	assert_int_equal(pr_csv_next(c, &err), -1);
	assert_int_equal(err.code, PR_E_LIMIT);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 12);
	pr_csv_free(c);
	/* the 4th field starts at column 7 */
	pr_error_init(&err);
	c = pr_csv_new_mem("a,b,c,d\n", 8, &small);
	assert_int_equal(pr_csv_next(c, &err), -1);
	assert_int_equal(err.code, PR_E_LIMIT);
	assert_int_equal(err.line, 1);
	assert_int_equal(err.column, 7);
	pr_csv_free(c);
}

static void test_reader_bytes(void **state)
{
	static const char text[] = "a\0b,\xff\xfe,\xc3\xa9t\xc3\xa9\n";
	struct pr_csv *c = pr_csv_new_mem(text, sizeof(text) - 1, NULL);
	struct pr_error err = PR_ERROR_INIT;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const struct pr_csv_field *f;
	size_t n;
	(void)state;
	assert_int_equal(pr_csv_next(c, &err), 1);
	f = pr_csv_fields(c, &n);
	assert_int_equal(n, 3);
	assert_int_equal(f[0].n, 3);
	assert_false(pr_csv_text_ok(f[0].p, f[0].n));
	assert_false(pr_csv_text_ok(f[1].p, f[1].n));
	assert_true(pr_csv_text_ok(f[2].p, f[2].n));
	assert_int_equal(pr_csv_text_clean(&sb, f[0].p, f[0].n), 1);
	assert_int_equal(pr_csv_text_clean(&sb, f[1].p, f[1].n), 2);
	assert_int_equal(pr_csv_text_clean(&sb, f[2].p, f[2].n), 0);
	assert_string_equal(sb.buf, "a?b??\xc3\xa9t\xc3\xa9");
	assert_int_equal(pr_csv_next(c, &err), 0);
	pr_strbuf_release(&sb);
	pr_csv_free(c);
}

/* Reading through pr_source in 64 KiB chunks gives what reading memory gives. */
static void test_reader_source_chunks(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_source *src = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_csv *a, *b;
	char *path;
	int i, ra, rb;
	int64_t records = 0;
	(void)state;
	pr_strbuf_addstr(&sb, "\xEF\xBB\xBFid,text,n\r\n");
	for (i = 0; i < 6000; i++)
		pr_strbuf_addf(&sb, "%d,\"q \"\"%d\"\",\r\nnext\",%*d\r\n", i, i, i % 37, i);
	path = write_temp(sb.buf, sb.len);
	assert_int_equal(pr_source_open(&src, path, &err), 0);
	a = pr_csv_new_source(src, NULL);
	b = pr_csv_new_mem(sb.buf, sb.len, NULL);
	for (;;) {
		size_t na, nb, k;
		const struct pr_csv_field *fa, *fb;
		ra = pr_csv_next(a, &err);
		rb = pr_csv_next(b, &err);
		assert_int_equal(ra, rb);
		if (ra <= 0)
			break;
		records++;
		fa = pr_csv_fields(a, &na);
		fb = pr_csv_fields(b, &nb);
		assert_int_equal(na, 3);
		assert_int_equal(nb, 3);
		assert_int_equal(pr_csv_line(a), pr_csv_line(b));
		assert_int_equal(pr_csv_offset(a), pr_csv_offset(b));
		for (k = 0; k < na; k++) {
			assert_int_equal(fa[k].n, fb[k].n);
			assert_memory_equal(fa[k].p, fb[k].p, fa[k].n);
			assert_int_equal(fa[k].col, fb[k].col);
		}
	}
	assert_int_equal(ra, 0);
	assert_int_equal(records, 6001);
	assert_int_equal(pr_csv_records(a), 6001);
	/* every record spans two lines: the last starts on line 2 * 6000 + 2 - 2 + 1 */
	assert_int_equal(pr_csv_line(a), 12000);
	pr_csv_free(a);
	pr_csv_free(b);
	pr_source_close(src);
	unlink(path);
	free(path);
	pr_strbuf_release(&sb);
}

/* ---- sniffing ---- */

static void test_sniff(void **state)
{
	static const char qnn[] = QNN_HEADER "\n1703001234.567,1,1,1,1,1,0,0,0,0\n";
	static const char smi[] = "timestamp, index, memory.used [MiB]\n2024/01/15 10:23:45.123, "
				  "0, 10 MiB\n";
	static const char notime[] = "a,b,c\n1,2,3\n";
	static const char numbers[] = "1,2,3\n4,5,6\n";
	static const char json[] = "[{\"a\": 1, \"b\": 2}]\n";
	static const char one_line[] = "a,b,c\n";
	extern const struct pr_format pr_format_csv, pr_format_qnn_csv;
	const struct pr_format *f;
	int conf;
	(void)state;
	f = pr_format_sniff((const unsigned char *)qnn, sizeof(qnn) - 1, "x.csv", &conf);
	assert_non_null(f);
	assert_string_equal(f->name, "qnn-csv");
	assert_int_equal(conf, 95);
	assert_int_equal(pr_format_csv.sniff((const unsigned char *)qnn, sizeof(qnn) - 1, NULL),
			 10);
	/* the QNN header without a line break after it, and one column short */
	assert_int_equal(pr_format_qnn_csv.sniff((const unsigned char *)qnn, sizeof(QNN_HEADER) - 1,
						 NULL),
			 95);
	assert_int_equal(pr_format_qnn_csv.sniff((const unsigned char *)qnn, sizeof(QNN_HEADER) - 2,
						 NULL),
			 0);
	assert_int_equal(pr_format_csv.sniff((const unsigned char *)smi, sizeof(smi) - 1, NULL),
			 60);
	assert_int_equal(pr_format_csv.sniff((const unsigned char *)notime, sizeof(notime) - 1,
					     NULL),
			 50);
	assert_int_equal(pr_format_csv.sniff((const unsigned char *)numbers, sizeof(numbers) - 1,
					     NULL),
			 0);
	assert_int_equal(pr_format_csv.sniff((const unsigned char *)json, sizeof(json) - 1, NULL),
			 0);
	assert_int_equal(pr_format_csv.sniff((const unsigned char *)one_line, sizeof(one_line) - 1,
					     NULL),
			 0);
}

/* ---- qnn-csv ---- */

static void test_qnn_sample(void **state)
{
	struct pr_store *st = open_store();
	char *path = sample_path("qnn/memory_20241219_143000.csv");
	(void)state;
	ingest_ok(st, path, "qnn-csv");
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL), "qnn-memory-monitor");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1734586201200000000LL);
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 0);
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.rows') FROM run", NULL), 60);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.csv_header') FROM run", NULL),
			    QNN_HEADER);
	/* every series in bytes, 60 samples each; no process series at all */
	assert_int_equal(qi(st, "SELECT count(*) FROM series", NULL), 9);
	assert_int_equal(qi(st,
			    "SELECT count(*) FROM series WHERE unit = 'bytes' AND "
			    "count = 60",
			    NULL),
			 9);
	assert_int_equal(qi(st, "SELECT count(*) FROM series WHERE name LIKE 'mem.%'", NULL), 0);
	assert_string_equal(qs(st, "SELECT orig_unit FROM series WHERE name = 'sys.mem.total'",
			       NULL),
			    "kB");
	assert_true(sample_nth(st, "sys.mem.total", "", "0") == 24683620.0 * 1024);
	assert_true(sample_nth(st, "sys.mem.free", "", "0") == 21894012.0 * 1024);
	assert_true(sample_nth(st, "sys.mem.used", "", "0") == (24683620.0 - 21894012.0) * 1024);
	assert_true(sample_nth(st, "sys.mem.available", "", "0") == 24227689.0 * 1024);
	assert_true(sample_nth(st, "sys.mem.buffers", "", "0") == 41301.0 * 1024);
	/* 24022100 = 2402210 || 0: decoded */
	assert_true(sample_nth(st, "sys.mem.cached", "", "0") == 2402210.0 * 1024);
	assert_true(sample_nth(st, "sys.mem.cached", "", "59") == 6702188.0 * 1024);
	assert_true(sample_nth(st, "sys.swap.used", "", "0") == 0.0);
	/* exact relative times: 1734586201.631 - .200, last 1734586227.017 - .200 */
	assert_int_equal(nth_ts(st, "sys.mem.total", "", "0"), 0);
	assert_int_equal(nth_ts(st, "sys.mem.total", "", "1"), 431000000);
	assert_int_equal(nth_ts(st, "sys.mem.total", "", "59"), 25817000000LL);
	/* peak used is 85% of total */
	assert_int_equal(qi(st,
			    "SELECT CAST(max * 1000 / (24683620.0 * 1024) AS INT) FROM "
			    "series WHERE name = 'sys.mem.used'",
			    NULL),
			 850);
	/* both corruptions reported with counts and the first line */
	assert_int_equal(diag_count(st, "qnn_proc_columns_zero"), 60);
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'qnn_proc_columns_zero'", NULL),
			 2);
	assert_int_equal(diag_count(st, "qnn_cached_concatenated"), 60);
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'qnn_cached_concatenated'",
			    NULL),
			 2);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 2);
	pr_store_close(st);
	free(path);
}

static void test_qnn_inline(void **state)
{
	/* README example row (uncorrupted cached, real proc values), a row with
	 * proc columns 0, a short row, swap present with a concatenated cached,
	 * a bad value, and no final newline. */
	static const char text[] = QNN_HEADER
		"\n"
		"1703001234.567,8388608,2097152,3145728,524288,1048576,0,0,1048576,2097152\n"
		"1703001234.998,8388608,2000000,3000000,524288,1048576,0,0,0,0\n"
		"1703001235.4,8388608\n"
		"1703001235.431,8388608,2000000,3000000,524288,20971520,1048576,524288,1100000,"
		"2200000\n"
		"1703001235.862,8388608,x,3000000,524288,2097152,1048576,524288,1100000,2200000";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "qnn-csv");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1703001234567000000LL);
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.rows') FROM run", NULL), 4);
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.rows_skipped') FROM run", NULL), 1);
	assert_int_equal(diag_count(st, "qnn_bad_field_count"), 1);
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'qnn_bad_field_count'", NULL),
			 4);
	/* proc values stored where > 0 only; the 0 row is reported */
	assert_int_equal(qi(st, "SELECT count FROM series WHERE name = 'mem.rss'", NULL), 3);
	assert_true(sample_nth(st, "mem.rss", "", "0") == 1048576.0 * 1024);
	assert_true(sample_nth(st, "mem.vms", "", "2") == 2200000.0 * 1024);
	assert_int_equal(diag_count(st, "qnn_proc_value_zero"), 1);
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'qnn_proc_value_zero'", NULL),
			 3);
	assert_int_equal(diag_count(st, "qnn_proc_columns_zero"), 0);
	/* cached: the first two rows are plausible and stored raw; row 5 has
	 * 20971520 > total; with swap present it cannot be decoded and is
	 * dropped, and from then on every row is (row 6 too) */
	assert_int_equal(qi(st, "SELECT count FROM series WHERE name = 'sys.mem.cached'", NULL), 2);
	assert_true(sample_nth(st, "sys.mem.cached", "", "1") == 1048576.0 * 1024);
	assert_int_equal(diag_count(st, "qnn_cached_concatenated"), 2);
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'qnn_cached_concatenated'",
			    NULL),
			 5);
	assert_int_equal(qi(st,
			    "SELECT json_extract(meta, '$.\"qnn.cached_dropped_rows\"') "
			    "FROM run",
			    NULL),
			 2);
	/* the bad free value: no free and no used for that row */
	assert_int_equal(diag_count(st, "qnn_bad_value"), 1);
	assert_int_equal(qi(st, "SELECT col FROM diag WHERE code = 'qnn_bad_value'", NULL), 24);
	assert_int_equal(qi(st, "SELECT count FROM series WHERE name = 'sys.mem.used'", NULL), 3);
	assert_int_equal(qi(st, "SELECT count FROM series WHERE name = 'sys.mem.total'", NULL), 4);
	assert_int_equal(nth_ts(st, "sys.mem.total", "", "3"), 1295000000);
	assert_true(sample_nth(st, "sys.swap.used", "", "3") == 524288.0 * 1024);
	pr_store_close(st);
}

static void test_qnn_synthetic_time(void **state)
{
	static const char text[] = QNN_HEADER "\n"
					      "1703001234.%3N,100,10,50,1,20,0,0,0,0\n"
					      "1703001234.%3N,100,10,50,1,20,0,0,0,0\n"
					      "1703001235.%3N,100,10,50,1,20,0,0,0,0\n";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "qnn-csv");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), INT64_MIN);
	assert_int_equal(diag_count(st, "qnn_timestamp_non_numeric"), 1);
	assert_int_equal(nth_ts(st, "sys.mem.total", "", "0"), 0);
	assert_int_equal(nth_ts(st, "sys.mem.total", "", "2"), 200000000);
	assert_true(sample_nth(st, "sys.mem.used", "", "1") == 90.0 * 1024);
	pr_store_close(st);
}

/*
 * Times within +-(2^62 - 1) ns = +-4611686018.427387903 s (base/timecheck.h).
 * Rows (file lines): 2 and 3 are 4611686018.428 s from the epoch either way:
 * skipped, and neither is the origin; 4 is the origin (1703001234.567);
 * 5 is -2908684783.861 s, 4611686018.428 s before the origin: skipped;
 * 6 is -2908684783.860 s, 4611686018.427 s before it: kept; 7 is 0.433 s after.
 */
static void test_qnn_time_range(void **state)
{
	static const char text[] = QNN_HEADER "\n"
					      "4611686018.428,100,10,50,1,20,0,0,0,0\n"
					      "-4611686018.428,100,10,50,1,20,0,0,0,0\n"
					      "1703001234.567,100,10,50,1,20,0,0,0,0\n"
					      "-2908684783.861,100,10,50,1,20,0,0,0,0\n"
					      "-2908684783.860,100,10,50,1,20,0,0,0,0\n"
					      "1703001235.000,100,10,50,1,20,0,0,0,0\n";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "qnn-csv");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1703001234567000000LL);
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.rows') FROM run", NULL), 3);
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.rows_skipped') FROM run", NULL), 3);
	assert_int_equal(diag_count(st, "time_out_of_range"), 3);
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'time_out_of_range'", NULL), 2);
	assert_int_equal(qi(st, "SELECT count FROM series WHERE name = 'sys.mem.total'", NULL), 3);
	assert_int_equal(nth_ts(st, "sys.mem.total", "", "0"), -4611686018427000000LL);
	assert_int_equal(nth_ts(st, "sys.mem.total", "", "1"), 0);
	assert_int_equal(nth_ts(st, "sys.mem.total", "", "2"), 433000000);
	pr_store_close(st);
}

static void test_qnn_bad_header(void **state)
{
	static const char text[] = "timestamp,total_memory_kb\n1,2\n";
	struct pr_store *st = open_store();
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	char *path = write_temp(text, sizeof(text) - 1);
	(void)state;
	assert_int_equal(pr_ingest_file(st, path, "qnn-csv", &res, &err), -1);
	assert_int_equal(err.code, PR_E_FORMAT);
	assert_int_equal(err.line, 1);
	assert_int_equal(qi(st, "SELECT count(*) FROM run", NULL), 0);
	unlink(path);
	free(path);
	pr_store_close(st);
}

/* ---- csv: samples ---- */

static void test_csv_nvidia_smi(void **state)
{
	struct pr_store *st = open_store();
	char *path = sample_path("nvidia-smi/gpu_log.csv");
	(void)state;
	ingest_ok(st, path, "csv");
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL), "nvidia-smi");
	/* 2024-01-15T10:23:45.123 taken as UTC */
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1705314225123000000LL);
	assert_int_equal(diag_count(st, "csv_naive_time_utc"), 1);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.time_zone') FROM run", NULL),
			    "naive timestamps taken as UTC");
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.ignored_columns') FROM run", NULL),
			    "[\"name\"]");
	/* 7 series per GPU, 30 samples each */
	assert_int_equal(qi(st, "SELECT count(*) FROM series WHERE count = 30", NULL), 14);
	assert_int_equal(qi(st, "SELECT count(DISTINCT device) FROM series", NULL), 2);
	assert_string_equal(qs(st,
			       "SELECT group_concat(name || ':' || unit || ':' || orig_unit, "
			       "' ') FROM (SELECT * FROM series WHERE device = 'cuda:0' "
			       "ORDER BY name)",
			       NULL),
			    "gpu.mem.free:bytes:MiB gpu.mem.total:bytes:MiB "
			    "gpu.mem.used:bytes:MiB gpu.mem.util:percent:% gpu.power:watts:W "
			    "gpu.temp:celsius:C gpu.util:percent:%");
	assert_true(sample_nth(st, "gpu.mem.total", "cuda:1", "0") == 81559.0 * 1048576);
	assert_true(sample_nth(st, "gpu.mem.used", "cuda:0", "0") == 4.0 * 1048576);
	assert_true(sample_nth(st, "gpu.power", "cuda:0", "0") == 71.69);
	assert_true(sample_nth(st, "gpu.temp", "cuda:1", "0") == 33.0);
	/* second sample at 10:23:46.128 */
	assert_int_equal(nth_ts(st, "gpu.util", "cuda:1", "1"), 1005000000);
	assert_int_equal(qi(st, "SELECT ts_max FROM run", NULL), 29283000000LL);
	pr_store_close(st);
	free(path);
}

static void test_csv_psutil_phases(void **state)
{
	struct pr_store *st = open_store();
	char *path = sample_path("psutil/process_log.csv");
	(void)state;
	ingest_ok(st, path, "csv");
	assert_string_equal(qs(st, "SELECT collector FROM run", NULL), "csv");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 1718000000250000000LL);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.time_kind') FROM run", NULL),
			    "epoch");
	assert_string_equal(qs(st,
			       "SELECT group_concat(name || ':' || unit, ' ') FROM "
			       "(SELECT * FROM series ORDER BY name)",
			       NULL),
			    "cpu.util:percent disk.read:bytes disk.write:bytes mem.rss:bytes "
			    "mem.vms:bytes");
	assert_true(sample_nth(st, "mem.rss", "", "0") == 820.80 * 1048576);
	assert_true(sample_nth(st, "cpu.util", "", "0") == 13.0);
	assert_int_equal(nth_ts(st, "mem.rss", "", "1"), 1008792000);
	/* four phases, end to end, the last one ending at the last row */
	assert_string_equal(qs(st,
			       "SELECT group_concat(name || '@' || ts || '+' || dur, ' ') "
			       "FROM (SELECT * FROM span_v WHERE kind = 'phase' AND "
			       "track = 'phases' ORDER BY ts)",
			       NULL),
			    "Model Loading@0+12103981000 Export@12103981000+15151602000 "
			    "Compilation@27255583000+20195500000 "
			    "Generation@47451083000+12123668000");
	assert_int_equal(qi(st, "SELECT max(ts) FROM sample", NULL), 59574751000LL);
	assert_int_equal(qi(st, "SELECT count(*) FROM diag", NULL), 0);
	pr_store_close(st);
	free(path);
}

/* ---- csv: inline cases ---- */

static void test_csv_datetime_zones(void **state)
{
	static const char text[] = "time,value [W]\n"
				   "2000-02-29T00:00:00Z,1\n"
				   "2000-02-29T02:00:01.5+02:00,2\n"
				   "2000-02-28T19:00:02.25-05:00,3\n"
				   "2000-02-29 00:00:03.000000001Z,4\n"
				   "2000-02-30T00:00:00Z,5\n";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "csv");
	/* 2000-02-29 = day 11016 since the epoch */
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), 951782400000000000LL);
	assert_int_equal(nth_ts(st, "value", "", "1"), 1500000000);
	assert_int_equal(nth_ts(st, "value", "", "2"), 2250000000LL);
	assert_int_equal(nth_ts(st, "value", "", "3"), 3000000001LL);
	assert_string_equal(qs(st, "SELECT unit || ':' || orig_unit FROM series", NULL), "watts:W");
	assert_int_equal(diag_count(st, "csv_bad_time"), 1);
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'csv_bad_time'", NULL), 6);
	assert_int_equal(diag_count(st, "csv_naive_time_utc"), 0);
	pr_store_close(st);
}

static void test_csv_relative_units(void **state)
{
	/* relative ms time; unit suffixes and value suffixes; missing values;
	 * a text cell in a numeric column; a short row; the header again */
	static const char text[] = "time_ms,gpu_mem_mb,temp_c,step_ms,clock [GHz],note,"
				   "throughput,tokens_per_s\n"
				   "0,100,40,12.5,1.5,warmup,8 MiB,10\n"
				   "250,[N/A],41,n/a,1.6,,N/A,11\n"
				   "500,200,oops,13,1.7,x,1 GiB,12\n"
				   "750,300\n"
				   "time_ms,gpu_mem_mb,temp_c,step_ms,clock [GHz],note,throughput,"
				   "tokens_per_s\n"
				   "1000,400,42,14,1.8,y,2 %,13\n";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "csv");
	assert_int_equal(qi(st, "SELECT time_origin_ns FROM run", NULL), INT64_MIN);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.time_kind') FROM run", NULL),
			    "relative");
	assert_int_equal(qi(st, "SELECT count FROM series WHERE name = 'gpu.mem.used'", NULL), 3);
	assert_true(sample_nth(st, "gpu.mem.used", "", "2") == 400.0 * 1048576);
	assert_int_equal(nth_ts(st, "gpu.mem.used", "", "2"), 1000000000);
	assert_string_equal(qs(st,
			       "SELECT unit || ':' || orig_unit FROM series WHERE name = "
			       "'temp'",
			       NULL),
			    "celsius:c");
	assert_string_equal(qs(st,
			       "SELECT unit || ':' || orig_unit FROM series WHERE name = "
			       "'step'",
			       NULL),
			    "ns:ms");
	assert_true(sample_nth(st, "step", "", "0") == 12.5e6);
	assert_string_equal(qs(st,
			       "SELECT unit || ':' || orig_unit FROM series WHERE name = "
			       "'clock'",
			       NULL),
			    "MHz:GHz");
	assert_true(sample_nth(st, "clock", "", "3") == 1800.0);
	/* unit from the values; a cell in another kind is a bad value */
	assert_string_equal(qs(st,
			       "SELECT unit || ':' || orig_unit FROM series WHERE name = "
			       "'throughput'",
			       NULL),
			    "bytes:MiB");
	assert_true(sample_nth(st, "throughput", "", "1") == 1073741824.0);
	assert_int_equal(qi(st, "SELECT count FROM series WHERE name = 'throughput'", NULL), 2);
	assert_string_equal(qs(st, "SELECT unit FROM series WHERE name = 'tokens_per_s'", NULL),
			    "");
	assert_int_equal(diag_count(st, "csv_bad_value"), 2); /* "oops", "2 %" */
	assert_int_equal(diag_count(st, "csv_bad_field_count"), 1);
	assert_int_equal(qi(st, "SELECT line FROM diag WHERE code = 'csv_bad_field_count'", NULL),
			 5);
	assert_int_equal(diag_count(st, "csv_repeated_header"), 1);
	assert_string_equal(qs(st, "SELECT json_extract(meta, '$.ignored_columns') FROM run", NULL),
			    "[\"note\"]");
	assert_int_equal(qi(st, "SELECT json_extract(meta, '$.rows') FROM run", NULL), 4);
	pr_store_close(st);
}

static void test_csv_no_time_phases(void **state)
{
	/* no time column: row index seconds; repeated phase names are separate
	 * occurrences; an empty label ends the phase before it */
	static const char text[] = "stage,Memory (MB),CPU %\r\n"
				   "load,10,5\r\n"
				   "load,20,6\r\n"
				   "run,30,7\r\n"
				   ",30,7\r\n"
				   "load,40,8\r\n"
				   "load,40,9";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "csv");
	assert_int_equal(qi(st, "SELECT time_synthetic FROM run", NULL), 1);
	assert_int_equal(diag_count(st, "csv_no_time_column"), 1);
	assert_string_equal(qs(st,
			       "SELECT group_concat(name || '@' || ts || '+' || dur, ' ') "
			       "FROM (SELECT * FROM span_v WHERE kind = 'phase' ORDER BY ts)",
			       NULL),
			    "load@0+2000000000 run@2000000000+1000000000 "
			    "load@4000000000+1000000000");
	assert_string_equal(qs(st,
			       "SELECT unit || ':' || orig_unit FROM series WHERE name = "
			       "'memory'",
			       NULL),
			    "bytes:MB");
	assert_true(sample_nth(st, "memory", "", "5") == 40.0 * 1048576);
	assert_int_equal(nth_ts(st, "memory", "", "5"), 5000000000LL);
	/* "CPU %" has no brackets: a plain name */
	assert_int_equal(qi(st, "SELECT count FROM series WHERE name = 'cpu_%'", NULL), 6);
	pr_store_close(st);
}

static void test_csv_bad_input(void **state)
{
	static const char unterminated[] = "time,x\n1,2\n2,\"3\n3,4\n";
	struct pr_store *st = open_store();
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	char *path = write_temp(unterminated, sizeof(unterminated) - 1);
	(void)state;
	assert_int_equal(pr_ingest_file(st, path, NULL, &res, &err), -1);
	assert_int_equal(err.code, PR_E_PARSE);
	assert_int_equal(err.line, 3);
	assert_int_equal(err.column, 3);
	assert_int_equal(qi(st, "SELECT count(*) FROM run", NULL), 0);
	unlink(path);
	free(path);
	pr_store_close(st);
}

/* No number anywhere but the time column: not a sampler log (issue 11). */
static void expect_no_numbers(const char *text, const char *format, long line, long col)
{
	struct pr_store *st = open_store();
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	char *path = write_temp(text, strlen(text));
	assert_int_equal(pr_ingest_file(st, path, format, &res, &err), -1);
	assert_int_equal(err.code, PR_E_FORMAT);
	assert_true(!strncmp(err.text, "no numeric column", 17));
	assert_int_equal(err.line, line);
	assert_int_equal(err.column, col);
	assert_int_equal(qi(st, "SELECT count(*) FROM run", NULL), 0);
	unlink(path);
	free(path);
	pr_store_close(st);
}

static void test_csv_no_numbers(void **state)
{
	struct pr_store *st = open_store();
	(void)state;
	/* the error is at the first text cell of a value column, in file order */
	expect_no_numbers("host,model\nnode1,llama\nnode2,qwen\n", NULL, 2, 1);
	expect_no_numbers("time,host,model\n1,,llama\n2,n2,qwen\n", "csv", 2, 4);
	expect_no_numbers("hello world\n", "csv", 1, 1);
	expect_no_numbers("time,rss_mb\n1,N/A\n2,\n", "csv", 1, 1);
	/* a header with a time column and no rows: an empty run (forced: too
	 * little to be recognized) */
	{
		struct pr_ingest_result res;
		struct pr_error err = PR_ERROR_INIT;
		char *path = write_temp("timestamp,rss_mb\n", 17);
		assert_int_equal(pr_ingest_file(st, path, "csv", &res, &err), 0);
		unlink(path);
		free(path);
	}
	/* times and phases only: the phases are the content */
	ingest_text(st, "time,phase\n0,a\n1,b\n", "csv");
	assert_int_equal(qi(st, "SELECT count(*) FROM run", NULL), 2);
	assert_int_equal(qi(st, "SELECT count(*) FROM span WHERE kind = 'phase'", NULL), 2);
	/* one number in one column is enough */
	ingest_text(st, "time,host,v\n0,a,\n1,b,7\n", "csv");
	pr_store_close(st);
}

static void test_csv_invalid_text(void **state)
{
	static const char text[] = "t,label,v\n0,a\xff\x01,1\n1,a\xff\x01,2\n2,b,3\n";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, text, "csv");
	assert_int_equal(diag_count(st, "csv_invalid_text"), 2);
	assert_string_equal(qs(st,
			       "SELECT group_concat(name || '@' || ts || '+' || dur, ' ') "
			       "FROM (SELECT * FROM span_v ORDER BY ts)",
			       NULL),
			    "a??@0+2000000000 b@2000000000+0");
	pr_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_quotes),
		cmocka_unit_test(test_reader_crlf_embedded_newline),
		cmocka_unit_test(test_reader_lone_cr_and_bom),
		cmocka_unit_test(test_reader_trim),
		cmocka_unit_test(test_reader_unterminated_quote),
		cmocka_unit_test(test_reader_after_quote),
		cmocka_unit_test(test_reader_limits),
		cmocka_unit_test(test_reader_bytes),
		cmocka_unit_test(test_reader_source_chunks),
		cmocka_unit_test(test_sniff),
		cmocka_unit_test(test_qnn_sample),
		cmocka_unit_test(test_qnn_inline),
		cmocka_unit_test(test_qnn_synthetic_time),
		cmocka_unit_test(test_qnn_time_range),
		cmocka_unit_test(test_qnn_bad_header),
		cmocka_unit_test(test_csv_nvidia_smi),
		cmocka_unit_test(test_csv_psutil_phases),
		cmocka_unit_test(test_csv_datetime_zones),
		cmocka_unit_test(test_csv_relative_units),
		cmocka_unit_test(test_csv_no_time_phases),
		cmocka_unit_test(test_csv_bad_input),
		cmocka_unit_test(test_csv_invalid_text),
		cmocka_unit_test(test_csv_no_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
