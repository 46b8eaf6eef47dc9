/* actx.c - the analysis context: series, phases/steps, span lookup, JSON helpers. */
#include "analyze/actx.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

int pr_actx_prep_ids(struct pr_actx *ctx, const char *prefix, const int64_t *ids, size_t n,
		     const char *suffix, sqlite3_stmt **st, struct pr_error *err)
{
	struct pr_strbuf sql = PR_STRBUF_INIT;
	size_t i;
	int rc;
	pr_strbuf_addstr(&sql, prefix);
	for (i = 0; i < n; i++)
		pr_strbuf_addf(&sql, "%s%lld", i ? "," : "", (long long)ids[i]);
	pr_strbuf_addstr(&sql, suffix);
	rc = pr_actx_prep(ctx, sql.buf, st, err);
	pr_strbuf_release(&sql);
	return rc;
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

int pr_actx_load(struct pr_actx *ctx, struct pr_aseries *s, struct pr_error *err)
{
	sqlite3_stmt *st;
	size_t cap;
	int rc;
	if (s->loaded)
		return 0;
	if (pr_actx_prep(ctx, "SELECT ts, value FROM sample WHERE series_id = ?2 ORDER BY ts, seq",
			 &st, err))
		return -1;
	sqlite3_bind_int64(st, 2, s->id);
	cap = s->count > 0 ? (size_t)s->count : 16;
	s->ts = pr_xreallocarray(NULL, cap, sizeof(*s->ts));
	s->v = pr_xreallocarray(NULL, cap, sizeof(*s->v));
	s->n = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (s->n == cap) {
			cap *= 2;
			s->ts = pr_xreallocarray(s->ts, cap, sizeof(*s->ts));
			s->v = pr_xreallocarray(s->v, cap, sizeof(*s->v));
		}
		s->ts[s->n] = pr_time_clamp(sqlite3_column_int64(st, 0)); /* timecheck.h */
		s->v[s->n++] = sqlite3_column_double(st, 1);
	}
	s->loaded = 1;
	return pr_actx_done(ctx, st, rc, err);
}

size_t pr_aseries_lower(const struct pr_aseries *s, int64_t t)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->ts[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

double pr_aseries_at(const struct pr_aseries *s, int64_t t)
{
	size_t i = pr_aseries_lower(s, t);
	if (i < s->n && s->ts[i] == t) {
		while (i + 1 < s->n && s->ts[i + 1] == t)
			i++;
		return s->v[i];
	}
	return i == 0 ? NAN : s->v[i - 1];
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

json_t *pr_actx_span_at(struct pr_actx *ctx, int64_t t, struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *out = json_null();
	int rc;
	/* prepared once per run (issue 12: preparing it per call was half the
	 * time of a run with thousands of devices); reset after each use */
	if (!ctx->span_at_st &&
	    pr_actx_prep(ctx,
			 "SELECT n.value, s.kind, s.ts, s.dur FROM span s JOIN string n ON n.id = s.name_id "
			 "JOIN track k ON k.id = s.track_id "
			 "WHERE s.run_id = ?1 AND s.ts <= ?2 AND s.ts + s.dur >= ?2 "
			 "AND s.kind NOT IN ('kernel', 'memcpy', 'memset', 'gpu', 'session', 'profiler') "
			 "AND k.kind <> 'gpu_stream' "
			 "ORDER BY s.depth DESC, s.ts DESC, s.id LIMIT 1",
			 &ctx->span_at_st, err))
		return NULL;
	st = ctx->span_at_st;
	sqlite3_bind_int64(st, 2, t);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		json_decref(out);
		out = pr_jobj("name", json_string(pr_actx_text(st, 0)), "kind",
			      json_string(pr_actx_text(st, 1)), "t_ns",
			      pr_actx_t(ctx, sqlite3_column_int64(st, 2)), "dur_ns",
			      pr_jint(sqlite3_column_int64(st, 3)), NULL);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(ctx->db));
		json_decref(out);
		return NULL;
	}
	return out;
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
