/*
 * writer_impl.h - what the pieces of the store writer share (private to
 * store/writer*.c; producers use store/store.h).
 *
 * The writer is split along its seams:
 *   writer.c        the producer API (pr_writer_*): begin/abort, run
 *                   attributes, strings, tracks, spans' entry points,
 *                   series/samples/instants/flows/metrics, diagnostics,
 *                   commit (closing open spans, the run's tables)
 *   writer_batch.c  the batch pipeline: records appended to a batch, full
 *                   batches inserted by the background thread (inserter_main)
 *   writer_args.c   args splitting: object-form args to a key list and a
 *                   value list (JSON text), end args merged into the begin's
 *   writer_nest.c   span nesting: per-track stacks (parent, depth, self as
 *                   spans come), op_cover, span_up, and the re-nesting of
 *                   unsorted tracks at commit
 * The functions shared between the files kept the names they had as
 * statics of one writer.c (the move was mechanical); they are declared
 * below, grouped by the file that defines them.
 *
 * OWNERSHIP: as store/store.h; a batch owns its records and arena.
 */
#ifndef PR_WRITER_IMPL_H
#define PR_WRITER_IMPL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "store/store_impl.h"
#include "base/strbuf.h"
#include "base/strmap.h"

#define NULL_I64 INT64_MIN
#define BATCH_RECS 8192
#define BATCH_ARENA (4u << 20)
#define NBATCHES 3
#define NEST_INIT 4 /* a track's first stack: most tracks never nest deeper */

enum rec_type {
	REC_STRING, REC_SPAN, REC_SAMPLE, REC_INSTANT, REC_FLOW, REC_METRIC, REC_ARGKEYS, REC_COVER,
	REC_UP
};

struct rec {
	uint8_t type;
	char ph;
	const char *kind; /* static */
	const char *kind2; /* static: REC_UP's grandparent kind, or NULL */
	int64_t id, track, name, cat, ts, dur, self, depth, parent;
	int64_t akeys; /* argkeys id of the args (0: args stored as given) */
	double value;
	uint32_t off, len;   /* text in the batch arena (args, string value, name) */
	uint32_t off2, len2; /* second text (scope/unit/flow id) */
	uint32_t off3, len3; /* third text (origin/detail) */
};

struct batch {
	struct rec *recs;
	size_t n, cap; /* recs grow to BATCH_RECS as needed: a small input stays small */
	struct pr_strbuf arena;
	struct batch *next;
};

struct nest_ent {
	int64_t id, ts, end, child;
	int32_t depth;
	uint8_t open;
	uint8_t late_cover; /* an op begun open: goes to op_cover when its end is known */
};

struct payload {
	const char *kind;
	int64_t name, cat;
	int64_t at; /* source offset of the span's (begin) event, or -1 */
	struct pr_strbuf keys; /* JSON array of arg names, or empty */
	struct pr_strbuf args; /* JSON array of values (or args as given when keys is empty) */
};

struct track {
	int64_t id;
	char *kind, *pid, *tid, *name;
	int64_t sort_index;
	int has_sort, unsorted;
	int no_extent; /* kind "profiler": not counted in the run's extent */
	int overflow; /* the track of the tracks over PR_WRITER_MAX_TRACKS (per kind) */
	int64_t last_ts, last_dur;
	int has_last;
	int64_t cov_s, cov_e; /* the track's current op_cover interval (has_cov) */
	int has_cov;
	int64_t dropped_open; /* begins skipped for their time: their ends are dropped too */
	struct nest_ent *stack;
	struct payload *pay;
	size_t n, cap;
};

struct series {
	int64_t id;
	char *name, *device, *unit, *orig_unit;
	int64_t count, ts_min, ts_max;
	double min, max;
};

struct diag {
	char *code, *msg;
	int64_t count, offset;
	long line, col;
};

struct pr_writer {
	struct pr_store *st;
	char *format, *source, *label, *collector;
	int64_t rank, world_size, time_origin;
	int has_rank, has_world, has_origin, synthetic;
	json_t *meta;
	int64_t run_id, span_base, next_span, next_instant, next_string, next_track,
		next_series, next_metric;
	int64_t ts_min, ts_max;
	int has_ts;
	int64_t at; /* source offset of the event being written (pr_writer_at), or -1 */
	struct pr_writer_stats stats;

	struct pr_strmap strings;
	struct pr_strmap track_map;
	struct track *tracks;
	size_t ntracks, cap_tracks;
	int64_t track_base;
	struct pr_strmap process_names; /* pid -> index into pnames */
	char **pnames;
	size_t npnames, cap_pnames;
	struct pr_strmap series_map;
	struct series *series;
	size_t nseries, cap_series;
	int64_t series_base;
	int overflowed;           /* an overflow track exists */
	int64_t overflow_events;  /* spans, instants and flows stored on one */
	int64_t dropped_samples;  /* samples of series over PR_WRITER_MAX_SERIES */
	struct diag *diags;
	size_t ndiags;

	/* pipeline */
	pthread_t thread;
	int thread_started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch batches[NBATCHES];
	struct batch *cur, *queue, *queue_tail, *free_list;
	int stop, failed;
	struct pr_error async_err;
	sqlite3_stmt *ins[REC_UP + 1];
	struct pr_strbuf tmp;
	/* args splitting (producer side) */
	struct pr_strmap argkeys;
	int64_t next_argkeys;
	struct pr_strbuf sk, sv; /* scratch for splitting object-form args */
	struct pr_strbuf mk, mv; /* scratch for merging end args */
};

/* ---- writer.c --------------------------------------------------------- */

void note_ts(struct pr_writer *w, int64_t ts, int64_t end);
struct track *track_get(struct pr_writer *w, int64_t id);
/* 1 (and a time_out_of_range diagnostic) when ts is out of range: skip the event. */
int time_skip(struct pr_writer *w, int64_t ts, const char *what);
/* dur, or cut so that ts + dur stays in range (with a diagnostic). */
int64_t end_cut(struct pr_writer *w, int64_t ts, int64_t dur);
/* Steps and resets a statement: 0 when done, -1 otherwise. */
int step_done(sqlite3_stmt *st);

/* ---- writer_batch.c --------------------------------------------------- */

/* Binds v, or NULL when v is NULL_I64. */
int bind_i64(sqlite3_stmt *st, int col, int64_t v);
/* The background thread: inserts the queued batches until stopped (arg: the writer). */
void *inserter_main(void *arg);
/* A new record in the current batch (submitting it first when full). */
struct rec *new_rec(struct pr_writer *w, enum rec_type type, size_t text_bytes);
/* Copies s into the current batch's arena: its offset, *len its length. */
uint32_t arena_add(struct pr_writer *w, const char *s, size_t n, uint32_t *len);
void put_args(struct pr_writer *w, struct rec *r, const char *keys, size_t klen,
	      const char *vals, size_t vlen);
/* Submits the current batch and waits for the thread to insert everything and stop. */
void drain(struct pr_writer *w);

/* ---- writer_args.c ---------------------------------------------------- */

void split_or_keep(struct pr_writer *w, const char *args, size_t n);
void merge_split(struct pr_writer *w, struct payload *p, const char *keys, size_t klen,
		 const char *vals, size_t vlen);

/* ---- writer_nest.c ---------------------------------------------------- */

/* A span (open: a begin whose end comes later) on its track's stack; its id, 0 when skipped. */
int64_t span_add(struct pr_writer *w, const struct pr_span_in *s, int open);
void track_pop(struct pr_writer *w, struct track *t);
/* Writes the track's current op_cover interval out. */
void cover_flush(struct pr_writer *w, struct track *t);
int renest_unsorted(struct pr_writer *w, struct pr_error *err);

#endif
