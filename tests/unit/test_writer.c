/* test_writer.c - store/writer: one run per writer, span nesting, commit/abort. */
#include <math.h>
#include <pthread.h>
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

#include "base/output.h"
#include "store/store.h"
#include "base/strbuf.h"
#include "tests/unit/helpers.h"

#define q1(f, sql) db_int((f)->db, (sql))
#define rows(f, sql, out) db_rows((f)->db, (sql), ' ', (out))
#define assert_rows(f, sql, want) db_assert_rows((f)->db, (sql), ' ', (want))

struct fx {
	char dir[512];
	char path[600];
	struct pr_store *st;
	sqlite3 *db;
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");
	struct pr_error err = PR_ERROR_INIT;
	snprintf(f->dir, sizeof(f->dir), "%s/pr-test-writer-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/store.db", f->dir);
	if (pr_store_open(&f->st, f->path, PR_STORE_CREATE, &err)) {
		print_error("pr_store_open: %s\n", err.text);
		return -1;
	}
	f->db = pr_store_db(f->st);
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	char p[700];
	pr_store_close(f->st);
	unlink(f->path);
	snprintf(p, sizeof(p), "%s-journal", f->path);
	unlink(p);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* Spans of one run with their parent's name: name depth parent self ts dur. */
static void nesting(struct fx *f, int64_t run, struct pr_strbuf *out)
{
	char sql[400];
	snprintf(sql, sizeof(sql),
		 "SELECT a.name, a.depth, ifnull(b.name, '-'), a.self, a.ts, a.dur FROM span_v a "
		 "LEFT JOIN span_v b ON b.id = a.parent_id WHERE a.run_id = %lld "
		 "ORDER BY a.ts, a.dur DESC",
		 (long long)run);
	rows(f, sql, out);
}

static struct pr_writer *begin(struct fx *f, const char *source)
{
	struct pr_writer *w = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_run_info info = { "test", source, NULL };
	if (pr_writer_begin(f->st, &info, &w, &err))
		print_error("pr_writer_begin: %s\n", err.text);
	assert_non_null(w);
	return w;
}

static int64_t commit(struct pr_writer *w, const char *hash, int want_rc)
{
	struct pr_error err = PR_ERROR_INIT;
	int64_t run = -1;
	int rc = pr_writer_commit(w, hash, 123, &run, NULL, &err);
	if (rc != want_rc)
		print_error("pr_writer_commit: rc %d (%s), want %d\n", rc, err.text, want_rc);
	assert_int_equal(rc, want_rc);
	return run;
}

static struct pr_span_in span(struct pr_writer *w, int64_t track, const char *name, int64_t ts,
			      int64_t dur, const char *args)
{
	struct pr_span_in s;
	memset(&s, 0, sizeof(s));
	s.track = track;
	s.kind = "op";
	s.name = pr_writer_intern(w, name, strlen(name));
	s.cat = 0;
	s.ts = ts;
	s.dur = dur;
	s.args = args;
	s.args_len = args ? strlen(args) : 0;
	return s;
}

static int64_t X(struct pr_writer *w, int64_t track, const char *name, int64_t ts, int64_t dur)
{
	struct pr_span_in s = span(w, track, name, ts, dur, NULL);
	return pr_writer_span(w, &s);
}

static int64_t B(struct pr_writer *w, int64_t track, const char *name, int64_t ts, const char *args)
{
	struct pr_span_in s = span(w, track, name, ts, 0, args);
	return pr_writer_span_begin(w, &s);
}

static int E(struct pr_writer *w, int64_t track, int64_t ts, const char *args)
{
	return pr_writer_span_end(w, track, ts, args, args ? strlen(args) : 0);
}

static int64_t wr_diag_count(struct fx *f, const char *code)
{
	char sql[200];
	snprintf(sql, sizeof(sql), "SELECT ifnull(sum(count), 0) FROM diag WHERE code = '%s'",
		 code);
	return q1(f, sql);
}

/* A(0..100) { B(10..40) { C(15..20) } D(50..70) } E(200..210) */
static const char nested_want[] = "A 0 - 50 0 100\n"
				  "B 1 A 25 10 30\n"
				  "C 2 B 5 15 5\n"
				  "D 1 A 20 50 20\n"
				  "E 0 - 10 200 10\n";

static void test_nesting_in_order(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "/some/dir/in-order.json");
	struct pr_strbuf got = PR_STRBUF_INIT;
	struct pr_writer_stats stats;
	struct pr_error err = PR_ERROR_INIT;
	int64_t t = pr_writer_track(w, "thread", "1", "7"), run = 0;

	assert_int_equal(pr_writer_track(w, "thread", "1", "7"), t); /* found, not created */
	assert_true(pr_writer_track(w, "thread", "1", "8") != t);
	assert_true(pr_writer_track(w, "thread", "17", "") !=
		    pr_writer_track(w, "thread", "1", "7"));
	X(w, t, "A", 0, 100);
	X(w, t, "B", 10, 30);
	X(w, t, "C", 15, 5);
	X(w, t, "D", 50, 20);
	X(w, t, "E", 200, 10);
	assert_int_equal(pr_writer_commit(w, "h-in-order", 77, &run, &stats, &err), 0);
	assert_int_equal(run, 1);
	assert_int_equal(stats.spans, 5);
	nesting(f, run, &got);
	assert_string_equal(got.buf, nested_want);
	assert_rows(f, "SELECT span_count, ts_min, ts_max, bytes, label, source, format FROM run",
		    "5 0 210 77 in-order.json /some/dir/in-order.json test\n");
	assert_int_equal(q1(f, "SELECT count(*) FROM diag"), 0);
	assert_rows(f, "SELECT kind, pid, tid FROM track ORDER BY id",
		    "thread 1 7\nthread 1 8\nthread 17 \n");
	pr_strbuf_release(&got);
}

static void test_begin_end(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "be.json");
	int64_t t = pr_writer_track(w, "thread", "1", "1");
	int64_t t2 = pr_writer_track(w, "thread", "1", "2");
	int64_t run;

	assert_int_equal(E(w, t, 5, NULL), -1);	     /* nothing open */
	assert_int_equal(E(w, 999999, 5, NULL), -1); /* no such track */
	B(w, t, "outer", 0, "{\"a\":1}");
	X(w, t, "child", 10, 20);
	B(w, t, "inner", 40, NULL);
	assert_int_equal(E(w, t, 60, " {\"x\":true} "), 0);
	assert_int_equal(E(w, t, 100, "{\"b\":2}"), 0);
	assert_int_equal(E(w, t, 100, NULL), -1);
	/* An end before its begin: duration 0 and a diagnostic. */
	B(w, t2, "backwards", 50, NULL);
	assert_int_equal(E(w, t2, 40, NULL), 0);
	run = commit(w, "h-be", 0);
	assert_rows(f,
		    "SELECT a.name, a.depth, ifnull(b.name, '-'), a.self, a.ts, a.dur, "
		    "ifnull(a.args, '-') FROM span_v a LEFT JOIN span_v b ON b.id = a.parent_id "
		    "ORDER BY a.tid, a.ts",
		    "outer 0 - 60 0 100 {\"a\":1,\"b\":2}\n"
		    "child 1 outer 20 10 20 -\n"
		    "inner 1 outer 20 40 20 {\"x\":true}\n"
		    "backwards 0 - 0 50 0 -\n");
	assert_int_equal(q1(f, "SELECT json_extract(args, '$.b') FROM span_v WHERE name = 'outer'"),
			 2);
	assert_int_equal(wr_diag_count(f, "negative_duration"), 1);
	assert_int_equal(wr_diag_count(f, "unclosed_span"), 0);
	assert_int_equal(run, 1);
}

static void test_partial_overlap(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "overlap.json");
	int64_t t = pr_writer_track(w, "thread", "1", "1");
	X(w, t, "A", 0, 50);
	X(w, t, "B", 40, 30); /* starts inside A, ends after it */
	X(w, t, "C", 100, 10);
	commit(w, "h-overlap", 0);
	/* B is A's child; only the part inside A (40..50) is charged to A. */
	assert_rows(f,
		    "SELECT a.name, a.depth, ifnull(b.name, '-'), a.self, a.dur FROM span_v a "
		    "LEFT JOIN span_v b ON b.id = a.parent_id ORDER BY a.ts",
		    "A 0 - 40 50\n"
		    "B 1 A 30 30\n"
		    "C 0 - 10 10\n");
	assert_rows(f, "SELECT code, count FROM diag", "overlapping_spans 1\n");
}

/*
 * The same overlap through B/E: an "E" that closes a span while a child
 * still runs. Both the streaming nesting (sorted track) and the re-nesting
 * at commit (unsorted track) must charge only the part inside (10..50).
 */
static void test_partial_overlap_begin_end(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "overlap-be.json");
	int64_t t = pr_writer_track(w, "thread", "1", "1");
	int64_t t2 = pr_writer_track(w, "thread", "1", "2");
	B(w, t, "outer", 0, NULL);
	X(w, t, "inner", 10, 100);
	E(w, t, 50, NULL);	    /* inner is still running when outer ends */
	X(w, t2, "first", 1000, 1); /* makes track 2 unsorted */
	B(w, t2, "outer", 0, NULL);
	X(w, t2, "inner", 10, 100);
	E(w, t2, 50, NULL);
	commit(w, "h-overlap-be", 0);
	assert_rows(
		f,
		"SELECT a.tid, a.name, a.depth, ifnull(b.name, '-'), a.self, a.dur FROM span_v a "
		"LEFT JOIN span_v b ON b.id = a.parent_id ORDER BY a.tid, a.ts",
		"1 outer 0 - 10 50\n"
		"1 inner 1 outer 100 100\n"
		"2 outer 0 - 10 50\n"
		"2 inner 1 outer 100 100\n"
		"2 first 0 - 1 1\n");
	assert_int_equal(wr_diag_count(f, "overlapping_spans"), 1);
	assert_int_equal(wr_diag_count(f, "unsorted_track"), 1);
}

/* The same spans as the in-order case plus a B/E pair, in a given order. */
static void feed(struct pr_writer *w, int64_t t, int shuffled)
{
	if (!shuffled) {
		X(w, t, "A", 0, 100);
		X(w, t, "B", 10, 30);
		X(w, t, "C", 15, 5);
		X(w, t, "D", 50, 20);
		X(w, t, "E", 200, 10);
		B(w, t, "F", 300, NULL);
		X(w, t, "G", 310, 5);
		E(w, t, 400, NULL);
	} else {
		X(w, t, "E", 200, 10);
		X(w, t, "C", 15, 5);
		X(w, t, "A", 0, 100);
		B(w, t, "F", 300, NULL);
		X(w, t, "G", 310, 5);
		E(w, t, 400, NULL);
		X(w, t, "D", 50, 20);
		X(w, t, "B", 10, 30);
	}
}

static void test_out_of_order_renested(void **state)
{
	static const char want[] = "A 0 - 50 0 100\n"
				   "B 1 A 25 10 30\n"
				   "C 2 B 5 15 5\n"
				   "D 1 A 20 50 20\n"
				   "E 0 - 10 200 10\n"
				   "F 0 - 95 300 100\n"
				   "G 1 F 5 310 5\n";
	struct fx *f = *state;
	struct pr_strbuf in = PR_STRBUF_INIT, out = PR_STRBUF_INIT;
	struct pr_writer *w;
	int64_t run_in, run_out;

	w = begin(f, "sorted.json");
	feed(w, pr_writer_track(w, "thread", "1", "1"), 0);
	run_in = commit(w, "h-sorted", 0);
	assert_int_equal(wr_diag_count(f, "unsorted_track"), 0);

	w = begin(f, "shuffled.json");
	/* a second, sorted track in the same run is not disturbed */
	X(w, pr_writer_track(w, "thread", "1", "2"), "other", 0, 1000);
	feed(w, pr_writer_track(w, "thread", "1", "1"), 1);
	run_out = commit(w, "h-shuffled", 0);
	assert_int_equal(run_out, run_in + 1);
	assert_int_equal(wr_diag_count(f, "unsorted_track"), 1);

	nesting(f, run_in, &in);
	assert_string_equal(in.buf, want);
	nesting(f, run_out, &out);
	pr_strbuf_reset(&in);
	pr_strbuf_addstr(&in, "other 0 - 1000 0 1000\n");
	pr_strbuf_addstr(&in, want);
	assert_string_equal(out.buf, in.buf);
	pr_strbuf_release(&in);
	pr_strbuf_release(&out);
}

static void test_unclosed_begin(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "unclosed.json");
	int64_t t = pr_writer_track(w, "thread", "1", "1");
	B(w, t, "open", 0, "{\"k\":1}");
	X(w, t, "x", 10, 20);
	X(w, t, "y", 40, 100);
	commit(w, "h-unclosed", 0);
	/* Closed at the end of the trace (140), with its children inside. */
	assert_rows(
		f,
		"SELECT a.name, a.depth, ifnull(b.name, '-'), a.self, a.dur, ifnull(a.args, '-') "
		"FROM span_v a LEFT JOIN span_v b ON b.id = a.parent_id ORDER BY a.ts",
		"open 0 - 20 140 {\"k\":1}\n"
		"x 1 open 20 20 -\n"
		"y 1 open 100 100 -\n");
	assert_int_equal(wr_diag_count(f, "unclosed_span"), 1);
}

/*
 * "The end of the trace" is the last timestamp of the whole run, not of the
 * spans that happen to have been written out before the open one is closed.
 */
static void test_unclosed_begin_ends_at_trace_end(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "unclosed2.json");
	int64_t t1 = pr_writer_track(w, "thread", "1", "1");
	int64_t t2 = pr_writer_track(w, "thread", "1", "2");
	B(w, t1, "open", 0, NULL);
	X(w, t2, "late", 0, 500);
	commit(w, "h-unclosed2", 0);
	assert_rows(f, "SELECT name, ts, dur FROM span_v ORDER BY tid",
		    "open 0 500\n"
		    "late 0 500\n");
	assert_rows(f, "SELECT ts_min, ts_max FROM run", "0 500\n");
}

static void test_async_track_flat(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "async.json");
	int64_t t = pr_writer_track(w, "async", "1", "requests");
	int64_t t2 = pr_writer_track(w, "thread", "1", "1");
	X(w, t, "A", 0, 100);
	X(w, t, "B", 10, 10);
	X(w, t, "C", 50, 150); /* overlaps A's end */
	X(w, t, "D", 5, 1);    /* out of order */
	/* A track may also become async after it was created. */
	pr_writer_track_set_kind(w, t2, "async");
	X(w, t2, "P", 0, 100);
	X(w, t2, "Q", 10, 10);
	commit(w, "h-async", 0);
	assert_rows(f,
		    "SELECT s.name, ifnull(s.depth, '-'), ifnull(s.parent_id, '-'), "
		    "ifnull(s.self, '-'), s.dur FROM span_v s ORDER BY s.tid, s.ts",
		    "P - - - 100\n"
		    "Q - - - 10\n"
		    "A - - - 100\n"
		    "D - - - 1\n"
		    "B - - - 10\n"
		    "C - - - 150\n");
	assert_int_equal(q1(f, "SELECT count(*) FROM diag"), 0);
	assert_rows(f, "SELECT DISTINCT kind FROM track", "async\n");
}

static void test_duplicate_hash(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "one.json");
	struct pr_error err = PR_ERROR_INIT;
	int64_t t, run = 0, strings, spans, nrun;
	int i;

	t = pr_writer_track(w, "thread", "1", "1");
	X(w, t, "shared", 0, 10);
	pr_writer_sample(w, pr_writer_series(w, "m", "", "count", NULL), 0, 1);
	assert_int_equal(commit(w, "same-content", 0), 1);
	strings = q1(f, "SELECT count(*) FROM string");
	spans = q1(f, "SELECT count(*) FROM span");

	/* Same content hash: commit says 1, names the first run, adds nothing. */
	w = begin(f, "copy-of-one.json");
	t = pr_writer_track(w, "thread", "2", "2");
	for (i = 0; i < 20000; i++) /* enough for the background inserter to run */
		X(w, t, i % 2 ? "new-name" : "shared", i * 10, 5);
	pr_writer_sample(w, pr_writer_series(w, "m2", "", "count", NULL), 0, 1);
	pr_writer_diag(w, "something", -1, 0, 0, "a diagnostic");
	assert_int_equal(pr_writer_commit(w, "same-content", 1, &run, NULL, &err), 1);
	assert_int_equal(run, 1);
	assert_int_equal(q1(f, "SELECT count(*) FROM run"), 1);
	assert_int_equal(q1(f, "SELECT count(*) FROM span"), spans);
	assert_int_equal(q1(f, "SELECT count(*) FROM string"), strings);
	assert_int_equal(q1(f, "SELECT count(*) FROM track"), 1);
	assert_int_equal(q1(f, "SELECT count(*) FROM series"), 1);
	assert_int_equal(q1(f, "SELECT count(*) FROM sample"), 1);
	assert_int_equal(q1(f, "SELECT count(*) FROM diag"), 0);

	/* Another hash is a new run; known strings keep their ids. */
	w = begin(f, "two.json");
	t = pr_writer_track(w, "thread", "1", "1");
	X(w, t, "shared", 0, 10);
	X(w, t, "fresh", 20, 10);
	nrun = commit(w, "other-content", 0);
	assert_int_equal(nrun, 2);
	assert_int_equal(q1(f, "SELECT count(*) FROM string"), strings + 1);
	assert_int_equal(q1(f, "SELECT count(DISTINCT name_id) FROM span"), 2);
	assert_int_equal(q1(f, "SELECT count(*) FROM span WHERE run_id = 2"), 2);
	assert_int_equal(q1(f, "SELECT count(*) FROM track"), 2);
}

static void test_abort_leaves_nothing(void **state)
{
	static const char *const tables[] = { "run",	"string",  "track", "span",   "series",
					      "sample", "instant", "flow",  "metric", "diag" };
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "aborted.json");
	char sql[100];
	int64_t t = pr_writer_track(w, "thread", "1", "1"), s;
	size_t k;
	int i;

	s = pr_writer_series(w, "dev.mem.allocated", "cuda:0", "bytes", "B");
	for (i = 0; i < 30000; i++) {
		char name[32];
		snprintf(name, sizeof(name), "op%d", i % 5000);
		X(w, t, name, i * 10, 5);
		pr_writer_sample(w, s, i * 10, i);
	}
	pr_writer_instant(w, t, pr_writer_intern(w, "i", 1), 0, 5, "t", NULL, 0);
	pr_writer_flow(w, "7", 's', t, 5, 0, 0, NULL);
	pr_writer_metric(w, "fps", 30, "1/s", 0, "reported", "detail");
	pr_writer_diag(w, "x", -1, 0, 0, "y");
	pr_writer_abort(w);
	for (k = 0; k < sizeof(tables) / sizeof(tables[0]); k++) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", tables[k]);
		if (q1(f, sql))
			print_error("table %s has rows after abort\n", tables[k]);
		assert_int_equal(q1(f, sql), 0);
	}
	pr_writer_abort(NULL);
	/* The store is usable afterwards and ids start over. */
	w = begin(f, "after.json");
	X(w, pr_writer_track(w, "thread", "1", "1"), "ok", 0, 1);
	assert_int_equal(commit(w, "h-after", 0), 1);
	assert_int_equal(q1(f, "SELECT min(id) FROM span"), 1);
	assert_int_equal(q1(f, "SELECT count(*) FROM string"), 1);
}

static void test_series_stats(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "series.json");
	int64_t a = pr_writer_series(w, "dev.mem.allocated", "cuda:0", "bytes", "B");
	int64_t b = pr_writer_series(w, "dev.mem.allocated", "cpu", "bytes", "B");
	int64_t c = pr_writer_series(w, "empty", NULL, "count", NULL);
	struct pr_writer_stats stats;

	assert_int_equal(pr_writer_series(w, "dev.mem.allocated", "cuda:0", "bytes", "B"), a);
	assert_true(a != b && b != c);
	pr_writer_sample(w, a, 10, 5.0);
	pr_writer_sample(w, a, 30, -2.5);
	pr_writer_sample(w, a, 20, 7.25);
	pr_writer_sample(w, a, 40, NAN); /* not finite: dropped */
	pr_writer_sample(w, a, 50, INFINITY);
	pr_writer_sample(w, b, 5, 64);
	pr_writer_sample(w, 999999, 5, 1); /* no such series: dropped */
	pr_writer_get_stats(w, &stats);
	assert_int_equal(stats.samples, 4);
	commit(w, "h-series", 0);
	assert_rows(
		f,
		"SELECT name, device, unit, ifnull(orig_unit, '-'), count, ifnull(min, '-'), "
		"ifnull(max, '-'), ifnull(ts_min, '-'), ifnull(ts_max, '-') FROM series ORDER BY id",
		"dev.mem.allocated cuda:0 bytes B 3 -2.5 7.25 10 30\n"
		"dev.mem.allocated cpu bytes B 1 64.0 64.0 5 5\n"
		"empty  count - 0 - - - -\n");
	assert_rows(f, "SELECT device, ts, value FROM sample_v ORDER BY device, ts",
		    "cpu 5 64.0\ncuda:0 10 5.0\ncuda:0 20 7.25\ncuda:0 30 -2.5\n");
	assert_rows(f, "SELECT sample_count, ts_min, ts_max FROM run", "4 5 30\n");
	/* nothing dropped unseen: NaN and +Inf counted under one code, the bad id under another */
	assert_int_equal(wr_diag_count(f, "non_finite_sample"), 2);
	assert_int_equal(wr_diag_count(f, "unknown_series"), 1);
}

/* A complete span with a negative duration is stored lasting 0 and says so;
 * a span on a track never created is dropped and says so. */
static void test_span_guards(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "guards.json");
	int64_t t = pr_writer_track(w, "thread", "1", "1");
	X(w, t, "neg", 100, -5);
	X(w, t, "ok", 200, 10);
	X(w, 424242, "lost", 300, 10);
	commit(w, "h-guards", 0);
	assert_rows(f, "SELECT name, ts, dur FROM span_v ORDER BY ts", "neg 100 0\nok 200 10\n");
	assert_int_equal(wr_diag_count(f, "negative_duration"), 1);
	assert_int_equal(wr_diag_count(f, "unknown_track"), 1);
}

/*
 * At most PR_WRITER_MAX_TRACKS (65536) tracks per run (issue 12: 1 M tids
 * took 2.2 GB): a new key past it gets its kind's overflow track, flat (no
 * nesting), whose kind and name the format cannot change; too_many_tracks
 * counts the events stored there.
 */
static void test_track_cap(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "tids.json");
	char tid[32];
	int64_t first = 0, t, o1, o2, o3;
	int i;
	assert_int_equal(PR_WRITER_MAX_TRACKS, 65536);
	for (i = 0; i < 65536; i++) {
		snprintf(tid, sizeof(tid), "%d", i);
		t = pr_writer_track(w, "thread", "1", tid);
		if (!i)
			first = t;
		X(w, t, "op", i, 1);
	}
	assert_int_equal(t, first + 65535);
	/* the next three keys: two threads, one async id; all over the limit */
	o1 = pr_writer_track(w, "thread", "1", "65536");
	o2 = pr_writer_track(w, "thread", "2", "7");
	o3 = pr_writer_track(w, "async", "1", "requests");
	assert_int_equal(o1, first + 65536);
	assert_int_equal(o2, o1);
	assert_int_equal(o3, first + 65537);
	pr_writer_track_set_kind(w, o1, "gpu_stream"); /* ignored on an overflow track */
	pr_writer_track_set_name(w, o1, "worker");     /* ignored too */
	/* overlapping, as two threads' spans are: stored flat */
	X(w, o1, "A", 100000, 100);
	X(w, o2, "B", 100010, 200);
	B(w, o1, "C", 100020, NULL);
	assert_int_equal(E(w, o1, 100030, NULL), 0);
	/* begins out of order: not re-nested after the load either */
	B(w, o1, "D", 100050, NULL);
	B(w, o1, "E", 100045, NULL);
	assert_int_equal(E(w, o1, 100060, NULL), 0);
	assert_int_equal(E(w, o1, 100070, NULL), 0);
	pr_writer_instant(w, o3, pr_writer_intern(w, "i", 1), 0, 100040, "t", NULL, 0);
	/* a known track is still found */
	assert_int_equal(pr_writer_track(w, "thread", "1", "17"), first + 17);
	commit(w, "h-tracks", 0);
	assert_int_equal(q1(f, "SELECT count(*) FROM track"), 65538);
	assert_rows(f,
		    "SELECT kind, ifnull(name, '-'), tid FROM track WHERE id > (SELECT min(id) + "
		    "65535 FROM track) ORDER BY id",
		    "async (over the track limit) thread (over the track limit) thread\n"
		    "async (over the track limit) async (over the track limit) async\n");
	assert_rows(
		f,
		"SELECT s.name, ifnull(s.depth, '-'), ifnull(s.parent_id, '-'), ifnull(s.self, '-'), "
		"s.dur FROM span_v s WHERE s.ts >= 100000 ORDER BY s.ts",
		"A - - - 100\nB - - - 200\nC - - - 10\nE - - - 15\nD - - - 20\n");
	/* A to E on the thread overflow track, the instant on the async one */
	assert_rows(f, "SELECT code, count FROM diag", "too_many_tracks 6\n");
}

/* Process names (one per pid) are kept for at most PR_WRITER_MAX_TRACKS
 * pids: past that they are ignored and counted as metadata_skipped. */
static void test_process_name_cap(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "pids.json");
	char pid[32];
	int64_t t;
	int i;
	for (i = 0; i < 65536 + 2; i++) {
		snprintf(pid, sizeof(pid), "%d", i);
		pr_writer_process_set_name(w, pid, "worker");
	}
	pr_writer_process_set_name(w, "7", "renamed"); /* a known pid is still renamed */
	t = pr_writer_track(w, "thread", "7", "1");
	X(w, t, "op", 0, 1);
	t = pr_writer_track(w, "thread", "65537", "1");
	X(w, t, "op", 1, 1);
	commit(w, "h-pids", 0);
	assert_rows(f, "SELECT pid, ifnull(process_name, '-') FROM track ORDER BY id",
		    "7 renamed\n65537 -\n");
	assert_rows(f, "SELECT code, count FROM diag", "metadata_skipped 2\n");
}

/* At most PR_WRITER_MAX_SERIES (65536) series per run (1 M counter names
 * took 3.1 GB in report): past it the samples are dropped and counted. */
static void test_series_cap(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "counters.json");
	char name[32];
	int64_t s, first = 0;
	int i;
	assert_int_equal(PR_WRITER_MAX_SERIES, 65536);
	for (i = 0; i < 65536 + 3; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		s = pr_writer_series(w, name, "pid 1", "", NULL);
		if (!i)
			first = s;
		if (i < 65536)
			assert_int_equal(s, first + i);
		else
			assert_int_equal(s, 0);
		pr_writer_sample(w, s, i, 1.0);
		if (i >= 65536)
			pr_writer_sample(w, s, i + 1, 2.0); /* 2 dropped each: 6 */
	}
	assert_int_equal(pr_writer_series(w, "c5", "pid 1", "", NULL), first + 5);
	commit(w, "h-series-cap", 0);
	assert_int_equal(q1(f, "SELECT count(*) FROM series"), 65536);
	assert_int_equal(q1(f, "SELECT count(*) FROM sample"), 65536);
	assert_rows(f, "SELECT code, count FROM diag", "too_many_series 6\n");
}

static void locate(void *ctx, int64_t offset, long *line, long *col)
{
	int *calls = ctx;
	(*calls)++;
	*line = (long)(offset / 100) + 1;
	*col = (long)(offset % 100) + 1;
}

static void test_run_attributes_and_diags(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "dir/rank3.json");
	int calls = 0;

	pr_writer_set_collector(w, "torch.profiler");
	pr_writer_set_rank(w, 3, 8);
	pr_writer_set_rank(w, -1, -1); /* unknown values do not erase known ones */
	pr_writer_set_time_origin(w, INT64_C(1700000000000000000));
	pr_writer_set_time_synthetic(w, 1);
	pr_writer_meta_set(w, "schemaVersion", json_integer(1));
	pr_writer_meta_set(w, "a", json_string("first"));
	pr_writer_meta_set(w, "a", json_string("second"));
	assert_string_equal(json_string_value(pr_writer_meta_get(w, "a")), "second");
	assert_null(pr_writer_meta_get(w, "missing"));
	pr_writer_diag(w, "bad_timestamp", 250, 0, 0, "first %s", "message");
	pr_writer_diag(w, "bad_timestamp", 10, 0, 0, "second message");
	pr_writer_diag(w, "bad_timestamp", -1, 0, 0, "third message");
	pr_writer_diag(w, "at_line", -1, 4, 2, "with a line");
	pr_writer_diag(w, "no_position", -1, 0, 0, "nowhere");
	pr_writer_diag(w, "offset_only", 1, 0, 0, "early");
	pr_writer_locate_diags(w, locate, &calls);
	assert_int_equal(calls, 2); /* only diagnostics with an offset and no line */
	commit(w, "h-attrs", 0);
	assert_rows(
		f,
		"SELECT collector, label, rank, world_size, time_origin_ns, time_synthetic, meta, "
		"ifnull(ts_min, '-') FROM run",
		"torch.profiler rank3.json 3 8 1700000000000000000 1 "
		"{\"a\":\"second\",\"schemaVersion\":1} -\n");
	assert_rows(f,
		    "SELECT code, count, ifnull(line, '-'), ifnull(col, '-'), ifnull(offset, '-'), "
		    "message FROM diag ORDER BY code",
		    "at_line 1 4 2 - with a line\n"
		    "bad_timestamp 3 3 51 250 first message\n"
		    "no_position 1 - - - nowhere\n"
		    "offset_only 1 1 2 1 early\n");
}

static void test_instants_flows_metrics(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "misc.json");
	int64_t t = pr_writer_track(w, "thread", "1", "1"), sp;
	int64_t n = pr_writer_intern(w, "mark", 4), cat = pr_writer_intern(w, "c", 1);
	struct pr_writer_stats stats;
	assert_int_equal(pr_writer_intern(w, "mark", 4), n);
	assert_int_equal(pr_writer_intern(w, "mark\0x", 6) != n, 1); /* length counts */
	pr_writer_instant(w, t, n, cat, 42, "g", "{\"v\":1}", 7);
	pr_writer_instant(w, 0, n, 0, 43, NULL, NULL, 0);
	pr_writer_flow(w, "0x1f", 's', t, 10, n, cat, NULL);
	pr_writer_flow(w, "0x1f", 'f', t, 20, n, cat, "e");
	sp = X(w, t, "op", 0, 100);
	pr_writer_metric(w, "throughput", 12.5, "1/s", sp, "derived", "from 3 steps");
	pr_writer_metric(w, "nan", NAN, NULL, 0, "reported", NULL);
	pr_writer_get_stats(w, &stats);
	assert_int_equal(stats.instants, 2);
	assert_int_equal(stats.flows, 2);
	assert_int_equal(stats.metrics, 2);
	commit(w, "h-misc", 0);
	assert_rows(f,
		    "SELECT name, ifnull(cat, '-'), ts, ifnull(scope, '-'), ifnull(args, '-'), "
		    "ifnull(tid, '-') FROM instant_v ORDER BY ts",
		    "mark c 42 g {\"v\":1} 1\nmark - 43 - - -\n");
	assert_rows(f, "SELECT flow_id, phase, ts, ifnull(bind, '-') FROM flow ORDER BY ts",
		    "0x1f s 10 -\n0x1f f 20 e\n");
	assert_rows(f,
		    "SELECT m.name, ifnull(m.value, '-'), ifnull(m.unit, '-'), "
		    "ifnull(s.name, '-'), m.origin, ifnull(m.detail, '-') FROM metric m "
		    "LEFT JOIN span_v s ON s.id = m.span_id ORDER BY m.id",
		    "throughput 12.5 1/s op derived from 3 steps\nnan - - - reported -\n");
	assert_rows(f, "SELECT instant_count, span_count FROM run", "2 1\n");
}

/*
 * Two handles on one new store, as two ingests racing: the first finds
 * nothing to store and removes the store (pr_store_remove_if_empty); the
 * second, which opened the same file before the removal, must not write its
 * run into the removed file: its writer opens the path again.
 */
static void test_removed_store_reopened(void **state)
{
	struct fx *f = *state;
	struct pr_store *other = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_writer *w = NULL;
	struct pr_run_info info = { "test", "late.json", NULL };
	struct pr_store *check = NULL;
	int64_t run = 0;

	assert_int_equal(pr_store_open(&other, f->path, PR_STORE_CREATE, &err), 0);
	assert_int_equal(pr_store_remove_if_empty(f->st), 1);
	assert_int_equal(access(f->path, F_OK), -1);
	assert_int_equal(pr_writer_begin(other, &info, &w, &err), 0);
	X(w, pr_writer_track(w, "thread", "1", "1"), "kept", 0, 5);
	assert_int_equal(pr_writer_commit(w, "h-late", 1, &run, NULL, &err), 0);
	assert_int_equal(run, 1);
	/* The run is in the store at the path, which a new open finds. */
	assert_int_equal(pr_store_open(&check, f->path, PR_STORE_READONLY, &err), 0);
	assert_int_equal(pr_store_run_count(check), 1);
	pr_store_close(check);
	/* A store with a run is not removed. */
	assert_int_equal(pr_store_remove_if_empty(other), 0);
	assert_int_equal(access(f->path, F_OK), 0);
	pr_store_close(other);
	f->db = NULL;
}

struct commit_job {
	struct pr_writer *w;
	int64_t run;
	volatile int done;
};

static void *commit_thread(void *arg)
{
	struct commit_job *j = arg;
	j->run = commit(j->w, "h-second", 0);
	j->done = 1;
	return NULL;
}

/*
 * A read-only handle reads in one transaction: it sees the runs as they were
 * when it was opened, and a commit beside it waits until it is closed
 * (instead of changing the data between two statements of one command).
 */
static void test_readonly_snapshot(void **state)
{
	struct fx *f = *state;
	struct pr_store *ro = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_writer *w = begin(f, "first.json");
	struct commit_job job = { NULL, 0, 0 };
	pthread_t th;

	X(w, pr_writer_track(w, "thread", "1", "1"), "a", 0, 5);
	assert_int_equal(commit(w, "h-first", 0), 1);
	assert_int_equal(pr_store_open(&ro, f->path, PR_STORE_READONLY, &err), 0);
	assert_int_equal(pr_store_run_count(ro), 1);
	job.w = begin(f, "second.json");
	X(job.w, pr_writer_track(job.w, "thread", "1", "1"), "b", 0, 5);
	assert_int_equal(pthread_create(&th, NULL, commit_thread, &job), 0);
	sqlite3_sleep(300);
	assert_int_equal(job.done, 0); /* the commit waits for the reader */
	assert_int_equal(pr_store_run_count(ro), 1);
	pr_store_close(ro);
	pthread_join(th, NULL);
	assert_int_equal(job.run, 2);
	assert_int_equal(pr_store_open(&ro, f->path, PR_STORE_READONLY, &err), 0);
	assert_int_equal(pr_store_run_count(ro), 2);
	pr_store_close(ro);
}

/* The text of a one-value statement (a pragma) on db. */
static void pragma_text(sqlite3 *db, const char *sql, char *out, size_t n)
{
	sqlite3_stmt *st = NULL;
	out[0] = 0;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/* A scratch store goes at its close, or when a fatal signal's handler
 * removes the temporary files (its journal too, were there one). It is never
 * synced and keeps its journal in memory: it is never read after a crash. */
static void test_temporary_store(void **state)
{
	struct fx *f = *state;
	struct pr_store *t = NULL;
	struct pr_error err = PR_ERROR_INIT;
	char path[700], journal[720], text[32];

	snprintf(path, sizeof(path), "%s/scratch.db", f->dir);
	snprintf(journal, sizeof(journal), "%s-journal", path);
	assert_int_equal(pr_store_open(&t, path, PR_STORE_CREATE | PR_STORE_TEMPORARY, &err), 0);
	assert_int_equal(access(path, F_OK), 0);
	pr_store_close(t);
	assert_int_equal(access(path, F_OK), -1);

	assert_int_equal(pr_store_open(&t, path, PR_STORE_CREATE | PR_STORE_TEMPORARY, &err), 0);
	pragma_text(pr_store_db(t), "PRAGMA journal_mode", text, sizeof(text));
	assert_string_equal(text, "memory");
	pragma_text(pr_store_db(t), "PRAGMA synchronous", text, sizeof(text));
	assert_string_equal(text, "0");
	/* a write in flight: its journal is in memory, no file */
	assert_int_equal(sqlite3_exec(pr_store_db(t), "BEGIN; CREATE TABLE scratch(x)", NULL, NULL,
				      NULL),
			 SQLITE_OK);
	assert_int_equal(access(journal, F_OK), -1);
	pr_output_remove_temps(); /* what the SIGTERM handler does */
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(access(journal, F_OK), -1);
	sqlite3_exec(pr_store_db(t), "ROLLBACK", NULL, NULL, NULL);
	pr_store_close(t);
}

/*
 * op_cover holds intervals whose union is the union of the run's ops, in
 * any arrival order. By hand:
 *  t1 (sorted, X): A 0..100 { B 10..40 { C 15..20 } D 50..70 }, F 90..150
 *     (starts in A, ends after it), a runtime call 120..130 (not an op),
 *     E 200..210: union [0,150] + [200,210];
 *  t2: P begun at 300, X Q 310..320 inside, P ended at 400: [300,400];
 *  t3 (unsorted): S 1000..1010, then T 500..600, U 550..700:
 *     [500,700] + [1000,1010].
 * Total 150 + 10 + 100 + 200 + 10 = 470 ns. One row per such interval:
 * children and ops starting inside the current interval add none.
 */
static void test_op_cover(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "cover.json");
	int64_t t1 = pr_writer_track(w, "thread", "1", "1"),
		t2 = pr_writer_track(w, "thread", "1", "2");
	int64_t t3 = pr_writer_track(w, "thread", "1", "3"), run;
	struct pr_span_in rt;
	X(w, t1, "A", 0, 100);
	X(w, t1, "B", 10, 30);
	X(w, t1, "C", 15, 5);
	X(w, t1, "D", 50, 20);
	X(w, t1, "F", 90, 60);
	rt = span(w, t1, "cudaLaunchKernel", 120, 10, NULL);
	rt.kind = "runtime";
	pr_writer_span(w, &rt);
	X(w, t1, "E", 200, 10);
	B(w, t2, "P", 300, NULL);
	X(w, t2, "Q", 310, 10);
	assert_int_equal(E(w, t2, 400, NULL), 0);
	X(w, t3, "S", 1000, 10);
	X(w, t3, "T", 500, 100);
	X(w, t3, "U", 550, 150);
	run = commit(w, "h-cover", 0);
	assert_int_equal(wr_diag_count(f, "unsorted_track"), 1);
	assert_rows(f, "SELECT run_id, ts, end_ts FROM op_cover ORDER BY ts",
		    "1 0 150\n1 200 210\n1 300 400\n1 500 700\n1 1000 1010\n");
	assert_int_equal(run, 1);
}

/* A span of the given kind (X). */
static void K(struct pr_writer *w, int64_t track, const char *kind, const char *name, int64_t ts,
	      int64_t dur)
{
	struct pr_span_in s = span(w, track, name, ts, dur, NULL);
	s.kind = kind;
	pr_writer_span(w, &s);
}

/*
 * span_up: the parent and grandparent of every runtime call and device
 * activity with a parent, as span.parent_id links them, also on a track
 * re-nested at commit. By hand:
 *  t1 (sorted): A 0..100 { B 10..50 { C 12..40 { r1 20..25 } } r2 60..65 },
 *     r0 200..210: r1 under C (start 12, parent B), then B (parent A);
 *     r2 under A (start 0, no parent), no grandparent; r0 and the ops
 *     (C has a parent but is an op) get no row;
 *  t2 (a stream): G (GPU annotation) 0..1000 { k1 100..200 }, k0 2000..2100;
 *  t3: P 1000..1100 { r3 1010..1020 }, Q 1200..1300 (r3 is written under
 *     P), then M 1005..1050 arrives late (the track is re-nested at
 *     commit) and r4 1210..1220: P { M { r3 } }, Q { r4 }; r3's row from
 *     the stack (parent P) is replaced by parent M (start 1005, parent P),
 *     grandparent P (no parent); r4 under Q (start 1200).
 */
static void test_span_up(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "up.json");
	int64_t t1 = pr_writer_track(w, "thread", "1", "1"),
		t2 = pr_writer_track(w, "gpu_stream", "0", "7");
	int64_t t3 = pr_writer_track(w, "thread", "1", "3");
	X(w, t1, "A", 0, 100);
	X(w, t1, "B", 10, 40);
	X(w, t1, "C", 12, 28);
	K(w, t1, "runtime", "r1", 20, 5);
	K(w, t1, "runtime", "r2", 60, 5);
	K(w, t1, "runtime", "r0", 200, 10);
	K(w, t2, "gpu_annotation", "G", 0, 1000);
	K(w, t2, "kernel", "k1", 100, 100);
	K(w, t2, "kernel", "k0", 2000, 100);
	X(w, t3, "P", 1000, 100);
	K(w, t3, "runtime", "r3", 1010, 10);
	X(w, t3, "Q", 1200, 100);
	X(w, t3, "M", 1005, 45);
	K(w, t3, "runtime", "r4", 1210, 10);
	commit(w, "h-up", 0);
	assert_int_equal(wr_diag_count(f, "unsorted_track"), 1);
	assert_rows(
		f,
		"SELECT n.value, u.run_id, u.p_kind, pn.value, u.p_ts, ifnull(pp.name, '-'), "
		"ifnull(u.q_kind, '-'), ifnull(qn.value, '-'), ifnull(qp.name, '-') "
		"FROM span_up u JOIN span s ON s.id = u.span_id JOIN string n ON n.id = s.name_id "
		"JOIN string pn ON pn.id = u.p_name_id "
		"LEFT JOIN span_v pp ON pp.id = u.p_parent_id "
		"LEFT JOIN string qn ON qn.id = u.q_name_id "
		"LEFT JOIN span_v qp ON qp.id = u.q_parent_id ORDER BY u.span_id",
		"r1 1 op C 12 B op B A\n"
		"r2 1 op A 0 - - - -\n"
		"k1 1 gpu_annotation G 0 - - - -\n"
		"r3 1 op M 1005 P op P -\n"
		"r4 1 op Q 1200 - - - -\n");
	/* and it says what joining the span table says */
	assert_int_equal(q1(f,
			    "SELECT count(*) FROM span s JOIN span p ON p.id = s.parent_id "
			    "LEFT JOIN span q ON q.id = p.parent_id "
			    "LEFT JOIN span_up u ON u.span_id = s.id "
			    "WHERE s.kind IN ('kernel', 'memcpy', 'memset', 'runtime') AND "
			    "(u.span_id IS NULL OR u.p_kind IS NOT p.kind OR u.p_name_id IS NOT "
			    "p.name_id OR u.p_ts IS NOT p.ts OR u.p_parent_id IS NOT p.parent_id "
			    "OR u.q_kind IS NOT q.kind OR u.q_name_id IS NOT q.name_id "
			    "OR u.q_parent_id IS NOT q.parent_id)"),
			 0);
	assert_int_equal(q1(f, "SELECT count(*) FROM span_up"), 5);
}

/*
 * Times beyond +-(2^62 - 1) ns (base/timecheck.h) are refused by the
 * writer for every format: a sample, an instant and a flow event at
 * 2^62 ns are skipped, one at 2^62 - 1 is kept; an X span from 0 lasting
 * 2^62 ns ends at 2^62 - 1. time_out_of_range counts 4.
 */
static void test_time_bound(void **state)
{
	struct fx *f = *state;
	struct pr_writer *w = begin(f, "bound.json");
	int64_t t = pr_writer_track(w, "thread", "1", "1");
	int64_t se = pr_writer_series(w, "gpu.mem.used", "", "bytes", NULL);
	int64_t lim = (INT64_C(1) << 62) - 1, n = pr_writer_intern(w, "i", 1);
	pr_writer_sample(w, se, lim + 1, 1.0);
	pr_writer_sample(w, se, lim, 2.0);
	pr_writer_instant(w, t, n, 0, -lim - 1, NULL, NULL, 0);
	pr_writer_instant(w, t, n, 0, -lim, NULL, NULL, 0);
	pr_writer_flow(w, "7", 's', t, lim + 1, n, 0, NULL);
	pr_writer_flow(w, "7", 'f', t, 5, n, 0, NULL);
	X(w, t, "long", 0, lim + 1);
	commit(w, "h-bound", 0);
	assert_rows(f, "SELECT ts, value FROM sample", "4611686018427387903 2.0\n");
	assert_rows(f, "SELECT ts FROM instant", "-4611686018427387903\n");
	assert_rows(f, "SELECT phase, ts FROM flow", "f 5\n");
	assert_rows(f, "SELECT ts, dur FROM span", "0 4611686018427387903\n");
	assert_int_equal(wr_diag_count(f, "time_out_of_range"), 4);
}

/*
 * A store of an older schema version (1: before op_cover; 2: before
 * span_up; 3: before model_cache) is refused with what to do.
 */
static void test_old_schema_refused(void **state)
{
	struct fx *f = *state;
	static const char *const pragma[] = { "PRAGMA user_version = 1", "PRAGMA user_version = 2",
					      "PRAGMA user_version = 3" };
	static const char *const want[] = {
		"store schema version 1, this profreport reads versions 4 and 5",
		"store schema version 2, this profreport reads versions 4 and 5",
		"store schema version 3, this profreport reads versions 4 and 5",
	};
	size_t i;
	pr_store_close(f->st);
	f->st = NULL;
	for (i = 0; i < PR_ARRAY_SIZE(pragma); i++) {
		struct pr_error err = PR_ERROR_INIT;
		sqlite3 *db;
		assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, pragma[i], NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
		assert_int_not_equal(pr_store_open(&f->st, f->path, 0, &err), 0);
		assert_non_null(strstr(err.text, want[i]));
		assert_non_null(strstr(err.text, "ingest its inputs again"));
		assert_int_equal(pr_store_open(&f->st, f->path, PR_STORE_CREATE, &err) != 0, 1);
		f->st = NULL;
	}
}

/*
 * A store of version 4 (before run_meta) is read as one without metadata,
 * and the first read-write open adds the table and makes it version 5.
 */
static void test_v4_store_upgraded(void **state)
{
	struct fx *f = *state;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_writer *w = begin(f, "v4.json");
	int64_t t = pr_writer_track(w, "thread", "1", "1");
	json_t *m;
	sqlite3 *db;
	pr_writer_run_meta(w, "commit", "abc");
	pr_writer_run_meta(w, "commit", "def");
	pr_writer_run_meta(w, "branch", "main");
	X(w, t, "a", 0, 10);
	commit(w, "h-v4", 0);
	assert_rows(f, "SELECT run_id, key, value FROM run_meta ORDER BY key",
		    "1 branch main\n1 commit def\n");
	pr_store_close(f->st);
	f->st = NULL;
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE run_meta; PRAGMA user_version = 4", NULL,
				      NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(pr_store_open(&f->st, f->path, PR_STORE_READONLY, &err), 0);
	m = pr_store_run_meta(pr_store_db(f->st), 1, &err);
	assert_non_null(m);
	assert_int_equal(json_object_size(m), 0);
	json_decref(m);
	pr_store_close(f->st);
	assert_int_equal(pr_store_open(&f->st, f->path, PR_STORE_CREATE, &err), 0);
	f->db = pr_store_db(f->st); /* the connection of the reopened store, not the freed one */
	assert_rows(f, "PRAGMA user_version", "5\n");
	assert_rows(f, "SELECT count(*) FROM run_meta", "0\n");
}

static void test_run_meta_check(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	char longv[PR_RUN_META_VALUE_MAX + 2];
	(void)state;
	assert_int_equal(pr_run_meta_check("a.b-c_9", 7, "caf\xc3\xa9 main", &err), 0);
	assert_int_equal(pr_run_meta_check("", 0, "x", &err), -1);
	assert_int_equal(pr_run_meta_check("a b", 3, "x", &err), -1);
	assert_int_equal(pr_run_meta_check("a", 1, "x\ty", &err), -1);
	assert_int_equal(pr_run_meta_check("a", 1, "x\xc2\x85", &err), -1); /* C1 NEL */
	assert_int_equal(pr_run_meta_check("a", 1, "\xc0\xaf", &err), -1);  /* overlong */
	assert_int_equal(pr_run_meta_check("a", 1, "\xe2\x82", &err), -1);  /* cut */
	memset(longv, 'v', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	assert_int_equal(pr_run_meta_check("a", 1, longv, &err), -1);
	longv[PR_RUN_META_VALUE_MAX] = '\0';
	assert_int_equal(pr_run_meta_check("a", 1, longv, &err), 0);
}

/* ---- writer sessions: many runs through one inserter thread ---- */

/* Every row of every table the writer fills, ids included, in rowid order. */
static void all_rows(sqlite3 *db, struct pr_strbuf *out)
{
	static const char *const sql[] = {
		"SELECT 'run', id, format, label, source, content_hash, span_count FROM run",
		"SELECT 'string', id, value FROM string",
		"SELECT 'argkeys', id, keys FROM argkeys",
		"SELECT 'track', id, run_id, kind, pid, tid FROM track",
		"SELECT 'span', id, run_id, track_id, name_id, ts, dur, self, depth, parent_id, args, "
		"args_keys FROM span",
		"SELECT 'series', id, run_id, name FROM series",
		"SELECT 'sample', series_id, ts, seq, value FROM sample",
		"SELECT 'metric', id, run_id, name, value FROM metric",
		"SELECT 'diag', rowid, run_id, code, count FROM diag",
	};
	struct pr_strbuf part = PR_STRBUF_INIT;
	size_t i;
	pr_strbuf_reset(out);
	for (i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		db_rows(db, sql[i], ' ', &part);
		pr_strbuf_add(out, part.buf, part.len);
	}
	pr_strbuf_release(&part);
}

/* Run number k of the sequences below: strings and argkeys of its own, the
 * ones run k - 1 made first (so a run after one not stored must intern them
 * anew), a shared one, a series and a metric. */
static void fill(struct pr_writer *w, int k)
{
	char name[32], prev[32], args[32], prev_args[32];
	int64_t t = pr_writer_track(w, "thread", "1", k % 2 ? "1" : "2");
	int64_t se = pr_writer_series(w, k % 2 ? "mem" : "util", "", "count", NULL);
	struct pr_span_in sp;
	snprintf(name, sizeof(name), "only-in-%d", k);
	snprintf(prev, sizeof(prev), "only-in-%d", k - 1);
	snprintf(args, sizeof(args), "{\"k%d\": 1}", k);
	snprintf(prev_args, sizeof(prev_args), "{\"k%d\": 2}", k - 1);
	X(w, t, "shared", 0, 100);
	sp = span(w, t, name, 10, 20, args);
	pr_writer_span(w, &sp);
	sp = span(w, t, prev, 40, 20, prev_args);
	pr_writer_span(w, &sp);
	pr_writer_sample(w, se, 5, k);
	pr_writer_metric(w, name, k, "1/s", 0, "reported", NULL);
}

static struct pr_writer *begin_in(struct pr_writer_session *s, const char *source)
{
	struct pr_writer *w = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_run_info info = { "test", source, NULL };
	if (pr_writer_begin_in(s, &info, &w, &err))
		print_error("pr_writer_begin_in: %s\n", err.text);
	assert_non_null(w);
	return w;
}

static int outcome(struct pr_writer *w, int64_t *run)
{
	struct pr_error err = PR_ERROR_INIT;
	return pr_writer_outcome(w, run, NULL, &err);
}

/*
 * A session begins each run on the ids the store will have once the run
 * before it is stored, while that one is still being committed. When it is
 * not stored (a duplicate here, or a run discarded midway), the run begun
 * behind it is stale: nothing of it is written, and written again it gets
 * what one run at a time gives. The same sequence through one writer per
 * run (each run's own transaction, ids read from the store) must leave the
 * same rows, ids included. Without the check, run 3 would keep the string
 * and span ids it took after the duplicate's.
 */
static void test_session_same_rows_as_one_at_a_time(void **state)
{
	struct fx *f = *state;
	struct pr_store *one = NULL;
	struct pr_writer_session *s = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_strbuf a = PR_STRBUF_INIT, b = PR_STRBUF_INIT;
	struct pr_writer *w1, *w2, *w3, *w4, *w5;
	char path[700];
	int64_t run = 0;
	struct pr_writer *w;

	/* one at a time: 1 stored, 2 a duplicate of 1, 3 stored, 4 aborted, 5 stored */
	snprintf(path, sizeof(path), "%s/one.db", f->dir);
	assert_int_equal(pr_store_open(&one, path, PR_STORE_CREATE, &err), 0);
	w = NULL;
	{
		struct fx g = *f;
		g.st = one;
		w = begin(&g, "r1.json");
		fill(w, 1);
		assert_int_equal(commit(w, "h1", 0), 1);
		w = begin(&g, "r2.json");
		fill(w, 2);
		assert_int_equal(commit(w, "h1", 1), 1);
		w = begin(&g, "r3.json");
		fill(w, 3);
		assert_int_equal(commit(w, "h3", 0), 2);
		w = begin(&g, "r4.json");
		fill(w, 4);
		pr_writer_abort(w);
		w = begin(&g, "r5.json");
		fill(w, 5);
		assert_int_equal(commit(w, "h5", 0), 3);
	}
	all_rows(pr_store_db(one), &b);

	/* the same through a session, each run begun before the previous one's outcome */
	pr_store_group_begin(f->st);
	assert_int_equal(pr_writer_session_open(f->st, &s, &err), 0);
	w1 = begin_in(s, "r1.json");
	fill(w1, 1);
	assert_int_equal(pr_writer_check(w1), 0);
	pr_writer_hand_over(w1, "h1", 123);
	w2 = begin_in(s, "r2.json"); /* on the ids after run 1 */
	fill(w2, 2);
	assert_int_equal(pr_writer_check(w2), 0); /* run 1 was stored: ids right */
	pr_writer_hand_over(w2, "h1", 123);
	assert_int_equal(outcome(w1, &run), 0);
	assert_int_equal(run, 1);
	w3 = begin_in(s, "r3.json"); /* on the ids after run 2, which is a duplicate */
	fill(w3, 3);
	assert_int_equal(pr_writer_check(w3), PR_WRITER_STALE);
	pr_writer_discard(w3);
	assert_int_equal(outcome(w2, &run), 1);
	assert_int_equal(run, 1);
	w3 = begin_in(s, "r3.json"); /* again, on the store's ids */
	fill(w3, 3);
	assert_int_equal(pr_writer_check(w3), 0);
	pr_writer_hand_over(w3, "h3", 123);
	w4 = begin_in(s, "r4.json"); /* given up midway while run 3 is committed */
	fill(w4, 4);
	pr_writer_discard(w4);
	w5 = begin_in(s, "r5.json"); /* on the ids run 4 began on */
	fill(w5, 5);
	assert_int_equal(pr_writer_check(w5), 0);
	pr_writer_hand_over(w5, "h5", 123);
	assert_int_equal(outcome(w3, &run), 0);
	assert_int_equal(run, 2);
	assert_int_equal(outcome(w5, &run), 0);
	assert_int_equal(run, 3);
	pr_writer_session_close(s);
	assert_int_equal(pr_store_group_commit(f->st, &err), 0);

	all_rows(f->db, &a);
	if (strcmp(a.buf, b.buf))
		print_error("--- session:\n%s--- one at a time:\n%s", a.buf, b.buf);
	assert_string_equal(a.buf, b.buf);
	/* runs 1, 3 and 5 stored: only-in-0..1, 2..3 and 4..5 (run 2's and run 4's
	 * own strings come again with runs 3 and 5) */
	assert_int_equal(q1(f, "SELECT count(*) FROM string WHERE value LIKE 'only-in-%'"), 6);
	pr_strbuf_release(&a);
	pr_strbuf_release(&b);
	pr_store_close(one);
	unlink(path);
}

/*
 * A span on a track that was never created (a reader's bug) takes an id
 * but stores no row: the next run's spans start at the store's max(id) + 1,
 * which a session, guessing the next ids from what it wrote, must get right
 * (else every run after one such span is stale and read twice).
 */
static void test_session_span_id_not_stored(void **state)
{
	struct fx *f = *state;
	struct pr_writer_session *s = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_writer *w1, *w2;
	int64_t t, run = 0, lost;
	struct pr_span_in sp;

	pr_store_group_begin(f->st);
	assert_int_equal(pr_writer_session_open(f->st, &s, &err), 0);
	w1 = begin_in(s, "r1.json");
	t = pr_writer_track(w1, "thread", "1", "1");
	X(w1, t, "a", 0, 10);  /* span 1 */
	X(w1, t, "b", 20, 10); /* span 2 */
	sp = span(w1, t + 1000, "lost", 30, 5, NULL);
	lost = pr_writer_span(w1, &sp); /* id 3, no row */
	assert_int_equal(lost, 3);
	pr_writer_hand_over(w1, "h1", 1);
	w2 = begin_in(s, "r2.json");
	X(w2, pr_writer_track(w2, "thread", "1", "1"), "c", 0, 10);
	assert_int_equal(pr_writer_check(w2), 0);
	pr_writer_hand_over(w2, "h2", 1);
	assert_int_equal(outcome(w1, &run), 0);
	assert_int_equal(outcome(w2, &run), 0);
	pr_writer_session_close(s);
	assert_int_equal(pr_store_group_commit(f->st, &err), 0);
	/* one at a time, run 2 would begin at max(id) + 1 = 3 */
	assert_rows(f,
		    "SELECT s.id, s.run_id, n.value FROM span s JOIN string n ON n.id = s.name_id "
		    "ORDER BY s.id",
		    "1 1 a\n2 1 b\n3 2 c\n");
	assert_int_equal(q1(f, "SELECT count FROM diag WHERE code = 'unknown_track'"), 1);
}

/*
 * Handed over without pr_writer_check (as the ingest does, so the thread
 * never waits for the producer): a run begun behind a duplicate comes back
 * PR_WRITER_STALE from its outcome, with nothing of it written, and written
 * again it gets the ids right after the stored run.
 */
static void test_session_stale_outcome(void **state)
{
	struct fx *f = *state;
	struct pr_writer_session *s = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_writer *a, *b, *c;
	int64_t run = 0;

	pr_store_group_begin(f->st);
	assert_int_equal(pr_writer_session_open(f->st, &s, &err), 0);
	a = begin_in(s, "a.json");
	X(a, pr_writer_track(a, "thread", "1", "1"), "in-a", 0, 10); /* span 1, string 1 */
	pr_writer_hand_over(a, "same", 1);
	b = begin_in(s, "b.json");
	X(b, pr_writer_track(b, "thread", "1", "1"), "in-b", 0,
	  10); /* span 2, string 2: a duplicate */
	pr_writer_hand_over(b, "same", 1);
	c = begin_in(s, "c.json"); /* span 3 and string 3 on, as if b were stored */
	X(c, pr_writer_track(c, "thread", "1", "1"), "in-c", 0, 10);
	pr_writer_hand_over(c, "other", 1);
	assert_int_equal(outcome(a, &run), 0);
	assert_int_equal(outcome(b, &run), 1);
	assert_int_equal(run, 1);
	assert_int_equal(pr_writer_outcome(c, &run, NULL, &err), PR_WRITER_STALE);
	assert_non_null(strstr(err.text, "write it again"));
	assert_int_equal(q1(f, "SELECT count(*) FROM run"), 1);
	c = begin_in(s, "c.json");
	X(c, pr_writer_track(c, "thread", "1", "1"), "in-c", 0, 10);
	pr_writer_hand_over(c, "other", 1);
	assert_int_equal(outcome(c, &run), 0);
	assert_int_equal(run, 2);
	pr_writer_session_close(s);
	assert_int_equal(pr_store_group_commit(f->st, &err), 0);
	/* one at a time: c is run 2, its span 2, its string 2, its track 2 */
	assert_rows(f,
		    "SELECT s.id, s.run_id, s.track_id, s.name_id, n.value FROM span s "
		    "JOIN string n ON n.id = s.name_id ORDER BY s.id",
		    "1 1 1 1 in-a\n2 2 2 2 in-c\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nesting_in_order, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_session_same_rows_as_one_at_a_time, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_session_span_id_not_stored, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_session_stale_outcome, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_op_cover, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_span_up, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_time_bound, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_old_schema_refused, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_v4_store_upgraded, fx_setup, fx_teardown),
		cmocka_unit_test(test_run_meta_check),
		cmocka_unit_test_setup_teardown(test_begin_end, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_partial_overlap, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_partial_overlap_begin_end, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_out_of_order_renested, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_unclosed_begin, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_unclosed_begin_ends_at_trace_end, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_async_track_flat, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_hash, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_abort_leaves_nothing, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_series_stats, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_span_guards, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_track_cap, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_series_cap, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_process_name_cap, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_run_attributes_and_diags, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_instants_flows_metrics, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_removed_store_reopened, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_readonly_snapshot, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_temporary_store, fx_setup, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
