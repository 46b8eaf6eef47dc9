/* actx.c - the analysis context: series, phases/steps, span lookup, JSON helpers. */
#include "analyze/actx.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/imap.h"
#include "analyze/spanstat.h"
#include "base/parray.h"
#include "base/strbuf.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

int pr_actx_prep_ids(struct pr_actx *ctx, const char *sql, const int64_t *ids, size_t n,
		     sqlite3_stmt **st, struct pr_error *err)
{
	struct pr_strbuf arr = PR_STRBUF_INIT;
	size_t i;
	int rc;
	if (pr_actx_prep(ctx, sql, st, err))
		return -1;
	/* the ids are a bound value (a JSON array the statement reads with json_each), never SQL */
	pr_strbuf_addch(&arr, '[');
	for (i = 0; i < n; i++)
		pr_strbuf_addf(&arr, "%s%lld", i ? "," : "", (long long)ids[i]);
	pr_strbuf_addch(&arr, ']');
	rc = sqlite3_bind_text(*st, 2, arr.buf, (int)arr.len, SQLITE_TRANSIENT);
	pr_strbuf_release(&arr);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(*st);
		*st = NULL;
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(ctx->db));
	}
	return 0;
}

int pr_actx_prep(struct pr_actx *ctx, const char *sql, sqlite3_stmt **st, struct pr_error *err)
{
	if (sqlite3_prepare_v2(ctx->db, sql, -1, st, NULL) != SQLITE_OK)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(ctx->db));
	if (sqlite3_bind_parameter_count(*st) >= 1)
		sqlite3_bind_int64(*st, 1, ctx->run);
	return 0;
}

int pr_actx_done(struct pr_actx *ctx, sqlite3_stmt *st, int rc, struct pr_error *err)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW && rc != SQLITE_OK)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(ctx->db));
	return 0;
}

const char *pr_actx_text(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? (const char *)t : "";
}

/* (name, device) of s against the key; device NULL compares the name alone. */
static int series_cmp(const struct pr_aseries *s, const char *name, const char *device)
{
	int c = strcmp(s->name, name);
	return c || !device ? c : strcmp(s->device, device);
}

/*
 * A binary search (issue 12: a linear one, called per series by the
 * fragmentation and pressure analyses, was quadratic in the devices): the
 * series are loaded ORDER BY name, device, and SQLite's BINARY collation
 * orders text as strcmp does; (name, device) is unique in a run, and with
 * device NULL the lower bound is the first series of the name.
 */
struct pr_aseries *pr_actx_series(struct pr_actx *ctx, const char *name, const char *device)
{
	size_t lo = 0, hi = ctx->nseries;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (series_cmp(&ctx->series[mid], name, device) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ctx->nseries && !series_cmp(&ctx->series[lo], name, device))
		return &ctx->series[lo];
	return NULL;
}

size_t pr_series_mem = (size_t)8 << 20, pr_series_block;

/*
 * A series' samples go to a paged array (base/parray.h): in memory while
 * the context's budget lasts (pr_series_mem for all loaded series), else in
 * a scratch file read in blocks, so that a long run's memory series (16
 * bytes a sample) cost the disk, not the process.
 */
int pr_actx_load(struct pr_actx *ctx, struct pr_aseries *s, struct pr_error *err)
{
	sqlite3_stmt *st;
	struct pr_sample smp;
	int rc;
	if (s->loaded)
		return 0;
	if (pr_actx_prep(ctx, "SELECT ts, value FROM sample WHERE series_id = ?2 ORDER BY ts, seq",
			 &st, err))
		return -1;
	sqlite3_bind_int64(st, 2, s->id);
	if (!ctx->pcache)
		ctx->pcache = pr_pcache_new(pr_series_mem, pr_series_block);
	s->smp = pr_parray_new(ctx->pcache, "a series' samples", sizeof(smp),
			       s->count > 0 ? (uint64_t)s->count : 0);
	s->n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		smp.ts = pr_time_clamp(sqlite3_column_int64(st, 0)); /* timecheck.h */
		smp.v = sqlite3_column_double(st, 1);
		pr_parray_put(s->smp, &smp); /* a failure is sticky: checked below */
		s->n++;
	}
	s->loaded = 1;
	if (pr_actx_done(ctx, st, rc, err))
		return -1;
	return pr_parray_failed(s->smp, err);
}

struct pr_sample pr_aseries_get(const struct pr_aseries *s, size_t i)
{
	struct pr_sample smp;
	memcpy(&smp, pr_parray_at(s->smp, i), sizeof(smp));
	return smp;
}

int64_t pr_aseries_t(const struct pr_aseries *s, size_t i)
{
	return pr_aseries_get(s, i).ts;
}

double pr_aseries_v(const struct pr_aseries *s, size_t i)
{
	return pr_aseries_get(s, i).v;
}

int pr_actx_series_failed(const struct pr_actx *ctx, struct pr_error *err)
{
	size_t i;
	for (i = 0; i < ctx->nseries; i++)
		if (ctx->series[i].smp && pr_parray_failed(ctx->series[i].smp, err))
			return -1;
	return 0;
}

size_t pr_aseries_lower(const struct pr_aseries *s, int64_t t)
{
	return s->n ? pr_parray_lower(s->smp, t) : 0;
}

double pr_aseries_at(const struct pr_aseries *s, int64_t t)
{
	size_t i = pr_aseries_lower(s, t);
	if (i < s->n && pr_aseries_t(s, i) == t) {
		while (i + 1 < s->n && pr_aseries_t(s, i + 1) == t)
			i++;
		return pr_aseries_v(s, i);
	}
	return i == 0 ? NAN : pr_aseries_v(s, i - 1);
}

static int contains(const struct pr_aspan *p, int64_t t)
{
	return p->dur == 0 ? t == p->ts : (t >= p->ts && t < p->ts + p->dur);
}

/* Spans are in start order; the innermost is the deepest, then the latest started. */
static const struct pr_aspan *innermost(const struct pr_aspan *v, size_t n, int64_t t)
{
	const struct pr_aspan *best = NULL;
	size_t i;
	for (i = 0; i < n && v[i].ts <= t; i++)
		if (contains(&v[i], t) && (!best || v[i].depth >= best->depth))
			best = &v[i];
	return best;
}

const struct pr_aspan *pr_actx_phase_at(const struct pr_actx *ctx, int64_t t)
{
	return innermost(ctx->phases, ctx->nphases, t);
}

const struct pr_aspan *pr_actx_step_at(const struct pr_actx *ctx, int64_t t)
{
	return innermost(ctx->steps, ctx->nsteps, t);
}

long pr_actx_step_index(const struct pr_actx *ctx, int64_t t)
{
	size_t lo = 0, hi = ctx->nsteps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ctx->steps[mid].ts <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	lo--;
	return t < ctx->steps[lo].ts + ctx->steps[lo].dur ? (long)lo : -1;
}

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
	static const char *const device[] = { "kernel",  "memcpy",   "memset",        "gpu",
					      "session", "profiler", "profiler_range" };
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(device); i++)
		if (!strcmp(kind, device[i]))
			return 0;
	return 1;
}

void pr_at_batch_row(struct pr_at_batch *a, sqlite3_stmt *st, int64_t ts, int64_t dur,
		     int col_id, int col_track, int col_depth, int col_name, int col_kind)
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

int pr_at_batch_answer(struct pr_actx *ctx, const struct pr_at_batch *a, const int64_t *t,
		       size_t n, json_t **out, struct pr_error *err)
{
	const struct at_best *b = a->b;
	sqlite3_stmt *st;
	size_t i, k;
	int rc;
	if (pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", &st, err))
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
			/* the inner join with string: a span whose name is missing does not count */
			sqlite3_bind_int64(st, 2, x->name_id);
			rc = sqlite3_step(st);
			if (rc == SQLITE_ROW)
				o = pr_jobj("name", json_string(pr_actx_text(st, 0)), "kind",
					    json_string(x->kind), "t_ns", pr_actx_t(ctx, x->ts), "dur_ns",
					    pr_jint(x->dur), NULL);
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
static int at_batch_has(const struct pr_at_batch *a, const int64_t *t, size_t n)
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

/*
 * The points the shared span pass answered (ctx->at, see spanstat.h), or
 * one scan for every time point: the host spans starting at or before the
 * last point, each tested against the points from its start on (sorted, so
 * a binary search finds the first). Before, each point was a query, and each
 * query a scan of the span table (issue 16: six scans on a trace with one
 * device).
 */
int pr_actx_spans_at(struct pr_actx *ctx, const int64_t *t, size_t n, json_t **out,
		     struct pr_error *err)
{
	struct pr_at_batch *a;
	sqlite3_stmt *st;
	int rc;
	if (!n)
		return 0;
	/* the shared pass answers the points gathered before the analyzers ran */
	if (ctx->at && !ctx->at_done && !pr_spanstat_get(ctx, err))
		return -1;
	if (ctx->at && ctx->at_done && at_batch_has(ctx->at, t, n))
		return pr_at_batch_answer(ctx, ctx->at, t, n, out, err);
	if (!(a = pr_at_batch_new(ctx, t, n, err)))
		return -1;
	if (pr_actx_prep(ctx,
			 "SELECT s.id, s.track_id, s.ts, s.dur, s.depth, s.name_id, s.kind FROM span s "
			 "WHERE s.run_id = ?1 AND s.ts <= ?2 "
			 "AND s.kind NOT IN ('kernel', 'memcpy', 'memset', 'gpu', 'session', "
			 "'profiler', 'profiler_range')",
			 &st, err)) {
		pr_at_batch_free(a);
		return -1;
	}
	sqlite3_bind_int64(st, 2, pr_at_batch_last(a));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		pr_at_batch_row(a, st, sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3), 0, 1,
				4, 5, 6);
	rc = pr_actx_done(ctx, st, rc, err);
	if (!rc)
		rc = pr_at_batch_answer(ctx, a, t, n, out, err);
	pr_at_batch_free(a);
	return rc;
}

int pr_actx_metric(struct pr_actx *ctx, const char *name, double *value)
{
	sqlite3_stmt *st;
	int found = 0;
	struct pr_error ignore = PR_ERROR_INIT;
	if (pr_actx_prep(ctx,
			 "SELECT value FROM metric WHERE run_id = ?1 AND name = ?2 AND origin = 'reported' "
			 "AND value IS NOT NULL ORDER BY id LIMIT 1",
			 &st, &ignore))
		return 0;
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*value = sqlite3_column_double(st, 0);
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

json_t *pr_actx_t(const struct pr_actx *ctx, int64_t ts)
{
	return pr_jint(pr_time_clamp(ts) - ctx->ts_min); /* ts_min is clamped too (model.c) */
}
