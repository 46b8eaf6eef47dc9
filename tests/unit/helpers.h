/*
 * helpers.h - store helpers shared by the format tests: an in-memory store
 * and single-value queries with text parameters (NULL-terminated), sample
 * paths, $TMPDIR pointed elsewhere and back.
 * All static inline, so a test uses what it needs.
 */
#ifndef PR_TEST_HELPERS_H
#define PR_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "tests/unit/gotwant.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/format.h"
#include "ingest/ingest.h"
#include "store/store.h"
#include "base/strbuf.h"

static inline char *write_temp(const char *data, size_t n)
{
	char *path = strdup("/tmp/pr_test_csv_XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	return path;
}

/* $TMPDIR set to dir (NULL: unset); returns what it was, for tmpdir_restore. The tests of
 * scratch files point it at a directory that does not exist. */
static inline char *tmpdir_set(const char *dir)
{
	const char *old = getenv("TMPDIR");
	char *keep = old ? strdup(old) : NULL;
	if (dir)
		setenv("TMPDIR", dir, 1);
	else
		unsetenv("TMPDIR");
	return keep;
}

/* $TMPDIR back to what tmpdir_set returned (which it frees). */
static inline void tmpdir_restore(char *keep)
{
	if (keep)
		setenv("TMPDIR", keep, 1);
	else
		unsetenv("TMPDIR");
	free(keep);
}

static inline char *sample_path(const char *rel)
{
	const char *dir = getenv("PR_SAMPLES");
	struct pr_strbuf sb = PR_STRBUF_INIT;
	pr_strbuf_addf(&sb, "%s/%s", dir ? dir : "samples", rel);
	return pr_strbuf_detach(&sb, NULL);
}

static inline struct pr_store *open_store(void)
{
	struct pr_store *st = NULL;
	struct pr_error err = PR_ERROR_INIT;
	assert_int_equal(pr_store_open(&st, ":memory:", PR_STORE_CREATE, &err), 0);
	return st;
}

static inline sqlite3_stmt *q_prepare(struct pr_store *st, const char *sql, va_list ap)
{
	sqlite3_stmt *stmt;
	const char *arg;
	int i = 1;
	if (sqlite3_prepare_v2(pr_store_db(st), sql, -1, &stmt, NULL) != SQLITE_OK)
		fail_msg("bad sql '%s': %s", sql, sqlite3_errmsg(pr_store_db(st)));
	while ((arg = va_arg(ap, const char *)) != NULL)
		sqlite3_bind_text(stmt, i++, arg, -1, SQLITE_TRANSIENT);
	return stmt;
}

/* One int64 from a query with text parameters (NULL-terminated); absent row: INT64_MIN. */
static inline int64_t qi(struct pr_store *st, const char *sql, ...)
{
	va_list ap;
	sqlite3_stmt *stmt;
	int64_t v = INT64_MIN;
	va_start(ap, sql);
	stmt = q_prepare(st, sql, ap);
	va_end(ap);
	if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_type(stmt, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

static inline double qd(struct pr_store *st, const char *sql, ...)
{
	va_list ap;
	sqlite3_stmt *stmt;
	double v = -1e300;
	va_start(ap, sql);
	stmt = q_prepare(st, sql, ap);
	va_end(ap);
	if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_type(stmt, 0) != SQLITE_NULL)
		v = sqlite3_column_double(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

static inline const char *qs(struct pr_store *st, const char *sql, ...)
{
	static char buf[4096];
	va_list ap;
	sqlite3_stmt *stmt;
	va_start(ap, sql);
	stmt = q_prepare(st, sql, ap);
	va_end(ap);
	snprintf(buf, sizeof(buf), "(none)");
	if (sqlite3_step(stmt) == SQLITE_ROW && sqlite3_column_type(stmt, 0) != SQLITE_NULL)
		snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	return buf;
}

/* Value of the n-th sample (n as text, 0-based) of a series on a device, in time order. */
static inline double sample_nth(struct pr_store *st, const char *name, const char *device,
				const char *n)
{
	return qd(st,
		  "SELECT value FROM sample_v WHERE name = ?1 AND device = ?2 ORDER BY ts "
		  "LIMIT 1 OFFSET ?3",
		  name, device, n, NULL);
}

/* Sniff confidence of format `name` for text (as "x.json"); 0 when another format wins. */
static inline int sniff_conf(const char *text, const char *name)
{
	int conf = 0;
	const struct pr_format *f =
		pr_format_sniff((const unsigned char *)text, strlen(text), "x.json", &conf);
	return f && !strcmp(f->name, name) ? conf : 0;
}

static inline void ingest_ok(struct pr_store *st, const char *path, const char *expect_format)
{
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	int rc = pr_ingest_file(st, path, NULL, &res, &err);
	if (rc)
		fail_msg("ingest '%s' failed: %s", path, err.text);
	assert_string_equal(res.format, expect_format);
}

static inline void ingest_text(struct pr_store *st, const char *text, const char *expect_format)
{
	char *path = write_temp(text, strlen(text));
	ingest_ok(st, path, expect_format);
	unlink(path);
	free(path);
}

/* A forced-format ingest that must fail; returns the error text (static). */
static inline const char *ingest_fail(const char *text, const char *format)
{
	static char msg[600];
	struct pr_store *st = open_store();
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	char *path = write_temp(text, strlen(text));
	assert_int_equal(pr_ingest_file(st, path, format, &res, &err), -1);
	snprintf(msg, sizeof(msg), "%s", err.text);
	assert_int_equal(pr_store_run_count(st), 0);
	unlink(path);
	free(path);
	pr_store_close(st);
	return msg;
}

static inline int64_t diag_count(struct pr_store *st, const char *code)
{
	int64_t v = qi(st, "SELECT count FROM diag WHERE code = ?1", code, NULL);
	return v == INT64_MIN ? 0 : v;
}

/* The single integer a query returns (fails the test on SQL errors or no row). */
static inline int64_t db_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		print_error("%s: %s\n", sql, sqlite3_errmsg(db));
	assert_non_null(st);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Rows as text: columns joined by sep, NULL as '-', one line per row. */
static inline void db_rows(sqlite3 *db, const char *sql, char sep, struct pr_strbuf *out)
{
	sqlite3_stmt *st = NULL;
	int i, n;
	pr_strbuf_reset(out);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		print_error("%s: %s\n", sql, sqlite3_errmsg(db));
	assert_non_null(st);
	n = sqlite3_column_count(st);
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (i = 0; i < n; i++) {
			const unsigned char *t = sqlite3_column_text(st, i);
			if (i)
				pr_strbuf_addch(out, sep);
			pr_strbuf_addstr(out, t ? (const char *)t : "-");
		}
		pr_strbuf_addch(out, '\n');
	}
	sqlite3_finalize(st);
}

static inline void db_assert_rows(sqlite3 *db, const char *sql, char sep, const char *want)
{
	struct pr_strbuf got = PR_STRBUF_INIT;
	int same;
	db_rows(db, sql, sep, &got);
	same = !strcmp(got.buf, want);
	if (!same)
		print_error("%s\n--- got:\n%s--- want:\n%s", sql, got.buf, want);
	pr_strbuf_release(&got); /* before the assertion, which does not return */
	assert_true(same);
}

#endif
