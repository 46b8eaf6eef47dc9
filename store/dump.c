/* dump.c - normalized text dump of the store and read-only SQL. */
#include "store/dump.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "store/store_impl.h"
#include "base/strbuf.h"

static void put_json_str(FILE *out, const unsigned char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* One column of a row in dump style: NULL as -, ints, %.17g reals, quoted text. */
static void put_col(FILE *out, sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		fputc('-', out);
		break;
	case SQLITE_INTEGER:
		fprintf(out, "%lld", (long long)sqlite3_column_int64(st, i));
		break;
	case SQLITE_FLOAT:
		fprintf(out, "%.17g", sqlite3_column_double(st, i));
		break;
	default:
		put_json_str(out, sqlite3_column_text(st, i));
		break;
	}
}

/* After a row: stop at the first failed write (a full disk) instead of
 * formatting the rest of the store into a stream that takes nothing. */
static int write_failed(FILE *out, struct pr_error *err)
{
	int e = errno;
	if (!ferror(out))
		return 0;
	/* The failed write's errno may be gone; flushing the rest says it again. */
	errno = 0;
	if (fflush(out) && errno)
		e = errno;
	return pr_error_set(err, PR_E_IO, "cannot write%s: %s",
			    out == stdout ? " to standard output" : "", strerror(e ? e : EIO));
}

struct section {
	const char *tag;
	const char *sql; /* ?1 = run id; columns printed as name=value */
};

static const struct section sections[] = {
	{ "run",
	  "SELECT format, collector, label, content_hash, bytes, rank, world_size, time_origin_ns, "
	  "time_synthetic, ts_min, ts_max, span_count, sample_count, instant_count, meta "
	  "FROM run WHERE id = ?1" },
	{ "diag",
	  "SELECT code, count, line, col, offset, message FROM diag WHERE run_id = ?1 ORDER BY code" },
	{ "track",
	  "SELECT id - (SELECT min(id) FROM track WHERE run_id = ?1) + 1 AS id, kind, pid, tid, name, "
	  "process_name, sort_index FROM track WHERE run_id = ?1 ORDER BY id" },
	{ "span", "SELECT s.id - b.s0 + 1 AS id, s.track_id - b.t0 + 1 AS track, s.kind, s.name, "
		  "s.cat, s.ts, s.dur, s.self, s.depth, s.parent_id - b.s0 + 1 AS parent, s.args "
		  "FROM span_v s, "
		  "(SELECT (SELECT min(id) FROM span WHERE run_id = ?1) AS s0, "
		  "(SELECT min(id) FROM track WHERE run_id = ?1) AS t0) b "
		  "WHERE s.run_id = ?1 ORDER BY s.ts, s.id" },
	{ "series",
	  "SELECT name, device, unit, orig_unit, count, min, max, ts_min, ts_max FROM series "
	  "WHERE run_id = ?1 ORDER BY name, device" },
	{ "sample",
	  "SELECT se.name, se.device, sa.ts, sa.value FROM sample sa JOIN series se ON "
	  "se.id = sa.series_id WHERE se.run_id = ?1 ORDER BY se.name, se.device, sa.ts, sa.seq" },
	{ "instant",
	  "SELECT t.id - (SELECT min(id) FROM track WHERE run_id = ?1) + 1 AS track, "
	  "i.name, i.cat, i.ts, i.scope, i.args FROM instant_v i JOIN instant r ON r.id = i.id "
	  "LEFT JOIN track t ON t.id = r.track_id WHERE i.run_id = ?1 ORDER BY i.ts, i.id" },
	{ "flow",
	  "SELECT f.flow_id, f.phase, f.track_id - (SELECT min(id) FROM track WHERE run_id = ?1) + 1 "
	  "AS track, f.ts, n.value AS name, f.bind FROM flow f LEFT JOIN string n ON "
	  "n.id = f.name_id WHERE f.run_id = ?1 ORDER BY f.ts, f.rowid" },
	{ "metric",
	  "SELECT name, value, unit, span_id, origin, detail FROM metric WHERE run_id = ?1 "
	  "ORDER BY name, id" },
};

static int dump_run(struct pr_store *s, int64_t run_id, FILE *out, struct pr_error *err)
{
	size_t k;
	fprintf(out, "# run %lld\n", (long long)run_id);
	for (k = 0; k < PR_ARRAY_SIZE(sections); k++) {
		sqlite3_stmt *st = NULL;
		int rc;
		if (sqlite3_prepare_v2(s->db, sections[k].sql, -1, &st, NULL) != SQLITE_OK)
			return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(s->db));
		sqlite3_bind_int64(st, 1, run_id);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int i, n = sqlite3_column_count(st);
			fputs(sections[k].tag, out);
			for (i = 0; i < n; i++) {
				fprintf(out, " %s=", sqlite3_column_name(st, i));
				put_col(out, st, i);
			}
			fputc('\n', out);
			if (write_failed(out, err)) {
				sqlite3_finalize(st);
				return -1;
			}
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(s->db));
	}
	return write_failed(out, err);
}

int pr_store_dump(struct pr_store *s, int64_t run_id, FILE *out, struct pr_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0, step;
	if (run_id > 0)
		return dump_run(s, run_id, out, err);
	if (sqlite3_prepare_v2(s->db, "SELECT id FROM run ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(s->db));
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = dump_run(s, sqlite3_column_int64(st, 0), out, err);
	sqlite3_finalize(st);
	return rc;
}

int pr_store_query(struct pr_store *s, const char *sql, FILE *out, struct pr_error *err)
{
	sqlite3_stmt *st = NULL;
	const char *tail = NULL;
	int rc, i, n;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, &tail) != SQLITE_OK)
		return pr_error_set(err, PR_E_USAGE, "%s", sqlite3_errmsg(s->db));
	if (!st)
		return pr_error_set(err, PR_E_USAGE, "empty statement");
	if (tail && *tail) {
		/* Only comments and blanks may follow the statement. */
		sqlite3_stmt *rest = NULL;
		int rc2 = sqlite3_prepare_v2(s->db, tail, -1, &rest, NULL);
		sqlite3_finalize(rest);
		if (rc2 != SQLITE_OK || rest) {
			sqlite3_finalize(st);
			return pr_error_set(err, PR_E_USAGE, "give one statement");
		}
	}
	if (!sqlite3_stmt_readonly(st)) {
		sqlite3_finalize(st);
		return pr_error_set(err, PR_E_USAGE, "only read-only statements are allowed");
	}
	n = sqlite3_column_count(st);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "\t" : "", sqlite3_column_name(st, i));
	if (n)
		fputc('\n', out);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < n; i++) {
			const unsigned char *t;
			if (i)
				fputc('\t', out);
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_NULL:
				fputs("NULL", out);
				break;
			case SQLITE_FLOAT: {
				double d = sqlite3_column_double(st, i);
				fprintf(out, "%.15g", d);
				break;
			}
			default:
				for (t = sqlite3_column_text(st, i); t && *t; t++)
					fputc(*t == '\t' || *t == '\n' ? ' ' : *t, out);
			}
		}
		fputc('\n', out);
		if (write_failed(out, err)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return pr_error_set(err, PR_E_STORE, "%s", sqlite3_errmsg(s->db));
	return write_failed(out, err);
}
