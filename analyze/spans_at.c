/*
 * spans_at.c - pr_actx_spans_at (spans_at.h): the answers of the shared
 * span pass (spanstat.c) or one scan of its own (at_batch.c). Above both:
 * neither calls back.
 */
#include "analyze/spans_at.h"

#include <sqlite3.h>

#include "analyze/at_batch.h"
#include "analyze/spanstat.h"

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
	if (ctx->at && ctx->at_done && pr_at_batch_has(ctx->at, t, n))
		return pr_at_batch_answer(ctx, ctx->at, t, n, out, err);
	if (!(a = pr_at_batch_new(ctx, t, n, err)))
		return -1;
	if (pr_actx_prep(
		    ctx,
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
		pr_at_batch_row(a, st, sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3), 0,
				1, 4, 5, 6);
	rc = pr_actx_done(ctx, st, rc, err);
	if (!rc)
		rc = pr_at_batch_answer(ctx, a, t, n, out, err);
	pr_at_batch_free(a);
	return rc;
}
