/*
 * test_spans_at.c - pr_actx_spans_at (all time points in one scan of the
 * span table) against the query it replaces, one point at a time: the
 * innermost host span open at t, by SQLite's own
 *   ... WHERE s.ts <= t AND s.ts + s.dur >= t AND not a device span
 *   AND its track is not a GPU stream ORDER BY depth DESC, ts DESC, id LIMIT 1
 * so the expected answers are SQLite's, not the code under test's.
 */
#include "tests/unit/helpers.h"

#include <jansson.h>

#include "analyze/actx.h"
#include "analyze/spans_at.h"

static const char old_sql[] =
	"SELECT n.value, s.kind, s.ts, s.dur FROM span s JOIN string n ON n.id = s.name_id "
	"JOIN track k ON k.id = s.track_id "
	"WHERE s.run_id = ?1 AND s.ts <= ?2 AND s.ts + s.dur >= ?2 "
	"AND s.kind NOT IN ('kernel', 'memcpy', 'memset', 'gpu', 'session', 'profiler') "
	"AND k.kind <> 'gpu_stream' "
	"ORDER BY s.depth DESC, s.ts DESC, s.id LIMIT 1";

/* The old answer at t as "name|kind|t_ns|dur_ns", or "null". */
static char *old_answer(sqlite3 *db, int64_t run, int64_t ts_min, int64_t t)
{
	sqlite3_stmt *st;
	char *out;
	assert_int_equal(sqlite3_prepare_v2(db, old_sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_int64(st, 2, t);
	if (sqlite3_step(st) == SQLITE_ROW) {
		struct pr_strbuf sb = PR_STRBUF_INIT;
		pr_strbuf_addf(&sb, "%s|%s|%lld|%lld", sqlite3_column_text(st, 0),
			       sqlite3_column_text(st, 1),
			       (long long)(sqlite3_column_int64(st, 2) - ts_min),
			       (long long)sqlite3_column_int64(st, 3));
		out = pr_strbuf_detach(&sb, NULL);
	} else {
		out = strdup("null");
	}
	sqlite3_finalize(st);
	return out;
}

static char *new_answer(json_t *o)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	if (json_is_null(o))
		return strdup("null");
	pr_strbuf_addf(&sb, "%s|%s|%lld|%lld", json_string_value(json_object_get(o, "name")),
		       json_string_value(json_object_get(o, "kind")),
		       (long long)json_integer_value(json_object_get(o, "t_ns")),
		       (long long)json_integer_value(json_object_get(o, "dur_ns")));
	return pr_strbuf_detach(&sb, NULL);
}

/*
 * Every span's start, end, one before the start and one after the end, as
 * points (repeats included, unsorted), on the torch sample and on a trace
 * with a GPU stream, two equal-depth spans on two threads, a zero-length
 * span and a span ending where the next starts.
 */
static void check_store(struct pr_store *store)
{
	sqlite3 *db = pr_store_db(store);
	struct pr_actx ctx;
	struct pr_error err = PR_ERROR_INIT;
	sqlite3_stmt *st;
	int64_t *t = NULL;
	json_t **got;
	size_t n = 0, cap = 0, i, found = 0;
	memset(&ctx, 0, sizeof(ctx));
	ctx.db = db;
	ctx.run = 1;
	ctx.ts_min = qi(store, "SELECT ts_min FROM run WHERE id = 1", NULL);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT ts, dur FROM span ORDER BY id DESC", -1,
					    &st, NULL),
			 SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW && n < 20000) {
		int64_t a = sqlite3_column_int64(st, 0), b = a + sqlite3_column_int64(st, 1);
		if (n + 4 > cap) {
			cap = cap ? cap * 2 : 64;
			t = realloc(t, cap * sizeof(*t));
		}
		t[n++] = a;
		t[n++] = b;
		t[n++] = a - 1;
		t[n++] = b + 1;
	}
	sqlite3_finalize(st);
	assert_true(n > 0);
	got = calloc(n, sizeof(*got));
	assert_int_equal(pr_actx_spans_at(&ctx, t, n, got, &err), 0);
	for (i = 0; i < n; i++) {
		char *want = old_answer(db, 1, ctx.ts_min, t[i]), *have = new_answer(got[i]);
		if (strcmp(want, have))
			fail_msg("at %lld: want %s, got %s", (long long)t[i], want, have);
		found += strcmp(want, "null") != 0;
		free(want);
		free(have);
		json_decref(got[i]);
	}
	assert_true(found > 0);
	free(got);
	free(t);
}

static void test_torch_sample(void **state)
{
	struct pr_store *st = open_store();
	char *p = sample_path("torch/trace_rank0.pt.trace.json");
	(void)state;
	ingest_ok(st, p, "chrome");
	free(p);
	check_store(st);
	pr_store_close(st);
}

static void test_hand_trace(void **state)
{
	static const char trace[] =
		"{\"traceEvents\":["
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":100},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":30},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"z\",\"pid\":1,\"tid\":1,\"ts\":50,\"dur\":0},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"d\",\"pid\":1,\"tid\":1,\"ts\":50,\"dur\":20},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":30,\"dur\":5},"
		"{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"g\",\"pid\":0,\"tid\":7,"
		"\"ts\":25,\"dur\":40}]}";
	struct pr_store *st = open_store();
	(void)state;
	ingest_text(st, trace, "chrome");
	check_store(st);
	pr_store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torch_sample),
		cmocka_unit_test(test_hand_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
