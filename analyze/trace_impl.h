/*
 * trace_impl.h - the trace view's row collector (trace_rows.c), shared by
 * the pieces of the trace view: the shared span pass feeds it
 * (spanstat.c) and an_trace.c reads it (internal to analyze/).
 */
#ifndef PR_TRACE_IMPL_H
#define PR_TRACE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/actx.h"

struct sqlite3_stmt;
struct pr_spill;

#define TR_MAXW 2
#define EXT_REC (sizeof(struct cand) + 1) /* a candidate past a step's end, and its windows */

struct trwin {
	int64_t t0, base_end, hi, end; /* [t0, end): end in [base_end, hi] once known */
	int closed;		       /* the run's end: a zero-length span at end is in */
	char *label;
};

struct cand {
	int64_t id, ts, dur, track, name_id, self;
	uint32_t kind;
	int has_self;
};

struct pr_trace {
	struct trwin w[TR_MAXW];
	size_t nw;
	int steps; /* windows of steps: their end waits for the correlations */
	struct cand *heap;
	size_t nheap, bound;
	int64_t max_evicted;
	uint64_t evicted, seen, sure, ext_n;
	struct pr_spill *ext; /* (candidate, mask) of spans past every step's CPU end they reach */
};

/* The trace view's windows and candidates (an_trace.c), fed by the shared span pass every
 * span of a kind it counts (not session or profiler) in id order (row: its start, duration,
 * name id and kind index, and the columns of its id, track and self time, read only for a
 * span in a window); new reads the windows' steps
 * (0, or -1 with err: a --window naming no step); free: NULL is fine. */
struct pr_trace;
int pr_trace_new(struct pr_actx *ctx, struct pr_trace **out, struct pr_error *err) PR_MUST_CHECK;
void pr_trace_row(struct pr_trace *tr, struct sqlite3_stmt *st, int64_t ts, int64_t dur,
		  int64_t name_id, uint32_t kind, int col_id, int col_track, int col_self);
void pr_trace_free(struct pr_trace *tr);
/* The trace view's slices at most (PR_TRACE_BOUND; tests lower it). */
extern size_t pr_trace_bound;
/* Offers a candidate to the bounded heap of the longest spans. */
void pr_trace_offer(struct pr_trace *tr, const struct cand *c);

#endif
