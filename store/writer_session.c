/*
 * writer_session.c - the runs of one ingest written one after another by one
 * inserter thread (store.h, "A writer session").
 *
 * What a run used to set up for itself, the session sets up once per
 * transaction: the prepared statements (inserts, the commit's rows, the
 * duplicate check, the next-id queries), the string and argkeys maps and
 * the next ids. A transaction is begun by the producer while the thread is
 * idle (BEGIN may reopen the connection, so the statements are prepared
 * after it); in a group, the runs after the first are savepoints the thread
 * opens itself, in order, behind the commit of the run before.
 *
 * Speculation. A run is begun on the next ids the store will have once the
 * runs handed over before it are stored (its strings and argkeys interned
 * in the same maps), so its producer reads it while the thread still
 * inserts and commits the one before. The thread checks that guess when it
 * begins the run, behind the previous run's commit: the store's next ids,
 * read again, must be the ones the run began on (one B-tree seek a table).
 * They are unless a run before it was a duplicate, failed, or was rolled
 * back with its whole group; then nothing of the run is written
 * (PR_WRITER_STALE) and the producer writes it again, after the session
 * read the store's ids again and forgot the interned strings of the runs
 * not stored (their ids are at or past the store's next ones). So the ids,
 * and every row, are what one run at a time would have written.
 */
#include "store/store.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"
#include "store/writer_impl.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

/*
 * OR FAIL, not the default ABORT: a constraint failing in a statement of
 * many rows (multi_sql's) would have SQLite undo that statement's earlier
 * rows, so it keeps a statement journal, a copy of every page the
 * statement changes that existed when it began: the table's last leaf,
 * 16 KiB copied per 32 rows, 15 % of the inserter thread's instructions.
 * A failed insert fails the whole run (its savepoint is rolled back), so
 * the rows before it need no undo of their own.
 */
static const char *const insert_sql[] = {
	[REC_STRING] = "INSERT OR FAIL INTO string(id, value) VALUES(?1, ?2)",
	[REC_SPAN] =
		"INSERT OR FAIL INTO span(id, run_id, track_id, kind, name_id, cat_id, ts, dur, self, "
		"depth, parent_id, args, args_keys) "
		"VALUES(?1, ?12, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?13)",
	[REC_SAMPLE] =
		"INSERT OR FAIL INTO sample(series_id, ts, value, seq) VALUES(?1, ?2, ?3, ?4)",
	[REC_INSTANT] =
		"INSERT OR FAIL INTO instant(run_id, track_id, name_id, cat_id, ts, scope, args, "
		"args_keys) VALUES(?8, ?2, ?3, ?4, ?5, ?6, ?7, ?9)",
	[REC_FLOW] =
		"INSERT OR FAIL INTO flow(run_id, flow_id, phase, track_id, ts, name_id, cat_id, bind) "
		"VALUES(?8, ?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[REC_METRIC] =
		"INSERT OR FAIL INTO metric(id, run_id, name, value, unit, span_id, origin, detail) "
		"VALUES(?1, ?8, ?2, ?3, ?4, ?5, ?6, ?7)",
	[REC_ARGKEYS] = "INSERT OR FAIL INTO argkeys(id, keys) VALUES(?1, ?2)",
	[REC_COVER] = "INSERT OR FAIL INTO op_cover(run_id, ts, end_ts) VALUES(?8, ?1, ?2)",
	[REC_UP] =
		"INSERT OR FAIL INTO span_up(span_id, run_id, p_kind, p_name_id, p_ts, p_parent_id, "
		"q_kind, q_name_id, q_parent_id) VALUES(?1, ?8, ?2, ?3, ?4, ?5, ?6, ?7, ?9)",
};

static const char *const put_sql[] = {
	[PUT_TRACK] = "INSERT INTO track(id, run_id, kind, pid, tid, name, process_name, "
		      "sort_index) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[PUT_SERIES] = "INSERT INTO series(id, run_id, name, device, unit, orig_unit, count, min, "
		       "max, ts_min, ts_max) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	[PUT_DIAG] = "INSERT INTO diag(run_id, code, count, line, col, offset, message) "
		     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[PUT_RUN] = "INSERT INTO run(id, format, collector, label, source, content_hash, bytes, "
		    "rank, world_size, time_origin_ns, time_synthetic, ts_min, ts_max, span_count, "
		    "sample_count, instant_count, meta) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
		    "?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
	[PUT_META] = "INSERT INTO run_meta(run_id, key, value) VALUES(?1, ?2, ?3)",
	[PUT_FIND_HASH] = "SELECT id FROM run WHERE content_hash = ?1",
	[PUT_RUN_COUNT] = "SELECT count(*) FROM (SELECT 1 FROM run LIMIT 2)",
};

static const char *const max_id_sql[] = {
	[ID_RUN] = "SELECT ifnull(max(id), 0) + 1 FROM run",
	[ID_SPAN] = "SELECT ifnull(max(id), 0) + 1 FROM span",
	[ID_STRING] = "SELECT ifnull(max(id), 0) + 1 FROM string",
	[ID_TRACK] = "SELECT ifnull(max(id), 0) + 1 FROM track",
	[ID_SERIES] = "SELECT ifnull(max(id), 0) + 1 FROM series",
	[ID_METRIC] = "SELECT ifnull(max(id), 0) + 1 FROM metric",
	[ID_ARGKEYS] = "SELECT ifnull(max(id), 0) + 1 FROM argkeys",
};

/* ---- statements, ids and maps (while the thread is idle, or on it) ---- */

static void finalize_all(struct pr_writer_session *s)
{
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(s->ins); i++) {
		sqlite3_finalize(s->ins[i]);
		s->ins[i] = NULL;
		sqlite3_finalize(s->ins_multi[i]);
		s->ins_multi[i] = NULL;
	}
	for (i = 0; i < PR_ARRAY_SIZE(s->put); i++) {
		sqlite3_finalize(s->put[i]);
		s->put[i] = NULL;
	}
	for (i = 0; i < PR_ARRAY_SIZE(s->max_id); i++) {
		sqlite3_finalize(s->max_id[i]);
		s->max_id[i] = NULL;
	}
	s->prepared = 0;
}

static int prepare(struct pr_writer_session *s, const char *sql, sqlite3_stmt **out,
		   struct pr_error *err)
{
	if (sqlite3_prepare_v3(s->st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL) ==
	    SQLITE_OK)
		return 0;
	return pr_error_set(err, PR_E_STORE, "sqlite prepare: %s", sqlite3_errmsg(s->st->db));
}

/*
 * The multi-row form of an insert_sql statement: its VALUES(...) repeated
 * MULTI_ROWS times, row k's "?N" as "?(N + k * P)", P the highest N of the
 * single statement (returned in *params). Same rows, same order, same
 * table content; one statement run (and one B-tree cursor) per MULTI_ROWS
 * rows instead of per row. The one statement prepared from a strbuf outside
 * fmt_nsys.c (tests/tools/check_source.sh allows `multi_text.buf` here):
 * its text is insert_sql's literal with the parameter numbers changed; no
 * value enters it.
 */
static void multi_sql(const char *sql, struct pr_strbuf *out, int *params)
{
	const char *values = strstr(sql, "VALUES(") + 6, *p;
	int k, max = 0;
	for (p = values; *p; p++)
		if (*p == '?' && (int)strtol(p + 1, NULL, 10) > max)
			max = (int)strtol(p + 1, NULL, 10);
	pr_strbuf_reset(out);
	pr_strbuf_add(out, sql, (size_t)(values - sql));
	for (k = 0; k < MULTI_ROWS; k++) {
		if (k)
			pr_strbuf_add(out, ", ", 2);
		for (p = values; *p; p++) {
			if (*p != '?') {
				pr_strbuf_add(out, p, 1);
				continue;
			}
			pr_strbuf_addf(out, "?%d", (int)strtol(p + 1, NULL, 10) + k * max);
			while (p[1] >= '0' && p[1] <= '9')
				p++;
		}
	}
	*params = max;
}

/* Columns bound once per run (not per row): run_id's parameter, or 0. */
static int run_id_param(size_t type)
{
	if (type == REC_STRING || type == REC_SAMPLE || type == REC_ARGKEYS)
		return 0;
	return type == REC_SPAN ? 12 : 8;
}

/*
 * The multi-row insert of table type, prepared on its first use (on the
 * inserter thread, which owns the connection then) with the run's id bound:
 * preparing the nine took ~5 ms, which a small file (aggregate makes a store
 * per rank) would pay for nothing. NULL when it cannot be prepared: the
 * caller inserts row by row.
 */
sqlite3_stmt *pr_wr_multi_stmt(struct pr_writer *w, enum rec_type type)
{
	struct pr_writer_session *s = w->s;
	struct pr_strbuf multi_text = PR_STRBUF_INIT;
	int col = run_id_param(type), k;
	if (s->ins_multi[type])
		return s->ins_multi[type];
	multi_sql(insert_sql[type], &multi_text, &s->ins_params[type]);
	if (sqlite3_prepare_v3(s->st->db, multi_text.buf, -1, SQLITE_PREPARE_PERSISTENT,
			       &s->ins_multi[type], NULL) != SQLITE_OK) {
		sqlite3_finalize(s->ins_multi[type]);
		s->ins_multi[type] = NULL;
	}
	pr_strbuf_release(&multi_text);
	for (k = 0; col && s->ins_multi[type] && k < MULTI_ROWS; k++)
		sqlite3_bind_int64(s->ins_multi[type], col + k * s->ins_params[type], w->run_id);
	return s->ins_multi[type];
}

static int prepare_all(struct pr_writer_session *s, struct pr_error *err)
{
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(insert_sql); i++)
		if (prepare(s, insert_sql[i], &s->ins[i], err))
			return -1;
	for (i = 0; i < PR_ARRAY_SIZE(put_sql); i++)
		if (prepare(s, put_sql[i], &s->put[i], err))
			return -1;
	for (i = 0; i < PR_ARRAY_SIZE(max_id_sql); i++)
		if (prepare(s, max_id_sql[i], &s->max_id[i], err))
			return -1;
	s->prepared = 1;
	return 0;
}

/* The first column of a one-row query (0 when it has none), the statement reset. */
static int64_t step_int(sqlite3_stmt *st)
{
	int64_t v = 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return v;
}

/* The store's next ids, max(id) + 1 of each table. */
static void read_next(struct pr_writer_session *s, int64_t next[ID_N])
{
	size_t i;
	for (i = 0; i < ID_N; i++)
		next[i] = step_int(s->max_id[i]);
}

/* Loads (id, text) rows into an interning map, so later runs reuse the ids. */
static int load_map(struct pr_writer_session *s, const char *sql, struct pr_strmap *map,
		    struct pr_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;
	pr_strmap_release(map);
	if (sqlite3_prepare_v2(s->st->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(s->st->db));
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const void *v = sqlite3_column_text(stmt, 1);
		int n = sqlite3_column_bytes(stmt, 1);
		pr_strmap_put(map, v ? v : "", (size_t)n, sqlite3_column_int64(stmt, 0));
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(s->st->db));
	return 0;
}

/* Forgets the entries interned with an id from `from` on: those of runs not stored. */
static void forget_from(struct pr_strmap *m, int64_t from)
{
	size_t i;
	for (i = 0; i < m->cap; i++) {
		const struct pr_strmap_slot *sl = &m->slots[i];
		if (sl->hash > 1 && sl->value >= from)
			pr_strmap_del(m, m->arena + sl->off, sl->len, NULL);
	}
}

/* The statements, next ids and maps of the open transaction, read anew. */
static int refresh(struct pr_writer_session *s, struct pr_error *err)
{
	if (prepare_all(s, err) || load_map(s, "SELECT id, value FROM string", &s->strings, err) ||
	    load_map(s, "SELECT id, keys FROM argkeys", &s->argkeys, err)) {
		finalize_all(s);
		return -1;
	}
	read_next(s, s->next);
	s->indexed_runs = s->indexed_kinds = 0;
	s->resync = 0;
	return 0;
}

/*
 * A new transaction (the thread idle): BEGIN (in a group, and the first
 * run's savepoint), the statements prepared on the connection BEGIN left
 * (it may open the store again), and the next ids and maps read from the
 * store, which another process may have written since the last one.
 */
static int txn_begin(struct pr_writer_session *s, struct pr_error *err)
{
	finalize_all(s);
	if (pr_store_begin_write(s->st, err))
		return -1;
	/* The step and phase indexes exist before the rows arrive: kept up to
	 * date as they are inserted (a partial index takes only its few rows),
	 * instead of two scans of the whole span table at commit (6 % of an
	 * ingest's CPU). Before the statements are prepared: no re-prepare. */
	if (pr_store_exec(s->st, pr_store_kind_index_sql, err)) {
		pr_store_abort_write(s->st);
		return -1;
	}
	if (refresh(s, err)) {
		pr_store_abort_write(s->st);
		return -1;
	}
	return 0;
}

/* After a run that was not stored (the thread idle): the store's ids again,
 * and the strings of the runs not stored forgotten. */
static void resync(struct pr_writer_session *s)
{
	read_next(s, s->next);
	forget_from(&s->strings, s->next[ID_STRING]);
	forget_from(&s->argkeys, s->next[ID_ARGKEYS]);
	s->resync = 0;
}

/* ---- the session ---- */

int pr_writer_session_open(struct pr_store *st, struct pr_writer_session **out,
			   struct pr_error *err)
{
	struct pr_writer_session *s;
	size_t i;
	(void)err;
	*out = NULL;
	s = pr_xcalloc(1, sizeof(*s));
	s->st = st;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	/* Batches start empty and grow (recs by doubling, the arena as a strbuf):
	 * a tiny input (one rank of many, a fuzz case) does not pay for 15 MB. */
	for (i = 0; i < NBATCHES; i++) {
		pr_strbuf_init(&s->batches[i].arena);
		s->batches[i].next_free = s->free_list;
		s->free_list = &s->batches[i];
	}
	*out = s;
	return 0;
}

void pr_writer_session_wait(struct pr_writer_session *s)
{
	if (s)
		pr_wr_quiet(s);
}

void pr_writer_session_forget(struct pr_writer_session *s)
{
	if (!s)
		return;
	pr_wr_quiet(s);
	s->resync = 1; /* the next run: the store's ids read again, the maps past them forgotten */
}

void pr_writer_session_close(struct pr_writer_session *s)
{
	size_t i;
	if (!s)
		return;
	pr_wr_quiet(s);
	pr_wr_stop(s);
	finalize_all(s);
	for (i = 0; i < NBATCHES; i++) {
		free(s->batches[i].recs);
		pr_strbuf_release(&s->batches[i].arena);
	}
	pr_strmap_release(&s->strings);
	pr_strmap_release(&s->argkeys);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s);
}

/* Is a run in flight? (Only then may the thread touch the store.) */
static int busy(struct pr_writer_session *s)
{
	size_t n;
	pthread_mutex_lock(&s->mu);
	n = s->pending;
	pthread_mutex_unlock(&s->mu);
	return n > 0;
}

int pr_writer_begin_in(struct pr_writer_session *s, const struct pr_run_info *info,
		       struct pr_writer **out, struct pr_error *err)
{
	struct pr_store *st = s->st;
	struct pr_writer *w;
	const char *base;
	int opened = 0;

	*out = NULL;
	if (st->readonly)
		return pr_error_set(err, PR_E_STORE, "store is read-only");
	if (!s->thread_started) {
		if (pthread_create(&s->thread, NULL, pr_wr_inserter_main, s))
			return pr_error_set(err, PR_E_STORE, "cannot start the inserter thread");
		s->thread_started = 1;
	}
	/* A transaction to begin: every run without a group; in a group, when
	 * none is open (the first run, after a group's commit, after an I/O
	 * error undid one). The group's state is read only while the thread is
	 * idle; while a run is in flight the group is open, or the thread finds
	 * it gone and makes this run stale (written again after a resync, which
	 * waits for the thread). */
	if (s->resync || !st->grouping)
		pr_wr_quiet(s);
	if (!busy(s)) {
		if (!st->grouping || !st->group_txn) {
			if (txn_begin(s, err))
				return -1;
			opened = 1;
		} else if (!s->prepared) {
			if (refresh(s, err))
				return -1;
		} else if (s->resync) {
			resync(s);
		}
	}

	w = pr_xcalloc(1, sizeof(*w));
	w->st = st;
	w->s = s;
	pr_strbuf_init(&w->tmp);
	pr_strbuf_init(&w->sk);
	pr_strbuf_init(&w->sv);
	pr_strbuf_init(&w->mk);
	pr_strbuf_init(&w->mv);
	pr_error_init(&w->async_err);
	w->format = pr_xstrdup(info->format);
	w->source = pr_xstrdup(info->source);
	base = strrchr(info->source, '/');
	w->label = pr_xstrdup(info->label ? info->label : base ? base + 1 : info->source);
	w->meta = json_object();
	w->at = -1;
	memcpy(w->base, s->next, sizeof(w->base));
	w->run_id = s->next[ID_RUN];
	w->span_base = w->next_span = w->span_hi = s->next[ID_SPAN];
	w->next_string = s->next[ID_STRING];
	w->track_base = w->next_track = s->next[ID_TRACK];
	w->series_base = w->next_series = s->next[ID_SERIES];
	w->next_metric = s->next[ID_METRIC];
	w->next_argkeys = s->next[ID_ARGKEYS];
	/* the transaction (and savepoint) begun here is this run's */
	w->open = opened;
	w->begin_job.type = JOB_BEGIN;
	w->begin_job.w = w;
	pr_wr_post(s, &w->begin_job);
	w->cur = pr_wr_take_batch(s);
	*out = w;
	return 0;
}

int pr_writer_check(struct pr_writer *w)
{
	struct pr_writer_session *s = w->s;
	int stale;
	pthread_mutex_lock(&s->mu);
	while (!w->begun)
		pthread_cond_wait(&s->cv, &s->mu);
	stale = w->stale;
	pthread_mutex_unlock(&s->mu);
	/* the run after it starts from the store's ids, read again */
	if (stale)
		s->resync = 1;
	return stale ? PR_WRITER_STALE : 0;
}

void pr_writer_hand_over(struct pr_writer *w, const char *content_hash, int64_t bytes)
{
	struct pr_writer_session *s = w->s;
	pr_wr_finish_input(w);
	w->hash = pr_xstrdup(content_hash);
	w->bytes = bytes;
	w->meta_text = json_dumps(w->meta, JSON_COMPACT | JSON_SORT_KEYS);
	/* the next run begins where this one ends, once it is stored */
	s->next[ID_RUN] = w->run_id + 1;
	s->next[ID_SPAN] = w->span_hi;
	s->next[ID_STRING] = w->next_string;
	s->next[ID_TRACK] = w->next_track;
	s->next[ID_SERIES] = w->next_series;
	s->next[ID_METRIC] = w->next_metric;
	s->next[ID_ARGKEYS] = w->next_argkeys;
	pr_wr_release_current(w);
	w->end_job.type = JOB_COMMIT;
	w->end_job.w = w;
	pr_wr_post(s, &w->end_job);
}

void pr_writer_discard(struct pr_writer *w)
{
	struct pr_writer_session *s;
	if (!w)
		return;
	s = w->s;
	/* the next run begins where this one began */
	memcpy(s->next, w->base, sizeof(s->next));
	forget_from(&s->strings, w->base[ID_STRING]);
	forget_from(&s->argkeys, w->base[ID_ARGKEYS]);
	pr_wr_release_current(w);
	w->orphan = 1;
	w->end_job.type = JOB_ABORT;
	w->end_job.w = w;
	pr_wr_post(s, &w->end_job);
}

int pr_writer_outcome(struct pr_writer *w, int64_t *run_id, struct pr_writer_stats *stats,
		      struct pr_error *err)
{
	struct pr_writer_session *s = w->s;
	int rc;
	pthread_mutex_lock(&s->mu);
	while (!w->done)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
	rc = w->rc;
	*run_id = w->out_run;
	if (stats)
		*stats = w->stats;
	if ((rc < 0 || rc == PR_WRITER_STALE) && err)
		*err = w->async_err;
	/* a run not stored: the runs after it began on ids the store does not have */
	if (rc)
		s->resync = 1;
	pr_wr_run_free(w);
	return rc;
}

/* ---- one run alone: a session of its own ---- */

int pr_writer_begin(struct pr_store *st, const struct pr_run_info *info, struct pr_writer **out,
		    struct pr_error *err)
{
	struct pr_writer_session *s;
	*out = NULL;
	if (pr_writer_session_open(st, &s, err))
		return -1;
	if (pr_writer_begin_in(s, info, out, err)) {
		pr_writer_session_close(s);
		return -1;
	}
	(*out)->own_session = 1;
	return 0;
}

int pr_writer_commit(struct pr_writer *w, const char *content_hash, int64_t bytes, int64_t *run_id,
		     struct pr_writer_stats *stats, struct pr_error *err)
{
	struct pr_writer_session *s = w->s;
	int own = w->own_session, rc;
	pr_writer_hand_over(w, content_hash, bytes);
	rc = pr_writer_outcome(w, run_id, stats, err);
	if (own)
		pr_writer_session_close(s);
	return rc == PR_WRITER_STALE ? -1 : rc;
}

void pr_writer_abort(struct pr_writer *w)
{
	struct pr_writer_session *s;
	int own;
	if (!w)
		return;
	s = w->s;
	own = w->own_session;
	pr_writer_discard(w);
	pr_wr_quiet(s);
	if (own)
		pr_writer_session_close(s);
}

/* ---- on the inserter thread ---- */

void pr_wr_run_begin(struct pr_writer *w)
{
	struct pr_writer_session *s = w->s;
	struct pr_store *st = w->st;
	struct pr_error e = PR_ERROR_INIT;
	int64_t next[ID_N];
	size_t i;

	if (!w->open) {
		/* The group's transaction is gone (an I/O error rolled it back with
		 * the run before): this run's ids are not the store's. */
		if (!st->grouping || !st->group_txn) {
			w->stale = 1;
			return;
		}
		if (pr_store_begin_write(st, &e)) {
			pthread_mutex_lock(&s->mu);
			w->failed = 1;
			w->async_err = e;
			pthread_mutex_unlock(&s->mu);
			return;
		}
		w->open = 1;
		read_next(s, next);
		if (memcmp(next, w->base, sizeof(next))) {
			pr_store_abort_write(st);
			w->open = 0;
			w->stale = 1;
			return;
		}
	}
	for (i = 0; i < PR_ARRAY_SIZE(insert_sql); i++) {
		int col = run_id_param(i), k;
		if (!col)
			continue;
		sqlite3_bind_int64(s->ins[i], col, w->run_id);
		for (k = 0; s->ins_multi[i] && k < MULTI_ROWS; k++)
			sqlite3_bind_int64(s->ins_multi[i], col + k * s->ins_params[i], w->run_id);
	}
}

/* The run's savepoint (or transaction) rolled back. */
static void run_rollback(struct pr_writer *w)
{
	if (!w->open)
		return;
	pr_store_abort_write(w->st);
	/* After an I/O error (a full disk) SQLite leaves the journal in place and
	 * rolls it back on the next read: read now, so that the store is back to
	 * its size and state before this run, not left for the next process to
	 * recover. */
	pr_store_exec(w->st, "SELECT count(*) FROM sqlite_master", NULL);
	w->open = 0;
}

static int write_tables(struct pr_writer *w, struct pr_error *err)
{
	struct pr_writer_session *s = w->s;
	sqlite3 *db = w->st->db;
	sqlite3_stmt *st;
	size_t i;
	int rc = -1;

	st = s->put[PUT_TRACK];
	for (i = 0; i < w->ntracks; i++) {
		struct track *t = &w->tracks[i];
		int64_t pidx;
		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, w->run_id);
		sqlite3_bind_text(st, 3, t->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, t->pid, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, t->tid, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, t->name, -1, SQLITE_STATIC);
		if (t->pid && pr_strmap_get(&w->process_names, t->pid, strlen(t->pid), &pidx))
			sqlite3_bind_text(st, 7, w->pnames[pidx], -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 7);
		if (t->has_sort)
			sqlite3_bind_int64(st, 8, t->sort_index);
		else
			sqlite3_bind_null(st, 8);
		if (pr_wr_step_done(st))
			goto out;
	}
	st = s->put[PUT_SERIES];
	for (i = 0; i < w->nseries; i++) {
		struct series *se = &w->series[i];
		sqlite3_bind_int64(st, 1, se->id);
		sqlite3_bind_int64(st, 2, w->run_id);
		sqlite3_bind_text(st, 3, se->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, se->device, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, se->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, se->orig_unit, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 7, se->count);
		if (se->count) {
			sqlite3_bind_double(st, 8, se->min);
			sqlite3_bind_double(st, 9, se->max);
			sqlite3_bind_int64(st, 10, se->ts_min);
			sqlite3_bind_int64(st, 11, se->ts_max);
		} else {
			sqlite3_bind_null(st, 8);
			sqlite3_bind_null(st, 9);
			sqlite3_bind_null(st, 10);
			sqlite3_bind_null(st, 11);
		}
		if (pr_wr_step_done(st))
			goto out;
	}
	st = s->put[PUT_DIAG];
	for (i = 0; i < w->ndiags; i++) {
		struct diag *d = &w->diags[i];
		sqlite3_bind_int64(st, 1, w->run_id);
		sqlite3_bind_text(st, 2, d->code, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, d->count);
		pr_wr_bind_i64(st, 4, d->line > 0 ? d->line : NULL_I64);
		pr_wr_bind_i64(st, 5, d->col > 0 ? d->col : NULL_I64);
		pr_wr_bind_i64(st, 6, d->offset >= 0 ? d->offset : NULL_I64);
		sqlite3_bind_text(st, 7, d->msg, -1, SQLITE_STATIC);
		if (pr_wr_step_done(st))
			goto out;
	}
	st = s->put[PUT_RUN];
	sqlite3_bind_int64(st, 1, w->run_id);
	sqlite3_bind_text(st, 2, w->format, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, w->collector, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, w->label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, w->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, w->hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, w->bytes);
	pr_wr_bind_i64(st, 8, w->has_rank ? w->rank : NULL_I64);
	pr_wr_bind_i64(st, 9, w->has_world ? w->world_size : NULL_I64);
	pr_wr_bind_i64(st, 10, w->has_origin ? w->time_origin : NULL_I64);
	sqlite3_bind_int(st, 11, w->synthetic);
	pr_wr_bind_i64(st, 12, w->has_ts ? w->ts_min : NULL_I64);
	pr_wr_bind_i64(st, 13, w->has_ts ? w->ts_max : NULL_I64);
	sqlite3_bind_int64(st, 14, w->stats.spans);
	sqlite3_bind_int64(st, 15, w->stats.samples);
	sqlite3_bind_int64(st, 16, w->stats.instants);
	sqlite3_bind_text(st, 17, w->meta_text ? w->meta_text : "{}", -1, SQLITE_STATIC);
	if (pr_wr_step_done(st))
		goto out;
	st = s->put[PUT_META];
	for (i = 0; i < w->nrmeta; i++) {
		sqlite3_bind_int64(st, 1, w->run_id);
		sqlite3_bind_text(st, 2, w->rmeta[2 * i], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, w->rmeta[2 * i + 1], -1, SQLITE_STATIC);
		if (pr_wr_step_done(st))
			goto out;
	}
	rc = 0;
out:
	if (rc)
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	/* the texts bound are the run's: unbind them before it is freed */
	for (i = PUT_TRACK; i <= PUT_META; i++)
		sqlite3_clear_bindings(s->put[i]);
	return rc;
}

const char pr_store_run_index_sql[] = "CREATE INDEX IF NOT EXISTS span_run ON span(run_id);"
				      "CREATE INDEX IF NOT EXISTS track_run ON track(run_id);"
				      "CREATE INDEX IF NOT EXISTS series_run ON series(run_id);"
				      "CREATE INDEX IF NOT EXISTS metric_run ON metric(run_id);"
				      "CREATE INDEX IF NOT EXISTS op_cover_run ON op_cover(run_id);"
				      "CREATE INDEX IF NOT EXISTS span_up_run ON span_up(run_id);"
				      "CREATE INDEX IF NOT EXISTS diag_run ON diag(run_id);";
const char pr_store_kind_index_sql[] =
	"CREATE INDEX IF NOT EXISTS span_step ON span(run_id, ts) WHERE kind = 'step';"
	"CREATE INDEX IF NOT EXISTS span_phase ON span(run_id, ts) WHERE kind = 'phase';";

/*
 * Analyses query each run by run_id: without these indexes a store of N runs
 * took O(N^2) (issue 12: summary of 8000 runs, 26 s). One run needs none
 * (its rows are the whole table); from the second on they are built once
 * and kept (about +25% on the SQLite side of a later ingest). Once a run's
 * commit made them in this transaction, the next runs skip the statements
 * (sets *made with what this run made, kept once it is released). The
 * step/phase indexes are made at txn_begin already; here they are made
 * only when that run was rolled back with them (a group's savepoint).
 */
static int make_indexes(struct pr_writer *w, int made[2], struct pr_error *err)
{
	struct pr_writer_session *s = w->s;
	made[0] = made[1] = 0;
	if (!s->indexed_runs && step_int(s->put[PUT_RUN_COUNT]) > 1) {
		if (pr_store_exec(w->st, pr_store_run_index_sql, err))
			return -1;
		made[0] = 1;
	}
	if (!s->indexed_kinds) {
		if (pr_store_exec(w->st, pr_store_kind_index_sql, err))
			return -1;
		made[1] = 1;
	}
	return 0;
}

/* The commit of a run whose rows are all inserted: sets w->rc. */
static void run_commit(struct pr_writer *w)
{
	struct pr_writer_session *s = w->s;
	sqlite3_stmt *find = s->put[PUT_FIND_HASH];
	struct pr_error e = PR_ERROR_INIT;
	int made[2];

	if (w->failed) {
		run_rollback(w);
		w->rc = -1;
		return;
	}
	sqlite3_bind_text(find, 1, w->hash, -1, SQLITE_STATIC);
	if (sqlite3_step(find) == SQLITE_ROW) {
		w->out_run = sqlite3_column_int64(find, 0);
		sqlite3_reset(find);
		sqlite3_clear_bindings(find);
		run_rollback(w);
		w->rc = 1;
		return;
	}
	sqlite3_reset(find);
	sqlite3_clear_bindings(find);
	if (pr_wr_renest_unsorted(w, &e) || write_tables(w, &e) || make_indexes(w, made, &e) ||
	    pr_store_end_write(w->st, &e)) {
		run_rollback(w);
		w->async_err = e;
		w->rc = -1;
		return;
	}
	w->open = 0;
	s->indexed_runs |= made[0];
	s->indexed_kinds |= made[1];
	w->out_run = w->run_id;
	w->rc = 0;
}

void pr_wr_run_end(struct pr_writer *w, int commit)
{
	if (w->stale) {
		w->rc = PR_WRITER_STALE;
		pr_error_set(&w->async_err, PR_E_STORE,
			     "the run began on ids of runs that were not stored; write it again");
		return;
	}
	if (!commit) {
		run_rollback(w);
		w->rc = -1;
		return;
	}
	run_commit(w);
}
