/*
 * agg_impl.h - what the pieces of the multi-rank aggregate share (private
 * to analyze/multi/aggregate.c and analyze/multi/agg_*.c; callers use analyze/multi/aggregate.h).
 *
 * The aggregate is split along its seams:
 *   aggregate.c       the accumulators, rank discovery, folding one run (from
 *                     a model or a store), merging, agg.json files
 *   agg_json.c        agg.json: writing (pr_agg_to_json) and reading back
 *                     (pr_agg_merge_json), hex floats, exact state
 *   agg_stragglers.c  the straggler checks and collective arrival analysis
 *   agg_inferix.c     Inferix's keys: the row's "inferix" part and the
 *                     aggregate in Inferix's form (pr_agg_to_inferix)
 * Exact sums are base/xsum.h. Functions shared between the files carry
 * the pr_agg_ prefix and are declared here.
 *
 * OWNERSHIP: as analyze/multi/aggregate.h; the aggregate owns its rows, columns
 * and scratch file.
 */
#ifndef PR_AGG_IMPL_H
#define PR_AGG_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>
#include <regex.h>

#include "analyze/multi/aggregate.h"
#include "base/imap.h"
#include "base/stats.h"
#include "base/xsum.h"
#include "base/pr_common.h"
#include "base/strbuf.h"
#include "base/strmap.h"

/* A stat's category; agg.json names them (agg_json.c). */
enum {
	CAT_RUN,
	CAT_STAGE,
	CAT_COLLECTIVE,
	CAT_SPAN,
	CAT_PEAK,
	CAT_METRIC,
	CAT_GPU,
	CAT_N
};

struct agg_stat {
	int cat;
	char *kind, *name, *unit;
	uint64_t ranks;
	struct pr_xsum calls, sum, sumsq;
	struct pr_moments mom;
	double min, max;
	long argmin, argmax;
	struct pr_sketch *sk;
	/* Every rank's value while there are at most PR_AGG_EXACT_MAX (exact = 1):
	 * the median is then exact; beyond, the sketch answers. */
	double *vals;
	size_t nvals;
	int exact;
};

/*
 * A rank's row. Its JSON (what agg.json's "ranks" holds) is not kept in
 * memory: it goes to the scratch file (struct agg_spill) as one record -
 * the source path, the content hash, then the row as compact JSON with
 * every real to 17 digits, so that reading it back gives the same tree -
 * and is read back only to write the document. What the straggler checks
 * need stays here as plain doubles (NAN: absent), and the row's "stages"
 * and "collectives" values in the columns (struct agg_col): tens of bytes a
 * rank, where a jansson tree of the row costs about 9 KB.
 */
struct agg_row {
	long rank;
	uint64_t off;  /* the record in the scratch file */
	uint32_t slen; /* its parts' lengths: source, content hash, row JSON */
	uint32_t hlen;
	uint32_t jlen;
	uint32_t inferred;		  /* 1: "rank_source" is "inferred" */
	double duration_ns, step_mean_ns; /* the row's duration_ns and steps.mean_ns */
	double gpu_idle, gpu_host_wait;	  /* its GPU idle share and the host-wait share of that */
};

/* The scratch file of the rows: unlinked when made, so nothing is left behind. */
struct agg_spill {
	FILE *f;
	uint64_t len; /* bytes appended */
	int err;      /* errno of the first failure (sticky), 0: none */
	char *buf;    /* the last record part read (NUL-terminated) */
	size_t cap;
};

/*
 * One key of the rows' "stages" (field 0) or "collectives" (field 1) or
 * "perf" (field 2) objects, or a critical-path class's share of the row's
 * path (field 3, from "critical_path"): the value of every row that has it
 * as a number, by row index.
 */
enum {
	AGG_F_STAGE,
	AGG_F_COLLECTIVE,
	AGG_F_PERF,
	AGG_F_CRITPATH
};
/* The critical path's classes the straggler check judges (host-side: a rank's own time). */
#define PR_AGG_CP_NCLASSES 3
extern const char *const pr_agg_cp_classes[PR_AGG_CP_NCLASSES];
struct agg_col {
	char *name;
	int field;
	uint32_t *row;
	double *val;
	size_t n, alloc;
};

/*
 * Collective arrival order: per collective (kind, name) and step index, the
 * least time a rank spent in it and that rank (ties: the lower rank).
 * Ranks issue collectives in the same order, so step k's call is the same
 * call everywhere; the rank that spent the least time in it arrived last
 * and the others waited for it (HTA's late start, counted per step like
 * nsys' nccl_straggler). Keeping the lesser is exact under merging.
 */
struct agg_arrival {
	char *kind, *name;
	size_t n;      /* steps */
	double *least; /* ns; NAN: no rank yet */
	long *rank;    /* -1: no rank yet */
};
#define ARRIVAL_CAP 64	      /* collectives tracked */
#define ARRIVAL_STEPS 1000000 /* steps tracked per collective */
#define ARRIVAL_P 0.01	      /* binomial p-value (Bonferroni over ranks) to name a rank */

struct pr_agg {
	struct agg_arrival *arr;
	size_t narr;
	struct agg_stat *st;
	size_t nst, stalloc;
	struct pr_strmap idx; /* "cat\x1fkind\x1fname" -> index */
	struct agg_row *rows;
	size_t nrows, rowalloc;
	struct agg_spill *spill; /* NULL until the first row */
	struct agg_col *cols;
	size_t ncols;
	struct pr_strmap colidx; /* "field\x1fname" -> index in cols */
	struct pr_imap by_rank;	 /* rank -> the first row with it */
	int64_t min_rank_row;	 /* the first row with rank INT64_MIN + 1; 0: none */
	struct pr_imap by_hash;	 /* content hash (64 bits, probed on) -> the last row with it */
	pr_agg_run_fn on_run;
	void *on_run_ctx;
	json_t *warnings; /* array of strings */
	int inferred;
	long world_size;
	char *world_size_src; /* the first input that stated world_size */
	/* Ranks stated by the user: a regex over the path, or a list in input order. */
	regex_t rank_re;
	int has_rank_re;
	long *user_ranks;
	size_t nuser_ranks, next_user_rank;
	struct pr_strbuf key; /* scratch for the keys of idx and colidx */
};

/* ---- aggregate.c ------------------------------------------------------ */

/* The (cat, kind, name) accumulator, made empty on first use. */
struct agg_stat *pr_agg_stat_get(struct pr_agg *a, int cat, const char *kind, const char *name,
				 const char *unit);
/* into += from (exact but for std, see aggregate.h). */
void pr_agg_stat_merge(struct agg_stat *into, const struct agg_stat *from);
/* The (kind, name) collective's arrival record with room for n steps; NULL past the caps. */
struct agg_arrival *pr_agg_arrival_get(struct pr_agg *a, const char *kind, const char *name,
				       size_t n);
/* Keeps rank as step k's arrival when it spent less than the one kept (ties: lower rank). */
void pr_agg_arrival_note(struct agg_arrival *ar, size_t k, double v, long rank);
/*
 * Appends a row: j goes to the scratch file and is released (taken even on
 * failure); what the straggler checks need is kept; its rank and content
 * hash are indexed. -1 with err when the scratch file fails.
 */
int pr_agg_add_row(struct pr_agg *a, long rank, const char *source, json_t *j,
		   struct pr_error *err) PR_MUST_CHECK;
/*
 * Reads back a row's source path (a string in the scratch file's buffer,
 * valid until the next read) or its JSON (a new tree). NULL when the
 * scratch file fails; pr_agg_failed then says why.
 */
const char *pr_agg_row_source(const struct pr_agg *a, const struct agg_row *r);
json_t *pr_agg_row_json(const struct pr_agg *a, const struct agg_row *r);
/* The row's JSON as kept (compact, 17 digits: ROW_DUMP_FLAGS), *n bytes in
 * the scratch file's buffer, valid until the next read; NULL as above. */
const char *pr_agg_row_text(const struct pr_agg *a, const struct agg_row *r, size_t *n);
/* Adds a warning unless the same text is there already. */
void pr_agg_warnf(struct pr_agg *a, const char *fmt, ...) PR_PRINTF_LIKE(2, 3);
/* A row's GPU share part / whole from its "gpu" ns; NAN when whole is not > 0. */
double pr_agg_gpu_share(const json_t *g, const char *part, const char *whole);
/* The (field, name) column, made empty on first use. */
struct agg_col *pr_agg_col_get(struct pr_agg *a, int field, const char *name);
/* The rows in rank order (ties: source, then the order added), a new array
 * the caller frees; *distinct = the number of distinct ranks. */
struct agg_row **pr_agg_rows_sorted(const struct pr_agg *a, size_t *distinct);

/* ---- agg_stragglers.c ------------------------------------------------- */

/* The "stragglers" object of agg.json into out: checks, named ranks and the rule
 * (from the rows' doubles and columns; the named ranks' sources are read back). */
void pr_agg_stragglers(const struct pr_agg *a, struct agg_row **rows, size_t n, size_t nranks,
		       json_t *out);
/* agg.json's "collective_arrivals": each collective's arrival record (by name, kind). */
json_t *pr_agg_arrivals_json(const struct pr_agg *a, size_t nranks);

/* ---- agg_inferix.c ---------------------------------------------------- */

/* A row's "inferix" part: session id, duration and the reported summary.gpu/cpu numbers. */
json_t *pr_agg_inferix_part(const json_t *run, const json_t *meta);
/* 1 when the run's own diagnostics call its GPU numbers meaningless (Inferix's all-zero GPU
 * snapshots: inferix_gpu_data_zero); such numbers are not aggregated. */
int pr_agg_gpu_meaningless(const json_t *run);
/* A reported GPU number of an Inferix report: summary.gpu.* or gpu_metrics.*. */
int pr_agg_gpu_metric(const char *name);

#endif
