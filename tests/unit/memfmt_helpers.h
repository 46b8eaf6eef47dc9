/*
 * memfmt_helpers.h - shared helpers of test_qeff.c, test_torch_memtl.c and
 * test_massif.c: ingest a sample or an inline text into an in-memory store
 * and query single values. All static inline: a test uses what it needs.
 */
#ifndef PR_TEST_MEMFMT_HELPERS_H
#define PR_TEST_MEMFMT_HELPERS_H

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

/* Ingests a file (format NULL = sniffed) and checks the format chosen. */
static inline void mf_ingest_file(struct pr_store *st, const char *path, const char *format,
				  const char *expect)
{
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	if (pr_ingest_file(st, path, format, &res, &err))
		fail_msg("ingest '%s' failed: %s", path, err.text);
	assert_string_equal(res.format, expect);
}

static inline void mf_ingest_sample(struct pr_store *st, const char *rel, const char *expect)
{
	char *p = sample_path(rel);
	mf_ingest_file(st, p, NULL, expect);
	free(p);
}

static inline void mf_ingest_text(struct pr_store *st, const char *text, const char *format)
{
	char *p = write_temp(text, strlen(text));
	mf_ingest_file(st, p, format, format);
	unlink(p);
	free(p);
}

/* Ingest that must fail; returns the error text (static). */
static inline const char *mf_ingest_fail(const char *text, const char *format, long *line,
					 long *col)
{
	static char msg[512];
	struct pr_store *st = open_store();
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	char *p = write_temp(text, strlen(text));
	assert_int_equal(pr_ingest_file(st, p, format, &res, &err), -1);
	snprintf(msg, sizeof(msg), "%s", err.text);
	if (line)
		*line = err.line;
	if (col)
		*col = err.column;
	assert_int_equal(pr_store_run_count(st), 0);
	unlink(p);
	free(p);
	pr_store_close(st);
	return msg;
}

/* One int64 (absent: INT64_MIN) / double (absent: -1e300) / text (absent:
 * "(none)") from a query with text parameters, NULL-terminated. */
/* n-th sample (0-based, time order; ties in insertion order) of a series. */
static inline double mf_nth(struct pr_store *st, const char *name, const char *n)
{
	return qd(st, "SELECT value FROM sample_v WHERE name = ?1 ORDER BY ts LIMIT 1 OFFSET ?2",
		  name, n, NULL);
}

static inline int64_t mf_nth_ts(struct pr_store *st, const char *name, const char *n)
{
	return qi(st, "SELECT ts FROM sample_v WHERE name = ?1 ORDER BY ts LIMIT 1 OFFSET ?2", name,
		  n, NULL);
}

static inline int64_t mf_count(struct pr_store *st, const char *name)
{
	return qi(st, "SELECT count(*) FROM sample_v WHERE name = ?1", name, NULL);
}

static inline int64_t mf_diag(struct pr_store *st, const char *code)
{
	int64_t v = qi(st, "SELECT count FROM diag WHERE code = ?1", code, NULL);
	return v == INT64_MIN ? 0 : v;
}

static inline double mf_metric(struct pr_store *st, const char *name)
{
	return qd(st, "SELECT value FROM metric WHERE name = ?1", name, NULL);
}

static inline int mf_sniff(const struct pr_format *f, const char *text)
{
	return f->sniff((const unsigned char *)text, strlen(text), "x");
}

#endif
