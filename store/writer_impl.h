/*
 * writer_impl.h - the writer's internals shared by its files; not an API.
 *
 * store/writer.c         the producer API (pr_writer_*): tracks, spans and
 *                        their nesting, series, diagnostics, begin and commit;
 * store/writer_session.c a session: the runs of one ingest written one after
 *                        another by one inserter thread, with the prepared
 *                        statements, string and argkeys maps and next ids
 *                        kept from run to run; what the thread does at a
 *                        run's begin and end (savepoint, checks, commit);
 * store/writer_batch.c   row batches and the inserter thread's job queue
 *                        (the thread owns the SQLite connection while runs
 *                        are in flight);
 * store/writer_args.c    args as a key list and a value array: splitting a
 *                        JSON object, merging an end event's args into its
 *                        span's;
 * store/writer_renest.c  re-nesting, at commit, the tracks whose spans did not
 *                        arrive in start order.
 */
#ifndef PR_WRITER_IMPL_H
#define PR_WRITER_IMPL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "base/strmap.h"
#include "store/store.h"

#define NULL_I64 INT64_MIN
#define BATCH_RECS 8192
#define BATCH_ARENA (4u << 20)
#define NBATCHES 3
/* Rows per multi-row INSERT: one statement run inserts this many rows of a
 * table, one cursor kept across them (see insert_batch) */
#define MULTI_ROWS 32
#define NEST_INIT 4 /* a track's first stack: most tracks never nest deeper */

enum rec_type {
	REC_STRING,
	REC_SPAN,
	REC_SAMPLE,
	REC_INSTANT,
	REC_FLOW,
	REC_METRIC,
	REC_ARGKEYS,
	REC_COVER,
	REC_UP
};

struct rec {
	uint8_t type;
	char ph;
	const char *kind;  /* static */
	const char *kind2; /* static: REC_UP's grandparent kind, or NULL */
	int64_t id, track, name, cat, ts, dur, self, depth, parent;
	int64_t akeys; /* argkeys id of the args (0: args stored as given) */
	double value;
	uint32_t off, len;   /* text in the batch arena (args, string value, name) */
	uint32_t off2, len2; /* second text (scope/unit/flow id) */
	uint32_t off3, len3; /* third text (origin/detail) */
};

/* What the inserter thread does, in the order posted: a run's begin, its
 * batches, its end (commit or abort). */
enum job_type {
	JOB_BEGIN,
	JOB_BATCH,
	JOB_COMMIT,
	JOB_ABORT
};

struct job {
	uint8_t type;
	struct pr_writer *w;
	struct batch *b; /* JOB_BATCH */
	struct job *next;
};

struct batch {
	struct rec *recs;
	size_t n, cap; /* recs grow to BATCH_RECS as needed: a small input stays small */
	struct pr_strbuf arena;
	struct job job; /* posting this batch */
	struct batch *next_free;
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
	int64_t at;	       /* source offset of the span's (begin) event, or -1 */
	struct pr_strbuf keys; /* JSON array of arg names, or empty */
	struct pr_strbuf args; /* JSON array of values (or args as given when keys is empty) */
};

struct track {
	int64_t id;
	char *kind, *pid, *tid, *name;
	int64_t sort_index;
	int has_sort, unsorted;
	int no_extent; /* kind "profiler": not counted in the run's extent */
	int overflow;  /* the track of the tracks over PR_WRITER_MAX_TRACKS (per kind) */
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

/* The tables whose ids the writer assigns: next = max(id) + 1 of each. */
enum {
	ID_RUN,
	ID_SPAN,
	ID_STRING,
	ID_TRACK,
	ID_SERIES,
	ID_METRIC,
	ID_ARGKEYS,
	ID_N
};

/* Statements of the session besides the inserts (writer_session.c). */
enum {
	PUT_TRACK,
	PUT_SERIES,
	PUT_DIAG,
	PUT_RUN,
	PUT_META,
	PUT_FIND_HASH,
	PUT_RUN_COUNT,
	PUT_N
};

struct pr_writer_session {
	struct pr_store *st;
	/* the inserter thread and its queue */
	pthread_t thread;
	int thread_started, stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct job *queue, *queue_tail;
	size_t pending; /* runs begun whose end job has not run */
	struct batch batches[NBATCHES];
	struct batch *free_list;
	unsigned long batches_done; /* by the inserter: when to start writeback */
	/* prepared at the start of each transaction (the store may reopen its
	 * connection at BEGIN, pr_store_begin_write), used by the thread */
	sqlite3_stmt *ins[REC_UP + 1];
	/* the same inserts, MULTI_ROWS rows each (NULL until first used,
	 * pr_wr_multi_stmt): row k's parameters are the single statement's
	 * numbered up by k * ins_params[type] */
	sqlite3_stmt *ins_multi[REC_UP + 1];
	int ins_params[REC_UP + 1];
	sqlite3_stmt *put[PUT_N];
	sqlite3_stmt *max_id[ID_N];
	int prepared;
	/* the CREATE INDEX IF NOT EXISTS of a commit ran and was released in this
	 * transaction (the run_id indexes, the step/phase ones) */
	int indexed_runs, indexed_kinds;
	/* producer side: the store as it will be once the runs handed over are
	 * committed */
	struct pr_strmap strings, argkeys;
	int64_t next[ID_N];
	int resync; /* a run's outcome was not a stored run: read the next ids again */
};

struct pr_writer {
	struct pr_store *st;
	char *format, *source, *label, *collector;
	int64_t rank, world_size, time_origin;
	int has_rank, has_world, has_origin, synthetic;
	json_t *meta;
	char **rmeta;  /* the user's metadata (run_meta): key, value, key, value, ... */
	size_t nrmeta; /* keys */
	int64_t run_id, span_base, next_span, next_string, next_track, next_series, next_metric;
	int64_t ts_min, ts_max;
	int has_ts;
	int64_t at; /* source offset of the event being written (pr_writer_at), or -1 */
	struct pr_writer_stats stats;

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
	int overflowed;		 /* an overflow track exists */
	int64_t overflow_events; /* spans, instants and flows stored on one */
	int64_t dropped_samples; /* samples of series over PR_WRITER_MAX_SERIES */
	struct diag *diags;
	size_t ndiags;

	/* the run in the session */
	struct pr_writer_session *s;
	int own_session;    /* pr_writer_begin made the session for this run alone */
	int64_t base[ID_N]; /* the next ids the run began on (the store's, when all goes well) */
	int64_t span_hi;   /* 1 + the highest span id written (span ids of dropped spans are not) */
	struct batch *cur; /* the batch being filled */
	struct job begin_job, end_job;
	char *hash;	 /* content hash, for commit */
	char *meta_text; /* meta as stored, dumped at the hand-over (off the thread) */
	int64_t bytes;
	/* set by the inserter thread (under s->mu once the run is in flight) */
	int open;   /* the run's savepoint (or transaction) is open */
	int begun;  /* JOB_BEGIN ran */
	int stale;  /* begun on ids that are not the store's: nothing written */
	int failed; /* an insert (or the savepoint) failed: async_err */
	int done;   /* JOB_COMMIT/JOB_ABORT ran: rc, out_run */
	int orphan; /* discarded: the thread frees the run after its end job */
	int rc;	    /* 0 stored, 1 duplicate, -1 error, PR_WRITER_STALE */
	int64_t out_run;
	struct pr_error async_err;
	struct pr_strbuf tmp;
	/* args splitting (producer side) */
	int64_t next_argkeys;
	struct pr_strbuf sk, sv; /* scratch for splitting object-form args */
	struct pr_strbuf mk, mv; /* scratch for merging end args */
};

/* ---- writer_batch.c ---- */

/* Binds v, or NULL for NULL_I64. */
int pr_wr_bind_i64(sqlite3_stmt *st, int col, int64_t v);
/* The inserter thread (arg: the session); pr_wr_post starts it. */
void *pr_wr_inserter_main(void *arg);
/* Appends a job to the queue (the thread runs it in turn). */
void pr_wr_post(struct pr_writer_session *s, struct job *j);
/* A free batch (waits for one). */
struct batch *pr_wr_take_batch(struct pr_writer_session *s);
/* Hands the current batch to the inserter and takes a free one. */
void pr_wr_submit_current(struct pr_writer *w);
/* Hands the current batch over if it holds rows, else returns it; w->cur = NULL. */
void pr_wr_release_current(struct pr_writer *w);
/* A new record of the current batch with room for text_bytes of text. */
struct rec *pr_wr_new_rec(struct pr_writer *w, enum rec_type type, size_t text_bytes);
/* Copies n bytes into the current batch's arena; returns the offset, *len = n. */
uint32_t pr_wr_arena_add(struct pr_writer *w, const char *s, size_t n, uint32_t *len);
/* A record's args: pre-split keys/values, interned key list. */
void pr_wr_put_args(struct pr_writer *w, struct rec *r, const char *keys, size_t klen,
		    const char *vals, size_t vlen);
/* Splits object-form args into w->sk/w->sv, or keeps them as given. */
void pr_wr_split_or_keep(struct pr_writer *w, const char *args, size_t n);
/* Waits until no run is in flight (the thread idle; the connection free). */
void pr_wr_quiet(struct pr_writer_session *s);
/* Stops and joins the thread (after pr_wr_quiet). */
void pr_wr_stop(struct pr_writer_session *s);

/* ---- writer_args.c ---- */

/* Splits the JSON object s[0, n) into a key array and a value array (JSON
 * texts appended to keys and vals); 0, or -1 when s is not an object. */
int pr_wr_split_args(const char *s, size_t n, struct pr_strbuf *keys, struct pr_strbuf *vals);
/* Merges an end event's split args into the payload of the span it ends. */
void pr_wr_merge_split(struct pr_writer *w, struct payload *p, const char *keys, size_t klen,
		       const char *vals, size_t vlen);

/* ---- writer_renest.c ---- */

/* Re-nests the tracks marked unsorted from their stored rows (at commit). */
int pr_wr_renest_unsorted(struct pr_writer *w, struct pr_error *err);

/* ---- writer_session.c (run on the inserter thread) ---- */

/* JOB_BEGIN: the run's savepoint, and whether the store's next ids are the
 * ones the run began on. */
void pr_wr_run_begin(struct pr_writer *w);
/* writer_session.c: table type's multi-row insert, prepared on first use;
 * NULL when it cannot be (insert row by row then). */
sqlite3_stmt *pr_wr_multi_stmt(struct pr_writer *w, enum rec_type type);
/* JOB_COMMIT / JOB_ABORT: sets w->rc (and w->out_run, w->async_err). */
void pr_wr_run_end(struct pr_writer *w, int commit);

/* ---- writer.c ---- */

/* 0 when a statement ran to its end (and resets it), -1 otherwise. */
int pr_wr_step_done(sqlite3_stmt *st);
/* Frees a run's memory (not the session's). */
void pr_wr_run_free(struct pr_writer *w);
/* Closes whatever is still open (end of input); idempotent. */
void pr_wr_finish_input(struct pr_writer *w);

#endif
