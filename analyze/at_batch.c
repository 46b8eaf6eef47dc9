/*
 * at_batch.c - the spans at a batch of time points (at_batch.h), fed by a
 * scan of the span table (the shared span pass, spanstat.c, or
 * pr_actx_spans_at's own, spans_at.c). Calls only the context (actx.h).
 */
#include "analyze/at_batch.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "base/imap.h"
#include "base/xalloc.h"

/* The best span at one time point so far (SQL: ORDER BY depth DESC, ts DESC, id). */
struct at_best {
	int64_t t, id, ts, dur, depth, name_id;
	int found, has_depth;
	char *kind;
};

struct pr_at_batch {
	struct at_best *b; /* by t */
	size_t n;
	struct pr_imap host_tracks; /* tracks that exist and are not GPU streams */
};

/* Is (depth, ts, id) of a row before the best in that order? NULL depths sort last. */
static int at_better(const struct at_best *b, int has_depth, int64_t depth, int64_t ts, int64_t id)
{
	if (!b->found)
		return 1;
	if (has_depth != b->has_depth)
		return has_depth;
	if (has_depth && depth != b->depth)
		return depth > b->depth;
	if (ts != b->ts)
		return ts > b->ts;
	return id < b->id;
}

static int cmp_at_best(const void *a, const void *b)
{
	int64_t x = ((const struct at_best *)a)->t, y = ((const struct at_best *)b)->t;
	return x < y ? -1 : x > y;
}

/* Does [ts, ts + dur] hold t? ts + dur as SQLite computes it (a real past int64). */
static int at_holds(int64_t ts, int64_t dur, int64_t t)
{
	int64_t end;
	if (ts > t)
		return 0;
	if (__builtin_add_overflow(ts, dur, &end))
		return dur > 0;
	return end >= t;
}

void pr_at_batch_free(struct pr_at_batch *a)
{
	size_t i;
	if (!a)
		return;
	for (i = 0; i < a->n; i++)
		free(a->b[i].kind);
	free(a->b);
	pr_imap_release(&a->host_tracks);
	free(a);
}

struct pr_at_batch *pr_at_batch_new(struct pr_actx *ctx, const int64_t *t, size_t n,
				    struct pr_error *err)
{
	struct pr_at_batch *a = pr_xcalloc(1, sizeof(*a));
	sqlite3_stmt *st;
	size_t i;
	int rc;
	a->b = pr_xcalloc(n ? n : 1, sizeof(*a->b));
	a->n = n;
	for (i = 0; i < n; i++)
		a->b[i].t = t[i];
	qsort(a->b, n, sizeof(*a->b), cmp_at_best);
	/* the inner join with track: spans of tracks that exist and are not GPU streams */
	if (pr_actx_prep(ctx, "SELECT id FROM track WHERE kind <> 'gpu_stream' AND ?1 IS NOT NULL",
			 &st, err)) {
		pr_at_batch_free(a);
		return NULL;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		pr_imap_put(&a->host_tracks, sqlite3_column_int64(st, 0), 1);
	if (pr_actx_done(ctx, st, rc, err)) {
		pr_at_batch_free(a);
		return NULL;
	}
	return a;
}

int64_t pr_at_batch_last(const struct pr_at_batch *a)
{
	return a->n ? a->b[a->n - 1].t : INT64_MIN;
}

int pr_at_batch_kind(const char *kind)
{
	static const char *const device[] = { "kernel",	 "memcpy",   "memset",	      "gpu",
					      "session", "profiler", "profiler_range" };
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(device); i++)
		if (!strcmp(kind, device[i]))
			return 0;
	return 1;
}

void pr_at_batch_row(struct pr_at_batch *a, sqlite3_stmt *st, int64_t ts, int64_t dur, int col_id,
		     int col_track, int col_depth, int col_name, int col_kind)
{
	struct at_best *b = a->b;
	size_t lo = 0, hi = a->n, i;
	int64_t v, id, depth;
	int has_depth;
	/* the first point at or after the start: most spans hold none */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (b[mid].t < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == a->n || !at_holds(ts, dur, b[lo].t) ||
	    !pr_imap_get(&a->host_tracks, sqlite3_column_int64(st, col_track), &v))
		return;
	id = sqlite3_column_int64(st, col_id);
	depth = sqlite3_column_int64(st, col_depth);
	has_depth = sqlite3_column_type(st, col_depth) != SQLITE_NULL;
	for (i = lo; i < a->n && at_holds(ts, dur, b[i].t); i++) {
		if (!at_better(&b[i], has_depth, depth, ts, id))
			continue;
		b[i].found = 1;
		b[i].has_depth = has_depth;
		b[i].id = id;
		b[i].ts = ts;
		b[i].dur = dur;
		b[i].depth = depth;
		b[i].name_id = sqlite3_column_int64(st, col_name);
		free(b[i].kind);
		b[i].kind = pr_xstrdup(pr_actx_text(st, col_kind));
	}
}

int pr_at_batch_answer(struct pr_actx *ctx, const struct pr_at_batch *a, const int64_t *t, size_t n,
		       json_t **out, struct pr_error *err)
{
	const struct at_best *b = a->b;
	sqlite3_stmt *st;
	size_t i, k;
	int rc;
	if (pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", &st,
			 err))
		return -1;
	for (i = 0; i < n; i++) {
		json_t *o = json_null();
		const struct at_best *x = NULL;
		/* the entry of t[i] (points may repeat: the first of equal times answers) */
		size_t lo = 0, hi = a->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (b[mid].t < t[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		for (k = lo; k < a->n && b[k].t == t[i]; k++)
			if (b[k].found) {
				x = &b[k];
				break;
			}
		if (x) {
			/* the inner join with string: a span whose name is missing does not
			 * count */
			sqlite3_bind_int64(st, 2, x->name_id);
			rc = sqlite3_step(st);
			if (rc == SQLITE_ROW)
				o = pr_jobj("name", json_string(pr_actx_text(st, 0)), "kind",
					    json_string(x->kind), "t_ns", pr_actx_t(ctx, x->ts),
					    "dur_ns", pr_jint(x->dur), NULL);
			sqlite3_reset(st);
			if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
				json_decref(o);
				for (k = 0; k < i; k++)
					json_decref(out[k]);
				return pr_actx_done(ctx, st, rc, err);
			}
		}
		out[i] = o;
	}
	sqlite3_finalize(st);
	return 0;
}

/* Does the batch hold every one of t[0..n)? */
int pr_at_batch_has(const struct pr_at_batch *a, const int64_t *t, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		size_t lo = 0, hi = a->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (a->b[mid].t < t[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == a->n || a->b[lo].t != t[i])
			return 0;
	}
	return 1;
}
