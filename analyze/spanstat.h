/*
 * spanstat.h - the shared span pass: one unsorted pass over a run's span
 * table that feeds every analysis reading spans (internal to analyze/).
 *
 * USAGE
 *   const struct pr_spanstat *ss = pr_spanstat_get(ctx, &err);   (NULL on error)
 *   for (i = 0; i < ss->nby_total; i++) ... ss->g[ss->by_total[i]] ...
 *   if (pr_spanstat_detail(ctx, &err)) ...   then g->durs, g->per_step
 *
 * The pass (model.c runs it while it builds the context) reads every span
 * of the run in id order, with no sort and no join in SQLite (SQLite reads
 * a column only when asked, so a row costs what is taken from it), and
 *  - sums per (name id, kind), kinds session and profiler left out, what
 *    the GROUP BY queries of spans and bottlenecks summed: count, total,
 *    self, min, max and the sum of squares of the durations, once over all
 *    rows and once over the rows whose self time is known (bottlenecks' top
 *    tables). The sums are doubles added in id order, as SQLite's total()
 *    and sum() add the rows of a group (its sorter keeps a group's rows in
 *    scan order), so the model is the same to the bit;
 *  - keeps the steps and phases (sp, for the context), the device
 *    activities (dev, bottlenecks' GPU idle) and the captures (rows some
 *    recommendations read);
 *  - feeds the GPU analyses' rows (gpuscan.h), the spans at the time
 *    points of peaks and fragmentation (ctx->at, actx.h) and flame's tree
 *    (ctx->flame).
 * Before, these cost more than a dozen scans of the span table, five of
 * them sorted; on a 1 GB trace about 10 s of the 12.5 s of a summary.
 *
 * pr_spanstat_detail is the second pass, one for both analyzers: the
 * sorted durations of the groups of bottlenecks' two top tables (their
 * medians) and the time per step of spans' first pr_spanstat_per_step_groups()
 * groups (per_step_ns), in id order. Which groups those are is known only
 * once every span is summed, so the first pass writes each counted span's
 * group, start and duration (20 bytes) to a stream (base/spill.h: memory
 * up to pr_spanstat_rec_mem, then an unlinked scratch file), and the second
 * reads that back instead of the span table (a scan of which cost 0.35 s
 * of the 2 s of a 1 GB trace's analysis).
 *
 * MEMORY: one record per (name, kind), pr_spanstat_dev_mem for the device
 * activities, at most pr_spanstat_rec_mem of the stream and, in the second
 * pass, 8 bytes per span of a group whose durations are wanted.
 * OWNERSHIP: the context owns the statistics (pr_spanstat_free from model.c).
 */
#ifndef PR_SPANSTAT_H
#define PR_SPANSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/actx.h"
#include "analyze/spanbudget.h"

struct pr_spill;
struct pr_xsort;

struct pr_spanstat_sums {
	int64_t count, min, max;
	double total, self, sumsq; /* self: of the rows with a self time */
};

struct pr_spanstat_group {
	int64_t name_id;
	char *name;    /* NULL: the name id has no string (SQLite's join drops the group) */
	uint32_t kind; /* index into kinds */
	struct pr_spanstat_sums all, known; /* known: rows whose self is not NULL */
	/* second pass */
	int64_t *durs; /* sorted ascending, ndurs (all rows of the group) */
	size_t ndurs;
	double *per_step; /* ctx->nsteps values */
};

/* A span row the pass kept for a capture (below). */
struct pr_capture_row {
	int64_t id, track, ts, dur, name_id, parent; /* parent 0 when NULL */
	int has_parent;
};

/*
 * Captures: the rows of a few kinds whose names match SQL LIKE patterns
 * (matched by SQLite against the string table before the pass), kept in id
 * order for the recommendations that read them (each was a scan of the
 * span table with the same filter).
 */
enum pr_capture_id {
	PR_CAP_DATALOADER, /* kinds op, phase, slice; LIKE 'enumerate(DataLoader)%' */
	PR_CAP_NCCL,	   /* kind kernel; communication by kclass.h (not LIKE) */
	PR_CAP_SYNC_COPY,  /* kind runtime; LIKE '%Memcpy%' OR LIKE '%Synchronize' */
	PR_CAP_N
};

struct pr_capture {
	struct pr_capture_row *rows;
	size_t n, cap;
};

struct pr_spanstat {
	struct pr_spanstat_group *g;
	size_t n;
	char **kinds;
	size_t nkinds;
	/* Group indexes in spans' order: total DESC, name, kind (named groups only). */
	size_t *by_total, nby_total;
	/* bottlenecks' tables: groups with a known self time, by known.self
	 * (top_self) or known.total (top_total) DESC, name, kind; top_n at most */
	size_t *top_self, ntop_self, *top_total, ntop_total;
	int detailed;	      /* pr_spanstat_detail ran */
	struct pr_spill *rec; /* the counted spans for the second pass (group, ts, dur) */
	/* (ts, dur) of every kernel, memcpy and memset, for bottlenecks' GPU idle,
	 * which sorts them by ts (an external sort: pr_spanstat_dev_mem of memory,
	 * the rest in a scratch file; it was 16 bytes per activity), with their
	 * count and the active range (the earliest start and the latest end,
	 * clamped as pr_span_clamp) */
	struct pr_xsort *dev;
	size_t ndev;
	int64_t dev_first, dev_last;
	/* the steps and phases (kinds step, phase, section, stage) in id order, for
	 * model.c's context (it takes and frees them) */
	struct pr_spanstat_sp {
		int64_t id, ts, dur, name_id;
		uint32_t kind;
	} * sp;
	size_t nsp;
	/* steps (0) and phases (1) past pr_spanstat_sp_max of their class, left out of sp;
	 * groups past pr_spanstat_groups_max: how many names (approximately: the
	 * spans) and spans went to the one group per kind that holds them */
	size_t sp_over[2], over_spans;
	struct pr_capture capture[PR_CAP_N];
	/* timeline's merged intervals of the top-level spans (depth 0 or NULL;
	 * kinds session and profiler left out), made on the way (an_timeline.c,
	 * which frees them) */
	struct pr_tlanes *tl;
};

#define PR_SPANSTAT_PER_STEP 100 /* spans' groups with per-step times, at most */
/* Per-step times kept in all (groups x steps): past 1310 steps, fewer groups get them, so that
 * the model of a long run does not grow with its steps (2^17 values: 1 MiB here, about 5 MB
 * in the model). */
#define PR_SPANSTAT_STEP_VALUES ((size_t)1 << 17)
/* How many groups of by_total get per-step times in a run of nsteps steps (0 without steps,
 * at least 1 with). */
size_t pr_spanstat_per_step_groups(size_t nsteps);
/* The budgets (pr_spanstat_sp_max and the others): spanbudget.h. */

const struct pr_spanstat *pr_spanstat_get(struct pr_actx *ctx, struct pr_error *err);
/*
 * The second pass (once per run; later calls return at once, as does a
 * call before pr_spanstat_get): the sorted durations (durs, all rows of
 * the group) of the top_self and top_total groups, unless there are more
 * than pr_spanstat_keep_max of them, and when the run has steps, the time
 * per step of the first pr_spanstat_per_step_groups() groups of by_total (spans of
 * kind step left out; a span counts in the step whose interval holds its
 * start).
 */
int pr_spanstat_detail(struct pr_actx *ctx, struct pr_error *err) PR_MUST_CHECK;
/* Frees the durations and the device activities (bottlenecks, their reader, is done). */
void pr_spanstat_release(struct pr_actx *ctx);
/* Spans of that kind (any name; kinds session and profiler are not counted). */
size_t pr_spanstat_kind_count(const struct pr_spanstat *ss, const char *kind);
/* Spans of that kind and name (a group with no string for its name counts none). */
size_t pr_spanstat_count(const struct pr_spanstat *ss, const char *kind, const char *name);
void pr_spanstat_free(struct pr_spanstat *ss);

#endif
