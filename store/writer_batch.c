/*
 * writer_batch.c - the writer's row batches and the session's inserter
 * thread: one queue of jobs (a run's begin, its batches, its commit or
 * abort) run in the order posted; the thread owns the SQLite connection
 * while a run is in flight.
 */
#define _GNU_SOURCE /* sync_file_range */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>
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

/* ---- background inserter ---- */

static int bind_text(sqlite3_stmt *st, int col, const struct batch *b, uint32_t off, uint32_t len,
		     int present)
{
	if (!present)
		return sqlite3_bind_null(st, col);
	return sqlite3_bind_text(st, col, b->arena.buf + off, (int)len, SQLITE_STATIC);
}

int pr_wr_bind_i64(sqlite3_stmt *st, int col, int64_t v)
{
	return v == NULL_I64 ? sqlite3_bind_null(st, col) : sqlite3_bind_int64(st, col, v);
}

static void bind_args(sqlite3_stmt *st, int col_args, int col_keys, const struct batch *b,
		      const struct rec *r)
{
	bind_text(st, col_args, b, r->off, r->len, r->len > 0);
	pr_wr_bind_i64(st, col_keys, r->akeys ? r->akeys : NULL_I64);
}

/* Binds record r as the row whose parameters are numbered up by o. */
static void bind_rec(sqlite3_stmt *st, int o, const struct batch *b, const struct rec *r)
{
	switch (r->type) {
	case REC_STRING:
	case REC_ARGKEYS:
		sqlite3_bind_int64(st, o + 1, r->id);
		bind_text(st, o + 2, b, r->off, r->len, 1);
		break;
	case REC_SPAN:
		sqlite3_bind_int64(st, o + 1, r->id);
		sqlite3_bind_int64(st, o + 2, r->track);
		sqlite3_bind_text(st, o + 3, r->kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, o + 4, r->name);
		pr_wr_bind_i64(st, o + 5, r->cat ? r->cat : NULL_I64);
		sqlite3_bind_int64(st, o + 6, r->ts);
		sqlite3_bind_int64(st, o + 7, r->dur);
		pr_wr_bind_i64(st, o + 8, r->self);
		pr_wr_bind_i64(st, o + 9, r->depth);
		pr_wr_bind_i64(st, o + 10, r->parent);
		bind_args(st, o + 11, o + 13, b, r);
		break;
	case REC_SAMPLE:
		sqlite3_bind_int64(st, o + 1, r->id);
		sqlite3_bind_int64(st, o + 2, r->ts);
		sqlite3_bind_double(st, o + 3, r->value);
		sqlite3_bind_int64(st, o + 4, r->dur);
		break;
	case REC_INSTANT:
		sqlite3_bind_int64(st, o + 1, r->id);
		pr_wr_bind_i64(st, o + 2, r->track ? r->track : NULL_I64);
		sqlite3_bind_int64(st, o + 3, r->name);
		pr_wr_bind_i64(st, o + 4, r->cat ? r->cat : NULL_I64);
		sqlite3_bind_int64(st, o + 5, r->ts);
		bind_text(st, o + 6, b, r->off2, r->len2, r->len2 > 0);
		bind_args(st, o + 7, o + 9, b, r);
		break;
	case REC_FLOW:
		bind_text(st, o + 1, b, r->off2, r->len2, 1);
		sqlite3_bind_text(st, o + 2, &r->ph, 1, SQLITE_TRANSIENT);
		pr_wr_bind_i64(st, o + 3, r->track ? r->track : NULL_I64);
		sqlite3_bind_int64(st, o + 4, r->ts);
		pr_wr_bind_i64(st, o + 5, r->name ? r->name : NULL_I64);
		pr_wr_bind_i64(st, o + 6, r->cat ? r->cat : NULL_I64);
		bind_text(st, o + 7, b, r->off, r->len, r->len > 0);
		break;
	case REC_COVER:
		sqlite3_bind_int64(st, o + 1, r->ts);
		sqlite3_bind_int64(st, o + 2, r->dur); /* the end */
		break;
	case REC_UP: /* see emit_up */
		sqlite3_bind_int64(st, o + 1, r->id);
		sqlite3_bind_text(st, o + 2, r->kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, o + 3, r->name);
		sqlite3_bind_int64(st, o + 4, r->ts);
		pr_wr_bind_i64(st, o + 5, r->parent);
		if (r->kind2) {
			sqlite3_bind_text(st, o + 6, r->kind2, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, o + 7, r->cat);
			pr_wr_bind_i64(st, o + 9, r->depth);
		} else {
			sqlite3_bind_null(st, o + 6);
			sqlite3_bind_null(st, o + 7);
			sqlite3_bind_null(st, o + 9);
		}
		break;
	case REC_METRIC:
		sqlite3_bind_int64(st, o + 1, r->id);
		bind_text(st, o + 2, b, r->off, r->len, 1);
		if (isfinite(r->value))
			sqlite3_bind_double(st, o + 3, r->value);
		else
			sqlite3_bind_null(st, o + 3);
		bind_text(st, o + 4, b, r->off2, r->len2, r->len2 > 0);
		pr_wr_bind_i64(st, o + 5, r->parent ? r->parent : NULL_I64);
		bind_text(st, o + 6, b, r->off3, r->len3, 1);
		bind_text(st, o + 7, b, r->off + r->len, 0, 0);
		if (r->dur > 0)
			sqlite3_bind_text(st, o + 7, b->arena.buf + r->off3 + r->len3, (int)r->dur,
					  SQLITE_STATIC);
		break;
	}
}

/* Runs st (its rows bound): 0, or -1 on an error. */
static int step_insert(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

_Static_assert(BATCH_RECS <= 65536, "insert_batch's order[] holds uint16_t indexes");

struct id_idx {
	int64_t id;
	uint16_t idx;
};

static int cmp_id_idx(const void *a, const void *b)
{
	const struct id_idx *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Spans come as they close: a span's children before it, though its id,
 * given at its start, is smaller. Inserted so, every parent lands inside
 * the table's B-tree (a seek from the root, cells shifted in the leaf:
 * a third of this thread's time); in id order nearly every row is an
 * append. The inversions are local (a parent waits for its children), so
 * an insertion sort; past a budget of moves, a sort of the ids.
 */
static void sort_by_id(uint16_t *v, size_t n, const struct rec *recs)
{
	size_t i, moves = 0, budget = 16 * n;
	for (i = 1; i < n; i++) {
		uint16_t x = v[i];
		int64_t id = recs[x].id;
		size_t j = i;
		while (j > 0 && recs[v[j - 1]].id > id) {
			v[j] = v[j - 1];
			j--;
			moves++;
		}
		v[j] = x;
		if (moves > budget)
			break;
	}
	if (i < n) {
		struct id_idx *t = pr_xmalloc(n * sizeof *t);
		for (i = 0; i < n; i++) {
			t[i].id = recs[v[i]].id;
			t[i].idx = v[i];
		}
		qsort(t, n, sizeof *t, cmp_id_idx);
		for (i = 0; i < n; i++)
			v[i] = t[i].idx;
		free(t);
	}
}

/* Inserts a batch's rows, unless the run is not being written (failed or stale). */
static void insert_batch(struct pr_writer *w, struct batch *b)
{
	/* One table at a time: its B-tree pages stay hot (row order across
	 * tables does not matter inside the transaction; inside a table it is
	 * the order made). One pass over the records sorts their indexes by
	 * table (a counting sort, stable): a pass over all records per table
	 * was 12% of this thread's time, every record's type a cache miss. */
	uint16_t order[BATCH_RECS];
	size_t start[REC_UP + 2] = { 0 };
	size_t i;
	if (!w->open || w->failed || w->stale)
		return;
	for (i = 0; i < b->n; i++)
		start[b->recs[i].type + 1]++;
	for (i = 1; i <= REC_UP + 1; i++)
		start[i] += start[i - 1];
	for (i = 0; i < b->n; i++)
		order[start[b->recs[i].type]++] = (uint16_t)i;
	/* start[t] is now the end of table t's indexes */
	sort_by_id(order + start[REC_SPAN - 1], start[REC_SPAN] - start[REC_SPAN - 1], b->recs);
	for (i = 0; i < b->n;) {
		const struct rec *r = &b->recs[order[i]];
		sqlite3_stmt *st = w->s->ins[r->type], *multi = NULL;
		size_t k, n = 1;
		int rc;
		/* A table's rows MULTI_ROWS at a time, by one statement: SQLite's
		 * per-statement work (begin, a cursor opened and sought from the
		 * root, halt, reset) once per MULTI_ROWS rows, not per row. */
		if (i + MULTI_ROWS <= b->n && b->recs[order[i + MULTI_ROWS - 1]].type == r->type)
			multi = pr_wr_multi_stmt(w, r->type);
		if (multi) {
			st = multi;
			n = MULTI_ROWS;
		}
		for (k = 0; k < n; k++) {
			/* the records were written on the other core: fetch ahead */
			if (i + k + 8 < b->n) {
				const char *ahead = (const char *)&b->recs[order[i + k + 8]];
				__builtin_prefetch(ahead);
				__builtin_prefetch(ahead + 64);
				__builtin_prefetch(ahead + sizeof(struct rec) - 1);
			}
			bind_rec(st, multi ? (int)k * w->s->ins_params[r->type] : 0, b,
				 &b->recs[order[i + k]]);
		}
		rc = step_insert(st);
		i += n;
		if (rc) {
			pthread_mutex_lock(&w->s->mu);
			w->failed = 1;
			pr_error_set(&w->async_err, PR_E_STORE, "sqlite insert: %s",
				     sqlite3_errmsg(w->st->db));
			pthread_mutex_unlock(&w->s->mu);
			return;
		}
	}
}

/*
 * Every WRITEBACK_BATCHES batches (about 30 MB of store), the store's dirty
 * pages are handed to the disk now (sync_file_range: writes started, not
 * waited for), so the commit's sync finds most of them written: it waited
 * 0.14 s for the 1 GB trace's 330 MB store, at the end with nothing else
 * to do. Not for a scratch store, which is never synced.
 */
#define WRITEBACK_BATCHES 64

static void start_writeback(struct pr_store *st)
{
#ifdef SYNC_FILE_RANGE_WRITE
	int fd;
	if (st->flags & PR_STORE_TEMPORARY)
		return;
	fd = open(st->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	(void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
	close(fd);
#else
	(void)st;
#endif
}

void *pr_wr_inserter_main(void *arg)
{
	struct pr_writer_session *s = arg;
	for (;;) {
		struct job *j;
		struct pr_writer *w;
		pthread_mutex_lock(&s->mu);
		while (!s->queue && !s->stop)
			pthread_cond_wait(&s->cv, &s->mu);
		if (!s->queue) {
			pthread_mutex_unlock(&s->mu);
			return NULL;
		}
		j = s->queue;
		s->queue = j->next;
		if (!s->queue)
			s->queue_tail = NULL;
		pthread_mutex_unlock(&s->mu);

		w = j->w;
		switch (j->type) {
		case JOB_BEGIN:
			pr_wr_run_begin(w);
			pthread_mutex_lock(&s->mu);
			w->begun = 1;
			break;
		case JOB_BATCH:
			insert_batch(w, j->b);
			if (++s->batches_done % WRITEBACK_BATCHES == 0)
				start_writeback(w->st);
			j->b->n = 0;
			pr_strbuf_reset(&j->b->arena);
			pthread_mutex_lock(&s->mu);
			j->b->next_free = s->free_list;
			s->free_list = j->b;
			break;
		default: /* JOB_COMMIT, JOB_ABORT */
			pr_wr_run_end(w, j->type == JOB_COMMIT);
			pthread_mutex_lock(&s->mu);
			w->done = 1;
			s->pending--;
			if (w->orphan)
				pr_wr_run_free(w);
			break;
		}
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
	}
}

void pr_wr_post(struct pr_writer_session *s, struct job *j)
{
	pthread_mutex_lock(&s->mu);
	j->next = NULL;
	if (s->queue_tail)
		s->queue_tail->next = j;
	else
		s->queue = j;
	s->queue_tail = j;
	if (j->type == JOB_BEGIN)
		s->pending++;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

struct batch *pr_wr_take_batch(struct pr_writer_session *s)
{
	struct batch *b;
	pthread_mutex_lock(&s->mu);
	while (!s->free_list)
		pthread_cond_wait(&s->cv, &s->mu);
	b = s->free_list;
	s->free_list = b->next_free;
	pthread_mutex_unlock(&s->mu);
	return b;
}

void pr_wr_submit_current(struct pr_writer *w)
{
	struct batch *b = w->cur;
	b->job.type = JOB_BATCH;
	b->job.w = w;
	b->job.b = b;
	pr_wr_post(w->s, &b->job);
	w->cur = pr_wr_take_batch(w->s);
}

void pr_wr_release_current(struct pr_writer *w)
{
	struct batch *b = w->cur;
	struct pr_writer_session *s = w->s;
	if (!b)
		return;
	w->cur = NULL;
	if (b->n) {
		b->job.type = JOB_BATCH;
		b->job.w = w;
		b->job.b = b;
		pr_wr_post(s, &b->job);
		return;
	}
	pr_strbuf_reset(&b->arena);
	pthread_mutex_lock(&s->mu);
	b->next_free = s->free_list;
	s->free_list = b;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

struct rec *pr_wr_new_rec(struct pr_writer *w, enum rec_type type, size_t text_bytes)
{
	struct rec *r;
	if (w->cur->n == BATCH_RECS || (w->cur->arena.len + text_bytes > BATCH_ARENA && w->cur->n))
		pr_wr_submit_current(w);
	if (w->cur->n == w->cur->cap) {
		w->cur->cap = w->cur->cap ? 2 * w->cur->cap : 256;
		if (w->cur->cap > BATCH_RECS)
			w->cur->cap = BATCH_RECS;
		w->cur->recs = pr_xrealloc(w->cur->recs, w->cur->cap * sizeof(struct rec));
	}
	r = &w->cur->recs[w->cur->n++];
	r->type = (uint8_t)type;
	r->len = r->len2 = r->len3 = 0;
	return r;
}

uint32_t pr_wr_arena_add(struct pr_writer *w, const char *s, size_t n, uint32_t *len)
{
	uint32_t off = (uint32_t)w->cur->arena.len;
	pr_strbuf_add(&w->cur->arena, s, n);
	*len = (uint32_t)n;
	return off;
}

/*
 * Stores split args (keys: JSON array of names, or empty when vals is args
 * as given) into the current batch for record r. May start a new batch
 * after r is complete, so r must not be used after.
 */
void pr_wr_put_args(struct pr_writer *w, struct rec *r, const char *keys, size_t klen,
		    const char *vals, size_t vlen)
{
	int64_t id;
	struct rec *k;
	r->akeys = 0;
	r->off = pr_wr_arena_add(w, vals ? vals : "", vals ? vlen : 0, &r->len);
	if (!klen)
		return;
	if (pr_strmap_get(&w->s->argkeys, keys, klen, &id)) {
		r->akeys = id;
		return;
	}
	id = w->next_argkeys++;
	pr_strmap_put(&w->s->argkeys, keys, klen, id);
	r->akeys = id;
	k = pr_wr_new_rec(w, REC_ARGKEYS, klen);
	k->id = id;
	k->off = pr_wr_arena_add(w, keys, klen, &k->len);
}

/*
 * Object-form args -> split form in w->sk/w->sv. Args that are not a JSON
 * object are kept as given (sk empty).
 */
void pr_wr_split_or_keep(struct pr_writer *w, const char *args, size_t n)
{
	pr_strbuf_reset(&w->sv);
	if (!args || !n) {
		pr_strbuf_reset(&w->sk);
		return;
	}
	if (pr_wr_split_args(args, n, &w->sk, &w->sv)) {
		pr_strbuf_reset(&w->sk);
		pr_strbuf_add(&w->sv, args, n);
	}
}

void pr_wr_quiet(struct pr_writer_session *s)
{
	pthread_mutex_lock(&s->mu);
	while (s->pending)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

void pr_wr_stop(struct pr_writer_session *s)
{
	if (!s->thread_started)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	s->thread_started = 0;
	s->stop = 0;
}
