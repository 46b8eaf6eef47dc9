/* actx.c - the analysis context: series, phases/steps, span lookup, JSON helpers. */
#include "analyze/actx.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "base/imap.h"
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

int pr_actx_metric(struct pr_actx *ctx, const char *name, double *value)
{
	sqlite3_stmt *st;
	int found = 0;
	struct pr_error ignore = PR_ERROR_INIT;
	if (pr_actx_prep(
		    ctx,
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
