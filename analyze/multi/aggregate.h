/*
 * aggregate.h - multi-rank aggregation: per-rank models folded into
 * mergeable cross-rank statistics, with straggler detection.
 * (analyze/multi/agg_impl.h lists the files: core, agg.json, stragglers, Inferix).
 *
 * USAGE
 *   struct pr_agg *a = pr_agg_new();
 *   for each rank: ingest it into a fresh store, then
 *       pr_agg_add_store(a, st, 0, path, &err);      (model per run, folded, freed)
 *   or  pr_agg_merge_file(a, "part.agg.json", &err);  (an agg.json of other ranks, streamed)
 *   json_t *head = pr_agg_head_json(a);               (agg.json but its "ranks")
 *   pr_agg_write(a, head, &out, &err);                (agg.json, the rows streamed)
 *   json_t *doc = pr_agg_to_json(a);                  (the whole "profreport-aggregate" v1)
 *   json_t *inf = pr_agg_to_inferix(a);               (Inferix's keys, intended values)
 *   pr_agg_free(a);
 *
 * Per rank the aggregate writes one row of headline numbers (agg.json's
 * "ranks": duration, step statistics, per-stage totals, collective time,
 * peaks, throughput, top spans, GPU shares; Inferix summary numbers) to a
 * scratch file (unlinked at once, in $TMPDIR or /tmp) and keeps in memory
 * only what the straggler checks compare (a few doubles a rank) and its
 * place in that file: about 200 bytes a rank (docs/performance.md). The
 * trace itself is never kept. pr_agg_write and pr_agg_merge_file stream
 * the rows, so writing or reading an agg.json of any size takes memory for
 * one row at a time; pr_agg_to_json and pr_agg_to_inferix build the whole
 * document (every row as a tree) and are for what needs all of it.
 *
 * Across ranks, every (category, kind, name) key - run headline numbers,
 * stages/phases, span names, collectives, series peaks, reported metrics -
 * has an accumulator: rank count, call count, exact sum and sum of squares
 * (Shewchuk partials, so the correctly rounded sum does not depend on the
 * order of folding), moments (Chan's merge, for std), min/max with the
 * rank that has them (ties: the lowest rank), and a DDSketch (stats.h) for
 * the median. Merging aggregates is exact for counts, sums, sums of
 * squares, min/max/argmin/argmax and the sketch (so the median); std comes
 * from Chan's merge of M2 and may differ from a one-pass fold in the last
 * bits. The exact state is written in agg.json ("state": hex floats), so an
 * aggregate of agg.json files equals the aggregate of all their ranks.
 *
 * Rank discovery, in order: the user's --ranks list or --rank-from regex
 * (pr_agg_set_ranks, pr_agg_rank_from), the run's rank from the trace
 * (distributedInfo, Inferix tags.rank, or what ingest derived from the
 * path), a `rank_<R>` directory or a file name `rank0`, `rank_3`,
 * `rank-3`, `worker7` in the path, else the lowest unused rank in input
 * order ("ranks inferred" warning). Two inputs with the same rank, or
 * with different world sizes, are an error (different jobs); byte-identical
 * inputs (same content hash) are counted once, with a warning.
 *
 * Stragglers: per stage/phase the rank's total, per collective (span names
 * matching nccl, c10d, allreduce, all_reduce, all_gather, allgather,
 * reduce_scatter, broadcast) its time in it, and the mean step time are
 * compared across ranks with the modified z-score 0.6745 (x - median) / MAD
 * (stats.h, meanAD fallback). A rank is a straggler when a stage or the
 * step time has z > 3.5 and x >= 1.2 x median, or a collective has
 * z < -3.5 and x <= 0.8 x median (the straggler waits least). At least 3
 * ranks are needed. GPU idle (the row's "gpu", from the model's
 * gpu_breakdown): a rank whose GPU idle share has z > 3.5, x >= 1.2 x
 * median (any x > 0 when the median is 0), x - median >= 5 points, and
 * whose idle time is >= 50 % host wait: its GPU idled waiting on its own
 * host while the others computed.
 *
 * OWNERSHIP: json_t results are new references (caller decrefs); inputs are
 * borrowed. LIMITATIONS: one thread; an agg.json of another version is an
 * error; the scratch file's failure (a full disk) fails the add that met it,
 * or the output, as PR_E_IO.
 */
#ifndef PR_AGGREGATE_H
#define PR_AGGREGATE_H

#include <stddef.h>

#include <jansson.h>

#include "base/error.h"
#include "base/output.h"
#include "store/store.h"

#define PR_AGG_SCHEMA "profreport-aggregate"
#define PR_AGG_VERSION 1
#define PR_AGG_Z 3.5
#define PR_AGG_SLOW_RATIO 1.2
#define PR_AGG_WAIT_RATIO 0.8
/* A stage or collective straggles only when its excess (or, for a
 * collective, its shortfall) is at least this share of the median run
 * duration: a 2 ms difference in a 500 ms run is not what holds it up. */
#define PR_AGG_MIN_SHARE 0.01
/* GPU idle straggler: its GPU idle share must exceed the median by this
 * many points (a fraction of the GPU span: 0.05 = 5 points), and at least
 * this share of its idle time must be host wait (the GPU waited for its own
 * host to launch work, HTA's idle split), besides z and the 1.2x ratio. */
#define PR_AGG_GPU_IDLE_POINTS 0.05
#define PR_AGG_GPU_HOST_WAIT 0.5
/* Critical-path straggler: a host-side class's share of the rank's critical
 * path must exceed the median share by this many points (0.05 = 5 points). */
#define PR_AGG_CP_POINTS 0.05
/* Up to this many ranks a stat keeps every value: exact median. */
#define PR_AGG_EXACT_MAX 1024

struct pr_agg;

struct pr_agg *pr_agg_new(void);
void pr_agg_free(struct pr_agg *a); /* NULL is fine */

/*
 * Builds the model of run run_id of st (every run when run_id is 0) and
 * folds it; path names the input (for rank discovery and the row's
 * "source"; NULL = the run's own source). Inferix raw-data runs are
 * skipped (their report carries the summary). Returns the number of runs
 * folded (>= 0) or -1 with err.
 */
int pr_agg_add_store(struct pr_agg *a, struct pr_store *st, long run_id, const char *path,
		     struct pr_error *err) PR_MUST_CHECK;
/*
 * What pr_agg_add_store does but the fold: the model of run run_id of st
 * (every run when 0, in id order) built as the aggregate builds it, and
 * fn(ctx, st, id, run, meta, err) called with its run object and the run's
 * store meta (borrowed), e.g. to fold it in another process (-j, cli/par.h).
 * fn returns what it folded (>= 0) or -1 (stops). Returns the sum or -1.
 */
typedef int pr_agg_model_fn(void *ctx, struct pr_store *st, long id, const json_t *run,
			    const json_t *meta, struct pr_error *err);
int pr_agg_store_models(struct pr_store *st, long run_id, pr_agg_model_fn *fn, void *ctx,
			struct pr_error *err) PR_MUST_CHECK;
/*
 * Folds one run object of a model ("runs"[i]); meta is the run's store
 * meta (may be NULL: no Inferix session id). Returns 1 (folded), 0
 * (skipped: Inferix raw data) or -1.
 */
int pr_agg_add_model_run(struct pr_agg *a, const json_t *run, const json_t *meta, const char *path,
			 struct pr_error *err) PR_MUST_CHECK;
/*
 * A new object holding only the paths of run that pr_agg_add_model_run
 * reads (objects and arrays rebuilt with only the keys read, references to
 * run's leaves): folding it folds the same. For handing a run to another
 * process (-j) in fewer bytes (a sixth of the keys' text for a generated
 * Kineto rank). A path the fold starts to read must be added to its table
 * (slim_paths in aggregate.c); tests/cli/t0166-agg-jobs-slim.sh has inputs
 * that reach every path of it, and fails when one is left out.
 */
json_t *pr_agg_run_slim(const json_t *run);
/* The same for a run's store meta (the meta passed to pr_agg_add_model_run):
 * a new object with only the keys the fold reads of it. */
json_t *pr_agg_meta_slim(const json_t *meta);
/*
 * Called by pr_agg_add_store after each run it folded, with that run's
 * store, id and rank (e.g. to copy the run's events into a merged trace
 * while its store is still open). A non-zero return stops the add, which
 * then fails with the err fn filled. fn NULL removes the hook.
 */
typedef int (*pr_agg_run_fn)(void *ctx, struct pr_store *st, long run_id, long rank,
			     struct pr_error *err);
void pr_agg_on_run(struct pr_agg *a, pr_agg_run_fn fn, void *ctx);
/* into += from (exact, see above); from is unchanged. -1 with err when a
 * scratch file fails (into then holds part of from's rows). */
int pr_agg_merge(struct pr_agg *into, const struct pr_agg *from,
		 struct pr_error *err) PR_MUST_CHECK;
/* Merges an agg.json document (checks schema and version); a is unchanged on error. */
int pr_agg_merge_json(struct pr_agg *a, const json_t *doc, struct pr_error *err) PR_MUST_CHECK;
/*
 * Merges an agg.json file as pr_agg_merge_json would its document, but
 * reads it in two passes: everything but "ranks" (any key order), then the
 * "ranks" rows one at a time, so memory does not grow with the file's rows.
 * Errors carry the line and column (PR_E_PARSE) or the check that failed;
 * a is unchanged on error. The caller sets err's source.
 */
int pr_agg_merge_file(struct pr_agg *a, const char *path, struct pr_error *err) PR_MUST_CHECK;

/*
 * Ranks stated by the user, which beat every other source:
 * pr_agg_rank_from: an extended regex over the input's path whose first
 * group holds the rank (its digits); an input it does not match is an
 * error. pr_agg_set_ranks: "0,1,2,3" or "0-3,8": the k-th input folded
 * gets the k-th rank; pr_agg_check_ranks (after the last input) fails
 * when the counts differ. Both fail with PR_E_USAGE on a bad argument.
 */
int pr_agg_rank_from(struct pr_agg *a, const char *regex, struct pr_error *err) PR_MUST_CHECK;
int pr_agg_set_ranks(struct pr_agg *a, const char *list, struct pr_error *err) PR_MUST_CHECK;
int pr_agg_check_ranks(const struct pr_agg *a, struct pr_error *err) PR_MUST_CHECK;

/* Ranks (rows) folded so far. */
size_t pr_agg_rank_count(const struct pr_agg *a);
/*
 * The agg.json document but its "ranks" array (stats, stragglers, state).
 * Deterministic. NULL when the scratch file fails (pr_agg_failed says why).
 */
json_t *pr_agg_head_json(const struct pr_agg *a);
/*
 * Writes agg.json to out: head (pr_agg_head_json(a)) and the rows read back
 * one at a time, the same bytes as pr_model_write of pr_agg_to_json(a)
 * (indented, 12 digits, a final newline). -1 with err when the scratch
 * file fails; a write error of out is left to pr_output_close.
 */
int pr_agg_write(const struct pr_agg *a, const json_t *head, struct pr_output *out,
		 struct pr_error *err) PR_MUST_CHECK;
/*
 * Sets doc's "ranks" (doc: from pr_agg_head_json): every row when brief is
 * 0; else the rows in full only for the first brief ranks and the first
 * brief + 1 ranks with a "gpu" part, null for the others - what the console
 * table reads (render/agg_text.h: at most 64 rows of each table, then a
 * count), so that it too takes memory for that many rows only.
 */
int pr_agg_ranks_into(const struct pr_agg *a, json_t *doc, size_t brief,
		      struct pr_error *err) PR_MUST_CHECK;
/* The whole agg.json document (every row as a tree); NULL as pr_agg_head_json. */
json_t *pr_agg_to_json(const struct pr_agg *a);
/* Inferix's aggregate keys with the values Inferix meant (FORMATS.md 001); NULL as above. */
json_t *pr_agg_to_inferix(const struct pr_agg *a);
/* -1 with err (PR_E_IO) when the scratch file of the rows has failed, else 0. */
int pr_agg_failed(const struct pr_agg *a, struct pr_error *err);

/* 1 when the file's head looks like an agg.json. */
int pr_agg_sniff(const char *path);

/*
 * Rank from a path: a `rank_<R>` / `rank-<R>` / `rank<R>` directory or file
 * name component, or `worker<R>`; the last component that has one wins
 * (a file name beats its directory). -1 when none.
 */
long pr_agg_rank_from_path(const char *path);

#endif
