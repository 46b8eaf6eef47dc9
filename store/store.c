/*
 * store.c - opening the event store, creating and checking its schema.
 *
 * Concurrency and crashes (docs/store.md, "The event store"). The store keeps
 * SQLite's rollback journal (journal_mode=DELETE), not WAL: an ingest writes
 * every page once (WAL writes it to the log and again at the checkpoint),
 * and a store stays one file that can be copied or read from a read-only
 * place. What that needs here:
 *  - creating the schema is one EXCLUSIVE transaction that first counts the
 *    tables again, so of several processes creating the same new store one
 *    creates it and the others find it made;
 *  - a process that finds the store locked waits for the holder (a busy
 *    handler without a time limit) and says so once after 5 s, instead of
 *    failing with "database is locked": two ingests queue, a reader waits
 *    for a writer that has spilled its cache to the file;
 *  - a process killed or stopped by a full disk mid-ingest leaves a hot
 *    journal, which a read-only connection cannot roll back
 *    (SQLITE_READONLY_ROLLBACK). A read-only open then opens the store
 *    read-write once, only long enough to let SQLite roll the journal back
 *    (the same thing any read-write open does), closes it and opens
 *    read-only again, with a notice. User SQL (query) still only ever runs
 *    on a SQLITE_OPEN_READONLY connection;
 *  - a read-only store is read in one read transaction, held until
 *    pr_store_close(): every statement of a command sees the same runs,
 *    even while an ingest commits beside it (the ingest waits for it).
 */
#include "store/store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/output.h"
#include "store/store_impl.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* After this long waiting for a lock, the notice callback hears about it once. */
#define WAIT_NOTICE_MS 5000

static pr_store_notice_fn *notice_fn;
static void *notice_ctx;

void pr_store_set_notice(pr_store_notice_fn *fn, void *ctx)
{
	notice_fn = fn;
	notice_ctx = ctx;
}

static void notice(const char *path, const char *msg)
{
	if (notice_fn)
		notice_fn(notice_ctx, path, msg);
}

static int store_exec(struct pr_store *st, const char *sql, struct pr_error *err)
{
	char *msg = NULL;
	if (!st->db) {
		pr_error_set(err, PR_E_STORE, "the store is not open");
		pr_error_set_source(err, st->path);
		return -1;
	}
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", msg ? msg : sqlite3_errmsg(st->db));
		pr_error_set_source(err, st->path);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int pr_store_exec(struct pr_store *st, const char *sql, struct pr_error *err)
{
	return store_exec(st, sql, err);
}

/*
 * SQLite calls this while a lock it needs is held by another process; n
 * counts the calls for this one lock. Returning 1 retries. Sleeps grow to
 * 100 ms; there is no limit (a lock holder is a live process: SQLite's locks
 * go away with their process), so the wait lasts as long as the holder's
 * transaction.
 */
static int busy_wait(void *ctx, int n)
{
	static const int steps[] = { 1, 2, 5, 10, 20, 50, 100 };
	struct pr_store *st = ctx;
	int ms = n < (int)PR_ARRAY_SIZE(steps) ? steps[n] : 100;
	if (n == 0)
		st->waited_ms = 0;
	st->waited_ms += ms;
	if (st->waited_ms >= WAIT_NOTICE_MS && !st->wait_noticed) {
		st->wait_noticed = 1;
		notice(st->path, "waiting for another process that holds a lock on the store "
				 "(an ingest writing to it?)");
	}
	sqlite3_sleep(ms);
	return 1;
}

/* Count of schema objects and the user_version; returns the SQLite (extended) code. */
static int probe(sqlite3 *db, int *ntables, int *version)
{
	sqlite3_stmt *stmt = NULL;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &stmt, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(stmt);
		if (rc == SQLITE_ROW) {
			*ntables = sqlite3_column_int(stmt, 0);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(stmt);
	stmt = NULL;
	if (rc == SQLITE_OK) {
		rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, NULL);
		if (rc == SQLITE_OK) {
			rc = sqlite3_step(stmt);
			if (rc == SQLITE_ROW) {
				*version = sqlite3_column_int(stmt, 0);
				rc = SQLITE_OK;
			}
		}
		sqlite3_finalize(stmt);
	}
	return rc == SQLITE_OK ? rc : sqlite3_extended_errcode(db);
}

/* An error from probe(): what the failure means for the user. */
static void probe_error(struct pr_store *st, int rc, struct pr_error *err)
{
	const char *msg = sqlite3_errmsg(st->db);
	if ((rc & 0xff) == SQLITE_NOTADB)
		pr_error_set(err, PR_E_STORE, "not a profreport store: %s", msg);
	else if ((rc & 0xff) == SQLITE_BUSY)
		pr_error_set(err, PR_E_STORE, "the store is locked by another process: %s", msg);
	else
		pr_error_set(err, PR_E_STORE, "cannot read the store: %s", msg);
	pr_error_set_source(err, st->path);
}

static int open_db(struct pr_store *st, int oflags, struct pr_error *err)
{
	if (sqlite3_open_v2(st->path, &st->db, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		pr_error_set(err, PR_E_IO, "cannot open store: %s",
			     st->db ? sqlite3_errmsg(st->db) : "out of memory");
		pr_error_set_source(err, st->path);
		sqlite3_close(st->db);
		st->db = NULL;
		return -1;
	}
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_handler(st->db, busy_wait, st);
	return 0;
}

/*
 * Is there a hot journal (left by a process that died inside a write)?
 * Asked on a read-only connection, which answers SQLITE_READONLY_ROLLBACK
 * instead of rolling back. Cheap when there is no journal file at all.
 */
static int hot_journal(struct pr_store *st)
{
	struct pr_store probe_st;
	struct pr_strbuf j = PR_STRBUF_INIT;
	struct stat sb;
	int hot = 0, n = 0, v = 0;

	pr_strbuf_addf(&j, "%s-journal", st->path);
	if (stat(j.buf, &sb) || sb.st_size == 0) {
		pr_strbuf_release(&j);
		return 0;
	}
	pr_strbuf_release(&j);
	probe_st = *st;
	probe_st.db = NULL;
	if (open_db(&probe_st, SQLITE_OPEN_READONLY, NULL) == 0)
		hot = probe(probe_st.db, &n, &v) == SQLITE_READONLY_ROLLBACK;
	sqlite3_close(probe_st.db);
	st->wait_noticed |= probe_st.wait_noticed;
	return hot;
}

static const char recovered_msg[] =
	"rolled back an unfinished write left by a process that stopped mid-way (killed, or out of "
	"disk space); the runs stored before it are intact";

/* Lets SQLite roll a hot journal back on a read-write connection opened for that alone. */
static int recover(struct pr_store *st, struct pr_error *err)
{
	struct pr_store rw = *st;
	int n = 0, v = 0, rc;
	rw.db = NULL;
	if (open_db(&rw, SQLITE_OPEN_READWRITE, NULL))
		rc = SQLITE_CANTOPEN;
	else
		rc = probe(rw.db, &n, &v);
	if (rc != SQLITE_OK) {
		pr_error_set(
			err, PR_E_STORE,
			"an interrupted write left a hot journal ('%s-journal'); rolling it back "
			"needs write access to the store and its directory: %s",
			st->path, rw.db ? sqlite3_errmsg(rw.db) : "cannot open read-write");
		pr_error_set_source(err, st->path);
	}
	sqlite3_close(rw.db);
	st->wait_noticed |= rw.wait_noticed;
	return rc == SQLITE_OK ? 0 : -1;
}

/* Creates the schema unless another process did it first (both may see an empty file). */
static int create_schema(struct pr_store *st, int *ntables, int *version, struct pr_error *err)
{
	int rc;
	if (store_exec(st, "PRAGMA page_size=16384; BEGIN EXCLUSIVE", err))
		return -1;
	rc = probe(st->db, ntables, version);
	if (rc != SQLITE_OK) {
		probe_error(st, rc, err);
		store_exec(st, "ROLLBACK", NULL);
		return -1;
	}
	if (*ntables)
		return store_exec(st, "COMMIT", err);
	if (store_exec(st, pr_store_schema_sql, err))
		goto fail;
	/* a pragma takes no bound parameter: the version is pasted at compile time */
	if (store_exec(st, "PRAGMA user_version=" PR_STR(PR_STORE_SCHEMA_VERSION) "; COMMIT", err))
		goto fail;
	*version = PR_STORE_SCHEMA_VERSION;
	*ntables = 1;
	return 0;
fail:
	store_exec(st, "ROLLBACK", NULL);
	return -1;
}

/* The run_meta table of version 5, as store/schema.sql has it. */
static const char run_meta_sql[] =
	"CREATE TABLE IF NOT EXISTS run_meta(run_id INTEGER NOT NULL REFERENCES run(id), "
	"key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(run_id, key)) WITHOUT ROWID;";

/* A version 4 store opened to be written gets version 5's run_meta table (once: the version is
 * read again under the exclusive lock, another process may have done it). */
static int upgrade_schema(struct pr_store *st, int *version, struct pr_error *err)
{
	int n = 0, rc;
	if (store_exec(st, "BEGIN EXCLUSIVE", err))
		return -1;
	rc = probe(st->db, &n, version);
	if (rc != SQLITE_OK) {
		probe_error(st, rc, err);
		store_exec(st, "ROLLBACK", NULL);
		return -1;
	}
	if (*version != 4)
		return store_exec(st, "COMMIT", err);
	if (store_exec(st, run_meta_sql, err) ||
	    store_exec(st, "PRAGMA user_version=" PR_STR(PR_STORE_SCHEMA_VERSION) "; COMMIT",
		       err)) {
		store_exec(st, "ROLLBACK", NULL);
		return -1;
	}
	*version = PR_STORE_SCHEMA_VERSION;
	return 0;
}

/* Opens st->path per st->flags: connection, recovery, schema. */
static int open_store(struct pr_store *st, struct pr_error *err)
{
	int version = 0, ntables = 0, rc, recovered = 0;

	if (st->readonly) {
		for (;;) {
			if (open_db(st, SQLITE_OPEN_READONLY, err))
				return -1;
			/* Pragmas first: temp_store cannot change inside a transaction. */
			rc = sqlite3_exec(st->db,
					  "PRAGMA cache_size=-32768; PRAGMA temp_store=FILE; BEGIN",
					  NULL, NULL, NULL);
			rc = rc == SQLITE_OK ? probe(st->db, &ntables, &version)
					     : sqlite3_extended_errcode(st->db);
			if (rc != SQLITE_READONLY_ROLLBACK || recovered)
				break;
			sqlite3_close(st->db);
			st->db = NULL;
			if (recover(st, err))
				return -1;
			recovered = 1;
		}
	} else {
		int oflags = SQLITE_OPEN_READWRITE;
		if (st->flags & PR_STORE_CREATE)
			oflags |= SQLITE_OPEN_CREATE;
		recovered = hot_journal(st);
		if (open_db(st, oflags, err))
			return -1;
		/* A scratch store is removed at exit and never read after a crash:
		 * no fsync and the journal in memory (still there for a rollback),
		 * from its schema on. aggregate makes one per rank: of a small
		 * rank's 29 ms, 24 were the four syncs of creating the schema. */
		if ((st->flags & PR_STORE_TEMPORARY) &&
		    store_exec(st, "PRAGMA synchronous=OFF; PRAGMA journal_mode=MEMORY", err))
			return -1;
		/* On a read-write connection the first read rolls a hot journal back. */
		rc = probe(st->db, &ntables, &version);
		if (rc == SQLITE_OK && ntables == 0 && create_schema(st, &ntables, &version, err))
			return -1;
		if (rc == SQLITE_OK &&
		    store_exec(st, "PRAGMA cache_size=-32768; PRAGMA temp_store=FILE", err))
			return -1;
		if (rc == SQLITE_OK && ntables && version == PR_STORE_SCHEMA_OLDEST &&
		    upgrade_schema(st, &version, err))
			return -1;
	}
	if (rc != SQLITE_OK) {
		probe_error(st, rc, err);
		return -1;
	}
	if (recovered)
		notice(st->path, recovered_msg);
	if (ntables == 0) {
		pr_error_set(err, PR_E_STORE, "not a profreport store (empty database)");
		pr_error_set_source(err, st->path);
		return -1;
	}
	if (version != PR_STORE_SCHEMA_VERSION && version != PR_STORE_SCHEMA_OLDEST) {
		pr_error_set(
			err, PR_E_STORE,
			version < PR_STORE_SCHEMA_VERSION
				? "store schema version %d, this profreport reads versions %d "
				  "and %d: the store was written by an older profreport; ingest "
				  "its inputs again"
				: "store schema version %d, this profreport reads versions %d "
				  "and %d",
			version, PR_STORE_SCHEMA_OLDEST, PR_STORE_SCHEMA_VERSION);
		pr_error_set_source(err, st->path);
		return -1;
	}
	return 0;
}

int pr_store_open(struct pr_store **out, const char *path, int flags, struct pr_error *err)
{
	struct pr_store *st;
	struct stat sb;

	*out = NULL;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		pr_error_set(err, PR_E_IO, "is a directory, not a store");
		pr_error_set_source(err, path);
		return -1;
	}
	/* No allocator statistics unless asked (PR_STORE_MEMSTATUS): they take a
	 * global mutex on every malloc. Only effective before SQLite initializes;
	 * later calls are harmless no-ops. */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, (flags & PR_STORE_MEMSTATUS) ? 1 : 0);
	/* Savepoint journals (an ingest of many files makes each file a savepoint
	 * of its group, store.h) stay in memory up to 4 MiB instead of the
	 * default 64 KiB: each file's holds the pages it changed that earlier
	 * files of the group wrote (tails of tables and indexes), ~50 pwrite
	 * calls a file when written to a temporary file. */
	sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, 4 << 20);
	st = pr_xcalloc(1, sizeof(*st));
	st->cache_tail = &st->cache_head;
	st->path = pr_xstrdup(path);
	st->flags = flags;
	st->readonly = !!(flags & PR_STORE_READONLY);
	if (flags & PR_STORE_TEMPORARY) {
		struct pr_strbuf j = PR_STRBUF_INIT;
		pr_strbuf_addf(&j, "%s-journal", path);
		pr_output_temp_add(path);
		pr_output_temp_add(j.buf);
		pr_strbuf_release(&j);
	}
	if (open_store(st, err)) {
		pr_store_close(st);
		return -1;
	}
	*out = st;
	return 0;
}

/* Has the store's file been removed or replaced since it was opened? */
static int moved(struct pr_store *st)
{
	int moved = 0;
	if (!st->db ||
	    sqlite3_file_control(st->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) != SQLITE_OK)
		return 0;
	return moved;
}

int pr_store_begin_write(struct pr_store *st, struct pr_error *err)
{
	int attempt;
	if (st->group_txn)
		return store_exec(st, "SAVEPOINT pr_run", err);
	for (attempt = 0; attempt < 10; attempt++) {
		if (store_exec(st, "BEGIN IMMEDIATE", err))
			return -1;
		if (!moved(st)) {
			if (!st->grouping)
				return 0;
			st->group_txn = 1;
			return store_exec(st, "SAVEPOINT pr_run", err);
		}
		/* Another process removed the store (an ingest that failed and had
		 * created it, pr_store_remove_if_empty) while this one waited for the
		 * lock: a write now would go to the removed file. Open the path again
		 * (creating the store anew when allowed). */
		store_exec(st, "ROLLBACK", NULL);
		if (!(st->flags & PR_STORE_CREATE)) {
			pr_error_set(err, PR_E_STORE,
				     "the store was removed or replaced while "
				     "this command waited for it");
			pr_error_set_source(err, st->path);
			return -1;
		}
		sqlite3_close(st->db);
		st->db = NULL;
		if (open_store(st, err))
			return -1;
	}
	pr_error_set(err, PR_E_STORE, "the store keeps being removed or replaced");
	pr_error_set_source(err, st->path);
	return -1;
}

int pr_store_end_write(struct pr_store *st, struct pr_error *err)
{
	return store_exec(st, st->group_txn ? "RELEASE pr_run" : "COMMIT", err);
}

void pr_store_abort_write(struct pr_store *st)
{
	if (!st->group_txn) {
		store_exec(st, "ROLLBACK", NULL);
		return;
	}
	store_exec(st, "ROLLBACK TO pr_run", NULL);
	store_exec(st, "RELEASE pr_run", NULL);
	/* After an I/O error SQLite may have rolled back the whole transaction:
	 * the runs written before this one in the group are gone too. */
	if (!st->db || sqlite3_get_autocommit(st->db)) {
		st->group_txn = 0;
		st->group_lost = 1;
	}
}

void pr_store_group_begin(struct pr_store *st)
{
	st->grouping = 1;
}

int pr_store_group_commit(struct pr_store *st, struct pr_error *err)
{
	int lost = st->group_lost;
	st->group_lost = 0;
	if (!st->group_txn) {
		if (lost)
			return pr_error_set(err, PR_E_STORE,
					    "an I/O error rolled back the runs written with it");
		return 0;
	}
	st->group_txn = 0;
	if (store_exec(st, "COMMIT", err)) {
		store_exec(st, "ROLLBACK", NULL);
		/* roll a journal left by the I/O error back now (see pr_writer_abort) */
		store_exec(st, "SELECT count(*) FROM sqlite_master", NULL);
		return -1;
	}
	return 0;
}

int pr_store_group_lost(const struct pr_store *st)
{
	return st->group_lost;
}

/* Number of runs; -1 when it cannot be read. */
static int count_runs(struct pr_store *st, int64_t *n)
{
	sqlite3_stmt *stmt = NULL;
	int rc = -1;
	if (st->db &&
	    sqlite3_prepare_v2(st->db, "SELECT count(*) FROM run", -1, &stmt, NULL) == SQLITE_OK &&
	    sqlite3_step(stmt) == SQLITE_ROW) {
		*n = sqlite3_column_int64(stmt, 0);
		rc = 0;
	}
	sqlite3_finalize(stmt);
	return rc;
}

int pr_store_remove_if_empty(struct pr_store *st)
{
	int64_t n = -1;
	int removed = 0;
	if (!st || st->readonly)
		return 0;
	/* Under the exclusive lock no other process is between its BEGIN and
	 * COMMIT; one that opened the file and waits for a lock finds it moved
	 * (pr_store_begin_write) and opens the path again. */
	if (store_exec(st, "BEGIN EXCLUSIVE", NULL))
		return 0;
	if (!moved(st) && count_runs(st, &n) == 0 && n == 0)
		removed = unlink(st->path) == 0;
	store_exec(st, "ROLLBACK", NULL);
	return removed;
}

/* merge.c's statements (store_impl.h), finalized here so the store calls no merge code. */
void pr_store_take_drop(struct pr_store *st)
{
	size_t i;
	for (i = 0; i < sizeof(st->take) / sizeof(st->take[0]); i++) {
		sqlite3_finalize(st->take[i]);
		st->take[i] = NULL;
	}
}

void pr_store_close(struct pr_store *st)
{
	if (!st)
		return;
	pr_store_cache_drop(st);
	sqlite3_finalize(st->cache_get[0]);
	sqlite3_finalize(st->cache_get[1]);
	pr_store_take_drop(st);
	sqlite3_close(st->db);
	if (st->flags & PR_STORE_TEMPORARY) {
		struct pr_strbuf j = PR_STRBUF_INIT;
		pr_strbuf_addf(&j, "%s-journal", st->path);
		unlink(st->path);
		unlink(j.buf);
		pr_output_temp_forget(st->path);
		pr_output_temp_forget(j.buf);
		pr_strbuf_release(&j);
	}
	free(st->path);
	free(st);
}

struct sqlite3 *pr_store_db(struct pr_store *st)
{
	return st->db;
}

int pr_store_read_cache(struct pr_store *st)
{
	/* a pragma takes no bound parameter: the size is pasted at compile time */
	return sqlite3_exec(st->db, "PRAGMA cache_size=-" PR_STR(PR_STORE_READ_CACHE_KIB), NULL,
			    NULL, NULL) == SQLITE_OK
		       ? 0
		       : -1;
}

int64_t pr_store_run_count(struct pr_store *st)
{
	int64_t n = 0;
	return count_runs(st, &n) ? 0 : n;
}

const char *pr_store_path(const struct pr_store *st)
{
	return st->path;
}
