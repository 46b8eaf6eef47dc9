/*
 * gpuscan.h - one pass over a run's spans shared by the GPU analyses
 * (gpu_breakdown, gpu) (internal to analyze/).
 *
 * USAGE
 *   const struct pr_gpuscan *gs = pr_gpuscan_get(ctx, &err);   (NULL on error)
 *   for (i = 0; i < gs->n; i++) ... gs->r[i].kind, gs->r[i].ts, ...
 *
 * The first call reads (unless the shared span pass of spanstat.h already
 * did, see pr_gpuscan_start), in id order and with no sort in SQLite, the spans
 * the GPU analyses look at: kernels, memcpys, memsets and runtime calls
 * (with their args), phases, steps, GPU annotations and GPU steps, and the
 * ops named as TensorBoard's DataLoader; the device activities and runtime
 * calls with their parent and grandparent, from the store's span_up (the
 * writer's nesting; joining each row to its ancestors cost about half of
 * the pass). The CPU ops, most of a trace's spans, are not read: the
 * step breakdown takes where they ran from the store's op_cover. The
 * result is cached in the context until the run is done (before, the two
 * analyses cost three scans of the span table, two of them sorted: on a
 * 1 GB trace more than the ingest).
 *
 * MEMORY: 96 bytes per row read, plus its args (about 100 MB on a 1 GB trace).
 * OWNERSHIP: the context owns the scan (pr_gpuscan_free from model.c).
 */
#ifndef PR_GPUSCAN_H
#define PR_GPUSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/actx.h"

enum pr_gk {
	PR_GK_NONE, /* no such span */
	PR_GK_OP,
	PR_GK_RUNTIME,
	PR_GK_KERNEL,
	PR_GK_MEMCPY,
	PR_GK_MEMSET,
	PR_GK_PHASE,
	PR_GK_STEP,
	PR_GK_GPU_ANN,  /* gpu_annotation */
	PR_GK_GPU_STEP, /* gpu_step */
	PR_GK_OTHER
};

#define PR_GA_NULL 1   /* args is NULL */
#define PR_GA_NOKEYS 2 /* args_keys is not an integer */

/* A span's parent or grandparent (its kind is the row's pkind / qkind). */
struct pr_gpuanc {
	int64_t name, parent;
};

struct pr_gpurow {
	int64_t track, ts, dur, name;
	int64_t akeys;        /* argkeys id (unless PR_GA_NOKEYS) */
	size_t aoff;          /* args: text + aoff, NUL-terminated, alen bytes */
	uint32_t alen;
	uint8_t kind, aflags; /* enum pr_gk, PR_GA_* */
	uint8_t pkind, qkind; /* parent's and grandparent's kinds (PR_GK_NONE: none, or
			       * not an activity or runtime call) */
	struct pr_gpuanc p, q;
	int64_t pts;          /* the parent's start */
};

struct pr_gpuscan {
	struct pr_gpurow *r;
	size_t n;
	int64_t *dl;  /* name ids of TensorBoard's DataLoader spans, ascending */
	size_t ndl;
	char *text;   /* args of the GPU rows */
	size_t ntext;
	/* while the pass runs: capacities and the rows' span ids */
	size_t cap, tcap;
	int64_t *ids;
};

const struct pr_gpuscan *pr_gpuscan_get(struct pr_actx *ctx, struct pr_error *err);
/*
 * The pass inside another one (spanstat.c's scan of every span, in id
 * order): start (the DataLoader names), then for each span that
 * pr_gpuscan_wants, pr_gpuscan_add, then finish, which reads the
 * ancestors and hands the scan to the context (pr_gpuscan_get returns it);
 * on error finish frees gs. args NULL: SQL NULL; has_keys: args_keys is an
 * integer.
 */
struct pr_gpuscan *pr_gpuscan_start(struct pr_actx *ctx, struct pr_error *err);
int pr_gpuscan_wants(const struct pr_gpuscan *gs, uint8_t kind, int64_t name_id);
void pr_gpuscan_add(struct pr_gpuscan *gs, int64_t id, uint8_t kind, int64_t track, int64_t ts,
		    int64_t dur, int64_t name, int has_keys, int64_t akeys, const char *args,
		    size_t alen);
int pr_gpuscan_finish(struct pr_actx *ctx, struct pr_gpuscan *gs, struct pr_error *err)
	PR_MUST_CHECK;
/* Is name_id a DataLoader name ("enumerate(DataLoader)#....__next__")? */
int pr_gpuscan_is_dataloader(const struct pr_gpuscan *gs, int64_t name_id);
void pr_gpuscan_free(struct pr_gpuscan *gs);
/* Stable sort of idx[0..n) by key(idx[i]) ascending (LSD radix); keys[i] is idx[i]'s key. */
void pr_gpuscan_sort(uint32_t *idx, int64_t *keys, size_t n);
/* enum pr_gk of a kind text (NULL: PR_GK_NONE). */
uint8_t pr_gpuscan_kind(const char *kind);

#endif
