/* store_impl.h - internals shared by store.c and writer.c; not an API. */
#ifndef PR_STORE_IMPL_H
#define PR_STORE_IMPL_H

#include "store/store.h"

struct pr_store {
	struct sqlite3 *db;
	char *path;
	int flags;	  /* as given to pr_store_open (reopening uses them) */
	int readonly;	  /* flags & PR_STORE_READONLY */
	int waited_ms;	  /* busy handler: time waited for the current lock */
	int wait_noticed; /* the "waiting for another process" notice was given */
	/* model_cache.c: the two prepared reads, the queue of rows to write */
	struct sqlite3_stmt *cache_get[2];
	struct pr_cache_row *cache_head, **cache_tail;
	size_t cache_pending_bytes;
	/* pr_store_group_begin: runs are written as savepoints of one transaction
	 * (group_txn: it is open), committed by pr_store_group_commit; group_lost:
	 * SQLite rolled that transaction back whole (an I/O error) */
	int grouping, group_txn, group_lost;
	/* merge.c: pr_store_take_run's statements, kept from run to run (a
	 * worker takes one a file); finalized by pr_store_close */
	struct sqlite3_stmt *take[32];
};

/* The indexes a run's commit makes (writer_session.c, merge.c): by run_id
 * once the store has two runs; the step and phase spans from the first. */
extern const char pr_store_run_index_sql[];
extern const char pr_store_kind_index_sql[];

/* Finalizes pr_store_take_run's statements (store.c; merge.c calls it too). */
void pr_store_take_drop(struct pr_store *st);

/* model_cache.c: frees the queue of rows not written. */
void pr_store_cache_drop(struct pr_store *st);

int pr_store_exec(struct pr_store *st, const char *sql, struct pr_error *err);
/*
 * BEGIN IMMEDIATE (waiting for other writers), and make sure the file locked
 * is still the one at the path: when another process removed the store
 * meanwhile (pr_store_remove_if_empty), the path is opened again (created,
 * with PR_STORE_CREATE) and the transaction begun there. Nothing may be
 * prepared on pr_store_db() across this call: the handle may change.
 */
int pr_store_begin_write(struct pr_store *st, struct pr_error *err);
/* The end of one run's write: its transaction committed, or in a group its
 * savepoint released (committed with the group). */
int pr_store_end_write(struct pr_store *st, struct pr_error *err);
/* One run's write undone: its transaction rolled back, or in a group its
 * savepoint (when SQLite rolled back the whole group, group_lost is set). */
void pr_store_abort_write(struct pr_store *st);

#endif
