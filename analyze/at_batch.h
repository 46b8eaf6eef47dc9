/*
 * at_batch.h - the innermost host span at each of a batch of time points,
 * answered from the rows of a scan another module runs (internal to analyze/).
 */
#ifndef PR_AT_BATCH_H
#define PR_AT_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "analyze/actx.h"

struct sqlite3_stmt;

/*
 * The same lookups as a batch another scan feeds (spanstat.c): new with
 * the points; for every span row of a kind pr_at_batch_kind accepts (not a
 * device or profiler span), pr_at_batch_row with its start and duration and
 * the columns of its id, track, depth, name id and kind; then answer any of
 * the points (out as pr_actx_spans_at).
 */
struct pr_at_batch *pr_at_batch_new(struct pr_actx *ctx, const int64_t *t, size_t n,
				    struct pr_error *err);
int pr_at_batch_kind(const char *kind);
int64_t pr_at_batch_last(const struct pr_at_batch *a);
void pr_at_batch_row(struct pr_at_batch *a, struct sqlite3_stmt *st, int64_t ts, int64_t dur,
		     int col_id, int col_track, int col_depth, int col_name, int col_kind);
int pr_at_batch_answer(struct pr_actx *ctx, const struct pr_at_batch *a, const int64_t *t, size_t n,
		       json_t **out, struct pr_error *err) PR_MUST_CHECK;
/* Does the batch hold every one of t[0..n)? */
int pr_at_batch_has(const struct pr_at_batch *a, const int64_t *t, size_t n);
void pr_at_batch_free(struct pr_at_batch *a);

#endif
