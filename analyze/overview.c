/* overview.c - builds struct pr_overview from the store. */
#include "analyze/overview.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "store/xalloc.h"

#define LIST_CAP 50

static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return pr_xstrdup(t ? (const char *)t : "");
}

static int64_t col_i64_or(sqlite3_stmt *st, int i, int64_t dflt)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? dflt : sqlite3_column_int64(st, i);
}

static int prep(sqlite3 *db, const char *sql, int64_t run, sqlite3_stmt **st, struct pr_error *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(*st, 1, run);
	return 0;
}

static int done(sqlite3 *db, sqlite3_stmt *st, int rc, struct pr_error *err)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	return 0;
}

static int load_spans(sqlite3 *db, struct pr_ov_run *r, const char *kind, struct pr_ov_span **out,
		      size_t *n, size_t *more, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (prep(db,
		 "SELECT n.value, s.ts, s.dur FROM span s JOIN string n ON n.id = s.name_id "
		 "WHERE s.run_id = ?1 AND (s.kind = ?2 OR (?2 = 'phase' AND s.kind IN "
		 "('section', 'stage'))) ORDER BY s.ts, s.id",
		 r->id, &st, err))
		return -1;
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	*out = pr_xcalloc(LIST_CAP, sizeof(**out));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == LIST_CAP) {
			(*more)++;
			continue;
		}
		(*out)[*n].name = col_str(st, 0);
		(*out)[*n].ts = sqlite3_column_int64(st, 1);
		(*out)[*n].dur = sqlite3_column_int64(st, 2);
		(*n)++;
	}
	return done(db, st, rc, err);
}

static int load_step_stats(sqlite3 *db, struct pr_ov_run *r, struct pr_error *err)
{
	sqlite3_stmt *st;
	double *v = NULL, sum = 0;
	size_t n = 0, cap = 0;
	int rc;
	if (prep(db, "SELECT dur FROM span WHERE run_id = ?1 AND kind = 'step'", r->id, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = pr_xreallocarray(v, cap, sizeof(*v));
		}
		v[n] = (double)sqlite3_column_int64(st, 0);
		sum += v[n++];
	}
	if (done(db, st, rc, err)) {
		free(v);
		return -1;
	}
	if (n) {
		pr_sort_doubles(v, n);
		r->step_stats.n = n;
		r->step_stats.mean = sum / (double)n;
		r->step_stats.min = v[0];
		r->step_stats.max = v[n - 1];
		r->step_stats.p50 = pr_quantile_sorted(v, n, 0.50);
		r->step_stats.p95 = pr_quantile_sorted(v, n, 0.95);
		r->step_stats.p99 = pr_quantile_sorted(v, n, 0.99);
	}
	free(v);
	return 0;
}

static int load_tops(sqlite3 *db, struct pr_ov_run *r, size_t top_n, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (prep(db,
		 "SELECT n.value, s.kind, count(*), sum(s.dur), sum(s.self), "
		 "min(s.dur), max(s.dur) FROM span s JOIN string n ON n.id = s.name_id "
		 "WHERE s.run_id = ?1 AND s.self IS NOT NULL GROUP BY s.name_id, s.kind "
		 "ORDER BY 5 DESC, n.value, s.kind LIMIT ?2",
		 r->id, &st, err))
		return -1;
	sqlite3_bind_int64(st, 2, (int64_t)top_n);
	r->tops = pr_xcalloc(top_n + 1, sizeof(*r->tops));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pr_ov_top *t = &r->tops[r->ntops++];
		t->name = col_str(st, 0);
		t->kind = col_str(st, 1);
		t->count = sqlite3_column_int64(st, 2);
		t->total = sqlite3_column_int64(st, 3);
		t->self = sqlite3_column_int64(st, 4);
		t->min = sqlite3_column_int64(st, 5);
		t->max = sqlite3_column_int64(st, 6);
	}
	return done(db, st, rc, err);
}

static int load_series(sqlite3 *db, struct pr_ov_run *r, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	size_t cap = 0;
	if (prep(db,
		 "SELECT name, device, unit, count, min, max FROM series WHERE run_id = ?1 "
		 "ORDER BY name, device",
		 r->id, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pr_ov_series *s;
		if (r->nseries == cap) {
			cap = cap ? cap * 2 : 16;
			r->series = pr_xreallocarray(r->series, cap, sizeof(*r->series));
		}
		s = &r->series[r->nseries++];
		s->name = col_str(st, 0);
		s->device = col_str(st, 1);
		s->unit = col_str(st, 2);
		s->count = sqlite3_column_int64(st, 3);
		s->min = sqlite3_column_double(st, 4);
		s->max = sqlite3_column_double(st, 5);
	}
	return done(db, st, rc, err);
}

static int load_diags(sqlite3 *db, struct pr_ov_run *r, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	size_t cap = 0;
	if (prep(db,
		 "SELECT code, count, line, col, message FROM diag WHERE run_id = ?1 ORDER BY code",
		 r->id, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pr_ov_diag *d;
		if (r->ndiags == cap) {
			cap = cap ? cap * 2 : 8;
			r->diags = pr_xreallocarray(r->diags, cap, sizeof(*r->diags));
		}
		d = &r->diags[r->ndiags++];
		d->code = col_str(st, 0);
		d->count = sqlite3_column_int64(st, 1);
		d->line = (long)col_i64_or(st, 2, 0);
		d->col = (long)col_i64_or(st, 3, 0);
		d->message = col_str(st, 4);
	}
	return done(db, st, rc, err);
}

#define METRIC_CAP 40

static int load_metrics(sqlite3 *db, struct pr_ov_run *r, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (prep(db,
		 "SELECT name, value, ifnull(unit, ''), ifnull(detail, '') FROM metric "
		 "WHERE run_id = ?1 AND origin = 'reported' ORDER BY id",
		 r->id, &st, err))
		return -1;
	r->metrics = pr_xcalloc(METRIC_CAP, sizeof(*r->metrics));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pr_ov_metric *m;
		if (r->nmetrics == METRIC_CAP) {
			r->more_metrics++;
			continue;
		}
		m = &r->metrics[r->nmetrics++];
		m->name = col_str(st, 0);
		m->has_value = sqlite3_column_type(st, 1) != SQLITE_NULL;
		m->value = sqlite3_column_double(st, 1);
		m->unit = col_str(st, 2);
		m->detail = col_str(st, 3);
	}
	return done(db, st, rc, err);
}

int pr_overview_build(struct pr_store *store, size_t top_n, struct pr_overview *ov,
		      struct pr_error *err)
{
	sqlite3 *db = pr_store_db(store);
	sqlite3_stmt *st;
	int rc;
	size_t cap = 0, i;

	memset(ov, 0, sizeof(*ov));
	if (prep(db,
		 "SELECT id, label, format, collector, rank, world_size, ts_min, ts_max, span_count, "
		 "sample_count, instant_count, time_synthetic FROM run ORDER BY id",
		 0, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pr_ov_run *r;
		if (ov->nruns == cap) {
			cap = cap ? cap * 2 : 4;
			ov->runs = pr_xreallocarray(ov->runs, cap, sizeof(*ov->runs));
		}
		r = &ov->runs[ov->nruns++];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(st, 0);
		r->label = col_str(st, 1);
		r->format = col_str(st, 2);
		r->collector = col_str(st, 3);
		r->rank = col_i64_or(st, 4, -1);
		r->world_size = col_i64_or(st, 5, -1);
		r->has_extent = sqlite3_column_type(st, 6) != SQLITE_NULL;
		r->ts_min = col_i64_or(st, 6, 0);
		r->ts_max = col_i64_or(st, 7, 0);
		r->spans = sqlite3_column_int64(st, 8);
		r->samples = sqlite3_column_int64(st, 9);
		r->instants = sqlite3_column_int64(st, 10);
		r->synthetic = sqlite3_column_int(st, 11);
	}
	if (done(db, st, rc, err))
		goto fail;
	for (i = 0; i < ov->nruns; i++) {
		struct pr_ov_run *r = &ov->runs[i];
		if (load_step_stats(db, r, err) ||
		    load_spans(db, r, "step", &r->steps, &r->nsteps, &r->more_steps, err) ||
		    load_spans(db, r, "phase", &r->phases, &r->nphases, &r->more_phases, err) ||
		    load_tops(db, r, top_n, err) || load_series(db, r, err) || load_diags(db, r, err) ||
		    load_metrics(db, r, err))
			goto fail;
	}
	return 0;
fail:
	pr_overview_release(ov);
	return -1;
}

static void free_spans(struct pr_ov_span *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

void pr_overview_release(struct pr_overview *ov)
{
	size_t i, j;
	for (i = 0; i < ov->nruns; i++) {
		struct pr_ov_run *r = &ov->runs[i];
		free(r->label);
		free(r->format);
		free(r->collector);
		free_spans(r->steps, r->nsteps);
		free_spans(r->phases, r->nphases);
		for (j = 0; j < r->ntops; j++) {
			free(r->tops[j].name);
			free(r->tops[j].kind);
		}
		free(r->tops);
		for (j = 0; j < r->nseries; j++) {
			free(r->series[j].name);
			free(r->series[j].device);
			free(r->series[j].unit);
		}
		free(r->series);
		for (j = 0; j < r->ndiags; j++) {
			free(r->diags[j].code);
			free(r->diags[j].message);
		}
		free(r->diags);
		for (j = 0; j < r->nmetrics; j++) {
			free(r->metrics[j].name);
			free(r->metrics[j].unit);
			free(r->metrics[j].detail);
		}
		free(r->metrics);
	}
	free(ov->runs);
	memset(ov, 0, sizeof(*ov));
}
