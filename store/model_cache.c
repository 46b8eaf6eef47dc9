/*
 * model_cache.c - the model cache of a store (table model_cache, schema 4).
 *
 * A row holds one run's object of the analysis model and its digest, as
 * JSON text, keyed by the run, the options that change the model and the
 * analyser version that built it, and tagged with the run's content hash.
 * Reading checks all of them against the run as stored now, so a row is
 * served only for the same run content, analyser and options.
 *
 * Writing: a command reads a store in one read transaction on a read-only
 * connection (store.c). A write needs the store's exclusive lock, which
 * waits for every reader, this process's own read transaction included. So
 * rows are queued in memory, and pr_store_cache_flush() ends the read
 * transaction, writes the queue through a read-write connection of its own
 * in one short transaction, and begins a new read transaction. Runs are
 * never changed once committed (an ingest only adds runs), so a caller that
 * read its list of runs before the flush still reads the same rows after
 * it. The cache is only a cache: a store that cannot be written (a
 * read-only file or directory) or that another process holds for longer
 * than CACHE_WAIT_MS loses the queued rows, and nothing fails.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "store/store.h"
#include "store/store_impl.h"

/* How long a flush waits for another process's lock before it gives up. */
#define CACHE_WAIT_MS 2000

struct pr_cache_row {
	int64_t run;
	char *hash, *analyzer, *options, *model, *digest;
	struct pr_cache_row *next;
};

int pr_store_cache_get(struct pr_store *st, int64_t run, const char *analyzer, const char *options,
		       int what, char **text, struct pr_error *err)
{
	static const char *const sql[] = {
		"SELECT c.model FROM model_cache c JOIN run r ON r.id = c.run_id "
		"WHERE c.run_id = ?1 AND c.options = ?2 AND c.analyzer = ?3 "
		"AND c.content_hash = r.content_hash",
		"SELECT c.digest FROM model_cache c JOIN run r ON r.id = c.run_id "
		"WHERE c.run_id = ?1 AND c.options = ?2 AND c.analyzer = ?3 "
		"AND c.content_hash = r.content_hash",
	};
	sqlite3_stmt **stp = &st->cache_get[what ? 1 : 0];
	int rc;
	*text = NULL;
	if (!*stp && sqlite3_prepare_v2(st->db, sql[what ? 1 : 0], -1, stp, NULL) != SQLITE_OK) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(st->db));
		pr_error_set_source(err, st->path);
		return -1;
	}
	sqlite3_bind_int64(*stp, 1, run);
	sqlite3_bind_text(*stp, 2, options, -1, SQLITE_STATIC);
	sqlite3_bind_text(*stp, 3, analyzer, -1, SQLITE_STATIC);
	rc = sqlite3_step(*stp);
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(*stp, 0);
		*text = pr_xstrdup(t ? t : "");
	}
	sqlite3_reset(*stp);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(st->db));
		pr_error_set_source(err, st->path);
		return -1;
	}
	return rc == SQLITE_ROW;
}

void pr_store_cache_put(struct pr_store *st, int64_t run, const char *hash, const char *analyzer,
			const char *options, const char *model, const char *digest)
{
	struct pr_cache_row *r = pr_xcalloc(1, sizeof(*r));
	r->run = run;
	r->hash = pr_xstrdup(hash);
	r->analyzer = pr_xstrdup(analyzer);
	r->options = pr_xstrdup(options);
	r->model = pr_xstrdup(model);
	r->digest = pr_xstrdup(digest);
	st->cache_pending_bytes += strlen(model) + strlen(digest);
	*st->cache_tail = r;
	st->cache_tail = &r->next;
}

size_t pr_store_cache_pending(const struct pr_store *st)
{
	return st->cache_pending_bytes;
}

void pr_store_cache_take(struct pr_store *st, pr_store_cache_fn *fn, void *ctx)
{
	const struct pr_cache_row *r;
	for (r = st->cache_head; r; r = r->next)
		fn(ctx, r->run, r->hash, r->analyzer, r->options, r->model, r->digest);
	pr_store_cache_drop(st);
}

void pr_store_cache_drop(struct pr_store *st)
{
	struct pr_cache_row *r = st->cache_head, *next;
	for (; r; r = next) {
		next = r->next;
		free(r->hash);
		free(r->analyzer);
		free(r->options);
		free(r->model);
		free(r->digest);
		free(r);
	}
	st->cache_head = NULL;
	st->cache_tail = &st->cache_head;
	st->cache_pending_bytes = 0;
}

/* Writes the queue through db in one transaction; the number of rows written, or -1. */
static int write_rows(struct pr_store *st, sqlite3 *db)
{
	sqlite3_stmt *ins = NULL;
	struct pr_cache_row *r;
	int n = 0;
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	/* A row only for a run that is there with that content. */
	if (sqlite3_prepare_v2(
		    db,
		    "INSERT OR REPLACE INTO model_cache(run_id, options, content_hash, "
		    "analyzer, model, digest) SELECT ?1, ?2, ?3, ?4, ?5, ?6 "
		    "WHERE EXISTS (SELECT 1 FROM run WHERE id = ?1 AND content_hash = ?3)",
		    -1, &ins, NULL) != SQLITE_OK)
		goto fail;
	for (r = st->cache_head; r; r = r->next) {
		sqlite3_bind_int64(ins, 1, r->run);
		sqlite3_bind_text(ins, 2, r->options, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, r->hash, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 4, r->analyzer, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 5, r->model, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 6, r->digest, -1, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE)
			goto fail;
		n += sqlite3_changes(db) > 0;
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	ins = NULL;
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return n;
fail:
	sqlite3_finalize(ins);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int pr_store_cache_flush(struct pr_store *st)
{
	sqlite3 *rw = NULL;
	int n = 0, i;
	if (!st->cache_head || !st->db)
		return 0;
	if (!st->readonly) {
		/* a read-write handle outside a transaction writes itself */
		n = sqlite3_get_autocommit(st->db) ? write_rows(st, st->db) : -1;
		pr_store_cache_drop(st);
		return n;
	}
	/* The prepared reads hold no lock once reset; the read transaction ends here. */
	for (i = 0; i < 2; i++)
		sqlite3_reset(st->cache_get[i]);
	sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
	if (sqlite3_open_v2(st->path, &rw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) ==
	    SQLITE_OK) {
		sqlite3_busy_timeout(rw, CACHE_WAIT_MS);
		n = write_rows(st, rw);
	} else {
		n = -1;
	}
	sqlite3_close(rw);
	pr_store_cache_drop(st);
	sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL);
	return n;
}
