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
 * The args are read on the way, not kept: each row holds its
 * "correlation" and, for device activities, "bytes", "blocks per SM" and
 * "est. achieved occupancy %", parsed as the two analyses parsed them
 * (their readers moved here; their key positions come from argkeys, once
 * per key list).
 *
 * MEMORY: 80 bytes per row read (about 47 MB on a 1 GB trace; with the
 * args text it was 141), in chunks that the gpu analysis frees as it
 * copies them (pr_gpuscan_consume).
 * OWNERSHIP: the context owns the scan; the gpu analysis, its last reader,
 * frees it (pr_gpuscan_drop) once it has taken its rows.
 */
#ifndef PR_GPUSCAN_H
#define PR_GPUSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/actx.h"
#include "analyze/imap.h"

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

#define PR_GPU_NO_CORR INT64_MIN /* a row without a (readable) correlation */
/* cflags: where the gpu_breakdown's reading of the correlation differs from corr */
#define PR_GC_QUOTED 1 /* corr was a string ("123"): gpu_breakdown reads none */
#define PR_GC_LONG 2   /* corr has 19 or more digits: gpu only reads none, corr is gpu_breakdown's */

struct pr_gpurow {
	int64_t ts, dur, name;
	int64_t corr;      /* "correlation" as the gpu analysis reads it, PR_GPU_NO_CORR; see cflags */
	uint32_t track;    /* index into the scan's tracks */
	uint8_t kind;      /* enum pr_gk */
	uint8_t pkind, qkind; /* parent's and grandparent's kinds (PR_GK_NONE: none, or not an
			       * activity or runtime call) */
	uint8_t cflags;    /* PR_GC_* */
	union {
		struct {       /* PR_GK_RUNTIME */
			int64_t pname, qname; /* the parent's and grandparent's names */
			int64_t above;        /* the parent of the highest of them, 0 = none */
		} call;
		struct {       /* PR_GK_KERNEL, PR_GK_MEMCPY, PR_GK_MEMSET */
			int64_t pname, pts;   /* the parent's name and start */
			double bytes, bps, occ; /* the args "bytes", "blocks per SM", "est.
						 * achieved occupancy %"; NAN where absent */
		} act;
	} u;
};

/* Rows in chunks of PR_GPUSCAN_CHUNK (2.5 MB), so that a reader can give them back as it goes. */
#define PR_GPUSCAN_CHUNK_BITS 15
#define PR_GPUSCAN_CHUNK ((size_t)1 << PR_GPUSCAN_CHUNK_BITS)

struct pr_gpuscan {
	struct pr_gpurow **chunk; /* row i: chunk[i / PR_GPUSCAN_CHUNK][i % PR_GPUSCAN_CHUNK] */
	size_t n, nchunks;
	size_t consumed; /* chunks freed by pr_gpuscan_consume (the first ones) */
	int64_t *tracks; /* track ids of the rows' track indexes */
	size_t ntracks;
	int64_t *dl;  /* name ids of TensorBoard's DataLoader spans, ascending */
	size_t ndl;
	/* while the pass runs */
	struct pr_actx *ctx;
	size_t idcap;
	int64_t *ids;  /* the rows' span ids */
	struct pr_gpukeys *keys; /* per argkeys list read: the positions of the args above */
	size_t nkeys, kcap;
	struct pr_imap key_idx, track_idx;
	int64_t last_key, last_track;
	size_t last_key_i;
	uint32_t last_track_i;
	struct sqlite3_stmt *key_st;
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
int pr_gpuscan_add(struct pr_gpuscan *gs, int64_t id, uint8_t kind, int64_t track, int64_t ts,
		   int64_t dur, int64_t name, int has_keys, int64_t akeys, const char *args,
		   size_t alen, struct pr_error *err) PR_MUST_CHECK;
int pr_gpuscan_finish(struct pr_actx *ctx, struct pr_gpuscan *gs, struct pr_error *err)
	PR_MUST_CHECK;
/* Is name_id a DataLoader name ("enumerate(DataLoader)#....__next__")? */
int pr_gpuscan_is_dataloader(const struct pr_gpuscan *gs, int64_t name_id);
void pr_gpuscan_free(struct pr_gpuscan *gs);
/* Frees the context's scan (its last reader is done with it). */
void pr_gpuscan_drop(struct pr_actx *ctx);
/* Frees the chunks of the rows before upto: the last reader, going in row order, is done with
 * them (they must not be read again). */
void pr_gpuscan_consume(struct pr_actx *ctx, size_t upto);
static inline const struct pr_gpurow *pr_gpuscan_row(const struct pr_gpuscan *gs, size_t i)
{
	return &gs->chunk[i >> PR_GPUSCAN_CHUNK_BITS][i & (PR_GPUSCAN_CHUNK - 1)];
}
/* The correlation as gpu_breakdown reads it: -1 where none. */
int64_t pr_gpurow_corr_break(const struct pr_gpurow *r);
/* The correlation as the gpu analysis reads it: PR_GPU_NO_CORR where none. */
int64_t pr_gpurow_corr_link(const struct pr_gpurow *r);
/* Stable sort of idx[0..n) by key(idx[i]) ascending (LSD radix); keys[i] is idx[i]'s key. */
void pr_gpuscan_sort(uint32_t *idx, int64_t *keys, size_t n);
/* Sort of keys[0..n) ascending (LSD radix; 8 bytes a key besides them, against 12 with idx). */
void pr_gpuscan_sort_u64(uint64_t *keys, size_t n);
/* enum pr_gk of a kind text (NULL: PR_GK_NONE). */
uint8_t pr_gpuscan_kind(const char *kind);

#endif
