/*
 * writer_batch.c - the writer's batch pipeline (see writer_impl.h): the
 * producer appends records (rows, with their text in the batch's arena) to
 * the current batch; a full batch is queued for the background thread,
 * which owns the SQLite connection until commit and inserts each batch
 * table by table. NBATCHES batches circulate: the producer waits only when
 * all are queued.
 */
#include "store/store.h"

#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
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

int bind_i64(sqlite3_stmt *st, int col, int64_t v)
{
	return v == NULL_I64 ? sqlite3_bind_null(st, col) : sqlite3_bind_int64(st, col, v);
}

static void bind_args(sqlite3_stmt *st, int col_args, int col_keys, const struct batch *b,
		      const struct rec *r)
{
	bind_text(st, col_args, b, r->off, r->len, r->len > 0);
	bind_i64(st, col_keys, r->akeys ? r->akeys : NULL_I64);
}

static int insert_rec(struct pr_writer *w, const struct batch *b, const struct rec *r)
{
	sqlite3_stmt *st = w->ins[r->type];
	switch (r->type) {
	case REC_STRING:
	case REC_ARGKEYS:
		sqlite3_bind_int64(st, 1, r->id);
		bind_text(st, 2, b, r->off, r->len, 1);
		break;
	case REC_SPAN:
		sqlite3_bind_int64(st, 1, r->id);
		sqlite3_bind_int64(st, 2, r->track);
		sqlite3_bind_text(st, 3, r->kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, r->name);
		bind_i64(st, 5, r->cat ? r->cat : NULL_I64);
		sqlite3_bind_int64(st, 6, r->ts);
		sqlite3_bind_int64(st, 7, r->dur);
		bind_i64(st, 8, r->self);
		bind_i64(st, 9, r->depth);
		bind_i64(st, 10, r->parent);
		bind_args(st, 11, 13, b, r);
		break;
	case REC_SAMPLE:
		sqlite3_bind_int64(st, 1, r->id);
		sqlite3_bind_int64(st, 2, r->ts);
		sqlite3_bind_double(st, 3, r->value);
		sqlite3_bind_int64(st, 4, r->dur);
		break;
	case REC_INSTANT:
		sqlite3_bind_int64(st, 1, r->id);
		bind_i64(st, 2, r->track ? r->track : NULL_I64);
		sqlite3_bind_int64(st, 3, r->name);
		bind_i64(st, 4, r->cat ? r->cat : NULL_I64);
		sqlite3_bind_int64(st, 5, r->ts);
		bind_text(st, 6, b, r->off2, r->len2, r->len2 > 0);
		bind_args(st, 7, 9, b, r);
		break;
	case REC_FLOW:
		bind_text(st, 1, b, r->off2, r->len2, 1);
		sqlite3_bind_text(st, 2, &r->ph, 1, SQLITE_TRANSIENT);
		bind_i64(st, 3, r->track ? r->track : NULL_I64);
		sqlite3_bind_int64(st, 4, r->ts);
		bind_i64(st, 5, r->name ? r->name : NULL_I64);
		bind_i64(st, 6, r->cat ? r->cat : NULL_I64);
		bind_text(st, 7, b, r->off, r->len, r->len > 0);
		break;
	case REC_COVER:
		sqlite3_bind_int64(st, 1, r->ts);
		sqlite3_bind_int64(st, 2, r->dur); /* the end */
		break;
	case REC_UP: /* see emit_up */
		sqlite3_bind_int64(st, 1, r->id);
		sqlite3_bind_text(st, 2, r->kind, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, r->name);
		sqlite3_bind_int64(st, 4, r->ts);
		bind_i64(st, 5, r->parent);
		if (r->kind2) {
			sqlite3_bind_text(st, 6, r->kind2, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 7, r->cat);
			bind_i64(st, 9, r->depth);
		} else {
			sqlite3_bind_null(st, 6);
			sqlite3_bind_null(st, 7);
			sqlite3_bind_null(st, 9);
		}
		break;
	case REC_METRIC:
		sqlite3_bind_int64(st, 1, r->id);
		bind_text(st, 2, b, r->off, r->len, 1);
		if (isfinite(r->value))
			sqlite3_bind_double(st, 3, r->value);
		else
			sqlite3_bind_null(st, 3);
		bind_text(st, 4, b, r->off2, r->len2, r->len2 > 0);
		bind_i64(st, 5, r->parent ? r->parent : NULL_I64);
		bind_text(st, 6, b, r->off3, r->len3, 1);
		bind_text(st, 7, b, r->off + r->len, 0, 0);
		if (r->dur > 0)
			sqlite3_bind_text(st, 7, b->arena.buf + r->off3 + r->len3, (int)r->dur,
					  SQLITE_STATIC);
		break;
	}
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_reset(st);
		return -1;
	}
	sqlite3_reset(st);
	return 0;
}

void *inserter_main(void *arg)
{
	struct pr_writer *w = arg;
	for (;;) {
		struct batch *b;
		size_t i;
		int failed, t;
		pthread_mutex_lock(&w->mu);
		while (!w->queue && !w->stop)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->queue) {
			pthread_mutex_unlock(&w->mu);
			return NULL;
		}
		b = w->queue;
		w->queue = b->next;
		if (!w->queue)
			w->queue_tail = NULL;
		failed = w->failed;
		pthread_mutex_unlock(&w->mu);

		/* One table at a time: its B-tree pages stay hot (row order across
		 * tables does not matter inside the transaction). */
		for (t = 0; t <= REC_UP; t++)
		for (i = 0; !failed && i < b->n; i++) {
			if (b->recs[i].type != t)
				continue;
			if (insert_rec(w, b, &b->recs[i])) {
				pthread_mutex_lock(&w->mu);
				w->failed = 1;
				pr_error_set(&w->async_err, PR_E_STORE, "sqlite insert: %s",
					     sqlite3_errmsg(w->st->db));
				pthread_mutex_unlock(&w->mu);
				failed = 1;
			}
		}
		b->n = 0;
		pr_strbuf_reset(&b->arena);
		pthread_mutex_lock(&w->mu);
		b->next = w->free_list;
		w->free_list = b;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
	}
}

static void submit_current(struct pr_writer *w)
{
	struct batch *b = w->cur;
	pthread_mutex_lock(&w->mu);
	b->next = NULL;
	if (w->queue_tail)
		w->queue_tail->next = b;
	else
		w->queue = b;
	w->queue_tail = b;
	pthread_cond_broadcast(&w->cv);
	while (!w->free_list)
		pthread_cond_wait(&w->cv, &w->mu);
	w->cur = w->free_list;
	w->free_list = w->cur->next;
	pthread_mutex_unlock(&w->mu);
}

struct rec *new_rec(struct pr_writer *w, enum rec_type type, size_t text_bytes)
{
	struct rec *r;
	if (w->cur->n == BATCH_RECS || (w->cur->arena.len + text_bytes > BATCH_ARENA && w->cur->n))
		submit_current(w);
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

uint32_t arena_add(struct pr_writer *w, const char *s, size_t n, uint32_t *len)
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
void put_args(struct pr_writer *w, struct rec *r, const char *keys, size_t klen,
	      const char *vals, size_t vlen)
{
	int64_t id;
	struct rec *k;
	r->akeys = 0;
	r->off = arena_add(w, vals ? vals : "", vals ? vlen : 0, &r->len);
	if (!klen)
		return;
	if (pr_strmap_get(&w->argkeys, keys, klen, &id)) {
		r->akeys = id;
		return;
	}
	id = w->next_argkeys++;
	pr_strmap_put(&w->argkeys, keys, klen, id);
	r->akeys = id;
	k = new_rec(w, REC_ARGKEYS, klen);
	k->id = id;
	k->off = arena_add(w, keys, klen, &k->len);
}

void drain(struct pr_writer *w)
{
	if (!w->thread_started)
		return;
	if (w->cur->n)
		submit_current(w);
	pthread_mutex_lock(&w->mu);
	w->stop = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	w->thread_started = 0;
}
