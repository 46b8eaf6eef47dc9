/*
 * gpuscan.h - one pass over a run's spans shared by the GPU analyses
 * (gpu_breakdown, critical_path, perf_model, gpu; internal to analyze/).
 *
 * USAGE
 *   struct pr_gpuscan *gs = pr_gpuscan_get(ctx, &err);         (NULL on error)
 *   struct pr_gpuread *rd = pr_gpuscan_open(ctx, gs, with_up, &err);
 *   while ((r = pr_gpuread_next(rd))) ... r->kind, r->ts, ...  (id order)
 *   if (pr_gpuread_close(rd, &err)) ...
 *
 * The first call reads (unless the shared span pass of spanstat.h already
 * did, see pr_gpuscan_start), in id order and with no sort in SQLite, the spans
 * the GPU analyses look at: kernels, memcpys, memsets and runtime calls
 * (with their args), phases, steps, GPU annotations and GPU steps, and the
 * ops named as TensorBoard's DataLoader. The CPU ops, most of a trace's
 * spans, are not read: the step breakdown takes where they ran from the
 * store's op_cover. The result is cached in the context until the run is
 * done (before, the two analyses cost three scans of the span table, two of
 * them sorted: on a 1 GB trace more than the ingest).
 *
 * The rows are not held in memory: the pass appends them to a stream
 * (base/spill.h: in memory up to pr_gpuscan_mem, then an unlinked scratch
 * file), and each analysis reads them back in id order, one row at a time
 * (gpu_breakdown, then gpu). The device activities' and runtime calls'
 * parent and grandparent come from the store's span_up (the writer's
 * nesting) when a reader asks for them (with_up: only gpu does): its
 * statement, in span_id order, is merged with the rows' span ids (a second
 * stream, 8 bytes an activity or call) while the rows are read; so the rows
 * are written once and span_up is read only by the analysis that uses it.
 *
 * The args are read on the way, not kept: each row holds its
 * "correlation" and, for device activities, "bytes", "blocks per SM" and
 * "est. achieved occupancy %", parsed as the two analyses parsed them
 * (their readers moved here; their key positions come from argkeys, once
 * per key list).
 *
 * When the run has a GPU stream, the pass inside the shared span pass also
 * keeps critical_path's CPU events (every op and phase span: before, its own
 * scan of the span table, 0.38 s of CPU on bench's 1 GB trace) and the
 * launching ops' rows (each runtime call's parent and the spans above it:
 * before, perf_model and gpu looked each up by id, 0.2 and 0.55 s); see
 * pr_gpuscan_hosts and pr_gpuanc below.
 *
 * MEMORY: the two streams' buffers (pr_gpuscan_mem and a quarter of it),
 * the tracks and DataLoader names, and while the pass runs the argkeys
 * positions: not the rows (80 bytes a row in memory; 47 MB on a 1 GB
 * trace, where they were held until the gpu analysis had copied them). The
 * stream keeps what a row's reader cannot get elsewhere: 40 bytes a row, 104
 * a device activity (its three args values, the launch properties of the
 * kernel view and the "stream" arg: 31 MB on the 1 GB trace before those
 * 40 bytes), and 8
 * bytes of span id an activity or call. With host_on: two more streams'
 * buffers (pr_gpuscan_mem each, at least 4 KiB) and, while the pass runs, the
 * last 64 op, phase and step spans with their args (at most 4 KiB each).
 * OWNERSHIP: the context owns the scan; the gpu analysis, its last reader,
 * frees it (pr_gpuscan_drop) once it has taken its rows.
 */
#ifndef PR_GPUSCAN_H
#define PR_GPUSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/actx.h"
#include "base/imap.h"

struct pr_spill;

enum pr_gk {
	PR_GK_NONE, /* no such span */
	PR_GK_OP,
	PR_GK_RUNTIME,
	PR_GK_KERNEL,
	PR_GK_MEMCPY,
	PR_GK_MEMSET,
	PR_GK_PHASE,
	PR_GK_STEP,
	PR_GK_GPU_ANN,	/* gpu_annotation */
	PR_GK_GPU_STEP, /* gpu_step */
	PR_GK_OTHER
};

#define PR_GPU_NO_CORR INT64_MIN   /* a row without a (readable) correlation */
#define PR_GPU_NO_STREAM INT64_MIN /* a device activity without a (numeric) "stream" arg */
/* cflags: where the gpu_breakdown's reading of the correlation differs from corr */
#define PR_GC_QUOTED 1 /* corr was a string ("123"): gpu_breakdown reads none */
#define PR_GC_LONG 2 /* corr has 19 or more digits: gpu only reads none, corr is gpu_breakdown's */
/* the value is an integer text ("-?[0-9]+", not quoted), which perf_model reads: corr */
#define PR_GC_PMINT 4

/* The args "grid", "block", "registers per thread", "shared memory" of a kernel; -1
 * where absent (grid, block: all three). */
struct pr_launch {
	int32_t grid[3], block[3], regs, smem;
};

/* A row as the readers get it (128 bytes). */
struct pr_gpurow {
	int64_t id; /* the span's id: for activities and runtime calls read with_up, else 0 */
	int64_t ts, dur, name;
	int64_t corr;	/* "correlation" as the gpu analysis reads it, PR_GPU_NO_CORR; see cflags */
	uint32_t track; /* index into the scan's tracks */
	uint8_t kind;	/* enum pr_gk */
	uint8_t pkind, qkind; /* parent's and grandparent's kinds (PR_GK_NONE: none, not an
			       * activity or runtime call, or not read: pr_gpuscan_open) */
	uint8_t cflags;	      /* PR_GC_* */
	union {
		struct {		      /* PR_GK_RUNTIME */
			int64_t pname, qname; /* the parent's and grandparent's names */
			int64_t above;	      /* the parent of the highest of them, 0 = none */
			int64_t parent;	      /* its parent's span id, 0 = none (in the stream) */
		} call;
		struct {			/* PR_GK_KERNEL, PR_GK_MEMCPY, PR_GK_MEMSET */
			int64_t pname, pts;	/* the parent's name and start */
			double bytes, bps, occ; /* the args "bytes", "blocks per SM", "est.
						 * achieved occupancy %"; NAN where absent */
			struct pr_launch lp;	/* kernels' launch properties */
			int64_t stream;		/* the "stream" arg (Kineto's stream id),
					       * PR_GPU_NO_STREAM where absent */
		} act;
	} u;
};

/* The rows' stream in memory before it goes to a scratch file (1 MiB; tests lower it). */
extern size_t pr_gpuscan_mem;
/* Whether the shared pass keeps critical_path's events and the launching ops (1; tests turn
 * it off: the analyses then read the store as before, to the same model). */
extern int pr_gpuscan_hosts_on;

struct pr_gpuscan {
	size_t n;		       /* rows */
	size_t nkind[PR_GK_OTHER + 1]; /* rows per enum pr_gk */
	size_t nstreamed;	       /* device activities with a "stream" arg */
	int64_t *tracks;	       /* track ids of the rows' track indexes */
	int64_t *tstream; /* per track index: the first "stream" arg of its device activities
			   * (Kineto's stream id: 7, 102), PR_GPU_NO_STREAM where none */
	size_t ntracks;
	int64_t *dl; /* name ids of TensorBoard's DataLoader spans, ascending */
	size_t ndl;
	struct pr_spill *rows; /* the rows in id order, without their ancestors */
	struct pr_spill *ids;  /* the span ids of the activities and runtime calls among them */
	int reading;	       /* a reader is open */
	/* what the pass keeps besides the rows when the run has a GPU stream (host_on; only
	 * in the shared span pass, spanstat.c): critical_path's CPU events (the spans of kinds
	 * op and phase, id order: struct pr_gpuhost) and the launching ops (pr_gpuanc) */
	int host_on;
	struct pr_spill *host; /* struct pr_gpuhost, in id order, in blocks of varints */
	size_t nhost;
	unsigned char *hbuf; /* the block being written */
	size_t hlen;
	int64_t hprev[2];	 /* the last event's track and start (deltas) */
	struct pr_spill *anc;	 /* the launching calls' ancestors' rows, ascending ids */
	struct pr_ancslot *ring; /* the last spans of kinds op, phase, step (by id) */
	int64_t anc_last;	 /* the last id put to anc */
	/* while the pass runs */
	struct pr_actx *ctx;
	struct pr_gpukeys *keys; /* per argkeys list read: the positions of the args above */
	size_t nkeys, kcap;
	struct pr_imap key_idx, track_idx;
	int64_t last_key, last_track;
	size_t last_key_i;
	uint32_t last_track_i;
	struct sqlite3_stmt *key_st;
};

/* A reader of the rows (pr_gpuscan_open). */
struct pr_gpuread;

struct pr_gpuscan *pr_gpuscan_get(struct pr_actx *ctx, struct pr_error *err);
/*
 * The pass inside another one (spanstat.c's scan of every span, in id
 * order): start (the DataLoader names), then for each span that
 * pr_gpuscan_wants, pr_gpuscan_add, then finish, which hands the scan to
 * the context (pr_gpuscan_get returns it); on error finish frees gs. args NULL: SQL NULL; has_keys: args_keys is an
 * integer; parent: the span's parent id (0: none), kept for runtime calls.
 */
struct pr_gpuscan *pr_gpuscan_start(struct pr_actx *ctx, struct pr_error *err);
int pr_gpuscan_wants(const struct pr_gpuscan *gs, uint8_t kind, int64_t name_id);
int pr_gpuscan_add(struct pr_gpuscan *gs, int64_t id, int64_t parent, uint8_t kind, int64_t track,
		   int64_t ts, int64_t dur, int64_t name, int has_keys, int64_t akeys,
		   const char *args, size_t alen, struct pr_error *err) PR_MUST_CHECK;
int pr_gpuscan_finish(struct pr_actx *ctx, struct pr_gpuscan *gs,
		      struct pr_error *err) PR_MUST_CHECK;
/* Whether the pass keeps critical_path's events and the launching ops (host_on): when the run
 * has a GPU stream and no other perf event's spans are left out of the pass. */
int pr_gpuscan_host(struct pr_actx *ctx, struct pr_gpuscan *gs, struct pr_error *err) PR_MUST_CHECK;
/* A span of kind op or phase for critical_path (host_on; id order). */
int pr_gpuscan_add_host(struct pr_gpuscan *gs, int64_t id, int64_t parent, uint8_t kind,
			int64_t track, int64_t ts, int64_t dur, int64_t name, int has_keys,
			int64_t akeys, const char *args, size_t alen);
/* Is name_id a DataLoader name ("enumerate(DataLoader)#....__next__")? */
int pr_gpuscan_is_dataloader(const struct pr_gpuscan *gs, int64_t name_id);
void pr_gpuscan_free(struct pr_gpuscan *gs);
/* Frees the context's scan (its last reader is done with it). */
void pr_gpuscan_drop(struct pr_actx *ctx);
/*
 * Reads the rows from the first, in id order; with_up: with the device
 * activities' and runtime calls' ancestors (pkind, qkind and u.call, or
 * u.act.pname and pts; other rows, and a reader without them, have
 * PR_GK_NONE and zeros there). One reader at a time. NULL with err on error.
 */
struct pr_gpuread *pr_gpuscan_open(struct pr_actx *ctx, struct pr_gpuscan *gs, int with_up,
				   struct pr_error *err);
/* The next row (valid until the next call), NULL at the end or on an error (close says). */
const struct pr_gpurow *pr_gpuread_next(struct pr_gpuread *rd);
/* Frees rd (NULL: nothing): 0, or -1 with err when reading failed. */
int pr_gpuread_close(struct pr_gpuread *rd, struct pr_error *err);
/* The correlation as gpu_breakdown reads it: -1 where none. */
int64_t pr_gpurow_corr_break(const struct pr_gpurow *r);
/* The correlation as the gpu analysis reads it: PR_GPU_NO_CORR where none. */
int64_t pr_gpurow_corr_link(const struct pr_gpurow *r);

/*
 * Kineto's ac2g flows (their id is the correlation): fn is called for each
 * end of the run's flows of category "ac2g" whose id is a decimal int64,
 * with the id, start (1: the "s" end, at a runtime call's start on its
 * thread; 0: the "f" end, at a device activity's start on its stream), the
 * end's track and ts; a non-zero return stops the reading (and is
 * returned). pr_gpu_flow_key(track, ts) keys an end (and the span it
 * marks) in a map. The gpu analysis and the trace view both link by them.
 */
typedef int pr_gpu_flow_fn(void *arg, int64_t id, int start, int64_t track, int64_t ts);
int pr_gpu_flows(struct pr_actx *ctx, pr_gpu_flow_fn *fn, void *arg, struct pr_error *err);
int64_t pr_gpu_flow_key(int64_t track, int64_t ts);
/* Sort of keys[0..n) ascending (pr_radix_u64: 8 bytes a key besides them, against 12 with idx). */
void pr_gpuscan_sort_u64(uint64_t *keys, size_t n);
/*
 * A stream's label as Kineto names it: its activities' "stream" arg
 * (gs->tstream) in buf, else the track's thread id tid. Borrowed: buf or tid.
 */
const char *pr_gpuscan_stream_label(int64_t stream, const char *tid, char *buf, size_t n);
/* enum pr_gk of a kind text (NULL: PR_GK_NONE). */
uint8_t pr_gpuscan_kind(const char *kind);

/*
 * critical_path's CPU events: the spans of kinds op and phase of the run in id order
 * (what its scan of the span table read), collected by the shared pass when host_on,
 * read back by pr_gpuscan_hosts (fn's non-zero return stops it and is returned; -1 with
 * err when the stream failed). The stream holds them as varints (the track and start as
 * differences from the previous event's): 6.5 bytes an event on bench's trace, not 32.
 */
struct pr_gpuhost {
	int64_t track, name, ts, dur;
};
typedef int pr_gpuhost_fn(void *arg, const struct pr_gpuhost *h);
int pr_gpuscan_hosts(struct pr_gpuscan *gs, pr_gpuhost_fn *fn, void *arg, struct pr_error *err);

/*
 * The launching ops, read without a lookup: while the shared pass reads the spans in id
 * order it keeps the last ones of kinds op, phase and step (their kind, name, parent,
 * args keys and args: the columns perf_model's add_op and gpu's ancestor lookup read);
 * a runtime call's parent and the spans above it still there are put to a stream in
 * ascending id order (each once). A reader (perf_model, then gpu, which takes the stream:
 * pr_gpuscan_take_anc) finds a span there when asked in ascending order (or among the 16
 * found last); else the analysis looks it up in the store as before: the rows are the
 * store's, so the model is the same either way.
 */
/*
 * PR_TIMINGS=parts (bench/gpu_bench.sh): the thread CPU time of the GPU work done inside
 * other steps (the shared span pass's GPU rows, the kernel sequences inside the gpu
 * analysis), a clock read before and after each call, less the clocks' own cost (measured
 * at the print: an upper bound, the clocks cost more among other work than in a loop);
 * printed as "profreport: timing: part NAME CPU_S calls N raw CPU_S".
 */
struct pr_gpupart {
	double t0, sum;
	uint64_t calls;
};
int pr_gpupart_on(void);
void pr_gpupart_begin(struct pr_gpupart *p);
void pr_gpupart_end(struct pr_gpupart *p);
void pr_gpupart_print(const char *name, const struct pr_gpupart *p);

struct pr_gpuanc_row {
	int64_t id, parent, name, akeys; /* parent 0: NULL; akeys: when has_keys */
	const char *args;		 /* NULL: SQL NULL */
	size_t alen;
	uint8_t kind; /* enum pr_gk: PR_GK_OP, PR_GK_PHASE or PR_GK_STEP */
	uint8_t has_keys;
};
struct pr_gpuanc;
/* A reader of a launching ops' stream (NULL stream: every find misses). */
struct pr_gpuanc *pr_gpuanc_open(struct pr_spill *s, struct pr_error *err);
/* The row of span id (valid until the next find), NULL when the stream lacks it. */
const struct pr_gpuanc_row *pr_gpuanc_find(struct pr_gpuanc *a, int64_t id);
/* Frees a (NULL: nothing): 0, or -1 with err when the stream failed. */
int pr_gpuanc_close(struct pr_gpuanc *a, struct pr_error *err);
/* The stream, taken from the scan (its last reader frees it: pr_spill_free). */
struct pr_spill *pr_gpuscan_take_anc(struct pr_gpuscan *gs);

#endif
